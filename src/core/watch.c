/* SPDX-License-Identifier: BSD-3-Clause */
/* Where each PE is (watch.h): the records, the slow path of a wait, and the check of the PE
 * waited for. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "watch.h"
#include "bootstrap_wire.h"
#include "env.h"

__thread const char *shmemi_watch_current_call;

typedef enum { WHERE_PROGRAM = 0, WHERE_WAITING = 1, WHERE_EXCHANGE = 2 } where_kind_t;

#define CALL_WORDS (SHMEMI_WIRE_CALL_MAX / 8)

/* A seqlock: version is odd while the owner writes. Every access is a sequentially consistent
 * atomic, so a reader that sees a record also sees every store its owner made before it. */
typedef struct {
    uint64_t version;
    uint64_t kind;
    int64_t peer;
    uint64_t exchange; /* WHERE_EXCHANGE: its number (watch.h) */
    uint64_t call[CALL_WORDS];
} where_record_t;

typedef struct {
    where_kind_t kind;
    int peer;
    uint64_t exchange;
    char call[SHMEMI_WIRE_CALL_MAX + 1];
} where_t;

static where_record_t *record; /* this PE's, in the internal segment */
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;
/* SHMEM_HANG_TIMEOUT in milliseconds, enforced here where no launcher does it (shmemrun does);
 * 0: off. */
static long long hang_timeout_ms;
/* Exchanges with every PE this process has begun, since it started (never reset: every PE makes
 * the same ones, across re-initializations too). */
static uint64_t exchanges_begun;

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static const char *current_call(void) {
    return shmemi_watch_current_call ? shmemi_watch_current_call : "a collective call";
}

static void publish(where_kind_t kind, int peer, uint64_t exchange, const char *call) {
    pthread_mutex_lock(&record_lock);
    if (record != NULL) {
        uint64_t words[CALL_WORDS] = {0};
        if (call)
            strncpy((char *)words, call, sizeof(words) - 1);
        uint64_t v = __atomic_load_n(&record->version, __ATOMIC_SEQ_CST);
        __atomic_store_n(&record->version, v + 1, __ATOMIC_SEQ_CST);
        __atomic_store_n(&record->kind, (uint64_t)kind, __ATOMIC_SEQ_CST);
        __atomic_store_n(&record->peer, (int64_t)peer, __ATOMIC_SEQ_CST);
        __atomic_store_n(&record->exchange, exchange, __ATOMIC_SEQ_CST);
        for (int w = 0; w < CALL_WORDS; w++)
            __atomic_store_n(&record->call[w], words[w], __ATOMIC_SEQ_CST);
        __atomic_store_n(&record->version, v + 2, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&record_lock);
}

/* Reads PE pe's record; 0 when it cannot be read (not mapped, or always being rewritten). */
static int read_where(int pe, where_t *out) {
    pthread_mutex_lock(&record_lock);
    const where_record_t *r = record ? shmemi_ptr(record, pe) : NULL;
    pthread_mutex_unlock(&record_lock);
    if (r == NULL)
        return 0;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t v = __atomic_load_n(&r->version, __ATOMIC_SEQ_CST);
        uint64_t words[CALL_WORDS + 1];
        out->kind = (where_kind_t)__atomic_load_n(&r->kind, __ATOMIC_SEQ_CST);
        out->peer = (int)__atomic_load_n(&r->peer, __ATOMIC_SEQ_CST);
        out->exchange = __atomic_load_n(&r->exchange, __ATOMIC_SEQ_CST);
        for (int w = 0; w < CALL_WORDS; w++)
            words[w] = __atomic_load_n(&r->call[w], __ATOMIC_SEQ_CST);
        words[CALL_WORDS] = 0;
        if (v % 2 == 0 && __atomic_load_n(&r->version, __ATOMIC_SEQ_CST) == v) {
            memcpy(out->call, words, sizeof(out->call) - 1);
            out->call[sizeof(out->call) - 1] = '\0';
            return 1;
        }
    }
    return 0;
}

void shmemi_watch_exchange_begin(void) {
    const char *call = current_call();
    publish(WHERE_EXCHANGE, -1, __atomic_add_fetch(&exchanges_begun, 1, __ATOMIC_SEQ_CST), call);
    shmemi_bootstrap_note(call, -1);
}

void shmemi_watch_exchange_end(void) {
    publish(WHERE_PROGRAM, -1, 0, NULL);
}

/* Ends the job when the PE this one waits for cannot send what it waits for: it is in an
 * exchange with every PE that this PE has not joined, and after its record was read (which makes
 * every store it made before visible) the word still lacks its value. */
