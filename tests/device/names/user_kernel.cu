/* SPDX-License-Identifier: BSD-3-Clause */
/* A user's kernel file that names its own helpers gpu_*, as a CUDA/HIP program may well do: the
 * library's headers must not take such names (scripts/check-user-names compiles it). */
#include <shmem.h>
#include <shmemx.h>

typedef int gpu_error_t;
typedef struct {
    int id;
} gpu_stream_t;
enum { gpu_success = 0, gpu_memcpy_default = 4 };

static int gpu_malloc(void **p, size_t bytes) {
    *p = shmem_malloc(bytes);
    return *p == NULL;
}

static void gpu_free(void *p) {
    shmem_free(p);
}

__device__ int gpu_get_device;

__global__ void gpu_launch_kernel(int *dest, int pe) {
    shmem_int_p(dest, gpu_success + gpu_get_device + 1, pe);
    shmem_quiet();
}

int user_main(void) {
    void *p;
    gpu_error_t err = gpu_malloc(&p, 64);
    gpu_stream_t stream = {gpu_memcpy_default};
    gpu_launch_kernel<<<1, 1>>>(static_cast<int *>(p), stream.id % shmem_n_pes());
    gpu_free(p);
    return err;
}
