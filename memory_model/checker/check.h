/* SPDX-License-Identifier: BSD-3-Clause */
/* The subcommands of shmem-litmus. */
#ifndef SHMEM_LITMUS_CHECK_H
#define SHMEM_LITMUS_CHECK_H

#include <stdio.h>

#include "exec.h"
#include "litmus.h"

/* shmem-litmus check [--bell FILE] [--cat FILE] [--expected FILE] TEST...: prints herd7's result
 * block for every test; exit status 0, 1 on a verdict that differs from --expected, 2 on errors. */
int check_main(int argc, char **argv);

/* Prints one test's result block in herd7's format. */
void check_print_result(FILE *out, const litmus_test_t *t, const exec_outcome_t *o, double secs);

/* One final state v (o->nshown values) as the result block spells it: "0:r1=1; [x]=2;". */
void check_state_text(const litmus_test_t *t, const exec_outcome_t *o, const int64_t *v, char *buf,
                      size_t cap);

/* Prints an error as FILE:LINE:COL: error: MESSAGE. */
void check_print_error(const litmus_error_t *err);

/* The default model files: ../shmem.bell and ../shmem.cat relative to the test's folder, else
 * the installed ones (share/libshmem/), else the source tree's. */
void check_default_model(const char *test_path, char *bell, char *cat, size_t cap);

#endif
