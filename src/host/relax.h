/* SPDX-License-Identifier: BSD-3-Clause */
/* How a waiting PE uses its processor: every library wait (wait_until, signal_wait_until, the
 * collective tokens, locks) calls shmemi_relax on each unsuccessful check. A wait spins (pause)
 * while spinning is the fastest way to see the word change, yields while a peer may need the
 * processor, then sleeps with a growing back-off. The thresholds adapt to the machine's load and to
 * whether another PE of the job runs on this PE's processor:
 * - another PE on this processor: spinning only delays it, so yield at once;
 * - more runnable tasks than processors: a yield or a sleep gives the processor away for a
 *   scheduler time slice (milliseconds), while the PE being waited for runs on another processor
 *   and answers within microseconds, so spin for longer;
 * - a quiet machine: spin for a while, then yield (cheap when nothing else wants the processor).
 * The decision functions are pure, so that tests can drive them. */
#ifndef SHMEM_SRC_HOST_RELAX_H
#define SHMEM_SRC_HOST_RELAX_H

#include <stdint.h>

#include "core/shmemi.h"

typedef enum {
    SHMEMI_RELAX_SPIN,  /* a pause instruction */
    SHMEMI_RELAX_YIELD, /* sched_yield */
    SHMEMI_RELAX_SLEEP, /* nanosleep */
} shmemi_relax_action_t;

/* The thresholds of one wait, measured from its start. */
typedef struct {
    uint64_t spin_ns;  /* spin until the wait is this old */
    uint64_t yield_ns; /* then yield until it is this old, then sleep */
} shmemi_relax_policy_t;

/* Thresholds for a PE that shares its processor with another PE of the job (peer_on_my_cpu) or
 * not, on a machine with runnable tasks ready to run (including this one) and cores processors. */
shmemi_relax_policy_t shmemi_relax_policy(int peer_on_my_cpu, double runnable, long cores);

/* What a wait that has lasted waited_ns does next; for SLEEP, *sleep_ns_p receives how long
 * (growing with the wait, at most SHMEMI_RELAX_MAX_SLEEP_NS). */
shmemi_relax_action_t shmemi_relax_action(const shmemi_relax_policy_t *policy, uint64_t waited_ns,
                                          uint64_t *sleep_ns_p);

#define SHMEMI_RELAX_MAX_SLEEP_NS 1000000u

/* Set-up at shmem_init (collective: allocates a word of the internal segment on every PE, where
 * each PE publishes the processor it last waited on) and its undoing at finalize. */
shmemi_status_t shmemi_relax_init(void);
void shmemi_relax_finalize(void);

/* One step of a wait; *spins counts the calls of this wait and starts at 0. */
void shmemi_relax(unsigned *spins);

#endif
