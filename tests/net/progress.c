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
 * 0 would wait for the thread, a second or more.
 *   serving    PE 1 waits in shmem_barrier_all while PE 0 makes puts with quiet, gets and fetching
 *              AMOs to it, one at a time: on a machine that is not loaded PE 1's wait must keep
 *              polling while they come (a wait asleep in the transport's event descriptor is
 *              woken, a voluntary context switch, by each of them; where PE 0 finds more runnable
 *              tasks than processors, the wait sleeps and each request may wake it), and, once
 *              PE 0 computes for a while, sleep again (its processor time stays well below the
 *              time it waits).
 *   streaming  PE 0 streams blocking puts with a quiet every 64 while PE 1 waits in
 *              shmem_barrier_all: both PEs progress the network (PE 0 also by issuing puts that
 *              complete at once, calling no wait), so neither progress thread may take the
 *              worker; one that does spins on the worker's lock against its PE, so each PE's thread
 *              must use little processor time (from /proc/self/task/TID/schedstat). Not
 *              checked where more tasks than processors were ready to run before the stream: a
 *              PE preempted in the middle of it leaves its thread a worker to serve.
 *   issuing    PE 1 streams shmem_p to PE 0, one every 20 us, without a quiet or a wait (until
 *              PE 0 is done, at most ISSUE_S seconds) while PE 0 makes gets and fetching AMOs to
 *              it: PE 1 calls the library all the time, so its progress thread stays asleep, and
 *              its issuing must progress the network itself, or PE 0's requests wait until the
 *              stream ends (run with SHMEM_PROGRESS_INTERVAL=1000000, so that a thread which
 *              looks once a second cannot stand in for it either).
 *   shared     both PEs on one processor (PE 0's first, where both pin themselves)
 *              make fetch-adds to each other at once: a blocking operation's wait that keeps the
 *              processor spins through the time slice the peer needs to answer, a millisecond or
 *              more of processor time per operation; one that yields uses tens of microseconds.
 *              So each PE's processor time (not the wall time, which other programs on that
 *              processor may stretch) for SHARED_AMOS operations must stay under
 *              SHARED_CPU_LIMIT_S. */
#define _GNU_SOURCE /* sched_setaffinity */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
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

/* The task of /proc/self/task whose name is shmem-progress, into tid (0 when there is none). */
static void progress_thread_tid(char tid[64]) {
    tid[0] = '\0';
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL && tid[0] == '\0') {
        char path[300], line[128];
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (fgets(line, sizeof(line), f) && strncmp(line, "shmem-progress", 14) == 0)
            snprintf(tid, 64, "%.63s", e->d_name);
        fclose(f);
    }
    closedir(dir);
}

/* Seconds of processor time the thread tid has used; -1 when unknown. */
static double thread_cpu_s(const char *tid) {
    char path[128];
    snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", tid);
    FILE *f = fopen(path, "r");
    unsigned long long ns = 0;
    int got = f && fscanf(f, "%llu", &ns) == 1;
    if (f)
        fclose(f);
    return got ? (double)ns * 1e-9 : -1;
}

/* Voluntary plus involuntary context switches of the thread named shmem-progress; -1 when this
 * process has none. */
