/* SPDX-License-Identifier: BSD-3-Clause */
/* The host producer of proxy_producer.h: each step of the ring's protocol, in the order
 * shmem/device/impl/proxy__types.h gives it. */
#include "proxy_producer.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem/device/impl/proxy__types.h>
#include <shmem/impl/ctx__types.h>

#include "core/shmemi.h"

#define EXPORT __attribute__((visibility("default")))

/* A producer that waits this long for its slot or its answer reports the ring and stops. */
#define WAIT_LIMIT_S 60

struct shmemt_proxy {
    shmemi_proxy_ring_t ring;
    shmemi_proxy_t *consumer;
    uint64_t issue;
};

EXPORT shmemt_proxy_t *shmemt_proxy_create(uint32_t n_slots, uint32_t chunk) {
    shmemt_proxy_t *p = calloc(1, sizeof(*p));
    if (p == NULL)
        abort();
    p->ring.n_slots = n_slots;
    p->ring.chunk = chunk;
    p->ring.cmd = aligned_alloc(64, n_slots * sizeof(shmemi_proxy_cmd_t));
    p->ring.slot = aligned_alloc(64, n_slots * sizeof(shmemi_proxy_slot_t));
    p->ring.data = aligned_alloc(64, (size_t)n_slots * chunk);
    if (!p->ring.cmd || !p->ring.slot || !p->ring.data)
        abort();
    memset(p->ring.data, 0, (size_t)n_slots * chunk);
    p->ring.issue = &p->issue;
    p->consumer = shmemi_proxy_start("shmemt_proxy_create", &p->ring);
    return p;
}

EXPORT void shmemt_proxy_destroy(shmemt_proxy_t *p) {
    shmemi_proxy_stop(p->consumer);
    free(p->ring.cmd);
    free(p->ring.slot);
    free(p->ring.data);
    free(p);
}

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits until *word == want (acquire). */
static void wait_for(const shmemt_proxy_t *p, const uint64_t *word, uint64_t want,
                     const char *what) {
    double start = 0;
    for (unsigned polls = 0; __atomic_load_n(word, __ATOMIC_ACQUIRE) != want; polls++) {
        if (polls < 64)
            continue;
        sched_yield();
        if ((polls & 1023) != 0)
            continue;
        if (start == 0)
            start = seconds();
        else if (seconds() - start > WAIT_LIMIT_S) {
            char state[256];
            shmemi_proxy_describe(p->consumer, state, sizeof(state));
            fprintf(stderr, "proxy producer: waited %d s for %s %llu; %s\n", WAIT_LIMIT_S, what,
                    (unsigned long long)want, state);
            abort();
        }
    }
}

/* Steps 1 and 2: a ticket and its free slot. */
static uint64_t take(shmemt_proxy_t *p, shmemi_proxy_cmd_t **cmd_p, unsigned char **data_p) {
    uint64_t t = __atomic_fetch_add(p->ring.issue, 1, __ATOMIC_RELAXED);
    uint32_t s = (uint32_t)(t & (p->ring.n_slots - 1));
    wait_for(p, &p->ring.slot[s].free, t, "slot free for ticket");
    *cmd_p = &p->ring.cmd[s];
    *data_p = p->ring.data + (size_t)s * p->ring.chunk;
    return t;
}

/* Step 3: the command's fields, then seq. The context field as kernels write it
 * (shmemi_dproxy_ctx): the handle without its tag bits. */
static void submit_raw(uint64_t t, shmemi_proxy_cmd_t *cmd, uint32_t op, uint64_t ctx, int pe,
                       const void *target, uint64_t len, uint64_t operand, uint64_t compare,
                       uint32_t amo_op, uint32_t more) {
    cmd->op = op;
    cmd->pe = pe;
    cmd->ctx = ctx;
    cmd->target = (uint64_t)(uintptr_t)target;
    cmd->len = len;
    cmd->operand = operand;
    cmd->compare = compare;
    cmd->amo_op = amo_op;
    cmd->more = more;
    __atomic_store_n(&cmd->seq, t + 1, __ATOMIC_RELEASE);
}
static void submit(uint64_t t, shmemi_proxy_cmd_t *cmd, uint32_t op, shmem_ctx_t ctx, int pe,
                   const void *target, uint64_t len, uint64_t operand, uint64_t compare,
                   uint32_t amo_op) {
    submit_raw(t, cmd, op, (uint64_t)(uintptr_t)SHMEMI_CTX_OBJECT(ctx), pe, target, len, operand,
               compare, amo_op, 0);
}

