/* SPDX-License-Identifier: BSD-3-Clause */
/* alltoall_latency: time per all-to-all over every PE; the size is the block each PE sends to
 * each PE, 8 B to 1 MiB. Active-set form: shmem_alltoall64 followed by shmem_barrier_all in each
 * iteration (OpenSHMEM 1.4 lets a pSync array be reused only after a barrier). Team form, where
 * available: shmem_alltoallmem back to back. Every size is validated once per form. */
#include "coll_bench.h"

static const bench_desc_t desc = {
    .name = "alltoall_latency",
    .usage = "all-to-all latency (size = block per pair of PEs), in us per call",
    .defaults = {.min_size = 8,
                 .max_size = 1u << 20,
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
        shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, size);
        return;
    }
#else
    (void)team;
#endif
    shmem_alltoall64(dst, src, size / 8, 0, 0, bench_npes, psync);
    shmem_barrier_all();
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    size_t total = o.max_size * (size_t)bench_npes;
    unsigned char *src = shmem_malloc(total), *dst = shmem_malloc(total);
    long *psync = coll_bench_psync(SHMEM_ALLTOALL_SYNC_SIZE);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !vals)
        bench_fail("out of memory", total, 0);
    shmem_barrier_all();
    for (int team = 0; team <= COLL_BENCH_HAVE_TEAMS; team++) {
        for (size_t size = o.min_size < 8 ? 8 : o.min_size; size <= o.max_size; size *= o.step) {
            size -= size % 8;
            for (int pe = 0; pe < bench_npes; pe++)
                bench_pattern_fill(src + (size_t)pe * size, size, (uint64_t)bench_me + 1,
                                   (uint64_t)pe + 1);
            memset(dst, 0, size * (size_t)bench_npes);
            shmem_barrier_all();
            run(team, dst, src, size, psync);
            for (int pe = 0; pe < bench_npes; pe++) {
                long bad = bench_pattern_check(dst + (size_t)pe * size, size, (uint64_t)pe + 1,
                                               (uint64_t)bench_me + 1);
                if (bad >= 0)
                    bench_fail("all-to-all data differs", size, bad);
            }
            long iters = coll_bench_iters(&o, size * (size_t)bench_npes);
            long warmup = coll_bench_warmup(&o, iters);
            COLL_BENCH_TIME(&o, iters, warmup, vals, run(team, dst, src, size, psync));
            bench_report(desc.name, team ? "alltoallmem" : "alltoall64+barrier_all", "all", size,
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
