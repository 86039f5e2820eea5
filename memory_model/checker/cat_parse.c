/* SPDX-License-Identifier: BSD-3-Clause */
/* Parser for shmem.bell and the cat subset of shmem.cat (see memory_model/README.md). */
#include "cat.h"
#include "scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cat_parser {
    scan_t s;
    cat_model_t *m;
    int is_bell;
    /* Let-bound names visible so far, for resolving variables to slots. */
    int nbound;
    char bound[CAT_MAX_STMTS][LITMUS_NAME_LEN];
    int bound_slot[CAT_MAX_STMTS];
} cat_parser_t;

static const char *const predefined[CAT_SLOT_FIRST_TAG] = {
    [CAT_SLOT_UNIVERSE] = "_", [CAT_SLOT_R] = "R",     [CAT_SLOT_W] = "W",
    [CAT_SLOT_M] = "M",        [CAT_SLOT_F] = "F",     [CAT_SLOT_IW] = "IW",
    [CAT_SLOT_ID] = "id",      [CAT_SLOT_PO] = "po",   [CAT_SLOT_PO_LOC] = "po-loc",
    [CAT_SLOT_LOC] = "loc",    [CAT_SLOT_INT] = "int", [CAT_SLOT_EXT] = "ext",
    [CAT_SLOT_RF] = "rf",      [CAT_SLOT_RFE] = "rfe", [CAT_SLOT_RFI] = "rfi",
    [CAT_SLOT_CO] = "co",      [CAT_SLOT_COE] = "coe", [CAT_SLOT_COI] = "coi",
    [CAT_SLOT_FR] = "fr",      [CAT_SLOT_FRE] = "fre", [CAT_SLOT_FRI] = "fri",
    [CAT_SLOT_RMW] = "rmw",
};

int cat_find_tag(const cat_model_t *m, const char *name) {
    for (int i = 0; i < m->ntags; i++)
        if (strcmp(m->tags[i], name) == 0)
            return i;
    return -1;
}

static int capitalized_equals(const char *tag, const char *name) {
    if (!tag[0] || toupper((unsigned char)tag[0]) != name[0])
        return 0;
    return strcmp(tag + 1, name + 1) == 0;
}

int cat_resolve_name(const cat_model_t *m, const char *name) {
    for (int i = m->nstmts - 1; i >= 0; i--)
        if (m->stmts[i].kind == CAT_LET && strcmp(m->stmts[i].name, name) == 0)
            return m->stmts[i].slot;
    for (int i = 0; i < CAT_SLOT_FIRST_TAG; i++)
        if (strcmp(predefined[i], name) == 0)
            return i;
    for (int i = 0; i < m->ntags; i++)
        if (capitalized_equals(m->tags[i], name))
            return CAT_SLOT_FIRST_TAG + i;
    for (int i = 0; i < m->nlevels; i++)
        if (strcmp(m->tags[m->levels[i]], name) == 0)
            return CAT_SLOT_FIRST_TAG + m->ntags + i;
    return -1;
}

static int skip(cat_parser_t *p) {
    return scan_skip(&p->s, 1);
}

static int is_keyword(const char *w) {
    static const char *const kw[] = {
        "let",     "rec",  "and",          "acyclic",   "irreflexive", "empty",  "as",
        "include", "enum", "instructions", "match",     "with",        "end",    "show",
        "in",      "fun",  "call",         "procedure", "flag",        "forall", "do",
        "from",    "if",   "then",         "else",      "default",     "try"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strcmp(w, kw[i]) == 0)
            return 1;
    return 0;
}

static int peek_word(cat_parser_t *p, const char *w) {
    char buf[LITMUS_NAME_LEN];
    return scan_peek_ident(&p->s, buf, sizeof buf) > 0 && strcmp(buf, w) == 0;
}

