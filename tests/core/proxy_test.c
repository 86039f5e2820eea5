/* SPDX-License-Identifier: BSD-3-Clause */
/* The proxy ring against the library's consumer (src/core/proxy.c), with host producer threads
 * (proxy_producer.h) in place of a kernel's. A small ring (8 slots of 64 bytes) makes every
 * operation wrap it, fill it and split into pieces. Per PE, at the same time:
 *  - thread 0: puts of random sizes and offsets to every PE, checked by reading them back after
 *    the barrier; gets of every PE's random pattern; fetch-adds on every PE's counter (its fetched
 *    values only grow); then every AMO, 32 and 64 bit, fetching and not, against a model;
 *  - thread 1: put-with-signal rounds (a payload of 1 byte to two batches of pieces, then signal
 *    ADD 1; every third one, as a kernel's thread sends a large one, a PUT_FROM of all but the
 *    last 8 bytes before them) that the target's main thread checks when it sees the signal;
 *  - thread 2: rounds of put (the round number), fence, AMO set of a flag (round + 1): a target
 *    that sees flag v must see a round number of at least v - 1;
 *  - thread 3: the puts and gets of thread 0 on a context of its own, completed by quiet on it.
 * Modes (argv[1]): "all" (the above; argv[2] sets the rounds of threads 0 and 3, 200), "ctx"
 * (contexts that complete independently, over the recording transport: run_contexts), "fence"
 * (a fence orders AMOs over the network before load/store puts: run_fence_mapped), "badpe" (a
 * command to PE 99), "badbatch" (a batch whose second piece does not continue the put of its
 * first), "shortbatch" (a batch whose first piece, not its last, leaves its slot part empty),
 * "badop" (an unknown command), "badfrom" (a PUT_FROM without its source), "badctx" (a
 * context field that is no context), "deadctx" (a destroyed context), "abandon" (a ticket taken
 * and never written), "sendfail" (a put the recording transport fails after its start), "stuck"
 * (the proxy stopped while a started put never ends): the failure modes end the job with the
 * consumer's message; "crossed" (run_crossed); "started" (run_started); "stopped"
 * (run_stopped). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem.h>
#include <shmem/device/impl/proxy__types.h>
#include <shmem/impl/ctx__types.h>

#include "proxy_producer.h"
#include "proxy_recorder.h"

#define SLOTS 8
#define CHUNK 64
#define REGION 512   /* bytes of inbox per (source PE, thread) */
#define PATTERN 1024 /* bytes of every PE's pattern for gets */
#define SIG_ROUNDS 64
#define SIG_MAX (6 * CHUNK) /* bytes of a put-with-signal at most: two batches */
#define FENCE_ROUNDS 200
#define THREADS 4

static shmemt_proxy_t *proxy;
static int me, npes;
static int iters = 200;        /* argv[2]: put-get-fetch-add rounds of threads 0 and 3 */
static unsigned char *inbox;   /* [npes][THREADS][REGION] */
static unsigned char *pattern; /* [PATTERN] */
static uint64_t *counter;      /* fetch-adds of every PE's thread 0 and 3 */
static uint64_t *amo64;        /* [npes]: thread 0's AMO model words */
static uint32_t *amo32;        /* [npes] */
static unsigned char *sigbuf;  /* [npes][SIG_ROUNDS][SIG_MAX] */
static uint64_t *sig;          /* [npes] */
static uint64_t *fdata;        /* [npes] */
static uint64_t *fflag;        /* [npes] */
static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "PE %d: %s:%d: ", me, __FILE__, __LINE__);                             \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);                                    \
        }                                                                                          \
    } while (0)

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void fill(unsigned char *buf, size_t n, uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)next_rand(&s);
}

/* Thread 0 and 3: puts, gets, fetch-adds; the expected inbox regions at every PE in mirror. */
static void rma_rounds(int k, shmem_ctx_t ctx, unsigned char *mirror) {
    uint64_t s = 0x1234567ull * (uint64_t)(me * THREADS + k + 1);
    uint64_t *last_fetched = calloc((size_t)npes, sizeof(uint64_t));
    unsigned char buf[REGION], expect[PATTERN];
    for (int i = 0; i < iters; i++) {
        int pe = (me + 1 + i) % npes;
        size_t len = 1 + next_rand(&s) % REGION;
        size_t off = next_rand(&s) % (REGION - len + 1);
        unsigned char *mine = mirror + (size_t)pe * REGION;
        fill(mine + off, len, next_rand(&s));
        size_t at = ((size_t)me * THREADS + (size_t)k) * REGION + off;
        /* Every third put names its source (PUT_FROM, as a kernel's large put by one thread). */
        if (i % 3 == 1)
            shmemt_proxy_put_from(proxy, ctx, inbox + at, mine + off, len, pe);
        else
            shmemt_proxy_put(proxy, ctx, inbox + at, mine + off, len, pe);
        size_t glen = 1 + next_rand(&s) % (PATTERN / 2);
        size_t goff = next_rand(&s) % (PATTERN - glen + 1);
        shmemt_proxy_get(proxy, ctx, buf, pattern + goff, glen, pe);
        fill(expect, PATTERN, (uint64_t)pe + 1);
        CHECK(memcmp(buf, expect + goff, glen) == 0, "get of %zu bytes at %zu from PE %d", glen,
              goff, pe);
        uint64_t old =
            shmemt_proxy_amo(proxy, ctx, SHMEMI_PROXY_AMO_OP_ADD, counter, 1, 0, 8, 1, pe);
        CHECK(old >= last_fetched[pe], "fetch-add at PE %d went back: %llu after %llu", pe,
              (unsigned long long)old, (unsigned long long)last_fetched[pe]);
        last_fetched[pe] = old + 1;
        if (i % 17 == 0)
            shmemt_proxy_fence(proxy, ctx, pe);
        if (i % 29 == 0)
            shmemt_proxy_quiet(proxy, ctx);
    }
    shmemt_proxy_quiet(proxy, ctx);
    free(last_fetched);
}

