/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point synchronization (OpenSHMEM 1.6 section 9.11): wait_until and test in all forms
 * (_all, _any, _some and their _vector variants), shmem_signal_wait_until, and the deprecated
 * shmem_wait, shmem_TYPENAME_wait and shmem_wait_until(long *, ...).
 *
 * Every load of these routines is an acquire: a wait that observes the value written by an AMO
 * or a signal update synchronizes with it. A plain put used as the flag (programs written for
 * OpenSHMEM before 1.5) is also observed on the cpu platform, because waits load the word
 * atomically and a one-element put stores it in one piece; this is compatibility, not a
 * guarantee of the memory model (docs/memory_model.md). Waits spin briefly, then yield the CPU. */
#ifndef SHMEM_P2P_H
#define SHMEM_P2P_H

#include <shmem/types.h>
#include <shmem/ctx.h>
#include <shmem/impl/typelists.h>
#include <shmem/impl/generic.h>

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* shmem_TYPENAME_wait_until: returns once ivar satisfies cmp against cmp_value; acquire loads,
 * scope world. shmem_TYPENAME_test: returns 1 if it does now, else 0; one acquire load.
 * Litmus: MP+fence+amo, MP+quiet+amo, CoRR+wait+plain, MP+fence+put, MP+quiet+put. */
#define SHMEMI_DECL_WAIT(TYPE, NAME)                                                               \
    void shmem_##NAME##_wait_until(TYPE *ivar, int cmp, TYPE cmp_value);                           \
    int shmem_##NAME##_test(TYPE *ivar, int cmp, TYPE cmp_value);
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DECL_WAIT)
#undef SHMEMI_DECL_WAIT

/* Multi-variable forms over ivars[0..nelems) (the specification lists the standard AMO types; short
 * and unsigned short are accepted too, as for wait_until and test) (entries with status[i] != 0 are
 * skipped; status may be NULL). _all: wait for every entry; _any: for one, returns its index
 * (SIZE_MAX when all are skipped); _some: for at least one, returns how many and their indices.
 * _vector forms compare ivars[i] with cmp_values[i]. test_* do the same without blocking (test_any:
 * SIZE_MAX when none, test_some: 0 when none). Acquire loads, scope world. Litmus: MP+fence+amo,
 * CoRR+wait+plain. */
#define SHMEMI_DECL_WAIT_MULTI(TYPE, NAME)                                                         \
    void shmem_##NAME##_wait_until_all(TYPE *ivars, size_t nelems, const int *status, int cmp,     \
                                       TYPE cmp_value);                                            \
    size_t shmem_##NAME##_wait_until_any(TYPE *ivars, size_t nelems, const int *status, int cmp,   \
                                         TYPE cmp_value);                                          \
    size_t shmem_##NAME##_wait_until_some(TYPE *ivars, size_t nelems, size_t *indices,             \
                                          const int *status, int cmp, TYPE cmp_value);             \
    void shmem_##NAME##_wait_until_all_vector(TYPE *ivars, size_t nelems, const int *status,       \
                                              int cmp, const TYPE *cmp_values);                    \
    size_t shmem_##NAME##_wait_until_any_vector(TYPE *ivars, size_t nelems, const int *status,     \
                                                int cmp, const TYPE *cmp_values);                  \
    size_t shmem_##NAME##_wait_until_some_vector(TYPE *ivars, size_t nelems, size_t *indices,      \
                                                 const int *status, int cmp,                       \
                                                 const TYPE *cmp_values);                          \
    int shmem_##NAME##_test_all(TYPE *ivars, size_t nelems, const int *status, int cmp,            \
                                TYPE cmp_value);                                                   \
    size_t shmem_##NAME##_test_any(TYPE *ivars, size_t nelems, const int *status, int cmp,         \
                                   TYPE cmp_value);                                                \
    size_t shmem_##NAME##_test_some(TYPE *ivars, size_t nelems, size_t *indices,                   \
                                    const int *status, int cmp, TYPE cmp_value);                   \
    int shmem_##NAME##_test_all_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,     \
                                       const TYPE *cmp_values);                                    \
    size_t shmem_##NAME##_test_any_vector(TYPE *ivars, size_t nelems, const int *status, int cmp,  \
                                          const TYPE *cmp_values);                                 \
    size_t shmem_##NAME##_test_some_vector(TYPE *ivars, size_t nelems, size_t *indices,            \
                                           const int *status, int cmp, const TYPE *cmp_values);
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DECL_WAIT_MULTI)
#undef SHMEMI_DECL_WAIT_MULTI

