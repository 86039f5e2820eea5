/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer entry point (built with clang and -DSHMEM_LITMUS_FUZZ=ON): fuzz_one on every input. */
#include <stdlib.h>

#include "fuzz_one.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready) {
        const char *dir = getenv("SHMEM_LITMUS_MODEL_DIR");
        if (fuzz_setup(dir ? dir : SHMEM_LITMUS_MODEL_DIR) < 0)
            abort();
        ready = 1;
    }
    if (fuzz_one(data, size) < 0)
        abort();
    return 0;
}
