/* SPDX-License-Identifier: BSD-3-Clause */
/* Latencies between the two PEs (perftests shmem_p_latency, shmem_put_latency,
 * shmem_p_ping_pong_latency, shmem_put_signal_ping_pong_latency) and the cost of fence and quiet
 * with nothing outstanding and after one 8-byte put. One block; one timed kernel runs -n
 * iterations; microseconds per iteration (per half round trip for the ping-pongs). */
#include "bench_gpu.h"

#define K_P 0   /* p_latency: every thread p's its longs, then quiet */
#define K_PUT 1 /* put_latency: putmem_nbi by the group, then quiet */

/* PE 0 only: -n iterations of (p or put) + quiet to PE 1. */
template <int G, int Kind>
__global__ void BENCH_BOUNDS oneway_kernel(char *remote, const char *local, size_t size, int peer,
                                           long iters, bl_ctx_t ctx) {
    for (long it = 0; it < iters; it++) {
        if (Kind == K_P) {
            for (size_t i = threadIdx.x; i < size / sizeof(long); i += blockDim.x)
                bl_long_p((long *)remote + i, ((const long *)local)[i], peer);
            bl_quiet<BL_BLOCK>(ctx);
        } else {
            bl_putmem_nbi<G>(ctx, remote, local, size, peer);
            bl_quiet<G>(ctx);
        }
    }
}

template <int Kind> static const void *oneway_for(int scope) {
    if (Kind == K_P || scope == BL_THREAD)
        return (const void *)oneway_kernel<BL_THREAD, Kind>;
    if (scope == BL_WARP)
        return (const void *)oneway_kernel<BL_WARP, Kind>;
    return (const void *)oneway_kernel<BL_BLOCK, Kind>;
}

static std::vector<const char *> contexts(const bench_opts &o) {
    std::vector<const char *> v;
    if (o.ctx == "default" || o.ctx == "all")
        v.push_back("default");
    if (o.ctx == "bypass" || o.ctx == "all")
        v.push_back("bypass");
    return v;
}

template <int Kind> static int run_oneway(const bench_opts &o, const char *name) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t max = (sizes.back() + 7) & ~(size_t)7;
    char *remote = (char *)bl_malloc(max), *local = (char *)bl_malloc(max);
    if (!remote || !local)
        return 1;
    int threads = o.scope == BL_THREAD && Kind == K_PUT ? 1 : o.scope == BL_WARP ? 32 : o.threads;
    for (const char *cname : contexts(o)) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && (Kind == K_P || bl_ctx_create_bypass(&ctx) != 0))
            continue;
        for (size_t size : sizes) {
            size = (size + 7) & ~(size_t)7;
            int peer = 1 - bench.me;
            auto launch = [&](long iters) {
                void *args[] = {&remote, &local, &size, &peer, &iters, &ctx};
                BL_CHECK(cudaLaunchKernel(oneway_for<Kind>(o.scope), dim3(1), dim3(threads), args,
                                          0, 0));
            };
            bench_fill(local, max, 2000 + bench.me);
            bench_poison(remote, max);
            bl_barrier_host();
            if (bench.me == 0) {
                launch(1);
                BL_CHECK(cudaDeviceSynchronize());
            }
            bl_barrier_host();
            bench_fail_if(bench.me == 1 ? bench_check(remote, size, 2000) : 0, name, size);
            long iters = bench_iters_for(o, size);
            std::vector<double> us = bench_samples(o, [&] {
                return bench.me == 0 ? bench_time([&] { launch(iters); }) * 1e3 / iters : 0.0;
            });
            bench_report(name, Kind == K_P ? "thread" : bench_scope_name(o.scope), cname, size,
                         "us", us, iters, o, "");
        }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    bl_free(local);
    bl_free(remote);
    return 0;
}

static int run_p_latency(const bench_opts &o) {
    return run_oneway<K_P>(o, "p_latency");
}
static int run_put_latency(const bench_opts &o) {
    return run_oneway<K_PUT>(o, "put_latency");
}

/* ---- ping-pongs -------------------------------------------------------------------------------
 */

/* The value of iteration it of a launch: distinct across iterations and launches, never zero. */
__device__ __forceinline__ uint64_t pp_value(uint64_t base, long it) {
    return base + (uint64_t)it + 1;
}

