/* SPDX-License-Identifier: BSD-3-Clause */
/* The one CUDA/HIP portability header of libshmem.
 *
 * Host side: shmemi_gpu_* names for the runtime API, mapped to cuda* or hip*.
 * Device side: the scoped primitives every device operation is built from. Each takes its scope
 * as a template argument (SHMEMI_SCOPE_*) and states its memory order in its name, so the
 * instruction it emits is fixed at compile time:
 *   shmemi_ld_relaxed / shmemi_ld_acquire / shmemi_st_relaxed / shmemi_st_release
 *   shmemi_ptx_atom_<op>_<order> (fetching) and shmemi_ptx_red_<op>_<order> (non-fetching)
 *   read-modify-write atomics, shmemi_fence_acq_rel / shmemi_fence_sc
 *   shmemi_ld_bypass / shmemi_st_bypass_untracked: the cache-bypassing accesses of BYPASS
 *   contexts (shmemi_st_bypass, in ops__funcs.h, also records the store for BYPASS fence/quiet)
 *   shmemi_drain_stores: waits until this thread's earlier stores are performed (no cache op)
 * CUDA uses inline PTX, HIP the __hip_atomic builtins and, for bypass accesses, AMDGCN assembly.
 * docs/memory_model.md's implementation table names the instructions; scripts/check-isa checks
 * them. */
#ifndef SHMEM_DEVICE_IMPL_GPU_PORT_H
#define SHMEM_DEVICE_IMPL_GPU_PORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <shmem/config.h>

#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
#include <cuda_runtime.h>
#elif SHMEM_PLATFORM == SHMEM_PLATFORM_HIP
#include <hip/hip_runtime.h>
#else
#error "shmem/device/impl/gpu_port.h needs a CUDA or HIP build of libshmem"
#endif

/* ---- host runtime API ------------------------------------------------------------------------ */

