/* Placeholder until this family lands. */
#ifndef SHMEM_SIGNAL_H
#define SHMEM_SIGNAL_H
#include <shmem/types.h>
#endif
