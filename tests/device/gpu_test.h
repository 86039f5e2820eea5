/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the GPU tests: runtime-error checks, the "no GPU here" skip, a host barrier and result
 * reporting. */
#ifndef SHMEM_TESTS_DEVICE_GPU_TEST_H
#define SHMEM_TESTS_DEVICE_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>
#include <shmemx.h>

/* ctest's SKIP_RETURN_CODE for the GPU tests. */
#define GPU_TEST_SKIP 77

#define GPU_CHECK(call)                                                                            \
    do {                                                                                           \
        shmemi_gpu_error_t gpu_check_err_ = (call);                                                \
        if (gpu_check_err_ != shmemi_gpu_success) {                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                          \
                    shmemi_gpu_get_error_string(gpu_check_err_));                                  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Exits with GPU_TEST_SKIP before shmem_init when this machine has no usable GPU. */
static inline void gpu_test_require_gpu(void) {
    int n = 0;
    if (shmemi_gpu_get_device_count(&n) != shmemi_gpu_success || n == 0) {
        printf("SKIP: no GPU on this machine\n");
        exit(GPU_TEST_SKIP);
    }
}

/* shmem_malloc plus zeroing on the GPU (host code cannot write the GPU heap directly). */
static inline void *gpu_test_zalloc(size_t size) {
    void *p = shmem_malloc(size);
    if (!p) {
        fprintf(stderr, "shmem_malloc(%zu) failed\n", size);
        exit(1);
    }
    GPU_CHECK(shmemi_gpu_memset(p, 0, size));
    GPU_CHECK(shmemi_gpu_device_synchronize());
    return p;
}

/* A barrier of all PEs from the host, through the stream-ordered form, waited for. */
static inline void barrier_on_stream(void) {
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
}

/* Reports one check of this PE; returns 1 when it failed. */
static inline int gpu_test_report(const char *what, long errors) {
    printf("PE %d: %-28s %s (%ld errors)\n", shmem_my_pe(), what, errors ? "FAIL" : "ok", errors);
    fflush(stdout);
    return errors != 0;
}

#endif
