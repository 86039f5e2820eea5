/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: found before include/shmem/device/impl/quiet_order__funcs.h on the include path of
 * shmem-litmus-weak-quiet-cuda (-hip), the GPU interpreter whose quiet orders nothing; the litmus
 * harness must notice. The include guard is the library header's, which is then never read. */
#ifndef SHMEM_DEVICE_IMPL_QUIET_ORDER__FUNCS_H
#define SHMEM_DEVICE_IMPL_QUIET_ORDER__FUNCS_H

#include <shmem/device/impl/gpu_port.h>

#if SHMEMI_DEVICE_PASS
template <int Bypass> SHMEMI_DI void shmemi_dquiet_order() {}
/* Nor does it send its proxy a QUIET command. */
SHMEMI_DI void shmemi_dquiet_proxy(const char *call, uint64_t pctx) {
    (void)call, (void)pctx;
}
#endif /* SHMEMI_DEVICE_PASS */

#endif /* SHMEM_DEVICE_IMPL_QUIET_ORDER__FUNCS_H */
