/* SPDX-License-Identifier: BSD-3-Clause */
/* The node structure of a team whose members span nodes (coll_internal.h, shmemi_coll_hier):
 * which members share this PE's node, and one leader per node. Computed from the route table
 * alone, so every member derives the same structure without asking the others. */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

static void hier_view(shmemi_team_state_t *v, const shmemi_team_state_t *t, const int *members,
                      int size, int my_index) {
    memset(v, 0, sizeof(*v));
    v->in_use = 1;
    v->channel = t->channel;
    v->members = members;
    v->size = size;
    v->my_index = my_index;
}

void shmemi_coll_hier(const char *call, const shmemi_team_state_t *t, int root,
                      shmemi_coll_hier_t *h) {
    memset(h, 0, sizeof(*h));
    h->root_leader = -1;
    /* Without load/store between node peers every PE is a node of its own: nothing to gain. */
    if (t->members != NULL || !shmemi_coll_config.hierarchy || shmemi_n_nodes < 2 ||
        !shmemi_route_p2p || t->size < 3)
        return;
    int n = t->size, nodes = shmemi_n_nodes;
    int my_node = shmemi_routes[shmemi_state.my_pe].node;
    /* leaders (at most min(n, nodes)), local members (at most n), then each node's leader. */
    int *lists = malloc(((size_t)n * 2 + (size_t)nodes) * sizeof(int));
    if (lists == NULL)
        shmemi_fatal(call, "out of memory for the node structure of a team of %d PEs", n);
    int *leaders = lists, *local = lists + n, *leader_of = lists + 2 * n;
    for (int k = 0; k < nodes; k++)
        leader_of[k] = -1;
    int n_leaders = 0, n_local = 0, my_local = 0;
    for (int i = 0; i < n; i++) {
        int pe = shmemi_team_world_pe(t, i), node = shmemi_routes[pe].node;
        if (leader_of[node] < 0) {
            leader_of[node] = n_leaders;
            leaders[n_leaders++] = pe;
        }
        if (node == my_node) {
            if (i == t->my_index)
                my_local = n_local;
            local[n_local++] = pe;
        }
    }
    if (n_leaders < 2 || n_leaders == n) {
        free(lists);
        return;
    }
    int leader_pe = leaders[leader_of[my_node]];
    if (root >= 0) {
        int root_pe = shmemi_team_world_pe(t, root), root_node = shmemi_routes[root_pe].node;
        h->root_leader = leader_of[root_node];
        leaders[h->root_leader] = root_pe;
        h->root_node = root_node == my_node;
        if (h->root_node)
            leader_pe = root_pe;
    }
    h->active = 1;
    h->lists = lists;
    h->is_leader = leader_pe == shmemi_state.my_pe;
    for (int i = 0; i < n_local; i++)
        if (local[i] == leader_pe)
            h->local_leader = i;
    hier_view(&h->local, t, local, n_local, my_local);
    hier_view(&h->leaders, t, leaders, n_leaders, h->is_leader ? leader_of[my_node] : -1);
}

void shmemi_coll_hier_free(shmemi_coll_hier_t *h) {
    free(h->lists);
    h->lists = NULL;
}
