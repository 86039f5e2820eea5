/* SPDX-License-Identifier: BSD-3-Clause */
/* SHMEM_THREAD_MULTIPLE: several threads per PE create and destroy contexts concurrently and
 * issue puts (some large, through BYPASS contexts) and AMOs at the same time. Each thread writes
 * its own region; the counters are only touched atomically. Runs clean under ThreadSanitizer. */
#include <pthread.h>
#include <string.h>

#include "host_test.h"

#define THREADS 4
#define ROUNDS 50
#define REGION 6144

static unsigned char *data;
static long *counters;

static void *worker(void *arg) {
    int t = (int)(intptr_t)arg;
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    unsigned char *src = malloc(REGION);
    if (src == NULL)
        return (void *)1;
    for (int r = 0; r < ROUNDS; r++) {
        shmem_ctx_t ctx;
        long options = (r % 2 ? SHMEMX_CTX_BYPASS : 0) | (r % 3 ? SHMEM_CTX_PRIVATE : 0);
        if (shmem_ctx_create(options, &ctx) != 0) {
            free(src);
            return (void *)1;
        }
        size_t len = (size_t)(r % 5) * 1500 + 1;
        for (size_t i = 0; i < len; i++)
            src[i] = (unsigned char)test_val(me * THREADS + t, i, r);
        shmem_ctx_putmem_nbi(ctx, data + (size_t)t * REGION, src, len, right);
        for (int pe = 0; pe < n; pe++) {
            shmem_ctx_long_atomic_inc(ctx, &counters[0], pe);
            shmem_long_atomic_fetch_add(&counters[1 + t], r, pe);
        }
        shmem_ctx_quiet(ctx);
        shmem_ctx_destroy(ctx);
    }
    free(src);
    return NULL;
}

int main(void) {
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided thread level %d", provided);
    test_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), left = (me + n - 1) % n;
    data = shmem_malloc(THREADS * REGION);
    counters = shmem_calloc(1 + THREADS, sizeof(long));
    CHECK(data && counters, "shmem_malloc");
    test_barrier();
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < THREADS; t++) {
        void *rc;
        pthread_join(th[t], &rc);
        CHECK(rc == NULL, "thread %d failed", t);
    }
    test_barrier();
    CHECK(shmem_long_atomic_fetch(&counters[0], me) == (long)n * THREADS * ROUNDS, "inc total %ld",
          counters[0]);
    for (int t = 0; t < THREADS; t++) {
        CHECK(counters[1 + t] == (long)n * ROUNDS * (ROUNDS - 1) / 2, "thread %d adds", t);
        int r = ROUNDS - 1;
        size_t len = (size_t)(r % 5) * 1500 + 1;
        for (size_t i = 0; i < len; i++)
            CHECK(data[(size_t)t * REGION + i] == (unsigned char)test_val(left * THREADS + t, i, r),
                  "thread %d byte %zu", t, i);
    }
    if (me == 0)
        printf("threads: %d PEs x %d threads ok\n", n, THREADS);
    test_fini();
    shmem_finalize();
    return 0;
}
