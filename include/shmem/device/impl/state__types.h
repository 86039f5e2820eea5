/* The device state block: what a kernel needs to reach every PE's symmetric heap. Plain data,
 * filled by shmem_init (src/device/state.cu) and copied into every translation unit's
 * __constant__ copy (shmem/device/impl/state__funcs.h). */
#ifndef SHMEM_DEVICE_IMPL_STATE__TYPES_H
#define SHMEM_DEVICE_IMPL_STATE__TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/types.h>

/* PEs whose heaps a kernel can address. */
#define SHMEMI_DEVICE_MAX_PES 128

/* How a kernel reaches a peer: not at all, by load/store through a mapping of its heap, or (later)
 * through a host proxy. */
#define SHMEMI_PATH_NONE 0
#define SHMEMI_PATH_LOADSTORE 1
#define SHMEMI_PATH_PROXY 2

/* Slots of the table that records, per thread, whether BYPASS operations are outstanding
 * (shmem/device/impl/ops__funcs.h): 2^20 words of local device memory, CUDA only. */
#define SHMEMI_TRACK_SLOTS_LOG2 20

typedef struct shmemi_device_state {
    int initialized; /* 1 once shmem_init filled the block */
    int my_pe;
    int n_pes;
    int device; /* the GPU of this PE */
    char *heap_base;
    size_t heap_size;
    uint64_t timeout_ns; /* SHMEM_DEVICE_TIMEOUT_MS in ns; 0 = wait forever */
    /* Device barrier: n_pes words in the symmetric heap (word p is set by PE p) and this PE's
     * epoch counter in local device memory. */
    uint64_t *barrier_flags;
    uint64_t *barrier_epoch;
    /* 2^SHMEMI_TRACK_SLOTS_LOG2 words in local device memory (NULL where nothing is tracked). */
    uint64_t *bypass_track;
    char *peer_base[SHMEMI_DEVICE_MAX_PES];
    unsigned char peer_path[SHMEMI_DEVICE_MAX_PES];
    /* Device reductions: two rounds of n_pes slots of coll_slot bytes each (256-byte multiples)
     * in the symmetric heap; slot p of a round is written by PE p. */
    char *coll_scratch;
    size_t coll_slot;
} shmemi_device_state_t;

/* Bytes of the reduction scratch at most (both rounds, all slots); no more than a sixteenth of
 * the symmetric heap. */
#define SHMEMI_DEVICE_COLL_SCRATCH ((size_t)4 << 20)

/* Copies the library's state block into one translation unit's __constant__ copy; returns 0 or
 * the runtime's error code. */
typedef int (*shmemi_device_state_update_func_t)(const shmemi_device_state_t *state);

SHMEMI_EXTERN_C_BEGIN
/* Called at load time by every device translation unit: remembers update and calls it now if
 * shmem_init has already run, else from shmem_init. Returns a handle for unregistration. */
int shmemi_device_state_register(shmemi_device_state_update_func_t update);
/* Called when the translation unit is unloaded (a shared library closed). */
void shmemi_device_state_unregister(int handle);
SHMEMI_EXTERN_C_END

#endif
