/* SPDX-License-Identifier: BSD-3-Clause */
/* The ipc transport (see ipc.h). Segment operations only map memory; host RMA and AMOs on the
 * GPU heap go through put/get/amo here (copies and a one-thread kernel), since host code cannot
 * load or store device memory. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmem/device/impl/gpu_port.h>

#include "transport/ipc/ipc.h"

#define IPC_BLOB_MAGIC 0x49504331u /* "IPC1" */

typedef struct {
    uint32_t magic;
    int32_t pid;
    int32_t device;
    uint32_t reserved;
    shmemi_gpu_ipc_mem_handle_t handle;
} ipc_blob_t;

static_assert(sizeof(ipc_blob_t) <= SHMEMI_SEGMENT_BLOB_SIZE, "IPC blob too large");

static int ipc_device = -1;
static char *local_base;
static size_t local_size;
static char **peer_base; /* n_pes entries, device addresses in this process */
/* The stream of local copies: it does not wait for the legacy default stream, so a host wait that
 * polls a heap word is not held up behind a running kernel (which may be the one that sets it). */
static shmemi_gpu_stream_t copy_stream;
/* The fetched value of a host AMO, kept from init to finalize: freeing device memory would wait
 * for every kernel in flight. One host AMO at a time uses it. */
static uint64_t *amo_fetch;
static pthread_mutex_t amo_lock = PTHREAD_MUTEX_INITIALIZER;

static int ipc_check(const char *what, shmemi_gpu_error_t err) {
    if (err == shmemi_gpu_success)
        return 0;
    shmemi_warn("ipc", "%s failed: %s", what, shmemi_gpu_get_error_string(err));
    return -1;
}

int shmemi_ipc_device(void) {
    return ipc_device;
}

char *shmemi_ipc_peer_base(int pe) {
    if (!peer_base || pe < 0 || pe >= shmemi_state.n_pes)
        return NULL;
    return peer_base[pe];
}

void *shmemi_ipc_translate(const void *addr, int pe) {
    const char *a = (const char *)addr;
    char *base = shmemi_ipc_peer_base(pe);
    if (!base || a < local_base || a >= local_base + local_size)
        return NULL;
    return base + (a - local_base);
}

template <typename T>
__global__ void ipc_amo_kernel(int op, T *dest, T *fetch, T operand, T compare);

/* The GPU of this PE: SHMEM_GPU_DEVICE if set, else the PE's rank on its node (the launcher's
 * local rank where it gives one) modulo the number of visible GPUs, so PEs spread over the GPUs
 * and several PEs share one when there are more PEs than GPUs. */
static shmemi_status_t ipc_init(void) {
    int count = 0;
    if (ipc_check("counting GPUs", shmemi_gpu_get_device_count(&count)) != 0 || count == 0) {
        shmemi_warn("ipc", "no GPU is visible to this process");
        return SHMEMI_ERR_PEER;
    }
    const char *forced = getenv("SHMEM_GPU_DEVICE");
    const char *local = getenv("SHMEM_LOCAL_RANK");
    if (!local)
        local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    int rank = local ? atoi(local) : shmemi_state.my_pe;
    ipc_device = forced ? atoi(forced) : rank % count;
    if (ipc_device < 0 || ipc_device >= count) {
        shmemi_warn("ipc", "SHMEM_GPU_DEVICE=%s is not one of the %d visible GPUs", forced, count);
        return SHMEMI_ERR_INVALID;
    }
    if (ipc_check("selecting the GPU", shmemi_gpu_set_device(ipc_device)) != 0)
        return SHMEMI_ERR_PEER;
    if (ipc_check("creating the copy stream",
                  shmemi_gpu_stream_create_with_flags(&copy_stream,
                                                      shmemi_gpu_stream_non_blocking)) != 0 ||
        ipc_check("allocating the AMO result",
                  shmemi_gpu_malloc((void **)&amo_fetch, sizeof(uint64_t))) != 0)
        return SHMEMI_ERR_PEER;
    /* Load the AMO kernels now. With lazy module loading (CUDA's default) the first launch of a
     * kernel may wait for the kernels already running, so a host AMO that answers a running
     * kernel's wait (test_device_host_wait) would never start. */
    shmemi_gpu_func_attributes attr;
    if (ipc_check("loading the AMO kernels",
                  shmemi_gpu_func_get_attributes(&attr, (const void *)ipc_amo_kernel<uint32_t>)) !=
            0 ||
        ipc_check("loading the AMO kernels",
                  shmemi_gpu_func_get_attributes(&attr, (const void *)ipc_amo_kernel<uint64_t>)) !=
            0)
        return SHMEMI_ERR_PEER;
    peer_base = (char **)calloc((size_t)shmemi_state.n_pes, sizeof(char *));
    return peer_base ? SHMEMI_OK : SHMEMI_ERR_NOMEM;
}

