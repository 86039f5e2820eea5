/* SPDX-License-Identifier: BSD-3-Clause */
/* A GEMM with a collective between 2 PEs fused into its epilogue, against the same GEMM followed
 * by the collective and cuBLAS followed by it (-a allgather, reducescatter or all).
 *   C = A B^T, A: M x K, B: N x K (both K-contiguous, as a linear layer's input and weight),
 *   C: M x N, row-major; bf16 in and out, fp32 accumulation on tensor cores; M = N = K = size.
 * Rows, microseconds from a barrier to the end on PE 0:
 *   gemm_ag  each PE computes its M/2 rows of C and both end with all of C.
 *            fused (ctx default, bypass): one persistent kernel; the epilogue of each 128 x 256
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
 * The GEMM (sm_90a): 128 x 256 x 64 block tiles, a 4-stage cp.async pipeline into the 128-byte
 * swizzled layout, two warpgroups of 64 x 256, each with wgmma m64n256k16 from shared memory and
 * one group in flight; one block per SM. Inputs are multiples of 1/4 in [-1, 1],
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
#define GF_BN 256
#define GF_BK 64 /* one 128-byte row of bf16 per k-tile row: the 128-byte swizzle's width */
#define GF_STAGES 4
#define GF_THREADS 256 /* two warpgroups, each 64 rows of the tile */
#define GF_A_BYTES (GF_BM * GF_BK * 2)
#define GF_STAGE_BYTES ((GF_BM + GF_BN) * GF_BK * 2)
#define GF_PIPE_BYTES (GF_STAGES * GF_STAGE_BYTES)
#define GF_LDC (GF_BN + 8) /* row stride of the fp32 epilogue tile, floats */
#define GF_EPI_BYTES (GF_BM * GF_LDC * 4)
/* The stages start 1024-byte aligned (the swizzle repeats every 8 rows of 128 bytes): room to
 * align the dynamic shared memory. */
#define GF_SMEM_BYTES ((GF_PIPE_BYTES > GF_EPI_BYTES ? GF_PIPE_BYTES : GF_EPI_BYTES) + 1024)
#define GF_GROUP 16 /* tile rows per raster group: consecutive tiles share their B panel */

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "gemm_fused uses wgmma: compile it for sm_90a"
#endif

/* What the kernel does besides the GEMM. */
#define GF_PLAIN 0 /* nothing */
#define GF_AG 1    /* all-gather of the output tiles */
#define GF_RS 2    /* reduce-scatter of the partial output tiles */

/* A warpgroup's accumulators for its 64 x 256 part of the tile: thread t of the warpgroup holds,
 * for each 8-column group j, columns 8 j + 2 (t % 4) + {0, 1} of rows 16 (t / 32) + t % 32 / 4
 * (acc[4 j], acc[4 j + 1]) and 8 rows below (acc[4 j + 2], acc[4 j + 3]). */
typedef float gf_acc_t[GF_BN / 2];

__device__ __forceinline__ void gf_tile(int t, int tiles_m, int tiles_n, int *tm, int *tn) {
    const int per_group = GF_GROUP * tiles_n, first = t / per_group * GF_GROUP;
    const int size = min(tiles_m - first, GF_GROUP), r = t % per_group;
    *tm = first + r % size;
    *tn = r / size;
}

/* The k-tile at k0 of A's rows m0.. and B's rows n0.. (row stride ld) into one pipeline stage,
 * 16 bytes per copy: each operand's rows of 128 bytes one after the other, chunk c of row r at
 * chunk c ^ (r % 8) (the 128-byte swizzle that the wgmma descriptors name). */
__device__ __forceinline__ void gf_load_stage(unsigned char *stage, const gf_bf16 *A,
                                              const gf_bf16 *B, int ld, int m0, int n0, int k0) {
    for (int c = threadIdx.x; c < (GF_BM + GF_BN) * 8; c += GF_THREADS) {
        const int r = c / 8, ch = c % 8, swz = ((ch ^ (r % 8)) * 16);
        const gf_bf16 *src =
            r < GF_BM ? A + (size_t)(m0 + r) * ld : B + (size_t)(n0 + r - GF_BM) * ld;
        __pipeline_memcpy_async(stage + r * 128 + swz, src + k0 + ch * 8, 16);
    }
}

/* The descriptor of a K-major operand at shared address saddr in the layout above: rows of 128
 * bytes with the 128-byte swizzle, 8-row groups 1024 bytes apart. */
