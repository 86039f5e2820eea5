/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only: linked in place of src/core/deliver_host.c into libshmem-lazydeliver. A delivered put
 * into host memory started by the network transport (deliver_put_start) is not copied at once: it
 * waits, as a copy into the GPU heap runs on the GPU's copy engine, until the fourth deliver_test
 * after it, or until another delivery on a host segment finishes it first (as the copy engine's one
 * stream would). A transport that acknowledged a put before deliver_test said it was done, or
 * applied a later operation before it, shows as missing or stale data in the delivery tests run on
 * this library (tests/net/CMakeLists.txt, net_quick.lazy.*). */
#include <pthread.h>

#include "core/shmemi.h"

#define LAZY_MAX 64

static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int segment;
    size_t offset;
    const void *source;
    size_t len;
} pending[LAZY_MAX];
static int n_pending;
static unsigned tests;

/* Copies every started put, oldest first (under lazy_lock). */
static void finish_all(void) {
    for (int i = 0; i < n_pending; i++)
        shmemi_deliver_host_copy(shmemi_state.segments[pending[i].segment].local_base +
                                     pending[i].offset,
                                 pending[i].source, pending[i].len);
    n_pending = 0;
    shmemi_full_fence();
}

shmemi_status_t shmemi_deliver_host_start(int segment, size_t offset, const void *source,
                                          size_t len) {
    pthread_mutex_lock(&lazy_lock);
    if (n_pending == LAZY_MAX)
        finish_all();
    pending[n_pending].segment = segment;
    pending[n_pending].offset = offset;
    pending[n_pending].source = source;
    pending[n_pending].len = len;
    n_pending++;
    pthread_mutex_unlock(&lazy_lock);
    return SHMEMI_OK;
}

int shmemi_deliver_host_test(void) {
    pthread_mutex_lock(&lazy_lock);
    int done = n_pending == 0;
    if (!done && ++tests % 4 == 0) {
        finish_all();
        done = 1;
    }
    pthread_mutex_unlock(&lazy_lock);
    return done;
}

void shmemi_deliver_host_settle(void) {
    pthread_mutex_lock(&lazy_lock);
    finish_all();
    pthread_mutex_unlock(&lazy_lock);
}