static int new_expr(cat_parser_t *p, cat_op_t op, int line, int col) {
    cat_model_t *m = p->m;
    if (m->nexprs == CAT_MAX_EXPRS)
        return litmus_fail(p->s.err, p->s.file, line, col, "the model has more than %d terms",
                           CAT_MAX_EXPRS) -
               1;
    cat_expr_t *e = &m->exprs[m->nexprs];
    memset(e, 0, sizeof *e);
    e->op = op;
    e->a = e->b = -1;
    e->pos.line = line;
    e->pos.col = col;
    return m->nexprs++;
}

static int resolve(cat_parser_t *p, const char *name) {
    for (int i = p->nbound - 1; i >= 0; i--)
        if (strcmp(p->bound[i], name) == 0)
            return p->bound_slot[i];
    int slot = cat_resolve_name(p->m, name);
    /* Lets of the model are visible only once bound, which the loop above covers. */
    return slot >= CAT_SLOT_FIRST_TAG + p->m->ntags + p->m->nlevels ? -1 : slot;
}

static int parse_expr(cat_parser_t *p, int depth);

static int starts_base(cat_parser_t *p) {
    char c = *p->s.p, word[LITMUS_NAME_LEN];
    if (scan_peek_ident(&p->s, word, sizeof word) > 0)
        return !is_keyword(word);
    return c == '(' || c == '[' || c == '0';
}

static int parse_primary(cat_parser_t *p, int depth) {
    scan_t *s = &p->s;
    if (depth > 200)
        return scan_error(s, "the expression is nested too deeply") - 1;
    if (skip(p) < 0)
        return -1;
    int line = s->line, col = s->col;
    if (scan_accept(s, "(")) {
        int e = parse_expr(p, depth + 1);
        if (e < 0 || skip(p) < 0 || scan_expect(s, ")", "to close the parenthesis") < 0)
            return -1;
        return e;
    }
    if (scan_accept(s, "[")) {
        int a = parse_expr(p, depth + 1);
        if (a < 0 || skip(p) < 0 || scan_expect(s, "]", "to close '['") < 0)
            return -1;
        int e = new_expr(p, CAT_TOID, line, col);
        if (e >= 0)
            p->m->exprs[e].a = a;
        return e;
    }
    if (*s->p == '0' && !isalnum((unsigned char)s->p[1])) {
        scan_advance(s, 1);
        return new_expr(p, CAT_EMPTY, line, col);
    }
    if (*s->p == '\'')
        return scan_error(s, "a tag is only accepted as the argument of tag2scope") - 1;
    char name[LITMUS_NAME_LEN];
    if (scan_ident(s, name, sizeof name, "a name, '(', '[', '0' or '_'") < 0)
        return -1;
    if (strcmp(name, "_") == 0)
        return new_expr(p, CAT_UNIVERSE, line, col);
    if (is_keyword(name))
        return litmus_fail(s->err, s->file, line, col, "'%s' cannot start an expression", name) - 1;
    if (strcmp(name, "domain") == 0 || strcmp(name, "range") == 0 ||
        strcmp(name, "tag2scope") == 0) {
        if (skip(p) < 0 || scan_expect(s, "(", "after the function name") < 0)
            return -1;
        if (strcmp(name, "tag2scope") == 0) {
            if (skip(p) < 0 || scan_expect(s, "'", "before the scope tag") < 0)
                return -1;
            int tl = s->line, tc = s->col;
            char tag[LITMUS_NAME_LEN];
            if (scan_ident(s, tag, sizeof tag, "a scope tag") < 0)
                return -1;
            int level = -1, t = cat_find_tag(p->m, tag);
            for (int i = 0; i < p->m->nlevels; i++)
                if (p->m->levels[i] == t)
                    level = i;
            if (level < 0)
                return litmus_fail(s->err, s->file, tl, tc,
                                   "'%s is not a level of the bell's scopes", tag) -
                       1;
            if (skip(p) < 0 || scan_expect(s, ")", "after the scope tag") < 0)
                return -1;
            int e = new_expr(p, CAT_TAG2SCOPE, line, col);
            if (e >= 0) {
                p->m->exprs[e].slot = level;
                snprintf(p->m->exprs[e].name, LITMUS_NAME_LEN, "%s", tag);
            }
            return e;
        }
        int a = parse_expr(p, depth + 1);
        if (a < 0 || skip(p) < 0 || scan_expect(s, ")", "after the argument") < 0)
            return -1;
        int e = new_expr(p, name[0] == 'd' ? CAT_DOMAIN : CAT_RANGE, line, col);
        if (e >= 0)
            p->m->exprs[e].a = a;
        return e;
    }
    int slot = resolve(p, name);
    if (slot < 0)
        return litmus_fail(s->err, s->file, line, col, "unbound name '%s'", name) - 1;
    if (skip(p) < 0)
        return -1;
    if (*s->p == '(')
        return scan_error(s, "function application is not in the supported cat subset") - 1;
    int e = new_expr(p, CAT_VAR, line, col);
    if (e >= 0) {
        p->m->exprs[e].slot = slot;
        snprintf(p->m->exprs[e].name, LITMUS_NAME_LEN, "%s", name);
    }
    return e;
}

