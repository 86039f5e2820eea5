/* SPDX-License-Identifier: BSD-3-Clause */
/* Processor sets in text, for shmemrun (which binds PEs) and SHMEM_INFO (which says where a PE
 * runs). Internal header; needs _GNU_SOURCE. */
#ifndef SHMEMI_CPUSET_H
#define SHMEMI_CPUSET_H

#include <sched.h>
#include <stdio.h>
#include <string.h>

/* Appends the processors of set as a list of ranges ("0-3,8") to the string out. */
static inline void shmemi_format_cpus(const cpu_set_t *set, char *out, size_t size) {
    size_t used = strlen(out);
    int first = 1;
    for (int c = 0; c < CPU_SETSIZE && used < size; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int end = c;
        while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
            end++;
        int n = end > c ? snprintf(out + used, size - used, "%s%d-%d", first ? "" : ",", c, end)
                        : snprintf(out + used, size - used, "%s%d", first ? "" : ",", c);
        used += n > 0 ? (size_t)n : 0;
        first = 0;
        c = end;
    }
}

#endif
