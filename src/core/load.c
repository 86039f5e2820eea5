/* SPDX-License-Identifier: BSD-3-Clause */
/* The machine's load as the waits see it: tasks ready to run against processors, and whether the
 * calling thread has had to wait for its processor. Read by the wait policy (src/host/relax.c)
 * and by a library wait that sleeps in the network transport (shmemi_progress_sleep), which may
 * poll a busy transport only where that takes a processor from nobody. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shmemi.h"

/* /proc/loadavg is read at most this often per process. */
#define LOAD_TTL_NS 20000000u

/* This thread's scheduler statistics are read at most this often: the window over which its
 * waits for a processor are summed, several scheduler slices (a few milliseconds each). */
#define SCHEDSTAT_TTL_NS 20000000u

/* The load: runnable tasks (x1000), and when it was read; the processors online (0: not yet
 * asked). Atomics: every thread may refresh them. */
static uint64_t load_milli, load_read_ns;
static long online_cores;

static uint64_t clock_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double shmemi_runnable_tasks(uint64_t now_ns) {
    uint64_t at = __atomic_load_n(&load_read_ns, __ATOMIC_RELAXED);
    if (at != 0 && now_ns - at < LOAD_TTL_NS)
        return (double)__atomic_load_n(&load_milli, __ATOMIC_RELAXED) / 1000.0;
    double runnable = -1;
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[128];
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        int running = 0, total = 0;
        double l1, l5, l15;
        if (n > 0) {
            buf[n] = '\0';
            if (sscanf(buf, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) == 5)
                runnable = running;
        }
    }
    if (runnable < 0 && getloadavg(&runnable, 1) != 1)
        runnable = 0;
    __atomic_store_n(&load_milli, (uint64_t)(runnable * 1000.0), __ATOMIC_RELAXED);
    __atomic_store_n(&load_read_ns, now_ns, __ATOMIC_RELAXED);
    return runnable;
}

long shmemi_cores(void) {
    long cores = __atomic_load_n(&online_cores, __ATOMIC_RELAXED);
    if (cores == 0) {
        cores = sysconf(_SC_NPROCESSORS_ONLN);
        __atomic_store_n(&online_cores, cores, __ATOMIC_RELAXED);
    }
    return cores;
}

int shmemi_contended(uint64_t waited_ns, uint64_t window_ns) {
    /* Polling alone on a processor, a thread waits only while the kernel's own threads run: a
     * few percent of the time; sharing it with one other task that runs, about half. */
    return waited_ns > window_ns / 8;
}

/* This thread's last reading of its statistics (read_ns 0: none; waited_ns valid only after a
 * reading that succeeded). */
static __thread uint64_t sched_read_ns, sched_waited_ns;
static __thread int sched_valid;
/* Polling found contended: this thread's waits do not poll until banned_until_ns. A ban lasts four
 * times the one before (ban_ns) and a window of polling that was not contended halves it, so a
 * thread on a busy processor tries again rarely (its first window after a ban, run on the
 * scheduler's credit for its sleep, may look free), and one whose processor freed up soon polls
 * again. */
static __thread uint64_t banned_until_ns, ban_ns;

#define BAN_MIN_NS 10000000u
#define BAN_MAX_NS 320000000u

/* Reads this thread's statistics (its time run and time waited on a run queue, in ns); -1 where
 * they are not known (no such file, the first reading, a fresh start), else whether it had to wait
 * for its processor since the last reading (shmemi_contended). fresh: start a new window without
 * a verdict. */
static int read_sched(uint64_t now_ns, int fresh) {
    uint64_t window_ns = now_ns - sched_read_ns;
    sched_read_ns = now_ns;
    unsigned long long waited = 0;
    int got = 0;
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char buf[96];
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n > 0) {
            buf[n] = '\0';
            got = sscanf(buf, "%*u %llu", &waited) == 1;
        }
    }
    int verdict = got && sched_valid && !fresh && waited >= sched_waited_ns
                      ? shmemi_contended(waited - sched_waited_ns, window_ns)
                      : -1;
    sched_valid = got;
    sched_waited_ns = waited;
    return verdict;
}

/* Whether this thread's processor was free to poll on over its last window (SCHEDSTAT_TTL_NS or
 * more): 0 while a ban lasts, else whether its statistics are known and the last window was not
 * contended. */
static int processor_free(uint64_t now_ns) {
    if (banned_until_ns != 0 && now_ns < banned_until_ns)
        return 0;
    if (banned_until_ns != 0 || sched_read_ns == 0) {
        /* A first window, or one after a ban: the time since the last reading was spent sleeping,
         * which says nothing of polling. */
        banned_until_ns = 0;
        read_sched(now_ns, 1);
        return sched_valid;
    }
    if (now_ns - sched_read_ns < SCHEDSTAT_TTL_NS)
        return sched_valid;
    int verdict = read_sched(now_ns, 0);
    if (verdict == 1) {
        ban_ns = ban_ns < BAN_MIN_NS       ? BAN_MIN_NS
                 : ban_ns * 4 > BAN_MAX_NS ? BAN_MAX_NS
                                           : ban_ns * 4;
        banned_until_ns = now_ns + ban_ns;
        return 0;
    }
    if (verdict == 0)
        ban_ns /= 2;
    return verdict == 0;
}

int shmemi_wait_may_poll(void) {
    uint64_t now = clock_ns();
    /* Kept up to date also while the machine is not loaded, so that the window it judges when
     * the load rises is a recent one. */
    int free_cpu = processor_free(now);
    long cores = shmemi_cores();
    return free_cpu || !(cores > 0 && shmemi_runnable_tasks(now) > (double)cores);
}
