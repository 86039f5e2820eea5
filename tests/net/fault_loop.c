/* SPDX-License-Identifier: BSD-3-Clause */
/* A job for the fault tests (faults.sh): every PE puts to and gets from the next PE, with a quiet
 * after each round, for up to SECONDS seconds (argument, default 60), printing "fault_loop:
 * running" once every PE has done a round, so that the test knows when to strike. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long word[64];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 60;
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n;
    long src[64], got[64];
    for (int i = 0; i < 64; i++)
        src[i] = me * 1000 + i;
    shmem_long_put(word, src, 64, next);
    shmem_barrier_all();
    if (me == 0) {
        printf("fault_loop: running\n");
        fflush(stdout);
    }
    double end = now() + seconds;
    while (now() < end) {
        shmem_long_put(word, src, 64, next);
        shmem_quiet();
        shmem_long_get(got, word, 64, next);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
