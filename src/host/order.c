/* fence, quiet and pe_quiet on the host. On the load/store path every put and AMO is performed
 * at return, so fence is a release fence and quiet a full fence; both first drain the calling
 * thread's non-temporal stores (BYPASS puts) with sfence. */
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

static inline void fence_order(void) {
#if !defined(SHMEMI_TEST_WEAKEN_FENCE)
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
#endif
}

static inline void quiet_order(void) {
#if !defined(SHMEMI_TEST_WEAKEN_QUIET)
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
#endif
}

/* Fatal when the library is not initialized (SHMEM_CTX_DEFAULT too) or ctx is not a live
 * context. */
static inline void order_ctx_check(const char *call, shmem_ctx_t ctx) {
    shmemi_check_init(call);
    shmemi_ctx_get(call, ctx);
}

SHMEMI_API void shmem_ctx_fence(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    order_ctx_check("shmem_ctx_fence", ctx);
    fence_order();
}

SHMEMI_API void shmem_fence(void) {
    shmemi_check_init("shmem_fence");
    fence_order();
}

SHMEMI_API void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    order_ctx_check("shmem_ctx_quiet", ctx);
    quiet_order();
}

SHMEMI_API void shmem_quiet(void) {
    shmemi_check_init("shmem_quiet");
    quiet_order();
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
    quiet_order();
}

SHMEMI_API void shmem_pe_quiet(const int *target_pes, size_t npes) {
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
