/* SPDX-License-Identifier: BSD-3-Clause */
/* The proxy's consumer: one host thread per ring takes the ring's commands in ticket order and
 * issues them where the route table says (the protocol: shmem/device/impl/proxy__types.h). A PE
 * it maps gets loads, stores and CPU atomics; any other gets the route's transport, with the
 * transport state of the command's context, so that a FENCE or QUIET, issued on that state too,
 * orders or completes the commands of its context and no other's. The thread also progresses the
 * network transport while the ring is idle, so that a PE whose host code does nothing in the
 * library still serves its producers and its peers.
 *
 * Contexts. A command's context field is 0 or a context object's address, which the consumer
 * checks before it issues anything: an address the contexts module does not know (garbage, a
 * tagged handle) or an object whose magic says destroyed ends the job with the command's message.
 * A command marks its context in use (p->using) before it reads the magic, and shmem_ctx_destroy
 * stores the magic before it waits until no consumer uses the object
 * (shmemi_proxy_ctx_retire), so the transport state a command reads is never freed under it.
 * shmem_ctx_destroy first waits until the consumers have issued every command taken before it
 * (shmemi_proxy_drain), so its quiet completes them. */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem/device/impl/proxy__types.h>
#include <shmem/impl/ctx__types.h>

#include "core/cpu_amo.h"
#include "core/env.h"
#include "core/shmemi.h"

_Static_assert(sizeof(shmemi_proxy_cmd_t) == 64, "a proxy command is 64 bytes");
_Static_assert(SHMEMI_PROXY_AMO_OP_FETCH == SHMEMI_AMO_FETCH &&
                   SHMEMI_PROXY_AMO_OP_SET == SHMEMI_AMO_SET &&
                   SHMEMI_PROXY_AMO_OP_SWAP == SHMEMI_AMO_SWAP &&
                   SHMEMI_PROXY_AMO_OP_CSWAP == SHMEMI_AMO_CSWAP &&
                   SHMEMI_PROXY_AMO_OP_ADD == SHMEMI_AMO_ADD &&
                   SHMEMI_PROXY_AMO_OP_AND == SHMEMI_AMO_AND &&
                   SHMEMI_PROXY_AMO_OP_OR == SHMEMI_AMO_OR &&
                   SHMEMI_PROXY_AMO_OP_XOR == SHMEMI_AMO_XOR,
               "the ring's AMO numbers are shmemi_amo_op_t's");

/* The name proxy messages carry in place of an API call. */
#define CALL "shmem_proxy"

/* Idle polls before the thread yields, and before it sleeps between polls; the sleep. */
#define SPIN_POLLS 4096
#define YIELD_POLLS 65536
#define IDLE_SLEEP_NS 20000

/* The pieces a PUT_FROM to a PE over the network is read in, then sent from. */
#define STAGE_BYTES ((size_t)256 << 10)

/* Context objects the contexts module confirmed, per consumer (objects stay objects until
 * shmem_finalize): a direct-mapped cache, so that a command pays the module's look-up only for a
 * context it has not seen. */
#define KNOWN_CACHE 16

/* A put the network transport is still sending from its ring slots (put_start), at the index of
 * its first slot: the slots it holds, freed when the transport is done with them (put_done), and
 * its command, for the message should it fail. */
typedef struct {
    struct shmemi_proxy *p;
    uint64_t t;   /* its first ticket */
    uint32_t n;   /* its tickets: 1 + the pieces joined to it */
    uint64_t ctx; /* its command's context while in flight, else 0 (for retire); stored last with
                   * release before the start, so that put_done's acquire sees the fields */
    shmemi_status_t status; /* of a failure */
    shmemi_proxy_cmd_t cmd;
} started_put_t;

