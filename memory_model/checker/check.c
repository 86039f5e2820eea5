/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void check_print_error(const litmus_error_t *err) {
    if (err->line > 0)
        fprintf(stderr, "%s:%d:%d: error: %s\n", err->file, err->line, err->col, err->msg);
    else
        fprintf(stderr, "%s: error: %s\n", err->file, err->msg);
}

/* The model of a test: ../shmem.bell and ../shmem.cat next to it (the source tree's litmus/),
 * else those of an installation (share/libshmem/ beside the tool's bin/), else those of the
 * source tree the tool was built from. */
void check_default_model(const char *test_path, char *bell, char *cat, size_t cap) {
    const char *slash = strrchr(test_path, '/');
    int dirlen = slash ? (int)(slash - test_path) : 0;
    const char *dir = slash ? test_path : ".";
    if (!slash)
        dirlen = 1;
    snprintf(bell, cap, "%.*s/../shmem.bell", dirlen, dir);
    snprintf(cat, cap, "%.*s/../shmem.cat", dirlen, dir);
    if (access(bell, R_OK) == 0 && access(cat, R_OK) == 0)
        return;
    char exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *bin = strrchr(exe, '/');
        if (bin) {
            *bin = '\0';
            char b[1200], c[1200];
            snprintf(b, sizeof b, "%s/../" SHMEM_LITMUS_DATADIR "/shmem.bell", exe);
            snprintf(c, sizeof c, "%s/../" SHMEM_LITMUS_DATADIR "/shmem.cat", exe);
            if (access(b, R_OK) == 0 && access(c, R_OK) == 0) {
                snprintf(bell, cap, "%s", b);
                snprintf(cat, cap, "%s", c);
                return;
            }
        }
    }
    if (access(SHMEM_LITMUS_SOURCE_DIR "/shmem.bell", R_OK) == 0) {
        snprintf(bell, cap, "%s", SHMEM_LITMUS_SOURCE_DIR "/shmem.bell");
        snprintf(cat, cap, "%s", SHMEM_LITMUS_SOURCE_DIR "/shmem.cat");
    }
}

static void print_prop(FILE *out, const litmus_test_t *t, int i, int above) {
    /* herd7's printer: conjunctions inside disjunctions need no parentheses, the reverse does. */
    const litmus_prop_t *p = &t->props[i];
    switch (p->op) {
    case LITMUS_PROP_REG:
        fprintf(out, "%d:r%d=%lld", p->proc, p->reg, (long long)p->value);
        return;
    case LITMUS_PROP_LOC:
        fprintf(out, "[%s]=%lld", t->locs[p->loc], (long long)p->value);
        return;
    case LITMUS_PROP_TRUE:
        fputs("true", out);
        return;
    case LITMUS_PROP_FALSE:
        fputs("false", out);
        return;
    case LITMUS_PROP_NOT:
        fputs("not (", out);
        print_prop(out, t, p->args[0], 0);
        fputs(")", out);
        return;
    case LITMUS_PROP_AND:
    case LITMUS_PROP_OR: {
        int paren = above == LITMUS_PROP_AND && p->op == LITMUS_PROP_OR;
        if (paren)
            fputs("(", out);
        for (int k = 0; k < p->nargs; k++) {
            if (k)
                fputs(p->op == LITMUS_PROP_AND ? " /\\ " : " \\/ ", out);
            print_prop(out, t, p->args[k], (int)p->op);
        }
        if (paren)
            fputs(")", out);
        return;
    }
    }
}

void check_state_text(const litmus_test_t *t, const exec_outcome_t *o, const int64_t *v, char *buf,
                      size_t cap) {
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < o->nshown && n < cap; k++) {
        if (o->shown_proc[k] >= 0)
            n += (size_t)snprintf(buf + n, cap - n, "%s%d:r%d=%lld;", k ? " " : "",
                                  o->shown_proc[k], o->shown_id[k], (long long)v[k]);
        else
            n += (size_t)snprintf(buf + n, cap - n, "%s[%s]=%lld;", k ? " " : "",
                                  t->locs[o->shown_id[k]], (long long)v[k]);
    }
}

void check_print_result(FILE *out, const litmus_test_t *t, const exec_outcome_t *o, double secs) {
    static const char *const kind[] = {"Allowed", "Forbidden", "Required"};
    static const char *const quant[] = {"exists", "~exists", "forall"};
    fprintf(out, "Test %s %s\n", t->name, kind[t->cond_kind]);
    fprintf(out, "States %d\n", o->nstates);
    char text[EXEC_MAX_SHOWN * (LITMUS_NAME_LEN + 32)];
    for (int s = 0; s < o->nstates; s++) {
        const int64_t *v = o->states + (size_t)s * o->nshown;
        check_state_text(t, o, v, text, sizeof text);
        fprintf(out, "%s\n", text);
    }
    int ok = t->cond_kind == LITMUS_COND_EXISTS       ? o->pos > 0
             : t->cond_kind == LITMUS_COND_NOT_EXISTS ? o->pos == 0
                                                      : o->neg == 0;
    fprintf(out, "%s\n", ok ? "Ok" : "No");
    int64_t wpos = t->cond_kind == LITMUS_COND_NOT_EXISTS ? o->neg : o->pos;
    int64_t wneg = t->cond_kind == LITMUS_COND_NOT_EXISTS ? o->pos : o->neg;
    fprintf(out, "Witnesses\nPositive: %lld Negative: %lld\n", (long long)wpos, (long long)wneg);
    fprintf(out, "Condition %s (", quant[t->cond_kind]);
    print_prop(out, t, t->prop_root, -1);
    fprintf(out, ")\n");
    fprintf(out, "Observation %s %s %lld %lld\n", t->name,
            o->pos == 0   ? "Never"
            : o->neg == 0 ? "Always"
                          : "Sometimes",
            (long long)o->pos, (long long)o->neg);
    fprintf(out, "Time %s %0.2f\n\n", t->name, secs);
}

