/* SPDX-License-Identifier: BSD-3-Clause */
/* Collect (blocks of any size) and fcollect (blocks of one size): every member ends with all
 * blocks in team order. Collect first all-gathers the block sizes (one small exchange).
 *   recursive_doubling (default where the team size is a power of two): in round k each member
 *     pulls from the member 2^k away the 2^k blocks that member already has, so log2(n) rounds.
 *   ring (default otherwise): n - 1 steps; in step s a member pulls from its left neighbour the
 *     block that neighbour pulled in step s - 1. Every member copies every block once, and each
 *     step's token only involves neighbours, so it works for every n.
 *   linear: a barrier, then every member pulls every block straight from its owner's source,
 *     then a barrier.
 * Every member finally waits for a token from each member that read its dest, so buffers are free
 * on return. With auto, a small team whose members are all on different nodes pushes small
 * blocks instead (collect_push). */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

static void collect_linear(const char *call, shmemi_team_state_t *t, char *dest, const void *source,
                           const size_t *off, const size_t *len) {
    int n = t->size, me = t->my_index;
    shmemi_team_barrier(t);
    for (int s = 0; s < n; s++) {
        int j = (me + s) % n;
        shmemi_coll_get(call, t, dest + off[j], source, len[j], j);
    }
    shmemi_team_barrier(t);
}

static void collect_ring(const char *call, shmemi_team_state_t *t, char *dest, const size_t *off,
                         const size_t *len) {
    int n = t->size, me = t->my_index, right = (me + 1) % n, left = (me - 1 + n) % n;
    for (int s = 1; s < n; s++) {
        int b = (me - s + n) % n;
        shmemi_token_send(t, right);
        shmemi_token_wait(t, left);
        shmemi_coll_get(call, t, dest + off[b], dest + off[b], len[b], left);
    }
    shmemi_token_send(t, left);
    shmemi_token_wait(t, right);
}

static void collect_recursive_doubling(const char *call, shmemi_team_state_t *t, char *dest,
                                       const size_t *off, const size_t *len) {
    int n = t->size, me = t->my_index;
    for (int d = 1; d < n; d <<= 1) {
        int partner = me ^ d, first = partner & ~(d - 1);
        shmemi_token_send(t, partner);
        shmemi_token_wait(t, partner);
        size_t begin = off[first], end = off[first + d - 1] + len[first + d - 1];
        shmemi_coll_get(call, t, dest + begin, dest + begin, end - begin, partner);
    }
    for (int d = 1; d < n; d <<= 1)
        shmemi_token_send(t, me ^ d);
    for (int d = 1; d < n; d <<= 1)
        shmemi_token_wait(t, me ^ d);
}

/* With auto, a team of at most this many members that are all on different nodes, with blocks
 * that fit an eager push, pushes: every member sends its block into every other one's inbox,
 * n - 1 messages each, all in flight together, so every block crosses the network once, one
 * way. */
#define COLLECT_PUSH_MAX_PES 32

static void collect_push(const char *call, const shmemi_team_state_t *t, void *dest,
                         const void *source, const size_t *off, const size_t *len) {
    int n = t->size, me = t->my_index;
    shmemi_coll_block_t *out = malloc(2 * (size_t)n * sizeof(*out)), *in = out + n;
    if (out == NULL)
        shmemi_fatal(call, "out of memory for %d block descriptors", n);
    for (int j = 0; j < n; j++) {
        out[j] = (shmemi_coll_block_t){source, len[me], off[me]};
        in[j] = (shmemi_coll_block_t){NULL, len[j], off[j]};
    }
    if (len[me] != 0)
        memcpy((char *)dest + off[me], source, len[me]);
    shmemi_coll_push_all(call, t, dest, out, in);
    free(out);
}

void shmemi_coll_block_sizes(const char *call, shmemi_team_state_t *t, size_t nbytes, size_t *len) {
    int n = t->size;
    int64_t in[SHMEMI_EXCHANGE_WORDS] = {(int64_t)nbytes, 0, 0, 0};
    int64_t *all = malloc((size_t)n * SHMEMI_EXCHANGE_WORDS * sizeof(int64_t));
    if (all == NULL)
        shmemi_fatal(call, "out of memory for %d block sizes", n);
    shmemi_coll_exchange(call, t, in, all);
    for (int i = 0; i < n; i++)
        len[i] = (size_t)all[(size_t)i * SHMEMI_EXCHANGE_WORDS];
    free(all);
}

