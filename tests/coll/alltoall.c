/* SPDX-License-Identifier: BSD-3-Clause */
/* alltoall and alltoalls of every type of the RMA table, alltoallmem and alltoallsmem, and the
 * deprecated alltoall32/64 and alltoalls32/64 on an active set. */
#include <string.h>

#include "coll_test.h"

#define MAX_BYTES (256 * 1024)
static const size_t counts[] = {1, 3, 40};

static unsigned char *src, *dst;
static int me, npes, iteration;

/* Element i of the block PE from sends to PE to. */
#define VAL(T, from, to, i)                                                                        \
    ((T)(ct_rand((uint64_t)(from)*1000 + (uint64_t)(to), (uint64_t)(i), (uint64_t)iteration) %     \
             120 +                                                                                 \
         1))

#define DEF_TEST(T, N)                                                                             \
    static void test_##N(size_t count) {                                                           \
        T *s = (T *)src, *d = (T *)dst;                                                            \
        for (int to = 0; to < npes; to++)                                                          \
            for (size_t i = 0; i < count; i++)                                                     \
                s[(size_t)to * count + i] = VAL(T, me, to, i);                                     \
        CHECK(shmem_##N##_alltoall(SHMEM_TEAM_WORLD, d, s, count) == 0, "rc");                     \
        for (int from = 0; from < npes; from++)                                                    \
            for (size_t i = 0; i < count; i++)                                                     \
                CHECK(d[(size_t)from * count + i] == VAL(T, from, me, i),                          \
                      "shmem_" #N "_alltoall count %zu: from PE %d element %zu", count, from, i);  \
        /* Strided: source stride 3, dest stride 2; the gaps stay untouched. */                    \
        for (size_t k = 0; k < (size_t)npes * count * 3; k++)                                      \
            d[k] = (T)125;                                                                         \
        for (int to = 0; to < npes; to++)                                                          \
            for (size_t i = 0; i < count; i++)                                                     \
                s[3 * ((size_t)to * count + i)] = VAL(T, me, to, i + 7);                           \
        CHECK(shmem_##N##_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 3, count) == 0, "rc");              \
        for (int from = 0; from < npes; from++)                                                    \
            for (size_t i = 0; i < count; i++) {                                                   \
                size_t at = 2 * ((size_t)from * count + i);                                        \
                CHECK(d[at] == VAL(T, from, me, i + 7) && d[at + 1] == (T)125,                     \
                      "shmem_" #N "_alltoalls count %zu: from PE %d element %zu", count, from, i); \
            }                                                                                      \
    }
SHMEMI_RMA_TYPES(DEF_TEST)
#define RUN(T, N) test_##N(count);

int main(void) {
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_BYTES);
    dst = shmem_malloc(MAX_BYTES);
    long *psync = shmem_malloc(SHMEM_ALLTOALL_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t count = counts[c];
        iteration++;
        SHMEMI_RMA_TYPES(RUN)
    }
    /* Byte forms and the generic names. */
    iteration++;
    size_t block = 3000;
    for (int to = 0; to < npes; to++)
        for (size_t i = 0; i < block; i++)
            src[(size_t)to * block + i] = VAL(unsigned char, me, to, i);
    CHECK(shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, block) == 0, "rc");
    for (int from = 0; from < npes; from++)
        for (size_t i = 0; i < block; i++)
            CHECK(dst[(size_t)from * block + i] == VAL(unsigned char, from, me, i), "alltoallmem");
    CHECK(shmem_alltoallsmem(SHMEM_TEAM_WORLD, dst, src, 1, 1, block) == 0, "rc");
    for (int from = 0; from < npes; from++)
        for (size_t i = 0; i < block; i++)
            CHECK(dst[(size_t)from * block + i] == VAL(unsigned char, from, me, i), "alltoallsmem");
    int *is = (int *)src, *id = (int *)dst;
    for (int to = 0; to < npes; to++)
        is[to] = me * 100 + to;
    shmem_alltoall(SHMEM_TEAM_WORLD, id, is, 1);
    for (int from = 0; from < npes; from++)
        CHECK(id[from] == from * 100 + me, "generic alltoall");
    shmem_alltoalls(SHMEM_TEAM_WORLD, id, is, 1, 1, 1);
    for (int from = 0; from < npes; from++)
        CHECK(id[from] == from * 100 + me, "generic alltoalls");
    /* Deprecated: the active set of the even PEs. */
    shmem_barrier_all();
    if (me % 2 == 0) {
        int size = (npes + 1) / 2, index = me / 2;
        for (int k = 0; k < 4; k++) {
            iteration = 900 + k;
            uint32_t *s32 = (uint32_t *)src, *d32 = (uint32_t *)dst;
            uint64_t *s64 = (uint64_t *)src, *d64 = (uint64_t *)dst;
            size_t cnt = 5, sst = k < 2 ? 1 : 2;
            for (int to = 0; to < size; to++)
                for (size_t i = 0; i < cnt; i++) {
                    if (k % 2)
                        s64[sst * ((size_t)to * cnt + i)] = VAL(uint64_t, index, to, i);
                    else
                        s32[sst * ((size_t)to * cnt + i)] = VAL(uint32_t, index, to, i);
                }
            if (k == 0)
                shmem_alltoall32(d32, s32, cnt, 0, 1, size, psync);
            else if (k == 1)
                shmem_alltoall64(d64, s64, cnt, 0, 1, size, psync);
            else if (k == 2)
                shmem_alltoalls32(d32, s32, 1, 2, cnt, 0, 1, size, psync);
            else
                shmem_alltoalls64(d64, s64, 1, 2, cnt, 0, 1, size, psync);
            for (int from = 0; from < size; from++)
                for (size_t i = 0; i < cnt; i++) {
                    if (k % 2)
                        CHECK(d64[(size_t)from * cnt + i] == VAL(uint64_t, from, index, i),
                              "alltoall(s)64 k %d", k);
                    else
                        CHECK(d32[(size_t)from * cnt + i] == VAL(uint32_t, from, index, i),
                              "alltoall(s)32 k %d", k);
                }
        }
    }
    shmem_barrier_all();
    shmem_free(psync);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
