/* An all-reduce (float32 sum, 2 PEs) and an all-gather built on put-with-signal, inside one
 * kernel: the workload that compares the default context, a BYPASS context and NVSHMEM on the same
 * algorithm (-a oneshot, twoshot, allgather or all).
 *   oneshot: every block sends its slice of the whole vector to the peer with putmem_signal_nbi,
 *            waits for the peer's slice and adds it to its own.
 *   twoshot: reduce-scatter then all-gather: each block sends the slice the peer owns, adds the
 *            peer's contribution to its own slice, then sends the reduced slice back.
 * The payload is read with plain loads on the default context (its wait acquires), with bypass
 * loads on a BYPASS context (its wait does not), and with plain loads after a __threadfence() on
 * NVSHMEM (its wait does not acquire). The receive buffers alternate between iterations.
 * Microseconds per all-reduce, one timed kernel of -n all-reduces; the result of both PEs is
 * checked against the host's sums first. */
#include "bench_gpu.h"

#define AR_ONESHOT 0
#define AR_TWOSHOT 1
#define AR_ALLGATHER 2

/* Floats [*lo, *hi) of block b of nblocks over the floats [0, m), split in 16-byte units. */
__device__ __forceinline__ void ar_split(size_t m, int b, int nblocks, size_t *lo, size_t *hi) {
    size_t units = (m + 3) / 4;
    size_t ulo = units * b / nblocks, uhi = units * (b + 1) / nblocks;
    *lo = min(4 * ulo, m);
    *hi = min(4 * uhi, m);
}

/* out[i] = x[i] + recv[i] over [lo, hi), two floats at a time (n is even). */
__device__ __forceinline__ void ar_add(bl_ctx_t ctx, float *out, const float *x, const float *rb,
                                       size_t lo, size_t hi) {
    for (size_t i = lo + 2 * threadIdx.x; i < hi; i += 2 * blockDim.x) {
        uint64_t bits = bl_payload_load(ctx, (const uint64_t *)(rb + i));
        float2 r = *(float2 *)&bits;
        float2 a = *(const float2 *)(x + i);
        *(float2 *)(out + i) = make_float2(a.x + r.x, a.y + r.y);
    }
}

__device__ __forceinline__ void ar_wait(bl_ctx_t ctx, uint64_t *sig, uint64_t epoch) {
    if (threadIdx.x == 0)
        bl_signal_wait_ge(ctx, sig, epoch);
    __syncthreads();
}

template <int Algo>
__global__ void BENCH_BOUNDS allreduce_kernel(const float *x, float *recv, float *out, size_t n,
                                              uint64_t *sig1, uint64_t *sig2, int me, long iters,
                                              uint64_t epoch0, bl_ctx_t ctx) {
    const int peer = 1 - me, b = blockIdx.x, nb = gridDim.x;
    for (long it = 0; it < iters; it++) {
        const uint64_t epoch = epoch0 + it;
        float *rb = recv + (epoch & 1) * n;
        if (Algo == AR_ONESHOT) {
            size_t lo, hi;
            ar_split(n, b, nb, &lo, &hi);
            bl_put_signal_nbi<BL_BLOCK>(ctx, rb + lo, x + lo, (hi - lo) * sizeof(float), sig1 + b,
                                        epoch, peer);
            ar_wait(ctx, sig1 + b, epoch);
            ar_add(ctx, out, x, rb, lo, hi);
        } else if (Algo == AR_ALLGATHER) {
            /* out holds both PEs' vectors: this PE's slice goes to the peer's copy and to its own.
             */
            size_t lo, hi;
            ar_split(n, b, nb, &lo, &hi);
            float *mine = out + (size_t)me * n;
            bl_put_signal_nbi<BL_BLOCK>(ctx, mine + lo, x + lo, (hi - lo) * sizeof(float), sig1 + b,
                                        epoch, peer);
            for (size_t i = lo + 2 * threadIdx.x; i < hi; i += 2 * blockDim.x)
                *(float2 *)(mine + i) = *(const float2 *)(x + i);
            ar_wait(ctx, sig1 + b, epoch);
        } else {
            const size_t half = (n / 2 + 3) & ~(size_t)3;
            const size_t own0 = me == 0 ? 0 : half, oth0 = me == 0 ? half : 0;
            const size_t own_n = me == 0 ? half : n - half, oth_n = me == 0 ? n - half : half;
            size_t olo, ohi, xlo, xhi;
            ar_split(own_n, b, nb, &olo, &ohi);
            ar_split(oth_n, b, nb, &xlo, &xhi);
            olo += own0, ohi += own0, xlo += oth0, xhi += oth0;
            bl_put_signal_nbi<BL_BLOCK>(ctx, rb + xlo, x + xlo, (xhi - xlo) * sizeof(float),
                                        sig1 + b, epoch, peer);
            ar_wait(ctx, sig1 + b, epoch);
            ar_add(ctx, out, x, rb, olo, ohi);
            __syncthreads();
            bl_put_signal_nbi<BL_BLOCK>(ctx, out + olo, out + olo, (ohi - olo) * sizeof(float),
                                        sig2 + b, epoch, peer);
            ar_wait(ctx, sig2 + b, epoch);
        }
    }
}

