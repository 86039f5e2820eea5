/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX transport: the process-wide ucp context and default worker, addresses, memory
 * registration, and the plug-in's entry point. */
#include <stdlib.h>
#include <string.h>

#include "transport/ucx/ucx.h"

const shmemi_plugin_host_t *ucx_host;
ucx_state_t ucx;

static void ucx_warn_status(const char *what, ucs_status_t st) {
    ucx_host->warn("ucx", "%s failed: %s", what, ucs_status_string(st));
}

static shmemi_status_t ucx_init(void) {
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) {
        ucx_warn_status("reading the UCX configuration", st);
        return SHMEMI_ERR_IO;
    }
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                      UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_WAKEUP,
        .mt_workers_shared = 1,
        .estimated_num_eps = (size_t)ucx_host->n_pes,
    };
    st = ucp_init(&params, config, &ucx.context);
    ucp_config_release(config);
    if (st != UCS_OK) {
        ucx_warn_status("ucp_init", st);
        return SHMEMI_ERR_IO;
    }
    /* The default worker is progressed by the progress thread and by every thread's waits. */
    ucp_worker_params_t wparams = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                                   .thread_mode = UCS_THREAD_MODE_MULTI};
    st = ucp_worker_create(ucx.context, &wparams, &ucx.worker);
    if (st == UCS_OK)
        st = ucp_worker_get_address(ucx.worker, &ucx.address, &ucx.address_len);
    if (st == UCS_OK)
        st = ucp_worker_get_efd(ucx.worker, &ucx.efd);
    if (st != UCS_OK) {
        ucx_warn_status("creating the default worker", st);
        return SHMEMI_ERR_IO;
    }
    const char *timeout = ucx_host->env_get("SHMEM_NETWORK_TIMEOUT");
    char *end;
    ucx.timeout = strtod(timeout, &end);
    if (end == timeout || *end || ucx.timeout < 0)
        ucx_host->fatal("shmem_init",
                        "SHMEM_NETWORK_TIMEOUT='%s' is not a number of seconds (0: no limit)",
                        timeout);
    return SHMEMI_OK;
}

static shmemi_status_t ucx_finalize(void) {
    ucx_ctx_destroy_all();
    for (int s = 0; s < SHMEMI_MAX_SEGMENTS; s++) {
        for (int pe = 0; ucx.seg[s].peer_blob && pe < ucx_host->n_pes; pe++)
            free(ucx.seg[s].peer_blob[pe]);
        free(ucx.seg[s].peer_blob);
        free(ucx.seg[s].peer_blob_len);
    }
    for (int pe = 0; ucx.peer_address && pe < ucx_host->n_pes; pe++)
        free(ucx.peer_address[pe]);
    free(ucx.peer_address);
    if (ucx.address)
        ucp_worker_release_address(ucx.worker, ucx.address);
    if (ucx.worker)
        ucp_worker_destroy(ucx.worker);
    if (ucx.context)
        ucp_cleanup(ucx.context);
    memset(&ucx, 0, sizeof(ucx));
    return SHMEMI_OK;
}

static int ucx_can_reach(int pe) {
    return ucx.peer_address && pe >= 0 && pe < ucx_host->n_pes && ucx.peer_address[pe] != NULL;
}

static shmemi_status_t ucx_address_get(const void **blob_p, size_t *len_p) {
    *blob_p = ucx.address;
    *len_p = ucx.address_len;
    return SHMEMI_OK;
}

static shmemi_status_t ucx_peers_set(const void *const *blobs, const size_t *lens) {
    int n = ucx_host->n_pes;
    ucx.peer_address = calloc((size_t)n, sizeof(*ucx.peer_address));
    if (!ucx.peer_address)
        return SHMEMI_ERR_NOMEM;
    for (int pe = 0; pe < n; pe++) {
        if (lens[pe] == 0)
            continue;
        ucx.peer_address[pe] = malloc(lens[pe]);
        if (!ucx.peer_address[pe])
            return SHMEMI_ERR_NOMEM;
        memcpy(ucx.peer_address[pe], blobs[pe], lens[pe]);
    }
    return SHMEMI_OK;
}

/* A segment's blob: its base address on the owner, then the packed rkey. */
int ucx_blob_parse(const void *blob, size_t len, uint64_t *base_p, const void **rkey_p,
                   size_t *rkey_len_p) {
    if (blob == NULL || len <= sizeof(uint64_t))
        return -1;
    memcpy(base_p, blob, sizeof(uint64_t));
    *rkey_p = (const unsigned char *)blob + sizeof(uint64_t);
    *rkey_len_p = len - sizeof(uint64_t);
    return 0;
}

