/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-translation-unit device state and the helpers every device operation uses: address
 * translation (the one routing decision on the device), argument checks, wait timeouts and
 * cooperative groups (thread, warp, block). */
#ifndef SHMEM_DEVICE_IMPL_STATE__FUNCS_H
#define SHMEM_DEVICE_IMPL_STATE__FUNCS_H

#include <stdio.h>

#include <shmem/device/impl/gpu_port.h>
#include <shmem/device/impl/state__types.h>

#ifndef SHMEM_DEVICE_CHECKS
#define SHMEM_DEVICE_CHECKS 0
#endif

/* Every translation unit that includes shmem.h gets its own copy of the state block, without
 * relocatable device code; the registration object below makes shmem_init fill it. */
static __constant__ shmemi_device_state_t shmemi_dstate;

static int shmemi_dstate_update(const shmemi_device_state_t *state) {
    int device = -1;
    if (shmemi_gpu_get_device(&device) != shmemi_gpu_success || device != state->device)
        (void)shmemi_gpu_set_device(state->device);
    return (int)shmemi_gpu_memcpy_to_symbol(shmemi_dstate, state, sizeof(*state));
}

struct shmemi_dstate_registration {
    int handle;
    shmemi_dstate_registration() : handle(shmemi_device_state_register(shmemi_dstate_update)) {}
    ~shmemi_dstate_registration() { shmemi_device_state_unregister(handle); }
};
static shmemi_dstate_registration shmemi_dstate_registration_object;

#if SHMEMI_DEVICE_PASS

/* Groups: a thread, the calling warp (AMD: wavefront) or the calling block (AMD: work-group). */
#define SHMEMI_GROUP_THREAD 0
#define SHMEMI_GROUP_WARP 1
#define SHMEMI_GROUP_BLOCK 2

SHMEMI_DI void shmemi_dfatal_message(const char *call, const char *what);

/* A warp's rank is the lane register and its size a constant, so that the group forms' loops cost
 * no division and index by shifts: their setup is on the critical path of small collectives. So
 * the warp forms need a full warp: every lane calls (SHMEM_DEVICE_CHECKS=1 checks this on CUDA). */
