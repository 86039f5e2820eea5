/* SPDX-License-Identifier: BSD-3-Clause */
/* Replays the fuzz corpus through fuzz_one, then feeds it a fixed number of deterministic
 * mutations of the corpus (byte changes, insertions, deletions, splices). Any crash, sanitizer
 * report or malformed error fails the test. Usage: fuzz_replay MODEL_DIR ITERATIONS FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_one.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const tokens[] = {
    "(",        ")",  "[",   "]",      "|",   ";",  "*",       "+",
    "^-1",      "\\", "&",   "'",      "\"",  "(*", "*)",      "0",
    "_",        "r9", "P7",  "exists", "let", "as", "acyclic", "scopes:",
    "regions:", "~",  "/\\", "\\/",    "rmw", "f[", "\n",      "-9999999999999999999",
    ","};

typedef struct input {
    unsigned char *data;
    size_t size;
} input_t;

static size_t mutate(const input_t *in, const input_t *other, unsigned char *out, size_t cap) {
    size_t n = in->size < cap ? in->size : cap;
    memcpy(out, in->data, n);
    int edits = 1 + (int)(next_random() % 4);
    for (int e = 0; e < edits && n > 1; e++) {
        size_t at = 1 + next_random() % (n - 1);
        switch (next_random() % 5) {
        case 0:
            out[at] = (unsigned char)next_random();
            break;
        case 1: {
            size_t len = 1 + next_random() % 16;
            if (at + len > n)
                len = n - at;
            memmove(out + at, out + at + len, n - at - len);
            n -= len;
            break;
        }
        case 2: {
            const char *tok = tokens[next_random() % (sizeof tokens / sizeof tokens[0])];
            size_t len = strlen(tok);
            if (n + len <= cap) {
                memmove(out + at + len, out + at, n - at);
                memcpy(out + at, tok, len);
                n += len;
            }
            break;
        }
        case 3:
            if (other->size > 1) {
                size_t from = 1 + next_random() % (other->size - 1);
                size_t len = 1 + next_random() % 64;
                if (from + len > other->size)
                    len = other->size - from;
                if (at + len > cap)
                    len = cap - at;
                memcpy(out + at, other->data + from, len);
                if (at + len > n)
                    n = at + len;
            }
            break;
        default:
            n = at;
            break;
        }
    }
    return n;
}

/* Corpus files are binary: they may hold any byte, NUL included. */
static int read_input(const char *path, input_t *in) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    in->data = malloc(65536);
    in->size = in->data ? fread(in->data, 1, 65536, f) : 0;
    fclose(f);
    return in->data ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: fuzz_replay MODEL_DIR ITERATIONS FILE...\n");
        return 2;
    }
    if (fuzz_setup(argv[1]) < 0)
        return 2;
    long iterations = atol(argv[2]);
    int n = argc - 3, failures = 0;
    input_t *inputs = calloc((size_t)n, sizeof *inputs);
    for (int i = 0; i < n; i++) {
        if (read_input(argv[3 + i], &inputs[i]) < 0) {
            fprintf(stderr, "%s: cannot read\n", argv[3 + i]);
            return 2;
        }
        if (fuzz_one(inputs[i].data, inputs[i].size) < 0) {
            fprintf(stderr, "%s: malformed error report\n", argv[3 + i]);
            failures++;
        }
    }
    size_t cap = 1 << 16;
    unsigned char *buf = malloc(cap);
    for (long k = 0; k < iterations; k++) {
        const input_t *in = &inputs[next_random() % (unsigned)n];
        const input_t *other = &inputs[next_random() % (unsigned)n];
        size_t size = mutate(in, other, buf, cap);
        if (fuzz_one(buf, size) < 0) {
            fprintf(stderr, "mutation %ld gives a malformed error report:\n%.*s\n", k, (int)size,
                    (const char *)buf);
            failures++;
        }
    }
    printf("fuzz_replay: %d corpus inputs, %ld mutations, %d failures\n", n, iterations, failures);
    for (int i = 0; i < n; i++)
        free(inputs[i].data);
    free(inputs);
    free(buf);
    return failures ? 1 : 0;
}