static shmemi_status_t ipc_finalize(void) {
    free(peer_base);
    peer_base = NULL;
    if (amo_fetch)
        (void)shmemi_gpu_free(amo_fetch);
    amo_fetch = NULL;
    if (copy_stream)
        (void)shmemi_gpu_stream_destroy(copy_stream);
    copy_stream = NULL;
    return SHMEMI_OK;
}

static shmemi_status_t ipc_segment_create(size_t size, void **base_p,
                                          unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    void *p = NULL;
    if (ipc_check("allocating the symmetric heap", shmemi_gpu_malloc(&p, size)) != 0)
        return SHMEMI_ERR_NOMEM;
    ipc_blob_t b;
    memset(&b, 0, sizeof(b));
    b.magic = IPC_BLOB_MAGIC;
    b.pid = (int32_t)getpid();
    b.device = ipc_device;
    if (ipc_check("clearing the symmetric heap", shmemi_gpu_memset(p, 0, size)) != 0 ||
        ipc_check("exporting the symmetric heap", shmemi_gpu_ipc_get_mem_handle(&b.handle, p)) !=
            0) {
        (void)shmemi_gpu_free(p);
        return SHMEMI_ERR_IO;
    }
    memcpy(blob, &b, sizeof(b));
    local_base = (char *)p;
    local_size = size;
    if (peer_base)
        peer_base[shmemi_state.my_pe] = local_base;
    *base_p = p;
    return SHMEMI_OK;
}

static shmemi_status_t ipc_segment_share(void *base, size_t size,
                                         unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    (void)base, (void)size, (void)blob;
    return SHMEMI_ERR_UNSUPPORTED;
}

/* Maps a peer's heap. Host code cannot load or store it, so the base reported to core is NULL
 * (host operations then come through put/get/amo below); kernels use the mapping through the
 * device state (shmemi_ipc_peer_base). */
static shmemi_status_t ipc_segment_attach(int pe,
                                          const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE],
                                          size_t size, void **base_p) {
    ipc_blob_t b;
    memcpy(&b, blob, sizeof(b));
    (void)size;
    if (b.magic != IPC_BLOB_MAGIC) {
        shmemi_warn("ipc", "PE %d did not export a GPU heap", pe);
        return SHMEMI_ERR_PEER;
    }
    void *p = NULL;
    if (b.pid == (int32_t)getpid()) {
        p = local_base;
    } else if (ipc_check("mapping a peer's heap",
                         shmemi_gpu_ipc_open_mem_handle(
                             &p, b.handle, shmemi_gpu_ipc_lazy_enable_peer_access)) != 0) {
        return SHMEMI_ERR_PEER;
    }
    peer_base[pe] = (char *)p;
    *base_p = NULL;
    return SHMEMI_OK;
}

static shmemi_status_t ipc_segment_detach(void *base, size_t size) {
    (void)base, (void)size;
    for (int pe = 0; peer_base && pe < shmemi_state.n_pes; pe++) {
        if (pe != shmemi_state.my_pe && peer_base[pe] && peer_base[pe] != local_base)
            (void)shmemi_gpu_ipc_close_mem_handle(peer_base[pe]);
        if (pe != shmemi_state.my_pe)
            peer_base[pe] = NULL;
    }
    return SHMEMI_OK;
}

static shmemi_status_t ipc_segment_destroy(void *base, size_t size) {
    (void)size;
    ipc_segment_detach(NULL, 0);
    if (base && ipc_check("freeing the symmetric heap", shmemi_gpu_free(base)) != 0)
        return SHMEMI_ERR_IO;
    local_base = NULL;
    local_size = 0;
    return SHMEMI_OK;
}

static shmemi_status_t ipc_local_fill(void *dest, int value, size_t len) {
    if (ipc_check("filling heap memory", shmemi_gpu_memset(dest, value, len)) != 0 ||
        ipc_check("filling heap memory", shmemi_gpu_device_synchronize()) != 0)
        return SHMEMI_ERR_IO;
    return SHMEMI_OK;
}

/* The calling thread's current GPU is this PE's: delivery (src/core/deliver.c) applies peers'
 * operations from whichever thread progressed the network (the progress thread, the proxy's
 * consumer), and the CUDA/HIP runtime keeps the current device per thread. */
static __thread int ipc_thread_device = -1;

