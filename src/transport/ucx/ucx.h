/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX transport (a plug-in, libshmem-ucx.so): UCX's ucp layer, which drives InfiniBand and
 * RoCE through its verbs transports (rc, dc, ud) on a cluster and TCP and shared memory elsewhere.
 * Private to src/transport/ucx.
 *
 * Objects: one ucp context for the process; one worker, whose address is this PE's address and
 * which serves the peers' requests (progressed by every library wait and the progress thread);
 * per OpenSHMEM context a set of endpoints on that worker, made on first use, and the rkeys
 * unpacked on them. A worker per context would isolate contexts further, but traffic of one
 * worker then depends on the progress of another that nobody may be driving (a PRIVATE context's
 * worker can only be progressed by its owner): with UCX 1.13 over TCP a quiet on one worker then
 * waits forever. */
#ifndef SHMEMI_TRANSPORT_UCX_H
#define SHMEMI_TRANSPORT_UCX_H

#include <pthread.h>
#include <ucp/api/ucp.h>

#include "core/shmemi.h"

/* What the library gave the plug-in: its environment, messages and PE numbers. */
extern const shmemi_plugin_host_t *ucx_host;

/* Process-wide state (ucx.c). */
typedef struct {
    ucp_context_h context;
    ucp_worker_h worker; /* the default worker */
    ucp_address_t *address;
    void *address_blob; /* the address in its frame, as address_get gives it */
    size_t address_blob_len;
    int efd; /* the worker's event descriptor (UCP_FEATURE_WAKEUP) */
    size_t address_len;
    /* The peers' worker addresses, copied from the exchange without their frames. */
    unsigned char **peer_address;
    /* Registered segments: this PE's memory handle and packed blob (a frame, then base and
     * rkey); the peers' blobs, checked and copied, unpacked per endpoint on first use. */
    struct {
        ucp_mem_h memh;
        void *blob;
        size_t blob_len;
        void *rkey_buffer;
        unsigned char **peer_blob;
        size_t *peer_blob_len;
        /* n_pes flags: the peer's copy is delivered (ucx_am.c), not registered */
        uint8_t *peer_delivered;
    } seg[SHMEMI_MAX_SEGMENTS];
    /* n_pes flags: some segment of the peer is delivered (fence then waits, ucx_ctx.c) */
    uint8_t *peer_any_delivered;
    /* Seconds a blocking operation may wait for a peer; 0: forever. */
    double timeout;
    /* Nonzero when UCX's AMOs here are CPU atomics (no RDMA device, or UCX_ATOMIC_MODE=cpu), so
     * that a signal the target applies with its own atomics is atomic with them: put-with-signal
     * to registered memory may then be one active message (ucx_ctx.c). */
    int cpu_atomics;
} ucx_state_t;

extern ucx_state_t ucx;

/* A peer's endpoint on one worker and the rkeys unpacked on it. */
typedef struct ucx_peer {
    ucp_ep_h ep;
    uint64_t remote_base[SHMEMI_MAX_SEGMENTS];
    ucp_rkey_h rkey[SHMEMI_MAX_SEGMENTS];
    struct ucx_peer *next_spare; /* in the spare list of its PE, once its context is gone */
    /* Operations that complete only at a flush (puts, non-blocking gets, posted AMOs) counted as
     * they are issued, and the count the last finished flush covered: quiet flushes only the
     * endpoints where they differ. */
    unsigned long issued;
    unsigned long flushed;
    /* Active messages sent on this endpoint that are answered, and the answers that came back
     * (ucx_am.c). */
    uint64_t am_sent;
    uint64_t am_done;
} ucx_peer_t;

/* The state of one OpenSHMEM context (ucx_ctx.c): its own endpoints on the default worker, so
 * that its quiet flushes only them. */
struct shmemi_transport_ctx {
    ucp_worker_h worker;
    int private_ctx;      /* SHMEM_CTX_PRIVATE: one thread at a time, no lock of ours */
    pthread_mutex_t lock; /* guards lazy endpoint creation on shared contexts */
    ucx_peer_t **peers;   /* n_pes pointers, NULL until first use */
    int *connected;       /* the PEs with an endpoint, in order of connection */
    int n_connected;
    /* Operations on delivered segments sent, and answered (acknowledged or replied to) by their
     * targets once applied; quiet waits until the two agree. */
    uint64_t am_sent;
    uint64_t am_done;
    /* Puts whose source UCX reads after the call returned (put_start; put_nbi on a delivered
     * segment), and those whose sends completed: quiet waits until the two agree too, so that no
     * request of the context is left running on its endpoints. */
    uint64_t puts_started;
    uint64_t puts_sent;
    struct shmemi_transport_ctx *next; /* every live context, for quiet(NULL) */
};

