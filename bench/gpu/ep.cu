/* SPDX-License-Identifier: BSD-3-Clause */
/* Expert-parallel dispatch and combine among the PEs, DeepEP-style intranode: hidden 7168 bf16,
 * 64 experts spread evenly over the PEs (expert e on PE e npes / 64), top-8 routing to random
 * experts, -b..-e tokens per PE. The layout (which token goes to which PE, and where it lands) is
 * computed on the host before timing, as DeepEP's notify step does.
 *   ep_dispatch: each warp sends its tokens with putmem_nbi_warp, once to every PE that holds one
 *                of the token's experts (this PE included); each block then fences and adds its
 *                counts to the destinations' counters (signal_add); the kernel returns once this
 *                PE has received every token meant for it.
 *   ep_combine:  each received token is scaled by the sum of the weights of its experts on this PE
 *                (the expert's stand-in), staged, and sent back to its source with putmem_nbi_warp,
 *                then fence and signal_add; the source waits for all of them and sums the returned
 *                copies of each token into its output, in PE order.
 * Microseconds per kernel (PE 0's events); GB/s counts the token bytes PE 0 sends. The received
 * tokens and the combined output are checked once per size before timing. */
#include <cuda_bf16.h>

#include "bench_gpu.h"

#define EP_HIDDEN 7168
#define EP_TOKEN_BYTES (EP_HIDDEN * 2)
#define EP_EXPERTS 64
#define EP_TOPK 8

struct ep_layout {
    /* Device arrays. This PE's tokens: slot of token t on PE d (or -1) at dest_slot[npes t + d].
     * recv_off[d]: where this PE's tokens start in PE d's receive buffer; comb_off[d]: where the
     * tokens PE d returns start in this PE's combine buffer; ret_off[s]: where the tokens this PE
     * returns start in PE s's combine buffer. */
    int *dest_slot;
    size_t *recv_off, *comb_off, *ret_off;
    /* Tokens received here: for each received slot, the source PE, the source's token index, the
     * slot on the source side and the weight sum of the token's experts on this PE. */
    int *recv_src, *recv_tok, *recv_slot;
    float *recv_w;
    float *tok_wsum; /* this PE's tokens: sum of all 8 weights */
    /* Per-call counts of the counters, indexed by PE: tokens received from each source, tokens
     * returned by each destination. */
    uint64_t *dexpect, *cexpect;
    int npes;
    size_t n_recv;
};

static void route(uint64_t seed, int pe, int t, int experts[EP_TOPK], float w[EP_TOPK]) {
    int pool[EP_EXPERTS];
    for (int e = 0; e < EP_EXPERTS; e++)
        pool[e] = e;
    for (int k = 0; k < EP_TOPK; k++) {
        int j = k + (int)(bench_hash(seed, 9100 + pe, (uint64_t)t * 16 + k) % (EP_EXPERTS - k));
        int tmp = pool[k];
        pool[k] = pool[j];
        pool[j] = tmp;
        experts[k] = pool[k];
        w[k] = (float)(bench_hash(seed, 9200 + pe, (uint64_t)t * 16 + k) % 1000 + 1) / 1000.0f;
    }
}

/* Host: the layout of every PE for tokens per PE, as seen from PE me; device copies. Also the
 * bytes this PE sends per dispatch. */
