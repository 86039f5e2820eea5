/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal interface of src/device. */
#ifndef SHMEMI_DEVICE_DEVICE_H
#define SHMEMI_DEVICE_DEVICE_H

#include <shmem/device/impl/state__types.h>

/* The library's copy of the device state (valid after shmem_init on a GPU build). */
const shmemi_device_state_t *shmemi_device_state(void);

/* The record of kernel errors and the host thread that prints them (report.cu): started by the
 * device module's init, stopped by its finalize once the GPU is idle. */
shmemi_dreport_t *shmemi_device_report_start(void);
void shmemi_device_report_stop(void);

/* The proxy ring of this PE and its consumer thread (proxy.cu): started by the device module's
 * init when some peer's path is the proxy (returns the ring for the device state), stopped by its
 * finalize once the GPU is idle; describe: the ring's state, for messages (returns 0 where this
 * PE has no ring). */
shmemi_proxy_ring_t shmemi_device_proxy_start(void);
void shmemi_device_proxy_stop(void);
int shmemi_device_proxy_describe(char *buf, size_t size);

/* Loads the stream-ordered operations' kernels (stream.cu) at shmem_init, so that no first launch
 * waits for running kernels (lazy module loading). */
shmemi_gpu_error_t shmemi_device_stream_load(void);

#endif
