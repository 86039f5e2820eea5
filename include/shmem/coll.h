/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives (OpenSHMEM 1.6 section "Collective Routines"): broadcast, collect, fcollect,
 * alltoall, alltoalls and the reductions on teams, their deprecated active-set forms with pSync
 * and pWrk, and the C11 generic names. Algorithms and the variables that select them:
 * docs/collectives.md. */
#ifndef SHMEM_COLL_H
#define SHMEM_COLL_H

#include <stddef.h>

#include <shmem/types.h>
#include <shmem/team.h>
#include <shmem/impl/typelists.h>

#ifdef __cplusplus
/* extern "C++": programs may include shmem.h inside an extern "C" block. */
extern "C++" {
#include <complex>
}
#endif

/* Sizes (in longs) of the pSync arrays of the deprecated active-set routines and the value they
 * must hold before first use. The library never writes them, so one array may serve every
 * routine; SHMEM_SYNC_SIZE is the largest of them. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 8
#define SHMEM_BCAST_SYNC_SIZE 8
#define SHMEM_COLLECT_SYNC_SIZE 8
#define SHMEM_REDUCE_SYNC_SIZE 8
#define SHMEM_ALLTOALL_SYNC_SIZE 8
#define SHMEM_ALLTOALLS_SYNC_SIZE 8
#define SHMEM_SYNC_SIZE 8
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* The complex types of the SUM and PROD reductions. */
#ifdef __cplusplus
typedef std::complex<float> shmemi_complexf_t;
typedef std::complex<double> shmemi_complexd_t;
#else
typedef float _Complex shmemi_complexf_t;
typedef double _Complex shmemi_complexd_t;
#endif

/* Table "Reduction Types": SUM and PROD take the MAX/MIN types and the two complex types. */
#define SHMEMI_REDUCE_ARITH_TYPES(X)                                                               \
    SHMEMI_REDUCE_MINMAX_TYPES(X)                                                                  \
    X(shmemi_complexd_t, complexd)                                                                 \
    X(shmemi_complexf_t, complexf)

/* Types of the deprecated shmem_<type>_<op>_to_all routines (OpenSHMEM 1.4 tables). */
#define SHMEMI_TO_ALL_BITWISE_TYPES(X)                                                             \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)
#define SHMEMI_TO_ALL_MINMAX_TYPES(X)                                                              \
    SHMEMI_TO_ALL_BITWISE_TYPES(X)                                                                 \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(long double, longdouble)
#define SHMEMI_TO_ALL_ARITH_TYPES(X)                                                               \
    SHMEMI_TO_ALL_MINMAX_TYPES(X)                                                                  \
    X(shmemi_complexf_t, complexf)                                                                 \
    X(shmemi_complexd_t, complexd)

SHMEMI_EXTERN_C_BEGIN

/* ---- broadcast ------------------------------------------------------------------------------ */

/* Collective over team; returns when dest (on every member, the root included) holds the root's
 * nelems elements and source may be reused; no ordering of other operations. Returns 0. */
#define SHMEMI_DECL_BROADCAST(T, N)                                                                \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root);
SHMEMI_RMA_TYPES(SHMEMI_DECL_BROADCAST)
#undef SHMEMI_DECL_BROADCAST
/* As shmem_<type>_broadcast, nelems in bytes. */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
/* Deprecated (active set, nelems 32- or 64-bit words); as the team form, but the root's dest is
 * not written. pSync is not written. */
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);

/* ---- collect and fcollect ------------------------------------------------------------------- */

/* Collective over team; returns when dest holds every member's source in team order (collect:
 * nelems may differ between members) and source may be reused; no other ordering. Returns 0. */
#define SHMEMI_DECL_COLLECT(T, N)                                                                  \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);           \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEMI_RMA_TYPES(SHMEMI_DECL_COLLECT)
#undef SHMEMI_DECL_COLLECT
/* As the typed forms, nelems in bytes. */
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
/* Deprecated (active set, 32- or 64-bit words). pSync is not written. */
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);

/* ---- alltoall and alltoalls ----------------------------------------------------------------- */

/* Collective over team; returns when dest holds block i of every member j's source at block j
 * (nelems elements per block) and source may be reused; no other ordering. Returns 0. */
