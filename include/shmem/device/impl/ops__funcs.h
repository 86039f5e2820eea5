/* SPDX-License-Identifier: BSD-3-Clause */
/* The device operations, once per path (Bypass = 0: default context, 1: BYPASS context) and per
 * group (thread, warp, block). The public functions in shmem/device/impl/api__funcs.h choose one
 * of these; scripts/check-isa compiles each of them alone and checks its instructions against
 * docs/memory_model.md's implementation table. Operations that may take the proxy also take the
 * caller's context as the ring's context field (pctx, shmemi_dproxy_ctx); the load/store path
 * never reads it. */
#ifndef SHMEM_DEVICE_IMPL_OPS__FUNCS_H
#define SHMEM_DEVICE_IMPL_OPS__FUNCS_H

#include <shmem/device/impl/copy__funcs.h>
#include <shmem/device/impl/fence_order__funcs.h>
#include <shmem/device/impl/poll__funcs.h>
#include <shmem/device/impl/proxy__funcs.h>
#include <shmem/device/impl/quiet_order__funcs.h>
#include <shmem/device/impl/state__funcs.h>

#if SHMEMI_DEVICE_PASS

/* ---- BYPASS tracking ---------------------------------------------------------------------------
 */

/* A BYPASS fence or quiet needs a system-scope fence only when the calling thread has issued a
 * put, AMO, signal or bypass store since its last BYPASS fence or quiet that emitted one
 * (docs/memory_model.md, implementation table). On NVIDIA, where that fence costs 0.6 us, each
 * thread keeps this in a slot of shmemi_dstate.bypass_track, a table in this GPU's memory: slot =
 * the thread's global linear id modulo 2^SHMEMI_TRACK_SLOTS_LOG2. A slot holds an identity word:
 * bit 0 dirty, bits 1-22 the global id divided by the slot count, bits 23-63 the low 41 bits of
 * %gridid. Every tracked operation stores {me, dirty}; a fence or quiet loads the slot and skips
 * the system fence only when it reads exactly {me, clean}, otherwise it emits the fence and then
 * stores {me, clean}. All slot accesses are relaxed at gpu scope.
 *
 * Why reading {me, clean} means nothing is outstanding: let D be the {me, dirty} store of the
 * thread's last tracked operation. Coherence of one location makes the load return D or a store
 * coherence-after D. Only a thread with identity "me" stores words carrying it: within a grid the
 * identity is the thread's exact global id, and grids running at the same time have different
 * launch numbers (they would need to be 2^41 launches apart to share the truncated one). The
 * thread's own stores to the slot are coherence-ordered as in program order, so a {me, clean}
 * read is a clean store the thread made after D, and every clean store follows, in the same call,
 * a system fence emitted after D's operation (in a group form, by the thread that acts for the
 * group, between two group barriers): that fence already orders everything before it before
 * everything after this call. Other threads that share the slot can only make the fence run when
 * it was not needed. Threads whose id does not fit (grids of 2^32 blocks or more) are not tracked
 * and always fence.
 *
 * On AMD a BYPASS fence is only a store-count wait, cheaper than a slot load: no tracking there. */
#if defined(__CUDA_ARCH__)
#define SHMEMI_DEVICE_TRACK 1
#else
#define SHMEMI_DEVICE_TRACK 0
#endif

#if SHMEMI_DEVICE_TRACK
/* The calling thread's slot (NULL: not tracked) and its clean identity word. */
struct shmemi_track_t {
    uint64_t *slot;
    uint64_t clean;
};
SHMEMI_DI shmemi_track_t shmemi_dtrack_self() {
    const uint64_t block =
        blockIdx.x + (uint64_t)gridDim.x * (blockIdx.y + (uint64_t)gridDim.y * blockIdx.z);
    const uint64_t id = block * (uint64_t)shmemi_group_size<SHMEMI_GROUP_BLOCK>() +
                        (uint64_t)shmemi_group_rank<SHMEMI_GROUP_BLOCK>();
    shmemi_track_t t;
    t.slot = (block >> 32) == 0 && shmemi_dstate.bypass_track
                 ? shmemi_dstate.bypass_track + (id & ((1u << SHMEMI_TRACK_SLOTS_LOG2) - 1))
                 : NULL;
    t.clean = (shmemi_grid_id() << 23) | ((id >> SHMEMI_TRACK_SLOTS_LOG2) << 1);
    return t;
}
/* Whether t's thread may have BYPASS operations outstanding (reads its slot). */
SHMEMI_DI bool shmemi_dtrack_outstanding(const shmemi_track_t &t) {
    return t.slot == NULL || shmemi_ld_relaxed<SHMEMI_SCOPE_DEVICE>(t.slot) != t.clean;
}
/* Records that t's thread has nothing outstanding: only after a system fence that covers it. */
SHMEMI_DI void shmemi_dtrack_settle(const shmemi_track_t &t) {
    if (t.slot)
        shmemi_st_relaxed<SHMEMI_SCOPE_DEVICE>(t.slot, t.clean);
}
#endif

