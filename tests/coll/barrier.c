/* SPDX-License-Identifier: BSD-3-Clause */
/* barrier_all, sync_all, team_sync and the active-set barrier and sync: after each, every PE must
 * see the values every other PE stored before it, round after round. */
#include <string.h>

#include "coll_test.h"

static void check_round(long *slots, int round, int n, int first, int stride, int members) {
    for (int i = 0; i < members; i++) {
        int pe = first + i * stride;
        long want = (long)(ct_rand((uint64_t)pe, (uint64_t)round, 7) >> 1);
        long got = shmem_long_atomic_fetch(&slots[round % 2], pe);
        CHECK(got == want, "round %d: PE %d's slot is %ld, expected %ld (n %d)", round, pe, got,
              want, n);
    }
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *slots = shmem_malloc(2 * sizeof(long));
    long *psync = shmem_malloc(SHMEM_BARRIER_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (int round = 0; round < 200; round++) {
        /* Two slots alternate, so a slot is rewritten only after a further barrier. */
        __atomic_store_n(&slots[round % 2], (long)(ct_rand((uint64_t)me, (uint64_t)round, 7) >> 1),
                         __ATOMIC_RELAXED);
        switch (round % 4) {
        case 0:
            shmem_barrier_all();
            break;
        case 1:
            shmem_sync_all();
            break;
        case 2:
            if (round % 8 == 2)
                CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "team_sync failed");
            else
                CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team) failed");
            break;
        default:
            shmem_barrier(0, 0, n, psync);
            break;
        }
        check_round(slots, round, n, 0, 1, n);
    }
    shmem_barrier_all();
    /* Active sets: the even PEs, then PEs 1, 3, ... (stride 2), while the others wait. */
    for (int first = 0; first < 2 && first < n; first++) {
        int members = (n - first + 1) / 2;
        if (me % 2 == first) {
            for (int round = 1000; round < 1040; round++) {
                __atomic_store_n(&slots[round % 2],
                                 (long)(ct_rand((uint64_t)me, (uint64_t)round, 7) >> 1),
                                 __ATOMIC_RELAXED);
                if (round % 2)
                    shmem_sync(first, 1, members, psync);
                else
                    shmem_barrier(first, 1, members, psync);
                check_round(slots, round, n, first, 2, members);
            }
        }
        shmem_barrier_all();
    }
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        CHECK(psync[i] == SHMEM_SYNC_VALUE, "pSync[%d] changed to %ld", i, psync[i]);
    shmem_free(psync);
    shmem_free(slots);
    shmem_finalize();
    return 0;
}
