/* SPDX-License-Identifier: BSD-3-Clause */
// Whether a library wait may poll a busy network transport (src/core/load.c): the contention
// test on its own, and a thread that shares its processor with busy threads on a loaded machine.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <thread>
#include <vector>

extern "C" {
#include "core/shmemi.h"
}

namespace {

constexpr uint64_t us = 1000, ms = 1000 * us;

TEST(Contended, WaitedShareOfTheWindow) {
    // Alone on a processor: waits only for the kernel's own threads.
    EXPECT_FALSE(shmemi_contended(0, 20 * ms));
    EXPECT_FALSE(shmemi_contended(500 * us, 20 * ms));
    // Exactly an eighth is still free; beyond it, another task takes the processor.
    EXPECT_FALSE(shmemi_contended(2500 * us, 20 * ms));
    EXPECT_TRUE(shmemi_contended(2500 * us + 1, 20 * ms));
    // Sharing it with one busy task: about half.
    EXPECT_TRUE(shmemi_contended(10 * ms, 20 * ms));
    // A long window (a thread that computed between two waits) is judged the same way.
    EXPECT_FALSE(shmemi_contended(50 * ms, 1000 * ms));
    EXPECT_TRUE(shmemi_contended(500 * ms, 1000 * ms));
}

uint64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pin_to(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof(set), &set), 0);
}

// As many busy threads as there are processors, all on this thread's processor: the machine is
// loaded (more runnable tasks than processors) and this thread gets at most half of its
// processor. Its waits may poll at first (nothing is known yet), must stop once a window of
// polling showed it waiting for the processor, and stay off for the ban that follows.
void shared_processor_stops_polling() {
    int cpu = sched_getcpu();
    ASSERT_GE(cpu, 0);
    pin_to(cpu);
    long cores = shmemi_cores();
    ASSERT_GT(cores, 0);
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    for (long i = 0; i < cores; i++)
        busy.emplace_back([&] {
            pin_to(cpu);
            while (!stop.load(std::memory_order_relaxed)) {
            }
        });
    auto spin_for = [](uint64_t ns) {
        uint64_t until = now_ns() + ns;
        while (now_ns() < until) {
        }
    };
    // Let the busy threads start and the load be read after they did.
    spin_for(30 * ms);
    (void)shmemi_wait_may_poll();
    // Two windows of spinning (the wait of a thread that polls) beside the busy threads.
    int polled_after = -1;
    for (int window = 0; window < 2 && polled_after != 0; window++) {
        spin_for(25 * ms);
        polled_after = shmemi_wait_may_poll();
    }
    EXPECT_EQ(polled_after, 0) << "a thread that waited for its processor over a window of 20 ms "
                                  "still polls";
    spin_for(2 * ms);
    EXPECT_EQ(shmemi_wait_may_poll(), 0) << "the ban after a contended window did not hold";
    stop = true;
    for (auto &t : busy)
        t.join();
}

// Each test runs on a thread of its own: the library's verdicts are per thread, and the pinning
// stays with the thread.
TEST(WaitMayPoll, SharedProcessorStopsPolling) {
    std::thread(shared_processor_stops_polling).join();
}

// Nanoseconds this thread has waited on a run queue (the library's source); -1: unknown.
long long run_queue_ns() {
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    unsigned long long ran, waited;
    int got = f && fscanf(f, "%llu %llu", &ran, &waited) == 2;
    if (f)
        fclose(f);
    return got ? (long long)waited : -1;
}

// As many busy threads as there are processors, all on another processor than this thread's: the
// machine is loaded, but polling takes this thread's processor from none of them, so its waits
// poll. Checked only in the windows where this thread measured its processor as free as well
// (other programs, such as tests run beside this one, may take it).
void loaded_machine_free_processor_polls() {
    long cores = shmemi_cores();
    int cpu = sched_getcpu();
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
    int other = -1;
    for (int c = 0; c < CPU_SETSIZE && other < 0; c++)
        if (c != cpu && CPU_ISSET(c, &allowed))
            other = c;
    if (cores < 2 || cpu < 0 || other < 0 || run_queue_ns() < 0)
        GTEST_SKIP() << "needs two processors and /proc/thread-self/schedstat";
    pin_to(cpu);
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    for (long i = 0; i < cores; i++)
        busy.emplace_back([&] {
            pin_to(other);
            while (!stop.load(std::memory_order_relaxed)) {
            }
        });
    auto spin_for = [](uint64_t ns) {
        uint64_t until = now_ns() + ns;
        while (now_ns() < until) {
        }
    };
    spin_for(30 * ms);
    (void)shmemi_wait_may_poll();
    int checked = 0;
    for (int window = 0; window < 20 && checked < 3; window++) {
        long long waited = run_queue_ns();
        uint64_t start = now_ns();
        spin_for(25 * ms);
        int polls = shmemi_wait_may_poll();
        waited = run_queue_ns() - waited;
        // A sixteenth, well below the library's eighth: the two readings are not made at the
        // same instants.
        if ((uint64_t)waited * 16 > now_ns() - start)
            continue;
        checked++;
        EXPECT_EQ(polls, 1) << "window " << window << ": waited " << waited
                            << " ns for the processor and still may not poll";
    }
    stop = true;
    for (auto &t : busy)
        t.join();
    if (checked == 0)
        GTEST_SKIP() << "this thread's processor was busy in every window";
}

TEST(WaitMayPoll, LoadedMachineFreeProcessorPolls) {
    std::thread(loaded_machine_free_processor_polls).join();
}

} // namespace
