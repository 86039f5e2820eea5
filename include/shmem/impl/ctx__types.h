/* The structure behind shmem_ctx_t. Plain data, so that host code and GPU kernels read the same
 * fields; created and destroyed only by the library (src/host/ctx.c). */
#ifndef SHMEM_IMPL_CTX__TYPES_H
#define SHMEM_IMPL_CTX__TYPES_H

#include <stdint.h>

/* Marks a live context; cleared when the context is destroyed. */
#define SHMEMI_CTX_MAGIC 0x53484354u

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
    struct shmemi_ctx *next_free; /* the library's free list of context objects */
};

#endif
