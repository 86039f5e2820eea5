/* SPDX-License-Identifier: BSD-3-Clause */
/* collect (blocks of different sizes, some empty) and fcollect of every type of the RMA table,
 * collectmem and fcollectmem, and the deprecated collect32/64 and fcollect32/64 on active sets.
 * argv[1] selects SHMEM_COLLECT_ALGORITHM. */
#include <string.h>

#include "coll_test.h"

#define MAX_BYTES (64 * 1024)
static const size_t counts[] = {1, 4, 97};

static unsigned char *src, *dst;
static int me, npes, iteration;

#define VAL(T, pe, i) ((T)(ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 120 + 1))
/* collect: PE pe contributes a count that depends on pe (PE 1 none at all). */
static size_t collect_count(int pe, size_t base) {
    return pe == 1 ? 0 : base + (size_t)pe % 3;
}

#define DEF_TEST(T, N)                                                                             \
    static void test_##N(size_t base) {                                                            \
        T *s = (T *)src, *d = (T *)dst;                                                            \
        for (size_t i = 0; i < base; i++)                                                          \
            s[i] = VAL(T, me, i);                                                                  \
        CHECK(shmem_##N##_fcollect(SHMEM_TEAM_WORLD, d, s, base) == 0, "rc");                      \
        for (int pe = 0; pe < npes; pe++)                                                          \
            for (size_t i = 0; i < base; i++)                                                      \
                CHECK(d[(size_t)pe * base + i] == VAL(T, pe, i),                                   \
                      "shmem_" #N "_fcollect base %zu: PE %d element %zu differs", base, pe, i);   \
        size_t mine = collect_count(me, base);                                                     \
        for (size_t i = 0; i < mine; i++)                                                          \
            s[i] = VAL(T, me + 100, i);                                                            \
        CHECK(shmem_##N##_collect(SHMEM_TEAM_WORLD, d, s, mine) == 0, "rc");                       \
        size_t at = 0;                                                                             \
        for (int pe = 0; pe < npes; pe++)                                                          \
            for (size_t i = 0; i < collect_count(pe, base); i++, at++)                             \
                CHECK(d[at] == VAL(T, pe + 100, i),                                                \
                      "shmem_" #N "_collect base %zu: PE %d element %zu differs", base, pe, i);    \
    }
SHMEMI_RMA_TYPES(DEF_TEST)
#define RUN(T, N) test_##N(base);

int main(int argc, char **argv) {
    ct_algorithm_from_args(argc, argv, "SHMEM_COLLECT_ALGORITHM");
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_BYTES);
    dst = shmem_malloc(MAX_BYTES * 8);
    long *psync = shmem_malloc(SHMEM_COLLECT_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t base = counts[c];
        iteration++;
        SHMEMI_RMA_TYPES(RUN)
    }
    /* Byte forms, a large block. */
    iteration++;
    size_t bytes = 5000 + (size_t)me;
    for (size_t i = 0; i < 5000; i++)
        src[i] = VAL(unsigned char, me, i);
    CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 5000) == 0, "rc");
    for (int pe = 0; pe < npes; pe++)
        for (size_t i = 0; i < 5000; i++)
            CHECK(dst[(size_t)pe * 5000 + i] == VAL(unsigned char, pe, i), "fcollectmem");
    for (size_t i = 0; i < bytes; i++)
        src[i] = VAL(unsigned char, me + 50, i);
    CHECK(shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, bytes) == 0, "rc");
    size_t at = 0;
    for (int pe = 0; pe < npes; pe++)
        for (size_t i = 0; i < 5000 + (size_t)pe; i++, at++)
            CHECK(dst[at] == VAL(unsigned char, pe + 50, i), "collectmem PE %d byte %zu", pe, i);
    /* Generic names. */
    double *ds = (double *)src, *dd = (double *)dst;
    ds[0] = me + 0.5;
    shmem_fcollect(SHMEM_TEAM_WORLD, dd, ds, 1);
    for (int pe = 0; pe < npes; pe++)
        CHECK(dd[pe] == pe + 0.5, "generic fcollect");
    shmem_collect(SHMEM_TEAM_WORLD, dd, ds, 1);
    for (int pe = 0; pe < npes; pe++)
        CHECK(dd[pe] == pe + 0.5, "generic collect");
    /* Deprecated active sets: PEs 1, 2, ... (all but PE 0), with 32- and 64-bit words. */
    shmem_barrier_all();
    if (me >= 1) {
        int size = npes - 1, index = me - 1;
        uint32_t *s32 = (uint32_t *)src, *d32 = (uint32_t *)dst;
        uint64_t *s64 = (uint64_t *)src, *d64 = (uint64_t *)dst;
        for (int k = 0; k < 6; k++) {
            iteration = 500 + k;
            size_t cnt = k < 2 ? 3 : (size_t)index + 1;
            for (size_t i = 0; i < cnt; i++) {
                if (k % 2 == 0)
                    s32[i] = VAL(uint32_t, me, i);
                else
                    s64[i] = VAL(uint64_t, me, i);
            }
            if (k % 2 == 0) {
                if (k < 2)
                    shmem_fcollect32(d32, s32, cnt, 1, 0, size, psync);
                else
                    shmem_collect32(d32, s32, cnt, 1, 0, size, psync);
            } else {
                if (k < 2)
                    shmem_fcollect64(d64, s64, cnt, 1, 0, size, psync);
                else
                    shmem_collect64(d64, s64, cnt, 1, 0, size, psync);
            }
            size_t pos = 0;
            for (int j = 0; j < size; j++) {
                size_t jc = k < 2 ? 3 : (size_t)j + 1;
                for (size_t i = 0; i < jc; i++, pos++) {
                    if (k % 2 == 0)
                        CHECK(d32[pos] == VAL(uint32_t, j + 1, i), "collect32 k %d", k);
                    else
                        CHECK(d64[pos] == VAL(uint64_t, j + 1, i), "collect64 k %d", k);
                }
            }
            shmem_sync(1, 0, size, psync);
        }
    }
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        CHECK(psync[i] == SHMEM_SYNC_VALUE, "pSync[%d] changed to %ld", i, psync[i]);
    shmem_free(psync);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