/* Records a BYPASS put, AMO, signal or bypass store of the calling thread. */
SHMEMI_DI void shmemi_dtrack_dirty() {
#if SHMEMI_DEVICE_TRACK
    shmemi_track_t t = shmemi_dtrack_self();
    if (t.slot)
        shmemi_st_relaxed<SHMEMI_SCOPE_DEVICE>(t.slot, t.clean | 1);
#endif
}

/* A bypass store as shmemx_st_bypass makes it: recorded for BYPASS fence and quiet. */
template <typename T> SHMEMI_DI void shmemi_st_bypass(T *p, T v) {
    shmemi_dtrack_dirty();
    shmemi_st_bypass_untracked(p, v);
}

/* put: local source, remote destination. get: remote source (always read with bypass loads, so a
 * get never returns a stale cache line), local destination. */
template <int Bypass, int Group>
SHMEMI_DI void shmemi_dput(const char *call, uint64_t pctx, void *dest, const void *source,
                           size_t n, int pe) {
    if (shmemi_dproxied(pe)) {
        shmemi_dcheck_symmetric(call, dest, n);
        shmemi_dproxy_put<Group>(call, pctx, dest, source, n, pe);
        if (Bypass)
            shmemi_dtrack_dirty();
        return;
    }
    void *r = shmemi_dremote(call, dest, n, pe);
    shmemi_dcopy<0, Bypass, Group>(r, source, n);
    if (Bypass)
        shmemi_dtrack_dirty();
}
template <int Bypass, int Group>
SHMEMI_DI void shmemi_dget(const char *call, uint64_t pctx, void *dest, const void *source,
                           size_t n, int pe) {
    if (shmemi_dproxied(pe)) {
        shmemi_dcheck_symmetric(call, source, n);
        shmemi_dproxy_get<Group>(call, pctx, dest, source, n, pe);
        return;
    }
    const void *r = shmemi_dremote(call, source, n, pe);
    shmemi_dcopy<1, 0, Group>(dest, r, n);
}

/* ---- ordering and completion ------------------------------------------------------------------
 */

/* The fence of a quiet (Quiet = 1) or fence (Quiet = 0) itself (quiet_order__funcs.h,
 * fence_order__funcs.h). shmemi_dorder emits it only when operations are outstanding on tracked
 * BYPASS contexts. */
template <int Quiet, int Bypass> SHMEMI_DI void shmemi_dorder_fence() {
    if (Quiet)
        shmemi_dquiet_order<Bypass>();
    else
        shmemi_dfence_order<Bypass>();
}
/* The proxy's part of a quiet or fence of context pctx (quiet_order__funcs.h,
 * fence_order__funcs.h). */
template <int Quiet> SHMEMI_DI void shmemi_dorder_proxy(uint64_t pctx) {
    if (Quiet)
        shmemi_dquiet_proxy("shmem_quiet", pctx);
    else
        shmemi_dfence_proxy("shmem_fence", pctx);
}
template <int Bypass> SHMEMI_DI void shmemi_dquiet(uint64_t pctx) {
    shmemi_dorder_fence<1, Bypass>();
    shmemi_dquiet_proxy("shmem_quiet", pctx);
}
/* Quiet (Quiet = 1) or fence (Quiet = 0) of a thread or group: every thread's stores are drained
 * and the group synchronized before one thread acts, so the fence covers the whole group's
 * operations. Tracked BYPASS contexts: that thread emits the fence only when some thread of the
 * group may have operations outstanding (a group-wide OR of their slots), and those threads record
 * that it covered them only after the group has synchronized again, that is after the fence. */
