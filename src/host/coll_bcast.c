/* SPDX-License-Identifier: BSD-3-Clause */
/* Broadcast. Default: a binomial tree rooted at PE_root, pulled and pipelined. A member at
 * distance rel from the root (rel = (index - root) mod n) has the parent rel minus its lowest set
 * bit and the children rel + 2^k for every 2^k below that bit; the tree has depth ceil(log2 n), so
 * the root hands its data to log2(n) children instead of n - 1. Data moves in chunks
 * (SHMEM_BCAST_CHUNK_SIZE): for each chunk the parent sends a token, the child copies the chunk
 * from the parent's buffer into its own dest and passes a token on, so the levels of the tree
 * work concurrently on consecutive chunks. To a child on another node the parent sends one
 * token per window of chunks (SHMEMI_BCAST_NET_WINDOW bytes), once the window's last chunk is
 * there; the child reads the window in one get and then passes each of its chunks on. A child sends
 * a last token to its parent when it has read everything, and nobody returns before its children
 * have, so buffers are free on return. An edge to a child on another node pushes instead where the
 * message is one chunk that fits an eager push (coll_internal.h): into the child's inbox, which the
 * child copies into dest. The data then crosses the network once, one way, and the parent does not
 * wait for such a child at the end: it reads nothing of the parent's. SHMEM_BCAST_ALGORITHM=linear
 * makes every member a child of the root (one level). A team that spans nodes runs the tree among
 * one leader per node (the root on its node) over the network, then inside each node from its
 * leader (shmemi_coll_hier). */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

/* The most bytes of a broadcast that a member reads in one get from a parent on another node. */
#define SHMEMI_BCAST_NET_WINDOW ((size_t)1 << 20)

/* Chunks of chunk bytes per window: what a member reads in one get from a parent on another
 * node, announced by one token. */
static size_t net_window(size_t chunk) {
    return chunk < SHMEMI_BCAST_NET_WINDOW ? SHMEMI_BCAST_NET_WINDOW / chunk : 1;
}

/* Passes chunk c of the message (in mine) to member child: an eager push of the whole message
 * where the child is on another node and the message goes eagerly; else a token, to a child on
 * another node only for the last chunk of each window (the child reads the window in one get). */
static void pass_chunk(const char *call, const shmemi_team_state_t *t, int child, const char *mine,
                       size_t c, size_t nbytes, size_t chunk, int eager) {
    size_t n_chunks = (nbytes + chunk - 1) / chunk;
    if (!shmemi_coll_net_member(t, child))
        shmemi_token_send(t, child);
    else if (eager)
        shmemi_coll_push_eager(call, t, child, mine, nbytes);
    else if ((c + 1) % net_window(chunk) == 0 || c + 1 == n_chunks)
        shmemi_token_send(t, child);
}

/* The tree (or the linear fan-out) over team or view t, for nbytes > 0. */
static void broadcast_tree(const char *call, const shmemi_team_state_t *t, void *dest,
                           const void *source, size_t nbytes, int root, int update_root) {
    int n = t->size, me = t->my_index;
    if (n == 1) {
        if (update_root && dest != source)
            memcpy(dest, source, nbytes);
        return;
    }
    int rel = (me - root + n) % n;
    int linear = shmemi_coll_config.bcast == SHMEMI_BCAST_LINEAR;
    size_t chunk = shmemi_coll_config.bcast_chunk_bytes;
    size_t n_chunks = (nbytes + chunk - 1) / chunk;
    /* A message of one chunk that fits an eager push goes to a child on another node eagerly:
     * every member knows nbytes and the channel, so all choose alike. */
    int eager = n_chunks == 1 && nbytes <= shmemi_coll_eager_limit(t);
    /* Children, largest subtree first so that the deep branches start early. */
    int stack_children[32], *children = stack_children, n_children = 0;
    if (linear) {
        if (rel == 0) {
            if (n - 1 > 32 && (children = malloc((size_t)(n - 1) * sizeof(int))) == NULL)
                shmemi_fatal(call, "out of memory for %d children", n - 1);
            for (int c = 1; c < n; c++)
                children[n_children++] = (c + root) % n;
        }
    } else {
        int limit = rel == 0 ? n : (rel & -rel), top = 1;
        while (top < limit)
            top <<= 1;
        for (int d = top >> 1; d >= 1; d >>= 1)
            if (d < limit && rel + d < n)
                children[n_children++] = (rel + d + root) % n;
    }
    if (rel == 0) {
        if (update_root && dest != source)
            memcpy(dest, source, nbytes);
        for (size_t c = 0; c < n_chunks; c++)
            for (int k = 0; k < n_children; k++)
                pass_chunk(call, t, children[k], source, c, nbytes, chunk, eager);
    } else {
        int parent_rel = linear ? 0 : rel - (rel & -rel);
        int parent = (parent_rel + root) % n;
        int net_parent = shmemi_coll_net_member(t, parent), pushed = eager && net_parent;
        /* The root's data is in its source; every other member's is in its dest. */
        const char *from = parent_rel == 0 ? source : dest;
        /* From a parent on another node, one token announces a window of chunks and one get
         * reads it: over TCP a get costs a round trip, and one large get moves more data per
         * second than several in flight (bench/README.md, "Large data over TCP"). */
        size_t window = net_parent ? net_window(chunk) : 1;
        for (size_t c = 0; c < n_chunks;) {
            size_t first = c, end = n_chunks - c < window ? n_chunks : c + window;
            size_t off = c * chunk, len = (end * chunk < nbytes ? end * chunk : nbytes) - off;
            if (pushed) {
                shmemi_coll_eager_recv(t, parent, dest, len, NULL, 1);
            } else {
                shmemi_token_wait(t, parent);
                shmemi_coll_get(call, t, (char *)dest + off, from + off, len, parent);
            }
            for (c = first; c < end; c++)
                for (int k = 0; k < n_children; k++)
                    pass_chunk(call, t, children[k], dest, c, nbytes, chunk, eager);
        }
        /* A parent we pulled from learns that we have read its buffer. */
        if (!pushed)
            shmemi_token_send(t, parent);
    }
    for (int k = 0; k < n_children; k++)
        if (!eager || !shmemi_coll_net_member(t, children[k]))
            shmemi_token_wait(t, children[k]);
    if (children != stack_children)
        free(children);
}

