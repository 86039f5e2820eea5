/* SPDX-License-Identifier: BSD-3-Clause */
/* The public device API: the standard names as __host__ __device__ functions (on the host they
 * call the library's host implementation, on the device the operations of ops__funcs.h) and the
 * device-only group forms shmemx_*_warp / shmemx_*_block. The contract of each family is in
 * shmem/device/shmem_device.h. */
#ifndef SHMEM_DEVICE_IMPL_API__FUNCS_H
#define SHMEM_DEVICE_IMPL_API__FUNCS_H

#include <shmem/impl/typelists.h>
#include <shmem/impl/ctx__types.h>
#include <shmem/device/impl/ops__funcs.h>

/* A function of both sides: the host body calls the library's exported C function of the same
 * name, reached through an alias so that this inline C++ function can carry the name. */
#if SHMEMI_DEVICE_PASS
#define SHMEMI_TWIN_SELECT(HOST, ...) __VA_ARGS__
#else
#define SHMEMI_TWIN_SELECT(HOST, ...) HOST
#endif
/* The body of a device-only function; the host pass of a CUDA/HIP compiler sees a stub. */
#if SHMEMI_DEVICE_PASS
#define SHMEMI_DEVICE_BODY(...)                                                                    \
    { __VA_ARGS__ }
#else
#define SHMEMI_DEVICE_BODY(...)                                                                    \
    { __builtin_unreachable(); }
