/* SPDX-License-Identifier: BSD-3-Clause */
/* Memory management routines (OpenSHMEM 1.6 section 9.3). Every routine here is collective:
 * every PE calls it with the same arguments, in the same order, and gets the same symmetric
 * address back. */
#ifndef SHMEM_MEMORY_H
#define SHMEM_MEMORY_H
#include <shmem/types.h>

SHMEMI_EXTERN_C_BEGIN

/* Collective; returns after every PE has allocated (a barrier on exit, ordered like
 * shmem_barrier_all; litmus MP+barrier): size bytes of the symmetric heap, aligned to 64 bytes, or
 * NULL on every PE when size is 0 or some PE has no room (one warning names the size). */
void *shmem_malloc(size_t size);

/* Collective, as shmem_malloc: count * size bytes set to zero before any PE can access them. */
void *shmem_calloc(size_t count, size_t size);

/* Collective, as shmem_malloc: size bytes aligned to alignment (a power of two). */
void *shmem_align(size_t alignment, size_t size);

/* Collective, as shmem_malloc; hints (SHMEM_MALLOC_*) describe the intended use and do not change
 * the result on this platform. */
void *shmem_malloc_with_hints(size_t size, long hints);

/* Collective; barrier on entry and on exit (each like shmem_barrier_all; litmus MP+barrier):
 * resizes the block at ptr to size bytes, in place where possible, keeping its contents up to the
 * smaller size. NULL ptr: shmem_malloc; size 0: shmem_free and NULL. On failure returns NULL on
 * every PE and leaves ptr as it was. */
void *shmem_realloc(void *ptr, size_t size);

/* Collective; barrier on entry (like shmem_barrier_all: no PE still accesses the block; litmus
 * MP+barrier): frees the block at ptr. NULL ptr: only the barrier. */
void shmem_free(void *ptr);

/* Deprecated names of shmem_malloc, shmem_free, shmem_realloc and shmem_align. */
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

SHMEMI_EXTERN_C_END

#endif
