/* SPDX-License-Identifier: BSD-3-Clause */
/* Put-with-signal (SET and ADD, blocking and _nbi, typed, sized and byte forms), signal_add,
 * signal_set, signal_fetch, signal_wait_until, and every wait_until / test form with status
 * masks and comparison vectors. */
#include <string.h>

#include "host_test.h"

#define LEN 300

/* A ring: each PE sends rounds of data with a signal to its right neighbour and checks what
 * its left neighbour sent, once the signal says it is there. */
static void test_put_signal(shmem_ctx_t ctx) {
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    long *buf = shmem_malloc(LEN * sizeof(long));
    uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
    CHECK(buf && sig, "shmem_malloc");
    long src[LEN];
    for (int round = 1; round <= 8; round++) {
        for (int i = 0; i < LEN; i++)
            src[i] = test_val(me, (size_t)i, round);
        switch (round % 4) {
        case 0:
            shmem_ctx_long_put_signal(ctx, buf, src, LEN, &sig[0], (uint64_t)round,
                                      SHMEM_SIGNAL_SET, right);
            break;
        case 1:
            shmem_long_put_signal_nbi(buf, src, LEN, &sig[0], 1, SHMEM_SIGNAL_ADD, right);
            break;
        case 2:
            shmem_ctx_put64_signal_nbi(ctx, buf, src, LEN, &sig[0], (uint64_t)round,
                                       SHMEM_SIGNAL_SET, right);
            break;
        default:
            shmem_putmem_signal(buf, src, LEN * sizeof(long), &sig[0], 1, SHMEM_SIGNAL_ADD, right);
        }
        uint64_t v = shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, (uint64_t)round);
        CHECK(v == (uint64_t)round, "signal %llu in round %d", (unsigned long long)v, round);
        CHECK(shmem_signal_fetch(&sig[0]) == (uint64_t)round, "signal_fetch");
        for (int i = 0; i < LEN; i++)
            CHECK(buf[i] == test_val(left, (size_t)i, round), "round %d element %d", round, i);
        /* Tell the left neighbour this buffer may be overwritten. */
        shmem_ctx_signal_add(ctx, &sig[1], 1, left);
        shmem_uint64_wait_until(&sig[1], SHMEM_CMP_EQ, (uint64_t)round);
    }
    test_barrier();
    shmem_signal_set(&sig[0], 0, right);
    shmem_ctx_signal_set(ctx, &sig[1], 5, right);
    shmem_ctx_quiet(ctx);
    shmem_signal_add(&sig[1], 2, right);
    shmem_quiet();
    test_barrier();
    CHECK(shmem_signal_fetch(&sig[0]) == 0 && shmem_signal_fetch(&sig[1]) == 7, "signal set/add");
    test_barrier();
    shmem_free(sig);
    shmem_free(buf);
}

/* Every typed and sized put_signal form once, to self and to the right. */
#define DEF_TYPED_SIGNAL(TYPE, NAME)                                                               \
    static void test_sig_##NAME(uint64_t *sig, void *buf) {                                        \
        int me = shmem_my_pe();                                                                    \
        TYPE v[3] = {(TYPE)test_val(me, 0, 40), (TYPE)test_val(me, 1, 40),                         \
                     (TYPE)test_val(me, 2, 40)};                                                   \
        uint64_t before = shmem_signal_fetch(sig);                                                 \
        shmem_##NAME##_put_signal((TYPE *)buf, v, 3, sig, 1, SHMEM_SIGNAL_ADD, me);                \
        shmem_ctx_##NAME##_put_signal_nbi(SHMEM_CTX_DEFAULT, (TYPE *)buf + 3, v, 3, sig, 1,        \
                                          SHMEM_SIGNAL_ADD, me);                                   \
        shmem_##NAME##_put_signal_nbi((TYPE *)buf + 6, v, 3, sig, 1, SHMEM_SIGNAL_ADD, me);        \
        shmem_ctx_##NAME##_put_signal(SHMEM_CTX_DEFAULT, (TYPE *)buf + 9, v, 3, sig, 1,            \
                                      SHMEM_SIGNAL_ADD, me);                                       \
        shmem_put_signal((TYPE *)buf + 12, v, 3, sig, 1, SHMEM_SIGNAL_ADD, me);                    \
        shmem_quiet();                                                                             \
        CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, before + 5) == before + 5, "%s", #NAME);  \
        for (int i = 0; i < 15; i++)                                                               \
            CHECK(((TYPE *)buf)[i] == v[i % 3], "%s put_signal element %d", #NAME, i);             \
    }
SHMEMI_RMA_TYPES(DEF_TYPED_SIGNAL)

