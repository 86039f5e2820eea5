/* SPDX-License-Identifier: BSD-3-Clause */
/* One part of the multi-module test: every part launches its own kernel, which reads the device
 * state of its own translation unit and puts one word to the next PE. */
#ifndef SHMEM_TESTS_DEVICE_MULTI_PART_H
#define SHMEM_TESTS_DEVICE_MULTI_PART_H

#ifdef __cplusplus
extern "C" {
#endif
/* Writes (my_pe + 1) * 100 + slot into slots[slot] of the next PE; returns the runtime's error
 * code of the launch and synchronization (0 on success). */
int multi_part_a(int *slots);
int multi_part_b(int *slots);
int multi_lib_a(int *slots);
int multi_lib_b(int *slots);
#ifdef __cplusplus
}
#endif

/* The body of one part, expanded in its own translation unit (which includes shmem.h): the kernel
 * NAME_kernel and the launcher NAME declared above, for slot SLOT. */
#define MULTI_PART_DEFINE(NAME, SLOT)                                                              \
    __global__ void NAME##_kernel(int *slots) {                                                    \
        int me = shmem_my_pe(), n = shmem_n_pes();                                                 \
        shmem_int_p(&slots[SLOT], (me + 1) * 100 + SLOT, (me + 1) % n);                            \
        shmem_quiet();                                                                             \
    }                                                                                              \
    extern "C" int NAME(int *slots) {                                                              \
        NAME##_kernel<<<1, 1>>>(slots);                                                            \
        shmemi_gpu_error_t err = shmemi_gpu_get_last_error();                                      \
        if (err == shmemi_gpu_success)                                                             \
            err = shmemi_gpu_device_synchronize();                                                 \
        return (int)err;                                                                           \
    }

#endif
