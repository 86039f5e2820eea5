/* SPDX-License-Identifier: BSD-3-Clause */
/* barrier_all_latency: time per shmem_barrier_all with every PE taking part. Before each
 * repetition every PE puts a fresh random word to its right neighbour; after the next barrier
 * (quiet + sync) the neighbour checks that the word arrived. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "barrier_all_latency",
    .usage = "barrier_all latency, in us",
    .defaults = {.min_size = 8,
                 .max_size = 8,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 1000,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 0,
    .has_mode = 0,
};

static long token(int pe, int rep) {
    uint64_t st = bench_rand_state((uint64_t)pe + 1, (uint64_t)rep + 1);
    return (long)(bench_rand_next(&st) >> 2) + 1;
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    long *word = shmem_malloc(sizeof(long));
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!word || !vals)
        bench_fail("out of memory", 8, 0);
    int right = (bench_me + 1) % bench_npes, left = (bench_me + bench_npes - 1) % bench_npes;
    *word = 0;
    shmem_barrier_all();
    for (int r = 0; r < o.reps; r++) {
        shmem_long_p(word, token(bench_me, r), right);
        shmem_barrier_all();
        if (*word != token(left, r))
            bench_fail("the word put before the barrier was not delivered by it", 8, *word);
        for (long i = 0; i < o.warmup; i++)
            shmem_barrier_all();
        double t0 = bench_now_ns();
        for (long i = 0; i < o.iters; i++)
            shmem_barrier_all();
        vals[r] = (bench_now_ns() - t0) / (double)o.iters / 1e3;
    }
    bench_report(desc.name, "barrier_all", "all", 0, o.iters, o.warmup, o.reps, "us", vals);
    free(vals);
    shmem_free(word);
    shmem_finalize();
    return 0;
}
