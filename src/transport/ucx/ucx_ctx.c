/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX transport's contexts: a worker per OpenSHMEM context, endpoints and rkeys made on first
 * use, and the remote operations. How each keeps the memory model (docs/transports.md):
 *   put, get             ucp_put_nbx / ucp_get_nbx; blocking forms wait for the request
 *   AMOs                 ucp_atomic_op_nbx; non-fetching add/and/or/xor are posted
 *   fence                ucp_worker_fence (it orders every endpoint of the worker: more than one
 *                        context needs, never less)
 *   quiet                ucp_ep_flush_nbx on each endpoint of the context that has issued
 *                        a put, a non-blocking get or a posted AMO since its last flush
 *   put-with-signal      up to UCX_PUT_SIGNAL_AM_MAX bytes, where UCX's AMOs are the CPU's and
 *                        the context issued no put or posted AMO on the endpoint since its last
 *                        flush: one active message (ucp_am_send_nbx) that the target applies,
 *                        data then signal, after the answers of the context's earlier active
 *                        messages to that PE; otherwise put, fence, then the signal's AMO
 * Operations on a delivered segment of the target (ucx_am.c) are active messages too; where a
 * target has one, or the context has active messages unanswered, fence waits for those answers
 * (and flushes where a delivered segment is involved: ucx_fence). */
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "transport/ucx/ucx.h"

static pthread_mutex_t contexts_lock = PTHREAD_MUTEX_INITIALIZER;
static shmemi_transport_ctx_t *contexts;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A peer's endpoint failed (it died, or the network between us went down): the job cannot go on. */
static void ep_failed(void *arg, ucp_ep_h ep, ucs_status_t status) {
    (void)ep;
    int pe = (int)(intptr_t)arg;
    if (*ucx_host->closing)
        return;
    ucx_host->fatal("network",
                    "lost the connection to PE %d: %s (the PE died, or the network "
                    "between the nodes is down)",
                    pe, ucs_status_string(status));
}

__attribute__((noreturn)) static void timed_out(const char *what, int pe) {
    char whom[32] = "every PE";
    if (pe >= 0)
        snprintf(whom, sizeof(whom), "PE %d", pe);
    ucx_host->fatal("network",
                    "%s (%s) did not complete within %g s (SHMEM_NETWORK_TIMEOUT): a PE stopped "
                    "making progress, or the network between the nodes is down",
                    what, whom, ucx.timeout);
}

/* A blocking wait that has lasted this long yields the processor after each pass that progressed
 * nothing: several round trips over TCP (15-30 us each here), so that an operation answered at
 * once never yields on a quiet machine. */
#define WAIT_YIELD_AFTER_NS 100000u
/* Passes between two looks at the clock (for the yield and SHMEM_NETWORK_TIMEOUT). */
#define WAIT_CHECK_EVERY 16u
/* Two looks further apart than this mean the thread was preempted between them: its processor is
 * shared. Then every blocking wait of the PE yields from its first look on, until this PE has not
 * been preempted so for CONTENDED_FOR_NS; and always where the job has more PEs on this node than
 * it has processors (ucx_host->shares_processor). */
#define PREEMPTED_NS 500000u
#define CONTENDED_FOR_NS 100000000u

/* Until when the PE's waits yield at once (CLOCK_MONOTONIC; relaxed atomics: any thread). */
static uint64_t contended_until_ns;

void ucx_wait_step(shmemi_transport_ctx_t *t, ucx_wait_timer_t *timer, const char *what, int pe) {
    int progressed = ucx_pe_progress(t->worker) != 0;
    progressed = ucx_am_apply() != 0 || progressed;
    /* Where the peer (or the target's progress thread) waits for this PE's processor, spinning
     * held it through the peer's time slice: two PEs on one processor spent 1.4-3.3 ms of
     * processor time per fetch-add to each other. Yielding after 64 passes (20-30 us) on every
     * machine made a put-with-signal round trip 1.3-1.6x as long on a quiet one; after 100 us
     * everywhere, 32 PEs on 4 test hosts of a 2-core machine took 7x as long to connect to every
     * peer as with the early yield. */
    if (timer->spins % WAIT_CHECK_EVERY == 0) {
        uint64_t now = now_ns();
        if (timer->last_ns != 0 && now - timer->last_ns > PREEMPTED_NS)
            __atomic_store_n(&contended_until_ns, now + CONTENDED_FOR_NS, __ATOMIC_RELAXED);
        if (timer->begin_ns == 0)
            timer->begin_ns = now;
        timer->last_ns = now;
        if (ucx_host->shares_processor || now - timer->begin_ns > WAIT_YIELD_AFTER_NS ||
            now < __atomic_load_n(&contended_until_ns, __ATOMIC_RELAXED))
            timer->yielding = 1;
        if (ucx.timeout > 0 && (double)(now - timer->begin_ns) * 1e-9 > ucx.timeout)
            timed_out(what, pe);
    }
    timer->spins++;
    if (!progressed && timer->yielding)
        sched_yield();
}

