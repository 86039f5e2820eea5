/* SPDX-License-Identifier: BSD-3-Clause */
/* The recording network transport of proxy_recorder.h: per transport context, a list of pending
 * operations that only a quiet of that context (or of every context) delivers, in issue order. */
#include "proxy_recorder.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem/impl/ctx__types.h>

#include "core/cpu_amo.h"
#include "core/shmemi.h"

#define EXPORT __attribute__((visibility("default")))

typedef struct {
    int kind; /* PUT, AMO (not fetching), PUT_SIGNAL, LOST */
    int pe;
    size_t offset, len;
    unsigned char *data;
    shmemi_amo_op_t op;
    uint64_t operand;
    size_t size;       /* AMO: 4 or 8 */
    size_t sig_offset; /* PUT_SIGNAL: the signal's offset in the heap */
    /* A started put (put_start) not yet sent: its source, still the caller's, and whom to tell
     * once data holds its copy; when it was started (the count of starts before it, the clock). */
    const void *source;
    shmemi_put_done_t done;
    void *arg;
    uint64_t started, started_ns;
} pending_op_t;
enum { PUT, AMO, PUT_SIGNAL, LOST /* a started put that failed: nothing arrives */ };

struct shmemi_transport_ctx {
    pthread_mutex_t lock;
    pending_op_t *ops;
    size_t n_ops, cap;
    shmemt_recorder_counts_t counts;
    struct shmemi_transport_ctx *next;
};

/* A started put stays unsent until this many puts were started after it (more than the test's
 * ring has slots: producers that go on meanwhile reuse its slot, were it freed at the start), or
 * for this long (when they wait for its slot, as they should). */
#define SEND_AFTER_STARTS 16
#define SEND_AFTER_NS 2000000ull

static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t starts;
static int fail_sends, hold_sends;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static shmemi_transport_ctx_t *all_contexts;
static char **heap_base; /* every PE's heap, as shmem_init mapped it */

/* The address of offset in pe's heap; NULL for any other segment (the test uses the heap only). */
static void *remote(int segment, size_t offset, size_t len, int pe) {
    if (segment != 0 || offset > shmemi_state.segments[0].size ||
        len > shmemi_state.segments[0].size - offset)
        return NULL;
    return heap_base[pe] + offset;
}

static void deliver(const pending_op_t *o) {
    if (o->kind == PUT || o->kind == PUT_SIGNAL)
        memcpy(remote(0, o->offset, o->len, o->pe), o->data, o->len);
    if (o->kind == AMO)
        (void)shmemi_cpu_amo(o->op, remote(0, o->offset, o->size, o->pe), o->operand, 0, o->size);
    if (o->kind == PUT_SIGNAL)
        (void)shmemi_cpu_amo(o->op, remote(0, o->sig_offset, 8, o->pe), o->operand, 0, 8);
}

/* Adds o to t's pending operations, with a copy of o.len bytes of source (none: NULL). */
static shmemi_status_t add(shmemi_transport_ctx_t *t, pending_op_t o, const void *source) {
    if (source != NULL) {
        o.data = malloc(o.len);
        if (o.data == NULL)
            return SHMEMI_ERR_NOMEM;
        memcpy(o.data, source, o.len);
    }
    pthread_mutex_lock(&t->lock);
    if (t->n_ops == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        pending_op_t *ops = realloc(t->ops, cap * sizeof(*ops));
        if (ops == NULL) {
            pthread_mutex_unlock(&t->lock);
            free(o.data);
            return SHMEMI_ERR_NOMEM;
        }
        t->ops = ops;
        t->cap = cap;
    }
    t->ops[t->n_ops++] = o;
    t->counts.pending++;
    pthread_mutex_unlock(&t->lock);
    return SHMEMI_OK;
}

/* Sends a started put: copies its source, then tells its starter the source is free. Under the
 * lock of its context. */
