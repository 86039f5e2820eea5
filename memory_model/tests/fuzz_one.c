/* SPDX-License-Identifier: BSD-3-Clause */
#include "fuzz_one.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat.h"
#include "exec.h"
#include "litmus.h"

static char *bell_text, *cat_text;
static cat_model_t *model;

int fuzz_setup(const char *model_dir) {
    char path[1024];
    litmus_error_t err;
    snprintf(path, sizeof path, "%s/shmem.bell", model_dir);
    bell_text = litmus_read_file(path, &err);
    snprintf(path, sizeof path, "%s/shmem.cat", model_dir);
    cat_text = bell_text ? litmus_read_file(path, &err) : NULL;
    model = malloc(sizeof *model);
    if (!cat_text || !model ||
        cat_parse_model_text("shmem.bell", bell_text, "shmem.cat", cat_text, model, &err) < 0) {
        fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
        return -1;
    }
    return 0;
}

static int well_formed(const litmus_error_t *err) {
    if (err->line < 1 || err->col < 1 || !err->msg[0] || !err->file[0]) {
        fprintf(stderr, "malformed error report: %s:%d:%d: %s\n", err->file, err->line, err->col,
                err->msg);
        return 0;
    }
    return 1;
}

int fuzz_one(const uint8_t *data, size_t size) {
    if (size < 1 || size > 65536)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    litmus_error_t err;
    int rc = 0;
    if (data[0] == '0') {
        litmus_test_t *t = malloc(sizeof *t);
        if (t && litmus_parse("fuzz.litmus", text, t, &err) < 0) {
            rc = well_formed(&err) ? 0 : -1;
        } else if (t) {
            int events = t->nlocs;
            for (int i = 0; i < t->nthreads; i++)
                events += t->threads[i].ninstrs;
            exec_outcome_t o;
            if (events <= 14) {
                if (exec_check(model, t, &o, &err) == 0)
                    exec_outcome_free(&o);
                else if (!well_formed(&err))
                    rc = -1;
            }
        }
        free(t);
    } else if (data[0] == '1' || data[0] == '2') {
        cat_model_t *m = malloc(sizeof *m);
        int is_cat = data[0] == '1';
        if (m && cat_parse_model_text("fuzz.bell", is_cat ? bell_text : text, "fuzz.cat",
                                      is_cat ? text : cat_text, m, &err) < 0)
            rc = well_formed(&err) ? 0 : -1;
        free(m);
    }
    free(text);
    return rc;
}
