/* SPDX-License-Identifier: BSD-3-Clause */
/* Functions private to src/core. */
#ifndef SHMEMI_CORE_INTERNAL_H
#define SHMEMI_CORE_INTERNAL_H

#include "shmemi.h"

/* The largest alignment shmemi_heap_alloc can give on every PE. */
extern size_t shmemi_heap_max_align;

/* Size of the internal segment (sparse: only touched pages cost memory). */
#define SHMEMI_INTERNAL_SIZE ((size_t)64 << 20)

/* Allocators for the heap and the internal segment. */
shmemi_status_t shmemi_heap_setup(size_t heap_size, size_t internal_size);
void shmemi_heap_teardown(void);
void shmemi_modules_init(void);
/* Fails the job when a slot of ops is NULL. */
void shmemi_transport_check(const shmemi_transport_ops_t *ops);
void shmemi_modules_finalize(void);

/* The transport that shmem_init puts the heap on: a registered mapping transport that is not
 * host_loadable (ipc) if any, else shm. */
const shmemi_transport_ops_t *shmemi_heap_transport(void);
/* Nonzero when SHMEM_TRANSPORTS allows transport name (unset: every transport). */
int shmemi_transport_allowed(const char *name);
/* Loads plug-in libshmem-<name>.so and returns its checked ops table; NULL with the reason in
 * why when it cannot. */
const shmemi_transport_ops_t *shmemi_transport_plugin_load(const char *name, char *why,
                                                           size_t why_size);
void shmemi_transport_plugins_unload(void);
/* Tells the plug-ins that this PE's network operations are all complete (shmem_finalize's last
 * barrier follows), so peers that leave first are no failure. */
void shmemi_transport_plugins_closing(void);

/* Routes (route.c), in shmem_init's order: the node of every PE and which peers are mapped
 * (before the segments are attached); then, after the segments exist, the network transport
 * when a peer needs one. shmemi_route_finalize undoes both. */
void shmemi_route_nodes(const char *call);
void shmemi_route_network(const char *call);
void shmemi_route_finalize(void);
/* Brackets an exchange through the bootstrap (whose calls block without progressing the
 * network): where the network transport needs this PE's progress and no progress thread runs
 * (SHMEM_PROGRESS_THREAD=0), a thread serves it for the exchange's duration, so that a peer
 * whose quiet waits for this PE's progress can finish it and join the exchange. Nests. */
void shmemi_route_exchange_begin(void);
void shmemi_route_exchange_end(void);

/* Around the copy and remap of a data range (data_freeze.c): freeze makes it read-only and holds
 * every other thread that stores into it until thaw, which makes it writable again; the held
 * stores then run again, so none is lost. The calling thread must not store into the range in
 * between. The first freeze installs a SIGSEGV handler that stays (it passes other faults on to
 * the program's handler). */
shmemi_status_t shmemi_data_freeze(void *base, size_t size);
void shmemi_data_thaw(void *base, size_t size);

#endif