/* Returns the value of the local signal word once it satisfies cmp against cmp_value; acquire,
 * scope world: synchronizes with the signal update of put_signal, so the put's data is visible.
 * Litmus: MP+putsig+set, MP+putsig+add, MP+dflt+plain, MP+bp+dflt. */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* Deprecated: shmem_wait_until on long (the pre-C11 name), shmem_wait and shmem_TYPENAME_wait
 * (wait until ivar != cmp_value). Acquire loads, scope world. Litmus: MP+fence+amo,
 * CoRR+wait+plain. */
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
void shmem_wait(long *ivar, long cmp_value);
void shmem_short_wait(short *ivar, short cmp_value);
void shmem_int_wait(int *ivar, int cmp_value);
void shmem_long_wait(long *ivar, long cmp_value);
void shmem_longlong_wait(long long *ivar, long long cmp_value);

SHMEMI_EXTERN_C_END

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define SHMEMI_GP2P(S, ...) SHMEMI_GCALL_NOCTX(SHMEMI_GEN_P2P_SYNC_TYPES, SHMEMI_GA, S, __VA_ARGS__)
#define shmem_wait_until(...)                                                                      \
    SHMEMI_GCALL_NOCTX(SHMEMI_GEN_P2P_SYNC_TYPES, SHMEMI_GA, _wait_until, __VA_ARGS__)
#define shmem_test(...) SHMEMI_GCALL_NOCTX(SHMEMI_GEN_P2P_SYNC_TYPES, SHMEMI_GA, _test, __VA_ARGS__)
#define shmem_wait_until_all(...) SHMEMI_GP2P(_wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEMI_GP2P(_wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEMI_GP2P(_wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SHMEMI_GP2P(_wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SHMEMI_GP2P(_wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SHMEMI_GP2P(_wait_until_some_vector, __VA_ARGS__)
#define shmem_test_all(...) SHMEMI_GP2P(_test_all, __VA_ARGS__)
#define shmem_test_any(...) SHMEMI_GP2P(_test_any, __VA_ARGS__)
#define shmem_test_some(...) SHMEMI_GP2P(_test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEMI_GP2P(_test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEMI_GP2P(_test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SHMEMI_GP2P(_test_some_vector, __VA_ARGS__)
#endif

