/* SPDX-License-Identifier: BSD-3-Clause */
/* Put-with-signal and signal operations (OpenSHMEM 1.6 sections 9.8 and 9.9.x): put_signal,
 * put_signal_nbi (SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD on a uint64_t signal word), signal_fetch,
 * signal_add, signal_set, with shmem_ctx_ forms. shmem_signal_wait_until is in p2p.h. */
#ifndef SHMEM_SIGNAL_H
#define SHMEM_SIGNAL_H

#include <shmem/types.h>
#include <shmem/ctx.h>
#include <shmem/impl/typelists.h>
#include <shmem/impl/generic.h>
#include <shmem/rma.h>

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* shmem_[ctx_]TYPENAME_put_signal: returns when source may be reused (on cpu: data and signal
 * delivered); the signal update (atomic SET or ADD) is a release of this put's data and of every
 * put, AMO and signal issued earlier on ctx to the same PE: a PE that observes the signal with
 * signal_wait_until/wait_until/test (acquire) sees them; scope world. Litmus: MP+putsig+set,
 * MP+putsig+add, MP+put+putsig, MP+put+putsig+2pe, MP+put+putsig+ctx, SIGADD+2, SIGADD+1+first,
 * SIGADD+1+second, SIGADD+oop, SIGADD+oop+all, MP+bp+dflt. */
#define SHMEMI_DECL_PUT_SIGNAL(TYPE, NAME)                                                         \
    void shmem_##NAME##_put_signal(TYPE *dest, const TYPE *source, size_t nelems,                  \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);       \
    void shmem_ctx_##NAME##_put_signal(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,            \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,         \
                                       int sig_op, int pe);                                        \
    void shmem_##NAME##_put_signal_nbi(TYPE *dest, const TYPE *source, size_t nelems,              \
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);   \
    void shmem_ctx_##NAME##_put_signal_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,        \
                                           size_t nelems, uint64_t *sig_addr, uint64_t signal,     \
                                           int sig_op, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_PUT_SIGNAL)
#undef SHMEMI_DECL_PUT_SIGNAL

/* shmem_[ctx_]putSIZE_signal[_nbi]: as the typed forms for elements of SIZE bits. Litmus:
 * MP+putsig+set, MP+putsig+add. */
#define SHMEMI_DECL_PUT_SIGNAL_SIZE(BITS)                                                          \
    void shmem_put##BITS##_signal(void *dest, const void *source, size_t nelems,                   \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);        \
    void shmem_ctx_put##BITS##_signal(shmem_ctx_t ctx, void *dest, const void *source,             \
                                      size_t nelems, uint64_t *sig_addr, uint64_t signal,          \
                                      int sig_op, int pe);                                         \
    void shmem_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems,               \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);    \
    void shmem_ctx_put##BITS##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                          size_t nelems, uint64_t *sig_addr, uint64_t signal,      \
                                          int sig_op, int pe);
SHMEMI_RMA_BITS(SHMEMI_DECL_PUT_SIGNAL_SIZE)
#undef SHMEMI_DECL_PUT_SIGNAL_SIZE

/* Byte put-with-signal; returns when source may be reused (on cpu: delivered); the signal update
 * is a release of this put's data, scope world. Litmus: MP+putsig+set, MP+putsig+add,
 * MP+put+putsig, MP+put+putsig+2pe, MP+put+putsig+ctx, SIGADD+2, SIGADD+1+first, SIGADD+1+second,
 * SIGADD+oop, SIGADD+oop+all, MP+bp+dflt. */
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

/* Non-blocking byte put-with-signal: returns at once, complete at the next quiet on ctx (on cpu:
 * at return); the signal update is a release of this put's data, scope world.
 * Litmus: MP+putsig+set, MP+putsig+add, MP+put+putsig, MP+put+putsig+2pe, MP+put+putsig+ctx,
 * SIGADD+2, SIGADD+1+first, SIGADD+1+second, SIGADD+oop, SIGADD+oop+all, MP+bp+dflt. */
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

/* Returns the value of the local signal word; one atomic load, relaxed like a get (an acquire
 * on the cpu platform), scope world.
 * Litmus: MP+putsig+set, MP+dflt+plain. */
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);

/* Atomically adds signal to the signal word on pe; returns when done (on cpu); relaxed, ordered
 * by fence/quiet on ctx. Litmus: MP+fence+amo, SIGADD+2. */
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

/* Atomically sets the signal word on pe; returns when done (on cpu); relaxed, ordered by
 * fence/quiet on ctx. Litmus: MP+fence+amo. */
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);

SHMEMI_EXTERN_C_END

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define shmem_put_signal(...)                                                                      \
    SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...)                                                                  \
    SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _put_signal_nbi, __VA_ARGS__)
#define shmem_signal_add(...)                                                                      \
    _Generic(SHMEMI_G1(__VA_ARGS__, 0), shmem_ctx_t                                                \
             : shmem_ctx_signal_add, default                                                       \
             : shmem_signal_add)(__VA_ARGS__)
#define shmem_signal_set(...)                                                                      \
    _Generic(SHMEMI_G1(__VA_ARGS__, 0), shmem_ctx_t                                                \
             : shmem_ctx_signal_set, default                                                       \
             : shmem_signal_set)(__VA_ARGS__)
#endif

#ifdef __cplusplus
/* C++ overloads of the generic names; C++ linkage even when included inside extern "C". */
extern "C++" {
#define SHMEMI_CXX_PUT_SIGNAL(TYPE, NAME, P, S)                                                    \
    inline void shmem_put_signal(TYPE *d, const TYPE *s, size_t n, uint64_t *sig, uint64_t v,      \
                                 int op, int pe) {                                                 \
        shmem_##NAME##_put_signal(d, s, n, sig, v, op, pe);                                        \
    }                                                                                              \
    inline void shmem_put_signal(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n, uint64_t *sig,   \
                                 uint64_t v, int op, int pe) {                                     \
        shmem_ctx_##NAME##_put_signal(c, d, s, n, sig, v, op, pe);                                 \
    }                                                                                              \
    inline void shmem_put_signal_nbi(TYPE *d, const TYPE *s, size_t n, uint64_t *sig, uint64_t v,  \
                                     int op, int pe) {                                             \
        shmem_##NAME##_put_signal_nbi(d, s, n, sig, v, op, pe);                                    \
    }                                                                                              \
    inline void shmem_put_signal_nbi(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n,              \
                                     uint64_t *sig, uint64_t v, int op, int pe) {                  \
        shmem_ctx_##NAME##_put_signal_nbi(c, d, s, n, sig, v, op, pe);                             \
    }
SHMEMI_GEN_RMA_TYPES(SHMEMI_CXX_PUT_SIGNAL, , )
#undef SHMEMI_CXX_PUT_SIGNAL
inline void shmem_signal_add(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) {
    shmem_ctx_signal_add(c, sig, v, pe);
}
inline void shmem_signal_set(shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe) {
    shmem_ctx_signal_set(c, sig, v, pe);
}
}
#endif

#endif /* !SHMEMI_DEVICE_TU */

#endif
