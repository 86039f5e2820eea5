/* SPDX-License-Identifier: BSD-3-Clause */
/* Evaluator tests: relations of small executions computed by hand, scope relations from scope
 * trees, and the counts of accepted executions. */
#include <stdlib.h>
#include <string.h>

#include "cat.h"
#include "exec.h"
#include "litmus.h"
#include "test_util.h"

static const char *const bell = "\"b\"\n"
                                "enum K = 'a || 'b\n"
                                "enum scopes = 'thread || 'group || 'top\n"
                                "let wider(s) = match s with || 'thread -> 'group || 'group -> "
                                "'top end\n"
                                "instructions R[K]\n"
                                "instructions W[K]\n"
                                "instructions RMW[K]\n"
                                "instructions F[K]\n";

static const char *const cat = "\"m\"\ninclude \"cos.cat\"\n"
                               "let fo = [W] ; po ; [F & B] ; po ; [W]\n"
                               "let aset = A\n"
                               "let wr = ext & (W * R)\n"
                               "let com = rf | co | fr\n"
                               "let grp = tag2scope('group)\n"
                               "let top = tag2scope('top)\n"
                               "let thr = tag2scope('thread)\n"
                               "let hb = (fo | rf)+\n"
                               "let rw = domain(rmw) | range(rmw)\n"
                               "let cyc = (po | com)+\n";

/* Events: 0 = init x, 1 = init y, 2 = P0 w x, 3 = P0 f, 4 = P0 w y, 5 = P1 r y, 6 = P1 r x. */
static const char *const mp = "LISA MP\n{ x = 0; y = 0; }\n"
                              " P0      | P1        ;\n"
                              " w[a] x 1 | r[a] r1 y ;\n"
                              " f[b]    | r[b] r2 x ;\n"
                              " w[a] y 1 |           ;\n"
                              "scopes: (top (group P0) (group P1))\n"
                              "exists (1:r1=1 /\\ 1:r2=0)\n";

typedef struct pair {
    int a;
    int b;
} pair_t;

static cat_model_t *model(const char *cat_text) {
    cat_model_t *m = calloc(1, sizeof *m);
    litmus_error_t err;
    if (cat_parse_model_text("t.bell", bell, "t.cat", cat_text, m, &err) < 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
        test_failures++;
    }
    return m;
}

static litmus_test_t *test(const char *text) {
    litmus_test_t *t = calloc(1, sizeof *t);
    litmus_error_t err;
    if (litmus_parse("t.litmus", text, t, &err) < 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
        test_failures++;
    }
    return t;
}

/* Checks that `name` in candidate k is exactly the relation listed in pairs. */
static void expect_rel(const cat_model_t *m, const litmus_test_t *t, long k, const char *name,
                       const pair_t *pairs, int npairs) {
    uint64_t rows[EXEC_MAX_EVENTS], set, want[EXEC_MAX_EVENTS] = {0};
    int is_rel = 0, n = 0;
    litmus_error_t err;
    int rc = exec_eval_name(m, t, k, name, &is_rel, rows, &set, &n, &err);
    if (rc != 0)
        fprintf(stderr, "eval %s: %s\n", name, rc < 0 ? err.msg : "no such candidate");
    CHECK(rc == 0 && is_rel);
    for (int i = 0; i < npairs; i++)
        want[pairs[i].a] |= UINT64_C(1) << pairs[i].b;
    for (int i = 0; i < n; i++) {
        if (rows[i] != want[i])
            fprintf(stderr, "%s candidate %ld row %d: got %#llx want %#llx\n", name, k, i,
                    (unsigned long long)rows[i], (unsigned long long)want[i]);
        CHECK(rows[i] == want[i]);
    }
}

static void expect_set(const cat_model_t *m, const litmus_test_t *t, const char *name,
                       uint64_t want) {
    uint64_t rows[EXEC_MAX_EVENTS], set = 0;
    int is_rel = 1, n = 0;
    litmus_error_t err;
    CHECK(exec_eval_name(m, t, 0, name, &is_rel, rows, &set, &n, &err) == 0);
    CHECK(!is_rel && set == want);
}

