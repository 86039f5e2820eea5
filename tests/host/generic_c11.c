/* SPDX-License-Identifier: BSD-3-Clause */
/* The C11 generic names of the host families, with and without a context, on a few types of
 * every table, checked end to end. */
#include <string.h>

#include "host_test.h"

int main(void) {
    shmem_init();
    test_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    long *l = shmem_calloc(8, sizeof(long));
    double *d = shmem_calloc(8, sizeof(double));
    unsigned int *u = shmem_calloc(4, sizeof(unsigned int));
    short *s = shmem_calloc(2, sizeof(short));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    CHECK(l && d && u && s && sig, "shmem_calloc");
    long lsrc[4];
    double dsrc[4];
    for (int i = 0; i < 4; i++) {
        lsrc[i] = test_val(me, (size_t)i, 1);
        dsrc[i] = test_val(me, (size_t)i, 2) + 0.5;
    }
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) == 0, "ctx_create");
    test_barrier();
    shmem_put(l, lsrc, 2, right);
    shmem_put(ctx, l + 2, lsrc + 2, 2, right);
    shmem_put_nbi(d, dsrc, 2, right);
    shmem_put_nbi(ctx, d + 2, dsrc + 2, 2, right);
    shmem_p(&l[4], lsrc[0], right);
    shmem_p(ctx, &d[4], dsrc[0], right);
    shmem_iput(l + 5, lsrc, 1, 2, 2, right);
    shmem_ibput(ctx, d + 5, dsrc, 1, 1, 2, 1, right);
    shmem_atomic_add(&u[0], 3u, right);
    shmem_atomic_fetch_or(ctx, &u[1], 6u, right);
    shmem_put_signal(ctx, &s[0], &s[1], 0, sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal_nbi(&s[0], &s[1], 0, sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_add(ctx, sig, 1, right);
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 3);
    test_barrier();
    for (int i = 0; i < 4; i++) {
        CHECK(l[i] == test_val(left, (size_t)i, 1), "put long %d", i);
        CHECK(d[i] == test_val(left, (size_t)i, 2) + 0.5, "put double %d", i);
    }
    CHECK(l[4] == test_val(left, 0, 1) && d[4] == test_val(left, 0, 2) + 0.5, "p");
    CHECK(l[5] == test_val(left, 0, 1) && l[6] == test_val(left, 2, 1), "iput");
    CHECK(d[5] == test_val(left, 0, 2) + 0.5 && d[6] == test_val(left, 1, 2) + 0.5, "ibput");
    CHECK(shmem_atomic_fetch(&u[0], me) == 3u && shmem_atomic_fetch(ctx, &u[1], me) == 6u, "amo");
    long lg[4];
    double dg[4];
    shmem_get(lg, l, 4, right);
    shmem_get(ctx, dg, d, 4, right);
    CHECK(memcmp(lg, lsrc, sizeof lg) == 0 && memcmp(dg, dsrc, sizeof dg) == 0, "get");
    shmem_get_nbi(lg, l + 4, 1, right);
    shmem_get_nbi(ctx, dg, d + 4, 1, right);
    shmem_quiet();
    CHECK(lg[0] == lsrc[0] && dg[0] == dsrc[0], "get_nbi");
    CHECK(shmem_g(&l[4], right) == lsrc[0] && shmem_g(ctx, &d[4], right) == dsrc[0], "g");
    shmem_iget(lg, l, 2, 1, 2, right);
    shmem_ibget(ctx, dg, d, 2, 1, 1, 2, right);
    CHECK(lg[0] == lsrc[0] && lg[2] == lsrc[1] && dg[0] == dsrc[0] && dg[2] == dsrc[1], "iget");
    CHECK(shmem_atomic_swap(ctx, &d[7], 1.5, me) == 0.0, "swap");
    CHECK(shmem_atomic_compare_swap(&l[7], 0L, 9L, me) == 0, "compare_swap");
    CHECK(shmem_atomic_fetch_inc(ctx, &l[7], me) == 9 && l[7] == 10, "fetch_inc");
    shmem_atomic_inc(&l[7], me);
    /* A non-fetching AMO completes at quiet: before it, another context's AMO may pass it. */
    shmem_quiet();
    shmem_atomic_set(ctx, &l[7], 20L, me);
    long f;
    shmem_atomic_fetch_add_nbi(&f, &l[7], 1L, me);
    shmem_atomic_fetch_inc_nbi(ctx, &f, &l[7], me);
    shmem_atomic_compare_swap_nbi(&f, &l[7], 22L, 30L, me);
    shmem_quiet();
    shmem_atomic_swap_nbi(ctx, &f, &l[7], 31L, me);
    shmem_ctx_quiet(ctx);
    shmem_atomic_fetch_nbi(&f, &l[7], me);
    shmem_quiet();
    CHECK(f == 31, "fetching nbi chain: %ld", f);
    unsigned int uf;
    /* Each context's AMOs complete at its quiet; between contexts only a quiet orders them. */
    shmem_atomic_and(&u[2], 1u, me);
    shmem_quiet();
    shmem_atomic_or(ctx, &u[2], 12u, me);
    shmem_ctx_quiet(ctx);
    shmem_atomic_xor(&u[2], 4u, me);
    shmem_atomic_fetch_and_nbi(&uf, &u[2], 15u, me);
    shmem_quiet();
    shmem_atomic_fetch_xor_nbi(ctx, &uf, &u[2], 1u, me);
    shmem_ctx_quiet(ctx);
    shmem_atomic_fetch_or_nbi(&uf, &u[2], 0u, me);
    shmem_quiet();
    CHECK(shmem_atomic_fetch_xor(&u[2], 0u, me) == 9u && uf == 9u, "bitwise");
    CHECK(shmem_atomic_fetch_and(ctx, &u[2], 1u, me) == 9u && u[2] == 1u, "fetch_and");
    shmem_wait_until(&u[2], SHMEM_CMP_EQ, 1u);
    CHECK(shmem_test(&s[0], SHMEM_CMP_EQ, (short)0), "test short");
    CHECK(shmemx_ld_bypass(&l[7]) == 31, "ld_bypass");
    shmem_ctx_destroy(ctx);
    if (me == 0)
        printf("generic_c11: %d PEs ok\n", n);
    test_fini();
    shmem_finalize();
    return 0;
}