static int ipc_thread_select(void) {
    if (ipc_thread_device == ipc_device)
        return 0;
    if (ipc_check("selecting the GPU", shmemi_gpu_set_device(ipc_device)) != 0)
        return -1;
    ipc_thread_device = ipc_device;
    return 0;
}

/* A copy queued on the copy stream (ipc_copy_start), and a synchronous one. Host operations on the
 * heap (RMA, AMOs, and the host's loads and stores of heap words in waits, tests and bypass
 * accesses) must not wait for kernels in flight: one of them may be waiting for this very
 * operation. */
static shmemi_status_t ipc_copy_start(const char *what, void *dest, const void *source,
                                      size_t len) {
    if (ipc_thread_select() != 0 ||
        ipc_check(what, shmemi_gpu_memcpy_async(dest, source, len, shmemi_gpu_memcpy_default,
                                                copy_stream)) != 0)
        return SHMEMI_ERR_IO;
    return SHMEMI_OK;
}

/* Waits until everything queued on the copy stream is done. */
static shmemi_status_t ipc_copy_wait(const char *what) {
    return ipc_check(what, shmemi_gpu_stream_synchronize(copy_stream)) ? SHMEMI_ERR_IO : SHMEMI_OK;
}

static shmemi_status_t ipc_copy(const char *what, void *dest, const void *source, size_t len) {
    shmemi_status_t st = ipc_copy_start(what, dest, source, len);
    return st == SHMEMI_OK ? ipc_copy_wait(what) : st;
}

static shmemi_status_t ipc_local_copy(void *dest, const void *source, size_t len) {
    return ipc_copy("copying heap memory", dest, source, len);
}

/* The device address of (segment, offset) on PE pe: only the heap (segment 0) is GPU memory. */
static void *ipc_remote(int segment, size_t offset, size_t len, int pe) {
    char *base = shmemi_ipc_peer_base(pe);
    if (segment != 0 || !base || offset > local_size || len > local_size - offset)
        return NULL;
    return base + offset;
}

/* The copy is queued on the copy stream and not waited for: the stream orders it before every
 * later host operation on the heap (each of them a copy or an AMO kernel on that stream), quiet
 * waits for it, and test says when it is done. source must stay untouched until then; pageable
 * memory is read before this returns (the runtime stages it), pinned memory by the copy itself. */
static shmemi_status_t ipc_put_nbi(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                                   const void *source, size_t len, int pe) {
    (void)tctx;
    void *r = ipc_remote(segment, offset, len, pe);
    if (!r)
        return SHMEMI_ERR_INVALID;
    return ipc_copy_start("put", r, source, len);
}

static shmemi_status_t ipc_put(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                               const void *source, size_t len, int pe) {
    shmemi_status_t st = ipc_put_nbi(tctx, segment, offset, source, len, pe);
    return st == SHMEMI_OK ? ipc_copy_wait("put") : st;
}

static shmemi_status_t ipc_get(shmemi_transport_ctx_t *tctx, void *dest, int segment, size_t offset,
                               size_t len, int pe) {
    (void)tctx;
    const void *r = ipc_remote(segment, offset, len, pe);
    if (!r)
        return SHMEMI_ERR_INVALID;
    return ipc_copy("get", dest, r, len);
}

/* One thread performs the AMO with a relaxed system-scope atomic, so host AMOs are atomic with
 * device AMOs on the same word. */
template <typename T>
__global__ void ipc_amo_kernel(int op, T *dest, T *fetch, T operand, T compare) {
#if SHMEMI_DEVICE_PASS
    T old;
    switch (op) {
    case SHMEMI_AMO_FETCH:
        old = shmemi_ld_relaxed<SHMEMI_SCOPE_SYSTEM>(dest);
        break;
    case SHMEMI_AMO_SET:
        old = 0;
        shmemi_st_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    case SHMEMI_AMO_SWAP:
        old = shmemi_ptx_atom_swap_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    case SHMEMI_AMO_CSWAP:
        old = shmemi_ptx_atom_cas_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, compare, operand);
        break;
    case SHMEMI_AMO_ADD:
        old = shmemi_ptx_atom_add_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    case SHMEMI_AMO_AND:
        old = shmemi_ptx_atom_and_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    case SHMEMI_AMO_OR:
        old = shmemi_ptx_atom_or_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    default:
        old = shmemi_ptx_atom_xor_relaxed<SHMEMI_SCOPE_SYSTEM>(dest, operand);
        break;
    }
    *fetch = old;
#else
    (void)op, (void)dest, (void)fetch, (void)operand, (void)compare;
#endif
}

