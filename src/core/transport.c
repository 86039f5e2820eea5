/* SPDX-License-Identifier: BSD-3-Clause */
/* The transport registry, plug-in loading and the stubs that fill unsupported slots of an ops
 * table. */
#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shmemi.h"
#include "env.h"
#include "internal.h"

const shmemi_transport_ops_t *shmemi_transport_local;
const shmemi_transport_ops_t *shmemi_transport_net;

/* Registered built-in transports besides shm (a GPU platform's ipc). */
static const shmemi_transport_ops_t *registered[4];
static int n_registered;

void shmemi_transport_register(const shmemi_transport_ops_t *ops) {
    if (shmemi_state.initialized)
        shmemi_fatal("shmemi_transport_register", "transports register before shmem_init");
    if (n_registered == (int)(sizeof(registered) / sizeof(registered[0])))
        shmemi_fatal("shmemi_transport_register", "too many transports (%s)", ops->name);
    registered[n_registered++] = ops;
}

/* Nonzero when name is in the comma-separated list SHMEM_TRANSPORTS (unset: every transport). */
int shmemi_transport_allowed(const char *name) {
    const char *list = shmemi_env_get("SHMEM_TRANSPORTS");
    if (list == NULL || list[0] == '\0')
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

const shmemi_transport_ops_t *shmemi_heap_transport(void) {
    for (int i = 0; i < n_registered; i++)
        if ((registered[i]->flags & SHMEMI_TRANSPORT_MAPPING) && !registered[i]->host_loadable)
            return registered[i];
    return &shmemi_transport_shm_ops;
}

/* ---- plug-ins ------------------------------------------------------------------------------- */

static const shmemi_plugin_host_t plugin_host_template = {
    .abi = SHMEMI_PLUGIN_ABI,
    .env_get = shmemi_env_get,
    .warn = shmemi_warn,
    .fatal = shmemi_fatal,
    .debug_log = shmemi_debug_log,
    .segment_delivered = shmemi_deliver_segment_delivered,
    .deliver_put = shmemi_deliver_put,
    .deliver_get = shmemi_deliver_get,
    .deliver_amo = shmemi_deliver_amo,
    .deliver_put_start = shmemi_deliver_put_start,
    .deliver_test = shmemi_deliver_test,
    .deliver_buffer = shmemi_deliver_buffer,
    .deliver_buffer_free = shmemi_deliver_buffer_free,
};
static shmemi_plugin_host_t plugin_host;
static volatile int plugin_closing;
unsigned long shmemi_transport_pe_progress;

void shmemi_transport_plugins_closing(void) {
    plugin_closing = 1;
}
static void *plugin_handle;

/* The directory of libshmem.so itself: plug-ins are installed beside it. */
static int library_dir(char *dir, size_t size) {
    Dl_info info;
    if (dladdr((void *)shmemi_transport_register, &info) == 0 || info.dli_fname == NULL)
        return -1;
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash == NULL || (size_t)(slash - info.dli_fname) >= size)
        return -1;
    memcpy(dir, info.dli_fname, (size_t)(slash - info.dli_fname));
    dir[slash - info.dli_fname] = '\0';
    return 0;
}

/* Whether more PEs of the job share this PE's node than it has processors online (from the
 * routes, which name each PE's node also where SHMEM_DISABLE_P2P=1 maps none of them). */
static int node_oversubscribed(void) {
    int me = shmemi_state.my_pe, node_pes = 0;
    for (int pe = 0; pe < shmemi_state.n_pes; pe++)
        node_pes += shmemi_routes[pe].node == shmemi_routes[me].node;
    long cores = shmemi_cores();
    return cores > 0 && node_pes > cores;
}

