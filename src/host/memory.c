/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory management routines (include/shmem/memory.h). Each collective routine ends with an
 * allgather that is also its barrier: every PE learns whether every other PE succeeded, so a
 * failure is the same on every PE, and under SHMEM_DEBUG=1 that every PE passed the same
 * arguments. */
#include "core/shmemi.h"
#include "core/watch.h"
#include "host/coll_internal.h"

#include <stdlib.h>
#include <string.h>

/* What one PE contributes to the agreement of a collective memory call. */
typedef struct {
    uint64_t size;
    uint64_t align;
    uint64_t offset; /* of the pointer argument (free, realloc), or of the result */
    uint64_t ok;
} agreement_t;

_Static_assert(sizeof(agreement_t) == SHMEMI_EXCHANGE_WORDS * sizeof(int64_t),
               "an agreement is one descriptor of the world team's exchange");

/* Allgathers the agreements. A job over several nodes exchanges through the world team (its
 * token barrier and one get per PE on another node): the bootstrap's allgather is a PMIx fence
 * through the launchers' daemons there, tens to thousands of times slower, and it does not
 * progress the network. A job on one node keeps the bootstrap's (shmemrun's socket, fast there;
 * with SHMEM_DISABLE_P2P=1 and 4 PEs on 2 cores the team's was 2x slower), whose every-PE exchange
 * lets a wait that meets it name a PE that is in another collective call (src/core/watch.h). */
static void agreement_allgather(const char *call, agreement_t *mine, agreement_t *all) {
    shmemi_team_state_t *world = &shmemi_teams[SHMEMI_TEAM_WORLD_SLOT];
    if (shmemi_n_nodes > 1 && world->in_use) {
        int64_t in[SHMEMI_EXCHANGE_WORDS];
        memcpy(in, mine, sizeof(in));
        shmemi_coll_exchange(call, world, in, (int64_t *)all);
        return;
    }
    shmemi_bootstrap->allgather(mine, all, sizeof(*mine));
}

static uint64_t heap_offset_of(const void *ptr) {
    return ptr ? (uint64_t)((const char *)ptr - shmemi_state.segments[0].local_base) : UINT64_MAX;
}

/* The barrier of every collective memory routine. Returns 1 when every PE has ok set. overflowed:
 * this PE failed because count * size of shmem_calloc overflowed. */
static int agree_or_overflow(const char *call, agreement_t mine, int overflowed) {
    int n = shmemi_state.n_pes;
    agreement_t stack[8], *all = n <= 8 ? stack : malloc((size_t)n * sizeof(*all));
    if (!all)
        shmemi_fatal(call, "out of memory");
    shmemi_transports_quiet();
    shmemi_full_fence();
    shmemi_watch_call(call);
    agreement_allgather(call, &mine, all);
    int all_ok = 1, first_failed = -1;
    for (int pe = 0; pe < n; pe++) {
        if (shmemi_state.debug && (all[pe].size != mine.size || all[pe].align != mine.align))
            shmemi_fatal(call,
                         "collective call with different arguments: PE %d passed size %llu "
                         "(alignment %llu), this PE size %llu (alignment %llu)",
                         pe, (unsigned long long)all[pe].size, (unsigned long long)all[pe].align,
                         (unsigned long long)mine.size, (unsigned long long)mine.align);
        if (shmemi_state.debug && all[pe].offset != mine.offset)
            shmemi_fatal(call,
                         "collective call with different pointers: PE %d passed heap offset "
                         "%#llx, this PE %#llx",
                         pe, (unsigned long long)all[pe].offset, (unsigned long long)mine.offset);
        if (!all[pe].ok) {
            all_ok = 0;
            if (first_failed < 0)
                first_failed = pe;
        }
    }
    if (all != stack)
        free(all);
    if (!all_ok && first_failed == shmemi_state.my_pe && overflowed)
        shmemi_warn(call, "count * size overflows; returning NULL on every PE");
    else if (!all_ok && first_failed == shmemi_state.my_pe)
        shmemi_warn(call,
                    "cannot allocate %llu bytes (alignment %llu) in the symmetric heap of %zu "
                    "bytes; returning NULL on every PE (SHMEM_SYMMETRIC_SIZE sets the heap size)",
                    (unsigned long long)mine.size, (unsigned long long)mine.align,
                    shmemi_state.segments[0].size);
    return all_ok;
}

