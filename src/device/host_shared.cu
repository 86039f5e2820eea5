/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory that the host and kernels share: pinned host memory mapped into every GPU's address
 * space (with unified addressing, the host pointer is also the device pointer). Context objects
 * live there, so kernels can read the handles that shmem_ctx_create returns. */
#include <string.h>

#include <shmem.h>

#include "transport/ipc/ipc.h"

static void *host_shared_alloc(size_t size) {
    void *p = NULL;
    shmemi_gpu_error_t err = shmemi_gpu_host_alloc(&p, size, shmemi_gpu_host_alloc_mapped_portable);
    if (err != shmemi_gpu_success) {
        shmemi_warn("shmem_ctx_create", "cannot allocate %zu bytes of mapped host memory: %s", size,
                    shmemi_gpu_get_error_string(err));
        return NULL;
    }
    memset(p, 0, size);
    return p;
}

static void host_shared_free(void *p) {
    (void)shmemi_gpu_host_free(p);
}

/* Host data only (as in ipc.cu). */
#if !defined(__HIP_DEVICE_COMPILE__)
static const shmemi_host_shared_ops_t host_shared_gpu_ops = {
    .alloc = host_shared_alloc,
    .free = host_shared_free,
};

__attribute__((constructor)) static void host_shared_select(void) {
    shmemi_host_shared_set(&host_shared_gpu_ops);
}
#endif
