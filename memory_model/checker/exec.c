/* SPDX-License-Identifier: BSD-3-Clause */
/* Builds the events of a litmus test, enumerates every reads-from choice and every coherence
 * order, and evaluates the cat model on each candidate execution. Relations are bit matrices
 * over at most 64 events. */
#include "exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 50000000L
#define MAX_PERMS 5040

typedef struct value {
    int is_rel;
    uint64_t set;
    uint64_t row[EXEC_MAX_EVENTS];
} value_t;

enum { EV_READ, EV_WRITE, EV_FENCE };

typedef struct event {
    int kind;
    int thread; /* -1 for initial writes */
    int instr;  /* program-order index within the thread */
    int loc;
    int reg;
    int partner; /* the other event of an rmw, else -1 */
    uint64_t tags;
    int64_t konst; /* written value, or the addend of a fetch-add */
    int rmw_add;
} event_t;

typedef struct exec_ctx {
    const cat_model_t *m;
    const litmus_test_t *t;
    litmus_error_t *err;
    int n;
    event_t ev[EXEC_MAX_EVENTS];
    uint64_t all;
    value_t *env;
    unsigned char *dyn;      /* slot depends on rf or co */
    unsigned char *stmt_dyn; /* statement depends on rf or co */
    int static_fail;         /* an axiom that depends on neither fails */
    /* The current candidate. */
    int rf_of[EXEC_MAX_EVENTS];
    int64_t val[EXEC_MAX_EVENTS];
    int vstate[EXEC_MAX_EVENTS];
    int co_last[LITMUS_MAX_LOCS];
} exec_ctx_t;

static int fail_at(exec_ctx_t *c, const char *file, litmus_pos_t pos, const char *fmt,
                   const char *arg) {
    return litmus_fail(c->err, file, pos.line, pos.col, fmt, arg);
}

/* ---- relation algebra ---- */

static void rel_clear(value_t *v, int is_rel) {
    memset(v, 0, sizeof *v);
    v->is_rel = is_rel;
}

static void rel_plus(value_t *v, int n) {
    n = n < EXEC_MAX_EVENTS ? n : EXEC_MAX_EVENTS;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (v->row[i] >> k & 1)
                v->row[i] |= v->row[k];
}

static void rel_seq(const value_t *a, const value_t *b, value_t *out, int n) {
    n = n < EXEC_MAX_EVENTS ? n : EXEC_MAX_EVENTS;
    rel_clear(out, 1);
    for (int i = 0; i < n; i++) {
        uint64_t r = a->row[i], acc = 0;
        while (r) {
            int j = __builtin_ctzll(r);
            r &= r - 1;
            acc |= b->row[j];
        }
        out->row[i] = acc;
    }
}

