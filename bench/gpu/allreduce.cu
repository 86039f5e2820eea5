/* SPDX-License-Identifier: BSD-3-Clause */
/* An all-reduce (float32 sum) and an all-gather built on put-with-signal, inside one kernel, on
 * any number of PEs: the workload that compares the default context, a BYPASS context and NVSHMEM
 * on the same algorithm (-a oneshot, twoshot, allgather or all).
 *   oneshot: every block sends its slice of the whole vector to every other PE with
 *            putmem_signal_nbi, waits for the other PEs' slices and sums all of them.
 *   twoshot: reduce-scatter then all-gather over npes slices (PE p owns slice p): each block sends
 *            its part of every other PE's slice to that PE, sums the contributions to its own
 *            slice, then sends the reduced part to every other PE.
 * Sums run over the PEs in order 0, 1, ...: the same bits on every PE. The payload is read with
 * plain loads on the default context (its wait acquires), with bypass loads on a BYPASS context
 * (its wait does not), and with plain loads after a __threadfence() on NVSHMEM (its wait does not
 * acquire). The receive buffers (one region per other PE) alternate between iterations.
 * Microseconds per all-reduce, one timed kernel of -n all-reduces; the result of every PE is
 * checked against the exact sums first. */
#include "bench_gpu.h"

#define AR_ONESHOT 0
#define AR_TWOSHOT 1
#define AR_ALLGATHER 2
#define AR_MAX_BLOCKS 64

/* Floats [*lo, *hi) of block b of nblocks over the floats [0, m), split in 16-byte units. */
__device__ __forceinline__ void ar_split(size_t m, int b, int nblocks, size_t *lo, size_t *hi) {
    size_t units = (m + 3) / 4;
    size_t ulo = units * b / nblocks, uhi = units * (b + 1) / nblocks;
    *lo = min(4 * ulo, m);
    *hi = min(4 * uhi, m);
}

/* The region of the receive buffers that PE src's data takes on PE dst (one per other PE). */
__device__ __forceinline__ int ar_slot(int src, int dst) {
    return src < dst ? src : src - 1;
}

/* PEs whose loads ar_sum issues together. */
#define AR_UNROLL 4

/* out[i] = sum over the PEs in order of their x[i], over [lo, hi), two floats at a time (n is
 * even): this PE's from x, the others' from their region of rb. The loads of up to AR_UNROLL PEs
 * are issued before any is added: this loop is bound by the loads in flight. */
__device__ __forceinline__ void ar_sum(bl_ctx_t ctx, float *out, const float *x, const float *rb,
                                       size_t n, int me, int npes, size_t lo, size_t hi) {
    for (size_t i = lo + 2 * threadIdx.x; i < hi; i += 2 * blockDim.x) {
        float2 acc = make_float2(0.0f, 0.0f);
        for (int p0 = 0; p0 < npes; p0 += AR_UNROLL) {
            float2 v[AR_UNROLL];
#pragma unroll
            for (int k = 0; k < AR_UNROLL; k++) {
                const int pe = p0 + k;
                if (pe == me) {
                    v[k] = *(const float2 *)(x + i);
                } else if (pe < npes) {
                    uint64_t bits =
                        bl_payload_load(ctx, (const uint64_t *)(rb + ar_slot(pe, me) * n + i));
                    v[k] = *(float2 *)&bits;
                }
            }
#pragma unroll
            for (int k = 0; k < AR_UNROLL; k++) {
                const int pe = p0 + k;
                if (pe < npes) {
                    acc.x = pe ? acc.x + v[k].x : v[k].x;
                    acc.y = pe ? acc.y + v[k].y : v[k].y;
                }
            }
        }
        *(float2 *)(out + i) = acc;
    }
}

/* Block b's signal from every other PE (sig[slot * AR_MAX_BLOCKS + b]) reaches epoch. */
__device__ __forceinline__ void ar_wait_all(bl_ctx_t ctx, uint64_t *sig, int npes, uint64_t epoch) {
    for (int s = threadIdx.x; s < npes - 1; s += blockDim.x)
        bl_signal_wait_ge(ctx, sig + (size_t)s * AR_MAX_BLOCKS + blockIdx.x, epoch);
    __syncthreads();
}

/* Block b's put-with-signal of the floats [lo, hi) of src to dst on pe: the signal of this PE's
 * region there. */
__device__ __forceinline__ void ar_send(bl_ctx_t ctx, float *dst, const float *src, size_t lo,
                                        size_t hi, uint64_t *sig, uint64_t epoch, int me, int pe) {
    bl_put_signal_nbi<BL_BLOCK>(ctx, dst + lo, src + lo, (hi - lo) * sizeof(float),
                                sig + (size_t)ar_slot(me, pe) * AR_MAX_BLOCKS + blockIdx.x, epoch,
                                pe);
}

/* Slice p of npes over n floats: [p q, min(n, (p + 1) q)) with q a multiple of 4. */
__device__ __forceinline__ void ar_slice(size_t n, int p, int npes, size_t *lo, size_t *len) {
    const size_t q = ((n + npes - 1) / npes + 3) & ~(size_t)3;
    *lo = min(n, (size_t)p * q);
    *len = min(n, *lo + q) - *lo;
}

/* Threads per block at most: the N-PE loops need more than the 64 registers of a 1024-thread
 * bound, which spilled in the two-shot kernel. */
#define AR_MAX_THREADS 512

