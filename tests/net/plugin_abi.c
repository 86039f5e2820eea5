/* SPDX-License-Identifier: BSD-3-Clause */
/* A plug-in handed a library of another ABI refuses it and says why: loads the UCX plug-in given
 * as argument and calls its entry with a host of the next ABI. */
#include <dlfcn.h>
#include <stdio.h>

#include "core/shmemi.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH-OF-libshmem-ucx.so\n", argv[0]);
        return 2;
    }
    void *handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "plugin_abi: %s\n", dlerror());
        return 1;
    }
    shmemi_plugin_entry_func_t entry;
    *(void **)&entry = dlsym(handle, "shmemi_plugin_ucx");
    if (entry == NULL) {
        fprintf(stderr, "plugin_abi: no shmemi_plugin_ucx in %s\n", argv[1]);
        return 1;
    }
    shmemi_plugin_host_t host = {.abi = SHMEMI_PLUGIN_ABI + 1};
    if (entry(&host) != NULL) {
        fprintf(stderr, "plugin_abi: the plug-in accepted ABI %d\n", host.abi);
        return 1;
    }
    dlclose(handle);
    return 0;
}
