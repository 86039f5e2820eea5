/* SPDX-License-Identifier: BSD-3-Clause */
/* Parser tests: a well-formed test and model parse into the expected structures; malformed ones
 * give an error at the right line and column. */
#include <stdlib.h>
#include <string.h>

#include "cat.h"
#include "litmus.h"
#include "test_util.h"

static const char *const mp_text = "LISA MP+quiet+amo\n"
                                   "\"what it shows\"\n"
                                   "{ x = 0; y = 5; }\n"
                                   " P0                      | P1                        ;\n"
                                   " w[put,na,world,c0] x 1  | r[wait,acq,world,c0] r1 y ;\n"
                                   " f[quiet,thread,c0]      | rmw[amo,rlx] r2 (add r2 3) x ;\n"
                                   " rmw[sig] r3 7 y         |                           ;\n"
                                   "scopes: (world (pe P0) (pe (block P1)))\n"
                                   "regions: x:pe1, y:pe0\n"
                                   "exists (1:r1=1 /\\ [x]=0 \\/ ~y=2)\n";

static void test_good_litmus(void) {
    litmus_test_t *t = calloc(1, sizeof *t);
    litmus_error_t err;
    CHECK(litmus_parse("mp.litmus", mp_text, t, &err) == 0);
    CHECK(strcmp(t->name, "MP+quiet+amo") == 0);
    CHECK(strcmp(t->doc, "what it shows") == 0);
    CHECK(t->nlocs == 2 && strcmp(t->locs[0], "x") == 0 && t->init[1] == 5);
    CHECK(t->nthreads == 2);
    CHECK(t->threads[0].ninstrs == 3 && t->threads[1].ninstrs == 2);
    const litmus_instr_t *w = &t->threads[0].instrs[0];
    CHECK(w->op == LITMUS_OP_WRITE && w->loc == 0 && w->value == 1 && w->nannots == 4);
    CHECK(strcmp(w->annots[3], "c0") == 0 && w->pos.line == 5 && w->pos.col == 2);
    const litmus_instr_t *add = &t->threads[1].instrs[1];
    CHECK(add->op == LITMUS_OP_RMW && add->rmw_is_add && add->reg == 2 && add->value == 3);
    const litmus_instr_t *swap = &t->threads[0].instrs[2];
    CHECK(swap->op == LITMUS_OP_RMW && !swap->rmw_is_add && swap->value == 7 && swap->loc == 1);
    CHECK(t->threads[0].instrs[1].op == LITMUS_OP_FENCE);
    const litmus_scope_node_t *root = &t->scope_nodes[t->scope_root];
    CHECK(strcmp(root->tag, "world") == 0 && root->nchildren == 2);
    const litmus_scope_node_t *pe1 = &t->scope_nodes[root->children[1]];
    CHECK(strcmp(pe1->tag, "pe") == 0 && pe1->nchildren == 1);
    CHECK(t->scope_nodes[pe1->children[0]].procs[0] == 1);
    CHECK(strcmp(t->region[0], "pe1") == 0 && strcmp(t->region[1], "pe0") == 0);
    /* (1:r1=1 /\ [x]=0) \/ ~(y=2) */
    const litmus_prop_t *top = &t->props[t->prop_root];
    CHECK(t->cond_kind == LITMUS_COND_EXISTS && top->op == LITMUS_PROP_OR && top->nargs == 2);
    const litmus_prop_t *conj = &t->props[top->args[0]];
    CHECK(conj->op == LITMUS_PROP_AND && conj->nargs == 2);
    CHECK(t->props[conj->args[0]].op == LITMUS_PROP_REG && t->props[conj->args[0]].proc == 1);
    CHECK(t->props[conj->args[1]].op == LITMUS_PROP_LOC && t->props[conj->args[1]].loc == 0);
    CHECK(t->props[top->args[1]].op == LITMUS_PROP_NOT);
    free(t);
}

typedef struct bad_case {
    const char *text;
    int line;
    int col;
    const char *msg;
} bad_case_t;

