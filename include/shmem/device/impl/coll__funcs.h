/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives in kernels: team_sync, alltoall, fcollect, broadcast and the reductions of
 * OpenSHMEM 1.6 on SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, called by one thread (the standard
 * names), one warp (shmemx_*_warp) or one block (shmemx_*_block) per PE. The typed names are
 * generated from the type tables of shmem/impl/typelists.h; the host forms of the same names call
 * the library's host collectives. Contract: shmem/device/shmem_device.h; algorithms and costs:
 * docs/collectives.md, section "In kernels". */
#ifndef SHMEM_DEVICE_IMPL_COLL__FUNCS_H
#define SHMEM_DEVICE_IMPL_COLL__FUNCS_H

#include <shmem/impl/typelists.h>
#include <shmem/device/impl/compat__funcs.h>

#if SHMEMI_DEVICE_PASS

/* A team as kernels see it: member i is world PE start + i * stride; the caller is member index.
 * Kernels know SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, whose members follow from the device
 * state; teams made by shmem_team_split_* exist only in the host library's tables. */
struct shmemi_dteam {
    int start, stride, size, index;
};

SHMEMI_DI void shmemi_dfatal_team(const char *call, shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID)
        shmemi_dfatal_message(call, "team is SHMEM_TEAM_INVALID");
    else
        shmemi_dfatal(SHMEMI_DFATAL_SPLIT_TEAM, call, NULL, NULL, (long long)(intptr_t)team, 0);
}
SHMEMI_DI void shmemi_dfatal_root(const char *call, int root, int size) {
    shmemi_dfatal(SHMEMI_DFATAL_ROOT, call, NULL, NULL, root, size);
}

/* SHMEM_TEAM_SHARED: every PE when this PE maps them all (as the host's team), else the
 * caller. */
SHMEMI_DI shmemi_dteam shmemi_dteam_get(const char *call, shmem_team_t team) {
    const int me = shmemi_dstate.my_pe, n = shmemi_dstate.n_pes;
    const shmemi_dteam world = {0, 1, n, me}, self = {me, 1, 1, 0};
    if (team == SHMEM_TEAM_WORLD)
        return world;
    if (team == SHMEM_TEAM_SHARED)
        return shmemi_dstate.one_node ? world : self;
    shmemi_dfatal_team(call, team);
    return self;
}
SHMEMI_DI int shmemi_dteam_pe(const shmemi_dteam &t, int member) {
    return t.start + member * t.stride;
}

/* Team synchronization: the device barrier of all PEs (a system-scope release, then flags
 * polled with acquire) when the team is the world, a group sync when the team is the caller. */
template <int Group> SHMEMI_DI void shmemi_dteam_sync(const char *call, const shmemi_dteam &t) {
    if (t.size > 1) {
        shmemi_dbarrier<0, Group>(call);
    } else {
        shmemi_drain_stores();
        shmemi_group_sync<Group>();
    }
}

/* Copies n bytes to dest on member j with plain stores (the caller's own copy when j is the
 * caller). */
/* The group's copy of n bytes to dest on world PE pe: stores, or a put through the proxy on the
 * default context (the team barrier after it completes that context). */
template <int Group>
SHMEMI_DI void shmemi_dcoll_push(const char *call, void *dest, const void *source, size_t n,
                                 int pe) {
    if (shmemi_dproxied(pe)) {
        shmemi_dproxy_put<Group>(call, 0, dest, source, n, pe);
        return;
    }
    shmemi_dcopy<0, 0, Group>(shmemi_dremote(call, dest, n, pe), source, n);
}
template <int Group>
SHMEMI_DI void shmemi_dcoll_put(const char *call, const shmemi_dteam &t, int j, void *dest,
                                const void *source, size_t n) {
    if (j == t.index) {
        if (dest != source)
            shmemi_dcopy<0, 0, Group>(dest, source, n);
        return;
    }
    shmemi_dcoll_push<Group>(call, dest, source, n, shmemi_dteam_pe(t, j));
}

/* ---- algorithms (sizes in bytes) ---------------------------------------------------------------
 */

