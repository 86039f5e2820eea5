/* SPDX-License-Identifier: BSD-3-Clause */
/* Host memory that kernels can also reach: ordinary heap memory unless a GPU platform installed
 * its own allocator. */
#include <stdlib.h>

#include "shmemi.h"

static void *host_shared_calloc(size_t size) {
    return calloc(1, size);
}

static const shmemi_host_shared_ops_t host_shared_cpu_ops = {
    .alloc = host_shared_calloc,
    .free = free,
};

static const shmemi_host_shared_ops_t *host_shared_ops = &host_shared_cpu_ops;

void shmemi_host_shared_set(const shmemi_host_shared_ops_t *ops) {
    if (shmemi_state.initialized)
        shmemi_fatal("shmemi_host_shared_set", "the shared-memory allocator is chosen before "
                                               "shmem_init");
    host_shared_ops = ops;
}

void *shmemi_host_shared_alloc(size_t size) {
    return host_shared_ops->alloc(size);
}

void shmemi_host_shared_free(void *ptr) {
    if (ptr)
        host_shared_ops->free(ptr);
}
