/* SPDX-License-Identifier: BSD-3-Clause */
/* Delivered segments (docs/transports.md, "Delivered segments"): operations on a peer's segment
 * that UCX cannot register (a GPU heap where UCX has no GPU memory type; every segment under
 * SHMEM_NET_DELIVER=1) travel as active messages. The target copies each message into a queue in
 * UCX's callback and applies it later, after ucp_worker_progress returns, through the library's
 * delivery functions (ucx_host->deliver_*): the plug-in never touches the segment itself. Then it
 * answers: a reply with the data or the fetched value, or an acknowledgement that counts applied
 * operations. The source counts what each context sent and what came back; quiet waits until the
 * two agree, so quiet returns only once every operation is applied at its target. UCX promises
 * no order among active messages (a rendezvous one completes when its data has been pulled), so
 * nothing here relies on one: fence waits as quiet does where a delivered segment is involved. */
#include <stdlib.h>
#include <string.h>

#include "transport/ucx/ucx.h"

/* The two active message ids: requests to a target, and its answers. */
#define AM_REQUEST 17
#define AM_ANSWER 18

/* What a request asks for. */
enum { REQ_PUT = 1, REQ_GET, REQ_AMO, REQ_PUT_SIGNAL, REQ_ONEWAY };

typedef struct {
    uint8_t kind;   /* REQ_* */
    uint8_t op;     /* AMO or signal operation (shmemi_amo_op_t) */
    uint8_t size;   /* AMO: 4 or 8 */
    uint8_t answer; /* nonzero: reply with data or value (token is a pending); else acknowledge
                     * (REQ_ONEWAY: nothing) */
    int32_t src_pe;
    int32_t segment;
    int32_t sig_segment;
    uint64_t offset;
    uint64_t len; /* bytes of payload (PUT, PUT_SIGNAL) or wanted (GET) */
    uint64_t operand;
    uint64_t compare;
    uint64_t sig_offset;
    uint64_t token;       /* the source's context (acknowledged) or pending answer */
    uint64_t sig2_offset; /* REQ_ONEWAY: a second add, of operand2 (0: none), in sig_segment */
    uint64_t operand2;
} am_request_t;

typedef struct {
    uint64_t token;
    uint64_t count; /* acknowledgement: operations applied; answer: 0 */
    uint64_t value; /* a fetched value */
    int32_t status; /* shmemi_status_t of the application */
    int32_t is_ack;
    int32_t pe; /* who answers */
    int32_t unused;
} am_answer_t;

/* A request the target has received and not yet applied, or a put applied and still running
 * (the queue of started puts below). */
typedef struct am_item {
    struct am_item *next;
    am_request_t req;
    unsigned char *data; /* the payload: inline, a block (block_get), or the library's (lent) */
    size_t block;        /* the block's size; 0: no block */
    int lent;
    unsigned char inline_data[];
} am_item_t;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static am_item_t *queue_head, **queue_tail = &queue_head;
static int queue_len; /* read without the lock to skip an empty queue */
/* The context on which answers go out (made at init, so every thread may answer). */
static shmemi_transport_ctx_t *answer_ctx;

static void queue_push(am_item_t *item) {
    item->next = NULL;
    pthread_mutex_lock(&queue_lock);
    *queue_tail = item;
    queue_tail = &item->next;
    __atomic_store_n(&queue_len, queue_len + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&queue_lock);
}

/* ---- blocks for large payloads ----------------------------------------------------------- */

/* Payloads of BLOCK_MIN bytes or more (received puts, the data of get answers) go into blocks that
 * are kept for the next message once theirs is done: a fresh malloc of that size is a fresh
 * mapping, whose pages the copy into it faults in one at a time (over TCP on two cores that made a
 * put to a delivered segment 4-8x slower than to a registered one). At most SPARE_BLOCKS blocks of
 * SPARE_BYTES in all are kept; a larger block takes the place of smaller ones. */
