/* SPDX-License-Identifier: BSD-3-Clause */
/* bcast_latency: time per broadcast from PE 0 to every PE, 8 B to 16 MiB. Active-set form:
 * shmem_broadcast64 followed by shmem_barrier_all in each iteration (OpenSHMEM 1.4 lets a pSync
 * array be reused only after a barrier). Team form, where available: shmem_broadcastmem back to
 * back. Every size is validated once per form against a random pattern. */
#include "coll_bench.h"

static const bench_desc_t desc = {
    .name = "bcast_latency",
    .usage = "broadcast latency from PE 0, in us per call",
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

static void run(int team, void *dst, const void *src, size_t size, long *psync) {
#if COLL_BENCH_HAVE_TEAMS
    if (team) {
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, size, 0);
        return;
    }
#else
    (void)team;
#endif
    shmem_broadcast64(dst, src, size / 8, 0, 0, 0, bench_npes, psync);
    shmem_barrier_all();
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    unsigned char *src = shmem_malloc(o.max_size), *dst = shmem_malloc(o.max_size);
    long *psync = coll_bench_psync(SHMEM_BCAST_SYNC_SIZE);
    double *vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !vals)
        bench_fail("out of memory", o.max_size, 0);
    shmem_barrier_all();
    for (int team = 0; team <= COLL_BENCH_HAVE_TEAMS; team++) {
        for (size_t size = o.min_size < 8 ? 8 : o.min_size; size <= o.max_size; size *= o.step) {
            size -= size % 8;
            bench_pattern_fill(src, size, 1, size);
            memset(dst, 0, size);
            shmem_barrier_all();
            run(team, dst, src, size, psync);
            if (bench_me != 0 || team) {
                long bad = bench_pattern_check(dst, size, 1, size);
                if (bad >= 0)
                    bench_fail("broadcast data differs", size, bad);
            }
            long iters = coll_bench_iters(&o, size), warmup = coll_bench_warmup(&o, iters);
            COLL_BENCH_TIME(&o, iters, warmup, vals, run(team, dst, src, size, psync));
            bench_report(desc.name, team ? "broadcastmem" : "broadcast64+barrier_all", "all", size,
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
