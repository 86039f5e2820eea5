/* SPDX-License-Identifier: BSD-3-Clause */
/* A recording network transport for tests of contexts through the proxy (test-only:
 * proxy_recorder.c is linked into libshmem-proxytest, a copy of the library). Installed after
 * shmem_init on a job of one node, it becomes the PE's network transport for the heap: the peers'
 * heaps are no longer mapped for the library (shmemi_ptr gives NULL), so the proxy's consumer and
 * host calls send every operation on the heap of another PE to it, with the transport state of
 * their context. There, puts, put-with-signal and non-fetching AMOs stay pending in that state
 * until a quiet of the same state (or of every state) delivers them, in the order they were
 * issued; gets and fetching AMOs are done at once. So whether a quiet completed an operation is
 * a fact in memory, not a matter of timing. A started put (put_start, the proxy's) is read from
 * its source only once 16 more puts were started or 2 ms passed (at a progress pass), or at its
 * quiet, and only then said done: a consumer that let producers reuse its slot before that
 * delivers their bytes instead. */
#ifndef SHMEMT_PROXY_RECORDER_H
#define SHMEMT_PROXY_RECORDER_H

#include <stdint.h>

#include <shmem.h>

/* What a context's transport state has seen: operations pending now, delivered by its quiets,
 * and the quiets, fences and quiets to one PE it received. */
typedef struct {
    uint64_t pending, delivered, quiets, fences, pe_quiets;
} shmemt_recorder_counts_t;

/* Install before any context (but the default one) is created and before any thread but the
 * caller uses the library; uninstall after every such context is destroyed and those threads
 * are done. */
void shmemt_recorder_install(void);
/* The same, but only AMOs take the recorder (as in a job over several nodes, where AMOs to the
 * node's PEs take the network): puts and gets keep the node's mapping. */
void shmemt_recorder_install_amos(void);
void shmemt_recorder_uninstall(void);
/* From now on, every started put fails when it is sent (its done gets SHMEMI_ERR_PEER). */
void shmemt_recorder_fail_sends(void);
/* From now on, no started put is ever sent, not even by a quiet (a network that stopped). */
void shmemt_recorder_hold_sends(void);

shmemt_recorder_counts_t shmemt_recorder_counts(shmem_ctx_t ctx);
/* Where symmetric heap address addr is on pe (its memory, read without the library). */
void *shmemt_recorder_peek(const void *addr, int pe);

#endif