/* Threads of the PE inside a wait of this plug-in that progresses the worker itself (a blocking
 * operation's wait, a library wait sleeping in the event descriptor). While there is one, the
 * progress thread keeps off the worker: the two would wake on the same events and take turns at
 * the worker's lock, a spin lock, each spinning while the other holds it (over TCP on two cores
 * that spinning took a third to half of each PE's processor time and half its bandwidth). */
static unsigned pe_waiting;

static void wait_enter(void) {
    __atomic_fetch_add(&pe_waiting, 1, __ATOMIC_RELAXED);
}

static void wait_leave(void) {
    __atomic_fetch_sub(&pe_waiting, 1, __ATOMIC_RELAXED);
}

/* Waits for req, progressing the worker (which also answers peers waiting for this PE) and
 * applying the operations peers sent on delivered segments. Fatal, naming pe, after ucx.timeout
 * seconds. */
shmemi_status_t ucx_wait_request(shmemi_transport_ctx_t *t, void *req, const char *what, int pe) {
    if (req == NULL)
        return SHMEMI_OK;
    if (UCS_PTR_IS_ERR(req)) {
        ucx_host->warn("network", "%s to PE %d failed: %s", what, pe,
                       ucs_status_string(UCS_PTR_STATUS(req)));
        return SHMEMI_ERR_PEER;
    }
    ucx_wait_timer_t timer = {0};
    ucs_status_t st;
    wait_enter();
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        ucx_wait_step(t, &timer, what, pe);
    wait_leave();
    ucp_request_free(req);
    if (st != UCS_OK) {
        ucx_host->warn("network", "%s to PE %d failed: %s", what, pe, ucs_status_string(st));
        return SHMEMI_ERR_PEER;
    }
    return SHMEMI_OK;
}

/* Counts an operation on p that completes only at the next flush. After the operation is
 * issued, so that a quiet of the issuing thread (or one ordered after it) sees it. */
static void issued(ucx_peer_t *p) {
    __atomic_fetch_add(&p->issued, 1, __ATOMIC_RELEASE);
}

/* A request of a non-blocking operation: completes at quiet (the flush), so it is released now. */
static shmemi_status_t post_request(ucx_peer_t *p, void *req, const char *what, int pe) {
    issued(p);
    if (req == NULL)
        return SHMEMI_OK;
    if (UCS_PTR_IS_ERR(req)) {
        ucx_host->warn("network", "%s to PE %d failed: %s", what, pe,
                       ucs_status_string(UCS_PTR_STATUS(req)));
        return SHMEMI_ERR_PEER;
    }
    ucp_request_free(req);
    return SHMEMI_OK;
}

/* Tells s's starter that its source is free, counts it as sent and frees it. */
static void started_end(ucx_started_t *s, shmemi_status_t status) {
    shmemi_transport_ctx_t *t = s->t;
    s->done(s->arg, status);
    free(s);
    __atomic_fetch_add(&t->puts_sent, 1, __ATOMIC_RELEASE);
}

static void started_done(void *request, ucs_status_t status, void *user_data) {
    ucx_started_t *s = user_data;
    if (status != UCS_OK)
        ucx_host->warn("network", "put to PE %d failed: %s", s->pe, ucs_status_string(status));
    ucp_request_free(request);
    started_end(s, status == UCS_OK ? SHMEMI_OK : SHMEMI_ERR_PEER);
}

void ucx_started_param(ucp_request_param_t *param, ucx_started_t *s, shmemi_transport_ctx_t *t,
                       int pe, shmemi_put_done_t done, void *arg) {
    *s = (ucx_started_t){.t = t, .done = done, .arg = arg, .pe = pe};
    __atomic_fetch_add(&t->puts_started, 1, __ATOMIC_RELAXED);
    memset(param, 0, sizeof(*param));
    param->op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param->cb.send = started_done;
    param->user_data = s;
}

shmemi_status_t ucx_started_posted(ucx_started_t *s, void *req, const char *what) {
    if (UCS_PTR_IS_ERR(req)) {
        ucx_host->warn("network", "%s to PE %d failed: %s", what, s->pe,
                       ucs_status_string(UCS_PTR_STATUS(req)));
        __atomic_fetch_add(&s->t->puts_sent, 1, __ATOMIC_RELEASE);
        free(s);
        return SHMEMI_ERR_PEER;
    }
    if (req == NULL)
        started_end(s, SHMEMI_OK);
    return SHMEMI_OK;
}