#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
typedef cudaError_t shmemi_gpu_error_t;
typedef cudaStream_t shmemi_gpu_stream_t;
typedef cudaEvent_t shmemi_gpu_event_t;
typedef cudaIpcMemHandle_t shmemi_gpu_ipc_mem_handle_t;
typedef cudaDeviceProp shmemi_gpu_device_prop_t;
#define shmemi_gpu_success cudaSuccess
#define shmemi_gpu_get_error_string cudaGetErrorString
#define shmemi_gpu_get_last_error cudaGetLastError
#define shmemi_gpu_get_device_count cudaGetDeviceCount
#define shmemi_gpu_get_device cudaGetDevice
#define shmemi_gpu_set_device cudaSetDevice
#define shmemi_gpu_get_device_properties cudaGetDeviceProperties
#define shmemi_gpu_device_get_attribute cudaDeviceGetAttribute
#define shmemi_gpu_device_get_pci_bus_id cudaDeviceGetPCIBusId
#define shmemi_gpu_device_can_access_peer cudaDeviceCanAccessPeer
#define shmemi_gpu_device_enable_peer_access cudaDeviceEnablePeerAccess
#define shmemi_gpu_device_synchronize cudaDeviceSynchronize
#define shmemi_gpu_malloc cudaMalloc
#define shmemi_gpu_free cudaFree
#define shmemi_gpu_host_alloc cudaHostAlloc
#define shmemi_gpu_host_free cudaFreeHost
#define shmemi_gpu_host_alloc_mapped_portable (cudaHostAllocMapped | cudaHostAllocPortable)
#define shmemi_gpu_memset cudaMemset
#define shmemi_gpu_memcpy cudaMemcpy
#define shmemi_gpu_memcpy_async cudaMemcpyAsync
#define shmemi_gpu_memcpy_default cudaMemcpyDefault
#define shmemi_gpu_memcpy_to_symbol cudaMemcpyToSymbol
#define shmemi_gpu_ipc_get_mem_handle cudaIpcGetMemHandle
#define shmemi_gpu_ipc_open_mem_handle cudaIpcOpenMemHandle
#define shmemi_gpu_ipc_close_mem_handle cudaIpcCloseMemHandle
#define shmemi_gpu_ipc_lazy_enable_peer_access cudaIpcMemLazyEnablePeerAccess
#define shmemi_gpu_stream_synchronize cudaStreamSynchronize
#define shmemi_gpu_stream_query cudaStreamQuery
#define shmemi_gpu_error_not_ready cudaErrorNotReady
#define shmemi_gpu_stream_create_with_flags cudaStreamCreateWithFlags
#define shmemi_gpu_stream_destroy cudaStreamDestroy
#define shmemi_gpu_stream_non_blocking cudaStreamNonBlocking
#define shmemi_gpu_func_attributes cudaFuncAttributes
#define shmemi_gpu_func_get_attributes cudaFuncGetAttributes
#define shmemi_gpu_launch_kernel cudaLaunchKernel
#define shmemi_gpu_launch_cooperative_kernel cudaLaunchCooperativeKernel
#define shmemi_gpu_occupancy_max_active_blocks cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define shmemi_gpu_dev_attr_multiprocessor_count cudaDevAttrMultiProcessorCount
#define shmemi_gpu_dev_attr_cooperative_launch cudaDevAttrCooperativeLaunch
#define shmemi_gpu_error_peer_access_already_enabled cudaErrorPeerAccessAlreadyEnabled
#else
typedef hipError_t shmemi_gpu_error_t;
typedef hipStream_t shmemi_gpu_stream_t;
typedef hipEvent_t shmemi_gpu_event_t;
typedef hipIpcMemHandle_t shmemi_gpu_ipc_mem_handle_t;
typedef hipDeviceProp_t shmemi_gpu_device_prop_t;
#define shmemi_gpu_success hipSuccess
#define shmemi_gpu_get_error_string hipGetErrorString
#define shmemi_gpu_get_last_error hipGetLastError
#define shmemi_gpu_get_device_count hipGetDeviceCount
#define shmemi_gpu_get_device hipGetDevice
#define shmemi_gpu_set_device hipSetDevice
#define shmemi_gpu_get_device_properties hipGetDeviceProperties
#define shmemi_gpu_device_get_attribute hipDeviceGetAttribute
#define shmemi_gpu_device_get_pci_bus_id hipDeviceGetPCIBusId
#define shmemi_gpu_device_can_access_peer hipDeviceCanAccessPeer
#define shmemi_gpu_device_enable_peer_access hipDeviceEnablePeerAccess
#define shmemi_gpu_device_synchronize hipDeviceSynchronize
#define shmemi_gpu_malloc hipMalloc
#define shmemi_gpu_free hipFree
#define shmemi_gpu_host_alloc hipHostMalloc
#define shmemi_gpu_host_free hipHostFree
#define shmemi_gpu_host_alloc_mapped_portable (hipHostMallocMapped | hipHostMallocPortable)
#define shmemi_gpu_memset hipMemset
#define shmemi_gpu_memcpy hipMemcpy
#define shmemi_gpu_memcpy_async hipMemcpyAsync
#define shmemi_gpu_memcpy_default hipMemcpyDefault
#define shmemi_gpu_memcpy_to_symbol hipMemcpyToSymbol
#define shmemi_gpu_ipc_get_mem_handle hipIpcGetMemHandle
#define shmemi_gpu_ipc_open_mem_handle hipIpcOpenMemHandle
#define shmemi_gpu_ipc_close_mem_handle hipIpcCloseMemHandle
#define shmemi_gpu_ipc_lazy_enable_peer_access hipIpcMemLazyEnablePeerAccess
#define shmemi_gpu_stream_synchronize hipStreamSynchronize
#define shmemi_gpu_stream_query hipStreamQuery
#define shmemi_gpu_error_not_ready hipErrorNotReady
#define shmemi_gpu_stream_create_with_flags hipStreamCreateWithFlags
#define shmemi_gpu_stream_destroy hipStreamDestroy
#define shmemi_gpu_stream_non_blocking hipStreamNonBlocking
#define shmemi_gpu_func_attributes hipFuncAttributes
#define shmemi_gpu_func_get_attributes hipFuncGetAttributes
#define shmemi_gpu_launch_kernel hipLaunchKernel
#define shmemi_gpu_launch_cooperative_kernel hipLaunchCooperativeKernel
#define shmemi_gpu_occupancy_max_active_blocks hipOccupancyMaxActiveBlocksPerMultiprocessor
#define shmemi_gpu_dev_attr_multiprocessor_count hipDeviceAttributeMultiprocessorCount
#define shmemi_gpu_dev_attr_cooperative_launch hipDeviceAttributeCooperativeLaunch
#define shmemi_gpu_error_peer_access_already_enabled hipErrorPeerAccessAlreadyEnabled
#endif

