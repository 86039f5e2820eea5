/* SPDX-License-Identifier: BSD-3-Clause */
/* The kernels' side of the proxy ring (the protocol: shmem/device/impl/proxy__types.h; the host
 * consumer: src/core/proxy.c). A device operation to a PE whose path is SHMEMI_PATH_PROXY takes a
 * ticket, waits for its slot, writes the payload and the command into the ring (pinned host
 * memory) and publishes it with a system-scope release store; operations with a result wait for
 * the answer with system-scope acquire loads. Puts of several pieces go in batches, written by
 * the put's thread or warp (a block's: its first warp); the group forms of the other operations
 * synchronize the group, and one thread issues for it. Every command carries the caller's context
 * (shmemi_dproxy_ctx: 0 for the default context, else the context's object), and the consumer
 * issues it on that context's transport state, so a fence or quiet orders or completes the commands
 * of its own context only. */
#ifndef SHMEM_DEVICE_IMPL_PROXY__FUNCS_H
#define SHMEM_DEVICE_IMPL_PROXY__FUNCS_H

#include <shmem/impl/ctx__types.h>
#include <shmem/device/impl/copy__funcs.h>
#include <shmem/device/impl/state__funcs.h>

#if SHMEMI_DEVICE_PASS

/* The context field of a command on handle ctx: the handle without its tag bits, that is 0 for
 * SHMEM_CTX_DEFAULT and the context's object for any other (the consumer checks that it is a live
 * context of this PE). No memory access: the kernel never reads host memory for it. */
SHMEMI_DI uint64_t shmemi_dproxy_ctx(shmem_ctx_t ctx) {
    return (uint64_t)(uintptr_t)SHMEMI_CTX_OBJECT(ctx);
}

struct shmemi_dproxy_ticket {
    uint64_t t;
    shmemi_proxy_cmd_t *cmd;
    shmemi_proxy_slot_t *slot;
    unsigned char *data;
};

/* Waits until *word == want; past SHMEM_DEVICE_TIMEOUT_MS, reports ticket t and what it waited
 * for (answer 0: its slot; 1: its answer), with the ring's state (src/device/report.cu). */
SHMEMI_DI void shmemi_dproxy_wait(const char *call, const uint64_t *word, uint64_t want, uint64_t t,
                                  int answer) {
    shmemi_wait_timer timer = {0, 0};
    while (shmemi_ld_acquire<SHMEMI_SCOPE_SYSTEM>(word) != want)
        if (shmemi_wait_expired(timer))
            shmemi_dfatal(SHMEMI_DFATAL_PROXY, call, NULL, word, (long long)t, answer);
}

/* Steps 1 and 2 of the protocol: a ticket and its free slot. */
SHMEMI_DI shmemi_dproxy_ticket shmemi_dproxy_take(const char *call) {
    const shmemi_proxy_ring_t &r = shmemi_dstate.proxy;
    shmemi_dproxy_ticket k;
    /* Device scope: every producer of this ring runs on this PE's GPU, and a system-scope atomic
     * on pinned host memory is not supported where the host has no native atomics with the GPU
     * (PCIe; compute-sanitizer's memcheck reports it as an invalid access). */
    k.t = shmemi_ptx_atom_add_relaxed<SHMEMI_SCOPE_DEVICE>(r.issue, (uint64_t)1);
    const uint32_t s = (uint32_t)k.t & (r.n_slots - 1);
    k.cmd = r.cmd + s;
    k.slot = r.slot + s;
    k.data = r.data + (size_t)s * r.chunk;
    shmemi_dproxy_wait(call, &k.slot->free, k.t, k.t, 0);
    return k;
}

/* Step 3: the command's fields, then its sequence number with release (which also publishes the
 * payload written before). */
SHMEMI_DI void shmemi_dproxy_submit(const shmemi_dproxy_ticket &k, uint32_t op, uint64_t pctx,
                                    int pe, const void *target, uint64_t len, uint64_t operand,
                                    uint64_t compare, uint32_t amo_op, uint32_t more = 0) {
    shmemi_proxy_cmd_t *c = k.cmd;
    c->op = op;
    c->pe = pe;
    c->ctx = pctx;
    c->target = (uint64_t)(uintptr_t)target;
    c->len = len;
    c->operand = operand;
    c->compare = compare;
    c->amo_op = amo_op;
    c->more = more;
    shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(&c->seq, k.t + 1);
}

