/* SPDX-License-Identifier: BSD-3-Clause */
/* The proxy ring: how code that cannot reach a PE itself (a GPU kernel, whose peer is on another
 * host) hands operations to the host thread that issues them on the network transport (the
 * consumer, src/core/proxy.c). Plain data shared by the producers and the consumer; C and C++.
 *
 * A ring has n_slots slots (a power of two). Slot s has a command (64 bytes, written by the
 * producer), a status (written by the consumer, and its free word also by the producer of a
 * command that returns something), and chunk bytes of payload. All of it is in memory both sides
 * can load and store (pinned host memory mapped into the GPU).
 *
 * The protocol. Tickets number commands 0, 1, 2, ...; ticket t uses slot t mod n_slots.
 *  1. A producer takes a ticket t by a relaxed device-scope fetch-add of 1 on *issue (every
 *     producer of a ring runs on one GPU).
 *  2. It waits until slot.free == t (acquire): the slot's previous user, ticket t - n_slots, is
 *     done with it. Initially slot s's free is s.
 *  3. It writes the payload (PUT, PUT_SIGNAL) and the command's fields, then stores seq = t + 1
 *     with release.
 *  4. The consumer takes tickets in order: it waits until the command of its next ticket has
 *     seq == next + 1 (acquire), then issues it on the transport.
 * Batches. A put of several pieces takes up to SHMEMI_PROXY_BATCH consecutive tickets at once
 * (one fetch-add of their number; never more than half the ring, so that a batch never waits for
 * a slot that only its own tickets free). Each piece but the last of a batch fills its slot's
 * payload, and its command says how many tickets after it continue the same put (more). The
 * producer stores the batch's seq words first-ticket-last, so that a consumer that sees the first
 * sees them all: it issues consecutive pieces whose slots are consecutive (the ring does not wrap
 * between them) as one operation of their total length, and frees each slot as in step 5. Only
 * PUT pieces are batched; the last piece of a put-with-signal is its PUT_SIGNAL. The consumer
 * may also join the first piece of the next batch (a PUT, of the same PE and context, whose
 * target continues the bytes joined so far, every one of them a full slot) with its batch, and
 * may split a batch anywhere (where the ring wraps, past SHMEMI_PROXY_JOIN_MAX bytes): a piece's
 * more only says how many of the next tickets continue its put, never that they must go with it.
 *  5. A command that returns nothing (PUT, PUT_SIGNAL, AMO, FENCE) is freed by the consumer once it
 *     no longer needs the slot (a put's source is copied or sent; a PUT the network transport
 *     sends from the slot itself is freed when the transport says it is done with it, out of
 *     ticket order): free = t + n_slots (release).
 *     A command that returns something (GET: payload; AMO_FETCH: result; QUIET: completion;
 *     PUT_FROM: that its source was read) is
 *     answered by the consumer: it writes the answer, then done = t + 1 (release); the producer
 *     waits for done == t + 1 (acquire), reads the answer, then frees the slot itself: free =
 *     t + n_slots (release).
 * The consumer issues in ticket order on one thread, so a producer's commands reach the transport
 * in the order it took their tickets: a FENCE orders the commands before it before those after it
 * (per target PE and context, as the transport's fence does), and a QUIET, answered after the
 * transport's quiet of its context, completes every command of that context with an earlier
 * ticket. A ticket whose command never arrives stops the ring; the consumer reports it (with the
 * ring's state) after SHMEM_DEVICE_TIMEOUT_MS, or 10 s when that is 0. */
#ifndef SHMEM_DEVICE_IMPL_PROXY__TYPES_H
#define SHMEM_DEVICE_IMPL_PROXY__TYPES_H

#include <stdint.h>

