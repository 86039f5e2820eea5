/* Contexts inside the library: the default context, resolving a shmem_ctx_t to its object, the
 * team-relative PE translation, and the constructor that team-based context creation
 * (shmem_team_create_ctx) uses. */
#ifndef SHMEMI_HOST_CTX_INTERNAL_H
#define SHMEMI_HOST_CTX_INTERNAL_H

#include "core/shmemi.h"

/* The object behind SHMEM_CTX_DEFAULT (world team, no options). */
extern struct shmemi_ctx shmemi_ctx_default;

/* Creates a context with options on a team whose PE i is world PE start + i * stride, for
 * 0 <= i < n_pes; team may be NULL for the world team (then start 0, stride 1, n_pes all).
 * Thread-safe. Returns SHMEMI_OK and sets *ctx_p, or an error (SHMEMI_ERR_NOMEM) and sets *ctx_p to
 * SHMEM_CTX_INVALID. Fatal on unknown option bits, naming call. */
shmemi_status_t shmemi_ctx_create(const char *call, long options, struct shmemi_team *team,
                                  int start, int stride, int n_pes, shmem_ctx_t *ctx_p);

/* Ends with a clear message: ctx is SHMEM_CTX_INVALID, destroyed, or not a context. */
__attribute__((noreturn)) void shmemi_ctx_invalid(const char *call, shmem_ctx_t ctx);

/* Ends with a clear message: pe is outside the context's team. */
__attribute__((noreturn)) void shmemi_ctx_bad_pe(const char *call, const struct shmemi_ctx *c,
                                                 int pe);

/* The object of ctx; fatal when ctx is invalid or destroyed. */
static inline struct shmemi_ctx *shmemi_ctx_get(const char *call, shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_DEFAULT)
        return &shmemi_ctx_default;
    if (__builtin_expect(ctx == SHMEM_CTX_INVALID || ctx->magic != SHMEMI_CTX_MAGIC, 0))
        shmemi_ctx_invalid(call, ctx);
    return ctx;
}

/* The world PE of team-relative pe on context c; fatal when pe is out of range. */
static inline int shmemi_ctx_world_pe(const char *call, const struct shmemi_ctx *c, int pe) {
    if (c->team == NULL) {
        if (__builtin_expect((unsigned)pe >= (unsigned)shmemi_state.n_pes, 0)) {
            shmemi_check_init(call);
            shmemi_check_pe(call, pe);
        }
        return pe;
    }
    if (__builtin_expect((unsigned)pe >= (unsigned)c->team_n_pes, 0))
        shmemi_ctx_bad_pe(call, c, pe);
    return c->team_start + pe * c->team_stride;
}

#endif