/* Step 5 of a command with an answer: wait for it; then, once it is read, free the slot. */
SHMEMI_DI void shmemi_dproxy_answer(const char *call, const shmemi_dproxy_ticket &k) {
    shmemi_dproxy_wait(call, &k.slot->done, k.t + 1, k.t, 1);
}
SHMEMI_DI void shmemi_dproxy_release(const shmemi_dproxy_ticket &k) {
    shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(&k.slot->free, k.t + shmemi_dstate.proxy.n_slots);
}

/* Step 3 for piece j of a batch of pieces from ticket base (byte off of the put is the batch's
 * first); the batch's last piece signals if sig. */
SHMEMI_DI void shmemi_dproxy_submit_piece(uint64_t base, uint32_t j, uint32_t pieces, bool sig,
                                          uint64_t pctx, int pe, void *dest, size_t n, size_t off,
                                          uint64_t *sig_addr, uint64_t signal, uint32_t sig_op) {
    const shmemi_proxy_ring_t &r = shmemi_dstate.proxy;
    const uint64_t t = base + j;
    const uint32_t s = (uint32_t)t & (r.n_slots - 1);
    const size_t o = off + (size_t)j * r.chunk;
    const shmemi_dproxy_ticket k = {t, r.cmd + s, r.slot + s, NULL};
    sig = sig && j == pieces - 1;
    shmemi_dproxy_submit(k, sig ? SHMEMI_PROXY_PUT_SIGNAL : SHMEMI_PROXY_PUT, pctx, pe,
                         (char *)dest + o, n - o < r.chunk ? n - o : r.chunk, sig ? signal : 0,
                         sig ? (uint64_t)(uintptr_t)sig_addr : 0, sig ? sig_op : 0, pieces - 1 - j);
}

/* A put of n bytes to dest at pe through the proxy, on the context of field pctx
 * (shmemi_dproxy_ctx); Signal: a put-with-signal, whose last piece carries sig_op
 * (SHMEMI_PROXY_AMO_OP_SET or _ADD) with signal on sig_addr. Written by W, one thread or a whole
 * warp, in batches of consecutive tickets (proxy__types.h, Batches): the writers wait for the
 * batch's slots, copy its payloads together, and publish its commands first-ticket-last. */
template <int W, bool Signal>
SHMEMI_DI void shmemi_dproxy_put_batches(const char *call, uint64_t pctx, void *dest,
                                         const void *source, size_t n, int pe, uint64_t *sig_addr,
                                         uint64_t signal, uint32_t sig_op) {
    const shmemi_proxy_ring_t &r = shmemi_dstate.proxy;
    const size_t chunk = r.chunk;
    const uint32_t mask = r.n_slots - 1;
    const uint32_t most = SHMEMI_PROXY_BATCH < r.n_slots / 2 ? SHMEMI_PROXY_BATCH : r.n_slots / 2;
    const int rank = shmemi_group_rank<W>(), size = shmemi_group_size<W>();
    size_t left = (n + chunk - 1) / chunk;
    if (Signal && left == 0)
        left = 1;
    for (size_t off = 0; left > 0;) {
        const uint32_t pieces = left < most ? (uint32_t)left : most;
        uint64_t base = 0;
        if (rank == 0)
            base = shmemi_ptx_atom_add_relaxed<SHMEMI_SCOPE_DEVICE>(r.issue, (uint64_t)pieces);
        if (W == SHMEMI_GROUP_WARP)
            base = shmemi_warp_from_lane0(base);
        for (uint32_t j = (uint32_t)rank; j < pieces; j += (uint32_t)size)
            shmemi_dproxy_wait(call, &r.slot[(base + j) & mask].free, base + j, base + j, 0);
        shmemi_group_sync<W>();
        for (uint32_t j = 0; j < pieces; j++) {
            const size_t o = off + (size_t)j * chunk;
            shmemi_dcopy<0, 0, W>(r.data + (size_t)((base + j) & mask) * chunk,
                                  (const char *)source + o, n - o < chunk ? n - o : chunk);
        }
        shmemi_group_sync<W>();
        const bool sig = Signal && left == pieces; /* this batch's last piece signals */
        for (uint32_t j = 1 + (uint32_t)rank; j < pieces; j += (uint32_t)size)
            shmemi_dproxy_submit_piece(base, j, pieces, sig, pctx, pe, dest, n, off, sig_addr,
                                       signal, sig_op);
        shmemi_group_sync<W>();
        if (rank == 0)
            shmemi_dproxy_submit_piece(base, 0, pieces, sig, pctx, pe, dest, n, off, sig_addr,
                                       signal, sig_op);
        off += (size_t)pieces * chunk;
        left -= pieces;
    }
}