#define SHMEMI_DECL_ALLTOALL(T, N)                                                                 \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);          \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems);
SHMEMI_RMA_TYPES(SHMEMI_DECL_ALLTOALL)
#undef SHMEMI_DECL_ALLTOALL
/* As the typed forms, with bytes as elements (nelems, dst and sst count bytes). */
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
/* Deprecated (active set, 32- or 64-bit words). pSync is not written. */
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ---- reductions ----------------------------------------------------------------------------- */

/* Collective over team; returns when dest holds, element-wise, the operation over every member's
 * source and source may be reused; dest may equal source but not overlap it otherwise. Every
 * member gets the same bits. No other ordering. Returns 0. */
#define SHMEMI_DECL_REDUCE(T, N, OP)                                                               \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHMEMI_DECL_REDUCE_BITWISE(T, N)                                                           \
    SHMEMI_DECL_REDUCE(T, N, and) SHMEMI_DECL_REDUCE(T, N, or) SHMEMI_DECL_REDUCE(T, N, xor)
#define SHMEMI_DECL_REDUCE_MINMAX(T, N) SHMEMI_DECL_REDUCE(T, N, max) SHMEMI_DECL_REDUCE(T, N, min)
#define SHMEMI_DECL_REDUCE_ARITH(T, N) SHMEMI_DECL_REDUCE(T, N, sum) SHMEMI_DECL_REDUCE(T, N, prod)
SHMEMI_REDUCE_BITWISE_TYPES(SHMEMI_DECL_REDUCE_BITWISE)
SHMEMI_REDUCE_MINMAX_TYPES(SHMEMI_DECL_REDUCE_MINMAX)
SHMEMI_REDUCE_ARITH_TYPES(SHMEMI_DECL_REDUCE_ARITH)
#undef SHMEMI_DECL_REDUCE_BITWISE
#undef SHMEMI_DECL_REDUCE_MINMAX
#undef SHMEMI_DECL_REDUCE_ARITH
#undef SHMEMI_DECL_REDUCE

/* Deprecated (active set): as the _reduce forms over PE_start, 2^logPE_stride, PE_size. pWrk and
 * pSync are not written. */
#define SHMEMI_DECL_TO_ALL(T, N, OP)                                                               \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,            \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define SHMEMI_DECL_TO_ALL_BITWISE(T, N)                                                           \
    SHMEMI_DECL_TO_ALL(T, N, and) SHMEMI_DECL_TO_ALL(T, N, or) SHMEMI_DECL_TO_ALL(T, N, xor)
#define SHMEMI_DECL_TO_ALL_MINMAX(T, N) SHMEMI_DECL_TO_ALL(T, N, max) SHMEMI_DECL_TO_ALL(T, N, min)
#define SHMEMI_DECL_TO_ALL_ARITH(T, N) SHMEMI_DECL_TO_ALL(T, N, sum) SHMEMI_DECL_TO_ALL(T, N, prod)
SHMEMI_TO_ALL_BITWISE_TYPES(SHMEMI_DECL_TO_ALL_BITWISE)
SHMEMI_TO_ALL_MINMAX_TYPES(SHMEMI_DECL_TO_ALL_MINMAX)
SHMEMI_TO_ALL_ARITH_TYPES(SHMEMI_DECL_TO_ALL_ARITH)
#undef SHMEMI_DECL_TO_ALL_BITWISE
#undef SHMEMI_DECL_TO_ALL_MINMAX
#undef SHMEMI_DECL_TO_ALL_ARITH
#undef SHMEMI_DECL_TO_ALL

SHMEMI_EXTERN_C_END

#if defined(__cplusplus) && defined(__GNUC__)
/* C++ programs that use the GNU complex types of <complex.h> (float _Complex) get overloads of the
 * complex reductions for them; the layout is that of std::complex. __extension__ keeps -pedantic
 * quiet about the GNU type. */
