/* SPDX-License-Identifier: BSD-3-Clause */
/* The driver of the GPU benchmarks and their shared helpers. One binary holds every program:
 *   gpubench PROGRAM [options] [: PROGRAM [options] ...]
 * runs the programs one after the other in one job (one library start-up), and a link named after
 * a program (put_bw -> gpubench) runs that program alone, like NVSHMEM's perftests. */
#include <time.h>

#include "bench_gpu.h"

bench_state bench;

__global__ void bench_fill_kernel(uint32_t *p, size_t nwords, uint64_t seed, uint64_t a) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nwords;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = bench_word(seed, a, i);
}
__global__ void bench_poison_kernel(uint32_t *p, size_t nwords, uint32_t value) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nwords;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = value;
}
__global__ void bench_check_kernel(const uint32_t *p, size_t nwords, uint64_t seed, uint64_t a,
                                   unsigned long long *errors) {
    unsigned long long e = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nwords;
         i += (size_t)gridDim.x * blockDim.x)
        e += p[i] != bench_word(seed, a, i);
    if (e)
        atomicAdd(errors, e);
}

void bench_fill(void *p, size_t bytes, uint64_t a) {
    bench_fill_kernel<<<264, 512>>>((uint32_t *)p, bytes / 4, bench.seed, a);
    BL_CHECK(cudaGetLastError());
    BL_CHECK(cudaDeviceSynchronize());
}
/* Poison: a word that no pattern produces (it has zero bytes). */
void bench_poison(void *p, size_t bytes) {
    bench_poison_kernel<<<264, 512>>>((uint32_t *)p, bytes / 4, 0xdead0000u);
    BL_CHECK(cudaGetLastError());
    BL_CHECK(cudaDeviceSynchronize());
}
void bench_errors_clear() {
    BL_CHECK(cudaMemset(bench.errors, 0, sizeof(unsigned long long)));
}
unsigned long long bench_errors_read() {
    unsigned long long e = 0;
    BL_CHECK(cudaMemcpy(&e, bench.errors, sizeof(e), cudaMemcpyDeviceToHost));
    return e;
}
unsigned long long bench_check(const void *p, size_t bytes, uint64_t a) {
    bench_errors_clear();
    bench_check_kernel<<<264, 512>>>((const uint32_t *)p, bytes / 4, bench.seed, a, bench.errors);
    BL_CHECK(cudaGetLastError());
    return bench_errors_read();
}

bool bench_resident(const void *kernel, int blocks, int threads) {
    int dev = 0, sms = 0, per_sm = 0;
    BL_CHECK(cudaGetDevice(&dev));
    BL_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BL_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    if ((long)blocks > (long)per_sm * sms) {
        if (bench.me == 0)
            fprintf(stderr,
                    "skipped: %d blocks of %d threads cannot all be resident (%d per SM x "
                    "%d SMs)\n",
                    blocks, threads, per_sm, sms);
        return false;
    }
    return true;
}

__global__ void bench_put_double_kernel(double *slot, double v, int me, int npes) {
    double x = v;
    for (int pe = 0; pe < npes; pe++)
        bl_putmem_nbi<BL_THREAD>(BL_CTX_DEFAULT, slot + me, &x, sizeof(double), pe);
    bl_quiet<BL_THREAD>(BL_CTX_DEFAULT);
}

std::vector<double> bench_allgather(double v) {
    bl_barrier_host();
    bench_put_double_kernel<<<1, 1>>>(bench.xchg, v, bench.me, bench.npes);
    BL_CHECK(cudaGetLastError());
    BL_CHECK(cudaDeviceSynchronize());
    bl_barrier_host();
    std::vector<double> all((size_t)bench.npes);
    BL_CHECK(
        cudaMemcpy(all.data(), bench.xchg, all.size() * sizeof(double), cudaMemcpyDeviceToHost));
    return all;
}

void bench_fail_if(unsigned long long errors, const char *what, size_t size) {
    std::vector<double> all = bench_allgather((double)errors);
    double total = 0;
    for (double e : all)
        total += e;
    if (total > 0) {
        if (bench.me == 0)
            fprintf(stderr, "FAIL: %s at %zu bytes: %.0f wrong words\n", what, size, total);
        fflush(stderr);
        exit(2);
    }
}

