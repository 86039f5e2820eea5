/* SPDX-License-Identifier: BSD-3-Clause */
/* The litmus harness: `shmem-litmus run` (run.c) starts one interpreter job per test under
 * shmemrun; each PE of the job reads the test, builds its plan and runs its threads' events as
 * real library calls (cpu.c on the cpu platform), and PE 0 writes the counted final states to a
 * file that the front end turns into a histogram and a verdict. */
#ifndef SHMEM_LITMUS_HARNESS_H
#define SHMEM_LITMUS_HARNESS_H

#include <stdint.h>

#include "plan.h"

typedef struct harness_opts {
    long iterations;     /* instances of the test to run in all */
    long min_iterations; /* max_seconds does not stop a spread test (plan.h) before this many */
    int instances;       /* instances per round (one synchronization of all PEs) */
    int stress;          /* stress threads per PE */
    int prime;           /* GPU: percent of test threads that load their locations first */
    uint64_t seed;       /* placement and slot permutations derive from it */
    double max_seconds;  /* per test: start no round after this long (0: no limit) */
    const char *out;     /* PE 0 writes test i's counted states to OUT.i */
} harness_opts_t;

/* Distinct rows of recorded values (plan order) and how often each was seen. */
typedef struct harness_counts {
    int ncols;
    int n;
    int cap;
    int64_t *rows;
    int64_t *counts;
} harness_counts_t;

void harness_counts_add(harness_counts_t *c, const int64_t *row, int64_t count);
void harness_counts_free(harness_counts_t *c);

/* The interpreter of one PE (started by shmemrun): cpu.c on the cpu, cuda/worker.cu on CUDA.
 * Runs plans[0..n) one after another; every test has the job's number of PEs. */
int harness_worker_main(const harness_opts_t *o, int n, const plan_t *plans);

/* The round loop's common parts. harness_round_done: PE 0, after round `rounds` of test i (done
 * instances so far, elapsed seconds), writes the counts so far to OUT.i.part about once a second
 * (the front end reports them if the test is stopped from outside), decides whether the test has
 * run long enough (done >= iterations, or elapsed >= max_seconds unless the test is spread and
 * has not reached min_iterations) and tells the other PEs through a file next to OUT.i (the PEs
 * share one node); returns the decision. harness_stop_seen: every PE, after the barrier that
 * follows. harness_write_counts: PE 0 writes OUT.i (final) or OUT.i.part, each whole or not at
 * all. */
int harness_round_done(const harness_opts_t *o, int test, const plan_t *p,
                       const harness_counts_t *h, long done, long rounds, double elapsed);
int harness_stop_seen(const harness_opts_t *o, int test);
int harness_write_counts(const harness_opts_t *o, int test, const plan_t *p,
                         const harness_counts_t *h, long rounds, double seconds, int partial);
double harness_now(void);

/* A small deterministic generator, so that every PE derives the same round layout. */
static inline uint64_t harness_rand(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void harness_shuffle(int *a, int n, uint64_t *s) {
    for (int i = 0; i < n; i++)
        a[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(harness_rand(s) % (uint64_t)(i + 1));
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }
}

#endif