__extension__ typedef float _Complex shmemi_gnu_complexf_t;
__extension__ typedef double _Complex shmemi_gnu_complexd_t;
extern "C++" {
#define SHMEMI_GNU_COMPLEX_REDUCE(N, OP)                                                           \
    static inline int shmem_##N##_##OP##_reduce(shmem_team_t team, shmemi_gnu_##N##_t *dest,       \
                                                const shmemi_gnu_##N##_t *source,                  \
                                                size_t nreduce) {                                  \
        return shmem_##N##_##OP##_reduce(team, reinterpret_cast<shmemi_##N##_t *>(dest),           \
                                         reinterpret_cast<const shmemi_##N##_t *>(source),         \
                                         nreduce);                                                 \
    }                                                                                              \
    static inline void shmem_##N##_##OP##_to_all(                                                  \
        shmemi_gnu_##N##_t *dest, const shmemi_gnu_##N##_t *source, int nreduce, int PE_start,     \
        int logPE_stride, int PE_size, shmemi_gnu_##N##_t *pWrk, long *pSync) {                    \
        shmem_##N##_##OP##_to_all(reinterpret_cast<shmemi_##N##_t *>(dest),                        \
                                  reinterpret_cast<const shmemi_##N##_t *>(source), nreduce,       \
                                  PE_start, logPE_stride, PE_size,                                 \
                                  reinterpret_cast<shmemi_##N##_t *>(pWrk), pSync);                \
    }
SHMEMI_GNU_COMPLEX_REDUCE(complexf, sum)
SHMEMI_GNU_COMPLEX_REDUCE(complexf, prod)
SHMEMI_GNU_COMPLEX_REDUCE(complexd, sum)
SHMEMI_GNU_COMPLEX_REDUCE(complexd, prod)
#undef SHMEMI_GNU_COMPLEX_REDUCE
}
#endif

/* ---- C11 generic names ---------------------------------------------------------------------- */

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
/* A _Generic selection may name each type once; the fixed-width, size_t and ptrdiff_t names are
 * aliases of the standard integer types, so the selections below list the standard types. The
 * bitwise table has no plain signed types: those select the signed fixed-width routine of their
 * width (int8..int64 on LP64 ABIs). */
