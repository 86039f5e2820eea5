/* SPDX-License-Identifier: BSD-3-Clause */
/* Remote memory access on the host: put, get, p, g, iput, iget, ibput, ibget, the sized and byte
 * forms, and _nbi. On the load/store path a put is a copy into the peer's mapping (relaxed, done
 * at return), so _nbi forms are the blocking ones; a BYPASS context copies 4 KiB and more with
 * non-temporal stores that fence and quiet drain. */
#include <stdlib.h>

#include "core/shmemi.h"
#include "host/rma_internal.h"

__thread int shmemi_nt_pending;

#if SHMEMI_HAVE_NT_STORES
/* Copies with non-temporal stores: a plain head up to 16-byte alignment of dest, streaming
 * 16-byte stores, a plain tail. Leaves the stores to be ordered by shmemi_nt_drain. */
static void nt_copy(char *dest, const char *source, size_t len) {
    size_t head = (size_t)(-(uintptr_t)dest & 15);
    memcpy(dest, source, head);
    dest += head;
    source += head;
    len -= head;
    for (; len >= 64; len -= 64, dest += 64, source += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)source);
        __m128i b = _mm_loadu_si128((const __m128i *)(source + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(source + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(source + 48));
        _mm_stream_si128((__m128i *)dest, a);
        _mm_stream_si128((__m128i *)(dest + 16), b);
        _mm_stream_si128((__m128i *)(dest + 32), c);
        _mm_stream_si128((__m128i *)(dest + 48), d);
    }
    for (; len >= 16; len -= 16, dest += 16, source += 16)
        _mm_stream_si128((__m128i *)dest, _mm_loadu_si128((const __m128i *)source));
    memcpy(dest, source, len);
    shmemi_nt_pending = 1;
}
#endif

/* Stores len bytes at a mapped address. A naturally aligned word of 1, 2, 4 or 8 bytes is one
 * atomic store, so that a one-element put used as a flag is never seen torn. */
static inline void store_bytes(char *r, const void *source, size_t len, int bypass) {
    if (len <= 8 && (len & (len - 1)) == 0 && ((uintptr_t)r & (len - 1)) == 0) {
        switch (len) {
        case 1: {
            uint8_t v;
            memcpy(&v, source, 1);
            __atomic_store_n((uint8_t *)r, v, __ATOMIC_RELAXED);
            return;
        }
        case 2: {
            uint16_t v;
            memcpy(&v, source, 2);
            __atomic_store_n((uint16_t *)r, v, __ATOMIC_RELAXED);
            return;
        }
        case 4: {
            uint32_t v;
            memcpy(&v, source, 4);
            __atomic_store_n((uint32_t *)r, v, __ATOMIC_RELAXED);
            return;
        }
        default: {
            uint64_t v;
            memcpy(&v, source, 8);
            __atomic_store_n((uint64_t *)r, v, __ATOMIC_RELAXED);
            return;
        }
        }
    }
#if SHMEMI_HAVE_NT_STORES
    if (bypass && len >= SHMEMX_BYPASS_NT_THRESHOLD) {
        nt_copy(r, source, len);
        return;
    }
#else
    (void)bypass;
#endif
    memcpy(r, source, len);
}

/* Loads len bytes from a mapped address; an aligned word is one atomic load. */
static inline void load_bytes(void *dest, const char *r, size_t len) {
    if (len <= 8 && (len & (len - 1)) == 0 && ((uintptr_t)r & (len - 1)) == 0) {
        switch (len) {
        case 1: {
            uint8_t v = __atomic_load_n((const uint8_t *)r, __ATOMIC_RELAXED);
            memcpy(dest, &v, 1);
            return;
        }
        case 2: {
            uint16_t v = __atomic_load_n((const uint16_t *)r, __ATOMIC_RELAXED);
            memcpy(dest, &v, 2);
            return;
        }
        case 4: {
            uint32_t v = __atomic_load_n((const uint32_t *)r, __ATOMIC_RELAXED);
            memcpy(dest, &v, 4);
            return;
        }
        default: {
            uint64_t v = __atomic_load_n((const uint64_t *)r, __ATOMIC_RELAXED);
            memcpy(dest, &v, 8);
            return;
        }
        }
    }
    memcpy(dest, r, len);
}

/* The transport path: pe's copy of addr is not load/store reachable from here. */
void shmemi_transport_failed(const char *call, const shmemi_transport_ops_t *ops,
                             shmemi_status_t status, const void *addr, int pe) {
    shmemi_fatal(call, "transport %s failed to reach PE %d (status %d, address %p)", ops->name, pe,
                 (int)status, addr);
}

