/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic memory operations on the host: hardware atomics on the peer's mapping (relaxed, 4 or 8
 * bytes; float and double fetch/set/swap as same-width integer atomics), else the transport. */
#include "core/shmemi.h"
#include "core/cpu_amo.h"
#include "host/rma_internal.h"

/* The transport path of an AMO: the network when the route says AMOs take it, else the
 * segment's own transport (ipc, for the GPU heap). fetch_p NULL: non-fetching. */
static void amo_transport(const char *call, const struct shmemi_ctx *c, shmemi_amo_op_t op,
                          void *dest, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                          size_t size, int wpe) {
    int seg;
    size_t offset;
    const shmemi_transport_ops_t *ops = shmemi_route_transport(call, dest, wpe, 1, &seg, &offset);
    shmemi_status_t st =
        ops->amo(shmemi_ctx_tctx(c, ops), op, seg, offset, fetch_p, operand, compare, size, wpe);
    if (st != SHMEMI_OK)
        shmemi_transport_failed(call, ops, st, dest, wpe);
}

/* The mapped address of dest on wpe for a CPU atomic, or NULL when AMOs to wpe take a transport. */
static inline void *amo_route(const char *call, void *dest, size_t size, int wpe) {
    if (__builtin_expect(shmemi_state.debug, 0)) {
        shmemi_check_symmetric(call, dest, size, wpe);
        shmemi_check_aligned(call, dest, size, wpe);
    }
    return shmemi_amo_ptr(dest, wpe);
}

uint64_t shmemi_amo(const char *call, shmem_ctx_t ctx, shmemi_amo_op_t op, void *dest,
                    uint64_t operand, uint64_t compare, size_t size, int pe) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    void *r = amo_route(call, dest, size, wpe);
    if (__builtin_expect(r != NULL, 1)) {
        uint64_t fetched = shmemi_cpu_amo(op, r, operand, compare, size);
        /* A fetching AMO returns before any later write of the caller is issued. */
        SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
        return fetched;
    }
    uint64_t fetched = 0;
    amo_transport(call, c, op, dest, &fetched, operand, compare, size, wpe);
    return fetched;
}

void shmemi_amo_post(const char *call, shmem_ctx_t ctx, shmemi_amo_op_t op, void *dest,
                     uint64_t operand, size_t size, int pe) {
    struct shmemi_ctx *c = shmemi_ctx_get(call, ctx);
    int wpe = shmemi_ctx_world_pe(call, c, pe);
    void *r = amo_route(call, dest, size, wpe);
    if (__builtin_expect(r != NULL, 1)) {
        (void)shmemi_cpu_amo(op, r, operand, 0, size);
        return;
    }
    amo_transport(call, c, op, dest, NULL, operand, 0, size, wpe);
}

/* The operand words handed to the transport are little-endian prefixes of uint64_t on the
 * platforms libshmem supports, so 4-byte operands sit in the first 4 bytes. */
#define AMO(call, ctx, op, dest, TYPE, v, cmp, pe)                                                 \
    shmemi_amo(call, ctx, op, dest, SHMEMI_TO_BITS(TYPE, v), SHMEMI_TO_BITS(TYPE, cmp),            \
               sizeof(TYPE), pe)

#define AMO_POST(call, ctx, op, dest, TYPE, v, pe)                                                 \
    shmemi_amo_post(call, ctx, op, dest, SHMEMI_TO_BITS(TYPE, v), sizeof(TYPE), pe)

#define SHMEMI_DEF_AMO_EXTENDED(TYPE, NAME)                                                        \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_fetch(shmem_ctx_t ctx, const TYPE *source, int pe) { \
        return SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch", ctx, SHMEMI_AMO_FETCH,   \
                                          (void *)source, TYPE, 0, 0, pe));                        \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_fetch(const TYPE *source, int pe) {                      \
        return shmem_ctx_##NAME##_atomic_fetch(SHMEM_CTX_DEFAULT, source, pe);                     \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_set(shmem_ctx_t ctx, TYPE *dest, TYPE value,         \
                                                  int pe) {                                        \
        AMO_POST("shmem_" #NAME "_atomic_set", ctx, SHMEMI_AMO_SET, dest, TYPE, value, pe);        \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_set(TYPE *dest, TYPE value, int pe) {                    \
        shmem_ctx_##NAME##_atomic_set(SHMEM_CTX_DEFAULT, dest, value, pe);                         \
    }                                                                                              \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_swap(shmem_ctx_t ctx, TYPE *dest, TYPE value,        \
                                                   int pe) {                                       \
        return SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_swap", ctx, SHMEMI_AMO_SWAP,     \
                                          dest, TYPE, value, 0, pe));                              \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_swap(TYPE *dest, TYPE value, int pe) {                   \
        return shmem_ctx_##NAME##_atomic_swap(SHMEM_CTX_DEFAULT, dest, value, pe);                 \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_fetch_nbi(shmem_ctx_t ctx, TYPE *fetch,              \
                                                        const TYPE *source, int pe) {              \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch_nbi", ctx,               \
                                            SHMEMI_AMO_FETCH, (void *)source, TYPE, 0, 0, pe));    \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_fetch_nbi(TYPE *fetch, const TYPE *source, int pe) {     \
        shmem_ctx_##NAME##_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, fetch, source, pe);                 \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_swap_nbi(shmem_ctx_t ctx, TYPE *fetch, TYPE *dest,   \
                                                       TYPE value, int pe) {                       \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_swap_nbi", ctx,                \
                                            SHMEMI_AMO_SWAP, dest, TYPE, value, 0, pe));           \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_swap_nbi(TYPE *fetch, TYPE *dest, TYPE value, int pe) {  \
        shmem_ctx_##NAME##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);             \
    }
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEF_AMO_EXTENDED)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DEF_AMO_EXTENDED)
#undef SHMEMI_DEF_AMO_EXTENDED

