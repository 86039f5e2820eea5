/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomics on the peer's memory (perftests shmem_atomic_latency and shmem_atomic_bw).
 * atomic_latency: one thread of PE 0 runs -n fetching atomics back to back on one word of PE 1
 * (fetch_add, compare_swap), every fetched value checked; microseconds per operation.
 * atomic_bw: every thread of -c blocks of -t threads adds to its own long on PE 1, -n times, then
 * quiet; millions of operations per second; the words are checked afterwards. */
#include "bench_gpu.h"

#define A_FADD 0
#define A_CSWAP 1

template <int Op>
__global__ void amo_latency_kernel(long *target, long start, int peer, long iters,
                                   unsigned long long *errors) {
    unsigned long long bad = 0;
    long cur = start;
    for (long it = 0; it < iters; it++) {
        long old;
        if (Op == A_FADD)
            old = bl_long_fetch_add(target, 1, peer);
        else
            old = bl_long_compare_swap(target, cur, cur + 1, peer);
        bad += old != cur;
        cur = cur + 1;
    }
    if (bad)
        atomicAdd(errors, bad);
}

/* The long at index i of pattern a (two pattern words, low first). */
__device__ __forceinline__ long pattern_long(uint64_t seed, uint64_t a, size_t i) {
    return (long)(((uint64_t)bench_word(seed, a, 2 * i + 1) << 32) | bench_word(seed, a, 2 * i));
}

__global__ void BENCH_BOUNDS amo_bw_kernel(long *target, size_t n, int peer, long iters,
                                           bl_ctx_t ctx) {
    size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (tid < n)
        for (long it = 0; it < iters; it++)
            bl_long_add(target + tid, 1, peer);
    bl_quiet<BL_BLOCK>(ctx);
}

__global__ void amo_bw_check(const long *p, size_t n, uint64_t seed, uint64_t a, long add,
                             unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        e += p[i] != (long)((uint64_t)pattern_long(seed, a, i) + (uint64_t)add);
    if (e)
        atomicAdd(errors, e);
}

static int run_amo_latency(const bench_opts &o) {
    long *target = (long *)bl_malloc(64);
    if (!target)
        return 1;
    const char *ops[] = {"fetch_add", "compare_swap"};
    for (int op = 0; op < 2; op++) {
        if (!o.op.empty() && o.op != "all" && o.op != ops[op])
            continue;
        std::vector<double> us;
        for (int r = 0; r < o.warmup + o.reps + 1; r++) {
            /* PE 1 sets its word to a fresh random value that PE 0 learns. */
            long start = (long)(bench_hash(bench.seed, 4000 + op, r) & 0xffffffffu) + 1;
            BL_CHECK(cudaMemcpy(target, &start, sizeof(long), cudaMemcpyHostToDevice));
            bench_errors_clear();
            bl_barrier_host();
            long iters = r == 0 ? 10 : o.iters;
            float ms = 0;
            if (bench.me == 0)
                ms = bench_time([&] {
                    if (op == A_FADD)
                        amo_latency_kernel<A_FADD><<<1, 1>>>(target, start, 1, iters, bench.errors);
                    else
                        amo_latency_kernel<A_CSWAP>
                            <<<1, 1>>>(target, start, 1, iters, bench.errors);
                });
            bench_fail_if(bench_errors_read(), "atomic_latency", sizeof(long));
            double t = bench_allgather(ms * 1e3 / iters)[0];
            if (r > o.warmup)
                us.push_back(t);
        }
        bench_report("atomic_latency", ops[op], "default", sizeof(long), "us", us, o.iters, o, "");
    }
    bl_barrier_host();
    bl_free(target);
    return 0;
}

static int run_amo_bw(const bench_opts &o) {
    size_t n = (size_t)o.blocks * o.threads;
    long *target = (long *)bl_malloc(n * sizeof(long));
    if (!target)
        return 1;
    bl_ctx_t ctx = BL_CTX_DEFAULT;
    std::vector<double> mops;
    for (int r = 0; r < o.warmup + o.reps + 1; r++) {
        bench_fill(target, n * sizeof(long), 5000 + r);
        bench_errors_clear();
        bl_barrier_host();
        long iters = r == 0 ? 1 : o.iters;
        float ms = 0;
        if (bench.me == 0)
            ms = bench_time(
                [&] { amo_bw_kernel<<<o.blocks, o.threads>>>(target, n, 1, iters, ctx); });
        bl_barrier_host();
        if (bench.me == 1) {
            amo_bw_check<<<264, 512>>>(target, n, bench.seed, 5000 + r, iters, bench.errors);
            BL_CHECK(cudaDeviceSynchronize());
        }
        bench_fail_if(bench_errors_read(), "atomic_bw", n * sizeof(long));
        double v = bench_allgather((double)n * iters / (ms * 1e3))[0];
        if (r > o.warmup)
            mops.push_back(v);
    }
    bench_report("atomic_bw", "add", "default", n * sizeof(long), "Mops/s", mops, o.iters, o, "");
    bl_barrier_host();
    bl_free(target);
    return 0;
}

static bench_opts amo_defaults(int blocks, int threads, long iters) {
    bench_opts d;
    d.iters = iters;
    d.warmup = 1;
    d.reps = 7;
    d.blocks = blocks;
    d.threads = threads;
    return d;
}

static bench_register reg_lat("atomic_latency",
                              "long_atomic_fetch_add / compare_swap on the peer, one thread, us",
                              amo_defaults(1, 1, 1000), run_amo_latency);
static bench_register reg_bw("atomic_bw", "long_atomic_add by every thread to the peer, Mops/s",
                             amo_defaults(32, 1024, 100), run_amo_bw);
