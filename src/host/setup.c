/* Library setup, exit and query routines (include/shmem/setup.h); the work is in src/core. */
#include "core/shmemi.h"

#include <string.h>

void shmem_init(void) {
    shmemi_init("shmem_init", SHMEM_THREAD_SINGLE);
}

int shmem_init_thread(int requested, int *provided) {
    int level = shmemi_init("shmem_init_thread", requested);
    if (provided)
        *provided = level;
    return 0;
}

void shmem_query_thread(int *provided) {
    shmemi_check_init("shmem_query_thread");
    *provided = shmemi_state.thread_level;
}

void shmem_finalize(void) {
    shmemi_finalize();
}

int shmem_my_pe(void) {
    shmemi_check_init("shmem_my_pe");
    return shmemi_state.my_pe;
}

int shmem_n_pes(void) {
    shmemi_check_init("shmem_n_pes");
    return shmemi_state.n_pes;
}

int shmem_pe_accessible(int pe) {
    shmemi_check_init("shmem_pe_accessible");
    shmemi_check_pe("shmem_pe_accessible", pe);
    return 1;
}

int shmem_addr_accessible(const void *addr, int pe) {
    shmemi_check_init("shmem_addr_accessible");
    shmemi_check_pe("shmem_addr_accessible", pe);
    size_t offset;
    return shmemi_segment_of(addr, &offset) >= 0;
}

void *shmem_ptr(const void *dest, int pe) {
    shmemi_check_init("shmem_ptr");
    shmemi_check_pe("shmem_ptr", pe);
    return shmemi_ptr(dest, pe);
}

void shmem_global_exit(int status) {
    shmemi_global_exit(status);
}

void shmem_info_get_version(int *major, int *minor) {
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name) {
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

void start_pes(int npes) {
    (void)npes;
    shmemi_init("start_pes", SHMEM_THREAD_SINGLE);
}

int _my_pe(void) {
    shmemi_check_init("_my_pe");
    return shmemi_state.my_pe;
}

int _num_pes(void) {
    shmemi_check_init("_num_pes");
    return shmemi_state.n_pes;
}
