/* SPDX-License-Identifier: BSD-3-Clause */
/* Stream-ordered communication: copies on the stream for the data, one-thread kernels for
 * signals, waits, quiet and the barrier, so each call takes effect when the stream reaches it. */
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

static void *stream_target(const char *call, const void *addr, size_t len, int pe) {
    shmemi_check_init(call);
    shmemi_check_pe(call, pe);
    void *r = shmemi_ipc_translate(addr, pe);
    if (!r || !shmemi_ipc_translate((const char *)addr + (len ? len - 1 : 0), pe))
        shmemi_fatal(call, "[%p, %p) is not in the symmetric heap", addr,
                     (const void *)((const char *)addr + len));
    return r;
}

static void stream_check(const char *call, shmemi_gpu_error_t err) {
    if (err != shmemi_gpu_success)
        shmemi_fatal(call, "%s", shmemi_gpu_get_error_string(err));
}

extern "C" void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                        shmemi_gpu_stream_t stream) {
    void *r = stream_target("shmemx_putmem_on_stream", dest, nelems, pe);
    stream_check("shmemx_putmem_on_stream",
                 shmemi_gpu_memcpy_async(r, source, nelems, shmemi_gpu_memcpy_default, stream));
}

extern "C" void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                        shmemi_gpu_stream_t stream) {
    void *r = stream_target("shmemx_getmem_on_stream", source, nelems, pe);
    stream_check("shmemx_getmem_on_stream",
                 shmemi_gpu_memcpy_async(dest, r, nelems, shmemi_gpu_memcpy_default, stream));
}

extern "C" void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems,
                                               uint64_t *sig_addr, uint64_t signal, int sig_op,
                                               int pe, shmemi_gpu_stream_t stream) {
    const char *call = "shmemx_putmem_signal_on_stream";
    void *r = stream_target(call, dest, nelems, pe);
    uint64_t *rs = (uint64_t *)stream_target(call, sig_addr, sizeof(uint64_t), pe);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shmemi_fatal(call, "unknown signal operator %d", sig_op);
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
