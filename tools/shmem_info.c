/* shmem_info: what this libshmem is and how the environment configures it. Runs without a job. */
#include "core/shmemi.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/env.h"

int main(int argc, char **argv) {
    (void)argv;
    if (argc > 1) {
        printf("usage: shmem_info\nPrints the version, platform, transports, heap size and every "
               "environment variable of libshmem with its value and default.\n");
        return 0;
    }
    int major, minor;
    char name[SHMEM_MAX_NAME_LEN];
    shmem_info_get_version(&major, &minor);
    shmem_info_get_name(name);
    printf("library:      %s\n", name);
    printf("version:      %s (OpenSHMEM %d.%d)\n", SHMEM_VERSION_STRING, major, minor);
    printf("platform:     %s\n", SHMEM_PLATFORM_NAME);
    printf("transports:   shm (heap and data segments)%s\n",
           SHMEM_PLATFORM == SHMEM_PLATFORM_CPU ? "" : ", ipc (heap in GPU memory)");
    printf("bootstraps:   shmemrun, single PE\n");
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
    return 0;
}