#define PAIRS(...)                                                                                 \
    (const pair_t[]){__VA_ARGS__}, (int)(sizeof((const pair_t[]){__VA_ARGS__}) / sizeof(pair_t))

static void test_relations(void) {
    cat_model_t *m = model(cat);
    litmus_test_t *t = test(mp);
    expect_rel(m, t, 0, "po", PAIRS({2, 3}, {2, 4}, {3, 4}, {5, 6}));
    expect_rel(m, t, 0, "fo", PAIRS({2, 4}));
    expect_set(m, t, "aset", 0x34); /* events 2, 4, 5 carry 'a */
    expect_set(m, t, "W", 0x17);
    expect_rel(m, t, 0, "loc",
               PAIRS({0, 0}, {0, 2}, {0, 6}, {2, 0}, {2, 2}, {2, 6}, {6, 0}, {6, 2}, {6, 6}, {1, 1},
                     {1, 4}, {1, 5}, {4, 1}, {4, 4}, {4, 5}, {5, 1}, {5, 4}, {5, 5}));
    /* Candidates: the read of y (event 5) changes fastest, each over [init, the write]. */
    expect_rel(m, t, 0, "rf", PAIRS({1, 5}, {0, 6}));
    expect_rel(m, t, 1, "rf", PAIRS({4, 5}, {0, 6}));
    expect_rel(m, t, 2, "rf", PAIRS({1, 5}, {2, 6}));
    expect_rel(m, t, 0, "co", PAIRS({0, 2}, {1, 4}));
    expect_rel(m, t, 0, "fr", PAIRS({5, 4}, {6, 2}));
    expect_rel(m, t, 3, "fr", NULL, 0);
    expect_rel(m, t, 1, "wr",
               PAIRS({0, 5}, {0, 6}, {1, 5}, {1, 6}, {2, 5}, {2, 6}, {4, 5}, {4, 6}));
    /* rf from the flag, then the fence order: 2 -> 4 -> 5, closed transitively. */
    expect_rel(m, t, 1, "hb", PAIRS({2, 4}, {4, 5}, {2, 5}, {0, 6}));
    /* The MP cycle of candidate 1: 2 po 4 rf 5 po 6 fr 2. */
    uint64_t rows[EXEC_MAX_EVENTS], set;
    int is_rel, n;
    litmus_error_t err;
    CHECK(exec_eval_name(m, t, 1, "cyc", &is_rel, rows, &set, &n, &err) == 0);
    CHECK(rows[2] >> 2 & 1);
    CHECK(exec_eval_name(m, t, 0, "cyc", &is_rel, rows, &set, &n, &err) == 0);
    for (int i = 0; i < n; i++)
        CHECK(!(rows[i] >> i & 1));
    CHECK(exec_eval_name(m, t, 4, "rf", &is_rel, rows, &set, &n, &err) == 1);
    free(t);
    free(m);
}

static void test_scopes(void) {
    cat_model_t *m = model(cat);
    litmus_test_t *t = test(mp);
    pair_t p0[] = {{2, 2}, {2, 3}, {2, 4}, {3, 2}, {3, 3}, {3, 4}, {4, 2}, {4, 3}, {4, 4}};
    pair_t both[9 + 4], all[25];
    int nb = 0, na = 0;
    for (int i = 0; i < 9; i++)
        both[nb++] = p0[i];
    for (int i = 5; i <= 6; i++)
        for (int j = 5; j <= 6; j++)
            both[nb++] = (pair_t){i, j};
    for (int i = 2; i <= 6; i++)
        for (int j = 2; j <= 6; j++)
            all[na++] = (pair_t){i, j};
    expect_rel(m, t, 0, "grp", both, nb);
    expect_rel(m, t, 0, "thr", both, nb);
    expect_rel(m, t, 0, "top", all, na);
    free(t);
    /* One group holding both threads; the top level is filled in above it. */
    const char *shared = "LISA S\n{ x = 0; y = 0; }\n P0 | P1 ;\n w[a] x 1 | r[a] r1 y ;\n"
                         " f[b] | r[b] r2 x ;\n w[a] y 1 | ;\nscopes: (group P0 P1)\n"
                         "exists (1:r1=1)\n";
    t = test(shared);
    expect_rel(m, t, 0, "grp", all, na);
    expect_rel(m, t, 0, "top", all, na);
    expect_rel(m, t, 0, "thr", both, nb);
    free(t);
    free(m);
}