void bench_report(const char *bench_name, const char *variant, const char *ctx, size_t size,
                  const char *unit, const std::vector<double> &samples, long iters,
                  const bench_opts &o, const std::string &extra) {
    if (bench.me != 0)
        return;
    bench_stats s = bench_summary(samples);
    printf("# %-30s %-14s %-8s %11zu  %12.4f  [%.4f .. %.4f] %s\n", bench_name, variant, ctx, size,
           s.median, s.min, s.max, unit);
    std::string list;
    for (size_t i = 0; i < samples.size(); i++)
        list += (i ? ", " : "") + std::to_string(samples[i]);
    printf("{\"bench\": \"%s\", \"lib\": \"%s\", \"variant\": \"%s\", \"ctx\": \"%s\", "
           "\"size\": %zu, \"unit\": \"%s\", \"median\": %.6g, \"min\": %.6g, \"max\": %.6g, "
           "\"samples\": [%s], \"iters\": %ld, \"blocks\": %d, \"threads\": %d, \"bidir\": %s, "
           "\"validated\": true%s}\n",
           bench_name, BL_LIBRARY, variant, ctx, size, unit, s.median, s.min, s.max, list.c_str(),
           iters, o.blocks, o.threads, o.bidir ? "true" : "false", extra.c_str());
    fflush(stdout);
}

/* ---- driver -----------------------------------------------------------------------------------
 */

static void usage(const bench_program *p) {
    printf("%s: %s\n", p->name, p->usage);
    printf("  -b SIZE -e SIZE -f STEP   sizes (K/M/G suffixes); defaults %zu %zu %zu\n",
           p->defaults.min_size, p->defaults.max_size, p->defaults.step);
    printf("  -n N   iterations per timed kernel (%ld)   -w N  warm-up kernels (%ld)\n",
           p->defaults.iters, p->defaults.warmup);
    printf("  -r N   timed kernels per size (%d)   -B BYTES  cap on bytes per timed kernel\n",
           p->defaults.reps);
    printf("  -c N   blocks (%d)   -t N  threads per block (%d)   -s thread|warp|block (%s)\n",
           p->defaults.blocks, p->defaults.threads, bench_scope_name(p->defaults.scope));
    printf("  --bidir  both PEs send   -x default|bypass|all  context   -a OP  operation\n");
    printf("  --pair A,B  the two PEs of a point-to-point program (0,1)\n");
    printf("  --all-pairs  every PE sends to its partner at once: pe ^ 1, or with --shift K\n");
    printf("               (pe + K) mod npes\n");
}

static int parse(const bench_program *p, int argc, char **argv, bench_opts *o) {
    *o = p->defaults;
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        auto need = [&]() {
            if (!v) {
                fprintf(stderr, "%s: option %s needs a value\n", p->name, a.c_str());
                exit(1);
            }
            i++;
            return v;
        };
        if (a == "-b")
            o->min_size = bench_parse_size(need());
        else if (a == "-e")
            o->max_size = bench_parse_size(need());
        else if (a == "-f")
            o->step = bench_parse_size(need());
        else if (a == "-n")
            o->iters = atol(need());
        else if (a == "-w")
            o->warmup = atol(need());
        else if (a == "-r")
            o->reps = atoi(need());
        else if (a == "-B")
            o->budget = bench_parse_size(need());
        else if (a == "-c")
            o->blocks = atoi(need());
        else if (a == "-t")
            o->threads = atoi(need());
        else if (a == "-s") {
            std::string s = need();
            o->scope = s == "block" ? BL_BLOCK : s == "warp" ? BL_WARP : BL_THREAD;
            if (s != "block" && s != "warp" && s != "thread") {
                fprintf(stderr, "%s: -s %s: thread, warp or block\n", p->name, s.c_str());
                exit(1);
            }
        } else if (a == "--bidir")
            o->bidir = true;
        else if (a == "-x")
            o->ctx = need();
        else if (a == "-a")
            o->op = need();
        else if (a == "--pair") {
            const char *s = need();
            if (sscanf(s, "%d,%d", &o->pair[0], &o->pair[1]) != 2) {
                fprintf(stderr, "%s: --pair %s: two PE numbers A,B\n", p->name, s);
                exit(1);
            }
        } else if (a == "--all-pairs")
            o->all_pairs = true;
        else if (a == "--shift")
            o->shift = atoi(need());
        else if (a == "-h" || a == "--help") {
            usage(p);
            return 1;
        } else {
            fprintf(stderr, "%s: unknown option %s\n", p->name, a.c_str());
            usage(p);
            exit(1);
        }
    }
    if (o->reps < 1 || o->iters < 1 || o->blocks < 1 || o->threads < 1 || o->min_size == 0 ||
        o->min_size > o->max_size) {
        fprintf(stderr, "%s: bad options\n", p->name);
        exit(1);
    }
    return 0;
}

