/* SPDX-License-Identifier: BSD-3-Clause */
/* Environment variables: the table and their parsing. Self-contained (shmem_info builds it in). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "env.h"

static const char *const bcast_choices[] = {"binomial", "linear", NULL};
static const char *const device_path_choices[] = {"auto", "proxy", NULL};
static const char *const collect_choices[] = {"auto", "linear", "ring", "recursive_doubling", NULL};
static const char *const reduce_choices[] = {"auto", "linear", "recursive_doubling", "rabenseifner",
                                             NULL};
static const char *const bind_choices[] = {"core", "none", NULL};
static const char *const scan_choices[] = {"linear", "recursive_doubling", NULL};
static const char *const hierarchy_choices[] = {"auto", "off", NULL};
static const char *const transport_choices[] = {"ucx", "none", NULL};

const shmemi_env_var_t shmemi_env_vars[] = {
    {"SHMEM_SYMMETRIC_SIZE", "1G",
     "Size of each PE's symmetric heap, in bytes, with an optional K, M, G or T suffix (powers "
     "of 1024), rounded up to a whole page; 0 is an error. Reserved sparsely: pages cost memory "
     "only once touched.",
     SHMEMI_ENV_SIZE, NULL},
    {"SHMEM_DEBUG", "0",
     "1: every call checks its arguments (symmetric addresses, sizes, alignment, that every PE "
     "passed the same size to the allocation routines and the same routine and arguments to "
     "the collectives) and logs debugging messages.",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_VERSION", "0", "1: PE 0 prints the library name and version at shmem_init.",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_INFO", "0",
     "1: PE 0 prints the library version, platform, transports, heap size and every variable of "
     "this list at shmem_init (the listing of shmem_info).",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_HANG_TIMEOUT", "0",
     "Seconds a PE may wait in one wait of the library before the job ends with a report of "
     "where every PE is (by shmemrun, or by the waiting PE under other launchers); 0: off.",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_BIND", "core",
     "How shmemrun binds PEs to processors (shmemrun --bind-to overrides it): core shares the "
     "processors shmemrun may use among the PEs (whole cores, one PE per core or more cores "
     "each; one hardware thread each when PEs outnumber cores; none when they outnumber "
     "processors); none leaves them unbound.",
     SHMEMI_ENV_CHOICE, bind_choices},
    {"SHMEM_BCAST_ALGORITHM", "binomial",
     "Broadcast algorithm: binomial or linear (docs/collectives.md).", SHMEMI_ENV_CHOICE,
     bcast_choices},
    {"SHMEM_BCAST_CHUNK_SIZE", "64K", "Pipelining chunk of the broadcast tree, in bytes.",
     SHMEMI_ENV_SIZE, NULL},
    {"SHMEM_COLLECT_ALGORITHM", "auto",
     "collect and fcollect algorithm: auto, linear, ring or recursive_doubling.", SHMEMI_ENV_CHOICE,
     collect_choices},
    {"SHMEM_REDUCE_ALGORITHM", "auto",
     "Reduction algorithm: auto, linear, recursive_doubling or rabenseifner.", SHMEMI_ENV_CHOICE,
     reduce_choices},
    {"SHMEM_REDUCE_LARGE_SIZE", "64K",
     "With auto: reductions of at least this many bytes use Rabenseifner, smaller ones "
     "recursive doubling (and so do those of up to 64K among PEs each on a node of its own).",
     SHMEMI_ENV_SIZE, NULL},
    {"SHMEM_COLL_HIERARCHY", "auto",
     "auto: barriers, broadcasts and reductions of teams that span nodes work by load/store "
     "inside each node and between one leader per node over the network; off: flat algorithms.",
     SHMEMI_ENV_CHOICE, hierarchy_choices},
    {"SHMEM_SCAN_ALGORITHM", "recursive_doubling",
     "Scan (inscan, exscan) algorithm: linear or recursive_doubling (Hillis-Steele).",
     SHMEMI_ENV_CHOICE, scan_choices},
    {"SHMEM_GPU_DEVICE", "",
     "GPU platforms: the device of this PE. Unset: the PE's rank on its node (SHMEM_LOCAL_RANK, "
     "else OMPI_COMM_WORLD_LOCAL_RANK, else its PE number) modulo the number of visible GPUs.",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_LOCAL_RANK", "",
     "GPU platforms: the PE's rank on its node, used to pick its GPU (the PMIx bootstrap sets it "
     "from the launcher's local rank when unset).",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_DEVICE_TIMEOUT_MS", "0",
     "GPU platforms: a device-side wait that lasts longer than this many milliseconds reports "
     "the PE and the call and ends the job; 0 waits forever.",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_DEVICE_PATH", "auto",
     "GPU platforms: how kernels reach other PEs. auto: load/store to the PEs of the node; proxy: "
     "every other PE through the host proxy (for testing the path kernels take to other nodes).",
     SHMEMI_ENV_CHOICE, device_path_choices},
    {"SHMEM_TRANSPORTS", "",
     "Comma-separated network transports that may load (ucx), or none. Unset: every one found. "
     "Peers on this node use load/store (shm, ipc) whatever this says.",
     SHMEMI_ENV_LIST, transport_choices},
    {"SHMEM_DISABLE_P2P", "0",
     "1: peers on this node are reached through the network transport too, not by load/store "
     "(for testing the network path on one node). Every PE must use the same value.",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_NET_DELIVER", "0",
     "1: the network delivers every segment (operations travel as messages that the target "
     "applies) instead of registering host memory with the NIC; for testing the path GPU heaps "
     "take, and for NICs that cannot register memory. 0: only memory the network cannot "
     "register (a GPU heap) is delivered.",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_NODE_NAME", "",
     "The name of this PE's node: PEs with the same name share a node. Unset: the launcher's "
     "host name of the PE (PMIx), else the host name.",
     SHMEMI_ENV_TEXT, NULL},
    {"SHMEM_PROGRESS_THREAD", "",
     "1: a thread progresses the network transport while the PE computes; 0: only the "
     "library's waits do. Unset: on when the network transport needs the target to act (UCX "
     "over TCP).",
     SHMEMI_ENV_SWITCH, NULL},
    {"SHMEM_PROGRESS_INTERVAL", "1000",
     "Microseconds (1 to 1000000) without a progress pass of the PE itself after which the "
     "progress thread serves the peers; while the PE progresses the network in library calls, "
     "the thread sleeps and looks once per interval.",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_NETWORK_TIMEOUT", "20",
     "Seconds a blocking network operation may wait for its peer before the job ends with a "
     "message naming the peer (a peer that stopped or a network that is down); 0: no limit.",
     SHMEMI_ENV_COUNT, NULL},
    {"SHMEM_CC", "cc", "C compiler that oshcc runs.", SHMEMI_ENV_TEXT, NULL},
    {"SHMEM_CXX", "c++", "C++ compiler that oshc++ runs.", SHMEMI_ENV_TEXT, NULL},
    {SHMEMI_ENV_JOB_SOCKET, "",
     "Set by shmemrun for each PE: the launcher's rendezvous socket. Unset: the program runs as "
     "a single PE.",
     SHMEMI_ENV_TEXT, NULL},
    {SHMEMI_ENV_JOB_SECRET, "", "Set by shmemrun for each PE: the job's random secret.",
     SHMEMI_ENV_TEXT, NULL},
    {SHMEMI_ENV_JOB_PE, "", "Set by shmemrun for each PE: its PE number.", SHMEMI_ENV_COUNT, NULL},
    {SHMEMI_ENV_JOB_N_PES, "", "Set by shmemrun for each PE: the number of PEs of the job.",
     SHMEMI_ENV_COUNT, NULL},
    {SHMEMI_ENV_JOB_BIND, "",
     "Set by shmemrun for each PE: how it bound the PEs to processors (SHMEM_INFO prints it).",
     SHMEMI_ENV_TEXT, NULL},
    {"SHMEM_PMIX_PE", "",
     "Set by shmem_init in a PE of a PMIx job: <namespace>:<rank>:<pid> of the PE, so that "
     "processes it starts know they are not PEs of the job.",
     SHMEMI_ENV_TEXT, NULL},
};
const size_t shmemi_env_n_vars = sizeof(shmemi_env_vars) / sizeof(shmemi_env_vars[0]);

/* The table's entry for name, or NULL. */
static const shmemi_env_var_t *find_var(const char *name) {
    for (size_t i = 0; i < shmemi_env_n_vars; i++)
        if (strcmp(shmemi_env_vars[i].name, name) == 0)
            return &shmemi_env_vars[i];
    return NULL;
}

