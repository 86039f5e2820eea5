/* SPDX-License-Identifier: BSD-3-Clause */
/* No silent hangs: with SHMEM_DEVICE_TIMEOUT_MS set, a wait that is never satisfied stops the
 * kernel with a message naming PE, call, address, block and thread (ctest matches it). With
 * SHMEM_DEVICE_CHECKS=1 (this file is also built that way), an out-of-range PE (argument pe) and
 * a warp form called from half a warp (argument warp) are reported. */
#include "gpu_test.h"

__global__ void wait_forever(uint64_t *flag) {
    shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, 1);
}
__global__ void bad_pe(int *x) {
    shmem_int_p(x, 1, shmem_n_pes() + 3);
}
/* Launched with 16 threads: a warp form from half a warp. */
__global__ void partial_warp(char *x) {
    shmemx_putmem_warp(x, x + 64, 64, shmem_my_pe());
}

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    uint64_t *flag = (uint64_t *)gpu_test_zalloc(128);
    if (argc > 1 && argv[1][0] == 'p')
        bad_pe<<<1, 1>>>((int *)flag);
    else if (argc > 1 && argv[1][0] == 'w')
        partial_warp<<<1, 16>>>((char *)flag);
    else
        wait_forever<<<1, 1>>>(flag);
    shmemi_gpu_error_t err = shmemi_gpu_device_synchronize();
    printf("PE %d: kernel ended: %s\n", shmem_my_pe(), shmemi_gpu_get_error_string(err));
    return err == shmemi_gpu_success ? 0 : 1;
}