#endif
#define SHMEMI_TWIN(RET, NAME, PARAMS, ARGS, ...)                                                  \
    extern "C" RET shmemi_h_##NAME PARAMS __asm__(#NAME);                                          \
    static SHMEMI_HD RET NAME PARAMS {                                                             \
        SHMEMI_TWIN_SELECT(return shmemi_h_##NAME ARGS;, __VA_ARGS__)                              \
    }

#if SHMEMI_DEVICE_PASS
/* Contexts: the handle says everything but a team's PE translation (shmem/impl/ctx__types.h):
 * SHMEM_CTX_DEFAULT (NULL) and world-team contexts are never dereferenced, and the BYPASS path is
 * chosen from the handle's tag bit, with no memory access. Only a team-relative context reads its
 * object (host memory mapped into the GPU, one read of the team's start and stride per call).
 * Under SHMEM_DEVICE_CHECKS, SHMEM_CTX_INVALID or a destroyed context stops the kernel. */
SHMEMI_DI void shmemi_dcheck_ctx(shmem_ctx_t ctx) {
    if (SHMEM_DEVICE_CHECKS && ctx != SHMEM_CTX_DEFAULT &&
        (ctx == SHMEM_CTX_INVALID || SHMEMI_CTX_OBJECT(ctx)->magic != SHMEMI_CTX_MAGIC))
        shmemi_dfatal_message("shmem_ctx_*", "invalid context: SHMEM_CTX_INVALID or destroyed");
}
/* Whether ctx is a BYPASS context, from its tag bit alone: for calls that validated ctx already
 * through shmemi_dctx_pe. */
SHMEMI_DI int shmemi_dctx_tag_bypass(shmem_ctx_t ctx) {
    return (SHMEMI_CTX_TAGS(ctx) & SHMEMI_CTX_TAG_BYPASS) != 0;
}
SHMEMI_DI int shmemi_dctx_bypass(shmem_ctx_t ctx) {
    shmemi_dcheck_ctx(ctx);
    return shmemi_dctx_tag_bypass(ctx);
}
SHMEMI_DI int shmemi_dctx_pe(shmem_ctx_t ctx, int pe) {
    shmemi_dcheck_ctx(ctx);
    if ((SHMEMI_CTX_TAGS(ctx) & SHMEMI_CTX_TAG_TEAM) == 0)
        return pe;
    const struct shmemi_ctx *c = SHMEMI_CTX_OBJECT(ctx);
    if (SHMEM_DEVICE_CHECKS && (pe < 0 || pe >= c->team_n_pes))
        shmemi_dfatal_message("shmem_ctx_*", "PE out of range of the context's team");
    return c->team_start + pe * c->team_stride;
}

template <int Group>
SHMEMI_DI void shmemi_api_put(const char *call, shmem_ctx_t ctx, void *d, const void *s, size_t n,
                              int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (shmemi_dctx_tag_bypass(ctx))
        shmemi_dput<1, Group>(call, shmemi_dproxy_ctx(ctx), d, s, n, pe);
    else
        shmemi_dput<0, Group>(call, shmemi_dproxy_ctx(ctx), d, s, n, pe);
}
template <int Group>
SHMEMI_DI void shmemi_api_get(const char *call, shmem_ctx_t ctx, void *d, const void *s, size_t n,
                              int pe) {
    shmemi_dget<0, Group>(call, shmemi_dproxy_ctx(ctx), d, s, n, shmemi_dctx_pe(ctx, pe));
}
template <int Group> SHMEMI_DI void shmemi_api_quiet(shmem_ctx_t ctx) {
    if (shmemi_dctx_bypass(ctx))
        shmemi_dquiet_group<1, Group>(shmemi_dproxy_ctx(ctx));
    else
        shmemi_dquiet_group<0, Group>(shmemi_dproxy_ctx(ctx));
}
template <int Group> SHMEMI_DI void shmemi_api_fence(shmem_ctx_t ctx) {
    if (shmemi_dctx_bypass(ctx))
        shmemi_dfence_group<1, Group>(shmemi_dproxy_ctx(ctx));
    else
        shmemi_dfence_group<0, Group>(shmemi_dproxy_ctx(ctx));
}
template <int Group>
SHMEMI_DI void shmemi_api_put_signal(const char *call, shmem_ctx_t ctx, void *d, const void *s,
                                     size_t n, uint64_t *sig, uint64_t signal, int sig_op, int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (shmemi_dctx_tag_bypass(ctx))
        shmemi_dput_signal<1, Group>(call, shmemi_dproxy_ctx(ctx), d, s, n, sig, signal, sig_op,
                                     pe);
    else
        shmemi_dput_signal<0, Group>(call, shmemi_dproxy_ctx(ctx), d, s, n, sig, signal, sig_op,
                                     pe);
}
template <typename T>
SHMEMI_DI void shmemi_api_iput(const char *call, shmem_ctx_t ctx, T *d, const T *s, ptrdiff_t dst,
                               ptrdiff_t sst, size_t n, int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (n == 0)
        return;
    if (shmemi_dproxied(pe)) {
        for (size_t i = 0; i < n; i++)
            shmemi_dproxy_put<SHMEMI_GROUP_THREAD>(call, shmemi_dproxy_ctx(ctx),
                                                   d + (ptrdiff_t)i * dst, s + (ptrdiff_t)i * sst,
                                                   sizeof(T), pe);
        if (shmemi_dctx_tag_bypass(ctx))
            shmemi_dtrack_dirty();
        return;
    }
    T *r = (T *)shmemi_dremote(call, d, sizeof(T), pe);
    shmemi_dremote(call, d + (ptrdiff_t)(n - 1) * dst, sizeof(T), pe);
    if (shmemi_dctx_tag_bypass(ctx)) {
        shmemi_dcopy_strided<0, 1, SHMEMI_GROUP_THREAD>(r, dst, s, sst, n);
        shmemi_dtrack_dirty();
    } else {
        shmemi_dcopy_strided<0, 0, SHMEMI_GROUP_THREAD>(r, dst, s, sst, n);
    }
}
template <typename T>
SHMEMI_DI void shmemi_api_iget(const char *call, shmem_ctx_t ctx, T *d, const T *s, ptrdiff_t dst,
                               ptrdiff_t sst, size_t n, int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (n == 0)
        return;
    if (shmemi_dproxied(pe)) {
        for (size_t i = 0; i < n; i++)
            shmemi_dproxy_get_thread(call, shmemi_dproxy_ctx(ctx), d + (ptrdiff_t)i * dst,
                                     s + (ptrdiff_t)i * sst, sizeof(T), pe);
        return;
    }
    const T *r = (const T *)shmemi_dremote(call, s, sizeof(T), pe);
    shmemi_dremote(call, s + (ptrdiff_t)(n - 1) * sst, sizeof(T), pe);
    shmemi_dcopy_strided<1, 0, SHMEMI_GROUP_THREAD>(d, dst, r, sst, n);
}
template <typename T>
SHMEMI_DI void shmemi_api_p(const char *call, shmem_ctx_t ctx, T *d, T v, int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (shmemi_dproxied(pe)) {
        shmemi_dcheck_symmetric(call, d, sizeof(T));
        shmemi_dproxy_put<SHMEMI_GROUP_THREAD>(call, shmemi_dproxy_ctx(ctx), d, &v, sizeof(T), pe);
        if (shmemi_dctx_tag_bypass(ctx))
            shmemi_dtrack_dirty();
        return;
    }
    T *r = (T *)shmemi_dremote(call, d, sizeof(T), pe);
    if (shmemi_dctx_tag_bypass(ctx)) {
        shmemi_dstore<1>(r, v);
        shmemi_dtrack_dirty();
    } else {
        shmemi_dstore<0>(r, v);
    }
}
template <typename T>
SHMEMI_DI T shmemi_api_g(const char *call, shmem_ctx_t ctx, const T *s, int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    if (shmemi_dproxied(pe)) {
        shmemi_dcheck_symmetric(call, s, sizeof(T));
        T v;
        shmemi_dproxy_get_thread(call, shmemi_dproxy_ctx(ctx), &v, s, sizeof(T), pe);
        return v;
    }
    return shmemi_ld_bypass((const T *)shmemi_dremote(call, s, sizeof(T), pe));
}
/* The remote word of an AMO or signal update on ctx; on a BYPASS context the update, issued
 * right after, is recorded for fence and quiet. */
template <typename T>
SHMEMI_DI shmemi_dword<T> shmemi_api_amo_target(const char *call, shmem_ctx_t ctx, const T *d,
                                                int pe) {
    pe = shmemi_dctx_pe(ctx, pe);
    shmemi_dword<T> w = {NULL, (T *)d, pe, call, shmemi_dproxy_ctx(ctx)};
    if (shmemi_dproxied(pe))
        shmemi_dcheck_symmetric(call, d, sizeof(T));
    else
        w.r = (T *)shmemi_dremote(call, d, sizeof(T), pe);
    if (shmemi_dctx_tag_bypass(ctx))
        shmemi_dtrack_dirty();
    return w;
}
#endif

/* ---- setup, memory ----------------------------------------------------------------------------
 */

SHMEMI_TWIN(int, shmem_my_pe, (void), (), return shmemi_dstate.my_pe;)
SHMEMI_TWIN(int, shmem_n_pes, (void), (), return shmemi_dstate.n_pes;)
SHMEMI_TWIN(void *, shmem_ptr, (const void *dest, int pe), (dest, pe),
            return shmemi_dptr(dest, pe);)

/* ---- RMA --------------------------------------------------------------------------------------
 */

/* The default and context forms of one contiguous RMA call on elements of ESIZE bytes:
 * shmem_STEM and shmem_ctx_STEM. */
#define SHMEMI_DEV_RMA_PAIR(OP, STEM, DT, ESIZE)                                                   \
    SHMEMI_TWIN(void, shmem_##STEM, (DT * dest, const DT *source, size_t nelems, int pe),          \
                (dest, source, nelems, pe),                                                        \
                shmemi_api_##OP<SHMEMI_GROUP_THREAD>("shmem_" #STEM, SHMEM_CTX_DEFAULT, dest,      \
                                                     source, nelems * (ESIZE), pe);)               \
    SHMEMI_TWIN(void, shmem_ctx_##STEM,                                                            \
                (shmem_ctx_t ctx, DT * dest, const DT *source, size_t nelems, int pe),             \
                (ctx, dest, source, nelems, pe),                                                   \
                shmemi_api_##OP<SHMEMI_GROUP_THREAD>("shmem_ctx_" #STEM, ctx, dest, source,        \
                                                     nelems * (ESIZE), pe);)
