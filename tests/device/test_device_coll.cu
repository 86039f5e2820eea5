/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives in kernels between PEs: team queries, team_sync, alltoall, fcollect, broadcast and
 * every reduction operator, as one thread, one warp and one block, on SHMEM_TEAM_WORLD and
 * SHMEM_TEAM_SHARED. Sources are random (the seed is printed; SHMEM_TEST_SEED sets it), results
 * are checked against a reference that every PE computes on the host from every PE's source,
 * including the bytes after dest, which must stay untouched. With the argument "split", a kernel
 * passes a team made by shmem_team_split_strided and must stop with the standard message. */
#include <stdint.h>
#include <string.h>

#include <limits>
#include <vector>

#include "gpu_test.h"

#define BLOCK_THREADS 160 /* five warps: group loops with a partial last round */
#define GUARD 64          /* bytes checked after every dest */
#define POISON 0xa5

/* ---- kernels: one per collective, type and group (0 thread, 1 warp, 2 block) ------------------
 */

#define GROUP_CALL(G, STEM, ...)                                                                   \
    do {                                                                                           \
        if (G == 0)                                                                                \
            shmem_##STEM(__VA_ARGS__);                                                             \
        else if (G == 1)                                                                           \
            shmemx_##STEM##_warp(__VA_ARGS__);                                                     \
        else                                                                                       \
            shmemx_##STEM##_block(__VA_ARGS__);                                                    \
    } while (0)

/* Launches KERNEL<g> with one thread, one warp or one block. */
#define LAUNCH(KERNEL, g, ...)                                                                     \
    do {                                                                                           \
        if (g == 0)                                                                                \
            KERNEL<0><<<1, 1>>>(__VA_ARGS__);                                                      \
        else if (g == 1)                                                                           \
            KERNEL<1><<<1, 32>>>(__VA_ARGS__);                                                     \
        else                                                                                       \
            KERNEL<2><<<1, BLOCK_THREADS>>>(__VA_ARGS__);                                          \
    } while (0)

typedef void (*move_launch_t)(int g, shmem_team_t team, void *dest, const void *source, size_t n,
                              int root);
typedef void (*reduce_launch_t)(int g, shmem_team_t team, void *dest, const void *source, size_t n);