static ep_layout ep_make_layout(int tokens, int me, int npes, double *bytes_sent) {
    const size_t P = (size_t)npes;
    std::vector<std::vector<int>> slot(P);    /* per source: dest_slot[P t + d] */
    std::vector<std::vector<float>> wpart(P); /* per source: weight sum on d at [P t + d] */
    std::vector<std::vector<float>> wsum(P);  /* per source: total weight */
    std::vector<size_t> count(P * P, 0);      /* count[s P + d]: tokens s sends to d */
    for (size_t s = 0; s < P; s++) {
        slot[s].assign(P * tokens, -1);
        wpart[s].assign(P * tokens, 0.0f);
        wsum[s].assign(tokens, 0.0f);
        for (int t = 0; t < tokens; t++) {
            int ex[EP_TOPK];
            float w[EP_TOPK];
            route(bench.seed, (int)s, t, ex, w);
            for (int k = 0; k < EP_TOPK; k++) {
                size_t d = (size_t)ex[k] * P / EP_EXPERTS;
                wpart[s][P * t + d] += w[k];
                wsum[s][t] += w[k];
            }
            for (size_t d = 0; d < P; d++)
                if (wpart[s][P * t + d] > 0)
                    slot[s][P * t + d] = (int)count[s * P + d]++;
        }
    }
    std::vector<size_t> recv_off(P, 0), comb_off(P, 0), ret_off(P, 0);
    std::vector<uint64_t> dexp(P), cexp(P);
    *bytes_sent = 0;
    for (size_t d = 0; d < P; d++) {
        for (size_t s = 0; s < (size_t)me; s++)
            recv_off[d] += count[s * P + d];
        for (size_t e = 0; e < d; e++)
            comb_off[d] += count[me * P + e];
        for (size_t e = 0; e < (size_t)me; e++)
            ret_off[d] += count[d * P + e];
        dexp[d] = count[d * P + me];
        cexp[d] = count[me * P + d];
        *bytes_sent += (double)count[me * P + d] * EP_TOKEN_BYTES;
    }
    ep_layout L;
    L.npes = npes;
    L.n_recv = 0;
    for (size_t s = 0; s < P; s++)
        L.n_recv += count[s * P + me];
    std::vector<int> src(L.n_recv), tok(L.n_recv), sl(L.n_recv);
    std::vector<float> rw(L.n_recv);
    size_t off = 0;
    for (size_t s = 0; s < P; s++) {
        for (int t = 0; t < tokens; t++) {
            int j = slot[s][P * t + me];
            if (j < 0)
                continue;
            src[off + j] = (int)s;
            tok[off + j] = t;
            sl[off + j] = j;
            rw[off + j] = wpart[s][P * t + me];
        }
        off += count[s * P + me];
    }
    auto up = [](const void *h, size_t bytes) {
        void *d = nullptr;
        BL_CHECK(cudaMalloc(&d, bytes ? bytes : 4));
        if (bytes)
            BL_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        return d;
    };
    L.dest_slot = (int *)up(slot[me].data(), slot[me].size() * sizeof(int));
    L.recv_off = (size_t *)up(recv_off.data(), P * sizeof(size_t));
    L.comb_off = (size_t *)up(comb_off.data(), P * sizeof(size_t));
    L.ret_off = (size_t *)up(ret_off.data(), P * sizeof(size_t));
    L.recv_src = (int *)up(src.data(), src.size() * sizeof(int));
    L.recv_tok = (int *)up(tok.data(), tok.size() * sizeof(int));
    L.recv_slot = (int *)up(sl.data(), sl.size() * sizeof(int));
    L.recv_w = (float *)up(rw.data(), rw.size() * sizeof(float));
    L.tok_wsum = (float *)up(wsum[me].data(), wsum[me].size() * sizeof(float));
    L.dexpect = (uint64_t *)up(dexp.data(), P * sizeof(uint64_t));
    L.cexpect = (uint64_t *)up(cexp.data(), P * sizeof(uint64_t));
    return L;
}

static void ep_free_layout(ep_layout &L) {
    void *ptrs[] = {L.dest_slot, L.recv_off, L.comb_off, L.ret_off, L.recv_src, L.recv_tok,
                    L.recv_slot, L.recv_w,   L.tok_wsum, L.dexpect, L.cexpect};
    for (void *p : ptrs)
        BL_CHECK(cudaFree(p));
}

__device__ __forceinline__ __nv_bfloat16 ep_value(uint64_t seed, int pe, size_t i) {
    return __float2bfloat16(bench_float(seed, 9000 + pe, i));
}