#define SHMEMI_DEF_AMO_STANDARD(TYPE, NAME)                                                        \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_compare_swap(shmem_ctx_t ctx, TYPE *dest, TYPE cond, \
                                                           TYPE value, int pe) {                   \
        return SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_compare_swap", ctx,              \
                                          SHMEMI_AMO_CSWAP, dest, TYPE, value, cond, pe));         \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_compare_swap(TYPE *dest, TYPE cond, TYPE value,          \
                                                       int pe) {                                   \
        return shmem_ctx_##NAME##_atomic_compare_swap(SHMEM_CTX_DEFAULT, dest, cond, value, pe);   \
    }                                                                                              \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_fetch_inc(shmem_ctx_t ctx, TYPE *dest, int pe) {     \
        return SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch_inc", ctx, SHMEMI_AMO_ADD, \
                                          dest, TYPE, 1, 0, pe));                                  \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_fetch_inc(TYPE *dest, int pe) {                          \
        return shmem_ctx_##NAME##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, dest, pe);                   \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_inc(shmem_ctx_t ctx, TYPE *dest, int pe) {           \
        AMO_POST("shmem_" #NAME "_atomic_inc", ctx, SHMEMI_AMO_ADD, dest, TYPE, 1, pe);            \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_inc(TYPE *dest, int pe) {                                \
        shmem_ctx_##NAME##_atomic_inc(SHMEM_CTX_DEFAULT, dest, pe);                                \
    }                                                                                              \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_fetch_add(shmem_ctx_t ctx, TYPE *dest, TYPE value,   \
                                                        int pe) {                                  \
        return SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch_add", ctx, SHMEMI_AMO_ADD, \
                                          dest, TYPE, value, 0, pe));                              \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_fetch_add(TYPE *dest, TYPE value, int pe) {              \
        return shmem_ctx_##NAME##_atomic_fetch_add(SHMEM_CTX_DEFAULT, dest, value, pe);            \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_add(shmem_ctx_t ctx, TYPE *dest, TYPE value,         \
                                                  int pe) {                                        \
        AMO_POST("shmem_" #NAME "_atomic_add", ctx, SHMEMI_AMO_ADD, dest, TYPE, value, pe);        \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_add(TYPE *dest, TYPE value, int pe) {                    \
        shmem_ctx_##NAME##_atomic_add(SHMEM_CTX_DEFAULT, dest, value, pe);                         \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_compare_swap_nbi(                                    \
        shmem_ctx_t ctx, TYPE *fetch, TYPE *dest, TYPE cond, TYPE value, int pe) {                 \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_compare_swap_nbi", ctx,        \
                                            SHMEMI_AMO_CSWAP, dest, TYPE, value, cond, pe));       \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_compare_swap_nbi(TYPE *fetch, TYPE *dest, TYPE cond,     \
                                                           TYPE value, int pe) {                   \
        shmem_ctx_##NAME##_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, cond, value,    \
                                                   pe);                                            \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, TYPE *fetch,          \
                                                            TYPE *dest, int pe) {                  \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch_inc_nbi", ctx,           \
                                            SHMEMI_AMO_ADD, dest, TYPE, 1, 0, pe));                \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_fetch_inc_nbi(TYPE *fetch, TYPE *dest, int pe) {         \
        shmem_ctx_##NAME##_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, fetch, dest, pe);               \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_fetch_add_nbi(shmem_ctx_t ctx, TYPE *fetch,          \
                                                            TYPE *dest, TYPE value, int pe) {      \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch_add_nbi", ctx,           \
                                            SHMEMI_AMO_ADD, dest, TYPE, value, 0, pe));            \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_fetch_add_nbi(TYPE *fetch, TYPE *dest, TYPE value,       \
                                                        int pe) {                                  \
        shmem_ctx_##NAME##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);        \
    }
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEF_AMO_STANDARD)
#undef SHMEMI_DEF_AMO_STANDARD