#define MOVE_KERNELS(CT, NAME)                                                                     \
    template <int G>                                                                               \
    __global__ void alltoall_##NAME(shmem_team_t t, CT *d, const CT *s, size_t n) {                \
        GROUP_CALL(G, NAME##_alltoall, t, d, s, n);                                                \
    }                                                                                              \
    template <int G>                                                                               \
    __global__ void fcollect_##NAME(shmem_team_t t, CT *d, const CT *s, size_t n) {                \
        GROUP_CALL(G, NAME##_fcollect, t, d, s, n);                                                \
    }                                                                                              \
    template <int G>                                                                               \
    __global__ void broadcast_##NAME(shmem_team_t t, CT *d, const CT *s, size_t n, int root) {     \
        GROUP_CALL(G, NAME##_broadcast, t, d, s, n, root);                                         \
    }                                                                                              \
    static void launch_alltoall_##NAME(int g, shmem_team_t t, void *d, const void *s, size_t n,    \
                                       int) {                                                      \
        LAUNCH(alltoall_##NAME, g, t, (CT *)d, (const CT *)s, n);                                  \
    }                                                                                              \
    static void launch_fcollect_##NAME(int g, shmem_team_t t, void *d, const void *s, size_t n,    \
                                       int) {                                                      \
        LAUNCH(fcollect_##NAME, g, t, (CT *)d, (const CT *)s, n);                                  \
    }                                                                                              \
    static void launch_broadcast_##NAME(int g, shmem_team_t t, void *d, const void *s, size_t n,   \
                                        int root) {                                                \
        LAUNCH(broadcast_##NAME, g, t, (CT *)d, (const CT *)s, n, root);                           \
    }
MOVE_KERNELS(int, int)
MOVE_KERNELS(double, double)
MOVE_KERNELS(uint8_t, uint8)

/* The untyped forms, in bytes, with the typed kernels' shape. */
template <int G> __global__ void alltoall_mem(shmem_team_t t, char *d, const char *s, size_t n) {
    GROUP_CALL(G, alltoallmem, t, d, s, n);
}
template <int G> __global__ void fcollect_mem(shmem_team_t t, char *d, const char *s, size_t n) {
    GROUP_CALL(G, fcollectmem, t, d, s, n);
}
template <int G>
__global__ void broadcast_mem(shmem_team_t t, char *d, const char *s, size_t n, int root) {
    GROUP_CALL(G, broadcastmem, t, d, s, n, root);
}
static void launch_alltoall_mem(int g, shmem_team_t t, void *d, const void *s, size_t n, int) {
    LAUNCH(alltoall_mem, g, t, (char *)d, (const char *)s, n);
}
static void launch_fcollect_mem(int g, shmem_team_t t, void *d, const void *s, size_t n, int) {
    LAUNCH(fcollect_mem, g, t, (char *)d, (const char *)s, n);
}
static void launch_broadcast_mem(int g, shmem_team_t t, void *d, const void *s, size_t n,
                                 int root) {
    LAUNCH(broadcast_mem, g, t, (char *)d, (const char *)s, n, root);
}

/* The reductions tested: C type, type name, operator, and the values it gets (gen's kind). */
#define REDUCTIONS(X)                                                                              \
    X(int, int, sum, GEN_SUM)                                                                      \
    X(int, int, prod, GEN_PROD)                                                                    \
    X(int, int, min, GEN_ORDER)                                                                    \
    X(int, int, max, GEN_ORDER)                                                                    \
    X(unsigned int, uint, and, GEN_BITS)                                                           \
    X(unsigned int, uint, or, GEN_BITS)                                                            \
    X(unsigned int, uint, xor, GEN_BITS)                                                           \
    X(int8_t, int8, and, GEN_BITS)                                                                 \
    X(int8_t, int8, sum, GEN_SUM)                                                                  \
    X(unsigned char, uchar, max, GEN_ORDER)                                                        \
    X(unsigned char, uchar, prod, GEN_PROD)                                                        \
    X(short, short, prod, GEN_PROD)                                                                \
    X(short, short, min, GEN_ORDER)                                                                \
    X(long long, longlong, sum, GEN_SUM)                                                           \
    X(long long, longlong, max, GEN_ORDER)                                                         \
    X(uint64_t, uint64, xor, GEN_BITS)                                                             \
    X(uint64_t, uint64, or, GEN_BITS)                                                              \
    X(size_t, size, sum, GEN_SUM)                                                                  \
    X(float, float, sum, GEN_SUM)                                                                  \
    X(float, float, prod, GEN_PROD)                                                                \
    X(float, float, min, GEN_ORDER)                                                                \
    X(double, double, sum, GEN_SUM)                                                                \
    X(double, double, max, GEN_ORDER)

#define REDUCE_KERNEL(CT, NAME, OP, GEN)                                                           \
    template <int G>                                                                               \
    __global__ void reduce_##NAME##_##OP(shmem_team_t t, CT *d, const CT *s, size_t n) {           \
        GROUP_CALL(G, NAME##_##OP##_reduce, t, d, s, n);                                           \
    }                                                                                              \
    static void launch_reduce_##NAME##_##OP(int g, shmem_team_t t, void *d, const void *s,         \
                                            size_t n) {                                            \
        LAUNCH(reduce_##NAME##_##OP, g, t, (CT *)d, (const CT *)s, n);                             \
    }
REDUCTIONS(REDUCE_KERNEL)

/* team_my_pe, team_n_pes and team_sync: every PE writes its number into its slot on the next PE
 * of the team (next: its world number), syncs, and reads what the previous PE wrote (the sync
 * orders the plain stores; where the next PE is not mapped, as over the network, the write is a
 * p completed by quiet before the sync). */
template <int G>
__global__ void sync_kernel(shmem_team_t t, int *slots, int round, int next,
                            unsigned long long *errors) {
    int me = shmem_team_my_pe(t), n = shmem_team_n_pes(t);
    unsigned long long bad = 0;
    if (threadIdx.x == 0) {
        bad += t == SHMEM_TEAM_WORLD && (me != shmem_my_pe() || n != shmem_n_pes());
        bad += shmem_team_n_pes(SHMEM_TEAM_INVALID) != -1 ||
               shmem_team_my_pe(SHMEM_TEAM_INVALID) != -1;
        int *r = (int *)shmem_ptr(slots + me, next);
        if (r) {
            *r = round * 1000 + me;
        } else {
            shmem_int_p(slots + me, round * 1000 + me, next);
            shmem_quiet();
        }
    }
    GROUP_CALL(G, team_sync, t);
    if (threadIdx.x == 0)
        bad += slots[(me + n - 1) % n] != round * 1000 + (me + n - 1) % n;
    if (bad)
        atomicAdd(errors, bad);
}
static void launch_sync(int g, shmem_team_t t, int *slots, int round, int next,
                        unsigned long long *errors) {
    LAUNCH(sync_kernel, g, t, slots, round, next, errors);
}

__global__ void split_team_kernel(shmem_team_t t, int *d, const int *s) {
    shmem_int_alltoall(t, d, s, 1);
}

/* ---- host side --------------------------------------------------------------------------------
 */

static uint64_t seed;
static int me, npes;
static char *src_buf, *dst_buf; /* symmetric, BUF_BYTES each */
static size_t buf_bytes;

/* The world numbers of the team's PEs, by team number (SHMEM_TEAM_SHARED is the world only
 * where every PE maps every heap; over the network it is this PE alone). */
static std::vector<int> team_world(shmem_team_t team) {
    std::vector<int> w((size_t)shmem_team_n_pes(team));
    for (size_t k = 0; k < w.size(); k++)
        w[k] = shmem_team_translate_pe(team, (int)k, SHMEM_TEAM_WORLD);
    return w;
}

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t x = seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^
                 (c * 0x165667B19E3779F9ull) ^ (d * 0xD6E8FEB86659FD93ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 32);
}

