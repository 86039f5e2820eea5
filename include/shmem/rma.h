/* SPDX-License-Identifier: BSD-3-Clause */
/* Remote memory access (OpenSHMEM 1.6 section 9.6): put, get, p, g, iput, iget, ibput, ibget,
 * putmem, getmem, the sized forms put8..put128, and their non-blocking _nbi forms, each with a
 * shmem_ctx_ form. Every typed name exists for every type of the "Standard RMA Types" table.
 * The memory model of every call is in docs/memory_model.md; one line per call below. */
#ifndef SHMEM_RMA_H
#define SHMEM_RMA_H

#include <shmem/types.h>
#include <shmem/ctx.h>
#include <shmem/impl/typelists.h>
#include <shmem/impl/generic.h>

/* The sizes of the sized RMA routines, in bits. */
#define SHMEMI_RMA_BITS(X) X(8) X(16) X(32) X(64) X(128)

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* shmem_[ctx_]TYPENAME_put: returns when source may be reused (on cpu: delivered); words arrive in
 * no fixed order; relaxed, scope world; ordered by fence/quiet on ctx.
 * Litmus: MP+po+amo, MP+fence+amo, MP+quiet+amo, CoWW+put, CoWW+put+fence, CoWR+put. */
#define SHMEMI_DECL_PUT(TYPE, NAME)                                                                \
    void shmem_##NAME##_put(TYPE *dest, const TYPE *source, size_t nelems, int pe);                \
    void shmem_ctx_##NAME##_put(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,    \
                                int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_PUT)
#undef SHMEMI_DECL_PUT

/* shmem_[ctx_]TYPENAME_p: returns when the value may be reused (on cpu: delivered, one atomic
 * store); relaxed, scope world; ordered by fence/quiet on ctx. Litmus: MP+po+amo, MP+fence+amo,
 * MP+quiet+amo, CoWW+put, CoWW+put+fence, CoWR+put. */
#define SHMEMI_DECL_P(TYPE, NAME)                                                                  \
    void shmem_##NAME##_p(TYPE *dest, TYPE value, int pe);                                         \
    void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_P)
#undef SHMEMI_DECL_P

/* shmem_[ctx_]TYPENAME_iput: strided put; returns when source may be reused (on cpu:
 * delivered); relaxed, scope world; ordered by fence/quiet on ctx. Litmus: MP+po+amo, MP+fence+amo,
 * MP+quiet+amo, CoWW+put, CoWW+put+fence, CoWR+put. */
#define SHMEMI_DECL_IPUT(TYPE, NAME)                                                               \
    void shmem_##NAME##_iput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,         \
                             size_t nelems, int pe);                                               \
    void shmem_ctx_##NAME##_iput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,   \
                                 ptrdiff_t sst, size_t nelems, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_IPUT)
#undef SHMEMI_DECL_IPUT

/* shmem_[ctx_]TYPENAME_ibput: blocked strided put (nblocks blocks of bsize elements); returns
 * when source may be reused (on cpu: delivered); relaxed, scope world; ordered by fence/quiet on
 * ctx. Litmus: MP+po+amo, MP+fence+amo, MP+quiet+amo, CoWW+put, CoWW+put+fence, CoWR+put. */
#define SHMEMI_DECL_IBPUT(TYPE, NAME)                                                              \
    void shmem_##NAME##_ibput(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,        \
                              size_t bsize, size_t nblocks, int pe);                               \
    void shmem_ctx_##NAME##_ibput(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,  \
                                  ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_IBPUT)
#undef SHMEMI_DECL_IBPUT

/* shmem_[ctx_]TYPENAME_put_nbi: returns at once; the put completes at the next quiet on ctx (on
 * cpu: already at return); relaxed, scope world; ordered by fence/quiet on ctx.
 * Litmus: MP+quiet+amo, MP+quiet+amo+2pe, MP+po+amo. */
#define SHMEMI_DECL_PUT_NBI(TYPE, NAME)                                                            \
    void shmem_##NAME##_put_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);            \
    void shmem_ctx_##NAME##_put_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,               \
                                    size_t nelems, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_PUT_NBI)
#undef SHMEMI_DECL_PUT_NBI

