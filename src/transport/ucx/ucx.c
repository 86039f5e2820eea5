/* SPDX-License-Identifier: BSD-3-Clause */
/* The UCX transport: the process-wide ucp context and default worker, addresses, memory
 * registration, and the plug-in's entry point. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/ucx/ucx.h"
#include "transport/ucx/ucx_config.h"

const shmemi_plugin_host_t *ucx_host;
ucx_state_t ucx;
static shmemi_transport_ops_t ucx_ops;

static void ucx_warn_status(const char *what, ucs_status_t st) {
    ucx_host->warn("ucx", "%s failed: %s", what, ucs_status_string(st));
}

/* Whether UCX's AMOs here are CPU atomics: it was told so (UCX_ATOMIC_MODE=cpu), or the machine
 * has no RDMA device (/sys/class/infiniband, which RoCE devices join too), so that UCX's AMOs go
 * over TCP or shared memory and the target's CPU performs them. UCX 1.13 does not say which
 * atomics an endpoint uses; a NIC's are not atomic with the CPU's. */
static int cpu_atomics(void) {
    const char *mode = getenv("UCX_ATOMIC_MODE");
    if (mode && strcmp(mode, "cpu") == 0)
        return 1;
    DIR *dir = opendir("/sys/class/infiniband");
    if (!dir)
        return 1;
    int devices = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        if (e->d_name[0] != '.')
            devices++;
    closedir(dir);
    return devices == 0;
}

static shmemi_status_t ucx_init(void) {
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) {
        ucx_warn_status("reading the UCX configuration", st);
        return SHMEMI_ERR_IO;
    }
    /* libshmem's own defaults for what the environment leaves unset (ucx_config.c). */
    const ucx_config_default_t *failed = NULL;
    int applied = ucx_config_apply_defaults(config, &failed);
    if (applied < 0)
        ucx_host->warn("ucx",
                       "UCX did not take %s=%s (libshmem's default for it); UCX's own applies",
                       failed->env, failed->value);
    for (int i = 0; i < ucx_config_n_defaults && applied > 0; i++)
        if (getenv(ucx_config_defaults[i].env) == NULL)
            ucx_host->debug_log("ucx: %s=%s (libshmem's default; set the variable to choose)",
                                ucx_config_defaults[i].env, ucx_config_defaults[i].value);
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                      UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
        .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM |
                    UCP_FEATURE_WAKEUP,
        .mt_workers_shared = 1,
        .estimated_num_eps = (size_t)ucx_host->n_pes,
    };
    st = ucp_init(&params, config, &ucx.context);
    ucp_config_release(config);
    if (st != UCS_OK) {
        ucx_warn_status("ucp_init", st);
        return SHMEMI_ERR_IO;
    }
    /* Memory host code cannot load is registered only where this UCX knows a GPU memory type;
     * elsewhere the library has it delivered (ucx_am.c). */
    ucp_context_attr_t cattr = {.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES};
    if (ucp_context_query(ucx.context, &cattr) == UCS_OK &&
        (cattr.memory_types & (UCS_BIT(UCS_MEMORY_TYPE_CUDA) | UCS_BIT(UCS_MEMORY_TYPE_ROCM))) != 0)
        ucx_ops.flags |= SHMEMI_TRANSPORT_DEVICE_MEMORY;
    else
        ucx_ops.flags &= ~SHMEMI_TRANSPORT_DEVICE_MEMORY;
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
    ucx.cpu_atomics = cpu_atomics();
    const char *timeout = ucx_host->env_get("SHMEM_NETWORK_TIMEOUT");
    char *end;
    ucx.timeout = strtod(timeout, &end);
    if (end == timeout || *end || ucx.timeout < 0)
        ucx_host->fatal("shmem_init",
                        "SHMEM_NETWORK_TIMEOUT='%s' is not a number of seconds (0: no limit)",
                        timeout);
    return ucx_am_init();
}

static shmemi_status_t ucx_finalize(void) {
    ucx_am_finalize();
    ucx_ctx_destroy_all();
    for (int s = 0; s < SHMEMI_MAX_SEGMENTS; s++) {
        for (int pe = 0; ucx.seg[s].peer_blob && pe < ucx_host->n_pes; pe++)
            free(ucx.seg[s].peer_blob[pe]);
        free(ucx.seg[s].peer_blob);
        free(ucx.seg[s].peer_blob_len);
        free(ucx.seg[s].peer_delivered);
    }
    free(ucx.peer_any_delivered);
    for (int pe = 0; ucx.peer_address && pe < ucx_host->n_pes; pe++)
        free(ucx.peer_address[pe]);
    free(ucx.peer_address);
    free(ucx.address_blob);
    if (ucx.address)
        ucp_worker_release_address(ucx.worker, ucx.address);
    if (ucx.worker)
        ucp_worker_destroy(ucx.worker);
    if (ucx.context)
        ucp_cleanup(ucx.context);
    ucx_am_blocks_free();
    memset(&ucx, 0, sizeof(ucx));
    return SHMEMI_OK;
}

