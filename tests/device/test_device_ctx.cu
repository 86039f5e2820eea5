/* SPDX-License-Identifier: BSD-3-Clause */
/* Contexts created on the host, used by kernels: the kernel decides from the handle's tag bits
 * and reads a team context's object for its PE translation, so the context objects must be memory
 * the GPU can read. For a BYPASS context, a NOSTORE context, a context of a team and
 * SHMEM_CTX_DEFAULT: a put + quiet + signal_add and a put_signal to the next PE on the context, a
 * wait for both signals, and a check of the payload. The contexts are destroyed and created again
 * (in other slots or generations of the context table). Then the per-thread tracking that lets a
 * BYPASS fence or quiet skip its system fence: the slot states after puts and fences, a second
 * launch, and data ordered by such fences. */
#include <stdint.h>
#include <time.h>

#include "gpu_test.h"

#define CTX_WORDS 64
#define HALF (CTX_WORDS / 2)

static __device__ long ctx_value(int tag, int pe, int i) {
    return (long)tag * 100000 + pe * 1000 + i;
}

/* One thread: the payload to the next PE in two halves, then a wait for the two signals of the
 * previous PE. With BYPASS the wait is the context's (non-acquiring) one and the payload is read
 * with bypass loads; otherwise the acquiring signal_wait_until and plain loads. */
__global__ void ctx_kernel(shmem_ctx_t ctx, int bypass, int tag, long *data, uint64_t *sig,
                           long *errors) {
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    long local[CTX_WORDS];
    for (int i = 0; i < CTX_WORDS; i++)
        local[i] = ctx_value(tag, me, i);
    shmem_ctx_long_put_nbi(ctx, data, local, HALF, next);
    shmem_ctx_quiet(ctx);
    shmem_ctx_signal_add(ctx, sig, 1, next);
    shmem_ctx_long_put_signal(ctx, data + HALF, local + HALF, HALF, sig, 1, SHMEM_SIGNAL_ADD, next);
    shmem_ctx_quiet(ctx);
    long e = 0;
    if (bypass) {
        shmemx_ctx_signal_wait_until(ctx, sig, SHMEM_CMP_EQ, 2);
        for (int i = 0; i < CTX_WORDS; i++)
            e += shmemx_long_ld_bypass(&data[i]) != ctx_value(tag, prev, i);
    } else {
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 2);
        for (int i = 0; i < CTX_WORDS; i++)
            e += data[i] != ctx_value(tag, prev, i);
    }
    *errors = e;
}

static long run_case(shmem_ctx_t ctx, int bypass, int tag) {
    long *data = (long *)gpu_test_zalloc(CTX_WORDS * sizeof(long));
    uint64_t *sig = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    long *errors;
    GPU_CHECK(shmemi_gpu_malloc((void **)&errors, sizeof(long)));
    GPU_CHECK(shmemi_gpu_memset(errors, 0xff, sizeof(long)));
    barrier_on_stream();
    ctx_kernel<<<1, 32>>>(ctx, bypass, tag, data, sig, errors);
    GPU_CHECK(shmemi_gpu_get_last_error());
    GPU_CHECK(shmemi_gpu_device_synchronize());
    long e = -1;
    GPU_CHECK(shmemi_gpu_memcpy(&e, errors, sizeof(long), shmemi_gpu_memcpy_default));
    barrier_on_stream();
    GPU_CHECK(shmemi_gpu_free(errors));
    shmem_free(sig);
    shmem_free(data);
    return e;
}

/* Creates a context with options (on team unless it is SHMEM_TEAM_INVALID), runs one case on it
 * and destroys it. */
static int ctx_test(const char *what, long options, shmem_team_t team, int tag) {
    shmem_ctx_t ctx;
    int failed = team == SHMEM_TEAM_INVALID ? shmem_ctx_create(options, &ctx)
                                            : shmem_team_create_ctx(team, options, &ctx);
    if (failed)
        return gpu_test_report(what, 1);
    long e = run_case(ctx, (options & SHMEMX_CTX_BYPASS) != 0, tag);
    shmem_ctx_destroy(ctx);
    return gpu_test_report(what, e);
}

