/* SPDX-License-Identifier: BSD-3-Clause */
/* Stream-ordered communication: copies on the stream for the data, one-thread kernels for
 * signals, waits, quiet and the barrier, so each call takes effect when the stream reaches it.
 * To a PE whose heap is not mapped here (over the network) the data moves by a one-thread kernel
 * through the proxy, as a kernel's put or get would. */
#include <shmem.h>

#include "transport/ipc/ipc.h"

__global__ void shmemi_stream_signal_kernel(uint64_t *remote, uint64_t value, int sig_op) {
#if SHMEMI_DEVICE_PASS
    shmemi_dsignal<0>(remote, value, sig_op);
#else
    (void)remote, (void)value, (void)sig_op;
#endif
}

__global__ void shmemi_stream_wait_kernel(uint64_t *sig, int cmp, uint64_t value) {
#if SHMEMI_DEVICE_PASS
    shmemi_dwait_until<0>("shmemx_signal_wait_until_on_stream", (const uint64_t *)sig, cmp, value);
#else
    (void)sig, (void)cmp, (void)value;
#endif
}

__global__ void shmemi_stream_quiet_kernel() {
#if SHMEMI_DEVICE_PASS
    shmemi_dquiet<0>(0);
#endif
}

__global__ void shmemi_stream_barrier_kernel() {
#if SHMEMI_DEVICE_PASS
    shmemi_dbarrier_thread<1>("shmemx_barrier_all_on_stream");
#endif
}

__global__ void shmemi_stream_put_kernel(void *dest, const void *source, size_t n, uint64_t *sig,
                                         uint64_t signal, int sig_op, int pe) {
#if SHMEMI_DEVICE_PASS
    if (sig)
        shmemi_api_put_signal<SHMEMI_GROUP_THREAD>("shmemx_putmem_signal_on_stream",
                                                   SHMEM_CTX_DEFAULT, dest, source, n, sig, signal,
                                                   sig_op, pe);
    else
        shmemi_api_put<SHMEMI_GROUP_THREAD>("shmemx_putmem_on_stream", SHMEM_CTX_DEFAULT, dest,
                                            source, n, pe);
#else
    (void)dest, (void)source, (void)n, (void)sig, (void)signal, (void)sig_op, (void)pe;
#endif
}

__global__ void shmemi_stream_get_kernel(void *dest, const void *source, size_t n, int pe) {
#if SHMEMI_DEVICE_PASS
    shmemi_api_get<SHMEMI_GROUP_THREAD>("shmemx_getmem_on_stream", SHMEM_CTX_DEFAULT, dest, source,
                                        n, pe);
#else
    (void)dest, (void)source, (void)n, (void)pe;
#endif
}

/* Loads the kernels above at shmem_init. With lazy module loading (CUDA's default) the first
 * launch of a kernel may wait for the kernels already running, and keeps other threads' calls
 * waiting meanwhile: a stream's quiet launched behind its signal wait would then hold up the
 * consumer that applies the very signal the wait needs (the put-with-signal, wait, quiet sequence
 * over the network). Returns the first error. */
shmemi_gpu_error_t shmemi_device_stream_load(void) {
    const void *kernels[] = {
        (const void *)shmemi_stream_signal_kernel, (const void *)shmemi_stream_wait_kernel,
        (const void *)shmemi_stream_quiet_kernel,  (const void *)shmemi_stream_barrier_kernel,
        (const void *)shmemi_stream_put_kernel,    (const void *)shmemi_stream_get_kernel};
    for (const void *k : kernels) {
        shmemi_gpu_func_attributes attr;
        shmemi_gpu_error_t err = shmemi_gpu_func_get_attributes(&attr, k);
        if (err != shmemi_gpu_success)
            return err;
    }
    return shmemi_gpu_success;
}

/* The address of symmetric [addr, addr + len) in pe's heap as mapped here, or NULL where pe's
 * heap is not mapped (the proxy reaches it). Fatal when the range is not symmetric. */
static void *stream_target(const char *call, const void *addr, size_t len, int pe) {
    shmemi_check_init(call);
    shmemi_check_pe(call, pe);
    const int me = shmemi_state.my_pe;
    if (!shmemi_ipc_translate(addr, me) ||
        !shmemi_ipc_translate((const char *)addr + (len ? len - 1 : 0), me))
        shmemi_fatal(call, "[%p, %p) is not in the symmetric heap", addr,
                     (const void *)((const char *)addr + len));
    return shmemi_ipc_translate(addr, pe);
}

