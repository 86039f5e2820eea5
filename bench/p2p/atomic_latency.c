/* SPDX-License-Identifier: BSD-3-Clause */
/* atomic_latency: latency of blocking fetching atomics on a long in PE 1's memory, issued by PE 0:
 * atomic_fetch_add (fadd) and atomic_compare_swap (cswap). Every fetched value is checked against
 * the value PE 0 expects, and PE 1 checks the final value of its word. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "atomic_latency",
    .usage = "fetching atomic latency on a remote long: fetch-add and compare-swap, in us",
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

static long *word;
static double *vals;

static long random_long(uint64_t *st) {
    return (long)(bench_rand_next(st) >> 8) + 1;
}

static void fadd(const bench_opts_t *o) {
    uint64_t st = bench_rand_state(1, 8);
    long start = random_long(&st), inc = random_long(&st) & 0xffff;
    inc = inc ? inc : 1;
    *word = start;
    shmem_barrier_all();
    long expect = start, bad = 0;
    for (int r = 0; r < o->reps; r++) {
        shmem_barrier_all();
        if (bench_me == 0) {
            double t0 = 0;
            for (long i = 0; i < o->warmup + o->iters; i++) {
                if (i == o->warmup)
                    t0 = bench_now_ns();
                long got = shmem_long_atomic_fetch_add(word, inc, 1);
                bad |= got ^ expect;
                expect += inc;
            }
            vals[r] = (bench_now_ns() - t0) / (double)o->iters / 1e3;
        }
        shmem_barrier_all();
    }
    if (bad)
        bench_fail("fetch-add returned an unexpected value", 8, bad);
    long final = start + (long)o->reps * (o->warmup + o->iters) * inc;
    if (bench_me == 1 && *word != final)
        bench_fail("fetch-add: the target word has an unexpected value", 8, *word);
    shmem_barrier_all();
    bench_report(desc.name, "fadd", "oneway", 8, o->iters, o->warmup, o->reps, "us", vals);
}

static void cswap(const bench_opts_t *o) {
    uint64_t st = bench_rand_state(2, 8);
    long cur = random_long(&st);
    *word = cur;
    shmem_barrier_all();
    long bad = 0;
    for (int r = 0; r < o->reps; r++) {
        shmem_barrier_all();
        if (bench_me == 0) {
            double t0 = 0;
            for (long i = 0; i < o->warmup + o->iters; i++) {
                if (i == o->warmup)
                    t0 = bench_now_ns();
                long next = random_long(&st);
                long got = shmem_long_atomic_compare_swap(word, cur, next, 1);
                bad |= got ^ cur;
                cur = next;
            }
            vals[r] = (bench_now_ns() - t0) / (double)o->iters / 1e3;
        }
        shmem_barrier_all();
    }
    if (bad)
        bench_fail("compare-swap returned an unexpected value", 8, bad);
    if (bench_me != 0)
        for (long i = 0; i < (long)o->reps * (o->warmup + o->iters); i++)
            cur = random_long(&st);
    if (bench_me == 1 && *word != cur)
        bench_fail("compare-swap: the target word has an unexpected value", 8, *word);
    shmem_barrier_all();
    bench_report(desc.name, "cswap", "oneway", 8, o->iters, o->warmup, o->reps, "us", vals);
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    word = shmem_malloc(sizeof(long));
    vals = malloc((size_t)o.reps * sizeof(double));
    if (!word || !vals)
        bench_fail("out of memory", 8, 0);
    fadd(&o);
    cswap(&o);
    free(vals);
    shmem_free(word);
    shmem_finalize();
    return 0;
}
