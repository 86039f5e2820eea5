/* SPDX-License-Identifier: BSD-3-Clause */
// The C++ overloads of the generic names of the host families, checked end to end.
#include <cstdio>
#include <cstring>

#include <shmem.h>
#include <shmemx.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", shmem_my_pe(), __FILE__,      \
                         __LINE__, #cond);                                                         \
            shmem_global_exit(1);                                                                  \
        }                                                                                          \
    } while (0)

int main() {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    long *l = static_cast<long *>(shmem_calloc(4, sizeof(long)));
    float *f = static_cast<float *>(shmem_calloc(2, sizeof(float)));
    unsigned long *u = static_cast<unsigned long *>(shmem_calloc(1, sizeof(unsigned long)));
    CHECK(l && f && u);
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) == 0);
    long v[2] = {me + 11L, me + 12L};
    shmem_put(l, v, 2, me);
    shmem_put(ctx, l + 2, v, 2, me);
    shmem_p(f, 2.5f, me);
    shmem_p(ctx, f + 1, 3.5f, me);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_g(l + 3, me) == me + 12L && shmem_g(ctx, f + 1, me) == 3.5f);
    long g[2];
    shmem_get(g, l, 2, me);
    shmem_get_nbi(ctx, g, l + 2, 2, me);
    shmem_quiet();
    CHECK(std::memcmp(g, v, sizeof g) == 0);
    CHECK(shmem_atomic_fetch_add(l, 1L, me) == me + 11L);
    shmem_atomic_add(ctx, l, 1L, me);
    CHECK(shmem_atomic_swap(f, 1.0f, me) == 2.5f);
    CHECK(shmem_atomic_fetch(ctx, l, me) == me + 13L);
    shmem_atomic_or(u, 5UL, me);
    /* A non-fetching AMO completes at quiet: before it, another context's AMO may pass it. */
    shmem_quiet();
    CHECK(shmem_atomic_fetch_xor(ctx, u, 1UL, me) == 5UL && *u == 4UL);
    shmem_wait_until(l, SHMEM_CMP_EQ, me + 13L);
    shmem_wait_until(u, SHMEM_CMP_EQ, 4UL);
    CHECK(shmem_test(l, SHMEM_CMP_GT, 0L));
    CHECK(shmem_test_any(l, 4, nullptr, SHMEM_CMP_EQ, static_cast<long>(me + 12)) == 1);
    CHECK(shmemx_ld_bypass(l) == me + 13L);
    uint64_t *sig = static_cast<uint64_t *>(shmem_calloc(1, sizeof(uint64_t)));
    long *x = static_cast<long *>(shmem_calloc(1, sizeof(long)));
    CHECK(sig && x);
    shmem_put_signal(ctx, x, v, 1, sig, 1, SHMEM_SIGNAL_SET, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    shmem_signal_add(ctx, sig, 1, me);
    shmem_ctx_quiet(ctx);
    CHECK(shmem_signal_fetch(sig) == 2 && *x == (me + n - 1) % n + 11L);
    shmem_ctx_destroy(ctx);
    if (me == 0)
        std::printf("overloads: %d PEs ok\n", n);
    shmem_quiet();
    shmem_free(x);
    shmem_free(sig);
    shmem_free(u);
    shmem_free(f);
    shmem_free(l);
    shmem_finalize();
    return 0;
}
