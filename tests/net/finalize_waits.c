/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_finalize returns on no PE before every PE has called it (its last barrier, through the
 * bootstrap, must block): PE 0 calls it two seconds late, and each PE measures how long its own
 * call took. A launcher whose barrier let PEs through at once (Slurm's PMIx plug-in answers a
 * fence without data collection so) would let the others return at once, tear down their
 * endpoints while PE 0 still used them, and end the job with a lost connection. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#define LATE_S 2.0

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe();
    double start = now();
    if (me == 0)
        usleep((useconds_t)(LATE_S * 1e6));
    shmem_finalize();
    double took = now() - start;
    /* A little short of LATE_S: the PEs left the barrier before it at slightly different times. */
    if (took < LATE_S - 0.5) {
        printf("finalize_waits: FAIL: PE %d returned from shmem_finalize after %.2f s, before PE 0 "
               "(%.1f s late) called it\n",
               me, took, LATE_S);
        return 1;
    }
    printf("finalize_waits: PE %d waited %.2f s\n", me, took);
    return 0;
}
