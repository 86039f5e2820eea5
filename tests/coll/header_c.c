/* SPDX-License-Identifier: BSD-3-Clause */
/* Compile test: shmem.h and shmemx.h as a whole in strict ISO C (C11 and C17, -pedantic), with the
 * C11 generic names of every collective and team handles as constant initializers. Never run. */
#include <shmem.h>
#include <shmemx.h>

static shmem_team_t header_c_team = SHMEM_TEAM_WORLD;

int header_c_generics(long *l, double *d, unsigned int *u, double _Complex *z);

int header_c_generics(long *l, double *d, unsigned int *u, double _Complex *z) {
    shmem_team_t team = header_c_team;
    shmem_sync(0, 0, 1, l);
    return shmem_broadcast(team, l, l + 1, 1, 0) + shmem_collect(team, d, d + 1, 1) +
           shmem_fcollect(team, u, u + 1, 1) + shmem_alltoall(team, l, l + 1, 1) +
           shmem_alltoalls(team, d, d + 1, 1, 1, 1) + shmem_and_reduce(team, u, u + 1, 1) +
           shmem_or_reduce(team, l, l + 1, 1) + shmem_xor_reduce(team, u, u + 1, 1) +
           shmem_max_reduce(team, d, d + 1, 1) + shmem_min_reduce(team, l, l + 1, 1) +
           shmem_sum_reduce(team, z, z + 1, 1) + shmem_prod_reduce(team, d, d + 1, 1) +
           shmem_sync(team);
}