/* shmem_[ctx_]TYPENAME_get: returns when dest holds the data; relaxed loads, scope world; not
 * ordered by fence (use quiet or a blocking get). Litmus: LB+gets+puts, MP+quiet+get+fence,
 * MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_GET(TYPE, NAME)                                                                \
    void shmem_##NAME##_get(TYPE *dest, const TYPE *source, size_t nelems, int pe);                \
    void shmem_ctx_##NAME##_get(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems,    \
                                int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_GET)
#undef SHMEMI_DECL_GET

/* shmem_[ctx_]TYPENAME_g: returns the value (one atomic load on cpu); relaxed, scope world.
 * Litmus: LB+gets+puts, MP+quiet+get+fence, MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_G(TYPE, NAME)                                                                  \
    TYPE shmem_##NAME##_g(const TYPE *source, int pe);                                             \
    TYPE shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const TYPE *source, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_G)
#undef SHMEMI_DECL_G

/* shmem_[ctx_]TYPENAME_iget: strided get; returns when dest holds the data; relaxed, scope
 * world. Litmus: LB+gets+puts, MP+quiet+get+fence, MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_IGET(TYPE, NAME)                                                               \
    void shmem_##NAME##_iget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,         \
                             size_t nelems, int pe);                                               \
    void shmem_ctx_##NAME##_iget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,   \
                                 ptrdiff_t sst, size_t nelems, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_IGET)
#undef SHMEMI_DECL_IGET

/* shmem_[ctx_]TYPENAME_ibget: blocked strided get; returns when dest holds the data; relaxed,
 * scope world. Litmus: LB+gets+puts, MP+quiet+get+fence, MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_IBGET(TYPE, NAME)                                                              \
    void shmem_##NAME##_ibget(TYPE *dest, const TYPE *source, ptrdiff_t dst, ptrdiff_t sst,        \
                              size_t bsize, size_t nblocks, int pe);                               \
    void shmem_ctx_##NAME##_ibget(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, ptrdiff_t dst,  \
                                  ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_IBGET)
#undef SHMEMI_DECL_IBGET

/* shmem_[ctx_]TYPENAME_get_nbi: returns at once; dest holds the data after the next quiet on
 * ctx (on cpu: already at return); relaxed, scope world. Litmus: LB+gets+puts, MP+quiet+get+fence,
 * MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_GET_NBI(TYPE, NAME)                                                            \
    void shmem_##NAME##_get_nbi(TYPE *dest, const TYPE *source, size_t nelems, int pe);            \
    void shmem_ctx_##NAME##_get_nbi(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,               \
                                    size_t nelems, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_GET_NBI)
#undef SHMEMI_DECL_GET_NBI

/* shmem_[ctx_]putSIZE[_nbi], iputSIZE, ibputSIZE: as the typed puts, for elements of SIZE bits.
 * Returns when source may be reused (nbi: at once; complete at quiet); relaxed, scope world;
 * ordered by fence/quiet on ctx. Litmus: MP+po+amo, MP+fence+amo, MP+quiet+amo, CoWW+put,
 * CoWW+put+fence, CoWR+put. */
#define SHMEMI_DECL_PUT_SIZE(BITS)                                                                 \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);                   \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,       \
                             int pe);                                                              \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);             \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   int pe);                                                        \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                                  \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEMI_RMA_BITS(SHMEMI_DECL_PUT_SIZE)
#undef SHMEMI_DECL_PUT_SIZE

/* shmem_[ctx_]getSIZE[_nbi], igetSIZE, ibgetSIZE: as the typed gets, for elements of SIZE bits.
 * Returns when dest holds the data (nbi: after quiet); relaxed, scope world.
 * Litmus: LB+gets+puts, MP+quiet+get+fence, MP+quiet+get+acquire, WRC+get+quiet. */
#define SHMEMI_DECL_GET_SIZE(BITS)                                                                 \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);                   \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,       \
                             int pe);                                                              \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);             \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   int pe);                                                        \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                                  \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEMI_RMA_BITS(SHMEMI_DECL_GET_SIZE)
#undef SHMEMI_DECL_GET_SIZE

/* Byte puts. Returns when source may be reused (on cpu: delivered); relaxed, scope world;
 * ordered by fence/quiet on ctx. On a BYPASS context, 4 KiB and more use non-temporal stores on
 * x86-64, drained by fence and quiet. Litmus: MP+po+amo, MP+fence+amo, MP+quiet+amo, CoWW+put,
 * CoWW+put+fence, CoWR+put, MP+quiet.bp+amo+bypass. */
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

/* Non-blocking byte puts: return at once, complete at the next quiet on ctx (on cpu: already at
 * return); relaxed, scope world; ordered by fence/quiet on ctx. Litmus: MP+quiet+amo,
 * MP+quiet+amo+2pe, MP+po+amo. */
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

/* Byte gets: return when dest holds the data; relaxed, scope world. Litmus: LB+gets+puts,
 * MP+quiet+get+fence, MP+quiet+get+acquire, WRC+get+quiet. */
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

/* Non-blocking byte gets: dest holds the data after the next quiet on ctx (on cpu: at return);
 * relaxed, scope world. Litmus: LB+gets+puts, MP+quiet+get+fence, MP+quiet+get+acquire,
 * WRC+get+quiet. */
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

SHMEMI_EXTERN_C_END

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* C11 generic names: shmem_put(dest, source, nelems, pe) or shmem_put(ctx, dest, ...). */
#define shmem_put(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _put, __VA_ARGS__)
#define shmem_p(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _p, __VA_ARGS__)
#define shmem_iput(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _iput, __VA_ARGS__)
#define shmem_ibput(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _ibput, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _put_nbi, __VA_ARGS__)
#define shmem_get(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _get, __VA_ARGS__)
#define shmem_g(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GAC, _g, __VA_ARGS__)
#define shmem_iget(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _iget, __VA_ARGS__)
#define shmem_ibget(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _ibget, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEMI_GCALL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, _get_nbi, __VA_ARGS__)
#endif

