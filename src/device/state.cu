/* SPDX-License-Identifier: BSD-3-Clause */
/* The device state: built at shmem_init from the heap and the ipc mappings, and copied into the
 * __constant__ block of every translation unit that registered itself (shmem/device/impl/
 * state__funcs.h) and of every module given to shmemx_cumodule_init / shmemx_hipmodule_init. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

#include "core/env.h"
#include "transport/ipc/ipc.h"
#include "device/device.h"

#define MAX_REGISTERED 1024

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static shmemi_device_state_update_func_t registered[MAX_REGISTERED];
static int n_registered;
static shmemi_device_state_t state;

const shmemi_device_state_t *shmemi_device_state(void) {
    return &state;
}

static void update_one(shmemi_device_state_update_func_t update) {
    int err = update(&state);
    if (err != 0)
        shmemi_fatal("shmem_init",
                     "cannot fill the device state of a CUDA/HIP translation unit (runtime error "
                     "%d); was it built for this GPU's architecture?",
                     err);
}

extern "C" int shmemi_device_state_register(shmemi_device_state_update_func_t update) {
    pthread_mutex_lock(&registry_lock);
    int handle = -1;
    for (int i = 0; i < n_registered; i++)
        if (!registered[i]) {
            handle = i;
            break;
        }
    if (handle < 0 && n_registered < MAX_REGISTERED)
        handle = n_registered++;
    if (handle >= 0) {
        registered[handle] = update;
        if (state.initialized)
            update_one(update);
    }
    pthread_mutex_unlock(&registry_lock);
    if (handle < 0)
        shmemi_warn("shmem_init",
                    "more than %d CUDA/HIP translation units include shmem.h; the "
                    "others see no device state",
                    MAX_REGISTERED);
    return handle;
}

extern "C" void shmemi_device_state_unregister(int handle) {
    pthread_mutex_lock(&registry_lock);
    if (handle >= 0 && handle < n_registered)
        registered[handle] = NULL;
    pthread_mutex_unlock(&registry_lock);
}

static shmemi_status_t device_init(void) {
    if (shmemi_transport_local != &shmemi_transport_ipc_ops)
        return SHMEMI_OK;
    int n = shmemi_state.n_pes;
    if (n > SHMEMI_DEVICE_MAX_PES)
        shmemi_fatal("shmem_init", "%d PEs, but kernels can address at most %d", n,
                     SHMEMI_DEVICE_MAX_PES);
    memset(&state, 0, sizeof(state));
    state.my_pe = shmemi_state.my_pe;
    state.n_pes = n;
    state.device = shmemi_ipc_device();
    /* SHMEM_TEAM_SHARED is the world where this PE maps every PE's heap, as on the host
     * (not with SHMEM_DISABLE_P2P=1, nor across nodes). */
    state.one_node = 1;
    for (int pe = 0; pe < n; pe++)
        state.one_node &= shmemi_routes[pe].mapped;
    state.heap_base = shmemi_state.segments[0].local_base;
    state.heap_size = shmemi_state.segments[0].size;
    /* A PE whose heap this PE does not map (another node, or SHMEM_DISABLE_P2P=1) goes through
     * the proxy when a network transport reaches it; SHMEM_DEVICE_PATH=proxy sends every other
     * PE that way (the consumer reaches the node's PEs through the ipc transport, as host calls
     * do). */
    const int proxy_all = strcmp(shmemi_env_get("SHMEM_DEVICE_PATH"), "proxy") == 0;
    int proxied = 0;
    for (int pe = 0; pe < n; pe++) {
        state.peer_base[pe] = shmemi_ipc_peer_base(pe);
        state.peer_path[pe] = state.peer_base[pe] ? SHMEMI_PATH_LOADSTORE : SHMEMI_PATH_NONE;
        int unmapped = state.peer_base[pe] == NULL && shmemi_transport_net != NULL;
        if ((proxy_all || unmapped) && pe != state.my_pe) {
            state.peer_path[pe] = SHMEMI_PATH_PROXY;
            proxied++;
        }
    }
    if (proxied)
        state.proxy = shmemi_device_proxy_start();
    state.timeout_ns = shmemi_env_count("SHMEM_DEVICE_TIMEOUT_MS") * 1000000ull;
    /* Every PE allocates the barrier words in the same order: same offset everywhere. */
    state.barrier_flags = (uint64_t *)shmemi_heap_alloc((size_t)n * sizeof(uint64_t), 64);
    if (!state.barrier_flags)
        shmemi_fatal("shmem_init", "no room in the symmetric heap for the device barrier");
    if (shmemi_gpu_memset(state.barrier_flags, 0, (size_t)n * sizeof(uint64_t)) !=
            shmemi_gpu_success ||
        shmemi_gpu_malloc((void **)&state.barrier_epoch, sizeof(uint64_t)) != shmemi_gpu_success ||
        shmemi_gpu_memset(state.barrier_epoch, 0, sizeof(uint64_t)) != shmemi_gpu_success ||
        shmemi_gpu_device_synchronize() != shmemi_gpu_success)
        shmemi_fatal("shmem_init", "cannot set up the device barrier: %s",
                     shmemi_gpu_get_error_string(shmemi_gpu_get_last_error()));
    /* The reduction scratch, allocated after the barrier words by every PE alike. */
    size_t scratch = SHMEMI_DEVICE_COLL_SCRATCH;
    if (scratch > state.heap_size / 16)
        scratch = state.heap_size / 16;
    state.coll_slot = scratch / (2 * (size_t)n) & ~(size_t)255;
    if (state.coll_slot < 256)
        state.coll_slot = 256;
    state.coll_scratch = (char *)shmemi_heap_alloc(2 * (size_t)n * state.coll_slot, 256);
    if (!state.coll_scratch)
        shmemi_fatal("shmem_init",
                     "no room in the symmetric heap for the device reduction scratch");
