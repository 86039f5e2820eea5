/* SPDX-License-Identifier: BSD-3-Clause */
/* fence, quiet and pe_quiet on the host: the checks of the calls, around the ordering primitives
 * shmemi_fence_order (host/fence_order.c) and shmemi_quiet_order (host/quiet_order.c). */
#include "core/shmemi.h"
#include "host/rma_internal.h"

/* Ends the job: a transport's fence or quiet (ops: the network's, or ipc's copy stream) returned
 * st. */
void shmemi_order_failed(const char *call, const shmemi_transport_ops_t *ops, shmemi_status_t st) {
    shmemi_fatal(call, "transport %s failed to complete this PE's operations (status %d)",
                 ops->name, (int)st);
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
    shmemi_fence_order("shmem_ctx_fence", order_ctx_check("shmem_ctx_fence", ctx));
}

SHMEMI_API void shmem_fence(void) {
    shmemi_check_init("shmem_fence");
    shmemi_fence_order("shmem_fence", &shmemi_ctx_default);
}

SHMEMI_API void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    shmemi_quiet_order("shmem_ctx_quiet", order_ctx_check("shmem_ctx_quiet", ctx));
}

SHMEMI_API void shmem_quiet(void) {
    shmemi_check_init("shmem_quiet");
    shmemi_quiet_order("shmem_quiet", &shmemi_ctx_default);
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
    shmemi_quiet_order(call, c);
}

SHMEMI_API void shmem_pe_quiet(const int *target_pes, size_t npes) {
    shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes);
}
