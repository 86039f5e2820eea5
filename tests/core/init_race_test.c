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

static long bss_counter;
static long data_counter = 1000;
static int stop;
static int started;

static void *incrementer(void *arg) {
    long *made = arg;
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        __atomic_fetch_add(&bss_counter, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&data_counter, 1, __ATOMIC_RELAXED);
        ++*made;
        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static int one_run(void) {
    long made = 0;
    pthread_t thread;
    if (pthread_create(&thread, NULL, incrementer, &made) != 0)
        return 2;
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        ;
    shmem_init();
    /* Keep writing for a while after shmem_init, into the shared mapping. */
    while (__atomic_load_n(&bss_counter, __ATOMIC_RELAXED) < 1000)
        ;
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    long bss = __atomic_load_n(&bss_counter, __ATOMIC_RELAXED);
    long data = __atomic_load_n(&data_counter, __ATOMIC_RELAXED);
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
