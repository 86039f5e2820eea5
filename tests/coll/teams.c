/* SPDX-License-Identifier: BSD-3-Clause */
/* Teams: predefined handles (also as static initializers), split_strided (including a reversed
 * team and a split of a split), split_2d, translate_pe, team_ptr, get_config, SHMEM_TEAM_INVALID
 * handling, collectives on the new teams, slot reuse over many create/destroy cycles, and running
 * out of teams. */
#include <string.h>

#include "coll_test.h"

static shmem_team_t world_static = SHMEM_TEAM_WORLD;
static shmem_team_t invalid_static = SHMEM_TEAM_INVALID;

static long *lsrc, *ldst;

/* Checks a team's view against the world PEs it should hold: members[i] for i < size. */
static void check_team(shmem_team_t team, const int *members, int size, const char *what) {
    int me = shmem_my_pe(), index = -1;
    for (int i = 0; i < size; i++)
        if (members[i] == me)
            index = i;
    if (index < 0) {
        CHECK(team == SHMEM_TEAM_INVALID, "%s: a non-member got a team", what);
        return;
    }
    CHECK(team != SHMEM_TEAM_INVALID, "%s: a member got SHMEM_TEAM_INVALID", what);
    CHECK(shmem_team_my_pe(team) == index, "%s: my_pe %d, expected %d", what,
          shmem_team_my_pe(team), index);
    CHECK(shmem_team_n_pes(team) == size, "%s: n_pes %d, expected %d", what, shmem_team_n_pes(team),
          size);
    for (int i = 0; i < size; i++) {
        CHECK(shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD) == members[i], "%s: translate %d",
              what, i);
        CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, members[i], team) == i,
              "%s: translate back %d", what, i);
        CHECK(shmem_team_ptr(team, lsrc, i) == shmem_ptr(lsrc, members[i]), "%s: team_ptr %d", what,
              i);
    }
    /* Collectives on the team: sum of world PE numbers, broadcast from the last member,
     * fcollect of world PE numbers, alltoall. */
    lsrc[0] = me;
    CHECK(shmem_long_sum_reduce(team, ldst, lsrc, 1) == 0, "%s: reduce rc", what);
    long sum = 0;
    for (int i = 0; i < size; i++)
        sum += members[i];
    CHECK(ldst[0] == sum, "%s: sum %ld, expected %ld", what, ldst[0], sum);
    lsrc[0] = 1000 + me;
    CHECK(shmem_long_broadcast(team, ldst, lsrc, 1, size - 1) == 0, "%s: broadcast rc", what);
    CHECK(ldst[0] == 1000 + members[size - 1], "%s: broadcast gave %ld", what, ldst[0]);
    CHECK(shmem_long_fcollect(team, ldst, lsrc, 1) == 0, "%s: fcollect rc", what);
    for (int i = 0; i < size; i++)
        CHECK(ldst[i] == 1000 + members[i], "%s: fcollect element %d", what, i);
    for (int i = 0; i < size; i++)
        lsrc[i] = me * 1000 + members[i];
    CHECK(shmem_long_alltoall(team, ldst, lsrc, 1) == 0, "%s: alltoall rc", what);
    for (int i = 0; i < size; i++)
        CHECK(ldst[i] == members[i] * 1000 + me, "%s: alltoall element %d", what, i);
    CHECK(shmem_team_sync(team) == 0, "%s: team_sync", what);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    lsrc = shmem_malloc(64 * sizeof(long));
    ldst = shmem_malloc(64 * sizeof(long));
    int members[64] = {0};

    CHECK(world_static == SHMEM_TEAM_WORLD && invalid_static == SHMEM_TEAM_INVALID, "static");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == n, "world n_pes");
    /* SHMEM_TEAM_SHARED: the PEs this PE maps (every PE on one node). */
    int mapped = 0;
    for (int pe = 0; pe < n; pe++)
        mapped += shmem_ptr(lsrc, pe) != NULL;
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == mapped ||
              (mapped > 1 && shmem_team_n_pes(SHMEM_TEAM_SHARED) == 1),
          "shared n_pes: %d, mapped %d", shmem_team_n_pes(SHMEM_TEAM_SHARED), mapped);
    CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid my_pe");
    CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid n_pes");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "translate");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n, SHMEM_TEAM_WORLD) == -1, "translate n");
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, lsrc, 0) == NULL, "team_ptr invalid");
    shmem_team_config_t config = {0};
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &config) != 0,
          "get_config invalid");
    shmem_team_destroy(SHMEM_TEAM_INVALID);
    for (int i = 0; i < n; i++)
        members[i] = i;
    check_team(SHMEM_TEAM_WORLD, members, n, "world");
    /* The shared team's members: the mapped PEs, where they form a strided range. */
    int shared[64] = {0}, n_shared = 0;
    for (int pe = 0; pe < n; pe++)
        if (shmem_ptr(lsrc, pe) != NULL)
            shared[n_shared++] = pe;
    if (shmem_team_n_pes(SHMEM_TEAM_SHARED) == n_shared)
        check_team(SHMEM_TEAM_SHARED, shared, n_shared, "shared");

    /* Invalid parent: no team, nonzero return. */
    shmem_team_t t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0,
          "split of invalid");
    CHECK(t == SHMEM_TEAM_INVALID, "split of invalid gave a team");
    t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n, 1, 0, NULL, 0, &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "split of size 0");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "split past the end");

    /* The even PEs, with a configuration. */
    shmem_team_t even;
    config.num_contexts = 3;
    int size = (n + 1) / 2;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, size, &config, SHMEM_TEAM_NUM_CONTEXTS,
                                   &even) == 0,
          "split even");
    for (int i = 0; i < size; i++)
        members[i] = 2 * i;
    check_team(even, members, size, "even");
    if (even != SHMEM_TEAM_INVALID) {
        shmem_team_config_t got = {0};
        CHECK(shmem_team_get_config(even, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                  got.num_contexts == 3,
              "get_config");
        /* A split of a split: every second member of the even team (world 0, 4, 8, ...). */
        shmem_team_t quarter;
        int qsize = (size + 1) / 2;
        CHECK(shmem_team_split_strided(even, 0, 2, qsize, NULL, 0, &quarter) == 0, "split");
        for (int i = 0; i < qsize; i++)
            members[i] = 4 * i;
        check_team(quarter, members, qsize, "quarter");
        shmem_team_destroy(quarter);
        /* A context on the team: PE numbers are team indices. The sync keeps the puts out of
         * the quarter team's collectives above. */
        shmem_team_sync(even);
        shmem_ctx_t ctx;
        shmem_team_t got_team = SHMEM_TEAM_INVALID;
        CHECK(shmem_team_create_ctx(even, 0, &ctx) == 0, "team_create_ctx");
        CHECK(shmem_ctx_get_team(ctx, &got_team) == 0 && got_team == even, "ctx_get_team");
        int right = (shmem_team_my_pe(even) + 1) % size;
        shmem_ctx_long_p(ctx, &ldst[0], 5000 + me, right);
        shmem_ctx_quiet(ctx);
        shmem_team_sync(even);
        int left = (shmem_team_my_pe(even) - 1 + size) % size;
        CHECK(ldst[0] == 5000 + 2 * left, "put on the team context: got %ld", ldst[0]);
        shmem_team_sync(even);
        shmem_ctx_destroy(ctx);
    }
    shmem_ctx_t bad_ctx;
    shmem_team_t ctx_team = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &bad_ctx) != 0 &&
              bad_ctx == SHMEM_CTX_INVALID,
          "team_create_ctx on SHMEM_TEAM_INVALID");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &ctx_team) == 0 && ctx_team == SHMEM_TEAM_WORLD,
          "default context's team");
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &ctx_team) != 0 && ctx_team == SHMEM_TEAM_INVALID,
          "invalid context's team");
    shmem_ctx_t world_ctx;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &world_ctx) == 0, "world ctx");
    CHECK(shmem_ctx_get_team(world_ctx, &ctx_team) == 0 && ctx_team == SHMEM_TEAM_WORLD,
          "world context's team");
    shmem_ctx_destroy(world_ctx);
    shmem_team_destroy(even);

    /* The world reversed (negative stride). */
    shmem_team_t reversed;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &reversed) == 0,
          "split reversed");
    for (int i = 0; i < n; i++)
        members[i] = n - 1 - i;
    check_team(reversed, members, n, "reversed");
    shmem_team_destroy(reversed);

    /* 2-d splits with rows of 2 and of 3 (the last row may be short). */
    for (int xrange = 2; xrange <= 3; xrange++) {
        shmem_team_t xt, yt;
        CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, NULL, 0, &xt, NULL, 0, &yt) == 0,
              "split_2d");
        int row = me / xrange, col = me % xrange, xs = 0, ys = 0;
        for (int pe = row * xrange; pe < n && pe < (row + 1) * xrange; pe++)
            members[xs++] = pe;
        check_team(xt, members, xs, "x axis");
        for (int pe = col; pe < n; pe += xrange)
            members[ys++] = pe;
        check_team(yt, members, ys, "y axis");
        shmem_team_destroy(xt);
        shmem_team_destroy(yt);
    }

    /* Slots are reused: many more teams than slots over time. */
    for (int k = 0; k < 150; k++) {
        shmem_team_t tk;
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, k % n, 1, 1, NULL, 0, &tk) == 0,
              "split %d", k);
        CHECK((tk != SHMEM_TEAM_INVALID) == (me == k % n), "split %d membership", k);
        shmem_team_destroy(tk);
    }

    /* Running out of teams: a nonzero return everywhere, then every team can be freed. */
    shmem_team_t many[80];
    int made = 0, rc = 0;
    while (made < 80 &&
           (rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &many[made])) == 0)
        made++;
    CHECK(rc != 0 && made >= 32, "made %d teams before running out", made);
    CHECK(many[made] == SHMEM_TEAM_INVALID, "a failed split gave a team");
    lsrc[0] = made;
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, ldst, lsrc, 1);
    CHECK(ldst[0] == made, "PEs disagree on the number of teams made");
    for (int i = 0; i < made; i++)
        shmem_team_destroy(many[i]);
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t) == 0, "after free");
    shmem_team_destroy(t);

    shmem_free(ldst);
    shmem_free(lsrc);
    shmem_finalize();
    return 0;
}
