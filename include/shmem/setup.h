/* SPDX-License-Identifier: BSD-3-Clause */
/* Library setup, exit and query routines (OpenSHMEM 1.6 section 9.1). */
#ifndef SHMEM_SETUP_H
#define SHMEM_SETUP_H
#include <shmem/types.h>

SHMEMI_EXTERN_C_BEGIN

/* Collective over all PEs; returns when this PE's symmetric memory and every peer's mapping are
 * ready; acts as a barrier. Allocates the symmetric heap (SHMEM_SYMMETRIC_SIZE bytes) and makes
 * global and static variables of the program symmetric; no store of any thread to them is lost
 * meanwhile. Counted: a call while initialized only counts (local, no barrier) and must be
 * matched by its own shmem_finalize; a call after the last shmem_finalize initializes the library
 * again (same PE numbers, a new heap, teams and contexts). */
void shmem_init(void);

/* As shmem_init, and requests thread level requested (SHMEM_THREAD_*); *provided receives the
 * level granted, which is the one requested (SHMEM_THREAD_MULTIPLE included), or, for a counted
 * call while initialized, the level granted by the call that initialized. Returns 0. */
int shmem_init_thread(int requested, int *provided);

/* Local, no ordering: *provided receives the thread level granted at initialization. */
void shmem_query_thread(int *provided);

/* Local, no ordering (OpenSHMEM 1.6): *initialized receives 1 between shmem_init and the
 * shmem_finalize that matches the first call, else 0. Callable at any time. */
void shmem_query_initialized(int *initialized);

/* Collective over all PEs; completes and orders every outstanding operation of the default
 * context (a barrier_all; litmus MP+barrier) before releasing the library's resources, when it
 * matches the last unmatched shmem_init; a call that matches an earlier one is local and only
 * counts. Before shmem_init, or after the last match, it has no effect. A program that returns
 * from main without it finalizes at exit. */
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

/* Local, no ordering (profiling interface, OpenSHMEM 1.5 section 10): sets the profiling level
 * (0 off, 1 on, 2 on with buffers flushed, other values as a profiling library defines them;
 * further arguments are for such a library). libshmem has no profiler of its own: it records
 * the level, which SHMEM_DEBUG=1 logs, and ignores the rest. Callable at any time. */
void shmem_pcontrol(const int level, ...);

/* Deprecated cache management (OpenSHMEM 1.6 lists them as deprecated): local, no ordering and
 * no effect. The memory libshmem's host routines use is cache-coherent, so there is nothing to
 * invalidate or flush; the routines remain for programs written for machines where there was. */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

/* Deprecated (OpenSHMEM 1.2): shmem_init; npes is ignored. No shmem_finalize is needed. */
void start_pes(int npes);
/* Deprecated: shmem_my_pe. */
int _my_pe(void);
/* Deprecated: shmem_n_pes. */
int _num_pes(void);

SHMEMI_EXTERN_C_END

#endif
