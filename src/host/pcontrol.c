/* SPDX-License-Identifier: BSD-3-Clause */
/* The profiling interface (include/shmem/setup.h). Without a profiler of its own, the library
 * records the level, as the specification allows, so that a profiling library interposed on
 * shmem_pcontrol or a debugger can see it. */
#include "core/shmemi.h"

static int pcontrol_level = 1;

SHMEMI_API void shmem_pcontrol(const int level, ...) {
    __atomic_store_n(&pcontrol_level, level, __ATOMIC_RELAXED);
    shmemi_debug_log("shmem_pcontrol: profiling level %d", level);
}
