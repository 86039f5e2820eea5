/* SPDX-License-Identifier: BSD-3-Clause */
/* collect_latency: time per collect (concatenation, each PE contributing the same size here)
 * over every PE; the size is one PE's contribution, 4 B to 64 KiB. Active-set form:
 * shmem_collect32 followed by shmem_barrier_all in each iteration (a pSync array is reusable only
 * after a barrier). Team form, where available: shmem_collectmem back to back. Every size is
 * validated once per form. */
#include "coll_bench.h"

static const bench_desc_t desc = {
    .name = "collect_latency",
    .usage = "collect latency (size = one PE's contribution), in us per call",
    .defaults = {.min_size = 4,
                 .max_size = 1u << 16,
                 .step = 4,
                 .iters = 2000,
                 .warmup = 100,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 1,
};

static void run(int team, void *dst, const void *src, size_t size, long *psync) {
#if COLL_BENCH_HAVE_TEAMS
    if (team) {
        shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, size);
        return;
    }
#else
    (void)team;
#endif
    shmem_collect32(dst, src, size / 4, 0, 0, bench_npes, psync);
    shmem_barrier_all();
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    size_t total = o.max_size * (size_t)bench_npes;
    unsigned char *src = shmem_malloc(o.max_size), *dst = shmem_malloc(total);
    long *psync = coll_bench_psync(SHMEM_COLLECT_SYNC_SIZE);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !vals)
        bench_fail("out of memory", total, 0);
    shmem_barrier_all();
    for (int team = 0; team <= COLL_BENCH_HAVE_TEAMS; team++) {
        for (size_t size = o.min_size < 4 ? 4 : o.min_size; size <= o.max_size; size *= o.step) {
            size -= size % 4;
            bench_pattern_fill(src, size, (uint64_t)bench_me + 1, 7);
            memset(dst, 0, size * (size_t)bench_npes);
            shmem_barrier_all();
            run(team, dst, src, size, psync);
            for (int pe = 0; pe < bench_npes; pe++) {
                long bad = bench_pattern_check(dst + (size_t)pe * size, size, (uint64_t)pe + 1, 7);
                if (bad >= 0)
                    bench_fail("collected data differs", size, bad);
            }
            long iters = coll_bench_iters(&o, size * (size_t)bench_npes);
            long warmup = coll_bench_warmup(&o, iters);
            COLL_BENCH_TIME(&o, iters, warmup, vals, run(team, dst, src, size, psync));
            bench_report(desc.name, team ? "collectmem" : "collect32+barrier_all", "all", size,
                         iters, warmup, o.reps, "us", vals);
        }
    }
    shmem_barrier_all();
    free(vals);
    shmem_free(psync);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
