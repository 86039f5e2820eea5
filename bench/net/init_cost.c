/* SPDX-License-Identifier: BSD-3-Clause */
/* init_cost: what a job pays to start, per PE: the time of shmem_init, the resident memory and the
 * heap bytes in use (malloc) before and after it, the time and memory of a first operation to
 * every other PE (a network transport connects on first use), and the time of one shmem_malloc
 * with its shmem_free. PE 0 prints one JSON object with the minimum, median and maximum over the
 * PEs. Written against the OpenSHMEM 1.4 API. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <shmem.h>

enum {
    V_INIT_MS,
    V_RSS_BEFORE,
    V_RSS_INIT,
    V_RSS_CONNECTED,
    V_HEAP_INIT,
    V_HEAP_CONNECTED,
    V_CONNECT_MS,
    V_MALLOC_MS,
    N_VALUES
};
static const char *const names[N_VALUES] = {
    "init_ms",         "rss_before_kib",       "rss_init_kib",   "rss_connected_kib",
    "malloc_init_kib", "malloc_connected_kib", "connect_all_ms", "malloc_free_ms"};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* VmRSS of this process in KiB; -1 when /proc cannot tell. */
static double rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtod(line + 6, NULL);
    if (f)
        fclose(f);
    return kib;
}

/* Bytes that malloc has handed out and not taken back (small blocks and mmapped ones), in KiB. */
static double heap_kib(void) {
    struct mallinfo2 mi = mallinfo2();
    return (double)(mi.uordblks + mi.hblkhd) / 1024.0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    double v[N_VALUES];
    v[V_RSS_BEFORE] = rss_kib();
    double heap_before = heap_kib();
    double t0 = now_ms();
    shmem_init();
    v[V_INIT_MS] = now_ms() - t0;
    v[V_RSS_INIT] = rss_kib();
    v[V_HEAP_INIT] = heap_kib() - heap_before;
    int me = shmem_my_pe(), n = shmem_n_pes();

    /* One fetch-add to every other PE, then check that every PE counted n - 1 arrivals. */
    static long arrivals;
    shmem_barrier_all();
    t0 = now_ms();
    for (int i = 1; i < n; i++)
        shmem_long_atomic_fetch_add(&arrivals, 1, (me + i) % n);
    shmem_quiet();
    v[V_CONNECT_MS] = now_ms() - t0;
    shmem_barrier_all();
    if (arrivals != n - 1) {
        fprintf(stderr, "init_cost: PE %d counted %ld arrivals, not %d\n", me, arrivals, n - 1);
        shmem_global_exit(1);
    }
    v[V_RSS_CONNECTED] = rss_kib();
    v[V_HEAP_CONNECTED] = heap_kib() - heap_before;

    /* A collective allocation and its release: each agrees with every PE through the bootstrap. */
    t0 = now_ms();
    void *probe = shmem_malloc(64);
    shmem_free(probe);
    v[V_MALLOC_MS] = now_ms() - t0;

    double *all = shmem_malloc(sizeof(double) * N_VALUES * (size_t)n);
    if (!all || !probe) {
        fprintf(stderr, "init_cost: shmem_malloc failed\n");
        shmem_global_exit(1);
    }
    shmem_putmem(all + (size_t)me * N_VALUES, v, sizeof v, 0);
    shmem_barrier_all();
    if (me == 0) {
        printf("{\"bench\":\"init_cost\",\"npes\":%d", n);
        double *col = malloc(sizeof(double) * (size_t)n);
        for (int k = 0; k < N_VALUES && col; k++) {
            for (int pe = 0; pe < n; pe++)
                col[pe] = all[(size_t)pe * N_VALUES + k];
            qsort(col, (size_t)n, sizeof(double), cmp_double);
            printf(",\"%s\":{\"min\":%.3f,\"median\":%.3f,\"max\":%.3f}", names[k], col[0],
                   col[n / 2], col[n - 1]);
        }
        printf("}\n");
        free(col);
    }
    shmem_barrier_all();
    shmem_free(all);
    shmem_finalize();
    return 0;
}
