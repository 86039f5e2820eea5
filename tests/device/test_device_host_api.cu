/* SPDX-License-Identifier: BSD-3-Clause */
/* The host side of a GPU program: the host API on the GPU heap (putmem, getmem, AMOs from the
 * host into GPU memory through the ipc transport; put_nbi completed by quiet) and contexts created
 * on the host used by kernels (a BYPASS context: puts, quiet and the non-acquiring signal wait). */
#include <stdint.h>
#include <stdlib.h>

#include "gpu_test.h"

/* The host API on the GPU heap: putmem / getmem / AMO from the host into GPU memory. */
struct buffers {
    int *dst;
};

static int host_api_test(buffers b) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int vals[16], got[16];
    for (int i = 0; i < 16; i++)
        vals[i] = 5000 + me * 16 + i;
    barrier_on_stream();
    shmem_putmem(b.dst, vals, sizeof(vals), (me + 1) % n);
    shmem_quiet();
    barrier_on_stream();
    GPU_CHECK(shmemi_gpu_memcpy(got, b.dst, sizeof(got), shmemi_gpu_memcpy_default));
    long errors = 0;
    int from = (me + n - 1) % n;
    for (int i = 0; i < 16; i++)
        errors += got[i] != 5000 + from * 16 + i;
    shmem_getmem(got, b.dst, sizeof(got), (me + 1) % n);
    for (int i = 0; i < 16; i++)
        errors += got[i] != 5000 + me * 16 + i;
    barrier_on_stream();
    return gpu_test_report("host API on the GPU heap", errors);
}

/* Host RMA between the GPU heap and global variables (symmetric host memory): a put from the GPU
 * heap into the next PE's global, a get from its global into the GPU heap, strided forms too. */
static long global_dst[16];
static long global_src[16];

static int host_global_test(void) {
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    long *heap = (long *)gpu_test_zalloc(32 * sizeof(long));
    long vals[16], got[32];
    for (int i = 0; i < 16; i++) {
        vals[i] = 9000 + me * 16 + i;
        global_src[i] = 7000 + me * 16 + i;
        global_dst[i] = -1;
    }
    GPU_CHECK(shmemi_gpu_memcpy(heap, vals, sizeof(vals), shmemi_gpu_memcpy_default));
    barrier_on_stream();
    shmem_long_put(global_dst, heap, 8, next);
    shmem_long_iput(global_dst + 8, heap + 8, 1, 1, 8, next);
    shmem_long_get(heap + 16, global_src, 8, next);
    shmem_long_iget(heap + 24, global_src + 8, 1, 1, 8, next);
    shmem_quiet();
    barrier_on_stream();
    GPU_CHECK(shmemi_gpu_memcpy(got, heap, sizeof(got), shmemi_gpu_memcpy_default));
    long errors = 0;
    for (int i = 0; i < 16; i++) {
        errors += global_dst[i] != 9000 + prev * 16 + i;
        errors += got[16 + i] != 7000 + next * 16 + i;
    }
    barrier_on_stream();
    shmem_free(heap);
    return gpu_test_report("host RMA, GPU heap <-> globals", errors);
}

/* A non-blocking host put from pinned memory into the next PE's GPU heap runs on the copy engine
 * after it returns; shmem_quiet waits for it. The flag then goes by host memory (a global: a store,
 * not a copy behind the put's), and the next PE reads its heap on its own stream: every byte is
 * there. */
static long nbi_flag;

static int host_put_nbi_test(void) {
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
    const size_t count = (size_t)4 << 20; /* 32 MiB of longs: a copy of milliseconds */
    long *dst = (long *)gpu_test_zalloc(count * sizeof(long));
    long *src = NULL, *got = (long *)malloc(count * sizeof(long));
    GPU_CHECK(shmemi_gpu_host_alloc((void **)&src, count * sizeof(long),
                                    shmemi_gpu_host_alloc_mapped_portable));
    for (size_t i = 0; i < count; i++)
        src[i] = (long)(i * 2654435761u) ^ ((long)me << 40);
    nbi_flag = 0;
    barrier_on_stream();
    shmem_putmem_nbi(dst, src, count * sizeof(long), next);
    shmem_quiet();
    shmem_long_p(&nbi_flag, 1, next);
    shmem_long_wait_until(&nbi_flag, SHMEM_CMP_EQ, 1);
    GPU_CHECK(shmemi_gpu_memcpy(got, dst, count * sizeof(long), shmemi_gpu_memcpy_default));
    long errors = 0;
    for (size_t i = 0; i < count; i++)
        errors += got[i] != ((long)(i * 2654435761u) ^ ((long)prev << 40));
    barrier_on_stream();
    GPU_CHECK(shmemi_gpu_host_free(src));
    free(got);
    shmem_free(dst);
    return gpu_test_report("host put_nbi into the GPU heap, then quiet", errors);
}

/* A kernel on a BYPASS context made by shmem_ctx_create: payload and signal to the next PE, wait
 * with the context's (non-acquiring) wait, read the payload with bypass loads. */
__global__ void bypass_kernel(shmem_ctx_t ctx, long *data, uint64_t *sig, long *errors) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (threadIdx.x != 0)
        return;
    long local[32];
    for (int i = 0; i < 32; i++)
        local[i] = me * 1000 + i;
    shmem_ctx_putmem(ctx, data, local, sizeof(local), (me + 1) % n);
    shmem_ctx_quiet(ctx);
    shmem_ctx_uint64_atomic_add(ctx, sig, 1, (me + 1) % n);
    shmemx_ctx_signal_wait_until(ctx, sig, SHMEM_CMP_EQ, 1);
    int from = (me + n - 1) % n;
    for (int i = 0; i < 32; i++)
        if (shmemx_long_ld_bypass(&data[i]) != from * 1000 + i)
            (*errors)++;
}

static int bypass_ctx_test(void) {
    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) != 0)
        return gpu_test_report("BYPASS context in a kernel", 1);
    long *data = (long *)gpu_test_zalloc(32 * sizeof(long));
    uint64_t *sig = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    long *errors;
    GPU_CHECK(shmemi_gpu_malloc((void **)&errors, sizeof(long)));
    GPU_CHECK(shmemi_gpu_memset(errors, 0, sizeof(long)));
    barrier_on_stream();
    bypass_kernel<<<1, 32>>>(ctx, data, sig, errors);
    GPU_CHECK(shmemi_gpu_get_last_error());
    GPU_CHECK(shmemi_gpu_device_synchronize());
    long e = 0;
    GPU_CHECK(shmemi_gpu_memcpy(&e, errors, sizeof(long), shmemi_gpu_memcpy_default));
    barrier_on_stream();
    shmem_ctx_destroy(ctx);
    GPU_CHECK(shmemi_gpu_free(errors));
    return gpu_test_report("BYPASS context in a kernel", e);
}

int main(void) {
    gpu_test_require_gpu();
    shmem_init();
    buffers b;
    b.dst = (int *)gpu_test_zalloc(16 * sizeof(int));
    barrier_on_stream();
    int fails = host_api_test(b);
    fails += host_global_test();
    fails += host_put_nbi_test();
    fails += bypass_ctx_test();
    shmem_finalize();
    return fails ? 1 : 0;
}