static int unary(cat_parser_t *p, cat_op_t op, int a, int line, int col) {
    int e = new_expr(p, op, line, col);
    if (e >= 0)
        p->m->exprs[e].a = a;
    return e;
}

static int binary(cat_parser_t *p, cat_op_t op, int a, int b, int line, int col) {
    int e = new_expr(p, op, line, col);
    if (e >= 0) {
        p->m->exprs[e].a = a;
        p->m->exprs[e].b = b;
    }
    return e;
}

static int parse_inverse(cat_parser_t *p, int depth) {
    int e = parse_primary(p, depth);
    while (e >= 0) {
        if (skip(p) < 0)
            return -1;
        int line = p->s.line, col = p->s.col;
        if (!scan_accept(&p->s, "^"))
            return e;
        if (scan_expect(&p->s, "-1", "after '^'") < 0)
            return -1;
        e = unary(p, CAT_INVERSE, e, line, col);
    }
    return e;
}

static int parse_postfix(cat_parser_t *p, int depth) {
    int e = parse_inverse(p, depth);
    while (e >= 0) {
        if (skip(p) < 0)
            return -1;
        scan_t *s = &p->s;
        int line = s->line, col = s->col;
        if (s->p[0] == '+' && s->p[1] != '+') {
            scan_advance(s, 1);
            e = unary(p, CAT_PLUS, e, line, col);
        } else if (s->p[0] == '?') {
            scan_advance(s, 1);
            e = unary(p, CAT_OPT, e, line, col);
        } else if (s->p[0] == '*') {
            scan_advance(s, 1);
            if (skip(p) < 0)
                return -1;
            if (starts_base(p)) {
                int b = parse_inverse(p, depth + 1);
                if (b < 0)
                    return -1;
                e = binary(p, CAT_CARTESIAN, e, b, line, col);
            } else {
                e = unary(p, CAT_STAR, e, line, col);
            }
        } else if (s->p[0] == '~') {
            return scan_error(s, "complement '~' is not in the supported cat subset") - 1;
        } else {
            return e;
        }
    }
    return e;
}

/* Binary levels, loosest first: | ; \ & */
static int parse_level(cat_parser_t *p, int level, int depth) {
    static const char ops[] = {'|', ';', '\\', '&'};
    static const cat_op_t kinds[] = {CAT_UNION, CAT_SEQ, CAT_DIFF, CAT_INTER};
    if (level == 4)
        return parse_postfix(p, depth);
    int e = parse_level(p, level + 1, depth);
    while (e >= 0) {
        if (skip(p) < 0)
            return -1;
        scan_t *s = &p->s;
        int line = s->line, col = s->col;
        if (s->p[0] != ops[level] || (ops[level] == '|' && s->p[1] == '|') ||
            (ops[level] == '&' && s->p[1] == '&'))
            return e;
        scan_advance(s, 1);
        if (kinds[level] == CAT_DIFF) {
            int b = parse_level(p, level + 1, depth + 1);
            if (b < 0)
                return -1;
            e = binary(p, CAT_DIFF, e, b, line, col);
        } else {
            /* Right associative: the rest of this level is the right operand. */
            int b = parse_level(p, level, depth + 1);
            if (b < 0)
                return -1;
            return binary(p, kinds[level], e, b, line, col);
        }
    }
    return e;
}