const shmemi_transport_ops_t *shmemi_transport_plugin_load(const char *name, char *why,
                                                           size_t why_size) {
    char file[64], path[PATH_MAX], dir[PATH_MAX], entry[64];
    snprintf(file, sizeof(file), "libshmem-%s.so", name);
    snprintf(entry, sizeof(entry), "shmemi_plugin_%s", name);
    if (!shmemi_transport_allowed(name)) {
        snprintf(why, why_size, "transport %s is not in SHMEM_TRANSPORTS='%s'", name,
                 shmemi_env_get("SHMEM_TRANSPORTS"));
        return NULL;
    }
    void *handle = NULL;
    const char *err = NULL;
    if (library_dir(dir, sizeof(dir)) == 0 &&
        (size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) < sizeof(path))
        handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        err = dlerror();
        handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *err2 = dlerror();
        snprintf(why, why_size, "cannot load %s: %s", file, err2 ? err2 : err ? err : "not found");
        return NULL;
    }
    shmemi_plugin_entry_func_t fn;
    *(void **)&fn = dlsym(handle, entry);
    if (fn == NULL) {
        snprintf(why, why_size, "%s has no symbol %s", file, entry);
        dlclose(handle);
        return NULL;
    }
    plugin_host = plugin_host_template;
    plugin_host.my_pe = shmemi_state.my_pe;
    plugin_host.n_pes = shmemi_state.n_pes;
    plugin_host.closing = &plugin_closing;
    plugin_host.pe_progress = &shmemi_transport_pe_progress;
    plugin_host.shares_processor = node_oversubscribed();
    plugin_closing = 0;
    const shmemi_transport_ops_t *ops = fn(&plugin_host);
    if (ops == NULL) {
        snprintf(why, why_size, "transport %s cannot run here (see the message above)", name);
        dlclose(handle);
        return NULL;
    }
    shmemi_transport_check(ops);
    plugin_handle = handle;
    return ops;
}

void shmemi_transport_plugins_unload(void) {
    if (plugin_handle)
        dlclose(plugin_handle);
    plugin_handle = NULL;
}

/* ---- the no-NULL rule ----------------------------------------------------------------------- */

/* No slot may be NULL: an unsupported operation points to a stub that says so. Checked once at
 * shmem_init, so that a transport that misses a slot fails there, by name, not later in a call. */
#define SLOT(s)                                                                                    \
    { #s, offsetof(shmemi_transport_ops_t, s) }
static const struct {
    const char *name;
    size_t offset;
} slots[] = {
    SLOT(init),
    SLOT(finalize),
    SLOT(segment_create),
    SLOT(segment_share),
    SLOT(segment_attach),
    SLOT(segment_detach),
    SLOT(segment_destroy),
    SLOT(local_fill),
    SLOT(local_copy),
    SLOT(can_reach),
    SLOT(address_get),
    SLOT(peers_set),
    SLOT(mem_register),
    SLOT(mem_peer),
    SLOT(mem_deregister),
    SLOT(ctx_create),
    SLOT(ctx_destroy),
    SLOT(put),
    SLOT(put_nbi),
    SLOT(put_start),
    SLOT(get),
    SLOT(get_nbi),
    SLOT(amo),
    SLOT(put_signal),
    SLOT(put_signal_oneway),
    SLOT(fence),
    SLOT(quiet),
    SLOT(pe_quiet),
    SLOT(test),
    SLOT(progress),
    SLOT(wait),
};
#undef SLOT
_Static_assert(sizeof(shmemi_transport_ops_t) - offsetof(shmemi_transport_ops_t, init) ==
                   sizeof(slots) / sizeof(slots[0]) * sizeof(void *),
               "a slot was added to shmemi_transport_ops_t: list it in slots[]");

void shmemi_transport_check(const shmemi_transport_ops_t *ops) {
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
        void *slot;
        memcpy(&slot, (const char *)ops + slots[i].offset, sizeof(slot));
        if (slot == NULL)
            shmemi_fatal("shmem_init", "transport %s leaves operation %s empty (NULL)",
                         ops->name ? ops->name : "(unnamed)", slots[i].name);
    }
}

/* ---- stubs ---------------------------------------------------------------------------------- */