static void rel_inverse(const value_t *a, value_t *out, int n) {
    n = n < EXEC_MAX_EVENTS ? n : EXEC_MAX_EVENTS;
    rel_clear(out, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (a->row[i] >> j & 1)
                out->row[j] |= UINT64_C(1) << i;
}

static int rel_irreflexive(const value_t *v, int n) {
    n = n < EXEC_MAX_EVENTS ? n : EXEC_MAX_EVENTS;
    for (int i = 0; i < n; i++)
        if (v->row[i] >> i & 1)
            return 0;
    return 1;
}

static int value_empty(const value_t *v, int n) {
    n = n < EXEC_MAX_EVENTS ? n : EXEC_MAX_EVENTS;
    if (!v->is_rel)
        return v->set == 0;
    for (int i = 0; i < n; i++)
        if (v->row[i])
            return 0;
    return 1;
}

/* ---- types ---- */

static int slot_type(const cat_model_t *m, const int *let_type, int slot) {
    if (slot <= CAT_SLOT_IW)
        return CAT_TYPE_SET;
    if (slot < CAT_SLOT_FIRST_TAG)
        return CAT_TYPE_REL;
    if (slot < CAT_SLOT_FIRST_TAG + m->ntags)
        return CAT_TYPE_SET;
    if (slot < CAT_SLOT_FIRST_TAG + m->ntags + m->nlevels)
        return CAT_TYPE_REL;
    return let_type[slot];
}

static int type_error(const cat_model_t *m, const cat_expr_t *e, litmus_error_t *err,
                      const char *what) {
    return litmus_fail(err, m->cat_file, e->pos.line, e->pos.col, "%s", what);
}

static int infer(cat_model_t *m, int *let_type, int i, litmus_error_t *err) {
    cat_expr_t *e = &m->exprs[i];
    int ta = e->a >= 0 ? infer(m, let_type, e->a, err) : CAT_TYPE_ANY;
    if (ta < 0)
        return -1;
    int tb = e->b >= 0 ? infer(m, let_type, e->b, err) : CAT_TYPE_ANY;
    if (tb < 0)
        return -1;
    int t = CAT_TYPE_ANY;
    switch (e->op) {
    case CAT_VAR:
        t = slot_type(m, let_type, e->slot);
        break;
    case CAT_EMPTY:
        t = CAT_TYPE_ANY;
        break;
    case CAT_UNIVERSE:
        t = CAT_TYPE_SET;
        break;
    case CAT_TOID:
    case CAT_DOMAIN:
    case CAT_RANGE:
        if (e->op == CAT_TOID ? ta == CAT_TYPE_REL : ta == CAT_TYPE_SET)
            return type_error(m, e, err,
                              e->op == CAT_TOID ? "[...] needs a set"
                                                : "domain/range need a "
                                                  "relation");
        t = e->op == CAT_TOID ? CAT_TYPE_REL : CAT_TYPE_SET;
        break;
    case CAT_UNION:
    case CAT_INTER:
    case CAT_DIFF:
        if (ta != CAT_TYPE_ANY && tb != CAT_TYPE_ANY && ta != tb)
            return type_error(m, e, err, "'|', '&' and '\\' need two sets or two relations");
        t = ta != CAT_TYPE_ANY ? ta : tb;
        break;
    case CAT_SEQ:
        if (ta == CAT_TYPE_SET || tb == CAT_TYPE_SET)
            return type_error(m, e, err, "';' needs two relations (use [S] for a set)");
        t = CAT_TYPE_REL;
        break;
    case CAT_CARTESIAN:
        if (ta == CAT_TYPE_REL || tb == CAT_TYPE_REL)
            return type_error(m, e, err, "'*' (cartesian product) needs two sets");
        t = CAT_TYPE_REL;
        break;
    case CAT_INVERSE:
    case CAT_PLUS:
    case CAT_STAR:
    case CAT_OPT:
        if (ta == CAT_TYPE_SET)
            return type_error(m, e, err, "'^-1', '+', '*' and '?' need a relation");
        t = CAT_TYPE_REL;
        break;
    case CAT_TAG2SCOPE:
        t = CAT_TYPE_REL;
        break;
    }
    e->type = t;
    return t;
}

int cat_check_types(cat_model_t *m, litmus_error_t *err) {
    int *let_type = calloc((size_t)m->nslots + 1, sizeof *let_type);
    if (!let_type)
        return litmus_fail(err, m->cat_file, 0, 0, "out of memory");
    int rc = 0;
    for (int i = 0; i < m->nstmts && rc == 0; i++) {
        const cat_stmt_t *st = &m->stmts[i];
        int t = infer(m, let_type, st->expr, err);
        if (t < 0) {
            rc = -1;
        } else if (st->kind == CAT_LET) {
            let_type[st->slot] = t;
        } else if (st->kind != CAT_ISEMPTY && t == CAT_TYPE_SET) {
            rc = litmus_fail(err, m->cat_file, st->pos.line, st->pos.col,
                             "acyclic and irreflexive need a relation");
        }
    }
    free(let_type);
    return rc;
}

/* ---- evaluation ---- */

static int eval(exec_ctx_t *c, int i, value_t *out) {
    const cat_expr_t *e = &c->m->exprs[i];
    int n = c->n;
    value_t a, b;
    switch (e->op) {
    case CAT_VAR:
        *out = c->env[e->slot];
        return 0;
    case CAT_EMPTY:
        rel_clear(out, e->type == CAT_TYPE_REL);
        return 0;
    case CAT_UNIVERSE:
        rel_clear(out, 0);
        out->set = c->all;
        return 0;
    case CAT_TAG2SCOPE:
        *out = c->env[CAT_SLOT_FIRST_TAG + c->m->ntags + e->slot];
        return 0;
    default:
        break;
    }
    if (eval(c, e->a, &a) < 0)
        return -1;
    if (e->b >= 0 && eval(c, e->b, &b) < 0)
        return -1;
    switch (e->op) {
    case CAT_TOID:
        rel_clear(out, 1);
        for (int k = 0; k < n; k++)
            if (a.set >> k & 1)
                out->row[k] = UINT64_C(1) << k;
        return 0;
    case CAT_DOMAIN:
    case CAT_RANGE:
        rel_clear(out, 0);
        for (int k = 0; k < n; k++) {
            if (e->op == CAT_DOMAIN && a.row[k])
                out->set |= UINT64_C(1) << k;
            if (e->op == CAT_RANGE)
                out->set |= a.row[k];
        }
        return 0;
    case CAT_UNION:
    case CAT_INTER:
    case CAT_DIFF:
        /* An empty operand of either type adopts the other's type. */
        out->is_rel = e->type == CAT_TYPE_REL;
        if (!out->is_rel) {
            out->set = e->op == CAT_UNION   ? a.set | b.set
                       : e->op == CAT_INTER ? a.set & b.set
                                            : a.set & ~b.set;
            memset(out->row, 0, sizeof out->row);
        } else {
            out->set = 0;
            for (int k = 0; k < EXEC_MAX_EVENTS; k++)
                out->row[k] = e->op == CAT_UNION   ? a.row[k] | b.row[k]
                              : e->op == CAT_INTER ? a.row[k] & b.row[k]
                                                   : a.row[k] & ~b.row[k];
        }
        return 0;
    case CAT_SEQ:
        rel_seq(&a, &b, out, n);
        return 0;
    case CAT_CARTESIAN:
        rel_clear(out, 1);
        for (int k = 0; k < n; k++)
            if (a.set >> k & 1)
                out->row[k] = b.set;
        return 0;
    case CAT_INVERSE:
        rel_inverse(&a, out, n);
        return 0;
    case CAT_PLUS:
    case CAT_STAR:
    case CAT_OPT:
        *out = a;
        out->is_rel = 1;
        if (e->op != CAT_OPT)
            rel_plus(out, n);
        if (e->op != CAT_PLUS)
            for (int k = 0; k < n; k++)
                out->row[k] |= UINT64_C(1) << k;
        return 0;
    default:
        return fail_at(c, c->m->cat_file, e->pos, "cannot evaluate this term%s", "");
    }
}

/* Runs the statements: lets whose value depends on the candidate (or all of them when
 * `statics` is set) and the axioms. Returns 1 if the execution is accepted, 0 if not. */
static int run_model(exec_ctx_t *c, int statics, int stop_slot) {
    const cat_model_t *m = c->m;
    int accepted = 1;
    for (int i = 0; i < m->nstmts; i++) {
        const cat_stmt_t *st = &m->stmts[i];
        int is_dyn = c->stmt_dyn[i];
        if (statics ? is_dyn && stop_slot < 0 : !is_dyn)
            continue;
        if (st->kind == CAT_LET) {
            if (eval(c, st->expr, &c->env[st->slot]) < 0)
                return -1;
            if (st->slot == stop_slot)
                return accepted;
            continue;
        }
        if (stop_slot >= 0 || !accepted)
            continue;
        value_t v;
        if (eval(c, st->expr, &v) < 0)
            return -1;
        if (st->kind == CAT_ACYCLIC) {
            rel_plus(&v, c->n);
            accepted = rel_irreflexive(&v, c->n);
        } else if (st->kind == CAT_IRREFLEXIVE) {
            accepted = rel_irreflexive(&v, c->n);
        } else {
            accepted = value_empty(&v, c->n);
        }
    }
    return accepted;
}

static int expr_is_dynamic(exec_ctx_t *c, int i) {
    const cat_expr_t *e = &c->m->exprs[i];
    if (e->op == CAT_VAR && c->dyn[e->slot])
        return 1;
    return (e->a >= 0 && expr_is_dynamic(c, e->a)) || (e->b >= 0 && expr_is_dynamic(c, e->b));
}

/* ---- events and static relations ---- */

static int match_group(const cat_model_t *m, const char *kind, const litmus_instr_t *in,
                       const int *tags) {
    for (int g = 0; g < m->ngroups; g++) {
        const cat_group_t *gr = &m->groups[g];
        if (strcmp(gr->kind, kind) != 0 || gr->nargs != in->nannots)
            continue;
        int ok = 1;
        for (int k = 0; k < in->nannots && ok; k++)
            ok = tags[k] >= 0 && (gr->args[k] >> tags[k] & 1);
        if (ok)
            return 1;
    }
    return 0;
}

static int add_event(exec_ctx_t *c, const event_t *e, litmus_pos_t pos) {
    if (c->n == EXEC_MAX_EVENTS)
        return litmus_fail(c->err, c->t->file, pos.line, pos.col,
                           "the test has more than %d events", EXEC_MAX_EVENTS);
    c->ev[c->n] = *e;
    return c->n++;
}

static int build_events(exec_ctx_t *c) {
    const litmus_test_t *t = c->t;
    const cat_model_t *m = c->m;
    litmus_pos_t top = {1, 1};
    for (int l = 0; l < t->nlocs; l++) {
        uint64_t region = 0;
        if (m->region_tags) {
            int rt = t->region[l][0] ? cat_find_tag(m, t->region[l]) : -1;
            if (!t->region[l][0])
                return fail_at(c, t->file, t->loc_pos[l],
                               "location '%s' has no region (add it to the regions: line)",
                               t->locs[l]);
            if (rt < 0 || !(m->region_tags >> rt & 1))
                return fail_at(c, t->file, t->region_pos[l],
                               "region '%s' is not declared by the bell file", t->region[l]);
            region = UINT64_C(1) << rt;
        } else if (t->has_regions) {
            return litmus_fail(c->err, t->file, 1, 1, "the bell file declares no regions");
        }
        event_t e = {EV_WRITE, -1, 0, l, -1, -1, region, t->init[l], 0};
        if (add_event(c, &e, top) < 0)
            return -1;
    }
    for (int th = 0; th < t->nthreads; th++) {
        for (int i = 0; i < t->threads[th].ninstrs; i++) {
            const litmus_instr_t *in = &t->threads[th].instrs[i];
            static const char *const kinds[] = {"R", "W", "RMW", "F"};
            int tags[LITMUS_MAX_ANNOTS];
            uint64_t bits = 0;
            for (int k = 0; k < in->nannots; k++) {
                tags[k] = cat_find_tag(m, in->annots[k]);
                if (tags[k] < 0)
                    return fail_at(c, t->file, in->pos, "unknown annotation '%s'", in->annots[k]);
                bits |= UINT64_C(1) << tags[k];
            }
            if (!match_group(m, kinds[in->op], in, tags))
                return fail_at(c, t->file, in->pos,
                               "the annotations do not match any %s declaration of the bell file",
                               kinds[in->op]);
            if (in->loc >= 0) {
                int rt = cat_find_tag(m, t->region[in->loc]);
                if (rt >= 0)
                    bits |= UINT64_C(1) << rt;
            }
            event_t e = {EV_FENCE, th, i, in->loc, in->reg, -1, bits, in->value, in->rmw_is_add};
            if (in->op == LITMUS_OP_READ || in->op == LITMUS_OP_RMW)
                e.kind = EV_READ;
            else if (in->op == LITMUS_OP_WRITE)
                e.kind = EV_WRITE;
            int id = add_event(c, &e, in->pos);
            if (id < 0)
                return -1;
            if (in->op == LITMUS_OP_RMW) {
                e.kind = EV_WRITE;
                e.partner = id;
                int w = add_event(c, &e, in->pos);
                if (w < 0)
                    return -1;
                c->ev[id].partner = w;
            }
        }
    }
    c->all = c->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << c->n) - 1;
    return 0;
}

