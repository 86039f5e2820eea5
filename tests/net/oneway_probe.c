/* SPDX-License-Identifier: BSD-3-Clause */
/* Linked into libshmem-onewaytest (a copy of the library, tests/net/CMakeLists.txt): drives the
 * network transport's put_signal_oneway on the tokens' context, as the collectives do, from a
 * test program. */
#include <stdint.h>
#include <string.h>

#include "core/shmemi.h"

#define PROBE_EXPORT __attribute__((visibility("default")))

/* Internal-segment memory of size bytes (collective: every PE calls it alike). */
PROBE_EXPORT void *oneway_probe_alloc(size_t size) {
    void *p = shmemi_internal_alloc(size, 64);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

/* Whether pe is reached through the network transport (not mapped here). */
PROBE_EXPORT int oneway_probe_net(int pe) {
    return shmemi_transport_net != NULL && !shmemi_routes[pe].mapped;
}

/* len bytes of src into pe's copy of dest, then add to pe's copy of *signal and add2 to its copy
 * of *signal2 (in the same segment): one one-way message. Returns the transport's status (0:
 * sent). */
PROBE_EXPORT int oneway_probe_send(int pe, void *dest, const void *src, size_t len,
                                   uint64_t *signal, uint64_t add, uint64_t *signal2,
                                   uint64_t add2) {
    int seg, sig_seg, sig2_seg;
    size_t offset, sig_offset, sig2_offset;
    const shmemi_transport_ops_t *ops =
        shmemi_route_transport("oneway_probe", signal, pe, 1, &sig_seg, &sig_offset);
    shmemi_route_transport("oneway_probe", dest, pe, 0, &seg, &offset);
    shmemi_route_transport("oneway_probe", signal2, pe, 1, &sig2_seg, &sig2_offset);
    if (sig2_seg != sig_seg)
        return -1;
    return (int)ops->put_signal_oneway(shmemi_net_ctx_tokens, seg, offset, src, len, sig_seg,
                                       sig_offset, add, sig2_offset, add2, pe);
}

/* A quiet of the tokens' context: returns without waiting for one-way messages. */
PROBE_EXPORT int oneway_probe_quiet(void) {
    return (int)shmemi_transport_net->quiet(shmemi_net_ctx_tokens);
}

/* A step of a library wait: progresses the network (and applies what peers sent). */
PROBE_EXPORT void oneway_probe_progress(void) {
    shmemi_progress();
}
