/* SPDX-License-Identifier: BSD-3-Clause */
/* The ordering and completion of shmem_quiet (and pe_quiet) on the host, alone in its file so
 * that the litmus harness can link a weakened copy in its place (memory_model/harness/weak/). On
 * the load/store path every put and AMO is performed at return, so quiet is a full fence, after
 * the calling thread's non-temporal stores (BYPASS puts) are drained with sfence; where the heap
 * is GPU memory, the copies of non-blocking host puts into it are waited for; with a network
 * transport, a flush of the context's worker follows. */
#include "core/shmemi.h"
#include "host/rma_internal.h"

void shmemi_quiet_order(const char *call, const struct shmemi_ctx *c) {
    shmemi_nt_drain();
    SHMEMI_THREAD_FENCE(__ATOMIC_SEQ_CST);
    if (!shmemi_transport_local->host_loadable) {
        shmemi_status_t st = shmemi_transport_local->quiet(NULL);
        if (st != SHMEMI_OK)
            shmemi_order_failed(call, shmemi_transport_local, st);
    }
    if (__builtin_expect(shmemi_transport_net != NULL, 0)) {
        shmemi_status_t st = shmemi_transport_net->quiet(shmemi_ctx_tctx(c, shmemi_transport_net));
        if (st != SHMEMI_OK)
            shmemi_order_failed(call, shmemi_transport_net, st);
    }
}