__global__ void p_pingpong_kernel(long *flag, int me, long iters, uint64_t base) {
    int peer = 1 - me;
    for (long it = 0; it < iters; it++) {
        long v = (long)pp_value(base, it);
        if (me == 0) {
            bl_long_p(flag, v, peer);
            bl_long_wait_eq(flag, v);
        } else {
            bl_long_wait_eq(flag, v);
            bl_long_p(flag, v, peer);
        }
    }
}

/* Put-with-signal ping-pong: the payload of size bytes and the signal go to the peer, which waits
 * for the signal and answers the same way. Check = 1: the payload's first word carries the
 * iteration's value and the rest a pattern; the receiver checks every word. */
template <int G, int Check>
__global__ void BENCH_BOUNDS ps_pingpong_kernel(uint64_t *buf, uint64_t *src, size_t size,
                                                uint64_t *sig, int me, long iters, uint64_t base,
                                                bl_ctx_t ctx, unsigned long long *errors) {
    int peer = 1 - me;
    size_t words = size / 8;
    int rank = G == BL_THREAD ? 0 : G == BL_WARP ? threadIdx.x % 32 : threadIdx.x;
    int nthr = G == BL_THREAD ? 1 : G == BL_WARP ? 32 : blockDim.x;
    unsigned long long bad = 0;
    for (long it = 0; it < iters; it++) {
        uint64_t v = pp_value(base, it);
        for (int turn = 0; turn < 2; turn++) {
            bool send = (turn == 0) == (me == 0);
            if (send) {
                if (Check) {
                    for (size_t k = rank; k < words; k += nthr)
                        src[k] = k == 0 ? v : v * 0x9E3779B97F4A7C15ull + k;
                    bl_group_sync<G>();
                }
                bl_put_signal_nbi<G>(ctx, buf, src, size, sig, v, peer);
            } else {
                if (bl_group_leader<G>())
                    bl_signal_wait_ge(ctx, sig, v);
                bl_group_sync<G>();
                if (Check)
                    for (size_t k = rank; k < words; k += nthr)
                        bad += bl_payload_load(ctx, buf + k) !=
                               (k == 0 ? v : v * 0x9E3779B97F4A7C15ull + k);
            }
        }
    }
    if (Check && bad)
        atomicAdd(errors, bad);
}

template <int Check> static const void *ps_for(int scope) {
    if (scope == BL_BLOCK)
        return (const void *)ps_pingpong_kernel<BL_BLOCK, Check>;
    if (scope == BL_WARP)
        return (const void *)ps_pingpong_kernel<BL_WARP, Check>;
    return (const void *)ps_pingpong_kernel<BL_THREAD, Check>;
}

static uint64_t launch_base(long launch) {
    return ((uint64_t)(launch + 1) << 32) | ((bench.seed & 0xfff) << 20);
}

static int run_p_pingpong(const bench_opts &o) {
    long *flag = (long *)bl_malloc(sizeof(long));
    if (!flag)
        return 1;
    BL_CHECK(cudaMemset(flag, 0, sizeof(long)));
    long launches = 0;
    std::vector<double> us = bench_samples(o, [&] {
        uint64_t base = launch_base(launches++);
        float ms = bench_time([&] { p_pingpong_kernel<<<1, 1>>>(flag, bench.me, o.iters, base); });
        return ms * 1e3 / o.iters / 2;
    });
    bench_report("p_ping_pong_latency", "thread", "default", sizeof(long), "us", us, o.iters, o,
                 "");
    bl_barrier_host();
    bl_free(flag);
    return 0;
}

static int run_ps_pingpong(const bench_opts &o) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t max = (sizes.back() + 7) & ~(size_t)7;
    uint64_t *buf = (uint64_t *)bl_malloc(max), *src = (uint64_t *)bl_malloc(max);
    uint64_t *sig = (uint64_t *)bl_malloc(sizeof(uint64_t));
    if (!buf || !src || !sig)
        return 1;
    BL_CHECK(cudaMemset(sig, 0, sizeof(uint64_t)));
    int threads = o.scope == BL_THREAD ? 1 : o.scope == BL_WARP ? 32 : o.threads;
    long launches = 0;
    for (const char *cname : contexts(o)) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (size_t size : sizes) {
            size = (size + 7) & ~(size_t)7;
            auto launch = [&](int check, long iters) {
                uint64_t base = launch_base(launches++);
                void *args[] = {&buf,   &src,  &size, &sig,         &bench.me,
                                &iters, &base, &ctx,  &bench.errors};
                BL_CHECK(cudaLaunchKernel(check ? ps_for<1>(o.scope) : ps_for<0>(o.scope), dim3(1),
                                          dim3(threads), args, 0, 0));
            };
            bench_fill(src, max, 3000 + bench.me);
            bench_poison(buf, max);
            bench_errors_clear();
            bl_barrier_host();
            launch(1, 50);
            BL_CHECK(cudaDeviceSynchronize());
            bench_fail_if(bench_errors_read(), "put_signal_ping_pong_latency", size);
            long iters = bench_iters_for(o, size);
            std::vector<double> us = bench_samples(
                o, [&] { return bench_time([&] { launch(0, iters); }) * 1e3 / iters / 2; });
            bench_report("put_signal_ping_pong_latency", bench_scope_name(o.scope), cname, size,
                         "us", us, iters, o, "");
        }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    bl_free(sig);
    bl_free(src);
    bl_free(buf);
    return 0;
}

