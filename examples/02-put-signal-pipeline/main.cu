/* SPDX-License-Identifier: BSD-3-Clause */
/* Put-with-signal producer/consumer between two PEs (two GPUs): PE 0 streams chunks into a ring of
 * slots on PE 1 with shmem_putmem_signal_nbi; PE 1 waits for each chunk's signal, consumes it with
 * plain loads (signal_wait_until acquires) and returns the slot with shmemx_release and a signal of
 * its own (the release keeps the producer's next chunk out of the reads).
 * Litmus: MP+putsig+add, PIPE+putsig+rel+sigadd (docs/memory_model.md, section 6). */
#include <stdint.h>
#include <stdio.h>

#include <shmem.h>
#include <shmemx.h>

#define CHUNK 256 /* 8-byte words */
#define SLOTS 4
#define CHUNKS 1000

struct pipe {
    uint64_t *slots;  /* SLOTS * CHUNK words, written by the producer on the consumer */
    uint64_t *ready;  /* on the consumer: chunks delivered */
    uint64_t *freed;  /* on the producer: chunks consumed */
    uint64_t *result; /* consumer's sum */
};

__global__ void producer(pipe p) {
    __shared__ uint64_t chunk[CHUNK];
    for (int c = 0; c < CHUNKS; c++) {
        if (threadIdx.x == 0 && c >= SLOTS) /* wait until the slot is free again */
            shmem_signal_wait_until(p.freed, SHMEM_CMP_GE, (uint64_t)(c - SLOTS + 1));
        for (int i = threadIdx.x; i < CHUNK; i += blockDim.x)
            chunk[i] = (uint64_t)c * CHUNK + i;
        __syncthreads();
        shmemx_putmem_signal_nbi_block(p.slots + (c % SLOTS) * CHUNK, chunk, sizeof(chunk), p.ready,
                                       1, SHMEM_SIGNAL_ADD, 1);
    }
    shmemx_quiet_block();
}

__global__ void consumer(pipe p) {
    __shared__ uint64_t sum;
    if (threadIdx.x == 0)
        sum = 0;
    for (int c = 0; c < CHUNKS; c++) {
        if (threadIdx.x == 0)
            shmem_signal_wait_until(p.ready, SHMEM_CMP_GE, (uint64_t)c + 1);
        __syncthreads();
        uint64_t local = 0;
        for (int i = threadIdx.x; i < CHUNK; i += blockDim.x)
            local += p.slots[(c % SLOTS) * CHUNK + i];
        atomicAdd((unsigned long long *)&sum, (unsigned long long)local);
        __syncthreads(); /* every thread's reads of the slot before thread 0's release */
        if (threadIdx.x == 0) {
            /* The reads happen before the producer's next put into the slot: a relaxed signal_add
             * alone would let that put land first (LB+ld+sigadd). */
            shmemx_release(SHMEMX_SCOPE_WORLD);
            shmem_signal_add(p.freed, 1, 0); /* slot c % SLOTS is free */
        }
    }
    if (threadIdx.x == 0)
        *p.result = sum;
}

/* A barrier of all PEs from the host, through the stream-ordered form. */
static void barrier(void) {
    shmemx_barrier_all_on_stream(0);
    shmemi_gpu_stream_synchronize(0);
}

int main(void) {
    shmem_init();
    if (shmem_n_pes() != 2) {
        if (shmem_my_pe() == 0)
            printf("run with 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    pipe p;
    p.slots = (uint64_t *)shmem_calloc(SLOTS * CHUNK, sizeof(uint64_t));
    p.ready = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    p.freed = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    p.result = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    /* Both kernels wait for the other PE: launched as docs/gpu.md says. */
    void *args[] = {&p};
    int err = shmemx_collective_launch(shmem_my_pe() == 0 ? (const void *)producer
                                                          : (const void *)consumer,
                                       dim3(1), dim3(256), args, 0, 0);
    if (err == 0)
        err = (int)shmemi_gpu_device_synchronize();
    int ok = err == 0;
    if (err)
        printf("PE %d: launch or kernel failed (error %d)\n", shmem_my_pe(), err);
    if (shmem_my_pe() == 1 && ok) {
        uint64_t sum = 0, n = (uint64_t)CHUNKS * CHUNK, want = n * (n - 1) / 2;
        shmemi_gpu_memcpy(&sum, p.result, sizeof(sum), shmemi_gpu_memcpy_default);
        ok = sum == want;
        printf("consumer: sum %llu, expected %llu: %s\n", (unsigned long long)sum,
               (unsigned long long)want, ok ? "ok" : "WRONG");
    }
    barrier();
    shmem_finalize();
    return !ok;
}
