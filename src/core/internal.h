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

/* Around the copy and remap of a data range (data_freeze.c): freeze makes it read-only and holds
 * every other thread that stores into it until thaw, which makes it writable again; the held
 * stores then run again, so none is lost. The calling thread must not store into the range in
 * between. The first freeze installs a SIGSEGV handler that stays (it passes other faults on to
 * the program's handler). */
shmemi_status_t shmemi_data_freeze(void *base, size_t size);
void shmemi_data_thaw(void *base, size_t size);

#endif
