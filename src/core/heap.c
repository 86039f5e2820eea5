/* SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric heap (segment 0) and the internal segment, each with its allocator, behind one
 * lock. */
#include <pthread.h>

#include "shmemi.h"
#include "allocator.h"
#include "internal.h"

size_t shmemi_heap_max_align;
int shmemi_internal_segment = -1;
static shmemi_allocator_t *allocator;
static shmemi_allocator_t *internal_allocator;
static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;

shmemi_status_t shmemi_heap_setup(size_t heap_size, size_t internal_size) {
    allocator = shmemi_allocator_create(heap_size);
    internal_allocator = shmemi_allocator_create(internal_size);
    return allocator && internal_allocator ? SHMEMI_OK : SHMEMI_ERR_NOMEM;
}

void shmemi_heap_teardown(void) {
    shmemi_allocator_destroy(allocator);
    shmemi_allocator_destroy(internal_allocator);
    allocator = internal_allocator = NULL;
    shmemi_internal_segment = -1;
}

void *shmemi_internal_alloc(size_t size, size_t align) {
    size_t offset;
    char *base = shmemi_state.segments[shmemi_internal_segment].local_base;
    /* The internal segment is mapped like the heap: aligned to its size. */
    if (align > SHMEMI_INTERNAL_SIZE)
        return NULL;
    pthread_mutex_lock(&heap_lock);
    shmemi_status_t status = shmemi_allocator_alloc(internal_allocator, size, align, &offset);
    pthread_mutex_unlock(&heap_lock);
    return status == SHMEMI_OK ? base + offset : NULL;
}

void shmemi_internal_free(void *ptr) {
    if (!ptr)
        return;
    const shmemi_segment_t *seg = &shmemi_state.segments[shmemi_internal_segment];
    size_t offset = (size_t)((uintptr_t)ptr - (uintptr_t)seg->local_base);
    pthread_mutex_lock(&heap_lock);
    shmemi_status_t status =
        offset < seg->size ? shmemi_allocator_free(internal_allocator, offset) : SHMEMI_ERR_INVALID;
    pthread_mutex_unlock(&heap_lock);
    if (status != SHMEMI_OK)
        shmemi_fatal("shmemi_internal_free", "%p is not an internal block", ptr);
}

/* The offset of ptr in the heap, or -1 when it is not in the heap. */
static int heap_offset(const void *ptr, size_t *offset_p) {
    const shmemi_segment_t *heap = &shmemi_state.segments[0];
    if ((const char *)ptr < heap->local_base || (const char *)ptr >= heap->local_base + heap->size)
        return -1;
    *offset_p = (size_t)((const char *)ptr - heap->local_base);
    return 0;
}

void *shmemi_heap_alloc(size_t size, size_t align) {
    size_t offset;
    if (align > shmemi_heap_max_align)
        return NULL;
    pthread_mutex_lock(&heap_lock);
    shmemi_status_t status = shmemi_allocator_alloc(allocator, size, align, &offset);
    pthread_mutex_unlock(&heap_lock);
    return status == SHMEMI_OK ? shmemi_state.segments[0].local_base + offset : NULL;
}

void shmemi_heap_free(void *ptr) {
    size_t offset;
    if (!ptr)
        return;
    if (heap_offset(ptr, &offset) != 0)
        shmemi_fatal("shmem_free", "%p is not in the symmetric heap", ptr);
    pthread_mutex_lock(&heap_lock);
    shmemi_status_t status = shmemi_allocator_free(allocator, offset);
    pthread_mutex_unlock(&heap_lock);
    if (status != SHMEMI_OK)
        shmemi_fatal("shmem_free", "%p is not an allocated block of the symmetric heap", ptr);
}

shmemi_status_t shmemi_heap_resize(void *ptr, size_t size) {
    size_t offset;
    if (heap_offset(ptr, &offset) != 0)
        return SHMEMI_ERR_INVALID;
    pthread_mutex_lock(&heap_lock);
    shmemi_status_t status = shmemi_allocator_resize(allocator, offset, size);
    pthread_mutex_unlock(&heap_lock);
    return status;
}

size_t shmemi_heap_block_size(const void *ptr) {
    size_t offset;
    if (heap_offset(ptr, &offset) != 0)
        return 0;
    pthread_mutex_lock(&heap_lock);
    size_t size = shmemi_allocator_block_size(allocator, offset);
    pthread_mutex_unlock(&heap_lock);
    return size;
}