/* A host buffer for the bytes of this PE's GPU heap that a network operation reads or writes:
 * the network transport takes host memory only (docs/transports.md, "Delivered segments"). */
static void *bounce_alloc(const char *call, size_t len, int pe) {
    void *b = malloc(len);
    if (!b)
        shmemi_fatal(call, "out of memory for a host copy of %zu bytes of the GPU heap (PE %d)",
                     len, pe);
    return b;
}

static void transport_put(const char *call, const struct shmemi_ctx *c, void *dest,
                          const void *source, size_t len, int pe, int nbi) {
    int seg;
    size_t offset;
    const shmemi_transport_ops_t *ops = shmemi_route_transport(call, dest, pe, 0, &seg, &offset);
    shmemi_transport_ctx_t *tctx = shmemi_ctx_tctx(c, ops);
    shmemi_status_t st;
    if (ops == shmemi_transport_net && shmemi_local_on_device(source)) {
        /* Blocking: the put is locally complete at return, so the copy can go. */
        void *b = bounce_alloc(call, len, pe);
        shmemi_local_read(call, b, source, len);
        st = ops->put(tctx, seg, offset, b, len, pe);
        free(b);
    } else {
        st = nbi ? ops->put_nbi(tctx, seg, offset, source, len, pe)
                 : ops->put(tctx, seg, offset, source, len, pe);
    }
    if (st != SHMEMI_OK)
        shmemi_transport_failed(call, ops, st, dest, pe);
}

static void transport_get(const char *call, const struct shmemi_ctx *c, void *dest,
                          const void *source, size_t len, int pe, int nbi) {
    int seg;
    size_t offset;
    const shmemi_transport_ops_t *ops = shmemi_route_transport(call, source, pe, 0, &seg, &offset);
    shmemi_transport_ctx_t *tctx = shmemi_ctx_tctx(c, ops);
    shmemi_status_t st;
    if (ops == shmemi_transport_net && shmemi_local_on_device(dest)) {
        void *b = bounce_alloc(call, len, pe);
        st = ops->get(tctx, b, seg, offset, len, pe);
        if (st == SHMEMI_OK)
            shmemi_local_write(call, dest, b, len);
        free(b);
    } else {
        st = nbi ? ops->get_nbi(tctx, dest, seg, offset, len, pe)
                 : ops->get(tctx, dest, seg, offset, len, pe);
    }
    if (st != SHMEMI_OK)
        shmemi_transport_failed(call, ops, st, source, pe);
}

void shmemi_local_read(const char *call, void *dest, const void *addr, size_t len) {
    shmemi_status_t st = shmemi_transport_local->local_copy(dest, addr, len);
    if (st != SHMEMI_OK)
        shmemi_fatal(call, "cannot read %zu bytes at %p through transport '%s' (status %d)", len,
                     addr, shmemi_transport_local->name, (int)st);
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
}

void shmemi_local_write(const char *call, void *addr, const void *source, size_t len) {
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
    shmemi_status_t st = shmemi_transport_local->local_copy(addr, source, len);
    if (st != SHMEMI_OK)
        shmemi_fatal(call, "cannot write %zu bytes at %p through transport '%s' (status %d)", len,
                     addr, shmemi_transport_local->name, (int)st);
}

/* Stores len bytes from the caller's source into a mapped remote address r: through the heap's
 * transport when the source is this PE's GPU heap (a put from the GPU heap into a global). */
static void put_mapped(const char *call, char *r, const void *source, size_t len, int bypass) {
    if (shmemi_local_on_device(source))
        shmemi_local_read(call, r, source, len);
    else
        store_bytes(r, source, len, bypass);
}

/* Loads len bytes from a mapped remote address r into dest, which may be this PE's GPU heap. */
static void get_mapped(const char *call, void *dest, const char *r, size_t len) {
    if (shmemi_local_on_device(dest))
        shmemi_local_write(call, dest, r, len);
    else
        load_bytes(dest, r, len);
}

static inline char *route(const char *call, const void *addr, size_t len, int pe) {
    if (__builtin_expect(shmemi_state.debug, 0))
        shmemi_check_symmetric(call, addr, len, pe);
    return shmemi_ptr(addr, pe);
}

static inline void put_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                             size_t len, int pe, int nbi) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    if (len == 0)
        return;
    if (__builtin_expect(source == NULL, 0))
        shmemi_fatal(call, "source is NULL (%zu bytes for PE %d)", len, wpe);
    char *r = route(call, dest, len, wpe);
    if (__builtin_expect(r == NULL, 0)) {
        transport_put(call, c, dest, source, len, wpe, nbi);
        return;
    }
    put_mapped(call, r, source, len, (int)c->bypass);
}

