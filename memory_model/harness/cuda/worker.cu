/* SPDX-License-Identifier: BSD-3-Clause */
/* The interpreter on GPUs (shmem-litmus-cuda or shmem-litmus-hip, started by `shmem-litmus run
 * --platform cuda|hip`), written in the common subset of CUDA and HIP through the library's
 * portability header: every PE is a process with its GPU, and the test's threads are GPU threads.
 * One kernel launch runs a round: many instances of the test, each on its own symmetric lines,
 * its threads placed in randomly drawn blocks, warps and lanes (threads that share a `block` or
 * `warp` in the test share one on the GPU, others are apart), some of them loading the
 * instance's locations first, the threads of an instance meeting at a spin barrier before their
 * events, and stress threads writing and reading scratch lines of every PE meanwhile. A checking
 * kernel on PE 0 gathers the registers and final values of every instance; the host counts
 * them. Each event is one call of the device API (plan.h). */
#include <shmem.h>
#include <shmem/device/impl/gpu_port.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "harness.h"
}

#define LINE 16 /* longs per 128-byte line */
#define STRESS_LINES 256
#define JOB_IDLE -1
#define JOB_STRESS -2
#define SPIN_LIMIT_NS 20000000000ull /* a spin barrier that waits 20 s reports an error */

#define GPU_OK(call)                                                                               \
    do {                                                                                           \
        shmemi_gpu_error_t e_ = (call);                                                            \
        if (e_ != shmemi_gpu_success) {                                                            \
            fprintf(stderr, "shmem-litmus-gpu: %s: %s\n", #call, shmemi_gpu_get_error_string(e_)); \
            shmem_global_exit(2);                                                                  \
        }                                                                                          \
    } while (0)

__constant__ plan_op_t c_ops[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS];
__constant__ int c_nops[LITMUS_MAX_THREADS];
__constant__ int c_loc_home[LITMUS_MAX_LOCS];
__constant__ long c_init[LITMUS_MAX_LOCS];

struct kargs {
    long *mem, *scratch, *regs, *ctl, *stress, *seq;
    const int *job, *slot;
    unsigned long long *done, *error;
    shmem_ctx_t ctx[PLAN_NCTX];
    int perm[64];
    int nthreads, nlocs, nlocal, npes;
    int serial; /* instances run one after another (tests that call barrier_all) */
    int prime;  /* percent of test threads that load their locations before the start */
    unsigned long long round_seed;
    unsigned ctx_used;
};

/* The heaps of this node's PEs that the library does not map (SHMEM_DISABLE_P2P=1: every peer
 * over the network), mapped by the harness itself through IPC (map_unmapped_peers); NULL where
 * the library maps the peer or the peer is this PE. */
__device__ char *harness_peer_base[64];

/* The harness's own accesses, made with the primitives of the portability header. The host
 * pass of a CUDA/HIP compiler sees bodies that never run. A plain access of the test is the
 * weakest load or store: on NVIDIA a weak ld/st.global (which may hit the SM's L1), on AMD a
 * relaxed workgroup-scope access (a global_load/store without cache-coherence bits). */
/* The address of addr on pe for the harness's loads and stores: shmem_ptr's, or, where kernels
 * reach pe through the proxy (SHMEM_DEVICE_PATH=proxy), the peer's heap as this node's IPC maps
 * it, or, where the library reaches pe over the network, the harness's own mapping of it. The
 * test's plain and bypass accesses and the harness's own lines (start barrier, stress) stay loads
 * and stores while the test's SHMEM operations go through the proxy (and the network). */
__device__ static void *harness_ptr(const void *addr, int pe) {
    void *p = shmem_ptr(addr, pe);
#if SHMEMI_DEVICE_PASS
    if (p == NULL && pe >= 0 && pe < shmemi_dstate.n_pes) {
        char *base =
            shmemi_dstate.peer_base[pe] ? shmemi_dstate.peer_base[pe] : harness_peer_base[pe];
        if (base != NULL)
            p = base + ((const char *)addr - shmemi_dstate.heap_base);
    }
#endif
    return p;
}

__device__ static long ld_plain(const long *p) {
#if defined(__CUDA_ARCH__)
    long v;
    asm volatile("ld.global.s64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
#elif SHMEMI_DEVICE_PASS
    return shmemi_ld_relaxed<SHMEMI_SCOPE_BLOCK>(p);
#else
    return *p;
#endif
}
__device__ static void st_plain(long *p, long v) {
#if defined(__CUDA_ARCH__)
    asm volatile("st.global.s64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
#elif SHMEMI_DEVICE_PASS
    shmemi_st_relaxed<SHMEMI_SCOPE_BLOCK>(p, v);
#else
    *p = v;
#endif
}
__device__ static long ld_sys(const long *p) {
#if SHMEMI_DEVICE_PASS
    return shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(p);
#else
    return *p;
#endif
}
__device__ static long ld_acquire_sys(const long *p) {
#if SHMEMI_DEVICE_PASS
    return shmemi_ld_acquire<SHMEMI_SCOPE_SYSTEM>(p);
#else
    return *p;
#endif
}
__device__ static void add_sys(void *p) {
#if SHMEMI_DEVICE_PASS
    shmemi_ptx_atom_add_relaxed<SHMEMI_SCOPE_SYSTEM>((uint64_t *)p, (uint64_t)1);
#else
    (void)p;
#endif
}
/* Publishes everything this thread wrote before a later relaxed add (the hand-over of a serial
 * test's barrier state to the next instance): not the library's quiet, which a test build may
 * weaken. */
__device__ static void fence_sys(void) {
#if SHMEMI_DEVICE_PASS
    shmemi_fence_sc<SHMEMI_SCOPE_SYSTEM>();
#endif
}
__device__ static unsigned long long now_ns(void) {
#if SHMEMI_DEVICE_PASS
    return shmemi_clock_ns();
#else
    return 0;
#endif
}
__device__ static void backoff(void) {
#if SHMEMI_DEVICE_PASS
    shmemi_pause();
#endif
}

__device__ static long *loc_addr(const kargs &a, int s, int loc) {
    return a.mem + ((size_t)s * (size_t)a.nlocs + (size_t)loc) * LINE;
}

__device__ static uint64_t wait_signal(shmem_ctx_t ctx, uint64_t *s, int cmp, uint64_t v) {
    if (ctx == SHMEM_CTX_DEFAULT)
        return shmem_signal_wait_until(s, cmp, v);
    return shmemx_ctx_signal_wait_until(ctx, s, cmp, v);
}

__device__ static void order(const plan_op_t &op, shmem_ctx_t ctx) {
    if (op.kind == PLAN_FENCE) {
        if (op.group == PLAN_GROUP_BLOCK)
            shmemx_ctx_fence_block(ctx);
        else if (op.group == PLAN_GROUP_WARP)
            shmemx_ctx_fence_warp(ctx);
        else
            shmem_ctx_fence(ctx);
    } else {
        if (op.group == PLAN_GROUP_BLOCK)
            shmemx_ctx_quiet_block(ctx);
        else if (op.group == PLAN_GROUP_WARP)
            shmemx_ctx_quiet_warp(ctx);
        else
            shmem_ctx_quiet(ctx);
    }
}

__device__ static void run_op(const kargs &a, const plan_op_t &op, int th, int s, long *r,
                              long *nbi) {
    long *x = op.loc >= 0 ? loc_addr(a, s, op.loc) : NULL;
    int pe = op.loc >= 0 ? a.perm[c_loc_home[op.loc]] : 0;
    shmem_ctx_t ctx = a.ctx[op.ctx];
    long v = (long)op.value;
    switch (op.kind) {
    case PLAN_NOP:
        return;
    case PLAN_PLAIN_ST:
        st_plain((long *)harness_ptr(x, pe), v);
        return;
    case PLAN_PLAIN_LD:
        r[op.reg] = ld_plain((const long *)harness_ptr(x, pe));
        return;
    case PLAN_BYPASS_ST:
        shmemx_long_st_bypass((long *)harness_ptr(x, pe), v);
        return;
    case PLAN_BYPASS_LD:
        r[op.reg] = shmemx_long_ld_bypass((const long *)harness_ptr(x, pe));
        return;
    case PLAN_PUT:
        shmem_ctx_long_p(ctx, x, v, pe);
        return;
    case PLAN_GET:
        r[op.reg] = shmem_ctx_long_g(ctx, x, pe);
        return;
    case PLAN_GETNBI:
        shmem_ctx_long_get_nbi(ctx, &nbi[op.reg], x, 1, pe);
        return;
    case PLAN_AMO_SET:
        if (op.other_type)
            shmem_ctx_ulong_atomic_set(ctx, (unsigned long *)x, (unsigned long)v, pe);
        else
            shmem_ctx_long_atomic_set(ctx, x, v, pe);
        return;
    case PLAN_AMO_FETCH:
        r[op.reg] = op.other_type ? (long)shmem_ctx_ulong_atomic_fetch(ctx, (unsigned long *)x, pe)
                                  : shmem_ctx_long_atomic_fetch(ctx, x, pe);
        return;
    case PLAN_AMO_ADD:
        r[op.reg] = op.other_type ? (long)shmem_ctx_ulong_atomic_fetch_add(ctx, (unsigned long *)x,
                                                                           (unsigned long)v, pe)
                                  : shmem_ctx_long_atomic_fetch_add(ctx, x, v, pe);
        return;
    case PLAN_AMO_SWAP:
        r[op.reg] = op.other_type ? (long)shmem_ctx_ulong_atomic_swap(ctx, (unsigned long *)x,
                                                                      (unsigned long)v, pe)
                                  : shmem_ctx_long_atomic_swap(ctx, x, v, pe);
        return;
    case PLAN_PUT_SIGNAL: {
        long data = op.data_loc >= 0 ? (long)op.data : 1;
        long *dest = op.data_loc >= 0
                         ? loc_addr(a, s, op.data_loc)
                         : a.scratch + ((size_t)s * (size_t)a.nthreads + (size_t)th) * LINE;
        shmem_ctx_long_put_signal(ctx, dest, &data, 1, (uint64_t *)x, (uint64_t)v,
                                  op.sig_add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, pe);
        return;
    }
    case PLAN_SIGNAL_SET:
        shmem_ctx_signal_set(ctx, (uint64_t *)x, (uint64_t)v, pe);
        return;
    case PLAN_SIGNAL_ADD:
        shmem_ctx_signal_add(ctx, (uint64_t *)x, (uint64_t)v, pe);
        return;
    case PLAN_SIGNAL_FETCH:
        r[op.reg] = (long)shmem_signal_fetch((const uint64_t *)x);
        return;
    case PLAN_WAIT:
        shmem_long_wait_until(x, SHMEM_CMP_EQ, (long)op.wait_value);
        r[op.reg] = (long)op.wait_value;
        return;
    case PLAN_SIGNAL_WAIT:
        r[op.reg] = (long)wait_signal(ctx, (uint64_t *)x, op.wait_eq ? SHMEM_CMP_EQ : SHMEM_CMP_NE,
                                      (uint64_t)(op.wait_eq ? op.wait_value : c_init[op.loc]));
        return;
    case PLAN_FENCE:
    case PLAN_QUIET:
        order(op, ctx);
        return;
    case PLAN_BARRIER:
        shmem_barrier_all();
        return;
    case PLAN_ACQUIRE:
        shmemx_acquire(op.scope);
        return;
    case PLAN_RELEASE:
        shmemx_release(op.scope);
        return;
    }
}

__device__ static void stress(const kargs &a, unsigned long long seed) {
    for (long i = 0;; i++) {
        if ((i & 63) == 0 && ld_sys((const long *)a.done) >= a.nlocal)
            return;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int pe = (int)((seed >> 33) % (unsigned long long)a.npes);
        long *line = (long *)harness_ptr(a.stress, pe) + ((seed >> 40) % STRESS_LINES) * LINE;
        st_plain(&line[(seed >> 20) % LINE], i);
        (void)ld_plain(&line[(seed >> 12) % LINE]);
    }
}

/* Spins until *p >= target (acquire: a serial test's hand-over); counts an error after 20 s. */
__device__ static void spin_until(const kargs &a, const long *p, long target, int acquire,
                                  unsigned long long t0) {
    while ((acquire ? ld_acquire_sys(p) : ld_sys(p)) < target) {
        if (now_ns() - t0 > SPIN_LIMIT_NS) {
            add_sys(a.error);
            return;
        }
        if (acquire)
            backoff();
    }
}

__global__ void __launch_bounds__(256) litmus_kernel(kargs a) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int job = a.job[g];
    if (job == JOB_STRESS)
        stress(a, 0x9e3779b97f4a7c15ull * (unsigned long long)(g + 1));
    if (job < 0)
        return;
    int k = job >> 3, th = job & 7, s = a.slot[k];
    unsigned long long t0 = now_ns();
    /* A serial test's instance k starts when every thread of the ones before it has finished
     * (the counter on each PE counts the finished threads of all PEs). */
    if (a.serial)
        spin_until(a, a.seq, (long)k * a.nthreads, 1, t0);
    /* Priming: a share of the threads load their instance's locations first, so that a plain
     * load of the test may find the initial value in a cache. */
    unsigned long long h = (a.round_seed ^ (unsigned long long)job) * 0x9e3779b97f4a7c15ull;
    if ((int)((h >> 40) % 100) < a.prime)
        for (int l = 0; l < a.nlocs; l++)
            (void)ld_plain((const long *)harness_ptr(loc_addr(a, s, l), a.perm[c_loc_home[l]]));
    /* The start barrier of instance k lives on PE 0 of the job. */
    long *start = (long *)harness_ptr(a.ctl, 0) + (size_t)k * LINE;
    add_sys(start);
    spin_until(a, start, a.nthreads, 0, t0);
    long r[PLAN_MAX_REGS] = {0}, nbi[PLAN_MAX_REGS] = {0};
    for (int i = 0; i < c_nops[th]; i++)
        run_op(a, c_ops[th][i], th, s, r, nbi);
    for (int i = 0; i < c_nops[th]; i++)
        if (c_ops[th][i].kind == PLAN_GETNBI) {
            shmem_ctx_quiet(a.ctx[c_ops[th][i].ctx]);
            r[c_ops[th][i].reg] = nbi[c_ops[th][i].reg];
        }
    long *out = a.regs + ((size_t)k * (size_t)a.nthreads + (size_t)th) * PLAN_MAX_REGS;
    for (int i = 0; i < PLAN_MAX_REGS; i++)
        out[i] = r[i];
    for (int c = 0; c < PLAN_NCTX; c++)
        if (a.ctx_used & (1u << c))
            shmem_ctx_quiet(a.ctx[c]);
    if (a.serial) {
        fence_sys();
        for (int q = 0; q < a.npes; q++)
            add_sys(harness_ptr(a.seq, q));
    }
    add_sys(a.done);
}

__global__ void reset_kernel(kargs a, int K) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < K; i += gridDim.x * blockDim.x) {
        for (int l = 0; l < a.nlocs; l++)
            a.mem[((size_t)i * (size_t)a.nlocs + (size_t)l) * LINE] = c_init[l];
        for (int j = 0; j < a.nthreads * PLAN_MAX_REGS; j++)
            a.regs[(size_t)i * (size_t)a.nthreads * PLAN_MAX_REGS + (size_t)j] = 0;
        a.ctl[(size_t)i * LINE] = 0;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *a.done = 0;
        *a.seq = 0;
    }
}

