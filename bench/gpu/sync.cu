/* SPDX-License-Identifier: BSD-3-Clause */
/* barrier_all in a kernel (perftest barrier_latency): both PEs run -n barriers back to back in one
 * block, as one thread, one warp or the whole block (-s); microseconds per barrier. Checked first:
 * before each barrier every PE writes a new value to its neighbour with p, and reads the value
 * its neighbour wrote once the barrier returns. */
#include "bench_gpu.h"

template <int G, int Check>
__global__ void BENCH_BOUNDS barrier_kernel(long *slot, int me, long iters, long base,
                                            unsigned long long *errors) {
    unsigned long long bad = 0;
    for (long it = 0; it < iters; it++) {
        if (Check && bl_group_leader<G>())
            bl_long_p(slot, base + it * 2 + me, 1 - me);
        bl_barrier_all<G>();
        if (Check && bl_group_leader<G>())
            bad += *(volatile long *)slot != base + it * 2 + (1 - me);
        if (Check)
            bl_barrier_all<G>();
    }
    if (Check && bad)
        atomicAdd(errors, bad);
}

template <int Check> static const void *barrier_for(int scope) {
    if (scope == BL_BLOCK)
        return (const void *)barrier_kernel<BL_BLOCK, Check>;
    if (scope == BL_WARP)
        return (const void *)barrier_kernel<BL_WARP, Check>;
    return (const void *)barrier_kernel<BL_THREAD, Check>;
}

static int run_barrier(const bench_opts &o) {
    long *slot = (long *)bl_malloc(sizeof(long));
    if (!slot)
        return 1;
    int threads = o.scope == BL_THREAD ? 1 : o.scope == BL_WARP ? 32 : o.threads;
    long launches = 0;
    auto launch = [&](int check, long iters) {
        long base = (long)(bench.seed & 0xffffff) * 1000000 + (launches++) * 100000;
        void *args[] = {&slot, &bench.me, &iters, &base, &bench.errors};
        BL_CHECK(cudaLaunchKernel(check ? barrier_for<1>(o.scope) : barrier_for<0>(o.scope),
                                  dim3(1), dim3(threads), args, 0, 0));
    };
    bench_errors_clear();
    bl_barrier_host();
    launch(1, 100);
    BL_CHECK(cudaDeviceSynchronize());
    bench_fail_if(bench_errors_read(), "barrier_latency", 0);
    std::vector<double> us =
        bench_samples(o, [&] { return bench_time([&] { launch(0, o.iters); }) * 1e3 / o.iters; });
    bench_report("barrier_latency", bench_scope_name(o.scope), "default", 0, "us", us, o.iters, o,
                 "");
    bl_barrier_host();
    bl_free(slot);
    return 0;
}

static bench_opts barrier_defaults() {
    bench_opts d;
    d.iters = 1000;
    d.warmup = 1;
    d.reps = 7;
    d.threads = 128;
    d.scope = BL_THREAD;
    return d;
}

static bench_register reg("barrier_latency", "barrier_all in a kernel, both PEs, us",
                          barrier_defaults(), run_barrier);