static int level_of(const cat_model_t *m, const char *tag) {
    int t = cat_find_tag(m, tag);
    for (int i = 0; i < m->nlevels; i++)
        if (m->levels[i] == t)
            return i;
    return -1;
}

static int node_rank(const cat_model_t *m, const litmus_test_t *t, int node) {
    const char *tag = t->scope_nodes[node].tag;
    return tag[0] ? level_of(m, tag) : m->nlevels - 1;
}

static int build_scopes(exec_ctx_t *c) {
    const litmus_test_t *t = c->t;
    const cat_model_t *m = c->m;
    int base = CAT_SLOT_FIRST_TAG + m->ntags;
    for (int l = 0; l < m->nlevels; l++)
        rel_clear(&c->env[base + l], 1);
    if (t->nscope_nodes == 0)
        return 0;
    for (int i = 0; i < t->nscope_nodes; i++) {
        const litmus_scope_node_t *nd = &t->scope_nodes[i];
        if (i == 0 && t->scope_root != 0)
            continue;
        int r = node_rank(m, t, i);
        if (r < 0)
            return fail_at(c, t->file, nd->pos, "'%s' is not a scope level of the bell file",
                           nd->tag);
        for (int k = 0; k < nd->nchildren; k++)
            if (node_rank(m, t, nd->children[k]) >= r && node_rank(m, t, nd->children[k]) >= 0)
                return fail_at(c, t->file, t->scope_nodes[nd->children[k]].pos,
                               "scope '%s' must be narrower than the scope around it",
                               t->scope_nodes[nd->children[k]].tag);
    }
    int inst[LITMUS_MAX_THREADS][CAT_MAX_LEVELS];
    for (int p = 0; p < t->nthreads; p++) {
        int path[LITMUS_MAX_SCOPE_NODES];
        int len = litmus_scope_path(t, t->scope_root, p, path, 0);
        for (int l = 0; l < m->nlevels; l++) {
            inst[p][l] = 1000 + p;
            for (int k = 0; k < len; k++)
                if (node_rank(m, t, path[k]) <= l) {
                    inst[p][l] = path[k];
                    break;
                }
        }
    }
    for (int l = 0; l < m->nlevels; l++)
        for (int i = 0; i < c->n; i++)
            for (int j = 0; j < c->n; j++) {
                int pi = c->ev[i].thread, pj = c->ev[j].thread;
                if (pi >= 0 && pj >= 0 && inst[pi][l] == inst[pj][l])
                    c->env[base + l].row[i] |= UINT64_C(1) << j;
            }
    return 0;
}

