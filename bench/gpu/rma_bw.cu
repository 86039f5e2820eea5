/* SPDX-License-Identifier: BSD-3-Clause */
/* Bandwidth of put, get and p between PEs (perftests shmem_put_bw, shmem_get_bw, shmem_p_bw).
 * One timed kernel runs -n iterations; in each, every group (-s thread, warp or block) moves its
 * share of the message, then the blocks meet at a grid barrier (as NVSHMEM's perftest does);
 * after the last iteration each group calls quiet. GB/s = 1e9 bytes/s.
 *   Pair (default): PE A of --pair A,B (0,1) sends to PE B, the other PEs idle; with --bidir both
 *   send at once and the figure is the sum of both directions.
 *   --all-pairs: every PE sends to its partner at once (pe ^ 1, or (pe + K) mod npes with
 *   --shift K); the figure is the sum of every PE's bandwidth, and per_pe_GBps lists each PE's
 *   median. */
#include "bench_gpu.h"

#define OP_PUT 0
#define OP_GET 1
#define OP_P 2

/* The byte range [*off, *off + return) of this group's share of size bytes, 16-byte aligned. */
template <int G> __device__ __forceinline__ size_t share(size_t size, size_t *off) {
    size_t nunits, unit;
    if (G == BL_BLOCK) {
        nunits = gridDim.x;
        unit = blockIdx.x;
    } else if (G == BL_WARP) {
        size_t wpb = blockDim.x / 32;
        nunits = gridDim.x * wpb;
        unit = blockIdx.x * wpb + threadIdx.x / 32;
    } else {
        nunits = (size_t)gridDim.x * blockDim.x;
        unit = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    }
    size_t chunk = ((size + nunits - 1) / nunits + 15) & ~(size_t)15;
    *off = unit * chunk;
    return *off >= size ? 0 : min(chunk, size - *off);
}

template <int G, int Op>
__global__ void BENCH_BOUNDS rma_bw_kernel(char *remote, char *local, size_t size, int peer,
                                           long iters, unsigned int *ctr, bl_ctx_t ctx) {
    size_t off = 0, len = 0;
    if (Op != OP_P)
        len = share<G>(size, &off);
    const size_t nthreads = (size_t)gridDim.x * blockDim.x;
    const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (long it = 0; it < iters; it++) {
        if (Op == OP_PUT && len)
            bl_putmem_nbi<G>(ctx, remote + off, local + off, len, peer);
        else if (Op == OP_GET && len)
            bl_getmem_nbi<G>(local + off, remote + off, len, peer);
        else if (Op == OP_P)
            for (size_t i = tid; i < size / sizeof(long); i += nthreads)
                bl_long_p((long *)remote + i, ((const long *)local)[i], peer);
        bench_grid_sync(ctr, (unsigned int)((it + 1) * gridDim.x));
    }
    if (Op == OP_P)
        bl_quiet<BL_BLOCK>(ctx);
    else
        bl_quiet<G>(ctx);
}

template <int Op> static const void *kernel_for(int scope) {
    if (Op == OP_P)
        return (const void *)rma_bw_kernel<BL_THREAD, Op>;
    if (scope == BL_BLOCK)
        return (const void *)rma_bw_kernel<BL_BLOCK, Op>;
    if (scope == BL_WARP)
        return (const void *)rma_bw_kernel<BL_WARP, Op>;
    return (const void *)rma_bw_kernel<BL_THREAD, Op>;
}

/* The grid barrier's counter is cleared before the launch, outside the timed region. */
static void reset_grid_counter(void) {
    BL_CHECK(cudaMemsetAsync(bench.grid_ctr, 0, sizeof(unsigned int), 0));
}

template <int Op>
static void launch(const bench_opts &o, char *remote, char *local, size_t size, long iters,
                   bl_ctx_t ctx, int peer) {
    void *args[] = {&remote, &local, &size, &peer, &iters, &bench.grid_ctr, &ctx};
    BL_CHECK(
        cudaLaunchKernel(kernel_for<Op>(o.scope), dim3(o.blocks), dim3(o.threads), args, 0, 0));
}

/* Who sends where: *to, the PE this PE puts to or gets from (-1: it idles), and *from, the PE
 * whose operations target this PE's remote buffer (-1: none). */
static void roles(const bench_opts &o, int *to, int *from) {
    const int me = bench.me, n = bench.npes;
    if (o.all_pairs) {
        *to = o.shift ? ((me + o.shift) % n + n) % n : me ^ 1;
        *from = o.shift ? ((me - o.shift) % n + n) % n : me ^ 1;
        return;
    }
    const int a = o.pair[0], b = o.pair[1];
    *to = me == a ? b : (o.bidir && me == b) ? a : -1;
    *from = me == b ? a : (o.bidir && me == a) ? b : -1;
}

