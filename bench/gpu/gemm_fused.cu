/* A GEMM with a collective between 2 PEs fused into its epilogue, against the same GEMM followed
 * by the collective and cuBLAS followed by it (-a allgather, reducescatter or all).
 *   C = A B^T, A: M x K, B: N x K (both K-contiguous, as a linear layer's input and weight),
 *   C: M x N, row-major; bf16 in and out, fp32 accumulation on tensor cores; M = N = K = size.
 * Rows, microseconds from a barrier to the end on PE 0:
 *   gemm_ag  each PE computes its M/2 rows of C and both end with all of C.
 *            fused (ctx default, bypass): one persistent kernel; the epilogue of each 128 x 128
 *            tile writes it to this PE's C and puts it into the peer's C (putmem_nbi of the 16
 *            bytes each thread wrote), then one thread quiets and adds 1 to the peer's signal of
 *            that tile; once its tiles are done, each block waits for its share of the peer's.
 *            unfused: the same GEMM kernel without communication, then putmem_on_stream of this
 *            PE's rows and barrier_all_on_stream. cublas: cublasGemmEx, then the same.
 *   gemm_rs  each PE multiplies its half of K (partial products of all of C) and ends with the
 *            sum of both partials on its M/2 rows. fused: the peer's rows first, each partial
 *            tile staged contiguously and sent with one putmem_signal_nbi_block; then this PE's
 *            rows, each tile waiting for its signal and adding the peer's partial, read as
 *            payload (bl_payload_load: bypass loads on a BYPASS context). unfused and cublas:
 *            the partial products, putmem_on_stream of the peer's rows, barrier_all_on_stream and
 *            an add kernel.
 *   gemm     ours and cublas: the GEMM of gemm_ag alone, to show the GEMM's share of a gap.
 * The GEMM: 128 x 128 x 32 block tiles, 4-stage cp.async pipeline, 8 warps of 64 x 32, each
 * with ldmatrix and mma.sync m16n8k16, 2 blocks per SM. Inputs are multiples of 1/4 in [-1, 1],
 * so every partial sum is exact in fp32: each variant's C is checked against cuBLAS's full
 * product before timing, within one bf16 rounding (the reduce-scatter's bf16 partials add one
 * more). */
#include <functional>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_pipeline.h>

#include "bench_gpu.h"

typedef __nv_bfloat16 gf_bf16;

#define GF_BM 128
#define GF_BN 128
#define GF_BK 32
#define GF_STAGES 4
#define GF_THREADS 256
#define GF_LDS                                                                                     \
    (GF_BK + 8)            /* row stride of a stage's A and B tiles, elements (no bank conflicts)  \
                            */
#define GF_LDC (GF_BN + 8) /* row stride of the fp32 epilogue tile, floats */
#define GF_STAGE_ELEMS ((GF_BM + GF_BN) * GF_LDS)
#define GF_PIPE_BYTES (GF_STAGES * GF_STAGE_ELEMS * 2)
#define GF_EPI_BYTES (GF_BM * GF_LDC * 4)
#define GF_SMEM_BYTES (GF_PIPE_BYTES > GF_EPI_BYTES ? GF_PIPE_BYTES : GF_EPI_BYTES)
#define GF_GROUP 16 /* tile rows per raster group: consecutive tiles share their B panel */

/* What the kernel does besides the GEMM. */
#define GF_PLAIN 0 /* nothing */
#define GF_AG 1    /* all-gather of the output tiles */
#define GF_RS 2    /* reduce-scatter of the partial output tiles */

/* A warp's accumulators: 4 x 4 mma tiles of 16 x 8 fp32 (rows 16 i, columns 8 j of its block). */
typedef float gf_acc_t[4][4][4];

/* Tile t of a tiles_m x tiles_n grid: row tm and column tn, in groups of GF_GROUP tile rows. */
__device__ __forceinline__ void gf_tile(int t, int tiles_m, int tiles_n, int *tm, int *tn) {
    const int per_group = GF_GROUP * tiles_n, first = t / per_group * GF_GROUP;
    const int size = min(tiles_m - first, GF_GROUP), r = t % per_group;
    *tm = first + r % size;
    *tn = r / size;
}

