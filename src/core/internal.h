/* Functions private to src/core. */
#ifndef SHMEMI_CORE_INTERNAL_H
#define SHMEMI_CORE_INTERNAL_H

#include "shmemi.h"

/* The largest alignment shmemi_heap_alloc can give on every PE. */
extern size_t shmemi_heap_max_align;

shmemi_status_t shmemi_heap_setup(size_t size);
void shmemi_heap_teardown(void);
void shmemi_modules_init(void);
/* Fails the job when a slot of ops is NULL. */
void shmemi_transport_check(const shmemi_transport_ops_t *ops);
void shmemi_modules_finalize(void);

#endif