/* ---- device primitives ----------------------------------------------------------------------- */

/* 1 in the device compilation pass of nvcc or hipcc, where the primitives below exist. */
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define SHMEMI_DEVICE_PASS 1
#else
#define SHMEMI_DEVICE_PASS 0
#endif

#define SHMEMI_HD __host__ __device__ __forceinline__
#define SHMEMI_DI __device__ __forceinline__

/* Scopes of docs/memory_model.md, narrowest first. PE and world scope are both the system scope
 * of the hardware: every PE of a node shares one coherence domain over NVLink/xGMI/PCIe. */
#define SHMEMI_SCOPE_THREAD 0
#define SHMEMI_SCOPE_WARP 1
#define SHMEMI_SCOPE_BLOCK 2
#define SHMEMI_SCOPE_DEVICE 3
#define SHMEMI_SCOPE_SYSTEM 4

/* Unsigned integer of N bytes, for moving any type through the primitives by its bits. */
template <int N> struct shmemi_bits;
template <> struct shmemi_bits<1> { typedef uint8_t type; };
template <> struct shmemi_bits<2> { typedef uint16_t type; };
template <> struct shmemi_bits<4> { typedef uint32_t type; };
template <> struct shmemi_bits<8> { typedef uint64_t type; };

template <typename To, typename From> SHMEMI_HD To shmemi_bit_cast(From v) {
    To r;
    memcpy(&r, &v, sizeof(r));
    return r;
}

#if defined(__CUDA_ARCH__)
/* ---- NVIDIA (PTX) ---- */

/* Emits one of three spellings of a scoped instruction: .sys, .gpu or .cta. */
#define SHMEMI_PTX_SCOPED(Scope, OP, REST, ...)                                                    \
    do {                                                                                           \
        if ((Scope) >= SHMEMI_SCOPE_SYSTEM)                                                        \
            asm volatile(OP ".sys" REST __VA_ARGS__);                                              \
        else if ((Scope) == SHMEMI_SCOPE_DEVICE)                                                   \
            asm volatile(OP ".gpu" REST __VA_ARGS__);                                              \
        else                                                                                       \
            asm volatile(OP ".cta" REST __VA_ARGS__);                                              \
    } while (0)

#define SHMEMI_PTX_LDST(BITS, CT, CONS)                                                            \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_ld_relaxed(const CT *p) {                         \
        CT v;                                                                                      \
        SHMEMI_PTX_SCOPED(Scope, "ld.relaxed", ".b" #BITS " %0, [%1];",                            \
                          : "=" CONS(v)                                                            \
                          : "l"(p)                                                                 \
                          : "memory");                                                             \
        return v;                                                                                  \
    }                                                                                              \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_ld_acquire(const CT *p) {                         \
        CT v;                                                                                      \
        SHMEMI_PTX_SCOPED(Scope, "ld.acquire", ".b" #BITS " %0, [%1];",                            \
                          : "=" CONS(v)                                                            \
                          : "l"(p)                                                                 \
                          : "memory");                                                             \
        return v;                                                                                  \
    }                                                                                              \
    template <int Scope> SHMEMI_DI void shmemi_ptx_st_relaxed(CT *p, CT v) {                       \
        SHMEMI_PTX_SCOPED(Scope, "st.relaxed", ".b" #BITS " [%0], %1;",                            \
                          :                                                                        \
                          : "l"(p), CONS(v)                                                        \
                          : "memory");                                                             \
    }                                                                                              \
    template <int Scope> SHMEMI_DI void shmemi_ptx_st_release(CT *p, CT v) {                       \
        SHMEMI_PTX_SCOPED(Scope, "st.release", ".b" #BITS " [%0], %1;",                            \
                          :                                                                        \
                          : "l"(p), CONS(v)                                                        \
                          : "memory");                                                             \
    }                                                                                              \
    SHMEMI_DI CT shmemi_ptx_ld_bypass(const CT *p) {                                               \
        CT v;                                                                                      \
        asm volatile("ld.relaxed.sys.L1::no_allocate.b" #BITS " %0, [%1];"                         \
                     : "=" CONS(v)                                                                 \
                     : "l"(p)                                                                      \
                     : "memory");                                                                  \
        return v;                                                                                  \
    }                                                                                              \
    SHMEMI_DI void shmemi_ptx_st_bypass(CT *p, CT v) {                                             \
        asm volatile("st.relaxed.sys.L1::no_allocate.b" #BITS " [%0], %1;" ::"l"(p), CONS(v)       \
                     : "memory");                                                                  \
    }

