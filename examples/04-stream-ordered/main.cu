/* SPDX-License-Identifier: BSD-3-Clause */
/* A stream-ordered host program: communication is enqueued on a CUDA/HIP stream between kernels,
 * so the host never waits in the middle. Each PE scales a vector with a kernel, sends it to the
 * next PE with shmemx_putmem_signal_on_stream, waits on the stream for its own incoming signal and
 * checks the received vector with another kernel on the same stream. */
#include <stdint.h>
#include <stdio.h>

#include <shmem.h>

#define N (1 << 20)

__global__ void scale(float *v, float factor) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        v[i] = factor * (float)i;
}

__global__ void check(const float *v, float factor, int *errors) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        if (v[i] != factor * (float)i)
            atomicAdd(errors, 1);
}

/* A barrier of all PEs from the host, through the stream-ordered form. */
static void barrier(void) {
    shmemx_barrier_all_on_stream(0);
    shmemi_gpu_stream_synchronize(0);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    float *out = (float *)shmem_malloc(N * sizeof(float));
    float *in = (float *)shmem_malloc(N * sizeof(float));
    uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    int *errors, host_errors = -1;
    shmemi_gpu_malloc((void **)&errors, sizeof(int));
    shmemi_gpu_stream_t stream;
#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
    cudaStreamCreate(&stream);
#else
    hipStreamCreate(&stream);
#endif
    shmemi_gpu_memset(errors, 0, sizeof(int));
    /* Load both kernels now: with lazy module loading, a kernel's first launch waits for the
     * kernels already running and holds the library's CUDA calls meanwhile, and check is launched
     * behind the signal wait, which only the library's delivery of the peer's put ends when the
     * peer is reached over the network (docs/gpu.md). */
    shmemi_gpu_func_attributes attr;
    shmemi_gpu_func_get_attributes(&attr, (const void *)scale);
    shmemi_gpu_func_get_attributes(&attr, (const void *)check);
    barrier();

    scale<<<64, 256, 0, stream>>>(out, (float)(me + 1));
    shmemx_putmem_signal_on_stream(in, out, N * sizeof(float), sig, 1, SHMEM_SIGNAL_SET,
                                   (me + 1) % n, stream);
    shmemx_signal_wait_until_on_stream(sig, SHMEM_CMP_EQ, 1, stream);
    int from = (me + n - 1) % n;
    check<<<64, 256, 0, stream>>>(in, (float)(from + 1), errors);
    shmemx_barrier_all_on_stream(stream);
    shmemi_gpu_error_t err = shmemi_gpu_stream_synchronize(stream);

    shmemi_gpu_memcpy(&host_errors, errors, sizeof(int), shmemi_gpu_memcpy_default);
    printf("PE %d: %d floats from PE %d: %s\n", me, N, from,
           err != shmemi_gpu_success ? shmemi_gpu_get_error_string(err)
           : host_errors             ? "WRONG"
                                     : "ok");
    shmemi_gpu_free(errors);
    shmem_finalize();
    return err != shmemi_gpu_success || host_errors != 0;
}
