/* SPDX-License-Identifier: BSD-3-Clause */
/* Put-with-signal and the signal operations. The signal update of put_signal is a release of the
 * put's data (outstanding non-temporal stores drained first); signal_add/set alone are relaxed
 * AMOs; signal_fetch is an acquire load (through the heap's transport where the heap is GPU
 * memory). */
#include "core/cpu_amo.h"
#include "core/shmemi.h"
#include "host/rma_internal.h"

void shmemi_put_signal(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                       size_t len, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shmemi_fatal(call, "invalid signal operator %d (SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD)",
                     sig_op);
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    if (__builtin_expect(shmemi_state.debug, 0)) {
        shmemi_check_symmetric(call, sig_addr, sizeof(*sig_addr), wpe);
        shmemi_check_aligned(call, sig_addr, sizeof(*sig_addr), wpe);
    }
    uint64_t *r = shmemi_amo_ptr(sig_addr, wpe);
    if (__builtin_expect(r == NULL && len > 0 && shmemi_transport_net != NULL, 0) &&
        shmemi_ptr(dest, wpe) == NULL && !shmemi_local_on_device(source)) {
        /* Data and signal both over the network: the transport's put-with-signal (one message
         * where the target's segments are delivered). */
        int seg, sig_seg;
        size_t offset, sig_offset;
        const shmemi_transport_ops_t *ops =
            shmemi_route_transport(call, dest, wpe, 0, &seg, &offset);
        if (ops == shmemi_transport_net &&
            shmemi_route_transport(call, sig_addr, wpe, 1, &sig_seg, &sig_offset) == ops) {
            if (__builtin_expect(shmemi_state.debug, 0))
                shmemi_check_symmetric(call, dest, len, wpe);
            shmemi_nt_drain();
            SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
            shmemi_status_t st = ops->put_signal(
                shmemi_ctx_tctx(c, ops), seg, offset, source, len, sig_seg, sig_offset,
                sig_op == SHMEM_SIGNAL_SET ? SHMEMI_AMO_SET : SHMEMI_AMO_ADD, signal, wpe);
            if (st != SHMEMI_OK)
                shmemi_transport_failed(call, ops, st, dest, wpe);
            return;
        }
    }
    shmemi_put_bytes(call, ctx, dest, source, len, pe);
    if (__builtin_expect(r == NULL, 0)) {
        shmem_ctx_fence(ctx);
        shmemi_amo_post(call, ctx, sig_op == SHMEM_SIGNAL_SET ? SHMEMI_AMO_SET : SHMEMI_AMO_ADD,
                        sig_addr, signal, sizeof(uint64_t), pe);
        return;
    }
    shmemi_nt_drain();
    if (sig_op == SHMEM_SIGNAL_SET)
        __atomic_store_n(r, signal, __ATOMIC_RELEASE);
    else
        __atomic_fetch_add(r, signal, __ATOMIC_RELEASE);
}