/* Thread 0 of the block waits until each PE's counter cnt[s] holds calls x expect[s]. */
__device__ __forceinline__ void ep_wait_counts(bl_ctx_t ctx, uint64_t *cnt, const uint64_t *expect,
                                               int npes, uint64_t calls) {
    for (int s = 0; s < npes; s++)
        bl_signal_wait_ge(ctx, cnt + s, calls * expect[s]);
}

/* The block's count of tokens sent to each PE, zeroed by the whole block. */
__device__ __forceinline__ void ep_sent_clear(unsigned int *sent, int npes) {
    for (int d = threadIdx.x; d < npes; d += blockDim.x)
        sent[d] = 0;
    __syncthreads();
}

/* Called by the whole block after its puts: the puts of all its threads, alike, before the counts
 * (the block form of fence; a fence by one thread orders only that thread's puts); then thread 0
 * adds the block's count to counter me of each PE it sent to. */
__device__ __forceinline__ void ep_send_counts(bl_ctx_t ctx, uint64_t *cnt,
                                               const unsigned int *sent, int me, int npes) {
    bl_fence<BL_BLOCK>(ctx);
    if (threadIdx.x == 0)
        for (int d = 0; d < npes; d++)
            if (sent[d])
                bl_signal_add(ctx, cnt + me, sent[d], d);
}

/* Every block: its warps send tokens; the block's counts go to each destination after a fence.
 * Block 0 then waits until this PE has received, from every source, all of call number calls. */
__global__ void BENCH_BOUNDS ep_dispatch_kernel(const char *x, char *recv, int tokens, ep_layout L,
                                                uint64_t *cnt, int me, uint64_t calls,
                                                bl_ctx_t ctx) {
    __shared__ unsigned int sent[BENCH_MAX_PES];
    const int P = L.npes;
    ep_sent_clear(sent, P);
    const int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int t = blockIdx.x * warps + threadIdx.x / 32; t < tokens; t += gridDim.x * warps)
        for (int d = 0; d < P; d++) {
            int j = L.dest_slot[(size_t)P * t + d];
            if (j < 0)
                continue;
            bl_putmem_nbi<BL_WARP>(ctx, recv + (L.recv_off[d] + j) * EP_TOKEN_BYTES,
                                   x + (size_t)t * EP_TOKEN_BYTES, EP_TOKEN_BYTES, d);
            if (lane == 0)
                atomicAdd(&sent[d], 1u);
        }
    ep_send_counts(ctx, cnt, sent, me, P);
    if (threadIdx.x == 0 && blockIdx.x == 0)
        ep_wait_counts(ctx, cnt, L.dexpect, P, calls);
}

/* Every block: scales and returns its share of the received tokens, fences, adds its counts to
 * the sources' counters; then every block waits for all returned tokens and sums its share of
 * this PE's tokens into out. */
__global__ void BENCH_BOUNDS ep_combine_kernel(const char *recv, char *stage, char *comb,
                                               __nv_bfloat16 *out, int tokens, ep_layout L,
                                               uint64_t *cnt, int me, uint64_t calls,
                                               bl_ctx_t ctx) {
    __shared__ unsigned int sent[BENCH_MAX_PES];
    const int P = L.npes;
    ep_sent_clear(sent, P);
    const int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (size_t r = blockIdx.x * warps + threadIdx.x / 32; r < L.n_recv;
         r += (size_t)gridDim.x * warps) {
        const uint64_t *in = (const uint64_t *)(recv + r * EP_TOKEN_BYTES);
        uint64_t *st = (uint64_t *)(stage + r * EP_TOKEN_BYTES);
        const float w = L.recv_w[r];
        for (int i = lane; i < EP_TOKEN_BYTES / 8; i += 32) {
            uint64_t v = bl_payload_load(ctx, in + i);
            __nv_bfloat16 *h = (__nv_bfloat16 *)&v;
            for (int k = 0; k < 4; k++)
                h[k] = __float2bfloat16(__bfloat162float(h[k]) * w);
            st[i] = v;
        }
        __syncwarp();
        const int s = L.recv_src[r];
        bl_putmem_nbi<BL_WARP>(ctx, comb + (L.ret_off[s] + L.recv_slot[r]) * EP_TOKEN_BYTES, st,
                               EP_TOKEN_BYTES, s);
        if (lane == 0)
            atomicAdd(&sent[s], 1u);
    }
    ep_send_counts(ctx, cnt, sent, me, P);
    if (threadIdx.x == 0)
        ep_wait_counts(ctx, cnt, L.cexpect, P, calls);
    __syncthreads();
    for (int t = blockIdx.x * warps + threadIdx.x / 32; t < tokens; t += gridDim.x * warps) {
        const int *js = L.dest_slot + (size_t)P * t;
        for (int i = lane; i < EP_TOKEN_BYTES / 8; i += 32) {
            float acc[4] = {0, 0, 0, 0};
            for (int d = 0; d < P; d++) {
                int j = js[d];
                if (j < 0)
                    continue;
                uint64_t v = bl_payload_load(
                    ctx, (const uint64_t *)(comb + (L.comb_off[d] + j) * EP_TOKEN_BYTES) + i);
                const __nv_bfloat16 *h = (const __nv_bfloat16 *)&v;
                for (int k = 0; k < 4; k++)
                    acc[k] += __bfloat162float(h[k]);
            }
            for (int k = 0; k < 4; k++)
                out[(size_t)t * EP_HIDDEN + 4 * i + k] = __float2bfloat16(acc[k]);
        }
    }
}

