/* SPDX-License-Identifier: BSD-3-Clause */
/* Delivery: the target's side of operations on segments the network transport cannot register
 * (docs/transports.md, "Delivered segments"). The network carries the operation to this PE as a
 * message; the transport calls these functions to apply it, outside its own callbacks, in
 * whichever thread progressed the network (a library wait, the progress thread, the proxy's
 * consumer). Host memory is applied by memcpy and CPU atomics; GPU memory through the segment's
 * mapping transport with pe = this PE (ipc: copies on its copy stream, AMOs by a one-thread
 * kernel with system-scope atomics), so remote AMOs on a GPU word are atomic with the kernels'
 * own. A put into GPU memory may run while the network is received (deliver_put_start): its
 * payload arrives in pinned buffers of this file, and the mapping transport's copy runs from there
 * on the GPU's copy engine; the next operations on the segment are ordered after it by that
 * transport (ipc: one stream). */
#include <pthread.h>
#include <string.h>

#include <shmem/device/impl/proxy__types.h>

#include "shmemi.h"
#include "core/cpu_amo.h"

uint8_t shmemi_net_delivered[SHMEMI_MAX_SEGMENTS];

int shmemi_deliver_segment_delivered(int segment) {
    return segment >= 0 && segment < SHMEMI_MAX_SEGMENTS && shmemi_net_delivered[segment];
}

/* This PE's segment s when [offset, offset + len) lies in it, else NULL. */
static const shmemi_segment_t *segment_range(int s, size_t offset, size_t len) {
    if (s < 0 || s >= shmemi_state.n_segments)
        return NULL;
    const shmemi_segment_t *seg = &shmemi_state.segments[s];
    if (offset > seg->size || len > seg->size - offset)
        return NULL;
    return seg;
}

shmemi_status_t shmemi_deliver_put(int s, size_t offset, const void *source, size_t len) {
    const shmemi_segment_t *seg = segment_range(s, offset, len);
    if (!seg)
        return SHMEMI_ERR_INVALID;
    if (!shmemi_segment_host(seg))
        return seg->ops->put(NULL, s, offset, source, len, shmemi_state.my_pe);
    shmemi_deliver_host_settle();
    shmemi_deliver_host_copy(seg->local_base + offset, source, len);
    /* What follows (a signal, the acknowledgement that quiet waits for) is ordered after it. */
    shmemi_full_fence();
    return SHMEMI_OK;
}

void shmemi_deliver_host_copy(void *dest, const void *source, size_t len) {
    if (len == 8 && ((uintptr_t)dest & 7) == 0) {
        uint64_t v;
        memcpy(&v, source, 8);
        __atomic_store_n((uint64_t *)dest, v, __ATOMIC_RELAXED);
    } else if (len == 4 && ((uintptr_t)dest & 3) == 0) {
        uint32_t v;
        memcpy(&v, source, 4);
        __atomic_store_n((uint32_t *)dest, v, __ATOMIC_RELAXED);
    } else {
        memcpy(dest, source, len);
    }
}

shmemi_status_t shmemi_deliver_get(int s, size_t offset, void *dest, size_t len) {
    const shmemi_segment_t *seg = segment_range(s, offset, len);
    if (!seg)
        return SHMEMI_ERR_INVALID;
    if (!shmemi_segment_host(seg))
        return seg->ops->get(NULL, dest, s, offset, len, shmemi_state.my_pe);
    shmemi_deliver_host_settle();
    shmemi_full_fence();
    const char *r = seg->local_base + offset;
    if (len == 8 && ((uintptr_t)r & 7) == 0) {
        uint64_t v = __atomic_load_n((const uint64_t *)r, __ATOMIC_RELAXED);
        memcpy(dest, &v, 8);
    } else if (len == 4 && ((uintptr_t)r & 3) == 0) {
        uint32_t v = __atomic_load_n((const uint32_t *)r, __ATOMIC_RELAXED);
        memcpy(dest, &v, 4);
    } else {
        memcpy(dest, r, len);
    }
    return SHMEMI_OK;
}

