/* SPDX-License-Identifier: BSD-3-Clause */
/* AMOs as CPU atomics on a mapped word: relaxed, 4 or 8 bytes, the value's bits in a uint64_t.
 * Shared by host AMOs (src/host/amo.c) and the proxy's consumer (src/core/proxy.c). Internal. */
#ifndef SHMEMI_CPU_AMO_H
#define SHMEMI_CPU_AMO_H

#include "core/shmemi.h"

/* shmemi_cpu_amo32 and shmemi_cpu_amo64: one switch, instantiated per word size. */
#define SHMEMI_CPU_AMO_SIZED(BITS)                                                                 \
    static inline uint64_t shmemi_cpu_amo##BITS(shmemi_amo_op_t op, uint##BITS##_t *p,             \
                                                uint##BITS##_t v, uint##BITS##_t cmp) {            \
        switch (op) {                                                                              \
        case SHMEMI_AMO_FETCH:                                                                     \
            return __atomic_load_n(p, __ATOMIC_RELAXED);                                           \
        case SHMEMI_AMO_SET:                                                                       \
            __atomic_store_n(p, v, __ATOMIC_RELAXED);                                              \
            return 0;                                                                              \
        case SHMEMI_AMO_SWAP:                                                                      \
            return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);                                    \
        case SHMEMI_AMO_CSWAP:                                                                     \
            __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
            return cmp;                                                                            \
        case SHMEMI_AMO_ADD:                                                                       \
            return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                                     \
        case SHMEMI_AMO_AND:                                                                       \
            return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);                                     \
        case SHMEMI_AMO_OR:                                                                        \
            return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);                                      \
        case SHMEMI_AMO_XOR:                                                                       \
            return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);                                     \
        }                                                                                          \
        return 0;                                                                                  \
    }
SHMEMI_CPU_AMO_SIZED(32)
SHMEMI_CPU_AMO_SIZED(64)
#undef SHMEMI_CPU_AMO_SIZED

/* The AMO op on the size-byte word at p (4 or 8); returns the old bits, zero-extended (0 for
 * SET). */
static inline uint64_t shmemi_cpu_amo(shmemi_amo_op_t op, void *p, uint64_t v, uint64_t cmp,
                                      size_t size) {
    return size == 4 ? shmemi_cpu_amo32(op, (uint32_t *)p, (uint32_t)v, (uint32_t)cmp)
                     : shmemi_cpu_amo64(op, (uint64_t *)p, v, cmp);
}

/* The mapped address of an AMO's word addr on world PE pe, or NULL when AMOs to pe take a
 * transport: the network for every AMO of a job over several nodes (route amo_net,
 * docs/memory_model.md), the heap's transport where pe's word is not host memory. */
static inline void *shmemi_amo_ptr(const void *addr, int pe) {
    return __builtin_expect(shmemi_routes[pe].amo_net, 0) ? NULL : shmemi_ptr(addr, pe);
}

#endif
