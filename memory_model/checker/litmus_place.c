/* SPDX-License-Identifier: BSD-3-Clause */
/* Where a test's threads and locations live, from its scopes: and regions: lines. */
#include <stdlib.h>
#include <string.h>

#include "litmus.h"

static const char *const level_names[LITMUS_NLEVELS] = {"thread", "warp", "block",
                                                        "device", "pe",   "world"};

int litmus_level_of(const char *tag) {
    for (int i = 0; i < LITMUS_NLEVELS; i++)
        if (strcmp(tag, level_names[i]) == 0)
            return i;
    return -1;
}

static int node_level(const litmus_test_t *t, int node) {
    const char *tag = t->scope_nodes[node].tag;
    return tag[0] ? litmus_level_of(tag) : LITMUS_LEVEL_WORLD;
}

int litmus_scope_path(const litmus_test_t *t, int at, int thread, int *path, int depth) {
    const litmus_scope_node_t *nd = &t->scope_nodes[at];
    if (depth >= LITMUS_MAX_SCOPE_NODES)
        return 0;
    path[depth] = at;
    for (int i = 0; i < nd->nprocs; i++)
        if (nd->procs[i] == thread)
            return depth + 1;
    for (int i = 0; i < nd->nchildren; i++) {
        int len = litmus_scope_path(t, nd->children[i], thread, path, depth + 1);
        if (len)
            return len;
    }
    return 0;
}

int litmus_scope_instance(const litmus_test_t *t, int thread, int level) {
    int path[LITMUS_MAX_SCOPE_NODES];
    if (t->nscope_nodes == 0)
        return LITMUS_MAX_SCOPE_NODES + thread;
    int len = litmus_scope_path(t, t->scope_root, thread, path, 0);
    for (int k = 0; k < len; k++) {
        int l = node_level(t, path[k]);
        if (l < 0)
            return -1;
        /* The first node at or below `level` is the instance, or the implicit one above it. */
        if (l <= level)
            return path[k];
    }
    return LITMUS_MAX_SCOPE_NODES + thread;
}

static void number_pes(const litmus_test_t *t, int node, int *pe_of_node, int *next, int *bad) {
    const litmus_scope_node_t *nd = &t->scope_nodes[node];
    int l = node_level(t, node);
    if (l < 0) {
        *bad = 1;
        return;
    }
    if (l <= LITMUS_LEVEL_PE) {
        pe_of_node[node] = (*next)++;
        return;
    }
    for (int i = 0; i < nd->nchildren; i++)
        number_pes(t, nd->children[i], pe_of_node, next, bad);
    for (int i = 0; i < nd->nprocs; i++)
        pe_of_node[LITMUS_MAX_SCOPE_NODES + nd->procs[i]] = (*next)++;
}

int litmus_place_pes(const litmus_test_t *t, int pe_of[LITMUS_MAX_THREADS]) {
    int pe_of_node[LITMUS_MAX_SCOPE_NODES + LITMUS_MAX_THREADS];
    int next = 0, bad = 0;
    if (t->nscope_nodes == 0) {
        for (int p = 0; p < t->nthreads; p++)
            pe_of[p] = p;
        return t->nthreads;
    }
    number_pes(t, t->scope_root, pe_of_node, &next, &bad);
    if (bad)
        return -1;
    for (int p = 0; p < t->nthreads; p++)
        pe_of[p] = pe_of_node[litmus_scope_instance(t, p, LITMUS_LEVEL_PE)];
    return next;
}

int litmus_loc_home(const litmus_test_t *t, int loc) {
    const char *r = t->region[loc];
    if (strncmp(r, "pe", 2) != 0 || r[2] < '0' || r[2] > '9')
        return -1;
    return atoi(r + 2);
}
