/* SPDX-License-Identifier: BSD-3-Clause */
/* Contexts: every option combination, many contexts alive at once, sessions, pe_quiet; the BYPASS
 * context's non-temporal put path at sizes around the 4 KiB threshold with unaligned heads and
 * tails; bypass loads and stores; shmemx_acquire / shmemx_release. */
#include <string.h>

#include "host_test.h"

#define MAX_BYTES ((1 << 20) + 64)

static void test_options(void) {
    static const long options[] = {
        0,
        SHMEM_CTX_SERIALIZED,
        SHMEM_CTX_PRIVATE,
        SHMEM_CTX_NOSTORE,
        SHMEMX_CTX_BYPASS,
        SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE | SHMEMX_CTX_BYPASS,
        SHMEM_CTX_NOSTORE | SHMEMX_CTX_BYPASS,
    };
    enum { MANY = 150 };
    static shmem_ctx_t many[MANY];
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    long *w = shmem_calloc(MANY, sizeof(long));
    CHECK(w != NULL, "shmem_calloc");
    for (int i = 0; i < MANY; i++) {
        CHECK(shmem_ctx_create(options[i % 7], &many[i]) == 0, "ctx_create %d", i);
        CHECK(many[i] != SHMEM_CTX_DEFAULT && many[i] != SHMEM_CTX_INVALID, "ctx handle");
    }
    for (int i = 0; i < MANY; i++) {
        shmem_ctx_long_atomic_add(many[i], &w[i], i + 1, right);
        shmem_ctx_fence(many[i]);
        shmem_ctx_long_p(many[i], &w[i], shmem_ctx_long_g(many[i], &w[i], right) + 1, right);
    }
    for (int i = 0; i < MANY; i += 2) {
        shmem_ctx_quiet(many[i]);
        shmem_ctx_destroy(many[i]);
    }
    for (int i = 0; i < MANY; i += 2)
        CHECK(shmem_ctx_create(options[i % 7], &many[i]) == 0, "ctx_create again %d", i);
    for (int i = 0; i < MANY; i++)
        shmem_ctx_destroy(many[i]);
    shmem_ctx_destroy(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, &me, 1);
    test_barrier();
    for (int i = 0; i < MANY; i++)
        CHECK(w[i] == i + 2, "context %d: %ld", i, w[i]);
    test_barrier();
    shmem_free(w);
}

static void test_sessions_and_pe_quiet(void) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
    shmem_ctx_session_config_t config = {.total_ops = 100};
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(ctx, 0, NULL, 0);
    int *w = shmem_calloc((size_t)n, sizeof(int));
    CHECK(w != NULL, "shmem_calloc");
    int pes[4];
    for (int pe = 0; pe < n; pe++) {
        shmem_ctx_int_p(ctx, &w[me], me + 1, pe);
        pes[pe] = pe;
    }
    shmem_ctx_pe_quiet(ctx, pes, (size_t)n);
    shmem_pe_quiet(pes, 0);
    shmem_pe_quiet(&pes[n - 1], 1);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_session_start(SHMEM_CTX_INVALID, 0, NULL, 0);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
    test_barrier();
    for (int pe = 0; pe < n; pe++)
        CHECK(w[pe] == pe + 1, "pe_quiet word %d", pe);
    shmem_ctx_destroy(ctx);
    test_barrier();
    shmem_free(w);
}

/* BYPASS puts below, at and above the non-temporal threshold, at unaligned offsets, checked with
 * plain loads after the barrier and with bypass loads; then put-with-signal on the BYPASS
 * context, read with bypass loads after the signal. */
