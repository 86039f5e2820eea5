/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives in a kernel (perftests alltoall_latency, fcollect_latency, bcast_latency,
 * reduction_latency), on any number of PEs: one block on each PE runs -n collectives on the world
 * team back to back, as one thread, one warp or the whole block (-s); microseconds per collective,
 * PE 0's time.
 * Sizes as the perftests count them: alltoall and fcollect the bytes of dest (every PE's block),
 * bcast and reduction the bytes of one PE's source. Element type by -a: int32, int64 (default)
 * or all; reduction_latency takes -a OP, TYPE-OP, TYPE or all (OP: sum prod and or xor min max;
 * default sum, both types). Every size is first checked: one collective on known data, then
 * dest compared on every PE. */
#include "bench_gpu.h"

#define C_ALLTOALL 0
#define C_FCOLLECT 1
#define C_BCAST 2
#define C_REDUCE 3

template <int G, typename T, int C, int Op>
__device__ __forceinline__ void coll_call(T *dest, const T *src, size_t nelems) {
    if (C == C_ALLTOALL)
        bl_alltoall<G>(dest, src, nelems);
    else if (C == C_FCOLLECT)
        bl_fcollect<G>(dest, src, nelems);
    else if (C == C_BCAST)
        bl_broadcast<G>(dest, src, nelems, 0);
    else
        bl_reduce<G, Op>(dest, src, nelems);
}

template <int G, typename T, int C, int Op>
__global__ void BENCH_BOUNDS coll_kernel(T *dest, const T *src, size_t nelems, long iters) {
    for (long it = 0; it < iters; it++)
        coll_call<G, T, C, Op>(dest, src, nelems);
}

template <typename T, int C, int Op> static const void *kernel_for(int scope) {
    if (scope == BL_BLOCK)
        return (const void *)coll_kernel<BL_BLOCK, T, C, Op>;
    if (scope == BL_WARP)
        return (const void *)coll_kernel<BL_WARP, T, C, Op>;
    return (const void *)coll_kernel<BL_THREAD, T, C, Op>;
}

/* ---- reduction data: PE p's element i is a small positive value, so no operator overflows ---- */

template <typename T>
__host__ __device__ __forceinline__ T red_value(uint64_t seed, int pe, size_t i) {
    return (T)(bench_hash(seed, 7000 + (uint64_t)pe, i) & 0xff) + 1;
}
template <int Op, typename T> __device__ __forceinline__ T red_apply(T a, T b) {
    switch (Op) {
    case BL_OP_SUM:
        return a + b;
    case BL_OP_PROD:
        return a * b;
    case BL_OP_AND:
        return a & b;
    case BL_OP_OR:
        return a | b;
    case BL_OP_XOR:
        return a ^ b;
    case BL_OP_MIN:
        return b < a ? b : a;
    default:
        return a < b ? b : a;
    }
}
template <typename T> __global__ void red_fill_kernel(T *src, size_t n, uint64_t seed, int me) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        src[i] = red_value<T>(seed, me, i);
}
template <typename T, int Op>
__global__ void red_check_kernel(const T *dest, size_t n, uint64_t seed, int npes,
                                 unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        T acc = red_value<T>(seed, 0, i);
        for (int pe = 1; pe < npes; pe++)
            acc = red_apply<Op>(acc, red_value<T>(seed, pe, i));
        e += dest[i] != acc;
    }
    if (e)
        atomicAdd(errors, e);
}

/* ---- one program: every size of one collective, type, operator and group ----------------------
 */

static const char *op_names[] = {"sum", "prod", "and", "or", "xor", "min", "max"};

