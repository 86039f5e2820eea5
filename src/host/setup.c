/* SPDX-License-Identifier: BSD-3-Clause */
/* Library setup, exit and query routines (include/shmem/setup.h); the work is in src/core. */
#include "core/shmemi.h"

#include <string.h>

SHMEMI_API void shmem_init(void) {
    shmemi_init("shmem_init", SHMEM_THREAD_SINGLE);
}

SHMEMI_API int shmem_init_thread(int requested, int *provided) {
    int level = shmemi_init("shmem_init_thread", requested);
    if (provided)
        *provided = level;
    return 0;
}

SHMEMI_API void shmem_query_thread(int *provided) {
    shmemi_check_init("shmem_query_thread");
    if (provided == NULL)
        shmemi_fatal("shmem_query_thread", "provided is NULL");
    *provided = shmemi_state.thread_level;
}

SHMEMI_API void shmem_query_initialized(int *initialized) {
    if (initialized == NULL)
        shmemi_fatal("shmem_query_initialized", "initialized is NULL");
    *initialized = shmemi_initialized();
}

SHMEMI_API void shmem_finalize(void) {
    shmemi_finalize();
}

SHMEMI_API int shmem_my_pe(void) {
    shmemi_check_init("shmem_my_pe");
    return shmemi_state.my_pe;
}

SHMEMI_API int shmem_n_pes(void) {
    shmemi_check_init("shmem_n_pes");
    return shmemi_state.n_pes;
}

SHMEMI_API int shmem_pe_accessible(int pe) {
    shmemi_check_init("shmem_pe_accessible");
    shmemi_check_pe("shmem_pe_accessible", pe);
    return 1;
}

SHMEMI_API int shmem_addr_accessible(const void *addr, int pe) {
    shmemi_check_init("shmem_addr_accessible");
    shmemi_check_pe("shmem_addr_accessible", pe);
    size_t offset;
    return shmemi_segment_of(addr, &offset) >= 0;
}

SHMEMI_API void *shmem_ptr(const void *dest, int pe) {
    shmemi_check_init("shmem_ptr");
    shmemi_check_pe("shmem_ptr", pe);
    return shmemi_ptr(dest, pe);
}

SHMEMI_API SHMEMI_NORETURN void shmem_global_exit(int status) {
    shmemi_global_exit(status);
}

SHMEMI_API void shmem_info_get_version(int *major, int *minor) {
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

SHMEMI_API void shmem_info_get_name(char *name) {
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

SHMEMI_API void start_pes(int npes) {
    (void)npes;
    shmemi_init("start_pes", SHMEM_THREAD_SINGLE);
}

SHMEMI_API int _my_pe(void) {
    shmemi_check_init("_my_pe");
    return shmemi_state.my_pe;
}

SHMEMI_API int _num_pes(void) {
    shmemi_check_init("_num_pes");
    return shmemi_state.n_pes;
}
