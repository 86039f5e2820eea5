/* SPDX-License-Identifier: BSD-3-Clause */
/* The deprecated cache management routines (include/shmem/setup.h): no effect, because the
 * memory the host routines use is cache-coherent. */
#include "core/shmemi.h"

SHMEMI_API void shmem_clear_cache_inv(void) {}

SHMEMI_API void shmem_set_cache_inv(void) {}

SHMEMI_API void shmem_clear_cache_line_inv(void *dest) {
    (void)dest;
}

SHMEMI_API void shmem_set_cache_line_inv(void *dest) {
    (void)dest;
}

SHMEMI_API void shmem_udcflush(void) {}

SHMEMI_API void shmem_udcflush_line(void *dest) {
    (void)dest;
}
