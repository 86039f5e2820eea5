/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel's fatal error ends the job, whatever the host code does next: after the report, the
 * host goes on as if nothing happened (a barrier, shmem_finalize, return 0), yet the job must end
 * with a non-zero status and never print "reached the end" (ctest checks both). Built with
 * SHMEM_DEVICE_CHECKS=1. Argument: timeout (run with SHMEM_DEVICE_TIMEOUT_MS set), pe or
 * address. Built without the checks and run with SHMEM_DEVICE_PATH=proxy, the proxy's consumer
 * refuses a context instead: dead_ctx (a put on a destroyed context) or garbage_ctx (a put on a
 * handle that is no context). */
#include <stdlib.h>
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
__global__ void put_on(shmem_ctx_t ctx, int *x) {
    shmem_ctx_int_p(ctx, x, 1, (shmem_my_pe() + 1) % shmem_n_pes());
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
    else if (strcmp(mode, "dead_ctx") == 0) {
        shmem_ctx_t ctx;
        if (shmem_ctx_create(0, &ctx) != 0)
            return 1;
        shmem_ctx_destroy(ctx);
        put_on<<<1, 1>>>(ctx, (int *)flag);
    } else if (strcmp(mode, "garbage_ctx") == 0) {
        /* Host memory with no tag bits: a world-team handle to the kernel, no object to the
         * consumer. */
        static long not_a_context[8];
        put_on<<<1, 1>>>((shmem_ctx_t)not_a_context, (int *)flag);
    } else
        wait_forever<<<1, 1>>>(flag);
    shmemi_gpu_error_t err = shmemi_gpu_device_synchronize();
    printf("PE %d: kernel ended: %s\n", shmem_my_pe(), shmemi_gpu_get_error_string(err));
    fflush(stdout);
    shmem_barrier_all();
    shmem_finalize();
    printf("reached the end\n");
    return 0;
}