static void test_bad_litmus(void) {
    static const bad_case_t cases[] = {
        {"MP x\n", 1, 1, "expected 'LISA'"},
        {"LISA T\n{ x = 0 }\n P0 ;\n q[a] x 1 ;\nexists (x=1)\n", 4, 2, NULL},
        {"LISA T\n{ x = 0; }\n P0 | P1 ;\n w[a] x 1 ;\nexists (x=1)\n", 4, 11, "columns"},
        {"LISA T\n{}\n P0 ;\n w[a] x 1 ;\nscopes: (world P3)\nexists (x=1)\n", 5, 16,
         "not a thread"},
        {"LISA T\n(* never closed\n", 2, 1, "unterminated comment"},
        {"LISA T\n{}\n P0 ;\n r[a] r1 x ;\nexists (0:r1=1 /\\ z=0)\n", 5, 19, "not a location"},
        {"LISA T\n{}\n P0 ;\n r[a] r1 x ;\nexists (0:r1=1) junk\n", 5, 17, "unexpected text"},
        {"LISA T\n{}\n P0 ;\n w[a] r2 1 ;\nexists (x=1)\n", 4, 7, "cannot name a location"},
        {"LISA T\n{}\n P1 ;\nexists (x=1)\n", 3, 2, "expected thread P0"},
        {"LISA T\n{}\n P0 ;\n rmw[a] r1 (add r2 1) x ;\nexists (0:r1=1)\n", 4, 17,
         "its own register"},
        {"LISA T\n{}\n P0 ;\n w[a] x 99999999999999999999 ;\nexists (x=1)\n", 4, 9, "out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        litmus_test_t *t = calloc(1, sizeof *t);
        litmus_error_t err;
        memset(&err, 0, sizeof err);
        int rc = litmus_parse("bad.litmus", cases[i].text, t, &err);
        CHECK(rc == -1);
        if (err.line != cases[i].line || err.col != cases[i].col ||
            (cases[i].msg && !strstr(err.msg, cases[i].msg)))
            fprintf(stderr, "case %zu: got %d:%d: %s\n", i, err.line, err.col, err.msg);
        CHECK(err.line == cases[i].line && err.col == cases[i].col);
        CHECK(!cases[i].msg || strstr(err.msg, cases[i].msg));
        CHECK(strcmp(err.file, "bad.litmus") == 0);
        free(t);
    }
}

static const char *const bell = "\"b\"\n"
                                "enum K = 'a || 'b\n"
                                "enum scopes = 'thread || 'group || 'top\n"
                                "let narrower(s) = match s with || 'top -> 'group || 'group -> "
                                "'thread end\n"
                                "instructions R[K]\n"
                                "instructions W[{'a}]\n";

static void test_good_cat(void) {
    cat_model_t *m = calloc(1, sizeof *m);
    litmus_error_t err;
    const char *cat = "\"m\" include \"cos.cat\"\n"
                      "let r = po ; [A] | rf^-1 & (R * W)\n"
                      "let s = (r \\ id)+ ; tag2scope('group)\n"
                      "acyclic s | co* as ax // comment\n"
                      "empty domain(r) & B\n";
    CHECK(cat_parse_model_text("m.bell", bell, "m.cat", cat, m, &err) == 0);
    CHECK(m->ntags == 5 && m->nlevels == 3);
    CHECK(m->levels[0] == cat_find_tag(m, "thread") && m->levels[2] == cat_find_tag(m, "top"));
    CHECK(m->ngroups == 2 && m->groups[1].args[0] == (UINT64_C(1) << cat_find_tag(m, "a")));
    CHECK(m->nstmts == 4 && m->stmts[0].kind == CAT_LET && m->stmts[2].kind == CAT_ACYCLIC);
    CHECK(strcmp(m->stmts[2].name, "ax") == 0 && m->stmts[3].kind == CAT_ISEMPTY);
    /* r = (po ; [A]) | ((rf^-1) & (R * W)): union at the top, its right side an intersection. */
    const cat_expr_t *top = &m->exprs[m->stmts[0].expr];
    CHECK(top->op == CAT_UNION);
    CHECK(m->exprs[top->a].op == CAT_SEQ && m->exprs[top->b].op == CAT_INTER);
    CHECK(m->exprs[m->exprs[top->b].a].op == CAT_INVERSE);
    CHECK(m->exprs[m->exprs[top->b].b].op == CAT_CARTESIAN);
    free(m);
}

static void test_bad_cat(void) {
    static const bad_case_t cases[] = {
        {"include \"cos.cat\"\nlet a = po |\n  nope\n", 3, 3, "unbound name 'nope'"},
        {"include \"cos.cat\"\nacyclic R\n", 2, 1, "need a relation"},
        {"include \"cos.cat\"\nlet a = po ; R\n", 2, 12, "';' needs two relations"},
        {"include \"cos.cat\"\nshow po\n", 2, 1, "not in the supported cat subset"},
        {"let a = po\n", 1, 1, "must include"},
        {"include \"cos.cat\"\nlet a = (po | rf\n", 3, 1, "expected ')'"},
        {"include \"cos.cat\"\nlet f(x) = x\n", 2, 6, "functions"},
        {"include \"cos.cat\"\nlet a = tag2scope('nolevel)\n", 2, 20, "not a level"},
        {"include \"other.cat\"\n", 1, 1, "only"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cat_model_t *m = calloc(1, sizeof *m);
        litmus_error_t err;
        memset(&err, 0, sizeof err);
        CHECK(cat_parse_model_text("m.bell", bell, "m.cat", cases[i].text, m, &err) == -1);
        if (err.line != cases[i].line || err.col != cases[i].col || !strstr(err.msg, cases[i].msg))
            fprintf(stderr, "cat case %zu: got %d:%d: %s\n", i, err.line, err.col, err.msg);
        CHECK(err.line == cases[i].line && err.col == cases[i].col);
        CHECK(strstr(err.msg, cases[i].msg) != NULL);
        CHECK(strcmp(err.file, "m.cat") == 0);
        free(m);
    }
    cat_model_t *m = calloc(1, sizeof *m);
    litmus_error_t err;
    CHECK(cat_parse_model_text("m.bell", "enum K = 'a\ninstructions Q[K]\n", "m.cat",
                               "include \"cos.cat\"\n", m, &err) == -1);
    CHECK(strcmp(err.file, "m.bell") == 0 && err.line == 2 && err.col == 14);
    free(m);
}

static void expect_placement(const char *tree, int nthreads, int npes, const int *pes) {
    char text[512];
    snprintf(text, sizeof text,
             "LISA P\n{ x = 0; }\n P0 | P1 | P2 ;\n w[a] x 1 | | ;\n"
             "scopes: %s\nregions: x:pe%d\nexists (x=1)\n",
             tree, npes - 1);
    if (nthreads == 2)
        snprintf(text, sizeof text,
                 "LISA P\n{ x = 0; }\n P0 | P1 ;\n w[a] x 1 | ;\n"
                 "scopes: %s\nregions: x:pe%d\nexists (x=1)\n",
                 tree, npes - 1);
    litmus_test_t *t = calloc(1, sizeof *t);
    litmus_error_t err;
    int pe_of[LITMUS_MAX_THREADS];
    CHECK(litmus_parse("p.litmus", text, t, &err) == 0);
    int n = litmus_place_pes(t, pe_of);
    if (n != npes)
        fprintf(stderr, "%s: %d PEs, expected %d\n", tree, n, npes);
    CHECK(n == npes);
    for (int p = 0; p < nthreads; p++)
        CHECK(pe_of[p] == pes[p]);
    CHECK(litmus_loc_home(t, 0) == npes - 1);
    free(t);
}

static void test_placement(void) {
    expect_placement("(world (pe P0) (pe (block P1)))", 2, 2, (const int[]){0, 1});
    expect_placement("(world (pe P0) (pe) (pe P1))", 2, 3, (const int[]){0, 2});
    expect_placement("(world (pe (block P0) (block P1)) (pe P2))", 3, 2, (const int[]){0, 0, 1});
    expect_placement("(world P0 P1 P2)", 3, 3, (const int[]){0, 1, 2});
    expect_placement("(block P0 P1)", 2, 1, (const int[]){0, 0});
    expect_placement("(pe (warp P0 P1) (warp P2))", 3, 1, (const int[]){0, 0, 0});
    litmus_test_t *t = calloc(1, sizeof *t);
    litmus_error_t err;
    CHECK(litmus_parse("p.litmus",
                       "LISA P\n{}\n P0 | P1 | P2 ;\n w[a] x 1 | | ;\n"
                       "scopes: (pe (warp P0 P1) (warp P2))\nexists (x=1)\n",
                       t, &err) == 0);
    int w0 = litmus_scope_instance(t, 0, LITMUS_LEVEL_WARP);
    CHECK(w0 >= 0 && w0 == litmus_scope_instance(t, 1, LITMUS_LEVEL_WARP));
    CHECK(w0 != litmus_scope_instance(t, 2, LITMUS_LEVEL_WARP));
    CHECK(litmus_scope_instance(t, 0, LITMUS_LEVEL_THREAD) !=
          litmus_scope_instance(t, 1, LITMUS_LEVEL_THREAD));
    /* herd7 fills the missing device and block levels in per warp: P2's warp is in its own block.
     */
    CHECK(litmus_scope_instance(t, 0, LITMUS_LEVEL_BLOCK) ==
          litmus_scope_instance(t, 1, LITMUS_LEVEL_BLOCK));
    CHECK(litmus_scope_instance(t, 0, LITMUS_LEVEL_BLOCK) !=
          litmus_scope_instance(t, 2, LITMUS_LEVEL_BLOCK));
    CHECK(litmus_scope_instance(t, 0, LITMUS_LEVEL_PE) ==
          litmus_scope_instance(t, 2, LITMUS_LEVEL_PE));
    CHECK(litmus_loc_home(t, 0) == -1);
    free(t);
}

int main(void) {
    test_good_litmus();
    test_bad_litmus();
    test_good_cat();
    test_bad_cat();
    test_placement();
    return test_report("litmus_parse");
}
