/* Placeholder until this family lands. */
#ifndef SHMEM_SETUP_H
#define SHMEM_SETUP_H
#include <shmem/types.h>
#endif
