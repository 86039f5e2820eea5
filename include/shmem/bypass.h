/* SPDX-License-Identifier: BSD-3-Clause */
/* Cache-bypass contexts and accesses (libshmem extension; docs/memory_model.md, "BYPASS").
 *
 * A context created with SHMEMX_CTX_BYPASS promises less about plain (cached) loads and stores of
 * the buffers it writes, and in return its fence, quiet and waits skip cache maintenance:
 *  - data that arrives through a BYPASS context is visible to bypass loads (shmemx_*_ld_bypass,
 *    shmem_g, get) as soon as the matching wait or signal is observed;
 *  - a wait on a BYPASS context acquires for everything but plain loads: later library operations,
 *    bypass loads and stores, and plain stores happen after it; later plain loads may return stale
 *    data until shmemx_acquire(SHMEMX_SCOPE_WORLD);
 *  - fence and quiet on a BYPASS context order SHMEM operations and bypass stores, not plain
 *    stores; a plain store that must reach peers before them needs shmemx_release(scope).
 * On the cpu platform, BYPASS puts of SHMEMX_BYPASS_NT_THRESHOLD bytes and more use non-temporal
 * stores on x86-64 (plain copies elsewhere); fence and quiet (on any context) drain them with
 * sfence.
 *
 * Names: shmemx_TYPENAME_ld_bypass / shmemx_TYPENAME_st_bypass for every type of the standard RMA
 * table, with the C11 generic (and C++ overloaded) shmemx_ld_bypass / shmemx_st_bypass. */
#ifndef SHMEM_BYPASS_H
#define SHMEM_BYPASS_H

#include <shmem/types.h>
#include <shmem/ctx.h>
#include <shmem/impl/typelists.h>
#include <shmem/impl/generic.h>

/* Scopes of shmemx_acquire / shmemx_release, narrowest first: a thread, a warp (AMD wavefront),
 * a block (AMD work-group), a device, a PE, every PE. */
#define SHMEMX_SCOPE_THREAD 0
#define SHMEMX_SCOPE_WARP 1
#define SHMEMX_SCOPE_BLOCK 2
#define SHMEMX_SCOPE_DEVICE 3
#define SHMEMX_SCOPE_PE 4
#define SHMEMX_SCOPE_WORLD 5

/* Size from which BYPASS puts on the cpu platform use non-temporal stores. */
#define SHMEMX_BYPASS_NT_THRESHOLD 4096

#if !SHMEMI_DEVICE_TU
SHMEMI_EXTERN_C_BEGIN

/* shmemx_TYPENAME_ld_bypass: returns *addr (a local address) read past non-coherent caches; one
 * relaxed load (atomic for types up to 8 bytes), scope world. Sees BYPASS data once the matching
 * wait or signal has been observed. shmemx_TYPENAME_st_bypass: stores value at addr past
 * non-coherent caches; relaxed, scope world; ordered by fence/quiet on BYPASS contexts.
 * Litmus: MP+bp+bypass, MP+bp+g, CoRR+bypass+plain,
 * MP+stb+quiet.bp+amo. */
#define SHMEMI_DECL_BYPASS(TYPE, NAME)                                                             \
    TYPE shmemx_##NAME##_ld_bypass(const TYPE *addr);                                              \
    void shmemx_##NAME##_st_bypass(TYPE *addr, TYPE value);
SHMEMI_RMA_TYPES(SHMEMI_DECL_BYPASS)
#undef SHMEMI_DECL_BYPASS

/* Acquire fence of the given scope: plain loads after it see what bypass operations and signals
 * observed before it made visible. Returns at once; acquire, scope as given.
 * Litmus: MP+bp+acquire, MP+bp+acquire.pe, MP+bp+plain,
 * MP+quiet+get+acquire. */
void shmemx_acquire(int scope);

/* Release fence of the given scope: plain stores before it are ordered before SHMEM operations
 * and bypass stores after it (also drains non-temporal stores), and so are plain and bypass loads:
 * call it between reading a buffer and the signal that lets its writer overwrite it. Returns at
 * once; release, scope as given. Litmus: MP+rel.world+amo, MP+rel.pe+amo, MP+rel.block+amo,
 * MP+rel.block+amo+block, MP+st+release+bp, LB+ld+rel+sigadd, LB+ld+rel.pe+sigadd. */
void shmemx_release(int scope);

/* shmem_signal_wait_until on a context: returns once the condition holds, scope world. On the
 * default or a user context it acquires, as shmem_signal_wait_until. A wait on a BYPASS context
 * acquires for everything but plain loads: later library operations, bypass loads and stores,
 * and plain stores happen after it; later plain loads may return stale data until
 * shmemx_acquire(SHMEMX_SCOPE_WORLD). Litmus: MP+bp+bypass, MP+bp+plain, MP+bp+acquire,
 * PIPE+bp+bypass+rel. */
uint64_t shmemx_ctx_signal_wait_until(shmem_ctx_t ctx, uint64_t *sig_addr, int cmp,
                                      uint64_t cmp_value);

SHMEMI_EXTERN_C_END

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define shmemx_ld_bypass(...)                                                                      \
    SHMEMI_GSEL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GAC, shmemx_, _ld_bypass, SHMEMI_G1(__VA_ARGS__, 0))  \
    (__VA_ARGS__)
#define shmemx_st_bypass(...)                                                                      \
    SHMEMI_GSEL(SHMEMI_GEN_RMA_TYPES, SHMEMI_GA, shmemx_, _st_bypass, SHMEMI_G1(__VA_ARGS__, 0))   \
    (__VA_ARGS__)
#endif

#ifdef __cplusplus
/* C++ overloads of the generic names; C++ linkage even when included inside extern "C". */
extern "C++" {
#define SHMEMI_CXX_BYPASS(TYPE, NAME, P, S)                                                        \
    inline TYPE shmemx_ld_bypass(const TYPE *a) {                                                  \
        return shmemx_##NAME##_ld_bypass(a);                                                       \
    }                                                                                              \
    inline void shmemx_st_bypass(TYPE *a, TYPE v) {                                                \
        shmemx_##NAME##_st_bypass(a, v);                                                           \
    }
SHMEMI_GEN_RMA_TYPES(SHMEMI_CXX_BYPASS, , )
#undef SHMEMI_CXX_BYPASS
}
#endif

#endif /* !SHMEMI_DEVICE_TU */

#endif
