/* SPDX-License-Identifier: BSD-3-Clause */
/* When a delivered put into host memory is done: at once, by memcpy (src/core/deliver.c). Alone in
 * its file so that the tests can link, in its place, a copy that finishes such puts late, as a
 * GPU's copy engine finishes those into the GPU heap (tests/net/deliver_lazy.c, in
 * libshmem-lazydeliver): the network transport must then wait for deliver_test before it
 * acknowledges a put, and every later operation on the segment must land after it. */
#include "core/shmemi.h"

shmemi_status_t shmemi_deliver_host_start(int segment, size_t offset, const void *source,
                                          size_t len) {
    return shmemi_deliver_put(segment, offset, source, len);
}

int shmemi_deliver_host_test(void) {
    return 1;
}

void shmemi_deliver_host_settle(void) {}