/* Values by operator: small for sum and prod so that no signed type overflows and float results
 * are exact; any value for min, max and the bitwise operators. */
enum { GEN_BITS, GEN_ORDER, GEN_SUM, GEN_PROD };
template <typename T> static T gen(int kind, uint64_t r) {
    const bool fp = !std::numeric_limits<T>::is_integer;
    const bool sgn = std::numeric_limits<T>::is_signed;
    switch (kind) {
    case GEN_SUM:
        return (T)((int64_t)(r % 61) - (sgn ? 30 : 0));
    case GEN_PROD:
        if (sgn)
            return (T)((r & 1 ? 1 : 2) * (r & 2 ? -1 : 1));
        return (T)(1 + r % 3);
    case GEN_ORDER:
        if (fp)
            return (T)((int64_t)(r % 2000001) - 1000000);
        return (T)r;
    default:
        return (T)r;
    }
}

struct h_sum {
    template <typename T> static T apply(T a, T b) { return (T)(a + b); }
};
struct h_prod {
    template <typename T> static T apply(T a, T b) { return (T)(a * b); }
};
struct h_min {
    template <typename T> static T apply(T a, T b) { return b < a ? b : a; }
};
struct h_max {
    template <typename T> static T apply(T a, T b) { return a < b ? b : a; }
};
struct h_and {
    template <typename T> static T apply(T a, T b) { return (T)(a & b); }
};
struct h_or {
    template <typename T> static T apply(T a, T b) { return (T)(a | b); }
};
struct h_xor {
    template <typename T> static T apply(T a, T b) { return (T)(a ^ b); }
};

