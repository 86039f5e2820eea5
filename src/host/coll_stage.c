/* SPDX-License-Identifier: BSD-3-Clause */
/* Host collectives on the GPU heap. Host code cannot load or store GPU memory, and the algorithms
 * of coll_*.c pull data from peers' buffers with host loads. Where a collective's dest or source
 * is GPU heap memory, it runs on a staging area instead: SHMEMI_COLL_STAGE_BYTES of the internal
 * segment (host memory that every PE maps, at the same offset on every PE). Each round copies a
 * piece of the source into the staging area through the heap's transport (the GPU's copy engine),
 * runs the host algorithm on the staging area and copies the result out to dest the same way.
 * dest and source are symmetric, so every member takes this path together, and every member
 * takes the same number of rounds. Each host algorithm returns only when no peer reads its
 * buffers any more, so the next round may overwrite the staging area. */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"
#include "host/rma_internal.h"

/* Set at init where the heap is GPU memory; NULL on the cpu platform. */
char *shmemi_coll_stage;

/* Nonzero while a thread of this PE runs a staged collective. */
static int stage_busy;

static void stage_enter(const char *call) {
    if (__atomic_exchange_n(&stage_busy, 1, __ATOMIC_ACQUIRE))
        shmemi_fatal(call, "another thread of this PE is in a host collective on GPU memory; these "
                           "share one staging area per PE and must not run concurrently");
}

static void stage_leave(void) {
    __atomic_store_n(&stage_busy, 0, __ATOMIC_RELEASE);
}

/* Copies len bytes; through the heap's transport when either side is GPU heap memory. */
static void stage_copy(const char *call, void *to, const void *from, size_t len) {
    if (len == 0)
        return;
    if (shmemi_local_on_device(to))
        shmemi_local_write(call, to, from, len);
    else if (shmemi_local_on_device(from))
        shmemi_local_read(call, to, from, len);
    else
        memcpy(to, from, len);
}

/* count elements of es bytes, stride elements apart at from, packed at to. GPU memory is read in
 * one copy of the span that holds them where that span is not much larger than the staging area,
 * else element by element. */
static void stage_gather(const char *call, char *to, const char *from, size_t stride, size_t count,
                         size_t es) {
    if (stride == 1) {
        stage_copy(call, to, from, count * es);
        return;
    }
    size_t span = ((count - 1) * stride + 1) * es;
    char *bounce = NULL;
    if (shmemi_local_on_device(from) && span <= 4 * SHMEMI_COLL_STAGE_BYTES &&
        (bounce = malloc(span)) != NULL) {
        stage_copy(call, bounce, from, span);
        from = bounce;
    }
    for (size_t k = 0; k < count; k++)
        stage_copy(call, to + k * es, from + k * stride * es, es);
    free(bounce);
}

/* count packed elements of es bytes at from, stride elements apart at to. The bytes between the
 * elements of to are not the collective's, so GPU memory is written element by element. */
static void stage_scatter(const char *call, char *to, size_t stride, const char *from, size_t count,
                          size_t es) {
    if (stride == 1) {
        stage_copy(call, to, from, count * es);
        return;
    }
    for (size_t k = 0; k < count; k++)
        stage_copy(call, to + k * stride * es, from + k * es, es);
}

void shmemi_coll_reduce_staged(const char *call, shmemi_team_state_t *t, void *dest,
                               const void *source, size_t count, size_t elem_size,
                               shmemi_reduce_func_t op) {
    /* In place on the whole staging area: every algorithm allows dest == source. */
    size_t per = SHMEMI_COLL_STAGE_BYTES / elem_size;
    stage_enter(call);
    for (size_t off = 0; off < count; off += per) {
        size_t c = count - off < per ? count - off : per, len = c * elem_size;
        stage_copy(call, shmemi_coll_stage, (const char *)source + off * elem_size, len);
        shmemi_coll_reduce(call, t, shmemi_coll_stage, shmemi_coll_stage, c, elem_size, op);
        stage_copy(call, (char *)dest + off * elem_size, shmemi_coll_stage, len);
    }
    stage_leave();
}

void shmemi_coll_broadcast_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                  const void *source, size_t nbytes, int root, int update_root) {
    int is_root = t->my_index == root;
    stage_enter(call);
    for (size_t off = 0; off < nbytes; off += SHMEMI_COLL_STAGE_BYTES) {
        size_t len =
            nbytes - off < SHMEMI_COLL_STAGE_BYTES ? nbytes - off : SHMEMI_COLL_STAGE_BYTES;
        if (is_root)
            stage_copy(call, shmemi_coll_stage, (const char *)source + off, len);
        shmemi_coll_broadcast(call, t, shmemi_coll_stage, shmemi_coll_stage, len, root, 1);
        if (!is_root || (update_root && dest != source))
            stage_copy(call, (char *)dest + off, shmemi_coll_stage, len);
    }
    stage_leave();
}

