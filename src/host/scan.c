/* SPDX-License-Identifier: BSD-3-Clause */
/* Scans (OpenSHMEM 1.6): shmem_<T>_sum_inscan and shmem_<T>_sum_exscan. Member i of the team gets,
 * element-wise, the sum of the sources of members 0 to i (inscan) or 0 to i - 1 (exscan; zero on
 * member 0). Two algorithms, chosen by SHMEM_SCAN_ALGORITHM (docs/collectives.md):
 *   recursive_doubling (Hillis-Steele, the default): ceil(log2 n) rounds; in the round of distance
 *     d, member i adds the partial sum that member i - d held after the round before. Partial sums
 *     are published in dest, so a member waits for the member d ahead to have read its dest before
 *     it overwrites it. Each pair of members meets in at most one round (their distance), plus the
 *     neighbours' shift of exscan.
 *   linear: a barrier, each member adds the sources of the members before it in team order, a
 *     barrier; n - 1 reads of the whole vector for the last member, but every member's result is
 *     the sum in team order.
 * The sums of the two algorithms associate differently; for floating-point types the last bits
 * may differ between them, never between runs. Host memory only: a dest or source in GPU memory is
 * an error (the staged path of the other collectives does not cover scans). */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

shmemi_scan_algorithm_t shmemi_scan_algorithm = SHMEMI_SCAN_RECURSIVE_DOUBLING;

typedef struct {
    const char *call;
    shmemi_team_state_t *t;
    char *dest;
    const char *source;
    size_t count;
    size_t nbytes;
    shmemi_reduce_func_t op;
    int exclusive;
} scan_args_t;

static void *scratch(const scan_args_t *a) {
    void *p = malloc(a->nbytes);
    if (p == NULL)
        shmemi_fatal(a->call, "out of memory for a %zu-byte scan buffer", a->nbytes);
    return p;
}

static void scan_linear(const scan_args_t *a) {
    int me = a->t->my_index;
    int last = a->exclusive ? me - 1 : me;
    char *acc = scratch(a);
    shmemi_team_barrier(a->t);
    if (last >= 0) {
        memcpy(acc, shmemi_coll_peer(a->call, a->t, a->source, 0), a->nbytes);
        for (int i = 1; i <= last; i++)
            a->op(acc, shmemi_coll_peer(a->call, a->t, a->source, i), a->count);
    } else {
        memset(acc, 0, a->nbytes);
    }
    /* Every member has read every source before any dest, which may be a source, changes. */
    shmemi_team_barrier(a->t);
    memcpy(a->dest, acc, a->nbytes);
    free(acc);
}

static void scan_recursive_doubling(const scan_args_t *a) {
    shmemi_team_state_t *t = a->t;
    int me = t->my_index, n = t->size;
    char *acc = scratch(a);
    memcpy(acc, a->source, a->nbytes);
    if (a->dest != a->source)
        memcpy(a->dest, a->source, a->nbytes);
    for (int d = 1; d < n; d <<= 1) {
        /* dest holds this member's partial sum of the round before. */
        if (me + d < n)
            shmemi_token_send(t, me + d);
        if (me - d >= 0) {
            shmemi_token_wait(t, me - d);
            a->op(acc, shmemi_coll_peer(a->call, t, a->dest, me - d), a->count);
            shmemi_token_send(t, me - d);
        }
        if (me + d < n)
            shmemi_token_wait(t, me + d);
        memcpy(a->dest, acc, a->nbytes);
    }
    if (a->exclusive) {
        /* Shift by one member: the inclusive sum of the member before, zero on member 0. */
        if (me + 1 < n)
            shmemi_token_send(t, me + 1);
        if (me > 0) {
            shmemi_token_wait(t, me - 1);
            memcpy(acc, shmemi_coll_peer(a->call, t, a->dest, me - 1), a->nbytes);
            shmemi_token_send(t, me - 1);
        } else {
            memset(acc, 0, a->nbytes);
        }
        if (me + 1 < n)
            shmemi_token_wait(t, me + 1);
        memcpy(a->dest, acc, a->nbytes);
    }
    free(acc);
}

static void scan_team(const char *call, shmem_team_t team, void *dest, const void *source,
                      size_t count, size_t elem_size, shmemi_reduce_func_t op, int exclusive) {
    shmemi_team_state_t *t = shmemi_team_get(call, team);
    size_t nbytes = shmemi_coll_nbytes(call, "nelems", count, elem_size);
    if (nbytes != 0 && (dest == NULL || source == NULL))
        shmemi_fatal(call, "%s is NULL", dest == NULL ? "dest" : "source");
    shmemi_coll_check_overlap(call, dest, nbytes, source, nbytes, 1);
    shmemi_coll_check_args(call, t, dest, (int64_t)count, -1);
    if (count == 0)
        return;
    shmemi_coll_check_host_memory(call, dest);
    shmemi_coll_check_host_memory(call, source);
    scan_args_t a = {call, t, dest, source, count, nbytes, op, exclusive};
    if (shmemi_scan_algorithm == SHMEMI_SCAN_LINEAR)
        scan_linear(&a);
    else
        scan_recursive_doubling(&a);
}

#define SHMEMI_SCAN_SUM(x, y) ((x) + (y))

#define SHMEMI_DEF_SCAN(T, N)                                                                      \
    static void scan_sum_##N(void *inout, const void *in, size_t count) {                          \
        T *a = inout;                                                                              \
        const T *b = in;                                                                           \
        for (size_t i = 0; i < count; i++)                                                         \
            a[i] = (T)SHMEMI_SCAN_SUM(a[i], b[i]);                                                 \
    }                                                                                              \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems) {       \
        scan_team("shmem_" #N "_sum_inscan", team, dest, source, nelems, sizeof(T), scan_sum_##N,  \
                  0);                                                                              \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems) {       \
        scan_team("shmem_" #N "_sum_exscan", team, dest, source, nelems, sizeof(T), scan_sum_##N,  \
                  1);                                                                              \
        return 0;                                                                                  \
    }
SHMEMI_REDUCE_ARITH_TYPES(SHMEMI_DEF_SCAN)
