/* Placeholder until this family lands. */
#ifndef SHMEM_MEMORY_H
#define SHMEM_MEMORY_H
#include <shmem/types.h>
#endif
