// Compile test: shmem.h and shmemx.h as a whole in strict ISO C++ (C++11 and C++17, -pedantic),
// with team handles as initializers and the complex reductions on std::complex. Never run.
#include <shmem.h>
#include <shmemx.h>

static shmem_team_t header_cxx_team = SHMEM_TEAM_WORLD;

int header_cxx_calls(long *l, std::complex<double> *z);

int header_cxx_calls(long *l, std::complex<double> *z) {
    return shmem_long_sum_reduce(header_cxx_team, l, l + 1, 1) +
           shmem_complexd_prod_reduce(SHMEM_TEAM_SHARED, z, z + 1, 1) +
           shmem_team_my_pe(SHMEM_TEAM_INVALID);
}
