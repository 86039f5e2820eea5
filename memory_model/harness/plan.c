/* SPDX-License-Identifier: BSD-3-Clause */
#include "plan.h"

#include <shmem/bypass.h>
#include <stdio.h>
#include <string.h>

static int fail(litmus_error_t *err, const litmus_test_t *t, int line, const char *msg,
                const char *what) {
    return litmus_fail(err, t->file, line, 1, "the harness cannot run this: %s%s", msg, what);
}

/* The SHMEMX_SCOPE_* of a scope name: the library's scopes are the test's levels, in order. */
static int level_scope(const char *s) {
    int level = litmus_level_of(s);
    return level < 0 ? -1 : SHMEMX_SCOPE_THREAD + (level - LITMUS_LEVEL_THREAD);
}

static int ctx_index(const char *s) {
    static const char *const names[PLAN_NCTX] = {"c0", "c1", "c2", "ns", "bp", "bp2"};
    for (int i = 0; i < PLAN_NCTX; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Walks the scope tree: every `pe` subtree is the next PE; `block` and `warp` subtrees give their
 * threads a shared block or warp; a thread outside them gets its own. */
static int place(const litmus_test_t *t, plan_t *p, int node, int pe, int block, int warp) {
    const litmus_scope_node_t *n = &t->scope_nodes[node];
    if (strcmp(n->tag, "pe") == 0) {
        pe = p->npes++;
        block = warp = -1;
    } else if (strcmp(n->tag, "block") == 0) {
        block = p->nblocks++;
        warp = -1;
    } else if (strcmp(n->tag, "warp") == 0) {
        if (block < 0) /* a warp is inside a block, named or not */
            block = p->nblocks++;
        warp = p->nwarps++;
    }
    for (int i = 0; i < n->nprocs; i++) {
        int th = n->procs[i];
        if (pe < 0)
            return -1;
        p->thread_pe[th] = pe;
        p->thread_block[th] = block >= 0 ? block : p->nblocks++;
        p->thread_warp[th] = warp >= 0 ? warp : p->nwarps++;
    }
    for (int i = 0; i < n->nchildren; i++)
        if (place(t, p, n->children[i], pe, block, warp) < 0)
            return -1;
    return 0;
}

/* The value a wait on `loc` waits for: when exactly one event writes loc, that event's value;
 * otherwise the wait waits for any change (a value can be overwritten before the waiter sees
 * it) and only a signal wait, which returns the value, can say what it saw. */
static int wait_target(const litmus_test_t *t, int loc, int64_t *value) {
    int writers = 0;
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < t->threads[th].ninstrs; i++) {
            const litmus_instr_t *in = &t->threads[th].instrs[i];
            if (in->loc != loc || in->op == LITMUS_OP_READ)
                continue;
            writers++;
            *value =
                in->op == LITMUS_OP_RMW && in->rmw_is_add ? t->init[loc] + in->value : in->value;
        }
    return writers == 1;
}

static int build_op(const litmus_test_t *t, plan_t *p, int th, const litmus_instr_t *in,
                    litmus_error_t *err) {
    plan_op_t op = {
        .loc = in->loc, .data_loc = -1, .reg = -1, .value = in->value, .line = in->pos.line};
    const char *kind = in->nannots > 0 ? in->annots[0] : "";
    int line = in->pos.line;
    if (in->op == LITMUS_OP_FENCE) {
        const char *arg = in->nannots > 1 ? in->annots[1] : "thread";
        op.ctx = in->nannots > 2 ? ctx_index(in->annots[2]) : PLAN_CTX_C0;
        op.scope = level_scope(arg);
        if (op.ctx < 0 || op.scope < 0)
            return fail(err, t, line, "unknown fence annotation ", in->annots[1]);
        if (strcmp(kind, "fence") == 0 || strcmp(kind, "quiet") == 0) {
            op.kind = kind[0] == 'f' ? PLAN_FENCE : PLAN_QUIET;
            op.group = op.scope == SHMEMX_SCOPE_WARP    ? PLAN_GROUP_WARP
                       : op.scope == SHMEMX_SCOPE_BLOCK ? PLAN_GROUP_BLOCK
                                                        : PLAN_GROUP_THREAD;
            if (op.scope > SHMEMX_SCOPE_BLOCK)
                return fail(err, t, line, "fence or quiet by a group wider than a block", "");
            p->has_group_call |= op.group != PLAN_GROUP_THREAD;
        } else if (strcmp(kind, "barrier") == 0) {
            op.kind = PLAN_BARRIER;
            p->has_barrier = 1;
        } else if (strcmp(kind, "acquire") == 0 || strcmp(kind, "release") == 0) {
            op.kind = kind[0] == 'a' ? PLAN_ACQUIRE : PLAN_RELEASE;
        } else {
            return fail(err, t, line, "unknown fence ", kind);
        }
        p->ctx_used |= 1u << op.ctx;
        p->ops[th][p->nops[th]++] = op;
        return 0;
    }
    op.ctx = in->nannots > 3 ? ctx_index(in->annots[3]) : PLAN_CTX_C0;
    if (op.ctx < 0)
        return fail(err, t, line, "unknown context ", in->annots[3]);
    op.other_type = in->nannots > 4;
    p->ctx_used |= 1u << op.ctx;
    int home = p->loc_home[in->loc];
    int rd = in->op == LITMUS_OP_READ, wr = in->op == LITMUS_OP_WRITE;
    if (in->op != LITMUS_OP_WRITE)
        op.reg = in->reg;
    if (op.reg >= PLAN_MAX_REGS)
        return fail(err, t, line, "a register above r9", "");
    if (strcmp(kind, "plain") == 0 && in->op != LITMUS_OP_RMW) {
        op.kind = rd ? PLAN_PLAIN_LD : PLAN_PLAIN_ST;
    } else if (strcmp(kind, "bypass") == 0 && in->op != LITMUS_OP_RMW) {
        op.kind = rd ? PLAN_BYPASS_LD : PLAN_BYPASS_ST;
    } else if (strcmp(kind, "put") == 0 && wr) {
        op.kind = PLAN_PUT;
    } else if ((strcmp(kind, "get") == 0 || strcmp(kind, "getnbi") == 0) && rd) {
        op.kind = kind[3] ? PLAN_GETNBI : PLAN_GET;
    } else if (strcmp(kind, "amo") == 0) {
        op.kind = rd               ? PLAN_AMO_FETCH
                  : wr             ? PLAN_AMO_SET
                  : in->rmw_is_add ? PLAN_AMO_ADD
                                   : PLAN_AMO_SWAP;
    } else if (strcmp(kind, "sig") == 0) {
        int rel = in->nannots > 1 && strcmp(in->annots[1], "rel") == 0;
        if (in->op == LITMUS_OP_RMW && !in->rmw_is_add)
            return fail(err, t, line, "a signal swap", "");
        op.reg = -1;
        if (rd) {
            op.kind = PLAN_SIGNAL_FETCH;
            op.reg = in->reg;
            if (home != p->thread_pe[th])
                return fail(err, t, line, "a signal fetch of another PE's signal", "");
        } else if (!rel) {
            op.kind = wr ? PLAN_SIGNAL_SET : PLAN_SIGNAL_ADD;
        } else {
            op.kind = PLAN_PUT_SIGNAL;
            op.sig_add = !wr;
            plan_op_t *prev = p->nops[th] ? &p->ops[th][p->nops[th] - 1] : NULL;
            if (prev && prev->kind == PLAN_PUT && prev->ctx == op.ctx &&
                p->loc_home[prev->loc] == home) {
                op.data_loc = prev->loc;
                op.data = prev->value;
                prev->kind = PLAN_NOP;
            }
        }
    } else if (strcmp(kind, "wait") == 0 && rd) {
        if (home != p->thread_pe[th])
            return fail(err, t, line, "a wait on another PE's location", "");
        op.kind = p->loc_signal[in->loc] ? PLAN_SIGNAL_WAIT : PLAN_WAIT;
        op.wait_eq = wait_target(t, in->loc, &op.wait_value);
        if (!op.wait_eq && op.kind == PLAN_WAIT)
            return fail(err, t, line, "a wait on a location that several events write", "");
    } else {
        return fail(err, t, line, "unknown access ", kind);
    }
    p->ops[th][p->nops[th]++] = op;
    return 0;
}

int plan_build(const litmus_test_t *t, plan_t *p, litmus_error_t *err) {
    memset(p, 0, sizeof *p);
    p->test = t;
    for (int i = 0; i < LITMUS_MAX_THREADS; i++)
        p->thread_pe[i] = -1;
    if (t->nscope_nodes == 0 || place(t, p, t->scope_root, -1, -1, -1) < 0)
        return fail(err, t, 0, "every thread must be inside a pe of the scopes: tree", "");
    if (p->nblocks > LITMUS_MAX_THREADS || p->nwarps > LITMUS_MAX_THREADS)
        return fail(err, t, 0, "more blocks or warps than threads", "");
    for (int th = 1; th < t->nthreads; th++)
        p->spread |= p->thread_block[th] != p->thread_block[0];
    for (int l = 0; l < t->nlocs; l++) {
        p->loc_home[l] = litmus_loc_home(t, l);
        if (p->loc_home[l] < 0 || p->loc_home[l] >= p->npes)
            return fail(err, t, 0, "no home PE in regions: for ", t->locs[l]);
    }
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < t->threads[th].ninstrs; i++) {
            const litmus_instr_t *in = &t->threads[th].instrs[i];
            if (in->op != LITMUS_OP_FENCE && strcmp(in->annots[0], "sig") == 0)
                p->loc_signal[in->loc] = 1;
        }
    for (int th = 0; th < t->nthreads; th++)
        for (int i = 0; i < t->threads[th].ninstrs; i++)
            if (build_op(t, p, th, &t->threads[th].instrs[i], err) < 0)
                return -1;
    memset(p->reg_col, -1, sizeof p->reg_col);
    for (int th = 0; th < t->nthreads; th++)
        for (int r = 0; r < PLAN_MAX_REGS; r++)
            for (int i = 0; i < p->nops[th]; i++)
                if (p->ops[th][i].reg == r && p->reg_col[th][r] < 0) {
                    p->wait_col[p->ncols] =
                        p->ops[th][i].kind == PLAN_WAIT || p->ops[th][i].kind == PLAN_SIGNAL_WAIT;
                    p->col_proc[p->ncols] = th;
                    p->col_id[p->ncols] = r;
                    p->reg_col[th][r] = p->ncols++;
                }
    for (int l = 0; l < t->nlocs; l++) {
        p->col_proc[p->ncols] = -1;
        p->col_id[p->ncols] = l;
        p->loc_col[l] = p->ncols++;
    }
    return 0;
}

typedef struct plan_row {
    const plan_t *p;
    const int64_t *row;
} plan_row_t;

/* A register that no event sets keeps its initial 0. */
static int64_t row_leaf(const litmus_prop_t *q, const void *state) {
    const plan_row_t *r = state;
    if (q->op == LITMUS_PROP_LOC)
        return r->row[r->p->loc_col[q->loc]];
    int c = q->reg < PLAN_MAX_REGS ? r->p->reg_col[q->proc][q->reg] : -1;
    return c < 0 ? 0 : r->row[c];
}

int plan_eval_cond(const plan_t *p, const int64_t *row) {
    plan_row_t r = {p, row};
    return litmus_prop_holds(p->test, p->test->prop_root, row_leaf, &r);
}

void plan_col_name(const plan_t *p, int c, char *buf, int cap) {
    if (p->col_proc[c] >= 0)
        snprintf(buf, (size_t)cap, "%d:r%d", p->col_proc[c], p->col_id[c]);
    else
        snprintf(buf, (size_t)cap, "[%s]", p->test->locs[p->col_id[c]]);
}
