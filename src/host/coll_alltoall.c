/* SPDX-License-Identifier: BSD-3-Clause */
/* Alltoall and alltoalls: pairwise exchange. After a barrier (every source is ready), step s of
 * n pulls from member (me + s) mod n the block meant for this PE. At each step every member reads
 * from a different member, so no PE's memory serves more than one reader at a time, and the whole
 * exchange takes n - 1 steps of one block each. Gets from members on other nodes are all in
 * flight together and completed by one quiet before the closing barrier, which keeps sources in
 * place until every member has read them. Where every member is on a node of its own, small
 * contiguous blocks are pushed instead (alltoall_push). */
#include <stdlib.h>
#include <string.h>

#include "coll_internal.h"

/* Strided elements from a PE on another node come in large messages: where the gaps between
 * source elements are small, whole runs of the source (gaps included) in gets of up to
 * ALLTOALLS_RUN_BYTES, copied out element by element here; where they are large, one
 * non-blocking get per element, completed together. */
#define ALLTOALLS_MAX_GAP 256
#define ALLTOALLS_RUN_BYTES ((size_t)1 << 20)

static void alltoalls_net(const char *call, const shmemi_team_state_t *t, char *d, const char *f,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size, int j,
                          shmemi_coll_scratch_t *scratch) {
    size_t dstep = (size_t)dst * elem_size, sstep = (size_t)sst * elem_size;
    if (sstep - elem_size > ALLTOALLS_MAX_GAP) {
        for (size_t k = 0; k < nelems; k++)
            shmemi_coll_get_nbi(call, t, d + k * dstep, f + k * sstep, elem_size, j);
        return;
    }
    size_t per_run = ALLTOALLS_RUN_BYTES / sstep ? ALLTOALLS_RUN_BYTES / sstep : 1;
    for (size_t k0 = 0; k0 < nelems; k0 += per_run) {
        size_t m = nelems - k0 < per_run ? nelems - k0 : per_run;
        size_t span = (m - 1) * sstep + elem_size;
        const char *run = shmemi_coll_read(call, t, f + k0 * sstep, span, j, scratch);
        for (size_t k = 0; k < m; k++)
            memcpy(d + (k0 + k) * dstep, run + k * sstep, elem_size);
    }
}

/* Small contiguous blocks on a team whose members are all on different nodes: every member
 * pushes each block into its owner's inbox (shmemi_coll_push_all), so each block crosses the
 * network once, one way, and no barrier is needed. */
static void alltoall_push(const char *call, const shmemi_team_state_t *t, char *dest,
                          const char *source, size_t block) {
    int n = t->size, me = t->my_index;
    shmemi_coll_block_t *out = malloc(2 * (size_t)n * sizeof(*out)), *in = out + n;
    if (out == NULL)
        shmemi_fatal(call, "out of memory for %d block descriptors", n);
    for (int j = 0; j < n; j++) {
        out[j] = (shmemi_coll_block_t){source + (size_t)j * block, block, (size_t)me * block};
        in[j] = (shmemi_coll_block_t){NULL, block, (size_t)j * block};
    }
    memcpy(dest + (size_t)me * block, source + (size_t)me * block, block);
    shmemi_coll_push_all(call, t, dest, out, in);
    free(out);
}

