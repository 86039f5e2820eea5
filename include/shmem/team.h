/* Placeholder until this family lands. */
#ifndef SHMEM_TEAM_H
#define SHMEM_TEAM_H
#include <shmem/types.h>
#endif