/* Commands. */
#define SHMEMI_PROXY_PUT 1        /* len bytes of payload to target on pe */
#define SHMEMI_PROXY_GET 2        /* len bytes of target on pe into the payload; answered */
#define SHMEMI_PROXY_AMO 3        /* amo_op on target on pe; completes at quiet */
#define SHMEMI_PROXY_AMO_FETCH 4  /* amo_op on target on pe; the old value answered in result */
#define SHMEMI_PROXY_PUT_SIGNAL 5 /* PUT, then sig_op with operand on signal address compare */
#define SHMEMI_PROXY_FENCE 6      /* orders the context's commands to pe (-1: to every PE) */
#define SHMEMI_PROXY_QUIET 7      /* completes the context's commands (pe unused); answered */
/* len bytes (any number) from address compare to target on pe: the consumer reads the source
 * itself (with the GPU's copy engine where the heap is GPU memory), so the source must be memory
 * it can read (a kernel's: global memory, not shared or local); answered once it has read it. */
#define SHMEMI_PROXY_PUT_FROM 8

/* A put by one thread of at least this many bytes goes as PUT_FROM where its source allows: one
 * thread's stores into the ring through PCIe move about 0.3 GB/s. */
#define SHMEMI_PROXY_FROM_MIN 16384

/* Tickets a put takes at once, at most (see Batches). */
#define SHMEMI_PROXY_BATCH 64

/* The most bytes the consumer issues as one operation: over the network, one message, which the
 * target receives into one of its pinned buffers of this size (src/core/deliver.c). UCX's active
 * messages over TCP move about twice the data per second in messages of 512 KiB as of 128 KiB. */
#define SHMEMI_PROXY_JOIN_MAX ((uint64_t)512 << 10)

/* AMO operations (amo_op, sig_op). */
#define SHMEMI_PROXY_AMO_OP_FETCH 0
#define SHMEMI_PROXY_AMO_OP_SET 1
#define SHMEMI_PROXY_AMO_OP_SWAP 2
#define SHMEMI_PROXY_AMO_OP_CSWAP 3
#define SHMEMI_PROXY_AMO_OP_ADD 4
#define SHMEMI_PROXY_AMO_OP_AND 5
#define SHMEMI_PROXY_AMO_OP_OR 6
#define SHMEMI_PROXY_AMO_OP_XOR 7

typedef struct shmemi_proxy_cmd {
    uint64_t seq;     /* ticket + 1, stored last with release */
    uint32_t op;      /* SHMEMI_PROXY_* */
    int32_t pe;       /* world PE */
    uint64_t ctx;     /* the context's object (the handle without its tag bits), 0: default */
    uint64_t target;  /* symmetric address on pe, as the producer's PE sees it */
    uint64_t len;     /* PUT, GET, PUT_SIGNAL: bytes (at most chunk); AMO: 4 or 8 */
    uint64_t operand; /* AMO operand; PUT_SIGNAL: the signal value */
    uint64_t compare; /* AMO CSWAP: the compared value; PUT_SIGNAL: the signal's address;
                       * PUT_FROM: the source's address */
    uint32_t amo_op;  /* SHMEMI_PROXY_AMO_OP_*: AMO, AMO_FETCH; PUT_SIGNAL: SET or ADD */
    uint32_t more;    /* PUT: tickets after this one in its batch, continuing the same put */
} shmemi_proxy_cmd_t;

typedef struct shmemi_proxy_slot {
    uint64_t free;   /* the ticket that may use the slot next */
    uint64_t done;   /* ticket + 1 once a GET, AMO_FETCH or QUIET is answered */
    uint64_t result; /* AMO_FETCH: the old value, zero-extended */
    uint64_t reserved;
} shmemi_proxy_slot_t;

/* A ring as both sides see it (the same addresses on both). */
typedef struct shmemi_proxy_ring {
    shmemi_proxy_cmd_t *cmd;
    shmemi_proxy_slot_t *slot;
    unsigned char *data; /* n_slots * chunk bytes; slot s's payload at s * chunk */
    uint64_t *issue;     /* the next ticket */
    uint32_t n_slots;    /* a power of two */
    uint32_t chunk;      /* a multiple of 16 */
} shmemi_proxy_ring_t;

#endif