/* Every blob this plug-in hands its peers (the worker address; a segment's base address and
 * packed rkey) starts with this frame, so that the receiver checks a blob's length and contents
 * before UCX parses it: UCX's unpack functions take no length and trust their input. */
typedef struct {
    uint32_t magic; /* UCX_FRAME_ADDRESS or UCX_FRAME_SEGMENT */
    uint32_t len;   /* bytes after the frame */
    uint64_t sum;   /* FNV-1a of those bytes */
} ucx_frame_t;
#define UCX_FRAME_ADDRESS 0x53484d41u /* "SHMA" */
#define UCX_FRAME_SEGMENT 0x53484d53u /* "SHMS" */
/* A delivered segment: its size, no rkey (peers send operations on it as messages). */
#define UCX_FRAME_DELIVERED 0x53484d44u /* "SHMD" */

/* The payload of a framed blob of len bytes: 0 and *payload_p, *payload_len_p set when it is a
 * whole blob of kind magic whose contents are intact, else -1 and *why_p says what is wrong. */
int ucx_frame_check(const void *blob, size_t len, uint32_t magic, const void **payload_p,
                    size_t *payload_len_p, const char **why_p);

/* Parses a segment blob (checked by ucx_frame_check at mem_peer) into its base address and
 * packed rkey; -1 when it does not parse. */
int ucx_blob_parse(const void *blob, size_t len, uint64_t *base_p, const void **rkey_p,
                   size_t *rkey_len_p);

/* ucx_ctx.c: the operations of the ops table on contexts. */
shmemi_status_t ucx_ctx_create(long options, shmemi_transport_ctx_t **tctx_p);
void ucx_ctx_destroy(shmemi_transport_ctx_t *tctx);
shmemi_status_t ucx_put(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                        const void *source, size_t len, int pe);
shmemi_status_t ucx_put_nbi(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                            const void *source, size_t len, int pe);
shmemi_status_t ucx_get(shmemi_transport_ctx_t *tctx, void *dest, int segment, size_t offset,
                        size_t len, int pe);
shmemi_status_t ucx_get_nbi(shmemi_transport_ctx_t *tctx, void *dest, int segment, size_t offset,
                            size_t len, int pe);
shmemi_status_t ucx_amo(shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op, int segment,
                        size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                        size_t size, int pe);
shmemi_status_t ucx_put_signal(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                               const void *source, size_t len, int sig_segment, size_t sig_offset,
                               shmemi_amo_op_t sig_op, uint64_t signal, int pe);
shmemi_status_t ucx_fence(shmemi_transport_ctx_t *tctx, int pe);
shmemi_status_t ucx_quiet(shmemi_transport_ctx_t *tctx);
shmemi_status_t ucx_pe_quiet(shmemi_transport_ctx_t *tctx, int pe);
int ucx_progress(void);
int ucx_wait(long timeout_us, int who);

/* A started put (put_start): whom its request's completion tells. The first member of the block
 * malloc gave, which the completion frees (a message's header lives in the same block, as UCX
 * 1.13 reads the header until the send completes). */
typedef struct {
    shmemi_transport_ctx_t *t; /* counts it in puts_started and puts_sent */
    shmemi_put_done_t done;
    void *arg;
    int pe;
} ucx_started_t;
shmemi_status_t ucx_put_start(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                              const void *source, size_t len, int pe, shmemi_put_done_t done,
                              void *arg);
/* Fills s (for a put on t to pe, whose completion calls done(arg)), counts it as started, and
 * sets param so that its request's completion tells it and frees s (ucx_ctx.c). */
void ucx_started_param(ucp_request_param_t *param, ucx_started_t *s, shmemi_transport_ctx_t *t,
                       int pe, shmemi_put_done_t done, void *arg);
/* Takes what the ucp_*_nbx call with that param returned: calls done and frees s where it
 * completed at once; frees s without done and returns the failure where it failed; else leaves
 * both to the completion. */
shmemi_status_t ucx_started_posted(ucx_started_t *s, void *req, const char *what);

/* Shared by the contexts and the delivery protocol (ucx_ctx.c). */
ucx_peer_t *ucx_peer_get(shmemi_transport_ctx_t *t, int pe);
/* Waits for a request of UCX, progressing the worker and applying delivered operations. */
shmemi_status_t ucx_wait_request(shmemi_transport_ctx_t *t, void *req, const char *what, int pe);
/* The clock of a blocking wait; zero to start. */
typedef struct {
    unsigned spins;
    uint64_t begin_ns, last_ns; /* CLOCK_MONOTONIC at its first and its last look at the clock */
    int yielding;
} ucx_wait_timer_t;
/* One pass of a blocking wait: progresses t's worker, applies what peers asked of this PE, yields
 * the processor when that did nothing and the wait has lasted 100 us (at once where a wait of the
 * PE was lately preempted), and ends the job, naming what and pe (-1: every PE), once the wait has
 * lasted ucx.timeout seconds (SHMEM_NETWORK_TIMEOUT). */
