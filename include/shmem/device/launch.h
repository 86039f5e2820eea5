/* SPDX-License-Identifier: BSD-3-Clause */
/* Host-side calls of GPU programs: collective kernel launch, runtime-loaded modules and
 * stream-ordered communication. Declared for CUDA/HIP translation units only. */
#ifndef SHMEM_DEVICE_LAUNCH_H
#define SHMEM_DEVICE_LAUNCH_H

#include <stdio.h>

#include <shmem/device/impl/gpu_port.h>

SHMEMI_EXTERN_C_BEGIN

/* Fills the device state of a module loaded at run time (cuModuleLoad / hipModuleLoad) whose
 * code includes shmem.h; call after shmem_init. Returns 0, or nonzero when the module has no
 * libshmem state. */
#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
int shmemx_cumodule_init(void *module);
#else
int shmemx_hipmodule_init(void *module);
#endif

/* Stream-ordered forms: enqueued on stream, performed when the stream reaches them; completion
 * as the plain form once the stream has passed them. quiet_on_stream completes everything
 * enqueued before it; barrier_all_on_stream is quiet plus a barrier of all PEs, on the stream. */
void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                             shmemi_gpu_stream_t stream);
void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                             shmemi_gpu_stream_t stream);
void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                    shmemi_gpu_stream_t stream);
void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                        shmemi_gpu_stream_t stream);
void shmemx_quiet_on_stream(shmemi_gpu_stream_t stream);
void shmemx_barrier_all_on_stream(shmemi_gpu_stream_t stream);

SHMEMI_EXTERN_C_END

/* Launches a kernel that synchronizes across PEs or blocks (device barrier_all/sync_all, waits on
 * peers) after checking that all its blocks are resident on the GPU at once (a cooperative launch
 * where the GPU supports it); local, orders nothing. Returns 0, or the runtime's error code; a grid
 * that cannot be resident is refused with a message naming the sizes. Inline, so that the launch
 * goes through the runtime that registered func. */
static inline int shmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args,
                                           size_t shared_mem, shmemi_gpu_stream_t stream) {
    int device = 0, sms = 0, coop = 0, per_sm = 0;
    int threads = (int)(block.x * block.y * block.z);
    long blocks = (long)grid.x * grid.y * grid.z;
    if (shmemi_gpu_get_device(&device) != shmemi_gpu_success ||
        shmemi_gpu_device_get_attribute(&sms, shmemi_gpu_dev_attr_multiprocessor_count, device) !=
            shmemi_gpu_success ||
        shmemi_gpu_device_get_attribute(&coop, shmemi_gpu_dev_attr_cooperative_launch, device) !=
            shmemi_gpu_success)
        return (int)shmemi_gpu_get_last_error();
    shmemi_gpu_error_t err =
        shmemi_gpu_occupancy_max_active_blocks(&per_sm, func, threads, shared_mem);
    if (err != shmemi_gpu_success)
        return (int)err;
    if (blocks > (long)per_sm * sms) {
        fprintf(stderr,
                "libshmem: shmemx_collective_launch: %ld blocks of %d threads cannot all be "
                "resident (at most %d per SM x %d SMs)\n",
                blocks, threads, per_sm, sms);
        return -1;
    }
    if (coop)
        return (int)shmemi_gpu_launch_cooperative_kernel(func, grid, block, args, shared_mem,
                                                         stream);
    return (int)shmemi_gpu_launch_kernel(func, grid, block, args, shared_mem, stream);
}

#endif