static void test_bypass_puts(void) {
    static const size_t sizes[] = {1,    8,    100,   4095,           4096,  4097,
                                   4111, 8205, 65541, MAX_BYTES - 64, 123457};
    static const size_t offsets[] = {0, 1, 7, 15, 16, 33};
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    unsigned char *dst = shmem_malloc(MAX_BYTES);
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    unsigned char *src = malloc(MAX_BYTES);
    CHECK(dst && sig && src, "malloc");
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) == 0, "ctx_create");
    int round = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            size_t len = sizes[s], off = offsets[o];
            round++;
            for (size_t i = 0; i < len; i++)
                src[off + i] = (unsigned char)test_val(me, i, round);
            memset(dst, 0xee, MAX_BYTES);
            test_barrier();
            if (o % 2)
                shmem_ctx_putmem(ctx, dst + off, src + off, len, right);
            else
                shmem_ctx_putmem_nbi(ctx, dst + off, src + off, len, right);
            /* The context's own quiet: shmem_quiet completes the default context only (on the
             * load/store path it drains this thread's streaming stores as well, but a network
             * transport completes a context's puts at that context's quiet). */
            shmem_ctx_quiet(ctx);
            test_barrier();
            for (size_t i = 0; i < len; i++)
                CHECK(dst[off + i] == (unsigned char)test_val(left, i, round),
                      "bypass put of %zu bytes at offset %zu: byte %zu", len, off, i);
            CHECK(off == 0 || dst[off - 1] == 0xee, "byte before the put");
            CHECK(off + len >= MAX_BYTES || dst[off + len] == 0xee, "byte after the put");
        }
    }
    /* put-with-signal on the BYPASS context; payload read with bypass loads. */
    test_barrier();
    for (int r = 1; r <= 4; r++) {
        size_t len = (size_t)r * 5000 + 3;
        for (size_t i = 0; i < len; i++)
            src[i] = (unsigned char)test_val(me, i, 1000 + r);
        shmem_ctx_putmem_signal_nbi(ctx, dst + 1, src, len, sig, 1, SHMEM_SIGNAL_ADD, right);
        shmemx_ctx_signal_wait_until(ctx, sig, SHMEM_CMP_GE, (uint64_t)r);
        for (size_t i = 0; i < len; i += 97)
            CHECK(shmemx_uchar_ld_bypass(dst + 1 + i) == (unsigned char)test_val(left, i, 1000 + r),
                  "bypass load after signal, byte %zu", i);
        shmemx_acquire(SHMEMX_SCOPE_PE);
        for (size_t i = 0; i < len; i++)
            CHECK(dst[1 + i] == (unsigned char)test_val(left, i, 1000 + r),
                  "plain load after acquire, byte %zu", i);
        test_barrier();
    }
    shmem_ctx_destroy(ctx);
    free(src);
    shmem_free(sig);
    shmem_free(dst);
}

#define DEF_BYPASS_ACCESS(TYPE, NAME)                                                              \
    static void test_access_##NAME(TYPE *w) {                                                      \
        TYPE v = (TYPE)test_val(shmem_my_pe(), 0, 60);                                             \
        shmemx_##NAME##_st_bypass(w, v);                                                           \
        CHECK(shmemx_##NAME##_ld_bypass(w) == v, "%s bypass store/load", #NAME);                   \
        shmemx_st_bypass(w, (TYPE)(v + 1));                                                        \
        CHECK(shmemx_ld_bypass(w) == (TYPE)(v + 1), "%s generic bypass store/load", #NAME);        \
    }
SHMEMI_RMA_TYPES(DEF_BYPASS_ACCESS)
#define RUN_BYPASS_ACCESS(TYPE, NAME) test_access_##NAME((TYPE *)w);

static void test_bypass_accesses(void) {
    long double *w = shmem_malloc(sizeof(long double));
    CHECK(w != NULL, "shmem_malloc");
    SHMEMI_RMA_TYPES(RUN_BYPASS_ACCESS)
    for (int scope = SHMEMX_SCOPE_THREAD; scope <= SHMEMX_SCOPE_WORLD; scope++) {
        shmemx_release(scope);
        shmemx_acquire(scope);
    }
    test_barrier();
    shmem_free(w);
}

/* A context on a team takes team-relative PE numbers: the team is world PEs 1 .. n-1, and each
 * member writes its world PE number into team PE 0's (world PE 1's) slot of its own index. */
static void test_team_ctx(void) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *slots = shmem_calloc((size_t)n, sizeof(long));
    CHECK(slots != NULL, "shmem_calloc");
    shmem_team_t team;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &team) == 0,
          "team_split_strided");
    if (team != SHMEM_TEAM_INVALID) {
        shmem_ctx_t ctx;
        CHECK(shmem_team_create_ctx(team, SHMEMX_CTX_BYPASS, &ctx) == 0, "team_create_ctx");
        int tme = shmem_team_my_pe(team);
        CHECK(tme == me - 1, "team PE %d of world PE %d", tme, me);
        shmem_ctx_long_p(ctx, &slots[tme], me, 0);
        shmem_ctx_long_atomic_add(ctx, &slots[n - 1], 1, 0);
        int all[4] = {0, 1, 2, 3};
        shmem_ctx_pe_quiet(ctx, all, (size_t)(n - 1));
        shmem_ctx_destroy(ctx);
    }
    test_barrier();
    if (me == 1) {
        for (int t = 0; t < n - 1; t++)
            CHECK(slots[t] == t + 1, "team slot %d: %ld", t, slots[t]);
        CHECK(slots[n - 1] == n - 1, "team AMO count %ld", slots[n - 1]);
    }
    if (team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(team);
    test_barrier();
    shmem_free(slots);
}

int main(void) {
    shmem_init();
    test_init();
    test_options();
    test_sessions_and_pe_quiet();
    test_bypass_puts();
    test_bypass_accesses();
    test_team_ctx();
    if (shmem_my_pe() == 0)
        printf("ctx_bypass: %d PEs ok\n", shmem_n_pes());
    test_fini();
    shmem_finalize();
    return 0;
}
