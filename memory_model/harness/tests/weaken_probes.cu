/* SPDX-License-Identifier: BSD-3-Clause */
/* Probe kernels for weaken-isa: quiet, fence and a wait through the public device API, on the
 * load/store path (the proxy's commands use release stores of their own). */
#define SHMEM_DEVICE_PROXY 0
#include <shmem.h>

extern "C" __global__ void probe_quiet() {
    shmem_quiet();
}
extern "C" __global__ void probe_fence() {
    shmem_fence();
}
extern "C" __global__ void probe_wait(long *ivar) {
    shmem_long_wait_until(ivar, SHMEM_CMP_EQ, 1);
}
