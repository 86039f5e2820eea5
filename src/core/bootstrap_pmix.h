/* SPDX-License-Identifier: BSD-3-Clause */
/* The PMIx bootstrap: PEs started by mpirun (Open MPI) or srun --mpi=pmix. Built only when PMIx
 * is found (SHMEM_HAVE_PMIX). Internal header. */
#ifndef SHMEMI_BOOTSTRAP_PMIX_H
#define SHMEMI_BOOTSTRAP_PMIX_H

#include "shmemi.h"

/* Connects to the PMIx server of the launcher, returns this PE and the number of PEs, sets
 * SHMEM_LOCAL_RANK from the PMIx local rank when unset, and checks that every PE runs on this
 * node. A process started by a PE of a PMIx job (it inherits the PE's PMIX_* variables and its
 * SHMEM_PMIX_PE mark) gets shmemi_bootstrap_single instead: a job of one PE. Fails the job on
 * error. */
const shmemi_bootstrap_ops_t *shmemi_bootstrap_pmix_init(int *my_pe_p, int *n_pes_p);

/* The bootstrap of a job of one PE (bootstrap.c). */
extern const shmemi_bootstrap_ops_t shmemi_bootstrap_single;

#endif
