/* fence, quiet and pe_quiet on the host. On the load/store path every put and AMO is performed
 * at return, so fence is a release fence and quiet a full fence; both first drain the calling
 * thread's non-temporal stores (BYPASS puts) with sfence. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

SHMEMI_API void shmem_ctx_fence(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    shmemi_ctx_get("shmem_ctx_fence", ctx);
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
}

SHMEMI_API void shmem_fence(void) {
    if (__builtin_expect(!shmemi_state.initialized, 0))
        shmemi_check_init("shmem_fence");
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
}

SHMEMI_API void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    shmemi_ctx_get("shmem_ctx_quiet", ctx);
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
}

SHMEMI_API void shmem_quiet(void) {
    if (__builtin_expect(!shmemi_state.initialized, 0))
        shmemi_check_init("shmem_quiet");
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
}

SHMEMI_API void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes) {
    static const char call[] = "shmem_ctx_pe_quiet";
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    if (npes == 0)
        return;
    if (target_pes == NULL)
        shmemi_fatal(call, "target_pes is NULL with npes %zu", npes);
    for (size_t i = 0; i < npes; i++)
        shmemi_ctx_world_pe(call, c, target_pes[i]);
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
}

SHMEMI_API void shmem_pe_quiet(const int *target_pes, size_t npes) {
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
