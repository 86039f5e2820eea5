/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/host/quiet_order.c into libshmem-weak-quiet, the copy of the
 * library whose quiet (and pe_quiet) orders and completes nothing; the litmus harness must
 * notice. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

/* Found by weaken_marker.cmake in every weakened copy, and never in the library. */
__attribute__((used)) static const char weakened_marker[] = "libshmem test build: weakened";

void shmemi_quiet_order(const char *call, const struct shmemi_ctx *c) {
    (void)call, (void)c;
}