static void check_peer(const uint64_t *word, uint64_t want, int peer, const char *call) {
    where_t theirs;
    if (!read_where(peer, &theirs) || theirs.kind != WHERE_EXCHANGE ||
        !shmemi_watch_exchange_blocks(theirs.exchange,
                                      __atomic_load_n(&exchanges_begun, __ATOMIC_SEQ_CST)))
        return;
    if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= want)
        return;
    shmemi_fatal(call,
                 "waits for PE %d, which is in %s, a call that every PE must join: the PEs are in "
                 "different collective calls (every PE must make the same collective calls in "
                 "the same order)",
                 peer, theirs.call);
}

/* SHMEM_HANG_TIMEOUT: this PE has waited that long. Prints where every PE is, as far as their
 * records tell, then ends the job. */
static _Noreturn void report_hang(const char *call, int peer, long long waited_ms) {
    shmemi_warn(call,
                "has waited %.1f s for PE %d (SHMEM_HANG_TIMEOUT=%s); where the PEs are (as far "
                "as this PE sees):",
                (double)waited_ms / 1000, peer, getenv("SHMEM_HANG_TIMEOUT"));
    for (int pe = 0; pe < shmemi_state.n_pes; pe++) {
        where_t where;
        if (!read_where(pe, &where))
            shmemi_warn(call, "  PE %d: unknown (its record cannot be read)", pe);
        else if (where.kind == WHERE_WAITING)
            shmemi_warn(call, "  PE %d: in %s, waiting for PE %d", pe, where.call, where.peer);
        else if (where.kind == WHERE_EXCHANGE)
            shmemi_warn(call, "  PE %d: in %s, waiting for every PE to join it", pe, where.call);
        else
            shmemi_warn(call, "  PE %d: running the program (in no wait of the library)", pe);
    }
    shmemi_fatal(call, "the job hangs");
}

void shmemi_watch_wait_ge(const uint64_t *word, uint64_t want, int peer) {
    if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= want)
        return;
    const char *call = current_call();
    long long start = now_ms(), next_check = start + SHMEMI_WATCH_PUBLISH_MS;
    long pause_ns = 20000;
    int published = 0;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < want) {
        shmemi_progress();
        if (shmemi_transport_net != NULL) {
            shmemi_progress_sleep((uint64_t)pause_ns);
        } else {
            struct timespec pause = {0, pause_ns};
            while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
                ;
        }
        if (pause_ns < 1000000)
            pause_ns *= 2;
        long long now = now_ms();
        if (now < next_check)
            continue;
        next_check = now + SHMEMI_WATCH_CHECK_MS;
        if (!published) {
            publish(WHERE_WAITING, peer, 0, call);
            shmemi_bootstrap_note(call, peer);
            published = 1;
        }
        check_peer(word, want, peer, call);
        if (hang_timeout_ms > 0 && now - start >= hang_timeout_ms)
            report_hang(call, peer, now - start);
    }
    if (published) {
        publish(WHERE_PROGRAM, -1, 0, NULL);
        shmemi_bootstrap_note(NULL, -1);
    }
}

/* The record lives from the first module's init to the last module's finalize; it comes before
 * every other module, so that their set-up exchanges are published too. */
static void read_hang_timeout(void) {
    const char *text = getenv("SHMEM_HANG_TIMEOUT");
    hang_timeout_ms = 0;
    if (text == NULL || text[0] == '\0')
        return;
    char *end;
    errno = 0;
    double seconds = strtod(text, &end);
    if (errno || *end || !(seconds >= 0) || seconds > 1e7)
        shmemi_fatal("shmem_init", "SHMEM_HANG_TIMEOUT='%s' is not a number of seconds (0 for off)",
                     text);
    /* shmemrun enforces it itself, for every wait, with one report for the whole job. */
    if (strcmp(shmemi_bootstrap->name, "shmemrun") != 0)
        hang_timeout_ms = seconds > 0 && seconds * 1000 < 1 ? 1 : (long long)(seconds * 1000);
}

static shmemi_status_t watch_init(void) {
    read_hang_timeout();
    where_record_t *r = shmemi_internal_alloc(sizeof(*r), 64);
    if (r == NULL)
        return SHMEMI_ERR_NOMEM;
    memset(r, 0, sizeof(*r));
    pthread_mutex_lock(&record_lock);
    record = r;
    pthread_mutex_unlock(&record_lock);
    return SHMEMI_OK;
}

static void watch_finalize(void) {
    pthread_mutex_lock(&record_lock);
    record = NULL;
    pthread_mutex_unlock(&record_lock);
}

static const shmemi_module_t watch_module = {"where each PE is", 0, watch_init, watch_finalize};

__attribute__((constructor)) static void watch_register(void) {
    shmemi_module_register(&watch_module);
}
