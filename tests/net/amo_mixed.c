/* SPDX-License-Identifier: BSD-3-Clause */
/* AMOs on one word from PEs on its node and PEs on other nodes at once: every update must count.
 * Each PE adds random amounts to PE 0's 32- and 64-bit words with add, fetch_add and inc, and
 * takes and releases a lock word with compare_swap; PE 0 checks the sums. Run over several nodes
 * (tests/net), where node peers would use CPU atomics and the others the network's, were AMOs not
 * all routed one way (docs/memory_model.md, "Atomicity across paths"). */
#include <inttypes.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "net_mix.h"

#define ROUNDS 100

static uint64_t sum64;
static uint32_t sum32;
static long owner = -1;
static long in_section;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    uint64_t *added = shmem_calloc((size_t)n, sizeof(uint64_t));
    if (!added) {
        fprintf(stderr, "PE %d: shmem_calloc failed\n", me);
        return 1;
    }
    uint64_t seed = net_mix((uint64_t)me * 0x9e3779b97f4a7c15ull + 12345), mine = 0;
    for (int i = 0; i < ROUNDS; i++) {
        uint64_t v = net_mix(seed + (uint64_t)i) % 1000 + 1;
        switch (i % 3) {
        case 0:
            shmem_uint64_atomic_add(&sum64, v, 0);
            break;
        case 1:
            shmem_uint64_atomic_fetch_add(&sum64, v, 0);
            break;
        default:
            shmem_uint64_atomic_inc(&sum64, 0);
            v = 1;
            break;
        }
        shmem_uint32_atomic_add(&sum32, (uint32_t)v, 0);
        mine += v;
        /* A critical section guarded by compare_swap on PE 0's word. */
        while (shmem_long_atomic_compare_swap(&owner, -1, me, 0) != -1)
            ;
        long inside = shmem_long_atomic_fetch_inc(&in_section, 0);
        if (inside != 0) {
            fprintf(stderr, "PE %d: %ld PEs inside the critical section\n", me, inside + 1);
            shmem_global_exit(1);
        }
        shmem_long_atomic_add(&in_section, -1, 0);
        if (shmem_long_atomic_swap(&owner, -1, 0) != me) {
            fprintf(stderr, "PE %d: lost the lock while holding it\n", me);
            shmem_global_exit(1);
        }
    }
    shmem_uint64_p(&added[me], mine, 0);
    shmem_barrier_all();
    if (me == 0) {
        uint64_t want = 0;
        for (int pe = 0; pe < n; pe++)
            want += added[pe];
        if (sum64 != want || sum32 != (uint32_t)want) {
            fprintf(stderr, "amo_mixed: sums %" PRIu64 " and %" PRIu32 ", expected %" PRIu64 "\n",
                    sum64, sum32, want);
            shmem_global_exit(1);
        }
        printf("amo_mixed: %d PEs, %d rounds each: sums agree (%" PRIu64 ")\n", n, ROUNDS, want);
    }
    shmem_free(added);
    shmem_finalize();
    return 0;
}
