/* SPDX-License-Identifier: BSD-3-Clause */
/* Teams (OpenSHMEM 1.6 section "Team Management Routines"). A team is an ordered set of PEs;
 * every team of this library is an arithmetic progression of world PE numbers. Collectives on
 * teams are in shmem/coll.h, team_sync in shmem/sync.h. */
#ifndef SHMEM_TEAM_H
#define SHMEM_TEAM_H

#include <stdint.h>

#include <shmem/types.h>

/* A team handle. Handles are small integers in disguise, so the predefined ones below are
 * compile-time constants: they may initialize static variables and be compared with ==. */
typedef struct shmemi_team *shmem_team_t;

#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_WORLD ((shmem_team_t)(intptr_t)1)
#define SHMEM_TEAM_SHARED ((shmem_team_t)(intptr_t)2)

/* Requested capabilities of a new team (shmem_team_split_*). */
typedef struct {
    int num_contexts;
} shmem_team_config_t;

/* Bits of config_mask: which fields of shmem_team_config_t are valid. */
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

SHMEMI_EXTERN_C_BEGIN

/* Local query, no communication; returns the caller's index in team, -1 for SHMEM_TEAM_INVALID. */
int shmem_team_my_pe(shmem_team_t team);

/* Local query, no communication; returns the number of PEs in team, -1 for SHMEM_TEAM_INVALID. */
int shmem_team_n_pes(shmem_team_t team);

/* Local query, no communication; copies the configuration team was created with into config for
 * the fields named in config_mask. Returns 0, or nonzero for SHMEM_TEAM_INVALID. */
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);

/* Local query, no communication; returns the index in dest_team of PE src_pe of src_team, or -1
 * when it is not a member or either team is SHMEM_TEAM_INVALID. */
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);

/* Collective over parent_team, returns when the new team exists on every member (no ordering of
 * other operations). The new team holds parent PEs start, start + stride, ... (size of them).
 * Non-members and all PEs of a failed split get SHMEM_TEAM_INVALID; returns 0 on success, nonzero
 * when the library ran out of teams, parent_team is SHMEM_TEAM_INVALID or start, stride and size
 * select no PEs of parent_team (size < 1, a PE out of range). */
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);

/* Collective over parent_team, like shmem_team_split_strided: arranges the parent in rows of
 * xrange PEs; xaxis_team is the caller's row, yaxis_team its column. Returns 0 on success. */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);

/* Collective over team; returns after every member called it (it synchronizes the team, with no
 * completion of outstanding operations). SHMEM_TEAM_INVALID is ignored. */
void shmem_team_destroy(shmem_team_t team);

/* Local; creates a context whose PE numbers are indices in team. Returns 0, or nonzero when team is
 * SHMEM_TEAM_INVALID or no context can be made (then *ctx is SHMEM_CTX_INVALID). */
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);

/* Local query; the team ctx was created on (SHMEM_TEAM_WORLD for the default context). Returns 0,
 * or nonzero with *team = SHMEM_TEAM_INVALID for an invalid context. */
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* Local query, no communication; the local address of symmetric object dest on team member pe
 * when it is reachable by loads and stores, else NULL (also NULL for SHMEM_TEAM_INVALID). */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

SHMEMI_EXTERN_C_END

#endif