void shmemi_coll_collect_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                const void *source, size_t nbytes, int fixed) {
    int n = t->size, me = t->my_index;
    size_t *len = malloc((size_t)n * sizeof(size_t));
    if (len == NULL)
        shmemi_fatal(call, "out of memory for %d block sizes", n);
    if (fixed) {
        for (int i = 0; i < n; i++)
            len[i] = nbytes;
    } else {
        shmemi_coll_block_sizes(call, t, nbytes, len);
    }
    size_t total = 0, longest = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_add_overflow(total, len[i], &total))
            shmemi_fatal(call, "the blocks of %d PEs overflow", n);
        longest = len[i] > longest ? len[i] : longest;
    }
    shmemi_coll_check_overlap(call, dest, total, source, nbytes, 0);
    /* Each round gathers the next `per` bytes of every block, padded to per bytes, with the
     * fixed-size algorithm: the own piece at the start of the staging area, the n gathered pieces
     * after it. */
    size_t per = SHMEMI_COLL_STAGE_BYTES / ((size_t)n + 1);
    char *in = shmemi_coll_stage, *out = shmemi_coll_stage + per;
    stage_enter(call);
    for (size_t off = 0; off < longest; off += per) {
        size_t c = longest - off < per ? longest - off : per;
        size_t mine = len[me] > off ? len[me] - off : 0;
        stage_copy(call, in, (const char *)source + off, mine < c ? mine : c);
        shmemi_coll_collect(call, t, out, in, c, 1);
        if (fixed && c == nbytes) {
            /* One round of equal blocks: the staging area holds dest as it is. */
            stage_copy(call, dest, out, total);
            continue;
        }
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            size_t have = len[i] > off ? len[i] - off : 0;
            stage_copy(call, (char *)dest + at + off, out + (size_t)i * c, have < c ? have : c);
            at += len[i];
        }
    }
    stage_leave();
    free(len);
}

void shmemi_coll_alltoalls_staged(const char *call, shmemi_team_state_t *t, void *dest,
                                  const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                                  size_t elem_size) {
    size_t n = (size_t)t->size, half = SHMEMI_COLL_STAGE_BYTES / 2;
    /* Each round moves the next `per` elements of every block: the packed source blocks in the
     * first half of the staging area, the packed dest blocks in the second. */
    size_t per = half / (n * elem_size);
    if (per == 0)
        shmemi_fatal(call,
                     "%zu PEs with %zu-byte elements do not fit the %d-byte staging area of host "
                     "collectives on GPU memory",
                     n, elem_size, SHMEMI_COLL_STAGE_BYTES);
    char *in = shmemi_coll_stage, *out = shmemi_coll_stage + half;
    const char *src = source;
    char *dst_bytes = dest;
    stage_enter(call);
    for (size_t off = 0; off < nelems; off += per) {
        size_t c = nelems - off < per ? nelems - off : per;
        if (c == nelems && sst == 1)
            stage_copy(call, in, src, n * c * elem_size);
        else
            for (size_t j = 0; j < n; j++)
                stage_gather(call, in + j * c * elem_size,
                             src + (j * nelems + off) * (size_t)sst * elem_size, (size_t)sst, c,
                             elem_size);
        shmemi_coll_alltoalls(call, t, out, in, 1, 1, c, elem_size);
        if (c == nelems && dst == 1)
            stage_copy(call, dst_bytes, out, n * c * elem_size);
        else
            for (size_t j = 0; j < n; j++)
                stage_scatter(call, dst_bytes + (j * nelems + off) * (size_t)dst * elem_size,
                              (size_t)dst, out + j * c * elem_size, c, elem_size);
    }
    stage_leave();
}

static shmemi_status_t stage_init(void) {
    stage_busy = 0;
    shmemi_coll_stage = NULL;
    if (!shmemi_coll_stage_needed())
        return SHMEMI_OK;
    shmemi_coll_stage = shmemi_internal_alloc(SHMEMI_COLL_STAGE_BYTES, 64);
    return shmemi_coll_stage != NULL ? SHMEMI_OK : SHMEMI_ERR_NOMEM;
}

static void stage_finalize(void) {
    shmemi_coll_stage = NULL;
}

static const shmemi_module_t stage_module = {"collective staging", 21, stage_init, stage_finalize};

__attribute__((constructor)) static void stage_register(void) {
    shmemi_module_register(&stage_module);
}
