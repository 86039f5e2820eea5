/* SPDX-License-Identifier: BSD-3-Clause */
/* The device state block: what a kernel needs to reach every PE's symmetric heap. Plain data,
 * filled by shmem_init (src/device/state.cu) and copied into every translation unit's
 * __constant__ copy (shmem/device/impl/state__funcs.h). */
#ifndef SHMEM_DEVICE_IMPL_STATE__TYPES_H
#define SHMEM_DEVICE_IMPL_STATE__TYPES_H

#include <stddef.h>
#include <stdint.h>

#include <shmem/device/impl/proxy__types.h>
#include <shmem/types.h>

/* PEs whose heaps a kernel can address. */
#define SHMEMI_DEVICE_MAX_PES 128

/* How a kernel reaches a peer: not at all, by load/store through a mapping of its heap, or
 * through the host proxy (commands in a ring that a host thread issues; proxy__types.h). */
#define SHMEMI_PATH_NONE 0
#define SHMEMI_PATH_LOADSTORE 1
#define SHMEMI_PATH_PROXY 2

/* Slots of the table that records, per thread, whether BYPASS operations are outstanding
 * (shmem/device/impl/ops__funcs.h): 2^20 words of local device memory, CUDA only. */
#define SHMEMI_TRACK_SLOTS_LOG2 20

/* A kernel's fatal error, for the host to print: a record in host memory mapped into the GPU.
 * The first thread of this PE that fails claims it (EMPTY -> WRITING), fills it, marks it READY
 * and waits, for at most SHMEMI_DREPORT_WAIT_NS, until the host's watcher has printed it (SEEN);
 * then it stops the kernel (shmem/device/impl/state__funcs.h, src/device/report.cu). */
#define SHMEMI_DREPORT_EMPTY 0u
#define SHMEMI_DREPORT_WRITING 1u
#define SHMEMI_DREPORT_READY 2u
#define SHMEMI_DREPORT_SEEN 3u
#define SHMEMI_DREPORT_WAIT_NS 2000000000ull
#define SHMEMI_DREPORT_TEXT 96

/* What failed; a and b are the numbers the message names. */
#define SHMEMI_DFATAL_MESSAGE 0     /* what */
#define SHMEMI_DFATAL_PE 1          /* PE a out of range [0, b) */
#define SHMEMI_DFATAL_ADDRESS 2     /* addr (a bytes) not in the symmetric heap */
#define SHMEMI_DFATAL_UNREACHABLE 3 /* addr on PE a not reachable */
#define SHMEMI_DFATAL_TIMEOUT 4     /* wait on addr timed out after a ms */
#define SHMEMI_DFATAL_SPLIT_TEAM 5  /* team a made by shmem_team_split_* */
#define SHMEMI_DFATAL_ROOT 6        /* PE_root a out of range [0, b) of the team */
#define SHMEMI_DFATAL_PROXY 7 /* proxy ticket a waited too long for its slot (b 0) or answer */
#define SHMEMI_DFATAL_WAIT 8  /* wait for *addr cmp c to hold timed out after a ms; it held b */

typedef struct shmemi_dreport {
    uint32_t state;
    int32_t kind;
    int32_t block[3];
    int32_t thread[3];
    uint64_t addr;
    int64_t a, b, c;
    int32_t cmp;
    char call[SHMEMI_DREPORT_TEXT];
    char what[SHMEMI_DREPORT_TEXT];
} shmemi_dreport_t;

typedef struct shmemi_device_state {
    int initialized; /* 1 once shmem_init filled the block */
    int my_pe;
    int n_pes;
    int device;   /* the GPU of this PE */
    int one_node; /* 1 when this PE maps every PE's heap (SHMEM_TEAM_SHARED is the world) */
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
    /* This PE's proxy ring (n_slots 0 when no peer's path is SHMEMI_PATH_PROXY): pinned host
     * memory mapped into the GPU. */
    shmemi_proxy_ring_t proxy;
    /* This PE's record of a kernel's fatal error (NULL before shmem_init). */
    shmemi_dreport_t *report;
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
