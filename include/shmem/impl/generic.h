/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers for the C11 _Generic interfaces of the family headers: argument pickers and the lists
 * of distinct C types each generic name dispatches on. The fixed-width and size_t/ptrdiff_t
 * names of the type tables are typedefs of these, so a generic call on them resolves to the
 * function of the same-width base type. */
#ifndef SHMEM_IMPL_GENERIC_H
#define SHMEM_IMPL_GENERIC_H

#include <shmem/types.h>

/* Argument pickers; callers append dummy arguments so that each has enough. */
#define SHMEMI_G1(a, ...) a
#define SHMEMI_G2(a, b, ...) b

/* X(TYPE, TYPENAME, prefix, suffix) over the distinct base types of each table. */
#define SHMEMI_GEN_RMA_TYPES(X, P, S)                                                              \
    X(long double, longdouble, P, S)                                                               \
    SHMEMI_GEN_RMA_TYPES_NO_LONGDOUBLE(X, P, S)

/* The RMA table without long double, which device code does not move. */
#define SHMEMI_GEN_RMA_TYPES_NO_LONGDOUBLE(X, P, S)                                                \
    X(float, float, P, S)                                                                          \
    X(double, double, P, S)                                                                        \
    X(char, char, P, S)                                                                            \
    X(signed char, schar, P, S)                                                                    \
    X(short, short, P, S)                                                                          \
    X(int, int, P, S)                                                                              \
    X(long, long, P, S)                                                                            \
    X(long long, longlong, P, S)                                                                   \
    X(unsigned char, uchar, P, S)                                                                  \
    X(unsigned short, ushort, P, S)                                                                \
    X(unsigned int, uint, P, S)                                                                    \
    X(unsigned long, ulong, P, S)                                                                  \
    X(unsigned long long, ulonglong, P, S)

#define SHMEMI_GEN_AMO_STANDARD_TYPES(X, P, S)                                                     \
    X(int, int, P, S)                                                                              \
    X(long, long, P, S)                                                                            \
    X(long long, longlong, P, S)                                                                   \
    X(unsigned int, uint, P, S)                                                                    \
    X(unsigned long, ulong, P, S)                                                                  \
    X(unsigned long long, ulonglong, P, S)

#define SHMEMI_GEN_AMO_EXTENDED_TYPES(X, P, S)                                                     \
    SHMEMI_GEN_AMO_STANDARD_TYPES(X, P, S)                                                         \
    X(float, float, P, S)                                                                          \
    X(double, double, P, S)

/* The bitwise table has the signed fixed-width types int32_t and int64_t (int and long on the
 * LP64 platforms libshmem supports) besides the unsigned ones. */
#define SHMEMI_GEN_AMO_BITWISE_TYPES(X, P, S)                                                      \
    X(unsigned int, uint, P, S)                                                                    \
    X(unsigned long, ulong, P, S)                                                                  \
    X(unsigned long long, ulonglong, P, S)                                                         \
    X(int32_t, int32, P, S)                                                                        \
    X(int64_t, int64, P, S)

#define SHMEMI_GEN_P2P_SYNC_TYPES(X, P, S)                                                         \
    X(short, short, P, S)                                                                          \
    X(unsigned short, ushort, P, S)                                                                \
    SHMEMI_GEN_AMO_STANDARD_TYPES(X, P, S)

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* Selected when a generic call has an argument of no listed type: the call then fails to
 * compile ("too many arguments"). Never defined. */
void shmemi_generic_type_error(void);

/* One association per type: TYPE * (and const TYPE * for read-only arguments). */
#define SHMEMI_GA(T, N, P, S) T * : P##N##S,
#define SHMEMI_GAC(T, N, P, S) T * : P##N##S, const T * : P##N##S,
#define SHMEMI_GSEL(list, assoc, P, S, x)                                                          \
    _Generic((x), list(assoc, P, S) default : shmemi_generic_type_error)

/* A generic name with a context overload: the first argument is a shmem_ctx_t, or the call is
 * the plain form; either way dispatch on the typed pointer argument that follows. */
#define SHMEMI_GCALL(list, assoc, S, ...)                                                          \
    _Generic(SHMEMI_G1(__VA_ARGS__, 0), shmem_ctx_t                                                \
             : SHMEMI_GSEL(list, assoc, shmem_ctx_, S, SHMEMI_G2(__VA_ARGS__, 0, 0)), default      \
             : SHMEMI_GSEL(list, assoc, shmem_, S, SHMEMI_G1(__VA_ARGS__, 0)))(__VA_ARGS__)

/* A generic name without a context overload. */
#define SHMEMI_GCALL_NOCTX(list, assoc, S, ...)                                                    \
    SHMEMI_GSEL(list, assoc, shmem_, S, SHMEMI_G1(__VA_ARGS__, 0))(__VA_ARGS__)
#endif

#endif
