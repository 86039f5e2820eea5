/* SPDX-License-Identifier: BSD-3-Clause */
/* The setup and query routines: init_thread, query_thread, my_pe, n_pes, accessibility, info,
 * repeated init and finalize, and the deprecated names. */
#include "pe_check.h"

#include <string.h>

int main(void) {
    int provided = -1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0);
    CHECK(provided == SHMEM_THREAD_MULTIPLE);
    shmem_init(); /* no effect */
    int queried = -1;
    shmem_query_thread(&queried);
    CHECK(queried == SHMEM_THREAD_MULTIPLE);

    int me = shmem_my_pe(), n = shmem_n_pes();
    CHECK(me >= 0 && me < n);
    CHECK(_my_pe() == me && _num_pes() == n);
    for (int pe = 0; pe < n; pe++)
        CHECK(shmem_pe_accessible(pe) == 1);

    int major = 0, minor = 0;
    shmem_info_get_version(&major, &minor);
    CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION);
    CHECK(major == 1 && minor == 6);
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_name(name);
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0);

    shmem_finalize();
    shmem_finalize(); /* no effect */
    if (me == 0)
        printf("setup: ok on %d PEs\n", n);
    return 0;
}