static int agree(const char *call, agreement_t mine) {
    return agree_or_overflow(call, mine, 0);
}

static void check_alignment(const char *call, size_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        shmemi_fatal(call, "alignment %zu is not a power of two", alignment);
}

static void *alloc_collective(const char *call, size_t size, size_t align, int zero) {
    shmemi_check_init(call);
    void *ptr = size ? shmemi_heap_alloc(size, align) : NULL;
    if (ptr && zero && shmemi_transport_local->local_fill(ptr, 0, size) != SHMEMI_OK)
        shmemi_fatal(call, "cannot zero %zu bytes of the symmetric heap at %p", size, ptr);
    agreement_t mine = {.size = size, .align = align, .ok = size == 0 || ptr != NULL};
    mine.offset = shmemi_state.debug ? heap_offset_of(ptr) : 0;
    if (!agree(call, mine) && ptr) {
        shmemi_heap_free(ptr);
        ptr = NULL;
    }
    return ptr;
}

SHMEMI_API void *shmem_malloc(size_t size) {
    return alloc_collective("shmem_malloc", size, 0, 0);
}

SHMEMI_API void *shmem_calloc(size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        shmemi_check_init("shmem_calloc");
        agreement_t mine = {.size = UINT64_MAX, .ok = 0};
        agree_or_overflow("shmem_calloc", mine, 1);
        return NULL;
    }
    return alloc_collective("shmem_calloc", total, 0, 1);
}

SHMEMI_API void *shmem_align(size_t alignment, size_t size) {
    check_alignment("shmem_align", alignment);
    return alloc_collective("shmem_align", size, alignment, 0);
}

SHMEMI_API void *shmem_malloc_with_hints(size_t size, long hints) {
    (void)hints;
    return alloc_collective("shmem_malloc_with_hints", size, 0, 0);
}

static void check_block(const char *call, void *ptr) {
    if (ptr && shmemi_heap_block_size(ptr) == 0)
        shmemi_fatal(call, "%p is not a block allocated by shmem_malloc and friends", ptr);
}

SHMEMI_API void shmem_free(void *ptr) {
    shmemi_check_init("shmem_free");
    check_block("shmem_free", ptr);
    agreement_t mine = {.offset = heap_offset_of(ptr), .ok = 1};
    agree("shmem_free", mine);
    shmemi_heap_free(ptr);
}

SHMEMI_API void *shmem_realloc(void *ptr, size_t size) {
    const char *call = "shmem_realloc";
    shmemi_check_init(call);
    if (!ptr)
        return alloc_collective(call, size, 0, 0);
    check_block(call, ptr);
    if (size == 0) {
        shmem_free(ptr);
        return NULL;
    }
    /* Entry barrier: no PE accesses the block while it moves. */
    agreement_t entry = {.offset = heap_offset_of(ptr), .ok = 1};
    agree(call, entry);
    size_t old_size = shmemi_heap_block_size(ptr);
    void *result = NULL;
    int in_place = shmemi_heap_resize(ptr, size) == SHMEMI_OK;
    if (in_place) {
        result = ptr;
    } else {
        result = shmemi_heap_alloc(size, 0);
        if (result && shmemi_transport_local->local_copy(
                          result, ptr, old_size < size ? old_size : size) != SHMEMI_OK)
            shmemi_fatal(call, "cannot move a block of the symmetric heap from %p to %p", ptr,
                         result);
    }
    agreement_t exit = {.size = size, .ok = result != NULL};
    exit.offset = shmemi_state.debug ? heap_offset_of(result) : 0;
    if (agree(call, exit)) {
        if (!in_place)
            shmemi_heap_free(ptr);
        return result;
    }
    /* Some PE failed: undo, so that every PE keeps the old block. */
    if (in_place)
        shmemi_heap_resize(ptr, old_size);
    else if (result)
        shmemi_heap_free(result);
    return NULL;
}

SHMEMI_API void *shmalloc(size_t size) {
    return alloc_collective("shmalloc", size, 0, 0);
}
SHMEMI_API void shfree(void *ptr) {
    shmem_free(ptr);
}
SHMEMI_API void *shrealloc(void *ptr, size_t size) {
    return shmem_realloc(ptr, size);
}
SHMEMI_API void *shmemalign(size_t alignment, size_t size) {
    check_alignment("shmemalign", alignment);
    return alloc_collective("shmemalign", size, alignment, 0);
}