static void build_static(exec_ctx_t *c) {
    value_t *env = c->env;
    int n = c->n;
    for (int s = 0; s < CAT_SLOT_FIRST_TAG + c->m->ntags; s++)
        rel_clear(&env[s], s <= CAT_SLOT_IW || s >= CAT_SLOT_FIRST_TAG ? 0 : 1);
    env[CAT_SLOT_UNIVERSE].set = c->all;
    for (int i = 0; i < n; i++) {
        const event_t *e = &c->ev[i];
        uint64_t bit = UINT64_C(1) << i;
        if (e->kind == EV_READ)
            env[CAT_SLOT_R].set |= bit;
        if (e->kind == EV_WRITE)
            env[CAT_SLOT_W].set |= bit;
        if (e->kind != EV_FENCE)
            env[CAT_SLOT_M].set |= bit;
        else
            env[CAT_SLOT_F].set |= bit;
        if (e->thread < 0)
            env[CAT_SLOT_IW].set |= bit;
        for (int tg = 0; tg < c->m->ntags; tg++)
            if (e->tags >> tg & 1)
                env[CAT_SLOT_FIRST_TAG + tg].set |= bit;
        env[CAT_SLOT_ID].row[i] = bit;
        if (e->partner >= 0 && e->kind == EV_READ)
            env[CAT_SLOT_RMW].row[i] = UINT64_C(1) << e->partner;
        for (int j = 0; j < n; j++) {
            const event_t *f = &c->ev[j];
            uint64_t bj = UINT64_C(1) << j;
            int same_thread = e->thread == f->thread;
            if (same_thread)
                env[CAT_SLOT_INT].row[i] |= bj;
            else
                env[CAT_SLOT_EXT].row[i] |= bj;
            if (e->kind != EV_FENCE && f->kind != EV_FENCE && e->loc == f->loc)
                env[CAT_SLOT_LOC].row[i] |= bj;
            if (same_thread && e->thread >= 0 && e->instr < f->instr)
                env[CAT_SLOT_PO].row[i] |= bj;
        }
        env[CAT_SLOT_PO_LOC].row[i] = env[CAT_SLOT_PO].row[i] & env[CAT_SLOT_LOC].row[i];
    }
}

