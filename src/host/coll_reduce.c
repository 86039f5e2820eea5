/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions. Members outside the largest power of two p <= n are folded in first: for the
 * first 2(n - p) members, each even one hands its vector to the odd one after it, which combines
 * and stands for both; at the end it hands the result back. The p remaining members run:
 *   recursive_doubling (default below SHMEM_REDUCE_LARGE_SIZE bytes, and where every member is on
 *     a node of its own and the vector fits a push): log2(p) rounds; in round k
 *     each member combines its vector with that of the member 2^k away. Latency-optimal: every
 *     member moves the whole vector log2(p) times.
 *   rabenseifner (default otherwise): a reduce-scatter by recursive halving (round k combines
 *     half as much as round k - 1, ending with every member owning one fully reduced block of
 *     count / p elements) and an all-gather of those blocks by recursive doubling. Each member
 *     moves about 2 x count elements in all, whatever p, so it wins for large vectors.
 *   linear: a barrier, every member combines all sources in team order, a barrier.
 * Data is pulled from the partner's dest after a token says it is ready, except that in
 * recursive doubling a partner on another node pushes a vector that fits an eager push into this
 * PE's inbox (coll_internal.h); the operations are commutative, and each element is combined in
 * the same order on every member, so every member gets the same bits. A team that spans nodes
 * reduces inside each node, then among one leader per node over the network, then broadcasts
 * inside each node (shmemi_coll_hier). */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

typedef struct {
    const char *call;
    const shmemi_team_state_t *t;
    char *dest;
    size_t count;
    size_t elem_size;
    shmemi_reduce_func_t op;
    int p;                          /* members in the power-of-two group */
    int extra;                      /* n - p: members folded into their odd neighbour */
    int vrank;                      /* index in the group, -1 for a folded member */
    shmemi_coll_scratch_t *scratch; /* copies of network peers' vectors */
} reduce_ctx_t;

/* Team index of group member v. */
static int group_member(const reduce_ctx_t *c, int v) {
    return v < c->extra ? 2 * v + 1 : v + c->extra;
}

/* count elements from element first of member index's dest, to read. */
static const char *peer_dest(const reduce_ctx_t *c, int index, size_t first, size_t count) {
    return shmemi_coll_read(c->call, c->t, c->dest + first * c->elem_size, count * c->elem_size,
                            index, c->scratch);
}

static void reduce_recursive_doubling(const reduce_ctx_t *c) {
    size_t nbytes = c->count * c->elem_size;
    int eager = nbytes <= shmemi_coll_eager_limit(c->t);
    char *tmp = NULL;
    for (int d = 1; d < c->p; d <<= 1) {
        int partner = group_member(c, c->vrank ^ d);
        if (eager && shmemi_coll_net_member(c->t, partner)) {
            /* Push ours into the partner's inbox (complete locally before dest changes), then
             * combine with what it pushed into ours: one one-way crossing each. */
            shmemi_coll_push_eager(c->call, c->t, partner, c->dest, nbytes);
            shmemi_coll_eager_recv(c->t, partner, c->dest, nbytes, c->op, c->elem_size);
            continue;
        }
        if (tmp == NULL && (tmp = malloc(nbytes)) == NULL)
            shmemi_fatal(c->call, "out of memory for a %zu-byte reduction buffer", nbytes);
        shmemi_token_send(c->t, partner);
        shmemi_token_wait(c->t, partner);
        memcpy(tmp, c->dest, nbytes);
        c->op(tmp, peer_dest(c, partner, 0, c->count), c->count);
        /* Both have read the other's vector before either overwrites its own. */
        shmemi_token_send(c->t, partner);
        shmemi_token_wait(c->t, partner);
        memcpy(c->dest, tmp, nbytes);
    }
    free(tmp);
}

static size_t block_start(const reduce_ctx_t *c, int b) {
    return (size_t)((unsigned __int128)c->count * (unsigned)b / (unsigned)c->p);
}

static void reduce_rabenseifner(const reduce_ctx_t *c) {
    int v = c->vrank, lo = 0;
    size_t es = c->elem_size;
    /* Reduce-scatter: keep the half of the current block range that holds block v. */
    for (int d = c->p >> 1; d >= 1; d >>= 1) {
        int partner = group_member(c, v ^ d);
        if (v & d)
            lo += d;
        size_t begin = block_start(c, lo), end = block_start(c, lo + d);
        shmemi_token_send(c->t, partner);
        shmemi_token_wait(c->t, partner);
        c->op(c->dest + begin * es, peer_dest(c, partner, begin, end - begin), end - begin);
    }
    /* All-gather: fetch the partner's range, which doubles at every round. */
    for (int d = 1; d < c->p; d <<= 1) {
        int pv = v ^ d, partner = group_member(c, pv), first = pv & ~(d - 1);
        size_t begin = block_start(c, first), end = block_start(c, first + d);
        shmemi_token_send(c->t, partner);
        shmemi_token_wait(c->t, partner);
        shmemi_coll_get(c->call, c->t, c->dest + begin * es, c->dest + begin * es,
                        (end - begin) * es, partner);
    }
    for (int d = 1; d < c->p; d <<= 1)
        shmemi_token_send(c->t, group_member(c, v ^ d));
    for (int d = 1; d < c->p; d <<= 1)
        shmemi_token_wait(c->t, group_member(c, v ^ d));
}

