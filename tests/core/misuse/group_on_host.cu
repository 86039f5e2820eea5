/* SPDX-License-Identifier: BSD-3-Clause */
/* Compile-fail case: a device-only group form called from host code must not compile, and the
 * compiler must say that it is a device function (tests/core/misuse/check_misuse.sh). */
#include <shmem.h>
#include <shmemx.h>

static char buf[8];

int main(void) {
    shmem_init();
    shmemx_putmem_nbi_block(buf, buf, sizeof(buf), 0);
    shmem_finalize();
    return 0;
}
