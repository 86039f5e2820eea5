/* SPDX-License-Identifier: BSD-3-Clause */
/* The wait policy at run time (src/host/relax.h): per wait, when it started and its thresholds;
 * per PE, the processor it last waited on, published in the internal segment so that the PEs of
 * a node see who shares their processor. */
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/shmemi.h"
#include "host/relax.h"

/* Calls of a wait that only pause, before it looks at the clock: short waits cost nothing more. */
#define SHMEMI_RELAX_FIRST_CHECK 64u
/* While spinning, the clock is read every this many calls. */
#define SHMEMI_RELAX_CHECK_EVERY 64u
/* A wait chooses its thresholds again this often (a peer may have moved, the load changed). */
#define SHMEMI_RELAX_REFRESH_NS 200000u

/* This PE's word of the internal segment: 1 + the processor it last waited on (0: unknown). */
static int *my_cpu;
/* The same word of every other PE that this PE maps (its node), and their number. */
static const int **node_cpu;
static int n_node;
static long cores;
/* More PEs on this node than processors: some always share one. */
static int oversubscribed;

/* The current wait of this thread. */
static __thread uint64_t wait_start_ns, wait_refresh_ns;
static __thread shmemi_relax_policy_t wait_policy;
static __thread int wait_spinning;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Publishes the processor this PE runs on (while it spins, at every look at the clock, so that
 * the word is fresh as long as the PE runs; a PE that was preempted leaves the processor it is
 * queued on). Returns it, or -1. */
static int publish_cpu(void) {
    int cpu = sched_getcpu();
    if (cpu >= 0 && my_cpu != NULL && __atomic_load_n(my_cpu, __ATOMIC_RELAXED) != cpu + 1)
        __atomic_store_n(my_cpu, cpu + 1, __ATOMIC_RELAXED);
    return cpu;
}

/* Whether another PE of the node runs, or waits to run, on this PE's processor. */
static int peer_on_my_cpu(void) {
    if (oversubscribed)
        return 1;
    int cpu = publish_cpu();
    if (cpu < 0 || my_cpu == NULL)
        return 0;
    for (int i = 0; i < n_node; i++)
        if (__atomic_load_n(node_cpu[i], __ATOMIC_RELAXED) == cpu + 1)
            return 1;
    return 0;
}

static void choose_policy(uint64_t now) {
    wait_policy = shmemi_relax_policy(peer_on_my_cpu(), shmemi_runnable_tasks(now), cores);
    wait_refresh_ns = now + SHMEMI_RELAX_REFRESH_NS;
}

void shmemi_relax(unsigned *spins) {
    unsigned s = (*spins)++;
    if (s < SHMEMI_RELAX_FIRST_CHECK) {
        shmemi_cpu_pause();
        return;
    }
    if (s > SHMEMI_RELAX_FIRST_CHECK && wait_spinning && s % SHMEMI_RELAX_CHECK_EVERY != 0) {
        shmemi_cpu_pause();
        return;
    }
    uint64_t now = now_ns();
    if (s == SHMEMI_RELAX_FIRST_CHECK) {
        wait_start_ns = now;
        choose_policy(now);
    } else if (now >= wait_refresh_ns) {
        choose_policy(now);
    }
    uint64_t sleep_ns = 0;
    switch (shmemi_relax_action(&wait_policy, now - wait_start_ns, &sleep_ns)) {
    case SHMEMI_RELAX_SPIN:
        wait_spinning = 1;
        publish_cpu();
        shmemi_cpu_pause();
        break;
    case SHMEMI_RELAX_YIELD:
        wait_spinning = 0;
        sched_yield();
        break;
    case SHMEMI_RELAX_SLEEP: {
        wait_spinning = 0;
        shmemi_progress_sleep(sleep_ns);
        break;
    }
    }
}

shmemi_status_t shmemi_relax_init(void) {
    int n = shmemi_state.n_pes, me = shmemi_state.my_pe;
    cores = shmemi_cores();
    my_cpu = shmemi_internal_alloc(sizeof(int), 64);
    node_cpu = calloc((size_t)n, sizeof(*node_cpu));
    n_node = 0;
    if (my_cpu == NULL || node_cpu == NULL)
        return SHMEMI_ERR_NOMEM;
    __atomic_store_n(my_cpu, 0, __ATOMIC_RELAXED);
    for (int pe = 0; pe < n; pe++) {
        const int *w = pe == me ? NULL : shmemi_ptr(my_cpu, pe);
        if (w != NULL)
            node_cpu[n_node++] = w;
    }
    oversubscribed = cores > 0 && n_node + 1 > cores;
    return SHMEMI_OK;
}

void shmemi_relax_finalize(void) {
    free(node_cpu);
    node_cpu = NULL;
    n_node = 0;
    my_cpu = NULL;
}