#define BLOCK_MIN ((size_t)64 << 10)
#define SPARE_BLOCKS 8
#define SPARE_BYTES ((size_t)32 << 20)

static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *p;
    size_t size;
} spares[SPARE_BLOCKS];
static int n_spares;
static size_t spare_bytes;

/* Removes spare i. Under spare_lock. */
static void *spare_take(int i) {
    void *p = spares[i].p;
    spare_bytes -= spares[i].size;
    spares[i] = spares[--n_spares];
    return p;
}

/* Memory for len bytes: below BLOCK_MIN a plain allocation (*size_p 0), else a block, the
 * smallest spare that holds it or a new one (*size_p its size). NULL when out of memory. */
static void *block_get(size_t len, size_t *size_p) {
    *size_p = 0;
    if (len < BLOCK_MIN)
        return malloc(len);
    pthread_mutex_lock(&spare_lock);
    int best = -1;
    for (int i = 0; i < n_spares; i++)
        if (spares[i].size >= len && (best < 0 || spares[i].size < spares[best].size))
            best = i;
    if (best >= 0) {
        *size_p = spares[best].size;
        void *p = spare_take(best);
        pthread_mutex_unlock(&spare_lock);
        return p;
    }
    pthread_mutex_unlock(&spare_lock);
    *size_p = len;
    return malloc(len);
}

/* Gives back memory of block_get (size: what it said): a block is kept where it fits among the
 * spares, smaller spares given up for it; anything else is freed. */
