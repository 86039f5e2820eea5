/* SPDX-License-Identifier: BSD-3-Clause */
/* The one place where the GPU benchmarks name a library: every program calls bl_* only, so the
 * same source builds against libshmem (default) or NVSHMEM 3.4.5 (-DBENCH_NVSHMEM, with -rdc=true)
 * and both run the identical algorithm.
 *
 * Groups: BL_THREAD, BL_WARP, BL_BLOCK select the thread, _warp or _block form; every thread of
 * the group calls with the same arguments. Contexts: bl_ctx_t is the default context or, with
 * libshmem only, a BYPASS context (bl_ctx_create_bypass); NVSHMEM has no BYPASS context, so its
 * build reports none and the programs skip those rows. */
#ifndef BENCH_GPU_BENCH_LIB_H
#define BENCH_GPU_BENCH_LIB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime.h>

#define BL_THREAD 0
#define BL_WARP 1
#define BL_BLOCK 2

#define BL_CHECK(call)                                                                             \
    do {                                                                                           \
        cudaError_t bl_err_ = (call);                                                              \
        if (bl_err_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    cudaGetErrorString(bl_err_));                                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Group synchronization around an operation that only one thread of the group performs. */
template <int G> __device__ __forceinline__ void bl_group_sync() {
    if (G == BL_BLOCK)
        __syncthreads();
    else if (G == BL_WARP)
        __syncwarp();
}
template <int G> __device__ __forceinline__ bool bl_group_leader() {
    if (G == BL_THREAD)
        return true;
    if (G == BL_WARP)
        return (threadIdx.x % 32) == 0;
    return threadIdx.x == 0;
}

#if defined(BENCH_NVSHMEM)
/* ---------------------------------------------------------------------------------------------- */
/* NVSHMEM 3.4.5                                                                                  */
/* ---------------------------------------------------------------------------------------------- */
#include <nvshmem.h>
#include <nvshmemx.h>

#define BL_LIBRARY "nvshmem"
typedef int bl_ctx_t;
#define BL_CTX_DEFAULT 0

/* Two processes started by bench/gpu/run-h200x2 with BENCH_RANK, BENCH_NRANKS and BENCH_UID_FILE:
 * rank 0 writes the unique id to the file, the others read it. */
static inline void bl_init(void) {
    const char *r = getenv("BENCH_RANK"), *n = getenv("BENCH_NRANKS"),
               *file = getenv("BENCH_UID_FILE");
    if (!r || !n || !file) {
        fprintf(stderr, "nvshmem build: set BENCH_RANK, BENCH_NRANKS and BENCH_UID_FILE\n");
        exit(1);
    }
    int rank = atoi(r), nranks = atoi(n), ndev = 0;
    BL_CHECK(cudaGetDeviceCount(&ndev));
    BL_CHECK(cudaSetDevice(rank % ndev));
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0) {
        nvshmemx_get_uniqueid(&id);
        char tmp[4096];
        snprintf(tmp, sizeof(tmp), "%s.tmp", file);
        FILE *f = fopen(tmp, "wb");
        if (!f || fwrite(&id, sizeof(id), 1, f) != 1 || fclose(f) != 0 || rename(tmp, file) != 0) {
            fprintf(stderr, "cannot write %s\n", file);
            exit(1);
        }
    } else {
        FILE *f = NULL;
        for (int i = 0; i < 60000 && !(f = fopen(file, "rb")); i++)
            usleep(1000);
        if (!f || fread(&id, sizeof(id), 1, f) != 1) {
            fprintf(stderr, "cannot read %s\n", file);
            exit(1);
        }
        fclose(f);
    }
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_set_attr_uniqueid_args(rank, nranks, &id, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
}
static inline void bl_finalize(void) {
    nvshmem_finalize();
}
static inline int bl_my_pe(void) {
    return nvshmem_my_pe();
}
static inline int bl_n_pes(void) {
    return nvshmem_n_pes();
}
static inline void *bl_malloc(size_t n) {
    return nvshmem_malloc(n);
}
static inline void bl_free(void *p) {
    nvshmem_free(p);
}
static inline void bl_barrier_host(void) {
    nvshmemx_barrier_all_on_stream(0);
    BL_CHECK(cudaStreamSynchronize(0));
}
static inline int bl_ctx_create_bypass(bl_ctx_t *ctx) {
    *ctx = BL_CTX_DEFAULT;
    return -1;
}
/* Stream-ordered host forms. */
static inline void bl_putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
    nvshmemx_putmem_on_stream(d, s, n, pe, st);
}
static inline void bl_quiet_on_stream(cudaStream_t st) {
    nvshmemx_quiet_on_stream(st);
}
static inline void bl_barrier_all_on_stream(cudaStream_t st) {
    nvshmemx_barrier_all_on_stream(st);
}
static inline void bl_ctx_destroy(bl_ctx_t) {}

