/* SPDX-License-Identifier: BSD-3-Clause */
/* C++ overloads of the generic names (shmem_put, shmem_atomic_fetch_add, shmem_wait_until, ...)
 * for CUDA/HIP translation units, usable on the host and the device; each calls the typed
 * function of its type. */
#ifndef SHMEM_DEVICE_IMPL_GENERIC__FUNCS_H
#define SHMEM_DEVICE_IMPL_GENERIC__FUNCS_H

#include <shmem/impl/generic.h>
#include <shmem/device/impl/compat__funcs.h>

#define SHMEMI_GEN_RMA(CT, NAME, P, S)                                                             \
    static SHMEMI_HD void shmem_put(CT *d, const CT *s, size_t n, int pe) {                        \
        shmem_##NAME##_put(d, s, n, pe);                                                           \
    }                                                                                              \
    static SHMEMI_HD void shmem_put(shmem_ctx_t c, CT *d, const CT *s, size_t n, int pe) {         \
        shmem_ctx_##NAME##_put(c, d, s, n, pe);                                                    \
    }                                                                                              \
    static SHMEMI_HD void shmem_put_nbi(CT *d, const CT *s, size_t n, int pe) {                    \
        shmem_##NAME##_put_nbi(d, s, n, pe);                                                       \
    }                                                                                              \
    static SHMEMI_HD void shmem_put_nbi(shmem_ctx_t c, CT *d, const CT *s, size_t n, int pe) {     \
        shmem_ctx_##NAME##_put_nbi(c, d, s, n, pe);                                                \
    }                                                                                              \
    static SHMEMI_HD void shmem_get(CT *d, const CT *s, size_t n, int pe) {                        \
        shmem_##NAME##_get(d, s, n, pe);                                                           \
    }                                                                                              \
    static SHMEMI_HD void shmem_get(shmem_ctx_t c, CT *d, const CT *s, size_t n, int pe) {         \
        shmem_ctx_##NAME##_get(c, d, s, n, pe);                                                    \
    }                                                                                              \
    static SHMEMI_HD void shmem_get_nbi(CT *d, const CT *s, size_t n, int pe) {                    \
        shmem_##NAME##_get_nbi(d, s, n, pe);                                                       \
    }                                                                                              \
    static SHMEMI_HD void shmem_get_nbi(shmem_ctx_t c, CT *d, const CT *s, size_t n, int pe) {     \
        shmem_ctx_##NAME##_get_nbi(c, d, s, n, pe);                                                \
    }                                                                                              \
    static SHMEMI_HD void shmem_p(CT *d, CT v, int pe) {                                           \
        shmem_##NAME##_p(d, v, pe);                                                                \
    }                                                                                              \
    static SHMEMI_HD void shmem_p(shmem_ctx_t c, CT *d, CT v, int pe) {                            \
        shmem_ctx_##NAME##_p(c, d, v, pe);                                                         \
    }                                                                                              \
    static SHMEMI_HD CT shmem_g(const CT *s, int pe) {                                             \
        return shmem_##NAME##_g(s, pe);                                                            \
    }                                                                                              \
    static SHMEMI_HD CT shmem_g(shmem_ctx_t c, const CT *s, int pe) {                              \
        return shmem_ctx_##NAME##_g(c, s, pe);                                                     \
    }                                                                                              \
    static SHMEMI_HD void shmem_iput(CT *d, const CT *s, ptrdiff_t dst, ptrdiff_t sst, size_t n,   \
                                     int pe) {                                                     \
        shmem_##NAME##_iput(d, s, dst, sst, n, pe);                                                \
    }                                                                                              \
    static SHMEMI_HD void shmem_iget(CT *d, const CT *s, ptrdiff_t dst, ptrdiff_t sst, size_t n,   \
                                     int pe) {                                                     \
        shmem_##NAME##_iget(d, s, dst, sst, n, pe);                                                \
    }                                                                                              \
    static SHMEMI_HD void shmem_put_signal(CT *d, const CT *s, size_t n, uint64_t *sig,            \
                                           uint64_t v, int op, int pe) {                           \
        shmem_##NAME##_put_signal(d, s, n, sig, v, op, pe);                                        \
    }                                                                                              \
    static SHMEMI_HD void shmem_put_signal_nbi(CT *d, const CT *s, size_t n, uint64_t *sig,        \
                                               uint64_t v, int op, int pe) {                       \
        shmem_##NAME##_put_signal_nbi(d, s, n, sig, v, op, pe);                                    \
    }                                                                                              \
    static SHMEMI_HD CT shmemx_ld_bypass(const CT *a) {                                            \
        return shmemx_##NAME##_ld_bypass(a);                                                       \
    }                                                                                              \
    static SHMEMI_HD void shmemx_st_bypass(CT *a, CT v) {                                          \
        shmemx_##NAME##_st_bypass(a, v);                                                           \
    }
