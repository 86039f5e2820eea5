/* SPDX-License-Identifier: BSD-3-Clause */
/* shmemrun's binding of PEs to processors, read back by the PEs: argv[1] is "core" (the default)
 * or "none" (SHMEM_BIND=none or --bind-to none). Compared with shmemrun's own affinity (the
 * parent's, which taskset or a cgroup may restrict): bound PEs stay inside it and, when the PEs
 * are no more than its processors, no two PEs share a processor; unbound PEs (mode none, or
 * more PEs than processors) keep all of it. */
#include <sched.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pe_check.h"

static cpu_set_t all[64];

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(argc == 2 && (strcmp(argv[1], "core") == 0 || strcmp(argv[1], "none") == 0));
    CHECK(n <= 64);
    int bind = strcmp(argv[1], "core") == 0;
    cpu_set_t mine, launcher;
    CHECK(sched_getaffinity(0, sizeof(mine), &mine) == 0);
    CHECK(sched_getaffinity(getppid(), sizeof(launcher), &launcher) == 0);
    const char *summary = getenv("SHMEM_JOB_BIND");
    CHECK(summary != NULL);
    shmem_putmem(&all[me], &mine, sizeof(mine), 0);
    shmem_barrier_all();
    cpu_set_t both;
    CPU_AND(&both, &mine, &launcher);
    CHECK(CPU_COUNT(&mine) > 0);
    CHECK(CPU_EQUAL(&both, &mine));
    if (!bind || n > CPU_COUNT(&launcher)) {
        CHECK(CPU_EQUAL(&mine, &launcher));
        CHECK(strncmp(summary, "none", 4) == 0);
    } else {
        CHECK(strncmp(summary, "core", 4) == 0 || strncmp(summary, "hwthread", 8) == 0);
        if (me == 0)
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++) {
                    CPU_AND(&both, &all[a], &all[b]);
                    if (CPU_COUNT(&both) != 0)
                        fprintf(stderr, "PEs %d and %d share a processor (%s)\n", a, b, summary);
                    CHECK(CPU_COUNT(&both) == 0);
                }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("bind %s: %d PEs on %d processors: %s\n", argv[1], n, CPU_COUNT(&launcher), summary);
    shmem_finalize();
    return 0;
}
