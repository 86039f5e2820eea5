/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the multi-PE collective tests: checks that end the whole job with a message,
 * deterministic pseudo-random values (never zero) that every PE can recompute for every other PE,
 * and the algorithm choice from the command line. */
#ifndef COLL_TEST_H
#define COLL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <shmem.h>

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__, __LINE__, \
                    #cond);                                                                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            shmem_global_exit(1);                                                                  \
        }                                                                                          \
    } while (0)

/* A well-mixed 64-bit value of (a, b, c), never 0. */
static inline uint64_t ct_rand(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^
                 (c + 1) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 32;
    return x ? x : 1;
}

/* Reduction tests: element i of PE pe for the bitwise, sum and product classes (exact in every
 * type; products stay small because only 6 PEs contribute factors other than 1), from the
 * including file's iteration counter, and the reference operators. */
#define VAL_BITWISE(T, pe, i) ((T)ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration))
#define VAL_SUM(T, pe, i) ((T)(ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 7 + 1))
#define VAL_PROD(T, pe, i)                                                                         \
    ((T)((pe) < 6 ? ct_rand((uint64_t)(pe), (uint64_t)(i), (uint64_t)iteration) % 2 + 1 : 1))
#define OP_AND(a, b) ((a) & (b))
#define OP_OR(a, b) ((a) | (b))
#define OP_XOR(a, b) ((a) ^ (b))
#define OP_MAX(a, b) ((b) > (a) ? (b) : (a))
#define OP_MIN(a, b) ((b) < (a) ? (b) : (a))
#define OP_SUM(a, b) ((a) + (b))
#define OP_PROD(a, b) ((a) * (b))

/* argv[1], when given, selects the algorithm through environment variable var (read at
 * shmem_init). */
static inline void ct_algorithm_from_args(int argc, char **argv, const char *var) {
    if (argc > 1)
        setenv(var, argv[1], 1);
}

#endif
