/* SPDX-License-Identifier: BSD-3-Clause */
/* Routes: the node of every PE, which peers this PE maps, and the network transport for the rest.
 * The one place that decides how a PE is reached; every API family asks it (shmemi_ptr for the
 * load/store path, shmemi_route_transport otherwise). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmemi.h"
#include "env.h"
#include "internal.h"

shmemi_route_t *shmemi_routes;
int shmemi_n_nodes;
/* The PEs this PE maps (its node's, itself included), for the fences of shmemi_net_fence. */
static int *mapped_pes;
static int n_mapped_pes;
int shmemi_route_p2p;
shmemi_transport_ctx_t *shmemi_net_ctx_default;
shmemi_transport_ctx_t *shmemi_net_ctx_tokens;

/* The transport that will serve the peers this PE does not map; set before segments exist. */
static int need_network;
static const shmemi_transport_ops_t *net_ops;
static int net_registered[SHMEMI_MAX_SEGMENTS];

#define NODE_NAME_SIZE 72

/* What every PE tells the others first: its node's name, and the settings every PE must share
 * (shmemi_env_agreed: SHMEM_DISABLE_P2P decides what the rest of shmem_init exchanges, the
 * collective settings how collectives move data), compared here before anything depends on them:
 * PEs that disagree could only hang or mix up data later. */
typedef struct {
    char name[NODE_NAME_SIZE];
    uint64_t agreed[SHMEMI_ENV_N_AGREED];
} node_record_t;

static void node_name(char name[NODE_NAME_SIZE]) {
    memset(name, 0, NODE_NAME_SIZE);
    const char *set = getenv("SHMEM_NODE_NAME");
    if (set && set[0])
        snprintf(name, NODE_NAME_SIZE, "%s", set);
    else if (gethostname(name, NODE_NAME_SIZE - 1) != 0)
        snprintf(name, NODE_NAME_SIZE, "(unknown host)");
}

void shmemi_route_nodes(const char *call) {
    int me = shmemi_state.my_pe, n = shmemi_state.n_pes;
    node_record_t *records = calloc((size_t)n, sizeof(*records));
    shmemi_routes = calloc((size_t)n, sizeof(*shmemi_routes));
    mapped_pes = calloc((size_t)n, sizeof(*mapped_pes));
    if (!records || !shmemi_routes || !mapped_pes)
        shmemi_fatal(call, "out of memory for the routes to %d PEs", n);
    node_record_t mine;
    node_name(mine.name);
    shmemi_env_agreed_words(mine.agreed);
    if (shmemi_bootstrap->allgather(&mine, records, sizeof(mine)) != SHMEMI_OK)
        shmemi_fatal(call, "the bootstrap's exchange of node names failed");
    for (int pe = 0; pe < n; pe++)
        for (int i = 0; i < SHMEMI_ENV_N_AGREED; i++)
            if (records[pe].agreed[i] != mine.agreed[i])
                shmemi_fatal(call,
                             "%s differs between PE %d and this PE (here: '%s'): every PE must "
                             "use the same value",
                             shmemi_env_agreed[i], pe, shmemi_env_get(shmemi_env_agreed[i]));
    /* shmem_init has checked that SHMEM_DISABLE_P2P is a switch (shmemi_env_find_invalid). */
    int disable_p2p = shmemi_env_bool("SHMEM_DISABLE_P2P");
    shmemi_route_p2p = disable_p2p != 1;
    shmemi_n_nodes = 0;
    for (int pe = 0; pe < n; pe++) {
        int node = -1;
        for (int q = 0; q < pe && node < 0; q++)
            if (strcmp(records[q].name, records[pe].name) == 0)
                node = shmemi_routes[q].node;
        shmemi_routes[pe].node = node < 0 ? shmemi_n_nodes++ : node;
    }
    for (int pe = 0; pe < n; pe++) {
        int same_node = shmemi_routes[pe].node == shmemi_routes[me].node;
        shmemi_routes[pe].mapped = pe == me || (same_node && disable_p2p != 1);
        if (shmemi_routes[pe].mapped)
            mapped_pes[n_mapped_pes++] = pe;
    }
    /* The network's atomics need not be atomic with the CPU's (NIC atomics are not): once any PE
     * is reached over the network, every AMO of the job goes through it, also to this node's PEs
     * and to this PE itself (docs/memory_model.md, "Atomicity across paths"). Every PE takes the
     * same decision: a job needs the network when its PEs span nodes or P2P is disabled. */
    int job_network = shmemi_n_nodes > 1 || (disable_p2p == 1 && n > 1);
    for (int pe = 0; pe < n; pe++)
        shmemi_routes[pe].amo_net = (uint8_t)job_network;
    need_network = job_network;
    free(records);
    shmemi_debug_log("routes: %d nodes, this PE on node %d, network %s", shmemi_n_nodes,
                     shmemi_routes[me].node, need_network ? "needed" : "not needed");
}

