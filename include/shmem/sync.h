/* Placeholder until this family lands. */
#ifndef SHMEM_SYNC_H
#define SHMEM_SYNC_H
#include <shmem/types.h>
#endif
