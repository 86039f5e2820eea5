/* SPDX-License-Identifier: BSD-3-Clause */
/* Device state without relocatable device code: kernels in two translation units of the program
 * and in two shared libraries all see the state that shmem_init filled (PE number, heap, peers). */
#include "../gpu_test.h"
#include "part.h"

int main(void) {
    gpu_test_require_gpu();
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int *slots = (int *)gpu_test_zalloc((4) * sizeof(int));
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    int errors = 0;
    errors += multi_part_a(slots) != 0;
    errors += multi_part_b(slots) != 0;
    errors += multi_lib_a(slots) != 0;
    errors += multi_lib_b(slots) != 0;
    shmemx_barrier_all_on_stream(0);
    GPU_CHECK(shmemi_gpu_stream_synchronize(0));
    int got[4];
    GPU_CHECK(shmemi_gpu_memcpy(got, slots, sizeof(got), shmemi_gpu_memcpy_default));
    int from = (me + n - 1) % n;
    for (int s = 0; s < 4; s++)
        if (got[s] != (from + 1) * 100 + s) {
            printf("PE %d: slot %d holds %d, expected %d\n", me, s, got[s], (from + 1) * 100 + s);
            errors++;
        }
    int fails = gpu_test_report("state in 2 TUs + 2 libraries", errors);
    shmem_finalize();
    return fails;
}
