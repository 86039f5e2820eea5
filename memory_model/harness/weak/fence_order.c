/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/host/fence_order.c into libshmem-weak-fence, the copy of the
 * library whose fence orders nothing; the litmus harness must notice. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

/* Found by weaken_marker.cmake in every weakened copy, and never in the library. */
__attribute__((used)) static const char weakened_marker[] = "libshmem test build: weakened";

void shmemi_fence_order(const char *call, const struct shmemi_ctx *c) {
    (void)call, (void)c;
}
