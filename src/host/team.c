/* SPDX-License-Identifier: BSD-3-Clause */
/* Teams and the machinery every collective shares: the token channels, the dissemination barrier,
 * the small all-gather used for argument checks, and the set-up at shmem_init. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coll_internal.h"
#include "host/ctx_internal.h"
#include "host/relax.h"
#include "host/rma_internal.h"
#include "core/env.h"
#include "core/watch.h"

shmemi_team_state_t shmemi_teams[SHMEMI_TEAM_SLOTS];
shmemi_coll_config_t shmemi_coll_config;

/* Symmetric, in the internal segment (host memory on every platform, so the host can spin on
 * it also where the heap is GPU memory): SHMEMI_N_CHANNELS x n_pes token counters, and two
 * exchange buffers per team slot. */
static uint64_t *tokens;
static int64_t *exchange_base;
/* Private: per channel and peer, tokens sent and tokens consumed. */
static uint64_t *tokens_sent;
static uint64_t *tokens_consumed;
/* Mapped address of each peer's token array (NULL where the peer is not load/store reachable). */
static uint64_t **peer_tokens;

/* The wait policy of src/host/relax.h, shared with wait_until and signal_wait_until. */
void shmemi_coll_relax(unsigned *spins) {
    shmemi_progress();
    shmemi_relax(spins);
}

void shmemi_coll_quiet(void) {
    /* Quiet on the default context: drain this thread's non-temporal (BYPASS) stores, then the
     * transport's quiet, a full fence on the shm transport. */
    shmemi_nt_drain();
    shmemi_transport_local->quiet(NULL);
    if (shmemi_transport_net)
        shmemi_transport_net->quiet(shmemi_net_ctx_default);
}

/* ---- tokens and barrier --------------------------------------------------------------------- */

static void net_failed(const char *call, const shmemi_transport_ops_t *ops, shmemi_status_t st,
                       int pe) {
    shmemi_fatal(call, "transport %s failed to reach PE %d (status %d)", ops->name, pe, (int)st);
}

static uint64_t credits_take(int pe, uint64_t **word_p);

/* len bytes of src (none when len is 0) into pe's copy of symmetric addr, then an add of add to
 * pe's copy of *counter (one: a token; a batch of credits), on the tokens' network context, in one
 * message: the network transport's put_signal_oneway (unordered, which counters that only grow do
 * not mind, and never waited for by a quiet; every network transport has it). With carry, credits
 * this PE owes pe ride along, as the message's second add. What this thread stored before (and
 * the copies out of an inbox it read) is ordered before the message by a release fence. src may
 * be reused at return. */
static void net_signal(const char *call, int pe, const void *addr, const void *src, size_t len,
                       uint64_t *counter, uint64_t add, int carry) {
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
    int seg, sig_seg;
    size_t offset, sig_offset, credit_offset = 0;
    const shmemi_transport_ops_t *ops =
        shmemi_route_transport(call, counter, pe, 1, &sig_seg, &sig_offset);
    seg = sig_seg;
    offset = sig_offset;
    if (len != 0)
        shmemi_route_transport(call, addr, pe, 0, &seg, &offset);
    uint64_t *credit_word = NULL, credit = carry ? credits_take(pe, &credit_word) : 0;
    /* The credits and the tokens are both in the internal segment (sig_seg). */
    if (credit != 0)
        (void)shmemi_segment_of(credit_word, &credit_offset);
    shmemi_status_t st =
        ops->put_signal_oneway(shmemi_net_ctx_tokens, seg, offset, src, len, sig_seg, sig_offset,
                               add, credit_offset, credit, pe);
    if (st != SHMEMI_OK)
        net_failed(call, ops, st, pe);
}

/* A token to a PE on another node: an add of one to this PE's counter there, posted (no round
 * trip). Counters only grow by one per token, so adds in any order give the same counts, and a
 * token alone needs no fence: what it announces is this PE's own stores (ordered before the add
 * by the release fence, and read by pe with gets that start after it sees the token) or gets of
 * this PE that are complete (a blocking get, or shmemi_coll_get_wait). Data a collective pushes
 * to pe travels with its own token (the add is applied after the data; net_put_tokens). sync_all
 * does not complete the user's puts (docs/memory_model.md). */
static void net_token_send(int pe, uint64_t *word) {
    net_signal("shmem collective", pe, NULL, NULL, 0, word, 1, 1);
}

void shmemi_token_send(const shmemi_team_state_t *t, int index) {
    int pe = shmemi_team_world_pe(t, index);
    size_t me = (size_t)shmemi_state.my_pe, n = (size_t)shmemi_state.n_pes;
    size_t slot = (size_t)t->channel * n;
    uint64_t *remote = peer_tokens[pe];
    uint64_t count = ++tokens_sent[slot + (size_t)pe];
    if (remote == NULL) {
        net_token_send(pe, &tokens[slot + me]);
        return;
    }
    __atomic_store_n(&remote[slot + me], count, __ATOMIC_RELEASE);
}

/* How long a token wait spins (shmemi_coll_relax: pauses, then yields) before it sleeps. */
#define SHMEMI_TOKEN_SPIN_NS 2000000