__global__ void ar_fill(float *x, size_t n, uint64_t seed, uint64_t a) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = bench_float(seed, a, i);
}
__global__ void ag_check(const float *out, size_t n, uint64_t seed, unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < 2 * n;
         i += (size_t)gridDim.x * blockDim.x)
        e += out[i] != bench_float(seed, 6000 + i / n, i % n);
    if (e)
        atomicAdd(errors, e);
}
__global__ void ar_check(const float *out, size_t n, uint64_t seed, unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        e += out[i] != bench_float(seed, 6000, i) + bench_float(seed, 6001, i);
    if (e)
        atomicAdd(errors, e);
}

#define AR_MAX_BLOCKS 64

static int run_allreduce(const bench_opts &o) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t maxn = (sizes.back() / sizeof(float) + 3) & ~(size_t)3;
    int maxb = std::min(o.blocks, AR_MAX_BLOCKS);
    float *x = (float *)bl_malloc(maxn * 4), *recv = (float *)bl_malloc(2 * maxn * 4),
          *out = (float *)bl_malloc(2 * maxn * 4);
    uint64_t *sig = (uint64_t *)bl_malloc(2 * AR_MAX_BLOCKS * sizeof(uint64_t));
    if (!x || !recv || !out || !sig) {
        fprintf(stderr, "allreduce: cannot allocate %zu bytes of symmetric memory\n", 4 * maxn * 4);
        return 1;
    }
    BL_CHECK(cudaMemset(sig, 0, 2 * AR_MAX_BLOCKS * sizeof(uint64_t)));
    uint64_t *sig1 = sig, *sig2 = sig + AR_MAX_BLOCKS;
    uint64_t epoch = 1;
    const char *algos[] = {"oneshot", "twoshot", "allgather"};
    std::vector<const char *> ctxs;
    if (o.ctx == "default" || o.ctx == "all")
        ctxs.push_back("default");
    if (o.ctx == "bypass" || o.ctx == "all")
        ctxs.push_back("bypass");
    for (const char *cname : ctxs) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (int algo = 0; algo < 3; algo++) {
            if (!o.op.empty() && o.op != "all" && o.op != algos[algo])
                continue;
            for (size_t size : sizes) {
                size_t n = size / sizeof(float);
                if (n < 2 || n % 2 || (algo == AR_TWOSHOT && size < 1024))
                    continue;
                int nb = (int)std::max((size_t)1, std::min((size_t)maxb, size / 65536));
                const void *k = algo == AR_ONESHOT   ? (const void *)allreduce_kernel<AR_ONESHOT>
                                : algo == AR_TWOSHOT ? (const void *)allreduce_kernel<AR_TWOSHOT>
                                                     : (const void *)allreduce_kernel<AR_ALLGATHER>;
                if (!bench_resident(k, nb, o.threads))
                    continue;
                auto launch = [&](long iters) {
                    void *args[] = {&x,    &recv,     &out,   &n,     &sig1,
                                    &sig2, &bench.me, &iters, &epoch, &ctx};
                    BL_CHECK(cudaLaunchKernel(k, dim3(nb), dim3(o.threads), args, 0, 0));
                    epoch += iters;
                };
                ar_fill<<<264, 512>>>(x, n, bench.seed, 6000 + bench.me);
                bench_poison(out, 2 * n * 4);
                bench_poison(recv, 2 * n * 4);
                bench_errors_clear();
                bl_barrier_host();
                launch(3);
                BL_CHECK(cudaDeviceSynchronize());
                if (algo == AR_ALLGATHER)
                    ag_check<<<264, 512>>>(out, n, bench.seed, bench.errors);
                else
                    ar_check<<<264, 512>>>(out, n, bench.seed, bench.errors);
                bench_fail_if(bench_errors_read(), algos[algo], size);
                long iters = bench_iters_for(o, size);
                std::vector<double> us = bench_samples(
                    o, [&] { return bench_time([&] { launch(iters); }) * 1e3 / iters; });
                double med = bench_summary(us).median;
                char extra[128];
                snprintf(extra, sizeof(extra), ", \"algbw_GBps\": %.4g, \"grid\": %d",
                         size / (med * 1e3), nb);
                if (algo == AR_ALLGATHER)
                    bench_report("allgather", "oneshot", cname, size, "us", us, iters, o, extra);
                else
                    bench_report("allreduce", algos[algo], cname, size, "us", us, iters, o, extra);
            }
        }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    bl_free(sig);
    bl_free(out);
    bl_free(recv);
    bl_free(x);
    return 0;
}

static bench_opts ar_defaults() {
    bench_opts d;
    d.min_size = 8;
    d.max_size = 256 << 20;
    d.step = 4;
    d.iters = 200;
    d.warmup = 1;
    d.reps = 5;
    d.blocks = 32;
    d.threads = 512;
    d.budget = 512 << 20;
    return d;
}

static bench_register reg("allreduce",
                          "float32 all-reduce (oneshot, twoshot) and all-gather on "
                          "put-with-signal, in one kernel, us",
                          ar_defaults(), run_allreduce);
