/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/host/wait_load.c into libshmem-weak-wait, the copy of the
 * library whose waits and tests load relaxed and so do not acquire; the litmus harness must
 * notice. */
#include "host/rma_internal.h"

/* Found by weaken_marker.cmake in every weakened copy, and never in the library. */
__attribute__((used)) static const char weakened_marker[] = "libshmem test build: weakened";

typedef uint16_t __attribute__((may_alias)) word16_t;
typedef uint32_t __attribute__((may_alias)) word32_t;
typedef uint64_t __attribute__((may_alias)) word64_t;

uint16_t shmemi_wait_load16(const void *p) {
    return __atomic_load_n((const word16_t *)p, __ATOMIC_RELAXED);
}

uint32_t shmemi_wait_load32(const void *p) {
    return __atomic_load_n((const word32_t *)p, __ATOMIC_RELAXED);
}

uint64_t shmemi_wait_load64(const void *p) {
    return __atomic_load_n((const word64_t *)p, __ATOMIC_RELAXED);
}
