/* SPDX-License-Identifier: BSD-3-Clause */
/* Barriers and synchronization (OpenSHMEM 1.6 section "Memory Ordering and Synchronization
 * Routines": barrier_all, sync_all, team_sync, and the deprecated active-set barrier and sync).
 * Algorithm: dissemination barrier, see docs/collectives.md. */
#ifndef SHMEM_SYNC_H
#define SHMEM_SYNC_H

#include <shmem/types.h>
#include <shmem/team.h>

SHMEMI_EXTERN_C_BEGIN

/* Returns when every PE called it; completes all operations of the default context first (quiet)
 * and makes them visible to every PE after the barrier: sc, scope world. Litmus: MP+barrier,
 * MP+barrier+ctx, MP+st+barrier. */
void shmem_barrier_all(void);

/* Returns when every PE called it; no completion of outstanding puts or AMOs, but local stores
 * before it happen-before every PE's accesses after it (release/acquire), scope world. */
void shmem_sync_all(void);

/* Returns when every member of team called it; ordering as shmem_sync_all, scope team. Returns 0.
 */
int shmem_team_sync(shmem_team_t team);

/* Deprecated (active set PE_start, 2^logPE_stride, PE_size): returns when every PE of the set
 * called it; quiet on the default context first, like shmem_barrier_all. pSync is not written. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* Deprecated (active set): returns when every PE of the set called it; ordering as sync_all. */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

SHMEMI_EXTERN_C_END

/* shmem_sync(team) is the C11 and C++ name of shmem_team_sync; shmem_sync with four arguments
 * stays the deprecated active-set routine. */
#ifdef __cplusplus
extern "C++" {
static inline int shmem_sync(shmem_team_t team) {
    return shmem_team_sync(team);
}
}
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SHMEMI_SYNC_PICK(a1, a2, a3, a4, name, ...) name
#define shmem_sync(...)                                                                            \
    SHMEMI_SYNC_PICK(__VA_ARGS__, shmem_sync, shmem_sync, shmem_sync, shmem_team_sync, ~)          \
    (__VA_ARGS__)
#endif

#endif