/* The k-tile at k0 of A's rows m0.. and B's rows n0.. (row stride ld) into one pipeline stage,
 * 16 bytes per copy. */
__device__ __forceinline__ void gf_load_stage(gf_bf16 *stage, const gf_bf16 *A, const gf_bf16 *B,
                                              int ld, int m0, int n0, int k0) {
    gf_bf16 *sa = stage, *sb = stage + GF_BM * GF_LDS;
    for (int c = threadIdx.x; c < GF_BM * GF_BK / 8; c += GF_THREADS) {
        const int r = c / (GF_BK / 8), e = c % (GF_BK / 8) * 8;
        __pipeline_memcpy_async(sa + r * GF_LDS + e, A + (size_t)(m0 + r) * ld + k0 + e, 16);
    }
    for (int c = threadIdx.x; c < GF_BN * GF_BK / 8; c += GF_THREADS) {
        const int r = c / (GF_BK / 8), e = c % (GF_BK / 8) * 8;
        __pipeline_memcpy_async(sb + r * GF_LDS + e, B + (size_t)(n0 + r) * ld + k0 + e, 16);
    }
}

/* Four 8 x 8 bf16 matrices from shared memory: lanes 8 i .. 8 i + 7 give the row addresses of
 * matrix i; lane l receives elements (l / 4, 2 (l % 4) + {0, 1}) of matrix i in r[i]. */
__device__ __forceinline__ void gf_ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr)
                 : "memory");
}

/* d += a b for one 16 x 8 x 16 tile: a row-major (16 x 16), b column-major (16 x 8), fp32 d. */
__device__ __forceinline__ void gf_mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                       uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/* acc = A[m0..m0+128) B[n0..n0+128)^T over kdim columns (row stride ld). Warp w holds the 64 x 32
 * block at rows 64 (w / 4) and columns 32 (w % 4) of the tile. Returns with the pipeline drained
 * and every warp done with shared memory. */
__device__ __forceinline__ void gf_mainloop(gf_acc_t &acc, gf_bf16 *smem, const gf_bf16 *A,
                                            const gf_bf16 *B, int ld, int kdim, int m0, int n0) {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 4, wn = warp % 4;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int v = 0; v < 4; v++)
                acc[i][j][v] = 0.0f;
    /* ldmatrix row addresses of this lane. A (16 x 16 at rows 16 i): matrices (rows 0-7, k 0-7),
     * (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15) are a0..a3 of the mma. B (rows
     * n, k contiguous; 16 n at a time): matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7),
     * (n 8-15, k 8-15) are b0, b1 of the first n8 tile, then of the second. */
    const int a_off = (wm * 64 + lane % 16) * GF_LDS + lane / 16 * 8;
    const int b_off =
        GF_BM * GF_LDS + (wn * 32 + lane % 8 + lane / 16 * 8) * GF_LDS + lane / 8 % 2 * 8;
    const int ktiles = kdim / GF_BK;
    for (int s = 0; s < GF_STAGES - 1; s++) {
        if (s < ktiles)
            gf_load_stage(smem + s * GF_STAGE_ELEMS, A, B, ld, m0, n0, s * GF_BK);
        __pipeline_commit();
    }
    for (int kt = 0; kt < ktiles; kt++) {
        /* Stage kt has landed (this thread's copies, then everyone's), and every warp is done
         * with the stage that the next copy overwrites (the one computed in iteration kt - 1). */
        __pipeline_wait_prior(GF_STAGES - 2);
        __syncthreads();
        const int next = kt + GF_STAGES - 1;
        if (next < ktiles)
            gf_load_stage(smem + next % GF_STAGES * GF_STAGE_ELEMS, A, B, ld, m0, n0, next * GF_BK);
        __pipeline_commit();
        const uint32_t stage =
            (uint32_t)__cvta_generic_to_shared(smem + kt % GF_STAGES * GF_STAGE_ELEMS);
        for (int kk = 0; kk < GF_BK; kk += 16) {
            uint32_t a[4][4], b[2][4];
            for (int i = 0; i < 4; i++)
                gf_ldmatrix_x4(a[i], stage + 2 * (a_off + i * 16 * GF_LDS + kk));
            for (int j = 0; j < 2; j++)
                gf_ldmatrix_x4(b[j], stage + 2 * (b_off + j * 16 * GF_LDS + kk));
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    gf_mma(acc[i][j], a[i], b[j / 2][j % 2 * 2], b[j / 2][j % 2 * 2 + 1]);
        }
    }
    __pipeline_wait_prior(0);
    __syncthreads();
}

