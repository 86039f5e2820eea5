/* SPDX-License-Identifier: BSD-3-Clause */
/* Prints where each PE runs and which peers it maps, one line per PE, for a job across several
 * hosts (tests/net/check_hosts_probe.sh checks the lines):
 *   hosts_probe: pe P of N on HOST: ptr Q:map Q:null ...
 * "map" when shmem_ptr(&global, Q) is not NULL (Q's memory is loaded and stored directly), "null"
 * when Q is reached only through the network. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

static long global;

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    char host[256] = {0};
    if (gethostname(host, sizeof(host) - 1) != 0)
        strcpy(host, "(unknown)");
    /* One write per line: the lines of the PEs do not interleave. */
    char line[8192];
    int len = snprintf(line, sizeof(line), "hosts_probe: pe %d of %d on %s: ptr", me, n, host);
    for (int pe = 0; pe < n && len < (int)sizeof(line) - 16; pe++)
        len += snprintf(line + len, sizeof(line) - (size_t)len, " %d:%s", pe,
                        shmem_ptr(&global, pe) ? "map" : "null");
    printf("%s\n", line);
    fflush(stdout);
    shmem_finalize();
    return 0;
}