static const bench_program *find(const std::string &name) {
    for (const bench_program &p : bench_registry())
        if (name == p.name)
            return &p;
    return nullptr;
}

int main(int argc, char **argv) {
    std::string self = argv[0];
    size_t slash = self.rfind('/');
    if (slash != std::string::npos)
        self = self.substr(slash + 1);
    /* Commands: [program, args...] separated by ":" */
    std::vector<std::pair<const bench_program *, std::vector<char *>>> cmds;
    int i = 1;
    if (find(self)) {
        cmds.push_back({find(self), {}});
    } else {
        if (argc < 2 || std::string(argv[1]) == "-h") {
            printf("usage: %s PROGRAM [options] [: PROGRAM [options] ...]\nprograms:\n", argv[0]);
            for (const bench_program &p : bench_registry())
                printf("  %-30s %s\n", p.name, p.usage);
            return argc < 2;
        }
    }
    for (; i < argc; i++) {
        std::string a = argv[i];
        if (a == ":") {
            continue;
        }
        if (cmds.empty() || std::string(argv[i - 1]) == ":") {
            const bench_program *p = find(a);
            if (!p) {
                fprintf(stderr, "unknown program %s\n", a.c_str());
                return 1;
            }
            cmds.push_back({p, {}});
            continue;
        }
        cmds.back().second.push_back(argv[i]);
    }
    std::vector<bench_opts> opts(cmds.size());
    for (size_t c = 0; c < cmds.size(); c++)
        if (parse(cmds[c].first, (int)cmds[c].second.size(), cmds[c].second.data(), &opts[c]))
            return 0;

    bl_init();
    bench.me = bl_my_pe();
    bench.npes = bl_n_pes();
    if (bench.npes < 2 || bench.npes > BENCH_MAX_PES) {
        if (bench.me == 0)
            fprintf(stderr, "the GPU benchmarks need 2 to %d PEs (got %d)\n", BENCH_MAX_PES,
                    bench.npes);
        bl_finalize();
        return 1;
    }
    for (size_t c = 0; c < cmds.size(); c++) {
        const bench_opts &o = opts[c];
        bool pair_ok = o.pair[0] != o.pair[1] && o.pair[0] >= 0 && o.pair[1] >= 0 &&
                       o.pair[0] < bench.npes && o.pair[1] < bench.npes;
        bool shift_ok = o.shift == 0 ? bench.npes % 2 == 0 : o.shift % bench.npes != 0;
        if (!pair_ok || (o.all_pairs && !shift_ok)) {
            if (bench.me == 0)
                fprintf(stderr, "%s: --pair %d,%d or --shift %d does not fit %d PEs\n",
                        cmds[c].first->name, o.pair[0], o.pair[1], o.shift, bench.npes);
            bl_finalize();
            return 1;
        }
    }
    BL_CHECK(cudaMalloc((void **)&bench.grid_ctr, 64 * sizeof(unsigned int)));
    BL_CHECK(cudaMalloc((void **)&bench.errors, sizeof(unsigned long long)));
    BL_CHECK(cudaEventCreate(&bench.ev0));
    BL_CHECK(cudaEventCreate(&bench.ev1));
    bench.xchg = (double *)bl_malloc(BENCH_MAX_PES * sizeof(double));
    if (!bench.xchg) {
        fprintf(stderr, "symmetric allocation failed\n");
        return 1;
    }
    /* One seed for the whole job, taken from PE 0's clock. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    std::vector<double> seeds = bench_allgather((double)(ts.tv_nsec ^ (ts.tv_sec << 20)));
    bench.seed = (uint64_t)seeds[0] * 0x9E3779B97F4A7C15ull + 1;

    int rc = 0;
    for (size_t c = 0; c < cmds.size() && rc == 0; c++) {
        bl_barrier_host();
        if (cmds[c].first->any_npes || bench.npes == 2)
            rc = cmds[c].first->run(opts[c]);
        else if (bench.me == 0)
            printf("skipped: %s runs on 2 PEs only (this job has %d)\n", cmds[c].first->name,
                   bench.npes);
        /* Progress marker for the run script: command c of this job is complete. */
        if (bench.me == 0) {
            printf("@@done %zu\n", c);
            fflush(stdout);
        }
    }
    bl_barrier_host();
    bl_free(bench.xchg);
    bl_finalize();
    return rc;
}