/* ---- the exchange of blobs of any size ------------------------------------------------------ */

/* Allgathers one blob of any length per PE: the lengths first, then every blob padded to the
 * longest. *all_p holds n_pes slots of *stride_p bytes; lens the true lengths. */
static void allgather_blobs(const char *call, const char *what, const void *blob, size_t len,
                            unsigned char **all_p, size_t *stride_p, size_t *lens) {
    int n = shmemi_state.n_pes;
    uint64_t mine = len, *all_lens = calloc((size_t)n, sizeof(uint64_t));
    if (!all_lens)
        shmemi_fatal(call, "out of memory for the %s of %d PEs", what, n);
    if (shmemi_bootstrap->allgather(&mine, all_lens, sizeof(mine)) != SHMEMI_OK)
        shmemi_fatal(call, "the bootstrap's exchange of %s lengths failed", what);
    size_t stride = 8;
    for (int pe = 0; pe < n; pe++) {
        lens[pe] = (size_t)all_lens[pe];
        if (lens[pe] > stride)
            stride = lens[pe];
    }
    free(all_lens);
    stride = (stride + 7) & ~(size_t)7;
    unsigned char *padded = calloc(1, stride), *all = calloc((size_t)n, stride);
    if (!padded || !all)
        shmemi_fatal(call, "out of memory for the %s of %d PEs (%zu bytes each)", what, n, stride);
    memcpy(padded, blob, len);
    if (shmemi_bootstrap->allgather(padded, all, stride) != SHMEMI_OK)
        shmemi_fatal(call, "the bootstrap's exchange of %s failed", what);
    free(padded);
    *all_p = all;
    *stride_p = stride;
}

/* ---- the progress thread -------------------------------------------------------------------- */

static pthread_t progress_thread;
static int progress_running;
static int progress_stop;
static long progress_interval_us;

/* How long the thread waits for the transport's next event while it serves; the bound on how
 * late it sees progress_stop. */
#define PROGRESS_SERVE_WAIT_US 10000

/* The thread serves the peers only while no thread of the PE progresses the network itself:
 * while the PE is in a library call that progresses (a wait, quiet, a blocking get, a barrier),
 * a second thread on the worker would only contend for its lock and for the processor. So it
 * sleeps one interval at a time while the PE's count of progress passes moves, and once a whole
 * interval went by without one (the PE computes, or waits in something that does not progress
 * the network, such as the bootstrap), it blocks in the transport's event descriptor and
 * answers each request as it arrives, until the PE progresses again. */