shmemi_status_t ucx_ctx_create(long options, shmemi_transport_ctx_t **tctx_p) {
    shmemi_transport_ctx_t *t = calloc(1, sizeof(*t));
    if (t)
        t->peers = calloc((size_t)ucx_host->n_pes, sizeof(*t->peers));
    if (t && t->peers)
        t->connected = calloc((size_t)ucx_host->n_pes, sizeof(*t->connected));
    if (!t || !t->peers || !t->connected) {
        if (t)
            free(t->peers);
        free(t);
        return SHMEMI_ERR_NOMEM;
    }
    t->worker = ucx.worker;
    t->private_ctx = (options & SHMEM_CTX_PRIVATE) != 0;
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_lock(&contexts_lock);
    t->next = contexts;
    contexts = t;
    pthread_mutex_unlock(&contexts_lock);
    *tctx_p = t;
    return SHMEMI_OK;
}

/* Destroys p's rkeys and closes its endpoint, progressing worker until the close is done. */
static void peer_close(ucp_worker_h worker, ucx_peer_t *p) {
    for (int s = 0; s < SHMEMI_MAX_SEGMENTS; s++)
        if (p->rkey[s])
            ucp_rkey_destroy(p->rkey[s]);
    ucp_request_param_t param = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                 .flags = UCP_EP_CLOSE_FLAG_FORCE};
    void *req = ucp_ep_close_nbx(p->ep, &param);
    if (req && !UCS_PTR_IS_ERR(req)) {
        while (ucp_request_check_status(req) == UCS_INPROGRESS)
            ucx_pe_progress(worker);
        ucp_request_free(req);
    }
    free(p);
}

static void peer_destroy(shmemi_transport_ctx_t *t, int pe) {
    if (!t->peers[pe])
        return;
    peer_close(t->worker, t->peers[pe]);
    t->peers[pe] = NULL;
}

/* Endpoints of destroyed contexts, per PE, for the next context that reaches that PE: closing
 * one resets the TCP connection it shares with the peer's own endpoints, which the peer would
 * take for a failure of this PE. They are closed at finalize, when peers expect it. */
static pthread_mutex_t spares_lock = PTHREAD_MUTEX_INITIALIZER;
static ucx_peer_t **spares;

static ucx_peer_t *spare_take(int pe) {
    pthread_mutex_lock(&spares_lock);
    ucx_peer_t *p = spares ? spares[pe] : NULL;
    if (p)
        spares[pe] = p->next_spare;
    pthread_mutex_unlock(&spares_lock);
    return p;
}

/* Completes a destroyed context's operations to pe and keeps its endpoint; closes it when there
 * is no list to keep it in. */
static void spare_put(shmemi_transport_ctx_t *t, int pe) {
    ucx_peer_t *p = t->peers[pe];
    ucp_request_param_t param = {0};
    (void)ucx_wait_request(t, ucp_ep_flush_nbx(p->ep, &param), "quiet", pe);
    pthread_mutex_lock(&spares_lock);
    if (!spares)
        spares = calloc((size_t)ucx_host->n_pes, sizeof(*spares));
    if (spares) {
        p->next_spare = spares[pe];
        spares[pe] = p;
        t->peers[pe] = NULL;
    }
    pthread_mutex_unlock(&spares_lock);
    if (t->peers[pe])
        peer_destroy(t, pe);
}

