/* Contexts created on the host, used by kernels: the kernel dereferences the handle (options,
 * team), so the context objects must be memory the GPU can read. For a BYPASS context, a NOSTORE
 * context, a context of a team and SHMEM_CTX_DEFAULT: a put + quiet + signal_add and a put_signal
 * to the next PE on the context, a wait for both signals, and a check of the payload. The
 * contexts are destroyed and created again, so that reused objects are covered too. */
#include <stdint.h>

#include "gpu_test.h"

#define CTX_WORDS 64
#define HALF (CTX_WORDS / 2)

static void barrier_on_stream(void) {
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(gpu_stream_synchronize(0));
}

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
    GPU_CHECK(gpu_malloc((void **)&errors, sizeof(long)));
    GPU_CHECK(gpu_memset(errors, 0xff, sizeof(long)));
    barrier_on_stream();
    ctx_kernel<<<1, 32>>>(ctx, bypass, tag, data, sig, errors);
    GPU_CHECK(gpu_get_last_error());
    GPU_CHECK(gpu_device_synchronize());
    long e = -1;
    GPU_CHECK(gpu_memcpy(&e, errors, sizeof(long), gpu_memcpy_default));
    barrier_on_stream();
    GPU_CHECK(gpu_free(errors));
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
    shmem_finalize();
    return fails ? 1 : 0;
}