/* PTX has no 8-bit registers: bytes travel in 16-bit ones. */
#define SHMEMI_PTX_CONS_H(v) "h"(v)
#define SHMEMI_PTX_CONS_R(v) "r"(v)
#define SHMEMI_PTX_CONS_L(v) "l"(v)
SHMEMI_PTX_LDST(16, uint16_t, SHMEMI_PTX_CONS_H)
SHMEMI_PTX_LDST(32, uint32_t, SHMEMI_PTX_CONS_R)
SHMEMI_PTX_LDST(64, uint64_t, SHMEMI_PTX_CONS_L)

template <int Scope> SHMEMI_DI uint8_t shmemi_ptx_ld_relaxed(const uint8_t *p) {
    uint16_t v;
    SHMEMI_PTX_SCOPED(Scope, "ld.relaxed", ".u8 %0, [%1];", : "=h"(v) : "l"(p) : "memory");
    return (uint8_t)v;
}
template <int Scope> SHMEMI_DI uint8_t shmemi_ptx_ld_acquire(const uint8_t *p) {
    uint16_t v;
    SHMEMI_PTX_SCOPED(Scope, "ld.acquire", ".u8 %0, [%1];", : "=h"(v) : "l"(p) : "memory");
    return (uint8_t)v;
}
template <int Scope> SHMEMI_DI void shmemi_ptx_st_relaxed(uint8_t *p, uint8_t v) {
    SHMEMI_PTX_SCOPED(Scope, "st.relaxed", ".u8 [%0], %1;",
                      :
                      : "l"(p), "h"((uint16_t)v)
                      : "memory");
}
template <int Scope> SHMEMI_DI void shmemi_ptx_st_release(uint8_t *p, uint8_t v) {
    SHMEMI_PTX_SCOPED(Scope, "st.release", ".u8 [%0], %1;",
                      :
                      : "l"(p), "h"((uint16_t)v)
                      : "memory");
}
SHMEMI_DI uint8_t shmemi_ptx_ld_bypass(const uint8_t *p) {
    uint16_t v;
    asm volatile("ld.relaxed.sys.L1::no_allocate.u8 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
    return (uint8_t)v;
}
SHMEMI_DI void shmemi_ptx_st_bypass(uint8_t *p, uint8_t v) {
    asm volatile("st.relaxed.sys.L1::no_allocate.u8 [%0], %1;" ::"l"(p), "h"((uint16_t)v)
                 : "memory");
}

/* 16-byte payload accesses of bulk transfers. */
typedef uint4 shmemi_vec16_t;
SHMEMI_DI shmemi_vec16_t shmemi_ld_bypass_vec16(const shmemi_vec16_t *p) {
    shmemi_vec16_t v;
    asm volatile("ld.relaxed.sys.L1::no_allocate.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p)
                 : "memory");
    return v;
}
SHMEMI_DI void shmemi_st_bypass_vec16(shmemi_vec16_t *p, shmemi_vec16_t v) {
    asm volatile("st.relaxed.sys.L1::no_allocate.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x),
                 "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

template <int Scope> SHMEMI_DI void shmemi_fence_acq_rel() {
    SHMEMI_PTX_SCOPED(Scope, "fence.acq_rel", ";", ::: "memory");
}
template <int Scope> SHMEMI_DI void shmemi_fence_sc() {
    SHMEMI_PTX_SCOPED(Scope, "fence.sc", ";", ::: "memory");
}
/* Stores of one thread are performed in order of its later fences and releases on NVIDIA; no
 * separate wait exists or is needed. */
SHMEMI_DI void shmemi_drain_stores() {
    asm volatile("" ::: "memory");
}

/* Read-modify-write atomics. OP is the PTX operation, T the PTX type, CT the C type. */
#define SHMEMI_PTX_ATOM(NAME, SEM, OP, T, CT, CONS)                                                \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_atom_##NAME##_##SEM(CT *p, CT v) {                \
        CT r;                                                                                      \
        SHMEMI_PTX_SCOPED(Scope, "atom." #SEM, "." #OP "." #T " %0, [%1], %2;",                    \
                          : "=" CONS(r)                                                            \
                          : "l"(p), CONS(v)                                                        \
                          : "memory");                                                             \
        return r;                                                                                  \
    }
#define SHMEMI_PTX_ATOM_ALL(SEM)                                                                   \
    SHMEMI_PTX_ATOM(add, SEM, add, u32, uint32_t, SHMEMI_PTX_CONS_R)                               \
    SHMEMI_PTX_ATOM(add, SEM, add, u64, uint64_t, SHMEMI_PTX_CONS_L)                               \
    SHMEMI_PTX_ATOM(and, SEM, and, b32, uint32_t, SHMEMI_PTX_CONS_R)                               \
    SHMEMI_PTX_ATOM(and, SEM, and, b64, uint64_t, SHMEMI_PTX_CONS_L)                               \
    SHMEMI_PTX_ATOM(or, SEM, or, b32, uint32_t, SHMEMI_PTX_CONS_R)                                 \
    SHMEMI_PTX_ATOM(or, SEM, or, b64, uint64_t, SHMEMI_PTX_CONS_L)                                 \
    SHMEMI_PTX_ATOM(xor, SEM, xor, b32, uint32_t, SHMEMI_PTX_CONS_R)                               \
    SHMEMI_PTX_ATOM(xor, SEM, xor, b64, uint64_t, SHMEMI_PTX_CONS_L)                               \
    SHMEMI_PTX_ATOM(swap, SEM, exch, b32, uint32_t, SHMEMI_PTX_CONS_R)                             \
    SHMEMI_PTX_ATOM(swap, SEM, exch, b64, uint64_t, SHMEMI_PTX_CONS_L)
SHMEMI_PTX_ATOM_ALL(relaxed)
SHMEMI_PTX_ATOM_ALL(release)

/* Non-fetching atomics (PTX red). */
#define SHMEMI_PTX_RED(NAME, SEM, OP, T, CT, CONS)                                                 \
    template <int Scope> SHMEMI_DI void shmemi_ptx_red_##NAME##_##SEM(CT *p, CT v) {               \
        SHMEMI_PTX_SCOPED(Scope, "red." #SEM, "." #OP "." #T " [%0], %1;",                         \
                          :                                                                        \
                          : "l"(p), CONS(v)                                                        \
                          : "memory");                                                             \
    }
#define SHMEMI_PTX_RED_ALL(SEM)                                                                    \
    SHMEMI_PTX_RED(add, SEM, add, u32, uint32_t, SHMEMI_PTX_CONS_R)                                \
    SHMEMI_PTX_RED(add, SEM, add, u64, uint64_t, SHMEMI_PTX_CONS_L)                                \
    SHMEMI_PTX_RED(and, SEM, and, b32, uint32_t, SHMEMI_PTX_CONS_R)                                \
    SHMEMI_PTX_RED(and, SEM, and, b64, uint64_t, SHMEMI_PTX_CONS_L)                                \
    SHMEMI_PTX_RED(or, SEM, or, b32, uint32_t, SHMEMI_PTX_CONS_R)                                  \
    SHMEMI_PTX_RED(or, SEM, or, b64, uint64_t, SHMEMI_PTX_CONS_L)                                  \
    SHMEMI_PTX_RED(xor, SEM, xor, b32, uint32_t, SHMEMI_PTX_CONS_R)                                \
    SHMEMI_PTX_RED(xor, SEM, xor, b64, uint64_t, SHMEMI_PTX_CONS_L)
SHMEMI_PTX_RED_ALL(relaxed)
SHMEMI_PTX_RED_ALL(release)

template <int Scope>
SHMEMI_DI uint32_t shmemi_ptx_atom_cas_relaxed(uint32_t *p, uint32_t c, uint32_t v) {
    uint32_t r;
    SHMEMI_PTX_SCOPED(Scope, "atom.relaxed", ".cas.b32 %0, [%1], %2, %3;",
                      : "=r"(r)
                      : "l"(p), "r"(c), "r"(v)
                      : "memory");
    return r;
}
template <int Scope>
SHMEMI_DI uint64_t shmemi_ptx_atom_cas_relaxed(uint64_t *p, uint64_t c, uint64_t v) {
    uint64_t r;
    SHMEMI_PTX_SCOPED(Scope, "atom.relaxed", ".cas.b64 %0, [%1], %2, %3;",
                      : "=l"(r)
                      : "l"(p), "l"(c), "l"(v)
                      : "memory");
    return r;
}

SHMEMI_DI uint64_t shmemi_clock_ns() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
/* The calling thread's lane in its warp (one register read; equal to its linear thread index in
 * the block modulo the warp size) and the warp size, known at compile time. */
#define SHMEMI_WARP_SIZE 32
SHMEMI_DI int shmemi_lane_id() {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return (int)lane;
}
/* Lane 0's v, in every lane of the calling warp (every lane calls). */
SHMEMI_DI uint64_t shmemi_warp_from_lane0(uint64_t v) {
    return __shfl_sync(0xffffffffu, (unsigned long long)v, 0);
}
/* The launch number of the calling grid: distinct for every grid launched in this CUDA context. */
SHMEMI_DI uint64_t shmemi_grid_id() {
    uint64_t g;
    asm("mov.u64 %0, %%gridid;" : "=l"(g));
    return g;
}
SHMEMI_DI void shmemi_trap() {
    __trap();
}
SHMEMI_DI void shmemi_pause() {
    __nanosleep(32);
}

#elif defined(__HIP_DEVICE_COMPILE__)
/* ---- AMD (GCN/CDNA) ---- */

template <int Scope> struct shmemi_hip_scope {
    static const int value = Scope >= SHMEMI_SCOPE_SYSTEM   ? __HIP_MEMORY_SCOPE_SYSTEM
                             : Scope == SHMEMI_SCOPE_DEVICE ? __HIP_MEMORY_SCOPE_AGENT
                                                            : __HIP_MEMORY_SCOPE_WORKGROUP;
};

#define SHMEMI_HIP_LDST(CT)                                                                        \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_ld_relaxed(const CT *p) {                         \
        return __hip_atomic_load(p, __ATOMIC_RELAXED, shmemi_hip_scope<Scope>::value);             \
    }                                                                                              \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_ld_acquire(const CT *p) {                         \
        return __hip_atomic_load(p, __ATOMIC_ACQUIRE, shmemi_hip_scope<Scope>::value);             \
    }                                                                                              \
    template <int Scope> SHMEMI_DI void shmemi_ptx_st_relaxed(CT *p, CT v) {                       \
        __hip_atomic_store(p, v, __ATOMIC_RELAXED, shmemi_hip_scope<Scope>::value);                \
    }                                                                                              \
    template <int Scope> SHMEMI_DI void shmemi_ptx_st_release(CT *p, CT v) {                       \
        __hip_atomic_store(p, v, __ATOMIC_RELEASE, shmemi_hip_scope<Scope>::value);                \
    }
