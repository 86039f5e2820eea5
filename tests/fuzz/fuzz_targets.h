/* SPDX-License-Identifier: BSD-3-Clause */
/* The fuzz targets of the input parsers: each takes one input, checks the parser's answers
 * against an independent reading of the same bytes, and aborts (with a message) on a difference.
 * Driven by libFuzzer (fuzz_libfuzzer.c) or by the deterministic replay (fuzz_replay.c). */
#ifndef SHMEM_TESTS_FUZZ_TARGETS_H
#define SHMEM_TESTS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* The launcher's wire protocol (src/core/bootstrap_wire.h): a byte that sets the job size and
 * the PE, then headers (24 bytes), each followed by up to its len bytes of payload. */
void fuzz_wire(const uint8_t *data, size_t size);

/* The environment parsers (src/core/env.c): the input, up to its first NUL, as the value of a
 * size, a boolean and a table variable. */
void fuzz_env(const uint8_t *data, size_t size);

#endif
