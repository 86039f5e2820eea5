/* SPDX-License-Identifier: BSD-3-Clause */
/* The type tables of OpenSHMEM 1.6 as X-macros: X(C type, TYPENAME).
 * One list per table of the specification, so every family generates exactly the names the
 * specification lists and nothing else. */
#ifndef SHMEM_IMPL_TYPELISTS_H
#define SHMEM_IMPL_TYPELISTS_H

#include <stddef.h>
#include <stdint.h>

/* Table "Standard RMA Types and Names" without long double, which GPUs cannot represent: the
 * device API's RMA types. */
#define SHMEMI_RMA_TYPES_NO_LONGDOUBLE(X)                                                          \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(char, char)                                                                                  \
    X(signed char, schar)                                                                          \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* Table "Standard RMA Types and Names": put, get, p, g, iput, iget, ibput, ibget, and _nbi. */
#define SHMEMI_RMA_TYPES(X)                                                                        \
    SHMEMI_RMA_TYPES_NO_LONGDOUBLE(X)                                                              \
    X(long double, longdouble)

/* Sized RMA routines: X(bits, C type of that width). */
#define SHMEMI_RMA_SIZES(X)                                                                        \
    X(8, uint8_t)                                                                                  \
    X(16, uint16_t)                                                                                \
    X(32, uint32_t)                                                                                \
    X(64, uint64_t)

/* Table "Standard AMO Types and Names": every AMO. */
#define SHMEMI_AMO_STANDARD_TYPES(X)                                                               \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* Table "Extended AMO Types and Names": fetch, set, swap only (adds to the standard types). */
#define SHMEMI_AMO_EXTENDED_ONLY_TYPES(X)                                                          \
    X(float, float)                                                                                \
    X(double, double)

/* Table "Bitwise AMO Types and Names": and, or, xor and their fetching forms. */
#define SHMEMI_AMO_BITWISE_TYPES(X)                                                                \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)

/* Table "Point-to-Point Synchronization Types and Names": wait_until and test, all forms. */
#define SHMEMI_P2P_SYNC_TYPES(X)                                                                   \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(ptrdiff_t, ptrdiff)

/* Reduction tables: AND, OR, XOR. */
#define SHMEMI_REDUCE_BITWISE_TYPES(X)                                                             \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)

/* Reduction tables: MAX, MIN (and, with the complex types below, SUM and PROD). */
#define SHMEMI_REDUCE_MINMAX_TYPES(X)                                                              \
    X(char, char)                                                                                  \
    X(signed char, schar)                                                                          \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(long long, longlong)                                                                         \
    X(ptrdiff_t, ptrdiff)                                                                          \
    X(unsigned char, uchar)                                                                        \
    X(unsigned short, ushort)                                                                      \
    X(unsigned int, uint)                                                                          \
    X(unsigned long, ulong)                                                                        \
    X(unsigned long long, ulonglong)                                                               \
    X(int8_t, int8)                                                                                \
    X(int16_t, int16)                                                                              \
    X(int32_t, int32)                                                                              \
    X(int64_t, int64)                                                                              \
    X(uint8_t, uint8)                                                                              \
    X(uint16_t, uint16)                                                                            \
    X(uint32_t, uint32)                                                                            \
    X(uint64_t, uint64)                                                                            \
    X(size_t, size)                                                                                \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(long double, longdouble)

#endif