SHMEMI_HIP_LDST(uint8_t)
SHMEMI_HIP_LDST(uint16_t)
SHMEMI_HIP_LDST(uint32_t)
SHMEMI_HIP_LDST(uint64_t)

/* Bypass accesses: system-coherent and non-temporal, so that no L2 writeback or invalidate is
 * ever needed for them (gfx90a: glc slc; gfx940 and later: sc0 sc1 nt). A load waits for its
 * own data, since the compiler does not count the memory operations of inline assembly. */
#if defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__)
#define SHMEMI_AMDGCN_BYPASS_BITS "sc0 sc1 nt"
#else
#define SHMEMI_AMDGCN_BYPASS_BITS "glc slc"
#endif
#define SHMEMI_AMDGCN_BYPASS(CT, RT, LD, ST)                                                       \
    SHMEMI_DI CT shmemi_ptx_ld_bypass(const CT *p) {                                               \
        RT v;                                                                                      \
        asm volatile(LD " %0, %1, off " SHMEMI_AMDGCN_BYPASS_BITS "\n\ts_waitcnt vmcnt(0)"         \
                     : "=v"(v)                                                                     \
                     : "v"(p)                                                                      \
                     : "memory");                                                                  \
        return (CT)v;                                                                              \
    }                                                                                              \
    SHMEMI_DI void shmemi_ptx_st_bypass(CT *p, CT v) {                                             \
        asm volatile(ST " %0, %1, off " SHMEMI_AMDGCN_BYPASS_BITS ::"v"(p), "v"((RT)v)             \
                     : "memory");                                                                  \
    }