template <int Algo>
__global__ void __launch_bounds__(AR_MAX_THREADS)
    allreduce_kernel(const float *x, float *recv, float *out, size_t n, uint64_t *sig1,
                     uint64_t *sig2, int me, int npes, long iters, uint64_t epoch0, bl_ctx_t ctx) {
    const int b = blockIdx.x, nb = gridDim.x;
    for (long it = 0; it < iters; it++) {
        const uint64_t epoch = epoch0 + it;
        float *rb = recv + (epoch & 1) * (size_t)(npes - 1) * n;
        if (Algo == AR_ONESHOT) {
            size_t lo, hi;
            ar_split(n, b, nb, &lo, &hi);
            for (int k = 1; k < npes; k++) {
                const int pe = (me + k) % npes;
                ar_send(ctx, rb + ar_slot(me, pe) * n, x, lo, hi, sig1, epoch, me, pe);
            }
            ar_wait_all(ctx, sig1, npes, epoch);
            ar_sum(ctx, out, x, rb, n, me, npes, lo, hi);
        } else if (Algo == AR_ALLGATHER) {
            /* out holds every PE's vector: this PE's slice goes to every other PE's copy and to
             * its own. */
            size_t lo, hi;
            ar_split(n, b, nb, &lo, &hi);
            float *mine = out + (size_t)me * n;
            for (int k = 1; k < npes; k++) {
                const int pe = (me + k) % npes;
                ar_send(ctx, mine, x, lo, hi, sig1, epoch, me, pe);
            }
            for (size_t i = lo + 2 * threadIdx.x; i < hi; i += 2 * blockDim.x)
                *(float2 *)(mine + i) = *(const float2 *)(x + i);
            ar_wait_all(ctx, sig1, npes, epoch);
        } else {
            for (int k = 1; k < npes; k++) {
                const int pe = (me + k) % npes;
                size_t s0, sn, lo, hi;
                ar_slice(n, pe, npes, &s0, &sn);
                ar_split(sn, b, nb, &lo, &hi);
                lo += s0, hi += s0;
                ar_send(ctx, rb + ar_slot(me, pe) * n, x, lo, hi, sig1, epoch, me, pe);
            }
            size_t s0, sn, olo, ohi;
            ar_slice(n, me, npes, &s0, &sn);
            ar_split(sn, b, nb, &olo, &ohi);
            olo += s0, ohi += s0;
            ar_wait_all(ctx, sig1, npes, epoch);
            ar_sum(ctx, out, x, rb, n, me, npes, olo, ohi);
            __syncthreads();
            for (int k = 1; k < npes; k++) {
                const int pe = (me + k) % npes;
                ar_send(ctx, out, out, olo, ohi, sig2, epoch, me, pe);
            }
            ar_wait_all(ctx, sig2, npes, epoch);
        }
    }
}

__global__ void ar_fill(float *x, size_t n, uint64_t seed, uint64_t a) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = bench_float(seed, a, i);
}
__global__ void ag_check(const float *out, size_t n, int npes, uint64_t seed,
                         unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < npes * n;
         i += (size_t)gridDim.x * blockDim.x)
        e += out[i] != bench_float(seed, 6000 + i / n, i % n);
    if (e)
        atomicAdd(errors, e);
}
/* The sums in the kernel's order (exact up to 16 PEs: multiples of 2^-19 below 32). */
__global__ void ar_check(const float *out, size_t n, int npes, uint64_t seed,
                         unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float want = bench_float(seed, 6000, i);
        for (int pe = 1; pe < npes; pe++)
            want += bench_float(seed, 6000 + pe, i);
        e += out[i] != want;
    }
    if (e)
        atomicAdd(errors, e);
}

static int run_allreduce(const bench_opts &o) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t maxn = (sizes.back() / sizeof(float) + 3) & ~(size_t)3;
    int maxb = std::min(o.blocks, AR_MAX_BLOCKS), npes = bench.npes;
    /* recv: two buffers of one region per other PE; out: every PE's vector (all-gather). */
    const size_t nrecv = 2 * (size_t)(npes - 1) * maxn, nout = (size_t)npes * maxn;
    const size_t nsig = 2 * (size_t)(npes - 1) * AR_MAX_BLOCKS;
    float *x = (float *)bl_malloc(maxn * 4), *recv = (float *)bl_malloc(nrecv * 4),
          *out = (float *)bl_malloc(nout * 4);
    uint64_t *sig = (uint64_t *)bl_malloc(nsig * sizeof(uint64_t));
    if (!x || !recv || !out || !sig) {
        fprintf(stderr, "allreduce: cannot allocate %zu bytes of symmetric memory\n",
                (maxn + nrecv + nout) * 4);
        return 1;
    }
    BL_CHECK(cudaMemset(sig, 0, nsig * sizeof(uint64_t)));
    uint64_t *sig1 = sig, *sig2 = sig + nsig / 2;
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
                    void *args[] = {&x,        &recv, &out,   &n,     &sig1, &sig2,
                                    &bench.me, &npes, &iters, &epoch, &ctx};
                    BL_CHECK(cudaLaunchKernel(k, dim3(nb), dim3(o.threads), args, 0, 0));
                    epoch += iters;
                };
                ar_fill<<<264, 512>>>(x, n, bench.seed, 6000 + bench.me);
                bench_poison(out, (size_t)npes * n * 4);
                bench_poison(recv, 2 * (size_t)(npes - 1) * n * 4);
                bench_errors_clear();
                bl_barrier_host();
                launch(3);
                BL_CHECK(cudaDeviceSynchronize());
                if (algo == AR_ALLGATHER)
                    ag_check<<<264, 512>>>(out, n, npes, bench.seed, bench.errors);
                else
                    ar_check<<<264, 512>>>(out, n, npes, bench.seed, bench.errors);
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
                          ar_defaults(), run_allreduce, true);
