/* SPDX-License-Identifier: BSD-3-Clause */
/* The data paths shared by the host RMA, AMO, signal, ordering and bypass families. Every
 * operation takes one routing decision, shmemi_ptr(addr, pe): the load/store path when it gives a
 * mapped address, else the transport the route names (shmemi_route_transport). */
#ifndef SHMEMI_HOST_RMA_INTERNAL_H
#define SHMEMI_HOST_RMA_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "core/shmemi.h"
#include "host/ctx_internal.h"

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define SHMEMI_HAVE_NT_STORES 1
#else
#define SHMEMI_HAVE_NT_STORES 0
#endif

/* A thread fence. GCC's ThreadSanitizer does not model fences and rejects them (-Wtsan); the
 * fence still runs there, only the warning is silenced. */
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#define SHMEMI_THREAD_FENCE(order)                                                                 \
    do {                                                                                           \
        _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wtsan\"")                \
            __atomic_thread_fence(order);                                                          \
        _Pragma("GCC diagnostic pop")                                                              \
    } while (0)
#else
#define SHMEMI_THREAD_FENCE(order) __atomic_thread_fence(order)
#endif

/* Nonzero while this thread may have non-temporal stores not yet ordered by an sfence. Each
 * thread drains its own: sfence orders only the stores of the core that runs it. */
extern __thread int shmemi_nt_pending;

static inline void shmemi_nt_drain(void) {
#if SHMEMI_HAVE_NT_STORES
    if (__builtin_expect(shmemi_nt_pending, 0)) {
        _mm_sfence();
        shmemi_nt_pending = 0;
    }
#endif
}

/* nelems * elem_size, fatal when it overflows. */
static inline size_t shmemi_nbytes(const char *call, size_t nelems, size_t elem_size, int pe) {
    size_t len;
    if (__builtin_expect(__builtin_mul_overflow(nelems, elem_size, &len), 0))
        shmemi_fatal(call, "size overflows: %zu elements of %zu bytes (target PE %d)", nelems,
                     elem_size, pe);
    return len;
}

/* Copies len bytes of this PE's memory at addr (where shmemi_local_on_device holds) into dest
 * through the heap's transport, then an acquire fence: an acquire load of the word. Fatal, naming
 * call and addr, when the transport fails. */
void shmemi_local_read(const char *call, void *dest, const void *addr, size_t len);
/* A release fence, then copies len bytes from source to this PE's memory at addr through the
 * heap's transport: a release store of the word. Fatal when the transport fails. */
void shmemi_local_write(const char *call, void *addr, const void *source, size_t len);

/* Ends the job: transport ops returned status for an operation on addr at world PE pe. */
__attribute__((noreturn)) void shmemi_transport_failed(const char *call,
                                                       const shmemi_transport_ops_t *ops,
                                                       shmemi_status_t status, const void *addr,
                                                       int pe);

/* The ordering of fence (host/fence_order.c) and of quiet and pe_quiet (host/quiet_order.c) on
 * context c; fatal, naming call and the transport, when a transport fails (shmemi_order_failed). */
void shmemi_fence_order(const char *call, const struct shmemi_ctx *c);
void shmemi_quiet_order(const char *call, const struct shmemi_ctx *c);
__attribute__((noreturn)) void
shmemi_order_failed(const char *call, const shmemi_transport_ops_t *ops, shmemi_status_t st);

/* The acquire load of a wait or test of a word of 2, 4 or 8 bytes (host/wait_load.c). */
uint16_t shmemi_wait_load16(const void *p);
uint32_t shmemi_wait_load32(const void *p);
uint64_t shmemi_wait_load64(const void *p);

/* Contiguous transfers of len bytes; pe is team-relative on ctx. */
void shmemi_put_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source, size_t len,
                      int pe);
void shmemi_get_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source, size_t len,
                      int pe);
/* The same, completing at quiet on the transport path: the source of a put must not change and
 * the dest of a get is not filled until then (on the load/store path both are done at return). */
void shmemi_put_bytes_nbi(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                          size_t len, int pe);
void shmemi_get_bytes_nbi(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                          size_t len, int pe);