template <typename T>
static shmemi_status_t ipc_amo_sized(shmemi_amo_op_t op, void *r, uint64_t *fetch_p,
                                     uint64_t operand, uint64_t compare) {
    T v = (T)operand, c = (T)compare;
    T old = 0;
    if (ipc_thread_select() != 0)
        return SHMEMI_ERR_IO;
    pthread_mutex_lock(&amo_lock);
    ipc_amo_kernel<T><<<1, 1, 0, copy_stream>>>((int)op, (T *)r, (T *)amo_fetch, v, c);
    /* Complete at return either way; only a fetching AMO copies the old value back. */
    shmemi_status_t st = SHMEMI_ERR_IO;
    if (ipc_check("AMO", shmemi_gpu_get_last_error()) == 0) {
        if (fetch_p)
            st = ipc_copy("AMO", &old, amo_fetch, sizeof(T));
        else
            st = ipc_copy_wait("AMO");
    }
    pthread_mutex_unlock(&amo_lock);
    if (st != SHMEMI_OK)
        return st;
    if (fetch_p)
        *fetch_p = (uint64_t)old;
    return SHMEMI_OK;
}

static shmemi_status_t ipc_amo(shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op, int segment,
                               size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                               size_t size, int pe) {
    (void)tctx;
    void *r = ipc_remote(segment, offset, size, pe);
    if (!r)
        return SHMEMI_ERR_INVALID;
    if (size == 4)
        return ipc_amo_sized<uint32_t>(op, r, fetch_p, operand, compare);
    if (size == 8)
        return ipc_amo_sized<uint64_t>(op, r, fetch_p, operand, compare);
    return SHMEMI_ERR_UNSUPPORTED;
}

/* Host copies and AMOs above are synchronous, so quiet only drains the copy stream. It never
 * waits for kernels: a host barrier may run while a kernel waits for what the host does after it
 * (shmem_finalize synchronizes the device before its last barrier, src/device/state.cu). */
static shmemi_status_t ipc_quiet(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
    return ipc_copy_wait("quiet");
}

static int ipc_test(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
    if (ipc_thread_select() != 0)
        return SHMEMI_ERR_IO;
    shmemi_gpu_error_t err = shmemi_gpu_stream_query(copy_stream);
    if (err == shmemi_gpu_error_not_ready)
        return 0;
    return ipc_check("test", err) ? SHMEMI_ERR_IO : 1;
}

/* Host data only: HIP would otherwise also place this constant in device memory. */
#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" const shmemi_transport_ops_t shmemi_transport_ipc_ops = {
    .name = "ipc",
    .flags = SHMEMI_TRANSPORT_MAPPING,
    .host_loadable = 0,
    .blob_size = sizeof(ipc_blob_t),
    .init = ipc_init,
    .finalize = ipc_finalize,
    .segment_create = ipc_segment_create,
    .segment_share = ipc_segment_share,
    .segment_attach = ipc_segment_attach,
    .segment_detach = ipc_segment_detach,
    .segment_destroy = ipc_segment_destroy,
    .local_fill = ipc_local_fill,
    .local_copy = ipc_local_copy,
    .can_reach = shmemi_transport_unsupported_can_reach,
    .address_get = shmemi_transport_unsupported_address_get,
    .peers_set = shmemi_transport_unsupported_peers_set,
    .mem_register = shmemi_transport_unsupported_mem_register,
    .mem_peer = shmemi_transport_unsupported_mem_peer,
    .mem_deregister = shmemi_transport_unsupported_mem_deregister,
    .ctx_create = shmemi_transport_no_ctx_create,
    .ctx_destroy = shmemi_transport_no_ctx_destroy,
    .put = ipc_put,
    .put_nbi = ipc_put_nbi,
    .put_start = shmemi_transport_unsupported_put_start,
    .get = ipc_get,
    .get_nbi = ipc_get,
    .amo = ipc_amo,
    .put_signal = shmemi_transport_unsupported_put_signal,
    .put_signal_oneway = shmemi_transport_unsupported_put_signal_oneway,
    .fence = shmemi_transport_unsupported_fence,
    .quiet = ipc_quiet,
    .pe_quiet = shmemi_transport_unsupported_pe_quiet,
    .test = ipc_test,
    .progress = shmemi_transport_no_progress,
    .wait = shmemi_transport_sleep_wait,
};
#endif

/* The heap of a GPU build lives in GPU memory: a mapping transport that is not host_loadable. */
__attribute__((constructor)) static void ipc_select(void) {
    shmemi_transport_register(&shmemi_transport_ipc_ops);
}
