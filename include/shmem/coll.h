/* Placeholder until this family lands. */
#ifndef SHMEM_COLL_H
#define SHMEM_COLL_H
#include <shmem/types.h>
#endif
