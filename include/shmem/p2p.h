/* Placeholder until this family lands. */
#ifndef SHMEM_P2P_H
#define SHMEM_P2P_H
#include <shmem/types.h>
#endif