template <int Quiet, int Bypass, int Group> SHMEMI_DI void shmemi_dorder(uint64_t pctx) {
    shmemi_drain_stores();
#if SHMEMI_DEVICE_TRACK
    if (Bypass) {
        const shmemi_track_t t = shmemi_dtrack_self();
        const bool mine = shmemi_dtrack_outstanding(t);
        if (shmemi_group_any<Group>(mine) && shmemi_group_rank<Group>() == 0)
            shmemi_dorder_fence<Quiet, 1>();
        if (shmemi_group_rank<Group>() == 0)
            shmemi_dorder_proxy<Quiet>(pctx);
        shmemi_group_sync<Group>();
        if (mine)
            shmemi_dtrack_settle(t);
        return;
    }
#endif
    shmemi_group_sync<Group>();
    if (shmemi_group_rank<Group>() == 0) {
        shmemi_dorder_fence<Quiet, Bypass>();
        shmemi_dorder_proxy<Quiet>(pctx);
    }
    shmemi_group_sync<Group>();
}
template <int Bypass, int Group> SHMEMI_DI void shmemi_dquiet_group(uint64_t pctx) {
    shmemi_dorder<1, Bypass, Group>(pctx);
}
template <int Bypass, int Group> SHMEMI_DI void shmemi_dfence_group(uint64_t pctx) {
    shmemi_dorder<0, Bypass, Group>(pctx);
}

/* ---- atomics (relaxed, system scope, atomic within the GPU atomicity domain) -------------------
 */

#define SHMEMI_DAMO_RMW(NAME)                                                                      \
    template <typename T> SHMEMI_DI T shmemi_damo_##NAME(T *r, T v) {                              \
        typedef typename shmemi_bits<sizeof(T)>::type B;                                           \
        return shmemi_bit_cast<T>(                                                                 \
            shmemi_ptx_atom_##NAME##_relaxed<SHMEMI_SCOPE_SYSTEM>((B *)r, shmemi_bit_cast<B>(v))); \
    }
SHMEMI_DAMO_RMW(add)
SHMEMI_DAMO_RMW(and)
SHMEMI_DAMO_RMW(or)
SHMEMI_DAMO_RMW(xor)
SHMEMI_DAMO_RMW(swap)
/* Non-fetching forms (add, inc, and, or, xor without a result). */
#define SHMEMI_DAMO_RED(NAME)                                                                      \
    template <typename T> SHMEMI_DI void shmemi_damo_##NAME##_nf(T *r, T v) {                      \
        typedef typename shmemi_bits<sizeof(T)>::type B;                                           \
        shmemi_ptx_red_##NAME##_relaxed<SHMEMI_SCOPE_SYSTEM>((B *)r, shmemi_bit_cast<B>(v));       \
    }
SHMEMI_DAMO_RED(add)
SHMEMI_DAMO_RED(and)
SHMEMI_DAMO_RED(or)
SHMEMI_DAMO_RED(xor)
template <typename T> SHMEMI_DI T shmemi_damo_cswap(T *r, T cond, T v) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    return shmemi_bit_cast<T>(shmemi_ptx_atom_cas_relaxed<SHMEMI_SCOPE_SYSTEM>(
        (B *)r, shmemi_bit_cast<B>(cond), shmemi_bit_cast<B>(v)));
}
template <typename T> SHMEMI_DI T shmemi_damo_fetch(const T *r) {
    return shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(r);
}
template <typename T> SHMEMI_DI void shmemi_damo_set(T *r, T v) {
    shmemi_st_relaxed<SHMEMI_SCOPE_SYSTEM>(r, v);
}

/* The target of a device AMO: its mapped address r, or (r NULL) the symmetric address addr on pe,
 * which the proxy reaches on the context of field pctx. The forms below take the proxy path only
 * when r is NULL; without SHMEM_DEVICE_PROXY they are the pointer forms above. */
template <typename T> struct shmemi_dword {
    T *r;
    T *addr;
    int pe;
    const char *call;
    uint64_t pctx;
};
template <typename T>
SHMEMI_DI T shmemi_dword_proxy(const shmemi_dword<T> &w, uint32_t op, T v, T cmp, bool fetch) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    const uint64_t old =
        shmemi_dproxy_amo(w.call, w.pctx, op, w.addr, (uint64_t)shmemi_bit_cast<B>(v),
                          (uint64_t)shmemi_bit_cast<B>(cmp), sizeof(T), fetch, w.pe);
    return shmemi_bit_cast<T>((B)old);
}
#define SHMEMI_DAMO_WORD(NAME, OP)                                                                 \
    template <typename T> SHMEMI_DI T shmemi_damo_##NAME(const shmemi_dword<T> &w, T v) {          \
        if (SHMEM_DEVICE_PROXY && w.r == NULL)                                                     \
            return shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_##OP, v, T(), true);                  \
        return shmemi_damo_##NAME(w.r, v);                                                         \
    }                                                                                              \
    template <typename T> SHMEMI_DI void shmemi_damo_##NAME##_nf(const shmemi_dword<T> &w, T v) {  \
        if (SHMEM_DEVICE_PROXY && w.r == NULL)                                                     \
            (void)shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_##OP, v, T(), false);                  \
        else                                                                                       \
            shmemi_damo_##NAME##_nf(w.r, v);                                                       \
    }
