/* SPDX-License-Identifier: BSD-3-Clause */
/* The decisions of the wait policy (src/host/relax.h): pure functions of what the caller
 * measured, so that tests drive them directly. */
#include "host/relax.h"

/* Spin phase of a wait on a quiet machine: about as long as the spin before a yield was when every
 * PE had a core, a few hundred microseconds; longer ones cost only power. */
#define QUIET_SPIN_NS 500000u
/* On a loaded machine: a few scheduler time slices. The peer being waited for may be preempted
 * for a slice; spinning keeps this PE on its processor, so it sees the answer at once, where a
 * yield or a sleep would hand the processor to another task for a slice. */
#define LOADED_SPIN_NS 5000000u
/* A PE that shares its processor yields at once and keeps yielding this long. */
#define SHARED_YIELD_NS 2000000u
/* Otherwise a wait yields until it is this old, then sleeps: a PE that waits that long (a peer
 * computing, a stuck job) should leave the processor to others. */
#define YIELD_UNTIL_NS 20000000u
#define MIN_SLEEP_NS 10000u

shmemi_relax_policy_t shmemi_relax_policy(int peer_on_my_cpu, double runnable, long cores) {
    shmemi_relax_policy_t p;
    if (peer_on_my_cpu) {
        p.spin_ns = 0;
        p.yield_ns = SHARED_YIELD_NS;
    } else if (cores > 0 && runnable > (double)cores) {
        p.spin_ns = LOADED_SPIN_NS;
        p.yield_ns = YIELD_UNTIL_NS;
    } else {
        p.spin_ns = QUIET_SPIN_NS;
        p.yield_ns = YIELD_UNTIL_NS;
    }
    return p;
}

shmemi_relax_action_t shmemi_relax_action(const shmemi_relax_policy_t *policy, uint64_t waited_ns,
                                          uint64_t *sleep_ns_p) {
    if (waited_ns < policy->spin_ns)
        return SHMEMI_RELAX_SPIN;
    if (waited_ns < policy->yield_ns)
        return SHMEMI_RELAX_YIELD;
    /* Grows with the time spent in the sleep phase (an eighth of it), so the end of a long wait
     * is seen at most about 12% late. */
    uint64_t sleep_ns = MIN_SLEEP_NS + (waited_ns - policy->yield_ns) / 8;
    *sleep_ns_p = sleep_ns < SHMEMI_RELAX_MAX_SLEEP_NS ? sleep_ns : SHMEMI_RELAX_MAX_SLEEP_NS;
    return SHMEMI_RELAX_SLEEP;
}