struct gather_cols {
    int ncols;
    int proc[PLAN_MAX_COLS], id[PLAN_MAX_COLS], pe[PLAN_MAX_COLS];
};

/* The checking pass, on PE 0: one row of recorded values per instance. */
__global__ void gather_kernel(kargs a, gather_cols c, int kr, long *rows) {
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < kr; k += gridDim.x * blockDim.x)
        for (int col = 0; col < c.ncols; col++) {
            const long *w;
            if (c.proc[col] >= 0)
                w = a.regs +
                    ((size_t)k * (size_t)a.nthreads + (size_t)c.proc[col]) * PLAN_MAX_REGS +
                    c.id[col];
            else
                w = loc_addr(a, a.slot[k], c.id[col]);
            rows[(size_t)k * (size_t)c.ncols + (size_t)col] = shmem_long_g((long *)w, c.pe[col]);
        }
}

/* A random one of 0..n-1 for which ok() holds: a few random draws, then a scan from a random
 * start, so that a nearly full grid still finds its last free place. -1 if there is none. */
template <typename Ok> static int draw(int n, uint64_t *rs, Ok ok) {
    for (int tries = 0; tries < 64; tries++) {
        int c = (int)(harness_rand(rs) % (uint64_t)n);
        if (ok(c))
            return c;
    }
    int start = (int)(harness_rand(rs) % (uint64_t)n);
    for (int i = 0; i < n; i++)
        if (ok((start + i) % n))
            return (start + i) % n;
    return -1;
}