#define DEF_SIZED_SIGNAL(BITS)                                                                     \
    static void test_sig_##BITS(uint64_t *sig, void *buf) {                                        \
        int me = shmem_my_pe();                                                                    \
        unsigned char v[2 * BITS / 8];                                                             \
        for (size_t i = 0; i < sizeof v; i++)                                                      \
            v[i] = (unsigned char)test_val(me, i, BITS);                                           \
        shmem_put##BITS##_signal(buf, v, 2, sig, 11, SHMEM_SIGNAL_SET, me);                        \
        shmem_ctx_put##BITS##_signal(SHMEM_CTX_DEFAULT, (char *)buf + sizeof v, v, 2, sig, 12,     \
                                     SHMEM_SIGNAL_SET, me);                                        \
        shmem_put##BITS##_signal_nbi((char *)buf + 2 * sizeof v, v, 2, sig, 13, SHMEM_SIGNAL_SET,  \
                                     me);                                                          \
        shmem_quiet();                                                                             \
        CHECK(shmem_signal_fetch(sig) == 13, "put%d_signal", BITS);                                \
        for (int k = 0; k < 3; k++)                                                                \
            CHECK(memcmp((char *)buf + k * sizeof v, v, sizeof v) == 0, "put%d_signal data",       \
                  BITS);                                                                           \
    }
SHMEMI_RMA_BITS(DEF_SIZED_SIGNAL)

#define RUN_TYPED_SIGNAL(TYPE, NAME) test_sig_##NAME(sig, buf);
#define RUN_SIZED_SIGNAL(BITS) test_sig_##BITS(sig, buf);

