/* SPDX-License-Identifier: BSD-3-Clause */
/* Communication contexts (OpenSHMEM 1.6 section 9.5) and context sessions (9.5.4-9.5.6).
 * A context is an ordering and completion domain: fence and quiet act on one context. Options:
 * SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE and the cache-bypass relaxation
 * SHMEMX_CTX_BYPASS (shmem/bypass.h, docs/memory_model.md). The operations that take a context
 * are in the family headers (rma.h, amo.h, signal.h, order.h). */
#ifndef SHMEM_CTX_H
#define SHMEM_CTX_H

#include <shmem/types.h>
#include <shmem/impl/ctx__types.h>

/* Session options and configuration mask bits (shmem_ctx_session_start). */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)

/* Hints for a communication session; only the members named in the mask are read. */
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

SHMEMI_EXTERN_C_BEGIN

/* Creates a context on the world team; local, no communication, not ordered with anything.
 * Returns 0 and sets *ctx, or nonzero and sets *ctx to SHMEM_CTX_INVALID when no context can be
 * created. Thread-safe under SHMEM_THREAD_MULTIPLE. Litmus: MP+fence+amo+ctx, MP+quiet+amo+ctx,
 * MP+fence.bp+bp2, MP+put+putsig+ctx, AMO+add+add+ctx. */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);

/* Performs a quiet on ctx, then frees it; local. SHMEM_CTX_INVALID is ignored; destroying
 * SHMEM_CTX_DEFAULT or an already destroyed context is a fatal error. Litmus: MP+quiet+amo. */
void shmem_ctx_destroy(shmem_ctx_t ctx);

/* Starts (or extends, by OR of options) a session on ctx; hints only, orders nothing and
 * changes no completion rule. SHMEM_CTX_INVALID is ignored. */
void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask);

/* Ends the session on ctx; hints only, orders nothing. SHMEM_CTX_INVALID is ignored. */
void shmem_ctx_session_stop(shmem_ctx_t ctx);

SHMEMI_EXTERN_C_END

#endif
