/* SPDX-License-Identifier: BSD-3-Clause */
/* Code shared by the point-to-point benchmarks: options, timing, random patterns, statistics
 * and output. Written against the OpenSHMEM 1.4 API only, so that every program builds with any
 * implementation's compiler wrapper (oshcc) and the same algorithm is measured for each. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

#ifndef SHMEM_MAX_NAME_LEN
#define SHMEM_MAX_NAME_LEN 256
#endif

typedef struct {
    size_t min_size;  /* -b */
    size_t max_size;  /* -e */
    size_t step;      /* -f: multiplicative step between sizes */
    long iters;       /* -n: timed iterations per repetition */
    long warmup;      /* -w: untimed iterations before each repetition */
    int reps;         /* -r: timed repetitions per size (median, min, max over them) */
    long window;      /* -W: operations per batch before a quiet (bandwidth programs) */
    const char *mode; /* -m: oneway, pingpong or all (latency programs) */
} bench_opts_t;

typedef struct {
    const char *name;      /* program name, as in the JSON "bench" field */
    const char *usage;     /* one line on what it measures */
    bench_opts_t defaults; /* per-program defaults */
    int has_sizes;         /* whether -b/-e/-f mean anything */
    int has_mode;          /* whether -m means anything */
    int has_window;        /* whether -W means anything */
} bench_desc_t;

static int bench_me, bench_npes;
static uint64_t bench_seed; /* the same on every PE after bench_init */
static char bench_lib[SHMEM_MAX_NAME_LEN];

static inline double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* xorshift64*: never returns 0 from a nonzero state. */
static inline uint64_t bench_rand_next(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 2685821657736338717ULL;
}

static inline uint64_t bench_rand_state(uint64_t a, uint64_t b) {
    uint64_t s = bench_seed ^ (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL);
    return s ? s : 0x1234567ULL;
}

/* Fills buf with bytes in 1..255 derived from (seed, a, b): never zero, different per key. */
static inline void bench_pattern_fill(void *buf, size_t n, uint64_t a, uint64_t b) {
    uint64_t st = bench_rand_state(a, b);
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(bench_rand_next(&st) % 255u + 1u);
}

/* Returns the index of the first byte that differs from the pattern, or -1. */
static inline long bench_pattern_check(const void *buf, size_t n, uint64_t a, uint64_t b) {
    uint64_t st = bench_rand_state(a, b);
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(bench_rand_next(&st) % 255u + 1u))
            return (long)i;
    return -1;
}

static inline void bench_fail(const char *what, size_t size, long detail) {
    fprintf(stderr, "%s: PE %d: validation failed: %s (size %zu, detail %ld)\n", bench_lib,
            bench_me, what, size, detail);
    fflush(stderr);
    shmem_global_exit(1);
}

static inline int bench_parse_size(const char *s, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    switch (*end) {
    case 'k':
    case 'K':
        v <<= 10;
        end++;
        break;
    case 'm':
    case 'M':
        v <<= 20;
        end++;
        break;
    case 'g':
    case 'G':
        v <<= 30;
        end++;
        break;
    default:
        break;
    }
    if (*end != '\0')
        return -1;
    *out = (size_t)v;
    return 0;
}

static inline void bench_usage(const bench_desc_t *d, FILE *f) {
    const bench_opts_t *o = &d->defaults;
    fprintf(f, "usage: %s [options]   (run with 2 PEs)\n  %s\n", d->name, d->usage);
    if (d->has_sizes)
        fprintf(f,
                "  -b SIZE  smallest message size in bytes, K/M/G suffixes (default %zu)\n"
                "  -e SIZE  largest message size (default %zu)\n"
                "  -f N     step factor between sizes (default %zu)\n",
                o->min_size, o->max_size, o->step);
    fprintf(f,
            "  -n N     timed iterations per repetition (default %ld%s)\n"
            "  -w N     warm-up iterations before each repetition (default %ld)\n"
            "  -r N     repetitions per size; median, min and max are over them (default %d)\n",
            o->iters, d->has_window ? ", fewer for large sizes" : "", o->warmup, o->reps);
    if (d->has_window)
        fprintf(f, "  -W N     operations per batch, each batch ends with a quiet (default %ld)\n",
                o->window);
    if (d->has_mode)
        fprintf(f, "  -m MODE  oneway, pingpong or all (default %s)\n", o->mode);
    fprintf(f, "  -h       this help\n");
}