/* Thread 0: every AMO on the words of this PE at the next PE, fetching and not, against a
 * model. */
static uint64_t amo_apply(uint32_t op, uint64_t old, uint64_t v, uint64_t cmp, uint64_t mask) {
    switch (op) {
    case SHMEMI_PROXY_AMO_OP_SET:
    case SHMEMI_PROXY_AMO_OP_SWAP:
        return v & mask;
    case SHMEMI_PROXY_AMO_OP_CSWAP:
        return old == cmp ? v & mask : old;
    case SHMEMI_PROXY_AMO_OP_ADD:
        return (old + v) & mask;
    case SHMEMI_PROXY_AMO_OP_AND:
        return old & v;
    case SHMEMI_PROXY_AMO_OP_OR:
        return (old | v) & mask;
    case SHMEMI_PROXY_AMO_OP_XOR:
        return (old ^ v) & mask;
    }
    return old;
}

static void amo_model(size_t size) {
    static const struct {
        uint32_t op;
        uint64_t v, cmp;
    } steps[] = {
        {SHMEMI_PROXY_AMO_OP_SET, 0x0123456789abcdefull, 0},
        {SHMEMI_PROXY_AMO_OP_SWAP, 77, 0},
        {SHMEMI_PROXY_AMO_OP_CSWAP, 5, 76},
        {SHMEMI_PROXY_AMO_OP_CSWAP, 5, 77},
        {SHMEMI_PROXY_AMO_OP_ADD, 0xfffffffffffffff0ull, 0},
        {SHMEMI_PROXY_AMO_OP_AND, 0xf0f0f0f0f0ull, 0},
        {SHMEMI_PROXY_AMO_OP_OR, 0x0f0f, 0},
        {SHMEMI_PROXY_AMO_OP_XOR, 0xffff, 0},
    };
    int pe = (me + 1) % npes;
    void *word = size == 8 ? (void *)&amo64[me] : (void *)&amo32[me];
    uint64_t mask = size == 8 ? ~0ull : 0xffffffffull, model = 0;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
            uint32_t op = steps[i].op;
            uint64_t v = steps[i].v & mask, cmp = steps[i].cmp & mask;
            /* The compared value of a CSWAP that must succeed is the model's. */
            if (op == SHMEMI_PROXY_AMO_OP_CSWAP && cmp == 77)
                cmp = model;
            int fetch = round == 0 && op != SHMEMI_PROXY_AMO_OP_SET;
            uint64_t got =
                shmemt_proxy_amo(proxy, SHMEM_CTX_DEFAULT, op, word, v, cmp, size, fetch, pe);
            CHECK(!fetch || got == model, "AMO op %u (%zu bytes) fetched %#llx, not %#llx", op,
                  size, (unsigned long long)got, (unsigned long long)model);
            model = amo_apply(op, model, v, cmp, mask);
            got = shmemt_proxy_amo(proxy, SHMEM_CTX_DEFAULT, SHMEMI_PROXY_AMO_OP_FETCH, word, 0, 0,
                                   size, 1, pe);
            CHECK(got == model, "after AMO op %u (%zu bytes, %s) the word is %#llx, not %#llx", op,
                  size, fetch ? "fetching" : "not fetching", (unsigned long long)got,
                  (unsigned long long)model);
        }
}

static unsigned char *mirrors[THREADS];

/* Round r's put-with-signal: 1 to SIG_MAX bytes, every piece count of one and two batches. */
static size_t sig_len(int r) {
    return 1 + ((size_t)r * 59) % SIG_MAX;
}