/* ---- candidates ---- */

static int resolve_value(exec_ctx_t *c, int w, int64_t *out);

static int read_value(exec_ctx_t *c, int r, int64_t *out) {
    return resolve_value(c, c->rf_of[r], out);
}

/* The value written by w; 0 if it depends on itself through rmw reads (no such execution). */
static int resolve_value(exec_ctx_t *c, int w, int64_t *out) {
    const event_t *e = &c->ev[w];
    if (c->vstate[w] == 2) {
        *out = c->val[w];
        return 1;
    }
    if (e->partner < 0 || !e->rmw_add) {
        *out = c->val[w] = e->konst;
        c->vstate[w] = 2;
        return 1;
    }
    if (c->vstate[w] == 1)
        return 0;
    c->vstate[w] = 1;
    int64_t old;
    if (!read_value(c, e->partner, &old))
        return 0;
    *out = c->val[w] = (int64_t)((uint64_t)old + (uint64_t)e->konst);
    c->vstate[w] = 2;
    return 1;
}

typedef struct final_state {
    const exec_ctx_t *c;
    const int64_t *regs;
} final_state_t;

static int64_t final_leaf(const litmus_prop_t *p, const void *state) {
    const final_state_t *f = state;
    if (p->op == LITMUS_PROP_REG)
        return f->regs[p->proc * LITMUS_MAX_REGS + p->reg];
    return f->c->val[f->c->co_last[p->loc]];
}