/* Parses the options, starts the library and agrees on one random seed. Exits on bad options. */
static inline void bench_init(const bench_desc_t *d, int argc, char **argv, bench_opts_t *o) {
    *o = d->defaults;
    int c, bad = 0;
    while ((c = getopt(argc, argv, "b:e:f:n:w:r:W:m:h")) != -1) {
        switch (c) {
        case 'b':
            bad |= bench_parse_size(optarg, &o->min_size);
            break;
        case 'e':
            bad |= bench_parse_size(optarg, &o->max_size);
            break;
        case 'f':
            bad |= bench_parse_size(optarg, &o->step);
            break;
        case 'n':
            o->iters = atol(optarg);
            break;
        case 'w':
            o->warmup = atol(optarg);
            break;
        case 'r':
            o->reps = atoi(optarg);
            break;
        case 'W':
            o->window = atol(optarg);
            break;
        case 'm':
            o->mode = optarg;
            break;
        case 'h':
            bench_usage(d, stdout);
            exit(0);
        default:
            bad = 1;
        }
    }
    if (o->min_size < 1 || o->max_size < o->min_size || o->step < 2 || o->iters < 1 ||
        o->warmup < 0 || o->reps < 1 || o->window < 1 ||
        (strcmp(o->mode, "oneway") && strcmp(o->mode, "pingpong") && strcmp(o->mode, "all")))
        bad = 1;
    if (bad || optind != argc) {
        bench_usage(d, stderr);
        exit(2);
    }

    shmem_init();
    bench_me = shmem_my_pe();
    bench_npes = shmem_n_pes();
    shmem_info_get_name(bench_lib);
    if (bench_npes < 2) {
        if (bench_me == 0)
            fprintf(stderr, "%s: needs at least 2 PEs (PEs above 1 stay idle)\n", d->name);
        shmem_finalize();
        exit(2);
    }

    uint64_t *seed = shmem_malloc(sizeof(uint64_t));
    if (bench_me == 0) {
        uint64_t s = (uint64_t)bench_now_ns() ^ ((uint64_t)getpid() << 32);
        *seed = s ? s : 1;
        for (int pe = 1; pe < bench_npes; pe++)
            shmem_putmem(seed, seed, sizeof(uint64_t), pe);
    }
    shmem_barrier_all();
    bench_seed = *seed;
    shmem_barrier_all();
    shmem_free(seed);
}

/* Operations per repetition for the bandwidth programs: -n, fewer for large sizes (about 64 MiB
 * per repetition), at least 8. */
static inline long bench_ops_per_rep(const bench_opts_t *o, size_t size) {
    long n = (long)((64u << 20) / size);
    n = n < 8 ? 8 : n;
    return n < o->iters ? n : o->iters;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline int bench_mode_on(const bench_opts_t *o, const char *mode) {
    return !strcmp(o->mode, "all") || !strcmp(o->mode, mode);
}

/* Prints one result row and its JSON line (PE 0 only). vals holds one value per repetition. */
static inline void bench_report(const char *bench, const char *op, const char *mode, size_t size,
                                long iters, long warmup, int reps, const char *unit, double *vals) {
    static char last_block[128];
    char block[128];
    if (bench_me != 0)
        return;
    qsort(vals, (size_t)reps, sizeof(double), bench_cmp_double);
    double med = reps % 2 ? vals[reps / 2] : 0.5 * (vals[reps / 2 - 1] + vals[reps / 2]);
    snprintf(block, sizeof block, "%s/%s/%s", bench, op, mode);
    if (strcmp(block, last_block)) {
        snprintf(last_block, sizeof last_block, "%s", block);
        printf("# %s  op=%s  mode=%s  library=%s  npes=%d\n", bench, op, mode, bench_lib,
               bench_npes);
        printf("# %10s %10s %12s %12s %12s  (%s)\n", "size", "iters", "median", "min", "max", unit);
    }
    printf("  %10zu %10ld %12.3f %12.3f %12.3f\n", size, iters, med, vals[0], vals[reps - 1]);
    printf("{\"bench\":\"%s\",\"op\":\"%s\",\"mode\":\"%s\",\"library\":\"%s\",\"npes\":%d,"
           "\"size\":%zu,\"iters\":%ld,\"warmup\":%ld,\"reps\":%d,\"unit\":\"%s\","
           "\"median\":%.6g,\"min\":%.6g,\"max\":%.6g,\"validated\":true}\n",
           bench, op, mode, bench_lib, bench_npes, size, iters, warmup, reps, unit, med, vals[0],
           vals[reps - 1]);
    fflush(stdout);
}

#endif
