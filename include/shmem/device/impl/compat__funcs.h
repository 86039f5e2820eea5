/* SPDX-License-Identifier: BSD-3-Clause */
/* The rest of the host API's names in CUDA/HIP translation units, so that a file that includes
 * shmem.h compiles whether its calls run on the host or the device: the sized and blocked-strided
 * RMA forms, the fetching non-blocking AMOs, the names deprecated since OpenSHMEM 1.4, the BYPASS
 * accesses and fences, the C++ overloads of the generic names, and the long double forms (host
 * only: GPUs have no long double). */
#ifndef SHMEM_DEVICE_IMPL_COMPAT__FUNCS_H
#define SHMEM_DEVICE_IMPL_COMPAT__FUNCS_H

#include <shmem/device/impl/api__funcs.h>

/* ---- sized and blocked-strided RMA -------------------------------------------------------------
 */

#if SHMEMI_DEVICE_PASS
struct shmemi_bits128 {
    uint64_t lo, hi;
};
template <int Bits> struct shmemi_sized { typedef typename shmemi_bits<Bits / 8>::type type; };
template <> struct shmemi_sized<128> { typedef shmemi_bits128 type; };

template <typename T>
SHMEMI_DI void shmemi_api_ibput(const char *call, shmem_ctx_t ctx, T *d, const T *s, ptrdiff_t dst,
                                ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) {
    for (size_t b = 0; b < nblocks; b++)
        shmemi_api_put<SHMEMI_GROUP_THREAD>(call, ctx, d + (ptrdiff_t)b * dst,
                                            s + (ptrdiff_t)b * sst, bsize * sizeof(T), pe);
}
template <typename T>
SHMEMI_DI void shmemi_api_ibget(const char *call, shmem_ctx_t ctx, T *d, const T *s, ptrdiff_t dst,
                                ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) {
    for (size_t b = 0; b < nblocks; b++)
        shmemi_api_get<SHMEMI_GROUP_THREAD>(call, ctx, d + (ptrdiff_t)b * dst,
                                            s + (ptrdiff_t)b * sst, bsize * sizeof(T), pe);
}
/* Strided sized copies: blocks of one element of BITS / 8 bytes. */
template <typename T>
SHMEMI_DI void shmemi_api_isized(const char *call, shmem_ctx_t ctx, int is_put, T *d, const T *s,
                                 ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
    if (is_put)
        shmemi_api_ibput(call, ctx, d, s, dst, sst, 1, n, pe);
    else
        shmemi_api_ibget(call, ctx, d, s, dst, sst, 1, n, pe);
}
#endif

#define SHMEMI_DEV_TYPED_IB(CT, NAME)                                                              \
    SHMEMI_TWIN(void, shmem_##NAME##_ibput,                                                        \
                (CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                 size_t nblocks, int pe),                                                          \
                (dest, source, dst, sst, bsize, nblocks, pe),                                      \
                shmemi_api_ibput("shmem_" #NAME "_ibput", SHMEM_CTX_DEFAULT, dest, source, dst,    \
                                 sst, bsize, nblocks, pe);)                                        \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_ibput,                                                    \
                (shmem_ctx_t ctx, CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst,       \
                 size_t bsize, size_t nblocks, int pe),                                            \
                (ctx, dest, source, dst, sst, bsize, nblocks, pe),                                 \
                shmemi_api_ibput("shmem_ctx_" #NAME "_ibput", ctx, dest, source, dst, sst, bsize,  \
                                 nblocks, pe);)                                                    \
    SHMEMI_TWIN(void, shmem_##NAME##_ibget,                                                        \
                (CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,          \
                 size_t nblocks, int pe),                                                          \
                (dest, source, dst, sst, bsize, nblocks, pe),                                      \
                shmemi_api_ibget("shmem_" #NAME "_ibget", SHMEM_CTX_DEFAULT, dest, source, dst,    \
                                 sst, bsize, nblocks, pe);)                                        \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_ibget,                                                    \
                (shmem_ctx_t ctx, CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst,       \
                 size_t bsize, size_t nblocks, int pe),                                            \
                (ctx, dest, source, dst, sst, bsize, nblocks, pe),                                 \
                shmemi_api_ibget("shmem_ctx_" #NAME "_ibget", ctx, dest, source, dst, sst, bsize,  \
                                 nblocks, pe);)
