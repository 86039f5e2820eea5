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

#endif
