/* SPDX-License-Identifier: BSD-3-Clause */
/* The ipc transport: the symmetric heap in GPU memory, exported to the other PEs of the node with
 * CUDA/HIP IPC handles and mapped by each of them (NVLink/xGMI peer access between GPUs, or the
 * same GPU when PEs share one). */
#ifndef SHMEMI_TRANSPORT_IPC_H
#define SHMEMI_TRANSPORT_IPC_H

/* The public headers first, outside extern "C": in CUDA/HIP code they hold C++ (the device API). */
#include <shmem.h>
#include <shmemx.h>

#ifdef __cplusplus
/* The core contract is C11; this spelling is the C++ one. */
#define _Noreturn [[noreturn]]
extern "C" {
#endif
#include "core/shmemi.h"

extern const shmemi_transport_ops_t shmemi_transport_ipc_ops;

/* The GPU this PE uses (chosen at init). */
int shmemi_ipc_device(void);
/* The device address of PE pe's heap as mapped in this process; NULL before shmem_init. */
char *shmemi_ipc_peer_base(int pe);
/* The local device address of symmetric address addr on PE pe; NULL when addr is not in the
 * heap. */
void *shmemi_ipc_translate(const void *addr, int pe);

#ifdef __cplusplus
}
#endif

#endif