shmemi_status_t shmemi_deliver_amo(int s, size_t offset, shmemi_amo_op_t op, uint64_t operand,
                                   uint64_t compare, size_t size, uint64_t *fetch_p) {
    if (size != 4 && size != 8)
        return SHMEMI_ERR_UNSUPPORTED;
    const shmemi_segment_t *seg = segment_range(s, offset, size);
    if (!seg || offset % size != 0)
        return SHMEMI_ERR_INVALID;
    if (!shmemi_segment_host(seg))
        return seg->ops->amo(NULL, op, s, offset, fetch_p, operand, compare, size,
                             shmemi_state.my_pe);
    shmemi_deliver_host_settle();
    /* A full fence on each side: the AMO is ordered after the operations applied before it (the
     * payload of a put-with-signal) and before the acknowledgement that follows it. The AMO itself
     * is acquire-release as well, so that race detectors see that order, which they do not for a
     * fence before a relaxed AMO. */
    shmemi_full_fence();
    char *p = seg->local_base + offset;
    uint64_t old = size == 4 ? shmemi_cpu_amo_acq_rel32(op, (uint32_t *)p, (uint32_t)operand,
                                                        (uint32_t)compare)
                             : shmemi_cpu_amo_acq_rel64(op, (uint64_t *)p, operand, compare);
    shmemi_full_fence();
    if (fetch_p)
        *fetch_p = old;
    return SHMEMI_OK;
}

/* ---- puts that run while the network is received -------------------------------------------- */

/* The pinned buffers: one allocation of DELIVER_BUFFERS pieces of DELIVER_BUFFER_SIZE bytes (the
 * proxy joins device puts into operations of at most that many bytes), taken and returned through
 * a stack of free pieces: 8 MiB, about 2 ms of what TCP carries here. Made only where some
 * delivered segment is GPU memory. */
#define DELIVER_BUFFER_SIZE ((size_t)SHMEMI_PROXY_JOIN_MAX)
#define DELIVER_BUFFERS 16

static pthread_mutex_t buffer_lock = PTHREAD_MUTEX_INITIALIZER;
static char *buffer_block;
static char *buffer_free[DELIVER_BUFFERS];
static int buffer_free_count;
/* The mapping transport of the delivered segment in GPU memory (the heap), which runs the started
 * puts (NULL: none). Set by shmemi_deliver_init, before the threads that deliver start. */
static const shmemi_transport_ops_t *gpu_ops;

void shmemi_deliver_init(void) {
    for (int s = 0; s < shmemi_state.n_segments; s++)
        if (shmemi_net_delivered[s] && !shmemi_segment_host(&shmemi_state.segments[s]))
            gpu_ops = shmemi_state.segments[s].ops;
    if (!gpu_ops || buffer_block)
        return;
    /* Without it every payload is the plug-in's own memory, which works as well, staged. */
    buffer_block = shmemi_host_shared_alloc(DELIVER_BUFFERS * DELIVER_BUFFER_SIZE);
    if (!buffer_block)
        return;
    for (int i = 0; i < DELIVER_BUFFERS; i++)
        buffer_free[i] = buffer_block + (size_t)i * DELIVER_BUFFER_SIZE;
    buffer_free_count = DELIVER_BUFFERS;
}

void shmemi_deliver_finalize(void) {
    shmemi_host_shared_free(buffer_block);
    buffer_block = NULL;
    buffer_free_count = 0;
    gpu_ops = NULL;
}

void *shmemi_deliver_buffer(int s, size_t len) {
    const shmemi_segment_t *seg = segment_range(s, 0, len);
    if (!buffer_block || !seg || shmemi_segment_host(seg) || len > DELIVER_BUFFER_SIZE)
        return NULL;
    char *b = NULL;
    pthread_mutex_lock(&buffer_lock);
    if (buffer_free_count > 0)
        b = buffer_free[--buffer_free_count];
    pthread_mutex_unlock(&buffer_lock);
    return b;
}

void shmemi_deliver_buffer_free(void *buffer) {
    if (!buffer)
        return;
    pthread_mutex_lock(&buffer_lock);
    buffer_free[buffer_free_count++] = buffer;
    pthread_mutex_unlock(&buffer_lock);
}

shmemi_status_t shmemi_deliver_put_start(int s, size_t offset, const void *source, size_t len) {
    const shmemi_segment_t *seg = segment_range(s, offset, len);
    if (!seg)
        return SHMEMI_ERR_INVALID;
    if (shmemi_segment_host(seg))
        return shmemi_deliver_host_start(s, offset, source, len);
    return seg->ops->put_nbi(NULL, s, offset, source, len, shmemi_state.my_pe);
}

int shmemi_deliver_test(void) {
    int host = shmemi_deliver_host_test();
    if (host <= 0)
        return host;
    return gpu_ops ? gpu_ops->test(NULL) : 1;
}