SHMEMI_AMDGCN_BYPASS(uint8_t, uint32_t, "global_load_ubyte", "global_store_byte")
SHMEMI_AMDGCN_BYPASS(uint16_t, uint32_t, "global_load_ushort", "global_store_short")
SHMEMI_AMDGCN_BYPASS(uint32_t, uint32_t, "global_load_dword", "global_store_dword")
SHMEMI_AMDGCN_BYPASS(uint64_t, uint64_t, "global_load_dwordx2", "global_store_dwordx2")

typedef unsigned shmemi_vec16_t __attribute__((ext_vector_type(4)));
SHMEMI_DI shmemi_vec16_t shmemi_ld_bypass_vec16(const shmemi_vec16_t *p) {
    shmemi_vec16_t v;
    asm volatile("global_load_dwordx4 %0, %1, off " SHMEMI_AMDGCN_BYPASS_BITS
                 "\n\ts_waitcnt vmcnt(0)"
                 : "=v"(v)
                 : "v"(p)
                 : "memory");
    return v;
}
SHMEMI_DI void shmemi_st_bypass_vec16(shmemi_vec16_t *p, shmemi_vec16_t v) {
    asm volatile("global_store_dwordx4 %0, %1, off " SHMEMI_AMDGCN_BYPASS_BITS ::"v"(p), "v"(v)
                 : "memory");
}

