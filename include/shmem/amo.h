/* Placeholder until this family lands. */
#ifndef SHMEM_AMO_H
#define SHMEM_AMO_H
#include <shmem/types.h>
#endif