/* wait_until / test in every form: PE 0 waits for words that the other PEs set in turn. */
#define DEF_WAIT_TEST(TYPE, NAME)                                                                  \
    static void test_wait_##NAME(void) {                                                           \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        enum { K = 6 };                                                                            \
        TYPE *w = shmem_calloc(K, sizeof(TYPE));                                                   \
        CHECK(w != NULL, "shmem_calloc");                                                          \
        size_t idx[K];                                                                             \
        int status[K] = {0, 1, 0, 0, 1, 0};                                                        \
        TYPE cmps[K] = {1, 9, 2, 3, 9, 4};                                                         \
        if (me != 0) {                                                                             \
            for (int i = 0; i < K; i++)                                                            \
                if ((i % (n - 1)) + 1 == me)                                                       \
                    shmem_##NAME##_atomic_set(&w[i], (TYPE)(i + 1), 0);                            \
        } else {                                                                                   \
            CHECK(shmem_##NAME##_test_any(w, K, status, SHMEM_CMP_GE, (TYPE)100) == SIZE_MAX,      \
                  "test_any none");                                                                \
            CHECK(shmem_##NAME##_test_some(w, K, idx, status, SHMEM_CMP_GE, (TYPE)100) == 0,       \
                  "test_some none");                                                               \
            size_t a = shmem_##NAME##_wait_until_any(w, K, status, SHMEM_CMP_GT, (TYPE)0);         \
            CHECK(a < K && status[a] == 0 && w[a] == (TYPE)(a + 1), "wait_until_any %zu", a);      \
            size_t s = shmem_##NAME##_wait_until_some(w, K, idx, NULL, SHMEM_CMP_NE, (TYPE)0);     \
            CHECK(s >= 1 && s <= K && w[idx[0]] != 0, "wait_until_some");                          \
            shmem_##NAME##_wait_until_all(w, K, status, SHMEM_CMP_GE, (TYPE)1);                    \
            CHECK(shmem_##NAME##_test_all(w, K, status, SHMEM_CMP_GE, (TYPE)1), "test_all");       \
            TYPE want[K] = {1, 2, 3, 4, 5, 6};                                                     \
            shmem_##NAME##_wait_until_all_vector(w, K, NULL, SHMEM_CMP_EQ, want);                  \
            CHECK(shmem_##NAME##_test_all_vector(w, K, NULL, SHMEM_CMP_EQ, want), "all_vector");   \
            size_t av = shmem_##NAME##_wait_until_any_vector(w, K, status, SHMEM_CMP_GT, cmps);    \
            CHECK(av == 2 || av == 3 || av == 5, "any_vector %zu", av);                            \
            av = shmem_##NAME##_test_any_vector(w, K, status, SHMEM_CMP_GT, cmps);                 \
            CHECK(av == 2 || av == 3 || av == 5, "test_any_vector %zu", av);                       \
            /* _any is fair: repeated calls visit every satisfied entry. */                        \
            int seen[K] = {0};                                                                     \
            for (int rep = 0; rep < 3 * K; rep++)                                                  \
                seen[shmem_##NAME##_test_any(w, K, NULL, SHMEM_CMP_GT, (TYPE)0)] = 1;              \
            for (int e = 0; e < K; e++)                                                            \
                CHECK(seen[e], "test_any never returned entry %d", e);                             \
            CHECK(shmem_##NAME##_wait_until_some_vector(w, K, idx, status, SHMEM_CMP_GT, cmps) ==  \
                          3 &&                                                                     \
                      idx[0] == 2 && idx[1] == 3 && idx[2] == 5,                                   \
                  "some_vector");                                                                  \
            CHECK(shmem_##NAME##_test_some_vector(w, K, idx, NULL, SHMEM_CMP_LE, cmps) == 3 &&     \
                      idx[0] == 0 && idx[1] == 1 && idx[2] == 4,                                   \
                  "test_some_vector");                                                             \
            CHECK(shmem_##NAME##_test_some(w, K, idx, status, SHMEM_CMP_LT, (TYPE)4) == 2,         \
                  "test_some");                                                                    \
            CHECK(shmem_##NAME##_test_any(w, K, NULL, SHMEM_CMP_EQ, (TYPE)5) == 4, "test_any");    \
            int all_off[K] = {1, 1, 1, 1, 1, 1};                                                   \
            CHECK(shmem_##NAME##_wait_until_any(w, K, all_off, SHMEM_CMP_EQ, (TYPE)0) == SIZE_MAX, \
                  "any all masked");                                                               \
            CHECK(shmem_##NAME##_wait_until_some(w, K, idx, all_off, SHMEM_CMP_EQ, (TYPE)0) == 0,  \
                  "some all masked");                                                              \
            shmem_##NAME##_wait_until_all(w, 0, NULL, SHMEM_CMP_EQ, (TYPE)42);                     \
            CHECK(shmem_##NAME##_test(&w[5], SHMEM_CMP_EQ, (TYPE)6), "test");                      \
            CHECK(!shmem_##NAME##_test(&w[5], SHMEM_CMP_LT, (TYPE)6), "test false");               \
            shmem_##NAME##_wait_until(&w[2], SHMEM_CMP_LE, (TYPE)3);                               \
            shmem_wait_until_any(w, K, NULL, SHMEM_CMP_EQ, (TYPE)2);                               \
            CHECK(shmem_test_all(w, K, NULL, SHMEM_CMP_GT, (TYPE)0), "generic test_all");          \
        }                                                                                          \
        test_barrier();                                                                            \
        shmem_free(w);                                                                             \
    }
SHMEMI_AMO_STANDARD_TYPES(DEF_WAIT_TEST)
#define RUN_WAIT(TYPE, NAME) test_wait_##NAME();

/* wait_until and test on the two types only they take, and the deprecated waits. */
static void test_wait_short_and_deprecated(void) {
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    short *s = shmem_calloc(2, sizeof(short));
    int *i = shmem_calloc(1, sizeof(int));
    long *l = shmem_calloc(2, sizeof(long));
    long long *ll = shmem_calloc(1, sizeof(long long));
    CHECK(s && i && l && ll, "shmem_calloc");
    shmem_short_p(&s[0], (short)test_val(me, 0, 50), right);
    shmem_ushort_p((unsigned short *)&s[1], 7, right);
    shmem_int_p(i, 3, right);
    shmem_long_p(&l[0], 4, right);
    shmem_long_p(&l[1], 5, right);
    shmem_longlong_p(ll, 6, right);
    shmem_short_wait_until(&s[0], SHMEM_CMP_NE, 0);
    shmem_ushort_wait_until((unsigned short *)&s[1], SHMEM_CMP_EQ, 7);
    CHECK(s[0] == test_val((me + n - 1) % n, 0, 50), "short");
    CHECK(shmem_ushort_test((unsigned short *)&s[1], SHMEM_CMP_EQ, 7), "ushort test");
    shmem_short_wait(&s[0], 0);
    shmem_int_wait(i, 0);
    shmem_long_wait(&l[0], 0);
    shmem_wait(&l[1], 0);
    shmem_longlong_wait(ll, 0);
    shmem_wait_until(&l[1], SHMEM_CMP_EQ, 5L);
    shmem_wait_until(i, SHMEM_CMP_EQ, 3);
    CHECK(shmem_test(&s[0], SHMEM_CMP_EQ, s[0]), "generic test");
    test_barrier();
    shmem_free(ll);
    shmem_free(l);
    shmem_free(i);
    shmem_free(s);
}

int main(void) {
    shmem_init();
    test_init();
    shmem_ctx_t bypass;
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &bypass) == 0, "ctx_create");
    test_put_signal(SHMEM_CTX_DEFAULT);
    test_put_signal(bypass);
    shmem_ctx_destroy(bypass);
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    void *buf = shmem_malloc(16 * 16);
    CHECK(sig && buf, "shmem_malloc");
    SHMEMI_RMA_TYPES(RUN_TYPED_SIGNAL)
    SHMEMI_RMA_BITS(RUN_SIZED_SIGNAL)
    test_barrier();
    shmem_free(buf);
    shmem_free(sig);
    SHMEMI_AMO_STANDARD_TYPES(RUN_WAIT)
    test_wait_short_and_deprecated();
    if (shmem_my_pe() == 0)
        printf("signal_wait: %d PEs ok\n", shmem_n_pes());
    test_fini();
    shmem_finalize();
    return 0;
}