SHMEMI_DEV_RMA_PAIR(put, putmem, void, 1)
SHMEMI_DEV_RMA_PAIR(put, putmem_nbi, void, 1)
SHMEMI_DEV_RMA_PAIR(get, getmem, void, 1)
SHMEMI_DEV_RMA_PAIR(get, getmem_nbi, void, 1)

/* The default and context forms of one strided RMA call on elements of type CT. */
#define SHMEMI_DEV_STRIDED_PAIR(OP, STEM, CT)                                                      \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_##STEM,                                                                        \
        (CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),        \
        (dest, source, dst, sst, nelems, pe),                                                      \
        shmemi_api_##OP("shmem_" #STEM, SHMEM_CTX_DEFAULT, dest, source, dst, sst, nelems, pe);)   \
    SHMEMI_TWIN(void, shmem_ctx_##STEM,                                                            \
                (shmem_ctx_t ctx, CT * dest, const CT *source, ptrdiff_t dst, ptrdiff_t sst,       \
                 size_t nelems, int pe),                                                           \
                (ctx, dest, source, dst, sst, nelems, pe),                                         \
                shmemi_api_##OP("shmem_ctx_" #STEM, ctx, dest, source, dst, sst, nelems, pe);)

#define SHMEMI_DEV_TYPED_RMA(CT, NAME)                                                             \
    SHMEMI_DEV_RMA_PAIR(put, NAME##_put, CT, sizeof(CT))                                           \
    SHMEMI_DEV_RMA_PAIR(put, NAME##_put_nbi, CT, sizeof(CT))                                       \
    SHMEMI_DEV_RMA_PAIR(get, NAME##_get, CT, sizeof(CT))                                           \
    SHMEMI_DEV_RMA_PAIR(get, NAME##_get_nbi, CT, sizeof(CT))                                       \
    SHMEMI_TWIN(void, shmem_##NAME##_p, (CT * dest, CT value, int pe), (dest, value, pe),          \
                shmemi_api_p("shmem_" #NAME "_p", SHMEM_CTX_DEFAULT, dest, value, pe);)            \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_p, (shmem_ctx_t ctx, CT * dest, CT value, int pe),        \
                (ctx, dest, value, pe),                                                            \
                shmemi_api_p("shmem_ctx_" #NAME "_p", ctx, dest, value, pe);)                      \
    SHMEMI_TWIN(CT, shmem_##NAME##_g, (const CT *source, int pe), (source, pe),                    \
                return shmemi_api_g("shmem_" #NAME "_g", SHMEM_CTX_DEFAULT, source, pe);)          \
    SHMEMI_TWIN(CT, shmem_ctx_##NAME##_g, (shmem_ctx_t ctx, const CT *source, int pe),             \
                (ctx, source, pe), return shmemi_api_g("shmem_ctx_" #NAME "_g", ctx, source, pe);) \
    SHMEMI_DEV_STRIDED_PAIR(iput, NAME##_iput, CT)                                                 \
    SHMEMI_DEV_STRIDED_PAIR(iget, NAME##_iget, CT)
/* long double has no GPU representation; every other type of the RMA table is provided. */
#define SHMEMI_DEV_RMA_TYPES(X) SHMEMI_RMA_TYPES_NO_LONGDOUBLE(X)
SHMEMI_DEV_RMA_TYPES(SHMEMI_DEV_TYPED_RMA)

/* Group forms (device only): every thread of the group calls with the same arguments. */
#define SHMEMI_DEV_GROUP_RMA(GROUPNAME, GROUP)                                                                    \
    SHMEMI_DI void shmemx_putmem_##GROUPNAME(                                                                     \
        void *dest, const void *source, size_t n,                                                                 \
        int pe) SHMEMI_DEVICE_BODY(shmemi_api_put<GROUP>("shmemx_putmem_" #GROUPNAME,                             \
                                                         SHMEM_CTX_DEFAULT, dest, source, n, pe);)                \
        SHMEMI_DI void shmemx_putmem_nbi_##GROUPNAME(                                                             \
            void *dest, const void *source, size_t n,                                                             \
            int pe) SHMEMI_DEVICE_BODY(shmemi_api_put<GROUP>("shmemx_putmem_nbi_" #GROUPNAME,                     \
                                                             SHMEM_CTX_DEFAULT, dest, source, n,                  \
                                                             pe);)                                                \
            SHMEMI_DI void shmemx_getmem_##GROUPNAME(                                                             \
                void *dest, const void *source, size_t n,                                                         \
                int pe) SHMEMI_DEVICE_BODY(shmemi_api_get<GROUP>("shmemx_getmem_" #GROUPNAME,                     \
                                                                 SHMEM_CTX_DEFAULT, dest, source,                 \
                                                                 n, pe);)                                         \
                SHMEMI_DI void shmemx_getmem_nbi_##GROUPNAME(                                                     \
                    void *dest, const void *source, size_t n,                                                     \
                    int pe) SHMEMI_DEVICE_BODY(shmemi_api_get<GROUP>("shmemx_getmem_"                             \
                                                                     "nbi_" #GROUPNAME,                           \
                                                                     SHMEM_CTX_DEFAULT, dest,                     \
                                                                     source, n, pe);)                             \
                    SHMEMI_DI void shmemx_ctx_putmem_nbi_##GROUPNAME(                                             \
                        shmem_ctx_t ctx, void *dest, const void *source, size_t n,                                \
                        int pe) SHMEMI_DEVICE_BODY(shmemi_api_put<GROUP>("shmemx_ctx_putmem_"                     \
                                                                         "nbi_" #GROUPNAME,                       \
                                                                         ctx, dest, source, n,                    \
                                                                         pe);)                                    \
                        SHMEMI_DI void shmemx_ctx_getmem_nbi_##GROUPNAME(                                         \
                            shmem_ctx_t ctx, void *dest, const void *source, size_t n,                            \
                            int pe) SHMEMI_DEVICE_BODY(shmemi_api_get<GROUP>("shmemx_ctx_getmem_"                 \
                                                                             "nbi_" #GROUPNAME,                   \
                                                                             ctx, dest, source, n,                \
                                                                             pe);)                                \
                            SHMEMI_DI void shmemx_putmem_signal_nbi_##GROUPNAME(                                  \
                                void *dest, const void *source, size_t n, uint64_t *sig_addr,                     \
                                uint64_t signal, int sig_op, int pe)                                              \
                                SHMEMI_DEVICE_BODY(shmemi_api_put_signal<GROUP>(                                  \
                                                       "shmemx_putmem_signal_nbi_" #GROUPNAME,                    \
                                                       SHMEM_CTX_DEFAULT, dest, source, n,                        \
                                                       sig_addr, signal, sig_op, pe);)                            \
                                    SHMEMI_DI void shmemx_ctx_putmem_signal_nbi_##GROUPNAME(                      \
                                        shmem_ctx_t ctx, void *dest, const void *source, size_t n,                \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)                  \
                                        SHMEMI_DEVICE_BODY(                                                       \
                                            shmemi_api_put_signal<GROUP>(                                         \
                                                "shmemx_ctx_putmem_signal_nbi_" #GROUPNAME, ctx,                  \
                                                dest, source, n, sig_addr, signal, sig_op,                        \
                                                pe);) SHMEMI_DI void                                              \
                                            shmemx_quiet_##GROUPNAME(void) SHMEMI_DEVICE_BODY(                    \
                                                shmemi_api_quiet<GROUP>(                                          \
                                                    SHMEM_CTX_DEFAULT);) SHMEMI_DI void                           \
                                                shmemx_ctx_quiet_##GROUPNAME(shmem_ctx_t ctx) SHMEMI_DEVICE_BODY( \
                                                    shmemi_api_quiet<GROUP>(ctx);) SHMEMI_DI void                 \
                                                    shmemx_fence_##GROUPNAME(void) SHMEMI_DEVICE_BODY(            \
                                                        shmemi_api_fence<GROUP>(                                  \
                                                            SHMEM_CTX_DEFAULT);) SHMEMI_DI void                   \
                                                        shmemx_ctx_fence_##GROUPNAME(shmem_ctx_t                  \
                                                                                         ctx)                     \
                                                            SHMEMI_DEVICE_BODY(                                   \
                                                                shmemi_api_fence<GROUP>(                          \
                                                                    ctx);) SHMEMI_DI void                         \
                                                                shmemx_barrier_all_##GROUPNAME(                   \
                                                                    void)                                         \
                                                                    SHMEMI_DEVICE_BODY(                           \
                                                                        shmemi_dbarrier<1, GROUP>(                \
                                                                            "shmemx_barrier_"                     \
                                                                            "all_" #GROUPNAME);) SHMEMI_DI void   \
                                                                        shmemx_sync_all_##GROUPNAME(              \
                                                                            void)                                 \
                                                                            SHMEMI_DEVICE_BODY(                   \
                                                                                shmemi_dbarrier<                  \
                                                                                    0, GROUP>(                    \
                                                                                    "shmemx_sync_"                \
                                                                                    "all"                         \
                                                                                    "_" #GROUPNAME);)
SHMEMI_DEV_GROUP_RMA(warp, SHMEMI_GROUP_WARP)
SHMEMI_DEV_GROUP_RMA(block, SHMEMI_GROUP_BLOCK)

/* ---- AMO --------------------------------------------------------------------------------------
 */

#define SHMEMI_DEV_AMO_FETCH_SET_SWAP(CT, NAME)                                                    \
    SHMEMI_TWIN(CT, shmem_##NAME##_atomic_fetch, (const CT *source, int pe), (source, pe),         \
                return shmemi_damo_fetch(shmemi_api_amo_target("shmem_" #NAME "_atomic_fetch",     \
                                                               SHMEM_CTX_DEFAULT, source, pe));)   \
    SHMEMI_TWIN(CT, shmem_ctx_##NAME##_atomic_fetch, (shmem_ctx_t ctx, const CT *source, int pe),  \
                (ctx, source, pe),                                                                 \
                return shmemi_damo_fetch(                                                          \
                    shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_fetch", ctx, source, pe));)  \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_set, (CT * dest, CT value, int pe), (dest, value, pe), \
                shmemi_damo_set(shmemi_api_amo_target("shmem_" #NAME "_atomic_set",                \
                                                      SHMEM_CTX_DEFAULT, dest, pe),                \
                                value);)                                                           \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_ctx_##NAME##_atomic_set, (shmem_ctx_t ctx, CT * dest, CT value, int pe),       \
        (ctx, dest, value, pe),                                                                    \
        shmemi_damo_set(shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_set", ctx, dest, pe),    \
                        value);)                                                                   \
    SHMEMI_TWIN(CT, shmem_##NAME##_atomic_swap, (CT * dest, CT value, int pe), (dest, value, pe),  \
                return shmemi_damo_swap(shmemi_api_amo_target("shmem_" #NAME "_atomic_swap",       \
                                                              SHMEM_CTX_DEFAULT, dest, pe),        \
                                        value);)                                                   \
    SHMEMI_TWIN(                                                                                   \
        CT, shmem_ctx_##NAME##_atomic_swap, (shmem_ctx_t ctx, CT * dest, CT value, int pe),        \
        (ctx, dest, value, pe),                                                                    \
        return shmemi_damo_swap(                                                                   \
            shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_swap", ctx, dest, pe), value);)

#define SHMEMI_DEV_AMO_BINARY(CT, NAME, OP, IMPL)                                                  \
    SHMEMI_TWIN(                                                                                   \
        CT, shmem_##NAME##_atomic_fetch_##OP, (CT * dest, CT value, int pe), (dest, value, pe),    \
        return shmemi_damo_##IMPL(shmemi_api_amo_target("shmem_" #NAME "_atomic_fetch_" #OP,       \
                                                        SHMEM_CTX_DEFAULT, dest, pe),              \
                                  value);)                                                         \
    SHMEMI_TWIN(CT, shmem_ctx_##NAME##_atomic_fetch_##OP,                                          \
                (shmem_ctx_t ctx, CT * dest, CT value, int pe), (ctx, dest, value, pe),            \
                return shmemi_damo_##IMPL(                                                         \
                    shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_fetch_" #OP, ctx, dest, pe), \
                    value);)                                                                       \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_##OP, (CT * dest, CT value, int pe),                   \
                (dest, value, pe),                                                                 \
                shmemi_damo_##IMPL##_nf(shmemi_api_amo_target("shmem_" #NAME "_atomic_" #OP,       \
                                                              SHMEM_CTX_DEFAULT, dest, pe),        \
                                        value);)                                                   \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_ctx_##NAME##_atomic_##OP, (shmem_ctx_t ctx, CT * dest, CT value, int pe),      \
        (ctx, dest, value, pe),                                                                    \
        shmemi_damo_##IMPL##_nf(                                                                   \
            shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_" #OP, ctx, dest, pe), value);)

#define SHMEMI_DEV_AMO_STANDARD(CT, NAME)                                                          \
    SHMEMI_DEV_AMO_FETCH_SET_SWAP(CT, NAME)                                                        \
    SHMEMI_DEV_AMO_BINARY(CT, NAME, add, add)                                                      \
    SHMEMI_TWIN(                                                                                   \
        CT, shmem_##NAME##_atomic_compare_swap, (CT * dest, CT cond, CT value, int pe),            \
        (dest, cond, value, pe),                                                                   \
        return shmemi_damo_cswap(shmemi_api_amo_target("shmem_" #NAME "_atomic_compare_swap",      \
                                                       SHMEM_CTX_DEFAULT, dest, pe),               \
                                 cond, value);)                                                    \
    SHMEMI_TWIN(                                                                                   \
        CT, shmem_ctx_##NAME##_atomic_compare_swap,                                                \
        (shmem_ctx_t ctx, CT * dest, CT cond, CT value, int pe), (ctx, dest, cond, value, pe),     \
        return shmemi_damo_cswap(                                                                  \
            shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_compare_swap", ctx, dest, pe), cond, \
            value);)                                                                               \
    SHMEMI_TWIN(CT, shmem_##NAME##_atomic_fetch_inc, (CT * dest, int pe), (dest, pe),              \
                return shmemi_damo_add(shmemi_api_amo_target("shmem_" #NAME "_atomic_fetch_inc",   \
                                                             SHMEM_CTX_DEFAULT, dest, pe),         \
                                       (CT)1);)                                                    \
    SHMEMI_TWIN(                                                                                   \
        CT, shmem_ctx_##NAME##_atomic_fetch_inc, (shmem_ctx_t ctx, CT * dest, int pe),             \
        (ctx, dest, pe),                                                                           \
        return shmemi_damo_add(                                                                    \
            shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_fetch_inc", ctx, dest, pe), (CT)1);) \
    SHMEMI_TWIN(void, shmem_##NAME##_atomic_inc, (CT * dest, int pe), (dest, pe),                  \
                shmemi_damo_add_nf(shmemi_api_amo_target("shmem_" #NAME "_atomic_inc",             \
                                                         SHMEM_CTX_DEFAULT, dest, pe),             \
                                   (CT)1);)                                                        \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_ctx_##NAME##_atomic_inc, (shmem_ctx_t ctx, CT * dest, int pe),                 \
        (ctx, dest, pe),                                                                           \
        shmemi_damo_add_nf(shmemi_api_amo_target("shmem_ctx_" #NAME "_atomic_inc", ctx, dest, pe), \
                           (CT)1);)
#define SHMEMI_DEV_AMO_BITWISE(CT, NAME)                                                           \
    SHMEMI_DEV_AMO_BINARY(CT, NAME, and, and)                                                      \
    SHMEMI_DEV_AMO_BINARY(CT, NAME, or, or)                                                        \
    SHMEMI_DEV_AMO_BINARY(CT, NAME, xor, xor)
SHMEMI_AMO_STANDARD_TYPES(SHMEMI_DEV_AMO_STANDARD)
SHMEMI_AMO_EXTENDED_ONLY_TYPES(SHMEMI_DEV_AMO_FETCH_SET_SWAP)
SHMEMI_AMO_BITWISE_TYPES(SHMEMI_DEV_AMO_BITWISE)

/* ---- signals ----------------------------------------------------------------------------------
 */

#define SHMEMI_DEV_PUT_SIGNAL(SUFFIX)                                                              \
    SHMEMI_TWIN(void, shmem_putmem_signal##SUFFIX,                                                 \
                (void *dest, const void *source, size_t nelems, uint64_t *sig_addr,                \
                 uint64_t signal, int sig_op, int pe),                                             \
                (dest, source, nelems, sig_addr, signal, sig_op, pe),                              \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>("shmem_putmem_signal" #SUFFIX,          \
                                                           SHMEM_CTX_DEFAULT, dest, source,        \
                                                           nelems, sig_addr, signal, sig_op, pe);) \
    SHMEMI_TWIN(void, shmem_ctx_putmem_signal##SUFFIX,                                             \
                (shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,                   \
                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe),                         \
                (ctx, dest, source, nelems, sig_addr, signal, sig_op, pe),                         \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>("shmem_ctx_putmem_signal" #SUFFIX, ctx, \
                                                           dest, source, nelems, sig_addr, signal, \
                                                           sig_op, pe);)
SHMEMI_DEV_PUT_SIGNAL()
SHMEMI_DEV_PUT_SIGNAL(_nbi)

#define SHMEMI_DEV_TYPED_PUT_SIGNAL1(CT, NAME, SUFFIX)                                             \
    SHMEMI_TWIN(void, shmem_##NAME##_put_signal##SUFFIX,                                           \
                (CT * dest, const CT *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,  \
                 int sig_op, int pe),                                                              \
                (dest, source, nelems, sig_addr, signal, sig_op, pe),                              \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>(                                        \
                    "shmem_" #NAME "_put_signal" #SUFFIX, SHMEM_CTX_DEFAULT, dest, source,         \
                    nelems * sizeof(CT), sig_addr, signal, sig_op, pe);)                           \
    SHMEMI_TWIN(void, shmem_ctx_##NAME##_put_signal##SUFFIX,                                       \
                (shmem_ctx_t ctx, CT * dest, const CT *source, size_t nelems, uint64_t *sig_addr,  \
                 uint64_t signal, int sig_op, int pe),                                             \
                (ctx, dest, source, nelems, sig_addr, signal, sig_op, pe),                         \
                shmemi_api_put_signal<SHMEMI_GROUP_THREAD>(                                        \
                    "shmem_ctx_" #NAME "_put_signal" #SUFFIX, ctx, dest, source,                   \
                    nelems * sizeof(CT), sig_addr, signal, sig_op, pe);)
#define SHMEMI_DEV_TYPED_PUT_SIGNAL(CT, NAME)                                                      \
    SHMEMI_DEV_TYPED_PUT_SIGNAL1(CT, NAME, )                                                       \
    SHMEMI_DEV_TYPED_PUT_SIGNAL1(CT, NAME, _nbi)
SHMEMI_DEV_RMA_TYPES(SHMEMI_DEV_TYPED_PUT_SIGNAL)

SHMEMI_TWIN(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr), (sig_addr),
            return shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(sig_addr);)
SHMEMI_TWIN(void, shmem_signal_add, (uint64_t * sig_addr, uint64_t signal, int pe),
            (sig_addr, signal, pe),
            shmemi_damo_add_nf(shmemi_api_amo_target("shmem_signal_add", SHMEM_CTX_DEFAULT,
                                                     sig_addr, pe),
                               signal);)
SHMEMI_TWIN(void, shmem_signal_set, (uint64_t * sig_addr, uint64_t signal, int pe),
            (sig_addr, signal, pe),
            shmemi_damo_set(shmemi_api_amo_target("shmem_signal_set", SHMEM_CTX_DEFAULT, sig_addr,
                                                  pe),
                            signal);)
SHMEMI_TWIN(void, shmem_ctx_signal_add,
            (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe),
            (ctx, sig_addr, signal, pe),
            shmemi_damo_add_nf(shmemi_api_amo_target("shmem_ctx_signal_add", ctx, sig_addr, pe),
                               signal);)
SHMEMI_TWIN(void, shmem_ctx_signal_set,
            (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe),
            (ctx, sig_addr, signal, pe),
            shmemi_damo_set(shmemi_api_amo_target("shmem_ctx_signal_set", ctx, sig_addr, pe),
                            signal);)
SHMEMI_TWIN(uint64_t, shmem_signal_wait_until, (uint64_t * sig_addr, int cmp, uint64_t cmp_value),
            (sig_addr, cmp, cmp_value),
            return shmemi_dwait_until<0>("shmem_signal_wait_until", (const uint64_t *)sig_addr, cmp,
                                         cmp_value);)

/* Waits on a signal with the context's acquire rule: the default context acquires. A wait on a
 * BYPASS context acquires for everything but plain loads: later library operations, bypass loads
 * and stores, and plain stores happen after it; later plain loads may return stale data until
 * shmemx_acquire(SHMEMX_SCOPE_WORLD). */
SHMEMI_TWIN(uint64_t, shmemx_ctx_signal_wait_until,
            (shmem_ctx_t ctx, uint64_t *sig_addr, int cmp, uint64_t cmp_value),
            (ctx, sig_addr, cmp, cmp_value),
            if (shmemi_dctx_bypass(ctx)) return shmemi_dwait_until<1>(
                "shmemx_ctx_signal_wait_until", (const uint64_t *)sig_addr, cmp, cmp_value);
            return shmemi_dwait_until<0>("shmemx_ctx_signal_wait_until", (const uint64_t *)sig_addr,
                                         cmp, cmp_value);)

/* ---- ordering and completion ------------------------------------------------------------------
 */

SHMEMI_TWIN(void, shmem_fence, (void), (),
            shmemi_api_fence<SHMEMI_GROUP_THREAD>(SHMEM_CTX_DEFAULT);)
SHMEMI_TWIN(void, shmem_ctx_fence, (shmem_ctx_t ctx), (ctx),
            shmemi_api_fence<SHMEMI_GROUP_THREAD>(ctx);)
SHMEMI_TWIN(void, shmem_quiet, (void), (),
            shmemi_api_quiet<SHMEMI_GROUP_THREAD>(SHMEM_CTX_DEFAULT);)
SHMEMI_TWIN(void, shmem_ctx_quiet, (shmem_ctx_t ctx), (ctx),
            shmemi_api_quiet<SHMEMI_GROUP_THREAD>(ctx);)
SHMEMI_TWIN(void, shmem_pe_quiet, (const int *target_pes, size_t npes), (target_pes, npes),
            (void)target_pes;
            (void)npes; shmemi_api_quiet<SHMEMI_GROUP_THREAD>(SHMEM_CTX_DEFAULT);)
SHMEMI_TWIN(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int *target_pes, size_t npes),
            (ctx, target_pes, npes), (void)target_pes;
            (void)npes; shmemi_api_quiet<SHMEMI_GROUP_THREAD>(ctx);)

/* ---- point-to-point synchronization -----------------------------------------------------------
 */

#if SHMEMI_DEVICE_PASS
/* One pass of wait_until_{all,any,some} or test_{all,any,some} over the words that status does
 * not exclude: the number that satisfy cmp (mode 0 all, 1 any, 2 some). Mode any stops at the
 * first and stores its index in *first; mode some stores the indices in indices unless it is
 * NULL. Acquire as for shmemi_dpoll. */
template <int Acquire, typename T>
SHMEMI_DI size_t shmemi_api_scan(const T *ivars, size_t n, size_t *indices, const int *status,
                                 int cmp, const T *values, int vector, int mode, size_t *first) {
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (status && status[i])
            continue;
        if (shmemi_dcompare(shmemi_dpoll<Acquire>(ivars + i), cmp,
                            vector ? values[i] : values[0])) {
            if (mode == 1) {
                *first = i;
                return 1;
            }
            if (mode == 2 && indices)
                indices[hits] = i;
            hits++;
        }
    }
    return hits;
}
/* Whether hits of a scan complete the call: every remaining word (all), at least one (any,
 * some). */
