/* SPDX-License-Identifier: BSD-3-Clause */
/* Bootstraps: through the shmemrun launcher (SHMEM_JOB_SOCKET set), through PMIx (mpirun,
 * srun --mpi=pmix: PMIX_NAMESPACE and PMIX_RANK set, when built with PMIx), or a single PE. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "shmemi.h"
#include "bootstrap_wire.h"
#include "env.h"
#include "internal.h"
#include "watch.h"
#if SHMEM_HAVE_PMIX
#include "bootstrap_pmix.h"
#endif

const shmemi_bootstrap_ops_t *shmemi_bootstrap;

/* The bootstrap in use; shmemi_bootstrap points to watched_ops, which publishes every exchange
 * with every PE (watch.h) around the chosen bootstrap's. */
static const shmemi_bootstrap_ops_t *chosen;

static shmemi_status_t watched_allgather(const void *in, void *out, size_t len) {
    shmemi_watch_exchange_begin();
    shmemi_route_exchange_begin();
    shmemi_status_t status = chosen->allgather(in, out, len);
    shmemi_route_exchange_end();
    shmemi_watch_exchange_end();
    return status;
}
static shmemi_status_t watched_barrier(void) {
    shmemi_watch_exchange_begin();
    shmemi_route_exchange_begin();
    shmemi_status_t status = chosen->barrier();
    shmemi_route_exchange_end();
    shmemi_watch_exchange_end();
    return status;
}
static shmemi_status_t watched_global_exit(int status) {
    return chosen->global_exit(status);
}
static void watched_abort(int status) {
    chosen->abort(status);
}
static shmemi_status_t watched_finalize(void) {
    return chosen->finalize();
}

static shmemi_bootstrap_ops_t watched_ops = {
    .allgather = watched_allgather,
    .barrier = watched_barrier,
    .global_exit = watched_global_exit,
    .abort = watched_abort,
    .finalize = watched_finalize,
};

void shmemi_bootstrap_abort(int status) {
    fflush(NULL);
    if (shmemi_bootstrap)
        shmemi_bootstrap->abort(status);
    _exit(status);
}

/* ---- single PE ------------------------------------------------------------------------------ */

static shmemi_status_t single_allgather(const void *in, void *out, size_t len) {
    memmove(out, in, len);
    return SHMEMI_OK;
}
static shmemi_status_t single_barrier(void) {
    return SHMEMI_OK;
}
static shmemi_status_t single_global_exit(int status) {
    exit(status);
}
static void single_abort(int status) {
    _exit(status);
}
static shmemi_status_t single_finalize(void) {
    return SHMEMI_OK;
}

const shmemi_bootstrap_ops_t shmemi_bootstrap_single = {
    .name = "single",
    .allgather = single_allgather,
    .barrier = single_barrier,
    .global_exit = single_global_exit,
    .abort = single_abort,
    .finalize = single_finalize,
};

/* ---- shmemrun ------------------------------------------------------------------------------- */

static int hub_fd = -1;
/* One collective at a time; send_lock only around writes, so that shmem_global_exit can reach
 * the launcher while another thread waits for a collective to complete. */
static pthread_mutex_t collective_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;

static int hub_send(uint32_t type, int32_t arg, const void *payload, size_t len) {
    pthread_mutex_lock(&send_lock);
    int rc = shmemi_wire_send_msg(hub_fd, type, arg, payload, len);
    pthread_mutex_unlock(&send_lock);
    return rc;
}

/* Losing the launcher means the job is over: fail rather than hang. */
static _Noreturn void hub_lost(const char *what) {
    shmemi_fatal("bootstrap", "lost the connection to shmemrun during %s", what);
}

static shmemi_status_t launcher_allgather(const void *in, void *out, size_t len) {
    pthread_mutex_lock(&collective_lock);
    if (hub_send(SHMEMI_WIRE_ALLGATHER, 0, in, len) != 0)
        hub_lost("a collective");
    shmemi_wire_header_t h;
    size_t expected = len * (size_t)shmemi_state.n_pes;
    if (shmemi_wire_recv_all(hub_fd, &h, sizeof(h)) != 0)
        hub_lost("a collective");
    if (!shmemi_wire_allgather_reply_ok(&h, expected))
        shmemi_fatal("bootstrap", "unexpected reply from shmemrun (type %u, %llu bytes)", h.type,
                     (unsigned long long)h.len);
    if (expected && shmemi_wire_recv_all(hub_fd, out, expected) != 0)
        hub_lost("a collective");
    pthread_mutex_unlock(&collective_lock);
    return SHMEMI_OK;
}

static shmemi_status_t launcher_barrier(void) {
    return launcher_allgather(NULL, NULL, 0);
}

static shmemi_status_t launcher_global_exit(int status) {
    hub_send(SHMEMI_WIRE_GLOBAL_EXIT, status, NULL, 0);
    exit(status);
}

static void launcher_abort(int status) {
    hub_send(SHMEMI_WIRE_GLOBAL_EXIT, status, NULL, 0);
    _exit(status);
}

static shmemi_status_t launcher_finalize(void) {
    pthread_mutex_lock(&collective_lock);
    hub_send(SHMEMI_WIRE_BYE, 0, NULL, 0);
    pthread_mutex_lock(&send_lock);
    close(hub_fd);
    hub_fd = -1;
    pthread_mutex_unlock(&send_lock);
    pthread_mutex_unlock(&collective_lock);
    return SHMEMI_OK;
}

