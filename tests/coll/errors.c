/* SPDX-License-Identifier: BSD-3-Clause */
/* Bad input to teams and collectives must end the job with a clear message, never hang. argv[1]
 * names the case; ctest matches the message (tests/coll/CMakeLists.txt). */
#include <string.h>

#include "coll_test.h"

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    if (strncmp(what, "mismatch", 8) == 0)
        setenv("SHMEM_DEBUG", "1", 1);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *buf = shmem_malloc(64 * sizeof(long));
    long *psync = shmem_malloc(SHMEM_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < 64; i++)
        buf[i] = i + 1;
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (strcmp(what, "invalid_team") == 0) {
        shmem_long_sum_reduce(SHMEM_TEAM_INVALID, buf + 32, buf, 4);
    } else if (strcmp(what, "bad_root") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, buf + 32, buf, 4, n);
    } else if (strcmp(what, "overlap") == 0) {
        shmem_long_fcollect(SHMEM_TEAM_WORLD, buf + 1, buf, 2);
    } else if (strcmp(what, "mismatch") == 0) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, buf + 32, buf, me == 0 ? 2 : 3);
    } else if (strcmp(what, "overlap_bcast_root") == 0) {
        /* Only the root's dest and source overlap, by part, over more than 2 MiB. */
        size_t bytes = 3 << 20;
        char *big = shmem_malloc(2 * bytes);
        shmem_broadcastmem(SHMEM_TEAM_WORLD, me == 0 ? big + bytes / 3 : big + bytes, big, bytes,
                           0);
    } else if (strcmp(what, "mismatch_rounds") == 0) {
        /* Sizes that agree in the first two rounds of 2 MiB of the staged path; PE 0 has a third.
         */
        size_t bytes = me == 0 ? (5 << 20) : (4 << 20);
        char *big = shmem_malloc(2 * (5 << 20));
        shmem_broadcastmem(SHMEM_TEAM_WORLD, big + (5 << 20), big, bytes, 0);
    } else if (strcmp(what, "mismatch_kind") == 0) {
        /* A barrier against a reduction: different routines on one team. */
        if (me == 0)
            shmem_barrier_all();
        else
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, buf + 32, buf, 4);
    } else if (strcmp(what, "mismatch_root") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, buf + 32, buf, 4, me == 0 ? 0 : 1);
    } else if (strcmp(what, "mismatch_split") == 0) {
        /* PE 0's triplet selects no team (it would return -1 at once), the others' one does. */
        shmem_team_t team;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, me == 0 ? n + 1 : n, NULL, 0, &team);
    } else if (strcmp(what, "mismatch_split_2d") == 0) {
        shmem_team_t x, y;
        shmem_team_split_2d(SHMEM_TEAM_WORLD, me == 0 ? 0 : 2, NULL, 0, &x, NULL, 0, &y);
    } else if (strcmp(what, "mismatch_bcast_stack") == 0) {
        /* dest on the stack: not symmetric, also where the algorithm would not touch it. */
        long local[4];
        shmem_long_broadcast(SHMEM_TEAM_WORLD, local, buf, 4, 0);
    } else if (strcmp(what, "stack_dest") == 0) {
        long dest[4];
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, buf, 4);
        printf("%ld\n", dest[0]);
    } else if (strcmp(what, "not_in_set") == 0) {
        shmem_barrier(1, 0, n - 1, psync);
    } else if (strcmp(what, "destroy_world") == 0) {
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    } else {
        fprintf(stderr, "unknown case '%s'\n", what);
    }
    shmem_finalize();
    return 0;
}