SHMEMI_DAMO_WORD(add, ADD)
SHMEMI_DAMO_WORD(and, AND)
SHMEMI_DAMO_WORD(or, OR)
SHMEMI_DAMO_WORD(xor, XOR)
#undef SHMEMI_DAMO_WORD
template <typename T> SHMEMI_DI T shmemi_damo_swap(const shmemi_dword<T> &w, T v) {
    if (SHMEM_DEVICE_PROXY && w.r == NULL)
        return shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_SWAP, v, T(), true);
    return shmemi_damo_swap(w.r, v);
}
template <typename T> SHMEMI_DI T shmemi_damo_cswap(const shmemi_dword<T> &w, T cond, T v) {
    if (SHMEM_DEVICE_PROXY && w.r == NULL)
        return shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_CSWAP, v, cond, true);
    return shmemi_damo_cswap(w.r, cond, v);
}
template <typename T> SHMEMI_DI T shmemi_damo_fetch(const shmemi_dword<T> &w) {
    if (SHMEM_DEVICE_PROXY && w.r == NULL)
        return shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_FETCH, T(), T(), true);
    return shmemi_damo_fetch(w.r);
}
template <typename T> SHMEMI_DI void shmemi_damo_set(const shmemi_dword<T> &w, T v) {
    if (SHMEM_DEVICE_PROXY && w.r == NULL)
        (void)shmemi_dword_proxy(w, SHMEMI_PROXY_AMO_OP_SET, v, T(), false);
    else
        shmemi_damo_set(w.r, v);
}

/* ---- signals ----------------------------------------------------------------------------------
 */

/* Writes the signal after the payload: one system-scope release (st.release.sys or
 * red.release.sys.add on NVIDIA, no separate fence), in BYPASS contexts too; in a BYPASS context
 * on AMD a store drain and a bypass store or relaxed atomic, with no writeback. */
template <int Bypass> SHMEMI_DI void shmemi_dsignal(uint64_t *r, uint64_t value, int sig_op) {
#if defined(__HIP_DEVICE_COMPILE__)
    if (Bypass) {
        shmemi_drain_stores();
        if (sig_op == SHMEM_SIGNAL_ADD)
            shmemi_ptx_red_add_relaxed<SHMEMI_SCOPE_SYSTEM>(r, value);
        else
            shmemi_st_bypass_untracked(r, value);
        return;
    }
#endif
    if (sig_op == SHMEM_SIGNAL_ADD)
        shmemi_ptx_red_add_release<SHMEMI_SCOPE_SYSTEM>(r, value);
    else
        shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(r, value);
}

template <int Bypass, int Group>
SHMEMI_DI void shmemi_dput_signal(const char *call, uint64_t pctx, void *dest, const void *source,
                                  size_t n, uint64_t *sig_addr, uint64_t signal, int sig_op,
                                  int pe) {
    if (shmemi_dproxied(pe)) {
        shmemi_dcheck_symmetric(call, dest, n);
        shmemi_dcheck_symmetric(call, sig_addr, sizeof(uint64_t));
        shmemi_dproxy_put_signal<Group>(call, pctx, dest, source, n, sig_addr, signal, sig_op, pe);
        if (Bypass)
            shmemi_dtrack_dirty();
        return;
    }
    void *r = shmemi_dremote(call, dest, n, pe);
    uint64_t *rs = (uint64_t *)shmemi_dremote(call, sig_addr, sizeof(uint64_t), pe);
    shmemi_dcopy<0, Bypass, Group>(r, source, n);
    if (Bypass)
        shmemi_dtrack_dirty();
    if (Group != SHMEMI_GROUP_THREAD) {
        shmemi_drain_stores();
        shmemi_group_sync<Group>();
    }
    if (shmemi_group_rank<Group>() == 0)
        shmemi_dsignal<Bypass>(rs, signal, sig_op);
    if (Group != SHMEMI_GROUP_THREAD)
        shmemi_group_sync<Group>();
}