static const shmemi_bootstrap_ops_t launcher_ops = {
    .name = "shmemrun",
    .allgather = launcher_allgather,
    .barrier = launcher_barrier,
    .global_exit = launcher_global_exit,
    .abort = launcher_abort,
    .finalize = launcher_finalize,
};

void shmemi_bootstrap_note(const char *call, int peer) {
    if (shmemi_bootstrap != &watched_ops || chosen != &launcher_ops)
        return;
    size_t len = call ? strnlen(call, SHMEMI_WIRE_CALL_MAX) : 0;
    hub_send(SHMEMI_WIRE_WHERE, peer, call, len);
}

/* A process that a PE forks is not a PE: it must not speak for the PE on its connection. */
static void forget_hub_after_fork(void) {
    if (hub_fd >= 0)
        close(hub_fd);
    hub_fd = -1;
}

/* Overwrites the value of variable name where it lies, so that it leaves the process's
 * /proc/<pid>/environ too (unsetenv only drops the pointer to it), then removes it. */
static void erase_env(const char *name) {
    char *value = getenv(name);
    if (value)
        memset(value, '0', strlen(value));
    unsetenv(name);
}

static void launcher_connect(const char *socket_name, int *my_pe_p, int *n_pes_p) {
    const char *secret = getenv(SHMEMI_ENV_JOB_SECRET);
    const char *pe_text = getenv(SHMEMI_ENV_JOB_PE);
    if (!secret || strlen(secret) != SHMEMI_WIRE_SECRET_LEN || !pe_text)
        shmemi_fatal("shmem_init", "%s is set but %s or %s is missing or malformed",
                     SHMEMI_ENV_JOB_SOCKET, SHMEMI_ENV_JOB_SECRET, SHMEMI_ENV_JOB_PE);
    int pe = atoi(pe_text);
    struct sockaddr_un addr;
    socklen_t addr_len = shmemi_wire_address(socket_name, &addr);
    if (addr_len == 0)
        shmemi_fatal("shmem_init", "malformed %s '%s'", SHMEMI_ENV_JOB_SOCKET, socket_name);
    hub_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (hub_fd < 0 || connect(hub_fd, (struct sockaddr *)&addr, addr_len) != 0)
        shmemi_fatal("shmem_init", "cannot connect to shmemrun at '%s': %s", socket_name,
                     strerror(errno));
    shmemi_wire_header_t h;
    int n_pes = -1;
    if (hub_send(SHMEMI_WIRE_HELLO, pe, secret, SHMEMI_WIRE_SECRET_LEN) != 0 ||
        shmemi_wire_recv_all(hub_fd, &h, sizeof(h)) != 0 ||
        (n_pes = shmemi_wire_hello_reply_n_pes(&h, pe)) < 0)
        shmemi_fatal("shmem_init", "shmemrun refused PE %d (wrong job secret or PE number)", pe);
    *my_pe_p = pe;
    *n_pes_p = n_pes;
    /* Processes this PE starts are not PEs of this job, and the secret is readable by no one. */
    erase_env(SHMEMI_ENV_JOB_SECRET);
    unsetenv(SHMEMI_ENV_JOB_SOCKET);
    unsetenv(SHMEMI_ENV_JOB_PE);
    unsetenv(SHMEMI_ENV_JOB_N_PES);
    static int registered;
    if (!registered)
        pthread_atfork(NULL, NULL, forget_hub_after_fork);
    registered = 1;
}

#if SHMEM_HAVE_PMIX
/* Set by a launcher that runs a PMIx server (mpirun of Open MPI, srun --mpi=pmix). */
static int pmix_environment(void) {
    const char *ns = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");
    return ns && ns[0] && rank && rank[0];
}
#endif

/* Started by another launcher with several ranks but no bootstrap for it: each rank would
 * silently be a job of one PE. Say so instead. */
static void refuse_foreign_launcher(void) {
    static const char *const sizes[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const char *value = getenv(sizes[i]);
        if (value && atoi(value) > 1)
            shmemi_fatal("shmem_init", "started by another launcher (%s=%s)%s", sizes[i], value,
                         SHMEM_HAVE_PMIX
                             ? " without a PMIx environment (PMIX_NAMESPACE, PMIX_RANK): start "
                               "jobs with mpirun of Open MPI 4 or later, srun --mpi=pmix or "
                               "shmemrun -n N, on one node"
                             : ", but this libshmem was built without PMIx, which mpirun and "
                               "srun need: start jobs with shmemrun -n N (or oshrun -np N) on "
                               "one node");
    }
}

static const shmemi_bootstrap_ops_t *choose(int *my_pe_p, int *n_pes_p) {
    const char *socket_name = getenv(SHMEMI_ENV_JOB_SOCKET);
    if (socket_name && socket_name[0]) {
        launcher_connect(socket_name, my_pe_p, n_pes_p);
        return &launcher_ops;
    }
#if SHMEM_HAVE_PMIX
    if (pmix_environment())
        return shmemi_bootstrap_pmix_init(my_pe_p, n_pes_p);
#endif
    refuse_foreign_launcher();
    *my_pe_p = 0;
    *n_pes_p = 1;
    return &shmemi_bootstrap_single;
}

void shmemi_bootstrap_init(int *my_pe_p, int *n_pes_p) {
    chosen = choose(my_pe_p, n_pes_p);
    watched_ops.name = chosen->name;
    shmemi_bootstrap = &watched_ops;
}
