/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal check macro for the checker's C test programs. */
#ifndef SHMEM_LITMUS_TEST_UTIL_H
#define SHMEM_LITMUS_TEST_UTIL_H

#include <stdio.h>

static int test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

static int test_report(const char *name) {
    if (test_failures)
        fprintf(stderr, "%s: %d checks failed\n", name, test_failures);
    else
        printf("%s: all checks passed\n", name);
    return test_failures ? 1 : 0;
}

#endif
