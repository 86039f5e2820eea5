/* SPDX-License-Identifier: BSD-3-Clause */
/* The shmem_malloc family on every PE: the same calls give the same symmetric offsets, calloc
 * zeroes, align aligns, realloc keeps contents, exhaustion gives NULL everywhere and the heap
 * stays usable. */
#include "pe_check.h"

#include <stdint.h>
#include <string.h>

#define N_BLOCKS 16

static size_t offsets[N_BLOCKS];

static size_t heap_offset(void *base, void *p) {
    return (size_t)((char *)p - (char *)base);
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    /* A fixed sequence of calls. */
    void *base = shmem_malloc(8);
    CHECK(base != NULL);
    void *blocks[N_BLOCKS];
    for (int i = 0; i < N_BLOCKS; i++) {
        size_t size = (size_t)(i * 1000 + 1);
        blocks[i] = i % 3 == 0 ? shmem_align((size_t)1 << (i % 13), size) : shmem_malloc(size);
        CHECK(blocks[i] != NULL);
        if (i % 3 == 0)
            CHECK((uintptr_t)blocks[i] % ((size_t)1 << (i % 13)) == 0);
        if (i % 4 == 1) {
            shmem_free(blocks[i]);
            blocks[i] = shmem_malloc(size / 2 + 1);
            CHECK(blocks[i] != NULL);
        }
        offsets[i] = heap_offset(base, blocks[i]);
        for (int pe = 0; pe < n; pe++) {
            CHECK(shmem_addr_accessible(blocks[i], pe));
            /* Mapped exactly where the PE shares this node. */
            int on_node = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
            CHECK((shmem_ptr(blocks[i], pe) != NULL) == on_node);
        }
    }
    sync_pes();
    /* Every PE computed the same offsets. */
    for (int pe = 0; pe < n; pe++) {
        size_t theirs[sizeof(offsets) / sizeof(offsets[0])];
        shmem_getmem(theirs, offsets, sizeof(offsets), pe);
        CHECK(memcmp(theirs, offsets, sizeof(offsets)) == 0);
    }

    /* A put (a store through shmem_ptr where mapped) lands in the peer's block. */
    long *cell = shmem_malloc(sizeof(long));
    long *mapped = shmem_ptr(cell, (me + 1) % n);
    if (mapped)
        *mapped = 1000 + me;
    else
        shmem_long_p(cell, 1000 + me, (me + 1) % n);
    sync_pes();
    CHECK(*cell == 1000 + (me + n - 1) % n);

    /* calloc: zero, even where the memory was used before. */
    memset(blocks[5], 0xab, 1000);
    shmem_free(blocks[5]);
    unsigned char *zeroed = shmem_calloc(100, 10);
    CHECK(zeroed != NULL);
    for (int i = 0; i < 1000; i++)
        CHECK(zeroed[i] == 0);

    /* realloc keeps the contents, in place or moved. */
    int *grow = shmem_malloc(64 * sizeof(int));
    for (int i = 0; i < 64; i++)
        grow[i] = i * me;
    long *blocker = shmem_malloc(8);
    grow = shmem_realloc(grow, 100000 * sizeof(int));
    CHECK(grow != NULL);
    for (int i = 0; i < 64; i++)
        CHECK(grow[i] == i * me);
    grow = shmem_realloc(grow, 16 * sizeof(int));
    for (int i = 0; i < 16; i++)
        CHECK(grow[i] == i * me);
    CHECK(shmem_realloc(grow, 0) == NULL);
    int *fresh = shmem_realloc(NULL, 32);
    CHECK(fresh != NULL);

    /* Exhaustion: NULL on every PE, then the heap still works. */
    CHECK(shmem_malloc((size_t)1 << 40) == NULL);
    CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL);
    void *again = shmem_malloc(1 << 20);
    CHECK(again != NULL);
    CHECK(shmem_realloc(again, (size_t)1 << 40) == NULL);
    memset(again, 1, 1 << 20); /* the old block is intact and usable */

    /* Alignments beyond a page hold on every PE (the same offset everywhere); one beyond the
     * heap's own alignment cannot be given. */
    for (size_t align = 4096; align <= ((size_t)1 << 24); align <<= 1) {
        void *big = shmem_align(align, 100);
        CHECK(big != NULL && (uintptr_t)big % align == 0);
        shmem_free(big);
    }
    CHECK(shmem_align((size_t)1 << 40, 100) == NULL);

    /* size 0, hints and the deprecated names. */
    CHECK(shmem_malloc(0) == NULL);
    void *hinted = shmem_malloc_with_hints(100, SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(hinted != NULL);
    void *old = shmalloc(10);
    CHECK(old != NULL);
    old = shrealloc(old, 20);
    CHECK(old != NULL);
    void *aligned = shmemalign(256, 10);
    CHECK((uintptr_t)aligned % 256 == 0);
    shfree(aligned);
    shfree(old);
    shmem_free(hinted);
    shmem_free(again);
    shmem_free(fresh);
    shmem_free(blocker);
    shmem_free(zeroed);
    shmem_free(cell);
    shmem_free(NULL);
    for (int i = 0; i < N_BLOCKS; i++)
        if (i != 5)
            shmem_free(blocks[i]);
    shmem_free(base);

    /* Everything is free again: the first block comes back at the same place. */
    CHECK(shmem_malloc(8) == base);
    shmem_finalize();
    if (me == 0)
        printf("malloc: ok on %d PEs\n", n);
    return 0;
}
