/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_fence between an AMO and a put to a PE of the same node in a job over several nodes,
 * where the AMO takes the network (docs/memory_model.md, "Atomicity across paths") and the put
 * the node's load/store path: the fence must order the two paths, so a PE that sees the put must
 * see the AMO. Even PEs write to the next odd PE, both of one node under node_by_rank.sh 2: an
 * add of a random amount, a fence, then the running sum by p (or by put-with-signal, whose signal
 * also takes the network); the odd PE waits for the sum (or the signal) and fetches its word,
 * which must hold at least the sum it saw. The same with fences issued by shmem_ctx_fence on a
 * context of its own. */
#include <inttypes.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "net_mix.h"

#define ROUNDS 2000

static uint64_t word;
static uint64_t sum_seen;
static uint64_t sig;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (n % 2 != 0) {
        if (me == 0)
            fprintf(stderr, "fence_mixed: needs an even number of PEs, got %d\n", n);
        shmem_global_exit(1);
    }
    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
        fprintf(stderr, "PE %d: shmem_ctx_create failed\n", me);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    uint64_t sum = 0;
    int late = 0;
    for (int i = 0; i < ROUNDS; i++) {
        int use_ctx = (i / 100) % 2, phase = i % 3;
        shmem_ctx_t c = use_ctx ? ctx : SHMEM_CTX_DEFAULT;
        if (me % 2 == 0) {
            int peer = me + 1;
            uint64_t v = net_mix((uint64_t)me * 7919 + (uint64_t)i) % 1000 + 1;
            sum += v;
            shmem_ctx_uint64_atomic_add(c, &word, v, peer);
            shmem_ctx_fence(c);
            if (phase == 2)
                shmem_ctx_putmem_signal(c, &sum_seen, &sum, sizeof(sum), &sig, (uint64_t)i + 1,
                                        SHMEM_SIGNAL_SET, peer);
            else
                shmem_ctx_uint64_p(c, &sum_seen, sum, peer);
        } else {
            sum += net_mix((uint64_t)(me - 1) * 7919 + (uint64_t)i) % 1000 + 1;
            if (phase == 2)
                shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)i + 1);
            else
                shmem_uint64_wait_until(&sum_seen, SHMEM_CMP_GE, sum);
            uint64_t seen = __atomic_load_n(&sum_seen, __ATOMIC_ACQUIRE);
            uint64_t have = shmem_uint64_atomic_fetch(&word, me);
            if (have < seen && late++ < 5)
                fprintf(stderr,
                        "fence_mixed: PE %d round %d: the put arrived with sum %" PRIu64
                        " but the word fenced before it holds %" PRIu64 "\n",
                        me, i, seen, have);
        }
        if (i % 100 == 99)
            shmem_barrier_all();
    }
    shmem_ctx_destroy(ctx);
    int bad = 0;
    static int late_all;
    shmem_int_atomic_add(&late_all, late, 0);
    shmem_barrier_all();
    if (me == 0) {
        bad = late_all;
        if (bad)
            fprintf(stderr, "fence_mixed: %d rounds saw the put before the fenced AMO\n", bad);
        else
            printf("fence_mixed: %d PEs, %d rounds: every put after its fenced AMO\n", n, ROUNDS);
    }
    shmem_finalize();
    return bad ? 1 : 0;
}
