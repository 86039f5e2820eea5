/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the collective benchmarks: the point-to-point benchmarks' code (options
 * -b/-e/-f/-n/-w/-r, timing, patterns, table and JSON output) plus what collectives need on top.
 * Written against the OpenSHMEM 1.4 API (active sets, pSync, pWrk) so that the same source builds
 * with Open MPI's OSHMEM; where the library offers OpenSHMEM 1.5 teams, the team form is measured
 * too. */
#ifndef COLL_BENCH_H
#define COLL_BENCH_H

#include "../p2p/bench_common.h"

#if SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5)
#define COLL_BENCH_HAVE_TEAMS 1
#else
#define COLL_BENCH_HAVE_TEAMS 0
#endif

/* Timed iterations for one size: -n, fewer for large sizes (about 256 MiB moved per
 * repetition), at least 5. */
static inline long coll_bench_iters(const bench_opts_t *o, size_t bytes) {
    long cap = (long)((256u << 20) / (bytes ? bytes : 1));
    long n = o->iters < cap ? o->iters : cap;
    return n < 5 ? 5 : n;
}

static inline long coll_bench_warmup(const bench_opts_t *o, long iters) {
    return o->warmup < iters ? o->warmup : iters;
}

/* Times o->reps repetitions of CALL into vals (microseconds per call): each repetition runs CALL
 * warmup times untimed between two barriers, then iters times timed. A macro so that the timed
 * loop calls the operation directly. */
#define COLL_BENCH_TIME(o, iters, warmup, vals, CALL)                                              \
    do {                                                                                           \
        for (int r_ = 0; r_ < (o)->reps; r_++) {                                                   \
            shmem_barrier_all();                                                                   \
            for (long i_ = 0; i_ < (warmup); i_++)                                                 \
                CALL;                                                                              \
            shmem_barrier_all();                                                                   \
            double t0_ = bench_now_ns();                                                           \
            for (long i_ = 0; i_ < (iters); i_++)                                                  \
                CALL;                                                                              \
            (vals)[r_] = (bench_now_ns() - t0_) / (double)(iters) / 1e3;                           \
        }                                                                                          \
    } while (0)

/* A pSync array of n longs, initialized; the caller's next barrier publishes it. */
static inline long *coll_bench_psync(size_t n) {
    long *p = shmem_malloc(n * sizeof(long));
    if (p == NULL)
        bench_fail("out of memory for pSync", n, 0);
    for (size_t i = 0; i < n; i++)
        p[i] = SHMEM_SYNC_VALUE;
    return p;
}

#endif