SHMEMI_DI bool shmemi_api_scan_done(size_t hits, size_t remaining, int mode) {
    return mode == 0 ? hits == remaining : hits > 0;
}
/* The words of a multi-word call that its status leaves in play. */
SHMEMI_DI size_t shmemi_api_remaining(const int *status, size_t n) {
    size_t remaining = 0;
    for (size_t i = 0; i < n; i++)
        remaining += !(status && status[i]);
    return remaining;
}
/* The default context's multi-word waits and tests: relaxed scans until one completes the call,
 * then one acquiring scan whose result is the answer (a wait scans on if it no longer completes
 * the call). One try: true when both scans complete the call, with the acquiring scan's hits and
 * first. */
template <typename T>
SHMEMI_DI bool shmemi_api_scan_try(T *ivars, size_t n, size_t *indices, const int *status, int cmp,
                                   const T *values, int vector, int mode, size_t remaining,
                                   size_t *hits, size_t *first) {
    if (!shmemi_api_scan_done(
            shmemi_api_scan<0>(ivars, n, (size_t *)NULL, status, cmp, values, vector, mode, first),
            remaining, mode))
        return false;
    *hits = shmemi_api_scan<1>(ivars, n, indices, status, cmp, values, vector, mode, first);
    shmemi_dpoll_acquire();
    return shmemi_api_scan_done(*hits, remaining, mode);
}
template <typename T>
SHMEMI_DI size_t shmemi_api_wait_set(const char *call, T *ivars, size_t n, size_t *indices,
                                     const int *status, int cmp, const T *values, int vector,
                                     int mode /* 0 all, 1 any, 2 some */) {
    const size_t remaining = shmemi_api_remaining(status, n);
    if (remaining == 0)
        return mode == 1 ? SIZE_MAX : 0;
    shmemi_wait_timer timer = {0, 0};
    size_t hits = 0, first = 0;
    while (!shmemi_api_scan_try(ivars, n, indices, status, cmp, values, vector, mode, remaining,
                                &hits, &first))
        shmemi_wait_tick(timer, call, ivars);
    return mode == 1 ? first : hits;
}
template <typename T>
SHMEMI_DI size_t shmemi_api_test_set(T *ivars, size_t n, size_t *indices, const int *status,
                                     int cmp, const T *values, int vector, int mode) {
    size_t hits = 0, first = 0;
    if (!shmemi_api_scan_try(ivars, n, indices, status, cmp, values, vector, mode,
                             shmemi_api_remaining(status, n), &hits, &first))
        return mode == 1 ? SIZE_MAX : 0;
    return mode == 0 ? 1 : mode == 1 ? first : hits;
}
#endif

