/* SPDX-License-Identifier: BSD-3-Clause */
/* Candidate executions of a litmus test and the evaluation of the model on each of them. */
#ifndef SHMEM_LITMUS_EXEC_H
#define SHMEM_LITMUS_EXEC_H

#include "cat.h"
#include "litmus.h"

#define EXEC_MAX_EVENTS 64
#define EXEC_MAX_SHOWN 16

/* What a test's result block shows: the final values of the registers and locations that its
 * condition names, for every distinct final state of an execution the model accepts. */
typedef struct exec_outcome {
    int64_t pos;   /* accepted executions that satisfy the condition's proposition */
    int64_t neg;   /* accepted executions that do not */
    int64_t cands; /* candidate executions enumerated */
    int nshown;
    int shown_proc[EXEC_MAX_SHOWN]; /* -1 for a memory location */
    int shown_id[EXEC_MAX_SHOWN];   /* register number or location index */
    int nstates;
    int cap;
    int64_t *states; /* nstates * nshown values, sorted as herd7 sorts them */
} exec_outcome_t;

/* Enumerates every candidate execution of `t` and evaluates `m` on each. */
int exec_check(const cat_model_t *m, const litmus_test_t *t, exec_outcome_t *out,
               litmus_error_t *err);
void exec_outcome_free(exec_outcome_t *out);

/* The value of the model's name `name` (a let, or a predefined name) in candidate execution
 * number `k` (0-based, in enumeration order, whether or not the model accepts it). Events are
 * numbered: one initial write per location in location order, then each thread's events in
 * program order (an rmw gives its read, then its write). *is_rel says which of rows / *set is
 * filled in. Returns 0, 1 if there is no candidate k, or -1 with *err filled in. */
int exec_eval_name(const cat_model_t *m, const litmus_test_t *t, long k, const char *name,
                   int *is_rel, uint64_t rows[EXEC_MAX_EVENTS], uint64_t *set, int *nevents,
                   litmus_error_t *err);

#endif
