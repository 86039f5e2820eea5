/* SPDX-License-Identifier: BSD-3-Clause */
/* The contract between src/core and the layers above it (src/host, src/device) and the
 * transports below it. Everything here is internal: include/ never includes it.
 *
 * The library is built with hidden visibility. A definition of the public API is exported when it
 * is marked SHMEMI_API, or when this header came before any public header in its file (the
 * first declarations then come from the include below, with default visibility). */
#ifndef SHMEMI_H
#define SHMEMI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#if defined(__CUDACC__) || defined(__HIPCC__)
#include <shmem/types.h>
#else
#pragma GCC visibility push(default)
#include <shmem.h>
#include <shmemx.h>
#pragma GCC visibility pop
#endif

/* Marks a definition of the public API as exported (the library builds with hidden visibility). */
#define SHMEMI_API __attribute__((visibility("default")))

SHMEMI_EXTERN_C_BEGIN

/* One status enum for the whole library: OK = 0, in progress > 0, errors < 0. */
typedef enum {
    SHMEMI_OK = 0,
    SHMEMI_INPROGRESS = 1,
    SHMEMI_ERR_UNSUPPORTED = -1,
    SHMEMI_ERR_NOMEM = -2,
    SHMEMI_ERR_INVALID = -3,
    SHMEMI_ERR_IO = -4,
    SHMEMI_ERR_PEER = -5,
} shmemi_status_t;

/* ---- errors and logging (src/core/error.c) ------------------------------------------------- */

/* Print "libshmem: PE <me>: <call>: <message>" on stderr, then end the whole job (every PE) with
 * a non-zero status. Used for every bad input; never returns. */
__attribute__((noreturn, format(printf, 2, 3))) void shmemi_fatal(const char *call, const char *fmt,
                                                                  ...);
