/* SPDX-License-Identifier: BSD-3-Clause */
/* Every scan (shmem_<T>_sum_inscan, shmem_<T>_sum_exscan) of every type of the sum table, on the
 * world team and on a strided team, for counts 0 to 9001, out of place and in place, and the C11
 * generic names. argv[1] selects SHMEM_SCAN_ALGORITHM. Values are small pseudo-random integers,
 * so that sums are exact in every type and both algorithms give the same bits. */
#include <string.h>

#include "coll_test.h"

static const size_t counts[] = {0, 1, 2, 7, 300, 9001};
#define MAX_COUNT 9001
#define MAX_ELEM 32

static void *src, *dst;
static int iteration;

/* The expected element i of member index `me` of a team whose member j is world PE pe_of(j). */
#define DEF_TEST(T, N, KIND, EXCLUSIVE)                                                            \
    static void test_##N##_##KIND(shmem_team_t team, size_t count, int in_place) {                 \
        int me = shmem_team_my_pe(team), world = shmem_my_pe();                                    \
        if (me < 0)                                                                                \
            return;                                                                                \
        T *s = src, *d = in_place ? src : dst;                                                     \
        for (size_t i = 0; i < count; i++)                                                         \
            s[i] = VAL_SUM(T, world, i);                                                           \
        int rc = shmem_##N##_sum_##KIND(team, d, s, count);                                        \
        CHECK(rc == 0, "shmem_" #N "_sum_" #KIND " returned %d", rc);                              \
        for (size_t i = 0; i < count; i++) {                                                       \
            T want = (T)0;                                                                         \
            for (int j = 0; j < me + !(EXCLUSIVE); j++)                                            \
                want =                                                                             \
                    (T)(want + VAL_SUM(T, shmem_team_translate_pe(team, j, SHMEM_TEAM_WORLD), i)); \
            CHECK(d[i] == want,                                                                    \
                  "shmem_" #N "_sum_" #KIND " count %zu in_place %d: element %zu of member %d "    \
                  "differs",                                                                       \
                  count, in_place, i, me);                                                         \
        }                                                                                          \
    }
#define DEF_SCANS(T, N) DEF_TEST(T, N, inscan, 0) DEF_TEST(T, N, exscan, 1)
SHMEMI_REDUCE_ARITH_TYPES(DEF_SCANS)

#define RUN(T, N)                                                                                  \
    test_##N##_inscan(team, count, in_place);                                                      \
    test_##N##_exscan(team, count, in_place);

static void run_all(shmem_team_t team) {
    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        size_t count = counts[c];
        for (int in_place = 0; in_place < 2; in_place++) {
            iteration++;
            SHMEMI_REDUCE_ARITH_TYPES(RUN)
        }
    }
}

/* The C11 generic names pick the typed routine by dest's type. */
static void test_generic(void) {
    int me = shmem_my_pe();
    long *ls = src, *ld = dst;
    double *ds = (double *)((char *)src + 64), *dd = (double *)((char *)dst + 64);
    ls[0] = me + 1;
    ds[0] = 2.0 * (me + 1);
    shmem_sum_inscan(SHMEM_TEAM_WORLD, ld, ls, 1);
    shmem_sum_exscan(SHMEM_TEAM_WORLD, dd, ds, 1);
    CHECK(ld[0] == (long)(me + 1) * (me + 2) / 2, "generic inscan of long: %ld", ld[0]);
    CHECK(dd[0] == (double)me * (me + 1), "generic exscan of double: %g", dd[0]);
}

int main(int argc, char **argv) {
    ct_algorithm_from_args(argc, argv, "SHMEM_SCAN_ALGORITHM");
    shmem_init();
    int npes = shmem_n_pes();
    src = shmem_malloc(MAX_COUNT * MAX_ELEM);
    dst = shmem_malloc(MAX_COUNT * MAX_ELEM);
    CHECK(src && dst, "shmem_malloc");
    run_all(SHMEM_TEAM_WORLD);
    /* Odd world PEs, from the last one down: members in an order other than the world's. */
    shmem_team_t odd;
    int n_odd = npes / 2, last_odd = npes % 2 == 0 ? npes - 1 : npes - 2;
    if (n_odd > 0) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, last_odd, -2, n_odd, NULL, 0, &odd) == 0,
              "split");
        run_all(odd);
        if (odd != SHMEM_TEAM_INVALID)
            shmem_team_destroy(odd);
    }
    test_generic();
    shmem_free(src);
    shmem_free(dst);
    if (shmem_my_pe() == 0)
        printf("scan: ok on %d PEs\n", npes);
    shmem_finalize();
    return 0;
}
