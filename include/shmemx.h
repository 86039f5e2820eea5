/* SPDX-License-Identifier: BSD-3-Clause */
/* libshmem extensions (shmemx_*): cache-bypass contexts and accesses, and GPU-specific calls.
 * Includes shmem.h. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>
#include <shmem/bypass.h>

#endif