/* Poisons dest at dst_off (and the guard after it), then copies this PE's source to src (which
 * is dest for an in-place case), synchronizes all PEs. */
static void prepare(char *src, const void *host_src, size_t src_bytes, size_t dst_off,
                    size_t dst_bytes) {
    GPU_CHECK(shmemi_gpu_memset(dst_buf + dst_off, POISON, dst_bytes + GUARD));
    if (src_bytes)
        GPU_CHECK(shmemi_gpu_memcpy(src, host_src, src_bytes, shmemi_gpu_memcpy_default));
    GPU_CHECK(shmemi_gpu_device_synchronize());
    barrier_on_stream();
}

/* Waits for the kernel, compares the bytes of dest at dst_off (and the guard) with want; returns
 * the bytes that differ. */
template <typename T> static long finish(size_t dst_off, const std::vector<T> &want) {
    GPU_CHECK(shmemi_gpu_get_last_error());
    GPU_CHECK(shmemi_gpu_device_synchronize());
    const size_t want_bytes = want.size() * sizeof(T);
    const unsigned char *w = (const unsigned char *)want.data();
    std::vector<unsigned char> got(want_bytes + GUARD);
    GPU_CHECK(
        shmemi_gpu_memcpy(got.data(), dst_buf + dst_off, got.size(), shmemi_gpu_memcpy_default));
    long bad = 0;
    for (size_t i = 0; i < got.size(); i++)
        bad += got[i] != (i < want_bytes ? w[i] : POISON);
    barrier_on_stream();
    return bad;
}

/* One movement collective: kind 0 alltoall, 1 fcollect, 2 broadcast from root. */
template <typename T>
static long move_case(int kind, move_launch_t launch, int g, shmem_team_t team, size_t n, int root,
                      uint64_t id) {
    const std::vector<int> world = team_world(team);
    const size_t tn = world.size(), tme = (size_t)shmem_team_my_pe(team);
    const size_t src_elems = kind == 0 ? n * tn : n, dst_elems = kind == 2 ? n : n * tn;
    if ((dst_elems + 64) * sizeof(T) + GUARD > buf_bytes)
        return 1;
    auto value = [&](int pe, size_t i) { return gen<T>(GEN_BITS, mix(id, (uint64_t)pe, i, 1)); };
    std::vector<T> mine(src_elems);
    for (size_t i = 0; i < src_elems; i++)
        mine[i] = value(me, i);
    std::vector<T> want(dst_elems);
    for (size_t b = 0; b < (kind == 2 ? 1 : tn); b++)
        for (size_t e = 0; e < n; e++)
            want[b * n + e] = kind == 0   ? value(world[b], tme * n + e)
                              : kind == 1 ? value(world[b], e)
                                          : value(world[(size_t)root], e);
    prepare(src_buf, mine.data(), src_elems * sizeof(T), 0, dst_elems * sizeof(T));
    launch(g, team, dst_buf, src_buf, n, root);
    return finish(0, want);
}

/* One reduction; off shifts dest and source by elements (unaligned vectors), in_place makes
 * dest the source. */
template <typename T, typename Op>
static long reduce_case(reduce_launch_t launch, int gen_kind, int g, shmem_team_t team, size_t n,
                        size_t off, bool in_place, uint64_t id) {
    if ((n + off) * sizeof(T) + GUARD > buf_bytes)
        return 1;
    auto value = [&](int pe, size_t i) { return gen<T>(gen_kind, mix(id, (uint64_t)pe, i, 2)); };
    const std::vector<int> world = team_world(team);
    std::vector<T> mine(n), want(n);
    for (size_t i = 0; i < n; i++) {
        mine[i] = value(me, i);
        T acc = value(world[0], i);
        for (size_t k = 1; k < world.size(); k++)
            acc = Op::apply(acc, value(world[k], i));
        want[i] = acc;
    }
    T *source = (T *)(in_place ? dst_buf : src_buf) + off;
    prepare((char *)source, mine.data(), n * sizeof(T), off * sizeof(T), n * sizeof(T));
    launch(g, team, (T *)dst_buf + off, source, n);
    return finish(off * sizeof(T), want);
}