void ucx_ctx_destroy(shmemi_transport_ctx_t *t) {
    if (!t)
        return;
    pthread_mutex_lock(&contexts_lock);
    for (shmemi_transport_ctx_t **p = &contexts; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    pthread_mutex_unlock(&contexts_lock);
    if (!*ucx_host->closing)
        (void)ucx_am_complete(t);
    for (int i = 0; i < t->n_connected; i++) {
        if (*ucx_host->closing)
            peer_destroy(t, t->connected[i]);
        else
            spare_put(t, t->connected[i]);
    }
    pthread_mutex_destroy(&t->lock);
    free(t->connected);
    free(t->peers);
    free(t);
}

void ucx_ctx_destroy_all(void) {
    while (contexts)
        ucx_ctx_destroy(contexts);
    ucx_peer_t *p;
    for (int pe = 0; spares && pe < ucx_host->n_pes; pe++)
        while ((p = spare_take(pe)) != NULL)
            peer_close(ucx.worker, p);
    free(spares);
    spares = NULL;
}

/* The endpoint to pe on context t, made on first use. */
ucx_peer_t *ucx_peer_get(shmemi_transport_ctx_t *t, int pe) {
    ucx_peer_t *p = __atomic_load_n(&t->peers[pe], __ATOMIC_ACQUIRE);
    if (__builtin_expect(p != NULL, 1))
        return p;
    if (pe < 0 || pe >= ucx_host->n_pes || !ucx.peer_address || !ucx.peer_address[pe])
        return NULL;
    if (!t->private_ctx)
        pthread_mutex_lock(&t->lock);
    p = __atomic_load_n(&t->peers[pe], __ATOMIC_RELAXED);
    if (p == NULL && (p = spare_take(pe)) != NULL) {
        p->next_spare = NULL;
        t->connected[t->n_connected] = pe;
        __atomic_store_n(&t->peers[pe], p, __ATOMIC_RELEASE);
        __atomic_store_n(&t->n_connected, t->n_connected + 1, __ATOMIC_RELEASE);
    } else if (p == NULL && (p = calloc(1, sizeof(*p))) != NULL) {
        /* Failures of peers are detected, which excludes transports that cannot (UCX's self
         * transport among them): the endpoint to this PE itself then takes the same path as the
         * peers', so its AMOs are atomic with theirs (self's CPU atomics are not atomic with the
         * target-side emulation of AMOs over TCP). */
        ucp_ep_params_t params = {
            .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                          UCP_EP_PARAM_FIELD_ERR_HANDLER,
            .address = (const ucp_address_t *)ucx.peer_address[pe],
            .err_mode = UCP_ERR_HANDLING_MODE_PEER,
            .err_handler = {.cb = ep_failed, .arg = (void *)(intptr_t)pe},
        };
        ucs_status_t st = ucp_ep_create(t->worker, &params, &p->ep);
        if (st != UCS_OK) {
            ucx_host->warn("network", "cannot connect to PE %d: %s", pe, ucs_status_string(st));
            free(p);
            p = NULL;
        } else {
            t->connected[t->n_connected] = pe;
            __atomic_store_n(&t->peers[pe], p, __ATOMIC_RELEASE);
            __atomic_store_n(&t->n_connected, t->n_connected + 1, __ATOMIC_RELEASE);
        }
    }
    if (!t->private_ctx)
        pthread_mutex_unlock(&t->lock);
    return p;
}

/* The rkey of pe's segment s on p's endpoint, unpacked on first use; sets *addr_p to the remote
 * address of offset. NULL when pe's blob for s does not unpack. */
static ucp_rkey_h rkey_get(shmemi_transport_ctx_t *t, ucx_peer_t *p, int s, size_t offset, int pe,
                           uint64_t *addr_p) {
    ucp_rkey_h rkey = __atomic_load_n(&p->rkey[s], __ATOMIC_ACQUIRE);
    if (__builtin_expect(rkey == NULL, 0)) {
        if (!t->private_ctx)
            pthread_mutex_lock(&t->lock);
        rkey = p->rkey[s];
        uint64_t base;
        const void *packed;
        size_t packed_len;
        if (rkey == NULL && s >= 0 && s < SHMEMI_MAX_SEGMENTS && ucx.seg[s].peer_blob &&
            ucx_blob_parse(ucx.seg[s].peer_blob[pe], ucx.seg[s].peer_blob_len[pe], &base, &packed,
                           &packed_len) == 0) {
            ucs_status_t st = ucp_ep_rkey_unpack(p->ep, packed, &rkey);
            if (st != UCS_OK) {
                ucx_host->warn("network",
                               "the memory key of PE %d's segment %d does not unpack: %s", pe, s,
                               ucs_status_string(st));
                rkey = NULL;
            } else {
                p->remote_base[s] = base;
                __atomic_store_n(&p->rkey[s], rkey, __ATOMIC_RELEASE);
            }
        }
        if (!t->private_ctx)
            pthread_mutex_unlock(&t->lock);
        if (rkey == NULL)
            return NULL;
    }
    *addr_p = p->remote_base[s] + offset;
    return rkey;
}

/* A thread that issues operations without waiting (puts whose data went to the socket at once,
 * posted AMOs) progresses the worker itself once per this many of them. */
#define ISSUES_PER_PASS 32

static __thread unsigned issues_since_pass;

/* Counts an operation the PE issues on the worker as a pass of the PE's, as ucx_pe_progress does,
 * and makes a real pass every ISSUES_PER_PASS operations. A PE streaming puts calls no wait for
 * long stretches: the progress thread that took that for a PE away from the library spun on the
 * worker's lock against every put, and without the thread nothing would answer its peers' gets
 * and AMOs until its next wait. */
static inline void pe_issues(void) {
    __atomic_fetch_add(ucx_host->pe_progress, 1, __ATOMIC_RELAXED);
    if (++issues_since_pass < ISSUES_PER_PASS)
        return;
    issues_since_pass = 0;
    (void)ucx_progress();
}

/* The endpoint, rkey and remote address of (segment, offset) on pe, or SHMEMI_ERR_PEER; the
 * operation counts as the PE's activity. */
#define TARGET(t, pe, segment, offset)                                                             \
    pe_issues();                                                                                   \
    ucx_peer_t *p = ucx_peer_get((t), (pe));                                                       \
    uint64_t raddr = 0;                                                                            \
    ucp_rkey_h rkey = p ? rkey_get((t), p, (segment), (offset), (pe), &raddr) : NULL;              \
    if (rkey == NULL)                                                                              \
        return SHMEMI_ERR_PEER;

shmemi_status_t ucx_put(shmemi_transport_ctx_t *t, int segment, size_t offset, const void *source,
                        size_t len, int pe) {
    if (ucx_delivered(segment, pe))
        return ucx_am_put(t, segment, offset, source, len, pe);
    TARGET(t, pe, segment, offset);
    ucp_request_param_t param = {0};
    /* Its request completes when source may be reused; the put is remote at the flush. */
    void *req = ucp_put_nbx(p->ep, source, len, raddr, rkey, &param);
    issued(p);
    return ucx_wait_request(t, req, "put", pe);
}

/* A put_nbi's send: nobody waits for it but quiet, through the context's counts. */
static void put_nbi_sent(void *arg, shmemi_status_t status) {
    (void)arg, (void)status;
}

shmemi_status_t ucx_put_nbi(shmemi_transport_ctx_t *t, int segment, size_t offset,
                            const void *source, size_t len, int pe) {
    /* source may be read until quiet: the message goes without waiting for its send. */
    if (ucx_delivered(segment, pe))
        return ucx_am_put_start(t, segment, offset, source, len, pe, put_nbi_sent, NULL);
    TARGET(t, pe, segment, offset);
    ucp_request_param_t param = {0};
    return post_request(p, ucp_put_nbx(p->ep, source, len, raddr, rkey, &param), "put", pe);
}

shmemi_status_t ucx_put_start(shmemi_transport_ctx_t *t, int segment, size_t offset,
                              const void *source, size_t len, int pe, shmemi_put_done_t done,
                              void *arg) {
    if (ucx_delivered(segment, pe))
        return ucx_am_put_start(t, segment, offset, source, len, pe, done, arg);
    TARGET(t, pe, segment, offset);
    ucx_started_t *s = malloc(sizeof(*s));
    if (!s)
        return SHMEMI_ERR_NOMEM;
    ucp_request_param_t param;
    ucx_started_param(&param, s, t, pe, done, arg);
    void *req = ucp_put_nbx(p->ep, source, len, raddr, rkey, &param);
    issued(p);
    return ucx_started_posted(s, req, "put");
}

shmemi_status_t ucx_get(shmemi_transport_ctx_t *t, void *dest, int segment, size_t offset,
                        size_t len, int pe) {
    if (ucx_delivered(segment, pe))
        return ucx_am_get(t, dest, segment, offset, len, pe, 0);
    TARGET(t, pe, segment, offset);
    ucp_request_param_t param = {0};
    return ucx_wait_request(t, ucp_get_nbx(p->ep, dest, len, raddr, rkey, &param), "get", pe);
}

shmemi_status_t ucx_get_nbi(shmemi_transport_ctx_t *t, void *dest, int segment, size_t offset,
                            size_t len, int pe) {
    if (ucx_delivered(segment, pe))
        return ucx_am_get(t, dest, segment, offset, len, pe, 1);
    TARGET(t, pe, segment, offset);
    ucp_request_param_t param = {0};
    return post_request(p, ucp_get_nbx(p->ep, dest, len, raddr, rkey, &param), "get", pe);
}

shmemi_status_t ucx_amo(shmemi_transport_ctx_t *t, shmemi_amo_op_t op, int segment, size_t offset,
                        uint64_t *fetch_p, uint64_t operand, uint64_t compare, size_t size,
                        int pe) {
    if (ucx_delivered(segment, pe)) {
        if (size != 4 && size != 8)
            return SHMEMI_ERR_UNSUPPORTED;
        return ucx_am_amo(t, op, segment, offset, fetch_p, operand, compare, size, pe);
    }
    TARGET(t, pe, segment, offset);
    ucp_atomic_op_t opcode;
    int fetching = fetch_p != NULL;
    switch (op) {
    case SHMEMI_AMO_FETCH:
        opcode = UCP_ATOMIC_OP_OR;
        operand = 0;
        fetching = 1;
        break;
    case SHMEMI_AMO_SET:
    case SHMEMI_AMO_SWAP:
        opcode = UCP_ATOMIC_OP_SWAP;
        fetching = 1;
        break;
    case SHMEMI_AMO_CSWAP:
        opcode = UCP_ATOMIC_OP_CSWAP;
        fetching = 1;
        break;
    case SHMEMI_AMO_ADD:
        opcode = UCP_ATOMIC_OP_ADD;
        break;
    case SHMEMI_AMO_AND:
        opcode = UCP_ATOMIC_OP_AND;
        break;
    case SHMEMI_AMO_OR:
        opcode = UCP_ATOMIC_OP_OR;
        break;
    case SHMEMI_AMO_XOR:
        opcode = UCP_ATOMIC_OP_XOR;
        break;
    default:
        return SHMEMI_ERR_INVALID;
    }
    if (size != 4 && size != 8)
        return SHMEMI_ERR_UNSUPPORTED;
    /* Little-endian: a 4-byte value is the first 4 bytes of the 8-byte word. Compare-and-swap
     * takes the compared value in buffer and the new one in the reply buffer. */
    uint64_t value = operand, reply = 0;
    if (op == SHMEMI_AMO_CSWAP) {
        value = compare;
        reply = operand;
    }
    ucp_request_param_t param = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                                 .datatype = ucp_dt_make_contig(size)};
    if (fetching) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = &reply;
    }
    void *req = ucp_atomic_op_nbx(p->ep, opcode, &value, 1, raddr, rkey, &param);
    if (!fetching)
        return post_request(p, req, "atomic", pe);
    shmemi_status_t st = ucx_wait_request(t, req, "atomic", pe);
    if (st == SHMEMI_OK && fetch_p)
        *fetch_p = size == 4 ? (uint64_t)(uint32_t)reply : reply;
    return st;
}

