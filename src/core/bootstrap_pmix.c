/* SPDX-License-Identifier: BSD-3-Clause */
/* The PMIx bootstrap: the launcher (mpirun, srun --mpi=pmix) runs a PMIx server; each PE is a
 * PMIx client. allgather puts this PE's bytes under a key of its own, fences with data
 * collection and reads every PE's value; barrier is a fence with data collection too.
 *
 * A process that a PE starts inherits the job's PMIX_* variables. Were it to call PMIx_Init, it
 * would join the job again as the PE's rank and break the job's collectives. The PE cannot remove
 * the variables (MPI, in the same process, may still read them), so it leaves a mark instead:
 * SHMEM_PMIX_PE = "<namespace>:<rank>:<pid>". A process that finds its own namespace and rank
 * there under another pid was started by that PE, not by the launcher, and runs as a job of one
 * PE, as a process started by a PE of shmemrun does. */
#include <pmix.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bootstrap_pmix.h"

#define PMIX_PE_MARK "SHMEM_PMIX_PE"

static pmix_proc_t me;
/* One collective at a time: every PE calls them in the same order, and each allgather uses the
 * next key, so concurrent callers would mismatch them. */
static pthread_mutex_t collective_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long allgather_count;

static _Noreturn void pmix_failed(const char *call, pmix_status_t rc) {
    shmemi_fatal("bootstrap", "%s failed: %s (PMIx status %d)", call, PMIx_Error_string(rc),
                 (int)rc);
}

/* The number in a PMIx value of any integer type; -1 when it holds none. */
static long long value_number(const pmix_value_t *v) {
    switch (v->type) {
    case PMIX_INT:
        return v->data.integer;
    case PMIX_UINT:
        return v->data.uint;
    case PMIX_INT16:
        return v->data.int16;
    case PMIX_UINT16:
        return v->data.uint16;
    case PMIX_INT32:
        return v->data.int32;
    case PMIX_UINT32:
        return v->data.uint32;
    case PMIX_INT64:
        return v->data.int64;
    case PMIX_UINT64:
        return (long long)v->data.uint64;
    case PMIX_PROC_RANK:
        return v->data.rank;
    default:
        return -1;
    }
}

static pmix_status_t get_number(const pmix_proc_t *proc, const char *key, long long *out) {
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    if (rc != PMIX_SUCCESS)
        return rc;
    *out = value_number(v);
    PMIX_VALUE_RELEASE(v);
    return *out < 0 ? PMIX_ERR_TYPE_MISMATCH : PMIX_SUCCESS;
}

/* A fence that collects the PEs' data: that also makes it a barrier under every server. Without
 * PMIX_COLLECT_DATA, Slurm's PMIx plug-in (22.05) lets each PE through at once. */
static void fence(void) {
    pmix_info_t info;
    bool flag = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Fence", rc);
}

static shmemi_status_t pmix_barrier(void) {
    pthread_mutex_lock(&collective_lock);
    fence();
    pthread_mutex_unlock(&collective_lock);
    return SHMEMI_OK;
}

static shmemi_status_t pmix_allgather(const void *in, void *out, size_t len) {
    if (len == 0)
        return pmix_barrier();
    pthread_mutex_lock(&collective_lock);
    char key[PMIX_MAX_KEYLEN];
    snprintf(key, sizeof(key), "shmem.ag.%lu", allgather_count++);
    pmix_value_t value;
    pmix_byte_object_t bytes = {.bytes = (char *)in, .size = len};
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo = bytes;
    /* PMIx_Put copies the value; value still points into in, so it is not destructed. */
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    if (rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Commit", rc);
    fence();

    /* Only what the fence collected: a missing value fails at once instead of waiting. */
    pmix_info_t optional;
    bool flag = true;
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &flag, PMIX_BOOL);
    for (int pe = 0; pe < shmemi_state.n_pes; pe++) {
        char *dest = (char *)out + (size_t)pe * len;
        if (pe == (int)me.rank) {
            memmove(dest, in, len);
            continue;
        }
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, me.nspace, (pmix_rank_t)pe);
        pmix_value_t *v = NULL;
        rc = PMIx_Get(&proc, key, &optional, 1, &v);
        if (rc != PMIX_SUCCESS)
            pmix_failed("PMIx_Get of a collective's data", rc);
        if (v->type != PMIX_BYTE_OBJECT || v->data.bo.size != len)
            shmemi_fatal("bootstrap",
                         "PMIx_Get returned %zu bytes of type %d from PE %d for '%s' (expected "
                         "%zu bytes)",
                         v->type == PMIX_BYTE_OBJECT ? v->data.bo.size : (size_t)0, (int)v->type,
                         pe, key, len);
        memcpy(dest, v->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(v);
    }
    PMIX_INFO_DESTRUCT(&optional);
    pthread_mutex_unlock(&collective_lock);
    return SHMEMI_OK;
}

/* Leaves at once after PMIx_Abort: no exit handlers, and no sanitizer's exit either (TSan's waits
 * a second for the other threads). mpirun of Open MPI 4.1.4 (with PMIx 4.2.2) now and then
 * deadlocks in its own PMIx_server_finalize when a process whose PMIx_Fence is unfinished is
 * still there after the job was aborted: a PE that called shmem_global_exit while another of its
 * threads waits in a collective must be gone before the launcher gets to it. */