/* Step 5 for an answered command: the answer, then the slot back. */
static shmemi_proxy_slot_t *answer(shmemt_proxy_t *p, uint64_t t) {
    shmemi_proxy_slot_t *slot = &p->ring.slot[t & (p->ring.n_slots - 1)];
    wait_for(p, &slot->done, t + 1, "the answer of ticket");
    return slot;
}
static void release(shmemt_proxy_t *p, uint64_t t, shmemi_proxy_slot_t *slot) {
    __atomic_store_n(&slot->free, t + p->ring.n_slots, __ATOMIC_RELEASE);
}

/* The operations the consumer makes of tickets [base, base + pieces) of one put that it sees at
 * once: one, two where they wrap around the ring's end. */
static unsigned ops_of(const shmemt_proxy_t *p, uint64_t base, uint32_t pieces) {
    return 1 + ((base & (p->ring.n_slots - 1)) + pieces - 1 > p->ring.n_slots - 1);
}

/* One batch of a put of len bytes to dest: pieces tickets from base, the put's bytes from off.
 * Waits for their slots, copies their payloads and publishes their commands first-ticket-last,
 * each saying how many of the batch follow it; sig_addr not NULL: the last piece carries the
 * put-with-signal's signal. */
static void write_batch(shmemt_proxy_t *p, shmem_ctx_t ctx, uint64_t base, uint32_t pieces,
                        void *dest, const void *source, size_t len, size_t off, int pe,
                        uint64_t *sig_addr, uint64_t signal, uint32_t sig_op) {
    const size_t chunk = p->ring.chunk;
    const uint32_t mask = p->ring.n_slots - 1;
    for (uint32_t j = 0; j < pieces; j++) {
        size_t o = off + j * chunk;
        wait_for(p, &p->ring.slot[(base + j) & mask].free, base + j, "slot free for ticket");
        memcpy(p->ring.data + ((base + j) & mask) * chunk, (const char *)source + o,
               len - o < chunk ? len - o : chunk);
    }
    for (uint32_t j = pieces; j-- > 0;) {
        size_t o = off + j * chunk;
        int s = sig_addr && j == pieces - 1;
        submit_raw(base + j, &p->ring.cmd[(base + j) & mask],
                   s ? SHMEMI_PROXY_PUT_SIGNAL : SHMEMI_PROXY_PUT,
                   (uint64_t)(uintptr_t)SHMEMI_CTX_OBJECT(ctx), pe, (char *)dest + o,
                   len - o < chunk ? len - o : chunk, s ? signal : 0,
                   s ? (uint64_t)(uintptr_t)sig_addr : 0, s ? sig_op : 0, pieces - 1 - j);
    }
}

/* A put (sig_addr not NULL: a put-with-signal) as a kernel's writers issue it
 * (shmemi_dproxy_put_batches): batches of consecutive tickets, each taken with one fetch-add.
 * Returns the operations the consumer makes of it at most: one per batch, two where the batch
 * wraps around the ring's end. */
static unsigned put_batches(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                            size_t len, int pe, uint64_t *sig_addr, uint64_t signal,
                            uint32_t sig_op) {
    const size_t chunk = p->ring.chunk;
    const uint32_t most =
        SHMEMI_PROXY_BATCH < p->ring.n_slots / 2 ? SHMEMI_PROXY_BATCH : p->ring.n_slots / 2;
    size_t left = (len + chunk - 1) / chunk;
    if (sig_addr && left == 0)
        left = 1;
    unsigned ops = 0;
    for (size_t off = 0; left > 0;) {
        uint32_t pieces = left < most ? (uint32_t)left : most;
        uint64_t base = __atomic_fetch_add(p->ring.issue, pieces, __ATOMIC_RELAXED);
        write_batch(p, ctx, base, pieces, dest, source, len, off, pe,
                    left == pieces ? sig_addr : NULL, signal, sig_op);
        ops += ops_of(p, base, pieces);
        off += (size_t)pieces * chunk;
        left -= pieces;
    }
    return ops;
}

EXPORT unsigned shmemt_proxy_put(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t len, int pe) {
    return put_batches(p, ctx, dest, source, len, pe, NULL, 0, 0);
}

EXPORT unsigned shmemt_proxy_put_adjacent(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest,
                                          const void *source, size_t len, int pe) {
    const size_t chunk = p->ring.chunk;
    const uint32_t pieces = (uint32_t)((len + chunk - 1) / chunk), first = pieces / 2;
    if (first == 0 || pieces > p->ring.n_slots)
        abort();
    const uint64_t base = __atomic_fetch_add(p->ring.issue, pieces, __ATOMIC_RELAXED);
    /* The second batch first: the consumer, waiting for the first, then sees both. */
    write_batch(p, ctx, base + first, pieces - first, dest, source, len, (size_t)first * chunk, pe,
                NULL, 0, 0);
    write_batch(p, ctx, base, first, dest, source, len, 0, pe, NULL, 0, 0);
    return ops_of(p, base, pieces);
}

