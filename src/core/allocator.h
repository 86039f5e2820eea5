/* SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric heap's allocator, on offsets only: no memory, no locking, no PEs, so that it is
 * testable on its own. Its result depends only on the sequence of calls, which is what makes
 * the heap symmetric: PEs that make the same calls get the same offsets. Bookkeeping lives
 * outside the heap, so a stray remote write into the heap cannot corrupt it and a heap in GPU
 * memory needs no host access. Internal header. */
#ifndef SHMEMI_ALLOCATOR_H
#define SHMEMI_ALLOCATOR_H

#include <stddef.h>

#include "shmemi.h"

/* Every block starts at a multiple of this and has a size that is a multiple of it. */
#define SHMEMI_ALLOCATOR_GRAIN 64

typedef struct shmemi_allocator shmemi_allocator_t;

/* An allocator over [0, size). NULL when out of (private) memory. */
shmemi_allocator_t *shmemi_allocator_create(size_t size);
void shmemi_allocator_destroy(shmemi_allocator_t *allocator);
/* First fit, lowest offset: a block of at least size bytes at a multiple of align (a power of
 * two; smaller than the grain means the grain). SHMEMI_ERR_NOMEM when nothing fits,
 * SHMEMI_ERR_INVALID for size 0 or an align that is not a power of two. */
shmemi_status_t shmemi_allocator_alloc(shmemi_allocator_t *allocator, size_t size, size_t align,
                                       size_t *offset_p);
/* Frees the block at offset and merges it with free neighbours. SHMEMI_ERR_INVALID when offset
 * is not the start of a live block. */
shmemi_status_t shmemi_allocator_free(shmemi_allocator_t *allocator, size_t offset);
/* Changes the block at offset to size bytes without moving it: shrinks always, grows into a
 * free block that follows. SHMEMI_ERR_NOMEM when it cannot grow in place. */
shmemi_status_t shmemi_allocator_resize(shmemi_allocator_t *allocator, size_t offset, size_t size);
/* Size of the live block at offset (a multiple of the grain); 0 when there is none. */
size_t shmemi_allocator_block_size(const shmemi_allocator_t *allocator, size_t offset);
/* Bytes in free blocks, and the largest free block. */
size_t shmemi_allocator_free_bytes(const shmemi_allocator_t *allocator);
size_t shmemi_allocator_largest_free(const shmemi_allocator_t *allocator);

#endif
