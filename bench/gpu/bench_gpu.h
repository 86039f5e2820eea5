/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared parts of the GPU benchmarks: options (named like NVSHMEM's perftests), the program
 * registry of the driver, random patterns and their checks on the GPU, a grid barrier, timing
 * with CUDA events and the output (a table and one JSON object per line, on PE 0). */
#ifndef BENCH_GPU_BENCH_GPU_H
#define BENCH_GPU_BENCH_GPU_H

#include <algorithm>
#include <string>
#include <vector>

#include "bench_lib.h"
#include "bench_size.h"

/* ---- options ----------------------------------------------------------------------------------
 */

struct bench_opts {
    size_t min_size = 8;         /* -b */
    size_t max_size = 8;         /* -e */
    size_t step = 2;             /* -f */
    long iters = 1000;           /* -n: iterations inside one timed kernel */
    long warmup = 1;             /* -w: untimed kernels before the timed ones */
    int reps = 7;                /* -r: timed kernels per size: median, min, max over them */
    int blocks = 1;              /* -c */
    int threads = 1;             /* -t */
    int scope = BL_THREAD;       /* -s thread|warp|block */
    bool bidir = false;          /* --bidir */
    std::string ctx = "default"; /* -x default|bypass|all */
    std::string op = "";         /* -a: operation or algorithm, per program */
    size_t budget = 0;           /* -B: bytes per timed kernel; fewer iterations at large sizes */
    int pair[2] = {0, 1};        /* --pair A,B: the PEs of a point-to-point program */
    bool all_pairs = false;      /* --all-pairs: every PE sends to its partner at once */
    int shift = 0;               /* --shift K: the partner is (pe + K) mod npes, else pe ^ 1 */
};

struct bench_program {
    const char *name;
    const char *usage;
    bench_opts defaults;
    int (*run)(const bench_opts &o);
    bool any_npes; /* runs on any number of PEs; else on exactly 2 */
};

/* Registry filled by the programs' static registration objects. */
inline std::vector<bench_program> &bench_registry() {
    static std::vector<bench_program> r;
    return r;
}
struct bench_register {
    bench_register(const char *name, const char *usage, bench_opts d,
                   int (*run)(const bench_opts &), bool any_npes = false) {
        bench_registry().push_back({name, usage, d, run, any_npes});
    }
};

static inline const char *bench_scope_name(int s) {
    return s == BL_BLOCK ? "block" : s == BL_WARP ? "warp" : "thread";
}

/* Sizes b, b*f, ... up to e, and e itself when the steps miss it. */
static inline std::vector<size_t> bench_sizes(const bench_opts &o) {
    std::vector<size_t> v;
    for (size_t s = o.min_size; s <= o.max_size; s *= (o.step > 1 ? o.step : 2))
        v.push_back(s);
    if (v.empty() || v.back() != o.max_size)
        v.push_back(o.max_size);
    return v;
}

/* Iterations of one timed kernel at this size: -n, fewer when -B caps the bytes per kernel. */
static inline long bench_iters_for(const bench_opts &o, size_t size) {
    if (o.budget == 0 || size == 0)
        return o.iters;
    long n = (long)(o.budget / size);
    return std::max(3L, std::min(o.iters, n));
}

/* ---- random patterns (never zero), generated and checked on the GPU ----------------------------
 */

__host__ __device__ __forceinline__ uint32_t bench_hash(uint64_t seed, uint64_t a, uint64_t i) {
    uint64_t x = seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (i * 0xC2B2AE3D27D4EB4Full);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb3f99e3779b9ull;
    x ^= x >> 29;
    return (uint32_t)x;
}
/* A 32-bit word of the pattern with no zero byte. */
__host__ __device__ __forceinline__ uint32_t bench_word(uint64_t seed, uint64_t a, uint64_t i) {
    uint32_t w = bench_hash(seed, a, i);
    uint32_t out = 0;
    for (int b = 0; b < 4; b++) {
        uint32_t byte = (w >> (8 * b)) & 0xffu;
        out |= (byte % 255u + 1u) << (8 * b);
    }
    return out;
}
/* A float of the pattern: in [1, 2) or (-2, -1], never zero; sums of two are exact in float. */
__host__ __device__ __forceinline__ float bench_float(uint64_t seed, uint64_t a, uint64_t i) {
    uint32_t w = bench_hash(seed, a, i);
    uint32_t bits = 0x3f800000u | (w & 0x007ffff0u) | ((w >> 31) << 31);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Host wrappers (bench_common.cu). Sizes are in bytes, multiples of 4. */
void bench_fill(void *p, size_t bytes, uint64_t a);
void bench_poison(void *p, size_t bytes);
/* Number of words of p that differ from pattern a; 0 when the data is right. */
unsigned long long bench_check(const void *p, size_t bytes, uint64_t a);
/* The check kernels' error counter bench.errors: zeroed, and read back after the kernels. */
void bench_errors_clear();
unsigned long long bench_errors_read();

/* ---- grid barrier among the blocks of one kernel (all resident) --------------------------------
 */

/* Blocks count arrivals on *ctr (zeroed before the launch); target = blocks x generation. */
__device__ __forceinline__ void bench_grid_sync(unsigned int *ctr, unsigned int target) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd(ctr, 1u);
        while (*(volatile unsigned int *)ctr < target)
            ;
        __threadfence();
    }
    __syncthreads();
}

