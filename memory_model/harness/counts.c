/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

void harness_counts_add(harness_counts_t *c, const int64_t *row, int64_t count) {
    size_t w = (size_t)c->ncols;
    for (int i = 0; i < c->n; i++)
        if (memcmp(c->rows + (size_t)i * w, row, w * sizeof *row) == 0) {
            c->counts[i] += count;
            return;
        }
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        int64_t *rows = realloc(c->rows, (size_t)cap * (w ? w : 1) * sizeof *rows);
        int64_t *counts = rows ? realloc(c->counts, (size_t)cap * sizeof *counts) : NULL;
        if (rows)
            c->rows = rows;
        if (!counts) {
            fprintf(stderr, "shmem-litmus run: out of memory counting states\n");
            exit(2);
        }
        c->counts = counts;
        c->cap = cap;
    }
    memcpy(c->rows + (size_t)c->n * w, row, w * sizeof *row);
    c->counts[c->n++] = count;
}

void harness_counts_free(harness_counts_t *c) {
    free(c->rows);
    free(c->counts);
    c->rows = c->counts = NULL;
    c->n = c->cap = 0;
}

double harness_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void stop_path(const harness_opts_t *o, int test, char *buf, size_t cap) {
    snprintf(buf, cap, "%s.%d.stop", o->out, test);
}

int harness_round_done(const harness_opts_t *o, int test, const plan_t *p,
                       const harness_counts_t *h, long done, long rounds, double elapsed) {
    static int last_test = -1;
    static double last_write;
    if (test != last_test || elapsed - last_write >= 1.0) {
        harness_write_counts(o, test, p, h, rounds, elapsed, 1);
        last_test = test;
        last_write = elapsed;
    }
    int timed_out = o->max_seconds > 0 && elapsed >= o->max_seconds &&
                    (!p->spread || done >= o->min_iterations);
    if (done < o->iterations && !timed_out)
        return 0;
    char path[4096];
    stop_path(o, test, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
    return 1;
}

int harness_stop_seen(const harness_opts_t *o, int test) {
    char path[4096];
    stop_path(o, test, path, sizeof path);
    return access(path, F_OK) == 0;
}

int harness_write_counts(const harness_opts_t *o, int test, const plan_t *p,
                         const harness_counts_t *h, long rounds, double seconds, int partial) {
    char path[4096], tmp[4096 + 8];
    snprintf(path, sizeof path, "%s.%d%s", o->out, test, partial ? ".part" : "");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        return -1;
    }
    fprintf(f, "rounds %ld seconds %.3f cols %d\n", rounds, seconds, p->ncols);
    for (int i = 0; i < h->n; i++) {
        fprintf(f, "%lld", (long long)h->counts[i]);
        for (int col = 0; col < p->ncols; col++)
            fprintf(f, " %lld", (long long)h->rows[(size_t)i * (size_t)p->ncols + (size_t)col]);
        fputc('\n', f);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}