static void test_rmw_and_counts(void) {
    cat_model_t *m = model(cat);
    /* Two fetch-adds: events 0 = init x, 1/2 = P0 r/w, 3/4 = P1 r/w. */
    const char *adds = "LISA A\n{ x = 0; }\n P0 | P1 ;\n rmw[a] r0 (add r0 1) x | rmw[a] r0 (add "
                       "r0 1) x ;\nscopes: (top P0 P1)\nexists (x=2)\n";
    litmus_test_t *t = test(adds);
    expect_rel(m, t, 0, "rmw", PAIRS({1, 2}, {3, 4}));
    expect_set(m, t, "rw", 0x1e);
    /* Each read has 2 writes to choose from (not its own); 2 co orders: 8 candidates, of which
     * the two where each read reads the other's write have no value: 6 remain. */
    exec_outcome_t o;
    litmus_error_t err;
    CHECK(exec_check(m, t, &o, &err) == 0);
    CHECK(o.cands == 6 && o.pos + o.neg == 6);
    exec_outcome_free(&o);
    free(t);
    cat_model_t *sc = model("\"sc\" include \"cos.cat\"\n"
                            "acyclic po | rf | co | fr as sc\n"
                            "empty rmw & (fre ; coe) as atomic\n");
    t = test(adds);
    CHECK(exec_check(sc, t, &o, &err) == 0);
    /* SC: the adds are atomic, x ends at 2 in both orders. */
    CHECK(o.pos == 2 && o.neg == 0 && o.nstates == 1 && o.states[0] == 2);
    exec_outcome_free(&o);
    free(t);
    t = test(mp);
    CHECK(exec_check(sc, t, &o, &err) == 0);
    CHECK(o.pos == 0 && o.neg == 3 && o.nstates == 3 && o.nshown == 2);
    exec_outcome_free(&o);
    CHECK(exec_check(m, t, &o, &err) == 0);
    CHECK(o.pos == 1 && o.neg == 3 && o.nstates == 4);
    exec_outcome_free(&o);
    free(t);
    free(sc);
    free(m);
}

static void test_event_errors(void) {
    cat_model_t *m = model(cat);
    litmus_test_t *t = test("LISA E\n{}\n P0 ;\n w[a,b] x 1 ;\nscopes: (top P0)\nexists (x=1)\n");
    exec_outcome_t o;
    litmus_error_t err;
    CHECK(exec_check(m, t, &o, &err) == -1);
    CHECK(err.line == 4 && err.col == 2 && strstr(err.msg, "do not match"));
    free(t);
    t = test("LISA E\n{}\n P0 ;\n w[a] x 1 ;\nscopes: (group (top P0))\nexists (x=1)\n");
    CHECK(exec_check(m, t, &o, &err) == -1);
    CHECK(err.line == 5 && strstr(err.msg, "narrower"));
    free(t);
    t = test("LISA E\n{}\n P0 ;\n w[zz] x 1 ;\nscopes: (top P0)\nexists (x=1)\n");
    CHECK(exec_check(m, t, &o, &err) == -1);
    CHECK(err.line == 4 && strstr(err.msg, "unknown annotation 'zz'"));
    free(t);
    free(m);
}

int main(void) {
    test_relations();
    test_scopes();
    test_rmw_and_counts();
    test_event_errors();
    return test_report("litmus_eval");
}
