/* SPDX-License-Identifier: BSD-3-Clause */
/* The device API between PEs over the ipc transport: block puts in a ring, p/g, iput/iget,
 * put-with-signal pipeline with plain loads after the wait (the stale-L1 case), AMOs from every PE,
 * wait_until/test, device barrier, one thread's large puts and put-with-signal and the
 * stream-ordered forms. */
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"

#define N_INTS 4096
#define ROUNDS 200
#define PAYLOAD 64 /* 8-byte words per round */
#define AMO_THREADS 128
#define AMO_ITERS 50
/* Where a peer's heap is not mapped (over the network) every AMO to the delivered GPU heap is a
 * one-thread kernel of the target's, which on a GPU shared by several PEs waits for a time slice
 * of its process (milliseconds): fewer rounds there. */
#define AMO_ITERS_NET 5

struct buffers {
    int *src, *dst;    /* N_INTS each */
    int *pbuf;         /* one int per PE */
    long *strided;     /* 2 * N_INTS */
    uint64_t *payload; /* ROUNDS * PAYLOAD */
    uint64_t *sig;     /* one */
    uint64_t *counter; /* one, on PE 0 */
    unsigned *bits;    /* one */
    uint64_t *flag;    /* one */
    long *errors;      /* local device memory */
};

__global__ void ring_put_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        b.src[i] = me * 100000 + i;
    __syncthreads();
    shmemx_putmem_nbi_block(b.dst, b.src, N_INTS * sizeof(int), (me + 1) % n);
    shmemx_quiet_block();
    shmemx_barrier_all_block();
    int from = (me + n - 1) % n;
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        if (b.dst[i] != from * 100000 + i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
}

__global__ void get_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int peer = (me + 1) % n;
    /* The peer's src holds peer * 100000 + i (ring_put_kernel, then a barrier). */
    shmemx_getmem_block(b.dst, b.src, N_INTS * sizeof(int), peer);
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        if (b.dst[i] != peer * 100000 + i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
}

__global__ void p_g_kernel(buffers b, int phase) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (phase == 0) {
        for (int pe = threadIdx.x; pe < n; pe += blockDim.x)
            shmem_int_p(&b.pbuf[me], me * 7 + pe, pe);
        shmemx_quiet_block();
        shmemx_barrier_all_block();
        for (int pe = threadIdx.x; pe < n; pe += blockDim.x)
            if (b.pbuf[pe] != pe * 7 + me)
                atomicAdd((unsigned long long *)b.errors, 1ull);
    } else {
        for (int pe = threadIdx.x; pe < n; pe += blockDim.x)
            if (shmem_int_g(&b.pbuf[me], pe) != me * 7 + pe)
                atomicAdd((unsigned long long *)b.errors, 1ull);
    }
}

__global__ void strided_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (threadIdx.x != 0)
        return;
    long local[64];
    for (int i = 0; i < 64; i++)
        local[i] = me * 1000 + i;
    shmem_long_iput(b.strided, local, 2, 1, 64, (me + 1) % n);
    shmem_quiet();
    shmem_barrier_all();
    int from = (me + n - 1) % n;
    for (int i = 0; i < 64; i++)
        if (b.strided[2 * i] != from * 1000 + i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
    long back[32];
    shmem_long_iget(back, b.strided, 1, 4, 32, (me + 1) % n);
    for (int i = 0; i < 32; i++)
        if (back[i] != me * 1000 + 2 * i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
}

/* Producer: PE me writes round r's payload to the next PE, signal = r + 1. Consumer: waits for
 * its own signal, then reads the payload with plain loads (they must not hit stale L1 lines). */
__global__ void pipeline_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    __shared__ uint64_t out[PAYLOAD];
    for (int r = 0; r < ROUNDS; r++) {
        if (threadIdx.x < PAYLOAD)
            out[threadIdx.x] = ((uint64_t)me << 40) | ((uint64_t)r << 16) | threadIdx.x;
        __syncthreads();
        if (threadIdx.x == 0)
            shmem_putmem_signal_nbi(b.payload + (size_t)(r % 2) * PAYLOAD, out,
                                    PAYLOAD * sizeof(uint64_t), b.sig, (uint64_t)r + 1,
                                    SHMEM_SIGNAL_SET, next);
        if (threadIdx.x == 0)
            shmem_signal_wait_until(b.sig, SHMEM_CMP_GE, (uint64_t)r + 1);
        __syncthreads();
        if (threadIdx.x < PAYLOAD) {
            uint64_t want = ((uint64_t)prev << 40) | ((uint64_t)r << 16) | threadIdx.x;
            if (b.payload[(size_t)(r % 2) * PAYLOAD + threadIdx.x] != want)
                atomicAdd((unsigned long long *)b.errors, 1ull);
        }
        __syncthreads();
        /* The producer may reuse slot r % 2 only after this PE has read it: a barrier. */
        shmemx_sync_all_block();
    }
}

