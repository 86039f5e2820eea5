/* SPDX-License-Identifier: BSD-3-Clause */
/* The network tests' pseudo-random numbers: a 64-bit mixing function (the finalizer of
 * splitmix64), so that writer and reader compute the same values from a round's and a PE's
 * numbers without sharing any state. */
#ifndef SHMEMT_NET_MIX_H
#define SHMEMT_NET_MIX_H

#include <stdint.h>

static inline uint64_t net_mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

#endif