typedef int (*visit_fn)(exec_ctx_t *c, void *arg);

static int next_perm(int *a, int n) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int tmp = a[i];
    a[i] = a[j];
    a[j] = tmp;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        tmp = a[l];
        a[l] = a[r];
        a[r] = tmp;
    }
    return 1;
}

/* Calls visit on every candidate execution: all rf choices times all coherence orders. */
static int enumerate(exec_ctx_t *c, visit_fn visit, void *arg) {
    int n = c->n, nloc = c->t->nlocs;
    int reads[EXEC_MAX_EVENTS], nreads = 0;
    int cand[EXEC_MAX_EVENTS][EXEC_MAX_EVENTS], ncand[EXEC_MAX_EVENTS], pick[EXEC_MAX_EVENTS];
    int writes[LITMUS_MAX_LOCS][EXEC_MAX_EVENTS], nwrites[LITMUS_MAX_LOCS];
    int init_of[LITMUS_MAX_LOCS];
    double total = 1;
    for (int l = 0; l < nloc; l++)
        nwrites[l] = 0;
    for (int i = 0; i < n; i++) {
        const event_t *e = &c->ev[i];
        if (e->kind == EV_WRITE && e->thread < 0)
            init_of[e->loc] = i;
        else if (e->kind == EV_WRITE)
            writes[e->loc][nwrites[e->loc]++] = i;
    }
    for (int i = 0; i < n; i++) {
        if (c->ev[i].kind != EV_READ)
            continue;
        int r = nreads++;
        reads[r] = i;
        ncand[r] = 0;
        pick[r] = 0;
        for (int j = 0; j < n; j++)
            if (c->ev[j].kind == EV_WRITE && c->ev[j].loc == c->ev[i].loc && j != c->ev[i].partner)
                cand[r][ncand[r]++] = j;
        total *= ncand[r];
    }
    for (int l = 0; l < nloc; l++)
        for (int k = 2; k <= nwrites[l]; k++)
            total *= k;
    if (total > (double)MAX_CANDIDATES)
        return litmus_fail(c->err, c->t->file, 1, 1,
                           "the test has %.0f candidate executions, more than the limit %ld", total,
                           MAX_CANDIDATES);
    for (;;) {
        for (int r = 0; r < nreads; r++)
            c->rf_of[reads[r]] = cand[r][pick[r]];
        memset(c->vstate, 0, sizeof c->vstate);
        int consistent = 1;
        for (int i = 0; i < n && consistent; i++) {
            int64_t v;
            if (c->ev[i].kind == EV_WRITE)
                consistent = resolve_value(c, i, &v);
        }
        if (consistent) {
            value_t *rf = &c->env[CAT_SLOT_RF];
            rel_clear(rf, 1);
            for (int r = 0; r < nreads; r++)
                rf->row[c->rf_of[reads[r]]] |= UINT64_C(1) << reads[r];
            int perm[LITMUS_MAX_LOCS][EXEC_MAX_EVENTS];
            for (int l = 0; l < nloc; l++)
                for (int k = 0; k < nwrites[l]; k++)
                    perm[l][k] = k;
            for (;;) {
                value_t *co = &c->env[CAT_SLOT_CO];
                rel_clear(co, 1);
                for (int l = 0; l < nloc; l++) {
                    int prev = init_of[l];
                    uint64_t later = 0;
                    for (int k = nwrites[l] - 1; k >= 0; k--) {
                        int w = writes[l][perm[l][k]];
                        co->row[w] = later;
                        later |= UINT64_C(1) << w;
                    }
                    co->row[prev] = later;
                    c->co_last[l] = nwrites[l] ? writes[l][perm[l][nwrites[l] - 1]] : prev;
                }
                value_t inv;
                rel_inverse(rf, &inv, n);
                rel_seq(&inv, co, &c->env[CAT_SLOT_FR], n);
                for (int i = 0; i < n; i++)
                    c->env[CAT_SLOT_FR].row[i] &= ~(UINT64_C(1) << i);
                static const int pairs[3][3] = {{CAT_SLOT_RF, CAT_SLOT_RFI, CAT_SLOT_RFE},
                                                {CAT_SLOT_CO, CAT_SLOT_COI, CAT_SLOT_COE},
                                                {CAT_SLOT_FR, CAT_SLOT_FRI, CAT_SLOT_FRE}};
                for (int k = 0; k < 3; k++) {
                    c->env[pairs[k][1]].is_rel = c->env[pairs[k][2]].is_rel = 1;
                    for (int i = 0; i < EXEC_MAX_EVENTS; i++) {
                        uint64_t row = c->env[pairs[k][0]].row[i];
                        c->env[pairs[k][1]].row[i] = row & c->env[CAT_SLOT_INT].row[i];
                        c->env[pairs[k][2]].row[i] = row & c->env[CAT_SLOT_EXT].row[i];
                    }
                }
                int rc = visit(c, arg);
                if (rc != 0)
                    return rc;
                int l = 0;
                while (l < nloc && !next_perm(perm[l], nwrites[l])) {
                    for (int k = 0; k < nwrites[l]; k++)
                        perm[l][k] = k;
                    l++;
                }
                if (l == nloc)
                    break;
            }
        }
        int r = 0;
        while (r < nreads && ++pick[r] == ncand[r]) {
            pick[r] = 0;
            r++;
        }
        if (r == nreads)
            return 0;
    }
}

