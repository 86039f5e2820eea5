/* SPDX-License-Identifier: BSD-3-Clause */
/* The ordering of shmem_fence on the host, alone in its file so that the litmus harness can link a
 * weakened copy in its place (memory_model/harness/weak/). On the load/store path every put and
 * AMO is performed at return, so fence is a release fence, after the calling thread's
 * non-temporal stores (BYPASS puts) are drained with sfence; with a network transport, the
 * context's fence (ucp_worker_fence) follows, and the completion of what the context issued over
 * the network to the PEs this PE maps (shmemi_net_fence). */
#include "core/shmemi.h"
#include "host/rma_internal.h"

void shmemi_fence_order(const char *call, const struct shmemi_ctx *c) {
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_RELEASE);
    if (__builtin_expect(shmemi_transport_net != NULL, 0)) {
        shmemi_status_t st = shmemi_net_fence(shmemi_ctx_tctx(c, shmemi_transport_net), -1);
        if (st != SHMEMI_OK)
            shmemi_order_failed(call, shmemi_transport_net, st);
    }
}
