/* SPDX-License-Identifier: BSD-3-Clause */
/* Device-side latencies and put bandwidth between two PEs (run by scripts/gpu-check, not by ctest):
 * p ping-pong, put-with-signal ping-pong on the default and on a BYPASS context, fence/quiet with
 * nothing outstanding, a remote fetch-add, barrier_all, and putmem_nbi_block + quiet bandwidth.
 * Times come from %globaltimer inside the kernels; each figure is the median of 5 launches. */
#include <algorithm>
#include <vector>

#include "gpu_test.h"

#define ITERS 2000

__device__ uint64_t now_ns() {
#if SHMEMI_DEVICE_PASS
    return shmemi_clock_ns();
#else
    return 0;
#endif
}

/* kind: 0 p ping-pong, 1 put_signal default, 2 put_signal BYPASS, 3 quiet default, 4 quiet BYPASS,
 * 5 fence default, 6 fence BYPASS, 7 fetch_add, 8 barrier_all. Result: ns per operation (per half
 * round trip for ping-pongs). */
__global__ void latency_kernel(int kind, uint64_t *flag, uint64_t *buf, shmem_ctx_t bypass,
                               double *result) {
    int me = shmem_my_pe(), peer = 1 - me;
    uint64_t t0 = now_ns();
    for (int i = 1; i <= ITERS; i++) {
        switch (kind) {
        case 0:
            if (me == 0) {
                shmem_uint64_p(flag, i, peer);
                shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, i);
            } else {
                shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, i);
                shmem_uint64_p(flag, i, peer);
            }
            break;
        case 1:
        case 2: {
            shmem_ctx_t ctx = kind == 2 ? bypass : SHMEM_CTX_DEFAULT;
            if (me == 0) {
                shmem_ctx_putmem_signal_nbi(ctx, buf, buf + 1, 8, flag, i, SHMEM_SIGNAL_SET, peer);
                shmemx_ctx_signal_wait_until(ctx, flag, SHMEM_CMP_EQ, i);
            } else {
                shmemx_ctx_signal_wait_until(ctx, flag, SHMEM_CMP_EQ, i);
                shmem_ctx_putmem_signal_nbi(ctx, buf, buf + 1, 8, flag, i, SHMEM_SIGNAL_SET, peer);
            }
            break;
        }
        case 3:
            shmem_quiet();
            break;
        case 4:
            shmem_ctx_quiet(bypass);
            break;
        case 5:
            shmem_fence();
            break;
        case 6:
            shmem_ctx_fence(bypass);
            break;
        case 7:
            shmem_uint64_atomic_fetch_add(buf + 2, 1, peer);
            break;
        default:
            shmem_barrier_all();
            break;
        }
    }
    *result = (double)(now_ns() - t0) / ITERS / (kind <= 2 ? 2.0 : 1.0);
}

__global__ void bandwidth_kernel(char *dst, const char *src, size_t bytes, int peer, uint64_t *t) {
    size_t chunk = bytes / gridDim.x;
    shmemx_putmem_nbi_block(dst + blockIdx.x * chunk, src + blockIdx.x * chunk, chunk, peer);
    shmemx_quiet_block();
    if (threadIdx.x == 0)
        t[blockIdx.x] = now_ns();
}

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(void) {
    gpu_test_require_gpu();
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        if (me == 0)
            printf("device_latency needs exactly 2 PEs\n");
        shmem_finalize();
        return 1;
    }
    uint64_t *flag = (uint64_t *)gpu_test_zalloc(sizeof(uint64_t));
    uint64_t *buf = (uint64_t *)gpu_test_zalloc(64);
    double *result;
    GPU_CHECK(shmemi_gpu_malloc((void **)&result, sizeof(double)));
    shmem_ctx_t bypass;
    if (shmem_ctx_create(SHMEMX_CTX_BYPASS, &bypass) != 0) {
        printf("device_latency: cannot create a BYPASS context\n");
        return 1;
    }
    barrier_on_stream();

    static const char *names[] = {"p ping-pong (half RTT)",
                                  "put_signal 8 B ping-pong, default (half RTT)",
                                  "put_signal 8 B ping-pong, BYPASS (half RTT)",
                                  "quiet, nothing outstanding, default",
                                  "quiet, nothing outstanding, BYPASS",
                                  "fence, nothing outstanding, default",
                                  "fence, nothing outstanding, BYPASS",
                                  "atomic_fetch_add to the peer",
                                  "barrier_all (1 thread)"};
    if (me == 0)
        printf("%-48s %10s\n", "operation", "ns");
    for (int kind = 0; kind < 9; kind++) {
        std::vector<double> v;
        for (int rep = 0; rep < 5; rep++) {
            GPU_CHECK(shmemi_gpu_memset(flag, 0, sizeof(uint64_t)));
            barrier_on_stream();
            latency_kernel<<<1, 1>>>(kind, flag, buf, bypass, result);
            GPU_CHECK(shmemi_gpu_device_synchronize());
            double r;
            GPU_CHECK(shmemi_gpu_memcpy(&r, result, sizeof(r), shmemi_gpu_memcpy_default));
            v.push_back(r);
            barrier_on_stream();
        }
        if (me == 0)
            printf("%-48s %10.1f\n", names[kind], median(v));
    }

    size_t max = (size_t)256 << 20;
    char *src = (char *)gpu_test_zalloc(max), *dst = (char *)gpu_test_zalloc(max);
    uint64_t *t;
    GPU_CHECK(shmemi_gpu_malloc((void **)&t, 1024 * sizeof(uint64_t)));
    if (me == 0)
        printf("%-48s %10s\n", "putmem_nbi_block + quiet_block, 1024 threads", "GB/s");
    size_t sizes[] = {(size_t)1 << 20, (size_t)16 << 20, (size_t)256 << 20};
    int grids[] = {16, 32, 64, 132};
    for (size_t s = 0; s < 3; s++)
        for (int g = 0; g < 4; g++) {
            std::vector<double> v;
            for (int rep = 0; rep < 5; rep++) {
                barrier_on_stream();
                shmemi_gpu_event_t a, b;
                GPU_CHECK(cudaEventCreate(&a));
                GPU_CHECK(cudaEventCreate(&b));
                GPU_CHECK(cudaEventRecord(a, 0));
                if (me == 0)
                    bandwidth_kernel<<<grids[g], 1024>>>(dst, src, sizes[s], 1, t);
                GPU_CHECK(cudaEventRecord(b, 0));
                GPU_CHECK(cudaEventSynchronize(b));
                float ms = 0;
                GPU_CHECK(cudaEventElapsedTime(&ms, a, b));
                v.push_back(sizes[s] / (ms * 1e-3) / 1e9);
                GPU_CHECK(cudaEventDestroy(a));
                GPU_CHECK(cudaEventDestroy(b));
            }
            if (me == 0) {
                char label[96];
                snprintf(label, sizeof(label), "  %zu MiB, %d blocks", sizes[s] >> 20, grids[g]);
                printf("%-48s %10.1f\n", label, median(v));
            }
        }
    barrier_on_stream();
    shmem_ctx_destroy(bypass);
    shmem_finalize();
    return 0;
}
