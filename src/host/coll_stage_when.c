/* SPDX-License-Identifier: BSD-3-Clause */
/* When host collectives take the staged path (host/coll_stage.c): where the heap is GPU memory,
 * and then for a collective whose dest or source is in it. Alone in its file so that tests/coll
 * can link a test-only copy that stages every collective (tests/coll/stage_forced.c), which lets
 * the cpu platform run the GPU heap's rounds. */
#include "coll_internal.h"

int shmemi_coll_stage_needed(void) {
    /* The same answer on every PE: the platform decides where the heap is. */
    return shmemi_heap_on_device();
}

int shmemi_coll_stage_chosen(const void *dest, const void *source) {
    return shmemi_local_on_device(dest) || shmemi_local_on_device(source);
}
