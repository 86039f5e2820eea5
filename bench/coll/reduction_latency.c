/* SPDX-License-Identifier: BSD-3-Clause */
/* reduction_latency: time per sum reduction of 64-bit integers over every PE, 8 B to 16 MiB.
 * Active-set form: shmem_long_sum_to_all followed by shmem_barrier_all in each iteration
 * (OpenSHMEM 1.4 lets pSync and pWrk be reused only after a barrier). Team form, where
 * available: shmem_long_sum_reduce back to back. Every size is validated once per form. */
#include "coll_bench.h"

static const bench_desc_t desc = {
    .name = "reduction_latency",
    .usage = "sum reduction (long) latency, in us per call",
    .defaults = {.min_size = 8,
                 .max_size = 16u << 20,
                 .step = 4,
                 .iters = 2000,
                 .warmup = 100,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 1,
};

static long value(int pe, size_t i) {
    return (long)((uint64_t)pe * 1000003u + i * 7919u) % 1000 + 1;
}

static void run(int team, long *dst, const long *src, size_t count, long *pwrk, long *psync) {
#if COLL_BENCH_HAVE_TEAMS
    if (team) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, count);
        return;
    }
#else
    (void)team;
#endif
    shmem_long_sum_to_all(dst, src, (int)count, 0, 0, bench_npes, pwrk, psync);
    shmem_barrier_all();
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    size_t max_count = o.max_size / sizeof(long);
    size_t wrk = max_count / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? max_count / 2 + 1
                                                                   : SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    long *src = shmem_malloc(max_count * sizeof(long)),
         *dst = shmem_malloc(max_count * sizeof(long));
    long *pwrk = shmem_malloc(wrk * sizeof(long));
    long *psync = coll_bench_psync(SHMEM_REDUCE_SYNC_SIZE);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !pwrk || !vals)
        bench_fail("out of memory", o.max_size, 0);
    for (size_t i = 0; i < max_count; i++)
        src[i] = value(bench_me, i);
    shmem_barrier_all();
    for (int team = 0; team <= COLL_BENCH_HAVE_TEAMS; team++) {
        for (size_t size = o.min_size < 8 ? 8 : o.min_size; size <= o.max_size; size *= o.step) {
            size_t count = size / sizeof(long);
            memset(dst, 0, count * sizeof(long));
            shmem_barrier_all();
            run(team, dst, src, count, pwrk, psync);
            for (size_t i = 0; i < count; i++) {
                long want = 0;
                for (int pe = 0; pe < bench_npes; pe++)
                    want += value(pe, i);
                if (dst[i] != want)
                    bench_fail("sum differs", size, (long)i);
            }
            long iters = coll_bench_iters(&o, size), warmup = coll_bench_warmup(&o, iters);
            COLL_BENCH_TIME(&o, iters, warmup, vals, run(team, dst, src, count, pwrk, psync));
            bench_report(desc.name, team ? "long_sum_reduce" : "long_sum_to_all+barrier_all", "all",
                         size, iters, warmup, o.reps, "us", vals);
        }
    }
    shmem_barrier_all();
    free(vals);
    shmem_free(psync);
    shmem_free(pwrk);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