/* The largest payload that put-with-signal to registered memory sends in its one active message;
 * above it the data goes as a put (zero-copy RMA), then a fence and the signal's AMO. Chosen from
 * put_signal_latency across two hosts over TCP (bench/README.md, "Put-with-signal across
 * hosts"). */
#define UCX_PUT_SIGNAL_AM_MAX (64u * 1024u)

/* Completes what the context issued on p that only a flush completes (puts, posted AMOs). */
static shmemi_status_t peer_flush(shmemi_transport_ctx_t *t, ucx_peer_t *p, int pe,
                                  const char *what);

/* Nonzero when the context issued a put, a non-blocking get or a posted AMO on p since its last
 * flush. */
static int peer_rma_pending(ucx_peer_t *p) {
    return __atomic_load_n(&p->issued, __ATOMIC_ACQUIRE) !=
           __atomic_load_n(&p->flushed, __ATOMIC_RELAXED);
}

shmemi_status_t ucx_put_signal(shmemi_transport_ctx_t *t, int segment, size_t offset,
                               const void *source, size_t len, int sig_segment, size_t sig_offset,
                               shmemi_amo_op_t sig_op, uint64_t signal, int pe) {
    int delivered = ucx_delivered(segment, pe) && ucx_delivered(sig_segment, pe);
    ucx_peer_t *p = ucx_peer_get(t, pe);
    if (!p)
        return SHMEMI_ERR_PEER;
    /* After RMA not yet flushed, put, fence, AMO is the faster way to keep the order: a flush
     * before the message waits a round trip, while the fence over TCP does not (the putfirst rows
     * of bench/README.md, "Put-with-signal across hosts"). */
    if (delivered || (len <= UCX_PUT_SIGNAL_AM_MAX && ucx.cpu_atomics && !peer_rma_pending(p))) {
        /* One message, applied by the target: data, then the signal with release. UCX orders it
         * after neither the context's RMA nor its other messages to pe, so those are completed
         * first where there are any: the earlier RMA by a flush of the endpoint (delivered
         * segments only: above, registered memory takes this path only without RMA pending),
         * the earlier messages by their answers. */
        shmemi_status_t st = peer_flush(t, p, pe, "put-with-signal");
        if (st == SHMEMI_OK)
            st = ucx_am_peer_complete(t, p, pe);
        if (st != SHMEMI_OK)
            return st;
        return ucx_am_put_signal(t, segment, offset, source, len, sig_segment, sig_offset, sig_op,
                                 signal, pe);
    }
    shmemi_status_t st = ucx_put(t, segment, offset, source, len, pe);
    if (st != SHMEMI_OK)
        return st;
    st = ucx_fence(t, pe);
    if (st != SHMEMI_OK)
        return st;
    return ucx_amo(t, sig_op, sig_segment, sig_offset, NULL, signal, 0, sizeof(uint64_t), pe);
}