#define TRACK_BLOCKS 2
#define TRACK_THREADS 64
#define TRACK_ROUNDS 8
#define TRACK_N (TRACK_BLOCKS * TRACK_THREADS)

static __device__ long track_value(uint64_t seed, int round, int pe, int g) {
    uint64_t x = seed + (uint64_t)round * 0x9E3779B97F4A7C15ull +
                 (uint64_t)pe * 0xBF58476D1CE4E5B9ull + (uint64_t)g * 0x94D049BB133111EBull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return (long)(x ^ (x >> 31));
}

/* The calling thread's tracking slot, where there is one (NVIDIA): 1 when it does not hold the
 * thread's own word with the given dirty bit. */
static __device__ int slot_differs(uint64_t dirty) {
#if SHMEMI_DEVICE_TRACK
    shmemi_track_t t = shmemi_dtrack_self();
    return t.slot == NULL || shmemi_ld_relaxed<SHMEMI_SCOPE_DEVICE>(t.slot) != (t.clean | dirty);
#else
    (void)dirty;
    return 0;
#endif
}
/* Launch 1: 1 when the slot no longer holds the clean word that the same thread of launch 0 left
 * (words[g]), or when that word is also this thread's own clean word (the launches must differ).
 * Launch 0: records the word for launch 1. */
static __device__ int slot_across_launches(int launch, uint64_t *words, int g) {
#if SHMEMI_DEVICE_TRACK
    shmemi_track_t t = shmemi_dtrack_self();
    if (launch == 0) {
        words[g] = t.clean;
        return 0;
    }
    uint64_t before = t.slot ? shmemi_ld_relaxed<SHMEMI_SCOPE_DEVICE>(t.slot) : ~0ull;
    return before != words[g] || before == t.clean;
#else
    (void)launch, (void)words, (void)g;
    return 0;
#endif
}

/* Every thread g of the grid: (launch 1) its slot still holds the clean word that thread g of
 * launch 0 left there, which is not its own; then per round a BYPASS p of a random value to the
 * next PE, which leaves the slot {me, dirty}; a BYPASS fence or quiet, which leaves it {me,
 * clean}; a fence and a quiet with nothing outstanding, which leave it so; an AMO flag for the
 * round (the first fence orders the value before it); a wait for the previous PE's flag and a
 * bypass load of its value. Ends with a quiet, which leaves the slot clean. */
__global__ void track_kernel(shmem_ctx_t ctx, int launch, uint64_t seed, long *data,
                             uint64_t *flags, uint64_t *words, unsigned long long *errors) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    unsigned long long e = 0;
    if (launch == 1)
        e += slot_across_launches(launch, words, g);
    for (int r = 1; r <= TRACK_ROUNDS; r++) {
        int k = (launch * TRACK_ROUNDS + r - 1) * TRACK_N + g;
        shmem_ctx_long_p(ctx, &data[k], track_value(seed, r, me, g), next);
        e += slot_differs(1);
        if (r & 1)
            shmem_ctx_fence(ctx);
        else
            shmem_ctx_quiet(ctx);
        e += slot_differs(0);
        shmem_ctx_fence(ctx);
        shmem_ctx_quiet(ctx);
        e += slot_differs(0);
        uint64_t flag = (uint64_t)(launch * TRACK_ROUNDS + r);
        shmem_ctx_uint64_atomic_set(ctx, &flags[g], flag, next);
        e += slot_differs(1);
        shmemx_ctx_signal_wait_until(ctx, &flags[g], SHMEM_CMP_GE, flag);
        e += shmemx_long_ld_bypass(&data[k]) != track_value(seed, r, prev, g);
    }
    shmem_ctx_quiet(ctx);
    e += slot_differs(0);
    if (launch == 0)
        slot_across_launches(launch, words, g);
    if (e)
        atomicAdd(errors, e);
}