/* ---- waiting ----------------------------------------------------------------------------------
 */

template <typename T> SHMEMI_DI bool shmemi_dcompare(T a, int cmp, T b) {
    switch (cmp) {
    case SHMEM_CMP_EQ:
        return a == b;
    case SHMEM_CMP_NE:
        return a != b;
    case SHMEM_CMP_GT:
        return a > b;
    case SHMEM_CMP_GE:
        return a >= b;
    case SHMEM_CMP_LT:
        return a < b;
    default:
        return a <= b;
    }
}

/* Whether *v, a poll of ivar, ends a wait or test: on a BYPASS context as it is; on the default
 * context once the acquiring read of ivar (its value into *v) still satisfies the condition. */
template <int Bypass, typename T>
SHMEMI_DI bool shmemi_dsatisfied(const T *ivar, int cmp, T value, T *v) {
    if (!shmemi_dcompare(*v, cmp, value))
        return false;
    if (Bypass)
        return true;
    *v = shmemi_dpoll<1>(ivar);
    shmemi_dpoll_acquire();
    return shmemi_dcompare(*v, cmp, value);
}
template <int Bypass, typename T>
SHMEMI_DI T shmemi_dwait_until(const char *call, const T *ivar, int cmp, T value) {
    shmemi_wait_timer timer = {0, 0};
    for (;;) {
        T v = shmemi_dpoll<0>(ivar);
        if (shmemi_dsatisfied<Bypass>(ivar, cmp, value, &v))
            return v;
        shmemi_wait_tick_value(timer, call, ivar, v, cmp, value);
    }
}
template <int Bypass, typename T> SHMEMI_DI int shmemi_dtest(const T *ivar, int cmp, T value) {
    T v = shmemi_dpoll<0>(ivar);
    return shmemi_dsatisfied<Bypass>(ivar, cmp, value, &v);
}

/* ---- barrier ----------------------------------------------------------------------------------
 */

/* (base + k) mod n for base in [0, n) and k in [0, n], without a division: the peer loops of the
 * barrier and the collectives run on one thread's critical path. */
SHMEMI_DI int shmemi_ring_next(int base, int k, int n) {
    const int j = base + k;
    return j >= n ? j - n : j;
}

/* Every PE writes its epoch into its word of every peer's flag array, then waits until every
 * peer's word there reaches the epoch. One system-scope fence first (sequentially consistent for
 * barrier, which includes quiet; release for sync) makes the relaxed flag stores releases; the
 * waits acquire, so the barrier also synchronizes memory. One thread; the proxy's commands on the
 * default context (field 0), which barrier_all completes. */
template <int Quiet> SHMEMI_DI void shmemi_dbarrier_thread(const char *call) {
    if (Quiet)
        shmemi_dquiet<0>(0);
    else
        shmemi_fence_acq_rel<SHMEMI_SCOPE_SYSTEM>();
    const int me = shmemi_dstate.my_pe, n = shmemi_dstate.n_pes;
    uint64_t *flags = shmemi_dstate.barrier_flags;
    uint64_t epoch = *shmemi_dstate.barrier_epoch + 1;
    *shmemi_dstate.barrier_epoch = epoch;
    if (!Quiet)
        shmemi_dproxy_order<0>(call, 0);
    for (int i = 1; i < n; i++) {
        int pe = shmemi_ring_next(me, i, n);
        if (shmemi_dproxied(pe)) {
            shmemi_dproxy_amo(call, 0, SHMEMI_PROXY_AMO_OP_SET, flags + me, epoch, 0,
                              sizeof(uint64_t), false, pe);
            continue;
        }
        uint64_t *r = (uint64_t *)shmemi_dremote(call, flags + me, sizeof(uint64_t), pe);
        shmemi_st_relaxed<SHMEMI_SCOPE_SYSTEM>(r, epoch);
    }
    for (int i = 1; i < n; i++) {
        int pe = shmemi_ring_next(me, i, n);
        shmemi_dwait_until<0>(call, (const uint64_t *)(flags + pe), SHMEM_CMP_GE, epoch);
    }
}
template <int Quiet, int Group> SHMEMI_DI void shmemi_dbarrier(const char *call) {
    shmemi_drain_stores();
    shmemi_group_sync<Group>();
    if (shmemi_group_rank<Group>() == 0)
        shmemi_dbarrier_thread<Quiet>(call);
    shmemi_group_sync<Group>();
}

#endif

#endif
