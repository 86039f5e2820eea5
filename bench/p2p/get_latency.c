/* SPDX-License-Identifier: BSD-3-Clause */
/* get_latency: latency of a blocking shmem_getmem from PE 1's memory, issued by PE 0: one
 * round trip per iteration (the data comes back before the call returns). PE 0 checks the data
 * of the last get of each size. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "get_latency",
    .usage = "blocking getmem latency from a remote PE, in us",
    .defaults = {.min_size = 8,
                 .max_size = 8,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 1000,
                 .reps = 5,
                 .window = 1,
                 .mode = "oneway"},
    .has_sizes = 1,
    .has_mode = 0,
};

static char *src, *dst;
static double *vals;

static void oneway(const bench_opts_t *o, size_t size) {
    bench_pattern_fill(src, size, size, 1 + (uint64_t)bench_me);
    bench_pattern_fill(dst, size, size, 100 + (uint64_t)bench_me);
    shmem_barrier_all();
    for (int r = 0; r < o->reps; r++) {
        shmem_barrier_all();
        if (bench_me == 0) {
            for (long i = 0; i < o->warmup; i++)
                shmem_getmem(dst, src, size, 1);
            double t0 = bench_now_ns();
            for (long i = 0; i < o->iters; i++)
                shmem_getmem(dst, src, size, 1);
            vals[r] = (bench_now_ns() - t0) / (double)o->iters / 1e3;
        }
        shmem_barrier_all();
    }
    long bad = bench_me == 0 ? bench_pattern_check(dst, size, size, 2) : -1;
    if (bad >= 0)
        bench_fail("got data differs from the target's pattern", size, bad);
    shmem_barrier_all();
    bench_report(desc.name, "get", "oneway", size, o->iters, o->warmup, o->reps, "us", vals);
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    src = shmem_malloc(o.max_size);
    dst = malloc(o.max_size);
    vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !vals)
        bench_fail("out of memory", o.max_size, 0);
    for (size_t size = o.min_size; size <= o.max_size; size *= o.step)
        oneway(&o, size);
    free(vals);
    free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