EXPORT void shmemt_proxy_get(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                             size_t len, int pe) {
    for (size_t done = 0; done < len;) {
        size_t n = len - done < p->ring.chunk ? len - done : p->ring.chunk;
        shmemi_proxy_cmd_t *cmd;
        unsigned char *data;
        uint64_t t = take(p, &cmd, &data);
        submit(t, cmd, SHMEMI_PROXY_GET, ctx, pe, (const char *)source + done, n, 0, 0, 0);
        shmemi_proxy_slot_t *slot = answer(p, t);
        memcpy((char *)dest + done, data, n);
        release(p, t, slot);
        done += n;
    }
}

EXPORT void shmemt_proxy_put_from(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest,
                                  const void *source, size_t len, int pe) {
    shmemi_proxy_cmd_t *cmd;
    unsigned char *data;
    uint64_t t = take(p, &cmd, &data);
    submit(t, cmd, SHMEMI_PROXY_PUT_FROM, ctx, pe, dest, len, 0, (uint64_t)(uintptr_t)source, 0);
    release(p, t, answer(p, t));
}

EXPORT uint64_t shmemt_proxy_amo(shmemt_proxy_t *p, shmem_ctx_t ctx, uint32_t op, void *dest,
                                 uint64_t operand, uint64_t compare, size_t size, int fetch,
                                 int pe) {
    shmemi_proxy_cmd_t *cmd;
    unsigned char *data;
    uint64_t t = take(p, &cmd, &data);
    submit(t, cmd, fetch ? SHMEMI_PROXY_AMO_FETCH : SHMEMI_PROXY_AMO, ctx, pe, dest, size, operand,
           compare, op);
    if (!fetch)
        return 0;
    shmemi_proxy_slot_t *slot = answer(p, t);
    uint64_t old = slot->result;
    release(p, t, slot);
    return old;
}

EXPORT unsigned shmemt_proxy_put_signal(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest,
                                        const void *source, size_t len, uint64_t *sig_addr,
                                        uint64_t signal, uint32_t sig_op, int pe) {
    return put_batches(p, ctx, dest, source, len, pe, sig_addr, signal, sig_op);
}

EXPORT void shmemt_proxy_fence(shmemt_proxy_t *p, shmem_ctx_t ctx, int pe) {
    shmemi_proxy_cmd_t *cmd;
    unsigned char *data;
    uint64_t t = take(p, &cmd, &data);
    submit(t, cmd, SHMEMI_PROXY_FENCE, ctx, pe, NULL, 0, 0, 0, 0);
}

EXPORT void shmemt_proxy_quiet(shmemt_proxy_t *p, shmem_ctx_t ctx) {
    shmemi_proxy_cmd_t *cmd;
    unsigned char *data;
    uint64_t t = take(p, &cmd, &data);
    submit(t, cmd, SHMEMI_PROXY_QUIET, ctx, shmemi_state.my_pe, NULL, 0, 0, 0, 0);
    release(p, t, answer(p, t));
}

EXPORT void shmemt_proxy_raw(shmemt_proxy_t *p, uint32_t op, uint64_t ctx, void *dest, size_t len,
                             int pe) {
    shmemi_proxy_cmd_t *cmd;
    unsigned char *data;
    uint64_t t = take(p, &cmd, &data);
    submit_raw(t, cmd, op, ctx, pe, dest, len, 0, 0, SHMEMI_PROXY_AMO_OP_ADD, 0);
}

EXPORT void shmemt_proxy_raw_batch(shmemt_proxy_t *p, void *dest, size_t first, size_t gap,
                                   int pe) {
    const uint32_t mask = p->ring.n_slots - 1;
    uint64_t t = __atomic_fetch_add(p->ring.issue, 2, __ATOMIC_RELAXED);
    for (uint32_t j = 0; j < 2; j++)
        wait_for(p, &p->ring.slot[(t + j) & mask].free, t + j, "slot free for ticket");
    submit_raw(t + 1, &p->ring.cmd[(t + 1) & mask], SHMEMI_PROXY_PUT, 0, pe,
               (char *)dest + first + gap, 8, 0, 0, 0, 0);
    submit_raw(t, &p->ring.cmd[t & mask], SHMEMI_PROXY_PUT, 0, pe, dest, first, 0, 0, 0, 1);
}

EXPORT void shmemt_proxy_abandon_ticket(shmemt_proxy_t *p) {
    (void)__atomic_fetch_add(p->ring.issue, 1, __ATOMIC_RELAXED);
}
