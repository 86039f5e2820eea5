/* SPDX-License-Identifier: BSD-3-Clause */
/* The copy-engine ceiling of the GPU benchmarks: cudaMemcpyPeerAsync from GPU 0 to GPU 1, 1 MiB to
 * 1 GiB, -n copies between two CUDA events, median of -r. Checks the copied bytes first. Prints
 * the same JSON rows as the benchmarks (lib "copy-engine"). Usage: copy_ceiling [-n N] [-r R]. */
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__global__ void fill(unsigned int *p, size_t n, unsigned int seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (unsigned int)(i * 2654435761u) ^ seed | 0x01010101u;
}
__global__ void check(const unsigned int *p, size_t n, unsigned int seed, unsigned long long *bad) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        e += p[i] != ((unsigned int)(i * 2654435761u) ^ seed | 0x01010101u);
    if (e)
        atomicAdd(bad, e);
}

int main(int argc, char **argv) {
    int iters = 20, reps = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n"))
            iters = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
    }
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (ndev < 2) {
        fprintf(stderr, "copy_ceiling needs 2 GPUs\n");
        return 1;
    }
    const size_t max = (size_t)1 << 30;
    void *src, *dst;
    unsigned long long *bad;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&dst, max));
    CHECK(cudaMalloc((void **)&bad, sizeof(*bad)));
    CHECK(cudaMemset(dst, 0, max));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&src, max));
    int can = 0;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
    if (can)
        CHECK(cudaDeviceEnablePeerAccess(1, 0));
    unsigned int seed = 0x5eed1234u;
    fill<<<264, 512>>>((unsigned int *)src, max / 4, seed);
    CHECK(cudaDeviceSynchronize());
    cudaStream_t s;
    cudaEvent_t a, b;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, max, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemset(bad, 0, sizeof(*bad)));
    check<<<264, 512>>>((const unsigned int *)dst, max / 4, seed, bad);
    unsigned long long nbad = 0;
    CHECK(cudaMemcpy(&nbad, bad, sizeof(nbad), cudaMemcpyDeviceToHost));
    CHECK(cudaSetDevice(0));
    if (nbad) {
        fprintf(stderr, "FAIL: peer copy: %llu wrong words\n", nbad);
        return 2;
    }
    for (size_t size = (size_t)1 << 20; size <= max; size *= 4) {
        int n = size >= ((size_t)256 << 20) ? std::max(3, iters / 4) : iters;
        std::vector<double> v;
        for (int r = 0; r < reps + 1; r++) {
            CHECK(cudaEventRecord(a, s));
            for (int i = 0; i < n; i++)
                CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, size, s));
            CHECK(cudaEventRecord(b, s));
            CHECK(cudaEventSynchronize(b));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            if (r > 0)
                v.push_back((double)size * n / (ms * 1e6));
        }
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        double med = sorted.size() % 2
                         ? sorted[sorted.size() / 2]
                         : 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
        printf("# copy_engine %11zu  %10.2f GB/s\n", size, med);
        printf("{\"bench\": \"copy_engine\", \"lib\": \"copy-engine\", \"variant\": "
               "\"cudaMemcpyPeerAsync\", \"ctx\": \"-\", \"size\": %zu, \"unit\": \"GB/s\", "
               "\"median\": %.6g, \"min\": %.6g, \"max\": %.6g, \"iters\": %d, \"validated\": "
               "true}\n",
               size, med, sorted.front(), sorted.back(), n);
    }
    return 0;
}