#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
    /* The slots of BYPASS fence/quiet tracking. Their first contents do not matter: after a
     * tracked operation, a thread's slot holds the word that operation stored or a newer one. */
    size_t track_bytes = sizeof(uint64_t) << SHMEMI_TRACK_SLOTS_LOG2;
    if (shmemi_gpu_malloc((void **)&state.bypass_track, track_bytes) != shmemi_gpu_success ||
        shmemi_gpu_memset(state.bypass_track, 0, track_bytes) != shmemi_gpu_success ||
        shmemi_gpu_device_synchronize() != shmemi_gpu_success)
        shmemi_fatal("shmem_init",
                     "cannot allocate %zu bytes of GPU memory for BYPASS tracking: %s", track_bytes,
                     shmemi_gpu_get_error_string(shmemi_gpu_get_last_error()));
#endif
    shmemi_gpu_error_t loaded = shmemi_device_stream_load();
    if (loaded != shmemi_gpu_success)
        shmemi_fatal("shmem_init", "cannot load the stream-ordered operations' kernels: %s",
                     shmemi_gpu_get_error_string(loaded));
    state.report = shmemi_device_report_start();
    state.initialized = 1;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < n_registered; i++)
        if (registered[i])
            update_one(registered[i]);
    pthread_mutex_unlock(&registry_lock);
    /* No PE may write a barrier word before its owner has cleared it. */
    shmemi_barrier_internal();
    return SHMEMI_OK;
}

static void device_finalize(void) {
    if (!state.initialized)
        return;
    (void)shmemi_gpu_device_synchronize();
    shmemi_device_proxy_stop();
    shmemi_device_report_stop();
    (void)shmemi_gpu_free(state.barrier_epoch);
    shmemi_heap_free(state.coll_scratch);
    if (state.bypass_track)
        (void)shmemi_gpu_free(state.bypass_track);
    shmemi_heap_free(state.barrier_flags);
    memset(&state, 0, sizeof(state));
}

/* Host data only (as in ipc.cu). */
#if !defined(__HIP_DEVICE_COMPILE__)
static const shmemi_module_t device_module = {"device", 50, device_init, device_finalize};
#endif
#if !defined(__HIP_DEVICE_COMPILE__)
__attribute__((constructor)) static void device_register(void) {
    shmemi_module_register(&device_module);
}
#endif

/* ---- modules loaded at run time ----------------------------------------------------------------
 */

/* The driver API is reached through dlopen, so the library loads where no driver is installed. */
#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
#define DRIVER_LIBRARY "libcuda.so.1"
#define DRIVER_GET_GLOBAL "cuModuleGetGlobal_v2"
#define DRIVER_COPY "cuMemcpyHtoD_v2"
#define MODULE_INIT_NAME "shmemx_cumodule_init"
#else
#define DRIVER_LIBRARY "libamdhip64.so"
#define DRIVER_GET_GLOBAL "hipModuleGetGlobal"
#define DRIVER_COPY "hipMemcpyHtoD"
#define MODULE_INIT_NAME "shmemx_hipmodule_init"
#endif

typedef int (*get_global_func_t)(void **dptr, size_t *bytes, void *module, const char *name);
typedef int (*copy_func_t)(void *dst, const void *src, size_t bytes);

static int module_init(void *module) {
    if (!state.initialized)
        shmemi_fatal(MODULE_INIT_NAME, "called before shmem_init");
    void *lib = dlopen(DRIVER_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen(DRIVER_LIBRARY, RTLD_NOW);
    if (!lib)
        shmemi_fatal(MODULE_INIT_NAME, "cannot load %s: %s", DRIVER_LIBRARY, dlerror());
    get_global_func_t get_global = (get_global_func_t)dlsym(lib, DRIVER_GET_GLOBAL);
    copy_func_t copy = (copy_func_t)dlsym(lib, DRIVER_COPY);
    if (!get_global || !copy)
        shmemi_fatal(MODULE_INIT_NAME, "%s lacks %s or %s", DRIVER_LIBRARY, DRIVER_GET_GLOBAL,
                     DRIVER_COPY);
    /* The state block has internal linkage: its name is mangled as a static variable's. */
    static const char *const names[] = {"_ZL13shmemi_dstate", "shmemi_dstate"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        void *dptr = NULL;
        size_t bytes = 0;
        if (get_global(&dptr, &bytes, module, names[i]) == 0 && bytes == sizeof(state))
            return copy(dptr, &state, sizeof(state)) == 0 ? 0 : -1;
    }
    return -1;
}

#if SHMEM_PLATFORM == SHMEM_PLATFORM_CUDA
extern "C" int shmemx_cumodule_init(void *module) {
    return module_init(module);
}
#else
extern "C" int shmemx_hipmodule_init(void *module) {
    return module_init(module);
}
#endif
