/* SPDX-License-Identifier: BSD-3-Clause */
/* Every team reduction (_reduce) of every type of the specification's tables, on the world team,
 * for counts that take every algorithm's paths (folded members, tiny and large vectors, blocks of
 * unequal size), out of place and in place. argv[1] selects SHMEM_REDUCE_ALGORITHM. Values are
 * small random integers (never 0) so that sums and products are exact in every type. */
#include <string.h>

#include "coll_test.h"

static const size_t counts[] = {1, 2, 5, 13, 300, 9001};
#define MAX_COUNT 9001
#define MAX_ELEM 32

static void *src, *dst;
static int me, npes, iteration;

/* Min/max class value of element i of PE pe (the other classes come from coll_test.h). */
#define VAL_MINMAX(T, pe, i)                                                                       \
    ((T)(((T)-1 < (T)1)                                                                            \
             ? (long)(ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 101) - 50      \
             : (long)(ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 100) + 1))

#define DEF_TEST(T, N, OP, VAL, FOLD)                                                              \
    static void test_##N##_##OP(size_t count, int in_place) {                                      \
        T *s = src, *d = in_place ? src : dst;                                                     \
        for (size_t i = 0; i < count; i++)                                                         \
            s[i] = VAL(T, me, i);                                                                  \
        int rc = shmem_##N##_##OP##_reduce(SHMEM_TEAM_WORLD, d, s, count);                         \
        CHECK(rc == 0, "shmem_" #N "_" #OP "_reduce returned %d", rc);                             \
        for (size_t i = 0; i < count; i++) {                                                       \
            T want = VAL(T, 0, i);                                                                 \
            for (int pe = 1; pe < npes; pe++)                                                      \
                want = (T)FOLD(want, VAL(T, pe, i));                                               \
            CHECK(d[i] == want,                                                                    \
                  "shmem_" #N "_" #OP "_reduce count %zu in_place %d: element %zu "                \
                  "differs",                                                                       \
                  count, in_place, i);                                                             \
        }                                                                                          \
    }
#define DEF_BITWISE(T, N)                                                                          \
    DEF_TEST(T, N, and, VAL_BITWISE, OP_AND)                                                       \
    DEF_TEST(T, N, or, VAL_BITWISE, OP_OR) DEF_TEST(T, N, xor, VAL_BITWISE, OP_XOR)
#define DEF_MINMAX(T, N)                                                                           \
    DEF_TEST(T, N, max, VAL_MINMAX, OP_MAX) DEF_TEST(T, N, min, VAL_MINMAX, OP_MIN)
#define DEF_ARITH(T, N) DEF_TEST(T, N, sum, VAL_SUM, OP_SUM) DEF_TEST(T, N, prod, VAL_PROD, OP_PROD)
SHMEMI_REDUCE_BITWISE_TYPES(DEF_BITWISE)
SHMEMI_REDUCE_MINMAX_TYPES(DEF_MINMAX)
SHMEMI_REDUCE_ARITH_TYPES(DEF_ARITH)

#define RUN(T, N, OP) test_##N##_##OP(count, in_place);
#define RUN_BITWISE(T, N) RUN(T, N, and) RUN(T, N, or) RUN(T, N, xor)
#define RUN_MINMAX(T, N) RUN(T, N, max) RUN(T, N, min)
#define RUN_ARITH(T, N) RUN(T, N, sum) RUN(T, N, prod)

int main(int argc, char **argv) {
    ct_algorithm_from_args(argc, argv, "SHMEM_REDUCE_ALGORITHM");
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_COUNT * MAX_ELEM);
    dst = shmem_malloc(MAX_COUNT * MAX_ELEM);
    CHECK(src != NULL && dst != NULL, "shmem_malloc failed");
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t count = counts[c];
        for (int in_place = 0; in_place < 2; in_place++) {
            iteration++;
            SHMEMI_REDUCE_BITWISE_TYPES(RUN_BITWISE)
            SHMEMI_REDUCE_MINMAX_TYPES(RUN_MINMAX)
            SHMEMI_REDUCE_ARITH_TYPES(RUN_ARITH)
        }
    }
    /* The C11 generic names select the typed routine from dest. */
    long *ls = src, *ld = dst;
    double *ds = src, *dd = dst;
    ls[0] = me + 1;
    shmem_sum_reduce(SHMEM_TEAM_WORLD, ld, ls, 1);
    CHECK(ld[0] == (long)npes * (npes + 1) / 2, "generic long sum gave %ld", ld[0]);
    ds[0] = me;
    shmem_max_reduce(SHMEM_TEAM_WORLD, dd, ds, 1);
    CHECK(dd[0] == npes - 1, "generic double max gave %g", dd[0]);
    unsigned int *us = src, *ud = dst;
    us[0] = 1u << (me % 32);
    shmem_or_reduce(SHMEM_TEAM_WORLD, ud, us, 1);
    CHECK(ud[0] == (npes >= 32 ? ~0u : (1u << npes) - 1), "generic uint or gave %u", ud[0]);
    /* Zero elements: nothing to do, nothing written. */
    ld[0] = 42;
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, ld, ls, 0) == 0, "count 0 failed");
    CHECK(ld[0] == 42, "count 0 wrote dest");
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