void shmemi_coll_collect(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                         size_t nbytes, int fixed) {
    shmemi_coll_check_args(call, t, dest, fixed ? (int64_t)nbytes : -1, -1);
    if (shmemi_coll_staged(dest, source)) {
        shmemi_coll_collect_staged(call, t, dest, source, nbytes, fixed);
        return;
    }
    int n = t->size, me = t->my_index;
    size_t *off = malloc(2 * (size_t)n * sizeof(size_t)), *len = off + n;
    if (off == NULL)
        shmemi_fatal(call, "out of memory for %d block descriptors", n);
    if (!fixed)
        shmemi_coll_block_sizes(call, t, nbytes, len);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (fixed)
            len[i] = nbytes;
        off[i] = total;
        total += len[i];
    }
    shmemi_coll_check_overlap(call, dest, total, source, nbytes, 0);
    if (total == 0) {
        /* Nothing to move; buffers may be NULL. Every member knows the total. */
        free(off);
        return;
    }
    shmemi_collect_algorithm_t alg = shmemi_coll_config.collect;
    size_t longest = 0;
    for (int i = 0; i < n; i++)
        longest = len[i] > longest ? len[i] : longest;
    if (alg == SHMEMI_COLLECT_AUTO && n <= COLLECT_PUSH_MAX_PES &&
        longest <= shmemi_coll_eager_limit(t) && shmemi_coll_all_net(t)) {
        collect_push(call, t, dest, source, off, len);
        free(off);
        return;
    }
    int pow2 = (n & (n - 1)) == 0;
    if (alg == SHMEMI_COLLECT_AUTO || (alg == SHMEMI_COLLECT_RECURSIVE_DOUBLING && !pow2))
        alg = pow2 ? SHMEMI_COLLECT_RECURSIVE_DOUBLING : SHMEMI_COLLECT_RING;
    if (n == 1) {
        memcpy(dest, source, nbytes);
    } else if (alg == SHMEMI_COLLECT_LINEAR) {
        collect_linear(call, t, dest, source, off, len);
    } else {
        /* Own block first: the neighbours pull it from dest. */
        if (len[me] != 0)
            memcpy((char *)dest + off[me], source, len[me]);
        if (alg == SHMEMI_COLLECT_RING)
            collect_ring(call, t, dest, off, len);
        else
            collect_recursive_doubling(call, t, dest, off, len);
    }
    free(off);
}

static void collect_team(const char *call, shmem_team_t team, void *dest, const void *source,
                         size_t nelems, size_t elem_size, int fixed) {
    shmemi_team_state_t *t = shmemi_team_get(call, team);
    size_t nbytes = shmemi_coll_nbytes(call, "nelems", nelems, elem_size);
    shmemi_coll_collect(call, t, dest, source, nbytes, fixed);
}

#define SHMEMI_DEF_COLLECT(T, N)                                                                   \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems) {          \
        collect_team("shmem_" #N "_collect", team, dest, source, nelems, sizeof(T), 0);            \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        collect_team("shmem_" #N "_fcollect", team, dest, source, nelems, sizeof(T), 1);           \
        return 0;                                                                                  \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_COLLECT)

int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    collect_team("shmem_collectmem", team, dest, source, nelems, 1, 0);
    return 0;
}

int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    collect_team("shmem_fcollectmem", team, dest, source, nelems, 1, 1);
    return 0;
}

static void collect_active_set(const char *call, void *dest, const void *source, size_t nelems,
                               size_t elem_size, int fixed, int PE_start, int logPE_stride,
                               int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set(call, PE_start, logPE_stride, PE_size, pSync, &t);
    size_t nbytes = shmemi_coll_nbytes(call, "nelems", nelems, elem_size);
    shmemi_coll_collect(call, &t, dest, source, nbytes, fixed);
}

void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync) {
    collect_active_set("shmem_collect32", dest, source, nelems, 4, 0, PE_start, logPE_stride,
                       PE_size, pSync);
}

void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync) {
    collect_active_set("shmem_collect64", dest, source, nelems, 8, 0, PE_start, logPE_stride,
                       PE_size, pSync);
}

void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync) {
    collect_active_set("shmem_fcollect32", dest, source, nelems, 4, 1, PE_start, logPE_stride,
                       PE_size, pSync);
}

void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync) {
    collect_active_set("shmem_fcollect64", dest, source, nelems, 8, 1, PE_start, logPE_stride,
                       PE_size, pSync);
}