/* Blocked strided transfers: nblocks blocks of bsize elements of elem_size bytes; block i is at
 * dest + i * dst and source + i * sst elements. iput/iget are bsize = 1. */
void shmemi_put_strided(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t bsize,
                        size_t nblocks, int pe);
void shmemi_get_strided(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t bsize,
                        size_t nblocks, int pe);

/* An AMO of size 4 or 8 bytes on dest at pe; operand and compare hold the value's bits.
 * Returns the previous value's bits (zero-extended). Relaxed. */
uint64_t shmemi_amo(const char *call, shmem_ctx_t ctx, shmemi_amo_op_t op, void *dest,
                    uint64_t operand, uint64_t compare, size_t size, int pe);
/* A non-fetching AMO (set, add, and, or, xor): done at return on the load/store path, complete at
 * quiet on a transport. Relaxed. */
void shmemi_amo_post(const char *call, shmem_ctx_t ctx, shmemi_amo_op_t op, void *dest,
                     uint64_t operand, size_t size, int pe);

/* Put-with-signal: the data, then the signal update as a release of it. */
void shmemi_put_signal(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                       size_t len, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

/* One step of a wait (src/host/relax.h: spin, yield or sleep). */
void shmemi_wait_pause(unsigned *spins);

/* Ends with a clear message: cmp is not a SHMEM_CMP_* operator. */
__attribute__((noreturn)) void shmemi_bad_cmp(const char *call, int cmp);

/* The bits of a value of 4 or 8 bytes, and back. */
#define SHMEMI_TO_BITS(TYPE, v)                                                                    \
    __extension__({                                                                                \
        TYPE shmemi_v_ = (v);                                                                      \
        uint64_t shmemi_b_;                                                                        \
        if (sizeof(TYPE) == 4) {                                                                   \
            uint32_t shmemi_u_;                                                                    \
            memcpy(&shmemi_u_, &shmemi_v_, 4);                                                     \
            shmemi_b_ = shmemi_u_;                                                                 \
        } else {                                                                                   \
            memcpy(&shmemi_b_, &shmemi_v_, 8);                                                     \
        }                                                                                          \
        shmemi_b_;                                                                                 \
    })
#define SHMEMI_FROM_BITS(TYPE, b)                                                                  \
    __extension__({                                                                                \
        uint64_t shmemi_b_ = (b);                                                                  \
        TYPE shmemi_v_;                                                                            \
        if (sizeof(TYPE) == 4) {                                                                   \
            uint32_t shmemi_u_ = (uint32_t)shmemi_b_;                                              \
            memcpy(&shmemi_v_, &shmemi_u_, 4);                                                     \
        } else {                                                                                   \
            memcpy(&shmemi_v_, &shmemi_b_, 8);                                                     \
        }                                                                                          \
        shmemi_v_;                                                                                 \
    })

/* Comparison of wait_until and test. */
#define SHMEMI_CMP(call, cmp, a, b)                                                                \
    __extension__({                                                                                \
        int shmemi_r_ = 0;                                                                         \
        switch (cmp) {                                                                             \
        case SHMEM_CMP_EQ:                                                                         \
            shmemi_r_ = (a) == (b);                                                                \
            break;                                                                                 \
        case SHMEM_CMP_NE:                                                                         \
            shmemi_r_ = (a) != (b);                                                                \
            break;                                                                                 \
        case SHMEM_CMP_GT:                                                                         \
            shmemi_r_ = (a) > (b);                                                                 \
            break;                                                                                 \
        case SHMEM_CMP_GE:                                                                         \
            shmemi_r_ = (a) >= (b);                                                                \
            break;                                                                                 \
        case SHMEM_CMP_LT:                                                                         \
            shmemi_r_ = (a) < (b);                                                                 \
            break;                                                                                 \
        case SHMEM_CMP_LE:                                                                         \
            shmemi_r_ = (a) <= (b);                                                                \
            break;                                                                                 \
        default:                                                                                   \
            shmemi_bad_cmp(call, cmp);                                                             \
        }                                                                                          \
        shmemi_r_;                                                                                 \
    })

#endif