static inline void get_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                             size_t len, int pe, int nbi) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    if (len == 0)
        return;
    if (__builtin_expect(dest == NULL, 0))
        shmemi_fatal(call, "dest is NULL (%zu bytes from PE %d)", len, wpe);
    char *r = route(call, source, len, wpe);
    if (__builtin_expect(r == NULL, 0)) {
        transport_get(call, c, dest, source, len, wpe, nbi);
        return;
    }
    get_mapped(call, dest, r, len);
    /* A get returns before any later write of the caller is issued (LB+gets+puts). */
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
}

void shmemi_put_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source, size_t len,
                      int pe) {
    put_bytes(call, ctx, dest, source, len, pe, 0);
}

void shmemi_put_bytes_nbi(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                          size_t len, int pe) {
    put_bytes(call, ctx, dest, source, len, pe, 1);
}

void shmemi_get_bytes(const char *call, shmem_ctx_t ctx, void *dest, const void *source, size_t len,
                      int pe) {
    get_bytes(call, ctx, dest, source, len, pe, 0);
}

void shmemi_get_bytes_nbi(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                          size_t len, int pe) {
    get_bytes(call, ctx, dest, source, len, pe, 1);
}

/* Checks a blocked strided range under SHMEM_DEBUG: no overflow, inside one symmetric segment
 * (a negative stride lays the blocks out below addr). */
static void check_strided(const char *call, const void *addr, ptrdiff_t stride, size_t elem_size,
                          size_t bsize, size_t nblocks, int pe) {
    size_t block_bytes, span, abs_stride = (size_t)(stride < 0 ? -stride : stride);
    if (__builtin_mul_overflow(bsize, elem_size, &block_bytes) ||
        __builtin_mul_overflow(nblocks - 1, abs_stride, &span) ||
        __builtin_mul_overflow(span, elem_size, &span) ||
        __builtin_add_overflow(span, block_bytes, &span))
        shmemi_fatal(call,
                     "strided range overflows: %zu blocks of %zu elements, stride %td, "
                     "address %p (target PE %d)",
                     nblocks, bsize, stride, addr, pe);
    const char *lo = (const char *)addr;
    if (stride < 0)
        lo -= (nblocks - 1) * abs_stride * elem_size;
    shmemi_check_symmetric(call, lo, span, pe);
}

void shmemi_put_strided(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t bsize,
                        size_t nblocks, int pe) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    if (bsize == 0 || nblocks == 0)
        return;
    if (__builtin_expect(source == NULL, 0))
        shmemi_fatal(call, "source is NULL (for PE %d)", wpe);
    if (__builtin_expect(shmemi_state.debug, 0))
        check_strided(call, dest, dst, elem_size, bsize, nblocks, wpe);
    size_t block_bytes = shmemi_nbytes(call, bsize, elem_size, wpe);
    char *r = shmemi_ptr(dest, wpe);
    const char *s = source;
    ptrdiff_t dstep = dst * (ptrdiff_t)elem_size, sstep = sst * (ptrdiff_t)elem_size;
    for (size_t i = 0; i < nblocks; i++) {
        if (__builtin_expect(r == NULL, 0))
            transport_put(call, c, (char *)dest + (ptrdiff_t)i * dstep, s + (ptrdiff_t)i * sstep,
                          block_bytes, wpe, 0);
        else
            put_mapped(call, r + (ptrdiff_t)i * dstep, s + (ptrdiff_t)i * sstep, block_bytes,
                       (int)c->bypass);
    }
}

void shmemi_get_strided(const char *call, shmem_ctx_t ctx, void *dest, const void *source,
                        ptrdiff_t dst, ptrdiff_t sst, size_t elem_size, size_t bsize,
                        size_t nblocks, int pe) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    if (bsize == 0 || nblocks == 0)
        return;
    if (__builtin_expect(dest == NULL, 0))
        shmemi_fatal(call, "dest is NULL (from PE %d)", wpe);
    if (__builtin_expect(shmemi_state.debug, 0))
        check_strided(call, source, sst, elem_size, bsize, nblocks, wpe);
    size_t block_bytes = shmemi_nbytes(call, bsize, elem_size, wpe);
    const char *r = shmemi_ptr(source, wpe);
    char *d = dest;
    ptrdiff_t dstep = dst * (ptrdiff_t)elem_size, sstep = sst * (ptrdiff_t)elem_size;
    for (size_t i = 0; i < nblocks; i++) {
        if (__builtin_expect(r == NULL, 0))
            transport_get(call, c, d + (ptrdiff_t)i * dstep,
                          (const char *)source + (ptrdiff_t)i * sstep, block_bytes, wpe, 0);
        else
            get_mapped(call, d + (ptrdiff_t)i * dstep, r + (ptrdiff_t)i * sstep, block_bytes);
    }
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
}

