/* SPDX-License-Identifier: BSD-3-Clause */
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
 * Usage: test_device_host_wait [collective|lock]: instead, host collectives or a host lock on GPU
 * heap memory, which run through the library's staging area in host memory:
 *   collective: sum and max reductions (int, long, double; 1, 1000 and more elements than the
 *               staging area holds, one in place), broadcast from every root, fcollect, collect,
 *               alltoall and alltoalls on GPU heap buffers, and reductions between the GPU heap and
 *               a global array both ways, each against values computed on the host.
 *   lock:       every PE increments a GPU heap counter on PE 0 under shmem_set_lock 100 times
 *               (a get and a put, not an atomic); the counter ends at 100 x PEs. */
#include <stdint.h>
#include <string.h>

#include "gpu_test.h"

#define WORDS 16

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
    GPU_CHECK(shmemi_gpu_get_last_error());
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
    GPU_CHECK(shmemi_gpu_device_synchronize());
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
    GPU_CHECK(shmemi_gpu_memcpy(host, w, sizeof(host), shmemi_gpu_memcpy_default));
    errors += host[0] != 11 || host[1] != 22 || host[2] != 34 || host[3] != 0;
    barrier_on_stream();
    shmem_free(w);
    return gpu_test_report("host access to its own heap", errors);
}

/* ---- host collectives on the GPU heap ------------------------------------------------------ */

/* More elements of 8 bytes than the 2 MiB staging area holds. */
#define BIG 300000
#define MIXED 1000

static long mixed_host[MIXED];

/* A value in [-1000, 1000] for element i of PE pe in check `seed`: exact in every type tested. */
static long rnd(unsigned seed, int pe, size_t i) {
    uint64_t x = ((uint64_t)seed << 40) ^ ((uint64_t)(unsigned)pe << 32) ^ (uint64_t)i;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (long)(x % 2001) - 1000;
}

template <typename T> static T *gpu_alloc(size_t n) {
    return (T *)gpu_test_zalloc((n ? n : 1) * sizeof(T));
}

/* A copy from pageable memory may return before the data lands, and the library's host calls
 * are not ordered after GPU work in flight (docs/gpu.md): the copy is waited for. */
template <typename T> static void to_gpu(T *dev, const T *host, size_t n) {
    GPU_CHECK(shmemi_gpu_memcpy(dev, host, n * sizeof(T), shmemi_gpu_memcpy_default));
    GPU_CHECK(shmemi_gpu_device_synchronize());
}

template <typename T> static void from_gpu(T *host, const T *dev, size_t n) {
    GPU_CHECK(shmemi_gpu_memcpy(host, dev, n * sizeof(T), shmemi_gpu_memcpy_default));
}

/* Fills host[i] with rnd(seed, pe, i). */
template <typename T> static void fill(T *host, unsigned seed, int pe, size_t n) {
    for (size_t i = 0; i < n; i++)
        host[i] = (T)rnd(seed, pe, i);
}

/* Counts the elements that differ; prints the first one. */
template <typename T> static long count_diff(const T *got, const T *want, size_t n) {
    long errors = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i] && errors++ == 0)
            printf("PE %d: element %zu of %zu is %g, expected %g\n", shmem_my_pe(), i, n,
                   (double)got[i], (double)want[i]);
    }
    return errors;
}

static int int_reduce(int is_max, int *d, const int *s, size_t n) {
    return is_max ? shmem_int_max_reduce(SHMEM_TEAM_WORLD, d, s, n)
                  : shmem_int_sum_reduce(SHMEM_TEAM_WORLD, d, s, n);
}
static int int_reduce(int is_max, long *d, const long *s, size_t n) {
    return is_max ? shmem_long_max_reduce(SHMEM_TEAM_WORLD, d, s, n)
                  : shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s, n);
}
static int int_reduce(int is_max, double *d, const double *s, size_t n) {
    return is_max ? shmem_double_max_reduce(SHMEM_TEAM_WORLD, d, s, n)
                  : shmem_double_sum_reduce(SHMEM_TEAM_WORLD, d, s, n);
}

