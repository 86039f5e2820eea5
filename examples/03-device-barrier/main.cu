/* SPDX-License-Identifier: BSD-3-Clause */
/* Device barrier: a kernel of several blocks on every PE runs rounds separated by barriers of all
 * PEs; within a round every block adds to a counter on PE 0. The kernel is started with
 * shmemx_collective_launch, which checks that all its blocks are resident at once (a block that
 * waits in a barrier must not keep another block of the kernel from running). */
#include <stdint.h>
#include <stdio.h>

#include <shmem.h>

#define ROUNDS 10

__global__ void rounds(uint64_t *counter, uint64_t *seen, unsigned *arrived) {
    int me = shmem_my_pe();
    for (int r = 0; r < ROUNDS; r++) {
        if (threadIdx.x == 0)
            shmem_uint64_atomic_add(counter, 1, 0);
        /* Blocks of this PE meet; the last one to arrive synchronizes with the other PEs. */
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            unsigned ticket = atomicAdd(arrived, 1);
            if (ticket == r * (gridDim.x + 1) + gridDim.x - 1) {
                shmem_barrier_all(); /* every add of this round is complete */
                if (me == 0)
                    seen[r] = shmem_uint64_atomic_fetch(counter, 0);
                shmem_barrier_all();   /* nobody adds for the next round before PE 0 has read */
                atomicAdd(arrived, 1); /* releases this PE's blocks */
            }
            while (atomicAdd(arrived, 0) < (r + 1) * (gridDim.x + 1))
                ;
        }
        __syncthreads();
    }
}

/* A barrier of all PEs from the host, through the stream-ordered form. */
static void barrier(void) {
    shmemx_barrier_all_on_stream(0);
    shmemi_gpu_stream_synchronize(0);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t *counter = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    uint64_t *seen = (uint64_t *)shmem_calloc(ROUNDS, sizeof(uint64_t));
    unsigned *arrived;
    shmemi_gpu_malloc((void **)&arrived, sizeof(unsigned));
    shmemi_gpu_memset(arrived, 0, sizeof(unsigned));
    barrier();
    dim3 grid(4), block(128);
    void *args[] = {&counter, &seen, &arrived};
    int err = shmemx_collective_launch((const void *)rounds, grid, block, args, 0, 0);
    if (err == 0)
        err = (int)shmemi_gpu_device_synchronize();
    int ok = err == 0;
    if (me == 0 && ok) {
        uint64_t host[ROUNDS];
        shmemi_gpu_memcpy(host, seen, sizeof(host), shmemi_gpu_memcpy_default);
        for (int r = 0; r < ROUNDS; r++)
            ok &= host[r] == (uint64_t)(r + 1) * n * grid.x;
        printf("PE 0: after each barrier the counter held rounds x %d PEs x %u blocks: %s\n", n,
               grid.x, ok ? "ok" : "WRONG");
    }
    if (err)
        printf("PE %d: launch or kernel failed (error %d)\n", me, err);
    shmemi_gpu_free(arrived);
    barrier();
    shmem_finalize();
    return !ok;
}