/* Draws where each thread of each instance runs this round: the test's blocks to distinct GPU
 * blocks, its warps to distinct warps of them, its threads to free lanes. Returns -1 if the grid
 * is too full (the caller sizes it at most half full, or to one block per test block). */
static int place(const plan_t *p, int me, const int *perm, int K, int B, int T, int dedicated,
                 int nstress, uint64_t *rs, int *job) {
    int W = (T + 31) / 32, width = T < 32 ? T : 32;
    unsigned full = width == 32 ? 0xffffffffu : (1u << width) - 1;
    unsigned *free_lanes = (unsigned *)malloc((size_t)B * (size_t)W * sizeof(unsigned));
    if (!free_lanes)
        return -1;
    for (int i = 0; i < B * W; i++)
        free_lanes[i] = full;
    for (int i = 0; i < B * T; i++)
        job[i] = JOB_IDLE;
    int rc = 0;
    for (int k = 0; k < K && rc == 0; k++) {
        /* Indexed by the test's block and warp ids: the GPU block and warp given to each. */
        int block_of[LITMUS_MAX_THREADS], warp_of[LITMUS_MAX_THREADS],
            warp_block[LITMUS_MAX_THREADS];
        int need[LITMUS_MAX_THREADS];
        for (int i = 0; i < LITMUS_MAX_THREADS; i++)
            block_of[i] = warp_of[i] = warp_block[i] = -1, need[i] = 0;
        for (int th = 0; th < p->test->nthreads; th++)
            need[p->thread_warp[th]] += perm[p->thread_pe[th]] == me;
        int used_blocks[LITMUS_MAX_THREADS], nused = 0;
        for (int th = 0; th < p->test->nthreads && rc == 0; th++) {
            if (perm[p->thread_pe[th]] != me)
                continue;
            int tb = p->thread_block[th], tw = p->thread_warp[th];
            if (block_of[tb] < 0) {
                int b = draw(B, rs, [&](int c) {
                    for (int u = 0; u < nused; u++)
                        if (used_blocks[u] == c)
                            return false;
                    for (int w = 0; dedicated && w < W; w++)
                        if (free_lanes[c * W + w] != full)
                            return false;
                    return true;
                });
                if (b < 0) {
                    rc = -1;
                    break;
                }
                block_of[tb] = used_blocks[nused++] = b;
            }
            int b = block_of[tb];
            if (warp_of[tw] < 0) {
                int w = draw(W, rs, [&](int c) {
                    for (int o = 0; o < LITMUS_MAX_THREADS; o++)
                        if (o != tw && warp_of[o] == c && warp_block[o] == b)
                            return false;
                    return __builtin_popcount(free_lanes[b * W + c]) >= need[tw];
                });
                if (w < 0) {
                    rc = -1;
                    break;
                }
                warp_of[tw] = w;
                warp_block[tw] = b;
            }
            unsigned *lanes = &free_lanes[b * W + warp_of[tw]];
            int lane;
            do
                lane = (int)(harness_rand(rs) % (uint64_t)width);
            while (!(*lanes & (1u << lane)));
            *lanes &= ~(1u << lane);
            job[b * T + warp_of[tw] * 32 + lane] = k * 8 + th;
        }
        for (int u = 0; dedicated && u < nused; u++)
            for (int w = 0; w < W; w++)
                free_lanes[used_blocks[u] * W + w] = 0;
    }
    for (int i = 0; i < nstress && rc == 0; i++) {
        int slot = (int)(harness_rand(rs) % (uint64_t)(B * T));
        if (job[slot] == JOB_IDLE)
            job[slot] = JOB_STRESS;
    }
    free(free_lanes);
    return rc;
}