static void reduce_linear(const reduce_ctx_t *c, const void *source) {
    size_t nbytes = c->count * c->elem_size;
    char *tmp = malloc(nbytes);
    if (tmp == NULL)
        shmemi_fatal(c->call, "out of memory for a %zu-byte reduction buffer", nbytes);
    shmemi_team_barrier(c->t);
    shmemi_coll_get(c->call, c->t, tmp, source, nbytes, 0);
    for (int i = 1; i < c->t->size; i++)
        c->op(tmp, shmemi_coll_read(c->call, c->t, source, nbytes, i, c->scratch), c->count);
    shmemi_team_barrier(c->t);
    memcpy(c->dest, tmp, nbytes);
    free(tmp);
}

/* The reduction over team or view t, for count > 0, on symmetric dest and source. */
static void reduce_run(const char *call, const shmemi_team_state_t *t, void *dest,
                       const void *source, size_t count, size_t elem_size,
                       shmemi_reduce_func_t op) {
    int n = t->size, me = t->my_index;
    size_t nbytes = count * elem_size;
    if (n == 1) {
        if (dest != source)
            memcpy(dest, source, nbytes);
        return;
    }
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    shmemi_coll_scratch_t scratch = {NULL, 0};
    reduce_ctx_t c = {call, t, dest, count, elem_size, op, p, n - p, -1, &scratch};
    shmemi_reduce_algorithm_t alg = shmemi_coll_config.reduce;
    /* Where every member is on a node of its own and the vector fits a push, recursive doubling
     * crosses the network once per round, one way, and Rabenseifner's pulls cost more whatever
     * SHMEM_REDUCE_LARGE_SIZE says (docs/collectives.md). Every member decides alike. */
    if (alg == SHMEMI_REDUCE_AUTO)
        alg = nbytes >= shmemi_coll_config.reduce_large_bytes && count >= (size_t)p &&
                      !(nbytes <= shmemi_coll_eager_limit(t) && shmemi_coll_all_net(t))
                  ? SHMEMI_REDUCE_RABENSEIFNER
                  : SHMEMI_REDUCE_RECURSIVE_DOUBLING;
    if (alg == SHMEMI_REDUCE_LINEAR) {
        reduce_linear(&c, source);
        free(scratch.buf);
        return;
    }
    if (dest != source)
        memcpy(dest, source, nbytes);
    if (me < 2 * c.extra && me % 2 == 0) {
        /* Folded member: hand over the vector, wait for the result, take it. */
        shmemi_token_send(t, me + 1);
        shmemi_token_wait(t, me + 1);
        shmemi_coll_get(call, t, dest, dest, nbytes, me + 1);
        shmemi_token_send(t, me + 1);
        return;
    }
    if (me < 2 * c.extra) {
        shmemi_token_wait(t, me - 1);
        op(dest, peer_dest(&c, me - 1, 0, count), count);
        c.vrank = me / 2;
    } else {
        c.vrank = me - c.extra;
    }
    if (alg == SHMEMI_REDUCE_RABENSEIFNER)
        reduce_rabenseifner(&c);
    else
        reduce_recursive_doubling(&c);
    if (me < 2 * c.extra) {
        shmemi_token_send(t, me - 1);
        shmemi_token_wait(t, me - 1);
    }
    free(scratch.buf);
}

void shmemi_coll_reduce(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                        size_t count, size_t elem_size, shmemi_reduce_func_t op) {
    size_t nbytes = shmemi_coll_nbytes(call, "nreduce", count, elem_size);
    shmemi_coll_check_overlap(call, dest, nbytes, source, nbytes, 1);
    shmemi_coll_check_args(call, t, dest, (int64_t)count, -1);
    if (shmemi_coll_staged(dest, source)) {
        shmemi_coll_reduce_staged(call, t, dest, source, count, elem_size, op);
        return;
    }
    if (count == 0)
        return;
    if (t->size == 1) {
        if (dest != source)
            memcpy(dest, source, nbytes);
        return;
    }
    /* Every member reads the others' source and dest: name the one that is not symmetric. */
    shmemi_coll_check_symmetric(call, dest, "dest");
    shmemi_coll_check_symmetric(call, source, "source");
    shmemi_coll_hier_t h;
    shmemi_coll_hier(call, t, -1, &h);
    if (!h.active) {
        reduce_run(call, t, dest, source, count, elem_size, op);
        return;
    }
    /* Inside the node (every member gets the node's result in dest), among the leaders over the
     * network (dest in place), then from each leader to its node. The leaders all get the same
     * bits, and the broadcast copies them, so every member does. */
    reduce_run(call, &h.local, dest, source, count, elem_size, op);
    if (h.is_leader)
        reduce_run(call, &h.leaders, dest, dest, count, elem_size, op);
    shmemi_coll_bcast_view(call, &h.local, dest, nbytes, h.local_leader);
    shmemi_coll_hier_free(&h);
}

