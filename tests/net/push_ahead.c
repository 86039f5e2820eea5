/* SPDX-License-Identifier: BSD-3-Clause */
/* A sender of eager pushes runs up to eight collectives ahead of a receiver on another node
 * before it waits for a credit (docs/collectives.md, "Pushes across nodes"): PE 0 roots eight
 * small broadcasts while every PE on another node sleeps outside the library for LATE_S seconds,
 * and PE 0's eight calls must all return long before those PEs join. Then they join, and every
 * PE checks every broadcast's data. Where the inbox had fewer slots than that, PE 0 waited for
 * the sleepers in a later broadcast. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#define AHEAD 8
#define LATE_S 3.0

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long source[AHEAD], dest[AHEAD];

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), bad = 0;
    for (int i = 0; i < AHEAD; i++) {
        source[i] = me == 0 ? 1000 + i : -1;
        dest[i] = -1;
    }
    /* Every PE's endpoints to the others exist before the timed part. */
    shmem_barrier_all();
    int remote = shmem_ptr(dest, 0) == NULL;
    if (remote)
        usleep((useconds_t)(LATE_S * 1e6));
    double start = now();
    for (int i = 0; i < AHEAD; i++)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, &dest[i], &source[i], sizeof(long), 0);
    double took = now() - start;
    if (me == 0 && took > LATE_S / 2) {
        printf("push_ahead: FAIL: PE 0's %d broadcasts took %.2f s: they waited for the PEs on "
               "other nodes, which slept %.1f s\n",
               AHEAD, took, LATE_S);
        bad = 1;
    }
    shmem_barrier_all();
    for (int i = 0; i < AHEAD; i++) {
        if (me != 0 && dest[i] != 1000 + i) {
            printf("push_ahead: FAIL: PE %d got %ld from broadcast %d, not %d\n", me, dest[i], i,
                   1000 + i);
            bad = 1;
        }
    }
    if (!bad)
        printf("push_ahead: PE %d done (%d broadcasts in %.3f s%s)\n", me, AHEAD, took,
               remote ? ", after its sleep" : "");
    shmem_finalize();
    return bad;
}
