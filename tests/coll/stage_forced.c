/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/host/coll_stage_when.c into libshmem-staged, the copy of the
 * library that has a staging area on every platform and stages every collective outside it, so
 * that the cpu platform runs the rounds of collectives on the GPU heap. */
#include "host/coll_internal.h"

/* Found by staged_marker.cmake in the test-only copy, and never in the library. */
__attribute__((used)) static const char stage_forced_marker[] =
    "libshmem test build: staged collectives forced";

int shmemi_coll_stage_needed(void) {
    return 1;
}

int shmemi_coll_stage_chosen(const void *dest, const void *source) {
    (void)source;
    return !shmemi_coll_in_stage(dest);
}
