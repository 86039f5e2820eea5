/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer entry point (clang, -DSHMEM_FUZZ=ON): FUZZ_TARGET (fuzz_wire or fuzz_env) on every
 * input. */
#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FUZZ_TARGET(data, size);
    return 0;
}
