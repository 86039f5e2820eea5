/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the host multi-PE tests: checks that end the job with a message, pseudo-random
 * test data from a per-run seed every PE shares, and a barrier built only from the operations
 * under test (AMOs, quiet, wait_until), so that these tests stand on their own. */
#ifndef HOST_TEST_H
#define HOST_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>
#include <shmemx.h>

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__, __LINE__, \
                    #cond);                                                                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            shmem_global_exit(1);                                                                  \
        }                                                                                          \
    } while (0)

static uint64_t test_seed;
static uint64_t *test_bar_arrive, *test_bar_release, *test_seed_word;
static uint64_t test_bar_gen;

static inline uint64_t test_mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A value in 1..120 (fits every type exactly) that depends on the run, the PE, the index and a
 * salt; never zero. */
static inline int test_val(int pe, size_t i, int salt) {
    return (int)(test_mix(test_seed ^ ((uint64_t)pe << 48) ^ ((uint64_t)salt << 32) ^ i) % 120) + 1;
}

/* Every PE arrives on PE 0's counter; PE 0 releases every PE. The quiet before arriving makes
 * this PE's earlier puts visible first; PE 0's quiet before releasing passes them on. */
static inline void test_barrier(void) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    test_bar_gen++;
    shmem_quiet();
    shmem_uint64_atomic_add(test_bar_arrive, 1, 0);
    if (me == 0) {
        shmem_uint64_wait_until(test_bar_arrive, SHMEM_CMP_GE, test_bar_gen * (uint64_t)n);
        shmem_quiet();
        for (int pe = 0; pe < n; pe++)
            shmem_uint64_atomic_set(test_bar_release, test_bar_gen, pe);
    }
    shmem_uint64_wait_until(test_bar_release, SHMEM_CMP_GE, test_bar_gen);
}

/* After shmem_init: the barrier words and the shared seed (PE 0's clock, or SHMEM_TEST_SEED). */
static inline void test_init(void) {
    test_bar_arrive = shmem_calloc(3, sizeof(uint64_t));
    CHECK(test_bar_arrive != NULL, "shmem_calloc failed");
    test_bar_release = test_bar_arrive + 1;
    test_seed_word = test_bar_arrive + 2;
    if (shmem_my_pe() == 0) {
        const char *env = getenv("SHMEM_TEST_SEED");
        uint64_t seed = env ? strtoull(env, NULL, 0)
                            : test_mix((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20));
        seed |= 1;
        for (int pe = 0; pe < shmem_n_pes(); pe++)
            shmem_uint64_atomic_set(test_seed_word, seed, pe);
        printf("seed 0x%llx (set SHMEM_TEST_SEED to repeat)\n", (unsigned long long)seed);
    }
    shmem_uint64_wait_until(test_seed_word, SHMEM_CMP_NE, 0);
    test_seed = shmem_uint64_atomic_fetch(test_seed_word, shmem_my_pe());
    test_barrier();
}

static inline void test_fini(void) {
    test_barrier();
    shmem_free(test_bar_arrive);
}

#endif