/* Every member writes block j of its source into block (its index) of member j's dest, starting
 * with the next member so that no PE is everyone's first target; then one team sync. */
template <int Group>
SHMEMI_DI int shmemi_dalltoall(const char *call, shmem_team_t team, void *dest, const void *source,
                               size_t block) {
    const shmemi_dteam t = shmemi_dteam_get(call, team);
    char *d = (char *)dest + (size_t)t.index * block;
    for (int k = 1; k <= t.size; k++) {
        const int j = shmemi_ring_next(t.index, k, t.size);
        shmemi_dcoll_put<Group>(call, t, j, d, (const char *)source + (size_t)j * block, block);
    }
    shmemi_dteam_sync<Group>(call, t);
    return 0;
}

/* Every member writes its source into block (its index) of every member's dest; one team sync. */
template <int Group>
SHMEMI_DI int shmemi_dfcollect(const char *call, shmem_team_t team, void *dest, const void *source,
                               size_t block) {
    const shmemi_dteam t = shmemi_dteam_get(call, team);
    char *d = (char *)dest + (size_t)t.index * block;
    for (int k = 1; k <= t.size; k++)
        shmemi_dcoll_put<Group>(call, t, shmemi_ring_next(t.index, k, t.size), d, source, block);
    shmemi_dteam_sync<Group>(call, t);
    return 0;
}

/* The root writes its source into every member's dest (its own included); one team sync. */
template <int Group>
SHMEMI_DI int shmemi_dbroadcast(const char *call, shmem_team_t team, void *dest, const void *source,
                                size_t n, int root) {
    const shmemi_dteam t = shmemi_dteam_get(call, team);
    if (root < 0 || root >= t.size)
        shmemi_dfatal_root(call, root, t.size);
    if (t.index == root)
        for (int k = 1; k <= t.size; k++)
            shmemi_dcoll_put<Group>(call, t, shmemi_ring_next(t.index, k, t.size), dest, source, n);
    shmemi_dteam_sync<Group>(call, t);
    return 0;
}

/* Reduction operators; every member combines the members' values in team order, so all get the
 * same bits. */
struct shmemi_rop_sum {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return (T)(a + b); }
};
struct shmemi_rop_prod {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return (T)(a * b); }
};
struct shmemi_rop_min {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return b < a ? b : a; }
};
struct shmemi_rop_max {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return a < b ? b : a; }
};
struct shmemi_rop_and {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return (T)(a & b); }
};
struct shmemi_rop_or {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return (T)(a | b); }
};
struct shmemi_rop_xor {
    template <typename T> static SHMEMI_DI T apply(T a, T b) { return (T)(a ^ b); }
};

/* Member j's elements of the current chunk: the caller's own source, or row j of the scratch. */
template <typename T>
SHMEMI_DI const T *shmemi_dreduce_row(const T *mine, const char *rows, size_t slot,
                                      const shmemi_dteam &t, int j) {
    return j == t.index ? mine : (const T *)(rows + (size_t)j * slot);
}

/* dest[i] = op over members j of row j [i], i < count; 16-byte vectors where dest and the
 * caller's source allow (scratch rows are 256-byte aligned). Each element is read and written by
 * one thread, so dest may be the caller's source. */
template <int Group, typename Op, typename T>
SHMEMI_DI void shmemi_dreduce_rows(T *dest, const T *mine, const char *rows, size_t slot,
                                   const shmemi_dteam &t, size_t count) {
    const size_t rank = (size_t)shmemi_group_rank<Group>();
    const size_t step = (size_t)shmemi_group_size<Group>();
    const size_t lanes = 16 / sizeof(T);
    size_t done = 0;
    if ((((uintptr_t)dest | (uintptr_t)mine) & 15) == 0) {
        const size_t nvec = count / lanes;
        for (size_t v = rank; v < nvec; v += step) {
            T acc[16 / sizeof(T)], x[16 / sizeof(T)];
            shmemi_vec16_t w =
                ((const shmemi_vec16_t *)shmemi_dreduce_row(mine, rows, slot, t, 0))[v];
            memcpy(acc, &w, 16);
            for (int j = 1; j < t.size; j++) {
                w = ((const shmemi_vec16_t *)shmemi_dreduce_row(mine, rows, slot, t, j))[v];
                memcpy(x, &w, 16);
                for (size_t l = 0; l < lanes; l++)
                    acc[l] = Op::apply(acc[l], x[l]);
            }
            memcpy(&w, acc, 16);
            ((shmemi_vec16_t *)dest)[v] = w;
        }
        done = nvec * lanes;
    }
    for (size_t i = done + rank; i < count; i += step) {
        T acc = shmemi_dreduce_row(mine, rows, slot, t, 0)[i];
        for (int j = 1; j < t.size; j++)
            acc = Op::apply(acc, shmemi_dreduce_row(mine, rows, slot, t, j)[i]);
        dest[i] = acc;
    }
}

