/* SPDX-License-Identifier: BSD-3-Clause */
/* Counted initialization and re-initialization (OpenSHMEM 1.6): every shmem_init is matched by a
 * shmem_finalize, the last one finalizes, and shmem_init then initializes the library again with
 * fresh symmetric memory, teams and contexts. Also shmem_query_initialized and shmem_pcontrol. */
#include "pe_check.h"

#include <string.h>

#define EPOCHS 4

long global_word;

/* One epoch's worth of the library: heap, globals, a team split, a context, a reduction. */
static void use_library(int epoch, int me_before, int n_before) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(me == me_before && n == n_before);
    long *cell = shmem_calloc(4, sizeof(long));
    CHECK(cell != NULL);
    CHECK(cell[0] == 0 && cell[3] == 0);
    shmem_barrier_all();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_long_p(cell, 100 * epoch + me, right);
    shmem_long_p(&global_word, 1000 * epoch + me, right);
    shmem_barrier_all();
    CHECK(cell[0] == 100 * epoch + left);
    CHECK(global_word == 1000 * epoch + left);

    /* Teams of the earlier epoch are gone: every epoch can make as many as the slots allow. */
    shmem_team_t teams[40];
    for (int i = 0; i < 40; i++)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &teams[i]) == 0);
    shmem_ctx_t ctx;
    CHECK(shmem_team_create_ctx(teams[39], 0, &ctx) == 0);
    shmem_ctx_long_p(ctx, cell + 1, epoch, right);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);

    cell[2] = me + epoch;
    shmem_barrier_all();
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, cell + 3, cell + 2, 1) == 0);
    CHECK(cell[3] == (long)n * (n - 1) / 2 + (long)n * epoch);
    CHECK(cell[1] == epoch);
    for (int i = 0; i < 40; i++)
        if (i % 2 == 0)
            shmem_team_destroy(teams[i]);
    shmem_free(cell);
}

int main(void) {
    int initialized = -1;
    shmem_pcontrol(1);
    shmem_query_initialized(&initialized);
    CHECK(initialized == 0);

    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    for (int epoch = 1; epoch <= EPOCHS; epoch++) {
        if (epoch > 1)
            shmem_init();
        /* Two more counted calls: local, the thread level of the first. */
        int provided = -1;
        shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
        CHECK(provided == SHMEM_THREAD_SINGLE);
        shmem_init();
        shmem_query_initialized(&initialized);
        CHECK(initialized == 1);
        shmem_pcontrol(0);
        shmem_pcontrol(2);
        shmem_pcontrol(7, "tool-defined", epoch);

        use_library(epoch, me, n);

        /* The first two finalizes only count; the library stays usable. */
        shmem_finalize();
        shmem_finalize();
        shmem_query_initialized(&initialized);
        CHECK(initialized == 1);
        shmem_barrier_all();
        shmem_finalize();
        shmem_query_initialized(&initialized);
        CHECK(initialized == 0);
        /* Globals stay the program's own after finalize. */
        CHECK(global_word == 1000 * epoch + (me + n - 1) % n);
    }
    /* Once more without a matching finalize: returning from main finalizes. */
    shmem_init();
    shmem_barrier_all();
    if (me == 0)
        printf("reinit: %d epochs on %d PEs\n", EPOCHS, n);
    return 0;
}