template <int Scope> SHMEMI_DI void shmemi_fence_acq_rel() {
    if (Scope >= SHMEMI_SCOPE_SYSTEM)
        __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "");
    else if (Scope == SHMEMI_SCOPE_DEVICE)
        __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "agent");
    else
        __builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "workgroup");
}
template <int Scope> SHMEMI_DI void shmemi_fence_sc() {
    if (Scope >= SHMEMI_SCOPE_SYSTEM)
        __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
    else if (Scope == SHMEMI_SCOPE_DEVICE)
        __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
    else
        __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
}
/* Waits until every earlier memory operation of this thread has completed: for bypass stores,
 * which go to memory, that is all a release needs; no cache is written back. */
SHMEMI_DI void shmemi_drain_stores() {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_waitcnt(0);
}

#define SHMEMI_HIP_ATOM(NAME, SEM, ORDER, BUILTIN, CT)                                             \
    template <int Scope> SHMEMI_DI CT shmemi_ptx_atom_##NAME##_##SEM(CT *p, CT v) {                \
        return BUILTIN(p, v, ORDER, shmemi_hip_scope<Scope>::value);                               \
    }
#define SHMEMI_HIP_ATOM_ALL(SEM, ORDER)                                                            \
    SHMEMI_HIP_ATOM(add, SEM, ORDER, __hip_atomic_fetch_add, uint32_t)                             \
    SHMEMI_HIP_ATOM(add, SEM, ORDER, __hip_atomic_fetch_add, uint64_t)                             \
    SHMEMI_HIP_ATOM(and, SEM, ORDER, __hip_atomic_fetch_and, uint32_t)                             \
    SHMEMI_HIP_ATOM(and, SEM, ORDER, __hip_atomic_fetch_and, uint64_t)                             \
    SHMEMI_HIP_ATOM(or, SEM, ORDER, __hip_atomic_fetch_or, uint32_t)                               \
    SHMEMI_HIP_ATOM(or, SEM, ORDER, __hip_atomic_fetch_or, uint64_t)                               \
    SHMEMI_HIP_ATOM(xor, SEM, ORDER, __hip_atomic_fetch_xor, uint32_t)                             \
    SHMEMI_HIP_ATOM(xor, SEM, ORDER, __hip_atomic_fetch_xor, uint64_t)                             \
    SHMEMI_HIP_ATOM(swap, SEM, ORDER, __hip_atomic_exchange, uint32_t)                             \
    SHMEMI_HIP_ATOM(swap, SEM, ORDER, __hip_atomic_exchange, uint64_t)
