/* SPDX-License-Identifier: BSD-3-Clause */
/* Fatal errors of kernels, printed by the host. A failing kernel thread fills this PE's record
 * (shmem/device/impl/state__funcs.h, shmemi_dfatal) in mapped host memory and waits; a watcher
 * thread polls the record every millisecond, prints the message in the library's usual form on
 * stderr and answers, and the kernel then stops. Then the job ends with status 1, as after
 * shmem_global_exit(1), whatever the host code does next: a kernel's error is as fatal as the
 * host's. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <shmem.h>

#include "transport/ipc/ipc.h"
#include "device/device.h"

static shmemi_dreport_t *record;
static pthread_t watcher;
static int stopping;

/* The message of a READY record, then SEEN, then the end of the job. */
__attribute__((noreturn)) static void print_record(shmemi_dreport_t *r) {
    char what[2 * SHMEMI_DREPORT_TEXT + 384];
    const void *addr = (const void *)(uintptr_t)r->addr;
    switch (r->kind) {
    case SHMEMI_DFATAL_PE:
        snprintf(what, sizeof(what), "PE %lld out of range [0, %lld)", (long long)r->a,
                 (long long)r->b);
        break;
    case SHMEMI_DFATAL_ADDRESS:
        snprintf(what, sizeof(what), "address %p (%lld bytes) is not in the symmetric heap", addr,
                 (long long)r->a);
        break;
    case SHMEMI_DFATAL_UNREACHABLE:
        snprintf(what, sizeof(what), "address %p on PE %lld is not reachable from this GPU", addr,
                 (long long)r->a);
        break;
    case SHMEMI_DFATAL_TIMEOUT:
        snprintf(what, sizeof(what), "wait on address %p timed out after %lld ms", addr,
                 (long long)r->a);
        break;
    case SHMEMI_DFATAL_WAIT: {
        static const char *const cmp[] = {"==", "!=", ">", ">=", "<", "<=", "?"};
        char state[256];
        int proxied = shmemi_device_proxy_describe(state, sizeof(state));
        snprintf(what, sizeof(what),
                 "wait for *%p %s %lld timed out after %lld ms; it held %lld%s%s", addr,
                 cmp[r->cmp >= SHMEM_CMP_EQ && r->cmp <= SHMEM_CMP_LE ? r->cmp : 6],
                 (long long)r->c, (long long)r->a, (long long)r->b, proxied ? "; proxy: " : "",
                 proxied ? state : "");
        break;
    }
    case SHMEMI_DFATAL_SPLIT_TEAM:
        snprintf(what, sizeof(what),
                 "team %lld was made by shmem_team_split_*: kernels take only SHMEM_TEAM_WORLD "
                 "and SHMEM_TEAM_SHARED",
                 (long long)r->a);
        break;
    case SHMEMI_DFATAL_ROOT:
        snprintf(what, sizeof(what), "PE_root %lld out of range [0, %lld) of the team",
                 (long long)r->a, (long long)r->b);
        break;
    case SHMEMI_DFATAL_PROXY: {
        char state[256];
        shmemi_device_proxy_describe(state, sizeof(state));
        snprintf(what, sizeof(what), "proxy ticket %lld waited %s for %s; %s", (long long)r->a,
                 "past SHMEM_DEVICE_TIMEOUT_MS", r->b ? "its answer" : "a free slot", state);
        break;
    }
    default:
        snprintf(what, sizeof(what), "%s", r->what);
        break;
    }
    r->call[SHMEMI_DREPORT_TEXT - 1] = '\0';
    shmemi_warn(r->call, "%s (block (%d,%d,%d), thread (%d,%d,%d))", what, r->block[0], r->block[1],
                r->block[2], r->thread[0], r->thread[1], r->thread[2]);
    __atomic_store_n(&r->state, SHMEMI_DREPORT_SEEN, __ATOMIC_RELEASE);
    shmemi_bootstrap_abort(1);
}

static void *watch(void *arg) {
    (void)arg;
    const struct timespec tick = {0, 1000000};
    while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
        if (__atomic_load_n(&record->state, __ATOMIC_ACQUIRE) == SHMEMI_DREPORT_READY)
            print_record(record);
        nanosleep(&tick, NULL);
    }
    return NULL;
}

shmemi_dreport_t *shmemi_device_report_start(void) {
    record = (shmemi_dreport_t *)shmemi_host_shared_alloc(sizeof(*record));
    if (record == NULL)
        shmemi_fatal("shmem_init", "cannot allocate the record of kernel errors");
    __atomic_store_n(&stopping, 0, __ATOMIC_RELAXED);
    int err = pthread_create(&watcher, NULL, watch, NULL);
    if (err != 0)
        shmemi_fatal("shmem_init", "cannot start the thread that reports kernel errors: %s",
                     strerror(err));
    return record;
}

void shmemi_device_report_stop(void) {
    if (record == NULL)
        return;
    __atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
    pthread_join(watcher, NULL);
    /* A report made just before the kernels ended, after the watcher's last look. */
    if (__atomic_load_n(&record->state, __ATOMIC_ACQUIRE) == SHMEMI_DREPORT_READY)
        print_record(record);
    shmemi_host_shared_free(record);
    record = NULL;
}
