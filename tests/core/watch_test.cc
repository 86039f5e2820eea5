/* SPDX-License-Identifier: BSD-3-Clause */
// The check that ends a job whose PEs are in different collective calls (src/core/watch.h): a
// peer still in an exchange with every PE that this PE has already begun (or left: the peer was
// preempted after the launcher answered and has not yet published that it is out) is not in a
// different call; a peer in a later exchange is.
#include <gtest/gtest.h>

extern "C" {
#include "core/watch.h"
}

namespace {

// This PE left exchange 7 (a shmem_free) and waits in a barrier; the peer's record still says
// exchange 7: it will come out and join the barrier.
TEST(WatchExchange, PeerStillInAnExchangeThisPeLeftDoesNotBlock) {
    EXPECT_FALSE(shmemi_watch_exchange_blocks(7, 7));
    EXPECT_FALSE(shmemi_watch_exchange_blocks(1, 7));
}

// The peer is in exchange 8 (say shmem_finalize) while this PE, after 7, waits in a barrier:
// the peer needs this PE in exchange 8, this PE needs the peer in the barrier.
TEST(WatchExchange, PeerInAnExchangeThisPeHasNotJoinedBlocks) {
    EXPECT_TRUE(shmemi_watch_exchange_blocks(8, 7));
    EXPECT_TRUE(shmemi_watch_exchange_blocks(1, 0));
}

} // namespace