template <int Group> SHMEMI_DI int shmemi_group_rank() {
    if (Group == SHMEMI_GROUP_THREAD)
        return 0;
#if defined(__CUDA_ARCH__)
    if (SHMEM_DEVICE_CHECKS && Group == SHMEMI_GROUP_WARP && __activemask() != 0xffffffffu)
        shmemi_dfatal_message("shmemx_*_warp", "called by a partial warp: every one of its 32 "
                                               "lanes must call a warp form");
#endif
    if (Group == SHMEMI_GROUP_WARP)
        return shmemi_lane_id();
    return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
template <int Group> SHMEMI_DI int shmemi_group_size() {
    if (Group == SHMEMI_GROUP_THREAD)
        return 1;
    return Group == SHMEMI_GROUP_WARP ? SHMEMI_WARP_SIZE
                                      : (int)(blockDim.x * blockDim.y * blockDim.z);
}
template <int Group> SHMEMI_DI void shmemi_group_sync() {
    if (Group == SHMEMI_GROUP_BLOCK)
        __syncthreads();
#if defined(__CUDA_ARCH__)
    else if (Group == SHMEMI_GROUP_WARP)
        __syncwarp();
#else
    else if (Group == SHMEMI_GROUP_WARP)
        __builtin_amdgcn_wave_barrier();
#endif
}

#if defined(__CUDA_ARCH__)
/* Synchronizes the group like shmemi_group_sync and returns whether pred holds in any of its
 * threads. */
template <int Group> SHMEMI_DI bool shmemi_group_any(bool pred) {
    if (Group == SHMEMI_GROUP_BLOCK)
        return __syncthreads_or(pred) != 0;
    if (Group == SHMEMI_GROUP_WARP) {
        __syncwarp();
        return __any_sync(0xffffffffu, pred) != 0;
    }
    return pred;
}
#endif

/* Error reports. The report is inline code with no call in it: a call anywhere in a kernel makes
 * ptxas serialize the kernel's wgmma (warning C7510), and printf is a call. The thread fills this
 * PE's record in mapped host memory (state__types.h), the host's watcher prints the standard
 * message with the thread's coordinates, and the kernel stops. */
SHMEMI_DI void shmemi_dreport_text(char *to, const char *from) {
    int i = 0;
    for (; from != NULL && from[i] != '\0' && i < SHMEMI_DREPORT_TEXT - 1; i++)
        to[i] = from[i];
    to[i] = '\0';
}
#if defined(SHMEMI_ISA_PROBE)
/* scripts/check-isa's rules look at each operation's own instructions; there the report is a bare
 * trap, since its claim and release on host memory would match every rule. check-isa also
 * compiles the probes without this and checks that no kernel calls anything. */
SHMEMI_DI void shmemi_dfatal(int, const char *, const char *, const void *, long long, long long,
                             long long = 0, int = 0) {
    shmemi_trap();
}
#else
SHMEMI_DI void shmemi_dfatal(int kind, const char *call, const char *what, const void *addr,
                             long long a, long long b, long long c = 0, int cmp = 0) {
    shmemi_dreport_t *r = shmemi_dstate.report;
    if (r == NULL) {
        shmemi_trap();
        return;
    }
    if (shmemi_ptx_atom_cas_relaxed<SHMEMI_SCOPE_SYSTEM>(
            &r->state, SHMEMI_DREPORT_EMPTY, SHMEMI_DREPORT_WRITING) == SHMEMI_DREPORT_EMPTY) {
        r->kind = kind;
        r->block[0] = (int32_t)blockIdx.x;
        r->block[1] = (int32_t)blockIdx.y;
        r->block[2] = (int32_t)blockIdx.z;
        r->thread[0] = (int32_t)threadIdx.x;
        r->thread[1] = (int32_t)threadIdx.y;
        r->thread[2] = (int32_t)threadIdx.z;
        r->addr = (uint64_t)(uintptr_t)addr;
        r->a = a;
        r->b = b;
        r->c = c;
        r->cmp = cmp;
        shmemi_dreport_text(r->call, call);
        shmemi_dreport_text(r->what, what);
        shmemi_st_release<SHMEMI_SCOPE_SYSTEM>(&r->state, SHMEMI_DREPORT_READY);
    }
    /* Every failing thread waits until the report is printed: a trap ends the whole grid, also
     * the thread that is still writing the record. */
    const uint64_t start = shmemi_clock_ns();
    while (shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(&r->state) != SHMEMI_DREPORT_SEEN &&
           shmemi_clock_ns() - start < SHMEMI_DREPORT_WAIT_NS)
        shmemi_pause();
    shmemi_trap();
}
#endif
SHMEMI_DI void shmemi_dfatal_message(const char *call, const char *what) {
    shmemi_dfatal(SHMEMI_DFATAL_MESSAGE, call, what, NULL, 0, 0);
}
SHMEMI_DI void shmemi_dfatal_pe(const char *call, int pe) {
    shmemi_dfatal(SHMEMI_DFATAL_PE, call, NULL, NULL, pe, shmemi_dstate.n_pes);
}
SHMEMI_DI void shmemi_dfatal_address(const char *call, const void *addr, size_t len) {
    shmemi_dfatal(SHMEMI_DFATAL_ADDRESS, call, NULL, addr, (long long)len, 0);
}
SHMEMI_DI void shmemi_dfatal_unreachable(const char *call, const void *addr, int pe) {
    shmemi_dfatal(SHMEMI_DFATAL_UNREACHABLE, call, NULL, addr, pe, 0);
}
SHMEMI_DI void shmemi_dfatal_timeout(const char *call, const void *addr) {
    shmemi_dfatal(SHMEMI_DFATAL_TIMEOUT, call, NULL, addr,
                  (long long)(shmemi_dstate.timeout_ns / 1000000), 0);
}

SHMEMI_DI void shmemi_dcheck_pe(const char *call, int pe) {
    if (SHMEM_DEVICE_CHECKS && (pe < 0 || pe >= shmemi_dstate.n_pes))
        shmemi_dfatal_pe(call, pe);
}
SHMEMI_DI void shmemi_dcheck_symmetric(const char *call, const void *addr, size_t len) {
    if (!SHMEM_DEVICE_CHECKS)
        return;
    const char *a = (const char *)addr;
    /* Before shmem_init there is no record and no watcher: this check (a debug build's) prints
     * from the device. */
    if (!shmemi_dstate.initialized) {
        printf("libshmem: PE ?: %s: called before shmem_init (block (%d,%d,%d), thread "
               "(%d,%d,%d))\n",
               call, (int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, (int)threadIdx.x,
               (int)threadIdx.y, (int)threadIdx.z);
        shmemi_trap();
    }
    if (a < shmemi_dstate.heap_base || len > shmemi_dstate.heap_size ||
        (size_t)(a - shmemi_dstate.heap_base) > shmemi_dstate.heap_size - len)
        shmemi_dfatal_address(call, addr, len);
}

/* The address of symmetric object addr on PE pe when pe is load/store reachable, else NULL. */
SHMEMI_DI void *shmemi_dptr(const void *addr, int pe) {
    if (pe < 0 || pe >= shmemi_dstate.n_pes || pe >= SHMEMI_DEVICE_MAX_PES)
        return NULL;
    size_t off = (size_t)((const char *)addr - shmemi_dstate.heap_base);
    if (off >= shmemi_dstate.heap_size)
        return NULL;
    switch (shmemi_dstate.peer_path[pe]) {
    case SHMEMI_PATH_LOADSTORE:
        return shmemi_dstate.peer_base[pe] + off;
    default:
        return NULL;
    }
}

/* SHMEM_DEVICE_PROXY=0 (before including shmem.h) compiles kernels without the proxy path: PEs
 * are reached by load/store only, and the operations are exactly those of the load/store path
 * (scripts/check-isa checks them so). */
#ifndef SHMEM_DEVICE_PROXY
#define SHMEM_DEVICE_PROXY 1
#endif

/* Whether operations to pe go through the host proxy (pe checked by the caller or in range). */
SHMEMI_DI bool shmemi_dproxied(int pe) {
#if SHMEM_DEVICE_PROXY
    return (unsigned)pe < (unsigned)SHMEMI_DEVICE_MAX_PES &&
           shmemi_dstate.peer_path[pe] == SHMEMI_PATH_PROXY;
#else
    (void)pe;
    return false;
#endif
}
/* Whether this PE has a proxy ring at all (some peer's path is the proxy). */
SHMEMI_DI bool shmemi_dproxy_on() {
#if SHMEM_DEVICE_PROXY
    return shmemi_dstate.proxy.n_slots != 0;
#else
    return false;
#endif
}

/* The remote address an RMA or AMO on [addr, addr+len) at pe goes to; checked, never NULL. */
SHMEMI_DI void *shmemi_dremote(const char *call, const void *addr, size_t len, int pe) {
    shmemi_dcheck_pe(call, pe);
    shmemi_dcheck_symmetric(call, addr, len);
    void *r = shmemi_dptr(addr, pe);
    if (!r)
        shmemi_dfatal_unreachable(call, addr, pe);
    return r;
}

/* Wait loops check the clock every 1024 polls when SHMEM_DEVICE_TIMEOUT_MS is set. */
struct shmemi_wait_timer {
    uint64_t start;
    uint32_t polls;
};
/* Whether a wait that ticks t on every poll has lasted longer than SHMEM_DEVICE_TIMEOUT_MS. */
SHMEMI_DI bool shmemi_wait_expired(shmemi_wait_timer &t) {
    uint64_t limit = shmemi_dstate.timeout_ns;
    if (limit == 0 || (++t.polls & 1023u) != 0)
        return false;
    uint64_t now = shmemi_clock_ns();
    if (t.start == 0)
        t.start = now;
    return now - t.start > limit;
}
SHMEMI_DI void shmemi_wait_tick(shmemi_wait_timer &t, const char *call, const void *addr) {
    if (shmemi_wait_expired(t))
        shmemi_dfatal_timeout(call, addr);
}
/* The same for a wait on one word: the message names the condition and the value last seen. */
template <typename T>
SHMEMI_DI void shmemi_wait_tick_value(shmemi_wait_timer &t, const char *call, const T *addr, T seen,
                                      int cmp, T value) {
    if (shmemi_wait_expired(t))
        shmemi_dfatal(SHMEMI_DFATAL_WAIT, call, NULL, addr,
                      (long long)(shmemi_dstate.timeout_ns / 1000000), (long long)seen,
                      (long long)value, cmp);
}

#endif

#endif