static int ucx_can_reach(int pe) {
    return ucx.peer_address && pe >= 0 && pe < ucx_host->n_pes && ucx.peer_address[pe] != NULL;
}

/* A new blob: a frame of kind magic around the len bytes at payload; NULL when out of memory. */
static void *frame_make(uint32_t magic, const void *payload, size_t len, size_t *blob_len_p) {
    unsigned char *blob = malloc(sizeof(ucx_frame_t) + len);
    if (!blob)
        return NULL;
    ucx_frame_t f = {.magic = magic, .len = (uint32_t)len, .sum = shmemi_fnv1a(payload, len)};
    memcpy(blob, &f, sizeof(f));
    memcpy(blob + sizeof(f), payload, len);
    *blob_len_p = sizeof(f) + len;
    return blob;
}

int ucx_frame_check(const void *blob, size_t len, uint32_t magic, const void **payload_p,
                    size_t *payload_len_p, const char **why_p) {
    ucx_frame_t f;
    if (blob == NULL || len < sizeof(f)) {
        *why_p = "shorter than its frame";
        return -1;
    }
    memcpy(&f, blob, sizeof(f));
    const unsigned char *payload = (const unsigned char *)blob + sizeof(f);
    if (f.magic != magic)
        *why_p = "not a blob of this kind from libshmem's UCX transport";
    else if (f.len != len - sizeof(f))
        *why_p = "its length is not the one its frame gives";
    else if (f.sum != shmemi_fnv1a(payload, f.len))
        *why_p = "its contents do not match their checksum";
    else {
        *payload_p = payload;
        *payload_len_p = f.len;
        return 0;
    }
    return -1;
}

static shmemi_status_t ucx_address_get(const void **blob_p, size_t *len_p) {
    if (!ucx.address_blob) {
        ucx.address_blob =
            frame_make(UCX_FRAME_ADDRESS, ucx.address, ucx.address_len, &ucx.address_blob_len);
        if (!ucx.address_blob)
            return SHMEMI_ERR_NOMEM;
    }
    *blob_p = ucx.address_blob;
    *len_p = ucx.address_blob_len;
    return SHMEMI_OK;
}

/* Whether PE pe's address, framed in blob, is one to connect to: 0, or -1 with a message naming
 * pe. UCX checks what it can of the address itself (its version and the transports it names). */
static int address_check(int pe, const void *blob, size_t len, const void **address_p,
                         size_t *address_len_p) {
    const char *why;
    if (ucx_frame_check(blob, len, UCX_FRAME_ADDRESS, address_p, address_len_p, &why) != 0) {
        ucx_host->warn("ucx", "the worker address from PE %d (%zu bytes) does not parse: %s", pe,
                       len, why);
        return -1;
    }
    ucp_worker_address_attr_t attr = {.field_mask = UCP_WORKER_ADDRESS_ATTR_FIELD_UID};
    ucs_status_t st = ucp_worker_address_query((ucp_address_t *)*address_p, &attr);
    if (st != UCS_OK) {
        ucx_host->warn("ucx", "the worker address from PE %d (%zu bytes) does not unpack: %s", pe,
                       len, ucs_status_string(st));
        return -1;
    }
    return 0;
}

static shmemi_status_t ucx_peers_set(const void *const *blobs, const size_t *lens, int *bad_pe_p) {
    int n = ucx_host->n_pes;
    ucx.peer_address = calloc((size_t)n, sizeof(*ucx.peer_address));
    if (!ucx.peer_address)
        return SHMEMI_ERR_NOMEM;
    for (int pe = 0; pe < n; pe++) {
        if (lens[pe] == 0)
            continue;
        const void *address;
        size_t address_len;
        if (address_check(pe, blobs[pe], lens[pe], &address, &address_len) != 0) {
            *bad_pe_p = pe;
            return SHMEMI_ERR_INVALID;
        }
        ucx.peer_address[pe] = malloc(address_len);
        if (!ucx.peer_address[pe])
            return SHMEMI_ERR_NOMEM;
        memcpy(ucx.peer_address[pe], address, address_len);
    }
    return SHMEMI_OK;
}

/* A segment's blob, after its frame: its base address on the owner, then the packed rkey. */
int ucx_blob_parse(const void *blob, size_t len, uint64_t *base_p, const void **rkey_p,
                   size_t *rkey_len_p) {
    const void *payload;
    size_t payload_len;
    const char *why;
    if (ucx_frame_check(blob, len, UCX_FRAME_SEGMENT, &payload, &payload_len, &why) != 0 ||
        payload_len <= sizeof(uint64_t))
        return -1;
    memcpy(base_p, payload, sizeof(uint64_t));
    *rkey_p = (const unsigned char *)payload + sizeof(uint64_t);
    *rkey_len_p = payload_len - sizeof(uint64_t);
    return 0;
}