/* Waits until *word (a counter that only grows, written by pe) reaches want, with acquire. */
static void counter_wait(const uint64_t *word, uint64_t want, int pe) {
    /* Spin for a bounded time (yields take long when the processors are busy: the clock, read
     * every 256 steps, bounds it), then sleep in the slow path, which also notices a peer that
     * will never send (core/watch.h). */
    unsigned spins = 0;
    long long spin_start_ns = 0;
    while (__atomic_load_n(word, __ATOMIC_ACQUIRE) < want) {
        if (spins % 256 == 255) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            long long now_ns = (long long)now.tv_sec * 1000000000 + now.tv_nsec;
            if (spin_start_ns == 0) {
                spin_start_ns = now_ns;
            } else if (now_ns - spin_start_ns > SHMEMI_TOKEN_SPIN_NS) {
                shmemi_watch_wait_ge(word, want, pe);
                return;
            }
        }
        shmemi_coll_relax(&spins);
    }
}

void shmemi_token_wait(const shmemi_team_state_t *t, int index) {
    int pe = shmemi_team_world_pe(t, index);
    size_t slot = (size_t)t->channel * (size_t)shmemi_state.n_pes + (size_t)pe;
    counter_wait(&tokens[slot], ++tokens_consumed[slot], pe);
}

/* ---- pushes to PEs on other nodes ----------------------------------------------------------- */

/* Eager inboxes, in the internal segment: on the world team's channel and on the active sets',
 * each PE holds SHMEMI_EAGER_SLOTS slots of eager_bytes (32 KiB, less at scale) per sending PE.
 * The k-th eager push of PE p to PE q on a lane goes to slot k mod SHMEMI_EAGER_SLOTS of q's inbox
 * for p, and only after q has freed push k - SHMEMI_EAGER_SLOTS. q returns credits in batches:
 * an add to credits[lane][q] on p of the pushes it has copied out since it last returned any:
 * with its next token or push to p on any channel (the message's second add, so they cost
 * nothing), else in a message of their own once SHMEMI_EAGER_CREDIT_BATCH are owed, so a push
 * costs the receiver a credit message at most every fourth time. A batch
 * no larger than the slots cannot stall a sender whose receiver keeps up: once q has freed all k
 * pushes p sent, it has reported at least k - SHMEMI_EAGER_CREDIT_BATCH + 1 of them, no fewer
 * than the k - SHMEMI_EAGER_SLOTS + 1 that push k needs. So a push never overwrites data its
 * receiver has not consumed, however far the sender runs ahead (back-to-back collectives), and
 * where the receiver keeps up, the sender never waits. */
#define SHMEMI_EAGER_LANES 2
#define SHMEMI_EAGER_SLOTS 8
#define SHMEMI_EAGER_CREDIT_BATCH 4
/* Over UCX on TCP a one-way message costs about the same up to 32 KiB, and a pull of the same
 * bytes two more trips (bench/README.md, "Pushes of up to 32 KiB"). Untouched pages of the
 * inboxes (slots never filled that far) cost no memory. */
#define SHMEMI_EAGER_MAX_BYTES 32768
/* A push of more than one slot goes as pieces of a slot each, in consecutive slots, each with its
 * token and its credit like a push of its own: up to this many. Pieces whose slots lie side by
 * side (not across the inbox's last slot) travel as one message carrying their tokens. Over UCX
 * on TCP that costs less than a pull's token, get and token back (bench/README.md, "Pushes of two
 * slots"). */
#define SHMEMI_EAGER_PIECES 2
/* The inboxes take at most this much of the internal segment (fewer bytes per slot at scale). */
#define SHMEMI_EAGER_TOTAL_BYTES ((size_t)16 << 20)
static char *inbox;
static size_t eager_bytes;
static uint64_t *credits;
/* Private, per lane and peer: eager pushes sent, and pushes received and freed; of the freed, those
 * whose credits have not gone back to the sender yet, taken atomically: a token of another
 * channel, sent by another thread, may carry them. */
static uint64_t *eager_sent;
static uint64_t *eager_freed;
static uint64_t *eager_owed;

/* This PE's counter of credits on lane: the word that the PEs it pushes to add to, at the same
 * address on every PE. */
static uint64_t *credit_word(int lane) {
    return &credits[(size_t)lane * (size_t)shmemi_state.n_pes + (size_t)shmemi_state.my_pe];
}

static int eager_lane(int channel) {
    if (channel == SHMEMI_TEAM_WORLD_SLOT)
        return 0;
    return channel == SHMEMI_CHANNEL_ACTIVE_SET ? 1 : -1;
}

/* Slot k of the inbox for sender pe on lane; the same offset on every PE. */
static char *inbox_slot(int lane, int pe, uint64_t k) {
    size_t index = ((size_t)lane * (size_t)shmemi_state.n_pes + (size_t)pe) * SHMEMI_EAGER_SLOTS +
                   (size_t)(k % SHMEMI_EAGER_SLOTS);
    return inbox + index * eager_bytes;
}

int shmemi_coll_net_member(const shmemi_team_state_t *t, int index) {
    return peer_tokens[shmemi_team_world_pe(t, index)] == NULL;
}

size_t shmemi_coll_eager_limit(const shmemi_team_state_t *t) {
    return eager_lane(t->channel) < 0 ? 0 : SHMEMI_EAGER_PIECES * eager_bytes;
}

/* The bytes of the piece of a push of len bytes that starts at off: a slot's, or what is left. */
static size_t eager_piece(size_t len, size_t off) {
    return len - off < eager_bytes ? len - off : eager_bytes;
}

/* len bytes of src into pe's copy of symmetric addr (its inbox), then n tokens on channel (after
 * the data), on the tokens' network context; src may be reused at return. */