template <int Op> static int run_bw(const bench_opts &o, const char *name) {
    std::vector<size_t> sizes = bench_sizes(o);
    size_t max = sizes.back();
    if (Op == OP_P)
        max = (max + 7) & ~(size_t)7;
    if (!bench_resident(kernel_for<Op>(o.scope), o.blocks, o.threads))
        return 0;
    /* remote: the buffer the peer's operations target (put destination, get source); local: this
     * PE's own side of the transfer. */
    char *remote = (char *)bl_malloc(max), *local = (char *)bl_malloc(max);
    if (!remote || !local) {
        fprintf(stderr, "%s: cannot allocate 2 x %zu bytes of symmetric memory\n", name, max);
        return 1;
    }
    std::vector<const char *> ctxs;
    if (o.ctx == "default" || o.ctx == "all")
        ctxs.push_back("default");
    if (Op != OP_GET && (o.ctx == "bypass" || o.ctx == "all"))
        ctxs.push_back("bypass");
    int to, from;
    roles(o, &to, &from);
    const bool sender = to >= 0;
    char extra[64];
    if (o.all_pairs)
        snprintf(extra, sizeof(extra), ", \"mode\": \"all-pairs\", \"shift\": %d", o.shift);
    else
        snprintf(extra, sizeof(extra), ", \"mode\": \"pair\", \"pair\": [%d, %d]", o.pair[0],
                 o.pair[1]);
    for (const char *cname : ctxs) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (size_t size : sizes) {
            if (Op == OP_P)
                size = (size + 7) & ~(size_t)7;
            size_t words = size & ~(size_t)3;
            /* Check: the data side holds this PE's pattern; the receiving side is poisoned. */
            char *data = Op == OP_GET ? remote : local;
            char *target = Op == OP_GET ? local : remote;
            bench_fill(data, max, 1000 + bench.me);
            bench_poison(target, max);
            bl_barrier_host();
            if (sender) {
                reset_grid_counter();
                launch<Op>(o, remote, local, size, 1, ctx, to);
                BL_CHECK(cudaGetLastError());
                BL_CHECK(cudaDeviceSynchronize());
            }
            bl_barrier_host();
            /* put, p: the target on the receiver holds the pattern of the PE that sent to it; get:
             * the local target on the sender holds the pattern of the PE it read. */
            int holds = Op == OP_GET ? to : from;
            unsigned long long bad = holds >= 0 ? bench_check(target, words, 1000 + holds) : 0;
            bench_fail_if(bad, name, size);

            long iters = bench_iters_for(o, size);
            for (long w = 0; w < o.warmup; w++) {
                bl_barrier_host();
                if (sender) {
                    reset_grid_counter();
                    launch<Op>(o, remote, local, size, iters, ctx, to);
                    BL_CHECK(cudaDeviceSynchronize());
                }
            }
            std::vector<double> gbps;
            std::vector<std::vector<double>> per_pe((size_t)bench.npes);
            for (int r = 0; r < o.reps; r++) {
                bl_barrier_host();
                double mine = 0;
                if (sender) {
                    reset_grid_counter();
                    float ms =
                        bench_time([&] { launch<Op>(o, remote, local, size, iters, ctx, to); });
                    mine = (double)size * iters / (ms * 1e6);
                }
                std::vector<double> all = bench_allgather(mine);
                double sum = 0;
                for (int pe = 0; pe < bench.npes; pe++) {
                    sum += all[pe];
                    per_pe[pe].push_back(all[pe]);
                }
                gbps.push_back(o.all_pairs ? sum
                               : o.bidir   ? all[o.pair[0]] + all[o.pair[1]]
                                           : all[o.pair[0]]);
            }
            std::string fields = extra;
            if (o.all_pairs) {
                fields += ", \"per_pe_GBps\": [";
                for (int pe = 0; pe < bench.npes; pe++)
                    fields += (pe ? ", " : "") + std::to_string(bench_summary(per_pe[pe]).median);
                fields += "]";
            }
            bench_report(name, Op == OP_P ? "thread" : bench_scope_name(o.scope), cname, size,
                         "GB/s", gbps, iters, o, fields);
        }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    bl_free(local);
    bl_free(remote);
    return 0;
}

static int run_put_bw(const bench_opts &o) {
    return run_bw<OP_PUT>(o, "put_bw");
}
static int run_get_bw(const bench_opts &o) {
    return run_bw<OP_GET>(o, "get_bw");
}
static int run_p_bw(const bench_opts &o) {
    return run_bw<OP_P>(o, "p_bw");
}

static bench_opts bw_defaults(int scope, int blocks, int threads, size_t min, size_t max,
                              long iters) {
    bench_opts d;
    d.min_size = min;
    d.max_size = max;
    d.step = 2;
    d.iters = iters;
    d.warmup = 1;
    d.reps = 5;
    d.blocks = blocks;
    d.threads = threads;
    d.scope = scope;
    return d;
}

static bench_register reg_put("put_bw", "putmem_nbi (thread/warp/block) + quiet, GB/s",
                              bw_defaults(BL_BLOCK, 32, 1024, 4096, 1 << 30, 10), run_put_bw, true);
static bench_register reg_get("get_bw", "getmem_nbi (thread/warp/block) + quiet, GB/s",
                              bw_defaults(BL_BLOCK, 32, 1024, 4096, 1 << 30, 10), run_get_bw, true);
static bench_register reg_p("p_bw", "long_p by every thread + quiet, GB/s",
                            bw_defaults(BL_THREAD, 32, 1024, 4096, 64 << 20, 10), run_p_bw, true);
