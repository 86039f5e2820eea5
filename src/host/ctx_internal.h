/* SPDX-License-Identifier: BSD-3-Clause */
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

/* Completes and destroys every context created on team (shmem_team_destroy: OpenSHMEM 1.6
 * destroys a team's shareable contexts with it); fatal, naming call, when one created with
 * SHMEM_CTX_PRIVATE is still live (the user must destroy those first). Thread-safe. */
void shmemi_ctx_destroy_team(const char *call, struct shmemi_team *team);

/* Ends with a clear message: the library is not initialized, or ctx is SHMEM_CTX_INVALID,
 * used after shmem_ctx_destroy or after shmem_team_destroy of its team, or not a context. */
__attribute__((noreturn)) void shmemi_ctx_invalid(const char *call, shmem_ctx_t ctx);

/* Ends with a clear message: pe is outside the context's team. */
__attribute__((noreturn)) void shmemi_ctx_bad_pe(const char *call, const struct shmemi_ctx *c,
                                                 int pe);

/* The handle of context object c: its address with the tag bits of its options and team
 * (shmem/impl/ctx__types.h). */
static inline shmem_ctx_t shmemi_ctx_handle(const struct shmemi_ctx *c) {
    uintptr_t tags = (c->bypass ? SHMEMI_CTX_TAG_BYPASS : 0) | (c->team ? SHMEMI_CTX_TAG_TEAM : 0);
    return (shmem_ctx_t)((uintptr_t)c | tags);
}

/* Nonzero when c is a context object of the library (live or destroyed), so that its magic can be
 * read; under SHMEM_DEBUG=1 every handle is checked with it before it is used. Thread-safe. */
int shmemi_ctx_known(const struct shmemi_ctx *c);

/* The object of ctx, or NULL when ctx is SHMEM_CTX_INVALID, destroyed, or not a handle the
 * library gave out (its tags disagree with its object), and for every handle but
 * SHMEM_CTX_DEFAULT outside shmem_init..shmem_finalize, when the objects are freed. The one place
 * a handle is untagged. */
static inline struct shmemi_ctx *shmemi_ctx_find(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_DEFAULT)
        return &shmemi_ctx_default;
    struct shmemi_ctx *c = SHMEMI_CTX_OBJECT(ctx);
    if (__builtin_expect(ctx == SHMEM_CTX_INVALID || c == NULL || !shmemi_state.initialized, 0))
        return NULL;
    /* A handle that is no object of the library (garbage) would fault on the magic's load. */
    if (__builtin_expect(shmemi_state.debug, 0) && !shmemi_ctx_known(c))
        return NULL;
    if (__builtin_expect(__atomic_load_n(&c->magic, __ATOMIC_RELAXED) != SHMEMI_CTX_MAGIC ||
                             shmemi_ctx_handle(c) != ctx,
                         0))
        return NULL;
    return c;
}

/* The object of ctx; fatal when ctx is invalid or destroyed. */
static inline struct shmemi_ctx *shmemi_ctx_get(const char *call, shmem_ctx_t ctx) {
    struct shmemi_ctx *c = shmemi_ctx_find(ctx);
    if (__builtin_expect(c == NULL, 0))
        shmemi_ctx_invalid(call, ctx);
    return c;
}

/* The state of context c in transport ops (NULL for a transport that keeps none). */
static inline shmemi_transport_ctx_t *shmemi_ctx_tctx(const struct shmemi_ctx *c,
                                                      const shmemi_transport_ops_t *ops) {
    if (ops != shmemi_transport_net)
        return NULL;
    return c == &shmemi_ctx_default ? shmemi_net_ctx_default
                                    : (shmemi_transport_ctx_t *)c->transport;
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
