/* Functions private to src/core. */
#ifndef SHMEMI_CORE_INTERNAL_H
#define SHMEMI_CORE_INTERNAL_H

#include "shmemi.h"

/* The largest alignment shmemi_heap_alloc can give on every PE. */
extern size_t shmemi_heap_max_align;

/* Size of the internal segment (sparse: only touched pages cost memory). */
#define SHMEMI_INTERNAL_SIZE ((size_t)64 << 20)

/* Allocators for the heap and the internal segment. */
shmemi_status_t shmemi_heap_setup(size_t heap_size, size_t internal_size);
void shmemi_heap_teardown(void);
void shmemi_modules_init(void);
/* Fails the job when a slot of ops is NULL. */
void shmemi_transport_check(const shmemi_transport_ops_t *ops);
void shmemi_modules_finalize(void);

#endif