/* ---- typed entry points --------------------------------------------------------------------- */

#define SHMEMI_AND(x, y) ((x) & (y))
#define SHMEMI_OR(x, y) ((x) | (y))
#define SHMEMI_XOR(x, y) ((x) ^ (y))
#define SHMEMI_MAX(x, y) ((y) > (x) ? (y) : (x))
#define SHMEMI_MIN(x, y) ((y) < (x) ? (y) : (x))
#define SHMEMI_SUM(x, y) ((x) + (y))
#define SHMEMI_PROD(x, y) ((x) * (y))

#define SHMEMI_DEF_COMBINE(PREFIX, T, N, OP, EXPR)                                                 \
    static void PREFIX##_##N##_##OP(void *inout, const void *in, size_t count) {                   \
        T *a = inout;                                                                              \
        const T *b = in;                                                                           \
        for (size_t i = 0; i < count; i++)                                                         \
            a[i] = (T)EXPR(a[i], b[i]);                                                            \
    }

static void reduce_team(const char *call, shmem_team_t team, void *dest, const void *source,
                        size_t count, size_t elem_size, shmemi_reduce_func_t op) {
    shmemi_coll_reduce(call, shmemi_team_get(call, team), dest, source, count, elem_size, op);
}

#define SHMEMI_DEF_REDUCE(T, N, OP, EXPR)                                                          \
    SHMEMI_DEF_COMBINE(combine, T, N, OP, EXPR)                                                    \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce) {   \
        reduce_team("shmem_" #N "_" #OP "_reduce", team, dest, source, nreduce, sizeof(T),         \
                    combine_##N##_##OP);                                                           \
        return 0;                                                                                  \
    }
#define SHMEMI_DEF_REDUCE_BITWISE(T, N)                                                            \
    SHMEMI_DEF_REDUCE(T, N, and, SHMEMI_AND)                                                       \
    SHMEMI_DEF_REDUCE(T, N, or, SHMEMI_OR) SHMEMI_DEF_REDUCE(T, N, xor, SHMEMI_XOR)
#define SHMEMI_DEF_REDUCE_MINMAX(T, N)                                                             \
    SHMEMI_DEF_REDUCE(T, N, max, SHMEMI_MAX) SHMEMI_DEF_REDUCE(T, N, min, SHMEMI_MIN)
#define SHMEMI_DEF_REDUCE_ARITH(T, N)                                                              \
    SHMEMI_DEF_REDUCE(T, N, sum, SHMEMI_SUM) SHMEMI_DEF_REDUCE(T, N, prod, SHMEMI_PROD)
SHMEMI_REDUCE_BITWISE_TYPES(SHMEMI_DEF_REDUCE_BITWISE)
SHMEMI_REDUCE_MINMAX_TYPES(SHMEMI_DEF_REDUCE_MINMAX)
SHMEMI_REDUCE_ARITH_TYPES(SHMEMI_DEF_REDUCE_ARITH)

static void reduce_active_set(const char *call, void *dest, const void *source, int nreduce,
                              size_t elem_size, shmemi_reduce_func_t op, int PE_start,
                              int logPE_stride, int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set(call, PE_start, logPE_stride, PE_size, pSync, &t);
    if (nreduce < 0)
        shmemi_fatal(call, "nreduce %d is negative", nreduce);
    shmemi_coll_reduce(call, &t, dest, source, (size_t)nreduce, elem_size, op);
}

#define SHMEMI_DEF_TO_ALL(T, N, OP, EXPR)                                                          \
    SHMEMI_DEF_COMBINE(to_all, T, N, OP, EXPR)                                                     \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,            \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync) {          \
        (void)pWrk;                                                                                \
        reduce_active_set("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, sizeof(T),         \
                          to_all_##N##_##OP, PE_start, logPE_stride, PE_size, pSync);              \
    }
#define SHMEMI_DEF_TO_ALL_BITWISE(T, N)                                                            \
    SHMEMI_DEF_TO_ALL(T, N, and, SHMEMI_AND)                                                       \
    SHMEMI_DEF_TO_ALL(T, N, or, SHMEMI_OR) SHMEMI_DEF_TO_ALL(T, N, xor, SHMEMI_XOR)
#define SHMEMI_DEF_TO_ALL_MINMAX(T, N)                                                             \
    SHMEMI_DEF_TO_ALL(T, N, max, SHMEMI_MAX) SHMEMI_DEF_TO_ALL(T, N, min, SHMEMI_MIN)
#define SHMEMI_DEF_TO_ALL_ARITH(T, N)                                                              \
    SHMEMI_DEF_TO_ALL(T, N, sum, SHMEMI_SUM) SHMEMI_DEF_TO_ALL(T, N, prod, SHMEMI_PROD)
SHMEMI_TO_ALL_BITWISE_TYPES(SHMEMI_DEF_TO_ALL_BITWISE)
SHMEMI_TO_ALL_MINMAX_TYPES(SHMEMI_DEF_TO_ALL_MINMAX)
SHMEMI_TO_ALL_ARITH_TYPES(SHMEMI_DEF_TO_ALL_ARITH)
