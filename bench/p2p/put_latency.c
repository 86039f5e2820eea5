/* SPDX-License-Identifier: BSD-3-Clause */
/* put_latency: latency of shmem_putmem between PE 0 and PE 1.
 * oneway:   PE 0 issues putmem + quiet per iteration; time per iteration.
 * pingpong: PE 0 puts, fences and sets PE 1's flag with an atomic; PE 1 waits for the flag and
 *           answers the same way; half the round trip is reported. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "put_latency",
    .usage = "putmem latency: one-way (put + quiet) and ping-pong (put + fence + flag), in us",
    .defaults = {.min_size = 8,
                 .max_size = 8,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 1000,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 1,
    .has_mode = 1,
};

static char *src, *dst;
static long *flag;
static double *vals;
static long seq;

static void oneway(const bench_opts_t *o, size_t size) {
    bench_pattern_fill(src, size, size, 0);
    bench_pattern_fill(dst, size, size, 100 + (uint64_t)bench_me);
    shmem_barrier_all();
    for (int r = 0; r < o->reps; r++) {
        shmem_barrier_all();
        if (bench_me == 0) {
            for (long i = 0; i < o->warmup; i++) {
                shmem_putmem(dst, src, size, 1);
                shmem_quiet();
            }
            double t0 = bench_now_ns();
            for (long i = 0; i < o->iters; i++) {
                shmem_putmem(dst, src, size, 1);
                shmem_quiet();
            }
            vals[r] = (bench_now_ns() - t0) / (double)o->iters / 1e3;
        }
        shmem_barrier_all();
    }
    long bad = bench_me == 1 ? bench_pattern_check(dst, size, size, 0) : -1;
    if (bad >= 0)
        bench_fail("one-way put data differs from the sender's pattern", size, bad);
    shmem_barrier_all();
    bench_report(desc.name, "put", "oneway", size, o->iters, o->warmup, o->reps, "us", vals);
}

static void pingpong(const bench_opts_t *o, size_t size) {
    int active = bench_me < 2, peer = 1 - bench_me;
    bench_pattern_fill(src, size, size, 10 + (uint64_t)bench_me);
    bench_pattern_fill(dst, size, size, 200 + (uint64_t)bench_me);
    shmem_barrier_all();
    for (int r = 0; r < o->reps && active; r++) {
        double t0 = 0;
        for (long i = 0; i < o->warmup + o->iters; i++) {
            if (i == o->warmup)
                t0 = bench_now_ns();
            seq++;
            if (bench_me == 0) {
                shmem_putmem(dst, src, size, peer);
                shmem_fence();
                shmem_long_atomic_set(flag, seq, peer);
                shmem_long_wait_until(flag, SHMEM_CMP_EQ, seq);
            } else {
                shmem_long_wait_until(flag, SHMEM_CMP_EQ, seq);
                shmem_putmem(dst, src, size, peer);
                shmem_fence();
                shmem_long_atomic_set(flag, seq, peer);
            }
        }
        vals[r] = (bench_now_ns() - t0) / (double)o->iters / 2e3;
    }
    shmem_barrier_all();
    long bad = active ? bench_pattern_check(dst, size, size, 10 + (uint64_t)peer) : -1;
    if (bad >= 0)
        bench_fail("ping-pong put data differs from the sender's pattern", size, bad);
    shmem_barrier_all();
    bench_report(desc.name, "put", "pingpong", size, o->iters, o->warmup, o->reps, "us", vals);
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    src = shmem_malloc(o.max_size);
    dst = shmem_malloc(o.max_size);
    flag = shmem_malloc(sizeof(long));
    vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !flag || !vals)
        bench_fail("out of memory", o.max_size, 0);
    *flag = 0;
    shmem_barrier_all();
    if (bench_mode_on(&o, "oneway"))
        for (size_t size = o.min_size; size <= o.max_size; size *= o.step)
            oneway(&o, size);
    if (bench_mode_on(&o, "pingpong"))
        for (size_t size = o.min_size; size <= o.max_size; size *= o.step)
            pingpong(&o, size);
    free(vals);
    shmem_free(flag);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
