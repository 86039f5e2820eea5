/* SPDX-License-Identifier: BSD-3-Clause */
// Compile test: shmem.h and shmemx.h as a whole in strict ISO C++ (C++11 and C++17, -pedantic),
// with team handles as initializers and the complex reductions on std::complex and on the GNU
// complex types. Never run.
#include <shmem.h>
#include <shmemx.h>

static shmem_team_t header_cxx_team = SHMEM_TEAM_WORLD;
__extension__ typedef float _Complex gnu_complexf;

int header_cxx_calls(long *l, std::complex<double> *z, gnu_complexf *g);

int header_cxx_calls(long *l, std::complex<double> *z, gnu_complexf *g) {
    shmem_sync(0, 0, 1, l);
    shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, g, g + 1, 1);
    return shmem_long_sum_reduce(header_cxx_team, l, l + 1, 1) +
           shmem_complexd_prod_reduce(SHMEM_TEAM_SHARED, z, z + 1, 1) +
           shmem_team_my_pe(SHMEM_TEAM_INVALID) + shmem_sync(header_cxx_team);
}
