/* SPDX-License-Identifier: BSD-3-Clause */
/* Faults on the proxy path (run with SHMEM_DEVICE_PATH=proxy and SHMEM_DEVICE_TIMEOUT_MS set):
 * each must end the job with a libshmem message and a non-zero status, never a hang, whatever the
 * host does next (it goes on to a barrier and shmem_finalize; ctest checks that "reached the end"
 * is never printed). Modes:
 *   ticket       a kernel takes a ticket and never writes its command: the ring never drains,
 *                and the consumer reports the missing ticket;
 *   trap         a kernel is killed (a trap) while its other threads' puts are in the ring
 *                behind a ticket it took and never wrote;
 *   stalled      the consumer never takes a command (test_device_proxy_stalled, linked with the
 *                library copy whose consumer stops): a fetching AMO waits for its answer and the
 *                kernel reports the ring's state;
 *   stalled-slot the same, with more puts than the ring has slots: a put waits for a free slot;
 *   unreachable  a put whose target runs past the end of the peer's heap: the consumer's
 *                transport cannot carry it out. */
#include <string.h>
#include <unistd.h>

#include "gpu_test.h"

/* Takes a ticket and returns without writing its command (the ring's internals are device code
 * only). */
__global__ void take_ticket_only(void) {
#if SHMEMI_DEVICE_PASS
    (void)shmemi_dproxy_take("take_ticket_only");
#endif
}

/* Thread 0 takes the ring's first ticket and never writes it; once it has, every other thread
 * puts 1 KiB to the peer 64 times (their commands fill the ring behind the missing one), and
 * thread 0 traps a little later, killing the kernel with those commands in the ring. */
__device__ int first_ticket_taken;
__global__ void trap_mid_transfer(char *dest, const char *source, int peer) {
    const int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (t == 0) {
#if SHMEMI_DEVICE_PASS
        (void)shmemi_dproxy_take("trap_mid_transfer");
#endif
        __threadfence();
        atomicExch(&first_ticket_taken, 1);
        const long long start = clock64();
        while (clock64() - start < 2000000) {
        }
        __trap();
    }
    while (atomicAdd(&first_ticket_taken, 0) == 0) {
    }
    for (int i = 0; i < 64; i++)
        shmem_putmem_nbi(dest + (size_t)t * 1024, source + (size_t)t * 1024, 1024, peer);
    shmem_quiet();
}

__global__ void fetch_add(long *x, int peer) {
    (void)shmem_long_atomic_fetch_add(x, 1, peer);
}

/* One long_p per thread: more commands than slots. */
__global__ void many_puts(long *x, int peer) {
    shmem_long_p(x + threadIdx.x, 1, peer);
}

/* A put whose last bytes lie past the end of the symmetric heap. */
__global__ void put_past_heap(const char *source, int peer) {
    char *end = (char *)shmemi_dstate.heap_base + shmemi_dstate.heap_size;
    shmem_putmem(end - 8, source, 64, peer);
}

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    const char *mode = argc > 1 ? argv[1] : "ticket";
    const int me = shmem_my_pe(), peer = (me + 1) % shmem_n_pes();
    char *buf = (char *)gpu_test_zalloc(1 << 20);
    if (me == 0) {
        if (strcmp(mode, "ticket") == 0)
            take_ticket_only<<<1, 1>>>();
        else if (strcmp(mode, "trap") == 0)
            trap_mid_transfer<<<4, 128>>>(buf, buf + (1 << 19), peer);
        else if (strcmp(mode, "stalled") == 0)
            fetch_add<<<1, 1>>>((long *)buf, peer);
        else if (strcmp(mode, "stalled-slot") == 0)
            many_puts<<<1, 1024>>>((long *)buf, peer);
        else
            put_past_heap<<<1, 1>>>(buf, peer);
        shmemi_gpu_error_t err = shmemi_gpu_device_synchronize();
        printf("PE %d: kernel ended: %s\n", me, shmemi_gpu_get_error_string(err));
        fflush(stdout);
        /* A killed kernel's CUDA context is unusable: what ends the job is the consumer's report,
         * within its timeout; the host waits that long before it goes on. */
        if (err != shmemi_gpu_success)
            sleep(8);
    }
    shmem_barrier_all();
    shmem_finalize();
    printf("reached the end\n");
    return 0;
}
