/* SPDX-License-Identifier: BSD-3-Clause */
/* Kernel-initiated ring put: every PE's kernel sends a block of data to the next PE with one
 * block-wide put, completes it with quiet and waits for all PEs with the device barrier. The kernel
 * waits for other PEs, so it is started with shmemx_collective_launch. Litmus: MP+barrier. */
#include <stdio.h>

#include <shmem.h>

#define N 1024

__global__ void ring(int *send, int *recv, int *errors) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        send[i] = me * N + i;
    __syncthreads();
    shmemx_putmem_nbi_block(recv, send, N * sizeof(int), (me + 1) % n); /* to the next PE */
    shmemx_quiet_block();       /* the put is complete and visible */
    shmemx_barrier_all_block(); /* every PE's put has arrived here */
    int from = (me + n - 1) % n;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        if (recv[i] != from * N + i)
            atomicAdd(errors, 1);
}

int main(void) {
    shmem_init();
    int *send = (int *)shmem_malloc(N * sizeof(int));
    int *recv = (int *)shmem_malloc(N * sizeof(int));
    int *errors, host_errors = 0;
    shmemi_gpu_malloc((void **)&errors, sizeof(int));
    shmemi_gpu_memset(errors, 0, sizeof(int));
    void *args[] = {&send, &recv, &errors};
    int err = shmemx_collective_launch((const void *)ring, dim3(1), dim3(256), args, 0, 0);
    if (err == 0)
        err = (int)shmemi_gpu_device_synchronize();
    if (err) {
        printf("PE %d: launch or kernel failed (error %d)\n", shmem_my_pe(), err);
    } else {
        shmemi_gpu_memcpy(&host_errors, errors, sizeof(int), shmemi_gpu_memcpy_default);
        printf("PE %d of %d: received from PE %d: %s\n", shmem_my_pe(), shmem_n_pes(),
               (shmem_my_pe() + shmem_n_pes() - 1) % shmem_n_pes(), host_errors ? "WRONG" : "ok");
    }
    shmemi_gpu_free(errors);
    shmem_free(recv);
    shmem_free(send);
    shmem_finalize();
    return err || host_errors;
}