const char *shmemi_env_get(const char *name) {
    const char *value = getenv(name);
    if (value && value[0])
        return value;
    const shmemi_env_var_t *v = find_var(name);
    return v ? v->default_value : NULL;
}

static const char *const agreed_names[] = {
    "SHMEM_BCAST_ALGORITHM",  "SHMEM_BCAST_CHUNK_SIZE",  "SHMEM_COLLECT_ALGORITHM",
    "SHMEM_REDUCE_ALGORITHM", "SHMEM_REDUCE_LARGE_SIZE", "SHMEM_COLL_HIERARCHY",
    "SHMEM_SCAN_ALGORITHM",   "SHMEM_DISABLE_P2P",
};
_Static_assert(sizeof(agreed_names) / sizeof(agreed_names[0]) == SHMEMI_ENV_N_AGREED,
               "SHMEMI_ENV_N_AGREED (env.h) counts the agreed variables");
const char *const *const shmemi_env_agreed = agreed_names;

void shmemi_env_agreed_words(uint64_t words[SHMEMI_ENV_N_AGREED]) {
    for (int i = 0; i < SHMEMI_ENV_N_AGREED; i++) {
        const shmemi_env_var_t *v = find_var(shmemi_env_agreed[i]);
        const char *value = shmemi_env_get(shmemi_env_agreed[i]);
        if (v && v->kind == SHMEMI_ENV_SIZE)
            words[i] = shmemi_env_size(shmemi_env_agreed[i]);
        else if (v && v->kind == SHMEMI_ENV_SWITCH)
            words[i] = (uint64_t)shmemi_env_bool(shmemi_env_agreed[i]);
        else
            words[i] = value ? shmemi_fnv1a(value, strlen(value)) : 0;
    }
}