/* A put of n bytes by one thread that names its source instead of carrying it (PUT_FROM): the
 * consumer reads the source with the copy engine, and answers once it has, so the source may be
 * reused at return. */
SHMEMI_DI void shmemi_dproxy_put_from(const char *call, uint64_t pctx, void *dest,
                                      const void *source, size_t n, int pe) {
    shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
    shmemi_dproxy_submit(k, SHMEMI_PROXY_PUT_FROM, pctx, pe, dest, n, 0,
                         (uint64_t)(uintptr_t)source, 0);
    shmemi_dproxy_answer(call, k);
    shmemi_dproxy_release(k);
}

/* The put (Signal: put-with-signal) of one thread: a large one from global memory as PUT_FROM
 * (its stores into the ring through PCIe would be slow), any other in batches. A large
 * put-with-signal sends all but its last 8 bytes so, then those with the signal, as the last
 * piece of a batched one: the consumer issues the PUT_SIGNAL after the PUT_FROM on the same
 * context, and the transport delivers a put-with-signal's signal after every earlier put of the
 * context to that PE. */
template <bool Signal>
SHMEMI_DI void shmemi_dproxy_put_thread(const char *call, uint64_t pctx, void *dest,
                                        const void *source, size_t n, int pe, uint64_t *sig_addr,
                                        uint64_t signal, uint32_t sig_op) {
    const size_t tail = Signal ? 8 : 0;
    if (n >= SHMEMI_PROXY_FROM_MIN && shmemi_is_global(source)) {
        shmemi_dproxy_put_from(call, pctx, dest, source, n - tail, pe);
        if (!Signal)
            return;
        dest = (char *)dest + (n - tail);
        source = (const char *)source + (n - tail);
        n = tail;
    }
    shmemi_dproxy_put_batches<SHMEMI_GROUP_THREAD, Signal>(call, pctx, dest, source, n, pe,
                                                           sig_addr, signal, sig_op);
}

/* The put (Signal: put-with-signal) of group Group: the calling warp writes it (the block forms:
 * the block's first warp, so that no shared memory passes the tickets around; a block smaller
 * than a warp: its first thread). */
template <int Group, bool Signal>
SHMEMI_DI void shmemi_dproxy_put_group(const char *call, uint64_t pctx, void *dest,
                                       const void *source, size_t n, int pe, uint64_t *sig_addr,
                                       uint64_t signal, uint32_t sig_op) {
    shmemi_group_sync<Group>();
    if (Group == SHMEMI_GROUP_THREAD)
        shmemi_dproxy_put_thread<Signal>(call, pctx, dest, source, n, pe, sig_addr, signal, sig_op);
    else if (Group == SHMEMI_GROUP_WARP || shmemi_group_size<Group>() >= SHMEMI_WARP_SIZE) {
        if (shmemi_group_rank<Group>() < SHMEMI_WARP_SIZE)
            shmemi_dproxy_put_batches<SHMEMI_GROUP_WARP, Signal>(call, pctx, dest, source, n, pe,
                                                                 sig_addr, signal, sig_op);
    } else if (shmemi_group_rank<Group>() == 0)
        shmemi_dproxy_put_thread<Signal>(call, pctx, dest, source, n, pe, sig_addr, signal, sig_op);
    shmemi_group_sync<Group>();
}
template <int Group>
SHMEMI_DI void shmemi_dproxy_put(const char *call, uint64_t pctx, void *dest, const void *source,
                                 size_t n, int pe) {
    shmemi_dproxy_put_group<Group, false>(call, pctx, dest, source, n, pe, NULL, 0, 0);
}