static void block_put(void *p, size_t size) {
    if (size == 0 || size > SPARE_BYTES) { /* never kept: the spares stay */
        free(p);
        return;
    }
    pthread_mutex_lock(&spare_lock);
    while (n_spares > 0 && (n_spares == SPARE_BLOCKS || spare_bytes + size > SPARE_BYTES)) {
        int smallest = 0;
        for (int i = 1; i < n_spares; i++)
            if (spares[i].size < spares[smallest].size)
                smallest = i;
        if (spares[smallest].size >= size)
            break;
        free(spare_take(smallest));
    }
    if (n_spares < SPARE_BLOCKS && spare_bytes + size <= SPARE_BYTES) {
        spares[n_spares].p = p;
        spares[n_spares++].size = size;
        spare_bytes += size;
        p = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    free(p);
}

void ucx_am_blocks_free(void) {
    pthread_mutex_lock(&spare_lock);
    while (n_spares > 0)
        free(spare_take(n_spares - 1));
    pthread_mutex_unlock(&spare_lock);
}

/* A new item for a request with a payload of length bytes: a put's payload goes into the
 * library's delivery buffer where it gives one, so that the put can run from there while the
 * network is received (ucx_host->deliver_put_start); else a large one into a block and a small
 * one into the item. NULL when out of memory. */
static am_item_t *item_new(const am_request_t *req, size_t length) {
    void *lent =
        req->kind == REQ_PUT && length > 0 ? ucx_host->deliver_buffer(req->segment, length) : NULL;
    const size_t inline_len = lent == NULL && length < BLOCK_MIN ? length : 0;
    am_item_t *item = malloc(sizeof(*item) + inline_len);
    if (!item) {
        ucx_host->deliver_buffer_free(lent);
        return NULL;
    }
    memcpy(&item->req, req, sizeof(item->req));
    item->lent = lent != NULL;
    item->block = 0;
    item->data = lent ? lent : item->inline_data;
    if (!lent && length >= BLOCK_MIN && (item->data = block_get(length, &item->block)) == NULL) {
        free(item);
        return NULL;
    }
    return item;
}

static void item_free(am_item_t *item) {
    if (item->lent)
        ucx_host->deliver_buffer_free(item->data);
    else if (item->block)
        block_put(item->data, item->block);
    free(item);
}

static am_item_t *queue_pop(void) {
    if (__atomic_load_n(&queue_len, __ATOMIC_ACQUIRE) == 0)
        return NULL;
    pthread_mutex_lock(&queue_lock);
    am_item_t *item = queue_head;
    if (item) {
        queue_head = item->next;
        if (!queue_head)
            queue_tail = &queue_head;
        __atomic_store_n(&queue_len, queue_len - 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&queue_lock);
    return item;
}

/* ---- the target: receiving and applying -------------------------------------------------- */

/* The callbacks of requests made with one free the request themselves: ucp_request_free on a
 * request still in flight would suppress its callback. */
static void item_received(void *request, ucs_status_t status, size_t length, void *user_data) {
    (void)length;
    if (request)
        ucp_request_free(request);
    am_item_t *item = user_data;
    if (status != UCS_OK) {
        ucx_host->warn("network", "receiving an operation from PE %d failed: %s", item->req.src_pe,
                       ucs_status_string(status));
        item_free(item);
        return;
    }
    queue_push(item);
}

/* UCX's callback: copies the request (and its payload, pulled now where it is a rendezvous) into
 * the queue. Nothing is applied here: applying may wait for the GPU's copy engine, and the
 * callback runs inside UCX's progress. */
static ucs_status_t request_arrived(void *arg, const void *header, size_t header_length, void *data,
                                    size_t length, const ucp_am_recv_param_t *param) {
    (void)arg;
    if (header_length != sizeof(am_request_t)) {
        ucx_host->warn("network", "dropped a malformed operation (%zu header bytes)",
                       header_length);
        return UCS_OK;
    }
    am_request_t req;
    memcpy(&req, header, sizeof(req));
    am_item_t *item = item_new(&req, length);
    if (!item)
        ucx_host->fatal("network", "out of memory for an operation of %zu bytes from PE %d", length,
                        req.src_pe);
    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) {
        ucp_request_param_t rp = {.op_attr_mask =
                                      UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                                  .cb.recv_am = item_received,
                                  .user_data = item};
        void *req = ucp_am_recv_data_nbx(ucx.worker, data, item->data, length, &rp);
        if (req == NULL)
            queue_push(item);
        else if (UCS_PTR_IS_ERR(req))
            item_received(NULL, UCS_PTR_STATUS(req), 0, item);
        return UCS_OK;
    }
    memcpy(item->data, data, length);
    queue_push(item);
    return UCS_OK;
}

/* An answer on its way (memory of block_get): its header, then the bytes a get asked for. */
typedef struct {
    size_t block; /* what block_get said of it */
    am_answer_t a;
    unsigned char data[];
} answer_t;

/* A new answer to pe with room for len bytes of data. */
static answer_t *answer_new(int pe, size_t len) {
    size_t block = 0;
    answer_t *b = len > SIZE_MAX - sizeof(*b) ? NULL : block_get(sizeof(*b) + len, &block);
    if (!b)
        ucx_host->fatal("network", "out of memory for an answer of %zu bytes to PE %d", len, pe);
    b->block = block;
    return b;
}

static void answer_free(answer_t *b) {
    block_put(b, b->block);
}

/* Frees an answer once UCX has sent it. */
static void answer_sent(void *request, ucs_status_t status, void *user_data) {
    (void)status;
    ucp_request_free(request);
    answer_free(user_data);
}

/* Sends answer b (and len bytes of its data) to pe without waiting for it to leave; b is UCX's
 * until then. */
static void answer_post(int pe, answer_t *b, size_t len) {
    ucx_peer_t *p = ucx_peer_get(answer_ctx, pe);
    if (!p) {
        ucx_host->warn("network", "cannot answer PE %d: no endpoint", pe);
        answer_free(b);
        return;
    }
    ucp_request_param_t param = {.op_attr_mask =
                                     UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                                 .cb.send = answer_sent,
                                 .user_data = b};
    void *req = ucp_am_send_nbx(p->ep, AM_ANSWER, &b->a, sizeof(b->a), b->data, len, &param);
    if (req == NULL) {
        answer_free(b);
    } else if (UCS_PTR_IS_ERR(req)) {
        if (!*ucx_host->closing)
            ucx_host->warn("network", "answering PE %d failed: %s", pe,
                           ucs_status_string(UCS_PTR_STATUS(req)));
        answer_free(b);
    }
}

/* Sends answer a, without data, to pe. */
static void answer_send(int pe, const am_answer_t *a) {
    answer_t *b = answer_new(pe, 0);
    b->a = *a;
    answer_post(pe, b, 0);
}

/* Applies one request other than a put (apply_queue starts those) through the library; for GET,
 * data receives the bytes. */
static shmemi_status_t apply(const am_item_t *item, void *data, uint64_t *value_p) {
    const am_request_t *r = &item->req;
    shmemi_status_t st;
    switch (r->kind) {
    case REQ_GET:
        return ucx_host->deliver_get(r->segment, r->offset, data, r->len);
    case REQ_AMO:
        return ucx_host->deliver_amo(r->segment, r->offset, (shmemi_amo_op_t)r->op, r->operand,
                                     r->compare, r->size, value_p);
    case REQ_PUT_SIGNAL:
    case REQ_ONEWAY:
        /* The payload is in place before the signal is updated: a PE that sees the signal
         * finds the data. */
        st = r->len == 0 ? SHMEMI_OK
                         : ucx_host->deliver_put(r->segment, r->offset, item->data, r->len);
        if (st != SHMEMI_OK)
            return st;
        st = ucx_host->deliver_amo(r->sig_segment, r->sig_offset, (shmemi_amo_op_t)r->op,
                                   r->operand, 0, sizeof(uint64_t), NULL);
        if (st != SHMEMI_OK || r->operand2 == 0)
            return st;
        return ucx_host->deliver_amo(r->sig_segment, r->sig2_offset, SHMEMI_AMO_ADD, r->operand2, 0,
                                     sizeof(uint64_t), NULL);
    default:
        return SHMEMI_ERR_INVALID;
    }
}

/* Set while this thread applies: an answer's wait must not start applying again under it. */
static __thread int applying;
/* One thread applies at a time, so requests are applied in the order they arrived: a PE's
 * atomic set and the fetch it issues next land in that order even when the progress thread and
 * a wait of the PE both look at the queue. */
static pthread_mutex_t apply_lock = PTHREAD_MUTEX_INITIALIZER;

/* Puts applied with ucx_host->deliver_put_start and perhaps still running, oldest first: their
 * acknowledgements wait until the library says they are done. Under apply_lock; the head is also
 * read without it (ucx_am_started). */
static am_item_t *started_head, **started_tail = &started_head;

int ucx_am_started(void) {
    return __atomic_load_n(&started_head, __ATOMIC_ACQUIRE) != NULL;
}

/* Acknowledgements of consecutive operations of one context go out as one. */
typedef struct {
    am_answer_t ack;
    int pe; /* -1: none gathered */
} ack_batch_t;

static ack_batch_t ack_batch(void) {
    ack_batch_t b = {.ack = {.is_ack = 1, .pe = ucx_host->my_pe}, .pe = -1};
    return b;
}

static void ack_add(ack_batch_t *b, const am_request_t *r) {
    if (b->pe >= 0 && (b->pe != r->src_pe || b->ack.token != r->token)) {
        answer_send(b->pe, &b->ack);
        b->ack.count = 0;
    }
    b->pe = r->src_pe;
    b->ack.token = r->token;
    b->ack.count++;
}

static void ack_flush(ack_batch_t *b) {
    if (b->pe >= 0)
        answer_send(b->pe, &b->ack);
}

/* Acknowledges and frees the started puts once every one is done. Returns how many. */
static int started_retire(void) {
    if (!started_head)
        return 0;
    int done = ucx_host->deliver_test();
    if (done < 0)
        ucx_host->fatal("network",
                        "a put of PE %d into this PE's GPU memory failed here (status %d)",
                        started_head->req.src_pe, done);
    if (done == 0)
        return 0;
    ack_batch_t b = ack_batch();
    int n = 0;
    am_item_t *item = started_head;
    __atomic_store_n(&started_head, NULL, __ATOMIC_RELEASE);
    started_tail = &started_head;
    while (item != NULL) {
        am_item_t *next = item->next;
        ack_add(&b, &item->req);
        item_free(item);
        item = next;
        n++;
    }
    ack_flush(&b);
    return n;
}

static int apply_queue(void);

int ucx_am_apply(void) {
    int n = 0;
    while (!applying && (__atomic_load_n(&queue_len, __ATOMIC_ACQUIRE) != 0 || ucx_am_started())) {
        /* Another thread applies; it looks at the queue again after letting go. */
        if (pthread_mutex_trylock(&apply_lock) != 0)
            break;
        applying = 1;
        int k = started_retire() + apply_queue();
        applying = 0;
        pthread_mutex_unlock(&apply_lock);
        if (k == 0) /* only puts still running */
            break;
        n += k;
    }
    return n;
}

static void fail(const am_request_t *r, shmemi_status_t st) {
    ucx_host->fatal("network",
                    "PE %d's operation %d on segment %d (offset %llu, %llu bytes) failed here "
                    "(status %d)",
                    r->src_pe, r->kind, r->segment, (unsigned long long)r->offset,
                    (unsigned long long)r->len, (int)st);
}

static int apply_queue(void) {
    int n = 0;
    ack_batch_t b = ack_batch();
    am_item_t *item;
    while ((item = queue_pop()) != NULL) {
        const am_request_t *r = &item->req;
        n++;
        if (r->kind == REQ_PUT) {
            /* Runs while this thread goes back to the network; acknowledged when done. */
            shmemi_status_t st =
                ucx_host->deliver_put_start(r->segment, r->offset, item->data, r->len);
            if (st != SHMEMI_OK)
                fail(r, st);
            item->next = NULL;
            __atomic_store_n(started_tail, item, __ATOMIC_RELEASE);
            started_tail = &item->next;
            continue;
        }
        uint64_t value = 0;
        /* A get's bytes go straight into its answer. */
        const size_t len = r->kind == REQ_GET ? r->len : 0;
        answer_t *reply = r->answer || len ? answer_new(r->src_pe, len) : NULL;
        shmemi_status_t st = apply(item, reply ? reply->data : NULL, &value);
        if (st != SHMEMI_OK)
            fail(r, st);
        if (r->kind == REQ_ONEWAY) {
            /* Nobody waits for its completion: no answer. */
        } else if (r->answer) {
            reply->a = (am_answer_t){
                .token = r->token, .value = value, .status = st, .pe = ucx_host->my_pe};
            answer_post(r->src_pe, reply, len);
            reply = NULL;
        } else {
            ack_add(&b, r);
        }
        if (reply)
            answer_free(reply);
        item_free(item);
    }
    ack_flush(&b);
    return n;
}

/* ---- the source: answers --------------------------------------------------------------- */

/* Counts count answers from pe on t's endpoint to it, then on t. */
static void answered(shmemi_transport_ctx_t *t, int pe, uint64_t count) {
    ucx_peer_t *p =
        pe >= 0 && pe < ucx_host->n_pes ? __atomic_load_n(&t->peers[pe], __ATOMIC_ACQUIRE) : NULL;
    if (p)
        __atomic_fetch_add(&p->am_done, count, __ATOMIC_RELEASE);
    /* Last: once the counts agree, the context may be destroyed. */
    __atomic_fetch_add(&t->am_done, count, __ATOMIC_RELEASE);
}

static void pending_done(ucx_am_pending_t *pending, int status, uint64_t value) {
    shmemi_transport_ctx_t *t = pending->t;
    int pe = pending->pe;
    pending->value = value;
    pending->status = status;
    if (pending->owned_by_answer)
        free(pending);
    else
        __atomic_store_n(&pending->done, 1, __ATOMIC_RELEASE);
    answered(t, pe, 1);
}

static void answer_data_received(void *request, ucs_status_t status, size_t length,
                                 void *user_data) {
    (void)length;
    if (request)
        ucp_request_free(request);
    ucx_am_pending_t *pending = user_data;
    pending_done(pending, status == UCS_OK ? SHMEMI_OK : SHMEMI_ERR_PEER, 0);
}

/* UCX's callback for answers: acknowledgements count, replies fill their pending operation. Both
 * are the library's own host memory, so they are done here. */
static ucs_status_t answer_arrived(void *arg, const void *header, size_t header_length, void *data,
                                   size_t length, const ucp_am_recv_param_t *param) {
    (void)arg;
    if (header_length != sizeof(am_answer_t)) {
        ucx_host->warn("network", "dropped a malformed answer (%zu header bytes)", header_length);
        return UCS_OK;
    }
    am_answer_t a;
    memcpy(&a, header, sizeof(a));
    if (a.is_ack) {
        answered((shmemi_transport_ctx_t *)(uintptr_t)a.token, a.pe, a.count);
        return UCS_OK;
    }
    ucx_am_pending_t *pending = (ucx_am_pending_t *)(uintptr_t)a.token;
    if (length > pending->len)
        length = pending->len;
    if (length && (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        ucp_request_param_t rp = {.op_attr_mask =
                                      UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                                  .cb.recv_am = answer_data_received,
                                  .user_data = pending};
        void *req = ucp_am_recv_data_nbx(ucx.worker, data, pending->dest, length, &rp);
        if (req == NULL)
            pending_done(pending, a.status, a.value);
        else if (UCS_PTR_IS_ERR(req))
            pending_done(pending, SHMEMI_ERR_PEER, 0);
        return UCS_OK;
    }
    if (length)
        memcpy(pending->dest, data, length);
    pending_done(pending, a.status, a.value);
    return UCS_OK;
}

/* ---- the source: sending ----------------------------------------------------------------- */

/* Sends request r to pe on context t; the payload (len bytes at data) may be reused at return.
 * Counted in am_sent (for fence and quiet to wait for its answer) unless it is one-way: nobody
 * answers that, and it goes eager where UCX can, so that it is complete here at once and the
 * target needs no rendezvous round trip. */
static void request_count(shmemi_transport_ctx_t *t, ucx_peer_t *p, am_request_t *r) {
    r->src_pe = ucx_host->my_pe;
    if (r->kind != REQ_ONEWAY) {
        __atomic_fetch_add(&p->am_sent, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&t->am_sent, 1, __ATOMIC_RELAXED);
    }
}

static shmemi_status_t request_post(shmemi_transport_ctx_t *t, int pe, am_request_t *r,
                                    const void *data, size_t len, const char *what) {
    ucx_peer_t *p = ucx_peer_get(t, pe);
    if (!p)
        return SHMEMI_ERR_PEER;
    request_count(t, p, r);
    const int oneway = r->kind == REQ_ONEWAY;
    ucp_request_param_t param = {.op_attr_mask = oneway ? UCP_OP_ATTR_FIELD_FLAGS : 0,
                                 .flags = oneway ? UCP_AM_SEND_FLAG_EAGER : 0};
    return ucx_wait_request(t, ucp_am_send_nbx(p->ep, AM_REQUEST, r, sizeof(*r), data, len, &param),
                            what, pe);
}

/* request_post of a request that is answered or acknowledged. pending: the operation's answer
 * (NULL: acknowledged). */
static shmemi_status_t request_send(shmemi_transport_ctx_t *t, int pe, am_request_t *r,
                                    const void *data, size_t len, ucx_am_pending_t *pending,
                                    const char *what) {
    r->answer = pending != NULL;
    r->token = pending ? (uint64_t)(uintptr_t)pending : (uint64_t)(uintptr_t)t;
    return request_post(t, pe, r, data, len, what);
}

/* Waits for a pending answer, progressing and applying what peers ask of this PE. */
static shmemi_status_t pending_wait(shmemi_transport_ctx_t *t, ucx_am_pending_t *pending,
                                    const char *what, int pe) {
    ucx_wait_timer_t timer = {0};
    while (!__atomic_load_n(&pending->done, __ATOMIC_ACQUIRE))
        ucx_wait_step(t, &timer, what, pe);
    return (shmemi_status_t)pending->status;
}

shmemi_status_t ucx_am_put(shmemi_transport_ctx_t *t, int segment, size_t offset,
                           const void *source, size_t len, int pe) {
    am_request_t r = {.kind = REQ_PUT, .segment = segment, .offset = offset, .len = len};
    return request_send(t, pe, &r, source, len, NULL, "put");
}

shmemi_status_t ucx_am_put_start(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                 const void *source, size_t len, int pe, shmemi_put_done_t done,
                                 void *arg) {
    ucx_peer_t *p = ucx_peer_get(t, pe);
    if (!p)
        return SHMEMI_ERR_PEER;
    struct {
        ucx_started_t s; /* first: the completion frees the block through it */
        am_request_t r;
    } *x = malloc(sizeof(*x));
    if (!x)
        return SHMEMI_ERR_NOMEM;
    x->r = (am_request_t){.kind = REQ_PUT,
                          .segment = segment,
                          .offset = offset,
                          .len = len,
                          .token = (uint64_t)(uintptr_t)t};
    request_count(t, p, &x->r);
    ucp_request_param_t param;
    ucx_started_param(&param, &x->s, t, pe, done, arg);
    return ucx_started_posted(
        &x->s, ucp_am_send_nbx(p->ep, AM_REQUEST, &x->r, sizeof(x->r), source, len, &param), "put");
}

shmemi_status_t ucx_am_get(shmemi_transport_ctx_t *t, void *dest, int segment, size_t offset,
                           size_t len, int pe, int nbi) {
    am_request_t r = {.kind = REQ_GET, .segment = segment, .offset = offset, .len = len};
    ucx_am_pending_t stack = {.t = t, .pe = pe, .dest = dest, .len = len}, *pending = &stack;
    if (nbi) {
        pending = malloc(sizeof(*pending));
        if (!pending)
            return SHMEMI_ERR_NOMEM;
        *pending = stack;
        pending->owned_by_answer = 1;
    }
    shmemi_status_t st = request_send(t, pe, &r, NULL, 0, pending, "get");
    if (st != SHMEMI_OK || nbi)
        return st;
    return pending_wait(t, pending, "get", pe);
}

shmemi_status_t ucx_am_amo(shmemi_transport_ctx_t *t, shmemi_amo_op_t op, int segment,
                           size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                           size_t size, int pe) {
    am_request_t r = {.kind = REQ_AMO,
                      .op = (uint8_t)op,
                      .size = (uint8_t)size,
                      .segment = segment,
                      .offset = offset,
                      .operand = operand,
                      .compare = compare};
    /* Set waits for its answer, as it does on registered memory (a swap there). */
    if (!fetch_p && op != SHMEMI_AMO_SET)
        return request_send(t, pe, &r, NULL, 0, NULL, "atomic");
    ucx_am_pending_t pending = {.t = t, .pe = pe};
    shmemi_status_t st = request_send(t, pe, &r, NULL, 0, &pending, "atomic");
    if (st == SHMEMI_OK)
        st = pending_wait(t, &pending, "atomic", pe);
    if (st == SHMEMI_OK && fetch_p)
        *fetch_p = size == 4 ? (uint64_t)(uint32_t)pending.value : pending.value;
    return st;
}

/* A put-with-signal request of kind (REQ_PUT_SIGNAL or REQ_ONEWAY). */
static am_request_t put_signal_request(uint8_t kind, int segment, size_t offset, size_t len,
                                       int sig_segment, size_t sig_offset, shmemi_amo_op_t sig_op,
                                       uint64_t signal) {
    am_request_t r = {.kind = kind,
                      .op = (uint8_t)sig_op,
                      .segment = segment,
                      .sig_segment = sig_segment,
                      .offset = offset,
                      .len = len,
                      .operand = signal,
                      .sig_offset = sig_offset};
    return r;
}

shmemi_status_t ucx_am_put_signal(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                  const void *source, size_t len, int sig_segment,
                                  size_t sig_offset, shmemi_amo_op_t sig_op, uint64_t signal,
                                  int pe) {
    am_request_t r = put_signal_request(REQ_PUT_SIGNAL, segment, offset, len, sig_segment,
                                        sig_offset, sig_op, signal);
    return request_send(t, pe, &r, source, len, NULL, "put-with-signal");
}

/* One message, applied by the target's queue as the other requests are (after its progress
 * returns, so also into a delivered segment) and never answered: not counted in am_sent, so
 * fence and quiet do not wait for it (the seam's contract). */
shmemi_status_t ucx_am_put_signal_oneway(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                         const void *source, size_t len, int sig_segment,
                                         size_t sig_offset, uint64_t add, size_t sig2_offset,
                                         uint64_t add2, int pe) {
    am_request_t r = put_signal_request(REQ_ONEWAY, segment, offset, len, sig_segment, sig_offset,
                                        SHMEMI_AMO_ADD, add);
    r.sig2_offset = sig2_offset;
    r.operand2 = add2;
    return request_post(t, pe, &r, source, len, "put-with-signal");
}

/* Waits until the answers counted in *done reach the messages counted in *sent. */
static void answers_wait(shmemi_transport_ctx_t *t, const uint64_t *done, const uint64_t *sent,
                         const char *what, int pe) {
    ucx_wait_timer_t timer = {0};
    while (__atomic_load_n(done, __ATOMIC_ACQUIRE) != __atomic_load_n(sent, __ATOMIC_RELAXED))
        ucx_wait_step(t, &timer, what, pe);
}

shmemi_status_t ucx_am_complete(shmemi_transport_ctx_t *t) {
    answers_wait(t, &t->puts_sent, &t->puts_started, "the sends of started puts", -1);
    answers_wait(t, &t->am_done, &t->am_sent, "quiet of delivered operations", -1);
    return SHMEMI_OK;
}

shmemi_status_t ucx_am_peer_complete(shmemi_transport_ctx_t *t, ucx_peer_t *p, int pe) {
    answers_wait(t, &p->am_done, &p->am_sent, "the answers of earlier operations", pe);
    return SHMEMI_OK;
}

shmemi_status_t ucx_am_init(void) {
    ucp_am_handler_param_t h = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                                              UCP_AM_HANDLER_PARAM_FIELD_CB |
                                              UCP_AM_HANDLER_PARAM_FIELD_ARG,
                                .id = AM_REQUEST,
                                .cb = request_arrived,
                                .arg = NULL};
    ucs_status_t st = ucp_worker_set_am_recv_handler(ucx.worker, &h);
    if (st == UCS_OK) {
        h.id = AM_ANSWER;
        h.cb = answer_arrived;
        st = ucp_worker_set_am_recv_handler(ucx.worker, &h);
    }
    if (st != UCS_OK) {
        ucx_host->warn("ucx", "setting the active message handlers failed: %s",
                       ucs_status_string(st));
        return SHMEMI_ERR_IO;
    }
    return ucx_ctx_create(0, &answer_ctx);
}

void ucx_am_finalize(void) {
    answer_ctx = NULL; /* destroyed with every context */
    am_item_t *item;
    while ((item = queue_pop()) != NULL)
        item_free(item);
    while ((item = started_head) != NULL) {
        started_head = item->next;
        item_free(item);
    }
    started_tail = &started_head;
}
