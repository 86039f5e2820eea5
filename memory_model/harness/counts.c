#include <stdlib.h>
#include <string.h>

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
        if (!counts)
            abort();
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