/* The generic table without long double, which GPUs do not have. */
SHMEMI_GEN_RMA_TYPES_NO_LONGDOUBLE(SHMEMI_GEN_RMA, , )

#define SHMEMI_GEN_AMO_X(CT, NAME, P, S)                                                           \
    static SHMEMI_HD CT shmem_atomic_fetch(const CT *s, int pe) {                                  \
        return shmem_##NAME##_atomic_fetch(s, pe);                                                 \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_set(CT *d, CT v, int pe) {                                  \
        shmem_##NAME##_atomic_set(d, v, pe);                                                       \
    }                                                                                              \
    static SHMEMI_HD CT shmem_atomic_swap(CT *d, CT v, int pe) {                                   \
        return shmem_##NAME##_atomic_swap(d, v, pe);                                               \
    }
#define SHMEMI_GEN_AMO_S(CT, NAME, P, S)                                                           \
    SHMEMI_GEN_AMO_X(CT, NAME, P, S)                                                               \
    static SHMEMI_HD CT shmem_atomic_compare_swap(CT *d, CT c, CT v, int pe) {                     \
        return shmem_##NAME##_atomic_compare_swap(d, c, v, pe);                                    \
    }                                                                                              \
    static SHMEMI_HD CT shmem_atomic_fetch_inc(CT *d, int pe) {                                    \
        return shmem_##NAME##_atomic_fetch_inc(d, pe);                                             \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_inc(CT *d, int pe) {                                        \
        shmem_##NAME##_atomic_inc(d, pe);                                                          \
    }                                                                                              \
    static SHMEMI_HD CT shmem_atomic_fetch_add(CT *d, CT v, int pe) {                              \
        return shmem_##NAME##_atomic_fetch_add(d, v, pe);                                          \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_add(CT *d, CT v, int pe) {                                  \
        shmem_##NAME##_atomic_add(d, v, pe);                                                       \
    }
#define SHMEMI_GEN_AMO_B(CT, NAME, P, S)                                                           \
    static SHMEMI_HD CT shmem_atomic_fetch_and(CT *d, CT v, int pe) {                              \
        return shmem_##NAME##_atomic_fetch_and(d, v, pe);                                          \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_and(CT *d, CT v, int pe) {                                  \
        shmem_##NAME##_atomic_and(d, v, pe);                                                       \
    }                                                                                              \
    static SHMEMI_HD CT shmem_atomic_fetch_or(CT *d, CT v, int pe) {                               \
        return shmem_##NAME##_atomic_fetch_or(d, v, pe);                                           \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_or(CT *d, CT v, int pe) {                                   \
        shmem_##NAME##_atomic_or(d, v, pe);                                                        \
    }                                                                                              \
    static SHMEMI_HD CT shmem_atomic_fetch_xor(CT *d, CT v, int pe) {                              \
        return shmem_##NAME##_atomic_fetch_xor(d, v, pe);                                          \
    }                                                                                              \
    static SHMEMI_HD void shmem_atomic_xor(CT *d, CT v, int pe) {                                  \
        shmem_##NAME##_atomic_xor(d, v, pe);                                                       \
    }
SHMEMI_GEN_AMO_STANDARD_TYPES(SHMEMI_GEN_AMO_S, , )
SHMEMI_GEN_AMO_X(float, float, , )
SHMEMI_GEN_AMO_X(double, double, , )
SHMEMI_GEN_AMO_BITWISE_TYPES(SHMEMI_GEN_AMO_B, , )

#define SHMEMI_GEN_P2P(CT, NAME, P, S)                                                             \
    static SHMEMI_HD int shmem_test(CT *v, int cmp, CT x) {                                        \
        return shmem_##NAME##_test(v, cmp, x);                                                     \
    }
SHMEMI_GEN_P2P_SYNC_TYPES(SHMEMI_GEN_P2P, , )
/* shmem_wait_until(long *, int, long) is the deprecated twin in compat__funcs.h. */
#define SHMEMI_GEN_WAIT_UNTIL(CT, NAME)                                                            \
    static SHMEMI_HD void shmem_wait_until(CT *v, int cmp, CT x) {                                 \
        shmem_##NAME##_wait_until(v, cmp, x);                                                      \
    }
SHMEMI_GEN_WAIT_UNTIL(short, short)
SHMEMI_GEN_WAIT_UNTIL(unsigned short, ushort)
SHMEMI_GEN_WAIT_UNTIL(int, int)
SHMEMI_GEN_WAIT_UNTIL(long long, longlong)
SHMEMI_GEN_WAIT_UNTIL(unsigned int, uint)
SHMEMI_GEN_WAIT_UNTIL(unsigned long, ulong)
SHMEMI_GEN_WAIT_UNTIL(unsigned long long, ulonglong)

static SHMEMI_HD void shmem_signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) {
    shmem_ctx_signal_add(c, sig, v, pe);
}
static SHMEMI_HD void shmem_signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) {
    shmem_ctx_signal_set(c, sig, v, pe);
}

#endif
