/* SPDX-License-Identifier: BSD-3-Clause */
/* Test only (LD_PRELOAD): damages what one PE hands its peers through the network transport, so
 * that the peers receive a worker address or memory key that does not parse (corrupt_blob.sh).
 * It stands in for the plug-in: its dlopen gives the library this object for libshmem-ucx.so, and
 * its shmemi_plugin_ucx returns the real plug-in's ops table with address_get and mem_register
 * wrapped. Set by NET_CORRUPT_BLOB=WHAT:HOW:PE, WHAT address or rkey, HOW flip (one byte of the
 * payload changed) or truncate (the last 8 bytes left out), PE the PE whose blob is damaged. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/shmemi.h"

static void *(*real_dlopen)(const char *, int);
static void *real_plugin;
static shmemi_transport_ops_t wrapped;
static const shmemi_transport_ops_t *real_ops;
static char what[16], how[16];
static int damaged_pe = -1, my_pe = -1;
static unsigned char *copy;

static int is_plugin(const char *file) {
    static const char name[] = "libshmem-ucx.so";
    size_t n = file ? strlen(file) : 0;
    return n >= sizeof(name) - 1 && strcmp(file + n - (sizeof(name) - 1), name) == 0 &&
           (n == sizeof(name) - 1 || file[n - sizeof(name)] == '/');
}

void *dlopen(const char *file, int flags) {
    if (!real_dlopen)
        *(void **)&real_dlopen = dlsym(RTLD_NEXT, "dlopen");
    if (!is_plugin(file) || real_plugin)
        return real_dlopen(file, flags);
    real_plugin = real_dlopen(file, flags);
    if (!real_plugin)
        return NULL;
    Dl_info self;
    if (!dladdr((void *)is_plugin, &self))
        return NULL;
    return real_dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

/* A copy of the blob, damaged as NET_CORRUPT_BLOB says when this PE's blob of kind is damaged. */
static void damage(const char *kind, const void **blob_p, size_t *len_p) {
    if (my_pe != damaged_pe || strcmp(what, kind) != 0 || *len_p < 16)
        return;
    free(copy);
    copy = malloc(*len_p);
    if (!copy)
        abort();
    memcpy(copy, *blob_p, *len_p);
    if (strcmp(how, "flip") == 0)
        copy[*len_p - 9] ^= 0x5a;
    else
        *len_p -= 8;
    *blob_p = copy;
    fprintf(stderr, "corrupt_blob: PE %d: %s damaged (%s)\n", my_pe, kind, how);
}

static shmemi_status_t address_get(const void **blob_p, size_t *len_p) {
    shmemi_status_t st = real_ops->address_get(blob_p, len_p);
    if (st == SHMEMI_OK)
        damage("address", blob_p, len_p);
    return st;
}

static shmemi_status_t mem_register(int segment, void *base, size_t size, const void **blob_p,
                                    size_t *len_p) {
    shmemi_status_t st = real_ops->mem_register(segment, base, size, blob_p, len_p);
    if (st == SHMEMI_OK && segment == 0)
        damage("rkey", blob_p, len_p);
    return st;
}

__attribute__((visibility("default"))) const shmemi_transport_ops_t *
shmemi_plugin_ucx(const shmemi_plugin_host_t *host) {
    const char *spec = getenv("NET_CORRUPT_BLOB");
    if (!real_plugin || !spec ||
        sscanf(spec, "%15[a-z]:%15[a-z]:%d", what, how, &damaged_pe) != 3) {
        fprintf(stderr, "corrupt_blob: NET_CORRUPT_BLOB='%s' is not WHAT:HOW:PE\n",
                spec ? spec : "");
        abort();
    }
    shmemi_plugin_entry_func_t entry;
    *(void **)&entry = dlsym(real_plugin, "shmemi_plugin_ucx");
    real_ops = entry ? entry(host) : NULL;
    if (!real_ops)
        return NULL;
    my_pe = host->my_pe;
    wrapped = *real_ops;
    wrapped.address_get = address_get;
    wrapped.mem_register = mem_register;
    return &wrapped;
}
