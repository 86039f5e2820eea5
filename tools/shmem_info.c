/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_info: what this libshmem is and how the environment configures it. Runs without a job. */
#include "core/shmemi.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"

/* The network transport plug-in beside libshmem.so: "found" and where, or why it cannot load. */
static void print_network(void) {
    Dl_info info;
    char path[PATH_MAX] = "libshmem-ucx.so";
    if (dladdr((void *)shmem_init, &info) != 0 && info.dli_fname && strrchr(info.dli_fname, '/'))
        snprintf(path, sizeof(path), "%.*s/libshmem-ucx.so",
                 (int)(strrchr(info.dli_fname, '/') - info.dli_fname), info.dli_fname);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle) {
        printf("              ucx (PEs on other nodes, and every AMO of a job over several nodes): "
               "%s\n",
               path);
        dlclose(handle);
        /* Which of them a job registers with the network and which it delivers is decided at
         * shmem_init (SHMEM_DEBUG=1 logs it per segment): docs/transports.md. */
        int deliver_all = shmemi_env_bool("SHMEM_NET_DELIVER") == 1;
        printf("              network segments: heap %s, data and internal segments %s\n",
               deliver_all                            ? "delivered (SHMEM_NET_DELIVER=1)"
               : SHMEM_PLATFORM == SHMEM_PLATFORM_CPU ? "registered"
                                                      : "registered where UCX has a GPU memory "
                                                        "type, else delivered",
               deliver_all ? "delivered (SHMEM_NET_DELIVER=1)" : "registered");
    } else {
        const char *err = dlerror();
        printf("              ucx: not available (%s): a job stays on one node\n",
               err ? err : path);
    }
}

int main(int argc, char **argv) {
    if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("shmem_info (libshmem) %s, platform %s, OpenSHMEM %d.%d\n", SHMEM_VERSION_STRING,
               SHMEM_PLATFORM_NAME, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
        return 0;
    }
    if (argc > 1) {
        int help = strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0;
        fprintf(
            help ? stdout : stderr,
            "usage: shmem_info [--version]\nPrints the version, platform, transports, heap size "
            "and every environment variable of libshmem with its value and default.\n");
        return help ? 0 : 2;
    }
    int major, minor;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    printf("library:      %s\n", name);
    printf("version:      %s (OpenSHMEM %d.%d)\n", SHMEM_VERSION_STRING, major, minor);
    printf("platform:     %s\n", SHMEM_PLATFORM_NAME);
    printf("transports:   shm (PEs on this node: heap and data segments)%s\n",
           SHMEM_PLATFORM == SHMEM_PLATFORM_CPU ? "" : ", ipc (heap in GPU memory)");
    print_network();
    printf("bootstraps:   shmemrun, %ssingle PE\n",
           SHMEM_HAVE_PMIX ? "pmix (mpirun, srun --mpi=pmix), " : "");
    const char *size_text = shmemi_env_get("SHMEM_SYMMETRIC_SIZE");
    size_t heap_size;
    if (shmemi_env_parse_size(size_text, &heap_size) == SHMEMI_OK)
        printf("heap size:    %zu bytes per PE (SHMEM_SYMMETRIC_SIZE=%s)\n", heap_size, size_text);
    else
        printf("heap size:    invalid: SHMEM_SYMMETRIC_SIZE='%s' is not a size\n", size_text);
    printf("environment:\n");
    for (size_t i = 0; i < shmemi_env_n_vars; i++) {
        const shmemi_env_var_t *v = &shmemi_env_vars[i];
        const char *value = getenv(v->name);
        printf("  %-22s = %-10s (default: %s)\n", v->name, value ? value : "(unset)",
               v->default_value[0] ? v->default_value : "unset");
        printf("      %s\n", v->description);
    }
    /* Set but unknown to the table: often a misspelling, or a variable of another library. */
    extern char **environ;
    int header = 0;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, "SHMEM_", 6) != 0)
            continue;
        size_t len = strcspn(*e, "=");
        int known = 0;
        for (size_t i = 0; i < shmemi_env_n_vars && !known; i++)
            known = strlen(shmemi_env_vars[i].name) == len &&
                    strncmp(shmemi_env_vars[i].name, *e, len) == 0;
        if (!known) {
            if (!header)
                printf("other SHMEM_ variables set (not read by libshmem):\n");
            header = 1;
            printf("  %s\n", *e);
        }
    }
    return 0;
}