/* Same prefix, once, without ending anything. */
void shmemi_warn(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Printed only when SHMEM_DEBUG=1. */
void shmemi_debug_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- process-wide state (src/core/init.c) -------------------------------------------------- */

/* A symmetric segment: the heap (index 0), a data segment of the executable (1, 2, ...), or, last,
 * the library's internal segment (shmemi_internal_alloc). Each PE's copy of segment s starts at
 * peer_base[pe]; addresses translate by offset. */
struct shmemi_transport_ops;

typedef struct {
    char *local_base;
    size_t size;
    char **peer_base; /* n_pes entries; NULL where the peer is not load/store reachable */
    const struct shmemi_transport_ops *ops; /* the mapping transport that made it (shm, ipc) */
} shmemi_segment_t;

#define SHMEMI_MAX_SEGMENTS 8

typedef struct {
    int initialized; /* 1 between shmem_init and the shmem_finalize that matches the first one */
    int finalized;   /* 1 after that shmem_finalize, until shmem_init initializes again */
    int my_pe;
    int n_pes;
    int thread_level; /* granted SHMEM_THREAD_* level */
    int debug;        /* SHMEM_DEBUG: check every argument */
    int n_segments;
    shmemi_segment_t segments[SHMEMI_MAX_SEGMENTS];
} shmemi_state_t;

extern shmemi_state_t shmemi_state;

/* Nonzero when host code loads and stores segment seg of this PE (it maps its own copy: host
 * memory); zero for GPU memory. */
static inline int shmemi_segment_host(const shmemi_segment_t *seg) {
    return seg->peer_base[shmemi_state.my_pe] != NULL;
}

/* The work of shmem_init_thread / shmem_finalize / shmem_global_exit (src/host/setup.c holds the
 * public names). Counted, as OpenSHMEM 1.6 says: shmemi_init initializes on the first call and
 * otherwise only counts the call (returning the thread level granted by the first);
 * shmemi_finalize uncounts one and finalizes at the last (a no-op when not initialized). After
 * that, shmemi_init initializes the library again (a new epoch: fresh heap, teams, contexts),
 * with the same PE number in the same job. */
int shmemi_init(const char *call, int requested);
void shmemi_finalize(void);
/* 1 between the first shmemi_init and the matching last shmemi_finalize, else 0. Thread-safe. */
int shmemi_initialized(void);
__attribute__((noreturn)) void shmemi_global_exit(int status);

/* The checks below are inline where they pass and call out of line where they fail. */
void shmemi_check_init_failed(const char *call);
void shmemi_check_pe_failed(const char *call, int pe);
void shmemi_check_symmetric_debug(const char *call, const void *addr, size_t len, int pe);
void shmemi_check_aligned_failed(const char *call, const void *addr, size_t align, int pe);

/* Abort with a clear message unless the library is initialized. */
static inline void shmemi_check_init(const char *call) {
    if (__builtin_expect(!shmemi_state.initialized, 0))
        shmemi_check_init_failed(call);
}
/* Abort unless 0 <= pe < n_pes (always checked, not only under SHMEM_DEBUG); also fails
 * before shmem_init. */
static inline void shmemi_check_pe(const char *call, int pe) {
    if (__builtin_expect((unsigned)pe >= (unsigned)shmemi_state.n_pes, 0))
        shmemi_check_pe_failed(call, pe);
}
/* Under SHMEM_DEBUG=1: abort unless [addr, addr+len) lies in one symmetric segment and len does
 * not overflow (len 0 passes: nothing is accessed). A test of one flag otherwise. */
static inline void shmemi_check_symmetric(const char *call, const void *addr, size_t len, int pe) {
    if (__builtin_expect(shmemi_state.debug, 0))
        shmemi_check_symmetric_debug(call, addr, len, pe);
}
/* Under SHMEM_DEBUG=1: abort unless addr is aligned to align bytes. */
static inline void shmemi_check_aligned(const char *call, const void *addr, size_t align, int pe) {
    if (__builtin_expect(shmemi_state.debug && align && (uintptr_t)addr % align != 0, 0))
        shmemi_check_aligned_failed(call, addr, align, pe);
}

/* Segment index and offset of a symmetric address; -1 when not symmetric. Inline: every
 * operation translates addresses. */
static inline int shmemi_segment_of(const void *addr, size_t *offset_p) {
    for (int s = 0; s < shmemi_state.n_segments; s++) {
        const shmemi_segment_t *seg = &shmemi_state.segments[s];
        size_t offset = (size_t)((uintptr_t)addr - (uintptr_t)seg->local_base);
        if (offset < seg->size) {
            *offset_p = offset;
            return s;
        }
    }
    return -1;
}

/* The address of symmetric object addr on PE pe, if pe is load/store reachable, else NULL.
 * Also NULL when addr is not symmetric or pe is out of range. The one routing decision of the
 * library: every host operation calls this and takes the load/store path when it is non-NULL,
 * else the transport. Translation is by (segment, offset): with ASLR each PE maps every segment
 * at its own address. */
static inline void *shmemi_ptr(const void *addr, int pe) {
    size_t offset;
    if ((unsigned)pe >= (unsigned)shmemi_state.n_pes)
        return NULL;
    int s = shmemi_segment_of(addr, &offset);
    if (s < 0 || !shmemi_state.segments[s].peer_base[pe])
        return NULL;
    return shmemi_state.segments[s].peer_base[pe] + offset;
}

/* Nonzero when this PE's heap (segment 0, the one segment a GPU platform places in GPU memory) is
 * memory host code cannot load or store. Zero outside shmem_init..shmem_finalize. */
static inline int shmemi_heap_on_device(void) {
    return __builtin_expect(shmemi_state.n_segments > 0 &&
                                shmemi_state.segments[0].peer_base[shmemi_state.my_pe] == NULL,
                            0);
}

/* Nonzero when addr is this PE's symmetric memory that host code cannot load or store (the heap
 * in GPU memory on GPU platforms): host code reaches it only through the heap's transport
 * (shmemi_transport_local->local_copy). Zero for host memory and for any address outside the
 * symmetric segments; where the heap is host memory, no address lookup is made. */
static inline int shmemi_local_on_device(const void *addr) {
    const shmemi_segment_t *heap = &shmemi_state.segments[0];
    return shmemi_heap_on_device() &&
           (size_t)((uintptr_t)addr - (uintptr_t)heap->local_base) < heap->size;
}

/* PE of this process as far as it is known: my_pe after shmem_init, the launcher's PE number
 * before it, -1 when neither is known. Used in messages. */
int shmemi_my_pe_for_messages(void);

/* A full (sequentially consistent) memory fence. GCC's TSan rejects __atomic_thread_fence; there
 * a sequentially consistent read-modify-write on a private word (a locked instruction on x86,
 * a full barrier on the others) is the fence. */
#if defined(__SANITIZE_THREAD__)
static inline void shmemi_full_fence(void) {
    static int shmemi_fence_word;
    __atomic_fetch_add(&shmemi_fence_word, 0, __ATOMIC_SEQ_CST);
}
#else
static inline void shmemi_full_fence(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif

/* One step of a spinning wait: tells the processor that the thread spins (x86 pause, Arm yield). */
static inline void shmemi_cpu_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* quiet on every context of every transport (the heap's and the network's). */
void shmemi_transports_quiet(void);

/* quiet on every transport, a full memory fence, then the bootstrap barrier. The barrier inside
 * the memory management routines; the public shmem_barrier_all lives in src/host. */
void shmemi_barrier_internal(void);

/* ---- modules of the layers above core (src/host, src/device) ------------------------------- */

/* A layer above core that needs set-up after the heap and bootstrap exist (teams, contexts,
 * device state). Registered from a constructor, so core calls up without including the layer:
 *   static const shmemi_module_t m = {"teams", 20, teams_init, teams_finalize};
 *   __attribute__((constructor)) static void reg(void) { shmemi_module_register(&m); }
 * shmem_init runs init in increasing order, after core; shmem_finalize runs finalize in
 * decreasing order, before core tears down. */
typedef struct shmemi_module {
    const char *name;
    int order;
    shmemi_status_t (*init)(void);
    void (*finalize)(void);
} shmemi_module_t;

void shmemi_module_register(const shmemi_module_t *module);

/* ---- environment (src/core/env.c) ---------------------------------------------------------- */

/* Parse a size with an optional K/M/G/T suffix (powers of 1024). Returns SHMEMI_ERR_INVALID on
 * junk or overflow. */
shmemi_status_t shmemi_env_parse_size(const char *text, size_t *size_p);

/* FNV-1a, 64 bits, of the len bytes at p: the same on every PE for the same bytes (a routine's
 * name, a setting's text, a blob's check sum). */
static inline uint64_t shmemi_fnv1a(const void *p, size_t len) {
    const unsigned char *b = (const unsigned char *)p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* ---- symmetric heap (src/core/heap.c) ------------------------------------------------------ */

/* Deterministic allocator over segment 0. Collective callers get the same offsets everywhere.
 * Local only: no barrier, no check that the other PEs agree (src/host/memory.c adds both).
 * align is a power of two (0 means the default, 64 bytes). Returns NULL when the heap has no
 * room, size is 0, or align exceeds the alignment of the heap's base on some PE (1 GiB or the
 * heap's size rounded up to a power of two, on shm). Thread-safe. */
void *shmemi_heap_alloc(size_t size, size_t align);
void shmemi_heap_free(void *ptr);
/* Grow or shrink the block at ptr in place; SHMEMI_ERR_NOMEM when it cannot. */
shmemi_status_t shmemi_heap_resize(void *ptr, size_t size);
/* Usable size of the block at ptr; 0 when ptr is not the start of a live block. */
size_t shmemi_heap_block_size(const void *ptr);

/* The library's own symmetric memory, for the layers above core (barrier and collective flags,
 * lock words): always host memory in an shm segment that every PE maps, also on GPU platforms,
 * whose heap the host cannot touch. Same rules as the heap: local, no barrier, deterministic
 * (PEs that make the same calls get the same offsets), shmemi_ptr translates it. 64 MiB, sparse.
 * Zeroed when first touched. Valid from module init (shmemi_module_t) until module finalize. */
void *shmemi_internal_alloc(size_t size, size_t align);
void shmemi_internal_free(void *ptr);
/* Its segment index (the last one), -1 outside shmem_init..shmem_finalize. */
extern int shmemi_internal_segment;

/* ---- memory shared by the host and the GPU (src/core/host_shared.c) ------------------------ */

/* Host memory that kernels may read and write at the same address as the host: library objects
 * that user kernels dereference (context objects). calloc/free on the cpu platform; a GPU
 * platform installs pinned, mapped memory from a constructor, before shmem_init:
 *   __attribute__((constructor)) static void pick(void) { shmemi_host_shared_set(&ops); }
 * alloc returns zeroed memory or NULL; free accepts what alloc returned. */
typedef struct shmemi_host_shared_ops {
    void *(*alloc)(size_t size);
    void (*free)(void *ptr);
} shmemi_host_shared_ops_t;

void shmemi_host_shared_set(const shmemi_host_shared_ops_t *ops);
/* Zeroed memory of size bytes through the installed allocator; NULL when there is none left. */
void *shmemi_host_shared_alloc(size_t size);
/* Frees what shmemi_host_shared_alloc returned; NULL is ignored. */
void shmemi_host_shared_free(void *ptr);

/* ---- bootstrap (src/core/bootstrap*.c) ----------------------------------------------------- */

typedef struct shmemi_bootstrap_ops {
    const char *name;
    /* out receives n_pes * len bytes: PE i's len bytes at out + i * len. */
    shmemi_status_t (*allgather)(const void *in, void *out, size_t len);
    shmemi_status_t (*barrier)(void);
    /* Ask the launcher to end every PE with status. Does not return on success. */
    shmemi_status_t (*global_exit)(int status);
    /* The same from any thread, at any time (a kernel's error): ends this process with _exit,
     * without exit handlers. Does not return. */
    void (*abort)(int status);
    shmemi_status_t (*finalize)(void);
} shmemi_bootstrap_ops_t;

extern const shmemi_bootstrap_ops_t *shmemi_bootstrap;

/* Picks the bootstrap (shmemrun when SHMEM_JOB_SOCKET is set, else PMIx when built in and
 * PMIX_NAMESPACE and PMIX_RANK are set, else a single PE), connects, and sets
 * shmemi_bootstrap. Fails the job on error. */
void shmemi_bootstrap_init(int *my_pe_p, int *n_pes_p);

/* Ends the whole job with status, as shmem_global_exit would, from any thread and whatever the
 * other threads do: no exit handlers run in this process. */
__attribute__((noreturn)) void shmemi_bootstrap_abort(int status);

/* ---- transports (src/transport/<name>/) ---------------------------------------------------- */

/* The largest blob a mapping transport (shm, ipc) needs to describe one segment to its peers. */
#define SHMEMI_SEGMENT_BLOB_SIZE 128

typedef enum {
    SHMEMI_AMO_FETCH,
    SHMEMI_AMO_SET,
    SHMEMI_AMO_SWAP,
    SHMEMI_AMO_CSWAP,
    SHMEMI_AMO_ADD,
    SHMEMI_AMO_AND,
    SHMEMI_AMO_OR,
    SHMEMI_AMO_XOR,
} shmemi_amo_op_t;

/* A transport's per-context state (a UCX worker and its endpoints, say); NULL for transports that
 * keep none. Made by ctx_create for every OpenSHMEM context, the default one included. */
typedef struct shmemi_transport_ctx shmemi_transport_ctx_t;
/* Told by a transport that a started put's source may be reused (shmemi_transport_ops_t's
 * put_start); status is not SHMEMI_OK when the put failed after it started. */
typedef void (*shmemi_put_done_t)(void *arg, shmemi_status_t status);

/* What a transport is. A mapping transport lets peers on the node map its segments (shm: host
 * memory; ipc: GPU memory) and may move bytes into mapped memory host code cannot touch; a
 * network transport reaches PEs through registered memory. */
#define SHMEMI_TRANSPORT_MAPPING 0x1u
#define SHMEMI_TRANSPORT_NETWORK 0x2u
/* The target must run the transport's progress for puts, gets and AMOs to complete (UCX over TCP,
 * software atomics): the library then progresses it in every wait and, by default, from a
 * progress thread. */
#define SHMEMI_TRANSPORT_NEEDS_PROGRESS 0x4u
/* A network transport that registers memory host code cannot load (UCX built with a GPU memory
 * type): such segments are registered like host memory, not delivered (src/core/deliver.c). */
#define SHMEMI_TRANSPORT_DEVICE_MEMORY 0x8u

/* Who calls a transport's wait: the progress thread, a library wait of the PE that sleeps, or one
 * that may poll a busy transport instead (the machine has processors to spare). */
enum { SHMEMI_WAIT_THREAD = 0, SHMEMI_WAIT_PE = 1, SHMEMI_WAIT_PE_POLL = 2 };

/* A transport: an ops table filled with designated initializers. No slot is NULL: an operation a
 * transport does not have points to the matching shmemi_transport_unsupported_* stub. Remote
 * operations name memory by (segment, offset), the same on every PE; pe is a world PE. Operations
 * on a context are thread-safe unless the context was created with SHMEM_CTX_PRIVATE.
 * Completion: put and put_signal return when source may be reused (locally complete); _nbi
 * forms and non-fetching AMOs complete remotely at quiet; a fetching AMO and a blocking get
 * return with their result. */
typedef struct shmemi_transport_ops {
    const char *name;
    unsigned flags; /* SHMEMI_TRANSPORT_* */
    /* Nonzero when host code can load and store the segments this transport makes (host memory);
     * zero for GPU memory, which host code reaches only through local_fill, local_copy and the
     * remote operations. Known before the first segment exists, so every module sees the answer
     * (shmemi_heap_on_device) from its init on. */
    int host_loadable;
    /* The bytes at the start of a blob that describe a segment (segment_create, segment_share);
     * the rest of SHMEMI_SEGMENT_BLOB_SIZE is zero and does not travel. 0: maps nothing. */
    size_t blob_size;
    shmemi_status_t (*init)(void);
    shmemi_status_t (*finalize)(void);

    /* -- mapping: segments peers on the node map -- */
    /* Make size bytes of memory that peers can map; describe it in blob. */
    shmemi_status_t (*segment_create)(size_t size, void **base_p,
                                      unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]);
    /* Turn an existing private range (a data segment) into one peers can map. */
    shmemi_status_t (*segment_share)(void *base, size_t size,
                                     unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]);
    /* Map a peer's segment from its blob. */
    shmemi_status_t (*segment_attach)(int pe, const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE],
                                      size_t size, void **base_p);
    shmemi_status_t (*segment_detach)(void *base, size_t size);
    shmemi_status_t (*segment_destroy)(void *base, size_t size);
    /* Set or copy bytes within this PE's own segments (shmem_calloc zeroes, shmem_realloc
     * moves): memset/memcpy for host memory, the GPU's copy engine for device memory. */
    shmemi_status_t (*local_fill)(void *dest, int value, size_t len);
    shmemi_status_t (*local_copy)(void *dest, const void *source, size_t len);

    /* -- network: addresses and registered memory -- */
    /* Nonzero when this transport can reach pe (after peers_set). */
    int (*can_reach)(int pe);
    /* This PE's address (a UCX worker address): *blob_p stays valid until finalize. */
    shmemi_status_t (*address_get)(const void **blob_p, size_t *len_p);
    /* Every PE's address, indexed by PE; the transport copies what it keeps. Connects nothing:
     * endpoints are made on first use. SHMEMI_ERR_INVALID when a PE's address does not parse
     * (*bad_pe_p is that PE; the transport has said why). */
    shmemi_status_t (*peers_set)(const void *const *blobs, const size_t *lens, int *bad_pe_p);
    /* Register this PE's segment (its own copy, size bytes at base) for remote access; *blob_p
     * (any size; an rkey) stays valid until mem_deregister. */
    shmemi_status_t (*mem_register)(int segment, void *base, size_t size, const void **blob_p,
                                    size_t *len_p);
    /* PE pe's blob for segment; checked and copied, unpacked on first use. SHMEMI_ERR_INVALID
     * when it does not parse (the transport has said why). */
    shmemi_status_t (*mem_peer)(int segment, int pe, const void *blob, size_t len);
    shmemi_status_t (*mem_deregister)(int segment);

    /* -- contexts -- */
    /* options: SHMEM_CTX_* bits; SHMEM_CTX_PRIVATE promises one thread at a time. */
    shmemi_status_t (*ctx_create)(long options, shmemi_transport_ctx_t **tctx_p);
    void (*ctx_destroy)(shmemi_transport_ctx_t *tctx);

    /* -- remote operations -- */
    shmemi_status_t (*put)(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                           const void *source, size_t len, int pe);
    shmemi_status_t (*put_nbi)(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                               const void *source, size_t len, int pe);
    /* A put whose source stays in use past return, for a caller that reuses a buffer only when
     * told (the proxy's ring slots), so that it can start the next put meanwhile: done(arg,
     * status) runs once source may be reused, on a thread that progresses the transport, or in
     * this call before it returns; a failure after the start comes as its status (the transport
     * has said why). When put_start returns anything but SHMEMI_OK, done never runs. Ordered and
     * completed as put is. */
    shmemi_status_t (*put_start)(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                                 const void *source, size_t len, int pe, shmemi_put_done_t done,
                                 void *arg);
    shmemi_status_t (*get)(shmemi_transport_ctx_t *tctx, void *dest, int segment, size_t offset,
                           size_t len, int pe);
    shmemi_status_t (*get_nbi)(shmemi_transport_ctx_t *tctx, void *dest, int segment, size_t offset,
                               size_t len, int pe);
    /* An AMO of size 4 or 8 on (segment, offset) at pe; operand and compare hold the value's
     * bits. Fetching when fetch_p is not NULL (then it returns with the old bits in *fetch_p,
     * zero-extended); otherwise it may complete at quiet. */
    shmemi_status_t (*amo)(shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op, int segment,
                           size_t offset, uint64_t *fetch_p, uint64_t operand, uint64_t compare,
                           size_t size, int pe);
    /* The data, then the 8-byte signal update (SHMEMI_AMO_SET or SHMEMI_AMO_ADD) delivered after
     * it; locally complete at return. */
    shmemi_status_t (*put_signal)(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                                  const void *source, size_t len, int sig_segment,
                                  size_t sig_offset, shmemi_amo_op_t sig_op, uint64_t signal,
                                  int pe);
    /* One-way put-with-signal for the library's own words in host memory (the internal
     * segment): len bytes (0: none) at (segment, offset) of pe, then an add of add to the 8-byte
     * word at (sig_segment, sig_offset) there, applied after the data, and an add of add2 (0:
     * none) to the word at (sig_segment, sig2_offset), so that a token and a credit travel
     * together. Locally complete at return. Ordered with no other operation (not even another of
     * its kind) and never completed by fence or quiet: the receiver learns of it by the word alone,
     * as the collectives' tokens, pushes and credits do (counters that only grow). Every network
     * transport has it (the collectives across nodes send their tokens with it); the load/store
     * transports do not. */
    shmemi_status_t (*put_signal_oneway)(shmemi_transport_ctx_t *tctx, int segment, size_t offset,
                                         const void *source, size_t len, int sig_segment,
                                         size_t sig_offset, uint64_t add, size_t sig2_offset,
                                         uint64_t add2, int pe);
    /* Orders delivery of the context's earlier puts, AMOs and signals to pe before its later
     * ones to pe; pe -1: to every PE. */
    shmemi_status_t (*fence)(shmemi_transport_ctx_t *tctx, int pe);
    /* Completes everything the context issued (tctx NULL: on every context). */
    shmemi_status_t (*quiet)(shmemi_transport_ctx_t *tctx);
    /* Completes what the context issued to pe (its delivered operations: every one). For the
     * fence to a PE whose puts are load/store while its AMOs take this transport (shmemi_net_fence:
     * a fence orders the two paths only if the AMOs are complete). */
    shmemi_status_t (*pe_quiet)(shmemi_transport_ctx_t *tctx, int pe);
    /* 1 when everything the context issued (tctx NULL: on every context) is complete, so that
     * quiet would return at once; 0 while something is in flight; a negative status on failure.
     * Never waits. For delivery, which lets a put into the GPU heap run while it receives the
     * next (src/core/deliver.c). */
    int (*test)(shmemi_transport_ctx_t *tctx);
    /* Runs the transport's progress once (the worker that serves peers' requests); thread-safe.
     * For the library's waits: a network transport counts the pass in its host's pe_progress (as
     * it does for the passes of its own blocking operations). Returns nonzero when something
     * happened. */
    int (*progress)(void);
    /* Blocks up to timeout_us microseconds until the transport has something to progress (a
     * peer's request arrived), then progresses it. who: SHMEMI_WAIT_PE or SHMEMI_WAIT_PE_POLL for
     * a library wait of the PE that would sleep (the pass counts in pe_progress, as progress()
     * does; _POLL: the machine has processors to spare, so while the transport is busy the wait
     * may poll it instead of sleeping), SHMEMI_WAIT_THREAD for the progress thread (it does not
     * count). Returns nonzero when it progressed something. */
    int (*wait)(long timeout_us, int who);
} shmemi_transport_ops_t;

