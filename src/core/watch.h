/* SPDX-License-Identifier: BSD-3-Clause */
/* Where each PE is, so that no wait of the library hangs silently. Internal header.
 *
 * Every PE keeps one record in the internal symmetric segment: "in the program", "in <call>,
 * waiting for PE p", or "in <call>, exchanging with every PE" (a bootstrap allgather or barrier:
 * shmem_init, shmem_finalize, shmem_malloc and the other memory routines). A wait that has
 * lasted a while publishes itself there and to the launcher (for shmemrun's report), sleeps
 * instead of spinning, and looks at the record of the PE it waits for: a PE that exchanges with
 * every PE cannot send what this PE waits for until this PE joins it, so the job ends with a
 * message that names both PEs and both calls. */
#ifndef SHMEMI_WATCH_H
#define SHMEMI_WATCH_H

#include <stdint.h>

#include "shmemi.h"

SHMEMI_EXTERN_C_BEGIN

/* The library call this thread is in (a public name such as "shmem_barrier_all"); set where a
 * collective or memory routine starts, read only by the slow path of a wait. */
extern __thread const char *shmemi_watch_current_call;

static inline void shmemi_watch_call(const char *call) {
    shmemi_watch_current_call = call;
}

/* Waits until *word >= want (acquire), where peer is the world PE that raises it. Called once a
 * short spin has not seen it: sleeps with growing pauses (up to a millisecond), publishes the
 * wait after SHMEMI_WATCH_PUBLISH_MS, then checks the peer every SHMEMI_WATCH_CHECK_MS and ends
 * the job when the peer is in a call that needs this PE. */
void shmemi_watch_wait_ge(const uint64_t *word, uint64_t want, int peer);

#define SHMEMI_WATCH_PUBLISH_MS 50
#define SHMEMI_WATCH_CHECK_MS 50

/* Whether a peer in its exchange number peer_exchange keeps this PE waiting until this PE joins
 * that exchange. Exchanges are counted from 1 since the process started, and every PE makes the
 * same ones in the same order (each needs every PE), so the peer's n-th is this PE's n-th. This
 * PE has begun my_begun: a peer still in one of those has not yet seen it end (preempted after
 * the launcher answered) and comes out by itself; only a later one is a different call. */
static inline int shmemi_watch_exchange_blocks(uint64_t peer_exchange, uint64_t my_begun) {
    return peer_exchange > my_begun;
}

/* Around a bootstrap exchange with every PE (the bootstrap's allgather and barrier). */
void shmemi_watch_exchange_begin(void);
void shmemi_watch_exchange_end(void);

/* Tells the launcher where this PE waits (call NULL: back in the program); nothing without a
 * launcher that listens (src/core/bootstrap.c). */
void shmemi_bootstrap_note(const char *call, int peer);

SHMEMI_EXTERN_C_END

#endif
