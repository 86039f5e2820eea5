/* SPDX-License-Identifier: BSD-3-Clause */
/* The kernels' side of the proxy ring (the protocol: shmem/device/impl/proxy__types.h; the host
 * consumer: src/core/proxy.c). A device operation to a PE whose path is SHMEMI_PATH_PROXY takes a
 * ticket, waits for its slot, writes the payload and the command into the ring (pinned host
 * memory) and publishes it with a system-scope release store; operations with a result wait for
 * the answer with system-scope acquire loads. Group forms synchronize the group, and one thread
 * issues for it. Every command carries the caller's context (shmemi_dproxy_ctx: 0 for the default
 * context, else the context's object), and the consumer issues it on that context's transport
 * state, so a fence or quiet orders or completes the commands of its own context only. */
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
                                    uint64_t compare, uint32_t amo_op) {
    shmemi_proxy_cmd_t *c = k.cmd;
    c->op = op;
    c->pe = pe;
    c->ctx = pctx;
    c->target = (uint64_t)(uintptr_t)target;
    c->len = len;
    c->operand = operand;
    c->compare = compare;
    c->amo_op = amo_op;
    shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(&c->seq, k.t + 1);
}

/* Step 5 of a command with an answer: wait for it; then, once it is read, free the slot. */
SHMEMI_DI void shmemi_dproxy_answer(const char *call, const shmemi_dproxy_ticket &k) {
    shmemi_dproxy_wait(call, &k.slot->done, k.t + 1, k.t, 1);
}
SHMEMI_DI void shmemi_dproxy_release(const shmemi_dproxy_ticket &k) {
    shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(&k.slot->free, k.t + shmemi_dstate.proxy.n_slots);
}

/* put and get through the proxy on the context of field pctx (shmemi_dproxy_ctx), in pieces of at
 * most a slot's payload. */
SHMEMI_DI void shmemi_dproxy_put_thread(const char *call, uint64_t pctx, void *dest,
                                        const void *source, size_t n, int pe) {
    const size_t chunk = shmemi_dstate.proxy.chunk;
    for (size_t done = 0; done < n;) {
        const size_t len = n - done < chunk ? n - done : chunk;
        shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
        shmemi_dcopy<0, 0, SHMEMI_GROUP_THREAD>(k.data, (const char *)source + done, len);
        shmemi_dproxy_submit(k, SHMEMI_PROXY_PUT, pctx, pe, (char *)dest + done, len, 0, 0, 0);
        done += len;
    }
}
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
SHMEMI_DI void shmemi_dproxy_put(const char *call, uint64_t pctx, void *dest, const void *source,
                                 size_t n, int pe) {
    shmemi_group_sync<Group>();
    if (shmemi_group_rank<Group>() == 0)
        shmemi_dproxy_put_thread(call, pctx, dest, source, n, pe);
    shmemi_group_sync<Group>();
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

/* put-with-signal: the payload in pieces, the last one carrying the signal (SHMEM_SIGNAL_SET or
 * _ADD), which the proxy delivers after it. */
template <int Group>
SHMEMI_DI void shmemi_dproxy_put_signal(const char *call, uint64_t pctx, void *dest,
                                        const void *source, size_t n, uint64_t *sig_addr,
                                        uint64_t signal, int sig_op, int pe) {
    shmemi_group_sync<Group>();
    if (shmemi_group_rank<Group>() == 0) {
        const size_t chunk = shmemi_dstate.proxy.chunk;
        const size_t head = n > chunk ? (n - 1) / chunk * chunk : 0;
        shmemi_dproxy_put_thread(call, pctx, dest, source, head, pe);
        shmemi_dproxy_ticket k = shmemi_dproxy_take(call);
        shmemi_dcopy<0, 0, SHMEMI_GROUP_THREAD>(k.data, (const char *)source + head, n - head);
        shmemi_dproxy_submit(k, SHMEMI_PROXY_PUT_SIGNAL, pctx, pe, (char *)dest + head, n - head,
                             signal, (uint64_t)(uintptr_t)sig_addr,
                             sig_op == SHMEM_SIGNAL_ADD ? SHMEMI_PROXY_AMO_OP_ADD
                                                        : SHMEMI_PROXY_AMO_OP_SET);
    }
    shmemi_group_sync<Group>();
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