/* ---- typed, sized and byte forms ---------------------------------------------------------- */

/* One direction (put or get) of the typed bulk forms: blocking, _nbi, i and ib. */
#define SHMEMI_DEF_RMA_DIR(TYPE, NAME, DIR)                                                        \
    SHMEMI_API void shmem_ctx_##NAME##_##DIR(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,      \
                                             size_t nelems, int pe) {                              \
        static const char call[] = "shmem_" #NAME "_" #DIR;                                        \
        shmemi_##DIR##_bytes(call, ctx, dest, source,                                              \
                             shmemi_nbytes(call, nelems, sizeof(TYPE), pe), pe);                   \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_##DIR(TYPE *dest, const TYPE *source, size_t nelems, int pe) {  \
        shmem_ctx_##NAME##_##DIR(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                     \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_##DIR##_nbi(shmem_ctx_t ctx, TYPE *dest,                    \
                                                   const TYPE *source, size_t nelems, int pe) {    \
        static const char call[] = "shmem_" #NAME "_" #DIR "_nbi";                                 \
        shmemi_##DIR##_bytes_nbi(call, ctx, dest, source,                                          \
                                 shmemi_nbytes(call, nelems, sizeof(TYPE), pe), pe);               \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_##DIR##_nbi(TYPE *dest, const TYPE *source, size_t nelems,      \
                                               int pe) {                                           \
        shmem_ctx_##NAME##_##DIR##_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);               \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_i##DIR(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,     \
                                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems,         \
                                              int pe) {                                            \
        shmemi_##DIR##_strided("shmem_" #NAME "_i" #DIR, ctx, dest, source, dst, sst,              \
                               sizeof(TYPE), 1, nelems, pe);                                       \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_i##DIR(TYPE *dest, const TYPE *source, ptrdiff_t dst,           \
                                          ptrdiff_t sst, size_t nelems, int pe) {                  \
        shmem_ctx_##NAME##_i##DIR(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);          \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_ib##DIR(shmem_ctx_t ctx, TYPE *dest, const TYPE *source,    \
                                               ptrdiff_t dst, ptrdiff_t sst, size_t bsize,         \
                                               size_t nblocks, int pe) {                           \
        shmemi_##DIR##_strided("shmem_" #NAME "_ib" #DIR, ctx, dest, source, dst, sst,             \
                               sizeof(TYPE), bsize, nblocks, pe);                                  \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_ib##DIR(TYPE *dest, const TYPE *source, ptrdiff_t dst,          \
                                           ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) {  \
        shmem_ctx_##NAME##_ib##DIR(SHMEM_CTX_DEFAULT, dest, source, dst, sst, bsize, nblocks, pe); \
    }