/* Fills want[i] with the sum (the maximum when is_max) of rnd(seed, pe, i) over every PE. */
template <typename T> static void expect_reduce(T *want, unsigned seed, int is_max, size_t n) {
    for (size_t i = 0; i < n; i++) {
        T acc = (T)rnd(seed, 0, i);
        for (int pe = 1; pe < shmem_n_pes(); pe++) {
            T v = (T)rnd(seed, pe, i);
            acc = is_max ? (v > acc ? v : acc) : (T)(acc + v);
        }
        want[i] = acc;
    }
}

/* One reduction of n elements on GPU heap buffers (in place when in_place), against the host. */
template <typename T> static long reduce_check(unsigned seed, int is_max, size_t n, int in_place) {
    T *src = gpu_alloc<T>(n), *dst = in_place ? src : gpu_alloc<T>(n);
    T *host = (T *)malloc(n * sizeof(T)), *want = (T *)malloc(n * sizeof(T));
    fill(host, seed, shmem_my_pe(), n);
    to_gpu(src, host, n);
    expect_reduce(want, seed, is_max, n);
    long errors = int_reduce(is_max, dst, src, n) != 0;
    from_gpu(host, dst, n);
    errors += count_diff(host, want, n);
    if (!in_place)
        shmem_free(dst);
    shmem_free(src);
    free(want);
    free(host);
    return errors;
}

static long reductions_test(void) {
    static const size_t sizes[] = {1, 1000, BIG};
    long errors = 0;
    unsigned seed = 1;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        for (int is_max = 0; is_max < 2; is_max++) {
            errors += reduce_check<int>(seed++, is_max, sizes[k], 0);
            errors += reduce_check<long>(seed++, is_max, sizes[k], 0);
            errors += reduce_check<double>(seed++, is_max, sizes[k], 0);
        }
    }
    errors += reduce_check<int>(seed++, 0, 1000, 1);
    errors += reduce_check<long>(seed++, 1, BIG, 1);
    return errors;
}

/* A long sum between the GPU heap and a global array: into the global, then out of it. */
static long mixed_test(void) {
    int me = shmem_my_pe();
    long *dev = gpu_alloc<long>(MIXED), host[MIXED], want[MIXED];
    long errors = 0;
    fill(host, 90, me, MIXED);
    to_gpu(dev, host, MIXED);
    expect_reduce(want, 90, 0, MIXED);
    errors += shmem_long_sum_reduce(SHMEM_TEAM_WORLD, mixed_host, dev, MIXED) != 0;
    errors += count_diff(mixed_host, want, MIXED);
    fill(mixed_host, 91, me, MIXED);
    expect_reduce(want, 91, 0, MIXED);
    shmem_barrier_all();
    errors += shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dev, mixed_host, MIXED) != 0;
    from_gpu(host, dev, MIXED);
    errors += count_diff(host, want, MIXED);
    shmem_barrier_all();
    shmem_free(dev);
    return errors;
}

static long broadcast_test(void) {
    static const size_t sizes[] = {1000, BIG};
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long errors = 0;
    for (size_t k = 0; k < 2; k++) {
        size_t n = sizes[k];
        long *src = gpu_alloc<long>(n), *dst = gpu_alloc<long>(n);
        long *host = (long *)malloc(n * sizeof(long)), *want = (long *)malloc(n * sizeof(long));
        for (int root = 0; root < npes; root++) {
            unsigned seed = 100 + (unsigned)(k * 16 + (size_t)root);
            fill(host, seed, me, n);
            to_gpu(src, host, n);
            fill(want, seed, root, n);
            errors += shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, n, root) != 0;
            from_gpu(host, dst, n);
            errors += count_diff(host, want, n);
        }
        shmem_free(dst);
        shmem_free(src);
        free(want);
        free(host);
    }
    return errors;
}

