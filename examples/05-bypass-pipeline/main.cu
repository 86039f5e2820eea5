/* SPDX-License-Identifier: BSD-3-Clause */
/* The put-with-signal pipeline of example 02 on a BYPASS context: PE 0 streams chunks into a ring
 * of slots on PE 1 with shmemx_ctx_putmem_signal_nbi_block; PE 1 waits with the context's wait,
 * which acquires for everything but plain loads, so it reads even chunks with bypass loads and, for
 * odd chunks, calls shmemx_acquire once and then uses plain loads. Both ways see every chunk whole;
 * shmemx_release before the signal that frees the slot keeps the next chunk out of the reads.
 * Litmus: MP+bp+bypass, MP+bp+acquire, PIPE+bp+bypass+rel, PIPE+bp+acquire+rel
 * (docs/memory_model.md, sections 5 and 6). */
#include <stdint.h>
#include <stdio.h>

#include <shmem.h>
#include <shmemx.h>

#define CHUNK 256 /* 8-byte words */
#define SLOTS 4
#define CHUNKS 1000

struct pipe {
    shmem_ctx_t ctx;  /* a BYPASS context, made on the host */
    uint64_t *slots;  /* SLOTS * CHUNK words, written by the producer on the consumer */
    uint64_t *ready;  /* on the consumer: chunks delivered */
    uint64_t *freed;  /* on the producer: chunks consumed */
    uint64_t *result; /* consumer's sum */
};

/* The value of word i of chunk c. */
__device__ uint64_t word(int c, int i) {
    return ((uint64_t)c * CHUNK + (uint64_t)i) * 2654435761u;
}

__global__ void producer(pipe p) {
    __shared__ uint64_t chunk[CHUNK];
    for (int c = 0; c < CHUNKS; c++) {
        if (threadIdx.x == 0 && c >= SLOTS) /* wait until the slot is free again */
            shmemx_ctx_signal_wait_until(p.ctx, p.freed, SHMEM_CMP_GE, (uint64_t)(c - SLOTS + 1));
        __syncthreads();
        for (int i = threadIdx.x; i < CHUNK; i += blockDim.x)
            chunk[i] = word(c, i);
        __syncthreads();
        shmemx_ctx_putmem_signal_nbi_block(p.ctx, p.slots + (c % SLOTS) * CHUNK, chunk,
                                           sizeof(chunk), p.ready, 1, SHMEM_SIGNAL_ADD, 1);
    }
    shmemx_ctx_quiet_block(p.ctx);
}

__global__ void consumer(pipe p) {
    __shared__ unsigned long long bad;
    if (threadIdx.x == 0)
        bad = 0;
    for (int c = 0; c < CHUNKS; c++) {
        if (threadIdx.x == 0) {
            shmemx_ctx_signal_wait_until(p.ctx, p.ready, SHMEM_CMP_GE, (uint64_t)c + 1);
            if (c % 2) /* plain loads of this chunk follow: acquire first */
                shmemx_acquire(SHMEMX_SCOPE_WORLD);
        }
        __syncthreads();
        const uint64_t *slot = p.slots + (c % SLOTS) * CHUNK;
        for (int i = threadIdx.x; i < CHUNK; i += blockDim.x) {
            uint64_t v = c % 2 ? slot[i] : shmemx_uint64_ld_bypass(&slot[i]);
            if (v != word(c, i))
                atomicAdd(&bad, 1ull);
        }
        __syncthreads(); /* every thread's reads of the slot before thread 0's release */
        if (threadIdx.x == 0) {
            /* The reads happen before the producer's next put into the slot. Neither the relaxed
             * signal_add nor a quiet on the BYPASS context orders them (PIPE+bp+bypass+sigadd). */
            shmemx_release(SHMEMX_SCOPE_WORLD);
            shmem_ctx_signal_add(p.ctx, p.freed, 1, 0); /* slot c % SLOTS is free */
        }
    }
    if (threadIdx.x == 0)
        *p.result = bad;
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
    if (shmem_ctx_create(SHMEMX_CTX_BYPASS, &p.ctx) != 0) {
        printf("PE %d: shmem_ctx_create(SHMEMX_CTX_BYPASS) failed\n", shmem_my_pe());
        shmem_global_exit(1);
    }
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
        uint64_t bad = 1;
        shmemi_gpu_memcpy(&bad, p.result, sizeof(bad), shmemi_gpu_memcpy_default);
        ok = bad == 0;
        printf("consumer: %d chunks, %llu wrong words: %s\n", CHUNKS, (unsigned long long)bad,
               ok ? "ok" : "WRONG");
    }
    barrier();
    shmem_ctx_destroy(p.ctx);
    shmem_finalize();
    return !ok;
}
