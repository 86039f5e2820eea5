/* SPDX-License-Identifier: BSD-3-Clause */
/* Back-to-back collectives on the same buffers with nothing between them: every PE sleeps for a
 * random time before each call and again after it, before it checks the result, so some members
 * run several collectives ahead of others. A member that pushes data to another (across nodes,
 * into its inbox: docs/collectives.md) must never overwrite what that member has not consumed
 * yet: an inbox slot not yet copied out, or the previous result in dest, which its owner is still
 * checking. Random data per iteration and member, so a result overwritten by a later
 * collective's data fails the check. Sizes on both sides of the push limit (an inbox slot) and of
 * the broadcast's chunk. */
#include <string.h>
#include <unistd.h>

#include "coll_test.h"

#define ITERATIONS 600
#define SMALL 64
#define LARGE (80 * 1024)
/* Across nodes: pushed in one piece (an inbox slot holds 32 KiB, less from 33 PEs on), the
 * largest one-piece push, pushed in two pieces (8 bytes past a slot, 48 KiB, and the largest),
 * just past that (pulled in one chunk), and pulled in chunks. */
static const size_t lens[] = {SMALL,     20000,     32 * 1024,     32 * 1024 + 8,
                              48 * 1024, 64 * 1024, 64 * 1024 + 8, LARGE};
#define MAX_PES 16
/* The longest reduction: larger than an inbox slot. */
#define LONGS (20 * 1024)

static unsigned char byte_of(int pe, int iteration, size_t i) {
    return (unsigned char)ct_rand((uint64_t)pe, (uint64_t)iteration, (uint64_t)i);
}

/* A random pause: for stretches of 8 iterations one member is the slow one (up to 500 us on
 * every other call), so the others run ahead of it; the rest pause briefly now and then. */
static void pause_randomly(int me, int iteration, int where) {
    uint64_t r = ct_rand((uint64_t)me + 1000, (uint64_t)iteration, (uint64_t)where);
    int slow = (int)(ct_rand(11, (uint64_t)iteration / 8, 0) % (uint64_t)shmem_n_pes()) == me;
    if (slow && r % 2 == 0)
        usleep((useconds_t)(r / 2 % 500));
    else if (r % 8 == 0)
        usleep((useconds_t)(r / 8 % 50));
}

static void fill(unsigned char *p, size_t len, int pe, int iteration) {
    for (size_t i = 0; i < len; i++)
        p[i] = byte_of(pe, iteration, i);
}

static void expect(const unsigned char *p, size_t len, int pe, int iteration, const char *what) {
    for (size_t i = 0; i < len; i++)
        CHECK(p[i] == byte_of(pe, iteration, i),
              "%s, iteration %d: byte %zu of PE %d's data is %u, expected %u", what, iteration, i,
              pe, p[i], byte_of(pe, iteration, i));
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(n <= MAX_PES, "at most %d PEs", MAX_PES);
    unsigned char *src = shmem_malloc((size_t)MAX_PES * LARGE);
    unsigned char *dst = shmem_malloc((size_t)MAX_PES * LARGE);
    long *lsrc = shmem_malloc(LONGS * sizeof(long)), *ldst = shmem_malloc(LONGS * sizeof(long));
    CHECK(src && dst && lsrc && ldst, "shmem_malloc failed");
    for (int it = 0; it < ITERATIONS; it++) {
        /* Runs of one kind and root, so that a fast root can run ahead. */
        int kind = (int)(ct_rand(7, (uint64_t)it / 4, 0) % 7), root = (it / 16) % n;
        size_t len = lens[ct_rand(9, (uint64_t)it / 4, 1) % (sizeof(lens) / sizeof(lens[0]))];
        pause_randomly(me, it, 0);
        switch (kind) {
        case 0:
        case 1:
            fill(src, len, me, it);
            shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, len, root);
            pause_randomly(me, it, 1);
            if (me != root)
                expect(dst, len, root, it, "broadcastmem");
            break;
        case 2:
        case 3:
            /* Block j of the source goes to member j: PE me's data for j is seeded by me * n + j.
             */
            for (int j = 0; j < n; j++)
                fill(src + (size_t)j * len, len, me * n + j, it);
            shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, len);
            pause_randomly(me, it, 1);
            for (int j = 0; j < n; j++)
                expect(dst + (size_t)j * len, len, j * n + me, it, "alltoallmem");
            break;
        case 4:
        case 5:
            fill(src, len, me, it);
            shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, len);
            pause_randomly(me, it, 1);
            for (int j = 0; j < n; j++)
                expect(dst + (size_t)j * len, len, j, it, "fcollectmem");
            break;
        default: {
            /* Pushed between nodes in recursive doubling (in one piece, 24000 bytes, and in two,
             * 48000 and 65536 bytes, the latter recursive doubling only where every PE is on a
             * node of its own), and pulled. */
            int counts[] = {SMALL, 3000, 6000, 8192, LONGS}, count = counts[it % 20 / 4];
            for (int i = 0; i < count; i++)
                lsrc[i] = (long)(ct_rand((uint64_t)me, (uint64_t)it, (uint64_t)i) % 1000);
            shmem_long_sum_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, (size_t)count);
            pause_randomly(me, it, 1);
            for (int i = 0; i < count; i++) {
                long want = 0;
                for (int j = 0; j < n; j++)
                    want += (long)(ct_rand((uint64_t)j, (uint64_t)it, (uint64_t)i) % 1000);
                CHECK(ldst[i] == want, "long_sum_reduce, iteration %d: element %d is %ld, not %ld",
                      it, i, ldst[i], want);
            }
            break;
        }
        }
    }
    shmem_barrier_all();
    shmem_free(ldst);
    shmem_free(lsrc);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