static int parse_expr(cat_parser_t *p, int depth) {
    if (depth > 200)
        return scan_error(&p->s, "the expression is nested too deeply") - 1;
    return parse_level(p, 0, depth);
}

static int add_stmt(cat_parser_t *p, cat_stmt_kind_t kind, const char *name, int expr, int line,
                    int col) {
    cat_model_t *m = p->m;
    if (m->nstmts == CAT_MAX_STMTS)
        return litmus_fail(p->s.err, p->s.file, line, col, "more than %d statements",
                           CAT_MAX_STMTS);
    cat_stmt_t *st = &m->stmts[m->nstmts++];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    snprintf(st->name, sizeof st->name, "%s", name);
    st->expr = expr;
    st->pos.line = line;
    st->pos.col = col;
    if (kind == CAT_LET) {
        st->slot = m->nslots++;
        snprintf(p->bound[p->nbound], LITMUS_NAME_LEN, "%s", name);
        p->bound_slot[p->nbound++] = st->slot;
    }
    return 0;
}

static int parse_tag(cat_parser_t *p, char *tag) {
    if (skip(p) < 0 || scan_expect(&p->s, "'", "before a tag") < 0)
        return -1;
    return scan_ident(&p->s, tag, LITMUS_NAME_LEN, "a tag name");
}

static int add_tag(cat_parser_t *p, const char *tag, int line, int col) {
    cat_model_t *m = p->m;
    int t = cat_find_tag(m, tag);
    if (t >= 0)
        return t;
    if (m->ntags == CAT_MAX_TAGS)
        return litmus_fail(p->s.err, p->s.file, line, col, "more than %d tags", CAT_MAX_TAGS);
    snprintf(m->tags[m->ntags], LITMUS_NAME_LEN, "%s", tag);
    return m->ntags++;
}

static int parse_enum(cat_parser_t *p) {
    scan_t *s = &p->s;
    cat_model_t *m = p->m;
    int line = s->line, col = s->col;
    if (m->nenums == CAT_MAX_ENUMS)
        return scan_error(s, "more than %d enums", CAT_MAX_ENUMS);
    cat_enum_t *en = &m->enums[m->nenums];
    memset(en, 0, sizeof *en);
    if (skip(p) < 0 || scan_ident(s, en->name, LITMUS_NAME_LEN, "the enum's name") < 0)
        return -1;
    for (int i = 0; i < m->nenums; i++)
        if (strcmp(m->enums[i].name, en->name) == 0)
            return litmus_fail(s->err, s->file, line, col, "enum %s is declared twice", en->name);
    if (skip(p) < 0 || scan_expect(s, "=", "after the enum's name") < 0 || skip(p) < 0)
        return -1;
    scan_accept(s, "||");
    for (;;) {
        char tag[LITMUS_NAME_LEN];
        int tl, tc;
        if (skip(p) < 0)
            return -1;
        tl = s->line;
        tc = s->col;
        if (parse_tag(p, tag) < 0)
            return -1;
        int t = add_tag(p, tag, tl, tc);
        if (t < 0)
            return -1;
        en->tags |= UINT64_C(1) << t;
        if (skip(p) < 0)
            return -1;
        if (!scan_accept(s, "||"))
            break;
    }
    m->nenums++;
    if (strcmp(en->name, "regions") == 0)
        m->region_tags = en->tags;
    if (strcmp(en->name, "scopes") == 0) {
        m->nlevels = 0;
        for (int t = 0; t < m->ntags; t++)
            if (en->tags >> t & 1) {
                if (m->nlevels == CAT_MAX_LEVELS)
                    return litmus_fail(s->err, s->file, line, col, "too many scope levels");
                m->levels[m->nlevels++] = t;
            }
    }
    return 0;
}

