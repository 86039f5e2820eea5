/* SPDX-License-Identifier: BSD-3-Clause */
/* libshmem: OpenSHMEM 1.6 for CPUs and GPU kernels, with a written memory model
 * (docs/memory_model.md). Include this header only; the family headers under shmem/ are its
 * parts. */
#ifndef SHMEM_H
#define SHMEM_H

#include <shmem/types.h>
#if SHMEMI_DEVICE_TU
#include <shmem/device/shmem_device.h> /* the device API, in CUDA/HIP translation units */
#endif
#include <shmem/setup.h>
#include <shmem/memory.h>
#include <shmem/ctx.h>
#include <shmem/rma.h>
#include <shmem/amo.h>
#include <shmem/signal.h>
#include <shmem/order.h>
#include <shmem/p2p.h>
#include <shmem/team.h>
#include <shmem/sync.h>
#include <shmem/coll.h>
#include <shmem/scan.h>
#include <shmem/lock.h>

#endif