static void net_put_tokens(const char *call, int channel, int pe, const void *addr, const void *src,
                           size_t len, unsigned n) {
    size_t me = (size_t)shmemi_state.my_pe, slot = (size_t)channel * (size_t)shmemi_state.n_pes;
    tokens_sent[slot + (size_t)pe] += n;
    /* As for a token alone: what this PE stored before is visible to pe after the token. */
    net_signal(call, pe, addr, src, len, &tokens[slot + me], n, 1);
}

void shmemi_coll_push_eager(const char *call, const shmemi_team_state_t *t, int index,
                            const void *src, size_t len) {
    int pe = shmemi_team_world_pe(t, index), lane = eager_lane(t->channel);
    size_t at = (size_t)lane * (size_t)shmemi_state.n_pes + (size_t)pe, off = 0;
    do {
        /* The pieces left, as far as they lie side by side in the inbox (up to its last slot),
         * go in one message with one token each: the receiver takes them piece by piece. They
         * fill slots k to k + n - 1, the last only once q has freed piece k + n - 1 - SLOTS,
         * i.e. reported k + n - SLOTS credits (a receiver that freed all k pieces before has
         * reported at least k - CREDIT_BATCH + 1 >= k + n - SLOTS of them: no stall). */
        uint64_t k = eager_sent[at];
        size_t left = len - off, pieces = left == 0 ? 1 : (left + eager_bytes - 1) / eager_bytes;
        size_t room = SHMEMI_EAGER_SLOTS - (size_t)(k % SHMEMI_EAGER_SLOTS);
        unsigned n = (unsigned)(pieces < room ? pieces : room);
        size_t bytes = left < n * eager_bytes ? left : n * eager_bytes;
        if (k + n > SHMEMI_EAGER_SLOTS)
            counter_wait(&credits[at], k + n - SHMEMI_EAGER_SLOTS, pe);
        eager_sent[at] = k + n;
        net_put_tokens(call, t->channel, pe, inbox_slot(lane, shmemi_state.my_pe, k),
                       (const char *)src + off, bytes, n);
        off += bytes;
    } while (off < len);
}

/* The next piece pushed by member index, once it is there. */
static const void *eager_wait(const shmemi_team_state_t *t, int index) {
    int pe = shmemi_team_world_pe(t, index), lane = eager_lane(t->channel);
    shmemi_token_wait(t, index);
    return inbox_slot(lane, pe,
                      eager_freed[(size_t)lane * (size_t)shmemi_state.n_pes + (size_t)pe]);
}

/* The credits this PE owes pe on one lane (the first that owes any), taken: the caller returns
 * them to *word_p at pe. 0 when it owes none. Acquires the copies out of their slots, which the
 * freeing thread released. */
static uint64_t credits_take(int pe, uint64_t **word_p) {
    size_t n = (size_t)shmemi_state.n_pes;
    for (size_t lane = 0; lane < SHMEMI_EAGER_LANES; lane++) {
        uint64_t *owed = &eager_owed[lane * n + (size_t)pe];
        if (__atomic_load_n(owed, __ATOMIC_RELAXED) == 0)
            continue;
        uint64_t count = __atomic_exchange_n(owed, 0, __ATOMIC_ACQ_REL);
        if (count != 0) {
            *word_p = credit_word((int)lane);
            return count;
        }
    }
    return 0;
}

/* Frees the slot of the piece eager_wait returned (its copy out is complete); returns the credits
 * owed to its sender in a message of their own once they make a batch. */
static void eager_release(const shmemi_team_state_t *t, int index) {
    static const char call[] = "shmem collective";
    int pe = shmemi_team_world_pe(t, index), lane = eager_lane(t->channel);
    size_t at = (size_t)lane * (size_t)shmemi_state.n_pes + (size_t)pe;
    eager_freed[at]++;
    if (__atomic_add_fetch(&eager_owed[at], 1, __ATOMIC_ACQ_REL) < SHMEMI_EAGER_CREDIT_BATCH)
        return;
    uint64_t count = __atomic_exchange_n(&eager_owed[at], 0, __ATOMIC_ACQ_REL);
    if (count != 0)
        net_signal(call, pe, NULL, NULL, 0, credit_word(lane), count, 0);
}

void shmemi_coll_eager_recv(const shmemi_team_state_t *t, int index, void *dest, size_t len,
                            shmemi_reduce_func_t op, size_t elem_size) {
    size_t off = 0;
    do {
        size_t piece = eager_piece(len, off);
        /* A slot holds a multiple of 64 bytes, so a piece holds whole elements. */
        if (op)
            op((char *)dest + off, eager_wait(t, index), piece / elem_size);
        else
            memcpy((char *)dest + off, eager_wait(t, index), piece);
        eager_release(t, index);
        off += piece;
    } while (off < len);
}

static void barrier_flat(const shmemi_team_state_t *t) {
    int n = t->size, r = t->my_index;
    for (int d = 1; d < n; d <<= 1) {
        shmemi_token_send(t, (r + d) % n);
        shmemi_token_wait(t, (r - d + n) % n);
    }
}

void shmemi_team_barrier(const shmemi_team_state_t *t) {
    shmemi_coll_hier_t h;
    shmemi_coll_hier("shmem collective", t, -1, &h);
    if (!h.active) {
        barrier_flat(t);
        return;
    }
    /* Every member of the node has arrived, then every leader, then the leader tells its node. */
    barrier_flat(&h.local);
    if (h.is_leader)
        barrier_flat(&h.leaders);
    barrier_flat(&h.local);
    shmemi_coll_hier_free(&h);
}