static void send_started(pending_op_t *o) {
    if (o->source == NULL || __atomic_load_n(&hold_sends, __ATOMIC_RELAXED))
        return;
    if (__atomic_load_n(&fail_sends, __ATOMIC_RELAXED)) {
        o->source = NULL;
        o->kind = LOST;
        o->done(o->arg, SHMEMI_ERR_PEER);
        return;
    }
    o->data = malloc(o->len);
    if (o->data == NULL)
        abort();
    memcpy(o->data, o->source, o->len);
    o->source = NULL;
    o->done(o->arg, SHMEMI_OK);
}

static void quiet_one(shmemi_transport_ctx_t *t) {
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n_ops; i++) {
        send_started(&t->ops[i]);
        deliver(&t->ops[i]);
        free(t->ops[i].data);
    }
    t->counts.delivered += t->n_ops;
    t->counts.pending = 0;
    t->counts.quiets++;
    t->n_ops = 0;
    pthread_mutex_unlock(&t->lock);
}

/* Delivers t's pending operations to pe, in order; the others stay pending. */
static shmemi_status_t rec_pe_quiet(shmemi_transport_ctx_t *t, int pe) {
    pthread_mutex_lock(&t->lock);
    size_t kept = 0;
    for (size_t i = 0; i < t->n_ops; i++) {
        if (t->ops[i].pe != pe) {
            t->ops[kept++] = t->ops[i];
            continue;
        }
        send_started(&t->ops[i]);
        deliver(&t->ops[i]);
        free(t->ops[i].data);
        t->counts.delivered++;
        t->counts.pending--;
    }
    t->n_ops = kept;
    t->counts.pe_quiets++;
    pthread_mutex_unlock(&t->lock);
    return SHMEMI_OK;
}