/* A kernel that reaches a PE through the proxy reads and writes the local buffer itself: it must
 * be GPU memory, managed or pinned host memory. */
static void stream_kernel_buffer(const char *call, const void *buf, size_t len, int pe) {
    if (len == 0)
        return;
#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
    cudaPointerAttributes a;
    int ok =
        cudaPointerGetAttributes(&a, buf) == cudaSuccess && a.type != cudaMemoryTypeUnregistered;
#else
    hipPointerAttribute_t a;
    int ok = hipPointerGetAttributes(&a, buf) == hipSuccess;
#endif
    if (!ok) {
        (void)shmemi_gpu_get_last_error();
        shmemi_fatal(call,
                     "PE %d is reached over the network, through the proxy, so the local buffer "
                     "%p must be GPU memory or pinned host memory (it is pageable host memory)",
                     pe, buf);
    }
}

static void stream_check(const char *call, shmemi_gpu_error_t err) {
    if (err != shmemi_gpu_success)
        shmemi_fatal(call, "%s", shmemi_gpu_get_error_string(err));
}

extern "C" void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                        shmemi_gpu_stream_t stream) {
    const char *call = "shmemx_putmem_on_stream";
    void *r = stream_target(call, dest, nelems, pe);
    if (!r) {
        stream_kernel_buffer(call, source, nelems, pe);
        shmemi_stream_put_kernel<<<1, 1, 0, stream>>>(dest, source, nelems, NULL, 0, 0, pe);
        stream_check(call, shmemi_gpu_get_last_error());
        return;
    }
    stream_check(call,
                 shmemi_gpu_memcpy_async(r, source, nelems, shmemi_gpu_memcpy_default, stream));
}

extern "C" void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                        shmemi_gpu_stream_t stream) {
    const char *call = "shmemx_getmem_on_stream";
    void *r = stream_target(call, source, nelems, pe);
    if (!r) {
        stream_kernel_buffer(call, dest, nelems, pe);
        shmemi_stream_get_kernel<<<1, 1, 0, stream>>>(dest, source, nelems, pe);
        stream_check(call, shmemi_gpu_get_last_error());
        return;
    }
    stream_check(call, shmemi_gpu_memcpy_async(dest, r, nelems, shmemi_gpu_memcpy_default, stream));
}

extern "C" void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                               uint64_t *sig_addr, uint64_t signal, int sig_op,
                                               int pe, shmemi_gpu_stream_t stream) {
    const char *call = "shmemx_putmem_signal_on_stream";
    void *r = stream_target(call, dest, nelems, pe);
    uint64_t *rs = (uint64_t *)stream_target(call, sig_addr, sizeof(uint64_t), pe);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shmemi_fatal(call, "unknown signal operator %d", sig_op);
    if (!r || !rs) {
        stream_kernel_buffer(call, source, nelems, pe);
        shmemi_stream_put_kernel<<<1, 1, 0, stream>>>(dest, source, nelems, sig_addr, signal,
                                                      sig_op, pe);
        stream_check(call, shmemi_gpu_get_last_error());
        return;
    }
    if (nelems)
        stream_check(call,
                     shmemi_gpu_memcpy_async(r, source, nelems, shmemi_gpu_memcpy_default, stream));
    shmemi_stream_signal_kernel<<<1, 1, 0, stream>>>(rs, signal, sig_op);
    stream_check(call, shmemi_gpu_get_last_error());
}

extern "C" void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                                   shmemi_gpu_stream_t stream) {
    const char *call = "shmemx_signal_wait_until_on_stream";
    stream_target(call, sig_addr, sizeof(uint64_t), shmemi_state.my_pe);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        shmemi_fatal(call, "unknown comparison %d", cmp);
    shmemi_stream_wait_kernel<<<1, 1, 0, stream>>>(sig_addr, cmp, cmp_value);
    stream_check(call, shmemi_gpu_get_last_error());
}

extern "C" void shmemx_quiet_on_stream(shmemi_gpu_stream_t stream) {
    shmemi_check_init("shmemx_quiet_on_stream");
    shmemi_stream_quiet_kernel<<<1, 1, 0, stream>>>();
    stream_check("shmemx_quiet_on_stream", shmemi_gpu_get_last_error());
}

extern "C" void shmemx_barrier_all_on_stream(shmemi_gpu_stream_t stream) {
    shmemi_check_init("shmemx_barrier_all_on_stream");
    shmemi_stream_barrier_kernel<<<1, 1, 0, stream>>>();
    stream_check("shmemx_barrier_all_on_stream", shmemi_gpu_get_last_error());
}