/* PE 0's seed, to every PE's word buf. */
__global__ void seed_kernel(uint64_t *buf, uint64_t seed) {
    for (int pe = 0; pe < shmem_n_pes(); pe++)
        shmem_uint64_p(buf, seed, pe);
    shmem_quiet();
}

static int track_test(void) {
    shmem_ctx_t ctx;
    if (shmem_ctx_create(SHMEMX_CTX_BYPASS, &ctx) != 0)
        return gpu_test_report("BYPASS tracking", 1);
    uint64_t *seed_buf = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    if (shmem_my_pe() == 0) {
        seed_kernel<<<1, 1>>>(seed_buf, (uint64_t)time(NULL) * 2654435761u + 1);
        GPU_CHECK(shmemi_gpu_device_synchronize());
    }
    barrier_on_stream();
    uint64_t seed = 0;
    GPU_CHECK(shmemi_gpu_memcpy(&seed, seed_buf, sizeof(seed), shmemi_gpu_memcpy_default));
    long *data = (long *)gpu_test_zalloc(2 * TRACK_ROUNDS * TRACK_N * sizeof(long));
    uint64_t *flags = (uint64_t *)gpu_test_zalloc(TRACK_N * sizeof(uint64_t));
    uint64_t *words;
    unsigned long long *errors;
    GPU_CHECK(shmemi_gpu_malloc((void **)&words, TRACK_N * sizeof(uint64_t)));
    GPU_CHECK(shmemi_gpu_malloc((void **)&errors, sizeof(*errors)));
    GPU_CHECK(shmemi_gpu_memset(errors, 0, sizeof(*errors)));
    barrier_on_stream();
    for (int launch = 0; launch < 2; launch++) {
        track_kernel<<<TRACK_BLOCKS, TRACK_THREADS>>>(ctx, launch, seed, data, flags, words,
                                                      errors);
        GPU_CHECK(shmemi_gpu_get_last_error());
        GPU_CHECK(shmemi_gpu_device_synchronize());
    }
    unsigned long long e = 0;
    GPU_CHECK(shmemi_gpu_memcpy(&e, errors, sizeof(e), shmemi_gpu_memcpy_default));
    barrier_on_stream();
    if (e)
        printf("PE %d: BYPASS tracking failed with seed %llu\n", shmem_my_pe(),
               (unsigned long long)seed);
    GPU_CHECK(shmemi_gpu_free(errors));
    GPU_CHECK(shmemi_gpu_free(words));
    shmem_free(flags);
    shmem_free(data);
    shmem_free(seed_buf);
    shmem_ctx_destroy(ctx);
    return gpu_test_report("BYPASS tracking", (long)e);
}

int main(void) {
    gpu_test_require_gpu();
    shmem_init();
    int fails = 0;
    for (int round = 0; round < 2; round++) {
        int tag = round * 10;
        fails += ctx_test("BYPASS context", SHMEMX_CTX_BYPASS, SHMEM_TEAM_INVALID, tag + 1);
        fails += ctx_test("NOSTORE context", SHMEM_CTX_NOSTORE, SHMEM_TEAM_INVALID, tag + 2);
        fails += ctx_test("BYPASS|PRIVATE context", SHMEMX_CTX_BYPASS | SHMEM_CTX_PRIVATE,
                          SHMEM_TEAM_INVALID, tag + 3);
        fails += ctx_test("context of TEAM_WORLD", SHMEM_CTX_NOSTORE, SHMEM_TEAM_WORLD, tag + 4);
    }
    fails += gpu_test_report("SHMEM_CTX_DEFAULT", run_case(SHMEM_CTX_DEFAULT, 0, 5));
    fails += track_test();
    shmem_finalize();
    return fails ? 1 : 0;
}
