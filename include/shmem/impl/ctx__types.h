/* SPDX-License-Identifier: BSD-3-Clause */
/* The structure behind shmem_ctx_t, and what the handle itself says. Plain data, so that host code
 * and GPU kernels read the same fields; created and destroyed only by the library
 * (src/host/ctx.c).
 *
 * A handle other than SHMEM_CTX_DEFAULT (NULL) and SHMEM_CTX_INVALID ((shmem_ctx_t)-1) is the
 * address of its object with tag bits in the low bits that the object's alignment leaves free:
 * SHMEMI_CTX_TAG_BYPASS when the context has SHMEMX_CTX_BYPASS, SHMEMI_CTX_TAG_TEAM when its PE
 * numbers are relative to a team other than the world team. Device operations decide their path
 * from the handle alone and read the object only for the team's PE translation, so a kernel never
 * pays a read of host memory for a world-team context. Host code turns a handle into its object in
 * one place (shmemi_ctx_get, src/host/ctx_internal.h). */
#ifndef SHMEM_IMPL_CTX__TYPES_H
#define SHMEM_IMPL_CTX__TYPES_H

#include <stdint.h>

/* Marks a live context. A destroyed one holds another value: SHMEMI_CTX_MAGIC_DESTROYED after
 * shmem_ctx_destroy, SHMEMI_CTX_MAGIC_TEAM_DESTROYED after shmem_team_destroy of its team. Any
 * value but SHMEMI_CTX_MAGIC makes device code, host code and the proxy's consumer refuse the
 * handle; the two let their messages say why. */
#define SHMEMI_CTX_MAGIC 0x53484354u
#define SHMEMI_CTX_MAGIC_DESTROYED 0x53484344u
#define SHMEMI_CTX_MAGIC_TEAM_DESTROYED 0x53484358u

#define SHMEMI_CTX_TAG_BYPASS ((uintptr_t)1)
#define SHMEMI_CTX_TAG_TEAM ((uintptr_t)2)
#define SHMEMI_CTX_TAG_MASK (SHMEMI_CTX_TAG_BYPASS | SHMEMI_CTX_TAG_TEAM)

/* The tag bits of a handle, and the object of a handle that is neither SHMEM_CTX_DEFAULT nor
 * SHMEM_CTX_INVALID. */
#define SHMEMI_CTX_TAGS(ctx) ((uintptr_t)(ctx)&SHMEMI_CTX_TAG_MASK)
#define SHMEMI_CTX_OBJECT(ctx) ((struct shmemi_ctx *)((uintptr_t)(ctx) & ~SHMEMI_CTX_TAG_MASK))

struct shmemi_team;

struct shmemi_ctx {
    uint32_t magic;
    uint32_t bypass; /* nonzero when options has SHMEMX_CTX_BYPASS */
    long options;    /* SHMEM_CTX_* and SHMEMX_CTX_* bits given at creation */
    /* The team the context was created on (NULL: the world team). PE arguments of operations on
     * the context are team-relative: world PE = team_start + pe * team_stride, 0 <= pe <
     * team_n_pes. */
    struct shmemi_team *team;
    int team_start;
    int team_stride;
    int team_n_pes;
    int reserved;
    /* The network transport's state for this context (host code only; NULL without one). */
    void *transport;
};

#endif
