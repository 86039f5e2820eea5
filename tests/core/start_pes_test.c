/* SPDX-License-Identifier: BSD-3-Clause */
/* A program in the OpenSHMEM 1.2 style: start_pes, _my_pe, _num_pes, no shmem_finalize; the
 * library finalizes when main returns. */
#include "pe_check.h"

static long counter;

int main(void) {
    start_pes(0);
    int me = _my_pe(), n = _num_pes();
    shmem_long_p(&counter, me + 1, (me + 1) % n);
    sync_pes();
    CHECK(counter == (me + n - 1) % n + 1);
    return 0;
}