/* The tile in acc into shared memory as a row-major fp32 tile (row stride GF_LDC). Lane l of a
 * warp holds, for mma tile (i, j), columns 2 (l % 4) + {0, 1} of rows l / 4 (acc[i][j][0..1]) and
 * l / 4 + 8 (acc[i][j][2..3]). Returns after a block barrier. */
__device__ __forceinline__ void gf_stage_tile(const gf_acc_t &acc, float *cs) {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 4, wn = warp % 4;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            const int r = wm * 64 + i * 16 + lane / 4, c = wn * 32 + j * 8 + lane % 4 * 2;
            *(float2 *)(cs + r * GF_LDC + c) = make_float2(acc[i][j][0], acc[i][j][1]);
            *(float2 *)(cs + (r + 8) * GF_LDC + c) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
    __syncthreads();
}

__device__ __forceinline__ uint32_t gf_pack(float lo, float hi) {
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    uint32_t bits;
    memcpy(&bits, &h, sizeof(bits));
    return bits;
}
__device__ __forceinline__ float2 gf_unpack(uint32_t bits) {
    __nv_bfloat162 h;
    memcpy(&h, &bits, sizeof(h));
    return __bfloat1622float2(h);
}

/* The staged tile, rounded to bf16, into dst (the tile's first element; row stride ld), 16 bytes
 * per thread and copy. With add, each element first gets the matching bf16 element of add (row
 * stride add_ld), read as payload that arrived through ctx. With send_pe >= 0, each thread also
 * puts the 16 bytes it wrote to the same place on send_pe. Returns after a block barrier: the
 * tile is in dst and shared memory is free. */
__device__ __forceinline__ void gf_write_tile(const float *cs, gf_bf16 *dst, int ld,
                                              const gf_bf16 *add, int add_ld, int send_pe,
                                              bl_ctx_t ctx) {
    for (int c = threadIdx.x; c < GF_BM * GF_BN / 8; c += GF_THREADS) {
        const int r = c / (GF_BN / 8), e = c % (GF_BN / 8) * 8;
        float v[8];
        *(float4 *)v = *(const float4 *)(cs + r * GF_LDC + e);
        *(float4 *)(v + 4) = *(const float4 *)(cs + r * GF_LDC + e + 4);
        if (add) {
            const uint64_t *p = (const uint64_t *)(add + (size_t)r * add_ld + e);
            const uint64_t w[2] = {bl_payload_load(ctx, p), bl_payload_load(ctx, p + 1)};
            for (int q = 0; q < 4; q++) {
                const float2 f = gf_unpack((uint32_t)(w[q / 2] >> (32 * (q % 2))));
                v[2 * q] += f.x;
                v[2 * q + 1] += f.y;
            }
        }
        uint4 out;
        out.x = gf_pack(v[0], v[1]);
        out.y = gf_pack(v[2], v[3]);
        out.z = gf_pack(v[4], v[5]);
        out.w = gf_pack(v[6], v[7]);
        gf_bf16 *d = dst + (size_t)r * ld + e;
        *(uint4 *)d = out;
        if (send_pe >= 0)
            bl_putmem_nbi<BL_THREAD>(ctx, d, d, sizeof(out), send_pe);
    }
    __syncthreads();
}

