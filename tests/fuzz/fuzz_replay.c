/* SPDX-License-Identifier: BSD-3-Clause */
/* Replays a fuzz corpus through a target, then feeds it a fixed number of deterministic
 * mutations of the corpus (byte changes, insertions, deletions, splices, repeated blocks): the
 * fuzz targets' check in every build, without libFuzzer. Any abort or sanitizer report fails.
 * Usage: fuzz_replay wire|env ITERATIONS FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

#define MAX_INPUT 8192

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef struct {
    unsigned char *data;
    size_t size;
} input_t;

/* Bytes that parsers treat specially: the wire magic, message types, size suffixes, words. */
static const char *const tokens[] = {"1LSH",
                                     "\x01\x00\x00\x00",
                                     "\x02\x00\x00\x00",
                                     "\x03\x00\x00\x00",
                                     "\x04\x00\x00\x00",
                                     "\xff\xff\xff\xff",
                                     "@",
                                     "K",
                                     "m",
                                     "G",
                                     "t",
                                     "yes",
                                     "Off",
                                     "18446744073709551615",
                                     "0"};

static size_t mutate(const input_t *in, const input_t *other, unsigned char *out) {
    size_t n = in->size < MAX_INPUT ? in->size : MAX_INPUT;
    memcpy(out, in->data, n);
    int edits = 1 + (int)(next_random() % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = n ? next_random() % n : 0;
        switch (next_random() % 6) {
        case 0:
            if (n)
                out[at] = (unsigned char)next_random();
            break;
        case 1: {
            size_t len = 1 + next_random() % 24;
            if (at + len > n)
                len = n - at;
            memmove(out + at, out + at + len, n - at - len);
            n -= len;
            break;
        }
        case 2: {
            const char *tok = tokens[next_random() % (sizeof(tokens) / sizeof(tokens[0]))];
            size_t len = strlen(tok);
            if (n + len <= MAX_INPUT) {
                memmove(out + at + len, out + at, n - at);
                memcpy(out + at, tok, len);
                n += len;
            }
            break;
        }
        case 3:
            if (other->size > 0) {
                size_t from = next_random() % other->size;
                size_t len = 1 + next_random() % (other->size - from);
                if (at + len > MAX_INPUT)
                    len = MAX_INPUT - at;
                memcpy(out + at, other->data + from, len);
                if (at + len > n)
                    n = at + len;
            }
            break;
        case 4: /* a header-sized block repeated */
            if (n >= 26 && n + 24 <= MAX_INPUT) {
                size_t from = 2 + next_random() % (n - 25);
                memmove(out + from + 24, out + from, n - from);
                n += 24;
            }
            break;
        default:
            if (n)
                out[at] ^= (unsigned char)(1u << (next_random() % 8));
            break;
        }
    }
    return n;
}

static int read_file(const char *path, input_t *in) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    in->data = malloc(MAX_INPUT);
    in->size = in->data ? fread(in->data, 1, MAX_INPUT, f) : 0;
    fclose(f);
    return in->data ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: fuzz_replay wire|env ITERATIONS FILE...\n");
        return 2;
    }
    void (*target)(const uint8_t *, size_t);
    if (strcmp(argv[1], "wire") == 0)
        target = fuzz_wire;
    else if (strcmp(argv[1], "env") == 0)
        target = fuzz_env;
    else {
        fprintf(stderr, "fuzz_replay: unknown target '%s'\n", argv[1]);
        return 2;
    }
    long iterations = strtol(argv[2], NULL, 10);
    int n = argc - 3;
    input_t *corpus = calloc((size_t)n, sizeof(input_t));
    unsigned char *buf = malloc(MAX_INPUT);
    if (corpus == NULL || buf == NULL)
        return 1;
    for (int i = 0; i < n; i++) {
        if (read_file(argv[3 + i], &corpus[i]) != 0) {
            fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[3 + i]);
            return 1;
        }
        target(corpus[i].data, corpus[i].size);
    }
    for (long it = 0; it < iterations; it++) {
        const input_t *in = &corpus[next_random() % (uint64_t)n];
        const input_t *other = &corpus[next_random() % (uint64_t)n];
        size_t size = mutate(in, other, buf);
        target(buf, size);
    }
    printf("fuzz_replay %s: %d corpus files and %ld mutations: ok\n", argv[1], n, iterations);
    for (int i = 0; i < n; i++)
        free(corpus[i].data);
    free(corpus);
    free(buf);
    return 0;
}
