/* Placeholder until this family lands. */
#ifndef SHMEM_LOCK_H
#define SHMEM_LOCK_H
#include <shmem/types.h>
#endif