static long progress_thread_switches(void) {
    char tid[64], path[128], line[128];
    progress_thread_tid(tid);
    if (tid[0] == '\0')
        return -1;
    snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long v, switches = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
            sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
            switches += v;
    fclose(f);
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

#define SERVED 2000
#define IDLE_S 0.4

/* The calling thread's voluntary context switches (sleeps), from /proc; -1 when unknown. */
static long my_sleeps(void) {
    FILE *f = fopen("/proc/thread-self/status", "r");
    if (!f)
        return -1;
    char line[128];
    long v, sleeps = -1;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
            sleeps = v;
    fclose(f);
    return sleeps;
}

static double my_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether more tasks are ready to run than there are processors (the library's own test). */
static int machine_loaded(void) {
    FILE *f = fopen("/proc/loadavg", "r");
    double l1, l5, l15;
    int running = 0, total = 0;
    int got = f && fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) == 5;
    if (f)
        fclose(f);
    return got && running > sysconf(_SC_NPROCESSORS_ONLN);
}

/* Set by PE 0 in PE 1: whether it found the machine loaded during the last phase of requests. */
static long phase_loaded;

/* PE 0's side of a phase: the requests, one at a time, sampling the load every 16. */
static int serve_requests(void) {
    long loaded = 0;
    for (long i = 0; i < SERVED; i++) {
        if (i % 16 == 0)
            loaded |= machine_loaded();
        shmem_long_p(&data[i % 64], i, 1);
        shmem_quiet();
        if (i % 2 == 0 && shmem_long_g(&data[i % 64], 1) != i) {
            fprintf(stderr, "progress serving: get %ld did not return the value put\n", i);
            return 1;
        }
        if (i % 2 == 1)
            (void)shmem_long_atomic_fetch_inc(&counter, 1);
    }
    shmem_long_p(&phase_loaded, loaded, 1);
    return 0;
}

/* Phases of requests until one runs on a machine that is not loaded (the wait then polls; on a
 * loaded one it sleeps, and nothing is checked), at most SERVE_PHASES. */
#define SERVE_PHASES 5

static int serving(int me) {
    int checked = 0;
    for (int phase = 0; phase < SERVE_PHASES; phase++) {
        shmem_barrier_all();
        if (me == 0) {
            if (serve_requests() != 0)
                return 1;
            shmem_barrier_all();
            continue;
        }
        long before = my_sleeps();
        double start = now();
        shmem_barrier_all();
        long sleeps = my_sleeps() - before;
        printf("progress serving: phase %d: PE 1 slept %ld times in %.3f s of %d requests "
               "(limit %d)%s\n",
               phase, sleeps, now() - start, 2 * SERVED, SERVED / 4,
               phase_loaded ? "; the machine was loaded, not checked" : "");
        if (before < 0) {
            fprintf(stderr, "progress serving: no voluntary_ctxt_switches in /proc/thread-self\n");
            return 1;
        }
        if (!phase_loaded && sleeps > SERVED / 4) {
            fprintf(stderr,
                    "progress serving: PE 1's wait slept %ld times while PE 0's requests came one "
                    "after the other (limit %d)\n",
                    sleeps, SERVED / 4);
            return 1;
        }
        checked += !phase_loaded;
    }
    shmem_barrier_all();
    if (me == 0) {
        usleep((useconds_t)(IDLE_S * 1e6));
        shmem_barrier_all();
        return 0;
    }
    if (!checked)
        printf("progress serving: the machine was loaded in every phase: polling not checked\n");
    double cpu = my_cpu_s(), start = now();
    shmem_barrier_all();
    double idle = now() - start;
    cpu = my_cpu_s() - cpu;
    printf("progress serving: PE 1 waited %.3f s for an idle PE 0 using %.3f s of processor\n",
           idle, cpu);
    if (cpu > idle / 2) {
        fprintf(stderr,
                "progress serving: PE 1's wait used %.3f s of processor in %.3f s without "
                "requests: it did not sleep\n",
                cpu, idle);
        return 1;
    }
    return 0;
}

#define STREAM_S 1.0
#define STREAM_SIZE 32768
#define STREAM_WINDOW 64
/* The share of the wall time a progress thread may use while its PE progresses the network. */
#define STREAM_THREAD_SHARE 0.1

static char stream_buf[STREAM_SIZE];

static int streaming(int me) {
    char tid[64];
    progress_thread_tid(tid);
    if (tid[0] == '\0') {
        fprintf(stderr, "progress streaming: PE %d has no thread named shmem-progress\n", me);
        return 1;
    }
    static char src[STREAM_SIZE];
    memset(src, me + 1, sizeof(src));
    shmem_barrier_all();
    int loaded = machine_loaded();
    double cpu = thread_cpu_s(tid), start = now();
    long puts = 0;
    if (me == 0) {
        while (now() - start < STREAM_S) {
            shmem_putmem(stream_buf, src, sizeof(src), 1);
            if (++puts % STREAM_WINDOW == 0)
                shmem_quiet();
        }
        shmem_quiet();
    }
    shmem_barrier_all();
    double wall = now() - start;
    cpu = thread_cpu_s(tid) - cpu;
    printf("progress streaming: PE %d: %ld puts of %d B in %.3f s, the progress thread used %.3f s "
           "of processor (limit %.3f)\n",
           me, puts, STREAM_SIZE, wall, cpu, wall * STREAM_THREAD_SHARE);
    if (me == 1 && stream_buf[STREAM_SIZE - 1] != 1) {
        fprintf(stderr, "progress streaming: PE 1 does not hold PE 0's data\n");
        return 1;
    }
    if (cpu < 0) {
        fprintf(stderr, "progress streaming: no schedstat for the progress thread\n");
        return 1;
    }
    if (loaded) {
        printf("progress streaming: PE %d found the machine loaded before the stream: not "
               "checked\n",
               me);
        return 0;
    }
    if (cpu > wall * STREAM_THREAD_SHARE) {
        fprintf(stderr,
                "progress streaming: PE %d's progress thread used %.3f s of processor in %.3f s "
                "while the PE progressed the network itself\n",
                me, cpu, wall);
        return 1;
    }
    return 0;
}

/* PE 1 streams until PE 0 is done, at most this long. PE 0's requests must be answered well
 * before the stream would end by itself: on a loaded machine PE 1 may get a processor for a
 * fraction of the time (20 s for the 50 requests at load 20), and without passes over the worker
 * they are answered only once the stream has ended. */
#define ISSUE_S 60.0
#define ISSUE_LIMIT_S (ISSUE_S * 0.9)
#define ISSUE_REQUESTS 50
#define ISSUE_GAP_S 20e-6

static long issue_sink[64];
static long issue_done;

static int issuing(int me) {
    for (long i = 0; i < 64; i++)
        data[i] = i;
    shmem_barrier_all();
    double start = now();
    if (me == 1) {
        long puts = 0;
        for (; now() - start < ISSUE_S && !__atomic_load_n(&issue_done, __ATOMIC_ACQUIRE); puts++) {
            shmem_long_p(&issue_sink[puts % 64], puts, 0);
            /* Computes a little between puts, so that they do not queue up in front of the
             * answers to PE 0 (the link is not what is measured). */
            double t = now();
            while (now() - t < ISSUE_GAP_S)
                ;
        }
        shmem_quiet();
        printf("progress issuing: PE 1 made %ld puts in %.3f s\n", puts, now() - start);
        return 0;
    }
    for (long i = 0; i < ISSUE_REQUESTS; i++) {
        if (shmem_long_g(&data[i % 64], 1) != i % 64 ||
            shmem_long_atomic_fetch_inc(&counter, 1) != i) {
            fprintf(stderr, "progress issuing: request %ld got a wrong answer\n", i);
            return 1;
        }
    }
    double took = now() - start;
    shmem_long_atomic_set(&issue_done, 1, 1);
    printf("progress issuing: PE 0's %d gets and fetching AMOs took %.3f s (limit %.1f)\n",
           ISSUE_REQUESTS, took, ISSUE_LIMIT_S);
    if (took > ISSUE_LIMIT_S) {
        fprintf(stderr,
                "progress issuing: PE 1 streamed puts for %.3f s before answering PE 0's "
                "requests\n",
                took);
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

#define SHARED_AMOS 1000
#define SHARED_CPU_LIMIT_S 0.5

/* The processor both PEs run on: PE 0's first, written into PE 1 (a launcher may have bound
 * each PE to a processor of its own). */
static int shared_cpu;

static int shared(int me) {
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        perror("progress shared: sched_getaffinity");
        return 1;
    }
    if (me == 0) {
        while (shared_cpu < CPU_SETSIZE && !CPU_ISSET(shared_cpu, &allowed))
            shared_cpu++;
        shmem_int_p(&shared_cpu, shared_cpu, 1);
    }
    shmem_barrier_all();
    int cpu = shared_cpu;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0) {
        fprintf(stderr, "progress shared: PE %d cannot run on processor %d: %s\n", me, cpu,
                strerror(errno));
        return 1;
    }
    shmem_barrier_all();
    double cpu_s = my_cpu_s(), start = now();
    for (long i = 0; i < SHARED_AMOS; i++)
        (void)shmem_long_atomic_fetch_add(&counter, 1, 1 - me);
    cpu_s = my_cpu_s() - cpu_s;
    double wall = now() - start;
    shmem_barrier_all();
    printf("progress shared: PE %d: %d fetch-adds on processor %d in %.3f s, %.3f s of processor "
           "time (limit %.3f)\n",
           me, SHARED_AMOS, cpu, wall, cpu_s, SHARED_CPU_LIMIT_S);
    if (counter != SHARED_AMOS) {
        fprintf(stderr, "progress shared: PE %d's counter is %ld, expected %d\n", me, counter,
                SHARED_AMOS);
        return 1;
    }
    if (cpu_s > SHARED_CPU_LIMIT_S) {
        fprintf(stderr,
                "progress shared: PE %d spent %.3f s of processor time on %d fetch-adds to a PE "
                "on its processor (limit %.3f): its waits kept the processor the peer needed\n",
                me, cpu_s, SHARED_AMOS, SHARED_CPU_LIMIT_S);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s computing|asleep|malloc|serving|streaming|issuing|shared\n",
                argv[0]);
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
    else if (strcmp(argv[1], "serving") == 0)
        rc = serving(me);
    else if (strcmp(argv[1], "streaming") == 0)
        rc = streaming(me);
    else if (strcmp(argv[1], "issuing") == 0)
        rc = issuing(me);
    else if (strcmp(argv[1], "shared") == 0)
        rc = shared(me);
    else
        rc = 2;
    if (rc != 0)
        shmem_global_exit(rc);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