static void *producer(void *arg) {
    int k = (int)(intptr_t)arg;
    if (k == 0 || k == 3) {
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        if (k == 3 && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
            CHECK(0, "shmem_ctx_create failed");
            return NULL;
        }
        rma_rounds(k, ctx, mirrors[k]);
        if (k == 0) {
            amo_model(8);
            amo_model(4);
        }
        if (k == 3)
            shmem_ctx_destroy(ctx);
    } else if (k == 1) {
        for (int r = 0; r < SIG_ROUNDS; r++) {
            int pe = (me + 1 + r) % npes;
            unsigned char payload[SIG_MAX];
            fill(payload, sig_len(r), (uint64_t)(me * SIG_ROUNDS + r) + 7);
            size_t at = ((size_t)me * SIG_ROUNDS + (size_t)r) * SIG_MAX, len = sig_len(r);
            /* Every third round as a kernel's thread sends a large one from global memory: all
             * but its last 8 bytes as PUT_FROM, then those with the signal. */
            size_t from = r % 3 == 1 && len > 8 ? len - 8 : 0;
            if (from > 0)
                shmemt_proxy_put_from(proxy, SHMEM_CTX_DEFAULT, sigbuf + at, payload, from, pe);
            shmemt_proxy_put_signal(proxy, SHMEM_CTX_DEFAULT, sigbuf + at + from, payload + from,
                                    len - from, &sig[me], 1, SHMEMI_PROXY_AMO_OP_ADD, pe);
        }
        shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
    } else {
        for (int r = 0; r < FENCE_ROUNDS; r++) {
            int pe = (me + 1) % npes;
            uint64_t round = (uint64_t)r;
            shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, &fdata[me], &round, sizeof(round), pe);
            shmemt_proxy_fence(proxy, SHMEM_CTX_DEFAULT, pe);
            shmemt_proxy_amo(proxy, SHMEM_CTX_DEFAULT, SHMEMI_PROXY_AMO_OP_SET, &fflag[me],
                             round + 1, 0, 8, 0, pe);
        }
        shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
    }
    return NULL;
}

/* The main thread's side of threads 1 and 2 of the other PEs. */
static void check_arrivals(void) {
    /* Signals: PE src's round r comes here when (src + 1 + r) % npes == me; src fences after
     * each, so they arrive in order: once n signals from src are here, so are the payloads of its
     * first n rounds to this PE. */
    for (int src = 0; src < npes; src++) {
        unsigned char payload[SIG_MAX];
        uint64_t seen = 0;
        for (int r = 0; r < SIG_ROUNDS; r++) {
            if ((src + 1 + r) % npes != me)
                continue;
            shmem_uint64_wait_until(&sig[src], SHMEM_CMP_GE, ++seen);
            fill(payload, sig_len(r), (uint64_t)(src * SIG_ROUNDS + r) + 7);
            CHECK(memcmp(sigbuf + ((size_t)src * SIG_ROUNDS + (size_t)r) * SIG_MAX, payload,
                         sig_len(r)) == 0,
                  "signal %llu from PE %d (round %d, %zu bytes) arrived before its payload",
                  (unsigned long long)seen, src, r, sig_len(r));
        }
    }
    /* Fence: the previous PE's rounds. */
    int src = (me + npes - 1) % npes;
    for (uint64_t v = 1; v <= FENCE_ROUNDS; v++) {
        shmem_uint64_wait_until(&fflag[src], SHMEM_CMP_GE, v);
        uint64_t data = __atomic_load_n(&fdata[src], __ATOMIC_RELAXED);
        CHECK(data + 1 >= v, "fence: flag %llu seen with round %llu", (unsigned long long)v,
              (unsigned long long)data);
    }
}

static void run_all(void) {
    size_t inbox_bytes = (size_t)npes * THREADS * REGION;
    inbox = shmem_calloc(inbox_bytes, 1);
    pattern = shmem_malloc(PATTERN);
    counter = shmem_calloc(1, sizeof(uint64_t));
    amo64 = shmem_calloc((size_t)npes, sizeof(uint64_t));
    amo32 = shmem_calloc((size_t)npes, sizeof(uint32_t));
    sigbuf = shmem_calloc((size_t)npes * SIG_ROUNDS * SIG_MAX, 1);
    sig = shmem_calloc((size_t)npes, sizeof(uint64_t));
    fdata = shmem_calloc((size_t)npes, sizeof(uint64_t));
    fflag = shmem_calloc((size_t)npes, sizeof(uint64_t));
    fill(pattern, PATTERN, (uint64_t)me + 1);
    for (int k = 0; k < THREADS; k++)
        mirrors[k] = calloc((size_t)npes, REGION);
    shmem_barrier_all();

    pthread_t threads[THREADS];
    for (int k = 0; k < THREADS; k++)
        pthread_create(&threads[k], NULL, producer, (void *)(intptr_t)k);
    check_arrivals();
    for (int k = 0; k < THREADS; k++)
        pthread_join(threads[k], NULL);
    shmem_barrier_all();

    /* Read back what threads 0 and 3 put at every PE. */
    unsigned char *back = malloc(REGION);
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k < THREADS; k += 3) {
            shmem_getmem(back, inbox + ((size_t)me * THREADS + (size_t)k) * REGION, REGION, pe);
            CHECK(memcmp(back, mirrors[k] + (size_t)pe * REGION, REGION) == 0,
                  "thread %d's puts at PE %d differ", k, pe);
        }
    free(back);
    /* Threads 0 and 3 of every PE hit each PE iters / npes times, give or take one. */
    uint64_t expect = 0;
    for (int src = 0; src < npes; src++)
        for (int i = 0; i < iters; i++)
            expect += (src + 1 + i) % npes == me ? 2 : 0;
    CHECK(*counter == expect, "counter %llu, not %llu", (unsigned long long)*counter,
          (unsigned long long)expect);
    for (int k = 0; k < THREADS; k++)
        free(mirrors[k]);
}

