/* SPDX-License-Identifier: BSD-3-Clause */
/* Compile-fail case: a CUDA/HIP translation unit. Against a cpu installation the headers must stop
 * with one #error naming the platform (tests/core/misuse/check_misuse.sh). */
#include <shmem.h>

__global__ void ring(int *dest) {
    shmem_int_p(dest, shmem_my_pe(), (shmem_my_pe() + 1) % shmem_n_pes());
}

int main(void) {
    shmem_init();
    shmem_finalize();
    return 0;
}
