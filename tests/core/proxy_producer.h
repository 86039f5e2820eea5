/* SPDX-License-Identifier: BSD-3-Clause */
/* A host producer for the proxy ring (shmem/device/impl/proxy__types.h): the protocol a kernel
 * follows, written with host threads, so that tests can drive the library's real consumer
 * (src/core/proxy.c) on any platform and under the sanitizers. Test-only: proxy_producer.c is
 * linked into libshmem-proxytest, a copy of the library, next to the consumer it calls. */
#ifndef SHMEMT_PROXY_PRODUCER_H
#define SHMEMT_PROXY_PRODUCER_H

#include <stddef.h>
#include <stdint.h>

#include <shmem.h>

typedef struct shmemt_proxy shmemt_proxy_t;

/* A ring of n_slots slots of chunk bytes in host memory, and its consumer thread. After
 * shmem_init; destroy it before shmem_finalize. */
shmemt_proxy_t *shmemt_proxy_create(uint32_t n_slots, uint32_t chunk);
void shmemt_proxy_destroy(shmemt_proxy_t *p);

/* The operations, as a kernel's thread would issue them to a world PE through the proxy. put and
 * put_signal are locally complete at return (in batches of pieces of at most chunk bytes, as
 * kernels write them) and return the number of operations the consumer makes of them at most (it
 * joins each batch's pieces, but where the ring wraps, and may join a batch to the one before it
 * when it sees both at once); get and a fetching AMO return their result, quiet returns when the
 * context's earlier commands are complete. */
unsigned shmemt_proxy_put(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                          size_t len, int pe);
void shmemt_proxy_get(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                      size_t len, int pe);
/* A put of len bytes (at most a ring of full slots) as two batches on adjacent tickets, as two
 * blocks' shares of one buffer may come: the second published first, so that the consumer sees
 * both at once. Returns the operations the consumer makes of it: one, two where the ring wraps. */
unsigned shmemt_proxy_put_adjacent(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest,
                                   const void *source, size_t len, int pe);
/* A put of any length as one command that names its source (PUT_FROM), as a kernel's thread
 * sends a large one; returns once the consumer has read the source. */
void shmemt_proxy_put_from(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                           size_t len, int pe);
/* op: SHMEMI_PROXY_AMO_OP_*; size 4 or 8. fetch: wait for and return the old value. */
uint64_t shmemt_proxy_amo(shmemt_proxy_t *p, shmem_ctx_t ctx, uint32_t op, void *dest,
                          uint64_t operand, uint64_t compare, size_t size, int fetch, int pe);
/* sig_op: SHMEMI_PROXY_AMO_OP_SET or _ADD. */
unsigned shmemt_proxy_put_signal(shmemt_proxy_t *p, shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t len, uint64_t *sig_addr, uint64_t signal, uint32_t sig_op,
                                 int pe);
void shmemt_proxy_fence(shmemt_proxy_t *p, shmem_ctx_t ctx, int pe);
void shmemt_proxy_quiet(shmemt_proxy_t *p, shmem_ctx_t ctx);

/* Failure cases: a raw command (op, context field and pe as given, len bytes) for the consumer
 * to reject, and a ticket taken and never written (a producer that stopped mid-operation). */
void shmemt_proxy_raw(shmemt_proxy_t *p, uint32_t op, uint64_t ctx, void *dest, size_t len, int pe);
/* A batch of two pieces whose second does not continue the first: the first first bytes long
 * (a piece but the last must fill its slot), the second starting gap bytes past its end. */
void shmemt_proxy_raw_batch(shmemt_proxy_t *p, void *dest, size_t first, size_t gap, int pe);
void shmemt_proxy_abandon_ticket(shmemt_proxy_t *p);

#endif