typedef struct expected {
    int n;
    char (*names)[128];
    int *allow;
    int *seen;
} expected_t;

static int read_expected(const char *path, expected_t *ex) {
    litmus_error_t err;
    char *text = litmus_read_file(path, &err);
    if (!text) {
        check_print_error(&err);
        return -1;
    }
    int lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    ex->names = calloc((size_t)lines, sizeof *ex->names);
    ex->allow = calloc((size_t)lines, sizeof *ex->allow);
    ex->seen = calloc((size_t)lines, sizeof *ex->seen);
    int rc = ex->names && ex->allow && ex->seen ? 0 : -1;
    int lineno = 0;
    for (char *line = text; rc == 0 && line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char name[128], verdict[16], extra[2];
        int k = sscanf(line, " %127s %15s %1s", name, verdict, extra);
        if (k <= 0 || name[0] == '#') {
            line = next;
            continue;
        }
        if (k != 2 || (strcmp(verdict, "Allow") && strcmp(verdict, "Forbid"))) {
            fprintf(stderr, "%s:%d:1: error: expected 'NAME Allow' or 'NAME Forbid'\n", path,
                    lineno);
            rc = -1;
            break;
        }
        snprintf(ex->names[ex->n], sizeof ex->names[0], "%s", name);
        ex->allow[ex->n++] = verdict[0] == 'A';
        line = next;
    }
    free(text);
    return rc;
}

static void usage(FILE *out) {
    fputs("usage: shmem-litmus check [--bell FILE] [--cat FILE] [--expected FILE] TEST.litmus...\n"
          "  Evaluates the model on every candidate execution of each test and prints herd7's\n"
          "  result block. The model defaults to ../shmem.bell and ../shmem.cat next to the first\n"
          "  test. --expected compares each verdict with a file of 'NAME Allow|Forbid' lines.\n",
          out);
}

int check_main(int argc, char **argv) {
    const char *bell = NULL, *cat = NULL, *expected_path = NULL;
    int first = argc;
    for (int i = 1; i < argc; i++) {
        const char **opt = strcmp(argv[i], "--bell") == 0       ? &bell
                           : strcmp(argv[i], "--cat") == 0      ? &cat
                           : strcmp(argv[i], "--expected") == 0 ? &expected_path
                                                                : NULL;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (opt) {
            if (i + 1 >= argc) {
                fprintf(stderr, "shmem-litmus check: %s needs a file\n", argv[i]);
                return 2;
            }
            *opt = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "shmem-litmus check: unknown option %s\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (first == argc) {
        usage(stderr);
        return 2;
    }
    char default_bell[1024], default_cat[1024];
    check_default_model(argv[first], default_bell, default_cat, sizeof default_bell);
    litmus_error_t err;
    cat_model_t *m = malloc(sizeof *m);
    litmus_test_t *t = malloc(sizeof *t);
    expected_t ex = {0};
    int status = 0;
    if (!m || !t) {
        fprintf(stderr, "shmem-litmus check: out of memory\n");
        status = 2;
    } else if (cat_parse_model(bell ? bell : default_bell, cat ? cat : default_cat, m, &err) < 0) {
        check_print_error(&err);
        status = 2;
    } else if (expected_path && read_expected(expected_path, &ex) < 0) {
        status = 2;
    }
    int agree = 0, differ = 0;
    for (int i = first; status != 2 && i < argc; i++) {
        exec_outcome_t o;
        clock_t start = clock();
        if (litmus_parse_file(argv[i], t, &err) < 0 || exec_check(m, t, &o, &err) < 0) {
            check_print_error(&err);
            status = 2;
            continue;
        }
        check_print_result(stdout, t, &o, (double)(clock() - start) / CLOCKS_PER_SEC);
        if (expected_path) {
            int found = -1;
            for (int k = 0; k < ex.n; k++)
                if (strcmp(ex.names[k], t->name) == 0)
                    found = k;
            int allow = o.pos > 0;
            if (found < 0) {
                fprintf(stderr, "%s: no expected verdict for %s\n", expected_path, t->name);
                differ++;
            } else if (ex.allow[found] != allow) {
                fprintf(stderr, "%s: %s: expected %s, the model says %s\n", argv[i], t->name,
                        ex.allow[found] ? "Allow" : "Forbid", allow ? "Allow" : "Forbid");
                differ++;
            } else {
                agree++;
            }
        }
        exec_outcome_free(&o);
    }
    if (expected_path && status != 2) {
        fprintf(stderr, "shmem-litmus check: %d tests agree with %s, %d differ\n", agree,
                expected_path, differ);
        if (differ)
            status = 1;
    }
    free(ex.names);
    free(ex.allow);
    free(ex.seen);
    free(m);
    free(t);
    fflush(stdout);
    return status;
}
