/* SPDX-License-Identifier: BSD-3-Clause */
/* get_bw: bandwidth of blocking shmem_getmem by PE 0 from PE 1. Each repetition issues a number of
 * gets of one size (about 64 MiB per repetition for large sizes, at least 8 gets). */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "get_bw",
    .usage = "blocking getmem bandwidth, in GB/s (1e9 B/s)",
    .defaults = {.min_size = 8,
                 .max_size = 4 << 20,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 100,
                 .reps = 5,
                 .window = 1,
                 .mode = "oneway"},
    .has_sizes = 1,
    .has_mode = 0,
    .has_window = 0,
};

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    char *src = shmem_malloc(o.max_size);
    char *dst = shmem_malloc(o.max_size);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !vals)
        bench_fail("out of memory", o.max_size, 0);

    for (size_t size = o.min_size; size <= o.max_size; size *= o.step) {
        long n = bench_ops_per_rep(&o, size);
        long warm = o.warmup < n ? o.warmup : n;
        bench_pattern_fill(src, size, size, 10 + (uint64_t)bench_me);
        bench_pattern_fill(dst, size, size, 100 + (uint64_t)bench_me);
        shmem_barrier_all();
        for (int r = 0; r < o.reps; r++) {
            shmem_barrier_all();
            if (bench_me == 0) {
                for (long i = 0; i < warm; i++)
                    shmem_getmem(dst, src, size, 1);
                double t0 = bench_now_ns();
                for (long i = 0; i < n; i++)
                    shmem_getmem(dst, src, size, 1);
                vals[r] = (double)size * (double)n / (bench_now_ns() - t0);
            }
            shmem_barrier_all();
        }
        long bad = bench_me == 0 ? bench_pattern_check(dst, size, size, 11) : -1;
        if (bad >= 0)
            bench_fail("get data differs from the source PE's pattern", size, bad);
        shmem_barrier_all();
        bench_report(desc.name, "get", "oneway", size, n, warm, o.reps, "GB/s", vals);
    }

    free(vals);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
