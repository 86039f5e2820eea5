/* SPDX-License-Identifier: BSD-3-Clause */
/* Built by oshcc and by pkg-config flags from an installation: each PE writes its number into
 * its right neighbour's global variable. */
#include <shmem.h>
#include <stdio.h>

static int from_left = -1;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    *(int *)shmem_ptr(&from_left, (me + 1) % n) = me;
    shmem_free(shmem_malloc(1));
    printf("hello from PE %d of %d, left is %d\n", me, n, from_left);
    int ok = from_left == (me + n - 1) % n;
    shmem_finalize();
    return ok ? 0 : 1;
}
