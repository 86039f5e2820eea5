/* SPDX-License-Identifier: BSD-3-Clause */
/* Every AMO on every type of its table (standard, extended, bitwise), plain, context and fetching
 * _nbi forms, and the deprecated names: concurrent updates from every PE to every PE must
 * combine exactly. */
#include <sched.h>

#include "host_test.h"

/* Words per PE: 0 add target, 1 compare-swap token, 2 swap target, 3 sum of swapped-out values,
 * 4 set/fetch word. */
#define DEF_AMO_TEST(TYPE, NAME)                                                                   \
    static void test_##NAME(shmem_ctx_t ctx) {                                                     \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        TYPE *w = shmem_malloc(5 * sizeof(TYPE));                                                  \
        CHECK(w != NULL, "shmem_malloc");                                                          \
        for (int i = 0; i < 5; i++)                                                                \
            w[i] = 0;                                                                              \
        test_barrier();                                                                            \
        TYPE mine = (TYPE)test_val(me, 0, 11), f;                                                  \
        for (int pe = 0; pe < n; pe++) {                                                           \
            f = shmem_ctx_##NAME##_atomic_fetch_add(ctx, &w[0], mine, pe);                         \
            CHECK(f <= (TYPE)(363 * n), "fetch_add returned %lld", (long long)f);                  \
            shmem_##NAME##_atomic_add(&w[0], mine, pe);                                            \
            shmem_ctx_##NAME##_atomic_inc(ctx, &w[0], pe);                                         \
            f = shmem_##NAME##_atomic_fetch_inc(&w[0], pe);                                        \
            shmem_ctx_##NAME##_atomic_fetch_add_nbi(ctx, &f, &w[0], mine, pe);                     \
            shmem_##NAME##_atomic_fetch_inc_nbi(&f, &w[0], pe);                                    \
        }                                                                                          \
        unsigned spins = 0;                                                                        \
        while (shmem_ctx_##NAME##_atomic_compare_swap(ctx, &w[1], (TYPE)me, (TYPE)(me + 1), 0) !=  \
               (TYPE)me)                                                                           \
            if (++spins % 16 == 0)                                                                 \
                sched_yield();                                                                     \
        TYPE old = shmem_##NAME##_atomic_swap(&w[2], (TYPE)(me + 1), 0);                           \
        shmem_##NAME##_atomic_add(&w[3], old, 0);                                                  \
        shmem_ctx_##NAME##_atomic_set(ctx, &w[4], (TYPE)test_val(me, 4, 12), (me + 1) % n);        \
        shmem_quiet();                                                                             \
        test_barrier();                                                                            \
        TYPE sum = 0;                                                                              \
        for (int pe = 0; pe < n; pe++)                                                             \
            sum = (TYPE)(sum + 3 * (TYPE)test_val(pe, 0, 11) + 3);                                 \
        CHECK(w[0] == sum, "%s add total %lld, want %lld", #NAME, (long long)w[0],                 \
              (long long)sum);                                                                     \
        int left = (me + n - 1) % n;                                                               \
        CHECK(shmem_##NAME##_atomic_fetch(&w[4], me) == (TYPE)test_val(left, 4, 12), "%s set",     \
              #NAME);                                                                              \
        shmem_ctx_##NAME##_atomic_fetch_nbi(ctx, &f, &w[4], left);                                 \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (TYPE)test_val((left + n - 1) % n, 4, 12), "%s fetch_nbi", #NAME);              \
        if (me == 0) {                                                                             \
            CHECK(w[1] == (TYPE)n, "%s compare_swap token %lld", #NAME, (long long)w[1]);          \
            CHECK((TYPE)(w[2] + w[3]) == (TYPE)(n * (n + 1) / 2), "%s swap", #NAME);               \
        }                                                                                          \
        test_barrier();                                                                            \
        if (me == 0) {                                                                             \
            shmem_##NAME##_atomic_compare_swap_nbi(&f, &w[1], (TYPE)n, (TYPE)7, 0);                \
            shmem_quiet();                                                                         \
            CHECK(f == (TYPE)n && w[1] == 7, "%s compare_swap_nbi", #NAME);                        \
            shmem_ctx_##NAME##_atomic_swap_nbi(ctx, &f, &w[1], (TYPE)9, 0);                        \
            shmem_ctx_quiet(ctx);                                                                  \
            CHECK(f == 7 && w[1] == 9, "%s swap_nbi", #NAME);                                      \
            f = shmem_##NAME##_atomic_compare_swap(&w[1], (TYPE)1, (TYPE)2, 0);                    \
            CHECK(f == 9 && w[1] == 9, "%s failed compare_swap", #NAME);                           \
        }                                                                                          \
        test_barrier();                                                                            \
        shmem_free(w);                                                                             \
    }
SHMEMI_AMO_STANDARD_TYPES(DEF_AMO_TEST)

#define DEF_AMO_EXT_TEST(TYPE, NAME)                                                               \
    static void test_ext_##NAME(shmem_ctx_t ctx) {                                                 \
        int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;                           \
        TYPE *w = shmem_malloc(2 * sizeof(TYPE));                                                  \
        CHECK(w != NULL, "shmem_malloc");                                                          \
        w[0] = (TYPE)0.5;                                                                          \
        w[1] = (TYPE)-1.25;                                                                        \
        test_barrier();                                                                            \
        TYPE v = (TYPE)test_val(me, 0, 13) + (TYPE)0.25, f;                                        \
        shmem_ctx_##NAME##_atomic_set(ctx, &w[0], v, right);                                       \
        f = shmem_##NAME##_atomic_swap(&w[1], v * 2, right);                                       \
        CHECK(f == (TYPE)-1.25, "%s swap returned %f", #NAME, (double)f);                          \
        shmem_quiet();                                                                             \
        test_barrier();                                                                            \
        TYPE lv = (TYPE)test_val((me + n - 1) % n, 0, 13) + (TYPE)0.25;                            \
        CHECK(shmem_ctx_##NAME##_atomic_fetch(ctx, &w[0], me) == lv, "%s set/fetch", #NAME);       \
        shmem_##NAME##_atomic_fetch_nbi(&f, &w[1], me);                                            \
        shmem_quiet();                                                                             \
        CHECK(f == lv * 2, "%s fetch_nbi", #NAME);                                                 \
        shmem_ctx_##NAME##_atomic_swap_nbi(ctx, &f, &w[1], (TYPE)3.5, me);                         \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == lv * 2 && w[1] == (TYPE)3.5, "%s swap_nbi", #NAME);                             \
        test_barrier();                                                                            \
        shmem_free(w);                                                                             \
    }
SHMEMI_AMO_EXTENDED_ONLY_TYPES(DEF_AMO_EXT_TEST)

/* Each PE sets, clears and toggles its own bit of every PE's words. */
#define DEF_AMO_BIT_TEST(TYPE, NAME)                                                               \
    static void test_bit_##NAME(shmem_ctx_t ctx) {                                                 \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        TYPE *w = shmem_malloc(3 * sizeof(TYPE));                                                  \
        CHECK(w != NULL, "shmem_malloc");                                                          \
        TYPE all = (TYPE)((1u << n) - 1), bit = (TYPE)(1u << me), f;                               \
        w[0] = 0;                                                                                  \
        w[1] = (TYPE) ~(TYPE)0;                                                                    \
        w[2] = (TYPE)0x50;                                                                         \
        test_barrier();                                                                            \
        for (int pe = 0; pe < n; pe++) {                                                           \
            f = shmem_ctx_##NAME##_atomic_fetch_or(ctx, &w[0], bit, pe);                           \
            CHECK((f & bit) == 0, "%s fetch_or", #NAME);                                           \
            shmem_##NAME##_atomic_and(&w[1], (TYPE)~bit, pe);                                      \
            shmem_ctx_##NAME##_atomic_xor(ctx, &w[2], bit, pe);                                    \
            shmem_##NAME##_atomic_fetch_xor_nbi(&f, &w[2], (TYPE)(bit << 8), pe);                  \
            shmem_ctx_##NAME##_atomic_fetch_and_nbi(ctx, &f, &w[1], (TYPE) ~(TYPE)0, pe);          \
            shmem_##NAME##_atomic_or(&w[0], (TYPE)(bit << 8), pe);                                 \
            shmem_ctx_##NAME##_atomic_fetch_or_nbi(ctx, &f, &w[0], 0, pe);                         \
            f = shmem_##NAME##_atomic_fetch_and(&w[1], (TYPE) ~(TYPE)0, pe);                       \
            f = shmem_ctx_##NAME##_atomic_fetch_xor(ctx, &w[2], 0, pe);                            \
        }                                                                                          \
        shmem_quiet();                                                                             \
        test_barrier();                                                                            \
        CHECK(w[0] == (TYPE)(all | (all << 8)), "%s or: 0x%llx", #NAME, (unsigned long long)w[0]); \
        CHECK(w[1] == (TYPE)~all, "%s and: 0x%llx", #NAME, (unsigned long long)w[1]);              \
        CHECK(w[2] == (TYPE)(0x50 ^ all ^ (all << 8)), "%s xor: 0x%llx", #NAME,                    \
              (unsigned long long)w[2]);                                                           \
        test_barrier();                                                                            \
        shmem_free(w);                                                                             \
    }
SHMEMI_AMO_BITWISE_TYPES(DEF_AMO_BIT_TEST)

/* The names deprecated in 1.4, and the C11 generic names, on int, long, long long. */
#define DEPRECATED_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define DEF_AMO_DEPRECATED_TEST(TYPE, NAME)                                                        \
    static void test_depr_##NAME(void) {                                                           \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        TYPE *w = shmem_malloc(3 * sizeof(TYPE));                                                  \
        CHECK(w != NULL, "shmem_malloc");                                                          \
        w[0] = w[1] = w[2] = 0;                                                                    \
        test_barrier();                                                                            \
        for (int pe = 0; pe < n; pe++) {                                                           \
            shmem_##NAME##_finc(&w[0], pe);                                                        \
            shmem_##NAME##_inc(&w[0], pe);                                                         \
            shmem_##NAME##_fadd(&w[0], (TYPE)2, pe);                                               \
            shmem_##NAME##_add(&w[0], (TYPE)3, pe);                                                \
            shmem_finc(&w[0], pe);                                                                 \
            shmem_inc(&w[0], pe);                                                                  \
            shmem_fadd(&w[0], (TYPE)2, pe);                                                        \
            shmem_add(&w[0], (TYPE)3, pe);                                                         \
            shmem_atomic_add(&w[0], (TYPE)1, pe);                                                  \
            shmem_atomic_fetch_add(SHMEM_CTX_DEFAULT, &w[0], (TYPE)1, pe);                         \
        }                                                                                          \
        while (shmem_##NAME##_cswap(&w[1], (TYPE)me, (TYPE)(me + 1), 0) != (TYPE)me)               \
            sched_yield();                                                                         \
        shmem_##NAME##_swap(&w[2], (TYPE)1, (me + 1) % n);                                         \
        shmem_##NAME##_set(&w[2], (TYPE)(me + 5), (me + 1) % n);                                   \
        shmem_quiet();                                                                             \
        test_barrier();                                                                            \
        CHECK(w[0] == (TYPE)(16 * n), "%s deprecated adds: %lld", #NAME, (long long)w[0]);         \
        CHECK(shmem_##NAME##_fetch(&w[2], me) == (TYPE)((me + n - 1) % n + 5), "%s set", #NAME);   \
        CHECK(shmem_fetch(&w[2], me) == shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &w[2], me),          \
              "generic fetch");                                                                    \
        CHECK(shmem_swap(&w[2], (TYPE)0, me) == (TYPE)((me + n - 1) % n + 5), "generic swap");     \
        shmem_set(&w[2], (TYPE)4, me);                                                             \
        CHECK(shmem_cswap(&w[2], (TYPE)4, (TYPE)8, me) == 4 && w[2] == 8, "generic cswap");        \
        if (me == 0)                                                                               \
            CHECK(w[1] == (TYPE)n, "%s cswap token", #NAME);                                       \
        test_barrier();                                                                            \
        shmem_free(w);                                                                             \
    }
DEPRECATED_TYPES(DEF_AMO_DEPRECATED_TEST)

static void test_depr_float(void) {
    int me = shmem_my_pe();
    float *f = shmem_malloc(sizeof(float));
    double *d = shmem_malloc(sizeof(double));
    *f = 1.5f;
    *d = 2.5;
    test_barrier();
    CHECK(shmem_float_swap(f, 3.5f, me) == 1.5f && shmem_float_fetch(f, me) == 3.5f, "float swap");
    shmem_double_set(d, 4.5, me);
    CHECK(shmem_double_swap(d, 1.0, me) == 4.5 && shmem_double_fetch(d, me) == 1.0, "double");
    CHECK(shmem_swap(d, 2.0, me) == 1.0 && shmem_fetch(d, me) == 2.0, "generic double swap");
    shmem_float_set(f, 0.25f, me);
    CHECK(shmem_atomic_fetch(f, me) == 0.25f, "generic float fetch");
    test_barrier();
    shmem_free(d);
    shmem_free(f);
}

#define RUN_AMO(TYPE, NAME) test_##NAME(ctx);
#define RUN_EXT(TYPE, NAME) test_ext_##NAME(ctx);
#define RUN_BIT(TYPE, NAME) test_bit_##NAME(ctx);
#define RUN_DEPR(TYPE, NAME) test_depr_##NAME();

int main(void) {
    shmem_init();
    test_init();
    shmem_ctx_t ctxs[2] = {SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT};
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctxs[1]) == 0, "ctx_create");
    for (int c = 0; c < 2; c++) {
        shmem_ctx_t ctx = ctxs[c];
        SHMEMI_AMO_STANDARD_TYPES(RUN_AMO)
        SHMEMI_AMO_EXTENDED_ONLY_TYPES(RUN_EXT)
        SHMEMI_AMO_BITWISE_TYPES(RUN_BIT)
    }
    DEPRECATED_TYPES(RUN_DEPR)
    test_depr_float();
    shmem_ctx_destroy(ctxs[1]);
    if (shmem_my_pe() == 0)
        printf("amo_types: %d PEs ok\n", shmem_n_pes());
    test_fini();
    shmem_finalize();
    return 0;
}
