/* SPDX-License-Identifier: BSD-3-Clause */
/* Every RMA routine on every type of the standard RMA table, plain and context forms: each PE
 * writes to its right neighbour and reads from it; strided forms leave the gaps untouched. */
#include <string.h>

#include "host_test.h"

#define N 37
#define REGION (8 * N)

#define DEF_RMA_TEST(TYPE, NAME)                                                                   \
    static void test_##NAME(shmem_ctx_t ctx) {                                                     \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        int right = (me + 1) % n, left = (me + n - 1) % n;                                         \
        TYPE *dst = shmem_malloc(REGION * sizeof(TYPE));                                           \
        TYPE *sym = shmem_malloc(REGION * sizeof(TYPE));                                           \
        CHECK(dst &&sym, "shmem_malloc");                                                          \
        TYPE src[REGION], got[REGION];                                                             \
        for (size_t i = 0; i < REGION; i++) {                                                      \
            dst[i] = (TYPE)test_val(me, i, 99);                                                    \
            sym[i] = (TYPE)test_val(me, i, 7);                                                     \
            src[i] = (TYPE)test_val(me, i, 1);                                                     \
            got[i] = (TYPE)test_val(me, i, 98);                                                    \
        }                                                                                          \
        test_barrier();                                                                            \
        shmem_ctx_##NAME##_put(ctx, dst, src, N, right);                                           \
        shmem_##NAME##_put_nbi(dst + N, src + N, N, right);                                        \
        shmem_ctx_##NAME##_p(ctx, dst + 2 * N, src[2 * N], right);                                 \
        shmem_##NAME##_p(dst + 2 * N + 1, src[2 * N + 1], right);                                  \
        shmem_##NAME##_iput(dst + 3 * N, src + 3 * N, 2, 3, N / 3, right);                         \
        shmem_ctx_##NAME##_ibput(ctx, dst + 5 * N, src + 5 * N, 5, 4, 3, 5, right);                \
        shmem_ctx_quiet(ctx);                                                                      \
        test_barrier();                                                                            \
        for (size_t i = 0; i < REGION; i++) {                                                      \
            TYPE want = (TYPE)test_val(me, i, 99);                                                 \
            if (i < 2 * N + 2)                                                                     \
                want = (TYPE)test_val(left, i, 1);                                                 \
            else if (i >= 3 * N && i < 5 * N && (i - 3 * N) % 2 == 0 && (i - 3 * N) / 2 < N / 3)   \
                want = (TYPE)test_val(left, 3 * N + (i - 3 * N) / 2 * 3, 1);                       \
            else if (i >= 5 * N && (i - 5 * N) / 5 < 5 && (i - 5 * N) % 5 < 3)                     \
                want = (TYPE)test_val(left, 5 * N + (i - 5 * N) / 5 * 4 + (i - 5 * N) % 5, 1);     \
            CHECK(dst[i] == want, "%s put element %zu", #NAME, i);                                 \
        }                                                                                          \
        shmem_ctx_##NAME##_get(ctx, got, sym, N, right);                                           \
        shmem_##NAME##_get_nbi(got + N, sym + N, N, right);                                        \
        shmem_quiet();                                                                             \
        got[2 * N] = shmem_ctx_##NAME##_g(ctx, sym + 2 * N, right);                                \
        got[2 * N + 1] = shmem_##NAME##_g(sym + 2 * N + 1, right);                                 \
        shmem_ctx_##NAME##_iget(ctx, got + 3 * N, sym + 3 * N, 3, 2, N / 3, right);                \
        shmem_##NAME##_ibget(got + 5 * N, sym + 5 * N, 4, 5, 3, 5, right);                         \
        for (size_t i = 0; i < REGION; i++) {                                                      \
            TYPE want = (TYPE)test_val(me, i, 98);                                                 \
            if (i < 2 * N + 2)                                                                     \
                want = (TYPE)test_val(right, i, 7);                                                \
            else if (i >= 3 * N && i < 5 * N && (i - 3 * N) % 3 == 0 && (i - 3 * N) / 3 < N / 3)   \
                want = (TYPE)test_val(right, 3 * N + (i - 3 * N) / 3 * 2, 7);                      \
            else if (i >= 5 * N && (i - 5 * N) / 4 < 5 && (i - 5 * N) % 4 < 3)                     \
                want = (TYPE)test_val(right, 5 * N + (i - 5 * N) / 4 * 5 + (i - 5 * N) % 4, 7);    \
            CHECK(got[i] == want, "%s get element %zu", #NAME, i);                                 \
        }                                                                                          \
        test_barrier();                                                                            \
        shmem_free(sym);                                                                           \
        shmem_free(dst);                                                                           \
    }
SHMEMI_RMA_TYPES(DEF_RMA_TEST)

/* Sized and byte forms: SIZE-bit elements are moved as raw bytes. */
static void test_sized(shmem_ctx_t ctx) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    enum { BYTES = 16 * N };
    unsigned char *dst = shmem_malloc(12 * BYTES), *sym = shmem_malloc(BYTES);
    unsigned char src[BYTES], got[BYTES], want[BYTES];
    CHECK(dst && sym, "shmem_malloc");
    for (size_t i = 0; i < BYTES; i++) {
        src[i] = (unsigned char)test_val(me, i, 3);
        sym[i] = (unsigned char)test_val(me, i, 4);
    }
    memset(dst, 0xa5, 12 * BYTES);
    test_barrier();
    shmem_put8(dst, src, N, right);
    shmem_ctx_put16(ctx, dst + BYTES, src, N, right);
    shmem_put32_nbi(dst + 2 * BYTES, src, N, right);
    shmem_ctx_put64_nbi(ctx, dst + 3 * BYTES, src, N, right);
    shmem_put128(dst + 4 * BYTES, src, N / 2, right);
    shmem_putmem(dst + 5 * BYTES, src, BYTES - 3, right);
    shmem_ctx_putmem_nbi(ctx, dst + 6 * BYTES + 1, src, BYTES - 5, right);
    shmem_iput64(dst + 7 * BYTES, src, 2, 1, N / 4, right);
    shmem_ctx_iput128(ctx, dst + 8 * BYTES, src, 2, 1, N / 8, right);
    shmem_ibput32(dst + 9 * BYTES, src, 4, 3, 2, 5, right);
    shmem_ctx_ibput8(ctx, dst + 10 * BYTES, src, 3, 2, 2, 7, right);
    shmem_iput16(dst + 11 * BYTES, src, 1, 1, N, right);
    shmem_quiet();
    test_barrier();
    for (size_t i = 0; i < BYTES; i++)
        want[i] = (unsigned char)test_val(left, i, 3);
    CHECK(memcmp(dst, want, N) == 0, "put8");
    CHECK(memcmp(dst + BYTES, want, 2 * N) == 0, "put16");
    CHECK(memcmp(dst + 2 * BYTES, want, 4 * N) == 0, "put32_nbi");
    CHECK(memcmp(dst + 3 * BYTES, want, 8 * N) == 0, "put64_nbi");
    CHECK(memcmp(dst + 4 * BYTES, want, 16 * (N / 2)) == 0, "put128");
    CHECK(memcmp(dst + 5 * BYTES, want, BYTES - 3) == 0, "putmem");
    CHECK(dst[6 * BYTES] == 0xa5 && memcmp(dst + 6 * BYTES + 1, want, BYTES - 5) == 0,
          "putmem_nbi");
    for (size_t k = 0; k < N / 4; k++) {
        CHECK(memcmp(dst + 7 * BYTES + 16 * k, want + 8 * k, 8) == 0, "iput64 element %zu", k);
        CHECK(dst[7 * BYTES + 16 * k + 8] == 0xa5, "iput64 gap %zu", k);
    }
    for (size_t k = 0; k < N / 8; k++)
        CHECK(memcmp(dst + 8 * BYTES + 32 * k, want + 16 * k, 16) == 0, "iput128 element %zu", k);
    for (size_t b = 0; b < 5; b++)
        CHECK(memcmp(dst + 9 * BYTES + 16 * b, want + 12 * b, 8) == 0 &&
                  dst[9 * BYTES + 16 * b + 8] == 0xa5,
              "ibput32 block %zu", b);
    for (size_t b = 0; b < 7; b++)
        CHECK(memcmp(dst + 10 * BYTES + 3 * b, want + 2 * b, 2) == 0, "ibput8 block %zu", b);
    CHECK(memcmp(dst + 11 * BYTES, want, 2 * N) == 0, "iput16");

    for (size_t i = 0; i < BYTES; i++)
        want[i] = (unsigned char)test_val(right, i, 4);
    memset(got, 0x5a, sizeof got);
    shmem_get8(got, sym, N, right);
    CHECK(memcmp(got, want, N) == 0, "get8");
    shmem_ctx_get16_nbi(ctx, got, sym, N, right);
    shmem_ctx_quiet(ctx);
    CHECK(memcmp(got, want, 2 * N) == 0, "get16_nbi");
    shmem_get32(got, sym, N, right);
    CHECK(memcmp(got, want, 4 * N) == 0, "get32");
    shmem_ctx_get64(ctx, got, sym, N, right);
    CHECK(memcmp(got, want, 8 * N) == 0, "get64");
    shmem_get128_nbi(got, sym, N / 2, right);
    shmem_quiet();
    CHECK(memcmp(got, want, 16 * (N / 2)) == 0, "get128_nbi");
    memset(got, 0x5a, sizeof got);
    shmem_getmem(got + 1, sym + 2, BYTES - 7, right);
    CHECK(memcmp(got + 1, want + 2, BYTES - 7) == 0 && got[0] == 0x5a, "getmem");
    shmem_ctx_getmem_nbi(ctx, got, sym, BYTES, right);
    shmem_ctx_quiet(ctx);
    CHECK(memcmp(got, want, BYTES) == 0, "getmem_nbi");
    memset(got, 0x5a, sizeof got);
    shmem_iget32(got, sym, 2, 1, N / 2, right);
    for (size_t k = 0; k < N / 2; k++)
        CHECK(memcmp(got + 8 * k, want + 4 * k, 4) == 0 && got[8 * k + 4] == 0x5a,
              "iget32 element %zu", k);
    memset(got, 0x5a, sizeof got);
    shmem_ctx_ibget64(ctx, got, sym, 3, 2, 2, 4, right);
    for (size_t b = 0; b < 4; b++)
        CHECK(memcmp(got + 24 * b, want + 16 * b, 16) == 0 && got[24 * b + 16] == 0x5a,
              "ibget64 block %zu", b);
    memset(got, 0x5a, sizeof got);
    shmem_iget128(got, sym, 1, 2, N / 4, right);
    for (size_t k = 0; k < N / 4; k++)
        CHECK(memcmp(got + 16 * k, want + 32 * k, 16) == 0, "iget128 element %zu", k);
    shmem_ibget16(got, sym, 1, 1, 1, 1, right);
    shmem_ctx_iget8(ctx, got, sym, 1, 1, 0, right);
    shmem_ibget128(got, sym, 1, 1, 0, 3, right);
    shmem_ctx_ibget32(ctx, got, sym, 1, 1, 2, 0, right);
    shmem_iget16(got, sym, 1, 1, 1, right);
    shmem_ctx_iget64(ctx, got, sym, 1, 1, 1, right);
    shmem_ibget8(got, sym, 1, 1, 1, 1, right);
    shmem_get8_nbi(got, sym, 1, right);
    shmem_ctx_get32_nbi(ctx, got, sym, 1, right);
    shmem_ctx_get64_nbi(ctx, got, sym, 1, right);
    shmem_ctx_get128_nbi(ctx, got, sym, 1, right);
    shmem_get16(got, sym, 1, right);
    shmem_ctx_get128(ctx, got, sym, 1, right);
    shmem_quiet();
    CHECK(memcmp(got, want, 16) == 0, "get128");
    test_barrier();
    shmem_free(sym);
    shmem_free(dst);
}

#define RUN_RMA_TEST(TYPE, NAME) test_##NAME(ctx);

int main(void) {
    shmem_init();
    test_init();
    shmem_ctx_t ctxs[3] = {SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT};
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE, &ctxs[1]) == 0, "ctx_create");
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS | SHMEM_CTX_SERIALIZED, &ctxs[2]) == 0, "ctx_create");
    for (int c = 0; c < 3; c++) {
        shmem_ctx_t ctx = ctxs[c];
        SHMEMI_RMA_TYPES(RUN_RMA_TEST)
        test_sized(ctx);
    }
    shmem_ctx_destroy(ctxs[2]);
    shmem_ctx_destroy(ctxs[1]);
    if (shmem_my_pe() == 0)
        printf("rma_types: %d PEs ok\n", shmem_n_pes());
    test_fini();
    shmem_finalize();
    return 0;
}