int shmemi_coll_all_net(const shmemi_team_state_t *t) {
    if (t->size < 2 || shmemi_transport_net == NULL)
        return 0;
    if (!shmemi_route_p2p)
        return 1;
    /* The same answer on every member: from the route table's nodes, not from this PE's view. */
    unsigned char *seen = calloc((size_t)shmemi_n_nodes, 1);
    if (seen == NULL)
        shmemi_fatal("shmem collective", "out of memory for the nodes of a team of %d PEs",
                     t->size);
    int distinct = 1;
    for (int i = 0; i < t->size && distinct; i++) {
        int node = shmemi_routes[shmemi_team_world_pe(t, i)].node;
        distinct = !seen[node];
        seen[node] = 1;
    }
    free(seen);
    return distinct;
}

void shmemi_coll_push_all(const char *call, const shmemi_team_state_t *t, char *dest,
                          const shmemi_coll_block_t *out, const shmemi_coll_block_t *in) {
    int n = t->size, me = t->my_index;
    for (int s = 1; s < n; s++) {
        int j = (me + s) % n;
        if (out[j].len != 0)
            shmemi_coll_push_eager(call, t, j, out[j].src, out[j].len);
    }
    for (int s = 1; s < n; s++) {
        int j = (me - s + n) % n;
        if (in[j].len == 0)
            continue;
        shmemi_coll_eager_recv(t, j, dest + in[j].at, in[j].len, NULL, 1);
    }
}

/* ---- argument checks ------------------------------------------------------------------------ */

void shmemi_coll_check_host_memory(const char *call, const void *addr) {
    if (__builtin_expect(shmemi_local_on_device(addr), 0))
        shmemi_fatal(call, "address %p is in GPU memory, which host code cannot load or store",
                     addr);
}

void *shmemi_coll_peer(const char *call, const shmemi_team_state_t *t, const void *addr,
                       int index) {
    shmemi_coll_check_host_memory(call, addr);
    int pe = shmemi_team_world_pe(t, index);
    if (pe == shmemi_state.my_pe)
        return (void *)(uintptr_t)addr;
    void *p = shmemi_ptr(addr, pe);
    if (p == NULL && !shmemi_routes[pe].mapped)
        return NULL;
    if (p == NULL)
        shmemi_fatal(call,
                     "address %p is not symmetric (a stack or heap variable?), needed on PE %d",
                     addr, pe);
    return p;
}

/* The network path of a collective's read: a blocking get on the default context. */
static void net_get(const char *call, void *dest, const void *addr, size_t len, int pe) {
    int seg;
    size_t offset;
    const shmemi_transport_ops_t *ops = shmemi_route_transport(call, addr, pe, 0, &seg, &offset);
    shmemi_status_t st = ops->get(shmemi_net_ctx_default, dest, seg, offset, len, pe);
    if (st != SHMEMI_OK)
        net_failed(call, ops, st, pe);
}

/* Nonzero while this thread has gets in flight on the network (shmemi_coll_get_nbi). */
static __thread int gets_pending;

void shmemi_coll_get_nbi(const char *call, const shmemi_team_state_t *t, void *dest,
                         const void *addr, size_t len, int index) {
    if (len == 0)
        return;
    const void *p = shmemi_coll_peer(call, t, addr, index);
    if (p != NULL) {
        memcpy(dest, p, len);
        return;
    }
    int pe = shmemi_team_world_pe(t, index), seg;
    size_t offset;
    const shmemi_transport_ops_t *ops = shmemi_route_transport(call, addr, pe, 0, &seg, &offset);
    shmemi_status_t st = ops->get_nbi(shmemi_net_ctx_default, dest, seg, offset, len, pe);
    if (st != SHMEMI_OK)
        net_failed(call, ops, st, pe);
    gets_pending = 1;
}

void shmemi_coll_get_wait(const char *call) {
    if (!gets_pending)
        return;
    gets_pending = 0;
    shmemi_status_t st = shmemi_transport_net->quiet(shmemi_net_ctx_default);
    if (st != SHMEMI_OK)
        shmemi_fatal(call, "transport %s failed to complete gets (status %d)",
                     shmemi_transport_net->name, (int)st);
}

void shmemi_coll_get(const char *call, const shmemi_team_state_t *t, void *dest, const void *addr,
                     size_t len, int index) {
    if (len == 0)
        return;
    const void *p = shmemi_coll_peer(call, t, addr, index);
    if (p != NULL)
        memcpy(dest, p, len);
    else
        net_get(call, dest, addr, len, shmemi_team_world_pe(t, index));
}

const void *shmemi_coll_read(const char *call, const shmemi_team_state_t *t, const void *addr,
                             size_t len, int index, shmemi_coll_scratch_t *scratch) {
    const void *p = shmemi_coll_peer(call, t, addr, index);
    if (p != NULL)
        return p;
    if (scratch->size < len) {
        void *grown = realloc(scratch->buf, len);
        if (grown == NULL)
            shmemi_fatal(call, "out of memory for a %zu-byte copy of PE %d's data", len,
                         shmemi_team_world_pe(t, index));
        scratch->buf = grown;
        scratch->size = len;
    }
    net_get(call, scratch->buf, addr, len, shmemi_team_world_pe(t, index));
    return scratch->buf;
}

void shmemi_team_check_index(const char *call, const shmemi_team_state_t *t, int index,
                             const char *what) {
    if (index < 0 || index >= t->size)
        shmemi_fatal(call, "%s %d is not a member index of a team of %d PEs", what, index, t->size);
}

