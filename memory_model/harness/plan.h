/* SPDX-License-Identifier: BSD-3-Clause */
/* The litmus harness's reading of a test: which library call each event becomes (the mapping
 * table of memory_model/README.md), where each thread runs (its PE, block and warp from the
 * `scopes:` tree), where each location lives (its home PE from `regions:`), and which values a
 * run records. Shared by the front end (`shmem-litmus run`) and the platform interpreters. */
#ifndef SHMEM_LITMUS_PLAN_H
#define SHMEM_LITMUS_PLAN_H

#include <stdint.h>

#include "litmus.h"

#define PLAN_MAX_REGS 10
#define PLAN_MAX_COLS (LITMUS_MAX_THREADS * PLAN_MAX_REGS + LITMUS_MAX_LOCS)

/* The calls an event can become. */
typedef enum plan_op_kind {
    PLAN_NOP,          /* a put whose data travels with the put_signal after it */
    PLAN_PLAIN_ST,     /* x = v */
    PLAN_PLAIN_LD,     /* rN = x */
    PLAN_BYPASS_ST,    /* shmemx_long_st_bypass */
    PLAN_BYPASS_LD,    /* shmemx_long_ld_bypass */
    PLAN_PUT,          /* shmem_ctx_long_p */
    PLAN_GET,          /* shmem_ctx_long_g */
    PLAN_GETNBI,       /* shmem_ctx_long_get_nbi, value taken after a quiet at the end */
    PLAN_AMO_SET,      /* shmem_ctx_long_atomic_set */
    PLAN_AMO_FETCH,    /* shmem_ctx_long_atomic_fetch */
    PLAN_AMO_ADD,      /* shmem_ctx_long_atomic_fetch_add */
    PLAN_AMO_SWAP,     /* shmem_ctx_long_atomic_swap */
    PLAN_PUT_SIGNAL,   /* shmem_ctx_long_put_signal (SET or ADD) */
    PLAN_SIGNAL_SET,   /* shmem_ctx_signal_set */
    PLAN_SIGNAL_ADD,   /* shmem_ctx_signal_add */
    PLAN_SIGNAL_FETCH, /* shmem_signal_fetch */
    PLAN_WAIT,         /* shmem_long_wait_until */
    PLAN_SIGNAL_WAIT,  /* shmem_signal_wait_until, shmemx_ctx_signal_wait_until */
    PLAN_FENCE,        /* shmem_ctx_fence */
    PLAN_QUIET,        /* shmem_ctx_quiet */
    PLAN_BARRIER,      /* shmem_barrier_all */
    PLAN_ACQUIRE,      /* shmemx_acquire */
    PLAN_RELEASE       /* shmemx_release */
} plan_op_kind_t;

/* Contexts a test names: c0 is SHMEM_CTX_DEFAULT, the others are created per PE. */
enum { PLAN_CTX_C0, PLAN_CTX_C1, PLAN_CTX_C2, PLAN_CTX_NS, PLAN_CTX_BP, PLAN_CTX_BP2, PLAN_NCTX };

/* The calling group of a fence or quiet. */
enum { PLAN_GROUP_THREAD, PLAN_GROUP_WARP, PLAN_GROUP_BLOCK };

typedef struct plan_op {
    plan_op_kind_t kind;
    int ctx;        /* PLAN_CTX_* */
    int loc;        /* location, -1 for fences */
    int data_loc;   /* PLAN_PUT_SIGNAL: the fused put's location, -1: the scratch word */
    int64_t value;  /* written value, addend, swap value, signal value */
    int64_t data;   /* PLAN_PUT_SIGNAL: the fused put's value */
    int sig_add;    /* PLAN_PUT_SIGNAL: SHMEM_SIGNAL_ADD instead of SET */
    int reg;        /* destination register, -1 when none */
    int other_type; /* AMO in another atomicity domain: the unsigned long forms */
    int group;      /* PLAN_GROUP_* of a fence or quiet */
    int scope;      /* SHMEMX_SCOPE_* of acquire and release */
    int wait_eq;    /* waits: 1 = wait for == wait_value, 0 = for != the initial value */
    int64_t wait_value;
    int line; /* the instruction's line in the test, for messages */
} plan_op_t;

typedef struct plan {
    const litmus_test_t *test;
    int npes;
    int thread_pe[LITMUS_MAX_THREADS];
    int thread_block[LITMUS_MAX_THREADS]; /* block id, unique over the test */
    int thread_warp[LITMUS_MAX_THREADS];  /* warp id, unique over the test */
    int nblocks;
    int nwarps;
    int loc_home[LITMUS_MAX_LOCS];
    int loc_signal[LITMUS_MAX_LOCS]; /* a uint64_t signal object */
    int nops[LITMUS_MAX_THREADS];
    plan_op_t ops[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS];
    unsigned ctx_used;  /* bit per PLAN_CTX_* */
    int has_barrier;    /* some thread calls shmem_barrier_all */
    int has_group_call; /* some thread calls a warp or block fence/quiet */
    /* The threads are in more than one block (on one PE or several): where they run, and so
     * the outcome, can differ from one placement to the next. */
    int spread;
    /* The recorded values of one run, in this order: every register that an event sets (not the
     * unobservable result of a put_signal ADD), then the final value of every location. */
    int ncols;
    int col_proc[PLAN_MAX_COLS]; /* -1 for a location */
    int col_id[PLAN_MAX_COLS];   /* register number or location index */
    int reg_col[LITMUS_MAX_THREADS][PLAN_MAX_REGS];
    int loc_col[LITMUS_MAX_LOCS];
    int wait_col[PLAN_MAX_COLS]; /* 1 when the column is the register of a wait */
} plan_t;

/* Builds the plan of `t`. Returns 0, or -1 with *err naming the event the harness cannot run. */
int plan_build(const litmus_test_t *t, plan_t *p, litmus_error_t *err);

/* Evaluates t's condition on one row of recorded values (ncols values, plan order). */
int plan_eval_cond(const plan_t *p, const int64_t *row);

/* Appends "NAME=VALUE; " for column c in herd's spelling. */
void plan_col_name(const plan_t *p, int c, char *buf, int cap);

#endif