#define SHMEMI_DEF_PUT_SIGNAL(TYPE, NAME)                                                          \
    SHMEMI_API void shmem_ctx_##NAME##_put_signal(shmem_ctx_t ctx, TYPE *dest, const TYPE *source, \
                                                  size_t nelems, uint64_t *sig_addr,               \
                                                  uint64_t signal, int sig_op, int pe) {           \
        static const char call[] = "shmem_" #NAME "_put_signal";                                   \
        shmemi_put_signal(call, ctx, dest, source, shmemi_nbytes(call, nelems, sizeof(TYPE), pe),  \
                          sig_addr, signal, sig_op, pe);                                           \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_put_signal(TYPE *dest, const TYPE *source, size_t nelems,       \
                                              uint64_t *sig_addr, uint64_t signal, int sig_op,     \
                                              int pe) {                                            \
        shmem_ctx_##NAME##_put_signal(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal,   \
                                      sig_op, pe);                                                 \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_put_signal_nbi(                                             \
        shmem_ctx_t ctx, TYPE *dest, const TYPE *source, size_t nelems, uint64_t *sig_addr,        \
        uint64_t signal, int sig_op, int pe) {                                                     \
        static const char call[] = "shmem_" #NAME "_put_signal_nbi";                               \
        shmemi_put_signal(call, ctx, dest, source, shmemi_nbytes(call, nelems, sizeof(TYPE), pe),  \
                          sig_addr, signal, sig_op, pe);                                           \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_put_signal_nbi(TYPE *dest, const TYPE *source, size_t nelems,   \
                                                  uint64_t *sig_addr, uint64_t signal, int sig_op, \
                                                  int pe) {                                        \
        shmem_ctx_##NAME##_put_signal_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,       \
                                          signal, sig_op, pe);                                     \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_PUT_SIGNAL)
#undef SHMEMI_DEF_PUT_SIGNAL

#define SHMEMI_DEF_PUT_SIGNAL_SIZE(BITS)                                                           \
    SHMEMI_API void shmem_ctx_put##BITS##_signal(shmem_ctx_t ctx, void *dest, const void *source,  \
                                                 size_t nelems, uint64_t *sig_addr,                \
                                                 uint64_t signal, int sig_op, int pe) {            \
        static const char call[] = "shmem_put" #BITS "_signal";                                    \
        shmemi_put_signal(call, ctx, dest, source, shmemi_nbytes(call, nelems, BITS / 8, pe),      \
                          sig_addr, signal, sig_op, pe);                                           \
    }                                                                                              \
    SHMEMI_API void shmem_put##BITS##_signal(void *dest, const void *source, size_t nelems,        \
                                             uint64_t *sig_addr, uint64_t signal, int sig_op,      \
                                             int pe) {                                             \
        shmem_ctx_put##BITS##_signal(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr, signal,    \
                                     sig_op, pe);                                                  \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_put##BITS##_signal_nbi(                                              \
        shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,        \
        uint64_t signal, int sig_op, int pe) {                                                     \
        static const char call[] = "shmem_put" #BITS "_signal_nbi";                                \
        shmemi_put_signal(call, ctx, dest, source, shmemi_nbytes(call, nelems, BITS / 8, pe),      \
                          sig_addr, signal, sig_op, pe);                                           \
    }                                                                                              \
    SHMEMI_API void shmem_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems,    \
                                                 uint64_t *sig_addr, uint64_t signal, int sig_op,  \
                                                 int pe) {                                         \
        shmem_ctx_put##BITS##_signal_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,        \
                                         signal, sig_op, pe);                                      \
    }
SHMEMI_RMA_BITS(SHMEMI_DEF_PUT_SIGNAL_SIZE)
#undef SHMEMI_DEF_PUT_SIGNAL_SIZE

SHMEMI_API void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source,
                                        size_t nelems, uint64_t *sig_addr, uint64_t signal,
                                        int sig_op, int pe) {
    shmemi_put_signal("shmem_putmem_signal", ctx, dest, source, nelems, sig_addr, signal, sig_op,
                      pe);
}

SHMEMI_API void shmem_putmem_signal(void *dest, const void *source, size_t nelems,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
    shmemi_put_signal("shmem_putmem_signal", SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,
                      signal, sig_op, pe);
}

SHMEMI_API void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                            size_t nelems, uint64_t *sig_addr, uint64_t signal,
                                            int sig_op, int pe) {
    shmemi_put_signal("shmem_putmem_signal_nbi", ctx, dest, source, nelems, sig_addr, signal,
                      sig_op, pe);
}

SHMEMI_API void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems,
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
    shmemi_put_signal("shmem_putmem_signal_nbi", SHMEM_CTX_DEFAULT, dest, source, nelems, sig_addr,
                      signal, sig_op, pe);
}

SHMEMI_API uint64_t shmem_signal_fetch(const uint64_t *sig_addr) {
    if (__builtin_expect(!shmemi_local_on_device(sig_addr), 1))
        return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
    uint64_t v;
    shmemi_local_read("shmem_signal_fetch", &v, sig_addr, sizeof(v));
    return v;
}

SHMEMI_API void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe) {
    shmemi_amo_post("shmem_signal_add", ctx, SHMEMI_AMO_ADD, sig_addr, signal, sizeof(uint64_t),
                    pe);
}

SHMEMI_API void(shmem_signal_add)(uint64_t *sig_addr, uint64_t signal, int pe) {
    shmemi_amo_post("shmem_signal_add", SHMEM_CTX_DEFAULT, SHMEMI_AMO_ADD, sig_addr, signal,
                    sizeof(uint64_t), pe);
}

SHMEMI_API void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe) {
    shmemi_amo_post("shmem_signal_set", ctx, SHMEMI_AMO_SET, sig_addr, signal, sizeof(uint64_t),
                    pe);
}

SHMEMI_API void(shmem_signal_set)(uint64_t *sig_addr, uint64_t signal, int pe) {
    shmemi_amo_post("shmem_signal_set", SHMEM_CTX_DEFAULT, SHMEMI_AMO_SET, sig_addr, signal,
                    sizeof(uint64_t), pe);
}