__global__ void ep_fill(__nv_bfloat16 *x, size_t n, uint64_t seed, int pe) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = ep_value(seed, pe, i);
}

/* Received tokens equal their source's tokens; the output equals x times the weight sum (bf16
 * tolerance: each returned copy and the sum are rounded once). */
__global__ void ep_check(const __nv_bfloat16 *recv, const __nv_bfloat16 *out, int tokens,
                         ep_layout L, uint64_t seed, int me, int check_out,
                         unsigned long long *errors) {
    unsigned long long e = 0;
    const size_t nr = L.n_recv * EP_HIDDEN;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nr;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t r = i / EP_HIDDEN, h = i % EP_HIDDEN;
        __nv_bfloat16 want = ep_value(seed, L.recv_src[r], (size_t)L.recv_tok[r] * EP_HIDDEN + h);
        e += __bfloat162float(recv[i]) != __bfloat162float(want);
    }
    const size_t no = check_out ? (size_t)tokens * EP_HIDDEN : 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < no;
         i += (size_t)gridDim.x * blockDim.x) {
        float want = __bfloat162float(ep_value(seed, me, i)) * L.tok_wsum[i / EP_HIDDEN];
        float got = __bfloat162float(out[i]);
        e += !(fabsf(got - want) <= 0.02f * fabsf(want) + 1e-3f);
    }
    if (e)
        atomicAdd(errors, e);
}