#define SHMEMI_DEF_AMO_BITWISE_OP(TYPE, NAME, OP, AMO_OP)                                          \
    SHMEMI_API TYPE shmem_ctx_##NAME##_atomic_fetch##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value,   \
                                                        int pe) {                                  \
        return SHMEMI_FROM_BITS(                                                                   \
            TYPE, AMO("shmem_" #NAME "_atomic_fetch" #OP, ctx, AMO_OP, dest, TYPE, value, 0, pe)); \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_atomic_fetch##OP(TYPE *dest, TYPE value, int pe) {              \
        return shmem_ctx_##NAME##_atomic_fetch##OP(SHMEM_CTX_DEFAULT, dest, value, pe);            \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic##OP(shmem_ctx_t ctx, TYPE *dest, TYPE value,         \
                                                  int pe) {                                        \
        AMO_POST("shmem_" #NAME "_atomic" #OP, ctx, AMO_OP, dest, TYPE, value, pe);                \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic##OP(TYPE *dest, TYPE value, int pe) {                    \
        shmem_ctx_##NAME##_atomic##OP(SHMEM_CTX_DEFAULT, dest, value, pe);                         \
    }                                                                                              \
    SHMEMI_API void shmem_ctx_##NAME##_atomic_fetch##OP##_nbi(shmem_ctx_t ctx, TYPE *fetch,        \
                                                              TYPE *dest, TYPE value, int pe) {    \
        *fetch = SHMEMI_FROM_BITS(TYPE, AMO("shmem_" #NAME "_atomic_fetch" #OP "_nbi", ctx,        \
                                            AMO_OP, dest, TYPE, value, 0, pe));                    \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_atomic_fetch##OP##_nbi(TYPE *fetch, TYPE *dest, TYPE value,     \
                                                          int pe) {                                \
        shmem_ctx_##NAME##_atomic_fetch##OP##_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);      \
    }
#define SHMEMI_DEF_AMO_BITWISE(TYPE, NAME)                                                         \
    SHMEMI_DEF_AMO_BITWISE_OP(TYPE, NAME, _and, SHMEMI_AMO_AND)                                    \
    SHMEMI_DEF_AMO_BITWISE_OP(TYPE, NAME, _or, SHMEMI_AMO_OR)                                      \
    SHMEMI_DEF_AMO_BITWISE_OP(TYPE, NAME, _xor, SHMEMI_AMO_XOR)
SHMEMI_AMO_BITWISE_TYPES(SHMEMI_DEF_AMO_BITWISE)
#undef SHMEMI_DEF_AMO_BITWISE
#undef SHMEMI_DEF_AMO_BITWISE_OP

/* ---- names deprecated in OpenSHMEM 1.4 ---------------------------------------------------- */

#define SHMEMI_DEF_AMO_DEPRECATED(TYPE, NAME)                                                      \
    SHMEMI_API TYPE shmem_##NAME##_cswap(TYPE *dest, TYPE cond, TYPE value, int pe) {              \
        return shmem_##NAME##_atomic_compare_swap(dest, cond, value, pe);                          \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_finc(TYPE *dest, int pe) {                                      \
        return shmem_##NAME##_atomic_fetch_inc(dest, pe);                                          \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_inc(TYPE *dest, int pe) {                                       \
        shmem_##NAME##_atomic_inc(dest, pe);                                                       \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_fadd(TYPE *dest, TYPE value, int pe) {                          \
        return shmem_##NAME##_atomic_fetch_add(dest, value, pe);                                   \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_add(TYPE *dest, TYPE value, int pe) {                           \
        shmem_##NAME##_atomic_add(dest, value, pe);                                                \
    }
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEF_AMO_DEPRECATED)
#undef SHMEMI_DEF_AMO_DEPRECATED

#define SHMEMI_DEF_AMO_DEPRECATED_EXTENDED(TYPE, NAME)                                             \
    SHMEMI_API TYPE shmem_##NAME##_swap(TYPE *dest, TYPE value, int pe) {                          \
        return shmem_##NAME##_atomic_swap(dest, value, pe);                                        \
    }                                                                                              \
    SHMEMI_API TYPE shmem_##NAME##_fetch(const TYPE *source, int pe) {                             \
        return shmem_##NAME##_atomic_fetch(source, pe);                                            \
    }                                                                                              \
    SHMEMI_API void shmem_##NAME##_set(TYPE *dest, TYPE value, int pe) {                           \
        shmem_##NAME##_atomic_set(dest, value, pe);                                                \
    }
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEF_AMO_DEPRECATED_EXTENDED)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DEF_AMO_DEPRECATED_EXTENDED)
#undef SHMEMI_DEF_AMO_DEPRECATED_EXTENDED