void shmemi_coll_bcast_view(const char *call, const shmemi_team_state_t *v, void *dest,
                            size_t nbytes, int root) {
    broadcast_tree(call, v, dest, dest, nbytes, root, 0);
}

void shmemi_coll_broadcast(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                           size_t nbytes, int root, int update_root) {
    shmemi_team_check_index(call, t, root, "PE_root");
    /* OpenSHMEM leaves overlapping arguments undefined; every member, the root included, on
     * every path, reports a partial overlap. dest == source (in place) is allowed. */
    shmemi_coll_check_overlap(call, dest, nbytes, source, nbytes, 1);
    shmemi_coll_check_args(call, t, dest, (int64_t)nbytes, root);
    if (shmemi_coll_staged(dest, source)) {
        shmemi_coll_broadcast_staged(call, t, dest, source, nbytes, root, update_root);
        return;
    }
    if (nbytes == 0)
        return;
    shmemi_coll_hier_t h;
    shmemi_coll_hier(call, t, root, &h);
    if (!h.active) {
        broadcast_tree(call, t, dest, source, nbytes, root, update_root);
        return;
    }
    /* Across nodes among the leaders (the root leads its node), into their dest; then inside
     * each node from its leader: the root's data is in its source, another leader's in its dest
     * (so that node's members name dest as the source of the copy). */
    if (h.is_leader)
        broadcast_tree(call, &h.leaders, dest, source, nbytes, h.root_leader, update_root);
    if (h.root_node)
        broadcast_tree(call, &h.local, dest, source, nbytes, h.local_leader, 0);
    else
        broadcast_tree(call, &h.local, dest, dest, nbytes, h.local_leader, 0);
    shmemi_coll_hier_free(&h);
}

static void broadcast_team(const char *call, shmem_team_t team, void *dest, const void *source,
                           size_t nelems, size_t elem_size, int root) {
    shmemi_team_state_t *t = shmemi_team_get(call, team);
    size_t nbytes = shmemi_coll_nbytes(call, "nelems", nelems, elem_size);
    shmemi_coll_broadcast(call, t, dest, source, nbytes, root, 1);
}

#define SHMEMI_DEF_BROADCAST(T, N)                                                                 \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root) {                                                       \
        broadcast_team("shmem_" #N "_broadcast", team, dest, source, nelems, sizeof(T), PE_root);  \
        return 0;                                                                                  \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_BROADCAST)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root) {
    broadcast_team("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
    return 0;
}

static void broadcast_active_set(const char *call, void *dest, const void *source, size_t nelems,
                                 size_t elem_size, int root, int PE_start, int logPE_stride,
                                 int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set(call, PE_start, logPE_stride, PE_size, pSync, &t);
    size_t nbytes = shmemi_coll_nbytes(call, "nelems", nelems, elem_size);
    shmemi_coll_broadcast(call, &t, dest, source, nbytes, root, 0);
}

void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync) {
    broadcast_active_set("shmem_broadcast32", dest, source, nelems, 4, PE_root, PE_start,
                         logPE_stride, PE_size, pSync);
}

void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync) {
    broadcast_active_set("shmem_broadcast64", dest, source, nelems, 8, PE_root, PE_start,
                         logPE_stride, PE_size, pSync);
}
