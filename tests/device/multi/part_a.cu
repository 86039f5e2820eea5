/* A translation unit of the multi-module test (see part.h). */
#include <shmem.h>

#include "part.h"

__global__ void multi_part_a_kernel(int *slots) {
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_int_p(&slots[0], (me + 1) * 100 + 0, (me + 1) % n);
    shmem_quiet();
}

extern "C" int multi_part_a(int *slots) {
    multi_part_a_kernel<<<1, 1>>>(slots);
    gpu_error_t err = gpu_get_last_error();
    if (err == gpu_success)
        err = gpu_device_synchronize();
    return (int)err;
}