/* ---- crossed put-with-signal: run_crossed ------------------------------------------------------
 * What a stream-ordered exchange does (a one-thread kernel puts with a signal to the next PE, the
 * next kernel waits for the own signal while the host thread waits for the stream): every PE
 * issues put-with-signal to the next PE through the proxy, then waits for the previous PE's
 * signal by polling memory outside the library, so that only the library's own threads (the
 * consumer, the progress thread) serve the peers. Each round checks the payload; a round that
 * does not finish within CROSSED_WAIT_S seconds fails instead of hanging. */
#define CROSSED_ROUNDS SIG_ROUNDS
#define CROSSED_WAIT_S 20

static void run_crossed(void) {
    sigbuf = shmem_calloc((size_t)npes * SIG_ROUNDS * CHUNK, 1);
    sig = shmem_calloc((size_t)npes, sizeof(uint64_t));
    shmem_barrier_all();
    const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
    unsigned char payload[CHUNK], want[CHUNK];
    for (int r = 0; r < CROSSED_ROUNDS && !failures; r++) {
        fill(payload, CHUNK, (uint64_t)(me * SIG_ROUNDS + r) + 11);
        shmemt_proxy_put_signal(proxy, SHMEM_CTX_DEFAULT,
                                sigbuf + ((size_t)me * SIG_ROUNDS + (size_t)r) * CHUNK, payload,
                                CHUNK, &sig[me], 1, SHMEMI_PROXY_AMO_OP_ADD, next);
        struct timespec start, now, nap = {0, 100000};
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (__atomic_load_n(&sig[prev], __ATOMIC_ACQUIRE) < (uint64_t)r + 1) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec - start.tv_sec > CROSSED_WAIT_S)
                break;
            nanosleep(&nap, NULL);
        }
        uint64_t got = __atomic_load_n(&sig[prev], __ATOMIC_ACQUIRE);
        CHECK(got >= (uint64_t)r + 1,
              "crossed round %d: PE %d's signal is %llu after %d s, expected %d (its "
              "put-with-signal through the proxy never arrived)",
              r, prev, (unsigned long long)got, CROSSED_WAIT_S, r + 1);
        fill(want, CHUNK, (uint64_t)(prev * SIG_ROUNDS + r) + 11);
        CHECK(got < (uint64_t)r + 1 ||
                  memcmp(sigbuf + ((size_t)prev * SIG_ROUNDS + (size_t)r) * CHUNK, want, CHUNK) ==
                      0,
              "crossed round %d: PE %d's signal arrived before its payload", r, prev);
    }
    shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
}

/* ---- contexts through the proxy: run_contexts ------------------------------------------------
 * Over the recording transport (proxy_recorder.h), where an operation is complete only once a
 * quiet of its own context delivered it, three threads of each PE issue on three contexts at
 * once to the next PE: A (SHMEM_CTX_PRIVATE) puts through the proxy, adds 1 to a counter, and puts
 * directly from the host on A; B (SHMEMX_CTX_BYPASS) puts and puts with a signal; D (the default
 * context) puts, and puts once more as two batches on adjacent tickets, which the consumer joins
 * into one operation (the pending counts say so). Each fences its context and reads its region back
 * through the proxy: nothing is delivered, each state saw one fence. Then, one phase each: a proxy
 * quiet on A delivers all of A's operations (the host's direct one too) and none of B's or D's; a
 * quiet on B then B's and not D's; a quiet on D then D's. The checks read the target's memory and
 * the transport's counts, so a quiet that reached the wrong context's state, or every state, fails
 * them whatever the timing. Last, puts on a context E still in the ring when shmem_ctx_destroy(E)
 * is called are complete when it returns. */
