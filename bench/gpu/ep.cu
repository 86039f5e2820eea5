/* Expert-parallel dispatch and combine between 2 PEs, DeepEP-style intranode: hidden 7168 bf16,
 * 64 experts (32 per PE), top-8, -b..-e tokens per PE. The layout (which token goes to which PE,
 * and where it lands) is computed on the host before timing, as DeepEP's notify step does.
 *   ep_dispatch: each warp sends its tokens with putmem_nbi_warp to every PE that holds one of the
 *                token's experts (this PE included); each block then fences and adds its count to
 *                the destination's counter (signal_add); the kernel returns once this PE has
 *                received every token meant for it.
 *   ep_combine:  each received token is scaled by the sum of the weights of its experts on this PE
 *                (the expert's stand-in), staged, and sent back to its source with putmem_nbi_warp,
 *                then fence and signal_add; the source waits for all of them and sums the returned
 *                copies of each token into its output.
 * Microseconds per kernel (PE 0's events); GB/s counts the token bytes PE 0 sends. The received
 * tokens and the combined output are checked once per size before timing. */
#include <cuda_bf16.h>

#include "bench_gpu.h"

#define EP_HIDDEN 7168
#define EP_TOKEN_BYTES (EP_HIDDEN * 2)
#define EP_EXPERTS 64
#define EP_TOPK 8