template <int G>
__device__ __forceinline__ void bl_putmem_nbi(bl_ctx_t, void *d, const void *s, size_t n, int pe) {
    if (G == BL_BLOCK)
        nvshmemx_putmem_nbi_block(d, s, n, pe);
    else if (G == BL_WARP)
        nvshmemx_putmem_nbi_warp(d, s, n, pe);
    else
        nvshmem_putmem_nbi(d, s, n, pe);
}
template <int G>
__device__ __forceinline__ void bl_getmem_nbi(void *d, const void *s, size_t n, int pe) {
    if (G == BL_BLOCK)
        nvshmemx_getmem_nbi_block(d, s, n, pe);
    else if (G == BL_WARP)
        nvshmemx_getmem_nbi_warp(d, s, n, pe);
    else
        nvshmem_getmem_nbi(d, s, n, pe);
}
/* NVSHMEM has only the thread form of quiet and fence: the group forms below are what a user
 * writes, the same steps as libshmem's shmemx_quiet_block (sync, one thread, sync). */
template <int G> __device__ __forceinline__ void bl_quiet(bl_ctx_t) {
    bl_group_sync<G>();
    if (bl_group_leader<G>())
        nvshmem_quiet();
    bl_group_sync<G>();
}
template <int G> __device__ __forceinline__ void bl_fence(bl_ctx_t) {
    bl_group_sync<G>();
    if (bl_group_leader<G>())
        nvshmem_fence();
    bl_group_sync<G>();
}
__device__ __forceinline__ void bl_signal_add(bl_ctx_t, uint64_t *sig, uint64_t v, int pe) {
    nvshmemx_signal_op(sig, v, NVSHMEM_SIGNAL_ADD, pe);
}
__device__ __forceinline__ void bl_long_p(long *d, long v, int pe) {
    nvshmem_long_p(d, v, pe);
}
__device__ __forceinline__ void bl_long_wait_eq(long *ivar, long v) {
    nvshmem_long_wait_until(ivar, NVSHMEM_CMP_EQ, v);
}
template <int G>
__device__ __forceinline__ void bl_put_signal_nbi(bl_ctx_t, void *d, const void *s, size_t n,
                                                  uint64_t *sig, uint64_t v, int pe) {
    if (G == BL_BLOCK)
        nvshmemx_putmem_signal_nbi_block(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
    else if (G == BL_WARP)
        nvshmemx_putmem_signal_nbi_warp(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
    else
        nvshmem_putmem_signal_nbi(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
}
/* NVSHMEM's signal wait does not acquire (plain loads after it can be stale without a fence):
 * the fence a correct NVSHMEM program needs before reading the payload with plain loads. */
__device__ __forceinline__ void bl_signal_wait_ge(bl_ctx_t, uint64_t *sig, uint64_t v) {
    nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
    __threadfence();
}
template <typename T> __device__ __forceinline__ T bl_payload_load(bl_ctx_t, const T *p) {
    return *p;
}
__device__ __forceinline__ long bl_long_fetch_add(long *d, long v, int pe) {
    return nvshmem_long_atomic_fetch_add(d, v, pe);
}
__device__ __forceinline__ long bl_long_compare_swap(long *d, long c, long v, int pe) {
    return nvshmem_long_atomic_compare_swap(d, c, v, pe);
}
__device__ __forceinline__ void bl_long_add(long *d, long v, int pe) {
    nvshmem_long_atomic_add(d, v, pe);
}
template <int G> __device__ __forceinline__ void bl_barrier_all() {
    if (G == BL_BLOCK)
        nvshmemx_barrier_all_block();
    else if (G == BL_WARP)
        nvshmemx_barrier_all_warp();
    else
        nvshmem_barrier_all();
}

#else
/* ---------------------------------------------------------------------------------------------- */
/* libshmem                                                                                       */
/* ---------------------------------------------------------------------------------------------- */
#include <shmem.h>
#include <shmemx.h>

#define BL_LIBRARY "libshmem"
typedef shmem_ctx_t bl_ctx_t;
#define BL_CTX_DEFAULT SHMEM_CTX_DEFAULT

static inline void bl_init(void) {
    shmem_init();
}
static inline void bl_finalize(void) {
    shmem_finalize();
}
static inline int bl_my_pe(void) {
    return shmem_my_pe();
}
static inline int bl_n_pes(void) {
    return shmem_n_pes();
}
static inline void *bl_malloc(size_t n) {
    return shmem_malloc(n);
}
static inline void bl_free(void *p) {
    shmem_free(p);
}
static inline void bl_barrier_host(void) {
    shmemx_barrier_all_on_stream(0);
    BL_CHECK(cudaStreamSynchronize(0));
}
static inline int bl_ctx_create_bypass(bl_ctx_t *ctx) {
    return shmem_ctx_create(SHMEMX_CTX_BYPASS, ctx);
}
static inline void bl_putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
    shmemx_putmem_on_stream(d, s, n, pe, st);
}
static inline void bl_quiet_on_stream(cudaStream_t st) {
    shmemx_quiet_on_stream(st);
}
static inline void bl_barrier_all_on_stream(cudaStream_t st) {
    shmemx_barrier_all_on_stream(st);
}
static inline void bl_ctx_destroy(bl_ctx_t ctx) {
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
}

template <int G>
__device__ __forceinline__ void bl_putmem_nbi(bl_ctx_t ctx, void *d, const void *s, size_t n,
                                              int pe) {
    if (G == BL_BLOCK)
        shmemx_ctx_putmem_nbi_block(ctx, d, s, n, pe);
    else if (G == BL_WARP)
        shmemx_ctx_putmem_nbi_warp(ctx, d, s, n, pe);
    else
        shmem_ctx_putmem_nbi(ctx, d, s, n, pe);
}
template <int G>
__device__ __forceinline__ void bl_getmem_nbi(void *d, const void *s, size_t n, int pe) {
    if (G == BL_BLOCK)
        shmemx_getmem_nbi_block(d, s, n, pe);
    else if (G == BL_WARP)
        shmemx_getmem_nbi_warp(d, s, n, pe);
    else
        shmem_getmem_nbi(d, s, n, pe);
}
template <int G> __device__ __forceinline__ void bl_quiet(bl_ctx_t ctx) {
    if (G == BL_BLOCK)
        shmemx_ctx_quiet_block(ctx);
    else if (G == BL_WARP)
        shmemx_ctx_quiet_warp(ctx);
    else
        shmem_ctx_quiet(ctx);
}
template <int G> __device__ __forceinline__ void bl_fence(bl_ctx_t ctx) {
    if (G == BL_BLOCK)
        shmemx_ctx_fence_block(ctx);
    else if (G == BL_WARP)
        shmemx_ctx_fence_warp(ctx);
    else
        shmem_ctx_fence(ctx);
}
__device__ __forceinline__ void bl_signal_add(bl_ctx_t ctx, uint64_t *sig, uint64_t v, int pe) {
    shmem_ctx_signal_add(ctx, sig, v, pe);
}
__device__ __forceinline__ void bl_long_p(long *d, long v, int pe) {
    shmem_long_p(d, v, pe);
}
__device__ __forceinline__ void bl_long_wait_eq(long *ivar, long v) {
    shmem_long_wait_until(ivar, SHMEM_CMP_EQ, v);
}
template <int G>
__device__ __forceinline__ void bl_put_signal_nbi(bl_ctx_t ctx, void *d, const void *s, size_t n,
                                                  uint64_t *sig, uint64_t v, int pe) {
    if (G == BL_BLOCK)
        shmemx_ctx_putmem_signal_nbi_block(ctx, d, s, n, sig, v, SHMEM_SIGNAL_SET, pe);
    else if (G == BL_WARP)
        shmemx_ctx_putmem_signal_nbi_warp(ctx, d, s, n, sig, v, SHMEM_SIGNAL_SET, pe);
    else
        shmem_ctx_putmem_signal_nbi(ctx, d, s, n, sig, v, SHMEM_SIGNAL_SET, pe);
}
/* The default context's wait acquires; a BYPASS context's does not (payload read with bypass
 * loads below). */
__device__ __forceinline__ void bl_signal_wait_ge(bl_ctx_t ctx, uint64_t *sig, uint64_t v) {
    shmemx_ctx_signal_wait_until(ctx, sig, SHMEM_CMP_GE, v);
}
/* Payload that arrived through ctx: plain load on the default context, bypass load on a BYPASS
 * context. */
template <typename T> __device__ __forceinline__ T bl_payload_load(bl_ctx_t ctx, const T *p);
template <> __device__ __forceinline__ uint64_t bl_payload_load(bl_ctx_t ctx, const uint64_t *p) {
    if (ctx != SHMEM_CTX_DEFAULT)
        return shmemx_uint64_ld_bypass(p);
    return *p;
}
template <> __device__ __forceinline__ uint32_t bl_payload_load(bl_ctx_t ctx, const uint32_t *p) {
    if (ctx != SHMEM_CTX_DEFAULT)
        return shmemx_uint32_ld_bypass(p);
    return *p;
}
__device__ __forceinline__ long bl_long_fetch_add(long *d, long v, int pe) {
    return shmem_long_atomic_fetch_add(d, v, pe);
}
__device__ __forceinline__ long bl_long_compare_swap(long *d, long c, long v, int pe) {
    return shmem_long_atomic_compare_swap(d, c, v, pe);
}
__device__ __forceinline__ void bl_long_add(long *d, long v, int pe) {
    shmem_long_atomic_add(d, v, pe);
}
template <int G> __device__ __forceinline__ void bl_barrier_all() {
    if (G == BL_BLOCK)
        shmemx_barrier_all_block();
    else if (G == BL_WARP)
        shmemx_barrier_all_warp();
    else
        shmem_barrier_all();
}

#endif

/* ---- collectives on the world team ------------------------------------------------------------
 * Both libraries name them alike (shmem_int64_alltoall / nvshmem_int64_alltoall, the _warp and
 * _block forms with the x prefix); only the prefix and the world team's name differ. */
#if defined(BENCH_NVSHMEM)
#define BL_TEAM_WORLD NVSHMEM_TEAM_WORLD
#define BL_NAME(STEM) nvshmem_##STEM
#define BL_NAMEX(STEM) nvshmemx_##STEM
#else
#define BL_TEAM_WORLD SHMEM_TEAM_WORLD
#define BL_NAME(STEM) shmem_##STEM
#define BL_NAMEX(STEM) shmemx_##STEM
#endif
#define BL_COLL(G, STEM, ...)                                                                      \
    do {                                                                                           \
        if (G == BL_BLOCK)                                                                         \
            (void)BL_NAMEX(STEM##_block)(__VA_ARGS__);                                             \
        else if (G == BL_WARP)                                                                     \
            (void)BL_NAMEX(STEM##_warp)(__VA_ARGS__);                                              \
        else                                                                                       \
            (void)BL_NAME(STEM)(__VA_ARGS__);                                                      \
    } while (0)

/* Reduction operators of bl_reduce. */
#define BL_OP_SUM 0
#define BL_OP_PROD 1
#define BL_OP_AND 2
#define BL_OP_OR 3
#define BL_OP_XOR 4
#define BL_OP_MIN 5
#define BL_OP_MAX 6

/* bl_alltoall, bl_fcollect, bl_broadcast and bl_reduce<G, Op> on elements of CT (NAME in the
 * libraries' typed names), called by the whole group G. */
#define BL_COLL_TYPE(CT, NAME)                                                                     \
    template <int G> __device__ __forceinline__ void bl_alltoall(CT *d, const CT *s, size_t n) {   \
        BL_COLL(G, NAME##_alltoall, BL_TEAM_WORLD, d, s, n);                                       \
    }                                                                                              \
    template <int G> __device__ __forceinline__ void bl_fcollect(CT *d, const CT *s, size_t n) {   \
        BL_COLL(G, NAME##_fcollect, BL_TEAM_WORLD, d, s, n);                                       \
    }                                                                                              \
    template <int G>                                                                               \
    __device__ __forceinline__ void bl_broadcast(CT *d, const CT *s, size_t n, int root) {         \
        BL_COLL(G, NAME##_broadcast, BL_TEAM_WORLD, d, s, n, root);                                \
    }                                                                                              \
    template <int G, int Op>                                                                       \
    __device__ __forceinline__ void bl_reduce(CT *d, const CT *s, size_t n) {                      \
        if (Op == BL_OP_SUM)                                                                       \
            BL_COLL(G, NAME##_sum_reduce, BL_TEAM_WORLD, d, s, n);                                 \
        else if (Op == BL_OP_PROD)                                                                 \
            BL_COLL(G, NAME##_prod_reduce, BL_TEAM_WORLD, d, s, n);                                \
        else if (Op == BL_OP_AND)                                                                  \
            BL_COLL(G, NAME##_and_reduce, BL_TEAM_WORLD, d, s, n);                                 \
        else if (Op == BL_OP_OR)                                                                   \
            BL_COLL(G, NAME##_or_reduce, BL_TEAM_WORLD, d, s, n);                                  \
        else if (Op == BL_OP_XOR)                                                                  \
            BL_COLL(G, NAME##_xor_reduce, BL_TEAM_WORLD, d, s, n);                                 \
        else if (Op == BL_OP_MIN)                                                                  \
            BL_COLL(G, NAME##_min_reduce, BL_TEAM_WORLD, d, s, n);                                 \
        else                                                                                       \
            BL_COLL(G, NAME##_max_reduce, BL_TEAM_WORLD, d, s, n);                                 \
    }
BL_COLL_TYPE(int32_t, int32)
BL_COLL_TYPE(int64_t, int64)

#endif
