/* SPDX-License-Identifier: BSD-3-Clause */
/* Bad input must end the job with a message naming the call and what was wrong. PE 0 makes the
 * mistake named by argv[1]; the other PEs wait to be ended with it. ctest matches the message. */
#include <string.h>
#include <sys/mman.h>

#include "host_test.h"

int main(int argc, char **argv) {
    shmem_init();
    test_init();
    const char *c = argc > 1 ? argv[1] : "";
    long *sym = shmem_calloc(4, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    CHECK(sym && sig, "shmem_calloc");
    long src[4] = {1, 2, 3, 4};
    shmem_team_t team = SHMEM_TEAM_INVALID;
    if (strcmp(c, "ctx_after_finalize") == 0 || strcmp(c, "ctx_default_after_finalize") == 0) {
        /* every PE: a created context, or the default one, outlives the library */
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
        if (strcmp(c, "ctx_after_finalize") == 0)
            CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
        shmem_finalize();
        shmem_ctx_quiet(ctx);
        fprintf(stderr, "error case '%s' was not caught\n", c);
        return 3;
    }
    if (strcmp(c, "team_pe") == 0) /* collective: a team of PE 0 alone */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &team);
    shmem_ctx_t team_ctx = SHMEM_CTX_INVALID;
    if (strcmp(c, "ctx_team_destroyed") == 0 || strcmp(c, "ctx_team_private") == 0) {
        /* Collective: a context on a team of every PE, then the team destroyed. */
        long options = strcmp(c, "ctx_team_private") == 0 ? SHMEM_CTX_PRIVATE : 0;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team);
        CHECK(shmem_team_create_ctx(team, options, &team_ctx) == 0, "team_create_ctx");
        shmem_team_destroy(team);
    }
    if (shmem_my_pe() == 0) {
        int peer = 1 % shmem_n_pes();
        if (strcmp(c, "pe") == 0) {
            shmem_long_p(sym, 1, -7);
        } else if (strcmp(c, "pe_high") == 0) {
            shmem_ctx_long_atomic_add(SHMEM_CTX_DEFAULT, sym, 1, shmem_n_pes() + 40);
        } else if (strcmp(c, "ctx_destroyed") == 0) {
            shmem_ctx_t ctx;
            CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
            shmem_ctx_destroy(ctx);
            shmem_ctx_long_p(ctx, sym, 1, peer);
        } else if (strcmp(c, "ctx_reused") == 0) {
            /* The destroyed handle must not name the contexts created after it. */
            shmem_ctx_t ctx, later;
            CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");
            shmem_ctx_destroy(ctx);
            for (int i = 0; i < 200; i++) {
                CHECK(shmem_ctx_create(0, &later) == 0, "ctx_create");
                CHECK(later != ctx, "context %d reuses the destroyed handle %p", i, (void *)ctx);
                if (i < 199)
                    shmem_ctx_destroy(later);
            }
            shmem_ctx_long_p(ctx, sym, 1, peer);
        } else if (strcmp(c, "ctx_team_destroyed") == 0) {
            shmem_ctx_long_p(team_ctx, sym, 1, peer);
        } else if (strcmp(c, "ctx_invalid") == 0) {
            shmem_ctx_putmem(SHMEM_CTX_INVALID, sym, src, 8, peer);
        } else if (strcmp(c, "ctx_default_destroy") == 0) {
            shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
        } else if (strcmp(c, "team_pe") == 0) {
            shmem_ctx_t ctx;
            CHECK(shmem_team_create_ctx(team, 0, &ctx) == 0, "team_create_ctx");
            shmem_ctx_long_p(ctx, sym, 1, 1);
        } else if (strcmp(c, "ctx_destroy_twice") == 0) {
            shmem_ctx_t ctx;
            CHECK(shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) == 0, "ctx_create");
            shmem_ctx_destroy(ctx);
            shmem_ctx_destroy(ctx);
        } else if (strcmp(c, "ctx_options") == 0) {
            shmem_ctx_t ctx;
            shmem_ctx_create(1L << 40, &ctx);
        } else if (strcmp(c, "put_null_source") == 0) {
            shmem_long_put(sym, NULL, 4, peer);
        } else if (strcmp(c, "get_null_dest") == 0) {
            shmem_long_get(NULL, sym, 4, peer);
        } else if (strcmp(c, "iput_null_source") == 0) {
            shmem_long_iput(sym, NULL, 1, 1, 2, peer);
        } else if (strcmp(c, "getmem_nbi_null_dest") == 0) {
            shmem_getmem_nbi(NULL, sym, 8, peer);
        } else if (strcmp(c, "ctx_garbage") == 0) {
            /* Not a handle the library gave out, and memory that faults when read. */
            void *junk = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            shmem_ctx_long_p((shmem_ctx_t)junk, sym, 1, peer);
        } else if (strcmp(c, "query_thread_null") == 0) {
            shmem_query_thread(NULL);
        } else if (strcmp(c, "nonsymmetric") == 0) {
            long *heap = malloc(4 * sizeof(long));
            shmem_long_put(heap, src, 4, peer);
        } else if (strcmp(c, "misaligned") == 0) {
            shmem_long_atomic_add((long *)((char *)sym + 4), 1, peer);
        } else if (strcmp(c, "overflow") == 0) {
            shmem_long_put(sym, src, SIZE_MAX / 4, peer);
        } else if (strcmp(c, "cmp") == 0) {
            shmem_long_wait_until(sym, 42, 0);
        } else if (strcmp(c, "sig_op") == 0) {
            shmem_long_put_signal(sym, src, 1, sig, 1, 9, peer);
        } else if (strcmp(c, "scope") == 0) {
            shmemx_acquire(17);
        }
        fprintf(stderr, "error case '%s' was not caught\n", c);
        shmem_global_exit(3);
    }
    test_barrier();
    shmem_finalize();
    return 0;
}