/* A barrier of all PEs from the host: the stream-ordered form, the GPU platform's host barrier. */
static void barrier(void) {
    shmemx_barrier_all_on_stream(0);
    GPU_OK(shmemi_gpu_stream_synchronize(0));
}

static void *zalloc(size_t bytes) {
    void *a = shmem_malloc(bytes);
    if (!a) {
        fprintf(stderr, "shmem-litmus-gpu: no room for %zu bytes of symmetric memory\n", bytes);
        shmem_global_exit(2);
    }
    GPU_OK(shmemi_gpu_memset(a, 0, bytes));
    return a;
}

static void *dalloc(size_t bytes) {
    void *a = NULL;
    GPU_OK(shmemi_gpu_malloc(&a, bytes));
    GPU_OK(shmemi_gpu_memset(a, 0, bytes));
    return a;
}

/* Each test thread in a GPU block of its instance alone: needed for group calls, which are made
 * by the whole block or warp; for serial tests, whose threads wait for the instance before; and
 * on AMD, where the lanes of a wavefront do not progress independently, so a lane that spins
 * must share its wavefront only with threads that it does not wait for. */
static int dedicated_blocks(const plan_t *p) {
#if SHMEM_PLATFORM == SHMEM_PLATFORM_HIP
    (void)p;
    return 1;
#else
    return p->has_group_call || p->has_barrier;
#endif
}