static shmemi_status_t ucx_mem_register(int s, void *base, size_t size, const void **blob_p,
                                        size_t *len_p) {
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = base,
        .length = size,
    };
    ucs_status_t st = ucp_mem_map(ucx.context, &params, &ucx.seg[s].memh);
    size_t rkey_len = 0;
    if (st == UCS_OK)
        st = ucp_rkey_pack(ucx.context, ucx.seg[s].memh, &ucx.seg[s].rkey_buffer, &rkey_len);
    if (st != UCS_OK) {
        ucx_warn_status("registering a segment", st);
        return SHMEMI_ERR_IO;
    }
    ucx.seg[s].blob_len = sizeof(uint64_t) + rkey_len;
    ucx.seg[s].blob = malloc(ucx.seg[s].blob_len);
    if (!ucx.seg[s].blob)
        return SHMEMI_ERR_NOMEM;
    uint64_t b = (uint64_t)(uintptr_t)base;
    memcpy(ucx.seg[s].blob, &b, sizeof(b));
    memcpy((char *)ucx.seg[s].blob + sizeof(b), ucx.seg[s].rkey_buffer, rkey_len);
    *blob_p = ucx.seg[s].blob;
    *len_p = ucx.seg[s].blob_len;
    return SHMEMI_OK;
}

static shmemi_status_t ucx_mem_peer(int s, int pe, const void *blob, size_t len) {
    uint64_t base;
    const void *rkey;
    size_t rkey_len;
    if (ucx_blob_parse(blob, len, &base, &rkey, &rkey_len) != 0)
        return SHMEMI_ERR_INVALID;
    if (!ucx.seg[s].peer_blob) {
        ucx.seg[s].peer_blob = calloc((size_t)ucx_host->n_pes, sizeof(unsigned char *));
        ucx.seg[s].peer_blob_len = calloc((size_t)ucx_host->n_pes, sizeof(size_t));
        if (!ucx.seg[s].peer_blob || !ucx.seg[s].peer_blob_len)
            return SHMEMI_ERR_NOMEM;
    }
    ucx.seg[s].peer_blob[pe] = malloc(len);
    if (!ucx.seg[s].peer_blob[pe])
        return SHMEMI_ERR_NOMEM;
    memcpy(ucx.seg[s].peer_blob[pe], blob, len);
    ucx.seg[s].peer_blob_len[pe] = len;
    return SHMEMI_OK;
}

static shmemi_status_t ucx_mem_deregister(int s) {
    if (ucx.seg[s].rkey_buffer)
        ucp_rkey_buffer_release(ucx.seg[s].rkey_buffer);
    if (ucx.seg[s].memh)
        ucp_mem_unmap(ucx.context, ucx.seg[s].memh);
    free(ucx.seg[s].blob);
    ucx.seg[s].rkey_buffer = NULL;
    ucx.seg[s].memh = NULL;
    ucx.seg[s].blob = NULL;
    return SHMEMI_OK;
}

/* The mapping operations: a network transport maps nothing (the library's stubs are hidden from
 * plug-ins, so these are the plug-in's own). */
static shmemi_status_t ucx_no_segment_create(size_t size, void **base_p,
                                             unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    (void)size, (void)base_p, (void)blob;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t ucx_no_segment_share(void *base, size_t size,
                                            unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE]) {
    (void)base, (void)size, (void)blob;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t ucx_no_segment_attach(int pe,
                                             const unsigned char blob[SHMEMI_SEGMENT_BLOB_SIZE],
                                             size_t size, void **base_p) {
    (void)pe, (void)blob, (void)size, (void)base_p;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t ucx_no_segment_release(void *base, size_t size) {
    (void)base, (void)size;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t ucx_no_local_fill(void *dest, int value, size_t len) {
    (void)dest, (void)value, (void)len;
    return SHMEMI_ERR_UNSUPPORTED;
}
static shmemi_status_t ucx_no_local_copy(void *dest, const void *source, size_t len) {
    (void)dest, (void)source, (void)len;
    return SHMEMI_ERR_UNSUPPORTED;
}

static const shmemi_transport_ops_t ucx_ops = {
    .name = "ucx",
    .flags = SHMEMI_TRANSPORT_NETWORK | SHMEMI_TRANSPORT_NEEDS_PROGRESS,
    .host_loadable = 1,
    .init = ucx_init,
    .finalize = ucx_finalize,
    .segment_create = ucx_no_segment_create,
    .segment_share = ucx_no_segment_share,
    .segment_attach = ucx_no_segment_attach,
    .segment_detach = ucx_no_segment_release,
    .segment_destroy = ucx_no_segment_release,
    .local_fill = ucx_no_local_fill,
    .local_copy = ucx_no_local_copy,
    .can_reach = ucx_can_reach,
    .address_get = ucx_address_get,
    .peers_set = ucx_peers_set,
    .mem_register = ucx_mem_register,
    .mem_peer = ucx_mem_peer,
    .mem_deregister = ucx_mem_deregister,
    .ctx_create = ucx_ctx_create,
    .ctx_destroy = ucx_ctx_destroy,
    .put = ucx_put,
    .put_nbi = ucx_put_nbi,
    .get = ucx_get,
    .get_nbi = ucx_get_nbi,
    .amo = ucx_amo,
    .put_signal = ucx_put_signal,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .progress = ucx_progress,
    .wait = ucx_wait,
};

__attribute__((visibility("default"))) const shmemi_transport_ops_t *
shmemi_plugin_ucx(const shmemi_plugin_host_t *host) {
    if (host->abi != SHMEMI_PLUGIN_ABI)
        return NULL;
    ucx_host = host;
    return &ucx_ops;
}
