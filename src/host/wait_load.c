/* SPDX-License-Identifier: BSD-3-Clause */
/* The loads of waits and tests (host/p2p.c): acquire loads of the local word, alone in their file
 * so that the litmus harness can link a weakened copy in its place (memory_model/harness/weak/).
 * Each reads a word of 2, 4 or 8 bytes whatever its integer type. */
#include "host/rma_internal.h"

typedef uint16_t __attribute__((may_alias)) word16_t;
typedef uint32_t __attribute__((may_alias)) word32_t;
typedef uint64_t __attribute__((may_alias)) word64_t;

uint16_t shmemi_wait_load16(const void *p) {
    return __atomic_load_n((const word16_t *)p, __ATOMIC_ACQUIRE);
}

uint32_t shmemi_wait_load32(const void *p) {
    return __atomic_load_n((const word32_t *)p, __ATOMIC_ACQUIRE);
}

uint64_t shmemi_wait_load64(const void *p) {
    return __atomic_load_n((const word64_t *)p, __ATOMIC_ACQUIRE);
}
