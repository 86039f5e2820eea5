/* SPDX-License-Identifier: BSD-3-Clause */
/* The stream-ordered host forms (the perftests under host/): put_on_stream_bw enqueues -n
 * putmem_on_stream of the message and one quiet_on_stream on PE 0's stream between two CUDA events
 * (GB/s); barrier_on_stream_latency enqueues -n barrier_all_on_stream on both PEs (microseconds per
 * barrier). The put is checked first: the receiver compares the data with the sender's pattern. */
#include "bench_gpu.h"

static int run_put_on_stream(const bench_opts &o) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t max = sizes.back();
    char *dst = (char *)bl_malloc(max), *src = (char *)bl_malloc(max);
    if (!dst || !src)
        return 1;
    for (size_t size : sizes) {
        bench_fill(src, max, 8000 + bench.me);
        bench_poison(dst, max);
        bl_barrier_host();
        if (bench.me == 0) {
            bl_putmem_on_stream(dst, src, size, 1, 0);
            bl_quiet_on_stream(0);
            BL_CHECK(cudaStreamSynchronize(0));
        }
        bl_barrier_host();
        bench_fail_if(bench.me == 1 ? bench_check(dst, size & ~(size_t)3, 8000) : 0,
                      "put_on_stream_bw", size);
        long iters = bench_iters_for(o, size);
        std::vector<double> gbps = bench_samples(o, [&] {
            if (bench.me != 0)
                return 0.0;
            float ms = bench_time([&] {
                for (long i = 0; i < iters; i++)
                    bl_putmem_on_stream(dst, src, size, 1, 0);
                bl_quiet_on_stream(0);
            });
            return (double)size * iters / (ms * 1e6);
        });
        bench_report("put_on_stream_bw", "stream", "default", size, "GB/s", gbps, iters, o, "");
    }
    bl_barrier_host();
    bl_free(src);
    bl_free(dst);
    return 0;
}

static int run_barrier_on_stream(const bench_opts &o) {
    std::vector<double> us = bench_samples(o, [&] {
        float ms = bench_time([&] {
            for (long i = 0; i < o.iters; i++)
                bl_barrier_all_on_stream(0);
        });
        return ms * 1e3 / o.iters;
    });
    bench_report("barrier_on_stream_latency", "stream", "default", 0, "us", us, o.iters, o, "");
    return 0;
}

static bench_opts stream_defaults(size_t min, size_t max, long iters) {
    bench_opts d;
    d.min_size = min;
    d.max_size = max;
    d.step = 4;
    d.iters = iters;
    d.warmup = 1;
    d.reps = 5;
    return d;
}

static bench_register reg_put("put_on_stream_bw",
                              "putmem_on_stream x n + quiet_on_stream, PE 0 to PE 1, GB/s",
                              stream_defaults(4096, 1 << 30, 20), run_put_on_stream);
static bench_register reg_bar("barrier_on_stream_latency",
                              "barrier_all_on_stream x n on both PEs, us",
                              stream_defaults(8, 8, 200), run_barrier_on_stream);
