/* SPDX-License-Identifier: BSD-3-Clause */
/* fence, quiet and pe_quiet on the host. On the load/store path every put and AMO is performed
 * at return, so fence is a release fence and quiet a full fence; both first drain the calling
 * thread's non-temporal stores (BYPASS puts) with sfence. With a network transport, the context's
 * fence (ucp_worker_fence) and quiet (a flush of the context's worker) follow. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

/* SHMEMI_TEST_WEAKEN_FENCE, _QUIET and _WAIT (host/p2p.c) are defined only when the litmus
 * harness builds its test copies of the library (memory_model/harness, SHMEM_TEST_WEAKEN): fence
 * or quiet then orders nothing, or a wait does not acquire, and the harness must notice. The
 * marker lets a check tell such a copy from the library (litmus_weaken_not_in_library). */
#if defined(SHMEMI_TEST_WEAKEN_FENCE) || defined(SHMEMI_TEST_WEAKEN_QUIET) ||                      \
    defined(SHMEMI_TEST_WEAKEN_WAIT)
__attribute__((used)) static const char weakened_marker[] = "libshmem test build: weakened";
#endif

static void net_failed(const char *call, shmemi_status_t st) {
    shmemi_fatal(call, "network transport %s failed (status %d)", shmemi_transport_net->name,
                 (int)st);
}

static inline void fence_order(const char *call, const struct shmemi_ctx *c) {
#if !defined(SHMEMI_TEST_WEAKEN_FENCE)
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
    if (__builtin_expect(shmemi_transport_net != NULL, 0)) {
        shmemi_status_t st =
            shmemi_transport_net->fence(shmemi_ctx_tctx(c, shmemi_transport_net), -1);
        if (st != SHMEMI_OK)
            net_failed(call, st);
    }
#else
    (void)call, (void)c;
#endif
}

static inline void quiet_order(const char *call, const struct shmemi_ctx *c) {
#if !defined(SHMEMI_TEST_WEAKEN_QUIET)
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
    if (__builtin_expect(shmemi_transport_net != NULL, 0)) {
        shmemi_status_t st = shmemi_transport_net->quiet(shmemi_ctx_tctx(c, shmemi_transport_net));
        if (st != SHMEMI_OK)
            net_failed(call, st);
    }
#else
    (void)call, (void)c;
#endif
}

/* The context object; fatal when the library is not initialized (SHMEM_CTX_DEFAULT too) or ctx
 * is not a live context. */
static inline const struct shmemi_ctx *order_ctx_check(const char *call, shmem_ctx_t ctx) {
    shmemi_check_init(call);
    return shmemi_ctx_get(call, ctx);
}

SHMEMI_API void shmem_ctx_fence(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    fence_order("shmem_ctx_fence", order_ctx_check("shmem_ctx_fence", ctx));
}

SHMEMI_API void shmem_fence(void) {
    shmemi_check_init("shmem_fence");
    fence_order("shmem_fence", &shmemi_ctx_default);
}

SHMEMI_API void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    quiet_order("shmem_ctx_quiet", order_ctx_check("shmem_ctx_quiet", ctx));
}

SHMEMI_API void shmem_quiet(void) {
    shmemi_check_init("shmem_quiet");
    quiet_order("shmem_quiet", &shmemi_ctx_default);
}

SHMEMI_API void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes) {
    static const char call[] = "shmem_ctx_pe_quiet";
    if (ctx == SHMEM_CTX_INVALID)
        return;
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    if (npes == 0)
        return;
    if (target_pes == NULL)
        shmemi_fatal(call, "target_pes is NULL with npes %zu", npes);
    for (size_t i = 0; i < npes; i++)
        shmemi_ctx_world_pe(call, c, target_pes[i]);
    quiet_order(call, c);
}

SHMEMI_API void shmem_pe_quiet(const int *target_pes, size_t npes) {
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
