/* SPDX-License-Identifier: BSD-3-Clause */
/* Sizes on the command line of the GPU benchmarks, in a header of its own: the driver and
 * nccl_allreduce (which links neither SHMEM library) parse them alike. */
#ifndef BENCH_GPU_BENCH_SIZE_H
#define BENCH_GPU_BENCH_SIZE_H

#include <stdlib.h>

/* Parses "12", "4K", "16M", "1G". */
static inline size_t bench_parse_size(const char *s) {
    char *end;
    double v = strtod(s, &end);
    switch (*end) {
    case 'k':
    case 'K':
        v *= 1024.0;
        break;
    case 'm':
    case 'M':
        v *= 1048576.0;
        break;
    case 'g':
    case 'G':
        v *= 1073741824.0;
        break;
    default:
        break;
    }
    return (size_t)v;
}

#endif
