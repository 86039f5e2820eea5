/* SPDX-License-Identifier: BSD-3-Clause */
// Compiled, not run: the public headers are clean C++11/C++17 with -Wall -Wextra -Werror
// -pedantic (see CMakeLists.txt), overloads included.
#include <shmem.h>
#include <shmemx.h>

long headers_check(long *dest, const long *source, int pe);
long headers_check(long *dest, const long *source, int pe) {
    shmem_put(dest, source, 1, pe);
    shmem_put(SHMEM_CTX_DEFAULT, dest, source, 1, pe);
    shmem_atomic_add(dest, 1L, pe);
    shmem_wait_until(dest, SHMEM_CMP_NE, 0L);
    shmemx_st_bypass(dest, 2L);
    return shmem_g(source, pe) + shmem_atomic_fetch(SHMEM_CTX_DEFAULT, source, pe) +
           shmemx_ld_bypass(source);
}
