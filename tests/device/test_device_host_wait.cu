/* Host code waiting on words of the GPU heap. The host cannot load GPU memory; its waits, tests,
 * signal_fetch and bypass accesses read heap words through the ipc transport, with acquire
 * semantics, and must not wait for the kernels in flight (one of them sets the word).
 *   kernel:  a kernel on the previous PE (this PE with 1 PE) puts a payload with a signal while
 *            the host waits in shmem_signal_wait_until; the kernel is still running then (it waits
 *            for the host's answer before it ends), also through a host quiet and barrier_all,
 *            which must not wait for kernels.
 *   host:    every PE sets its slot of an array on every PE with a host AMO; each host waits with
 *            wait_until_all, wait_until_any, wait_until and the tests.
 *   local:   p, g, atomics and bypass stores/loads of the host on its own heap.
 * Usage: test_device_host_wait [collective|lock]: instead, a host collective or lock on GPU heap
 * memory, which must end the job with a clear message. */
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"

#define WORDS 16

static void barrier_on_stream(void) {
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(gpu_stream_synchronize(0));
}

static __host__ __device__ long payload(int pe, int i) {
    return 7000 + pe * 100 + i;
}

/* Payload and signal to the next PE, then waits for that PE's host to answer on ack. */
__global__ void producer_kernel(long *data, uint64_t *sig, uint64_t *ack) {
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    int me = shmem_my_pe(), n = shmem_n_pes();
    long local[WORDS];
    for (int i = 0; i < WORDS; i++)
        local[i] = payload(me, i);
    shmem_long_put_signal(data, local, WORDS, sig, 42, SHMEM_SIGNAL_SET, (me + 1) % n);
    shmem_quiet();
    shmem_signal_wait_until(ack, SHMEM_CMP_EQ, 1);
}

static int kernel_test(void) {
    int me = shmem_my_pe(), n = shmem_n_pes(), prev = (me + n - 1) % n;
    long *data = (long *)gpu_test_zalloc(WORDS * sizeof(long));
    uint64_t *sig = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    uint64_t *ack = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    barrier_on_stream();
    producer_kernel<<<1, 1>>>(data, sig, ack);
    GPU_CHECK(gpu_get_last_error());
    long errors = 0;
    errors += shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 42) != 42;
    errors += shmem_signal_fetch(sig) != 42;
    errors += shmem_uint64_test(sig, SHMEM_CMP_EQ, 42) != 1;
    for (int i = 0; i < WORDS; i++) {
        errors += shmemx_long_ld_bypass(&data[i]) != payload(prev, i);
        errors += shmem_long_g(&data[i], me) != payload(prev, i);
    }
    /* Every kernel is still running: neither quiet nor barrier_all may wait for it. */
    shmem_quiet();
    shmem_barrier_all();
    shmem_uint64_atomic_set(ack, 1, prev);
    GPU_CHECK(gpu_device_synchronize());
    barrier_on_stream();
    shmem_free(ack);
    shmem_free(sig);
    shmem_free(data);
    return gpu_test_report("host waits on a kernel", errors);
}

static int host_test(void) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t *slots = (uint64_t *)gpu_test_zalloc((size_t)n * sizeof(uint64_t));
    long *flag = (long *)gpu_test_zalloc(sizeof(long));
    barrier_on_stream();
    long errors = 0;
    errors += shmem_uint64_test_any(slots, (size_t)n, NULL, SHMEM_CMP_NE, 0) != SIZE_MAX;
    barrier_on_stream();
    for (int pe = 0; pe < n; pe++)
        shmem_uint64_atomic_set(&slots[me], (uint64_t)me + 1, pe);
    shmem_long_atomic_add(flag, 1, (me + 1) % n);
    shmem_uint64_wait_until_all(slots, (size_t)n, NULL, SHMEM_CMP_NE, 0);
    size_t any = shmem_uint64_wait_until_any(slots, (size_t)n, NULL, SHMEM_CMP_NE, 0);
    errors += any >= (size_t)n;
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
    errors += shmem_long_test(flag, SHMEM_CMP_EQ, 1) != 1;
    errors += shmem_uint64_test_all(slots, (size_t)n, NULL, SHMEM_CMP_NE, 0) != 1;
    for (int pe = 0; pe < n; pe++)
        errors += shmem_uint64_atomic_fetch(&slots[pe], me) != (uint64_t)pe + 1;
    barrier_on_stream();
    shmem_free(flag);
    shmem_free(slots);
    return gpu_test_report("host waits on host AMOs", errors);
}

static int local_test(void) {
    int me = shmem_my_pe();
    long *w = (long *)gpu_test_zalloc(4 * sizeof(long));
    long errors = 0;
    shmem_long_p(&w[0], 11, me);
    shmemx_long_st_bypass(&w[1], 22);
    shmem_long_atomic_set(&w[2], 33, me);
    errors += shmem_long_atomic_fetch_add(&w[2], 1, me) != 33;
    errors += shmem_long_g(&w[0], me) != 11;
    errors += shmemx_long_ld_bypass(&w[1]) != 22;
    errors += shmemx_long_ld_bypass(&w[2]) != 34;
    long host[4];
    GPU_CHECK(gpu_memcpy(host, w, sizeof(host), gpu_memcpy_default));
    errors += host[0] != 11 || host[1] != 22 || host[2] != 34 || host[3] != 0;
    barrier_on_stream();
    shmem_free(w);
    return gpu_test_report("host access to its own heap", errors);
}

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    if (argc > 1 && strcmp(argv[1], "collective") == 0) {
        long *src = (long *)gpu_test_zalloc(WORDS * sizeof(long));
        long *dst = (long *)gpu_test_zalloc(WORDS * sizeof(long));
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, WORDS);
        printf("PE %d: host collective on GPU memory returned\n", shmem_my_pe());
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "lock") == 0) {
        long *lock = (long *)gpu_test_zalloc(sizeof(long));
        shmem_set_lock(lock);
        printf("PE %d: host lock on GPU memory returned\n", shmem_my_pe());
        return 1;
    }
    int fails = kernel_test();
    fails += host_test();
    fails += local_test();
    shmem_finalize();
    return fails ? 1 : 0;
}
