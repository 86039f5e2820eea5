/* SPDX-License-Identifier: BSD-3-Clause */
/* A PE program for the launcher tests: what it does depends on argv[1]. */
#include <shmem.h>

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void sleep_long(void) {
    for (int i = 0; i < 600; i++)
        usleep(100000);
}

static void *allocate_forever(void *arg) {
    (void)arg;
    shmem_malloc(64); /* PE 1 never joins: waits until the job ends */
    return NULL;
}

/* A connection to the launcher's socket ("@name": abstract namespace) that sends len bytes of
 * bytes and then stays open, saying nothing more. */
static int connect_launcher(const char *name, const void *bytes, size_t len) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t name_len = strlen(name);
    memcpy(addr.sun_path + 1, name + 1, name_len - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 ||
        connect(fd, (struct sockaddr *)&addr,
                (socklen_t)(offsetof(struct sockaddr_un, sun_path) + name_len)) != 0 ||
        write(fd, bytes, len) != (ssize_t)len) {
        perror("connect_launcher");
        exit(4);
    }
    return fd;
}

/* User plus system time of process pid, in clock ticks. */
static long cpu_ticks(int pid) {
    char path[64], line[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(line, 1, sizeof(line) - 1, f) : 0;
    if (f)
        fclose(f);
    line[n] = '\0';
    char *p = strrchr(line, ')');
    long utime = 0, stime = 0;
    /* After ") ": state, then fields 4 to 13, then utime (14) and stime (15). */
    if (p == NULL ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &utime, &stime) != 2)
        return 0;
    return utime + stime;
}

static void write_time(const char *path) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    FILE *f = fopen(path, "w");
    fprintf(f, "%lld\n", (long long)t.tv_sec * 1000000000LL + t.tv_nsec);
    fclose(f);
}

/* 1 when text occurs in the file's bytes (which may hold NULs, as /proc/<pid>/environ does). */
static int file_holds(const char *path, const char *text) {
    static char buf[1 << 20];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
    if (f)
        fclose(f);
    size_t len = strlen(text);
    for (size_t i = 0; i + len <= n; i++)
        if (memcmp(buf + i, text, len) == 0)
            return 1;
    return 0;
}

