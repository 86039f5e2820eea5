/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed locks (OpenSHMEM 1.6 section "Distributed Locking Routines"). The lock is a
 * symmetric long initialized to 0; the library uses PE 0's copy as a FIFO ticket lock, so PEs
 * acquire it in the order they asked for it and a waiting PE is never starved. */
#ifndef SHMEM_LOCK_H
#define SHMEM_LOCK_H

#include <shmem/types.h>

SHMEMI_EXTERN_C_BEGIN

/* Returns when the caller holds the lock (FIFO among waiters); acquire: the stores of the previous
 * holder's critical section are visible after it, scope world. */
void shmem_set_lock(long *lock);

/* Returns at once: 0 when the caller took the lock (acquire, as shmem_set_lock), 1 when another PE
 * holds it or waits for it. */
int shmem_test_lock(long *lock);

/* Returns when the lock is released; completes the caller's operations on the default context
 * first (quiet) and releases: the next holder sees them, scope world. */
void shmem_clear_lock(long *lock);

SHMEMI_EXTERN_C_END

#endif