__global__ void amo_kernel(buffers b, int phase) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    /* The kernels' shared team is the world exactly when every heap is mapped: the same answer
     * on every PE. */
    const int iters = shmem_team_n_pes(SHMEM_TEAM_SHARED) == n ? AMO_ITERS : AMO_ITERS_NET;
    if (phase == 0) {
        for (int i = 0; i < iters; i++)
            shmem_uint64_atomic_fetch_add(b.counter, 1, 0);
        if (threadIdx.x == 0) {
            shmem_uint_atomic_or(b.bits, 1u << (me % 32), 0);
            shmem_uint64_atomic_set(b.flag, 0, (me + 1) % n);
        }
    } else if (threadIdx.x == 0) {
        if (me == 0) {
            uint64_t want = (uint64_t)n * AMO_THREADS * (uint64_t)iters;
            if (shmem_uint64_atomic_fetch(b.counter, 0) != want)
                atomicAdd((unsigned long long *)b.errors, 1ull);
            unsigned want_bits = 0;
            for (int pe = 0; pe < n; pe++)
                want_bits |= 1u << (pe % 32);
            if (shmem_uint_atomic_fetch(b.bits, 0) != want_bits)
                atomicAdd((unsigned long long *)b.errors, 1ull);
        }
        /* compare_swap and swap on the next PE's counter word (only PE 0's counter is used). */
        int next = (me + 1) % n;
        uint64_t old = shmem_uint64_atomic_compare_swap(b.flag, 0, (uint64_t)me + 1, next);
        if (old != 0)
            atomicAdd((unsigned long long *)b.errors, 1ull);
        shmem_barrier_all();
        if (shmem_uint64_atomic_swap(b.flag, 7, me) != (uint64_t)((me + n - 1) % n) + 1)
            atomicAdd((unsigned long long *)b.errors, 1ull);
    }
}

/* Each PE sets the next PE's flag; wait_until and test see it (acquire). */
__global__ void wait_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (threadIdx.x != 0)
        return;
    if (shmem_uint64_test(b.flag, SHMEM_CMP_EQ, 100))
        atomicAdd((unsigned long long *)b.errors, 1ull);
    shmem_barrier_all();
    shmem_uint64_atomic_set(b.flag, 100, (me + 1) % n);
    shmem_uint64_wait_until(b.flag, SHMEM_CMP_EQ, 100);
    if (!shmem_uint64_test(b.flag, SHMEM_CMP_EQ, 100))
        atomicAdd((unsigned long long *)b.errors, 1ull);
}

static long run(const char *what, void (*launch)(buffers, int), buffers b, int arg) {
    GPU_CHECK(shmemi_gpu_memset(b.errors, 0, sizeof(long)));
    launch(b, arg);
    GPU_CHECK(shmemi_gpu_get_last_error());
    GPU_CHECK(shmemi_gpu_device_synchronize());
    long errors = 0;
    GPU_CHECK(shmemi_gpu_memcpy(&errors, b.errors, sizeof(long), shmemi_gpu_memcpy_default));
    return gpu_test_report(what, errors);
}

/* One thread's puts of 16 KiB: from global memory (through the proxy a command that names its
 * source, which the consumer reads with the copy engine, and may change once the put returned)
 * and from shared memory (written into the ring). */
__global__ void thread_put_kernel(buffers b) {
    __shared__ int sh[N_INTS];
    int me = shmem_my_pe(), n = shmem_n_pes(), to = (me + 1) % n, from = (me + n - 1) % n;
    int *from_shared = (int *)b.strided;
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x) {
        b.src[i] = me * 300000 + i;
        sh[i] = me * 700000 + i;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        shmem_putmem(b.dst, b.src, N_INTS * sizeof(int), to);
        b.src[N_INTS - 1] = -1;
        shmem_putmem(from_shared, sh, N_INTS * sizeof(int), to);
        shmem_quiet();
    }
    __syncthreads();
    shmemx_barrier_all_block();
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        if (b.dst[i] != from * 300000 + i || from_shared[i] != from * 700000 + i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
}

/* One thread's put-with-signal of 16 KiB from global memory (through the proxy: all but its last
 * bytes as a command that names its source, then those with the signal), its source changed at
 * once; the receiver waits for the signal with one thread and reads the payload with plain loads
 * from every thread. */
__global__ void thread_put_signal_kernel(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes(), to = (me + 1) % n, from = (me + n - 1) % n;
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        b.src[i] = me * 500000 + i;
    __syncthreads();
    if (threadIdx.x == 0) {
        shmem_putmem_signal(b.dst, b.src, N_INTS * sizeof(int), b.sig, 1000, SHMEM_SIGNAL_SET, to);
        b.src[N_INTS - 1] = -1;
        shmem_signal_wait_until(b.sig, SHMEM_CMP_EQ, 1000);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < N_INTS; i += blockDim.x)
        if (b.dst[i] != from * 500000 + i)
            atomicAdd((unsigned long long *)b.errors, 1ull);
}

static void launch_thread_put(buffers b, int) {
    thread_put_kernel<<<1, 64>>>(b);
}
static void launch_thread_put_signal(buffers b, int) {
    thread_put_signal_kernel<<<1, 64>>>(b);
}

