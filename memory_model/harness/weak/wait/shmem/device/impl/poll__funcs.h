/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: found before include/shmem/device/impl/poll__funcs.h on the include path of
 * shmem-litmus-weak-wait-cuda (-hip), the GPU interpreter whose waits and tests do not acquire:
 * every read is an L1-bypassing relaxed load and no acquire follows; the litmus harness must
 * notice. The include guard is the library header's, which is then never read. */
#ifndef SHMEM_DEVICE_IMPL_POLL__FUNCS_H
#define SHMEM_DEVICE_IMPL_POLL__FUNCS_H

#include <shmem/device/impl/gpu_port.h>

#if SHMEMI_DEVICE_PASS
template <int Acquire, typename T> SHMEMI_DI T shmemi_dpoll(const T *p) {
    return shmemi_ld_bypass(p);
}
SHMEMI_DI void shmemi_dpoll_acquire() {}
#endif /* SHMEMI_DEVICE_PASS */

#endif /* SHMEM_DEVICE_IMPL_POLL__FUNCS_H */