/* let narrower(s) = match s with || 'a -> 'b ... end, or wider: orders the scope levels. */
static int parse_level_order(cat_parser_t *p, const char *fname) {
    scan_t *s = &p->s;
    cat_model_t *m = p->m;
    char var[LITMUS_NAME_LEN], var2[LITMUS_NAME_LEN];
    int narrower = strcmp(fname, "narrower") == 0;
    if (m->nlevels == 0)
        return scan_error(s, "enum scopes must come before %s", fname);
    int next[CAT_MAX_LEVELS];
    for (int i = 0; i < m->nlevels; i++)
        next[i] = -1;
    if (skip(p) < 0 || scan_expect(s, "(", "after the function name") < 0 || skip(p) < 0 ||
        scan_ident(s, var, sizeof var, "a parameter") < 0 || skip(p) < 0 ||
        scan_expect(s, ")", "after the parameter") < 0 || skip(p) < 0 ||
        scan_expect(s, "=", "in the definition") < 0 || skip(p) < 0 ||
        scan_expect(s, "match", "(the level order is a match on tags)") < 0 || skip(p) < 0 ||
        scan_ident(s, var2, sizeof var2, "the parameter") < 0 || skip(p) < 0 ||
        scan_expect(s, "with", "after the matched name") < 0)
        return -1;
    for (;;) {
        if (skip(p) < 0)
            return -1;
        if (scan_accept(s, "end"))
            break;
        if (scan_expect(s, "||", "before a match clause") < 0)
            return -1;
        char a[LITMUS_NAME_LEN], b[LITMUS_NAME_LEN];
        int line = s->line, col = s->col;
        if (parse_tag(p, a) < 0 || skip(p) < 0 || scan_expect(s, "->", "in a match clause") < 0 ||
            parse_tag(p, b) < 0)
            return -1;
        int ia = -1, ib = -1, ta = cat_find_tag(m, a), tb = cat_find_tag(m, b);
        for (int i = 0; i < m->nlevels; i++) {
            if (m->levels[i] == ta)
                ia = i;
            if (m->levels[i] == tb)
                ib = i;
        }
        if (ia < 0 || ib < 0)
            return litmus_fail(s->err, s->file, line, col, "'%s -> '%s: not scope levels", a, b);
        /* next[i] is the level just wider than level i. */
        if (narrower)
            next[ib] = ia;
        else
            next[ia] = ib;
    }
    int narrowest = -1;
    for (int i = 0; i < m->nlevels; i++) {
        int pointed = 0;
        for (int j = 0; j < m->nlevels; j++)
            pointed |= next[j] == i;
        if (!pointed) {
            if (narrowest >= 0)
                return scan_error(s, "%s does not order the scope levels in one chain", fname);
            narrowest = i;
        }
    }
    if (narrowest < 0)
        return scan_error(s, "%s has a cycle", fname);
    int order[CAT_MAX_LEVELS], n = 0;
    for (int i = narrowest; i >= 0 && n < m->nlevels; i = next[i])
        order[n++] = m->levels[i];
    if (n != m->nlevels)
        return scan_error(s, "%s does not order every scope level", fname);
    memcpy(m->levels, order, sizeof(int) * (size_t)n);
    return 0;
}