template <typename T, int C, int Op>
static int run_one(const bench_opts &o, const char *name, const char *type_name, char *dest,
                   char *src, size_t max_bytes) {
    const int npes = bench.npes;
    const bool blocked = C == C_ALLTOALL || C == C_FCOLLECT; /* size counts npes blocks */
    const size_t unit = sizeof(T) * (blocked ? (size_t)npes : 1);
    const int threads = o.scope == BL_THREAD ? 1 : o.scope == BL_WARP ? 32 : o.threads;
    std::string variant = std::string(type_name) + "-" +
                          (C == C_REDUCE ? std::string(op_names[Op]) + "-" : std::string()) +
                          bench_scope_name(o.scope);
    size_t last = 0;
    for (size_t want : bench_sizes(o)) {
        size_t nelems = std::max((size_t)1, want / unit);
        if (nelems == last || nelems * unit > max_bytes)
            continue;
        last = nelems;
        const size_t size = nelems * unit, block = nelems * sizeof(T);
        auto launch = [&](long iters) {
            void *args[] = {&dest, &src, &nelems, &iters};
            BL_CHECK(cudaLaunchKernel(kernel_for<T, C, Op>(o.scope), dim3(1), dim3(threads), args,
                                      0, 0));
        };
        /* Check: known sources, one collective, dest compared on every PE. */
        const size_t dst_bytes = blocked ? size : block;
        bench_poison(dest, dst_bytes);
        if (C == C_REDUCE) {
            red_fill_kernel<T><<<264, 512>>>((T *)src, nelems, bench.seed, bench.me);
            BL_CHECK(cudaGetLastError());
        } else {
            for (int j = 0; j < (C == C_ALLTOALL ? npes : 1); j++)
                bench_fill(src + (size_t)j * block, block, 3000 + 64 * bench.me + j);
        }
        BL_CHECK(cudaDeviceSynchronize());
        bl_barrier_host();
        launch(1);
        BL_CHECK(cudaDeviceSynchronize());
        bl_barrier_host();
        unsigned long long bad = 0;
        if (C == C_REDUCE) {
            bench_errors_clear();
            red_check_kernel<T, Op>
                <<<264, 512>>>((const T *)dest, nelems, bench.seed, npes, bench.errors);
            BL_CHECK(cudaGetLastError());
            bad = bench_errors_read();
        } else if (C == C_BCAST) {
            bad = bench_check(dest, block, 3000);
        } else {
            for (int j = 0; j < npes; j++)
                bad += bench_check(dest + (size_t)j * block, block,
                                   3000 + 64 * j + (C == C_ALLTOALL ? bench.me : 0));
        }
        bench_fail_if(bad, name, size);
        /* Timed kernels. */
        const long iters = bench_iters_for(o, size);
        std::vector<double> us =
            bench_samples(o, [&] { return bench_time([&] { launch(iters); }) * 1e3 / iters; });
        std::string extra = ",\"type\": \"" + std::string(type_name) +
                            "\", \"nelems\": " + std::to_string(nelems) +
                            ", \"npes\": " + std::to_string(npes);
        if (C == C_REDUCE)
            extra += ",\"op\": \"" + std::string(op_names[Op]) + "\"";
        bench_report(name, variant.c_str(), "default", size, "us", us, iters, o, extra);
    }
    return 0;
}

/* Buffers for the largest size of the program, then every selected type (and operator). */
template <int C> static int run_coll(const bench_opts &o, const char *name) {
    const size_t max_bytes =
        (std::max(bench_sizes(o).back(), (size_t)16 * bench.npes) + 63) & ~(size_t)63;
    char *src = (char *)bl_malloc(max_bytes), *dest = (char *)bl_malloc(max_bytes);
    if (!src || !dest)
        return 1;
    std::string a = o.op.empty() ? "int64" : o.op;
    int rc = 0;
    if (a == "int32" || a == "all")
        rc |= run_one<int32_t, C, 0>(o, name, "int32", dest, src, max_bytes);
    if (a == "int64" || a == "all")
        rc |= run_one<int64_t, C, 0>(o, name, "int64", dest, src, max_bytes);
    if (a != "int32" && a != "int64" && a != "all") {
        if (bench.me == 0)
            fprintf(stderr, "%s: -a %s: int32, int64 or all\n", name, a.c_str());
        rc = 1;
    }
    bl_barrier_host();
    bl_free(dest);
    bl_free(src);
    return rc;
}