void shmemi_coll_alltoalls(const char *call, shmemi_team_state_t *t, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size) {
    int n = t->size, me = t->my_index;
    if (dst < 1 || sst < 1)
        shmemi_fatal(call, "strides dst %td and sst %td must be at least 1", dst, sst);
    size_t span, dspan, sspan;
    if (__builtin_mul_overflow(nelems, (size_t)n, &span) ||
        __builtin_mul_overflow(span, (size_t)dst * elem_size, &dspan) ||
        __builtin_mul_overflow(span, (size_t)sst * elem_size, &sspan))
        shmemi_fatal(call, "nelems %zu with strides %td, %td overflows", nelems, dst, sst);
    shmemi_coll_check_args(call, t, dest, (int64_t)nelems,
                           (int64_t)(((uint64_t)dst << 32) ^ (uint64_t)sst));
    if (nelems == 0)
        return;
    shmemi_coll_check_overlap(call, dest, dspan, source, sspan, 0);
    if (shmemi_coll_staged(dest, source)) {
        shmemi_coll_alltoalls_staged(call, t, dest, source, dst, sst, nelems, elem_size);
        return;
    }
    size_t block = nelems * elem_size;
    if (dst == 1 && sst == 1 && block <= shmemi_coll_eager_limit(t) && shmemi_coll_all_net(t)) {
        alltoall_push(call, t, dest, source, block);
        return;
    }
    shmemi_team_barrier(t);
    shmemi_coll_scratch_t scratch = {NULL, 0};
    for (int s = 0; s < n; s++) {
        int j = (me + s) % n;
        if (dst == 1 && sst == 1) {
            shmemi_coll_get_nbi(call, t, (char *)dest + (size_t)j * block,
                                (const char *)source + (size_t)me * block, block, j);
            continue;
        }
        char *d = (char *)dest + (size_t)j * nelems * (size_t)dst * elem_size;
        const char *f = (const char *)source + (size_t)me * nelems * (size_t)sst * elem_size;
        if (shmemi_coll_peer(call, t, f, j) != NULL)
            for (size_t k = 0; k < nelems; k++)
                shmemi_coll_get(call, t, d + k * (size_t)dst * elem_size,
                                f + k * (size_t)sst * elem_size, elem_size, j);
        else
            alltoalls_net(call, t, d, f, dst, sst, nelems, elem_size, j, &scratch);
    }
    /* Every get from a PE on another node is complete before the barrier says so. */
    shmemi_coll_get_wait(call);
    free(scratch.buf);
    shmemi_team_barrier(t);
}

static void alltoalls_team(const char *call, shmem_team_t team, void *dest, const void *source,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size) {
    shmemi_team_state_t *t = shmemi_team_get(call, team);
    shmemi_coll_alltoalls(call, t, dest, source, dst, sst, nelems, elem_size);
}

#define SHMEMI_DEF_ALLTOALL(T, N)                                                                  \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        alltoalls_team("shmem_" #N "_alltoall", team, dest, source, 1, 1, nelems, sizeof(T));      \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems) {                                      \
        alltoalls_team("shmem_" #N "_alltoalls", team, dest, source, dst, sst, nelems, sizeof(T)); \
        return 0;                                                                                  \
    }
SHMEMI_RMA_TYPES(SHMEMI_DEF_ALLTOALL)

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    alltoalls_team("shmem_alltoallmem", team, dest, source, 1, 1, nelems, 1);
    return 0;
}

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems) {
    alltoalls_team("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1);
    return 0;
}

static void alltoalls_active_set(const char *call, void *dest, const void *source, ptrdiff_t dst,
                                 ptrdiff_t sst, size_t nelems, size_t elem_size, int PE_start,
                                 int logPE_stride, int PE_size, long *pSync) {
    shmemi_team_state_t t;
    shmemi_team_active_set(call, PE_start, logPE_stride, PE_size, pSync, &t);
    shmemi_coll_alltoalls(call, &t, dest, source, dst, sst, nelems, elem_size);
}

void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync) {
    alltoalls_active_set("shmem_alltoall32", dest, source, 1, 1, nelems, 4, PE_start, logPE_stride,
                         PE_size, pSync);
}

void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync) {
    alltoalls_active_set("shmem_alltoall64", dest, source, 1, 1, nelems, 8, PE_start, logPE_stride,
                         PE_size, pSync);
}

void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync) {
    alltoalls_active_set("shmem_alltoalls32", dest, source, dst, sst, nelems, 4, PE_start,
                         logPE_stride, PE_size, pSync);
}

void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                       int PE_start, int logPE_stride, int PE_size, long *pSync) {
    alltoalls_active_set("shmem_alltoalls64", dest, source, dst, sst, nelems, 8, PE_start,
                         logPE_stride, PE_size, pSync);
}
