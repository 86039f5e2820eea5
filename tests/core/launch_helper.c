/* A PE program for the launcher tests: what it does depends on argv[1]. */
#include <shmem.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (strcmp(mode, "wrong_secret") == 0)
        setenv("SHMEM_JOB_SECRET", "0123456789abcdef0123456789abcdef", 1);
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
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    shmem_finalize();
    return 0;
}