enum { CA, CB, CD, NCTX };
#define CTX_LEN 200             /* 4 pieces of at most CHUNK bytes */
#define ADJ_LEN (4 * CHUNK - 8) /* a put as two batches on adjacent tickets, joined into one */
#define DIRECT NCTX             /* the region of A's direct host put */
#define E_LEN (SLOTS * CHUNK)
static const char *const ctx_names[NCTX] = {"A (private)", "B (BYPASS)", "D (default)"};
static shmem_ctx_t cx[NCTX];
static unsigned char *cbuf;  /* [npes][NCTX + 1][CTX_LEN] by source PE */
static unsigned char *csbuf; /* [npes][CHUNK]: B's put-with-signal */
static uint64_t *ccount;     /* [npes]: A's adds */
static uint64_t *csig;       /* [npes]: B's signal */
static unsigned char *ebuf;  /* [npes][E_LEN] */
static unsigned char *abuf;  /* [npes][NCTX][ADJ_LEN] */
static uint64_t expect_pending[NCTX];
static shmemt_recorder_counts_t base[NCTX]; /* each context's counts before the test */
static pthread_barrier_t phase;

static unsigned char *cregion(int what) {
    return cbuf + ((size_t)me * (NCTX + 1) + (size_t)what) * CTX_LEN;
}

/* Whether len bytes at addr on pe (read directly) are the pattern of seed, or all zero. */
static int at_target_is(const void *addr, int pe, size_t len, uint64_t seed) {
    unsigned char expect[E_LEN];
    if (seed)
        fill(expect, len, seed);
    else
        memset(expect, 0, len);
    return memcmp(shmemt_recorder_peek(addr, pe), expect, len) == 0;
}
static unsigned char *aregion(int k) {
    return abuf + ((size_t)me * NCTX + (size_t)k) * ADJ_LEN;
}

static uint64_t at_target_u64(const uint64_t *addr, int pe) {
    return __atomic_load_n((const uint64_t *)shmemt_recorder_peek(addr, pe), __ATOMIC_ACQUIRE);
}

static uint64_t cseed(int what) {
    return (uint64_t)(me * 16 + what + 1) * 977;
}

/* The state of every context after the quiets of contexts [0, quieted): theirs delivered, the
 * others' pending, as the target's memory shows. */
static void check_quieted(int quieted, const char *when) {
    int next = (me + 1) % npes;
    for (int k = 0; k < NCTX; k++) {
        shmemt_recorder_counts_t c = shmemt_recorder_counts(cx[k]);
        int done = k < quieted;
        c.delivered -= base[k].delivered;
        c.quiets -= base[k].quiets;
        c.fences -= base[k].fences;
        CHECK(c.pending == (done ? 0 : expect_pending[k]) && c.quiets == (uint64_t)done &&
                  c.delivered == (done ? expect_pending[k] : 0) && c.fences == 1,
              "%s: context %s: %llu pending, %llu delivered, %llu quiets, %llu fences since the "
              "start; expected %llu pending",
              when, ctx_names[k], (unsigned long long)c.pending, (unsigned long long)c.delivered,
              (unsigned long long)c.quiets, (unsigned long long)c.fences,
              (unsigned long long)(done ? 0 : expect_pending[k]));
        CHECK(at_target_is(cregion(k), next, CTX_LEN, done ? cseed(k) : 0) &&
                  at_target_is(aregion(k), next, ADJ_LEN, done ? cseed(k) + 9 : 0),
              "%s: the proxy puts of context %s are %s at PE %d", when, ctx_names[k],
              done ? "not complete" : "already complete", next);
    }
    int a = quieted > CA, b = quieted > CB;
    CHECK(at_target_is(cregion(DIRECT), next, CTX_LEN, a ? cseed(DIRECT) : 0),
          "%s: the host's direct put on A is %s", when, a ? "not complete" : "already complete");
    CHECK(at_target_u64(&ccount[me], next) == (uint64_t)a, "%s: A's add is %s", when,
          a ? "not complete" : "already complete");
    CHECK(at_target_is(csbuf + (size_t)me * CHUNK, next, CHUNK, b ? cseed(CB) + 5 : 0) &&
              at_target_u64(&csig[me], next) == (uint64_t)b,
          "%s: B's put-with-signal is %s", when, b ? "not complete" : "already complete");
}