SHMEMI_DEV_RMA_TYPES(SHMEMI_DEV_TYPED_IB)

#define SHMEMI_SZ(BITS) typename shmemi_sized<BITS>::type
#define SHMEMI_DEV_SIZED_RMA(BITS)                                                                 \
    SHMEMI_DEV_RMA_PAIR(put, put##BITS, void, BITS / 8)                                            \
    SHMEMI_DEV_RMA_PAIR(put, put##BITS##_nbi, void, BITS / 8)                                      \
    SHMEMI_DEV_RMA_PAIR(get, get##BITS, void, BITS / 8)                                            \
    SHMEMI_DEV_RMA_PAIR(get, get##BITS##_nbi, void, BITS / 8)                                      \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_iput##BITS,                                                                    \
        (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),     \
        (dest, source, dst, sst, nelems, pe),                                                      \
        shmemi_api_isized("shmem_iput" #BITS, SHMEM_CTX_DEFAULT, 1, (SHMEMI_SZ(BITS) *)dest,       \
                          (const SHMEMI_SZ(BITS) *)source, dst, sst, nelems, pe);)                 \
    SHMEMI_TWIN(void, shmem_ctx_iput##BITS,                                                        \
                (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                 size_t nelems, int pe),                                                           \
                (ctx, dest, source, dst, sst, nelems, pe),                                         \
                shmemi_api_isized("shmem_ctx_iput" #BITS, ctx, 1, (SHMEMI_SZ(BITS) *)dest,         \
                                  (const SHMEMI_SZ(BITS) *)source, dst, sst, nelems, pe);)         \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_iget##BITS,                                                                    \
        (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),     \
        (dest, source, dst, sst, nelems, pe),                                                      \
        shmemi_api_isized("shmem_iget" #BITS, SHMEM_CTX_DEFAULT, 0, (SHMEMI_SZ(BITS) *)dest,       \
                          (const SHMEMI_SZ(BITS) *)source, dst, sst, nelems, pe);)                 \
    SHMEMI_TWIN(void, shmem_ctx_iget##BITS,                                                        \
                (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                 size_t nelems, int pe),                                                           \
                (ctx, dest, source, dst, sst, nelems, pe),                                         \
                shmemi_api_isized("shmem_ctx_iget" #BITS, ctx, 0, (SHMEMI_SZ(BITS) *)dest,         \
                                  (const SHMEMI_SZ(BITS) *)source, dst, sst, nelems, pe);)         \
    SHMEMI_TWIN(void, shmem_ibput##BITS,                                                           \
                (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                 size_t nblocks, int pe),                                                          \
                (dest, source, dst, sst, bsize, nblocks, pe),                                      \
                shmemi_api_ibput("shmem_ibput" #BITS, SHMEM_CTX_DEFAULT, (SHMEMI_SZ(BITS) *)dest,  \
                                 (const SHMEMI_SZ(BITS) *)source, dst, sst, bsize, nblocks, pe);)  \
    SHMEMI_TWIN(void, shmem_ctx_ibput##BITS,                                                       \
                (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                 size_t bsize, size_t nblocks, int pe),                                            \
                (ctx, dest, source, dst, sst, bsize, nblocks, pe),                                 \
                shmemi_api_ibput("shmem_ctx_ibput" #BITS, ctx, (SHMEMI_SZ(BITS) *)dest,            \
                                 (const SHMEMI_SZ(BITS) *)source, dst, sst, bsize, nblocks, pe);)  \
    SHMEMI_TWIN(void, shmem_ibget##BITS,                                                           \
                (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,       \
                 size_t nblocks, int pe),                                                          \
                (dest, source, dst, sst, bsize, nblocks, pe),                                      \
                shmemi_api_ibget("shmem_ibget" #BITS, SHMEM_CTX_DEFAULT, (SHMEMI_SZ(BITS) *)dest,  \
                                 (const SHMEMI_SZ(BITS) *)source, dst, sst, bsize, nblocks, pe);)  \
    SHMEMI_TWIN(void, shmem_ctx_ibget##BITS,                                                       \
                (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                 size_t bsize, size_t nblocks, int pe),                                            \
                (ctx, dest, source, dst, sst, bsize, nblocks, pe),                                 \
                shmemi_api_ibget("shmem_ctx_ibget" #BITS, ctx, (SHMEMI_SZ(BITS) *)dest,            \
                                 (const SHMEMI_SZ(BITS) *)source, dst, sst, bsize, nblocks, pe);)  \
    SHMEMI_TWIN(void, shmem_put##BITS##_signal,                                                    \
                (void *dest, const void *source, size_t nelems, uint64_t *sig_addr,                \
                 uint64_t signal, int sig_op, int pe),                                             \
                (dest, source, nelems, sig_addr, signal, sig_op, pe),                              \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>(                                        \
                    "shmem_put" #BITS "_signal", SHMEM_CTX_DEFAULT, dest, source,                  \
                    nelems * (BITS / 8), sig_addr, signal, sig_op, pe);)                           \
    SHMEMI_TWIN(void, shmem_ctx_put##BITS##_signal,                                                \
                (shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,                   \
                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),                         \
                (ctx, dest, source, nelems, sig_addr, signal, sig_op, pe),                         \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>("shmem_ctx_put" #BITS "_signal", ctx,   \
                                                           dest, source, nelems * (BITS / 8),      \
                                                           sig_addr, signal, sig_op, pe);)         \
    SHMEMI_TWIN(void, shmem_put##BITS##_signal_nbi,                                                \
                (void *dest, const void *source, size_t nelems, uint64_t *sig_addr,                \
                 uint64_t signal, int sig_op, int pe),                                             \
                (dest, source, nelems, sig_addr, signal, sig_op, pe),                              \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>(                                        \
                    "shmem_put" #BITS "_signal_nbi", SHMEM_CTX_DEFAULT, dest, source,              \
                    nelems * (BITS / 8), sig_addr, signal, sig_op, pe);)                           \
    SHMEMI_TWIN(void, shmem_ctx_put##BITS##_signal_nbi,                                            \
                (shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,                   \
                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),                         \
                (ctx, dest, source, nelems, sig_addr, signal, sig_op, pe),                         \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>("shmem_ctx_put" #BITS "_signal_nbi",    \
                                                           ctx, dest, source, nelems * (BITS / 8), \
                                                           sig_addr, signal, sig_op, pe);)
SHMEMI_DEV_SIZED_RMA(8)
SHMEMI_DEV_SIZED_RMA(16)
SHMEMI_DEV_SIZED_RMA(32)
SHMEMI_DEV_SIZED_RMA(64)
SHMEMI_DEV_SIZED_RMA(128)

/* ---- fetching non-blocking AMOs (performed at once on the load/store path) --------------------
 */

#define SHMEMI_DEV_AMO_NBI_X(CT, NAME)                                                             \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_fetch_nbi, (CT * fetch, const CT *source, int pe),     \
                (fetch, source, pe), *fetch = shmem_##NAME##_atomic_fetch(source, pe);)            \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_fetch_nbi,                                         \
                (shmem_ctx_t ctx, CT * fetch, const CT *source, int pe), (ctx, fetch, source, pe), \
                *fetch = shmem_ctx_##NAME##_atomic_fetch(ctx, source, pe);)                        \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_swap_nbi, (CT * fetch, CT * dest, CT value, int pe),   \
                (fetch, dest, value, pe), *fetch = shmem_##NAME##_atomic_swap(dest, value, pe);)   \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_swap_nbi,                                          \
                (shmem_ctx_t ctx, CT * fetch, CT * dest, CT value, int pe),                        \
                (ctx, fetch, dest, value, pe),                                                     \
                *fetch = shmem_ctx_##NAME##_atomic_swap(ctx, dest, value, pe);)
#define SHMEMI_DEV_AMO_NBI_S(CT, NAME)                                                             \
    SHMEMI_DEV_AMO_NBI_X(CT, NAME)                                                                 \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_compare_swap_nbi,                                      \
                (CT * fetch, CT * dest, CT cond, CT value, int pe),                                \
                (fetch, dest, cond, value, pe),                                                    \
                *fetch = shmem_##NAME##_atomic_compare_swap(dest, cond, value, pe);)               \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_compare_swap_nbi,                                  \
                (shmem_ctx_t ctx, CT * fetch, CT * dest, CT cond, CT value, int pe),               \
                (ctx, fetch, dest, cond, value, pe),                                               \
                *fetch = shmem_ctx_##NAME##_atomic_compare_swap(ctx, dest, cond, value, pe);)      \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_fetch_inc_nbi, (CT * fetch, CT * dest, int pe),        \
                (fetch, dest, pe), *fetch = shmem_##NAME##_atomic_fetch_inc(dest, pe);)            \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_fetch_inc_nbi,                                     \
                (shmem_ctx_t ctx, CT * fetch, CT * dest, int pe), (ctx, fetch, dest, pe),          \
                *fetch = shmem_ctx_##NAME##_atomic_fetch_inc(ctx, dest, pe);)                      \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_fetch_add_nbi,                                         \
                (CT * fetch, CT * dest, CT value, int pe), (fetch, dest, value, pe),               \
                *fetch = shmem_##NAME##_atomic_fetch_add(dest, value, pe);)                        \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_fetch_add_nbi,                                     \
                (shmem_ctx_t ctx, CT * fetch, CT * dest, CT value, int pe),                        \
                (ctx, fetch, dest, value, pe),                                                     \
                *fetch = shmem_ctx_##NAME##_atomic_fetch_add(ctx, dest, value, pe);)
#define SHMEMI_DEV_AMO_NBI_B1(CT, NAME, OP)                                                        \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_fetch_##OP##_nbi,                                      \
                (CT * fetch, CT * dest, CT value, int pe), (fetch, dest, value, pe),               \
                *fetch = shmem_##NAME##_atomic_fetch_##OP(dest, value, pe);)                       \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_atomic_fetch_##OP##_nbi,                                  \
                (shmem_ctx_t ctx, CT * fetch, CT * dest, CT value, int pe),                        \
                (ctx, fetch, dest, value, pe),                                                     \
                *fetch = shmem_ctx_##NAME##_atomic_fetch_##OP(ctx, dest, value, pe);)
#define SHMEMI_DEV_AMO_NBI_B(CT, NAME)                                                             \
    SHMEMI_DEV_AMO_NBI_B1(CT, NAME, and)                                                           \
    SHMEMI_DEV_AMO_NBI_B1(CT, NAME, or)                                                            \
    SHMEMI_DEV_AMO_NBI_B1(CT, NAME, xor)
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEV_AMO_NBI_S)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DEV_AMO_NBI_X)
SHMEMI_AMO_BITWISE_TYPES(SHMEMI_DEV_AMO_NBI_B)