SHMEMI_HIP_ATOM_ALL(relaxed, __ATOMIC_RELAXED)
SHMEMI_HIP_ATOM_ALL(release, __ATOMIC_RELEASE)

/* Non-fetching atomics: the result is unused, so the no-return instruction form is emitted. */
#define SHMEMI_HIP_RED(NAME, SEM)                                                                  \
    template <int Scope, typename CT> SHMEMI_DI void shmemi_ptx_red_##NAME##_##SEM(CT *p, CT v) {  \
        (void)shmemi_ptx_atom_##NAME##_##SEM<Scope>(p, v);                                         \
    }
SHMEMI_HIP_RED(add, relaxed)
SHMEMI_HIP_RED(and, relaxed)
SHMEMI_HIP_RED(or, relaxed)
SHMEMI_HIP_RED(xor, relaxed)
SHMEMI_HIP_RED(add, release)

template <int Scope, typename CT> SHMEMI_DI CT shmemi_ptx_atom_cas_relaxed(CT *p, CT c, CT v) {
    __hip_atomic_compare_exchange_strong(p, &c, v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                         shmemi_hip_scope<Scope>::value);
    return c;
}

/* The calling thread's lane in its wavefront and the wavefront size. */
#define SHMEMI_WARP_SIZE warpSize
SHMEMI_DI int shmemi_lane_id() {
    return (int)__lane_id();
}
SHMEMI_DI uint64_t shmemi_warp_from_lane0(uint64_t v) {
    return __shfl((unsigned long long)v, 0);
}
SHMEMI_DI uint64_t shmemi_clock_ns() {
    return wall_clock64() * 10; /* 100 MHz constant clock */
}
SHMEMI_DI void shmemi_trap() {
    __builtin_trap();
}
SHMEMI_DI void shmemi_pause() {
    __builtin_amdgcn_s_sleep(1);
}
#endif

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
/* Typed front ends: any type of 1, 2, 4 or 8 bytes, moved by its bits. */
template <int Scope, typename T> SHMEMI_DI T shmemi_ld_relaxed(const T *p) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    return shmemi_bit_cast<T>(shmemi_ptx_ld_relaxed<Scope>((const B *)p));
}
template <int Scope, typename T> SHMEMI_DI T shmemi_ld_acquire(const T *p) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    return shmemi_bit_cast<T>(shmemi_ptx_ld_acquire<Scope>((const B *)p));
}
template <int Scope, typename T> SHMEMI_DI void shmemi_st_relaxed(T *p, T v) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    shmemi_ptx_st_relaxed<Scope>((B *)p, shmemi_bit_cast<B>(v));
}
template <int Scope, typename T> SHMEMI_DI void shmemi_st_release(T *p, T v) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    shmemi_ptx_st_release<Scope>((B *)p, shmemi_bit_cast<B>(v));
}
/* A load that never hits a stale cache line: relaxed, system scope, not allocated in L1. */
template <typename T> SHMEMI_DI T shmemi_ld_bypass(const T *p) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    return shmemi_bit_cast<T>(shmemi_ptx_ld_bypass((const B *)p));
}
/* A store that needs no cache writeback to become visible: relaxed, system scope. */
template <typename T> SHMEMI_DI void shmemi_st_bypass_untracked(T *p, T v) {
    typedef typename shmemi_bits<sizeof(T)>::type B;
    shmemi_ptx_st_bypass((B *)p, shmemi_bit_cast<B>(v));
}
/* Nonzero when p is global memory (GPU memory, or host memory the GPU maps), which the host's
 * copy engine can read too; zero for a block's shared memory and a thread's local memory. */
SHMEMI_DI int shmemi_is_global(const void *p) {
#if defined(__CUDA_ARCH__)
    return __isGlobal(p);
#else
    typedef const __attribute__((address_space(0))) void *flat_t;
    return !__builtin_amdgcn_is_shared((flat_t)p) && !__builtin_amdgcn_is_private((flat_t)p);
#endif
}
#endif

#endif
