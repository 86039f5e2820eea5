/* Placeholder until this family lands. */
#ifndef SHMEM_CTX_H
#define SHMEM_CTX_H
#include <shmem/types.h>
#endif