void shmemi_coll_check_overlap(const char *call, const void *a, size_t alen, const void *b,
                               size_t blen, int same_ok) {
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    if (alen == 0 || blen == 0 || (same_ok && a0 == b0))
        return;
    if (a0 < b0 + blen && b0 < a0 + alen)
        shmemi_fatal(call, "dest [%p, +%zu) and source [%p, +%zu) overlap", a, alen, b, blen);
}

void shmemi_coll_check_symmetric(const char *call, const void *addr, const char *what) {
    size_t offset;
    if (__builtin_expect(shmemi_segment_of(addr, &offset) < 0, 0))
        shmemi_fatal(call,
                     "%s %p is not symmetric: it must be on the symmetric heap (shmem_malloc) or a "
                     "global or static variable, not on the stack or from malloc",
                     what, addr);
}

void shmemi_coll_exchange(const char *call, shmemi_team_state_t *t,
                          const int64_t in[SHMEMI_EXCHANGE_WORDS], int64_t *out) {
    int64_t *area;
    if (t->psync != NULL) {
        area = (int64_t *)t->psync;
    } else {
        /* Double buffer: exchange k + 2 writes this half only after every member passed the
         * barrier of exchange k + 1, so after every member read exchange k. */
        area = t->exchange_area + (t->exchange_count++ & 1u) * SHMEMI_EXCHANGE_WORDS;
    }
    for (int w = 0; w < SHMEMI_EXCHANGE_WORDS; w++)
        __atomic_store_n(&area[w], in[w], __ATOMIC_RELAXED);
    shmemi_team_barrier(t);
    /* The areas of members on other nodes are fetched all at once and waited for once: with one
     * blocking get at a time, each waited for a target that was itself waiting for a get of its
     * own (seconds at 16 PEs on 4 hosts of a 2-core machine). */
    for (int i = 0; i < t->size; i++) {
        const int64_t *remote = shmemi_coll_peer(call, t, area, i);
        if (remote == NULL) {
            shmemi_coll_get_nbi(call, t, &out[(size_t)i * SHMEMI_EXCHANGE_WORDS], area,
                                SHMEMI_EXCHANGE_WORDS * sizeof(int64_t), i);
            continue;
        }
        for (int w = 0; w < SHMEMI_EXCHANGE_WORDS; w++)
            out[(size_t)i * SHMEMI_EXCHANGE_WORDS + (size_t)w] =
                __atomic_load_n(&remote[w], __ATOMIC_RELAXED);
    }
    shmemi_coll_get_wait(call);
    if (t->psync != NULL) {
        shmemi_team_barrier(t);
        for (int w = 0; w < SHMEMI_EXCHANGE_WORDS; w++)
            __atomic_store_n(&area[w], SHMEM_SYNC_VALUE, __ATOMIC_RELAXED);
    }
}

void shmemi_coll_agree(const char *call, shmemi_team_state_t *t, const int64_t args[3],
                       const char *const names[3]) {
    if (!shmemi_state.debug || t->size == 1)
        return;
    int64_t in[SHMEMI_EXCHANGE_WORDS] = {(int64_t)shmemi_fnv1a(call, strlen(call)), args[0],
                                         args[1], args[2]};
    int64_t *all = malloc((size_t)t->size * SHMEMI_EXCHANGE_WORDS * sizeof(int64_t));
    if (all == NULL)
        shmemi_fatal(call, "out of memory checking arguments of %d PEs", t->size);
    shmemi_coll_exchange(call, t, in, all);
    for (int i = 1; i < t->size; i++) {
        int pe = shmemi_team_world_pe(t, i), pe0 = shmemi_team_world_pe(t, 0);
        if (all[(size_t)i * SHMEMI_EXCHANGE_WORDS] != all[0]) {
            /* Another routine: its name is not known here, only that it differs. */
            free(all);
            shmemi_fatal(call,
                         "mismatched collective routines: PE %d called a different collective "
                         "on this team than PE %d (this PE called %s)",
                         pe, pe0, call);
        }
        for (int w = 1; w < SHMEMI_EXCHANGE_WORDS; w++) {
            if (names[w - 1] == NULL)
                continue;
            int64_t mine = all[(size_t)i * SHMEMI_EXCHANGE_WORDS + (size_t)w], first = all[w];
            if (mine != first) {
                free(all);
                shmemi_fatal(call,
                             "mismatched collective arguments: PE %d passed %s %lld, PE %d "
                             "passed %lld",
                             pe, names[w - 1], (long long)mine, pe0, (long long)first);
            }
        }
    }
    free(all);
}

void shmemi_coll_check(const char *call, shmemi_team_state_t *t, int64_t count, int64_t root) {
    static const char *const names[3] = {"count", "root", NULL};
    static const char *const names_no_count[3] = {NULL, "root", NULL};
    int64_t args[3] = {count, root, 0};
    shmemi_coll_agree(call, t, args, count < 0 ? names_no_count : names);
}

/* ---- team handles --------------------------------------------------------------------------- */

static shmemi_team_state_t *team_lookup(shmem_team_t team) {
    uintptr_t h = (uintptr_t)team;
    if (h == 0 || h > SHMEMI_TEAM_SLOTS || !shmemi_teams[h - 1].in_use)
        return NULL;
    return &shmemi_teams[h - 1];
}

static shmem_team_t team_handle(const shmemi_team_state_t *t) {
    return (shmem_team_t)(uintptr_t)(t - shmemi_teams + 1);
}