/* Stubs for the slots of operations a transport does not have: they report
 * SHMEMI_ERR_UNSUPPORTED (can_reach: 0; ctx_create: no state; ctx_destroy, progress: nothing). */
int shmemi_transport_unsupported_can_reach(int pe);
shmemi_status_t shmemi_transport_unsupported_address_get(const void **blob_p, size_t *len_p);
shmemi_status_t shmemi_transport_unsupported_peers_set(const void *const *blobs, const size_t *lens,
                                                       int *bad_pe_p);
shmemi_status_t shmemi_transport_unsupported_mem_register(int segment, void *base, size_t size,
                                                          const void **blob_p, size_t *len_p);
shmemi_status_t shmemi_transport_unsupported_mem_peer(int segment, int pe, const void *blob,
                                                      size_t len);
shmemi_status_t shmemi_transport_unsupported_mem_deregister(int segment);
shmemi_status_t shmemi_transport_no_ctx_create(long options, shmemi_transport_ctx_t **tctx_p);
void shmemi_transport_no_ctx_destroy(shmemi_transport_ctx_t *tctx);
shmemi_status_t shmemi_transport_unsupported_put(shmemi_transport_ctx_t *tctx, int segment,
                                                 size_t offset, const void *source, size_t len,
                                                 int pe);
