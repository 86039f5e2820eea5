/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks for the multi-PE tests of core: a failed check prints where and ends the job. */
#ifndef CORE_PE_CHECK_H
#define CORE_PE_CHECK_H

#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "PE %d: %s:%d: check failed: %s\n", shmem_my_pe(), __FILE__, __LINE__, \
                    #cond);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Every PE has arrived (shmem_malloc and shmem_free each end in a barrier). */
static inline void sync_pes(void) {
    shmem_free(shmem_malloc(1));
}

#endif