static int parse_instructions(cat_parser_t *p) {
    scan_t *s = &p->s;
    cat_model_t *m = p->m;
    if (m->ngroups == CAT_MAX_GROUPS)
        return scan_error(s, "more than %d instructions declarations", CAT_MAX_GROUPS);
    cat_group_t *g = &m->groups[m->ngroups];
    memset(g, 0, sizeof *g);
    if (skip(p) < 0)
        return -1;
    int line = s->line, col = s->col;
    if (scan_ident(s, g->kind, sizeof g->kind, "R, W, RMW or F") < 0)
        return -1;
    if (strcmp(g->kind, "R") && strcmp(g->kind, "W") && strcmp(g->kind, "RMW") &&
        strcmp(g->kind, "F"))
        return litmus_fail(s->err, s->file, line, col,
                           "instructions of kind '%s': expected R, W, "
                           "RMW or F",
                           g->kind);
    if (skip(p) < 0 || scan_expect(s, "[", "after the instruction kind") < 0)
        return -1;
    for (;;) {
        if (skip(p) < 0)
            return -1;
        if (scan_accept(s, "]"))
            break;
        if (g->nargs == LITMUS_MAX_ANNOTS)
            return scan_error(s, "more than %d annotation positions", LITMUS_MAX_ANNOTS);
        uint64_t set = 0;
        if (scan_accept(s, "{")) {
            for (;;) {
                char tag[LITMUS_NAME_LEN];
                if (skip(p) < 0)
                    return -1;
                int tl = s->line, tc = s->col;
                if (parse_tag(p, tag) < 0)
                    return -1;
                int t = cat_find_tag(m, tag);
                if (t < 0)
                    return litmus_fail(s->err, s->file, tl, tc, "'%s is not declared by an enum",
                                       tag);
                set |= UINT64_C(1) << t;
                if (skip(p) < 0)
                    return -1;
                if (scan_accept(s, "}"))
                    break;
                if (scan_expect(s, ",", "or '}' between tags") < 0)
                    return -1;
            }
        } else {
            char name[LITMUS_NAME_LEN];
            int nl = s->line, nc = s->col;
            if (scan_ident(s, name, sizeof name, "an enum name or {'tag, ...}") < 0)
                return -1;
            int found = 0;
            for (int i = 0; i < m->nenums; i++)
                if (strcmp(m->enums[i].name, name) == 0) {
                    set = m->enums[i].tags;
                    found = 1;
                }
            if (!found)
                return litmus_fail(s->err, s->file, nl, nc, "'%s' is not an enum", name);
        }
        g->args[g->nargs++] = set;
        if (skip(p) < 0)
            return -1;
        if (scan_accept(s, "]"))
            break;
        if (scan_expect(s, ",", "or ']' between annotation positions") < 0)
            return -1;
    }
    m->ngroups++;
    return 0;
}

