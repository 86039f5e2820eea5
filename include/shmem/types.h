/* SPDX-License-Identifier: BSD-3-Clause */
/* Constants and handle types shared by every API family (OpenSHMEM 1.6 section 9 "Library
 * Constants" and "Library Handles"). No functions here. */
#ifndef SHMEM_TYPES_H
#define SHMEM_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/config.h>

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "libshmem " SHMEM_VERSION_STRING
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* Thread levels (shmem_init_thread, shmem_query_thread). */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* Comparison operators of wait_until and test. */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* Signal operators of put-with-signal. */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* Context options (bit flags, combined with |). SHMEMX_CTX_BYPASS is the cache-bypass relaxation
 * of docs/memory_model.md; the others are the specification's. */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)
#define SHMEMX_CTX_BYPASS (1L << 16)

/* Hints of shmem_malloc_with_hints. */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* A communication context: a handle to an ordering and completion domain. The structure behind
 * it is in shmem/impl/ctx__types.h; the handle's low bits carry its options, so device code
 * reads them without a memory access. */
typedef struct shmemi_ctx *shmem_ctx_t;
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)0)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)(intptr_t)-1)

/* Compile-time switch used by the family headers: in a CUDA or HIP translation unit built against
 * a GPU installation, the functions that also exist on the device are provided as inline
 * __host__ __device__ functions by shmem/device/, so their plain C declarations are hidden. */
#if (SHMEM_PLATFORM != SHMEM_PLATFORM_CPU) && (defined(__CUDACC__) || defined(__HIPCC__))
#define SHMEMI_DEVICE_TU 1
#else
#define SHMEMI_DEVICE_TU 0
#endif

/* A function that does not return (shmem_global_exit): compilers then know that code after it is
 * unreachable and do not warn about, or reason from, the paths that continue past it. */
#if defined(__GNUC__) || defined(__clang__)
#define SHMEMI_NORETURN __attribute__((noreturn))
#else
#define SHMEMI_NORETURN
#endif

#ifdef __cplusplus
#define SHMEMI_EXTERN_C_BEGIN extern "C" {
#define SHMEMI_EXTERN_C_END }
#else
#define SHMEMI_EXTERN_C_BEGIN
#define SHMEMI_EXTERN_C_END
#endif

#endif
