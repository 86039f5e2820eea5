/* SPDX-License-Identifier: BSD-3-Clause */
/* The machine's load as the waits see it: tasks ready to run against processors. Read by the
 * wait policy (src/host/relax.c) and by a library wait that sleeps in the network transport
 * (shmemi_progress_sleep), which may poll a busy transport only while the machine is quiet. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shmemi.h"

/* /proc/loadavg is read at most this often per process. */
#define LOAD_TTL_NS 20000000u

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

int shmemi_machine_loaded(void) {
    long cores = shmemi_cores();
    return cores > 0 && shmemi_runnable_tasks(clock_ns()) > (double)cores;
}
