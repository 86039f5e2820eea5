/* SPDX-License-Identifier: BSD-3-Clause */
/* Barriers: a dissemination barrier over the team's token channel (coll_internal.h). Each of
 * ceil(log2 n) rounds sends one token to the member 2^k ahead and waits for one from the member
 * 2^k behind, so every PE does O(log n) work, with no shared counter for all PEs to contend on.
 * The release/acquire tokens chain, so everything a PE stored before the barrier happens-before
 * everything every member does after it. A team that spans nodes synchronizes each node, then one
 * leader per node over the network, then each node again (shmemi_team_barrier). */

#include "coll_internal.h"
#include "core/watch.h"

void shmem_barrier_all(void) {
    shmemi_check_init("shmem_barrier_all");
    shmemi_watch_call("shmem_barrier_all");
    shmemi_coll_check("shmem_barrier_all", &shmemi_teams[SHMEMI_TEAM_WORLD_SLOT], -1, -1);
    shmemi_coll_quiet();
    shmemi_team_barrier(&shmemi_teams[SHMEMI_TEAM_WORLD_SLOT]);
}

void shmem_sync_all(void) {
    shmemi_check_init("shmem_sync_all");
    shmemi_watch_call("shmem_sync_all");
    shmemi_coll_check("shmem_sync_all", &shmemi_teams[SHMEMI_TEAM_WORLD_SLOT], -1, -1);
    shmemi_team_barrier(&shmemi_teams[SHMEMI_TEAM_WORLD_SLOT]);
}

int shmem_team_sync(shmem_team_t team) {
    shmemi_team_state_t *t = shmemi_team_get("shmem_team_sync", team);
    shmemi_coll_check("shmem_team_sync", t, -1, -1);
    shmemi_team_barrier(t);
    return 0;
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set("shmem_barrier", PE_start, logPE_stride, PE_size, pSync, &t);
    shmemi_coll_check("shmem_barrier", &t, -1, -1);
    shmemi_coll_quiet();
    shmemi_team_barrier(&t);
}

/* Parenthesized: shmem.h defines shmem_sync as a C11 macro too. */
void(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set("shmem_sync", PE_start, logPE_stride, PE_size, pSync, &t);
    shmemi_coll_check("shmem_sync", &t, -1, -1);
    shmemi_team_barrier(&t);
}
