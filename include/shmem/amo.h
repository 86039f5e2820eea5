/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic memory operations (OpenSHMEM 1.6 section 9.7): standard (fetch, set, compare_swap,
 * swap, fetch_inc, inc, fetch_add, add), extended (fetch, set, swap on float and double too),
 * bitwise (fetch_and, and, fetch_or, or, fetch_xor, xor), the fetching _nbi forms, the shmem_ctx_
 * forms, and the names deprecated since 1.4 (shmem_int_finc, shmem_long_cswap, ...).
 * AMOs are relaxed and atomic within one atomicity domain and datatype; fence orders them with
 * other operations to the same PE on the same context (docs/memory_model.md). */
#ifndef SHMEM_AMO_H
#define SHMEM_AMO_H

#include <shmem/types.h>
#include <shmem/ctx.h>
#include <shmem/impl/typelists.h>
#include <shmem/impl/generic.h>

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* Extended AMOs: shmem_[ctx_]TYPENAME_atomic_fetch / _set / _swap and fetch_nbi / swap_nbi.
 * Return (blocking forms) when the operation is done at the target; _nbi forms write *fetch by
 * the next quiet on ctx (on cpu: at return). Relaxed, atomic, scope world; ordered by fence/quiet
 * on ctx. Litmus: AMO+add+add, AMO+add+add+ctx, AMO+add+add+dom, AMO+add+put, AMO+add+st,
 * MP+fence+amo. */
#define SHMEMI_DECL_AMO_EXTENDED(TYPE, NAME)                                                       \
    TYPE shmem_##NAME##_atomic_fetch(const TYPE *source, int pe);                                  \
    TYPE shmem_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const TYPE *source, int pe);             \
    void shmem_##NAME##_atomic_set(TYPE *dest, TYPE value, int pe);                                \
    void shmem_ctx_##NAME##_atomic_set(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);           \
    TYPE shmem_##NAME##_atomic_swap(TYPE *dest, TYPE value, int pe);                               \
    TYPE shmem_ctx_##NAME##_atomic_swap(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);          \
    void shmem_##NAME##_atomic_fetch_nbi(TYPE *fetch, const TYPE *source, int pe);                 \
    void shmem_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, TYPE *fetch, const TYPE *source,     \
                                             int pe);                                              \
    void shmem_##NAME##_atomic_swap_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);              \
    void shmem_ctx_##NAME##_atomic_swap_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE value,  \
                                            int pe);
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DECL_AMO_EXTENDED)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DECL_AMO_EXTENDED)
#undef SHMEMI_DECL_AMO_EXTENDED

/* Standard AMOs: shmem_[ctx_]TYPENAME_atomic_compare_swap / fetch_inc / inc / fetch_add / add and
 * the fetching _nbi forms. Return when done at the target (non-fetching forms: when the operands
 * may be reused; on cpu: done); _nbi forms write *fetch by the next quiet on ctx (on cpu: at
 * return). Relaxed, atomic, scope world; ordered by fence/quiet on ctx.
 * Litmus: AMO+add+add, AMO+add+add+ctx, AMO+add+add+dom, AMO+add+put, AMO+add+st, MP+fence+amo. */
