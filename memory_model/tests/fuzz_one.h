/* SPDX-License-Identifier: BSD-3-Clause */
/* One fuzz input through the parsers and the evaluator; shared by the libFuzzer target and the
 * mutation driver that ctest runs. */
#ifndef SHMEM_LITMUS_FUZZ_ONE_H
#define SHMEM_LITMUS_FUZZ_ONE_H

#include <stddef.h>
#include <stdint.h>

/* Loads shmem.bell and shmem.cat from `model_dir` as the fixed halves of the inputs. */
int fuzz_setup(const char *model_dir);

/* The first byte picks the target: '0' a litmus test (parsed, then checked against the model),
 * '1' a cat file (with shmem.bell), '2' a bell file (with shmem.cat). Returns 0, or -1 when an
 * error report is malformed (no position or no message). */
int fuzz_one(const uint8_t *data, size_t size);

#endif