static int run_test(const harness_opts_t *o, int test, const plan_t *p) {
    static const long ctx_options[PLAN_NCTX] = {
        0, 0, 0, SHMEM_CTX_NOSTORE, SHMEMX_CTX_BYPASS, SHMEMX_CTX_BYPASS};
    const litmus_test_t *t = p->test;
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes != p->npes || npes > 64) {
        fprintf(stderr, "shmem-litmus-gpu: %s needs %d PEs\n", t->name, p->npes);
        shmem_global_exit(2);
    }
    int dev, sms;
    GPU_OK(shmemi_gpu_get_device(&dev));
    GPU_OK(shmemi_gpu_device_get_attribute(&sms, shmemi_gpu_dev_attr_multiprocessor_count, dev));
    /* Placement: the most threads the test puts on one PE. */
    int max_local = 1;
    for (int q = 0; q < p->npes; q++) {
        int n = 0;
        for (int th = 0; th < t->nthreads; th++)
            n += p->thread_pe[th] == q;
        max_local = n > max_local ? n : max_local;
    }
    int T = 256, B = sms, K = o->instances, dedicated = dedicated_blocks(p);
    if (dedicated) {
        /* Each instance's block gets a GPU block of its own with one warp per warp of the
         * test's block; the lanes that hold no thread of the test exit at once. */
        int most = 1;
        for (int b = 0; b < p->nblocks; b++) {
            int warps = 0;
            for (int w = 0; w < p->nwarps; w++)
                for (int th = 0; th < t->nthreads; th++)
                    if (p->thread_block[th] == b && p->thread_warp[th] == w) {
                        warps++;
                        break;
                    }
            most = warps > most ? warps : most;
        }
        T = 32 * most;
        int per_sm = 0;
        GPU_OK(shmemi_gpu_occupancy_max_active_blocks(&per_sm, litmus_kernel, T, 0));
        if (K > per_sm * sms / (2 * max_local))
            K = per_sm * sms / (2 * max_local);
        B = K * max_local;
    } else if (K * max_local * 2 > B * T) {
        K = B * T / (2 * max_local);
    }
    kargs a;
    memset(&a, 0, sizeof a);
    a.nthreads = t->nthreads;
    a.nlocs = t->nlocs;
    a.npes = npes;
    a.ctx_used = p->ctx_used;
    /* barrier_all is called by one thread of each PE at a time: the instances of a round run one
     * after another. */
    a.serial = p->has_barrier;
    a.prime = o->prime;
    a.mem = (long *)zalloc((size_t)K * (size_t)t->nlocs * LINE * sizeof(long));
    a.scratch = (long *)zalloc((size_t)K * (size_t)t->nthreads * LINE * sizeof(long));
    a.regs = (long *)zalloc((size_t)K * (size_t)t->nthreads * PLAN_MAX_REGS * sizeof(long));
    a.ctl = (long *)zalloc((size_t)K * LINE * sizeof(long));
    a.stress = (long *)zalloc((size_t)STRESS_LINES * LINE * sizeof(long));
    a.seq = (long *)zalloc(LINE * sizeof(long));
    int ncols = p->ncols;
    int *djob = (int *)dalloc((size_t)B * (size_t)T * sizeof(int));
    int *dslot = (int *)dalloc((size_t)K * sizeof(int));
    long *drows = (long *)dalloc((size_t)K * (size_t)(ncols ? ncols : 1) * sizeof(long));
    a.done = (unsigned long long *)dalloc(2 * sizeof(unsigned long long));
    a.error = a.done + 1;
    a.job = djob;
    a.slot = dslot;
    for (int x = 1; x < PLAN_NCTX; x++)
        if ((p->ctx_used & (1u << x)) && shmem_ctx_create(ctx_options[x], &a.ctx[x]) != 0) {
            fprintf(stderr, "shmem-litmus-gpu: shmem_ctx_create failed\n");
            shmem_global_exit(2);
        }
    long init[LITMUS_MAX_LOCS];
    for (int l = 0; l < LITMUS_MAX_LOCS; l++)
        init[l] = l < t->nlocs ? (long)t->init[l] : 0;
    GPU_OK(shmemi_gpu_memcpy_to_symbol(c_ops, p->ops, sizeof p->ops));
    GPU_OK(shmemi_gpu_memcpy_to_symbol(c_nops, p->nops, sizeof p->nops));
    GPU_OK(shmemi_gpu_memcpy_to_symbol(c_loc_home, p->loc_home, sizeof p->loc_home));
    GPU_OK(shmemi_gpu_memcpy_to_symbol(c_init, init, sizeof init));
    int *job = (int *)malloc((size_t)B * (size_t)T * sizeof(int));
    int *slot = (int *)malloc((size_t)K * sizeof(int));
    long *rows = (long *)malloc((size_t)K * (size_t)(ncols ? ncols : 1) * sizeof(long));
    if (!job || !slot || !rows) {
        fprintf(stderr, "shmem-litmus-gpu: out of memory\n");
        shmem_global_exit(2);
    }
    int nstress = dedicated ? 0 : o->stress * 32 * B;
    harness_counts_t counts;
    memset(&counts, 0, sizeof counts);
    counts.ncols = ncols;
    int64_t row[PLAN_MAX_COLS];
    long done = 0, round = 0;
    double start = harness_now();
    for (;; round++) {
        uint64_t rs = o->seed * 0x100000001b3ull + (uint64_t)round;
        harness_shuffle(a.perm, npes, &rs);
        harness_shuffle(slot, K, &rs);
        a.round_seed = rs;
        int kr = o->iterations - done < (long)K ? (int)(o->iterations - done) : K;
        kr = kr > 0 ? kr : 1;
        uint64_t mine = rs ^ (0x51ed270b27ull * (uint64_t)(me + 1));
        if (place(p, me, a.perm, kr, B, T, dedicated, nstress, &mine, job) < 0) {
            fprintf(stderr, "shmem-litmus-gpu: cannot place %d instances\n", kr);
            shmem_global_exit(2);
        }
        a.nlocal = 0;
        for (int i = 0; i < B * T; i++)
            a.nlocal += job[i] >= 0;
        GPU_OK(shmemi_gpu_memcpy(djob, job, (size_t)B * (size_t)T * sizeof(int),
                                 shmemi_gpu_memcpy_default));
        GPU_OK(shmemi_gpu_memcpy(dslot, slot, (size_t)K * sizeof(int), shmemi_gpu_memcpy_default));
        reset_kernel<<<64, 256>>>(a, K);
        GPU_OK(shmemi_gpu_device_synchronize());
        barrier();
        void *args[] = {&a};
        int rc =
            shmemx_collective_launch((const void *)litmus_kernel, dim3(B), dim3(T), args, 0, 0);
        if (rc != 0) {
            fprintf(stderr, "shmem-litmus-gpu: launch of %d x %d failed (%d)\n", B, T, rc);
            shmem_global_exit(2);
        }
        GPU_OK(shmemi_gpu_device_synchronize());
        unsigned long long err = 0;
        GPU_OK(shmemi_gpu_memcpy(&err, a.error, sizeof err, shmemi_gpu_memcpy_default));
        if (err) {
            fprintf(stderr, "shmem-litmus-gpu: %s: %llu threads waited 20 s for an instance\n",
                    t->name, err);
            shmem_global_exit(2);
        }
        barrier();
        if (me == 0 && ncols > 0) {
            gather_cols gc;
            gc.ncols = ncols;
            for (int c = 0; c < ncols; c++) {
                gc.proc[c] = p->col_proc[c];
                gc.id[c] = p->col_id[c];
                gc.pe[c] = p->col_proc[c] >= 0 ? a.perm[p->thread_pe[p->col_proc[c]]]
                                               : a.perm[p->loc_home[p->col_id[c]]];
            }
            gather_kernel<<<64, 256>>>(a, gc, kr, drows);
            GPU_OK(shmemi_gpu_device_synchronize());
            GPU_OK(shmemi_gpu_memcpy(rows, drows, (size_t)kr * (size_t)ncols * sizeof(long),
                                     shmemi_gpu_memcpy_default));
            for (int k = 0; k < kr; k++) {
                for (int c = 0; c < ncols; c++)
                    row[c] = rows[(size_t)k * (size_t)ncols + (size_t)c];
                harness_counts_add(&counts, row, 1);
            }
        }
        done += kr;
        if (me == 0)
            harness_round_done(o, test, p, &counts, done, round + 1, harness_now() - start);
        barrier();
        if (harness_stop_seen(o, test))
            break;
    }
    int rc = 0;
    if (me == 0 &&
        harness_write_counts(o, test, p, &counts, round + 1, harness_now() - start, 0) < 0)
        rc = 2;
    for (int x = 1; x < PLAN_NCTX; x++)
        if (p->ctx_used & (1u << x))
            shmem_ctx_destroy(a.ctx[x]);
    harness_counts_free(&counts);
    free(job);
    free(slot);
    free(rows);
    GPU_OK(shmemi_gpu_free(djob));
    GPU_OK(shmemi_gpu_free(dslot));
    GPU_OK(shmemi_gpu_free(drows));
    GPU_OK(shmemi_gpu_free(a.done));
    shmem_free(a.seq);
    shmem_free(a.stress);
    shmem_free(a.ctl);
    shmem_free(a.regs);
    shmem_free(a.scratch);
    shmem_free(a.mem);
    return rc;
}