__device__ __forceinline__ uint64_t gf_desc(uint32_t saddr) {
    return (uint64_t)((saddr & 0x3ffff) >> 4) | (uint64_t)1 << 16 | (uint64_t)(1024 >> 4) << 32 |
           (uint64_t)1 << 62;
}

/* acc (64 x 256, fp32) += A (64 x 16) B^T (256 x 16), both operands described in shared memory. */
__device__ __forceinline__ void gf_wgmma(float (&d)[128], uint64_t da, uint64_t db) {
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
        "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, "
        "%37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, "
        "%55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, "
        "%73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, "
        "%91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, "
        "%107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, "
        "%122, %123, %124, %125, %126, %127}, "
        "%128, %129, p, 1, 1, 0, 0;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
          "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
          "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
          "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
          "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
          "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
          "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
          "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
          "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
          "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
          "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
          "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
          "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db));
}

/* acc = A[m0..m0+128) B[n0..n0+256)^T over kdim columns (row stride ld); warpgroup g computes
 * rows 64 g on. Stages are loaded GF_STAGES - 2 k-tiles ahead, so that one group of wgmma stays
 * in flight while the next stage is issued: the stage a load overwrites was read by the group
 * before the last, which every warpgroup has waited for before the barrier. Returns with the
 * pipeline drained and every warp done with shared memory. */
__device__ __forceinline__ void gf_mainloop(gf_acc_t &acc, unsigned char *smem, const gf_bf16 *A,
                                            const gf_bf16 *B, int ld, int kdim, int m0, int n0) {
    const int ahead = GF_STAGES - 2, ktiles = kdim / GF_BK;
    for (int i = 0; i < GF_BN / 2; i++)
        acc[i] = 0.0f;
    for (int s = 0; s < ahead; s++) {
        if (s < ktiles)
            gf_load_stage(smem + s * GF_STAGE_BYTES, A, B, ld, m0, n0, s * GF_BK);
        __pipeline_commit();
    }
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    for (int kt = 0; kt < ktiles; kt++) {
        /* This thread's copies of stage kt have landed; made visible to the wgmma (async proxy)
         * reads, then everyone's. */
        __pipeline_wait_prior(ahead - 1);
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        const int next = kt + ahead;
        if (next < ktiles)
            gf_load_stage(smem + next % GF_STAGES * GF_STAGE_BYTES, A, B, ld, m0, n0, next * GF_BK);
        __pipeline_commit();
        const uint32_t stage = base + kt % GF_STAGES * GF_STAGE_BYTES;
        const uint32_t a = stage + threadIdx.x / 128 * 64 * 128, b = stage + GF_A_BYTES;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        for (int kk = 0; kk < GF_BK / 16; kk++)
            gf_wgmma(acc, gf_desc(a + kk * 32), gf_desc(b + kk * 32));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    __pipeline_wait_prior(0);
    __syncthreads();
}

/* The tile in acc into shared memory as a row-major fp32 tile (row stride GF_LDC). Returns after
 * a block barrier. */
__device__ __forceinline__ void gf_stage_tile(const gf_acc_t &acc, float *cs) {
    const int t = threadIdx.x % 128, r = threadIdx.x / 128 * 64 + t / 32 * 16 + t % 32 / 4;
    for (int j = 0; j < GF_BN / 8; j++) {
        const int c = j * 8 + t % 4 * 2;
        *(float2 *)(cs + r * GF_LDC + c) = make_float2(acc[4 * j], acc[4 * j + 1]);
        *(float2 *)(cs + (r + 8) * GF_LDC + c) = make_float2(acc[4 * j + 2], acc[4 * j + 3]);
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
 *             tile t of the peer's R (R holds 128 x 256 tiles one after the other). Then this
 *             PE's half: each tile waits for its sig, adds the peer's partial from R and goes to
 *             C. */
template <int Mode>
__global__ void __launch_bounds__(GF_THREADS, 1)
    gf_gemm_kernel(const gf_bf16 *A, const gf_bf16 *B, int ld, int kdim, gf_bf16 *C, gf_bf16 *R,
                   int half, int N, int me, int nparts, uint64_t *sig, uint64_t epoch,
                   bl_ctx_t ctx) {
    extern __shared__ __align__(128) unsigned char gf_smem[];
    unsigned char *smem = gf_smem + (-__cvta_generic_to_shared(gf_smem) & 1023);
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
        if (size % (2 * GF_BM) != 0 || size % GF_BN != 0) {
            if (me == 0)
                fprintf(stderr, "gemm_fused: size %zu skipped: not a multiple of %d and %d\n", size,
                        2 * GF_BM, GF_BN);
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