#define SHMEMI_DECL_AMO_STANDARD(TYPE, NAME)                                                       \
    TYPE shmem_##NAME##_atomic_compare_swap(TYPE *dest, TYPE cond, TYPE value, int pe);            \
    TYPE shmem_ctx_##NAME##_atomic_compare_swap(shmem_ctx_t ctx, TYPE *dest, TYPE cond,            \
                                                TYPE value, int pe);                               \
    TYPE shmem_##NAME##_atomic_fetch_inc(TYPE *dest, int pe);                                      \
    TYPE shmem_ctx_##NAME##_atomic_fetch_inc(shmem_ctx_t ctx, TYPE *dest, int pe);                 \
    void shmem_##NAME##_atomic_inc(TYPE *dest, int pe);                                            \
    void shmem_ctx_##NAME##_atomic_inc(shmem_ctx_t ctx, TYPE *dest, int pe);                       \
    TYPE shmem_##NAME##_atomic_fetch_add(TYPE *dest, TYPE value, int pe);                          \
    TYPE shmem_ctx_##NAME##_atomic_fetch_add(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);     \
    void shmem_##NAME##_atomic_add(TYPE *dest, TYPE value, int pe);                                \
    void shmem_ctx_##NAME##_atomic_add(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);           \
    void shmem_##NAME##_atomic_compare_swap_nbi(TYPE *fetch, TYPE *dest, TYPE cond, TYPE value,    \
                                                int pe);                                           \
    void shmem_ctx_##NAME##_atomic_compare_swap_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest,      \
                                                    TYPE cond, TYPE value, int pe);                \
    void shmem_##NAME##_atomic_fetch_inc_nbi(TYPE *fetch, TYPE *dest, int pe);                     \
    void shmem_ctx_##NAME##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest,         \
                                                 int pe);                                          \
    void shmem_##NAME##_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);         \
    void shmem_ctx_##NAME##_atomic_fetch_add_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest,         \
                                                 TYPE value, int pe);
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DECL_AMO_STANDARD)
#undef SHMEMI_DECL_AMO_STANDARD

/* Bitwise AMOs: shmem_[ctx_]TYPENAME_atomic_fetch_and / and / fetch_or / or / fetch_xor / xor and
 * the fetching _nbi forms. Completion and ordering as the standard AMOs: relaxed, atomic, scope
 * world; ordered by fence/quiet on ctx. Litmus: AMO+add+add, AMO+add+add+ctx, AMO+add+add+dom,
 * AMO+add+put, AMO+add+st, MP+fence+amo. */
#define SHMEMI_DECL_AMO_BITWISE_OP(TYPE, NAME, OP)                                                 \
    TYPE shmem_##NAME##_atomic_fetch##OP(TYPE *dest, TYPE value, int pe);                          \
    TYPE shmem_ctx_##NAME##_atomic_fetch##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);     \
    void shmem_##NAME##_atomic##OP(TYPE *dest, TYPE value, int pe);                                \
    void shmem_ctx_##NAME##_atomic##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe);           \
    void shmem_##NAME##_atomic_fetch##OP##_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe);       \
    void shmem_ctx_##NAME##_atomic_fetch##OP##_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest,       \
                                                   TYPE value, int pe);
#define SHMEMI_DECL_AMO_BITWISE(TYPE, NAME)                                                        \
    SHMEMI_DECL_AMO_BITWISE_OP(TYPE, NAME, _and)                                                   \
    SHMEMI_DECL_AMO_BITWISE_OP(TYPE, NAME, _or)                                                    \
    SHMEMI_DECL_AMO_BITWISE_OP(TYPE, NAME, _xor)
SHMEMI_AMO_BITWISE_TYPES(SHMEMI_DECL_AMO_BITWISE)
#undef SHMEMI_DECL_AMO_BITWISE
#undef SHMEMI_DECL_AMO_BITWISE_OP

/* Deprecated (OpenSHMEM 1.4) names: shmem_TYPENAME_cswap, _finc, _inc, _fadd, _add and _swap,
 * _fetch, _set. The specification lists int, long, long long (and float, double for the last
 * three); like other implementations, every type of the standard (extended) AMO table is
 * accepted. Same semantics as the shmem_TYPENAME_atomic_* routine of the same operation. Litmus:
 * AMO+add+add, MP+fence+amo. */
#define SHMEMI_DECL_AMO_DEPRECATED(TYPE, NAME)                                                     \
    TYPE shmem_##NAME##_cswap(TYPE *dest, TYPE cond, TYPE value, int pe);                          \
    TYPE shmem_##NAME##_finc(TYPE *dest, int pe);                                                  \
    void shmem_##NAME##_inc(TYPE *dest, int pe);                                                   \
    TYPE shmem_##NAME##_fadd(TYPE *dest, TYPE value, int pe);                                      \
    void shmem_##NAME##_add(TYPE *dest, TYPE value, int pe);
