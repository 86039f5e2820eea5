/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/core/proxy.c into libshmem-proxy-stalled, the library copy
 * whose proxy consumer has stopped: its thread never takes a command (it only waits to be told to
 * end). Everything else is the library's proxy.c, so a producer that waits for its slot or its
 * answer sees the real ring and reports its real state. */
#include <pthread.h>
#include <time.h>

static void *stalled_main(void *arg);

/* The consumer's thread, started as the library starts it, but on stalled_main. */
static int start_stalled(pthread_t *thread, const pthread_attr_t *attr, void *(*main)(void *),
                         void *arg) {
    (void)main;
    return pthread_create(thread, attr, stalled_main, arg);
}

#define pthread_create start_stalled
#include "core/proxy.c"
#undef pthread_create

static void *stalled_main(void *arg) {
    shmemi_proxy_t *p = arg;
    (void)consumer_main;
    while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}