static int setup(exec_ctx_t *c, const cat_model_t *m, const litmus_test_t *t, litmus_error_t *err) {
    memset(c, 0, sizeof *c);
    c->m = m;
    c->t = t;
    c->err = err;
    c->env = calloc((size_t)m->nslots, sizeof *c->env);
    c->dyn = calloc((size_t)m->nslots, 1);
    c->stmt_dyn = calloc((size_t)m->nstmts + 1, 1);
    if (!c->env || !c->dyn || !c->stmt_dyn)
        return litmus_fail(err, t->file, 0, 0, "out of memory");
    if (t->nscope_nodes == 0)
        return litmus_fail(err, t->file, 1, 1, "the test has no scopes: line");
    if (build_events(c) < 0 || build_scopes(c) < 0)
        return -1;
    build_static(c);
    for (int s = CAT_SLOT_RF; s <= CAT_SLOT_FRI; s++)
        c->dyn[s] = 1;
    for (int i = 0; i < m->nstmts; i++) {
        const cat_stmt_t *st = &m->stmts[i];
        c->stmt_dyn[i] = (unsigned char)expr_is_dynamic(c, st->expr);
        if (st->kind == CAT_LET)
            c->dyn[st->slot] = c->stmt_dyn[i];
    }
    int rc = run_model(c, 1, -1);
    if (rc < 0)
        return -1;
    c->static_fail = rc == 0;
    return 0;
}

static void teardown(exec_ctx_t *c) {
    free(c->env);
    free(c->dyn);
    free(c->stmt_dyn);
}

typedef struct check_arg {
    exec_outcome_t *out;
} check_arg_t;