#ifdef __cplusplus
/* C++ overloads of the generic names; C++ linkage even when included inside extern "C". */
extern "C++" {
#define SHMEMI_CXX_WAIT(TYPE, NAME, P, S)                                                          \
    inline int shmem_test(TYPE *v, int cmp, TYPE x) {                                              \
        return shmem_##NAME##_test(v, cmp, x);                                                     \
    }
#define SHMEMI_CXX_WAIT_UNTIL(TYPE, NAME, P, S)                                                    \
    inline void shmem_wait_until(TYPE *v, int cmp, TYPE x) {                                       \
        shmem_##NAME##_wait_until(v, cmp, x);                                                      \
    }
SHMEMI_GEN_P2P_SYNC_TYPES(SHMEMI_CXX_WAIT, , )
/* shmem_wait_until(long *, int, long) is the C function declared above. */
SHMEMI_CXX_WAIT_UNTIL(short, short, , )
SHMEMI_CXX_WAIT_UNTIL(unsigned short, ushort, , )
SHMEMI_CXX_WAIT_UNTIL(int, int, , )
SHMEMI_CXX_WAIT_UNTIL(long long, longlong, , )
SHMEMI_CXX_WAIT_UNTIL(unsigned int, uint, , )
SHMEMI_CXX_WAIT_UNTIL(unsigned long, ulong, , )
SHMEMI_CXX_WAIT_UNTIL(unsigned long long, ulonglong, , )
#undef SHMEMI_CXX_WAIT
#undef SHMEMI_CXX_WAIT_UNTIL
#define SHMEMI_CXX_WAIT_MULTI(TYPE, NAME, P, S)                                                    \
    inline void shmem_wait_until_all(TYPE *v, size_t n, const int *st, int cmp, TYPE x) {          \
        shmem_##NAME##_wait_until_all(v, n, st, cmp, x);                                           \
    }                                                                                              \
    inline size_t shmem_wait_until_any(TYPE *v, size_t n, const int *st, int cmp, TYPE x) {        \
        return shmem_##NAME##_wait_until_any(v, n, st, cmp, x);                                    \
    }                                                                                              \
    inline size_t shmem_wait_until_some(TYPE *v, size_t n, size_t *idx, const int *st, int cmp,    \
                                        TYPE x) {                                                  \
        return shmem_##NAME##_wait_until_some(v, n, idx, st, cmp, x);                              \
    }                                                                                              \
    inline void shmem_wait_until_all_vector(TYPE *v, size_t n, const int *st, int cmp,             \
                                            const TYPE *x) {                                       \
        shmem_##NAME##_wait_until_all_vector(v, n, st, cmp, x);                                    \
    }                                                                                              \
    inline size_t shmem_wait_until_any_vector(TYPE *v, size_t n, const int *st, int cmp,           \
                                              const TYPE *x) {                                     \
        return shmem_##NAME##_wait_until_any_vector(v, n, st, cmp, x);                             \
    }                                                                                              \
    inline size_t shmem_wait_until_some_vector(TYPE *v, size_t n, size_t *idx, const int *st,      \
                                               int cmp, const TYPE *x) {                           \
        return shmem_##NAME##_wait_until_some_vector(v, n, idx, st, cmp, x);                       \
    }                                                                                              \
    inline int shmem_test_all(TYPE *v, size_t n, const int *st, int cmp, TYPE x) {                 \
        return shmem_##NAME##_test_all(v, n, st, cmp, x);                                          \
    }                                                                                              \
    inline size_t shmem_test_any(TYPE *v, size_t n, const int *st, int cmp, TYPE x) {              \
        return shmem_##NAME##_test_any(v, n, st, cmp, x);                                          \
    }                                                                                              \
    inline size_t shmem_test_some(TYPE *v, size_t n, size_t *idx, const int *st, int cmp,          \
                                  TYPE x) {                                                        \
        return shmem_##NAME##_test_some(v, n, idx, st, cmp, x);                                    \
    }                                                                                              \
    inline int shmem_test_all_vector(TYPE *v, size_t n, const int *st, int cmp, const TYPE *x) {   \
        return shmem_##NAME##_test_all_vector(v, n, st, cmp, x);                                   \
    }                                                                                              \
    inline size_t shmem_test_any_vector(TYPE *v, size_t n, const int *st, int cmp,                 \
                                        const TYPE *x) {                                           \
        return shmem_##NAME##_test_any_vector(v, n, st, cmp, x);                                   \
    }                                                                                              \
    inline size_t shmem_test_some_vector(TYPE *v, size_t n, size_t *idx, const int *st, int cmp,   \
                                         const TYPE *x) {                                          \
        return shmem_##NAME##_test_some_vector(v, n, idx, st, cmp, x);                             \
    }
SHMEMI_GEN_P2P_SYNC_TYPES(SHMEMI_CXX_WAIT_MULTI, , )
#undef SHMEMI_CXX_WAIT_MULTI
}
#endif

#endif /* !SHMEMI_DEVICE_TU */

#endif