shmemi_team_state_t *shmemi_team_get(const char *call, shmem_team_t team) {
    shmemi_check_init(call);
    shmemi_watch_call(call);
    shmemi_team_state_t *t = team_lookup(team);
    if (t == NULL) {
        if (team == SHMEM_TEAM_INVALID)
            shmemi_fatal(call, "team is SHMEM_TEAM_INVALID");
        shmemi_fatal(call, "team handle %p names no team (destroyed, or never created)",
                     (void *)team);
    }
    return t;
}

void shmemi_team_active_set(const char *call, int PE_start, int logPE_stride, int PE_size,
                            long *pSync, shmemi_team_state_t *t) {
    shmemi_check_init(call);
    shmemi_watch_call(call);
    int n = shmemi_state.n_pes;
    if (logPE_stride < 0 || logPE_stride > 30 || PE_size < 1 || PE_start < 0 ||
        (long long)PE_start + ((long long)PE_size - 1) * (1LL << logPE_stride) >= n)
        shmemi_fatal(call,
                     "active set PE_start %d, logPE_stride %d, PE_size %d does not fit in %d PEs",
                     PE_start, logPE_stride, PE_size, n);
    int stride = 1 << logPE_stride, offset = shmemi_state.my_pe - PE_start;
    if (offset < 0 || offset % stride != 0 || offset / stride >= PE_size)
        shmemi_fatal(call,
                     "the calling PE is not in the active set PE_start %d, logPE_stride %d, "
                     "PE_size %d",
                     PE_start, logPE_stride, PE_size);
    if (pSync == NULL)
        shmemi_fatal(call, "pSync is NULL");
    if (shmemi_local_on_device(pSync))
        shmemi_fatal(call,
                     "pSync %p is in GPU memory; the host routines need it in host memory (a "
                     "global or static array)",
                     (void *)pSync);
    memset(t, 0, sizeof(*t));
    t->in_use = 1;
    t->channel = SHMEMI_CHANNEL_ACTIVE_SET;
    t->start = PE_start;
    t->stride = stride;
    t->size = PE_size;
    t->my_index = offset / stride;
    t->psync = pSync;
}

int shmem_team_my_pe(shmem_team_t team) {
    shmemi_check_init("shmem_team_my_pe");
    shmemi_team_state_t *t = team_lookup(team);
    return t ? t->my_index : -1;
}

int shmem_team_n_pes(shmem_team_t team) {
    shmemi_check_init("shmem_team_n_pes");
    shmemi_team_state_t *t = team_lookup(team);
    return t ? t->size : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config) {
    shmemi_check_init("shmem_team_get_config");
    shmemi_team_state_t *t = team_lookup(team);
    if (t == NULL)
        return -1;
    if (config == NULL)
        shmemi_fatal("shmem_team_get_config", "config is NULL");
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = t->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
    shmemi_check_init("shmem_team_translate_pe");
    shmemi_team_state_t *src = team_lookup(src_team), *dst = team_lookup(dest_team);
    if (src == NULL || dst == NULL || src_pe < 0 || src_pe >= src->size)
        return -1;
    int offset = shmemi_team_world_pe(src, src_pe) - dst->start;
    if (dst->stride == 0)
        return offset == 0 ? 0 : -1;
    if (offset % dst->stride != 0 || offset / dst->stride < 0 || offset / dst->stride >= dst->size)
        return -1;
    return offset / dst->stride;
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe) {
    shmemi_check_init("shmem_team_ptr");
    shmemi_team_state_t *t = team_lookup(team);
    if (t == NULL || pe < 0 || pe >= t->size)
        return NULL;
    return shmemi_ptr(dest, shmemi_team_world_pe(t, pe));
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx) {
    static const char call[] = "shmem_team_create_ctx";
    shmemi_check_init(call);
    if (ctx == NULL)
        shmemi_fatal(call, "ctx is NULL");
    shmemi_team_state_t *t = team_lookup(team);
    if (t == NULL) {
        *ctx = SHMEM_CTX_INVALID;
        return -1;
    }
    /* The world team is the context layer's NULL team, which takes its fast path. */
    struct shmemi_team *handle = team == SHMEM_TEAM_WORLD ? NULL : team;
    return shmemi_ctx_create(call, options, handle, t->start, t->stride, t->size, ctx) == SHMEMI_OK
               ? 0
               : -1;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team) {
    static const char call[] = "shmem_ctx_get_team";
    shmemi_check_init(call);
    if (team == NULL)
        shmemi_fatal(call, "team is NULL");
    const struct shmemi_ctx *c = shmemi_ctx_find(ctx);
    if (c == NULL) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = c->team == NULL ? SHMEM_TEAM_WORLD : c->team;
    return 0;
}