/* ---- names deprecated since OpenSHMEM 1.4 ------------------------------------------------------
 */

#define SHMEMI_DEV_AMO_DEPR_X(CT, NAME)                                                            \
    SHMEMI_TWIN(CT, shmem_##NAME##_swap, (CT * dest, CT value, int pe), (dest, value, pe),         \
                return shmem_##NAME##_atomic_swap(dest, value, pe);)                               \
    SHMEMI_TWIN(CT, shmem_##NAME##_fetch, (const CT *source, int pe), (source, pe),                \
                return shmem_##NAME##_atomic_fetch(source, pe);)                                   \
    SHMEMI_TWIN(void, shmem_##NAME##_set, (CT * dest, CT value, int pe), (dest, value, pe),        \
                shmem_##NAME##_atomic_set(dest, value, pe);)
#define SHMEMI_DEV_AMO_DEPR(CT, NAME)                                                              \
    SHMEMI_DEV_AMO_DEPR_X(CT, NAME)                                                                \
    SHMEMI_TWIN(CT, shmem_##NAME##_cswap, (CT * dest, CT cond, CT value, int pe),                  \
                (dest, cond, value, pe),                                                           \
                return shmem_##NAME##_atomic_compare_swap(dest, cond, value, pe);)                 \
    SHMEMI_TWIN(CT, shmem_##NAME##_finc, (CT * dest, int pe), (dest, pe),                          \
                return shmem_##NAME##_atomic_fetch_inc(dest, pe);)                                 \
    SHMEMI_TWIN(void, shmem_##NAME##_inc, (CT * dest, int pe), (dest, pe),                         \
                shmem_##NAME##_atomic_inc(dest, pe);)                                              \
    SHMEMI_TWIN(CT, shmem_##NAME##_fadd, (CT * dest, CT value, int pe), (dest, value, pe),         \
                return shmem_##NAME##_atomic_fetch_add(dest, value, pe);)                          \
    SHMEMI_TWIN(void, shmem_##NAME##_add, (CT * dest, CT value, int pe), (dest, value, pe),        \
                shmem_##NAME##_atomic_add(dest, value, pe);)
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEV_AMO_DEPR)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DEV_AMO_DEPR_X)

/* Deprecated waits: wait until *ivar != cmp_value (shmem_wait_until on long is the pre-C11 name
 * of shmem_long_wait_until). Acquire. */
#define SHMEMI_DEV_WAIT_DEPR(CT, NAME)                                                             \
    SHMEMI_TWIN(void, shmem_##NAME##_wait, (CT * ivar, CT cmp_value), (ivar, cmp_value),           \
                shmem_##NAME##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);)
SHMEMI_DEV_WAIT_DEPR(short, short)
SHMEMI_DEV_WAIT_DEPR(int, int)
SHMEMI_DEV_WAIT_DEPR(long, long)
SHMEMI_DEV_WAIT_DEPR(long long, longlong)
SHMEMI_TWIN(void, shmem_wait, (long *ivar, long cmp_value), (ivar, cmp_value),
            shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value);)
SHMEMI_TWIN(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value), (ivar, cmp, cmp_value),
            shmem_long_wait_until(ivar, cmp, cmp_value);)

/* ---- BYPASS accesses and fences ------------------------------------------------------------- */

#if SHMEMI_DEVICE_PASS
/* shmemx_acquire / shmemx_release: a fence of the given SHMEMX_SCOPE_*; PE scope is the GPU. */
SHMEMI_DI void shmemi_api_scope_fence(int scope, int acquire) {
#if defined(__CUDA_ARCH__)
    (void)acquire;
    if (scope >= SHMEMX_SCOPE_WORLD)
        shmemi_fence_acq_rel<SHMEMI_SCOPE_SYSTEM>();
    else if (scope >= SHMEMX_SCOPE_DEVICE)
        shmemi_fence_acq_rel<SHMEMI_SCOPE_DEVICE>();
    else if (scope == SHMEMX_SCOPE_BLOCK)
        shmemi_fence_acq_rel<SHMEMI_SCOPE_BLOCK>();
#else
    if (scope >= SHMEMX_SCOPE_WORLD) {
        if (acquire)
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "");
        else
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
    } else if (scope >= SHMEMX_SCOPE_DEVICE) {
        if (acquire)
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
        else
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
    } else if (scope == SHMEMX_SCOPE_BLOCK) {
        if (acquire)
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
        else
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    }
#endif
}
#endif

SHMEMI_TWIN(void, shmemx_acquire, (int scope), (scope), shmemi_api_scope_fence(scope, 1);)
SHMEMI_TWIN(void, shmemx_release, (int scope), (scope), shmemi_api_scope_fence(scope, 0);)

#define SHMEMI_DEV_BYPASS(CT, NAME)                                                                \
    SHMEMI_TWIN(CT, shmemx_##NAME##_ld_bypass, (const CT *addr), (addr),                           \
                return shmemi_ld_bypass(addr);)                                                    \
    SHMEMI_TWIN(void, shmemx_##NAME##_st_bypass, (CT * addr, CT value), (addr, value),             \
                shmemi_st_bypass(addr, value);)
SHMEMI_DEV_RMA_TYPES(SHMEMI_DEV_BYPASS)

/* ---- long double: host only ------------------------------------------------------------------ */

#define SHMEMI_HOST_ONLY(RET, NAME, PARAMS, ARGS)                                                  \
    extern "C" RET shmemi_h_##NAME PARAMS __asm__(#NAME);                                          \
    static inline RET NAME PARAMS {                                                                \
        return shmemi_h_##NAME ARGS;                                                               \
    }
#define SHMEMI_LD_RMA(SUFFIX)                                                                      \
    SHMEMI_HOST_ONLY(void, shmem_longdouble_##SUFFIX,                                              \
                     (long double *dest, const long double *source, size_t nelems, int pe),        \
                     (dest, source, nelems, pe))                                                   \
    SHMEMI_HOST_ONLY(                                                                              \
        void, shmem_ctx_longdouble_##SUFFIX,                                                       \
        (shmem_ctx_t ctx, long double *dest, const long double *source, size_t nelems, int pe),    \
        (ctx, dest, source, nelems, pe))
SHMEMI_LD_RMA(put)
SHMEMI_LD_RMA(put_nbi)
SHMEMI_LD_RMA(get)
SHMEMI_LD_RMA(get_nbi)
SHMEMI_HOST_ONLY(void, shmem_longdouble_p, (long double *dest, long double value, int pe),
                 (dest, value, pe))
SHMEMI_HOST_ONLY(void, shmem_ctx_longdouble_p,
                 (shmem_ctx_t ctx, long double *dest, long double value, int pe),
                 (ctx, dest, value, pe))
SHMEMI_HOST_ONLY(long double, shmem_longdouble_g, (const long double *source, int pe), (source, pe))
SHMEMI_HOST_ONLY(long double, shmem_ctx_longdouble_g,
                 (shmem_ctx_t ctx, const long double *source, int pe), (ctx, source, pe))
#define SHMEMI_LD_STRIDED(OP)                                                                      \
    SHMEMI_HOST_ONLY(void, shmem_longdouble_##OP,                                                  \
                     (long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst,  \
                      size_t nelems, int pe),                                                      \
                     (dest, source, dst, sst, nelems, pe))                                         \
    SHMEMI_HOST_ONLY(void, shmem_ctx_longdouble_##OP,                                              \
                     (shmem_ctx_t ctx, long double *dest, const long double *source,               \
                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),                        \
                     (ctx, dest, source, dst, sst, nelems, pe))
SHMEMI_LD_STRIDED(iput)
SHMEMI_LD_STRIDED(iget)
#define SHMEMI_LD_BLOCKED(OP)                                                                      \
    SHMEMI_HOST_ONLY(void, shmem_longdouble_##OP,                                                  \
                     (long double *dest, const long double *source, ptrdiff_t dst, ptrdiff_t sst,  \
                      size_t bsize, size_t nblocks, int pe),                                       \
                     (dest, source, dst, sst, bsize, nblocks, pe))                                 \
    SHMEMI_HOST_ONLY(void, shmem_ctx_longdouble_##OP,                                              \
                     (shmem_ctx_t ctx, long double *dest, const long double *source,               \
                      ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe),         \
                     (ctx, dest, source, dst, sst, bsize, nblocks, pe))
SHMEMI_LD_BLOCKED(ibput)
SHMEMI_LD_BLOCKED(ibget)
#define SHMEMI_LD_PUT_SIGNAL(SUFFIX)                                                               \
    SHMEMI_HOST_ONLY(void, shmem_longdouble_put_signal##SUFFIX,                                    \
                     (long double *dest, const long double *source, size_t nelems,                 \
                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),                    \
                     (dest, source, nelems, sig_addr, signal, sig_op, pe))                         \
    SHMEMI_HOST_ONLY(void, shmem_ctx_longdouble_put_signal##SUFFIX,                                \
                     (shmem_ctx_t ctx, long double *dest, const long double *source,               \
                      size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),     \
                     (ctx, dest, source, nelems, sig_addr, signal, sig_op, pe))
SHMEMI_LD_PUT_SIGNAL()
SHMEMI_LD_PUT_SIGNAL(_nbi)
SHMEMI_HOST_ONLY(long double, shmemx_longdouble_ld_bypass, (const long double *addr), (addr))
SHMEMI_HOST_ONLY(void, shmemx_longdouble_st_bypass, (long double *addr, long double value),
                 (addr, value))

#endif
