/* SPDX-License-Identifier: BSD-3-Clause */
/* The reads of a device wait or test (shmemi_dwait_until and the other waits in ops__funcs.h):
 * alone in their header so that the litmus harness's weakened GPU interpreter can find a
 * test-only header of the same name first on its include path (memory_model/harness/weak/wait/). */
#ifndef SHMEM_DEVICE_IMPL_POLL__FUNCS_H
#define SHMEM_DEVICE_IMPL_POLL__FUNCS_H

#include <shmem/device/impl/gpu_port.h>

#if SHMEMI_DEVICE_PASS
/* One read of a wait or test. Acquire = 0, the spinning poll on every context: an L1-bypassing
 * relaxed system-scope load. Acquire = 1, the default context's read once a poll satisfied the
 * condition: on NVIDIA the word read again with ld.acquire.sys (the caller checks the condition on
 * that value and spins on if it no longer holds); on AMD a read like the poll, followed by
 * shmemi_dpoll_acquire. So plain loads after a default-context wait never see stale cache lines,
 * and only the last read pays for the acquire. BYPASS waits pay for no acquire: their later bypass
 * loads, library operations and stores are issued after the loop exits, and plain loads need
 * shmemx_acquire (docs/memory_model.md, section 5). */
template <int Acquire, typename T> SHMEMI_DI T shmemi_dpoll(const T *p) {
#if defined(__CUDA_ARCH__)
    if (Acquire)
        return shmemi_ld_acquire<SHMEMI_SCOPE_SYSTEM>(p);
#endif
    return shmemi_ld_bypass(p);
}
/* Completes the acquire of shmemi_dpoll<1> reads: AMD's system acquire fence (L2 invalidate);
 * nothing on NVIDIA. */
SHMEMI_DI void shmemi_dpoll_acquire() {
#if defined(__HIP_DEVICE_COMPILE__)
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "");
#endif
}

#endif /* SHMEMI_DEVICE_PASS */

#endif /* SHMEM_DEVICE_IMPL_POLL__FUNCS_H */
