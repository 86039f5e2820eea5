/* SPDX-License-Identifier: BSD-3-Clause */
/* Team broadcast of every type of the RMA table and broadcastmem, from every root, for sizes
 * below and above the pipelining chunk; then the deprecated broadcast32/64 on strided active
 * sets (the root's dest stays untouched there). argv[1] selects SHMEM_BCAST_ALGORITHM; the chunk
 * is set small so that large sizes run through many chunks. broadcastmem also runs with sizes
 * around the 1 MiB that a member reads in one get from a parent on another node (256 chunks of
 * 4 KiB; coll_bcast.c), which the network tests take (tests/net). */
#include <string.h>

#include "coll_test.h"

#define MAX_BYTES (2 * 1024 * 1024 + 4096 + 3)
static const size_t counts[] = {1, 3, 100, 5000};
/* broadcastmem: many chunks; one get window less a byte, exactly, and a chunk and a byte more;
 * two windows and a few bytes. */
static const size_t mem_bytes[] = {300 * 1024 - 77, 1024 * 1024 - 1, 1024 * 1024,
                                   1024 * 1024 + 4096 + 1, MAX_BYTES};

static unsigned char *src, *dst;
static int me, npes, iteration;

#define VAL(T, root, i)                                                                            \
    ((T)(ct_rand((uint64_t)(root), (uint64_t)(i), (uint64_t)iteration) % 120 + 1))

#define DEF_TEST(T, N)                                                                             \
    static void test_##N(size_t count, int root) {                                                 \
        T *s = (T *)src, *d = (T *)dst;                                                            \
        for (size_t i = 0; i < count; i++) {                                                       \
            s[i] = me == root ? VAL(T, root, i) : (T)7;                                            \
            d[i] = (T)9;                                                                           \
        }                                                                                          \
        CHECK(shmem_##N##_broadcast(SHMEM_TEAM_WORLD, d, s, count, root) == 0, "rc");              \
        for (size_t i = 0; i < count; i++)                                                         \
            CHECK(d[i] == VAL(T, root, i),                                                         \
                  "shmem_" #N "_broadcast count %zu root %d: element "                             \
                  "%zu differs",                                                                   \
                  count, root, i);                                                                 \
    }
SHMEMI_RMA_TYPES(DEF_TEST)
#define RUN(T, N) test_##N(count, root);

static void fill_bytes(unsigned char *p, size_t n, int root) {
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(ct_rand((uint64_t)root, i, (uint64_t)iteration) | 1);
}

int main(int argc, char **argv) {
    ct_algorithm_from_args(argc, argv, "SHMEM_BCAST_ALGORITHM");
    setenv("SHMEM_BCAST_CHUNK_SIZE", "4K", 1);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_BYTES + 1);
    dst = shmem_malloc(MAX_BYTES + 1);
    long *psync = shmem_malloc(SHMEM_BCAST_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (int root = 0; root < npes; root++) {
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            size_t count = counts[c];
            iteration++;
            SHMEMI_RMA_TYPES(RUN)
        }
        /* broadcastmem, large: many chunks through the tree, random bytes. */
        for (size_t b = 0; b < sizeof(mem_bytes) / sizeof(mem_bytes[0]); b++) {
            iteration++;
            size_t bytes = mem_bytes[b];
            fill_bytes(src, bytes, root);
            memset(dst, 0, bytes + 1);
            CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, root) == 0, "rc");
            fill_bytes(src, bytes, root);
            CHECK(memcmp(dst, src, bytes) == 0, "broadcastmem %zu bytes from %d differs", bytes,
                  root);
            CHECK(bytes == MAX_BYTES || dst[bytes] == 0,
                  "broadcastmem %zu bytes from %d wrote past its end", bytes, root);
            shmem_barrier_all();
        }
    }
    /* Generic name. */
    int *is = (int *)src, *id = (int *)dst;
    is[0] = 1000 + me;
    shmem_broadcast(SHMEM_TEAM_WORLD, id, is, 1, npes - 1);
    CHECK(id[0] == 1000 + npes - 1, "generic broadcast gave %d", id[0]);
    /* Deprecated active sets: every second PE from PE 0, then all PEs. */
    for (int set = 0; set < 2; set++) {
        int log_stride = set == 0 ? 1 : 0, size = set == 0 ? (npes + 1) / 2 : npes;
        if (set == 0 && me % 2 != 0) {
            shmem_barrier_all();
            continue;
        }
        for (int root = 0; root < size; root++) {
            iteration = 10000 + 100 * set + root;
            uint64_t *s = (uint64_t *)src, *d = (uint64_t *)dst;
            for (int i = 0; i < 100; i++) {
                s[i] = ct_rand((uint64_t)root, (uint64_t)i, (uint64_t)iteration);
                d[i] = 5;
            }
            int my_index = me >> log_stride;
            if (root % 2)
                shmem_broadcast32(d, s, 200, root, 0, log_stride, size, psync);
            else
                shmem_broadcast64(d, s, 100, root, 0, log_stride, size, psync);
            for (int i = 0; i < 100; i++) {
                uint64_t want = my_index == root
                                    ? 5
                                    : ct_rand((uint64_t)root, (uint64_t)i, (uint64_t)iteration);
                CHECK(d[i] == want, "broadcast%d set %d root %d: word %d differs",
                      root % 2 ? 32 : 64, set, root, i);
            }
            shmem_sync(0, log_stride, size, psync);
        }
        shmem_barrier_all();
    }
    shmem_free(psync);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