#ifdef __cplusplus
/* C++ overloads of the generic names; C++ linkage even when included inside extern "C". */
extern "C++" {
#define SHMEMI_CXX_RMA(TYPE, NAME, P, S)                                                           \
    inline void shmem_put(TYPE *d, const TYPE *s, size_t n, int pe) {                              \
        shmem_##NAME##_put(d, s, n, pe);                                                           \
    }                                                                                              \
    inline void shmem_put(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n, int pe) {               \
        shmem_ctx_##NAME##_put(c, d, s, n, pe);                                                    \
    }                                                                                              \
    inline void shmem_put_nbi(TYPE *d, const TYPE *s, size_t n, int pe) {                          \
        shmem_##NAME##_put_nbi(d, s, n, pe);                                                       \
    }                                                                                              \
    inline void shmem_put_nbi(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n, int pe) {           \
        shmem_ctx_##NAME##_put_nbi(c, d, s, n, pe);                                                \
    }                                                                                              \
    inline void shmem_p(TYPE *d, TYPE v, int pe) {                                                 \
        shmem_##NAME##_p(d, v, pe);                                                                \
    }                                                                                              \
    inline void shmem_p(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                                  \
        shmem_ctx_##NAME##_p(c, d, v, pe);                                                         \
    }                                                                                              \
    inline void shmem_iput(TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst, size_t n,         \
                           int pe) {                                                               \
        shmem_##NAME##_iput(d, s, dst, sst, n, pe);                                                \
    }                                                                                              \
    inline void shmem_iput(shmem_ctx_t c, TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst,    \
                           size_t n, int pe) {                                                     \
        shmem_ctx_##NAME##_iput(c, d, s, dst, sst, n, pe);                                         \
    }                                                                                              \
    inline void shmem_ibput(TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,        \
                            size_t nb, int pe) {                                                   \
        shmem_##NAME##_ibput(d, s, dst, sst, b, nb, pe);                                           \
    }                                                                                              \
    inline void shmem_ibput(shmem_ctx_t c, TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst,   \
                            size_t b, size_t nb, int pe) {                                         \
        shmem_ctx_##NAME##_ibput(c, d, s, dst, sst, b, nb, pe);                                    \
    }                                                                                              \
    inline void shmem_get(TYPE *d, const TYPE *s, size_t n, int pe) {                              \
        shmem_##NAME##_get(d, s, n, pe);                                                           \
    }                                                                                              \
    inline void shmem_get(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n, int pe) {               \
        shmem_ctx_##NAME##_get(c, d, s, n, pe);                                                    \
    }                                                                                              \
    inline void shmem_get_nbi(TYPE *d, const TYPE *s, size_t n, int pe) {                          \
        shmem_##NAME##_get_nbi(d, s, n, pe);                                                       \
    }                                                                                              \
    inline void shmem_get_nbi(shmem_ctx_t c, TYPE *d, const TYPE *s, size_t n, int pe) {           \
        shmem_ctx_##NAME##_get_nbi(c, d, s, n, pe);                                                \
    }                                                                                              \
    inline TYPE shmem_g(const TYPE *s, int pe) {                                                   \
        return shmem_##NAME##_g(s, pe);                                                            \
    }                                                                                              \
    inline TYPE shmem_g(shmem_ctx_t c, const TYPE *s, int pe) {                                    \
        return shmem_ctx_##NAME##_g(c, s, pe);                                                     \
    }                                                                                              \
    inline void shmem_iget(TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst, size_t n,         \
                           int pe) {                                                               \
        shmem_##NAME##_iget(d, s, dst, sst, n, pe);                                                \
    }                                                                                              \
    inline void shmem_iget(shmem_ctx_t c, TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst,    \
                           size_t n, int pe) {                                                     \
        shmem_ctx_##NAME##_iget(c, d, s, dst, sst, n, pe);                                         \
    }                                                                                              \
    inline void shmem_ibget(TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst, size_t b,        \
                            size_t nb, int pe) {                                                   \
        shmem_##NAME##_ibget(d, s, dst, sst, b, nb, pe);                                           \
    }                                                                                              \
    inline void shmem_ibget(shmem_ctx_t c, TYPE *d, const TYPE *s, ptrdiff_t dst, ptrdiff_t sst,   \
                            size_t b, size_t nb, int pe) {                                         \
        shmem_ctx_##NAME##_ibget(c, d, s, dst, sst, b, nb, pe);                                    \
    }
SHMEMI_GEN_RMA_TYPES(SHMEMI_CXX_RMA, , )
#undef SHMEMI_CXX_RMA
}
#endif

#endif /* !SHMEMI_DEVICE_TU */

#endif