struct ep_layout {
    /* This PE's tokens: slot of token t on PE d (or -1) at dest_slot[2 t + d]; region offsets in
     * the destination's receive buffer (this PE's region there) and in this PE's combine buffer
     * (the region of the tokens that PE d sends back). */
    int *dest_slot;
    size_t recv_off[2]; /* where this PE's tokens start in PE d's receive buffer */
    size_t comb_off[2]; /* where PE d's returned tokens start in this PE's combine buffer */
    size_t ret_off[2];  /* where the tokens this PE returns start in PE s's combine buffer */
    /* Tokens received here: for each received slot, the source PE, the source's token index, the
     * slot on the source side and the weight sum of the token's experts on this PE. */
    int *recv_src, *recv_tok, *recv_slot;
    float *recv_w;
    float *tok_wsum; /* this PE's tokens: sum of all 8 weights */
    size_t n_recv, n_sent[2];
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

/* Host: the layout of both PEs for tokens per PE, as seen from PE me; device copies. */
static ep_layout ep_make_layout(int tokens, int me) {
    std::vector<int> slot[2];    /* per source: dest_slot[2 t + d] */
    std::vector<float> wpart[2]; /* per source: weight sum on d at [2 t + d] */
    std::vector<float> wsum[2];  /* per source: total weight */
    size_t count[2][2] = {{0, 0}, {0, 0}};
    for (int s = 0; s < 2; s++) {
        slot[s].assign(2 * tokens, -1);
        wpart[s].assign(2 * tokens, 0.0f);
        wsum[s].assign(tokens, 0.0f);
        for (int t = 0; t < tokens; t++) {
            int ex[EP_TOPK];
            float w[EP_TOPK];
            route(bench.seed, s, t, ex, w);
            for (int k = 0; k < EP_TOPK; k++) {
                int d = ex[k] / (EP_EXPERTS / 2);
                wpart[s][2 * t + d] += w[k];
                wsum[s][t] += w[k];
            }
            for (int d = 0; d < 2; d++)
                if (wpart[s][2 * t + d] > 0)
                    slot[s][2 * t + d] = (int)count[s][d]++;
        }
    }
    ep_layout L;
    for (int d = 0; d < 2; d++) {
        L.recv_off[d] = me == 0 ? 0 : count[0][d];
        L.comb_off[d] = d == 0 ? 0 : count[me][0];
        L.ret_off[d] = me == 0 ? 0 : count[d][0];
        L.n_sent[d] = count[me][d];
    }
    L.n_recv = count[0][me] + count[1][me];
    std::vector<int> src(L.n_recv), tok(L.n_recv), sl(L.n_recv);
    std::vector<float> rw(L.n_recv);
    for (int s = 0; s < 2; s++) {
        size_t off = s == 0 ? 0 : count[0][me];
        for (int t = 0; t < tokens; t++) {
            int j = slot[s][2 * t + me];
            if (j < 0)
                continue;
            src[off + j] = s;
            tok[off + j] = t;
            sl[off + j] = j;
            rw[off + j] = wpart[s][2 * t + me];
        }
    }
    auto up = [](const void *h, size_t bytes) {
        void *d = nullptr;
        BL_CHECK(cudaMalloc(&d, bytes ? bytes : 4));
        if (bytes)
            BL_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        return d;
    };
    L.dest_slot = (int *)up(slot[me].data(), slot[me].size() * sizeof(int));
    L.recv_src = (int *)up(src.data(), src.size() * sizeof(int));
    L.recv_tok = (int *)up(tok.data(), tok.size() * sizeof(int));
    L.recv_slot = (int *)up(sl.data(), sl.size() * sizeof(int));
    L.recv_w = (float *)up(rw.data(), rw.size() * sizeof(float));
    L.tok_wsum = (float *)up(wsum[me].data(), wsum[me].size() * sizeof(float));
    return L;
}

static void ep_free_layout(ep_layout &L) {
    BL_CHECK(cudaFree(L.dest_slot));
    BL_CHECK(cudaFree(L.recv_src));
    BL_CHECK(cudaFree(L.recv_tok));
    BL_CHECK(cudaFree(L.recv_slot));
    BL_CHECK(cudaFree(L.recv_w));
    BL_CHECK(cudaFree(L.tok_wsum));
}

__device__ __forceinline__ __nv_bfloat16 ep_value(uint64_t seed, int pe, size_t i) {
    return __float2bfloat16(bench_float(seed, 9000 + pe, i));
}

/* Every block: its warps send tokens; the block's counts go to each destination after a fence.
 * Block 0 then waits until this PE has received expect0 + expect1 tokens in total. */
__global__ void BENCH_BOUNDS ep_dispatch_kernel(const char *x, char *recv, int tokens, ep_layout L,
                                                uint64_t *cnt, int me, uint64_t expect0,
                                                uint64_t expect1, bl_ctx_t ctx) {
    __shared__ unsigned int sent[2];
    if (threadIdx.x < 2)
        sent[threadIdx.x] = 0;
    __syncthreads();
    const int warps = blockDim.x / 32, lane = threadIdx.x % 32;
    for (int t = blockIdx.x * warps + threadIdx.x / 32; t < tokens; t += gridDim.x * warps)
        for (int d = 0; d < 2; d++) {
            int j = L.dest_slot[2 * t + d];
            if (j < 0)
                continue;
            bl_putmem_nbi<BL_WARP>(ctx, recv + (L.recv_off[d] + j) * EP_TOKEN_BYTES,
                                   x + (size_t)t * EP_TOKEN_BYTES, EP_TOKEN_BYTES, d);
            if (lane == 0)
                atomicAdd(&sent[d], 1u);
        }
    /* The block's puts, all threads' alike, before the counts: the block form of fence (a fence
     * by one thread orders only that thread's puts). */
    bl_fence<BL_BLOCK>(ctx);
    if (threadIdx.x == 0) {
        for (int d = 0; d < 2; d++)
            if (sent[d])
                bl_signal_add(ctx, cnt + me, sent[d], d);
        if (blockIdx.x == 0) {
            bl_signal_wait_ge(ctx, cnt + 0, expect0);
            bl_signal_wait_ge(ctx, cnt + 1, expect1);
        }
    }
}

/* Every block: scales and returns its share of the received tokens, fences, adds its counts to
 * the sources' counters; then every block waits for all returned tokens and sums its share of
 * this PE's tokens into out. */
__global__ void BENCH_BOUNDS ep_combine_kernel(const char *recv, char *stage, char *comb,
                                               __nv_bfloat16 *out, int tokens, ep_layout L,
                                               uint64_t *cnt, int me, uint64_t expect0,
                                               uint64_t expect1, bl_ctx_t ctx) {
    __shared__ unsigned int sent[2];
    if (threadIdx.x < 2)
        sent[threadIdx.x] = 0;
    __syncthreads();
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
    bl_fence<BL_BLOCK>(ctx);
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++)
            if (sent[s])
                bl_signal_add(ctx, cnt + me, sent[s], s);
        bl_signal_wait_ge(ctx, cnt + 0, expect0);
        bl_signal_wait_ge(ctx, cnt + 1, expect1);
    }
    __syncthreads();
    for (int t = blockIdx.x * warps + threadIdx.x / 32; t < tokens; t += gridDim.x * warps) {
        int j0 = L.dest_slot[2 * t], j1 = L.dest_slot[2 * t + 1];
        for (int i = lane; i < EP_TOKEN_BYTES / 8; i += 32) {
            float acc[4] = {0, 0, 0, 0};
            for (int d = 0; d < 2; d++) {
                int j = d ? j1 : j0;
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
    size_t maxt = sizes.back();
    size_t tb = (size_t)EP_TOKEN_BYTES;
    char *x = (char *)bl_malloc(maxt * tb), *recv = (char *)bl_malloc(2 * maxt * tb);
    char *stage = (char *)bl_malloc(2 * maxt * tb), *comb = (char *)bl_malloc(2 * maxt * tb);
    uint64_t *cnt = (uint64_t *)bl_malloc(4 * sizeof(uint64_t));
    __nv_bfloat16 *out = nullptr;
    BL_CHECK(cudaMalloc((void **)&out, maxt * tb));
    if (!x || !recv || !stage || !comb || !cnt) {
        fprintf(stderr, "ep: cannot allocate %zu bytes of symmetric memory\n", 7 * maxt * tb);
        return 1;
    }
    BL_CHECK(cudaMemset(cnt, 0, 4 * sizeof(uint64_t)));
    uint64_t *dcnt = cnt, *ccnt = cnt + 2;
    uint64_t dgot[2] = {0, 0}, cgot[2] = {0, 0}; /* cumulative expected counts */
    std::vector<const char *> ctxs;
    if (o.ctx == "default" || o.ctx == "all")
        ctxs.push_back("default");
    if (o.ctx == "bypass" || o.ctx == "all")
        ctxs.push_back("bypass");
    const int me = bench.me;
    for (const char *cname : ctxs) {
        bl_ctx_t ctx = BL_CTX_DEFAULT;
        if (std::string(cname) == "bypass" && bl_ctx_create_bypass(&ctx) != 0)
            continue;
        for (size_t ts : sizes) {
            int tokens = (int)ts;
            ep_layout L = ep_make_layout(tokens, me);
            /* Tokens this PE receives from each source, and gets back from each destination. */
            std::vector<double> nrecv = bench_allgather((double)L.n_sent[1 - me]);
            uint64_t from_peer = (uint64_t)nrecv[1 - me], from_me = L.n_sent[me];
            uint64_t recv_from[2], back_from[2];
            recv_from[me] = from_me;
            recv_from[1 - me] = from_peer;
            back_from[me] = L.n_sent[me];
            back_from[1 - me] = L.n_sent[1 - me];
            if (!bench_resident((const void *)ep_combine_kernel, o.blocks, o.threads))
                continue;
            auto dispatch = [&] {
                dgot[0] += recv_from[0];
                dgot[1] += recv_from[1];
                ep_dispatch_kernel<<<o.blocks, o.threads>>>(x, recv, tokens, L, dcnt, me, dgot[0],
                                                            dgot[1], ctx);
            };
            auto combine = [&] {
                cgot[0] += back_from[0];
                cgot[1] += back_from[1];
                ep_combine_kernel<<<o.blocks, o.threads>>>(recv, stage, comb, out, tokens, L, ccnt,
                                                           me, cgot[0], cgot[1], ctx);
            };
            ep_fill<<<264, 512>>>((__nv_bfloat16 *)x, (size_t)tokens * EP_HIDDEN, bench.seed, me);
            bench_poison(recv, 2 * maxt * tb);
            bench_poison(comb, 2 * maxt * tb);
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
            const double bytes = (double)(L.n_sent[0] + L.n_sent[1]) * tb;
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
                          ep_defaults(), run_ep);