#define SHMEMI_GENERIC_RMA(dest, OP)                                                               \
    _Generic((dest),                                                                               \
        float *: shmem_float_##OP,                                                                 \
        double *: shmem_double_##OP,                                                               \
        long double *: shmem_longdouble_##OP,                                                      \
        char *: shmem_char_##OP,                                                                   \
        signed char *: shmem_schar_##OP,                                                           \
        short *: shmem_short_##OP,                                                                 \
        int *: shmem_int_##OP,                                                                     \
        long *: shmem_long_##OP,                                                                   \
        long long *: shmem_longlong_##OP,                                                          \
        unsigned char *: shmem_uchar_##OP,                                                         \
        unsigned short *: shmem_ushort_##OP,                                                       \
        unsigned int *: shmem_uint_##OP,                                                           \
        unsigned long *: shmem_ulong_##OP,                                                         \
        unsigned long long *: shmem_ulonglong_##OP)
#define SHMEMI_GENERIC_BITWISE(dest, OP)                                                           \
    _Generic((dest),                                                                               \
        unsigned char *: shmem_uchar_##OP##_reduce,                                                \
        unsigned short *: shmem_ushort_##OP##_reduce,                                              \
        unsigned int *: shmem_uint_##OP##_reduce,                                                  \
        unsigned long *: shmem_ulong_##OP##_reduce,                                                \
        unsigned long long *: shmem_ulonglong_##OP##_reduce,                                       \
        signed char *: shmem_int8_##OP##_reduce,                                                   \
        short *: shmem_int16_##OP##_reduce,                                                        \
        int *: shmem_int32_##OP##_reduce,                                                          \
        long *: shmem_int64_##OP##_reduce)
#define SHMEMI_GENERIC_MINMAX_ASSOC(OP)                                                                                                 \
    char                                                                                                                                \
        * : shmem_char_##OP##_reduce,                                                                                                   \
            signed char                                                                                                                 \
                * : shmem_schar_##OP##_reduce,                                                                                          \
                    short                                                                                                               \
                        * : shmem_short_##OP##_reduce,                                                                                  \
                            int * : shmem_int_##OP##_reduce,                                                                            \
                                    long                                                                                                \
                                        * : shmem_long_##OP##_reduce,                                                                   \
                                            long long                                                                                   \
                                                * : shmem_longlong_##OP##_reduce,                                                       \
                                                    unsigned char                                                                       \
                                                        * : shmem_uchar_##OP##_reduce,                                                  \
                                                            unsigned short                                                              \
                                                                * : shmem_ushort_##OP##_reduce,                                         \
                                                                    unsigned int                                                        \
                                                                        * : shmem_uint_##OP##_reduce,                                   \
                                                                            unsigned long                                               \
                                                                                * : shmem_ulong_##OP##_reduce,                          \
                                                                                    unsigned long long                                  \
                                                                                        * : shmem_ulonglong_##OP##_reduce,              \
                                                                                            float                                       \
                                                                                                * : shmem_float_##OP##_reduce,          \
                                                                                                    double                              \
                                                                                                        * : shmem_double_##OP##_reduce, \
                                                                                                            long double                 \
                                                                                                                * : shmem_longdouble_##OP##_reduce
#define SHMEMI_GENERIC_MINMAX(dest, OP) _Generic((dest), SHMEMI_GENERIC_MINMAX_ASSOC(OP))
#define SHMEMI_GENERIC_ARITH(dest, OP)                                                             \
    _Generic((dest), SHMEMI_GENERIC_MINMAX_ASSOC(OP),                                              \
             double _Complex *: shmem_complexd_##OP##_reduce,                                      \
             float _Complex *: shmem_complexf_##OP##_reduce)

#define shmem_broadcast(team, dest, source, nelems, PE_root)                                       \
    SHMEMI_GENERIC_RMA(dest, broadcast)(team, dest, source, nelems, PE_root)
#define shmem_collect(team, dest, source, nelems)                                                  \
    SHMEMI_GENERIC_RMA(dest, collect)(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems)                                                 \
    SHMEMI_GENERIC_RMA(dest, fcollect)(team, dest, source, nelems)
#define shmem_alltoall(team, dest, source, nelems)                                                 \
    SHMEMI_GENERIC_RMA(dest, alltoall)(team, dest, source, nelems)
#define shmem_alltoalls(team, dest, source, dst, sst, nelems)                                      \
    SHMEMI_GENERIC_RMA(dest, alltoalls)(team, dest, source, dst, sst, nelems)
#define shmem_and_reduce(team, dest, source, nreduce)                                              \
    SHMEMI_GENERIC_BITWISE(dest, and)(team, dest, source, nreduce)
#define shmem_or_reduce(team, dest, source, nreduce)                                               \
    SHMEMI_GENERIC_BITWISE(dest, or)(team, dest, source, nreduce)
#define shmem_xor_reduce(team, dest, source, nreduce)                                              \
    SHMEMI_GENERIC_BITWISE(dest, xor)(team, dest, source, nreduce)
#define shmem_max_reduce(team, dest, source, nreduce)                                              \
    SHMEMI_GENERIC_MINMAX(dest, max)(team, dest, source, nreduce)
#define shmem_min_reduce(team, dest, source, nreduce)                                              \
    SHMEMI_GENERIC_MINMAX(dest, min)(team, dest, source, nreduce)
#define shmem_sum_reduce(team, dest, source, nreduce)                                              \
    SHMEMI_GENERIC_ARITH(dest, sum)(team, dest, source, nreduce)
#define shmem_prod_reduce(team, dest, source, nreduce)                                             \
    SHMEMI_GENERIC_ARITH(dest, prod)(team, dest, source, nreduce)
#define SHMEMI_GENERIC_SCAN(dest, KIND)                                                            \
    _Generic((dest),                                                                               \
        char *: shmem_char_sum_##KIND,                                                             \
        signed char *: shmem_schar_sum_##KIND,                                                     \
        short *: shmem_short_sum_##KIND,                                                           \
        int *: shmem_int_sum_##KIND,                                                               \
        long *: shmem_long_sum_##KIND,                                                             \
        long long *: shmem_longlong_sum_##KIND,                                                    \
        unsigned char *: shmem_uchar_sum_##KIND,                                                   \
        unsigned short *: shmem_ushort_sum_##KIND,                                                 \
        unsigned int *: shmem_uint_sum_##KIND,                                                     \
        unsigned long *: shmem_ulong_sum_##KIND,                                                   \
        unsigned long long *: shmem_ulonglong_sum_##KIND,                                          \
        float *: shmem_float_sum_##KIND,                                                           \
        double *: shmem_double_sum_##KIND,                                                         \
        long double *: shmem_longdouble_sum_##KIND,                                                \
        double _Complex *: shmem_complexd_sum_##KIND,                                              \
        float _Complex *: shmem_complexf_sum_##KIND)
#define shmem_sum_inscan(team, dest, source, nelems)                                               \
    SHMEMI_GENERIC_SCAN(dest, inscan)(team, dest, source, nelems)
#define shmem_sum_exscan(team, dest, source, nelems)                                               \
    SHMEMI_GENERIC_SCAN(dest, exscan)(team, dest, source, nelems)
#endif

#endif