static shmemi_status_t flush(shmemi_transport_ctx_t *t);

/* Nonzero when pe (every PE: -1) has a delivered segment. */
static int fence_waits(int pe) {
    if (!ucx.peer_any_delivered)
        return 0;
    if (pe >= 0)
        return ucx.peer_any_delivered[pe];
    for (int q = 0; q < ucx_host->n_pes; q++)
        if (ucx.peer_any_delivered[q])
            return 1;
    return 0;
}

/* ucp_worker_fence orders RMA and AMOs; active messages it does not order, in UCX's words or in
 * its protocols (a rendezvous message lands when its data has been pulled). So where pe has a
 * delivered segment, the fence completes what the context issued: the delivered operations are
 * applied (their answers are in) and the endpoint to pe is flushed, so that neither kind can
 * pass the other. Elsewhere the context's active messages (put-with-signal to registered memory)
 * are applied first where any are unanswered, and ucp_worker_fence orders the rest. */
shmemi_status_t ucx_fence(shmemi_transport_ctx_t *t, int pe) {
    if (fence_waits(pe)) {
        shmemi_status_t result = ucx_am_complete(t);
        ucx_peer_t *p = pe >= 0 ? __atomic_load_n(&t->peers[pe], __ATOMIC_ACQUIRE) : NULL;
        shmemi_status_t st;
        if (pe < 0) {
            st = flush(t);
        } else if (p) {
            ucp_request_param_t param = {0};
            st = ucx_wait_request(t, ucp_ep_flush_nbx(p->ep, &param), "fence", pe);
        } else {
            st = SHMEMI_OK;
        }
        return result != SHMEMI_OK ? result : st;
    }
    if (ucx_am_outstanding(t)) {
        ucx_peer_t *p = pe >= 0 ? __atomic_load_n(&t->peers[pe], __ATOMIC_ACQUIRE) : NULL;
        shmemi_status_t st = pe < 0 ? ucx_am_complete(t)
                             : p    ? ucx_am_peer_complete(t, p, pe)
                                    : SHMEMI_OK;
        if (st != SHMEMI_OK)
            return st;
    }
    ucs_status_t st = ucp_worker_fence(t->worker);
    return st == UCS_OK ? SHMEMI_OK : SHMEMI_ERR_PEER;
}