int shmemi_env_choice(const char *name) {
    const shmemi_env_var_t *v = find_var(name);
    const char *value = shmemi_env_get(name);
    for (int i = 0; v && v->choices && v->choices[i]; i++)
        if (strcmp(value, v->choices[i]) == 0)
            return i;
    return 0;
}

size_t shmemi_env_size(const char *name) {
    size_t size = 0;
    shmemi_env_parse_size(shmemi_env_get(name), &size);
    return size;
}

unsigned long long shmemi_env_count(const char *name) {
    return strtoull(shmemi_env_get(name), NULL, 10);
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

static int valid_count(const char *text) {
    if (!isdigit((unsigned char)text[0]))
        return 0;
    errno = 0;
    char *end;
    strtoull(text, &end, 10);
    return errno == 0 && *end == '\0';
}

/* The SHMEMI_ENV_COUNT variables whose values must lie in a range. */
typedef struct {
    const char *name;
    unsigned long long min, max;
} count_range_t;
static const count_range_t count_ranges[] = {
    {"SHMEM_PROGRESS_INTERVAL", 1, 1000000},
};

/* NULL when text (a valid count) is a value name accepts, else name's range. */
static const count_range_t *out_of_range(const char *name, const char *text) {
    unsigned long long value = strtoull(text, NULL, 10);
    for (size_t i = 0; i < sizeof(count_ranges) / sizeof(count_ranges[0]); i++)
        if (strcmp(count_ranges[i].name, name) == 0 &&
            (value < count_ranges[i].min || value > count_ranges[i].max))
            return &count_ranges[i];
    return NULL;
}

/* Nonzero when word[0..n) is one of v's choices. */
static int is_choice(const shmemi_env_var_t *v, const char *word, size_t n) {
    for (const char *const *c = v->choices; *c; c++)
        if (strlen(*c) == n && strncmp(word, *c, n) == 0)
            return 1;
    return 0;
}

/* what, followed by v's choices. Checked once, at shmem_init, under its lock: one message buffer
 * suffices. */
static const char *choices_message(const shmemi_env_var_t *v, const char *what) {
    static char message[256];
    size_t used = (size_t)snprintf(message, sizeof(message), "%s", what);
    for (const char *const *c = v->choices; *c && used < sizeof(message); c++)
        used += (size_t)snprintf(message + used, sizeof(message) - used, "%s %s",
                                 c == v->choices ? "" : ",", *c);
    return message;
}

int shmemi_env_find_invalid(const char **why_p) {
    for (size_t i = 0; i < shmemi_env_n_vars; i++) {
        const shmemi_env_var_t *v = &shmemi_env_vars[i];
        const char *value = getenv(v->name);
        size_t size;
        if (!value || !value[0])
            continue;
        switch (v->kind) {
        case SHMEMI_ENV_TEXT:
            break;
        case SHMEMI_ENV_SWITCH:
            if (shmemi_env_bool(v->name) < 0) {
                *why_p = "not a switch (1, y, yes, on, true, 0, n, no, off or false)";
                return (int)i;
            }
            break;
        case SHMEMI_ENV_SIZE:
            if (shmemi_env_parse_size(value, &size) != SHMEMI_OK) {
                *why_p = "not a size (examples: 1048576, 512M, 2G)";
                return (int)i;
            }
            if (size == 0) {
                *why_p = "not a positive size";
                return (int)i;
            }
            break;
        case SHMEMI_ENV_COUNT: {
            if (!valid_count(value)) {
                *why_p = "not a non-negative integer";
                return (int)i;
            }
            const count_range_t *range = out_of_range(v->name, value);
            if (range != NULL) {
                /* Checked once, at shmem_init, under its lock: one message buffer suffices. */
                static char message[64];
                snprintf(message, sizeof(message), "not an integer from %llu to %llu", range->min,
                         range->max);
                *why_p = message;
                return (int)i;
            }
            break;
        }
        case SHMEMI_ENV_CHOICE:
            if (!is_choice(v, value, strlen(value))) {
                *why_p = choices_message(v, "not a known value; valid values:");
                return (int)i;
            }
            break;
        case SHMEMI_ENV_LIST:
            for (const char *p = value;; p++) {
                const char *end = strchr(p, ',');
                size_t len = end ? (size_t)(end - p) : strlen(p);
                if (!is_choice(v, p, len)) {
                    *why_p = choices_message(
                        v, "not a comma-separated list of known values; valid values:");
                    return (int)i;
                }
                if (!end)
                    break;
                p = end;
            }
            break;
        }
    }
    return -1;
}

/* Levenshtein distance between a[0..n) and b, with one row of the table. */
static size_t edit_distance(const char *a, size_t n, const char *b) {
    size_t m = strlen(b), row[64];
    if (m >= sizeof(row) / sizeof(row[0]))
        return SIZE_MAX;
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[m];
}

const char *shmemi_env_closest(const char *name, size_t n) {
    const char *closest = NULL;
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < shmemi_env_n_vars; i++) {
        const char *known = shmemi_env_vars[i].name;
        if (strlen(known) == n && strncmp(known, name, n) == 0)
            return NULL;
        size_t d = edit_distance(name, n, known);
        if (d < best) {
            best = d;
            closest = known;
        }
    }
    return closest;
}