int shmemi_transport_unsupported_can_reach(int pe) {
    (void)pe;
    return 0;
}

shmemi_status_t shmemi_transport_unsupported_address_get(const void **blob_p, size_t *len_p) {
    (void)blob_p, (void)len_p;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_peers_set(const void *const *blobs, const size_t *lens,
                                                       int *bad_pe_p) {
    (void)blobs, (void)lens, (void)bad_pe_p;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_mem_register(int segment, void *base, size_t size,
                                                          const void **blob_p, size_t *len_p) {
    (void)segment, (void)base, (void)size, (void)blob_p, (void)len_p;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_mem_peer(int segment, int pe, const void *blob,
                                                      size_t len) {
    (void)segment, (void)pe, (void)blob, (void)len;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_mem_deregister(int segment) {
    (void)segment;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_no_ctx_create(long options, shmemi_transport_ctx_t **tctx_p) {
    (void)options;
    *tctx_p = NULL;
    return SHMEMI_OK;
}

void shmemi_transport_no_ctx_destroy(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
}

shmemi_status_t shmemi_transport_unsupported_put(shmemi_transport_ctx_t *tctx, int segment,
                                                 size_t offset, const void *source, size_t len,
                                                 int pe) {
    (void)tctx, (void)segment, (void)offset, (void)source, (void)len, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_put_start(shmemi_transport_ctx_t *tctx, int segment,
                                                       size_t offset, const void *source,
                                                       size_t len, int pe, shmemi_put_done_t done,
                                                       void *arg) {
    (void)tctx, (void)segment, (void)offset, (void)source, (void)len, (void)pe, (void)done,
        (void)arg;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_get(shmemi_transport_ctx_t *tctx, void *dest,
                                                 int segment, size_t offset, size_t len, int pe) {
    (void)tctx, (void)dest, (void)segment, (void)offset, (void)len, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_amo(shmemi_transport_ctx_t *tctx, shmemi_amo_op_t op,
                                                 int segment, size_t offset, uint64_t *fetch_p,
                                                 uint64_t operand, uint64_t compare, size_t size,
                                                 int pe) {
    (void)tctx, (void)op, (void)segment, (void)offset, (void)fetch_p, (void)operand, (void)compare,
        (void)size, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_put_signal(shmemi_transport_ctx_t *tctx, int segment,
                                                        size_t offset, const void *source,
                                                        size_t len, int sig_segment,
                                                        size_t sig_offset, shmemi_amo_op_t sig_op,
                                                        uint64_t signal, int pe) {
    (void)tctx, (void)segment, (void)offset, (void)source, (void)len, (void)sig_segment,
        (void)sig_offset, (void)sig_op, (void)signal, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_put_signal_oneway(
    shmemi_transport_ctx_t *tctx, int segment, size_t offset, const void *source, size_t len,
    int sig_segment, size_t sig_offset, uint64_t add, size_t sig2_offset, uint64_t add2, int pe) {
    (void)tctx, (void)segment, (void)offset, (void)source, (void)len, (void)sig_segment,
        (void)sig_offset, (void)add, (void)sig2_offset, (void)add2, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_fence(shmemi_transport_ctx_t *tctx, int pe) {
    (void)tctx, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

shmemi_status_t shmemi_transport_unsupported_pe_quiet(shmemi_transport_ctx_t *tctx, int pe) {
    (void)tctx, (void)pe;
    return SHMEMI_ERR_UNSUPPORTED;
}

int shmemi_transport_unsupported_test(shmemi_transport_ctx_t *tctx) {
    (void)tctx;
    return SHMEMI_ERR_UNSUPPORTED;
}

int shmemi_transport_no_progress(void) {
    return 0;
}

int shmemi_transport_sleep_wait(long timeout_us, int who) {
    (void)who;
    struct timespec pause = {.tv_sec = timeout_us / 1000000,
                             .tv_nsec = (timeout_us % 1000000) * 1000};
    nanosleep(&pause, NULL);
    return 0;
}
