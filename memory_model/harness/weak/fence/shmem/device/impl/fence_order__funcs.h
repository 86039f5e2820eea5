/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: found before include/shmem/device/impl/fence_order__funcs.h on the include path of
 * shmem-litmus-weak-fence-cuda (-hip), the GPU interpreter whose fence orders nothing; the litmus
 * harness must notice. The include guard is the library header's, which is then never read. */
#ifndef SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H
#define SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H

#include <shmem/device/impl/gpu_port.h>

#if SHMEMI_DEVICE_PASS
template <int Bypass> SHMEMI_DI void shmemi_dfence_order() {}
/* Nor does it send its proxy a FENCE command. */
SHMEMI_DI void shmemi_dfence_proxy(const char *call, uint64_t pctx) {
    (void)call, (void)pctx;
}
#endif /* SHMEMI_DEVICE_PASS */

#endif /* SHMEM_DEVICE_IMPL_FENCE_ORDER__FUNCS_H */
