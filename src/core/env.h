/* SPDX-License-Identifier: BSD-3-Clause */
/* The environment variables of libshmem: one table, read by the library, printed by shmem_info
 * and listed in docs/environment.md. Internal header. */
#ifndef SHMEMI_ENV_H
#define SHMEMI_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "shmemi.h"

SHMEMI_EXTERN_C_BEGIN

/* What a variable's value must be; shmem_init fails on any other (shmemi_env_find_invalid). */
typedef enum {
    SHMEMI_ENV_TEXT,   /* anything (a command, a path, a value the library sets itself) */
    SHMEMI_ENV_SWITCH, /* 1, y, yes, on, true, 0, n, no, off, false (any case) */
    SHMEMI_ENV_SIZE,   /* a size above 0: digits with an optional K, M, G or T suffix */
    SHMEMI_ENV_COUNT,  /* a non-negative decimal integer */
    SHMEMI_ENV_CHOICE, /* one of the words of choices */
    SHMEMI_ENV_LIST,   /* words of choices, separated by commas */
} shmemi_env_kind_t;

typedef struct {
    const char *name;
    const char *default_value; /* as the user would write it; "" for "unset" */
    const char *description;
    shmemi_env_kind_t kind;
    const char *const *choices; /* CHOICE and LIST: the words, NULL-terminated; else NULL */
} shmemi_env_var_t;

/* Every variable libshmem and its tools read, in the order docs/environment.md lists them. */
extern const shmemi_env_var_t shmemi_env_vars[];
extern const size_t shmemi_env_n_vars;

/* The value of name, or its default from the table when unset or empty. */
const char *shmemi_env_get(const char *name);
/* The value of a SHMEMI_ENV_COUNT variable, or its default: shmem_init has checked it
 * (shmemi_env_find_invalid) before any module reads it. */
unsigned long long shmemi_env_count(const char *name);
/* The index in the table's choices of a SHMEMI_ENV_CHOICE variable's value, or of its default; the
 * bytes of a SHMEMI_ENV_SIZE variable's value, or of its default. shmem_init has checked both
 * (shmemi_env_find_invalid) before any module reads them. */
int shmemi_env_choice(const char *name);
size_t shmemi_env_size(const char *name);
/* 1 when name is set to a true value (1, y, yes, on, true), 0 when false or unset; -1 on junk. */
int shmemi_env_bool(const char *name);

/* The first variable of the table that is set (non-empty) to a value its kind does not accept:
 * its index, with *why_p saying what the value should be ("not a switch (1, y, ...)"); -1 when
 * every set variable is valid. */
int shmemi_env_find_invalid(const char **why_p);

/* For the first n characters of name (a variable's name, as in "NAME=value"): NULL when the table
 * knows it, else the known name at the least edit distance (the likely intended spelling). */
const char *shmemi_env_closest(const char *name, size_t n);

/* The variables every PE of a job must set alike: the collective algorithms and their sizes (PEs
 * that disagree would run different algorithms against each other and hang or mix up data), and
 * SHMEM_DISABLE_P2P (which decides what shmem_init exchanges next). shmem_init compares them in
 * its first exchange (src/core/route.c) and ends the job naming the first that differs. */
#define SHMEMI_ENV_N_AGREED 8
extern const char *const *const shmemi_env_agreed;
/* One word per agreed variable, the value this PE uses: a size as its number of bytes (so that 64K
 * and 65536 agree), a switch as 0 or 1 (so that no and 0 agree), any other value as a hash of its
 * text. */
void shmemi_env_agreed_words(uint64_t words[SHMEMI_ENV_N_AGREED]);

/* Variables that shmemrun sets for each PE: the rendezvous socket, the job secret, the PE number
 * and the number of PEs. */
#define SHMEMI_ENV_JOB_SOCKET "SHMEM_JOB_SOCKET"
#define SHMEMI_ENV_JOB_SECRET "SHMEM_JOB_SECRET"
#define SHMEMI_ENV_JOB_PE "SHMEM_JOB_PE"
#define SHMEMI_ENV_JOB_N_PES "SHMEM_JOB_N_PES"
/* Also set by shmemrun: how it bound the job's PEs to processors (printed by SHMEM_INFO). */
#define SHMEMI_ENV_JOB_BIND "SHMEM_JOB_BIND"

SHMEMI_EXTERN_C_END

#endif
