/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress of the network transport on 2 PEs (docs/transports.md, "Progress"). Modes:
 *   computing  PE 1 computes without calling the library while PE 0 makes fetching and
 *              non-fetching AMOs, gets, and puts with quiet to it: the progress thread must
 *              serve them, or PE 0 waits forever (the network timeout ends the job).
 *   asleep     p + wait_until ping-pong: both PEs progress the network in their waits, so the
 *              progress thread must sleep (run with SHMEM_PROGRESS_INTERVAL=1000000): its context
 *              switches, from /proc, are counted and must stay near one per interval, where a
 *              thread that answers every message would switch at least once per message.
 *   malloc     PE 0 gets from PE 1, and both call shmem_malloc at once, with a progress thread that
 *              serves only after a second without progress (SHMEM_PROGRESS_INTERVAL=1000000):
 *              PE 0's quiet in shmem_malloc (the get's reply) comes at once only if PE 1's wait in
 * it progresses the network; if it waited in something that does not (the bootstrap's exchange), PE
 * 0 would wait for the thread, a second or more. */
#include <dirent.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AMOS 200
#define PINGPONGS 1000

static long counter;
static long data[64];
static long done;
static long ping;
static long pong;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Voluntary plus involuntary context switches of the thread named shmem-progress; -1 when this
 * process has none. */
static long progress_thread_switches(void) {
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    long switches = -1;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && switches < 0) {
        char path[300], line[128];
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int named = fgets(line, sizeof(line), f) && strncmp(line, "shmem-progress", 14) == 0;
        fclose(f);
        if (!named)
            continue;
        snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        long v;
        switches = 0;
        while (fgets(line, sizeof(line), f))
            if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
                sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
                switches += v;
        fclose(f);
    }
    closedir(dir);
    return switches;
}

static int computing(int me) {
    if (me == 1) {
        /* No library call until PE 0 says it is done. */
        double start = now();
        while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) == 0)
            if (now() - start > 60) {
                fprintf(stderr, "progress computing: PE 1 was never told that PE 0 is done\n");
                return 1;
            }
        long got = __atomic_load_n(&counter, __ATOMIC_RELAXED);
        if (got != 2 * AMOS || data[63] != 63) {
            fprintf(stderr, "progress computing: PE 1 has counter %ld (want %d), data %ld\n", got,
                    2 * AMOS, data[63]);
            return 1;
        }
        printf("progress computing: PE 1 computed %.3f s and served every request\n",
               now() - start);
        return 0;
    }
    double start = now();
    for (int i = 0; i < AMOS; i++) {
        long old = shmem_long_atomic_fetch_add(&counter, 1, 1);
        if (old != 2 * i) {
            fprintf(stderr, "progress computing: fetch_add %d returned %ld\n", i, old);
            return 1;
        }
        shmem_long_atomic_add(&counter, 1, 1);
        long v = i;
        shmem_long_put(&data[i % 64], &v, 1, 1);
        shmem_quiet();
        if (shmem_long_g(&data[i % 64], 1) != v) {
            fprintf(stderr, "progress computing: get %d did not return the value put\n", i);
            return 1;
        }
    }
    for (long i = 0; i < 64; i++)
        shmem_long_p(&data[i], i, 1);
    shmem_quiet();
    shmem_long_atomic_set(&done, 1, 1);
    shmem_quiet();
    printf("progress computing: PE 0 made %d rounds of AMOs, put, quiet and get in %.3f s\n", AMOS,
           now() - start);
    return 0;
}

static int asleep(int me) {
    long before = progress_thread_switches();
    if (before < 0) {
        fprintf(stderr, "progress asleep: PE %d has no thread named shmem-progress\n", me);
        return 1;
    }
    const char *text = getenv("SHMEM_PROGRESS_INTERVAL");
    double interval = text ? atof(text) * 1e-6 : 1e-3;
    double start = now();
    for (long i = 1; i <= PINGPONGS; i++) {
        if (me == 0) {
            shmem_long_atomic_set(&ping, i, 1);
            shmem_long_wait_until(&pong, SHMEM_CMP_GE, i);
        } else {
            shmem_long_wait_until(&ping, SHMEM_CMP_GE, i);
            shmem_long_atomic_set(&pong, i, 0);
        }
    }
    double wall = now() - start;
    long switches = progress_thread_switches() - before;
    /* Asleep: one wake per interval, twice that for slack, plus a few at the loop's ends. */
    long limit = (long)(2 * wall / interval) + 20;
    printf("progress asleep: PE %d: %d round trips in %.3f s, progress thread switched %ld times "
           "(limit %ld)\n",
           me, PINGPONGS, wall, switches, limit);
    if (switches > limit) {
        fprintf(stderr,
                "progress asleep: PE %d's progress thread woke %ld times in %d round trips\n", me,
                switches, PINGPONGS);
        return 1;
    }
    return 0;
}

static int malloc_progresses(int me) {
    static long got[64];
    for (long i = 0; i < 64; i++)
        data[i] = i;
    shmem_barrier_all();
    double start = now();
    if (me == 0) {
        /* PE 1 is in shmem_malloc's exchange by now, past its own quiet. */
        usleep(200000);
        start = now();
        shmem_long_get_nbi(got, data, 64, 1);
    }
    long *block = shmem_malloc(4096);
    double took = now() - start;
    if (!block) {
        fprintf(stderr, "progress malloc: shmem_malloc failed\n");
        return 1;
    }
    shmem_free(block);
    printf("progress malloc: PE %d: shmem_malloc after a get took %.3f s\n", me, took);
    if (me == 0 && got[63] != 63) {
        fprintf(stderr, "progress malloc: the get did not complete in shmem_malloc\n");
        return 1;
    }
    if (me == 0 && took > 0.5) {
        fprintf(stderr,
                "progress malloc: PE %d: shmem_malloc took %.3f s: a PE in it did not progress "
                "the network\n",
                me, took);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s computing|asleep|malloc\n", argv[0]);
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        fprintf(stderr, "progress: needs 2 PEs\n");
        return 2;
    }
    shmem_barrier_all();
    int rc;
    if (strcmp(argv[1], "computing") == 0)
        rc = computing(me);
    else if (strcmp(argv[1], "asleep") == 0)
        rc = asleep(me);
    else if (strcmp(argv[1], "malloc") == 0)
        rc = malloc_progresses(me);
    else
        rc = 2;
    if (rc != 0)
        shmem_global_exit(rc);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