struct shmemi_proxy {
    shmemi_proxy_ring_t ring;
    started_put_t *started; /* n_slots records */
    uint64_t in_flight;     /* started puts not yet done */
    started_put_t *failed;  /* a started put that failed, for the consumer to report */
    unsigned char *stage;   /* STAGE_BYTES of memory the network takes, for PUT_FROM */
    pthread_t thread;
    uint64_t next; /* the consumer's next ticket; read by shmemi_proxy_describe and drain */
    int stop;
    uint64_t timeout_ns; /* a ticket's command missing this long ends the job */
    /* The context object the command being issued uses (NULL: none, or the default context). */
    const struct shmemi_ctx *using;
    const struct shmemi_ctx *known[KNOWN_CACHE]; /* the consumer thread's alone */
    struct shmemi_proxy *next_proxy;             /* in the list of running consumers */
};

/* Running consumers, for drain and retire. */
static pthread_mutex_t proxies_lock = PTHREAD_MUTEX_INITIALIZER;
static shmemi_proxy_t *proxies;
static shmemi_proxy_ctx_known_func_t ctx_known;

void shmemi_proxy_ctx_known_set(shmemi_proxy_ctx_known_func_t known) {
    __atomic_store_n(&ctx_known, known, __ATOMIC_RELEASE);
}