/* One persistent kernel; C (M x N, M = 2 half, row stride N) and R (half x N) are symmetric; A
 * (M rows) and B (N rows) have row stride ld and kdim columns from the pointers on.
 *   GF_PLAIN: C = A B^T on rows of the parts (nparts 1: this PE's half; 2: both halves).
 *   GF_AG:    this PE's half, each finished tile also put into the peer's C (each thread its
 *             16-byte pieces), then one thread quiets and adds 1 to the peer's sig[t]; the kernel
 *             returns once the peer's tiles all arrived (sig[t] >= epoch).
 *   GF_RS:    partial products over kdim. First the peer's half: tile t is staged contiguous in
 *             the rows of C that this PE does not own and put, with the signal sig[t] = epoch, as
 *             tile t of the peer's R (R holds 128 x 128 tiles one after the other). Then this
 *             PE's half: each tile waits for its sig, adds the peer's partial from R and goes to
 *             C. */
template <int Mode>
__global__ void __launch_bounds__(GF_THREADS, 2)
    gf_gemm_kernel(const gf_bf16 *A, const gf_bf16 *B, int ld, int kdim, gf_bf16 *C, gf_bf16 *R,
                   int half, int N, int me, int nparts, uint64_t *sig, uint64_t epoch,
                   bl_ctx_t ctx) {
    extern __shared__ __align__(128) unsigned char gf_smem[];
    gf_bf16 *smem = (gf_bf16 *)gf_smem;
    const int peer = 1 - me, tiles_m = half / GF_BM, tiles_n = N / GF_BN;
    const int tiles = tiles_m * tiles_n;
    const size_t tile_elems = (size_t)GF_BM * GF_BN;
    gf_acc_t acc;
    for (int t = blockIdx.x; t < nparts * tiles; t += gridDim.x) {
        /* With two parts the peer's half comes first. */
        const int part = nparts == 2 && t < tiles ? peer : me, tl = t % tiles;
        int tm, tn;
        gf_tile(tl, tiles_m, tiles_n, &tm, &tn);
        const int m0 = part * half + tm * GF_BM, n0 = tn * GF_BN;
        gf_bf16 *out = C + (size_t)m0 * N + n0;
        gf_mainloop(acc, smem, A, B, ld, kdim, m0, n0);
        gf_stage_tile(acc, (float *)smem);
        if (Mode == GF_RS && part == peer) {
            gf_bf16 *staged = C + (size_t)peer * half * N + tl * tile_elems;
            gf_write_tile((const float *)smem, staged, GF_BN, nullptr, 0, -1, ctx);
            bl_put_signal_nbi<BL_BLOCK>(ctx, R + tl * tile_elems, staged,
                                        tile_elems * sizeof(gf_bf16), sig + tl, epoch, peer);
        } else if (Mode == GF_RS) {
            if (threadIdx.x == 0)
                bl_signal_wait_ge(ctx, sig + tl, epoch);
            __syncthreads();
            gf_write_tile((const float *)smem, out, N, R + tl * tile_elems, GF_BN, -1, ctx);
        } else {
            gf_write_tile((const float *)smem, out, N, nullptr, 0, Mode == GF_AG ? peer : -1, ctx);
            if (Mode == GF_AG) {
                /* Every thread's part of the tile, then its signal: the block form of quiet (a
                 * quiet by one thread completes only that thread's puts). */
                bl_quiet<BL_BLOCK>(ctx);
                if (threadIdx.x == 0)
                    bl_signal_add(ctx, sig + tl, 1, peer);
            }
        }
    }
    if (Mode == GF_AG)
        for (int t = blockIdx.x + threadIdx.x * gridDim.x; t < tiles; t += gridDim.x * GF_THREADS)
            bl_signal_wait_ge(ctx, sig + t, epoch);
}

/* C[i] += R[i] over n elements, bf16 (the reduce step of the unfused reduce-scatter). */
__global__ void gf_add(gf_bf16 *C, const gf_bf16 *R, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 2;
         i += (size_t)gridDim.x * blockDim.x) {
        const float2 a = __bfloat1622float2(((const __nv_bfloat162 *)C)[i]);
        const float2 b = __bfloat1622float2(((const __nv_bfloat162 *)R)[i]);
        ((__nv_bfloat162 *)C)[i] = __floats2bfloat162_rn(a.x + b.x, a.y + b.y);
    }
}