/* One-shot reduction through the library's scratch (two rounds of one slot per PE, in the
 * symmetric heap): per chunk of at most one slot, every member writes its source into its row of
 * every other member's scratch, one team sync, then each member combines the rows locally into
 * dest. Round r of the scratch is used by the device barrier of epoch r (mod 2): a PE writes a
 * round only after the barrier that every member passes once it has read that round's previous
 * contents, so sources and the scratch never need a second sync. */
template <int Group, typename Op, typename T>
SHMEMI_DI int shmemi_dreduce(const char *call, Op, shmem_team_t team, T *dest, const T *source,
                             size_t nreduce) {
    const shmemi_dteam t = shmemi_dteam_get(call, team);
    if (t.size == 1) {
        if (dest != source)
            shmemi_dcopy<0, 0, Group>(dest, source, nreduce * sizeof(T));
    } else {
        const size_t slot = shmemi_dstate.coll_slot, chunk = slot / sizeof(T);
        for (size_t off = 0; off < nreduce; off += chunk) {
            const size_t count = nreduce - off < chunk ? nreduce - off : chunk;
            const uint64_t epoch = *shmemi_dstate.barrier_epoch + 1;
            const char *rows = shmemi_dstate.coll_scratch +
                               (size_t)(epoch & 1) * (size_t)shmemi_dstate.n_pes * slot;
            T *my_row = (T *)(rows + (size_t)t.index * slot);
            for (int k = 1; k < t.size; k++) {
                const int pe = shmemi_dteam_pe(t, shmemi_ring_next(t.index, k, t.size));
                shmemi_dcoll_push<Group>(call, my_row, source + off, count * sizeof(T), pe);
            }
            shmemi_dbarrier<0, Group>(call);
            shmemi_dreduce_rows<Group, Op>(dest + off, source + off, rows, slot, t, count);
        }
    }
    shmemi_drain_stores();
    shmemi_group_sync<Group>();
    return 0;
}

/* ---- the typed front ends: long double has no GPU representation -------------------------------
 */

#define SHMEMI_DCOLL_NO_LONGDOUBLE "long double has no GPU representation: call it from host code"

/* The bytes of nelems elements of source's type; the kernel stops for long double. */
template <typename T> SHMEMI_DI size_t shmemi_dcoll_bytes(const char *, const T *, size_t nelems) {
    return nelems * sizeof(T);
}
SHMEMI_DI size_t shmemi_dcoll_bytes(const char *call, const long double *, size_t) {
    shmemi_dfatal_message(call, SHMEMI_DCOLL_NO_LONGDOUBLE);
    return 0;
}
template <int Group, typename T>
SHMEMI_DI int shmemi_dalltoall_typed(const char *call, shmem_team_t team, T *dest, const T *source,
                                     size_t nelems) {
    return shmemi_dalltoall<Group>(call, team, dest, source,
                                   shmemi_dcoll_bytes(call, source, nelems));
}
template <int Group, typename T>
SHMEMI_DI int shmemi_dfcollect_typed(const char *call, shmem_team_t team, T *dest, const T *source,
                                     size_t nelems) {
    return shmemi_dfcollect<Group>(call, team, dest, source,
                                   shmemi_dcoll_bytes(call, source, nelems));
}
template <int Group, typename T>
SHMEMI_DI int shmemi_dbroadcast_typed(const char *call, shmem_team_t team, T *dest, const T *source,
                                      size_t nelems, int root) {
    return shmemi_dbroadcast<Group>(call, team, dest, source,
                                    shmemi_dcoll_bytes(call, source, nelems), root);
}
template <int Group, typename Op>
SHMEMI_DI int shmemi_dreduce(const char *call, Op, shmem_team_t, long double *, const long double *,
                             size_t) {
    shmemi_dfatal_message(call, SHMEMI_DCOLL_NO_LONGDOUBLE);
    return 0;
}

