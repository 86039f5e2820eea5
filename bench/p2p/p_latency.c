/* SPDX-License-Identifier: BSD-3-Clause */
/* p_latency: latency of shmem_long_p (8 bytes) between PE 0 and PE 1.
 * oneway:   PE 0 issues p + quiet per iteration; time per iteration.
 * pingpong: PE 0 writes a new value into PE 1's word with p; PE 1 waits for that value and writes
 *           the same value back into PE 0's word; half the round trip is reported. The waited-on
 *           word is the one written, so no other data is ordered by the wait. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "p_latency",
    .usage = "long_p latency: one-way (p + quiet) and ping-pong (p, wait for the echo), in us",
    .defaults = {.min_size = 8,
                 .max_size = 8,
                 .step = 2,
                 .iters = 10000,
                 .warmup = 1000,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 0,
    .has_mode = 1,
};

static long *word;
static double *vals;

/* Values written in iteration i are base + i: all different, known to both PEs, never 0. */
static long value_base(uint64_t key) {
    uint64_t st = bench_rand_state(key, 8);
    return (long)(bench_rand_next(&st) >> 2) + 1;
}

static void oneway(const bench_opts_t *o) {
    long base = value_base(1);
    *word = -1;
    shmem_barrier_all();
    long last = 0;
    for (int r = 0; r < o->reps; r++) {
        shmem_barrier_all();
        if (bench_me == 0) {
            long v = base + (long)r * (o->warmup + o->iters);
            for (long i = 0; i < o->warmup; i++) {
                shmem_long_p(word, v++, 1);
                shmem_quiet();
            }
            double t0 = bench_now_ns();
            for (long i = 0; i < o->iters; i++) {
                shmem_long_p(word, v++, 1);
                shmem_quiet();
            }
            vals[r] = (bench_now_ns() - t0) / (double)o->iters / 1e3;
        }
        last = base + (long)(r + 1) * (o->warmup + o->iters) - 1;
        shmem_barrier_all();
    }
    if (bench_me == 1 && *word != last)
        bench_fail("one-way p: the last value did not arrive", 8, *word);
    shmem_barrier_all();
    bench_report(desc.name, "p", "oneway", 8, o->iters, o->warmup, o->reps, "us", vals);
}

static void pingpong(const bench_opts_t *o) {
    int active = bench_me < 2, peer = 1 - bench_me;
    long v = value_base(2);
    *word = -1;
    shmem_barrier_all();
    for (int r = 0; r < o->reps && active; r++) {
        double t0 = 0;
        for (long i = 0; i < o->warmup + o->iters; i++, v++) {
            if (i == o->warmup)
                t0 = bench_now_ns();
            if (bench_me == 0) {
                shmem_long_p(word, v, peer);
                shmem_long_wait_until(word, SHMEM_CMP_EQ, v);
            } else {
                shmem_long_wait_until(word, SHMEM_CMP_EQ, v);
                shmem_long_p(word, v, peer);
            }
        }
        vals[r] = (bench_now_ns() - t0) / (double)o->iters / 2e3;
    }
    shmem_barrier_all();
    if (active && *word != v - 1)
        bench_fail("ping-pong p: the last value did not arrive", 8, *word);
    shmem_barrier_all();
    bench_report(desc.name, "p", "pingpong", 8, o->iters, o->warmup, o->reps, "us", vals);
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    word = shmem_malloc(sizeof(long));
    vals = malloc((size_t)o.reps * sizeof(double));
    if (!word || !vals)
        bench_fail("out of memory", 8, 0);
    if (bench_mode_on(&o, "oneway"))
        oneway(&o);
    if (bench_mode_on(&o, "pingpong"))
        pingpong(&o);
    free(vals);
    shmem_free(word);
    shmem_finalize();
    return 0;
}