/* Multiples of 1/4 in [-1, 1]: exact in bf16, and so are all products and partial sums in fp32. */
__global__ void gf_fill(gf_bf16 *p, size_t n, uint64_t seed, uint64_t a) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = __float2bfloat16((float)((int)(bench_hash(seed, a, i) % 9) - 4) * 0.25f);
}

/* Elements of C[lo, hi) farther from the reference than a bf16 rounding and atol (NaN included).
 */
__global__ void gf_check(const gf_bf16 *C, const gf_bf16 *ref, size_t lo, size_t hi, float atol,
                         unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = lo + blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < hi;
         i += (size_t)gridDim.x * blockDim.x) {
        const float got = __bfloat162float(C[i]), want = __bfloat162float(ref[i]);
        e += !(fabsf(got - want) <= 0.01f * fabsf(want) + atol);
    }
    if (e)
        atomicAdd(errors, e);
}

/* C (rows x N, row-major) = A (rows x k) B^T (B: N x k), A and B with row stride ld, by cuBLAS;
 * in its column-major terms C^T = B A^T, with B transposed and A not. */
static void gf_cublas(cublasHandle_t h, const gf_bf16 *A, const gf_bf16 *B, int ld, gf_bf16 *C,
                      int rows, int N, int k) {
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, N, rows, k, &one, B, CUDA_R_16BF,
                                     ld, A, CUDA_R_16BF, ld, &zero, C, CUDA_R_16BF, N,
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gemm_fused: cublasGemmEx failed (status %d)\n", (int)st);
        exit(1);
    }
}

typedef void (*gf_kernel_t)(const gf_bf16 *, const gf_bf16 *, int, int, gf_bf16 *, gf_bf16 *, int,
                            int, int, int, uint64_t *, uint64_t, bl_ctx_t);
static const gf_kernel_t gf_kernels[3] = {gf_gemm_kernel<GF_PLAIN>, gf_gemm_kernel<GF_AG>,
                                          gf_gemm_kernel<GF_RS>};

/* Blocks of the persistent kernels: -c, at most what is resident at once (the fused kernels
 * wait for the peer's tiles) and one per tile. */
static int gf_grid(int want, int tiles) {
    int dev = 0, sms = 0, per_sm = 1 << 30;
    BL_CHECK(cudaGetDevice(&dev));
    BL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    for (gf_kernel_t k : gf_kernels) {
        int n = 0;
        BL_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, GF_THREADS, GF_SMEM_BYTES));
        per_sm = std::min(per_sm, n);
    }
    return std::max(1, std::min(std::min(want, tiles), per_sm * sms));
}