void ucx_wait_step(shmemi_transport_ctx_t *t, ucx_wait_timer_t *timer, const char *what, int pe);

/* Delivered segments (ucx_am.c). An operation whose answer the source waits for: a get's data,
 * a fetched value. On the caller's stack for blocking operations; owned by the answer (freed
 * when it arrives) for get_nbi. */
typedef struct {
    shmemi_transport_ctx_t *t;
    int pe; /* the target */
    void *dest;
    size_t len;
    uint64_t value;
    int status;
    int done;
    int owned_by_answer;
} ucx_am_pending_t;

/* Sets the active message handlers and the context that answers go out on. */
shmemi_status_t ucx_am_init(void);
/* Frees requests never applied (finalize). */
void ucx_am_finalize(void);
/* Frees the payload blocks kept for reuse; after the workers are gone (an answer still in flight
 * gives its block back when UCX cancels it). */
void ucx_am_blocks_free(void);
/* Applies the requests peers have sent and answers them; outside UCX's callbacks. Returns how
 * many it applied (0 as well inside an application of this thread). */
int ucx_am_apply(void);
/* Nonzero while a put applied to this PE's GPU memory may still run (its acknowledgement waits
 * for it): ucx_am_apply must then be called again soon, events or not. */
int ucx_am_started(void);
/* The operations of the ops table on a delivered segment of pe. put and put_signal return when
 * source may be reused; get (nbi 0) and a fetching AMO when the answer is in. */
shmemi_status_t ucx_am_put(shmemi_transport_ctx_t *t, int segment, size_t offset,
                           const void *source, size_t len, int pe);
/* put_start on a delivered segment: the request counts as sent at once (quiet waits for its
 * acknowledgement), source is in use until done. */
shmemi_status_t ucx_am_put_start(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                 const void *source, size_t len, int pe, shmemi_put_done_t done,
                                 void *arg);
shmemi_status_t ucx_am_get(shmemi_transport_ctx_t *t, void *dest, int segment, size_t offset,
                           size_t len, int pe, int nbi);
shmemi_status_t ucx_am_amo(shmemi_transport_ctx_t *t, shmemi_amo_op_t op, int segment,
                           size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                           size_t size, int pe);
shmemi_status_t ucx_am_put_signal(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                  const void *source, size_t len, int sig_segment,
                                  size_t sig_offset, shmemi_amo_op_t sig_op, uint64_t signal,
                                  int pe);
/* Returns once every delivered operation t sent is applied at its target and every put t
 * started has been sent. */
shmemi_status_t ucx_am_complete(shmemi_transport_ctx_t *t);
/* Nonzero while an active message t sent is not yet applied (answered) at its target. */
static inline int ucx_am_outstanding(shmemi_transport_ctx_t *t) {
    return __atomic_load_n(&t->am_done, __ATOMIC_ACQUIRE) !=
           __atomic_load_n(&t->am_sent, __ATOMIC_RELAXED);
}
/* Returns once every active message t sent to pe (on p, its endpoint) is applied there: UCX
 * orders no active messages, so one that must land after them waits for their answers. */
shmemi_status_t ucx_am_peer_complete(shmemi_transport_ctx_t *t, ucx_peer_t *p, int pe);
/* The seam's put_signal_oneway: one active message, unanswered (ucx_am.c). */
shmemi_status_t ucx_am_put_signal_oneway(shmemi_transport_ctx_t *t, int segment, size_t offset,
                                         const void *source, size_t len, int sig_segment,
                                         size_t sig_offset, uint64_t add, size_t sig2_offset,
                                         uint64_t add2, int pe);

/* Nonzero when pe's copy of segment is delivered. */
static inline int ucx_delivered(int segment, int pe) {
    return ucx.seg[segment].peer_delivered && ucx.seg[segment].peer_delivered[pe];
}

/* One pass of a thread of the PE over the worker's progress, counted in the host's pe_progress so
 * that the progress thread stays asleep while the PE progresses by itself. */
static inline unsigned ucx_pe_progress(ucp_worker_h worker) {
    __atomic_fetch_add(ucx_host->pe_progress, 1, __ATOMIC_RELAXED);
    return ucp_worker_progress(worker);
}
/* Destroys every context's endpoints and workers (finalize). */
void ucx_ctx_destroy_all(void);

#endif