shmemi_status_t shmemi_transport_unsupported_put_start(shmemi_transport_ctx_t *tctx, int segment,
                                                       size_t offset, const void *source,
                                                       size_t len, int pe, shmemi_put_done_t done,
                                                       void *arg);
shmemi_status_t shmemi_transport_unsupported_get(shmemi_transport_ctx_t *tctx, void *dest,
                                                 int segment, size_t offset, size_t len, int pe);
shmemi_status_t shmemi_transport_unsupported_amo(shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op,
                                                 int segment, size_t offset, uint64_t *fetch_p,
                                                 uint64_t operand, uint64_t compare, size_t size,
                                                 int pe);
shmemi_status_t shmemi_transport_unsupported_put_signal(shmemi_transport_ctx_t *tctx, int segment,
                                                        size_t offset, const void *source,
                                                        size_t len, int sig_segment,
                                                        size_t sig_offset, shmemi_amo_op_t sig_op,
                                                        uint64_t signal, int pe);
shmemi_status_t shmemi_transport_unsupported_put_signal_oneway(
    shmemi_transport_ctx_t *tctx, int segment, size_t offset, const void *source, size_t len,
    int sig_segment, size_t sig_offset, uint64_t add, size_t sig2_offset, uint64_t add2, int pe);
shmemi_status_t shmemi_transport_unsupported_fence(shmemi_transport_ctx_t *tctx, int pe);
shmemi_status_t shmemi_transport_unsupported_pe_quiet(shmemi_transport_ctx_t *tctx, int pe);
int shmemi_transport_unsupported_test(shmemi_transport_ctx_t *tctx);
int shmemi_transport_no_progress(void);
/* Sleeps timeout_us and returns 0: a transport without a way to wait for events. */
int shmemi_transport_sleep_wait(long timeout_us, int who);