static int cmp_state(const int64_t *a, const int64_t *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int visit_check(exec_ctx_t *c, void *arg) {
    exec_outcome_t *out = ((check_arg_t *)arg)->out;
    out->cands++;
    if (c->static_fail)
        return 0;
    int rc = run_model(c, 0, -1);
    if (rc <= 0)
        return rc;
    int64_t regs[LITMUS_MAX_THREADS * LITMUS_MAX_REGS] = {0};
    for (int i = 0; i < c->n; i++) {
        const event_t *e = &c->ev[i];
        if (e->kind == EV_READ && e->thread >= 0) {
            int64_t v = 0;
            read_value(c, i, &v);
            regs[e->thread * LITMUS_MAX_REGS + e->reg] = v;
        }
    }
    final_state_t fin = {c, regs};
    if (litmus_prop_holds(c->t, c->t->prop_root, final_leaf, &fin))
        out->pos++;
    else
        out->neg++;
    int64_t st[EXEC_MAX_SHOWN];
    for (int k = 0; k < out->nshown; k++)
        st[k] = out->shown_proc[k] >= 0
                    ? regs[out->shown_proc[k] * LITMUS_MAX_REGS + out->shown_id[k]]
                    : c->val[c->co_last[out->shown_id[k]]];
    int lo = 0, hi = out->nstates;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int d = cmp_state(out->states + (size_t)mid * out->nshown, st, out->nshown);
        if (d == 0)
            return 0;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (out->nstates == out->cap) {
        int cap = out->cap ? out->cap * 2 : 16;
        int64_t *grown = realloc(out->states, sizeof(int64_t) * (size_t)cap * (out->nshown + 1));
        if (!grown)
            return litmus_fail(c->err, c->t->file, 0, 0, "out of memory");
        out->states = grown;
        out->cap = cap;
    }
    int w = out->nshown;
    memmove(out->states + (size_t)(lo + 1) * w, out->states + (size_t)lo * w,
            sizeof(int64_t) * (size_t)(out->nstates - lo) * w);
    memcpy(out->states + (size_t)lo * w, st, sizeof(int64_t) * (size_t)w);
    out->nstates++;
    return 0;
}

static void collect_shown(const litmus_test_t *t, int i, exec_outcome_t *out) {
    const litmus_prop_t *p = &t->props[i];
    if (p->op == LITMUS_PROP_REG || p->op == LITMUS_PROP_LOC) {
        int proc = p->op == LITMUS_PROP_REG ? p->proc : -1;
        int id = p->op == LITMUS_PROP_REG ? p->reg : p->loc;
        for (int k = 0; k < out->nshown; k++)
            if (out->shown_proc[k] == proc && out->shown_id[k] == id)
                return;
        if (out->nshown == EXEC_MAX_SHOWN)
            return;
        /* Registers by thread then number, then locations by name. */
        int at = out->nshown;
        while (at > 0) {
            int pp = out->shown_proc[at - 1], pid = out->shown_id[at - 1];
            int after;
            if (proc >= 0 && pp >= 0)
                after = pp > proc || (pp == proc && pid > id);
            else if (proc >= 0)
                after = 1;
            else if (pp >= 0)
                after = 0;
            else
                after = strcmp(t->locs[pid], t->locs[id]) > 0;
            if (!after)
                break;
            out->shown_proc[at] = pp;
            out->shown_id[at] = pid;
            at--;
        }
        out->shown_proc[at] = proc;
        out->shown_id[at] = id;
        out->nshown++;
        return;
    }
    for (int k = 0; k < p->nargs; k++)
        collect_shown(t, p->args[k], out);
}

int exec_check(const cat_model_t *m, const litmus_test_t *t, exec_outcome_t *out,
               litmus_error_t *err) {
    exec_ctx_t *c = malloc(sizeof *c);
    memset(out, 0, sizeof *out);
    if (!c)
        return litmus_fail(err, t->file, 0, 0, "out of memory");
    collect_shown(t, t->prop_root, out);
    int rc = setup(c, m, t, err);
    if (rc == 0) {
        check_arg_t arg = {out};
        rc = enumerate(c, visit_check, &arg);
    }
    teardown(c);
    free(c);
    return rc < 0 ? -1 : 0;
}

void exec_outcome_free(exec_outcome_t *out) {
    free(out->states);
    out->states = NULL;
}

typedef struct eval_arg {
    long k;
    int slot;
    value_t result;
    int found;
} eval_arg_t;

static int visit_eval(exec_ctx_t *c, void *arg) {
    eval_arg_t *a = arg;
    if (a->k-- > 0)
        return 0;
    if (a->slot >= CAT_SLOT_FIRST_TAG && c->dyn[a->slot] && run_model(c, 0, a->slot) < 0)
        return -1;
    a->result = c->env[a->slot];
    a->found = 1;
    return 1;
}

int exec_eval_name(const cat_model_t *m, const litmus_test_t *t, long k, const char *name,
                   int *is_rel, uint64_t rows[EXEC_MAX_EVENTS], uint64_t *set, int *nevents,
                   litmus_error_t *err) {
    int slot = cat_resolve_name(m, name);
    if (slot < 0)
        return litmus_fail(err, m->cat_file, 0, 0, "the model defines no name '%s'", name);
    exec_ctx_t *c = malloc(sizeof *c);
    if (!c)
        return litmus_fail(err, t->file, 0, 0, "out of memory");
    eval_arg_t *a = calloc(1, sizeof *a);
    int rc = a ? setup(c, m, t, err) : litmus_fail(err, t->file, 0, 0, "out of memory");
    if (rc == 0) {
        a->k = k;
        a->slot = slot;
        rc = enumerate(c, visit_eval, a);
    }
    if (rc >= 0) {
        rc = a->found ? 0 : 1;
        *is_rel = a->result.is_rel;
        memcpy(rows, a->result.row, sizeof a->result.row);
        *set = a->result.set;
        *nevents = c->n;
    }
    teardown(c);
    free(c);
    free(a);
    return rc < 0 ? -1 : rc;
}