#define SHMEMI_DECL_AMO_DEPRECATED_EXTENDED(TYPE, NAME)                                            \
    TYPE shmem_##NAME##_swap(TYPE *dest, TYPE value, int pe);                                      \
    TYPE shmem_##NAME##_fetch(const TYPE *source, int pe);                                         \
    void shmem_##NAME##_set(TYPE *dest, TYPE value, int pe);
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DECL_AMO_DEPRECATED)
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DECL_AMO_DEPRECATED_EXTENDED)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DECL_AMO_DEPRECATED_EXTENDED)
#undef SHMEMI_DECL_AMO_DEPRECATED
#undef SHMEMI_DECL_AMO_DEPRECATED_EXTENDED

SHMEMI_EXTERN_C_END

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define SHMEMI_GAMO_X(S, ...) SHMEMI_GCALL(SHMEMI_GEN_AMO_EXTENDED_TYPES, SHMEMI_GA, S, __VA_ARGS__)
#define SHMEMI_GAMO_S(S, ...) SHMEMI_GCALL(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, S, __VA_ARGS__)
#define SHMEMI_GAMO_B(S, ...) SHMEMI_GCALL(SHMEMI_GEN_AMO_BITWISE_TYPES, SHMEMI_GA, S, __VA_ARGS__)
#define shmem_atomic_fetch(...)                                                                    \
    SHMEMI_GCALL(SHMEMI_GEN_AMO_EXTENDED_TYPES, SHMEMI_GAC, _atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEMI_GAMO_X(_atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEMI_GAMO_X(_atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEMI_GAMO_X(_atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEMI_GAMO_X(_atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEMI_GAMO_S(_atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEMI_GAMO_S(_atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEMI_GAMO_S(_atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEMI_GAMO_S(_atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEMI_GAMO_S(_atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SHMEMI_GAMO_S(_atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEMI_GAMO_S(_atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEMI_GAMO_S(_atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEMI_GAMO_B(_atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEMI_GAMO_B(_atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEMI_GAMO_B(_atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEMI_GAMO_B(_atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEMI_GAMO_B(_atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEMI_GAMO_B(_atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEMI_GAMO_B(_atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEMI_GAMO_B(_atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEMI_GAMO_B(_atomic_fetch_xor_nbi, __VA_ARGS__)
/* Deprecated generic names, on the same types as the new ones. */
#define shmem_cswap(...)                                                                           \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, _cswap, __VA_ARGS__)
#define shmem_finc(...)                                                                            \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, _finc, __VA_ARGS__)
#define shmem_inc(...)                                                                             \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, _inc, __VA_ARGS__)
#define shmem_fadd(...)                                                                            \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, _fadd, __VA_ARGS__)
#define shmem_add(...)                                                                             \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_STANDARD_TYPES, SHMEMI_GA, _add, __VA_ARGS__)
#define shmem_swap(...)                                                                            \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_EXTENDED_TYPES, SHMEMI_GA, _swap, __VA_ARGS__)
#define shmem_fetch(...)                                                                           \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_EXTENDED_TYPES, SHMEMI_GAC, _fetch, __VA_ARGS__)
#define shmem_set(...)                                                                             \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_AMO_EXTENDED_TYPES, SHMEMI_GA, _set, __VA_ARGS__)
#endif

#ifdef __cplusplus
/* C++ overloads of the generic names; C++ linkage even when included inside extern "C". */
extern "C++" {
#define SHMEMI_CXX_AMO_EXTENDED(TYPE, NAME, P, S)                                                  \
    inline TYPE shmem_atomic_fetch(const TYPE *s, int pe) {                                        \
        return shmem_##NAME##_atomic_fetch(s, pe);                                                 \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch(shmem_ctx_t c, const TYPE *s, int pe) {                         \
        return shmem_ctx_##NAME##_atomic_fetch(c, s, pe);                                          \
    }                                                                                              \
    inline void shmem_atomic_set(TYPE *d, TYPE v, int pe) {                                        \
        shmem_##NAME##_atomic_set(d, v, pe);                                                       \
    }                                                                                              \
    inline void shmem_atomic_set(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                         \
        shmem_ctx_##NAME##_atomic_set(c, d, v, pe);                                                \
    }                                                                                              \
    inline TYPE shmem_atomic_swap(TYPE *d, TYPE v, int pe) {                                       \
        return shmem_##NAME##_atomic_swap(d, v, pe);                                               \
    }                                                                                              \
    inline TYPE shmem_atomic_swap(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                        \
        return shmem_ctx_##NAME##_atomic_swap(c, d, v, pe);                                        \
    }                                                                                              \
    inline void shmem_atomic_fetch_nbi(TYPE *f, const TYPE *s, int pe) {                           \
        shmem_##NAME##_atomic_fetch_nbi(f, s, pe);                                                 \
    }                                                                                              \
    inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, TYPE *f, const TYPE *s, int pe) {            \
        shmem_ctx_##NAME##_atomic_fetch_nbi(c, f, s, pe);                                          \
    }                                                                                              \
    inline void shmem_atomic_swap_nbi(TYPE *f, TYPE *d, TYPE v, int pe) {                          \
        shmem_##NAME##_atomic_swap_nbi(f, d, v, pe);                                               \
    }                                                                                              \
    inline void shmem_atomic_swap_nbi(shmem_ctx_t c, TYPE *f, TYPE *d, TYPE v, int pe) {           \
        shmem_ctx_##NAME##_atomic_swap_nbi(c, f, d, v, pe);                                        \
    }
SHMEMI_GEN_AMO_EXTENDED_TYPES(SHMEMI_CXX_AMO_EXTENDED, , )
#undef SHMEMI_CXX_AMO_EXTENDED

#define SHMEMI_CXX_AMO_STANDARD(TYPE, NAME, P, S)                                                  \
    inline TYPE shmem_atomic_compare_swap(TYPE *d, TYPE cond, TYPE v, int pe) {                    \
        return shmem_##NAME##_atomic_compare_swap(d, cond, v, pe);                                 \
    }                                                                                              \
    inline TYPE shmem_atomic_compare_swap(shmem_ctx_t c, TYPE *d, TYPE cond, TYPE v, int pe) {     \
        return shmem_ctx_##NAME##_atomic_compare_swap(c, d, cond, v, pe);                          \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch_inc(TYPE *d, int pe) {                                          \
        return shmem_##NAME##_atomic_fetch_inc(d, pe);                                             \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch_inc(shmem_ctx_t c, TYPE *d, int pe) {                           \
        return shmem_ctx_##NAME##_atomic_fetch_inc(c, d, pe);                                      \
    }                                                                                              \
    inline void shmem_atomic_inc(TYPE *d, int pe) {                                                \
        shmem_##NAME##_atomic_inc(d, pe);                                                          \
    }                                                                                              \
    inline void shmem_atomic_inc(shmem_ctx_t c, TYPE *d, int pe) {                                 \
        shmem_ctx_##NAME##_atomic_inc(c, d, pe);                                                   \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch_add(TYPE *d, TYPE v, int pe) {                                  \
        return shmem_##NAME##_atomic_fetch_add(d, v, pe);                                          \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch_add(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                   \
        return shmem_ctx_##NAME##_atomic_fetch_add(c, d, v, pe);                                   \
    }                                                                                              \
    inline void shmem_atomic_add(TYPE *d, TYPE v, int pe) {                                        \
        shmem_##NAME##_atomic_add(d, v, pe);                                                       \
    }                                                                                              \
    inline void shmem_atomic_add(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                         \
        shmem_ctx_##NAME##_atomic_add(c, d, v, pe);                                                \
    }                                                                                              \
    inline void shmem_atomic_compare_swap_nbi(TYPE *f, TYPE *d, TYPE cond, TYPE v, int pe) {       \
        shmem_##NAME##_atomic_compare_swap_nbi(f, d, cond, v, pe);                                 \
    }                                                                                              \
    inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t c, TYPE *f, TYPE *d, TYPE cond, TYPE v,  \
                                              int pe) {                                            \
        shmem_ctx_##NAME##_atomic_compare_swap_nbi(c, f, d, cond, v, pe);                          \
    }                                                                                              \
    inline void shmem_atomic_fetch_inc_nbi(TYPE *f, TYPE *d, int pe) {                             \
        shmem_##NAME##_atomic_fetch_inc_nbi(f, d, pe);                                             \
    }                                                                                              \
    inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t c, TYPE *f, TYPE *d, int pe) {              \
        shmem_ctx_##NAME##_atomic_fetch_inc_nbi(c, f, d, pe);                                      \
    }                                                                                              \
    inline void shmem_atomic_fetch_add_nbi(TYPE *f, TYPE *d, TYPE v, int pe) {                     \
        shmem_##NAME##_atomic_fetch_add_nbi(f, d, v, pe);                                          \
    }                                                                                              \
    inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t c, TYPE *f, TYPE *d, TYPE v, int pe) {      \
        shmem_ctx_##NAME##_atomic_fetch_add_nbi(c, f, d, v, pe);                                   \
    }
SHMEMI_GEN_AMO_STANDARD_TYPES(SHMEMI_CXX_AMO_STANDARD, , )
#undef SHMEMI_CXX_AMO_STANDARD

#define SHMEMI_CXX_AMO_BITWISE_OP(TYPE, NAME, OP)                                                  \
    inline TYPE shmem_atomic_fetch##OP(TYPE *d, TYPE v, int pe) {                                  \
        return shmem_##NAME##_atomic_fetch##OP(d, v, pe);                                          \
    }                                                                                              \
    inline TYPE shmem_atomic_fetch##OP(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                   \
        return shmem_ctx_##NAME##_atomic_fetch##OP(c, d, v, pe);                                   \
    }                                                                                              \
    inline void shmem_atomic##OP(TYPE *d, TYPE v, int pe) {                                        \
        shmem_##NAME##_atomic##OP(d, v, pe);                                                       \
    }                                                                                              \
    inline void shmem_atomic##OP(shmem_ctx_t c, TYPE *d, TYPE v, int pe) {                         \
        shmem_ctx_##NAME##_atomic##OP(c, d, v, pe);                                                \
    }                                                                                              \
    inline void shmem_atomic_fetch##OP##_nbi(TYPE *f, TYPE *d, TYPE v, int pe) {                   \
        shmem_##NAME##_atomic_fetch##OP##_nbi(f, d, v, pe);                                        \
    }                                                                                              \
    inline void shmem_atomic_fetch##OP##_nbi(shmem_ctx_t c, TYPE *f, TYPE *d, TYPE v, int pe) {    \
        shmem_ctx_##NAME##_atomic_fetch##OP##_nbi(c, f, d, v, pe);                                 \
    }
#define SHMEMI_CXX_AMO_BITWISE(TYPE, NAME, P, S)                                                   \
    SHMEMI_CXX_AMO_BITWISE_OP(TYPE, NAME, _and)                                                    \
    SHMEMI_CXX_AMO_BITWISE_OP(TYPE, NAME, _or)                                                     \
    SHMEMI_CXX_AMO_BITWISE_OP(TYPE, NAME, _xor)
SHMEMI_GEN_AMO_BITWISE_TYPES(SHMEMI_CXX_AMO_BITWISE, , )
#undef SHMEMI_CXX_AMO_BITWISE
#undef SHMEMI_CXX_AMO_BITWISE_OP
}
#endif

#endif /* !SHMEMI_DEVICE_TU */

#endif
