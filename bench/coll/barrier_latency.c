/* SPDX-License-Identifier: BSD-3-Clause */
/* barrier_latency: time per barrier with every PE taking part: shmem_barrier_all, the active-set
 * shmem_barrier over all PEs, and with teams shmem_sync_all and shmem_team_sync. Before each
 * repetition every PE puts a fresh word to its right neighbour and checks after the next
 * barrier_all that its left neighbour's word arrived. */
#include "coll_bench.h"

static const bench_desc_t desc = {
    .name = "barrier_latency",
    .usage = "barrier latency (barrier_all, barrier, sync_all, team_sync), in us",
    .defaults = {.min_size = 8,
                 .max_size = 8,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 1000,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
};

enum { OP_BARRIER_ALL, OP_BARRIER, OP_SYNC_ALL, OP_TEAM_SYNC, N_OPS };
static const char *const op_names[N_OPS] = {"barrier_all", "barrier", "sync_all", "team_sync"};

static long token(int pe, int rep, int op) {
    uint64_t st = bench_rand_state((uint64_t)pe + 1, (uint64_t)(rep * N_OPS + op) + 1);
    return (long)(bench_rand_next(&st) >> 2) + 1;
}

static void run_op(int op, long *psync) {
    switch (op) {
    case OP_BARRIER_ALL:
        shmem_barrier_all();
        break;
    case OP_BARRIER:
        shmem_barrier(0, 0, bench_npes, psync);
        break;
#if COLL_BENCH_HAVE_TEAMS
    case OP_SYNC_ALL:
        shmem_sync_all();
        break;
    case OP_TEAM_SYNC:
        shmem_team_sync(SHMEM_TEAM_WORLD);
        break;
#endif
    default:
        break;
    }
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    long *word = shmem_malloc(sizeof(long));
    long *psync = coll_bench_psync(SHMEM_BARRIER_SYNC_SIZE);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!word || !vals)
        bench_fail("out of memory", 8, 0);
    int right = (bench_me + 1) % bench_npes, left = (bench_me + bench_npes - 1) % bench_npes;
    *word = 0;
    shmem_barrier_all();
    int n_ops = COLL_BENCH_HAVE_TEAMS ? N_OPS : OP_SYNC_ALL;
    for (int op = 0; op < n_ops; op++) {
        for (int r = 0; r < o.reps; r++) {
            shmem_long_p(word, token(bench_me, r, op), right);
            shmem_barrier_all();
            if (*word != token(left, r, op))
                bench_fail("the word put before the barrier was not delivered by it", 8, *word);
            shmem_barrier_all();
            for (long i = 0; i < o.warmup; i++)
                run_op(op, psync);
            double t0 = bench_now_ns();
            for (long i = 0; i < o.iters; i++)
                run_op(op, psync);
            vals[r] = (bench_now_ns() - t0) / (double)o.iters / 1e3;
        }
        bench_report(desc.name, op_names[op], "all", 0, o.iters, o.warmup, o.reps, "us", vals);
    }
    shmem_barrier_all();
    free(vals);
    shmem_free(psync);
    shmem_free(word);
    shmem_finalize();
    return 0;
}
