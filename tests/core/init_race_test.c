/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_init loses no write to the program's globals: while it moves the data segment into shared
 * memory, a second thread keeps incrementing a global in .bss and one in .data; after shmem_init
 * each holds exactly the number of increments made. Repeated in RUNS forked single-PE processes,
 * because one run hits the window between the copy and the remap only sometimes. */
#include <shmem.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 100

/* The globals under test, written by the helper thread with plain (volatile) stores and read by
 * the main thread only after joining it. Plain stores, not atomics: ThreadSanitizer performs
 * atomics inside its runtime, where it takes a fault for a crash instead of passing it to the
 * library's handler. */
static volatile long bss_counter;
static volatile long data_counter = 1000;

/* Coordination, outside the program's data segment (in malloc'ed memory). */
typedef struct {
    int stop;
    int started;
    long progress;
    long made;
} race_t;

static void *incrementer(void *arg) {
    race_t *r = arg;
    long made = 0;
    while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
        bss_counter = bss_counter + 1;
        data_counter = data_counter + 1;
        made++;
        __atomic_store_n(&r->progress, made, __ATOMIC_RELAXED);
        __atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
    }
    r->made = made;
    return NULL;
}

static int one_run(void) {
    race_t *r = calloc(1, sizeof(*r));
    pthread_t thread;
    if (r == NULL || pthread_create(&thread, NULL, incrementer, r) != 0)
        return 2;
    while (!__atomic_load_n(&r->started, __ATOMIC_ACQUIRE))
        ;
    shmem_init();
    /* Keep writing for a while after shmem_init, into the shared mapping. */
    long at_init = __atomic_load_n(&r->progress, __ATOMIC_RELAXED);
    while (__atomic_load_n(&r->progress, __ATOMIC_RELAXED) < at_init + 1000)
        ;
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    long made = r->made, bss = bss_counter, data = data_counter;
    free(r);
    shmem_finalize();
    if (bss != made || data != 1000 + made) {
        fprintf(stderr, "lost writes: %ld increments made, .bss counter %ld, .data counter %ld\n",
                made, bss, data - 1000);
        return 1;
    }
    return 0;
}

int main(void) {
    int failed = 0;
    for (int run = 0; run < RUNS; run++) {
        pid_t child = fork();
        if (child < 0)
            return 2;
        if (child == 0)
            _exit(one_run());
        int status;
        if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed++;
    }
    printf("%d of %d runs lost writes or failed\n", failed, RUNS);
    return failed != 0;
}