static const char *group_name(int g) {
    return g == 0 ? "thread" : g == 1 ? "warp" : "block";
}

struct move_entry {
    const char *name;
    size_t elem;
    move_launch_t alltoall, fcollect, broadcast;
    long (*run)(int kind, move_launch_t launch, int g, shmem_team_t team, size_t n, int root,
                uint64_t id);
};

/* One row of the reduction table in main: name, host check, kernel launcher, values. */
#define RCASE(CT, NAME, OP, GEN)                                                                   \
    {#NAME " " #OP, reduce_case<CT, h_##OP>, launch_reduce_##NAME##_##OP, GEN},

int main(int argc, char **argv) {
    gpu_test_require_gpu();
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    const char *s = getenv("SHMEM_TEST_SEED");
    seed = s && *s ? strtoull(s, NULL, 0) : 0x5eed0c011ull;
    if (me == 0)
        printf("seed 0x%llx (SHMEM_TEST_SEED)\n", (unsigned long long)seed);
    buf_bytes = (size_t)4 << 20;
    src_buf = (char *)gpu_test_zalloc(buf_bytes);
    dst_buf = (char *)gpu_test_zalloc(buf_bytes);
    unsigned long long *errors;
    GPU_CHECK(shmemi_gpu_malloc((void **)&errors, sizeof(*errors)));
    barrier_on_stream();

    if (argc > 1 && strcmp(argv[1], "split") == 0) {
        shmem_team_t team = SHMEM_TEAM_INVALID;
        if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &team) != 0)
            return 1;
        split_team_kernel<<<1, 1>>>(team, (int *)dst_buf, (const int *)src_buf);
        shmemi_gpu_error_t err = shmemi_gpu_device_synchronize();
        printf("PE %d: kernel ended: %s\n", me, shmemi_gpu_get_error_string(err));
        return err == shmemi_gpu_success ? 0 : 1;
    }

    int fails = 0;
    char what[96];
    const shmem_team_t teams[] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED};
    uint64_t id = 0;

    /* Team queries and team_sync. */
    int *slots = (int *)gpu_test_zalloc((size_t)npes * sizeof(int));
    barrier_on_stream();
    for (int g = 0; g < 3; g++)
        for (int t = 0; t < 2; t++) {
            GPU_CHECK(shmemi_gpu_memset(errors, 0, sizeof(*errors)));
            const std::vector<int> world = team_world(teams[t]);
            const int next = world[(size_t)(shmem_team_my_pe(teams[t]) + 1) % world.size()];
            launch_sync(g, teams[t], slots, (int)(++id), next, errors);
            GPU_CHECK(shmemi_gpu_get_last_error());
            GPU_CHECK(shmemi_gpu_device_synchronize());
            unsigned long long bad = 0;
            GPU_CHECK(shmemi_gpu_memcpy(&bad, errors, sizeof(bad), shmemi_gpu_memcpy_default));
            snprintf(what, sizeof(what), "team_sync %s %s", t ? "shared" : "world", group_name(g));
            fails += gpu_test_report(what, (long)bad);
            barrier_on_stream();
        }

    /* alltoall, fcollect, broadcast: typed and untyped, odd and even sizes. */
    const move_entry moves[] = {
        {"int", sizeof(int), launch_alltoall_int, launch_fcollect_int, launch_broadcast_int,
         move_case<int>},
        {"double", sizeof(double), launch_alltoall_double, launch_fcollect_double,
         launch_broadcast_double, move_case<double>},
        {"uint8", 1, launch_alltoall_uint8, launch_fcollect_uint8, launch_broadcast_uint8,
         move_case<uint8_t>},
        {"mem", 1, launch_alltoall_mem, launch_fcollect_mem, launch_broadcast_mem,
         move_case<uint8_t>},
    };
    const size_t move_sizes[] = {0, 1, 5, 1000, 40000};
    const char *kinds[] = {"alltoall", "fcollect", "broadcast"};
    for (const move_entry &m : moves)
        for (int kind = 0; kind < 3; kind++)
            for (int g = 0; g < 3; g++)
                for (int t = 0; t < 2; t++) {
                    if (t == 1 && m.elem != 1)
                        continue; /* the shared team once per collective and group */
                    long bad = 0;
                    for (size_t n : move_sizes)
                        for (int root = 0; root < (kind == 2 ? shmem_team_n_pes(teams[t]) : 1);
                             root++) {
                            move_launch_t l = kind == 0   ? m.alltoall
                                              : kind == 1 ? m.fcollect
                                                          : m.broadcast;
                            bad += m.run(kind, l, g, teams[t], n, root, ++id);
                        }
                    snprintf(what, sizeof(what), "%s %s %s%s", kinds[kind], m.name, group_name(g),
                             t ? " shared" : "");
                    fails += gpu_test_report(what, bad);
                }

    /* Reductions: every operator, types of 1, 2, 4 and 8 bytes, aligned and unaligned, in place;
     * int sum also over several scratch chunks (more than one slot per PE). */
    struct reduce_entry {
        const char *name;
        long (*run)(reduce_launch_t, int, int, shmem_team_t, size_t, size_t, bool, uint64_t);
        reduce_launch_t launch;
        int gen_kind;
    } reductions[] = {REDUCTIONS(RCASE)};
    /* (elements, offset, in place, shared team): every path once, kept few so that 4 PEs
     * sharing one GPU finish in seconds. */
    const struct {
        size_t n, off;
        bool in_place, shared;
    } shapes[] = {{0, 0, false, false},  {1, 0, false, false},    {7, 1, false, false},
                  {100, 0, true, false}, {4099, 0, false, false}, {4099, 1, true, false},
                  {33, 0, false, true}};
    for (const reduce_entry &r : reductions)
        for (int g = 0; g < 3; g++) {
            long bad = 0;
            for (const auto &sh : shapes)
                bad +=
                    r.run(r.launch, r.gen_kind, g, sh.shared ? SHMEM_TEAM_SHARED : SHMEM_TEAM_WORLD,
                          sh.n, sh.off, sh.in_place, ++id);
            snprintf(what, sizeof(what), "reduce %s %s", r.name, group_name(g));
            fails += gpu_test_report(what, bad);
        }
    for (int g = 0; g < 3; g++) {
        /* 3 MiB + 4 bytes: several chunks at every PE count (a slot is at most 1 MiB). */
        const size_t big = ((size_t)3 << 18) + 1;
        long bad = reduce_case<int, h_sum>(launch_reduce_int_sum, GEN_SUM, g, SHMEM_TEAM_WORLD, big,
                                           0, false, ++id);
        bad += reduce_case<int, h_sum>(launch_reduce_int_sum, GEN_SUM, g, SHMEM_TEAM_WORLD, big, 1,
                                       true, ++id);
        snprintf(what, sizeof(what), "reduce int sum 3 MiB %s", group_name(g));
        fails += gpu_test_report(what, bad);
    }

    GPU_CHECK(shmemi_gpu_free(errors));
    shmem_free(slots);
    shmem_free(dst_buf);
    shmem_free(src_buf);
    shmem_finalize();
    if (me == 0)
        printf("%s\n", fails ? "FAILED" : "all device collectives passed");
    return fails ? 1 : 0;
}