/* run_one of the reduction with operator op, a BL_OP_ value (0 to 6, the order of op_names). */
template <typename T>
static int run_reduce_type(const bench_opts &o, const char *type_name, int op, char *dest,
                           char *src, size_t max_bytes) {
    static int (*const run[])(const bench_opts &, const char *, const char *, char *, char *,
                              size_t) = {
        run_one<T, C_REDUCE, BL_OP_SUM>, run_one<T, C_REDUCE, BL_OP_PROD>,
        run_one<T, C_REDUCE, BL_OP_AND>, run_one<T, C_REDUCE, BL_OP_OR>,
        run_one<T, C_REDUCE, BL_OP_XOR>, run_one<T, C_REDUCE, BL_OP_MIN>,
        run_one<T, C_REDUCE, BL_OP_MAX>};
    return run[op](o, "reduction_latency", type_name, dest, src, max_bytes);
}

/* -a items: OP, TYPE-OP, TYPE or all, comma-separated. */
static int run_reduction(const bench_opts &o) {
    const size_t max_bytes = (bench_sizes(o).back() + 63) & ~(size_t)63;
    char *src = (char *)bl_malloc(max_bytes), *dest = (char *)bl_malloc(max_bytes);
    if (!src || !dest)
        return 1;
    std::string list = o.op.empty() ? "sum" : o.op;
    int rc = 0;
    for (size_t start = 0; start <= list.size() && rc == 0;) {
        size_t comma = list.find(',', start);
        std::string item =
            list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? list.size() + 1 : comma + 1;
        std::string type = "", op = item;
        if (item.compare(0, 6, "int32-") == 0 || item.compare(0, 6, "int64-") == 0) {
            type = item.substr(0, 5);
            op = item.substr(6);
        } else if (item == "int32" || item == "int64") {
            type = item;
            op = "all";
        } else if (item == "all") {
            op = "all";
        }
        bool known = false;
        for (int k = 0; k < 7; k++) {
            if (op != "all" && op != op_names[k])
                continue;
            known = true;
            if (type != "int64")
                rc |= run_reduce_type<int32_t>(o, "int32", k, dest, src, max_bytes);
            if (type != "int32")
                rc |= run_reduce_type<int64_t>(o, "int64", k, dest, src, max_bytes);
        }
        if (!known) {
            if (bench.me == 0)
                fprintf(stderr, "reduction_latency: -a %s: OP, TYPE-OP, TYPE or all\n",
                        item.c_str());
            rc = 1;
        }
    }
    bl_barrier_host();
    bl_free(dest);
    bl_free(src);
    return rc;
}

static int run_alltoall(const bench_opts &o) {
    return run_coll<C_ALLTOALL>(o, "alltoall_latency");
}
static int run_fcollect(const bench_opts &o) {
    return run_coll<C_FCOLLECT>(o, "fcollect_latency");
}
static int run_bcast(const bench_opts &o) {
    return run_coll<C_BCAST>(o, "bcast_latency");
}

static bench_opts coll_defaults() {
    bench_opts d;
    d.min_size = 16;
    d.max_size = 1 << 20;
    d.step = 4;
    d.iters = 200;
    d.warmup = 1;
    d.reps = 7;
    d.threads = 1024;
    d.scope = BL_BLOCK;
    d.budget = (size_t)256 << 20;
    return d;
}

static bench_register reg_alltoall("alltoall_latency",
                                   "alltoall of the world team in a kernel, us (size: dest bytes)",
                                   coll_defaults(), run_alltoall, true);
static bench_register reg_fcollect("fcollect_latency",
                                   "fcollect of the world team in a kernel, us (size: dest bytes)",
                                   coll_defaults(), run_fcollect, true);
static bench_register reg_bcast("bcast_latency",
                                "broadcast from PE 0 in a kernel, us (size: bytes per PE)",
                                coll_defaults(), run_bcast, true);
static bench_register reg_reduction("reduction_latency",
                                    "reduction of the world team in a kernel, us (size: bytes "
                                    "per PE)",
                                    coll_defaults(), run_reduction, true);