static int parse_file(cat_parser_t *p, const char *file, const char *text) {
    scan_t *s = &p->s;
    scan_init(s, file, text, s->err);
    if (skip(p) < 0)
        return -1;
    if (*s->p == '"') {
        char title[256];
        if (scan_string(s, title, sizeof title) < 0)
            return -1;
    }
    for (;;) {
        if (skip(p) < 0)
            return -1;
        if (!*s->p)
            return 0;
        int line = s->line, col = s->col;
        char word[LITMUS_NAME_LEN];
        if (scan_ident(s, word, sizeof word,
                       "a statement (let, acyclic, irreflexive, empty, "
                       "include)") < 0)
            return -1;
        if (strcmp(word, "include") == 0) {
            char inc[256];
            if (skip(p) < 0 || scan_string(s, inc, sizeof inc) < 0)
                return -1;
            if (strcmp(inc, "cos.cat") == 0)
                p->m->enumerate_co = 1;
            else if (strcmp(inc, "stdlib.cat") != 0)
                return litmus_fail(s->err, s->file, line, col,
                                   "only \"cos.cat\" and \"stdlib.cat\" may be included");
        } else if (strcmp(word, "let") == 0) {
            char name[LITMUS_NAME_LEN];
            if (skip(p) < 0)
                return -1;
            int nl = s->line, nc = s->col;
            if (scan_ident(s, name, sizeof name, "the name to bind") < 0 || skip(p) < 0)
                return -1;
            if (is_keyword(name))
                return litmus_fail(s->err, s->file, nl, nc, "'%s' is a keyword", name);
            if (p->is_bell) {
                if (*s->p != '(' || (strcmp(name, "narrower") && strcmp(name, "wider")))
                    return litmus_fail(s->err, s->file, nl, nc,
                                       "the bell file may only define narrower and wider");
                if (parse_level_order(p, name) < 0)
                    return -1;
                continue;
            }
            if (*s->p == '(')
                return scan_error(s, "functions are not in the supported cat subset");
            if (scan_expect(s, "=", "after the bound name") < 0)
                return -1;
            int e = parse_expr(p, 0);
            if (e < 0 || add_stmt(p, CAT_LET, name, e, line, col) < 0)
                return -1;
        } else if (strcmp(word, "acyclic") == 0 || strcmp(word, "irreflexive") == 0 ||
                   strcmp(word, "empty") == 0) {
            if (p->is_bell)
                return litmus_fail(s->err, s->file, line, col, "axioms belong in the cat file");
            int e = parse_expr(p, 0);
            if (e < 0 || skip(p) < 0)
                return -1;
            char name[LITMUS_NAME_LEN] = "";
            if (peek_word(p, "as")) {
                scan_advance(s, 2);
                if (skip(p) < 0 || scan_ident(s, name, sizeof name, "the axiom's name") < 0)
                    return -1;
            }
            cat_stmt_kind_t kind = word[0] == 'a'   ? CAT_ACYCLIC
                                   : word[0] == 'i' ? CAT_IRREFLEXIVE
                                                    : CAT_ISEMPTY;
            if (add_stmt(p, kind, name, e, line, col) < 0)
                return -1;
        } else if (p->is_bell && strcmp(word, "enum") == 0) {
            if (parse_enum(p) < 0)
                return -1;
        } else if (p->is_bell && strcmp(word, "instructions") == 0) {
            if (parse_instructions(p) < 0)
                return -1;
        } else {
            return litmus_fail(s->err, s->file, line, col,
                               "'%s' is not in the supported cat subset", word);
        }
    }
}

int cat_parse_model_text(const char *bell_file, const char *bell_text, const char *cat_file,
                         const char *cat_text, cat_model_t *m, litmus_error_t *err) {
    cat_parser_t *p = calloc(1, sizeof *p);
    if (!p)
        return litmus_fail(err, cat_file, 0, 0, "out of memory");
    memset(m, 0, sizeof *m);
    snprintf(m->bell_file, sizeof m->bell_file, "%s", bell_file);
    snprintf(m->cat_file, sizeof m->cat_file, "%s", cat_file);
    p->m = m;
    p->s.err = err;
    p->is_bell = 1;
    int rc = parse_file(p, bell_file, bell_text);
    if (rc == 0 && m->nlevels == 0)
        rc = litmus_fail(err, bell_file, 1, 1, "the bell file declares no enum scopes");
    if (rc == 0) {
        /* Names bound by the bell are not visible in the cat file; slots start after the
         * predefined ones. */
        m->nstmts = 0;
        p->nbound = 0;
        m->nslots = CAT_SLOT_FIRST_TAG + m->ntags + m->nlevels;
        p->is_bell = 0;
        rc = parse_file(p, cat_file, cat_text);
    }
    if (rc == 0 && !m->enumerate_co)
        rc = litmus_fail(err, cat_file, 1, 1, "the model must include \"cos.cat\"");
    if (rc == 0)
        rc = cat_check_types(m, err);
    free(p);
    return rc;
}

int cat_parse_model(const char *bell_path, const char *cat_path, cat_model_t *m,
                    litmus_error_t *err) {
    char *bell = litmus_read_file(bell_path, err);
    if (!bell)
        return -1;
    char *cat = litmus_read_file(cat_path, err);
    if (!cat) {
        free(bell);
        return -1;
    }
    int rc = cat_parse_model_text(bell_path, bell, cat_path, cat, m, err);
    free(bell);
    free(cat);
    return rc;
}
