/* SPDX-License-Identifier: BSD-3-Clause */
/* The fence of a device fence itself (shmemi_dorder_fence in ops__funcs.h) and the proxy's part of
 * it: alone in their header so that the litmus harness's weakened GPU interpreter can find a
 * test-only header of the same name first on its include path (memory_model/harness/weak/fence/).
 * Default context: a system-scope release (acq_rel) fence. BYPASS: a store drain (AMD: no cache
 * writeback); on NVIDIA the same fence as the default context, which the PTX model needs for the
 * relaxed stores. */
#ifndef SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H
#define SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H

#include <shmem/device/impl/gpu_port.h>
#include <shmem/device/impl/proxy__funcs.h>

#if SHMEMI_DEVICE_PASS
template <int Bypass> SHMEMI_DI void shmemi_dfence_order() {
    if (Bypass) {
        shmemi_drain_stores();
#if !defined(__CUDA_ARCH__)
        return;
#endif
    }
    shmemi_fence_acq_rel<SHMEMI_SCOPE_SYSTEM>();
}
/* The proxy's part of a fence, by one thread after the fence: a FENCE command, which orders the
 * ring's earlier commands to every PE before its later ones. */
SHMEMI_DI void shmemi_dfence_proxy(const char *call, uint64_t pctx) {
    shmemi_dproxy_order<0>(call, pctx);
}
#endif /* SHMEMI_DEVICE_PASS */

#endif /* SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H */