static const char *op_name(uint32_t op) {
    static const char *const names[] = {"?",          "PUT",   "GET",   "AMO",     "AMO_FETCH",
                                        "PUT_SIGNAL", "FENCE", "QUIET", "PUT_FROM"};
    return op < sizeof(names) / sizeof(names[0]) ? names[op] : "?";
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void shmemi_proxy_describe(const shmemi_proxy_t *p, char *buf, size_t size) {
    uint64_t next = __atomic_load_n(&p->next, __ATOMIC_RELAXED);
    uint32_t s = (uint32_t)(next & (p->ring.n_slots - 1));
    snprintf(buf, size,
             "ring of %u slots: %llu tickets taken, %llu issued; next ticket %llu in slot %u "
             "(seq %llu, free %llu); started puts in flight: %llu",
             p->ring.n_slots, (unsigned long long)__atomic_load_n(p->ring.issue, __ATOMIC_RELAXED),
             (unsigned long long)next, (unsigned long long)next, s,
             (unsigned long long)__atomic_load_n(&p->ring.cmd[s].seq, __ATOMIC_RELAXED),
             (unsigned long long)__atomic_load_n(&p->ring.slot[s].free, __ATOMIC_RELAXED),
             (unsigned long long)__atomic_load_n(&p->in_flight, __ATOMIC_RELAXED));
}

/* Ends the job with the message, then the ring's state. */
__attribute__((noreturn, format(printf, 2, 3))) static void ring_fatal(const shmemi_proxy_t *p,
                                                                       const char *fmt, ...) {
    char what[384], state[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    shmemi_proxy_describe(p, state, sizeof(state));
    shmemi_fatal(CALL, "%s; %s", what, state);
}

/* Nonzero once the proxy's timeout has passed since *since, which the first call sets. */
static int overdue(const shmemi_proxy_t *p, uint64_t *since) {
    const uint64_t now = now_ns();
    if (*since == 0)
        *since = now;
    return now - *since > p->timeout_ns;
}

__attribute__((noreturn)) static void
command_failed(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c, const char *what) {
    ring_fatal(p, "%s of ticket %llu (to PE %d, address %p, %llu bytes): %s", op_name(c->op),
               (unsigned long long)t, (int)c->pe, (void *)(uintptr_t)c->target,
               (unsigned long long)c->len, what);
}

static void check_status(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                         const shmemi_transport_ops_t *ops, shmemi_status_t st) {
    if (st != SHMEMI_OK) {
        char what[128];
        snprintf(what, sizeof(what), "transport %s failed (status %d)", ops->name, (int)st);
        command_failed(p, t, c, what);
    }
}

/* The network transport's state of the command's context (tctx, from ctx_enter) for ops: only the
 * network transport keeps any. */
static shmemi_transport_ctx_t *tctx_of(const shmemi_transport_ops_t *ops,
                                       shmemi_transport_ctx_t *tctx) {
    return ops == shmemi_transport_net ? tctx : NULL;
}

/* Checks the command's context and marks it in use until ctx_leave; returns the network
 * transport's state for it (NULL without a network transport). */
static shmemi_transport_ctx_t *ctx_enter(shmemi_proxy_t *p, uint64_t t,
                                         const shmemi_proxy_cmd_t *c) {
    if (c->ctx == 0)
        return shmemi_net_ctx_default;
    const struct shmemi_ctx *x = (const struct shmemi_ctx *)(uintptr_t)c->ctx;
    const struct shmemi_ctx **cached = &p->known[(c->ctx / sizeof(*x)) % KNOWN_CACHE];
    if (*cached != x) {
        shmemi_proxy_ctx_known_func_t known = __atomic_load_n(&ctx_known, __ATOMIC_ACQUIRE);
        if (c->ctx % _Alignof(struct shmemi_ctx) != 0 || known == NULL || !known(x)) {
            char what[96];
            snprintf(what, sizeof(what), "context %#llx is no context of this PE",
                     (unsigned long long)c->ctx);
            command_failed(p, t, c, what);
        }
        *cached = x;
    }
    /* Sequentially consistent with shmemi_proxy_ctx_retire: either retire sees x in use and
     * waits, or this load sees the destroyed magic. */
    __atomic_store_n(&p->using, x, __ATOMIC_SEQ_CST);
    uint32_t magic = __atomic_load_n(&x->magic, __ATOMIC_SEQ_CST);
    if (magic != SHMEMI_CTX_MAGIC) {
        char what[128];
        snprintf(what, sizeof(what), "context %#llx %s", (unsigned long long)c->ctx,
                 magic == SHMEMI_CTX_MAGIC_DESTROYED ? "was destroyed (shmem_ctx_destroy)"
                 : magic == SHMEMI_CTX_MAGIC_TEAM_DESTROYED
                     ? "was destroyed with its team (shmem_team_destroy)"
                     : "is not a live context");
        __atomic_store_n(&p->using, NULL, __ATOMIC_RELEASE);
        command_failed(p, t, c, what);
    }
    return (shmemi_transport_ctx_t *)x->transport;
}

static void ctx_leave(shmemi_proxy_t *p) {
    if (__atomic_load_n(&p->using, __ATOMIC_RELAXED) != NULL)
        __atomic_store_n(&p->using, NULL, __ATOMIC_RELEASE);
}

/* The transport that reaches the command's target (after shmemi_ptr gave no mapping). */
static const shmemi_transport_ops_t *route(const shmemi_proxy_cmd_t *c, uint64_t addr, int amo,
                                           int *seg_p, size_t *off_p) {
    return shmemi_route_transport(CALL, (const void *)(uintptr_t)addr, c->pe, amo, seg_p, off_p);
}

/* The transport is done with a started put's slots: they are free (release, for the producers
 * that wait for them). A failure leaves them taken and tells the consumer, which ends the job. */
static void put_done(void *arg, shmemi_status_t status) {
    started_put_t *sp = arg;
    (void)__atomic_load_n(&sp->ctx, __ATOMIC_ACQUIRE);
    shmemi_proxy_t *p = sp->p;
    if (status != SHMEMI_OK) {
        sp->status = status;
        __atomic_store_n(&p->failed, sp, __ATOMIC_RELEASE);
        return;
    }
    const uint64_t t = sp->t;
    const uint32_t n = sp->n, mask = p->ring.n_slots - 1;
    __atomic_store_n(&sp->ctx, 0, __ATOMIC_RELEASE);
    for (uint32_t i = 0; i < n; i++)
        __atomic_store_n(&p->ring.slot[(t + i) & mask].free, t + i + p->ring.n_slots,
                         __ATOMIC_RELEASE);
    __atomic_fetch_sub(&p->in_flight, 1, __ATOMIC_RELEASE);
}

/* Ends the job if a started put failed. */
static void check_started(const shmemi_proxy_t *p) {
    started_put_t *failed = __atomic_load_n(&p->failed, __ATOMIC_ACQUIRE);
    if (failed) {
        char what[128];
        snprintf(what, sizeof(what), "transport %s failed after the put started (status %d)",
                 shmemi_transport_net ? shmemi_transport_net->name : "?", (int)failed->status);
        command_failed(p, failed->t, &failed->cmd, what);
    }
}

/* The command's bytes from the payload to its target (PUT, PUT_SIGNAL) or back (GET). n: the
 * tickets of a PUT that may be left running (0: none may). Where its transport can start it
 * (put_start), it runs on, its slots freed by put_done: returns 1 then, so that the consumer
 * issues the next command while the network sends this one; otherwise the bytes are copied or
 * sent at return (0). */
static int do_rma(shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                  shmemi_transport_ctx_t *tctx, unsigned char *data, int get, uint32_t n) {
    void *r = shmemi_ptr((const void *)(uintptr_t)c->target, c->pe);
    if (r) {
        memcpy(get ? (void *)data : r, get ? r : (const void *)data, c->len);
        return 0;
    }
    int seg;
    size_t off;
    const shmemi_transport_ops_t *ops = route(c, c->target, 0, &seg, &off);
    if (n != 0) {
        started_put_t *sp = &p->started[t & (p->ring.n_slots - 1)];
        sp->p = p;
        sp->t = t;
        sp->n = n;
        sp->cmd = *c;
        __atomic_fetch_add(&p->in_flight, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&sp->ctx, c->ctx, __ATOMIC_RELEASE);
        shmemi_status_t st =
            ops->put_start(tctx_of(ops, tctx), seg, off, data, c->len, c->pe, put_done, sp);
        if (st == SHMEMI_OK)
            return 1;
        __atomic_fetch_sub(&p->in_flight, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&sp->ctx, 0, __ATOMIC_RELAXED);
        if (st != SHMEMI_ERR_UNSUPPORTED)
            check_status(p, t, c, ops, st);
    }
    check_status(p, t, c, ops,
                 get ? ops->get(tctx_of(ops, tctx), data, seg, off, c->len, c->pe)
                     : ops->put(tctx_of(ops, tctx), seg, off, data, c->len, c->pe));
    return 0;
}

/* Copies len bytes between this PE's memory (a kernel's source: GPU memory, read by the heap's
 * transport with the copy engine) and a mapped PE's or host memory. */
static void local_copy(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c, void *dest,
                       const void *source, size_t len) {
    const shmemi_transport_ops_t *heap = shmemi_state.segments[0].ops;
    check_status(p, t, c, heap, heap->local_copy(dest, source, len));
}

/* PUT_FROM: the consumer reads the source itself; to a PE over the network through the stage,
 * one piece at a time (each sent before the next is read). */
static void do_put_from(shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                        shmemi_transport_ctx_t *tctx) {
    const char *source = (const char *)(uintptr_t)c->compare;
    void *r = shmemi_ptr((const void *)(uintptr_t)c->target, c->pe);
    if (r) {
        local_copy(p, t, c, r, source, c->len);
        return;
    }
    int seg;
    size_t off;
    const shmemi_transport_ops_t *ops = route(c, c->target, 0, &seg, &off);
    if (p->stage == NULL && (p->stage = shmemi_host_shared_alloc(STAGE_BYTES)) == NULL)
        command_failed(p, t, c, "out of memory for the proxy's stage");
    for (size_t done = 0; done < c->len;) {
        const size_t n = c->len - done < STAGE_BYTES ? c->len - done : STAGE_BYTES;
        local_copy(p, t, c, p->stage, source + done, n);
        check_status(p, t, c, ops,
                     ops->put(tctx_of(ops, tctx), seg, off + done, p->stage, n, c->pe));
        done += n;
    }
}

/* An AMO on addr (fetch_p NULL: not fetching). */
static void do_amo(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                   shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op, uint64_t addr,
                   uint64_t operand, uint64_t compare, size_t size, uint64_t *fetch_p) {
    void *r = shmemi_amo_ptr((const void *)(uintptr_t)addr, c->pe);
    if (r) {
        uint64_t old = shmemi_cpu_amo(op, r, operand, compare, size);
        if (fetch_p)
            *fetch_p = old;
        return;
    }
    int seg;
    size_t off;
    const shmemi_transport_ops_t *ops = route(c, addr, 1, &seg, &off);
    check_status(
        p, t, c, ops,
        ops->amo(tctx_of(ops, tctx), op, seg, off, fetch_p, operand, compare, size, c->pe));
}

/* Orders what the command's context issued to its PE (every PE: -1) before what it issues
 * next; to a mapped PE only AMOs (amo_net) take the network. */
static void do_fence(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                     shmemi_transport_ctx_t *tctx) {
    shmemi_full_fence();
    const shmemi_transport_ops_t *net = shmemi_transport_net;
    if (net && (c->pe < 0 || !shmemi_routes[c->pe].mapped || shmemi_routes[c->pe].amo_net))
        check_status(p, t, c, net, shmemi_net_fence(tctx, c->pe));
}

/* Completes what the command's context issued: its commands before this one, and whatever host
 * threads issued on it directly. tctx is never NULL with a network transport (NULL would
 * complete every context). */
static void do_quiet(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                     shmemi_transport_ctx_t *tctx) {
    const shmemi_transport_ops_t *net = shmemi_transport_net;
    if (net)
        check_status(p, t, c, net, net->quiet(tctx));
    shmemi_full_fence();
}

static void do_put_signal(shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c,
                          shmemi_transport_ctx_t *tctx, unsigned char *data) {
    if (shmemi_ptr((const void *)(uintptr_t)c->target, c->pe) == NULL &&
        shmemi_amo_ptr((const void *)(uintptr_t)c->compare, c->pe) == NULL) {
        /* Data and signal both over the network: the transport's put-with-signal, as the host's
         * (one message where the target's segments are delivered, where a put, a fence and an
         * AMO would each wait for the target). */
        int seg, sig_seg;
        size_t off, sig_off;
        const shmemi_transport_ops_t *ops = route(c, c->target, 0, &seg, &off);
        if (ops == shmemi_transport_net && route(c, c->compare, 1, &sig_seg, &sig_off) == ops) {
            check_status(p, t, c, ops,
                         ops->put_signal(tctx_of(ops, tctx), seg, off, data, c->len, sig_seg,
                                         sig_off, (shmemi_amo_op_t)c->amo_op, c->operand, c->pe));
            return;
        }
    }
    do_rma(p, t, c, tctx, data, 0, 0);
    uint64_t *sig = shmemi_amo_ptr((const void *)(uintptr_t)c->compare, c->pe);
    if (sig) {
        if (c->amo_op == SHMEMI_PROXY_AMO_OP_SET)
            __atomic_store_n(sig, c->operand, __ATOMIC_RELEASE);
        else
            __atomic_fetch_add(sig, c->operand, __ATOMIC_RELEASE);
        return;
    }
    do_fence(p, t, c, tctx);
    do_amo(p, t, c, tctx, (shmemi_amo_op_t)c->amo_op, c->compare, c->operand, 0, sizeof(uint64_t),
           NULL);
}

/* Checks what a producer wrote before anything is issued. */
static void validate(const shmemi_proxy_t *p, uint64_t t, const shmemi_proxy_cmd_t *c) {
    int any_pe = c->op == SHMEMI_PROXY_QUIET || (c->op == SHMEMI_PROXY_FENCE && c->pe == -1);
    if (!any_pe && (unsigned)c->pe >= (unsigned)shmemi_state.n_pes) {
        char what[64];
        snprintf(what, sizeof(what), "PE %d out of range [0, %d)", (int)c->pe, shmemi_state.n_pes);
        command_failed(p, t, c, what);
    }
    switch (c->op) {
    case SHMEMI_PROXY_PUT:
    case SHMEMI_PROXY_GET:
    case SHMEMI_PROXY_PUT_SIGNAL:
        if (c->len > p->ring.chunk)
            command_failed(p, t, c, "longer than a slot's payload");
        if (c->op == SHMEMI_PROXY_PUT_SIGNAL && c->amo_op != SHMEMI_PROXY_AMO_OP_SET &&
            c->amo_op != SHMEMI_PROXY_AMO_OP_ADD)
            command_failed(p, t, c, "the signal operation is neither SET nor ADD");
        return;
    case SHMEMI_PROXY_AMO:
    case SHMEMI_PROXY_AMO_FETCH:
        if (c->len != 4 && c->len != 8)
            command_failed(p, t, c, "an AMO of neither 4 nor 8 bytes");
        if (c->amo_op > SHMEMI_PROXY_AMO_OP_XOR)
            command_failed(p, t, c, "unknown AMO operation");
        return;
    case SHMEMI_PROXY_PUT_FROM:
        if (c->compare == 0)
            command_failed(p, t, c, "no source address");
        return;
    case SHMEMI_PROXY_FENCE:
    case SHMEMI_PROXY_QUIET:
        return;
    default:
        command_failed(p, t, c, "unknown command");
    }
}

/* Joins to c, ticket t's command, the pieces that follow it in the next slots, so that they are
 * issued as one (proxy__types.h, Batches): the rest of its batch, which must continue its put, and
 * then the first piece of a following batch where it happens to continue the same put (another
 * block's share of one buffer, say). c's length grows by theirs, and a PUT_SIGNAL that ends a
 * batch makes c one. Stops where the ring wraps (the payloads are no longer adjacent), at a piece
 * not written yet, and before SHMEMI_PROXY_JOIN_MAX bytes would be passed. Returns the number of
 * pieces joined. */
static uint32_t join(const shmemi_proxy_t *p, uint64_t t, shmemi_proxy_cmd_t *c) {
    const uint32_t mask = p->ring.n_slots - 1;
    uint32_t more = c->op == SHMEMI_PROXY_PUT ? c->more : 0;
    uint32_t n = 0;
    while (c->op == SHMEMI_PROXY_PUT && ((t + n + 1) & mask) != 0) {
        const uint64_t u = t + n + 1;
        const shmemi_proxy_cmd_t *at = &p->ring.cmd[u & mask];
        if (__atomic_load_n(&at->seq, __ATOMIC_ACQUIRE) != u + 1)
            break;
        shmemi_proxy_cmd_t d = *at;
        validate(p, u, &d);
        /* d's bytes follow c's, every one of which fills its slot. */
        const int continues = d.pe == c->pe && d.ctx == c->ctx &&
                              c->len == (uint64_t)(n + 1) * p->ring.chunk &&
                              d.target == c->target + c->len;
        if (n >= more) {
            /* A batch of its own: joined only where it continues c. */
            if (!continues || d.op != SHMEMI_PROXY_PUT)
                break;
            more = n + 1 + d.more;
        } else if (!continues || (d.op != SHMEMI_PROXY_PUT && d.op != SHMEMI_PROXY_PUT_SIGNAL) ||
                   d.more != more - n - 1) {
            command_failed(p, u, &d, "does not continue the put of its batch");
        }
        if (c->len + d.len > SHMEMI_PROXY_JOIN_MAX)
            break;
        c->len += d.len;
        n++;
        if (d.op == SHMEMI_PROXY_PUT_SIGNAL) {
            c->op = d.op;
            c->operand = d.operand;
            c->compare = d.compare;
            c->amo_op = d.amo_op;
        }
    }
    return n;
}

/* Issues ticket t's command (with the pieces join adds to it), then frees their slots
 * or answers it. Returns the number of tickets consumed. */
static uint32_t consume(shmemi_proxy_t *p, uint64_t t) {
    const uint32_t s = (uint32_t)(t & (p->ring.n_slots - 1));
    shmemi_proxy_cmd_t c = p->ring.cmd[s];
    shmemi_proxy_slot_t *slot = &p->ring.slot[s];
    unsigned char *data = p->ring.data + (size_t)s * p->ring.chunk;
    validate(p, t, &c);
    const uint32_t joined = join(p, t, &c);
    shmemi_transport_ctx_t *tctx = ctx_enter(p, t, &c);
    int answered = 0;
    switch (c.op) {
    case SHMEMI_PROXY_PUT:
        if (do_rma(p, t, &c, tctx, data, 0, joined + 1)) {
            ctx_leave(p);
            return joined + 1;
        }
        break;
    case SHMEMI_PROXY_PUT_SIGNAL:
        do_put_signal(p, t, &c, tctx, data);
        break;
    case SHMEMI_PROXY_GET:
        do_rma(p, t, &c, tctx, data, 1, 0);
        answered = 1;
        break;
    case SHMEMI_PROXY_AMO:
        do_amo(p, t, &c, tctx, (shmemi_amo_op_t)c.amo_op, c.target, c.operand, c.compare, c.len,
               NULL);
        break;
    case SHMEMI_PROXY_AMO_FETCH: {
        uint64_t old = 0;
        do_amo(p, t, &c, tctx, (shmemi_amo_op_t)c.amo_op, c.target, c.operand, c.compare, c.len,
               &old);
        slot->result = old;
        answered = 1;
        break;
    }
    case SHMEMI_PROXY_FENCE:
        do_fence(p, t, &c, tctx);
        break;
    case SHMEMI_PROXY_PUT_FROM:
        do_put_from(p, t, &c, tctx);
        answered = 1;
        break;
    case SHMEMI_PROXY_QUIET:
        do_quiet(p, t, &c, tctx);
        /* A put that failed is not complete: the quiet is never answered. */
        check_started(p);
        answered = 1;
        break;
    }
    ctx_leave(p);
    if (answered) {
        __atomic_store_n(&slot->done, t + 1, __ATOMIC_RELEASE);
        return 1;
    }
    for (uint32_t i = 0; i <= joined; i++)
        __atomic_store_n(&slot[i].free, t + i + p->ring.n_slots, __ATOMIC_RELEASE);
    return joined + 1;
}

static void *consumer_main(void *arg) {
    shmemi_proxy_t *p = arg;
    uint64_t idle = 0, missing_since = 0;
    for (;;) {
        check_started(p);
        uint64_t t = p->next;
        const shmemi_proxy_cmd_t *c = &p->ring.cmd[t & (p->ring.n_slots - 1)];
        if (__atomic_load_n(&c->seq, __ATOMIC_ACQUIRE) == t + 1) {
            __atomic_store_n(&p->next, t + consume(p, t), __ATOMIC_RELEASE);
            idle = 0;
            missing_since = 0;
            continue;
        }
        /* Ticket t is not written yet: taken by a producer that is still writing it, or not
         * taken at all. The stop is read first: its acquire makes every ticket taken before the
         * stop visible to the read of the count, so that none is left behind. */
        const int stopping = __atomic_load_n(&p->stop, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(p->ring.issue, __ATOMIC_ACQUIRE) > t) {
            if (overdue(p, &missing_since))
                ring_fatal(p,
                           "ticket %llu was taken but its command never arrived within %llu ms "
                           "(its producer stopped: a kernel killed mid-operation?)",
                           (unsigned long long)t, (unsigned long long)(p->timeout_ns / 1000000));
        } else if (stopping) {
            /* The started puts still read the ring, which the caller frees after. */
            if (__atomic_load_n(&p->in_flight, __ATOMIC_ACQUIRE) == 0)
                return NULL;
            if (overdue(p, &missing_since))
                ring_fatal(p,
                           "puts were still in flight on the network %llu ms after the proxy "
                           "was stopped",
                           (unsigned long long)(p->timeout_ns / 1000000));
        }
        shmemi_progress();
        if (++idle < SPIN_POLLS)
            continue;
        if (idle < YIELD_POLLS) {
            sched_yield();
            continue;
        }
        struct timespec ts = {0, IDLE_SLEEP_NS};
        nanosleep(&ts, NULL);
    }
}

shmemi_proxy_t *shmemi_proxy_start(const char *call, const struct shmemi_proxy_ring *ring) {
    if (ring->n_slots == 0 || (ring->n_slots & (ring->n_slots - 1)) != 0 || ring->chunk % 16 != 0)
        shmemi_fatal(call,
                     "proxy ring of %u slots of %u bytes: slots must be a power of two and "
                     "bytes a multiple of 16",
                     ring->n_slots, ring->chunk);
    shmemi_proxy_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        shmemi_fatal(call, "out of memory for the proxy");
    p->ring = *ring;
    p->started = calloc(ring->n_slots, sizeof(*p->started));
    if (p->started == NULL)
        shmemi_fatal(call, "out of memory for the proxy");
    for (uint32_t s = 0; s < ring->n_slots; s++) {
        ring->cmd[s].seq = 0;
        ring->slot[s].done = 0;
        ring->slot[s].free = s;
    }
    __atomic_store_n(ring->issue, 0, __ATOMIC_RELEASE);
    unsigned long long timeout_ms = shmemi_env_count("SHMEM_DEVICE_TIMEOUT_MS");
    p->timeout_ns = (timeout_ms ? timeout_ms : 10000) * 1000000ull;
    int rc = pthread_create(&p->thread, NULL, consumer_main, p);
    if (rc != 0)
        shmemi_fatal(call, "cannot start the proxy thread: %s", strerror(rc));
    pthread_mutex_lock(&proxies_lock);
    p->next_proxy = proxies;
    proxies = p;
    pthread_mutex_unlock(&proxies_lock);
    return p;
}

void shmemi_proxy_stop(shmemi_proxy_t *p) {
    if (p == NULL)
        return;
    pthread_mutex_lock(&proxies_lock);
    shmemi_proxy_t **at = &proxies;
    while (*at != p)
        at = &(*at)->next_proxy;
    *at = p->next_proxy;
    pthread_mutex_unlock(&proxies_lock);
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    pthread_join(p->thread, NULL);
    shmemi_host_shared_free(p->stage);
    free(p->started);
    free(p);
}

/* Waits for the consumers while the list is held (a consumer is not stopped meanwhile); the
 * consumers themselves time out a ticket whose command never arrives. */
static void pause_briefly(unsigned *polls) {
    if (++*polls < SPIN_POLLS)
        return;
    struct timespec ts = {0, IDLE_SLEEP_NS};
    nanosleep(&ts, NULL);
}

void shmemi_proxy_drain(void) {
    pthread_mutex_lock(&proxies_lock);
    for (shmemi_proxy_t *p = proxies; p != NULL; p = p->next_proxy) {
        const uint64_t taken = __atomic_load_n(p->ring.issue, __ATOMIC_ACQUIRE);
        unsigned polls = 0;
        while (__atomic_load_n(&p->next, __ATOMIC_ACQUIRE) < taken)
            pause_briefly(&polls);
    }
    pthread_mutex_unlock(&proxies_lock);
}

void shmemi_proxy_ctx_retire(const struct shmemi_ctx *c) {
    pthread_mutex_lock(&proxies_lock);
    for (shmemi_proxy_t *p = proxies; p != NULL; p = p->next_proxy) {
        unsigned polls = 0;
        while (__atomic_load_n(&p->using, __ATOMIC_SEQ_CST) == c)
            pause_briefly(&polls);
        /* Its started puts run on its transport state until they are done. */
        for (uint32_t s = 0; s < p->ring.n_slots; s++)
            while (__atomic_load_n(&p->started[s].ctx, __ATOMIC_ACQUIRE) == (uint64_t)(uintptr_t)c)
                pause_briefly(&polls);
    }
    pthread_mutex_unlock(&proxies_lock);
}