/* Records that a flush covered the first count operations issued on p (flushes of several
 * threads may finish in any order: the count only grows). */
static void flushed(ucx_peer_t *p, unsigned long count) {
    unsigned long seen = __atomic_load_n(&p->flushed, __ATOMIC_RELAXED);
    while ((long)(count - seen) > 0 &&
           !__atomic_compare_exchange_n(&p->flushed, &seen, count, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
        ;
}

/* Starts a flush of p's endpoint if operations were issued on it since its last flush; *count_p:
 * the issued count it covers. Returns the request to wait for, or NULL when nothing is left to
 * wait for (then it is recorded as flushed, or an error pointer). */
static void *flush_begin(ucx_peer_t *p, unsigned long *count_p) {
    *count_p = __atomic_load_n(&p->issued, __ATOMIC_ACQUIRE);
    if (*count_p == __atomic_load_n(&p->flushed, __ATOMIC_RELAXED))
        return NULL;
    ucp_request_param_t param = {0};
    void *req = ucp_ep_flush_nbx(p->ep, &param);
    if (req == NULL)
        flushed(p, *count_p);
    return req;
}

/* Completes every operation of the context: a flush of each of its endpoints with operations
 * issued since its last flush, issued together and then waited for. */
static shmemi_status_t flush(shmemi_transport_ctx_t *t) {
    int n = __atomic_load_n(&t->n_connected, __ATOMIC_ACQUIRE);
    void *stack[16], **reqs = n <= 16 ? stack : malloc((size_t)n * sizeof(void *));
    if (!reqs)
        return SHMEMI_ERR_NOMEM;
    unsigned long count_stack[16];
    unsigned long *counts = n <= 16 ? count_stack : calloc((size_t)n, sizeof(*counts));
    if (!counts) {
        if (reqs != stack)
            free(reqs);
        return SHMEMI_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++) {
        /* Published before the count that made it visible (ucx_peer_get). */
        ucx_peer_t *p = __atomic_load_n(&t->peers[t->connected[i]], __ATOMIC_ACQUIRE);
        reqs[i] = flush_begin(p, &counts[i]);
    }
    shmemi_status_t result = SHMEMI_OK;
    for (int i = 0; i < n; i++) {
        int flushing = reqs[i] != NULL;
        shmemi_status_t st = ucx_wait_request(t, reqs[i], "quiet", t->connected[i]);
        if (st != SHMEMI_OK)
            result = st;
        else if (flushing)
            flushed(__atomic_load_n(&t->peers[t->connected[i]], __ATOMIC_ACQUIRE), counts[i]);
    }
    if (counts != count_stack)
        free(counts);
    if (reqs != stack)
        free(reqs);
    shmemi_status_t st = ucx_am_complete(t);
    return result != SHMEMI_OK ? result : st;
}

shmemi_status_t ucx_quiet(shmemi_transport_ctx_t *t) {
    if (t)
        return flush(t);
    shmemi_status_t result = SHMEMI_OK;
    pthread_mutex_lock(&contexts_lock);
    for (shmemi_transport_ctx_t *c = contexts; c; c = c->next) {
        shmemi_status_t st = flush(c);
        if (st != SHMEMI_OK)
            result = st;
    }
    pthread_mutex_unlock(&contexts_lock);
    return result;
}

static shmemi_status_t peer_flush(shmemi_transport_ctx_t *t, ucx_peer_t *p, int pe,
                                  const char *what) {
    unsigned long count;
    void *req = flush_begin(p, &count);
    if (req == NULL)
        return SHMEMI_OK;
    shmemi_status_t st = ucx_wait_request(t, req, what, pe);
    if (st == SHMEMI_OK)
        flushed(p, count);
    return st;
}

/* Completes what the context issued to pe: a flush of its endpoint when it issued something since
 * the last one, and the context's unanswered active messages (none: no wait). */
shmemi_status_t ucx_pe_quiet(shmemi_transport_ctx_t *t, int pe) {
    shmemi_status_t result = ucx_am_complete(t);
    ucx_peer_t *p = __atomic_load_n(&t->peers[pe], __ATOMIC_ACQUIRE);
    if (!p)
        return result;
    shmemi_status_t st = peer_flush(t, p, pe, "quiet");
    return result != SHMEMI_OK ? result : st;
}

/* A wait of the PE that may poll (SHMEMI_WAIT_PE_POLL: the machine has processors to spare) and
 * finds that the worker progressed something less than this long ago polls it instead of sleeping
 * in its event descriptor: over TCP a peer's put, get or AMO needs this PE's progress, and a PE
 * asleep there adds a wake-up to each of them (OSHMEM's waits never sleep). Bounded, so that a PE
 * whose peers went quiet sleeps again soon after their last request. */
#define POLL_AFTER_ACTIVITY_NS 2000000u

/* When a pass of a thread of the PE or the progress thread last progressed something. */
static uint64_t last_activity_ns;

static void activity(void) {
    __atomic_store_n(&last_activity_ns, now_ns(), __ATOMIC_RELAXED);
}

/* The wait of the PE while the worker is busy: progresses it until something happens or the
 * deadline passes, each pass counted as the PE's. */
static int poll_until(uint64_t deadline_ns) {
    do {
        int progressed = ucx_pe_progress(ucx.worker) != 0;
        if (ucx_am_apply() != 0 || progressed) {
            activity();
            return 1;
        }
        shmemi_cpu_pause();
    } while (now_ns() < deadline_ns);
    return 0;
}

/* The longest a wait sleeps while a put applied to the GPU heap still runs: a copy of 512 KiB
 * takes a few tens of microseconds. */
#define STARTED_POLL_US 20

/* The longest the progress thread stays off the worker before it looks again whether a thread
 * of the PE is still in a wait. */
#define THREAD_STANDBY_US 1000

/* Arms the worker and polls its event descriptor (ucp_worker_arm says "busy" when events are
 * already waiting), then progresses what arrived: for a wait of the PE one pass, counted; for the
 * progress thread until nothing more comes or a thread of the PE progresses the worker itself.
 * A wait of the PE that may poll does so while the worker was active within
 * POLL_AFTER_ACTIVITY_NS. */
static int wait_once(long timeout_us, int who) {
    int pe_thread = who != SHMEMI_WAIT_THREAD;
    if (pe_thread)
        __atomic_fetch_add(ucx_host->pe_progress, 1, __ATOMIC_RELAXED);
    /* Operations already received (a rendezvous payload that landed) raise no event. */
    if (ucx_am_apply() != 0)
        return 1;
    if (who == SHMEMI_WAIT_PE_POLL) {
        uint64_t start = now_ns();
        if (start - __atomic_load_n(&last_activity_ns, __ATOMIC_RELAXED) < POLL_AFTER_ACTIVITY_NS)
            return poll_until(start + (uint64_t)timeout_us * 1000u);
    }
    /* A put still running into the GPU heap raises no event when it is done. */
    if (ucx_am_started() && timeout_us > STARTED_POLL_US)
        timeout_us = STARTED_POLL_US;
    struct timespec limit = {.tv_sec = timeout_us / 1000000,
                             .tv_nsec = (timeout_us % 1000000) * 1000};
    ucs_status_t st = ucp_worker_arm(ucx.worker);
    if (st == UCS_OK) {
        struct pollfd fd = {.fd = ucx.efd, .events = POLLIN};
        if (ppoll(&fd, 1, &limit, NULL) <= 0)
            return 0;
    } else if (st != UCS_ERR_BUSY) {
        nanosleep(&limit, NULL);
    }
    unsigned long pe = __atomic_load_n(ucx_host->pe_progress, __ATOMIC_RELAXED);
    int progressed = 0;
    while (ucp_worker_progress(ucx.worker) != 0) {
        progressed = 1;
        ucx_am_apply();
        /* A wait of the PE goes back to look at its word after each pass. */
        if (pe_thread || __atomic_load_n(ucx_host->pe_progress, __ATOMIC_RELAXED) != pe ||
            __atomic_load_n(&pe_waiting, __ATOMIC_RELAXED) != 0)
            break;
    }
    progressed = ucx_am_apply() != 0 || progressed;
    if (progressed)
        activity();
    return progressed;
}

/* The progress thread touches the worker only while no thread of the PE waits in it (pe_waiting);
 * a wait of the PE counts as one while it lasts. */
int ucx_wait(long timeout_us, int who) {
    if (who == SHMEMI_WAIT_THREAD) {
        if (__atomic_load_n(&pe_waiting, __ATOMIC_RELAXED) == 0)
            return wait_once(timeout_us, who);
        long us = timeout_us < THREAD_STANDBY_US ? timeout_us : THREAD_STANDBY_US;
        struct timespec standby = {.tv_sec = 0, .tv_nsec = us * 1000};
        nanosleep(&standby, NULL);
        return 0;
    }
    wait_enter();
    int progressed = wait_once(timeout_us, who);
    wait_leave();
    return progressed;
}

int ucx_progress(void) {
    int progressed = ucx_pe_progress(ucx.worker) != 0;
    progressed = ucx_am_apply() != 0 || progressed;
    if (progressed)
        activity();
    return progressed;
}