static shmemi_status_t rec_ok(void) {
    return SHMEMI_OK;
}
static shmemi_status_t rec_segment_create(size_t size, void **base_p,
                                          unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    (void)size, (void)base_p, (void)blob;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t rec_segment_share(void *base, size_t size,
                                         unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    (void)base, (void)size, (void)blob;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t rec_segment_attach(int pe,
                                          const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE],
                                          size_t size, void **base_p) {
    (void)pe, (void)blob, (void)size, (void)base_p;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t rec_segment_release(void *base, size_t size) {
    (void)base, (void)size;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t rec_local_fill(void *dest, int value, size_t len) {
    (void)dest, (void)value, (void)len;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t rec_local_copy(void *dest, const void *source, size_t len) {
    (void)dest, (void)source, (void)len;
    return SHMEMI_ERR_UNSUPPORTED;
}
static int rec_can_reach(int pe) {
    return pe >= 0 && pe < shmemi_state.n_pes;
}

static shmemi_status_t rec_ctx_create(long options, shmemi_transport_ctx_t **tctx_p) {
    (void)options;
    shmemi_transport_ctx_t *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return SHMEMI_ERR_NOMEM;
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_lock(&all_lock);
    t->next = all_contexts;
    all_contexts = t;
    pthread_mutex_unlock(&all_lock);
    *tctx_p = t;
    return SHMEMI_OK;
}

static void rec_ctx_destroy(shmemi_transport_ctx_t *t) {
    pthread_mutex_lock(&all_lock);
    shmemi_transport_ctx_t **at = &all_contexts;
    while (*at != t)
        at = &(*at)->next;
    *at = t->next;
    pthread_mutex_unlock(&all_lock);
    for (size_t i = 0; i < t->n_ops; i++)
        free(t->ops[i].data);
    free(t->ops);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static shmemi_status_t rec_put(shmemi_transport_ctx_t *t, int segment, size_t offset,
                               const void *source, size_t len, int pe) {
    if (remote(segment, offset, len, pe) == NULL)
        return SHMEMI_ERR_INVALID;
    pending_op_t o = {.kind = PUT, .pe = pe, .offset = offset, .len = len};
    return add(t, o, source);
}

/* A put sent later, from its source: at a progress pass once SEND_AFTER_STARTS puts were
 * started after it or SEND_AFTER_NS passed, or at the quiet that delivers it. */
static shmemi_status_t rec_put_start(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                     const void *source, size_t len, int pe, shmemi_put_done_t done,
                                     void *arg) {
    if (remote(segment, offset, len, pe) == NULL)
        return SHMEMI_ERR_INVALID;
    pending_op_t o = {.kind = PUT,
                      .pe = pe,
                      .offset = offset,
                      .len = len,
                      .source = source,
                      .done = done,
                      .arg = arg,
                      .started = __atomic_fetch_add(&starts, 1, __ATOMIC_RELAXED),
                      .started_ns = now_ns()};
    return add(t, o, NULL);
}

/* Gets are done at once: they read what quiets delivered so far. */
static shmemi_status_t rec_get(shmemi_transport_ctx_t *t, void *dest, int segment, size_t offset,
                               size_t len, int pe) {
    (void)t;
    const void *r = remote(segment, offset, len, pe);
    if (r == NULL)
        return SHMEMI_ERR_INVALID;
    memcpy(dest, r, len);
    return SHMEMI_OK;
}

static shmemi_status_t rec_amo(shmemi_transport_ctx_t *t, shmemi_amo_op_t op, int segment,
                               size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                               size_t size, int pe) {
    void *r = remote(segment, offset, size, pe);
    if (r == NULL)
        return SHMEMI_ERR_INVALID;
    if (fetch_p) {
        *fetch_p = shmemi_cpu_amo(op, r, operand, compare, size);
        return SHMEMI_OK;
    }
    pending_op_t o = {
        .kind = AMO, .pe = pe, .offset = offset, .op = op, .operand = operand, .size = size};
    return add(t, o, NULL);
}

static shmemi_status_t rec_put_signal(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                      const void *source, size_t len, int sig_segment,
                                      size_t sig_offset, shmemi_amo_op_t sig_op, uint64_t signal,
                                      int pe) {
    if (remote(segment, offset, len, pe) == NULL || remote(sig_segment, sig_offset, 8, pe) == NULL)
        return SHMEMI_ERR_INVALID;
    pending_op_t o = {.kind = PUT_SIGNAL,
                      .pe = pe,
                      .offset = offset,
                      .len = len,
                      .op = sig_op,
                      .operand = signal,
                      .sig_offset = sig_offset};
    return add(t, o, source);
}

/* Delivery in issue order keeps every fence; the fence is counted. */
static shmemi_status_t rec_fence(shmemi_transport_ctx_t *t, int pe) {
    (void)pe;
    pthread_mutex_lock(&t->lock);
    t->counts.fences++;
    pthread_mutex_unlock(&t->lock);
    return SHMEMI_OK;
}

static shmemi_status_t rec_quiet(shmemi_transport_ctx_t *t) {
    if (t) {
        quiet_one(t);
        return SHMEMI_OK;
    }
    pthread_mutex_lock(&all_lock);
    for (shmemi_transport_ctx_t *c = all_contexts; c; c = c->next)
        quiet_one(c);
    pthread_mutex_unlock(&all_lock);
    return SHMEMI_OK;
}

static int rec_progress(void) {
    const uint64_t started = __atomic_load_n(&starts, __ATOMIC_RELAXED), now = now_ns();
    int sent = 0;
    pthread_mutex_lock(&all_lock);
    for (shmemi_transport_ctx_t *c = all_contexts; c; c = c->next) {
        pthread_mutex_lock(&c->lock);
        for (size_t i = 0; i < c->n_ops; i++) {
            pending_op_t *o = &c->ops[i];
            if (o->source != NULL && (started - o->started > SEND_AFTER_STARTS ||
                                      now - o->started_ns >= SEND_AFTER_NS)) {
                send_started(o);
                sent = 1;
            }
        }
        pthread_mutex_unlock(&c->lock);
    }
    pthread_mutex_unlock(&all_lock);
    return sent;
}

static const shmemi_transport_ops_t recorder_ops = {
    .name = "recorder",
    .flags = SHMEMI_TRANSPORT_NETWORK,
    .host_loadable = 1,
    .init = rec_ok,
    .finalize = rec_ok,
    .segment_create = rec_segment_create,
    .segment_share = rec_segment_share,
    .segment_attach = rec_segment_attach,
    .segment_detach = rec_segment_release,
    .segment_destroy = rec_segment_release,
    .local_fill = rec_local_fill,
    .local_copy = rec_local_copy,
    .can_reach = rec_can_reach,
    .address_get = shmemi_transport_unsupported_address_get,
    .peers_set = shmemi_transport_unsupported_peers_set,
    .mem_register = shmemi_transport_unsupported_mem_register,
    .mem_peer = shmemi_transport_unsupported_mem_peer,
    .mem_deregister = shmemi_transport_unsupported_mem_deregister,
    .ctx_create = rec_ctx_create,
    .ctx_destroy = rec_ctx_destroy,
    .put = rec_put,
    .put_nbi = rec_put,
    .put_start = rec_put_start,
    .get = rec_get,
    .get_nbi = rec_get,
    .amo = rec_amo,
    .put_signal = rec_put_signal,
    .put_signal_oneway = shmemi_transport_unsupported_put_signal_oneway,
    .fence = rec_fence,
    .quiet = rec_quiet,
    .pe_quiet = rec_pe_quiet,
    .test = shmemi_transport_unsupported_test,
    .progress = rec_progress,
    .wait = shmemi_transport_sleep_wait,
};

/* The AMOs' route of every PE before shmemt_recorder_install_amos. */
static uint8_t *amo_net_before;

static void install(int amos_only) {
    const int n = shmemi_state.n_pes;
    shmemi_segment_t *heap = &shmemi_state.segments[0];
    heap_base = calloc((size_t)n, sizeof(char *));
    amo_net_before = calloc((size_t)n, 1);
    if (heap_base == NULL || amo_net_before == NULL || shmemi_transport_net != NULL)
        abort();
    for (int pe = 0; pe < n; pe++) {
        heap_base[pe] = heap->peer_base[pe];
        amo_net_before[pe] = shmemi_routes[pe].amo_net;
        if (amos_only)
            shmemi_routes[pe].amo_net = 1;
        else if (pe != shmemi_state.my_pe)
            heap->peer_base[pe] = NULL;
    }
    if (rec_ctx_create(0, &shmemi_net_ctx_default) != SHMEMI_OK)
        abort();
    shmemi_transport_net = &recorder_ops;
}

EXPORT void shmemt_recorder_install(void) {
    install(0);
}

EXPORT void shmemt_recorder_install_amos(void) {
    install(1);
}

EXPORT void shmemt_recorder_uninstall(void) {
    shmemi_transport_net = NULL;
    rec_ctx_destroy(shmemi_net_ctx_default);
    shmemi_net_ctx_default = NULL;
    for (int pe = 0; pe < shmemi_state.n_pes; pe++) {
        shmemi_state.segments[0].peer_base[pe] = heap_base[pe];
        shmemi_routes[pe].amo_net = amo_net_before[pe];
    }
    free(heap_base);
    heap_base = NULL;
    free(amo_net_before);
    amo_net_before = NULL;
}

EXPORT void shmemt_recorder_fail_sends(void) {
    __atomic_store_n(&fail_sends, 1, __ATOMIC_RELAXED);
}

EXPORT void shmemt_recorder_hold_sends(void) {
    __atomic_store_n(&hold_sends, 1, __ATOMIC_RELAXED);
}

EXPORT shmemt_recorder_counts_t shmemt_recorder_counts(shmem_ctx_t ctx) {
    shmemi_transport_ctx_t *t = ctx == SHMEM_CTX_DEFAULT
                                    ? shmemi_net_ctx_default
                                    : (shmemi_transport_ctx_t *)SHMEMI_CTX_OBJECT(ctx)->transport;
    pthread_mutex_lock(&t->lock);
    shmemt_recorder_counts_t c = t->counts;
    pthread_mutex_unlock(&t->lock);
    return c;
}

EXPORT void *shmemt_recorder_peek(const void *addr, int pe) {
    size_t offset = (size_t)((const char *)addr - shmemi_state.segments[0].local_base);
    return remote(0, offset, 1, pe);
}