static void slow_exit_handler(void) {
    fprintf(stderr, "exit handler ran\n");
    usleep(3000000);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (strcmp(mode, "wrong_secret") == 0)
        setenv("SHMEM_JOB_SECRET", "0123456789abcdef0123456789abcdef", 1);
    char socket_name[108] = "", job_secret[64] = "";
    if (getenv("SHMEM_JOB_SOCKET") && getenv("SHMEM_JOB_SECRET")) {
        snprintf(socket_name, sizeof(socket_name), "%s", getenv("SHMEM_JOB_SOCKET"));
        snprintf(job_secret, sizeof(job_secret), "%s", getenv("SHMEM_JOB_SECRET"));
    }
    shmem_init();
    int me = shmem_my_pe();
    if (strcmp(mode, "ok") == 0) {
        printf("PE %d of %d ok\n", me, shmem_n_pes());
    } else if (strcmp(mode, "exit3") == 0) {
        if (me == 1)
            exit(3);
        sleep_long();
    } else if (strcmp(mode, "sigkill") == 0) {
        if (me == 1)
            raise(SIGKILL);
        sleep_long();
    } else if (strcmp(mode, "hang") == 0) {
        /* PE 0 ignores SIGTERM and never returns; PE 1 fails. */
        if (me == 0) {
            signal(SIGTERM, SIG_IGN);
            sleep_long();
        }
        if (me == 1)
            exit(2);
        sleep_long();
    } else if (strcmp(mode, "global_exit7") == 0) {
        if (me == 1)
            shmem_global_exit(7);
        sleep_long();
    } else if (strcmp(mode, "global_exit_while_waiting") == 0) {
        /* shmem_global_exit reaches the launcher while another thread waits in a collective. */
        if (me == 0) {
            pthread_t waiter;
            pthread_create(&waiter, NULL, allocate_forever, NULL);
            usleep(200000);
            shmem_global_exit(5);
        }
        sleep_long();
    } else if (strcmp(mode, "global_exit_slow_exit_while_waiting") == 0) {
        /* The same, in a program whose exit handlers take long: PE 0 must not linger in them
         * while its thread waits in the collective. */
        if (me == 0) {
            atexit(slow_exit_handler);
            pthread_t waiter;
            pthread_create(&waiter, NULL, allocate_forever, NULL);
            usleep(200000);
            shmem_global_exit(5);
        }
        sleep_long();
    } else if (strcmp(mode, "no_finalize") == 0) {
        if (me == 1)
            _exit(0);
        shmem_free(shmem_malloc(64));
    } else if (strcmp(mode, "exhaust") == 0) {
        /* Run with SHMEM_SYMMETRIC_SIZE=1M: too big, then a fitting one. */
        if (shmem_malloc(2 << 20) != NULL || shmem_malloc(512 << 10) == NULL)
            return 1;
    } else if (strcmp(mode, "pidfile") == 0) {
        /* Records its pid, then waits to be ended with the launcher. */
        FILE *f = fopen(argv[2], "a");
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
        sleep_long();
    } else if (strcmp(mode, "finalize_in_barrier") == 0) {
        /* PE 0 finalizes (returning from main would too) while the others wait in a barrier. */
        if (me != 0)
            shmem_barrier_all();
    } else if (strcmp(mode, "return_in_barrier") == 0) {
        if (me != 0)
            shmem_barrier_all();
        return 0; /* PE 0: the implicit finalize at exit */
    } else if (strcmp(mode, "malloc_in_barrier") == 0) {
        if (me == 0)
            shmem_malloc(64);
        else
            shmem_barrier_all();
    } else if (strcmp(mode, "free_in_barrier") == 0) {
        void *p = shmem_malloc(64);
        if (me == 0)
            shmem_free(p);
        else
            shmem_barrier_all();
    } else if (strcmp(mode, "malloc_in_free") == 0) {
        /* Two exchanges of the same size: PE 0 allocates while the others free. */
        void *p = shmem_malloc(64);
        if (me == 0)
            shmem_malloc(64);
        else
            shmem_free(p);
    } else if (strcmp(mode, "barrier_in_malloc") == 0) {
        /* The other way round: PE 0 waits in the barrier, the others in shmem_malloc. */
        if (me == 0)
            shmem_barrier_all();
        else
            shmem_malloc(64);
    } else if (strcmp(mode, "stuck_in_program") == 0) {
        /* PE 0 computes forever; the others wait in the barrier. */
        if (me == 0)
            for (;;)
                usleep(1000);
        shmem_barrier_all();
    } else if (strcmp(mode, "slow_barrier") == 0) {
        /* A PE that is late, but not stuck: the barrier completes, nothing is reported. */
        if (me == 0)
            usleep(1500000);
        shmem_barrier_all();
        shmem_free(shmem_malloc(64));
        if (me == 1)
            usleep(500000);
        shmem_barrier_all();
    } else if (strcmp(mode, "cpu_while_waiting") == 0) {
        /* PE 1 waits in a barrier for 2 s while PE 0 sleeps; PE 0 measures the processor time
         * PE 1 uses meanwhile. */
        static int pid_of_1;
        if (me == 1) {
            shmem_int_p(&pid_of_1, (int)getpid(), 0);
            shmem_quiet();
        } else {
            while (shmem_int_atomic_fetch(&pid_of_1, 0) == 0)
                usleep(1000);
            usleep(500000);
            long before = cpu_ticks(pid_of_1);
            usleep(2000000);
            long used = cpu_ticks(pid_of_1) - before;
            double seconds = (double)used / (double)sysconf(_SC_CLK_TCK);
            fprintf(stderr, "PE 1 used %.2f s of processor time in 2 s of waiting\n", seconds);
            if (seconds > 0.3)
                return 1;
        }
        shmem_barrier_all();
    } else if (strcmp(mode, "stalled_connection") == 0) {
        /* PE 0 opens a connection to the launcher that sends 3 bytes and stalls; then PE 1 is
         * killed, after writing the time of its death to argv[2]. */
        if (me == 0)
            connect_launcher(socket_name, "LSH", 3);
        shmem_barrier_all();
        if (me == 1) {
            usleep(300000);
            write_time(argv[2]);
            raise(SIGKILL);
        }
        sleep_long();
    } else if (strcmp(mode, "stalled_is_dropped") == 0) {
        /* A connection that sends 3 bytes and stalls is closed by the launcher within 10 s. */
        if (me == 0) {
            int fd = connect_launcher(socket_name, "LSH", 3);
            struct pollfd p = {.fd = fd, .events = POLLIN};
            char c;
            if (poll(&p, 1, 10000) != 1 || read(fd, &c, 1) != 0) {
                fprintf(stderr, "the stalled connection is still open after 10 s\n");
                return 1;
            }
        }
    } else if (strcmp(mode, "garbage_connection") == 0) {
        /* Connections that send garbage, or nothing, do not disturb the job. */
        if (me == 0) {
            char garbage[64];
            memset(garbage, 0x5a, sizeof(garbage));
            connect_launcher(socket_name, garbage, sizeof(garbage));
            connect_launcher(socket_name, "", 0);
        }
        for (int i = 0; i < 20; i++) {
            shmem_free(shmem_malloc(64));
            usleep(100000);
        }
    } else if (strcmp(mode, "secret_gone") == 0) {
        /* The secret is in neither the environment nor the process's /proc image. */
        if (!job_secret[0] || getenv("SHMEM_JOB_SECRET") != NULL ||
            file_holds("/proc/self/environ", job_secret)) {
            fprintf(stderr, "PE %d: the job secret is still in the environment\n", me);
            return 1;
        }
    } else if (strcmp(mode, "fork_child") == 0) {
        /* Each PE forks a child that outlives the job; the child writes its pid to argv[2]. */
        int ready[2];
        if (pipe(ready) != 0)
            return 1;
        pid_t child = fork();
        if (child == 0) {
            FILE *f = fopen(argv[2], "a");
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
            close(ready[1]); /* the parent reads end of file: the pid is written */
            sleep_long();
            _exit(0);
        }
        close(ready[1]);
        char c;
        while (read(ready[0], &c, 1) > 0)
            ;
        close(ready[0]);
        shmem_barrier_all();
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    shmem_finalize();
    return 0;
}