static _Noreturn void leave_now(int status) {
    syscall(SYS_exit_group, status);
    _exit(status);
}

static shmemi_status_t pmix_global_exit(int status) {
    char msg[64];
    snprintf(msg, sizeof(msg), "shmem_global_exit(%d) on PE %u", status, me.rank);
    /* The launcher ends every process of the job. */
    pmix_status_t rc = PMIx_Abort(status, msg, NULL, 0);
    if (rc != PMIX_SUCCESS)
        shmemi_warn("shmem_global_exit", "PMIx_Abort failed: %s", PMIx_Error_string(rc));
    leave_now(status);
}

static void pmix_abort(int status) {
    char msg[64];
    snprintf(msg, sizeof(msg), "a fatal error on PE %u", me.rank);
    PMIx_Abort(status, msg, NULL, 0);
    leave_now(status);
}

static shmemi_status_t pmix_finalize(void) {
    pthread_mutex_lock(&collective_lock);
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    pthread_mutex_unlock(&collective_lock);
    if (rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Finalize", rc);
    return SHMEMI_OK;
}

static const shmemi_bootstrap_ops_t pmix_ops = {
    .name = "pmix",
    .allgather = pmix_allgather,
    .barrier = pmix_barrier,
    .global_exit = pmix_global_exit,
    .abort = pmix_abort,
    .finalize = pmix_finalize,
};

/* GPU platforms pick a PE's device by its rank on the node. */
static void export_local_rank(void) {
    const char *set = getenv("SHMEM_LOCAL_RANK");
    if (set && set[0])
        return;
    long long local;
    if (get_number(&me, PMIX_LOCAL_RANK, &local) != PMIX_SUCCESS)
        return;
    char text[24];
    snprintf(text, sizeof(text), "%lld", local);
    setenv("SHMEM_LOCAL_RANK", text, 1);
}

/* The PE's node, for the routes: the launcher's host name of the PE (PMIX_HOSTNAME), exported as
 * SHMEM_NODE_NAME unless that is set already (tests set it to make "hosts" on one machine). */
static void export_node_name(void) {
    const char *set = getenv("SHMEM_NODE_NAME");
    if (set && set[0])
        return;
    pmix_value_t *v = NULL;
    if (PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &v) != PMIX_SUCCESS || v == NULL)
        return;
    if (v->type == PMIX_STRING && v->data.string && v->data.string[0])
        setenv("SHMEM_NODE_NAME", v->data.string, 1);
    PMIX_VALUE_RELEASE(v);
}

/* "<PMIX_NAMESPACE>:<PMIX_RANK>:" into buf; 0 when it does not fit. */
static int mark_prefix(char *buf, size_t size) {
    int n = snprintf(buf, size, "%s:%s:", getenv("PMIX_NAMESPACE"), getenv("PMIX_RANK"));
    return n > 0 && (size_t)n < size;
}

/* Nonzero when the PE of this namespace and rank that left the mark is another process. */
static int started_by_pe(void) {
    const char *mark = getenv(PMIX_PE_MARK);
    char prefix[PMIX_MAX_NSLEN + 32];
    if (mark == NULL || !mark_prefix(prefix, sizeof(prefix)) ||
        strncmp(mark, prefix, strlen(prefix)) != 0)
        return 0;
    return atoll(mark + strlen(prefix)) != (long long)getpid();
}

static void leave_mark(void) {
    char prefix[PMIX_MAX_NSLEN + 32], mark[PMIX_MAX_NSLEN + 64];
    if (!mark_prefix(prefix, sizeof(prefix)))
        return;
    snprintf(mark, sizeof(mark), "%s%lld", prefix, (long long)getpid());
    setenv(PMIX_PE_MARK, mark, 1);
}

const shmemi_bootstrap_ops_t *shmemi_bootstrap_pmix_init(int *my_pe_p, int *n_pes_p) {
    if (started_by_pe()) {
        shmemi_debug_log("started by PE %s of PMIx job %s: a job of one PE", getenv("PMIX_RANK"),
                         getenv("PMIX_NAMESPACE"));
        *my_pe_p = 0;
        *n_pes_p = 1;
        return &shmemi_bootstrap_single;
    }
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS)
        shmemi_fatal("shmem_init",
                     "PMIx_Init failed: %s (PMIx status %d); PMIX_NAMESPACE and PMIX_RANK are "
                     "set, but the launcher's PMIx server cannot be reached",
                     PMIx_Error_string(rc), (int)rc);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    long long size;
    rc = get_number(&job, PMIX_JOB_SIZE, &size);
    if (rc != PMIX_SUCCESS)
        pmix_failed("PMIx_Get of PMIX_JOB_SIZE", rc);
    if (size < 1 || size > INT32_MAX || me.rank >= (pmix_rank_t)size)
        shmemi_fatal("shmem_init", "PMIx gave rank %u in a job of %lld processes", me.rank, size);
    leave_mark();
    /* Messages from here on name the PE. */
    shmemi_state.my_pe = (int)me.rank;
    shmemi_state.n_pes = (int)size;
    export_local_rank();
    export_node_name();
    *my_pe_p = (int)me.rank;
    *n_pes_p = (int)size;
    return &pmix_ops;
}