static void team_init_slot(int slot, int start, int stride, int size, int my_index,
                           const shmem_team_config_t *config, long config_mask) {
    shmemi_team_state_t *t = &shmemi_teams[slot];
    memset(t, 0, sizeof(*t));
    t->in_use = 1;
    t->channel = slot;
    t->start = start;
    t->stride = stride;
    t->size = size;
    t->my_index = my_index;
    t->config_mask = config_mask;
    if (config != NULL && (config_mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config.num_contexts = config->num_contexts;
    t->exchange_area = exchange_base + (size_t)slot * 2 * SHMEMI_EXCHANGE_WORDS;
}

/* Agree with every member of parent on `want` slots free everywhere: one exchange of the free
 * bitmaps. Returns 0 and fills slots, or -1 when too few are free (the same answer on every PE). */
static int team_agree_slots(const char *call, shmemi_team_state_t *parent, int want, int *slots) {
    uint64_t free_mask = 0;
    for (int s = 0; s < SHMEMI_TEAM_SLOTS; s++)
        if (!shmemi_teams[s].in_use)
            free_mask |= 1ull << s;
    int64_t in[SHMEMI_EXCHANGE_WORDS] = {(int64_t)free_mask, 0, 0, 0};
    int64_t *all = malloc((size_t)parent->size * SHMEMI_EXCHANGE_WORDS * sizeof(int64_t));
    if (all == NULL)
        shmemi_fatal(call, "out of memory for a team split over %d PEs", parent->size);
    shmemi_coll_exchange(call, parent, in, all);
    for (int i = 0; i < parent->size; i++)
        free_mask &= (uint64_t)all[(size_t)i * SHMEMI_EXCHANGE_WORDS];
    free(all);
    for (int k = 0; k < want; k++) {
        if (free_mask == 0)
            return -1;
        slots[k] = __builtin_ctzll(free_mask);
        free_mask &= free_mask - 1;
    }
    return 0;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team) {
    static const char call[] = "shmem_team_split_strided";
    shmemi_check_init(call);
    if (new_team == NULL)
        shmemi_fatal(call, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    shmemi_team_state_t *parent = team_lookup(parent_team);
    if (parent == NULL)
        return -1;
    /* First, so that members that passed different triplets are reported instead of some
     * returning -1 below while the others wait for them. */
    static const char *const names[3] = {"start", "stride", "size"};
    shmemi_coll_agree(call, parent, (const int64_t[3]){start, stride, size}, names);
    long long last = (long long)start + ((long long)size - 1) * stride;
    if (size < 1 || start < 0 || start >= parent->size || last < 0 || last >= parent->size ||
        (stride == 0 && size > 1)) {
        /* Every member passed the same triplet, so every member fails alike: no hang. */
        shmemi_debug_log("%s: start %d, stride %d, size %d select no team of a parent of %d PEs",
                         call, start, stride, size, parent->size);
        return -1;
    }
    int slot;
    if (team_agree_slots(call, parent, 1, &slot) != 0)
        return -1;
    int offset = parent->my_index - start, index = -1;
    if (stride == 0)
        index = offset == 0 ? 0 : -1;
    else if (offset % stride == 0 && offset / stride >= 0 && offset / stride < size)
        index = offset / stride;
    if (index >= 0) {
        team_init_slot(slot, shmemi_team_world_pe(parent, start), parent->stride * stride, size,
                       index, config, config_mask);
        *new_team = team_handle(&shmemi_teams[slot]);
    }
    return 0;
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team) {
    static const char call[] = "shmem_team_split_2d";
    shmemi_check_init(call);
    if (xaxis_team == NULL || yaxis_team == NULL)
        shmemi_fatal(call, "xaxis_team or yaxis_team is NULL");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    shmemi_team_state_t *parent = team_lookup(parent_team);
    if (parent == NULL)
        return -1;
    static const char *const names[3] = {"xrange", NULL, NULL};
    shmemi_coll_agree(call, parent, (const int64_t[3]){xrange, 0, 0}, names);
    if (xrange < 1) {
        shmemi_debug_log("%s: xrange %d is not positive", call, xrange);
        return -1;
    }
    int n = parent->size, me = parent->my_index;
    if (xrange > n)
        xrange = n;
    int slots[2];
    if (team_agree_slots(call, parent, 2, slots) != 0)
        return -1;
    /* Rows of xrange consecutive members; the last row may be short. Columns stride xrange. */
    int row = me / xrange, col = me % xrange;
    int row_size = n - row * xrange < xrange ? n - row * xrange : xrange;
    int col_size = (n - col + xrange - 1) / xrange;
    team_init_slot(slots[0], shmemi_team_world_pe(parent, row * xrange), parent->stride, row_size,
                   col, xaxis_config, xaxis_mask);
    team_init_slot(slots[1], shmemi_team_world_pe(parent, col), parent->stride * xrange, col_size,
                   row, yaxis_config, yaxis_mask);
    *xaxis_team = team_handle(&shmemi_teams[slots[0]]);
    *yaxis_team = team_handle(&shmemi_teams[slots[1]]);
    return 0;
}

void shmem_team_destroy(shmem_team_t team) {
    static const char call[] = "shmem_team_destroy";
    shmemi_check_init(call);
    if (team == SHMEM_TEAM_INVALID)
        return;
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
        shmemi_fatal(call, "the predefined teams cannot be destroyed");
    shmemi_team_state_t *t = shmemi_team_get(call, team);
    shmemi_coll_check(call, t, -1, -1);
    shmemi_ctx_destroy_team(call, team);
    /* Every member has finished reading this slot's exchange area before it is reused. */
    shmemi_team_barrier(t);
    t->in_use = 0;
}

/* ---- set-up --------------------------------------------------------------------------------- */

/* The collective settings, checked by shmem_init against the env table (core/env.c) and compared
 * across PEs there: each enum lists its variable's choices in the table's order. */
static void coll_read_env(void) {
    shmemi_coll_config.bcast = (shmemi_bcast_algorithm_t)shmemi_env_choice("SHMEM_BCAST_ALGORITHM");
    shmemi_coll_config.collect =
        (shmemi_collect_algorithm_t)shmemi_env_choice("SHMEM_COLLECT_ALGORITHM");
    shmemi_coll_config.reduce =
        (shmemi_reduce_algorithm_t)shmemi_env_choice("SHMEM_REDUCE_ALGORITHM");
    shmemi_coll_config.reduce_large_bytes = shmemi_env_size("SHMEM_REDUCE_LARGE_SIZE");
    shmemi_coll_config.bcast_chunk_bytes = shmemi_env_size("SHMEM_BCAST_CHUNK_SIZE");
    shmemi_coll_config.hierarchy = strcmp(shmemi_env_get("SHMEM_COLL_HIERARCHY"), "auto") == 0;
    shmemi_scan_algorithm = (shmemi_scan_algorithm_t)shmemi_env_choice("SHMEM_SCAN_ALGORITHM");
}

static shmemi_status_t coll_init(void) {
    size_t n = (size_t)shmemi_state.n_pes;
    int me = shmemi_state.my_pe;
    coll_read_env();
    tokens = shmemi_internal_alloc(SHMEMI_N_CHANNELS * n * sizeof(uint64_t), 64);
    exchange_base =
        shmemi_internal_alloc(SHMEMI_TEAM_SLOTS * 2 * SHMEMI_EXCHANGE_WORDS * sizeof(int64_t), 64);
    tokens_sent = calloc(SHMEMI_N_CHANNELS * n, sizeof(uint64_t));
    tokens_consumed = calloc(SHMEMI_N_CHANNELS * n, sizeof(uint64_t));
    peer_tokens = calloc(n, sizeof(uint64_t *));
    /* The same n on every PE, so the same sizes and offsets. */
    eager_bytes =
        SHMEMI_EAGER_TOTAL_BYTES / (SHMEMI_EAGER_LANES * SHMEMI_EAGER_SLOTS * n) / 64 * 64;
    if (eager_bytes > SHMEMI_EAGER_MAX_BYTES)
        eager_bytes = SHMEMI_EAGER_MAX_BYTES;
    inbox =
        eager_bytes == 0
            ? NULL
            : shmemi_internal_alloc(SHMEMI_EAGER_LANES * SHMEMI_EAGER_SLOTS * n * eager_bytes, 64);
    credits = shmemi_internal_alloc(SHMEMI_EAGER_LANES * n * sizeof(uint64_t), 64);
    eager_sent = calloc(SHMEMI_EAGER_LANES * n, sizeof(uint64_t));
    eager_freed = calloc(SHMEMI_EAGER_LANES * n, sizeof(uint64_t));
    eager_owed = calloc(SHMEMI_EAGER_LANES * n, sizeof(uint64_t));
    if (tokens == NULL || exchange_base == NULL || tokens_sent == NULL || tokens_consumed == NULL ||
        peer_tokens == NULL || (eager_bytes > 0 && inbox == NULL) || credits == NULL ||
        eager_sent == NULL || eager_freed == NULL || eager_owed == NULL)
        return SHMEMI_ERR_NOMEM;
    memset(tokens, 0, SHMEMI_N_CHANNELS * n * sizeof(uint64_t));
    memset(credits, 0, SHMEMI_EAGER_LANES * n * sizeof(uint64_t));
    memset(exchange_base, 0, SHMEMI_TEAM_SLOTS * 2 * SHMEMI_EXCHANGE_WORDS * sizeof(int64_t));
    /* SHMEM_TEAM_SHARED: the PEs whose memory this PE maps (its node's), when they form a
     * strided range, as a team needs; else this PE alone. */
    int shared_start = -1, shared_stride = 0, shared_size = 0, shared_me = 0, strided = 1;
    for (size_t pe = 0; pe < n; pe++) {
        peer_tokens[pe] = (int)pe == me ? tokens : shmemi_ptr(tokens, (int)pe);
        if (peer_tokens[pe] == NULL)
            continue;
        if (shared_size == 1)
            shared_stride = (int)pe - shared_start;
        else if (shared_size > 1)
            strided &= (int)pe == shared_start + shared_size * shared_stride;
        if ((int)pe == me)
            shared_me = shared_size;
        if (shared_size++ == 0)
            shared_start = (int)pe;
    }
    shmemi_status_t rc = shmemi_relax_init();
    if (rc != SHMEMI_OK)
        return rc;
    memset(shmemi_teams, 0, sizeof(shmemi_teams));
    team_init_slot(SHMEMI_TEAM_WORLD_SLOT, 0, 1, (int)n, me, NULL, 0);
    if (strided && shared_size > 1)
        team_init_slot(SHMEMI_TEAM_SHARED_SLOT, shared_start, shared_stride, shared_size, shared_me,
                       NULL, 0);
    else
        team_init_slot(SHMEMI_TEAM_SHARED_SLOT, me, 1, 1, 0, NULL, 0);
    /* No token may arrive before every PE cleared its counters. */
    return shmemi_bootstrap->barrier();
}

static void coll_finalize(void) {
    shmemi_relax_finalize();
    free(tokens_sent);
    free(tokens_consumed);
    free(peer_tokens);
    free(eager_sent);
    free(eager_freed);
    free(eager_owed);
    tokens_sent = tokens_consumed = eager_sent = eager_freed = eager_owed = NULL;
    peer_tokens = NULL;
    inbox = NULL;
    credits = NULL;
    tokens = NULL;
    exchange_base = NULL;
    memset(shmemi_teams, 0, sizeof(shmemi_teams));
}

static const shmemi_module_t coll_module = {"teams and collectives", 20, coll_init, coll_finalize};

__attribute__((constructor)) static void coll_register(void) {
    shmemi_module_register(&coll_module);
}
