/* SPDX-License-Identifier: BSD-3-Clause */
// The wait policy's decisions (src/host/relax_policy.c): when a wait spins, yields and sleeps.
#include <gtest/gtest.h>

extern "C" {
#include "host/relax.h"
}

namespace {

constexpr uint64_t us = 1000, ms = 1000 * us;

shmemi_relax_action_t action_at(const shmemi_relax_policy_t &p, uint64_t waited) {
    uint64_t sleep_ns = 0;
    return shmemi_relax_action(&p, waited, &sleep_ns);
}

// A machine with twice as many runnable tasks as processors, and the peer on another processor:
// a yield would give this PE's processor away for a time slice, so the wait keeps spinning.
TEST(RelaxPolicy, LoadedMachineKeepsSpinning) {
    shmemi_relax_policy_t p = shmemi_relax_policy(0, 4.0, 2);
    EXPECT_EQ(action_at(p, 10 * us), SHMEMI_RELAX_SPIN);
    EXPECT_EQ(action_at(p, 1 * ms), SHMEMI_RELAX_SPIN);
    EXPECT_GE(p.spin_ns, shmemi_relax_policy(0, 1.0, 2).spin_ns);
}

TEST(RelaxPolicy, QuietMachineSpinsThenYields) {
    shmemi_relax_policy_t p = shmemi_relax_policy(0, 1.0, 2);
    EXPECT_EQ(action_at(p, 10 * us), SHMEMI_RELAX_SPIN);
    EXPECT_EQ(action_at(p, 100 * us), SHMEMI_RELAX_SPIN);
    EXPECT_EQ(action_at(p, 5 * ms), SHMEMI_RELAX_YIELD);
}

// Another PE on this processor: spinning only delays it.
TEST(RelaxPolicy, SharedProcessorYieldsAtOnce) {
    for (double runnable : {1.0, 4.0, 40.0}) {
        shmemi_relax_policy_t p = shmemi_relax_policy(1, runnable, 2);
        EXPECT_EQ(action_at(p, 0), SHMEMI_RELAX_YIELD) << runnable;
        EXPECT_EQ(action_at(p, 1 * us), SHMEMI_RELAX_YIELD) << runnable;
    }
}

// A long wait sleeps, longer as it goes on, never more than the cap.
TEST(RelaxPolicy, LongWaitsSleepWithBoundedBackOff) {
    for (int shared = 0; shared < 2; shared++)
        for (double runnable : {0.5, 4.0}) {
            shmemi_relax_policy_t p = shmemi_relax_policy(shared, runnable, 2);
            uint64_t previous = 0;
            for (uint64_t waited = p.yield_ns; waited < 10000 * ms; waited *= 2) {
                uint64_t sleep_ns = 0;
                ASSERT_EQ(shmemi_relax_action(&p, waited, &sleep_ns), SHMEMI_RELAX_SLEEP);
                EXPECT_GT(sleep_ns, 0u);
                EXPECT_GE(sleep_ns, previous);
                EXPECT_LE(sleep_ns, SHMEMI_RELAX_MAX_SLEEP_NS);
                previous = sleep_ns;
            }
            EXPECT_EQ(previous, SHMEMI_RELAX_MAX_SLEEP_NS);
        }
}

// Unknown processor count (sysconf failed): the quiet policy.
TEST(RelaxPolicy, UnknownCoresIsQuiet) {
    shmemi_relax_policy_t p = shmemi_relax_policy(0, 100.0, -1);
    EXPECT_EQ(p.spin_ns, shmemi_relax_policy(0, 0.0, 2).spin_ns);
}

} // namespace