static void launch_ring(buffers b, int) {
    ring_put_kernel<<<1, 256>>>(b);
}
static void launch_get(buffers b, int) {
    get_kernel<<<1, 256>>>(b);
}
static void launch_p_g(buffers b, int phase) {
    p_g_kernel<<<1, 128>>>(b, phase);
}
static void launch_strided(buffers b, int) {
    strided_kernel<<<1, 32>>>(b);
}
static void launch_pipeline(buffers b, int) {
    pipeline_kernel<<<1, 128>>>(b);
}
static void launch_amo(buffers b, int phase) {
    amo_kernel<<<1, AMO_THREADS>>>(b, phase);
}
static void launch_wait(buffers b, int) {
    wait_kernel<<<1, 32>>>(b);
}

/* Stream-ordered forms: put + signal to the next PE, wait on the own signal, check. The get lands
 * in pinned host memory, which the kernel that carries it over the network can write. */
static int stream_test(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int host[256], *got;
    GPU_CHECK(shmemi_gpu_host_alloc((void **)&got, 256 * sizeof(int),
                                    shmemi_gpu_host_alloc_mapped_portable));
    for (int i = 0; i < 256; i++)
        host[i] = me * 31 + i;
    GPU_CHECK(shmemi_gpu_memcpy(b.src, host, sizeof(host), shmemi_gpu_memcpy_default));
    GPU_CHECK(shmemi_gpu_memset(b.sig, 0, sizeof(uint64_t)));
    barrier_on_stream();
    shmemx_putmem_signal_on_stream(b.dst, b.src, sizeof(host), b.sig, 5, SHMEM_SIGNAL_ADD,
                                   (me + 1) % n, 0);
    shmemx_signal_wait_until_on_stream(b.sig, SHMEM_CMP_EQ, 5, 0);
    shmemx_quiet_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    GPU_CHECK(shmemi_gpu_memcpy(got, b.dst, 256 * sizeof(int), shmemi_gpu_memcpy_default));
    long errors = 0;
    int from = (me + n - 1) % n;
    for (int i = 0; i < 256; i++)
        errors += got[i] != from * 31 + i;
    barrier_on_stream();
    shmemx_getmem_on_stream(got, b.src, 256 * sizeof(int), (me + 1) % n, 0);
    shmemx_putmem_on_stream(b.dst, b.src, sizeof(host), me, 0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    for (int i = 0; i < 256; i++)
        errors += got[i] != ((me + 1) % n) * 31 + i;
    GPU_CHECK(shmemi_gpu_host_free(got));
    barrier_on_stream();
    return gpu_test_report("stream-ordered put/signal/get", errors);
}

int main(void) {
    gpu_test_require_gpu();
    shmem_init();
    buffers b;
    b.src = (int *)gpu_test_zalloc(N_INTS * sizeof(int));
    b.dst = (int *)gpu_test_zalloc(N_INTS * sizeof(int));
    b.pbuf = (int *)gpu_test_zalloc((SHMEMI_DEVICE_MAX_PES) * sizeof(int));
    b.strided = (long *)gpu_test_zalloc((2 * N_INTS) * sizeof(long));
    b.payload = (uint64_t *)gpu_test_zalloc((2 * PAYLOAD) * sizeof(uint64_t));
    b.sig = (uint64_t *)gpu_test_zalloc((1) * sizeof(uint64_t));
    b.counter = (uint64_t *)gpu_test_zalloc((1) * sizeof(uint64_t));
    b.bits = (unsigned *)gpu_test_zalloc((1) * sizeof(unsigned));
    b.flag = (uint64_t *)gpu_test_zalloc((1) * sizeof(uint64_t));
    GPU_CHECK(shmemi_gpu_malloc((void **)&b.errors, sizeof(long)));
    barrier_on_stream();
    int fails = 0;
    fails += run("ring putmem_nbi_block", launch_ring, b, 0);
    barrier_on_stream();
    fails += run("getmem_block", launch_get, b, 0);
    barrier_on_stream();
    fails += run("p, barrier_all_block", launch_p_g, b, 0);
    barrier_on_stream();
    fails += run("g", launch_p_g, b, 1);
    barrier_on_stream();
    fails += run("iput/iget", launch_strided, b, 0);
    barrier_on_stream();
    fails += run("put_signal pipeline", launch_pipeline, b, 0);
    barrier_on_stream();
    fails += run("AMOs from every PE", launch_amo, b, 0);
    barrier_on_stream();
    fails += run("AMO results", launch_amo, b, 1);
    barrier_on_stream();
    GPU_CHECK(shmemi_gpu_memset(b.flag, 0, sizeof(uint64_t)));
    barrier_on_stream();
    fails += run("wait_until/test", launch_wait, b, 0);
    barrier_on_stream();
    fails += run("one thread's 16 KiB puts", launch_thread_put, b, 0);
    barrier_on_stream();
    fails += run("one thread's 16 KiB put_signal", launch_thread_put_signal, b, 0);
    barrier_on_stream();
    fails += stream_test(b);
    GPU_CHECK(shmemi_gpu_free(b.errors));
    shmem_finalize();
    return fails ? 1 : 0;
}
