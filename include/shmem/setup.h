/* Library setup, exit and query routines (OpenSHMEM 1.6 section 9.1). */
#ifndef SHMEM_SETUP_H
#define SHMEM_SETUP_H
#include <shmem/types.h>

SHMEMI_EXTERN_C_BEGIN

/* Collective over all PEs; returns when this PE's symmetric memory and every peer's mapping are
 * ready; acts as a barrier. Allocates the symmetric heap (SHMEM_SYMMETRIC_SIZE bytes) and makes
 * global and static variables of the program symmetric. Calling it again has no effect. */
void shmem_init(void);

/* As shmem_init, and requests thread level requested (SHMEM_THREAD_*); *provided receives the
 * level granted, which is the one requested (SHMEM_THREAD_MULTIPLE included). Returns 0. */
int shmem_init_thread(int requested, int *provided);

/* Local, no ordering: *provided receives the thread level granted at initialization. */
void shmem_query_thread(int *provided);

/* Collective over all PEs; completes and orders every outstanding operation of the default
 * context (a barrier_all; litmus MP+barrier) before releasing the library's resources. Calling it
 * again, or before shmem_init, has no effect. A program that returns from main without it finalizes
 * at exit. */
void shmem_finalize(void);

/* Local, no ordering: the number of this PE, 0 to shmem_n_pes() - 1. */
int shmem_my_pe(void);

/* Local, no ordering: the number of PEs of the job. */
int shmem_n_pes(void);

/* Local, no ordering: 1 when PE pe can be reached by OpenSHMEM calls (every PE of the job on
 * this platform). An out-of-range pe is an error that ends the job. */
int shmem_pe_accessible(int pe);

/* Local, no ordering: 1 when addr is a symmetric address (heap, global or static variable)
 * that PE pe can access, else 0. An out-of-range pe is an error that ends the job. */
int shmem_addr_accessible(const void *addr, int pe);

/* Local, no ordering: a local address through which this PE can load and store PE pe's copy of
 * the symmetric object dest, or NULL when it has none. Loads and stores through it are plain
 * memory accesses: they are ordered by the C memory model, not by fence or quiet. */
void *shmem_ptr(const void *dest, int pe);

/* Does not return: ends every PE of the job; the job exits with status (shmemrun exits with it).
 * Outstanding operations are not completed. */
SHMEMI_NORETURN void shmem_global_exit(int status);

/* Local, no ordering: the OpenSHMEM version this library implements (1.6). */
void shmem_info_get_version(int *major, int *minor);

/* Local, no ordering: copies the vendor string (at most SHMEM_MAX_NAME_LEN bytes, with the
 * terminating NUL) to name. */
void shmem_info_get_name(char *name);

/* Deprecated (OpenSHMEM 1.2): shmem_init; npes is ignored. No shmem_finalize is needed. */
void start_pes(int npes);
/* Deprecated: shmem_my_pe. */
int _my_pe(void);
/* Deprecated: shmem_n_pes. */
int _num_pes(void);

SHMEMI_EXTERN_C_END

#endif