#define SHMEMI_DEF_RMA(TYPE, NAME)                                                                 \
    SHMEMI_DEF_RMA_DIR(TYPE, NAME, put)                                                            \
    SHMEMI_DEF_RMA_DIR(TYPE, NAME, get)                                                            \
    SHMEMI_API void shmem_ctx_##NAME##_p(shmem_ctx_t ctx, TYPE *dest, TYPE value, int pe) {        \
        shmemi_put_bytes("shmem_" #NAME "_p", ctx, dest, &value, sizeof(TYPE), pe);                \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_p(TYPE *dest, TYPE value, int pe) {                             \
        shmem_ctx_##NAME##_p(SHMEM_CTX_DEFAULT, dest, value, pe);                                  \
    }                                                                                              \
    SHMEMI_API TYPE shmem_ctx_##NAME##_g(shmem_ctx_t ctx, const TYPE *source, int pe) {            \
        TYPE value;                                                                                \
        shmemi_get_bytes("shmem_" #NAME "_g", ctx, &value, source, sizeof(TYPE), pe);              \
        return value;                                                                              \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_g(const TYPE *source, int pe) {                                 \
        return shmem_ctx_##NAME##_g(SHMEM_CTX_DEFAULT, source, pe);                                \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_RMA)
#undef SHMEMI_DEF_RMA
#undef SHMEMI_DEF_RMA_DIR

/* One direction (put or get) of the sized forms: blocking, _nbi, i and ib. */
#define SHMEMI_DEF_RMA_SIZE_DIR(BITS, DIR)                                                         \
    SHMEMI_API void shmem_ctx_##DIR##BITS(shmem_ctx_t ctx, void *dest, const void *source,         \
                                          size_t nelems, int pe) {                                 \
        static const char call[] = "shmem_" #DIR #BITS;                                            \
        shmemi_##DIR##_bytes(call, ctx, dest, source, shmemi_nbytes(call, nelems, BITS / 8, pe),   \
                             pe);                                                                  \
    }                                                                                              \
    SHMEMI_API void shmem_##DIR##BITS(void *dest, const void *source, size_t nelems, int pe) {     \
        shmem_ctx_##DIR##BITS(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                        \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##DIR##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,   \
                                                size_t nelems, int pe) {                           \
        static const char call[] = "shmem_" #DIR #BITS "_nbi";                                     \
        shmemi_##DIR##_bytes_nbi(call, ctx, dest, source,                                          \
                                 shmemi_nbytes(call, nelems, BITS / 8, pe), pe);                   \
    }                                                                                              \
    SHMEMI_API void shmem_##DIR##BITS##_nbi(void *dest, const void *source, size_t nelems,         \
                                            int pe) {                                              \
        shmem_ctx_##DIR##BITS##_nbi(SHMEM_CTX_DEFAULT, dest, source, nelems, pe);                  \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_i##DIR##BITS(shmem_ctx_t ctx, void *dest, const void *source,        \
                                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) {  \
        shmemi_##DIR##_strided("shmem_i" #DIR #BITS, ctx, dest, source, dst, sst, BITS / 8, 1,     \
                               nelems, pe);                                                        \
    }                                                                                              \
    SHMEMI_API void shmem_i##DIR##BITS(void *dest, const void *source, ptrdiff_t dst,              \
                                       ptrdiff_t sst, size_t nelems, int pe) {                     \
        shmem_ctx_i##DIR##BITS(SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);             \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_ib##DIR##BITS(shmem_ctx_t ctx, void *dest, const void *source,       \
                                            ptrdiff_t dst, ptrdiff_t sst, size_t bsize,            \
                                            size_t nblocks, int pe) {                              \
        shmemi_##DIR##_strided("shmem_ib" #DIR #BITS, ctx, dest, source, dst, sst, BITS / 8,       \
                               bsize, nblocks, pe);                                                \
    }                                                                                              \
    SHMEMI_API void shmem_ib##DIR##BITS(void *dest, const void *source, ptrdiff_t dst,             \
                                        ptrdiff_t sst, size_t bsize, size_t nblocks, int pe) {     \
        shmem_ctx_ib##DIR##BITS(SHMEM_CTX_DEFAULT, dest, source, dst, sst, bsize, nblocks, pe);    \
    }

#define SHMEMI_DEF_RMA_SIZE(BITS)                                                                  \
    SHMEMI_DEF_RMA_SIZE_DIR(BITS, put)                                                             \
    SHMEMI_DEF_RMA_SIZE_DIR(BITS, get)
SHMEMI_RMA_BITS(SHMEMI_DEF_RMA_SIZE)
#undef SHMEMI_DEF_RMA_SIZE
#undef SHMEMI_DEF_RMA_SIZE_DIR

SHMEMI_API void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 int pe) {
    shmemi_put_bytes("shmem_putmem", ctx, dest, source, nelems, pe);
}

SHMEMI_API void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
    shmemi_put_bytes("shmem_putmem", SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}

SHMEMI_API void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                     int pe) {
    shmemi_put_bytes_nbi("shmem_putmem_nbi", ctx, dest, source, nelems, pe);
}

SHMEMI_API void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
    shmemi_put_bytes_nbi("shmem_putmem_nbi", SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}

SHMEMI_API void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 int pe) {
    shmemi_get_bytes("shmem_getmem", ctx, dest, source, nelems, pe);
}

SHMEMI_API void shmem_getmem(void *dest, const void *source, size_t nelems, int pe) {
    shmemi_get_bytes("shmem_getmem", SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}

SHMEMI_API void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                     int pe) {
    shmemi_get_bytes_nbi("shmem_getmem_nbi", ctx, dest, source, nelems, pe);
}

SHMEMI_API void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
    shmemi_get_bytes_nbi("shmem_getmem_nbi", SHMEM_CTX_DEFAULT, dest, source, nelems, pe);
}
