/* The environment variables of libshmem: one table, read by the library, printed by shmem_info
 * and listed in docs/environment.md. Internal header. */
#ifndef SHMEMI_ENV_H
#define SHMEMI_ENV_H

#include <stddef.h>

#include "shmemi.h"

typedef struct {
    const char *name;
    const char *default_value; /* as the user would write it; "" for "unset" */
    const char *description;
} shmemi_env_var_t;

/* Every variable libshmem and its tools read, in the order docs/environment.md lists them. */
extern const shmemi_env_var_t shmemi_env_vars[];
extern const size_t shmemi_env_n_vars;

/* The value of name, or its default from the table when unset or empty. */
const char *shmemi_env_get(const char *name);
/* 1 when name is set to a true value (1, y, yes, on, true), 0 when false or unset; -1 on junk. */
int shmemi_env_bool(const char *name);

/* Variables that shmemrun sets for each PE: the rendezvous socket, the job secret, the PE number
 * and the number of PEs. */
#define SHMEMI_ENV_JOB_SOCKET "SHMEM_JOB_SOCKET"
#define SHMEMI_ENV_JOB_SECRET "SHMEM_JOB_SECRET"
#define SHMEMI_ENV_JOB_PE "SHMEM_JOB_PE"
#define SHMEMI_ENV_JOB_N_PES "SHMEM_JOB_N_PES"

#endif
