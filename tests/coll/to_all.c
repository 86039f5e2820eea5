/* SPDX-License-Identifier: BSD-3-Clause */
/* The deprecated shmem_<type>_<op>_to_all reductions of every type of their tables, on the world
 * active set and on the strided set of the even PEs, with pWrk and pSync. argv[1] selects
 * SHMEM_REDUCE_ALGORITHM. */
#include <string.h>

#include "coll_test.h"

#define MAX_COUNT 700
static int me, npes, iteration;
static void *src, *dst, *work;
static long *psync;

#define VAL_MINMAX(T, pe, i)                                                                       \
    ((T)((long)(ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 101) - 50))

/* Active set: PE_start 0, stride 2^log_stride, size PEs. */
#define DEF_TEST(T, N, OP, VAL, FOLD)                                                              \
    static void test_##N##_##OP(int count, int log_stride, int size) {                             \
        T *s = src, *d = dst;                                                                      \
        for (int i = 0; i < count; i++)                                                            \
            s[i] = VAL(T, me, i);                                                                  \
        shmem_##N##_##OP##_to_all(d, s, count, 0, log_stride, size, (T *)work, psync);             \
        for (int i = 0; i < count; i++) {                                                          \
            T want = VAL(T, 0, i);                                                                 \
            for (int k = 1; k < size; k++)                                                         \
                want = (T)FOLD(want, VAL(T, k << log_stride, i));                                  \
            CHECK(d[i] == want, "shmem_" #N "_" #OP "_to_all count %d stride 2^%d: element %d",    \
                  count, log_stride, i);                                                           \
        }                                                                                          \
        shmem_sync(0, log_stride, size, psync);                                                    \
    }
#define DEF_BITWISE(T, N)                                                                          \
    DEF_TEST(T, N, and, VAL_BITWISE, OP_AND)                                                       \
    DEF_TEST(T, N, or, VAL_BITWISE, OP_OR) DEF_TEST(T, N, xor, VAL_BITWISE, OP_XOR)
#define DEF_MINMAX(T, N)                                                                           \
    DEF_TEST(T, N, max, VAL_MINMAX, OP_MAX) DEF_TEST(T, N, min, VAL_MINMAX, OP_MIN)
#define DEF_ARITH(T, N) DEF_TEST(T, N, sum, VAL_SUM, OP_SUM) DEF_TEST(T, N, prod, VAL_PROD, OP_PROD)
SHMEMI_TO_ALL_BITWISE_TYPES(DEF_BITWISE)
SHMEMI_TO_ALL_MINMAX_TYPES(DEF_MINMAX)
SHMEMI_TO_ALL_ARITH_TYPES(DEF_ARITH)

#define RUN(T, N, OP) test_##N##_##OP(count, log_stride, size);
#define RUN_BITWISE(T, N) RUN(T, N, and) RUN(T, N, or) RUN(T, N, xor)
#define RUN_MINMAX(T, N) RUN(T, N, max) RUN(T, N, min)
#define RUN_ARITH(T, N) RUN(T, N, sum) RUN(T, N, prod)

int main(int argc, char **argv) {
    ct_algorithm_from_args(argc, argv, "SHMEM_REDUCE_ALGORITHM");
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_COUNT * 32);
    dst = shmem_malloc(MAX_COUNT * 32);
    work = shmem_malloc((MAX_COUNT / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) * 32);
    psync = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    static const int counts[] = {1, 6, MAX_COUNT};
    for (int set = 0; set < 2; set++) {
        int log_stride = set, size = set == 0 ? npes : (npes + 1) / 2;
        if (set == 1 && me % 2 != 0)
            break;
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            int count = counts[c];
            iteration = set * 10 + (int)c + 1;
            SHMEMI_TO_ALL_BITWISE_TYPES(RUN_BITWISE)
            SHMEMI_TO_ALL_MINMAX_TYPES(RUN_MINMAX)
            SHMEMI_TO_ALL_ARITH_TYPES(RUN_ARITH)
        }
    }
    shmem_barrier_all();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        CHECK(psync[i] == SHMEM_SYNC_VALUE, "pSync[%d] changed to %ld", i, psync[i]);
    shmem_finalize();
    return 0;
}
