/* SPDX-License-Identifier: BSD-3-Clause */
/* AMOs as CPU atomics on a mapped word: 4 or 8 bytes, the value's bits in a uint64_t. Shared by
 * host AMOs (src/host/amo.c), the proxy's consumer (src/core/proxy.c) and the delivery of network
 * AMOs (src/core/deliver.c). Internal. */
#ifndef SHMEMI_CPU_AMO_H
#define SHMEMI_CPU_AMO_H

#include "core/shmemi.h"

/* One switch, instantiated per word size and memory order: shmemi_cpu_amo32/64 relaxed (host
 * AMOs, the proxy), shmemi_cpu_amo_acq_rel32/64 acquire-release (set: a release store, fetch: an
 * acquire load; the target's delivery of a network AMO, src/core/deliver.c). */
#define SHMEMI_CPU_AMO_SIZED(NAME, BITS, LOAD, STORE, RMW, FAIL)                                   \
    static inline uint64_t NAME##BITS(shmemi_amo_op_t op, uint##BITS##_t *p, uint##BITS##_t v,     \
                                      uint##BITS##_t cmp) {                                        \
        switch (op) {                                                                              \
        case SHMEMI_AMO_FETCH:                                                                     \
            return __atomic_load_n(p, LOAD);                                                       \
        case SHMEMI_AMO_SET:                                                                       \
            __atomic_store_n(p, v, STORE);                                                         \
            return 0;                                                                              \
        case SHMEMI_AMO_SWAP:                                                                      \
            return __atomic_exchange_n(p, v, RMW);                                                 \
        case SHMEMI_AMO_CSWAP:                                                                     \
            __atomic_compare_exchange_n(p, &cmp, v, 0, RMW, FAIL);                                 \
            return cmp;                                                                            \
        case SHMEMI_AMO_ADD:                                                                       \
            return __atomic_fetch_add(p, v, RMW);                                                  \
        case SHMEMI_AMO_AND:                                                                       \
            return __atomic_fetch_and(p, v, RMW);                                                  \
        case SHMEMI_AMO_OR:                                                                        \
            return __atomic_fetch_or(p, v, RMW);                                                   \
        case SHMEMI_AMO_XOR:                                                                       \
            return __atomic_fetch_xor(p, v, RMW);                                                  \
        }                                                                                          \
        return 0;                                                                                  \
    }
#define SHMEMI_CPU_AMO_RELAXED(NAME, BITS)                                                         \
    SHMEMI_CPU_AMO_SIZED(NAME, BITS, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __ATOMIC_RELAXED,         \
                         __ATOMIC_RELAXED)
#define SHMEMI_CPU_AMO_ACQ_REL(NAME, BITS)                                                         \
    SHMEMI_CPU_AMO_SIZED(NAME, BITS, __ATOMIC_ACQUIRE, __ATOMIC_RELEASE, __ATOMIC_ACQ_REL,         \
                         __ATOMIC_ACQUIRE)
SHMEMI_CPU_AMO_RELAXED(shmemi_cpu_amo, 32)
SHMEMI_CPU_AMO_RELAXED(shmemi_cpu_amo, 64)
SHMEMI_CPU_AMO_ACQ_REL(shmemi_cpu_amo_acq_rel, 32)
SHMEMI_CPU_AMO_ACQ_REL(shmemi_cpu_amo_acq_rel, 64)
#undef SHMEMI_CPU_AMO_RELAXED
#undef SHMEMI_CPU_AMO_ACQ_REL
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
