/* SPDX-License-Identifier: BSD-3-Clause */
/* The credits of pushes across nodes, at their edge: a root pushes broadcasts of one and of two
 * inbox slots (docs/collectives.md, "Pushes across nodes") while every other PE across the network
 * sleeps between two calls, right after freeing a slot that completes a batch of credits. A push of
 * two slots whose second slot still holds the sleeper's next, unread piece must wait for that
 * piece's credit, not only for the first slot's: a sender that waited for the first slot's alone
 * would overwrite the unread piece, and the sleeper would find another call's data in its result.
 *
 * The calls of a round, by slots (one slot: 1000 bytes; two: 40000, for jobs of up to 32 PEs,
 * whose slots hold 32 KiB): 1, 2, 1 | sleep | 2, 2, 1, 2, 2. The barrier before a round returns
 * every credit owed (they ride with its tokens), so when the sleeper sleeps it has freed and
 * returned the round's pieces 0-3 (credits go four at a time when no token carries them), and
 * the round's last push, pieces 11 and 12, fills the slots of pieces 3 and 4: the sleeper's next
 * piece is in its second slot. A round moves 13 slots, so the rounds start at every slot of the
 * inbox; in the one where piece 11 lands in the inbox's last slot the push goes as two messages
 * of a slot each, the others test the two-slot message.
 * Only PEs that reach the root over the network sleep (a sleeper on the root's node would hold the
 * root back in the node's part of the broadcast); on one node this is a plain broadcast test. */
#include <string.h>
#include <unistd.h>

#include "coll_test.h"

#define ROUNDS 8
#define ONE 1000
#define TWO 40000
#define SLEEP_US 50000

static const size_t calls[] = {ONE, TWO, ONE, TWO, TWO, ONE, TWO, TWO};
#define N_CALLS (sizeof(calls) / sizeof(calls[0]))
/* The sleeper pauses before this call. */
#define SLEEP_BEFORE 3

static unsigned char byte_of(int call, size_t i) {
    return (unsigned char)ct_rand(17, (uint64_t)call, (uint64_t)i);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= 32, "at most 32 PEs (the sizes assume inbox slots of 32 KiB)");
    unsigned char *src = shmem_malloc(TWO), *dst = shmem_malloc(N_CALLS * TWO);
    CHECK(src && dst, "shmem_malloc failed");
    int sleeper = me != 0 && shmem_ptr(dst, 0) == NULL;
    for (int round = 0; round < ROUNDS; round++) {
        /* Each call into a buffer of its own: only the inbox can mix calls up. */
        memset(dst, 0, N_CALLS * TWO);
        shmem_barrier_all();
        for (size_t c = 0; c < N_CALLS; c++) {
            int call = round * (int)N_CALLS + (int)c;
            if (sleeper && c == SLEEP_BEFORE)
                usleep(SLEEP_US);
            for (size_t i = 0; i < calls[c]; i++)
                src[i] = byte_of(call, i);
            shmem_broadcastmem(SHMEM_TEAM_WORLD, dst + c * TWO, src, calls[c], 0);
        }
        if (me == 0)
            continue;
        for (size_t c = 0; c < N_CALLS; c++) {
            int call = round * (int)N_CALLS + (int)c;
            for (size_t i = 0; i < calls[c]; i++)
                CHECK(dst[c * TWO + i] == byte_of(call, i),
                      "round %d, call %zu (%zu bytes): byte %zu is %u, expected %u", round, c,
                      calls[c], i, dst[c * TWO + i], byte_of(call, i));
        }
    }
    shmem_barrier_all();
    shmem_free(dst);
    shmem_free(src);
    if (me == 0)
        printf("eager_credits: %d rounds of %zu broadcasts on %d PEs passed\n", ROUNDS, N_CALLS, n);
    shmem_finalize();
    return 0;
}
