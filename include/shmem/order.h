/* Placeholder until this family lands. */
#ifndef SHMEM_ORDER_H
#define SHMEM_ORDER_H
#include <shmem/types.h>
#endif