static void *ctx_producer(void *arg) {
    int k = (int)(intptr_t)arg, next = (me + 1) % npes;
    shmem_ctx_t ctx = cx[k];
    unsigned char data[CTX_LEN], back[CTX_LEN];
    uint64_t pending = 0;
    if (k == CA) {
        /* Issued directly on A's transport state: the proxy's quiet on A completes it too.
         * Before A's first command, so that the consumer adds nothing to A while it is counted. */
        unsigned char direct[CTX_LEN];
        fill(direct, CTX_LEN, cseed(DIRECT));
        uint64_t before = shmemt_recorder_counts(ctx).pending;
        shmem_ctx_putmem(ctx, cregion(DIRECT), direct, CTX_LEN, next);
        pending += shmemt_recorder_counts(ctx).pending - before;
    }
    fill(data, CTX_LEN, cseed(k));
    /* 4 pieces in one batch: one operation, or two where the batch wraps around the ring. */
    pending += shmemt_proxy_put(proxy, ctx, cregion(k), data, CTX_LEN, next);
    /* Two batches that continue one put, seen at once: one operation (the pending count says). */
    unsigned char adjacent[ADJ_LEN];
    fill(adjacent, ADJ_LEN, cseed(k) + 9);
    pending += shmemt_proxy_put_adjacent(proxy, ctx, aregion(k), adjacent, ADJ_LEN, next);
    if (k == CA) {
        shmemt_proxy_amo(proxy, ctx, SHMEMI_PROXY_AMO_OP_ADD, &ccount[me], 1, 0, 8, 0, next);
        pending++;
    }
    if (k == CB) {
        unsigned char sdata[CHUNK];
        fill(sdata, CHUNK, cseed(CB) + 5);
        shmemt_proxy_put_signal(proxy, ctx, csbuf + (size_t)me * CHUNK, sdata, CHUNK, &csig[me], 1,
                                SHMEMI_PROXY_AMO_OP_ADD, next);
        pending += 1; /* one operation: the network transport's put-with-signal */
    }
    expect_pending[k] = pending;
    /* The fence (to every PE, as kernels send it) orders and completes nothing; the get, answered
     * after it, reads the target. */
    shmemt_proxy_fence(proxy, ctx, -1);
    shmemt_proxy_get(proxy, ctx, back, cregion(k), CTX_LEN, next);
    unsigned char zero[CTX_LEN] = {0};
    CHECK(memcmp(back, zero, CTX_LEN) == 0, "context %s: a put complete before any quiet",
          ctx_names[k]);
    pthread_barrier_wait(&phase);
    if (k == 0)
        check_quieted(0, "after the fences");
    /* One quiet per phase, in context order. */
    for (int q = 0; q < NCTX; q++) {
        pthread_barrier_wait(&phase);
        if (k == q) {
            shmemt_proxy_quiet(proxy, ctx);
            char when[64];
            snprintf(when, sizeof(when), "after the quiet of %s", ctx_names[q]);
            check_quieted(q + 1, when);
        }
    }
    return NULL;
}

static void run_contexts(void) {
    cbuf = shmem_calloc((size_t)npes * (NCTX + 1) * CTX_LEN, 1);
    csbuf = shmem_calloc((size_t)npes * CHUNK, 1);
    ccount = shmem_calloc((size_t)npes, sizeof(uint64_t));
    csig = shmem_calloc((size_t)npes, sizeof(uint64_t));
    ebuf = shmem_calloc((size_t)npes * E_LEN, 1);
    abuf = shmem_calloc((size_t)npes * NCTX * ADJ_LEN, 1);
    cx[CD] = SHMEM_CTX_DEFAULT;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &cx[CA]) != 0 ||
        shmem_ctx_create(SHMEMX_CTX_BYPASS, &cx[CB]) != 0) {
        CHECK(0, "shmem_ctx_create failed");
        return;
    }
    shmem_barrier_all();
    for (int k = 0; k < NCTX; k++)
        base[k] = shmemt_recorder_counts(cx[k]);
    pthread_barrier_init(&phase, NULL, NCTX);
    pthread_t threads[NCTX];
    for (int k = 0; k < NCTX; k++)
        pthread_create(&threads[k], NULL, ctx_producer, (void *)(intptr_t)k);
    for (int k = 0; k < NCTX; k++)
        pthread_join(threads[k], NULL);
    pthread_barrier_destroy(&phase);

    /* Destruction completes what the ring still holds for the context. */
    int next = (me + 1) % npes;
    shmem_ctx_t e;
    if (shmem_ctx_create(SHMEM_CTX_SERIALIZED, &e) != 0) {
        CHECK(0, "shmem_ctx_create failed");
        return;
    }
    unsigned char data[E_LEN];
    fill(data, E_LEN, 4242 + (uint64_t)me);
    shmemt_proxy_put(proxy, e, ebuf + (size_t)me * E_LEN, data, E_LEN, next);
    shmem_ctx_destroy(e);
    CHECK(at_target_is(ebuf + (size_t)me * E_LEN, next, E_LEN, 4242 + (uint64_t)me),
          "puts on a context in the ring when it was destroyed are not complete");
    shmem_ctx_destroy(cx[CA]);
    shmem_ctx_destroy(cx[CB]);
    shmem_barrier_all();
}

/* Mode "fence": AMOs over the recording transport while puts and gets keep the node's mapping,
 * as AMOs to the node's PEs take the network in a job over several nodes. An add stays pending in
 * the recorder until something completes it, so when the put after a fence has landed, only the
 * fence can have delivered the add before it: to one PE, then to every PE. */
