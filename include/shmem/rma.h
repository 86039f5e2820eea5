/* Placeholder until this family lands. */
#ifndef SHMEM_RMA_H
#define SHMEM_RMA_H
#include <shmem/types.h>
#endif