/* The shm transport (src/transport/shm): memfd segments, peers mapped by load/store. It always
 * holds the data segments of the executable and the internal segment. */
extern const shmemi_transport_ops_t shmemi_transport_shm_ops;

/* ---- the transport registry (src/core/transport.c) ----------------------------------------- */

/* The registry: built-in transports register from a constructor, before shmem_init:
 *   __attribute__((constructor)) static void reg(void) { shmemi_transport_register(&ops); }
 * A mapping transport that is not host_loadable (ipc) registers to hold the heap: shmem_init
 * puts segment 0 on it. Network transports are plug-ins (libshmem-<name>.so beside libshmem.so,
 * loaded at shmem_init only when a peer needs one; SHMEM_TRANSPORTS says which may load). */
void shmemi_transport_register(const shmemi_transport_ops_t *ops);

/* What a plug-in gets from the library: it cannot call the library's hidden functions. */
typedef struct shmemi_plugin_host {
    int abi; /* SHMEMI_PLUGIN_ABI */
    int my_pe;
    int n_pes;
    /* The library's environment lookup (a documented SHMEM_* variable, or NULL when unset). */
    const char *(*env_get)(const char *name);
    void (*warn)(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    __attribute__((noreturn)) void (*fatal)(const char *call, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
    void (*debug_log)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
    /* Nonzero once shmem_finalize has completed every network operation of this PE: peers may
     * now close their endpoints, which is no failure. */
    const volatile int *closing;
    /* Nonzero when more PEs of the job run on this node than it has processors online: a PE's
     * blocking wait then keeps a processor that a peer on the node waits for, and should yield
     * it as soon as a pass progresses nothing. */
    int shares_processor;
    /* Raised (relaxed atomic) by each pass of a thread of the PE over the network's progress:
     * progress(), and the waits of the transport's own blocking operations; never by wait(). The
     * progress thread sleeps while it moves (src/core/route.c). */
    unsigned long *pe_progress;
    /* -- delivery (src/core/deliver.c): segments the network cannot register -- */
    /* Nonzero when this PE's segment is to be delivered, not registered: mem_register then
     * describes it as delivered, and peers send their operations on it as messages that this
     * PE applies through the functions below. */
    int (*segment_delivered)(int segment);
    /* Apply an operation on this PE's own segment, outside any callback of the network: host
     * memory by memcpy and CPU atomics, GPU memory through the segment's mapping transport
     * (copies, and the GPU's own atomics). They return when the operation is done; source, dest
     * and fetch_p are host memory. SHMEMI_ERR_INVALID when the range is not in the segment. */
    shmemi_status_t (*deliver_put)(int segment, size_t offset, const void *source, size_t len);
    shmemi_status_t (*deliver_get)(int segment, size_t offset, void *dest, size_t len);
    shmemi_status_t (*deliver_amo)(int segment, size_t offset, shmemi_amo_op_t op, uint64_t operand,
                                   uint64_t compare, size_t size, uint64_t *fetch_p);
    /* A put that may still be running at return, so that the network is received meanwhile:
     * source (deliver_buffer's memory, or any host memory) stays untouched and the put unanswered
     * until deliver_test returns nonzero. Later delivered operations on the segment are applied
     * after it. */
    shmemi_status_t (*deliver_put_start)(int segment, size_t offset, const void *source,
                                         size_t len);
    /* 1 when every deliver_put_start is done, 0 while one runs, negative when one failed. */
    int (*deliver_test)(void);
    /* Host memory of len bytes for the payload of a put on this PE's segment, which
     * deliver_put_start copies from without staging (pinned, where the segment is GPU memory);
     * NULL where that gains nothing (a host segment, a longer payload) or none is free: the
     * plug-in then uses its own. Returned with deliver_buffer_free. */
    void *(*deliver_buffer)(int segment, size_t len);
    void (*deliver_buffer_free)(void *buffer);
} shmemi_plugin_host_t;

#define SHMEMI_PLUGIN_ABI 10

/* ---- delivery (src/core/deliver.c) --------------------------------------------------------- */

/* Which of this PE's segments the network delivers (decided by shmemi_route_network before it
 * registers them): a segment host code cannot load (the GPU heap) unless the network transport
 * registers device memory, and every segment under SHMEM_NET_DELIVER=1. */
extern uint8_t shmemi_net_delivered[SHMEMI_MAX_SEGMENTS];
int shmemi_deliver_segment_delivered(int segment);
shmemi_status_t shmemi_deliver_put(int segment, size_t offset, const void *source, size_t len);
shmemi_status_t shmemi_deliver_get(int segment, size_t offset, void *dest, size_t len);
shmemi_status_t shmemi_deliver_amo(int segment, size_t offset, shmemi_amo_op_t op, uint64_t operand,
                                   uint64_t compare, size_t size, uint64_t *fetch_p);
shmemi_status_t shmemi_deliver_put_start(int segment, size_t offset, const void *source,
                                         size_t len);
int shmemi_deliver_test(void);
void *shmemi_deliver_buffer(int segment, size_t len);
void shmemi_deliver_buffer_free(void *buffer);
/* deliver_put_start on a host segment, its completion, and what every other delivery on a host
 * segment does first: finish the started ones (src/core/deliver_host.c: done at once). */
shmemi_status_t shmemi_deliver_host_start(int segment, size_t offset, const void *source,
                                          size_t len);
int shmemi_deliver_host_test(void);
void shmemi_deliver_host_settle(void);
/* The bytes of a delivered put into host memory at dest: an aligned word as one store, so that a
 * one-element put used as a flag is never torn (nor a race for a waiter's atomic loads). */
void shmemi_deliver_host_copy(void *dest, const void *source, size_t len);
/* Sets up (after shmemi_net_delivered is decided) and frees (after the network transport's
 * finalize) the buffers of shmemi_deliver_buffer. */
void shmemi_deliver_init(void);
void shmemi_deliver_finalize(void);

/* The counter behind shmemi_plugin_host_t.pe_progress (src/core/transport.c). */
extern unsigned long shmemi_transport_pe_progress;

/* The one symbol a plug-in exports: shmemi_plugin_<name>, of this type. NULL when the transport
 * cannot run here (its library is missing): it says why through host->warn. */
typedef const shmemi_transport_ops_t *(*shmemi_plugin_entry_func_t)(
    const shmemi_plugin_host_t *host);

/* The transport that holds the heap (shm unless a GPU transport registered for it); the
 * intra-node transport of this platform. Valid after shmem_init. */
extern const shmemi_transport_ops_t *shmemi_transport_local;
/* The network transport of this job, or NULL when every peer is on this node. */
extern const shmemi_transport_ops_t *shmemi_transport_net;

/* ---- routes: how this PE reaches each PE (src/core/route.c) -------------------------------- */

/* One small entry per PE, made at shmem_init; every API family asks it, through shmemi_path. */
typedef struct {
    int node;        /* index of the PE's node; PEs with the same index share a node */
    uint8_t mapped;  /* its segments are mapped here: load/store (and ipc for a GPU heap) */
    uint8_t amo_net; /* AMOs to it go through the network transport (docs/memory_model.md) */
    uint8_t reserved[2];
} shmemi_route_t;

extern shmemi_route_t *shmemi_routes; /* n_pes entries */
extern int shmemi_n_nodes;
/* 1 when the PEs of one node map each other (SHMEM_DISABLE_P2P is not 1); the same on every PE,
 * so that all can tell which PEs map which without asking them. */
extern int shmemi_route_p2p;

/* How to reach symmetric object addr on pe: ptr is its mapped address (load/store) when not
 * NULL; otherwise ops (the heap's ipc transport, or the network transport) at (segment, offset),
 * with tctx, the transport state of context c. */
typedef struct {
    char *ptr;
    const shmemi_transport_ops_t *ops;
    int segment;
    size_t offset;
} shmemi_path_t;

/* Per-context transport state of the network transport (NULL without one) for the default
 * context; contexts keep their own in struct shmemi_ctx. */
extern shmemi_transport_ctx_t *shmemi_net_ctx_default;
/* The network transport state of the collectives' tokens (posted adds a peer waits for): apart
 * from the default context's, so that a quiet of the default context (barrier_all's, the user's)
 * does not wait a round trip for tokens, whose delivery their receivers wait for. */
extern shmemi_transport_ctx_t *shmemi_net_ctx_tokens;

/* The transport path to symmetric object addr on world PE pe, where shmemi_ptr gave no mapped
 * address (or, for an AMO, the route says AMOs take the network): the segment's own mapping
 * transport (ipc, for a GPU heap) when pe is mapped, else the network transport; sets
 * (*segment_p, *offset_p). Fatal, naming call, when addr is not symmetric or nothing reaches pe.
 * amo: nonzero for an AMO (shmemi_route_t.amo_net). */
const shmemi_transport_ops_t *shmemi_route_transport(const char *call, const void *addr, int pe,
                                                     int amo, int *segment_p, size_t *offset_p);

/* The fence of the network transport's context tctx to pe (-1: every PE), ordering its
 * operations also before this PE's later load/store accesses to the PEs it maps. Only with a
 * network transport. */
shmemi_status_t shmemi_net_fence(shmemi_transport_ctx_t *tctx, int pe);

/* Makes the progress the network transport needs (a no-op without one). Called by every wait. */
static inline void shmemi_progress(void) {
    if (__builtin_expect(shmemi_transport_net != NULL, 0))
        (void)shmemi_transport_net->progress();
}

/* The machine's load (src/core/load.c): tasks ready to run now (the running count of
 * /proc/loadavg, read at most every 20 ms; now_ns: CLOCK_MONOTONIC), the processors online (-1:
 * unknown), and whether there are more runnable tasks than processors. Thread-safe. */
double shmemi_runnable_tasks(uint64_t now_ns);
long shmemi_cores(void);
int shmemi_machine_loaded(void);

/* Where a library wait sleeps for up to ns nanoseconds: with a network transport, in its event
 * descriptor, answering the peers' requests as they arrive (so the progress thread can sleep), or,
 * on a machine that is not loaded, polling the transport while it is busy (SHMEMI_WAIT_PE_POLL);
 * else nanosleep. */
static inline void shmemi_progress_sleep(uint64_t ns) {
    if (shmemi_transport_net != NULL) {
        long us = (long)(ns / 1000u);
        (void)shmemi_transport_net->wait(
            us > 0 ? us : 1, shmemi_machine_loaded() ? SHMEMI_WAIT_PE : SHMEMI_WAIT_PE_POLL);
        return;
    }
    struct timespec pause = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    nanosleep(&pause, NULL);
}

/* ---- the proxy's consumer (src/core/proxy.c) ----------------------------------------------- */

/* A ring of commands (shmem/device/impl/proxy__types.h has the layout and the protocol) that
 * producers which cannot reach a PE themselves (kernels) fill, and one host thread per ring
 * drains: it issues each command where shmemi_ptr and shmemi_route_transport say, in ticket order,
 * with the transport state of the command's context. */
struct shmemi_proxy_ring;
typedef struct shmemi_proxy shmemi_proxy_t;

/* Resets ring (every slot free, no ticket taken) and starts its consumer thread. The ring's
 * memory stays the caller's and must outlive shmemi_proxy_stop. Fatal, naming call, on a ring
 * whose slot count is not a power of two or whose payload size is not a multiple of 16. */
shmemi_proxy_t *shmemi_proxy_start(const char *call, const struct shmemi_proxy_ring *ring);
/* Issues every command already taken, then ends the thread (NULL: nothing). */
void shmemi_proxy_stop(shmemi_proxy_t *proxy);
/* One line on the ring's state for messages: tickets taken and issued, the next slot's words. */
void shmemi_proxy_describe(const shmemi_proxy_t *proxy, char *buf, size_t size);

/* A command's context field is 0 (the default context) or the address of a context object
 * (struct shmemi_ctx, shmem/impl/ctx__types.h), whose transport state the command is issued on.
 * The objects belong to the contexts module (src/host/ctx.c), which tells the consumers which
 * addresses are objects of its own (live or destroyed, so that their magic may be read) by
 * registering known from a constructor: nonzero when c is one; thread-safe. Without it every
 * context but the default one is refused. */
typedef int (*shmemi_proxy_ctx_known_func_t)(const struct shmemi_ctx *c);
void shmemi_proxy_ctx_known_set(shmemi_proxy_ctx_known_func_t known);
/* Waits until every running consumer has issued every command whose ticket was taken before the
 * call: a quiet of a context that follows completes the context's commands taken before it
 * (shmem_ctx_destroy). Not from a consumer's thread. */
void shmemi_proxy_drain(void);
/* Waits until no running consumer is issuing a command on context object c, nor has a put on c
 * still running on the network (put_start's). Called after c's
 * magic says it is destroyed (stored sequentially consistent) and before its transport state is
 * freed: a consumer checks the magic after it marks c as in use, so a command either finishes with
 * the state or refuses the context. */
void shmemi_proxy_ctx_retire(const struct shmemi_ctx *c);

SHMEMI_EXTERN_C_END

#endif
