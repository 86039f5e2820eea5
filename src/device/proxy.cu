/* SPDX-License-Identifier: BSD-3-Clause */
/* The device side of the proxy: one ring per PE in pinned host memory mapped into the GPU, shared
 * by every kernel thread of the PE, and its consumer thread (src/core/proxy.c). Made at
 * shmem_init when some peer's path is the proxy. */
#include <stdio.h>
#include <string.h>

#include <shmem.h>

#include "transport/ipc/ipc.h"
#include "device/device.h"

/* 512 slots of 8 KiB: 4 MiB of payload per PE, so that a large put is a few dozen commands,
 * several hundred threads can have one in flight each before they wait for a slot, and eight
 * batches of SHMEMI_PROXY_BATCH pieces (eight blocks' large puts) fit at once. */
#define RING_SLOTS 512
#define RING_CHUNK 8192

static shmemi_proxy_ring_t ring;
static shmemi_proxy_t *consumer;

shmemi_proxy_ring_t shmemi_device_proxy_start(void) {
    memset(&ring, 0, sizeof(ring));
    ring.n_slots = RING_SLOTS;
    ring.chunk = RING_CHUNK;
    ring.cmd = (shmemi_proxy_cmd_t *)shmemi_host_shared_alloc(RING_SLOTS * sizeof(*ring.cmd));
    ring.slot = (shmemi_proxy_slot_t *)shmemi_host_shared_alloc(RING_SLOTS * sizeof(*ring.slot));
    ring.data = (unsigned char *)shmemi_host_shared_alloc((size_t)RING_SLOTS * RING_CHUNK);
    ring.issue = (uint64_t *)shmemi_host_shared_alloc(sizeof(uint64_t));
    if (!ring.cmd || !ring.slot || !ring.data || !ring.issue)
        shmemi_fatal("shmem_init",
                     "cannot allocate the proxy ring (%d slots of %d bytes) in "
                     "mapped host memory",
                     RING_SLOTS, RING_CHUNK);
    consumer = shmemi_proxy_start("shmem_init", &ring);
    return ring;
}

void shmemi_device_proxy_stop(void) {
    if (consumer == NULL)
        return;
    shmemi_proxy_stop(consumer);
    consumer = NULL;
    shmemi_host_shared_free(ring.cmd);
    shmemi_host_shared_free(ring.slot);
    shmemi_host_shared_free(ring.data);
    shmemi_host_shared_free(ring.issue);
    memset(&ring, 0, sizeof(ring));
}

int shmemi_device_proxy_describe(char *buf, size_t size) {
    if (consumer)
        shmemi_proxy_describe(consumer, buf, size);
    else
        snprintf(buf, size, "no proxy ring");
    return consumer != NULL;
}
