/* SPDX-License-Identifier: BSD-3-Clause */
/* Parser for LISA litmus tests: header, initial state, thread columns, scopes:, regions:,
 * condition. */
#include "litmus.h"
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find_loc(litmus_test_t *t, const char *name) {
    for (int i = 0; i < t->nlocs; i++)
        if (strcmp(t->locs[i], name) == 0)
            return i;
    return -1;
}

static int intern_loc(scan_t *s, litmus_test_t *t, const char *name) {
    int i = find_loc(t, name);
    if (i >= 0)
        return i;
    if (t->nlocs == LITMUS_MAX_LOCS)
        return scan_error(s, "more than %d locations", LITMUS_MAX_LOCS) - 1;
    snprintf(t->locs[t->nlocs], LITMUS_NAME_LEN, "%s", name);
    t->loc_pos[t->nlocs].line = s->line;
    t->loc_pos[t->nlocs].col = s->col - (int)strlen(name);
    t->init[t->nlocs] = 0;
    t->region[t->nlocs][0] = '\0';
    return t->nlocs++;
}

static int is_reserved_loc(const char *name) {
    static const char *const words[] = {"r",    "w",      "f",      "b",      "rmw", "mov",
                                        "add",  "and",    "xor",    "eq",     "ne",  "neq",
                                        "call", "scopes", "levels", "regions"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(name, words[i]) == 0)
            return 1;
    return 0;
}