static void run_fence_mapped(void) {
    uint64_t *counter = shmem_calloc((size_t)npes, sizeof(uint64_t));
    uint64_t *flag = shmem_calloc((size_t)npes, sizeof(uint64_t));
    shmem_barrier_all();
    int next = (me + 1) % npes;
    for (int round = 0; round < 2; round++) {
        int fence_pe = round == 0 ? next : -1;
        uint64_t value = (uint64_t)round + 1, got = 0;
        shmemt_proxy_amo(proxy, SHMEM_CTX_DEFAULT, SHMEMI_PROXY_AMO_OP_ADD, &counter[me], 5, 0,
                         sizeof(uint64_t), 0, next);
        shmemt_proxy_fence(proxy, SHMEM_CTX_DEFAULT, fence_pe);
        shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, &flag[me], &value, sizeof(value), next);
        shmemt_proxy_get(proxy, SHMEM_CTX_DEFAULT, &got, &flag[me], sizeof(got), next);
        CHECK(got == value, "the put after the fence did not land (%llu)", (unsigned long long)got);
        uint64_t have =
            __atomic_load_n((uint64_t *)shmemt_recorder_peek(&counter[me], next), __ATOMIC_ACQUIRE);
        CHECK(have == 5 * value,
              "fence to PE %d: the put after it landed, the add before it did not (word %llu, "
              "expected %llu)",
              fence_pe, (unsigned long long)have, (unsigned long long)(5 * value));
    }
    shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
    shmem_barrier_all();
    shmem_free(flag);
    shmem_free(counter);
}

/* Mode "stopped": rounds of a put to the next PE (mapped, so the consumer copies it) followed at
 * once by stopping the proxy; the put must have landed when the stop returns, however close the
 * stop came after it. */
#define STOPPED_ROUNDS 3000
static void run_stopped(void) {
    uint64_t *word = shmem_calloc(1, sizeof(uint64_t));
    shmem_barrier_all();
    const int next = (me + 1) % npes;
    const uint64_t *seen = shmem_ptr(word, next);
    int lost = 0;
    for (uint64_t r = 1; r <= STOPPED_ROUNDS; r++) {
        const uint64_t value = r * (uint64_t)npes + (uint64_t)me;
        shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, word, &value, sizeof(value), next);
        shmemt_proxy_destroy(proxy);
        if (__atomic_load_n(seen, __ATOMIC_ACQUIRE) != value)
            lost++;
        proxy = shmemt_proxy_create(SLOTS, CHUNK);
    }
    CHECK(lost == 0, "%d of %d puts taken just before the proxy stopped were never issued", lost,
          STOPPED_ROUNDS);
    shmem_barrier_all();
    shmem_free(word);
}

/* Mode "started": puts the recording transport sends from the ring's slots well after their
 * start (proxy_recorder.h), many more than the ring holds and with no quiet between them, of 1 to
 * 3 slots each: a slot freed before the transport read it carries a later put's bytes. Then a put
 * that names its source (PUT_FROM), longer than the consumer's stage. */
