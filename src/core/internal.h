/* Functions private to src/core. */
#ifndef SHMEMI_CORE_INTERNAL_H
#define SHMEMI_CORE_INTERNAL_H

#include "shmemi.h"

shmemi_status_t shmemi_heap_setup(size_t size);
void shmemi_heap_teardown(void);
void shmemi_modules_init(void);
void shmemi_modules_finalize(void);

#endif
