/* SPDX-License-Identifier: BSD-3-Clause */
/* Device code of test_device_module, compiled to a fatbin and loaded at run time with
 * cuModuleLoad: its device state is filled by shmemx_cumodule_init. */
#include <shmem.h>

extern "C" __global__ void module_put(int *slot) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_int_p(slot, 1000 + me, (me + 1) % n);
    shmem_quiet();
}
