/* SPDX-License-Identifier: BSD-3-Clause */
/* Programs that make one mistake each (argv[1]); the tests check the job fails with a message
 * that names the PE, the call and the wrong value. */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long global_value;

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "before_init") == 0)
        return shmem_my_pe();
    int pe1 = getenv("SHMEM_JOB_PE") && atoi(getenv("SHMEM_JOB_PE")) == 1;
    if (strcmp(mode, "heap_size_mismatch") == 0 && pe1)
        setenv("SHMEM_SYMMETRIC_SIZE", "64M", 1);
    /* PE 1 alone sets a collective setting: to another value, or to the default (64K) written
     * otherwise, which must pass. */
    if (strcmp(mode, "coll_setting_mismatch") == 0 && pe1)
        setenv("SHMEM_BCAST_CHUNK_SIZE", "8K", 1);
    if (strcmp(mode, "coll_setting_same") == 0 && pe1)
        setenv("SHMEM_BCAST_CHUNK_SIZE", "65536", 1);
    /* The same for SHMEM_DISABLE_P2P, compared in the first exchange of shmem_init ("no" is the
     * default's value). */
    if (strcmp(mode, "p2p_setting_mismatch") == 0 && pe1)
        setenv("SHMEM_DISABLE_P2P", "1", 1);
    if (strcmp(mode, "p2p_setting_same") == 0 && pe1)
        setenv("SHMEM_DISABLE_P2P", "no", 1);
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    if (strcmp(mode, "ptr_bad_pe") == 0 && me == n - 1)
        shmem_ptr(&global_value, n);
    if (strcmp(mode, "addr_accessible_bad_pe") == 0 && me == 0)
        shmem_addr_accessible(&global_value, -1);
    if (strcmp(mode, "pe_accessible_bad_pe") == 0 && me == 0)
        shmem_pe_accessible(n + 5);
    if (strcmp(mode, "free_not_heap") == 0)
        shmem_free(&global_value);
    if (strcmp(mode, "malloc_huge") == 0 && shmem_malloc(SIZE_MAX) != NULL)
        return 4;
    if (strcmp(mode, "malloc_size_mismatch") == 0)
        shmem_malloc(me == 0 ? 100 : 200);
    if (strcmp(mode, "align_not_power_of_two") == 0)
        shmem_align(48, 100);
    if (strcmp(mode, "ptr_after_finalize") == 0) {
        shmem_finalize();
        shmem_ptr(&global_value, 0);
    }
    shmem_finalize();
    return 0;
}
