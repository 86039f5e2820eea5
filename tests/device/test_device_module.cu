/* SPDX-License-Identifier: BSD-3-Clause */
/* A module loaded at run time (cuModuleLoad of a fatbin that includes shmem.h) sees the device
 * state after shmemx_cumodule_init: its kernel puts to the next PE. */
#include <cuda.h>

#include "gpu_test.h"

#define DRV_CHECK(call)                                                                            \
    do {                                                                                           \
        CUresult drv_check_err_ = (call);                                                          \
        if (drv_check_err_ != CUDA_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call,                  \
                    (int)drv_check_err_);                                                          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    if (argc < 2) {
        fprintf(stderr, "usage: test_device_module MODULE.fatbin\n");
        return 1;
    }
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *slot = (int *)gpu_test_zalloc(sizeof(int));
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    CUmodule module;
    CUfunction func;
    DRV_CHECK(cuModuleLoad(&module, argv[1]));
    long errors = shmemx_cumodule_init(module) != 0;
    DRV_CHECK(cuModuleGetFunction(&func, module, "module_put"));
    void *args[] = {&slot};
    DRV_CHECK(cuLaunchKernel(func, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
    DRV_CHECK(cuCtxSynchronize());
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    int got = 0;
    GPU_CHECK(shmemi_gpu_memcpy(&got, slot, sizeof(int), shmemi_gpu_memcpy_default));
    errors += got != 1000 + (me + n - 1) % n;
    int fails = gpu_test_report("module loaded at run time", errors);
    DRV_CHECK(cuModuleUnload(module));
    shmem_finalize();
    return fails;
}
