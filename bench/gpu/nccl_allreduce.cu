/* SPDX-License-Identifier: BSD-3-Clause */
/* NCCL's all-reduce (float32 sum) on 2 GPUs, for comparison with bench/gpu's allreduce: one
 * process, one thread and one communicator rank per GPU. For each size: checks the result
 * against the sum of both random inputs, then times -n all-reduces per replay of a captured CUDA
 * graph (eager calls if capture fails), median of -r replays. Prints a table line and a JSON row
 * (lib "nccl") per size, as the GPU benchmarks do.
 * Usage: nccl_allreduce [-b 8] [-e 256M] [-f 4] [-n 200] [-r 5] [-B 512M] */
#include <cuda_runtime.h>
#include <nccl.h>
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_size.h"

#define NRANKS 2

#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "nccl_allreduce: %s: %s\n", #call, cudaGetErrorString(e_));            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define NCCL_OK(call)                                                                              \
    do {                                                                                           \
        ncclResult_t r_ = (call);                                                                  \
        if (r_ != ncclSuccess) {                                                                   \
            fprintf(stderr, "nccl_allreduce: %s: %s\n", #call, ncclGetErrorString(r_));            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct options {
    size_t b = 8, e = 256u << 20, big = 512u << 20;
    int f = 4, n = 200, r = 5;
};

static pthread_barrier_t threads_meet;

/* Input word i of rank r: a deterministic pseudo-random float in [1, 2). */
static float input(int r, size_t i) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)(7000 + r) * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    return 1.0f + (float)(x >> 40) / (float)(1ull << 24);
}

struct result {
    size_t size;
    std::string mode;
    std::vector<double> us;
    long iters;
};

static void rank_main(int rank, ncclUniqueId id, const options &o, std::vector<result> *out,
                      int *failed) {
    CUDA_OK(cudaSetDevice(rank));
    ncclComm_t comm;
    NCCL_OK(ncclCommInitRank(&comm, NRANKS, id, rank));
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float *buf = nullptr;
    CUDA_OK(cudaMalloc(&buf, o.e));
    std::vector<float> host(o.e / sizeof(float));
    std::vector<size_t> sizes;
    for (size_t size = o.b; size <= o.e; size *= (size_t)o.f)
        sizes.push_back(size);
    if (sizes.empty() || sizes.back() != o.e)
        sizes.push_back(o.e);
    for (size_t size : sizes) {
        size_t n = size / sizeof(float);
        if (n == 0)
            continue;
        for (size_t i = 0; i < n; i++)
            host[i] = input(rank, i);
        CUDA_OK(cudaMemcpy(buf, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        NCCL_OK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s));
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(host.data(), buf, n * sizeof(float), cudaMemcpyDeviceToHost));
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += host[i] != input(0, i) + input(1, i);
        if (bad) {
            fprintf(stderr, "FAIL: nccl allreduce at %zu bytes: %zu wrong words on rank %d\n", size,
                    bad, rank);
            *failed = 1;
        }
        long iters = (long)std::max<size_t>(3, std::min<size_t>((size_t)o.n, o.big / size));
        result res{size, "nccl-graph", {}, iters};
        cudaGraph_t graph = nullptr;
        cudaGraphExec_t exec = nullptr;
        pthread_barrier_wait(&threads_meet);
        if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
            for (long i = 0; i < iters; i++)
                NCCL_OK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s));
            if (cudaStreamEndCapture(s, &graph) != cudaSuccess ||
                cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
                exec = nullptr;
        }
        (void)cudaGetLastError();
        if (!exec)
            res.mode = "nccl-eager";
        cudaEvent_t a, b;
        CUDA_OK(cudaEventCreate(&a));
        CUDA_OK(cudaEventCreate(&b));
        for (int r = 0; r <= o.r; r++) {
            pthread_barrier_wait(&threads_meet);
            CUDA_OK(cudaEventRecord(a, s));
            if (exec)
                CUDA_OK(cudaGraphLaunch(exec, s));
            else
                for (long i = 0; i < iters; i++)
                    NCCL_OK(ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s));
            CUDA_OK(cudaEventRecord(b, s));
            CUDA_OK(cudaEventSynchronize(b));
            float ms = 0;
            CUDA_OK(cudaEventElapsedTime(&ms, a, b));
            if (r > 0)
                res.us.push_back(ms * 1e3 / (double)iters);
        }
        CUDA_OK(cudaEventDestroy(a));
        CUDA_OK(cudaEventDestroy(b));
        if (exec) {
            CUDA_OK(cudaGraphExecDestroy(exec));
            CUDA_OK(cudaGraphDestroy(graph));
        }
        out->push_back(res);
    }
    CUDA_OK(cudaFree(buf));
    CUDA_OK(cudaStreamDestroy(s));
    NCCL_OK(ncclCommDestroy(comm));
}

int main(int argc, char **argv) {
    options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        if (k == "-b")
            o.b = bench_parse_size(argv[i + 1]);
        else if (k == "-e")
            o.e = bench_parse_size(argv[i + 1]);
        else if (k == "-f")
            o.f = atoi(argv[i + 1]);
        else if (k == "-n")
            o.n = atoi(argv[i + 1]);
        else if (k == "-r")
            o.r = atoi(argv[i + 1]);
        else if (k == "-B")
            o.big = bench_parse_size(argv[i + 1]);
        else {
            fprintf(stderr, "nccl_allreduce: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (o.b == 0 || o.f < 2 || o.r < 1 || o.n < 1) {
        fprintf(stderr, "nccl_allreduce: need -b > 0, -f >= 2, -n >= 1, -r >= 1\n");
        return 2;
    }
    int devices = 0;
    CUDA_OK(cudaGetDeviceCount(&devices));
    if (devices < NRANKS) {
        fprintf(stderr, "nccl_allreduce: needs %d GPUs, found %d\n", NRANKS, devices);
        return 1;
    }
    ncclUniqueId id;
    NCCL_OK(ncclGetUniqueId(&id));
    pthread_barrier_init(&threads_meet, nullptr, NRANKS);
    std::vector<result> results[NRANKS];
    int failed[NRANKS] = {0, 0};
    std::vector<std::thread> threads;
    for (int r = 0; r < NRANKS; r++)
        threads.emplace_back(rank_main, r, id, std::cref(o), &results[r], &failed[r]);
    for (auto &t : threads)
        t.join();
    if (failed[0] || failed[1])
        return 1;
    for (size_t k = 0; k < results[0].size(); k++) {
        result &res = results[0][k];
        std::vector<double> v = res.us;
        std::sort(v.begin(), v.end());
        double med = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
        printf("# allreduce %-12s %11zu  %10.2f us\n", res.mode.c_str(), res.size, med);
        printf("{\"bench\": \"allreduce\", \"lib\": \"nccl\", \"variant\": \"%s\", \"ctx\": \"-\", "
               "\"size\": %zu, \"unit\": \"us\", \"median\": %.4f, \"min\": %.4f, \"max\": %.4f, "
               "\"samples\": [",
               res.mode.c_str(), res.size, med, v.front(), v.back());
        for (size_t i = 0; i < res.us.size(); i++)
            printf("%s%.4f", i ? ", " : "", res.us[i]);
        printf("], \"iters\": %ld, \"validated\": true, \"algbw_GBps\": %.4f}\n", res.iters,
               (double)res.size / (med * 1e3));
    }
    return 0;
}