/* Registers are r0, r1, ...: returns the number, or -1 if `name` is not a register. */
static int reg_number(const char *name) {
    if (name[0] != 'r' || name[1] < '0' || name[1] > '9')
        return -1;
    int v = 0;
    for (const char *p = name + 1; *p; p++) {
        if (*p < '0' || *p > '9' || v > 1000)
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

static int parse_reg(scan_t *s, int *reg) {
    char name[LITMUS_NAME_LEN];
    int line = s->line, col = s->col;
    if (scan_ident(s, name, sizeof name, "a register (r0, r1, ...)") < 0)
        return -1;
    int r = reg_number(name);
    if (r < 0 || r >= LITMUS_MAX_REGS)
        return litmus_fail(s->err, s->file, line, col, "'%s' is not a register (r0 .. r%d)", name,
                           LITMUS_MAX_REGS - 1);
    *reg = r;
    return 0;
}

static int parse_loc(scan_t *s, litmus_test_t *t, int *loc) {
    char name[LITMUS_NAME_LEN];
    int line = s->line, col = s->col;
    if (scan_ident(s, name, sizeof name, "a location name") < 0)
        return -1;
    if (reg_number(name) >= 0 || is_reserved_loc(name))
        return litmus_fail(s->err, s->file, line, col, "'%s' cannot name a location", name);
    int i = intern_loc(s, t, name);
    if (i < 0)
        return -1;
    *loc = i;
    return 0;
}

static int parse_annots(scan_t *s, litmus_instr_t *in) {
    in->nannots = 0;
    if (scan_expect(s, "[", "after the instruction name") < 0)
        return -1;
    scan_skip(s, 0);
    if (scan_accept(s, "]"))
        return 0;
    for (;;) {
        scan_skip(s, 0);
        if (in->nannots == LITMUS_MAX_ANNOTS)
            return scan_error(s, "more than %d annotations", LITMUS_MAX_ANNOTS);
        if (scan_ident(s, in->annots[in->nannots], LITMUS_NAME_LEN, "an annotation") < 0)
            return -1;
        in->nannots++;
        scan_skip(s, 0);
        if (scan_accept(s, "]"))
            return 0;
        if (scan_expect(s, ",", "or ']' between annotations") < 0)
            return -1;
    }
}

static int parse_instr(scan_t *s, litmus_test_t *t, litmus_instr_t *in) {
    char word[LITMUS_NAME_LEN];
    in->pos.line = s->line;
    in->pos.col = s->col;
    in->reg = -1;
    in->loc = -1;
    in->value = 0;
    in->rmw_is_add = 0;
    if (scan_ident(s, word, sizeof word, "an instruction (r, w, rmw, f)") < 0)
        return -1;
    if (strcmp(word, "r") == 0)
        in->op = LITMUS_OP_READ;
    else if (strcmp(word, "w") == 0)
        in->op = LITMUS_OP_WRITE;
    else if (strcmp(word, "rmw") == 0)
        in->op = LITMUS_OP_RMW;
    else if (strcmp(word, "f") == 0)
        in->op = LITMUS_OP_FENCE;
    else
        return litmus_fail(s->err, s->file, in->pos.line, in->pos.col,
                           "unknown instruction '%s' (expected r, w, rmw or f)", word);
    if (parse_annots(s, in) < 0)
        return -1;
    scan_skip(s, 0);
    switch (in->op) {
    case LITMUS_OP_READ:
        if (parse_reg(s, &in->reg) < 0)
            return -1;
        scan_skip(s, 0);
        return parse_loc(s, t, &in->loc);
    case LITMUS_OP_WRITE:
        if (parse_loc(s, t, &in->loc) < 0)
            return -1;
        scan_skip(s, 0);
        return scan_int(s, &in->value, "an integer value to write");
    case LITMUS_OP_RMW:
        if (parse_reg(s, &in->reg) < 0)
            return -1;
        scan_skip(s, 0);
        if (scan_accept(s, "(")) {
            int reg2 = -1;
            scan_skip(s, 0);
            if (scan_expect(s, "add", "in an rmw operation (only (add REG VALUE) is supported)") <
                0)
                return -1;
            scan_skip(s, 0);
            int line = s->line, col = s->col;
            if (parse_reg(s, &reg2) < 0)
                return -1;
            if (reg2 != in->reg)
                return litmus_fail(s->err, s->file, line, col,
                                   "the rmw operation must add to its own register r%d", in->reg);
            scan_skip(s, 0);
            if (scan_int(s, &in->value, "an integer addend") < 0)
                return -1;
            scan_skip(s, 0);
            if (scan_expect(s, ")", "after the rmw operation") < 0)
                return -1;
            in->rmw_is_add = 1;
        } else if (scan_int(s, &in->value, "'(add REG VALUE)' or a value to swap in") < 0) {
            return -1;
        }
        scan_skip(s, 0);
        return parse_loc(s, t, &in->loc);
    case LITMUS_OP_FENCE:
        return 0;
    }
    return 0;
}

static int parse_init(scan_t *s, litmus_test_t *t) {
    if (scan_expect(s, "{", "to open the initial state") < 0)
        return -1;
    for (;;) {
        if (scan_skip(s, 0) < 0)
            return -1;
        if (scan_accept(s, "}"))
            return 0;
        int line = s->line, col = s->col;
        char name[LITMUS_NAME_LEN];
        if (scan_ident(s, name, sizeof name, "a location or '}'") < 0)
            return -1;
        if (reg_number(name) >= 0 || is_reserved_loc(name))
            return litmus_fail(s->err, s->file, line, col, "'%s' cannot name a location", name);
        if (find_loc(t, name) >= 0)
            return litmus_fail(s->err, s->file, line, col, "'%s' is initialized twice", name);
        int loc = intern_loc(s, t, name);
        if (loc < 0)
            return -1;
        scan_skip(s, 0);
        if (scan_expect(s, "=", "after the location name") < 0)
            return -1;
        scan_skip(s, 0);
        if (scan_int(s, &t->init[loc], "an integer initial value") < 0)
            return -1;
        scan_skip(s, 0);
        if (!scan_accept(s, ";") && *s->p != '}')
            return scan_error(s, "expected ';' or '}' after the initial value");
    }
}

static int parse_thread_header(scan_t *s, litmus_test_t *t) {
    for (;;) {
        scan_skip(s, 0);
        int line = s->line, col = s->col;
        char name[LITMUS_NAME_LEN];
        if (scan_ident(s, name, sizeof name, "a thread name P0, P1, ...") < 0)
            return -1;
        char expect[16];
        snprintf(expect, sizeof expect, "P%d", t->nthreads);
        if (strcmp(name, expect) != 0)
            return litmus_fail(s->err, s->file, line, col, "expected thread %s, found '%s'", expect,
                               name);
        if (t->nthreads == LITMUS_MAX_THREADS)
            return litmus_fail(s->err, s->file, line, col, "more than %d threads",
                               LITMUS_MAX_THREADS);
        t->nthreads++;
        scan_skip(s, 0);
        if (scan_accept(s, ";"))
            return 0;
        if (scan_expect(s, "|", "or ';' after a thread name") < 0)
            return -1;
    }
}

static int row_starts(scan_t *s) {
    char word[LITMUS_NAME_LEN];
    if (*s->p == '|' || *s->p == ';')
        return 1;
    if (scan_peek_ident(s, word, sizeof word) < 0)
        return 0;
    /* Any NAME[ starts an instruction, so that an unknown one is reported as such. */
    return s->p[strlen(word)] == '[';
}

static int parse_rows(scan_t *s, litmus_test_t *t) {
    for (;;) {
        if (scan_skip(s, 0) < 0)
            return -1;
        if (!row_starts(s))
            return 0;
        int line = s->line;
        for (int th = 0; th < t->nthreads; th++) {
            scan_skip(s, 0);
            if (*s->p != '|' && *s->p != ';') {
                litmus_thread_t *thr = &t->threads[th];
                if (thr->ninstrs == LITMUS_MAX_INSTRS)
                    return scan_error(s, "thread P%d has more than %d instructions", th,
                                      LITMUS_MAX_INSTRS);
                if (parse_instr(s, t, &thr->instrs[thr->ninstrs]) < 0)
                    return -1;
                thr->ninstrs++;
                scan_skip(s, 0);
            }
            if (th + 1 < t->nthreads) {
                if (*s->p == ';')
                    return scan_error(s, "this row has %d columns, the test has %d threads", th + 1,
                                      t->nthreads);
                if (scan_expect(s, "|", "between thread columns") < 0)
                    return -1;
            } else if (!scan_accept(s, ";")) {
                if (*s->p == '|')
                    return scan_error(s, "this row has more columns than the %d threads",
                                      t->nthreads);
                return scan_error(s, "expected ';' at the end of the row started on line %d", line);
            }
        }
    }
}

static int new_scope_node(scan_t *s, litmus_test_t *t) {
    if (t->nscope_nodes == LITMUS_MAX_SCOPE_NODES)
        return scan_error(s, "the scope tree has more than %d nodes", LITMUS_MAX_SCOPE_NODES) - 1;
    litmus_scope_node_t *n = &t->scope_nodes[t->nscope_nodes];
    memset(n, 0, sizeof *n);
    n->pos.line = s->line;
    n->pos.col = s->col;
    return t->nscope_nodes++;
}

static int parse_scope_tree(scan_t *s, litmus_test_t *t, int depth) {
    if (depth > 16)
        return scan_error(s, "the scope tree is nested too deeply") - 1;
    int id = new_scope_node(s, t);
    if (id < 0)
        return -1;
    if (scan_expect(s, "(", "to open a scope") < 0)
        return -1;
    scan_skip(s, 0);
    litmus_scope_node_t *n = &t->scope_nodes[id];
    n->pos.line = s->line;
    n->pos.col = s->col;
    if (scan_ident(s, n->tag, LITMUS_NAME_LEN, "a scope level name") < 0)
        return -1;
    for (;;) {
        scan_skip(s, 0);
        if (scan_accept(s, ")"))
            return id;
        if (*s->p == '(') {
            if (t->scope_nodes[id].nprocs > 0)
                return scan_error(s, "a scope holds either threads or sub-scopes, not both") - 1;
            int child = parse_scope_tree(s, t, depth + 1);
            if (child < 0)
                return -1;
            n = &t->scope_nodes[id];
            n->children[n->nchildren++] = child;
            continue;
        }
        char name[LITMUS_NAME_LEN];
        int line = s->line, col = s->col;
        if (scan_ident(s, name, sizeof name, "a thread P0, P1, ..., a '(' or ')'") < 0)
            return -1;
        int p = -1;
        if (name[0] == 'P' && name[1] >= '0' && name[1] <= '9' && strlen(name) < 4)
            p = atoi(name + 1);
        if (p < 0 || p >= t->nthreads)
            return litmus_fail(s->err, s->file, line, col, "'%s' is not a thread of this test",
                               name) -
                   1;
        n = &t->scope_nodes[id];
        if (n->nchildren > 0)
            return litmus_fail(s->err, s->file, line, col,
                               "a scope holds either threads or sub-scopes, not both") -
                   1;
        if (n->nprocs == LITMUS_MAX_SCOPE_PROCS)
            return litmus_fail(s->err, s->file, line, col, "too many threads in one scope") - 1;
        n->procs[n->nprocs++] = p;
    }
}

static int parse_scopes(scan_t *s, litmus_test_t *t) {
    if (t->nscope_nodes > 0)
        return scan_error(s, "a second scopes: line");
    int root = new_scope_node(s, t);
    if (root < 0)
        return -1;
    scan_skip(s, 0);
    if (*s->p != '(')
        return scan_error(s, "expected a scope tree such as (world (pe P0) (pe P1))");
    while (*s->p == '(') {
        int child = parse_scope_tree(s, t, 0);
        if (child < 0)
            return -1;
        litmus_scope_node_t *r = &t->scope_nodes[root];
        r->children[r->nchildren++] = child;
        scan_skip(s, 0);
    }
    litmus_scope_node_t *r = &t->scope_nodes[root];
    t->scope_root = r->nchildren == 1 ? r->children[0] : root;
    int seen[LITMUS_MAX_THREADS] = {0};
    for (int i = 0; i < t->nscope_nodes; i++)
        for (int j = 0; j < t->scope_nodes[i].nprocs; j++) {
            int p = t->scope_nodes[i].procs[j];
            if (seen[p]++)
                return litmus_fail(s->err, s->file, t->scope_nodes[i].pos.line,
                                   t->scope_nodes[i].pos.col, "thread P%d appears twice", p);
        }
    for (int p = 0; p < t->nthreads; p++)
        if (!seen[p])
            return scan_error(s, "thread P%d is missing from the scope tree", p);
    return 0;
}

static int parse_regions(scan_t *s, litmus_test_t *t) {
    if (t->has_regions)
        return scan_error(s, "a second regions: line");
    t->has_regions = 1;
    for (;;) {
        scan_skip(s, 0);
        int line = s->line, col = s->col;
        char name[LITMUS_NAME_LEN];
        if (scan_ident(s, name, sizeof name, "a location name") < 0)
            return -1;
        int loc = find_loc(t, name);
        if (loc < 0)
            return litmus_fail(s->err, s->file, line, col, "'%s' is not a location of this test",
                               name);
        if (t->region[loc][0])
            return litmus_fail(s->err, s->file, line, col, "'%s' is given two regions", name);
        scan_skip(s, 0);
        if (scan_expect(s, ":", "between a location and its region") < 0)
            return -1;
        scan_skip(s, 0);
        t->region_pos[loc].line = s->line;
        t->region_pos[loc].col = s->col;
        if (scan_ident(s, t->region[loc], LITMUS_NAME_LEN, "a region name") < 0)
            return -1;
        scan_skip(s, 0);
        if (!scan_accept(s, ","))
            return 0;
    }
}

static int new_prop(scan_t *s, litmus_test_t *t, litmus_prop_op_t op) {
    if (t->nprops == LITMUS_MAX_COND_NODES)
        return scan_error(s, "the condition has more than %d terms", LITMUS_MAX_COND_NODES) - 1;
    litmus_prop_t *p = &t->props[t->nprops];
    memset(p, 0, sizeof *p);
    p->op = op;
    return t->nprops++;
}

static int parse_prop_or(scan_t *s, litmus_test_t *t, int depth);

static int parse_prop_atom(scan_t *s, litmus_test_t *t, int depth) {
    if (depth > 32)
        return scan_error(s, "the condition is nested too deeply") - 1;
    scan_skip(s, 0);
    if (scan_accept(s, "(")) {
        int id = parse_prop_or(s, t, depth + 1);
        if (id < 0)
            return -1;
        scan_skip(s, 0);
        if (scan_expect(s, ")", "to close the parenthesis") < 0)
            return -1;
        return id;
    }
    if (scan_accept(s, "~") || scan_accept(s, "not")) {
        int arg = parse_prop_atom(s, t, depth + 1);
        if (arg < 0)
            return -1;
        int id = new_prop(s, t, LITMUS_PROP_NOT);
        if (id < 0)
            return -1;
        t->props[id].nargs = 1;
        t->props[id].args[0] = arg;
        return id;
    }
    if (scan_accept(s, "true"))
        return new_prop(s, t, LITMUS_PROP_TRUE);
    if (scan_accept(s, "false"))
        return new_prop(s, t, LITMUS_PROP_FALSE);
    int line = s->line, col = s->col;
    if (*s->p >= '0' && *s->p <= '9') {
        int64_t proc;
        int reg;
        if (scan_int(s, &proc, "a thread number") < 0)
            return -1;
        if (proc < 0 || proc >= t->nthreads)
            return litmus_fail(s->err, s->file, line, col, "the test has no thread P%lld",
                               (long long)proc);
        if (scan_expect(s, ":", "after the thread number") < 0 || parse_reg(s, &reg) < 0)
            return -1;
        int id = new_prop(s, t, LITMUS_PROP_REG);
        if (id < 0)
            return -1;
        t->props[id].proc = (int)proc;
        t->props[id].reg = reg;
        scan_skip(s, 0);
        if (scan_expect(s, "=", "in the condition") < 0)
            return -1;
        scan_skip(s, 0);
        return scan_int(s, &t->props[id].value, "an integer value") < 0 ? -1 : id;
    }
    int bracket = scan_accept(s, "[");
    char name[LITMUS_NAME_LEN];
    if (scan_ident(s, name, sizeof name, "a condition term such as 1:r0=1 or x=1") < 0)
        return -1;
    if (bracket && scan_expect(s, "]", "after the location") < 0)
        return -1;
    int loc = find_loc(t, name);
    if (loc < 0)
        return litmus_fail(s->err, s->file, line, col, "'%s' is not a location of this test", name);
    int id = new_prop(s, t, LITMUS_PROP_LOC);
    if (id < 0)
        return -1;
    t->props[id].loc = loc;
    scan_skip(s, 0);
    if (scan_expect(s, "=", "in the condition") < 0)
        return -1;
    scan_skip(s, 0);
    return scan_int(s, &t->props[id].value, "an integer value") < 0 ? -1 : id;
}

static int parse_prop_list(scan_t *s, litmus_test_t *t, int depth, const char *opname,
                           litmus_prop_op_t op) {
    int first = op == LITMUS_PROP_AND ? parse_prop_atom(s, t, depth)
                                      : parse_prop_list(s, t, depth, "/\\", LITMUS_PROP_AND);
    if (first < 0)
        return -1;
    scan_skip(s, 0);
    if (strncmp(s->p, opname, 2) != 0)
        return first;
    int id = new_prop(s, t, op);
    if (id < 0)
        return -1;
    t->props[id].args[t->props[id].nargs++] = first;
    while (scan_skip(s, 0) == 0 && scan_accept(s, opname)) {
        int next = op == LITMUS_PROP_AND ? parse_prop_atom(s, t, depth)
                                         : parse_prop_list(s, t, depth, "/\\", LITMUS_PROP_AND);
        if (next < 0)
            return -1;
        if (t->props[id].nargs == LITMUS_MAX_COND_NODES)
            return scan_error(s, "too many terms") - 1;
        t->props[id].args[t->props[id].nargs++] = next;
    }
    return id;
}

static int parse_prop_or(scan_t *s, litmus_test_t *t, int depth) {
    return parse_prop_list(s, t, depth, "\\/", LITMUS_PROP_OR);
}

static int parse_condition(scan_t *s, litmus_test_t *t) {
    if (scan_accept(s, "~exists") ||
        (scan_accept(s, "~") && (scan_skip(s, 0), 1) && scan_accept(s, "exists")))
        t->cond_kind = LITMUS_COND_NOT_EXISTS;
    else if (scan_accept(s, "exists"))
        t->cond_kind = LITMUS_COND_EXISTS;
    else if (scan_accept(s, "forall"))
        t->cond_kind = LITMUS_COND_FORALL;
    else
        return scan_error(s, "expected scopes:, regions:, or the condition (exists, ~exists, "
                             "forall)");
    int root = parse_prop_or(s, t, 0);
    if (root < 0)
        return -1;
    t->prop_root = root;
    if (scan_skip(s, 0) < 0)
        return -1;
    if (*s->p)
        return scan_error(s, "unexpected text after the condition");
    return 0;
}

int litmus_parse(const char *file, const char *text, litmus_test_t *t, litmus_error_t *err) {
    scan_t sc, *s = &sc;
    memset(t, 0, sizeof *t);
    snprintf(t->file, sizeof t->file, "%s", file);
    scan_init(s, file, text, err);
    if (scan_skip(s, 0) < 0)
        return -1;
    if (!scan_accept(s, "LISA"))
        return scan_error(s, "expected 'LISA' and the test name");
    while (*s->p == ' ' || *s->p == '\t')
        scan_advance(s, 1);
    int n = 0;
    while (s->p[n] && s->p[n] != '\n' && s->p[n] != '\r' && s->p[n] != ' ' && s->p[n] != '\t')
        n++;
    if (n == 0)
        return scan_error(s, "expected the test name after 'LISA'");
    if (n >= (int)sizeof t->name)
        return scan_error(s, "the test name is longer than %d characters", (int)sizeof t->name - 1);
    memcpy(t->name, s->p, (size_t)n);
    scan_advance(s, n);
    if (scan_skip(s, 0) < 0)
        return -1;
    if (*s->p == '"') {
        if (scan_string(s, t->doc, sizeof t->doc) < 0 || scan_skip(s, 0) < 0)
            return -1;
    }
    if (parse_init(s, t) < 0 || scan_skip(s, 0) < 0)
        return -1;
    if (parse_thread_header(s, t) < 0 || parse_rows(s, t) < 0)
        return -1;
    for (;;) {
        if (scan_skip(s, 0) < 0)
            return -1;
        if (scan_accept(s, "scopes")) {
            scan_skip(s, 0);
            if (scan_expect(s, ":", "after 'scopes'") < 0 || parse_scopes(s, t) < 0)
                return -1;
        } else if (scan_accept(s, "regions")) {
            scan_skip(s, 0);
            if (scan_expect(s, ":", "after 'regions'") < 0 || parse_regions(s, t) < 0)
                return -1;
        } else {
            break;
        }
    }
    return parse_condition(s, t);
}

int litmus_parse_file(const char *path, litmus_test_t *test, litmus_error_t *err) {
    char *text = litmus_read_file(path, err);
    if (!text)
        return -1;
    int rc = litmus_parse(path, text, test, err);
    free(text);
    return rc;
}

int litmus_prop_holds(const litmus_test_t *t, int i, litmus_leaf_fn leaf, const void *state) {
    const litmus_prop_t *p = &t->props[i];
    switch (p->op) {
    case LITMUS_PROP_REG:
    case LITMUS_PROP_LOC:
        return leaf(p, state) == p->value;
    case LITMUS_PROP_AND:
        for (int k = 0; k < p->nargs; k++)
            if (!litmus_prop_holds(t, p->args[k], leaf, state))
                return 0;
        return 1;
    case LITMUS_PROP_OR:
        for (int k = 0; k < p->nargs; k++)
            if (litmus_prop_holds(t, p->args[k], leaf, state))
                return 1;
        return 0;
    case LITMUS_PROP_NOT:
        return !litmus_prop_holds(t, p->args[0], leaf, state);
    case LITMUS_PROP_TRUE:
        return 1;
    case LITMUS_PROP_FALSE:
        return 0;
    }
    return 0;
}