static void *progress_main(void *arg) {
    (void)arg;
    struct timespec interval = {.tv_sec = progress_interval_us / 1000000,
                                .tv_nsec = (progress_interval_us % 1000000) * 1000};
    unsigned long seen = __atomic_load_n(&shmemi_transport_pe_progress, __ATOMIC_RELAXED);
    while (!__atomic_load_n(&progress_stop, __ATOMIC_ACQUIRE)) {
        nanosleep(&interval, NULL);
        unsigned long now = __atomic_load_n(&shmemi_transport_pe_progress, __ATOMIC_RELAXED);
        if (now != seen) {
            seen = now;
            continue;
        }
        while (!__atomic_load_n(&progress_stop, __ATOMIC_ACQUIRE) &&
               __atomic_load_n(&shmemi_transport_pe_progress, __ATOMIC_RELAXED) == seen)
            net_ops->wait(PROGRESS_SERVE_WAIT_US, SHMEMI_WAIT_THREAD);
        seen = __atomic_load_n(&shmemi_transport_pe_progress, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void progress_start(const char *call) {
    /* shmem_init has checked both variables (shmemi_env_find_invalid): a switch, and an interval
     * from 1 to 1000000 microseconds. */
    int wanted = shmemi_env_bool("SHMEM_PROGRESS_THREAD");
    const char *text = getenv("SHMEM_PROGRESS_THREAD");
    if (text == NULL || text[0] == '\0')
        wanted = (net_ops->flags & SHMEMI_TRANSPORT_NEEDS_PROGRESS) != 0;
    progress_interval_us = (long)shmemi_env_count("SHMEM_PROGRESS_INTERVAL");
    if (!wanted)
        return;
    progress_stop = 0;
    int rc = pthread_create(&progress_thread, NULL, progress_main, NULL);
    if (rc != 0)
        shmemi_fatal(call, "cannot start the progress thread: %s", strerror(rc));
    /* Named, so that tools (top -H, the tests) can tell it from the program's threads. */
    pthread_setname_np(progress_thread, "shmem-progress");
    progress_running = 1;
}

static void progress_end(void) {
    if (!progress_running)
        return;
    __atomic_store_n(&progress_stop, 1, __ATOMIC_RELEASE);
    pthread_join(progress_thread, NULL);
    progress_running = 0;
}

/* ---- exchanges without a progress thread ---------------------------------------------------- */

static pthread_mutex_t exchange_lock = PTHREAD_MUTEX_INITIALIZER;
static int exchange_depth;
static int exchange_serving;
static int exchange_stop;
static pthread_t exchange_thread;

/* How long the exchange's thread waits for the transport's next event: the bound on how late
 * it sees the end of the exchange. */
#define EXCHANGE_SERVE_WAIT_US 1000

static void *exchange_main(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&exchange_stop, __ATOMIC_ACQUIRE))
        shmemi_transport_net->wait(EXCHANGE_SERVE_WAIT_US, SHMEMI_WAIT_THREAD);
    return NULL;
}

void shmemi_route_exchange_begin(void) {
    const shmemi_transport_ops_t *net = shmemi_transport_net;
    if (net == NULL || progress_running || (net->flags & SHMEMI_TRANSPORT_NEEDS_PROGRESS) == 0)
        return;
    pthread_mutex_lock(&exchange_lock);
    if (exchange_depth++ == 0) {
        __atomic_store_n(&exchange_stop, 0, __ATOMIC_RELEASE);
        exchange_serving = pthread_create(&exchange_thread, NULL, exchange_main, NULL) == 0;
        if (!exchange_serving)
            shmemi_warn("bootstrap",
                        "cannot start a thread to progress the network during an exchange; "
                        "a peer's quiet may wait for it (set SHMEM_PROGRESS_THREAD=1)");
    }
    pthread_mutex_unlock(&exchange_lock);
}

void shmemi_route_exchange_end(void) {
    pthread_mutex_lock(&exchange_lock);
    if (exchange_depth > 0 && --exchange_depth == 0 && exchange_serving) {
        __atomic_store_n(&exchange_stop, 1, __ATOMIC_RELEASE);
        pthread_join(exchange_thread, NULL);
        exchange_serving = 0;
    }
    pthread_mutex_unlock(&exchange_lock);
}

/* ---- the network transport ------------------------------------------------------------------ */

/* The first PE this PE does not map, for messages. */
static int first_unmapped(void) {
    for (int pe = 0; pe < shmemi_state.n_pes; pe++)
        if (!shmemi_routes[pe].mapped)
            return pe;
    return shmemi_state.my_pe;
}

void shmemi_route_network(const char *call) {
    if (!need_network)
        return;
    int n = shmemi_state.n_pes, far = first_unmapped();
    int deliver_all = shmemi_env_bool("SHMEM_NET_DELIVER");
    if (deliver_all < 0)
        shmemi_fatal(call, "SHMEM_NET_DELIVER='%s' is not 0 or 1", getenv("SHMEM_NET_DELIVER"));
    char why[512];
    net_ops = shmemi_transport_plugin_load("ucx", why, sizeof(why));
    if (net_ops == NULL)
        shmemi_fatal(call,
                     "PE %d is on node %d and this PE on node %d (or SHMEM_DISABLE_P2P=1), so "
                     "it needs a network transport, and none is available: %s",
                     far, shmemi_routes[far].node, shmemi_routes[shmemi_state.my_pe].node, why);
    if (net_ops->init() != SHMEMI_OK)
        shmemi_fatal(call, "network transport %s failed to initialize", net_ops->name);

    size_t *lens = calloc((size_t)n, sizeof(size_t));
    const void **blobs = calloc((size_t)n, sizeof(void *));
    if (!lens || !blobs)
        shmemi_fatal(call, "out of memory for the addresses of %d PEs", n);
    const void *blob;
    size_t len, stride;
    unsigned char *all;
    if (net_ops->address_get(&blob, &len) != SHMEMI_OK)
        shmemi_fatal(call, "network transport %s gave no address for this PE", net_ops->name);
    allgather_blobs(call, "network addresses", blob, len, &all, &stride, lens);
    shmemi_debug_log("network transport %s: address %zu bytes, exchanged in slots of %zu",
                     net_ops->name, len, stride);
    for (int pe = 0; pe < n; pe++)
        blobs[pe] = all + (size_t)pe * stride;
    int bad_pe = -1;
    shmemi_status_t peers_st = net_ops->peers_set(blobs, lens, &bad_pe);
    if (peers_st == SHMEMI_ERR_INVALID && bad_pe >= 0)
        shmemi_fatal(call, "the network address from PE %d does not parse (network transport %s)",
                     bad_pe, net_ops->name);
    if (peers_st != SHMEMI_OK)
        shmemi_fatal(call, "network transport %s rejected the peers' addresses (status %d)",
                     net_ops->name, (int)peers_st);
    free(all);

    /* A segment host code cannot load is delivered unless the network registers device memory:
     * peers send their operations on it as messages, and this PE applies them
     * (src/core/deliver.c). */
    for (int s = 0; s < shmemi_state.n_segments; s++) {
        shmemi_segment_t *seg = &shmemi_state.segments[s];
        shmemi_net_delivered[s] =
            (uint8_t)(deliver_all == 1 || (!shmemi_segment_host(seg) &&
                                           !(net_ops->flags & SHMEMI_TRANSPORT_DEVICE_MEMORY)));
    }
    shmemi_deliver_init();
    for (int s = 0; s < shmemi_state.n_segments; s++) {
        shmemi_segment_t *seg = &shmemi_state.segments[s];
        shmemi_debug_log("network transport %s: segment %d (%zu bytes, %s memory) %s",
                         net_ops->name, s, seg->size, shmemi_segment_host(seg) ? "host" : "GPU",
                         shmemi_net_delivered[s] ? "delivered" : "registered");
        shmemi_status_t st = net_ops->mem_register(s, seg->local_base, seg->size, &blob, &len);
        if (st != SHMEMI_OK)
            shmemi_fatal(call,
                         "network transport %s cannot register segment %d (%zu bytes at %p; "
                         "status %d)",
                         net_ops->name, s, seg->size, (void *)seg->local_base, (int)st);
        net_registered[s] = 1;
        allgather_blobs(call, "memory keys", blob, len, &all, &stride, lens);
        shmemi_debug_log("network transport %s: segment %d's key %zu bytes, exchanged in slots "
                         "of %zu",
                         net_ops->name, s, len, stride);
        for (int pe = 0; pe < n; pe++)
            if (pe != shmemi_state.my_pe || shmemi_routes[pe].amo_net)
                if (net_ops->mem_peer(s, pe, all + (size_t)pe * stride, lens[pe]) != SHMEMI_OK)
                    shmemi_fatal(call, "the memory key of segment %d from PE %d does not parse", s,
                                 pe);
        free(all);
    }
    free(lens);
    free(blobs);
    for (int pe = 0; pe < n; pe++)
        if ((!shmemi_routes[pe].mapped || shmemi_routes[pe].amo_net) && !net_ops->can_reach(pe))
            shmemi_fatal(call, "network transport %s cannot reach PE %d (node %d)", net_ops->name,
                         pe, shmemi_routes[pe].node);
    if (net_ops->ctx_create(0, &shmemi_net_ctx_default) != SHMEMI_OK ||
        net_ops->ctx_create(0, &shmemi_net_ctx_tokens) != SHMEMI_OK)
        shmemi_fatal(call,
                     "network transport %s cannot make the default context's or the tokens' state",
                     net_ops->name);
    shmemi_transport_net = net_ops;
    progress_start(call);
    int unmapped = 0;
    for (int pe = 0; pe < n; pe++)
        unmapped += !shmemi_routes[pe].mapped;
    shmemi_debug_log("network transport %s: %d of %d PEs not mapped, progress thread %s",
                     net_ops->name, unmapped, n, progress_running ? "on" : "off");
}

void shmemi_route_finalize(void) {
    if (net_ops) {
        progress_end();
        shmemi_transport_net = NULL;
        net_ops->ctx_destroy(shmemi_net_ctx_tokens);
        shmemi_net_ctx_tokens = NULL;
        net_ops->ctx_destroy(shmemi_net_ctx_default);
        shmemi_net_ctx_default = NULL;
        for (int s = 0; s < SHMEMI_MAX_SEGMENTS; s++)
            if (net_registered[s])
                net_ops->mem_deregister(s);
        memset(net_registered, 0, sizeof(net_registered));
        memset(shmemi_net_delivered, 0, sizeof(shmemi_net_delivered));
        net_ops->finalize();
        net_ops = NULL;
        shmemi_deliver_finalize();
        shmemi_transport_plugins_unload();
    }
    free(shmemi_routes);
    shmemi_routes = NULL;
    free(mapped_pes);
    mapped_pes = NULL;
    n_mapped_pes = 0;
    shmemi_n_nodes = 0;
    need_network = 0;
}

/* The network's fence (ucp_worker_fence) orders the transport's operations among themselves. To
 * a PE this PE maps, puts are load/store (or the ipc transport's synchronous copies) while AMOs and
 * signals take the network (amo_net): a put after the fence could land before an AMO issued
 * before it, so the fence completes the context's operations to each such PE. */
shmemi_status_t shmemi_net_fence(shmemi_transport_ctx_t *tctx, int pe) {
    const shmemi_transport_ops_t *net = shmemi_transport_net;
    shmemi_status_t st = net->fence(tctx, pe);
    if (pe >= 0) {
        if (st == SHMEMI_OK && shmemi_routes[pe].mapped && shmemi_routes[pe].amo_net)
            st = net->pe_quiet(tctx, pe);
        return st;
    }
    for (int i = 0; i < n_mapped_pes && st == SHMEMI_OK; i++)
        if (shmemi_routes[mapped_pes[i]].amo_net)
            st = net->pe_quiet(tctx, mapped_pes[i]);
    return st;
}

const shmemi_transport_ops_t *shmemi_route_transport(const char *call, const void *addr, int pe,
                                                     int amo, int *segment_p, size_t *offset_p) {
    size_t offset;
    int s = shmemi_segment_of(addr, &offset);
    if (s < 0)
        shmemi_fatal(call, "address %p is not symmetric (target PE %d)", addr, pe);
    *segment_p = s;
    *offset_p = offset;
    if (amo && shmemi_routes[pe].amo_net)
        return shmemi_transport_net;
    if (shmemi_routes[pe].mapped && !shmemi_state.segments[s].ops->host_loadable)
        return shmemi_state.segments[s].ops;
    if (shmemi_transport_net == NULL)
        shmemi_fatal(call, "PE %d is not reachable: not mapped and no network transport", pe);
    return shmemi_transport_net;
}