/* fcollect of n elements per PE, or collect of n + 37 * pe elements when vary. */
static long collect_check(unsigned seed, size_t n, int vary) {
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t mine = n + (vary ? 37 * (size_t)me : 0), total = 0;
    for (int pe = 0; pe < npes; pe++)
        total += n + (vary ? 37 * (size_t)pe : 0);
    /* shmem_malloc takes the same size on every PE: the largest block. */
    long *src = gpu_alloc<long>(n + (vary ? 37 * (size_t)(npes - 1) : 0));
    long *dst = gpu_alloc<long>(total);
    long *host = (long *)malloc(total * sizeof(long)), *want = (long *)malloc(total * sizeof(long));
    fill(host, seed, me, mine);
    to_gpu(src, host, mine);
    size_t at = 0;
    for (int pe = 0; pe < npes; pe++) {
        size_t len = n + (vary ? 37 * (size_t)pe : 0);
        fill(want + at, seed, pe, len);
        at += len;
    }
    long errors = (vary ? shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, mine)
                        : shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, n)) != 0;
    from_gpu(host, dst, total);
    errors += count_diff(host, want, total);
    shmem_free(dst);
    shmem_free(src);
    free(want);
    free(host);
    return errors;
}

static long collect_test(void) {
    long errors = collect_check(200, 1000, 0);
    errors += collect_check(201, BIG / 2, 0);
    errors += collect_check(202, 1000, 1);
    errors += collect_check(203, BIG / 2, 1);
    return errors;
}

/* alltoall of n elements per block (strides dst, sst: alltoalls), against the host. */
static long alltoall_check(unsigned seed, size_t n, ptrdiff_t dst_stride, ptrdiff_t sst) {
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t src_len = (size_t)npes * n * (size_t)sst,
           dst_len = (size_t)npes * n * (size_t)dst_stride;
    long *src = gpu_alloc<long>(src_len), *dst = gpu_alloc<long>(dst_len);
    long *host = (long *)malloc(src_len * sizeof(long));
    long *got = (long *)malloc(dst_len * sizeof(long));
    fill(host, seed, me, src_len);
    to_gpu(src, host, src_len);
    long errors = (dst_stride == 1 && sst == 1
                       ? shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, n)
                       : shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, dst_stride, sst, n)) != 0;
    from_gpu(got, dst, dst_len);
    for (int pe = 0; pe < npes; pe++) {
        for (size_t k = 0; k < n; k++) {
            size_t from = ((size_t)me * n + k) * (size_t)sst;
            size_t to = ((size_t)pe * n + k) * (size_t)dst_stride;
            errors += got[to] != rnd(seed, pe, from);
            /* The gaps of a strided dest stay as they were (zero). */
            for (ptrdiff_t g = 1; g < dst_stride; g++)
                errors += got[to + (size_t)g] != 0;
        }
    }
    shmem_free(dst);
    shmem_free(src);
    free(got);
    free(host);
    return errors;
}

static long alltoall_test(void) {
    long errors = alltoall_check(300, 1000, 1, 1);
    errors += alltoall_check(301, BIG / 2, 1, 1);
    errors += alltoall_check(302, 100, 2, 3);
    return errors;
}

static int collective_test(void) {
    int fails = gpu_test_report("host reductions on GPU heap", reductions_test());
    fails += gpu_test_report("host reductions, mixed", mixed_test());
    fails += gpu_test_report("host broadcast on GPU heap", broadcast_test());
    fails += gpu_test_report("host collect on GPU heap", collect_test());
    fails += gpu_test_report("host alltoall on GPU heap", alltoall_test());
    return fails;
}

/* ---- host lock on the GPU heap -------------------------------------------------------------- */

static int lock_test(void) {
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *lock = gpu_alloc<long>(1), *counter = gpu_alloc<long>(1);
    barrier_on_stream();
    for (int k = 0; k < 100; k++) {
        shmem_set_lock(lock);
        long v = shmem_long_g(counter, 0);
        shmem_long_p(counter, v + 1, 0);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    long errors = shmem_long_g(counter, 0) != 100L * npes;
    if (me == 0) {
        errors += shmem_test_lock(lock) != 0;
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    shmem_free(counter);
    shmem_free(lock);
    return gpu_test_report("host lock on GPU heap", errors);
}

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    int fails;
    if (argc > 1 && strcmp(argv[1], "collective") == 0) {
        fails = collective_test();
    } else if (argc > 1 && strcmp(argv[1], "lock") == 0) {
        fails = lock_test();
    } else {
        fails = kernel_test();
        fails += host_test();
        fails += local_test();
    }
    shmem_finalize();
    return fails ? 1 : 0;
}