/* The heap's base and which peers the library leaves unmapped (its kernels reach them through
 * the proxy and the network). */
__global__ void peers_kernel(int n, int *unmapped, char **heap) {
#if SHMEMI_DEVICE_PASS
    *heap = shmemi_dstate.heap_base;
    for (int pe = 0; pe < n; pe++)
        unmapped[pe] = pe != shmemi_dstate.my_pe && shmemi_dstate.peer_base[pe] == NULL;
#else
    (void)n, (void)unmapped, (void)heap;
#endif
}

/* Maps through IPC, for the harness's own loads and stores, the heap of every peer that the
 * library reaches over the network (SHMEM_DISABLE_P2P=1 with every PE on this node); the test's
 * SHMEM operations still take the network. Collective: every PE publishes its heap's handle with
 * puts. Returns how many peers it mapped (0 where the library maps them all). */
static int map_unmapped_peers(char *mapped[64]) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n > 64) {
        fprintf(stderr, "shmem-litmus-gpu: %d PEs, the harness runs at most 64\n", n);
        shmem_global_exit(2);
    }
    int *d_unmapped = (int *)dalloc((size_t)n * sizeof(int));
    char **d_heap = (char **)dalloc(sizeof(char *));
    peers_kernel<<<1, 1>>>(n, d_unmapped, d_heap);
    GPU_OK(shmemi_gpu_device_synchronize());
    int unmapped[64];
    char *heap;
    GPU_OK(shmemi_gpu_memcpy(unmapped, d_unmapped, (size_t)n * sizeof(int),
                             shmemi_gpu_memcpy_default));
    GPU_OK(shmemi_gpu_memcpy(&heap, d_heap, sizeof heap, shmemi_gpu_memcpy_default));
    GPU_OK(shmemi_gpu_free(d_unmapped));
    GPU_OK(shmemi_gpu_free(d_heap));
    shmemi_gpu_ipc_mem_handle_t mine,
        *all = (shmemi_gpu_ipc_mem_handle_t *)malloc((size_t)n * sizeof mine);
    shmemi_gpu_ipc_mem_handle_t *published =
        (shmemi_gpu_ipc_mem_handle_t *)shmem_malloc((size_t)n * sizeof mine);
    if (!all || !published) {
        fprintf(stderr, "shmem-litmus-gpu: out of memory for %d heap handles\n", n);
        shmem_global_exit(2);
    }
    GPU_OK(shmemi_gpu_ipc_get_mem_handle(&mine, heap));
    for (int pe = 0; pe < n; pe++)
        shmem_putmem(published + me, &mine, sizeof mine, pe);
    shmem_barrier_all();
    GPU_OK(shmemi_gpu_memcpy(all, published, (size_t)n * sizeof mine, shmemi_gpu_memcpy_default));
    shmem_barrier_all();
    shmem_free(published);
    int count = 0;
    memset(mapped, 0, 64 * sizeof(char *));
    for (int pe = 0; pe < n; pe++) {
        if (!unmapped[pe])
            continue;
        void *p = NULL;
        GPU_OK(shmemi_gpu_ipc_open_mem_handle(&p, all[pe], shmemi_gpu_ipc_lazy_enable_peer_access));
        mapped[pe] = (char *)p;
        count++;
    }
    free(all);
    GPU_OK(shmemi_gpu_memcpy_to_symbol(harness_peer_base, mapped, 64 * sizeof(char *)));
    return count;
}

extern "C" int harness_worker_main(const harness_opts_t *o, int n, const plan_t *plans) {
    int rc = 0;
    shmem_init();
    char *mapped[64];
    int unmapped = map_unmapped_peers(mapped);
    if (unmapped > 0 && shmem_my_pe() == 0)
        fprintf(stderr,
                "shmem-litmus-gpu: the library does not map the heaps of %d peers of PE 0 "
                "(reached over the network); the harness maps them through IPC for its own "
                "loads and stores\n",
                unmapped);
    for (int i = 0; i < n; i++)
        rc |= run_test(o, i, &plans[i]);
    shmem_barrier_all();
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        if (mapped[pe])
            GPU_OK(shmemi_gpu_ipc_close_mem_handle(mapped[pe]));
    shmem_barrier_all();
    shmem_finalize();
    return rc;
}

extern "C" int litmus_run_main(int argc, char **argv);

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "run") != 0) {
        fprintf(stderr, "usage: %s run --worker ... (started by shmem-litmus run)\n", argv[0]);
        return 2;
    }
    return litmus_run_main(argc - 1, argv + 1);
}