#define STARTED_PUTS 96
#define STARTED_MAX (3 * CHUNK)
#define FROM_BYTES (600 << 10)
static void run_started(void) {
    unsigned char *buf = shmem_calloc((size_t)npes * STARTED_PUTS * STARTED_MAX, 1);
    shmem_barrier_all();
    const int next = (me + 1) % npes;
    unsigned char *mine = buf + (size_t)me * STARTED_PUTS * STARTED_MAX;
    unsigned char data[STARTED_MAX];
    for (int i = 0; i < STARTED_PUTS; i++) {
        fill(data, STARTED_MAX, 7000 + (uint64_t)me * STARTED_PUTS + (uint64_t)i);
        shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, mine + (size_t)i * STARTED_MAX, data,
                         (size_t)(i % 3 + 1) * CHUNK, next);
    }
    shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
    int bad = 0;
    for (int i = 0; i < STARTED_PUTS; i++) {
        const size_t len = (size_t)(i % 3 + 1) * CHUNK;
        fill(data, STARTED_MAX, 7000 + (uint64_t)me * STARTED_PUTS + (uint64_t)i);
        if (memcmp(shmemt_recorder_peek(mine + (size_t)i * STARTED_MAX, next), data, len) != 0)
            bad++;
    }
    CHECK(bad == 0, "%d of %d started puts landed with other bytes than theirs", bad, STARTED_PUTS);
    shmem_barrier_all();
    shmem_free(buf);

    /* A put that names its source, longer than the consumer's stage (256 KiB): sent in pieces. */
    unsigned char *big = shmem_calloc((size_t)npes, FROM_BYTES);
    unsigned char *from = malloc(FROM_BYTES), *expect = malloc(FROM_BYTES);
    if (!big || !from || !expect)
        abort();
    fill(from, FROM_BYTES, 9100 + (uint64_t)me);
    memcpy(expect, from, FROM_BYTES);
    shmem_barrier_all();
    shmemt_proxy_put_from(proxy, SHMEM_CTX_DEFAULT, big + (size_t)me * FROM_BYTES, from, FROM_BYTES,
                          next);
    /* Answered once read: the source may change before the quiet. */
    memset(from, 0, FROM_BYTES);
    shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
    CHECK(memcmp(shmemt_recorder_peek(big + (size_t)me * FROM_BYTES, next), expect, FROM_BYTES) ==
              0,
          "a put of %d bytes that named its source landed with other bytes", FROM_BYTES);
    shmem_barrier_all();
    free(expect);
    free(from);
    shmem_free(big);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "all";
    if (argc > 2)
        iters = atoi(argv[2]);
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &(int){0});
    me = shmem_my_pe();
    npes = shmem_n_pes();
    const int fence_mapped = strcmp(mode, "fence") == 0;
    const int started = strcmp(mode, "started") == 0, sendfail = strcmp(mode, "sendfail") == 0,
              stuck = strcmp(mode, "stuck") == 0;
    const int recorded = strcmp(mode, "ctx") == 0 || fence_mapped || started || sendfail || stuck;
    if (fence_mapped)
        shmemt_recorder_install_amos();
    else if (recorded)
        shmemt_recorder_install();
    proxy = shmemt_proxy_create(SLOTS, CHUNK);
    if (strcmp(mode, "all") == 0) {
        run_all();
    } else if (strcmp(mode, "crossed") == 0) {
        run_crossed();
    } else if (fence_mapped) {
        run_fence_mapped();
    } else if (started) {
        run_started();
    } else if (strcmp(mode, "stopped") == 0) {
        run_stopped();
    } else if (stuck) {
        uint64_t *word = shmem_calloc(1, sizeof(uint64_t));
        shmemt_recorder_hold_sends();
        if (me == 0) {
            shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, word, &(uint64_t){1}, 8, 1);
            /* Stopping the consumer waits for the put, which never ends: the consumer says so. */
            shmemt_proxy_destroy(proxy);
            fprintf(stderr, "PE 0: the proxy stopped with a started put still in flight\n");
            failures++;
            proxy = NULL;
        }
    } else if (sendfail) {
        uint64_t *word = shmem_calloc(1, sizeof(uint64_t));
        shmemt_recorder_fail_sends();
        if (me == 0) {
            shmemt_proxy_put(proxy, SHMEM_CTX_DEFAULT, word, &(uint64_t){1}, 8, 1);
            /* The consumer ends the job; this quiet never returns. */
            shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
            fprintf(stderr, "PE 0: a put that failed after its start went unreported\n");
            failures++;
        }
    } else if (recorded) {
        run_contexts();
    } else if (me == 0) {
        static uint64_t word;
        static struct shmemi_ctx not_a_context;
        if (strcmp(mode, "badpe") == 0)
            shmemt_proxy_raw(proxy, SHMEMI_PROXY_PUT, 0, &word, 8, 99);
        else if (strcmp(mode, "badbatch") == 0)
            shmemt_proxy_raw_batch(proxy, &word, CHUNK, 8, 1);
        else if (strcmp(mode, "shortbatch") == 0)
            shmemt_proxy_raw_batch(proxy, &word, CHUNK - 8, 0, 1);
        else if (strcmp(mode, "badop") == 0)
            shmemt_proxy_raw(proxy, 42, 0, &word, 8, 1);
        else if (strcmp(mode, "badfrom") == 0)
            shmemt_proxy_raw(proxy, SHMEMI_PROXY_PUT_FROM, 0, &word, 8, 1);
        else if (strcmp(mode, "badctx") == 0)
            shmemt_proxy_raw(proxy, SHMEMI_PROXY_PUT, (uint64_t)(uintptr_t)&not_a_context, &word, 8,
                             1);
        else if (strcmp(mode, "deadctx") == 0) {
            shmem_ctx_t dead;
            if (shmem_ctx_create(0, &dead) != 0)
                abort();
            shmem_ctx_destroy(dead);
            shmemt_proxy_raw(proxy, SHMEMI_PROXY_PUT, (uint64_t)(uintptr_t)SHMEMI_CTX_OBJECT(dead),
                             &word, 8, 1);
        } else if (strcmp(mode, "abandon") == 0)
            shmemt_proxy_abandon_ticket(proxy);
        /* The consumer ends the job; this quiet never returns. */
        shmemt_proxy_quiet(proxy, SHMEM_CTX_DEFAULT);
        fprintf(stderr, "PE 0: the proxy accepted a bad command (mode %s)\n", mode);
        failures++;
    }
    shmem_barrier_all();
    if (proxy)
        shmemt_proxy_destroy(proxy);
    if (recorded)
        shmemt_recorder_uninstall();
    int all_failures = failures;
    if (me == 0)
        printf("proxy %s: %s\n", mode, all_failures ? "FAILED" : "ok");
    shmem_finalize();
    return failures ? 1 : 0;
}