/* team_my_pe and team_n_pes: -1 for SHMEM_TEAM_INVALID, as on the host. */
SHMEMI_DI int shmemi_dteam_query(const char *call, shmem_team_t team, int want_size) {
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    const shmemi_dteam t = shmemi_dteam_get(call, team);
    return want_size ? t.size : t.index;
}
template <int Group> SHMEMI_DI int shmemi_dteam_sync_api(const char *call, shmem_team_t team) {
    shmemi_dteam_sync<Group>(call, shmemi_dteam_get(call, team));
    return 0;
}
#endif

/* ---- the names ---------------------------------------------------------------------------------
 */

/* shmemx_NAME_GROUPNAME: the device-only group form. */
#define SHMEMI_DEV_COLL_GROUP(NAME, GROUPNAME, GROUP, PARAMS, IMPL, ...)                           \
    SHMEMI_DI int shmemx_##NAME##_##GROUPNAME PARAMS SHMEMI_DEVICE_BODY(                           \
        return IMPL<GROUP>("shmemx_" #NAME "_" #GROUPNAME, __VA_ARGS__);)
/* shmem_NAME (both sides), shmemx_NAME_warp and shmemx_NAME_block (device); IMPL<Group> takes the
 * call's name and then the arguments after it. */
#define SHMEMI_DEV_COLL3(NAME, PARAMS, ARGS, IMPL, ...)                                            \
    SHMEMI_TWIN(int, shmem_##NAME, PARAMS, ARGS,                                                   \
                return IMPL<SHMEMI_GROUP_THREAD>("shmem_" #NAME, __VA_ARGS__);)                    \
    SHMEMI_DEV_COLL_GROUP(NAME, warp, SHMEMI_GROUP_WARP, PARAMS, IMPL, __VA_ARGS__)                \
    SHMEMI_DEV_COLL_GROUP(NAME, block, SHMEMI_GROUP_BLOCK, PARAMS, IMPL, __VA_ARGS__)

/* Local query, no communication; the caller's index in team (-1 for SHMEM_TEAM_INVALID). */
SHMEMI_TWIN(int, shmem_team_my_pe, (shmem_team_t team), (team),
            return shmemi_dteam_query("shmem_team_my_pe", team, 0);)
/* Local query, no communication; the number of PEs in team (-1 for SHMEM_TEAM_INVALID). */
SHMEMI_TWIN(int, shmem_team_n_pes, (shmem_team_t team), (team),
            return shmemi_dteam_query("shmem_team_n_pes", team, 1);)
/* Returns when every member called it; stores before it happen-before every member's accesses
 * after it (release/acquire, scope team), like sync_all. Returns 0. */
SHMEMI_DEV_COLL3(team_sync, (shmem_team_t team), (team), shmemi_dteam_sync_api, team)

/* Collective over team; returns when dest holds block i of every member j's source at block j
 * (nelems bytes or elements per block) and source may be reused; no ordering of other
 * operations. Returns 0. Every member's dest must be ready when the first member calls. */
SHMEMI_DEV_COLL3(alltoallmem, (shmem_team_t team, void *dest, const void *source, size_t nelems),
                 (team, dest, source, nelems), shmemi_dalltoall, team, dest, source, nelems)
/* Collective over team; returns when dest holds every member's source in team order and source
 * may be reused; no ordering of other operations. Returns 0. Dest as for alltoall. */
SHMEMI_DEV_COLL3(fcollectmem, (shmem_team_t team, void *dest, const void *source, size_t nelems),
                 (team, dest, source, nelems), shmemi_dfcollect, team, dest, source, nelems)
/* Collective over team; returns when dest (on every member, the root included) holds the root's
 * source; no ordering of other operations. Returns 0. Dest as for alltoall. */
SHMEMI_DEV_COLL3(broadcastmem,
                 (shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root),
                 (team, dest, source, nelems, PE_root), shmemi_dbroadcast, team, dest, source,
                 nelems, PE_root)

/* The typed alltoall, fcollect and broadcast of the RMA type table: as the mem forms above. */
#define SHMEMI_DEV_COLL_TYPED(CT, NAME)                                                            \
    SHMEMI_DEV_COLL3(                                                                              \
        NAME##_alltoall, (shmem_team_t team, CT * dest, const CT *source, size_t nelems),          \
        (team, dest, source, nelems), shmemi_dalltoall_typed, team, dest, source, nelems)          \
    SHMEMI_DEV_COLL3(                                                                              \
        NAME##_fcollect, (shmem_team_t team, CT * dest, const CT *source, size_t nelems),          \
        (team, dest, source, nelems), shmemi_dfcollect_typed, team, dest, source, nelems)          \
    SHMEMI_DEV_COLL3(NAME##_broadcast,                                                             \
                     (shmem_team_t team, CT * dest, const CT *source, size_t nelems, int PE_root), \
                     (team, dest, source, nelems, PE_root), shmemi_dbroadcast_typed, team, dest,   \
                     source, nelems, PE_root)
SHMEMI_RMA_TYPES(SHMEMI_DEV_COLL_TYPED)

/* Collective over team; returns when dest holds, element-wise, the operation over every member's
 * source, combined in team order (every member gets the same bits), and source may be reused;
 * dest may equal source but not overlap it otherwise. No ordering of other operations. Returns 0.
 * AND, OR, XOR on the bitwise reduction types; MIN, MAX, SUM, PROD on the MIN/MAX types. */
#define SHMEMI_DEV_REDUCE(CT, NAME, OP)                                                            \
    SHMEMI_DEV_COLL3(NAME##_##OP##_reduce,                                                         \
                     (shmem_team_t team, CT * dest, const CT *source, size_t nreduce),             \
                     (team, dest, source, nreduce), shmemi_dreduce, shmemi_rop_##OP(), team, dest, \
                     source, nreduce)
#define SHMEMI_DEV_REDUCE_BITWISE(CT, NAME)                                                        \
    SHMEMI_DEV_REDUCE(CT, NAME, and)                                                               \
    SHMEMI_DEV_REDUCE(CT, NAME, or) SHMEMI_DEV_REDUCE(CT, NAME, xor)
#define SHMEMI_DEV_REDUCE_ARITH(CT, NAME)                                                          \
    SHMEMI_DEV_REDUCE(CT, NAME, min)                                                               \
    SHMEMI_DEV_REDUCE(CT, NAME, max)                                                               \
    SHMEMI_DEV_REDUCE(CT, NAME, sum) SHMEMI_DEV_REDUCE(CT, NAME, prod)
SHMEMI_REDUCE_BITWISE_TYPES(SHMEMI_DEV_REDUCE_BITWISE)
SHMEMI_REDUCE_MINMAX_TYPES(SHMEMI_DEV_REDUCE_ARITH)

/* collect and alltoalls: host only (their plain C declarations are hidden with the rest of the
 * typed team collectives, see shmem/device/shmem_device.h). */
#define SHMEMI_DEV_COLL_HOST_ONLY(CT, NAME)                                                        \
    SHMEMI_HOST_ONLY(int, shmem_##NAME##_collect,                                                  \
                     (shmem_team_t team, CT * dest, const CT *source, size_t nelems),              \
                     (team, dest, source, nelems))                                                 \
    SHMEMI_HOST_ONLY(int, shmem_##NAME##_alltoalls,                                                \
                     (shmem_team_t team, CT * dest, const CT *source, ptrdiff_t dst,               \
                      ptrdiff_t sst, size_t nelems),                                               \
                     (team, dest, source, dst, sst, nelems))
SHMEMI_RMA_TYPES(SHMEMI_DEV_COLL_HOST_ONLY)

#endif