/* ---- fence and quiet, with nothing outstanding and after one 8-byte put -----------------------
 */

/* After = 0: -n fences or quiets in a row, nothing outstanding (on a BYPASS context: no system
 * fence). After = 1: each one follows an 8-byte putmem_nbi to the peer on the same context. */
template <int Quiet, int After>
__global__ void order_kernel(long iters, bl_ctx_t ctx, char *remote, const char *local, int peer) {
    for (long it = 0; it < iters; it++) {
        if (After)
            bl_putmem_nbi<BL_THREAD>(ctx, remote, local, 8, peer);
        if (Quiet)
            bl_quiet<BL_THREAD>(ctx);
        else
            bl_fence<BL_THREAD>(ctx);
    }
}

template <int After> static const void *order_for(int quiet) {
    return quiet ? (const void *)order_kernel<1, After> : (const void *)order_kernel<0, After>;
}

/* Rows fence_quiet_latency (nothing outstanding) and fence_quiet_after_put_latency (size 8). */
static int run_fence_quiet(const bench_opts &o) {
    const char *ops[] = {"fence", "quiet"};
    char *remote = (char *)bl_malloc(8), *local = (char *)bl_malloc(8);
    if (!remote || !local)
        return 1;
    int peer = 1 - bench.me;
    for (const char *cname : contexts(o)) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (int after = 0; after < 2; after++)
            for (int q = 0; q < 2; q++) {
                if (!o.op.empty() && o.op != "all" && o.op != ops[q])
                    continue;
                long iters = o.iters;
                void *args[] = {&iters, &ctx, &remote, &local, &peer};
                const void *kernel = after ? order_for<1>(q) : order_for<0>(q);
                std::vector<double> us = bench_samples(o, [&] {
                    float ms = bench_time(
                        [&] { BL_CHECK(cudaLaunchKernel(kernel, dim3(1), dim3(1), args, 0, 0)); });
                    return ms * 1e3 / o.iters;
                });
                bench_report(after ? "fence_quiet_after_put_latency" : "fence_quiet_latency",
                             ops[q], cname, after ? 8 : 0, "us", us, o.iters, o, "");
            }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    bl_free(local);
    bl_free(remote);
    return 0;
}

static bench_opts lat_defaults(size_t min, size_t max, size_t step, int scope, int threads) {
    bench_opts d;
    d.min_size = min;
    d.max_size = max;
    d.step = step;
    d.iters = 1000;
    d.warmup = 1;
    d.reps = 7;
    d.blocks = 1;
    d.threads = threads;
    d.scope = scope;
    return d;
}

static bench_register reg_p("p_latency", "long_p of every element + quiet, one-way, us",
                            lat_defaults(8, 8, 2, BL_THREAD, 32), run_p_latency);
static bench_register reg_put("put_latency", "putmem_nbi + quiet, one-way, us",
                              lat_defaults(8, 8, 2, BL_THREAD, 1), run_put_latency);
static bench_register reg_ppp("p_ping_pong_latency", "long_p + wait_until, half round trip, us",
                              lat_defaults(8, 8, 2, BL_THREAD, 1), run_p_pingpong);
static bench_register reg_ps("put_signal_ping_pong_latency",
                             "putmem_signal_nbi + signal_wait_until, half round trip, us",
                             lat_defaults(8, 8, 2, BL_THREAD, 1), run_ps_pingpong);
static bench_register reg_fq("fence_quiet_latency",
                             "fence or quiet with nothing outstanding, and after one 8-byte "
                             "putmem_nbi, one thread, us",
                             lat_defaults(8, 8, 2, BL_THREAD, 1), run_fence_quiet);