static int run_gemm_fused(const bench_opts &o) {
    const bool ag = o.op == "allgather" || o.op == "all",
               rs = o.op == "reducescatter" || o.op == "all";
    if (!ag && !rs) {
        fprintf(stderr, "gemm_fused: -a %s: allgather, reducescatter or all\n", o.op.c_str());
        return 1;
    }
    std::vector<size_t> sizes = bench_sizes(o);
    const size_t maxs = sizes.back();
    for (gf_kernel_t k : gf_kernels)
        BL_CHECK(
            cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, GF_SMEM_BYTES));
    const size_t max_tiles = (maxs / 2 / GF_BM) * (maxs / GF_BN) + 1;
    gf_bf16 *C = (gf_bf16 *)bl_malloc(maxs * maxs * sizeof(gf_bf16));
    gf_bf16 *R = (gf_bf16 *)bl_malloc(maxs / 2 * maxs * sizeof(gf_bf16));
    uint64_t *sig = (uint64_t *)bl_malloc(max_tiles * sizeof(uint64_t));
    if (!C || !R || !sig) {
        fprintf(stderr, "gemm_fused: cannot allocate %zu bytes of symmetric memory\n",
                maxs * maxs * 3);
        return 1;
    }
    gf_bf16 *A = nullptr, *B = nullptr, *ref = nullptr;
    BL_CHECK(cudaMalloc((void **)&A, maxs * maxs * sizeof(gf_bf16)));
    BL_CHECK(cudaMalloc((void **)&B, maxs * maxs * sizeof(gf_bf16)));
    BL_CHECK(cudaMalloc((void **)&ref, maxs * maxs * sizeof(gf_bf16)));
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gemm_fused: cublasCreate failed\n");
        return 1;
    }
    std::vector<std::pair<const char *, bl_ctx_t>> ctxs;
    if (o.ctx == "default" || o.ctx == "all")
        ctxs.push_back({"default", BL_CTX_DEFAULT});
    bl_ctx_t bypass = BL_CTX_DEFAULT;
    if ((o.ctx == "bypass" || o.ctx == "all") && bl_ctx_create_bypass(&bypass) == 0)
        ctxs.push_back({"bypass", bypass});
    const int me = bench.me, peer = 1 - me;
    for (size_t size : sizes) {
        if (size % (2 * GF_BM) != 0) {
            if (me == 0)
                fprintf(stderr, "gemm_fused: size %zu skipped: not a multiple of %d\n", size,
                        2 * GF_BM);
            continue;
        }
        const int n = (int)size, half = n / 2, row0 = me * half;
        const int tiles = (half / GF_BM) * (n / GF_BN);
        const size_t elems = (size_t)n * n, mine = (size_t)row0 * n, half_elems = elems / 2;
        gf_fill<<<264, 512>>>(A, elems, bench.seed, 7000);
        gf_fill<<<264, 512>>>(B, elems, bench.seed, 7001);
        BL_CHECK(cudaGetLastError());
        gf_cublas(handle, A, B, n, ref, n, n, n);
        BL_CHECK(cudaDeviceSynchronize());

        /* Launches: the kernel in a mode on nparts halves; the separate collectives on stream 0.
         * With split_k (reduce-scatter) this PE multiplies its half of K: columns me * half on. */
        uint64_t epoch = 0;
        const int grids[3] = {0, gf_grid(o.blocks, tiles), gf_grid(o.blocks, 2 * tiles)};
        auto kernel = [&](int mode, int nparts, bl_ctx_t ctx, bool split_k) {
            const int k0 = split_k ? me * half : 0;
            gf_kernels[mode]<<<grids[nparts], GF_THREADS, GF_SMEM_BYTES>>>(
                A + k0, B + k0, n, split_k ? half : n, C, R, half, n, me, nparts, sig, epoch, ctx);
        };
        auto allgather = [&] {
            bl_putmem_on_stream(C + mine, C + mine, half_elems * sizeof(gf_bf16), peer, 0);
            bl_barrier_all_on_stream(0);
        };
        auto reduce_scatter = [&] {
            bl_putmem_on_stream(R, C + (size_t)peer * half * n, half_elems * sizeof(gf_bf16), peer,
                                0);
            bl_barrier_all_on_stream(0);
            gf_add<<<264, 512>>>(C + mine, R, half_elems);
        };
        /* Checks one run of launch against the reference (all of C, or this PE's rows, with the
         * tolerance atol), then times it. */
        auto measure = [&](const char *bench_name, const char *variant, const char *cname,
                           const std::function<void()> &launch, bool all_rows, float atol) {
            BL_CHECK(cudaMemset(C, 0xff, elems * sizeof(gf_bf16))); /* NaN */
            BL_CHECK(cudaMemset(R, 0xff, half_elems * sizeof(gf_bf16)));
            BL_CHECK(cudaDeviceSynchronize());
            bl_barrier_host();
            launch();
            BL_CHECK(cudaGetLastError());
            BL_CHECK(cudaDeviceSynchronize());
            bl_barrier_host();
            bench_errors_clear();
            gf_check<<<264, 512>>>(C, ref, all_rows ? 0 : mine,
                                   all_rows ? elems : mine + half_elems, atol, bench.errors);
            bench_fail_if(bench_errors_read(), bench_name, size);
            std::vector<double> us = bench_samples(o, [&] { return bench_time(launch) * 1e3; });
            const double med = bench_summary(us).median;
            char extra[160];
            snprintf(extra, sizeof(extra),
                     ", \"TFLOPs\": %.4g, \"M\": %d, \"N\": %d, \"K\": %d, \"grid\": %d",
                     2.0 * half * (double)n * n / med / 1e6, n, n, n,
                     grids[strcmp(bench_name, "gemm_rs") == 0 ? 2 : 1]);
            bench_opts ro = o;
            ro.threads = GF_THREADS;
            bench_report(bench_name, variant, cname, size, "us", us, 1, ro, extra);
        };
        /* The fused kernels' signals count from zero for each context and size. */
        auto fused = [&](const char *bench_name, int mode, bool split_k, bool all_rows,
                         float atol) {
            for (auto &c : ctxs) {
                BL_CHECK(cudaMemset(sig, 0, max_tiles * sizeof(uint64_t)));
                bl_barrier_host();
                epoch = 0;
                bl_ctx_t ctx = c.second;
                measure(
                    bench_name, "fused", c.first,
                    [&] {
                        epoch++;
                        kernel(mode, mode == GF_RS ? 2 : 1, ctx, split_k);
                    },
                    all_rows, atol);
            }
        };
        /* bf16 partials of the reduce-scatter are rounded once more: up to half a unit of the
         * partial's last place, below 1 for |partial| < 256. */
        const float exact = 1e-6f, partial = 1.0f;
        if (ag) {
            fused("gemm_ag", GF_AG, false, true, exact);
            measure(
                "gemm_ag", "unfused", "default",
                [&] {
                    kernel(GF_PLAIN, 1, BL_CTX_DEFAULT, false);
                    allgather();
                },
                true, exact);
            measure(
                "gemm_ag", "cublas", "default",
                [&] {
                    gf_cublas(handle, A + mine, B, n, C + mine, half, n, n);
                    allgather();
                },
                true, exact);
            measure(
                "gemm", "ours", "default", [&] { kernel(GF_PLAIN, 1, BL_CTX_DEFAULT, false); },
                false, exact);
            measure(
                "gemm", "cublas", "default",
                [&] { gf_cublas(handle, A + mine, B, n, C + mine, half, n, n); }, false, exact);
        }
        if (rs) {
            fused("gemm_rs", GF_RS, true, false, partial);
            measure(
                "gemm_rs", "unfused", "default",
                [&] {
                    kernel(GF_PLAIN, 2, BL_CTX_DEFAULT, true);
                    reduce_scatter();
                },
                false, partial);
            measure(
                "gemm_rs", "cublas", "default",
                [&] {
                    gf_cublas(handle, A + me * half, B + me * half, n, C, n, n, half);
                    reduce_scatter();
                },
                false, partial);
        }
    }
    bl_barrier_host();
    if (bypass != BL_CTX_DEFAULT)
        bl_ctx_destroy(bypass);
    cublasDestroy(handle);
    BL_CHECK(cudaFree(ref));
    BL_CHECK(cudaFree(B));
    BL_CHECK(cudaFree(A));
    bl_free(sig);
    bl_free(R);
    bl_free(C);
    return 0;
}

static bench_opts gf_defaults() {
    bench_opts d;
    d.min_size = 4096;
    d.max_size = 8192;
    d.step = 2;
    d.iters = 1;
    d.warmup = 2;
    d.reps = 7;
    d.blocks = 264;
    d.threads = GF_THREADS;
    d.op = "all";
    return d;
}

static bench_register reg("gemm_fused",
                          "bf16 GEMM (M = N = K = size) with its tiles all-gathered (-a allgather) "
                          "or reduce-scattered (-a reducescatter) from the epilogue, against "
                          "GEMM then the collective and cuBLAS then the collective, us",
                          gf_defaults(), run_gemm_fused);