/* ---- run-wide state and output ----------------------------------------------------------------
 */

/* The most PEs a job may have (bench_state.xchg holds one double per PE). */
#define BENCH_MAX_PES 64

struct bench_state {
    int me = 0, npes = 0;
    uint64_t seed = 0;
    unsigned int *grid_ctr = nullptr; /* local device memory */
    unsigned long long *errors = nullptr;
    double *xchg = nullptr; /* symmetric: one double per PE */
    cudaEvent_t ev0, ev1;
};
extern bench_state bench;

/* Whether all blocks of a grid can be resident at once (grid barriers need it); says why not. */
bool bench_resident(const void *kernel, int blocks, int threads);

/* Kernels launched with up to 1024 threads per block keep to 64 registers per thread, so that a
 * block of 1024 fits on every SM. */
#define BENCH_BOUNDS __launch_bounds__(1024)

/* Times one launch (issued by launch()) with CUDA events on stream 0; milliseconds. */
template <typename F> static inline float bench_time(F launch) {
    BL_CHECK(cudaEventRecord(bench.ev0, 0));
    launch();
    BL_CHECK(cudaGetLastError());
    BL_CHECK(cudaEventRecord(bench.ev1, 0));
    BL_CHECK(cudaEventSynchronize(bench.ev1));
    float ms = 0;
    BL_CHECK(cudaEventElapsedTime(&ms, bench.ev0, bench.ev1));
    return ms;
}

/* The value v of every PE, gathered on every PE (a p and a quiet in a kernel, then a barrier). */
std::vector<double> bench_allgather(double v);

/* Runs -w untimed then -r timed repetitions, each after a host barrier; rep() returns this PE's
 * value of one repetition. Returns PE 0's value of each timed repetition, on every PE. */
template <typename F> static inline std::vector<double> bench_samples(const bench_opts &o, F rep) {
    std::vector<double> v;
    for (int r = 0; r < o.warmup + o.reps; r++) {
        bl_barrier_host();
        double x = rep();
        if (r >= o.warmup)
            v.push_back(bench_allgather(x)[0]);
    }
    return v;
}

struct bench_stats {
    double median, min, max;
};
static inline bench_stats bench_summary(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return {med, v.front(), v.back()};
}

/* One result row: printed on PE 0 as a table line and as a JSON object. extra is a JSON fragment
 * of further fields (",\"k\": v"), may be empty. */
void bench_report(const char *bench_name, const char *variant, const char *ctx, size_t size,
                  const char *unit, const std::vector<double> &samples, long iters,
                  const bench_opts &o, const std::string &extra);

/* Stops the job when a check failed on any PE. */
void bench_fail_if(unsigned long long errors, const char *what, size_t size);

#endif