/* put-with-signal: the payload in pieces, the last one carrying the signal (SHMEM_SIGNAL_SET or
 * _ADD), which the proxy delivers after it. */
template <int Group>
SHMEMI_DI void shmemi_dproxy_put_signal(const char *call, uint64_t pctx, void *dest,
                                        const void *source, size_t n, uint64_t *sig_addr,
                                        uint64_t signal, int sig_op, int pe) {
    shmemi_dproxy_put_group<Group, true>(call, pctx, dest, source, n, pe, sig_addr, signal,
                                         sig_op == SHMEM_SIGNAL_ADD ? SHMEMI_PROXY_AMO_OP_ADD
                                                                    : SHMEMI_PROXY_AMO_OP_SET);
}

/* get through the proxy, by one thread of the group, in pieces of at most a slot's payload. */
SHMEMI_DI void shmemi_dproxy_get_thread(const char *call, uint64_t pctx, void *dest,
                                        const void *source, size_t n, int pe) {
    const size_t chunk = shmemi_dstate.proxy.chunk;
    for (size_t done = 0; done < n;) {
        const size_t len = n - done < chunk ? n - done : chunk;
        shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
        shmemi_dproxy_submit(k, SHMEMI_PROXY_GET, pctx, pe, (const char *)source + done, len, 0, 0,
                             0);
        shmemi_dproxy_answer(call, k);
        /* Bypassing loads: the host wrote the payload. */
        shmemi_dcopy<1, 0, SHMEMI_GROUP_THREAD>((char *)dest + done, k.data, len);
        shmemi_dproxy_release(k);
        done += len;
    }
}
template <int Group>
SHMEMI_DI void shmemi_dproxy_get(const char *call, uint64_t pctx, void *dest, const void *source,
                                 size_t n, int pe) {
    shmemi_group_sync<Group>();
    if (shmemi_group_rank<Group>() == 0)
        shmemi_dproxy_get_thread(call, pctx, dest, source, n, pe);
    shmemi_group_sync<Group>();
}

/* An AMO (SHMEMI_PROXY_AMO_OP_*) of size bytes on dest at pe; fetch: returns the old bits. */
SHMEMI_DI uint64_t shmemi_dproxy_amo(const char *call, uint64_t pctx, uint32_t op, const void *dest,
                                     uint64_t operand, uint64_t compare, size_t size, bool fetch,
                                     int pe) {
    shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
    shmemi_dproxy_submit(k, fetch ? SHMEMI_PROXY_AMO_FETCH : SHMEMI_PROXY_AMO, pctx, pe, dest, size,
                         operand, compare, op);
    if (!fetch)
        return 0;
    shmemi_dproxy_answer(call, k);
    const uint64_t old = shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(&k.slot->result);
    shmemi_dproxy_release(k);
    return old;
}

/* The proxy's part of a fence (Quiet = 0: the context's commands to every PE ordered) or quiet
 * (Quiet = 1: every earlier command of the context complete), by one thread, after the load/store
 * path's own fence. */
template <int Quiet> SHMEMI_DI void shmemi_dproxy_order(const char *call, uint64_t pctx) {
    if (!shmemi_dproxy_on())
        return;
    shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
    if (!Quiet) {
        shmemi_dproxy_submit(k, SHMEMI_PROXY_FENCE, pctx, -1, NULL, 0, 0, 0, 0);
        return;
    }
    shmemi_dproxy_submit(k, SHMEMI_PROXY_QUIET, pctx, shmemi_dstate.my_pe, NULL, 0, 0, 0, 0);
    shmemi_dproxy_answer(call, k);
    shmemi_dproxy_release(k);
}

#endif

#endif
