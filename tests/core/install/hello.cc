/* SPDX-License-Identifier: BSD-3-Clause */
// Built by oshc++ and by a CMake project with find_package(shmem): the headers work from C++.
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>

int main() {
    shmem_init();
    void *p = shmem_malloc(sizeof(int));
    std::printf("C++ PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    shmem_free(p);
    shmem_finalize();
    return 0;
}
