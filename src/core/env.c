/* Environment variables: the table and their parsing. Self-contained (shmem_info builds it in). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "env.h"

const shmemi_env_var_t shmemi_env_vars[] = {
    {"SHMEM_SYMMETRIC_SIZE", "1G",
     "Size of each PE's symmetric heap, in bytes, with an optional K, M, G or T suffix (powers "
     "of 1024). Reserved sparsely: pages cost memory only once touched."},
    {"SHMEM_DEBUG", "0",
     "1: every call checks its arguments (symmetric addresses, sizes, alignment, that every PE "
     "passed the same size to the allocation routines) and logs debugging messages."},
    {"SHMEM_VERSION", "0", "1: PE 0 prints the library name and version at shmem_init."},
    {"SHMEM_INFO", "0",
     "1: PE 0 prints the library version, platform, transports, heap size and every variable of "
     "this list at shmem_init (the listing of shmem_info)."},
    {"SHMEM_BCAST_ALGORITHM", "binomial",
     "Broadcast algorithm: binomial or linear (docs/collectives.md)."},
    {"SHMEM_BCAST_CHUNK_SIZE", "64K", "Pipelining chunk of the broadcast tree, in bytes."},
    {"SHMEM_COLLECT_ALGORITHM", "auto",
     "collect and fcollect algorithm: auto, linear, ring or recursive_doubling."},
    {"SHMEM_REDUCE_ALGORITHM", "auto",
     "Reduction algorithm: auto, linear, recursive_doubling or rabenseifner."},
    {"SHMEM_REDUCE_LARGE_SIZE", "64K",
     "With auto: reductions of at least this many bytes use Rabenseifner, smaller ones "
     "recursive doubling."},
    {"SHMEM_GPU_DEVICE", "",
     "GPU platforms: the device of this PE. Unset: the PE's rank on its node (SHMEM_LOCAL_RANK, "
     "else OMPI_COMM_WORLD_LOCAL_RANK, else its PE number) modulo the number of visible GPUs."},
    {"SHMEM_LOCAL_RANK", "",
     "GPU platforms: the PE's rank on its node, used to pick its GPU (the PMIx bootstrap sets it "
     "from the launcher's local rank when unset)."},
    {"SHMEM_DEVICE_TIMEOUT_MS", "0",
     "GPU platforms: a device-side wait that lasts longer than this many milliseconds reports "
     "the PE and the call and ends the job; 0 waits forever."},
    {"SHMEM_TRANSPORTS", "",
     "Comma-separated network transports that may load (ucx). Unset: every one found. Peers on "
     "this node use load/store (shm, ipc) whatever this says."},
    {"SHMEM_DISABLE_P2P", "0",
     "1: peers on this node are reached through the network transport too, not by load/store "
     "(for testing the network path on one node)."},
    {"SHMEM_NODE_NAME", "",
     "The name of this PE's node: PEs with the same name share a node. Unset: the launcher's "
     "host name of the PE (PMIx), else the host name."},
    {"SHMEM_PROGRESS_THREAD", "",
     "1: a thread progresses the network transport while the PE computes; 0: only the "
     "library's waits do. Unset: on when the network transport needs the target to act (UCX "
     "over TCP)."},
    {"SHMEM_PROGRESS_INTERVAL", "10",
     "Microseconds the progress thread sleeps between two passes (1 to 1000000)."},
    {"SHMEM_NETWORK_TIMEOUT", "20",
     "Seconds a blocking network operation may wait for its peer before the job ends with a "
     "message naming the peer (a peer that stopped or a network that is down); 0: no limit."},
    {"SHMEM_CC", "cc", "C compiler that oshcc runs."},
    {"SHMEM_CXX", "c++", "C++ compiler that oshc++ runs."},
    {SHMEMI_ENV_JOB_SOCKET, "",
     "Set by shmemrun for each PE: the launcher's rendezvous socket. Unset: the program runs as "
     "a single PE."},
    {SHMEMI_ENV_JOB_SECRET, "", "Set by shmemrun for each PE: the job's random secret."},
    {SHMEMI_ENV_JOB_PE, "", "Set by shmemrun for each PE: its PE number."},
    {SHMEMI_ENV_JOB_N_PES, "", "Set by shmemrun for each PE: the number of PEs of the job."},
    {"SHMEM_PMIX_PE", "",
     "Set by shmem_init in a PE of a PMIx job (<namespace>:<rank>:<pid>), so that processes it "
     "starts are not taken for PEs of the job."},
};
const size_t shmemi_env_n_vars = sizeof(shmemi_env_vars) / sizeof(shmemi_env_vars[0]);

const char *shmemi_env_get(const char *name) {
    const char *value = getenv(name);
    if (value && value[0])
        return value;
    for (size_t i = 0; i < shmemi_env_n_vars; i++)
        if (strcmp(shmemi_env_vars[i].name, name) == 0)
            return shmemi_env_vars[i].default_value;
    return NULL;
}

int shmemi_env_bool(const char *name) {
    const char *value = shmemi_env_get(name);
    static const char *const yes[] = {"1", "y", "yes", "on", "true"};
    static const char *const no[] = {"", "0", "n", "no", "off", "false"};
    if (!value)
        return 0;
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        if (strcasecmp(value, yes[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        if (strcasecmp(value, no[i]) == 0)
            return 0;
    return -1;
}

shmemi_status_t shmemi_env_parse_size(const char *text, size_t *size_p) {
    if (!text || !isdigit((unsigned char)text[0]))
        return SHMEMI_ERR_INVALID;
    errno = 0;
    char *end;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return SHMEMI_ERR_INVALID;
    unsigned shift = 0;
    switch (*end) {
    case '\0':
        break;
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    case 't':
    case 'T':
        shift = 40;
        break;
    default:
        return SHMEMI_ERR_INVALID;
    }
    if (*end && end[1] != '\0')
        return SHMEMI_ERR_INVALID;
    if (value > (SIZE_MAX >> shift))
        return SHMEMI_ERR_INVALID;
    *size_p = (size_t)value << shift;
    return SHMEMI_OK;
}