static int run_ep(const bench_opts &o) {
    std::vector<size_t> sizes = bench_sizes(o);
    const int me = bench.me, npes = bench.npes;
    const size_t maxt = sizes.back(), tb = (size_t)EP_TOKEN_BYTES;
    /* A source sends each token here at most once; each token comes back from at most
     * min(npes, top-k) PEs. */
    const size_t nrecv = (size_t)npes * maxt * tb,
                 ncomb = (size_t)std::min(npes, EP_TOPK) * maxt * tb;
    char *x = (char *)bl_malloc(maxt * tb), *recv = (char *)bl_malloc(nrecv);
    char *stage = (char *)bl_malloc(nrecv), *comb = (char *)bl_malloc(ncomb);
    uint64_t *cnt = (uint64_t *)bl_malloc(2 * (size_t)npes * sizeof(uint64_t));
    __nv_bfloat16 *out = nullptr;
    BL_CHECK(cudaMalloc((void **)&out, maxt * tb));
    if (!x || !recv || !stage || !comb || !cnt) {
        fprintf(stderr, "ep: cannot allocate %zu bytes of symmetric memory\n",
                maxt * tb + 2 * nrecv + ncomb);
        return 1;
    }
    uint64_t *dcnt = cnt, *ccnt = cnt + npes;
    std::vector<const char *> ctxs;
    if (o.ctx == "default" || o.ctx == "all")
        ctxs.push_back("default");
    if (o.ctx == "bypass" || o.ctx == "all")
        ctxs.push_back("bypass");
    if (!bench_resident((const void *)ep_combine_kernel, o.blocks, o.threads))
        ctxs.clear();
    for (const char *cname : ctxs) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (size_t ts : sizes) {
            int tokens = (int)ts;
            double bytes = 0;
            ep_layout L = ep_make_layout(tokens, me, npes, &bytes);
            /* The counters start from zero for each size: every add of the last size has arrived
             * (its kernels waited for them all). */
            uint64_t dcalls = 0, ccalls = 0;
            BL_CHECK(cudaMemset(cnt, 0, 2 * (size_t)npes * sizeof(uint64_t)));
            auto dispatch = [&] {
                ep_dispatch_kernel<<<o.blocks, o.threads>>>(x, recv, tokens, L, dcnt, me, ++dcalls,
                                                            ctx);
            };
            auto combine = [&] {
                ep_combine_kernel<<<o.blocks, o.threads>>>(recv, stage, comb, out, tokens, L, ccnt,
                                                           me, ++ccalls, ctx);
            };
            ep_fill<<<264, 512>>>((__nv_bfloat16 *)x, (size_t)tokens * EP_HIDDEN, bench.seed, me);
            bench_poison(recv, nrecv);
            bench_poison(comb, ncomb);
            bench_poison(out, maxt * tb);
            bench_errors_clear();
            bl_barrier_host();
            dispatch();
            BL_CHECK(cudaGetLastError());
            BL_CHECK(cudaDeviceSynchronize());
            bl_barrier_host();
            combine();
            BL_CHECK(cudaGetLastError());
            BL_CHECK(cudaDeviceSynchronize());
            ep_check<<<264, 512>>>((const __nv_bfloat16 *)recv, out, tokens, L, bench.seed, me, 1,
                                   bench.errors);
            bench_fail_if(bench_errors_read(), "ep_dispatch/combine", ts);
            std::vector<double> tdisp, tcomb;
            for (int r = 0; r < o.warmup + o.reps; r++) {
                bl_barrier_host();
                float ms_d = bench_time(dispatch);
                bl_barrier_host();
                float ms_c = bench_time(combine);
                if (r >= o.warmup) {
                    tdisp.push_back(bench_allgather(ms_d * 1e3)[0]);
                    tcomb.push_back(bench_allgather(ms_c * 1e3)[0]);
                }
            }
            char extra[160];
            double md = bench_summary(tdisp).median, mc = bench_summary(tcomb).median;
            snprintf(extra, sizeof(extra), ", \"tokens\": %d, \"GBps\": %.4g", tokens,
                     bytes / (md * 1e3));
            bench_report("ep_dispatch", "warp", cname, ts, "us", tdisp, 1, o, extra);
            snprintf(extra, sizeof(extra), ", \"tokens\": %d, \"GBps\": %.4g", tokens,
                     bytes / (mc * 1e3));
            bench_report("ep_combine", "warp", cname, ts, "us", tcomb, 1, o, extra);
            bl_barrier_host();
            ep_free_layout(L);
        }
        bl_ctx_destroy(ctx);
    }
    bl_barrier_host();
    BL_CHECK(cudaFree(out));
    bl_free(cnt);
    bl_free(comb);
    bl_free(stage);
    bl_free(recv);
    bl_free(x);
    return 0;
}

static bench_opts ep_defaults() {
    bench_opts d;
    d.min_size = 128;
    d.max_size = 4096;
    d.step = 2;
    d.iters = 1;
    d.warmup = 1;
    d.reps = 7;
    d.blocks = 32;
    d.threads = 512;
    return d;
}

static bench_register reg("ep",
                          "expert-parallel dispatch and combine (hidden 7168 bf16, top-8 "
                          "of 64 experts), size = tokens per PE, us",
                          ep_defaults(), run_ep, true);
