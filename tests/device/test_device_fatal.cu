/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel's fatal error ends the job, whatever the host code does next: after the report, the
 * host goes on as if nothing happened (a barrier, shmem_finalize, return 0), yet the job must end
 * with a non-zero status and never print "reached the end" (ctest checks both). Built with
 * SHMEM_DEVICE_CHECKS=1. Argument: timeout (run with SHMEM_DEVICE_TIMEOUT_MS set), pe or
 * address. */
#include <string.h>

#include "gpu_test.h"

__device__ int not_symmetric;

__global__ void wait_forever(uint64_t *flag) {
    shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, 1);
}
__global__ void bad_pe(int *x) {
    shmem_int_p(x, 1, 99);
}
__global__ void bad_address(void) {
    shmem_int_p(&not_symmetric, 1, 0);
}

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    const char *mode = argc > 1 ? argv[1] : "timeout";
    uint64_t *flag = (uint64_t *)gpu_test_zalloc(128);
    if (strcmp(mode, "pe") == 0)
        bad_pe<<<1, 1>>>((int *)flag);
    else if (strcmp(mode, "address") == 0)
        bad_address<<<1, 1>>>();
    else
        wait_forever<<<1, 1>>>(flag);
    shmemi_gpu_error_t err = shmemi_gpu_device_synchronize();
    printf("PE %d: kernel ended: %s\n", shmem_my_pe(), shmemi_gpu_get_error_string(err));
    fflush(stdout);
    shmem_barrier_all();
    shmem_finalize();
    printf("reached the end\n");
    return 0;
}
