/* SPDX-License-Identifier: BSD-3-Clause */
/* Bypass loads and stores, shmemx_acquire and shmemx_release on the host. A cpu has no
 * non-coherent cache to bypass: bypass accesses are relaxed accesses (atomic up to 8 bytes), and
 * the scoped fences are compiler fences at thread scope and hardware fences above it. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

static void check_scope(const char *call, int scope) {
    if (scope < SHMEMX_SCOPE_THREAD || scope > SHMEMX_SCOPE_WORLD)
        shmemi_fatal(call, "invalid scope %d (expected SHMEMX_SCOPE_THREAD ... _WORLD)", scope);
}

SHMEMI_API void shmemx_acquire(int scope) {
    check_scope("shmemx_acquire", scope);
    if (scope == SHMEMX_SCOPE_THREAD)
        __atomic_signal_fence(__ATOMIC_ACQUIRE);
    else
        SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
}

SHMEMI_API void shmemx_release(int scope) {
    check_scope("shmemx_release", scope);
    if (scope == SHMEMX_SCOPE_THREAD) {
        __atomic_signal_fence(__ATOMIC_RELEASE);
        return;
    }
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
}

/* Types of 1, 2, 4 or 8 bytes are accessed with one atomic access; others (long double) by
 * copy. Words the host cannot touch (the heap in GPU memory) go through the heap's transport, with
 * the stronger acquire/release order that its copies carry. */
#define SHMEMI_DEF_BYPASS(TYPE, NAME)                                                              \
    SHMEMI_API TYPE shmemx_##NAME##_ld_bypass(const TYPE *addr) {                                  \
        TYPE value;                                                                                \
        if (__builtin_expect(shmemi_local_on_device(addr), 0))                                     \
            shmemi_local_read("shmemx_" #NAME "_ld_bypass", &value, addr, sizeof(TYPE));           \
        else if (sizeof(TYPE) <= 8 && (sizeof(TYPE) & (sizeof(TYPE) - 1)) == 0)                    \
            __atomic_load(addr, &value, __ATOMIC_RELAXED);                                         \
        else                                                                                       \
            memcpy(&value, addr, sizeof(TYPE));                                                    \
        return value;                                                                              \
    }                                                                                              \
    SHMEMI_API void shmemx_##NAME##_st_bypass(TYPE *addr, TYPE value) {                            \
        if (__builtin_expect(shmemi_local_on_device(addr), 0))                                     \
            shmemi_local_write("shmemx_" #NAME "_st_bypass", addr, &value, sizeof(TYPE));          \
        else if (sizeof(TYPE) <= 8 && (sizeof(TYPE) & (sizeof(TYPE) - 1)) == 0)                    \
            __atomic_store(addr, &value, __ATOMIC_RELAXED);                                        \
        else                                                                                       \
            memcpy(addr, &value, sizeof(TYPE));                                                    \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_BYPASS)
#undef SHMEMI_DEF_BYPASS