static shmemi_status_t ucx_mem_register(int s, void *base, size_t size, const void **blob_p,
                                        size_t *len_p) {
    if (ucx_host->segment_delivered(s)) {
        uint64_t payload = size;
        ucx.seg[s].blob =
            frame_make(UCX_FRAME_DELIVERED, &payload, sizeof(payload), &ucx.seg[s].blob_len);
        if (!ucx.seg[s].blob)
            return SHMEMI_ERR_NOMEM;
        *blob_p = ucx.seg[s].blob;
        *len_p = ucx.seg[s].blob_len;
        return SHMEMI_OK;
    }
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
    unsigned char *payload = malloc(sizeof(uint64_t) + rkey_len);
    if (!payload)
        return SHMEMI_ERR_NOMEM;
    uint64_t b = (uint64_t)(uintptr_t)base;
    memcpy(payload, &b, sizeof(b));
    memcpy(payload + sizeof(b), ucx.seg[s].rkey_buffer, rkey_len);
    ucx.seg[s].blob =
        frame_make(UCX_FRAME_SEGMENT, payload, sizeof(b) + rkey_len, &ucx.seg[s].blob_len);
    free(payload);
    if (!ucx.seg[s].blob)
        return SHMEMI_ERR_NOMEM;
    *blob_p = ucx.seg[s].blob;
    *len_p = ucx.seg[s].blob_len;
    return SHMEMI_OK;
}

/* Records that pe's copy of segment s is delivered. */
static shmemi_status_t peer_delivered(int s, int pe) {
    int n = ucx_host->n_pes;
    if (!ucx.seg[s].peer_delivered)
        ucx.seg[s].peer_delivered = calloc((size_t)n, 1);
    if (!ucx.peer_any_delivered)
        ucx.peer_any_delivered = calloc((size_t)n, 1);
    if (!ucx.seg[s].peer_delivered || !ucx.peer_any_delivered)
        return SHMEMI_ERR_NOMEM;
    ucx.seg[s].peer_delivered[pe] = 1;
    ucx.peer_any_delivered[pe] = 1;
    return SHMEMI_OK;
}

static shmemi_status_t ucx_mem_peer(int s, int pe, const void *blob, size_t len) {
    uint64_t base;
    const void *rkey;
    size_t rkey_len;
    const void *delivered;
    size_t delivered_len;
    const char *why_not_delivered;
    if (ucx_frame_check(blob, len, UCX_FRAME_DELIVERED, &delivered, &delivered_len,
                        &why_not_delivered) == 0 &&
        delivered_len == sizeof(uint64_t))
        return peer_delivered(s, pe);
    if (ucx_blob_parse(blob, len, &base, &rkey, &rkey_len) != 0) {
        const void *payload;
        size_t payload_len;
        const char *why = "it holds no memory key";
        ucx_frame_check(blob, len, UCX_FRAME_SEGMENT, &payload, &payload_len, &why);
        ucx_host->warn("ucx",
                       "the memory key of segment %d from PE %d (%zu bytes) does not parse: %s", s,
                       pe, len, why);
        return SHMEMI_ERR_INVALID;
    }
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

/* Nothing asks a network transport (delivery asks the GPU heap's mapping transport). */
static int ucx_no_test(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
    return SHMEMI_ERR_UNSUPPORTED;
}

static shmemi_transport_ops_t ucx_ops = {
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
    .put_start = ucx_put_start,
    .get = ucx_get,
    .get_nbi = ucx_get_nbi,
    .amo = ucx_amo,
    .put_signal = ucx_put_signal,
    .put_signal_oneway = ucx_am_put_signal_oneway,
    .fence = ucx_fence,
    .quiet = ucx_quiet,
    .pe_quiet = ucx_pe_quiet,
    .test = ucx_no_test,
    .progress = ucx_progress,
    .wait = ucx_wait,
};

__attribute__((visibility("default"))) const shmemi_transport_ops_t *
shmemi_plugin_ucx(const shmemi_plugin_host_t *host) {
    /* Only the first field of another ABI's host is known: say so on stderr. */
    if (host->abi != SHMEMI_PLUGIN_ABI) {
        fprintf(stderr,
                "libshmem: libshmem-ucx.so has plug-in ABI %d and libshmem.so ABI %d: install "
                "both from the same build\n",
                SHMEMI_PLUGIN_ABI, host->abi);
        return NULL;
    }
    ucx_host = host;
    if (host->shares_processor)
        host->debug_log("ucx: blocking waits yield at once: more PEs of the job on this node than "
                        "processors");
    return &ucx_ops;
}
