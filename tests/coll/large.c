/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives on more than SHMEMI_COLL_STAGE_BYTES (2 MiB), the size of the staging area that
 * host collectives on GPU memory run through in rounds (src/host/coll_stage.c): broadcast from
 * the first and the last member and in place, reductions out of place and in place, fcollect,
 * collect of unequal blocks, and alltoall(s). Built on the library and on the test-only copy that
 * stages every collective (libshmem-staged), so the cpu platform runs several rounds. */
#include <string.h>

#include "coll_test.h"

#define MiB ((size_t)1024 * 1024)

static int me, npes, iteration;

static unsigned char byte_at(uint64_t who, size_t i) {
    return (unsigned char)(ct_rand(who, i, (uint64_t)iteration) % 251 + 1);
}

static void test_broadcast(unsigned char *src, unsigned char *dst, size_t bytes, int root) {
    iteration++;
    for (size_t i = 0; i < bytes; i++) {
        src[i] = me == root ? byte_at((uint64_t)root, i) : 3;
        dst[i] = 5;
    }
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, root) == 0, "rc");
    for (size_t i = 0; i < bytes; i++)
        CHECK(dst[i] == byte_at((uint64_t)root, i), "broadcast %zu bytes from %d: byte %zu", bytes,
              root, i);
    /* In place: dest == source everywhere. */
    iteration++;
    for (size_t i = 0; i < bytes; i++)
        src[i] = me == root ? byte_at((uint64_t)root, i) : 3;
    CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, src, src, bytes, root) == 0, "rc");
    for (size_t i = 0; i < bytes; i++)
        CHECK(src[i] == byte_at((uint64_t)root, i), "in-place broadcast from %d: byte %zu", root,
              i);
}

static void test_reduce(long *src, long *dst, size_t count) {
    for (int in_place = 0; in_place < 2; in_place++) {
        iteration++;
        long *d = in_place ? src : dst;
        for (size_t i = 0; i < count; i++)
            src[i] = (long)(ct_rand((uint64_t)me, i, (uint64_t)iteration) % 1000);
        CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, src, count) == 0, "rc");
        for (size_t i = 0; i < count; i++) {
            long want = 0;
            for (int pe = 0; pe < npes; pe++)
                want += (long)(ct_rand((uint64_t)pe, i, (uint64_t)iteration) % 1000);
            CHECK(d[i] == want, "sum_reduce of %zu longs, in place %d: element %zu is %ld, not %ld",
                  count, in_place, i, d[i], want);
        }
    }
}

/* collect: PE pe contributes block_bytes(pe) bytes. */
static size_t block_bytes(int pe, size_t base) {
    return base + (size_t)pe * 100 * 1024 + (size_t)pe;
}

static void test_collect(unsigned char *src, unsigned char *dst, size_t base) {
    iteration++;
    for (size_t i = 0; i < base; i++)
        src[i] = byte_at((uint64_t)me, i);
    CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, base) == 0, "rc");
    for (int pe = 0; pe < npes; pe++)
        for (size_t i = 0; i < base; i++)
            CHECK(dst[(size_t)pe * base + i] == byte_at((uint64_t)pe, i),
                  "fcollect of %zu bytes: PE %d byte %zu", base, pe, i);
    iteration++;
    for (size_t i = 0; i < block_bytes(me, base); i++)
        src[i] = byte_at((uint64_t)me, i);
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, block_bytes(me, base)) == 0, "rc");
    size_t at = 0;
    for (int pe = 0; pe < npes; pe++)
        for (size_t i = 0; i < block_bytes(pe, base); i++, at++)
            CHECK(dst[at] == byte_at((uint64_t)pe, i), "collect: PE %d byte %zu", pe, i);
}

static void test_alltoall(long *src, long *dst, size_t count) {
    iteration++;
    for (int to = 0; to < npes; to++)
        for (size_t i = 0; i < count; i++)
            src[(size_t)to * count + i] = (long)ct_rand((uint64_t)(me * 1000 + to), i, 0);
    CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, count) == 0, "rc");
    for (int from = 0; from < npes; from++)
        for (size_t i = 0; i < count; i++)
            CHECK(dst[(size_t)from * count + i] ==
                      (long)ct_rand((uint64_t)(from * 1000 + me), i, 0),
                  "alltoall of %zu longs: from PE %d element %zu", count, from, i);
    /* Strided: source stride 2, dest stride 3; the gaps stay untouched. */
    size_t per = count / 2;
    for (size_t k = 0; k < (size_t)npes * per * 3; k++)
        dst[k] = -1;
    for (int to = 0; to < npes; to++)
        for (size_t i = 0; i < per; i++)
            src[2 * ((size_t)to * per + i)] = (long)ct_rand((uint64_t)(me * 1000 + to), i, 1);
    CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, 3, 2, per) == 0, "rc");
    for (int from = 0; from < npes; from++)
        for (size_t i = 0; i < per; i++) {
            size_t at = 3 * ((size_t)from * per + i);
            CHECK(dst[at] == (long)ct_rand((uint64_t)(from * 1000 + me), i, 1) &&
                      dst[at + 1] == -1 && dst[at + 2] == -1,
                  "alltoalls of %zu longs: from PE %d element %zu", per, from, i);
        }
}

int main(void) {
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    /* fcollect of 700 KiB blocks and collect of larger ones: the largest result. */
    size_t collect_base = 700 * 1024;
    size_t collect_total = 0;
    for (int pe = 0; pe < npes; pe++)
        collect_total += block_bytes(pe, collect_base);
    size_t alltoall_count = (size_t)npes > 1 ? 3 * MiB / 8 / (size_t)npes + 5 : 3 * MiB / 8;
    size_t bytes = 5 * MiB + 3;
    if (collect_total > bytes)
        bytes = collect_total;
    if (3 * (size_t)npes * alltoall_count * sizeof(long) > bytes)
        bytes = 3 * (size_t)npes * alltoall_count * sizeof(long);
    unsigned char *src = shmem_malloc(bytes), *dst = shmem_malloc(bytes);
    CHECK(src != NULL && dst != NULL, "shmem_malloc of %zu bytes", bytes);

    test_broadcast(src, dst, 5 * MiB + 3, 0);
    test_broadcast(src, dst, 2 * MiB + 1, npes - 1);
    test_reduce((long *)src, (long *)dst, 2 * MiB / sizeof(long) + 1000);
    test_collect(src, dst, collect_base);
    test_alltoall((long *)src, (long *)dst, alltoall_count);

    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