#define SHMEMI_DEV_P2P(CT, NAME)                                                                   \
    SHMEMI_TWIN(                                                                                   \
        void, shmem_##NAME##_wait_until, (CT * ivar, int cmp, CT cmp_value),                       \
        (ivar, cmp, cmp_value),                                                                    \
        shmemi_dwait_until<0>("shmem_" #NAME "_wait_until", (const CT *)ivar, cmp, cmp_value);)    \
    SHMEMI_TWIN(int, shmem_##NAME##_test, (CT * ivar, int cmp, CT cmp_value),                      \
                (ivar, cmp, cmp_value), return shmemi_dtest<0>((const CT *)ivar, cmp, cmp_value);)
#define SHMEMI_DEV_P2P_MULTI(CT, NAME)                                                             \
    SHMEMI_TWIN(void, shmem_##NAME##_wait_until_all,                                               \
                (CT * ivars, size_t nelems, const int *status, int cmp, CT cmp_value),             \
                (ivars, nelems, status, cmp, cmp_value),                                           \
                shmemi_api_wait_set("shmem_" #NAME "_wait_until_all", ivars, nelems,               \
                                    (size_t *)NULL, status, cmp, &cmp_value, 0, 0);)               \
    SHMEMI_TWIN(size_t, shmem_##NAME##_wait_until_any,                                             \
                (CT * ivars, size_t nelems, const int *status, int cmp, CT cmp_value),             \
                (ivars, nelems, status, cmp, cmp_value),                                           \
                return shmemi_api_wait_set("shmem_" #NAME "_wait_until_any", ivars, nelems,        \
                                           (size_t *)NULL, status, cmp, &cmp_value, 0, 1);)        \
    SHMEMI_TWIN(                                                                                   \
        size_t, shmem_##NAME##_wait_until_some,                                                    \
        (CT * ivars, size_t nelems, size_t * indices, const int *status, int cmp, CT cmp_value),   \
        (ivars, nelems, indices, status, cmp, cmp_value),                                          \
        return shmemi_api_wait_set("shmem_" #NAME "_wait_until_some", ivars, nelems, indices,      \
                                   status, cmp, &cmp_value, 0, 2);)                                \
    SHMEMI_TWIN(void, shmem_##NAME##_wait_until_all_vector,                                        \
                (CT * ivars, size_t nelems, const int *status, int cmp, const CT *cmp_values),     \
                (ivars, nelems, status, cmp, cmp_values),                                          \
                shmemi_api_wait_set("shmem_" #NAME "_wait_until_all_vector", ivars, nelems,        \
                                    (size_t *)NULL, status, cmp, (const CT *)cmp_values, 1, 0);)   \
    SHMEMI_TWIN(size_t, shmem_##NAME##_wait_until_any_vector,                                      \
                (CT * ivars, size_t nelems, const int *status, int cmp, const CT *cmp_values),     \
                (ivars, nelems, status, cmp, cmp_values),                                          \
                return shmemi_api_wait_set("shmem_" #NAME "_wait_until_any_vector", ivars, nelems, \
                                           (size_t *)NULL, status, cmp, (const CT *)cmp_values, 1, \
                                           1);)                                                    \
    SHMEMI_TWIN(size_t, shmem_##NAME##_wait_until_some_vector,                                     \
                (CT * ivars, size_t nelems, size_t * indices, const int *status, int cmp,          \
                 const CT *cmp_values),                                                            \
                (ivars, nelems, indices, status, cmp, cmp_values),                                 \
                return shmemi_api_wait_set("shmem_" #NAME "_wait_until_some_vector", ivars,        \
                                           nelems, indices, status, cmp, (const CT *)cmp_values,   \
                                           1, 2);)                                                 \
    SHMEMI_TWIN(int, shmem_##NAME##_test_all,                                                      \
                (CT * ivars, size_t nelems, const int *status, int cmp, CT cmp_value),             \
                (ivars, nelems, status, cmp, cmp_value),                                           \
                return (int)shmemi_api_test_set(ivars, nelems, (size_t *)NULL, status, cmp,        \
                                                &cmp_value, 0, 0);)                                \
    SHMEMI_TWIN(                                                                                   \
        size_t, shmem_##NAME##_test_any,                                                           \
        (CT * ivars, size_t nelems, const int *status, int cmp, CT cmp_value),                     \
        (ivars, nelems, status, cmp, cmp_value),                                                   \
        return shmemi_api_test_set(ivars, nelems, (size_t *)NULL, status, cmp, &cmp_value, 0, 1);) \
    SHMEMI_TWIN(                                                                                   \
        size_t, shmem_##NAME##_test_some,                                                          \
        (CT * ivars, size_t nelems, size_t * indices, const int *status, int cmp, CT cmp_value),   \
        (ivars, nelems, indices, status, cmp, cmp_value),                                          \
        return shmemi_api_test_set(ivars, nelems, indices, status, cmp, &cmp_value, 0, 2);)        \
    SHMEMI_TWIN(int, shmem_##NAME##_test_all_vector,                                               \
                (CT * ivars, size_t nelems, const int *status, int cmp, const CT *cmp_values),     \
                (ivars, nelems, status, cmp, cmp_values),                                          \
                return (int)shmemi_api_test_set(ivars, nelems, (size_t *)NULL, status, cmp,        \
                                                (const CT *)cmp_values, 1, 0);)                    \
    SHMEMI_TWIN(size_t, shmem_##NAME##_test_any_vector,                                            \
                (CT * ivars, size_t nelems, const int *status, int cmp, const CT *cmp_values),     \
                (ivars, nelems, status, cmp, cmp_values),                                          \
                return shmemi_api_test_set(ivars, nelems, (size_t *)NULL, status, cmp,             \
                                           (const CT *)cmp_values, 1, 1);)                         \
    SHMEMI_TWIN(size_t, shmem_##NAME##_test_some_vector,                                           \
                (CT * ivars, size_t nelems, size_t * indices, const int *status, int cmp,          \
                 const CT *cmp_values),                                                            \
                (ivars, nelems, indices, status, cmp, cmp_values),                                 \
                return shmemi_api_test_set(ivars, nelems, indices, status, cmp,                    \
                                           (const CT *)cmp_values, 1, 2);)
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DEV_P2P)
SHMEMI_P2P_SYNC_TYPES(SHMEMI_DEV_P2P_MULTI)

/* ---- barrier ----------------------------------------------------------------------------------
 */

SHMEMI_TWIN(void, shmem_barrier_all, (void), (),
            shmemi_dbarrier<1, SHMEMI_GROUP_THREAD>("shmem_barrier_all");)
SHMEMI_TWIN(void, shmem_sync_all, (void), (),
            shmemi_dbarrier<0, SHMEMI_GROUP_THREAD>("shmem_sync_all");)

#endif
