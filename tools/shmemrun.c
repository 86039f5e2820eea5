/* SPDX-License-Identifier: BSD-3-Clause */
/* shmemrun: starts the PEs of a job on this node and is their bootstrap hub.
 *
 *   shmemrun -n N [--] program [arguments...]      (also -np N)
 *
 * Each PE is a child process that inherits the environment plus the SHMEM_JOB_* variables that
 * lead it to the hub: an abstract-namespace Unix socket (nothing on disk) and a random secret
 * that it must present. The hub answers allgathers and barriers (src/core/bootstrap_wire.h).
 * If a PE dies or exits with a non-zero status, or exits without shmem_finalize, the others get
 * SIGTERM, then SIGKILL two seconds later, and shmemrun exits non-zero naming that PE. After
 * shmem_global_exit(s) the same happens and shmemrun exits with s. PEs die with shmemrun
 * (PR_SET_PDEATHSIG). Every socket is non-blocking: no connection can hold the launcher up, and
 * one that does not present the secret within 5 seconds is dropped. SIGQUIT or SIGUSR1 prints
 * where every PE is; so does SHMEM_HANG_TIMEOUT, before it ends a job whose PE has waited in
 * the library that long. PEs are bound to processors by default (see bind_pes). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/bootstrap_wire.h"
#include "core/cpuset.h"
#include "core/env.h"

#define MAX_PES 4096
#define KILL_GRACE_MS 2000
/* A connection must say HELLO within this time, or it is dropped: nothing a connection does (or
 * does not do) holds up the launcher, whose every socket is non-blocking. */
#define HELLO_TIMEOUT_MS 5000
#define MAX_NEWCOMERS 64

/* One message to send, shared by every PE it goes to (an allgather's answer is the same for all).
 */
typedef struct {
    int refs;
    size_t len;
    char data[];
} blob_t;

typedef struct out_item {
    struct out_item *next;
    blob_t *blob;
    size_t sent;
} out_item_t;

typedef enum { WHERE_PROGRAM, WHERE_WAITING, WHERE_EXCHANGE } where_kind_t;

typedef struct {
    pid_t pid;
    int fd;        /* connection to the PE, -1 before HELLO and after it closes */
    int running;   /* not yet reaped */
    int connected; /* said HELLO */
    int said_bye;  /* finalized */
    int gone;      /* exited, disconnected or finalized: contributes to no more collectives */
    int status;    /* wait status, once reaped */
    int has_pending;
    size_t pending_len;
    char *pending;
    /* The message being received: header, then payload. */
    shmemi_wire_header_t in_header;
    size_t in_header_got;
    char *in_payload;
    size_t in_payload_got;
    out_item_t *out_head, *out_tail;
    /* Where it waits, as it last said (WHERE) or as its messages show. */
    where_kind_t where;
    int where_peer;
    long long where_since_ms;
    char where_call[SHMEMI_WIRE_CALL_MAX + 1];
} pe_t;

/* A connection that has not yet presented the secret. */
typedef struct {
    int fd;
    long long deadline_ms;
    size_t got;
    unsigned char hello[sizeof(shmemi_wire_header_t) + SHMEMI_WIRE_SECRET_LEN];
} newcomer_t;

static pe_t *pes;
static int n_pes;
static newcomer_t newcomers[MAX_NEWCOMERS];
static int n_newcomers;
static char secret[SHMEMI_WIRE_SECRET_LEN + 1];
static int ending;           /* the job is being ended */
static int job_status;       /* what shmemrun exits with */
static int exit_caller = -1; /* PE that called shmem_global_exit: not sent SIGTERM */
static long long kill_deadline_ms;
static long long start_ms;
static long long hang_timeout_ms; /* SHMEM_HANG_TIMEOUT; 0: off */
static const char *hang_timeout_text;

static void usage(FILE *out) {
    fprintf(out,
            "usage: shmemrun -n N [--bind-to core|none] [--] program [arguments...]\n"
            "  -n, -np, --np N   number of PEs to start on this node\n"
            "  --bind-to core    (default; also SHMEM_BIND=core) share the processors that\n"
            "                    shmemrun may use among the PEs: whole cores, one PE per core\n"
            "                    or more cores each; one hardware thread each when there are\n"
            "                    more PEs than cores; no binding when there are more PEs than\n"
            "                    processors. Respects an affinity set by taskset or a cgroup.\n"
            "  --bind-to none    (also SHMEM_BIND=none) leave the PEs where the system puts them\n"
            "  -h, --help        this text\n"
            "Runs N copies of program as the PEs of one OpenSHMEM job on this node.\n"
            "SHMEM_INFO=1 prints how the PEs were bound.\n"
            "Jobs over several nodes start with mpirun (Open MPI) or srun --mpi=pmix.\n"
            "SIGQUIT or SIGUSR1 prints where every PE is.\n");
}

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void random_hex(char *out, size_t n_chars) {
    unsigned char bytes[64];
    size_t n = (n_chars + 1) / 2;
    if (getrandom(bytes, n, 0) != (ssize_t)n) {
        perror("shmemrun: getrandom");
        exit(1);
    }
    for (size_t i = 0; i < n_chars; i++)
        out[i] = "0123456789abcdef"[(bytes[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[n_chars] = '\0';
}

static void signal_running(int sig, int except) {
    for (int i = 0; i < n_pes; i++)
        if (pes[i].running && i != except)
            kill(pes[i].pid, sig);
}

/* Starts ending the job: SIGTERM now (except to a PE that is exiting by itself), SIGKILL to
 * every PE still there after the grace period. The first reason wins. */
static void end_job(int status, int except) {
    if (ending)
        return;
    ending = 1;
    job_status = status;
    exit_caller = except;
    signal_running(SIGTERM, except);
    kill_deadline_ms = now_ms() + KILL_GRACE_MS;
}

static void fail_job(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_job(int status, const char *fmt, ...) {
    if (ending)
        return;
    va_list args;
    va_start(args, fmt);
    char line[768];
    vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    fprintf(stderr, "shmemrun: %s; ending the job\n", line);
    end_job(status, -1);
}

/* The library call PE pe is in, for messages. */
static const char *call_of(int pe) {
    return pes[pe].where_call[0] ? pes[pe].where_call : "a collective call";
}

/* One line per PE: where it is. Printed on SIGQUIT or SIGUSR1, and before a hang ends the job. */
static void print_report(void) {
    long long now = now_ms();
    fprintf(stderr, "shmemrun: where the PEs are, %.1f s after the start:\n",
            (double)(now - start_ms) / 1000);
    for (int i = 0; i < n_pes; i++) {
        pe_t *p = &pes[i];
        double waited = (double)(now - p->where_since_ms) / 1000;
        fprintf(stderr, "shmemrun:   PE %d (pid %d): ", i, (int)p->pid);
        if (!p->running && WIFSIGNALED(p->status))
            fprintf(stderr, "killed by signal %d\n", WTERMSIG(p->status));
        else if (!p->running)
            fprintf(stderr, "exited with status %d%s\n", WEXITSTATUS(p->status),
                    p->said_bye ? " after shmem_finalize" : "");
        else if (p->said_bye)
            fprintf(stderr, "finalized, still running\n");
        else if (!p->connected)
            fprintf(stderr, "running, not yet in shmem_init\n");
        else if (p->fd < 0)
            fprintf(stderr, "running, disconnected from shmemrun\n");
        else if (p->has_pending || p->where == WHERE_EXCHANGE)
            fprintf(stderr, "in %s, waiting for every PE to join it, for %.1f s\n", call_of(i),
                    waited);
        else if (p->where == WHERE_WAITING)
            fprintf(stderr, "in %s, waiting for PE %d, for %.1f s\n", call_of(i), p->where_peer,
                    waited);
        else
            fprintf(stderr, "running the program (in no wait of the library)\n");
    }
    fflush(stderr);
}

static void free_blob(blob_t *b) {
    if (b && --b->refs == 0)
        free(b);
}

static void close_pe(int pe) {
    pe_t *p = &pes[pe];
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
    free(p->pending);
    p->pending = NULL;
    p->has_pending = 0;
    free(p->in_payload);
    p->in_payload = NULL;
    p->in_header_got = p->in_payload_got = 0;
    while (p->out_head) {
        out_item_t *item = p->out_head;
        p->out_head = item->next;
        free_blob(item->blob);
        free(item);
    }
    p->out_tail = NULL;
}

static blob_t *make_message(uint32_t type, int32_t arg, const void *payload, size_t len) {
    shmemi_wire_header_t h = {.magic = SHMEMI_WIRE_MAGIC, .type = type, .len = len, .arg = arg};
    blob_t *b = malloc(sizeof(*b) + sizeof(h) + len);
    if (!b)
        return NULL;
    b->refs = 0;
    b->len = sizeof(h) + len;
    memcpy(b->data, &h, sizeof(h));
    if (len)
        memcpy(b->data + sizeof(h), payload, len);
    return b;
}

/* Writes what the socket takes now; the rest waits for POLLOUT. A PE that does not read its
 * answers holds up only itself. */
static void flush_pe(int pe) {
    pe_t *p = &pes[pe];
    while (p->fd >= 0 && p->out_head) {
        out_item_t *item = p->out_head;
        ssize_t n = send(p->fd, item->blob->data + item->sent, item->blob->len - item->sent,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close_pe(pe);
            p->gone = 1;
            return;
        }
        item->sent += (size_t)n;
        if (item->sent == item->blob->len) {
            p->out_head = item->next;
            if (!p->out_head)
                p->out_tail = NULL;
            free_blob(item->blob);
            free(item);
        }
    }
}

static void queue_blob(int pe, blob_t *b) {
    pe_t *p = &pes[pe];
    out_item_t *item = malloc(sizeof(*item));
    if (!item) {
        fail_job(1, "out of memory for a message to PE %d", pe);
        return;
    }
    *item = (out_item_t){.blob = b};
    b->refs++;
    if (p->out_tail)
        p->out_tail->next = item;
    else
        p->out_head = item;
    p->out_tail = item;
    flush_pe(pe);
}

/* A collective can complete only when every PE contributes; one that is gone never will. */
static void check_collective(void) {
    int waiting = -1, missing = -1;
    for (int i = 0; i < n_pes; i++) {
        if (pes[i].has_pending && waiting < 0)
            waiting = i;
        /* A PE that closed its connection is judged when it exits, by its exit status. */
        int lost = pes[i].said_bye || (pes[i].gone && !pes[i].running);
        if (!pes[i].has_pending && (lost || ending) && missing < 0)
            missing = i;
    }
    if (waiting < 0)
        return;
    if (missing >= 0) {
        fail_job(1, "PE %d waits in %s, which PE %d %s", waiting, call_of(waiting), missing,
                 pes[missing].said_bye ? "left by calling shmem_finalize"
                                       : "will never join (it has exited or disconnected)");
        return;
    }
    for (int i = 0; i < n_pes; i++)
        if (!pes[i].has_pending)
            return;
    size_t len = pes[0].pending_len;
    for (int i = 1; i < n_pes; i++)
        if (pes[i].pending_len != len || (pes[0].where_call[0] && pes[i].where_call[0] &&
                                          strcmp(pes[0].where_call, pes[i].where_call) != 0)) {
            fail_job(1,
                     "PEs are in different collective calls (PE 0 in %s, contributing %zu bytes; "
                     "PE %d in %s, %zu bytes): every PE must make the same collective calls in "
                     "the same order",
                     call_of(0), len, i, call_of(i), pes[i].pending_len);
            return;
        }
    size_t total = len * (size_t)n_pes;
    blob_t *answer = make_message(SHMEMI_WIRE_ALLGATHER, 0, NULL, 0);
    if (answer) {
        blob_t *full = realloc(answer, sizeof(*answer) + answer->len + total);
        if (!full)
            free(answer);
        answer = full;
    }
    if (!answer) {
        fail_job(1, "out of memory for a collective of %zu bytes", total);
        return;
    }
    ((shmemi_wire_header_t *)answer->data)->len = total;
    for (int i = 0; i < n_pes; i++)
        if (len)
            memcpy(answer->data + answer->len + (size_t)i * len, pes[i].pending, len);
    answer->len += total;
    answer->refs = 1;
    for (int i = 0; i < n_pes; i++) {
        free(pes[i].pending);
        pes[i].pending = NULL;
        pes[i].has_pending = 0;
        pes[i].where = WHERE_PROGRAM;
        queue_blob(i, answer);
    }
    free_blob(answer);
}

static void drop_newcomer(int k) {
    close(newcomers[k].fd);
    newcomers[k] = newcomers[--n_newcomers];
}

static void accept_all(int listen_fd) {
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        /* Abstract sockets are visible to every user: only this user's processes get a hearing. */
        struct ucred cred;
        socklen_t cred_len = sizeof(cred);
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 ||
            cred.uid != getuid()) {
            close(fd);
            continue;
        }
        if (n_newcomers == MAX_NEWCOMERS) /* the oldest has had the longest to speak */
            drop_newcomer(0);
        newcomers[n_newcomers++] =
            (newcomer_t){.fd = fd, .deadline_ms = now_ms() + HELLO_TIMEOUT_MS};
    }
}

/* Reads what the newcomer sent; once it is a whole HELLO with the secret, it becomes its PE's
 * connection. Returns 1 when k was removed from the list. */
static int read_newcomer(int k) {
    newcomer_t *c = &newcomers[k];
    ssize_t n = recv(c->fd, c->hello + c->got, sizeof(c->hello) - c->got, MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;
    if (n <= 0) {
        drop_newcomer(k);
        return 1;
    }
    c->got += (size_t)n;
    shmemi_wire_header_t h;
    memcpy(&h, c->hello, sizeof(h));
    if (c->got >= sizeof(h) && !shmemi_wire_hello_header_ok(&h)) {
        drop_newcomer(k);
        return 1;
    }
    if (c->got < sizeof(c->hello))
        return 0;
    int pe = shmemi_wire_hello_accept(&h, (const char *)c->hello + sizeof(h), secret, n_pes);
    if (pe < 0 || pes[pe].fd >= 0 || pes[pe].gone) {
        drop_newcomer(k);
        return 1;
    }
    pes[pe].fd = c->fd;
    pes[pe].connected = 1;
    newcomers[k] = newcomers[--n_newcomers];
    blob_t *welcome = make_message(SHMEMI_WIRE_HELLO, n_pes, NULL, 0);
    if (!welcome) {
        fail_job(1, "out of memory");
        return 1;
    }
    queue_blob(pe, welcome);
    return 1;
}

static void handle_message(int pe, const shmemi_wire_header_t *h, char *payload) {
    pe_t *p = &pes[pe];
    switch (h->type) {
    case SHMEMI_WIRE_ALLGATHER:
        if (p->has_pending) {
            free(payload);
            fail_job(1, "PE %d: broken collective message", pe);
            return;
        }
        p->pending = payload;
        p->pending_len = h->len;
        p->has_pending = 1;
        if (p->where != WHERE_EXCHANGE) {
            p->where = WHERE_EXCHANGE;
            p->where_call[0] = '\0';
            p->where_since_ms = now_ms();
        }
        return;
    case SHMEMI_WIRE_WHERE:
        if (h->len == 0) {
            p->where = WHERE_PROGRAM;
        } else {
            memcpy(p->where_call, payload, h->len);
            p->where_call[h->len] = '\0';
            p->where = h->arg < 0 ? WHERE_EXCHANGE : WHERE_WAITING;
            p->where_peer = h->arg;
            p->where_since_ms = now_ms();
        }
        break;
    case SHMEMI_WIRE_GLOBAL_EXIT:
        end_job(h->arg, pe);
        break;
    case SHMEMI_WIRE_BYE:
        p->said_bye = 1;
        p->gone = 1;
        p->where = WHERE_PROGRAM;
        close_pe(pe);
        break;
    default:
        fail_job(1, "PE %d sent an unknown message (type %u)", pe, h->type);
    }
    free(payload);
}

static void broken_pe(int pe, const char *what) {
    fail_job(1, "PE %d %s", pe, what);
    close_pe(pe);
    pes[pe].gone = 1;
}

/* Reads whatever the PE's connection holds now, message by message, without waiting for the
 * rest of a message that has not fully arrived. */
static void read_pe(int pe) {
    pe_t *p = &pes[pe];
    while (p->fd >= 0) {
        char *dest;
        size_t want;
        if (p->in_header_got < sizeof(p->in_header)) {
            dest = (char *)&p->in_header + p->in_header_got;
            want = sizeof(p->in_header) - p->in_header_got;
        } else {
            dest = p->in_payload + p->in_payload_got;
            want = p->in_header.len - p->in_payload_got;
        }
        ssize_t n = want ? recv(p->fd, dest, want, MSG_DONTWAIT) : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (want && n <= 0) {
            close_pe(pe);
            p->gone = 1;
            return;
        }
        if (p->in_header_got < sizeof(p->in_header)) {
            p->in_header_got += (size_t)n;
            if (p->in_header_got < sizeof(p->in_header))
                continue;
            const shmemi_wire_header_t *h = &p->in_header;
            shmemi_wire_msg_check_t check = shmemi_wire_check_from_pe(h);
            if (check == SHMEMI_WIRE_MSG_MALFORMED) {
                broken_pe(pe, "sent a malformed message");
                return;
            }
            if (check == SHMEMI_WIRE_MSG_UNKNOWN) {
                broken_pe(pe, "sent a message of an unknown type");
                return;
            }
            p->in_payload = h->len ? malloc(h->len) : NULL;
            if (h->len && !p->in_payload) {
                broken_pe(pe, "sent a message too large for this machine's memory");
                return;
            }
        } else {
            p->in_payload_got += (size_t)n;
        }
        if (p->in_payload_got < p->in_header.len)
            continue;
        shmemi_wire_header_t h = p->in_header;
        char *payload = p->in_payload;
        p->in_payload = NULL;
        p->in_header_got = p->in_payload_got = 0;
        handle_message(pe, &h, payload);
    }
}

static void reap(void) {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        int pe = -1;
        for (int i = 0; i < n_pes; i++)
            if (pes[i].pid == pid)
                pe = i;
        if (pe < 0)
            continue;
        pes[pe].running = 0;
        pes[pe].status = status;
        /* Its last messages (BYE, GLOBAL_EXIT) are still in the socket: read them first. */
        read_pe(pe);
        pes[pe].gone = 1;
        if (WIFSIGNALED(status)) {
            int sig = WTERMSIG(status);
            fail_job(128 + sig, "PE %d (pid %d) was killed by signal %d (%s)", pe, (int)pid, sig,
                     strsignal(sig));
        } else if (WEXITSTATUS(status) != 0) {
            fail_job(WEXITSTATUS(status), "PE %d (pid %d) exited with status %d", pe, (int)pid,
                     WEXITSTATUS(status));
        } else if (pes[pe].connected && !pes[pe].said_bye) {
            fail_job(1, "PE %d (pid %d) exited without calling shmem_finalize", pe, (int)pid);
        }
        if (ending && pe == exit_caller && WIFEXITED(status))
            job_status = WEXITSTATUS(status);
        close_pe(pe);
    }
}

/* SHMEM_HANG_TIMEOUT: a PE that has waited in the library this long ends the job, after a report
 * of where every PE is. Returns the milliseconds until the next PE could reach it (-1: none). */
static int check_hang(void) {
    if (hang_timeout_ms <= 0 || ending)
        return -1;
    long long now = now_ms(), next = -1;
    for (int i = 0; i < n_pes; i++) {
        pe_t *p = &pes[i];
        if (!p->running || p->fd < 0 || (p->where == WHERE_PROGRAM && !p->has_pending))
            continue;
        long long left = p->where_since_ms + hang_timeout_ms - now;
        if (left <= 0) {
            fprintf(stderr, "shmemrun: PE %d has waited in %s for %.1f s (SHMEM_HANG_TIMEOUT=%s)\n",
                    i, call_of(i), (double)(now - p->where_since_ms) / 1000, hang_timeout_text);
            print_report();
            fail_job(1, "the job hangs");
            return -1;
        }
        if (next < 0 || left < next)
            next = left;
    }
    return (int)next;
}

static void read_hang_timeout(void) {
    const char *text = getenv("SHMEM_HANG_TIMEOUT");
    if (!text || !text[0])
        return;
    char *end;
    errno = 0;
    double seconds = strtod(text, &end);
    if (errno || *end || !(seconds >= 0) || seconds > 1e7) {
        fprintf(stderr,
                "shmemrun: SHMEM_HANG_TIMEOUT='%s' is not a number of seconds (0 for off)\n", text);
        exit(2);
    }
    hang_timeout_ms = (long long)(seconds * 1000);
    if (seconds > 0 && hang_timeout_ms == 0)
        hang_timeout_ms = 1;
    hang_timeout_text = text;
}

static int parse_count(const char *text) {
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (errno || *end || n < 1 || n > MAX_PES) {
        fprintf(stderr, "shmemrun: '%s' is not a number of PEs (1 to %d)\n", text, MAX_PES);
        exit(2);
    }
    return (int)n;
}

/* ---- binding PEs to processors ------------------------------------------------------------ */

/* A PE that waits for a peer spins on its processor; two PEs of a job on one processor, or a PE
 * that the scheduler moves behind a busy task, turn microsecond waits into scheduler time slices.
 * So, by default, the processors that shmemrun may use (its affinity: taskset, a cgroup cpuset,
 * a batch system's allocation) are shared among the PEs: whole cores in contiguous blocks when
 * there are at least as many cores as PEs (one core each when as many, so that a PE's threads
 * keep the rest of its share), one hardware thread each, cores first, when there are more PEs
 * than cores, and no binding at all when there are more PEs than processors (a fixed placement
 * of several PEs on one processor would only stop the scheduler from spreading them). */

/* The processors of PE pe, or NULL where it is not bound. */
static cpu_set_t *pe_cpus;
/* What was bound, for SHMEM_INFO (SHMEM_JOB_BIND). */
static char bind_summary[2048];

/* A number read from a sysfs file of processor cpu, or -1. */
static long cpu_topology(int cpu, const char *what) {
    char path[128];
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
    FILE *f = fopen(path, "r");
    long value = -1;
    if (f) {
        if (fscanf(f, "%ld", &value) != 1)
            value = -1;
        fclose(f);
    }
    return value;
}

static void append(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *out, size_t size, const char *fmt, ...) {
    size_t used = strlen(out);
    if (used >= size - 1)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(out + used, size - used, fmt, args);
    va_end(args);
}

/* Decides each PE's processors (pe_cpus) for mode "core" or "none", whose source (the option or
 * SHMEM_BIND) the summary names. */
static void bind_pes(const char *mode, const char *source) {
    size_t size = sizeof(bind_summary);
    if (strcmp(mode, "none") == 0) {
        snprintf(bind_summary, size, "none (%s)", source);
        return;
    }
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        snprintf(bind_summary, size, "none (cannot read shmemrun's affinity: %s)", strerror(errno));
        return;
    }
    int n_cpus = CPU_COUNT(&allowed);
    /* The allowed processors grouped by core (package and core id), cores in the order of
     * their first processor. core_of[k] is the core of the k-th allowed processor. */
    int *cpus = calloc((size_t)n_cpus, sizeof(int));
    int *core_of = calloc((size_t)n_cpus, sizeof(int));
    long *core_key = calloc((size_t)n_cpus, sizeof(long));
    pe_cpus = calloc((size_t)n_pes, sizeof(cpu_set_t));
    if (!cpus || !core_of || !core_key || !pe_cpus) {
        perror("shmemrun");
        exit(1);
    }
    int n_cores = 0, k = 0;
    for (int c = 0; c < CPU_SETSIZE && k < n_cpus; c++) {
        if (!CPU_ISSET(c, &allowed))
            continue;
        long package = cpu_topology(c, "physical_package_id"), core = cpu_topology(c, "core_id");
        /* Without a topology, each processor is a core of its own. */
        long key = package < 0 || core < 0 ? -1 - c : (package << 20) | core;
        int found = -1;
        for (int j = 0; j < n_cores && found < 0; j++)
            if (core_key[j] == key)
                found = j;
        if (found < 0) {
            found = n_cores;
            core_key[n_cores++] = key;
        }
        cpus[k] = c;
        core_of[k++] = found;
    }
    if (n_pes > n_cpus) {
        snprintf(bind_summary, size,
                 "none (%d PEs on %d processor%s: more PEs than processors are left to the "
                 "scheduler)",
                 n_pes, n_cpus, n_cpus == 1 ? "" : "s");
        free(pe_cpus);
        pe_cpus = NULL;
    } else if (n_pes <= n_cores) {
        /* PE pe gets cores [pe * n_cores / n_pes, (pe + 1) * n_cores / n_pes). */
        snprintf(bind_summary, size, "core (%s): ", source);
        for (int pe = 0; pe < n_pes; pe++) {
            CPU_ZERO(&pe_cpus[pe]);
            int from = (int)((long)pe * n_cores / n_pes);
            int to = (int)((long)(pe + 1) * n_cores / n_pes);
            for (k = 0; k < n_cpus; k++)
                if (core_of[k] >= from && core_of[k] < to)
                    CPU_SET(cpus[k], &pe_cpus[pe]);
        }
    } else {
        /* First hardware thread of every core, then the second of every core, and so on. */
        snprintf(bind_summary, size,
                 "hwthread (%s; %d PEs, %d core%s: one hardware thread each): ", source, n_pes,
                 n_cores, n_cores == 1 ? "" : "s");
        int *taken = calloc((size_t)n_cpus, sizeof(int));
        if (!taken) {
            perror("shmemrun");
            exit(1);
        }
        int pe = 0;
        while (pe < n_pes)
            for (int core = 0; core < n_cores && pe < n_pes; core++)
                for (k = 0; k < n_cpus; k++)
                    if (core_of[k] == core && !taken[k]) {
                        taken[k] = 1;
                        CPU_ZERO(&pe_cpus[pe]);
                        CPU_SET(cpus[k], &pe_cpus[pe++]);
                        break;
                    }
        free(taken);
    }
    if (pe_cpus)
        for (int pe = 0; pe < n_pes; pe++) {
            append(bind_summary, size, "%sPE %d on CPU ", pe ? ", " : "", pe);
            shmemi_format_cpus(&pe_cpus[pe], bind_summary, size);
        }
    if (strlen(bind_summary) == size - 1)
        memcpy(bind_summary + size - 4, "...", 4);
    free(cpus);
    free(core_of);
    free(core_key);
}

static void start_pe(int pe, char **argv, const char *socket_name, const sigset_t *old_mask) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        perror("shmemrun: fork");
        fail_job(1, "cannot start PE %d", pe);
        return;
    }
    if (pid > 0) {
        pes[pe].pid = pid;
        pes[pe].running = 1;
        return;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    char number[16];
    snprintf(number, sizeof(number), "%d", pe);
    setenv(SHMEMI_ENV_JOB_PE, number, 1);
    snprintf(number, sizeof(number), "%d", n_pes);
    setenv(SHMEMI_ENV_JOB_N_PES, number, 1);
    setenv(SHMEMI_ENV_JOB_SOCKET, socket_name, 1);
    setenv(SHMEMI_ENV_JOB_SECRET, secret, 1);
    setenv(SHMEMI_ENV_JOB_BIND, bind_summary, 1);
    if (pe_cpus && sched_setaffinity(0, sizeof(pe_cpus[pe]), &pe_cpus[pe]) != 0)
        fprintf(stderr, "shmemrun: PE %d: cannot bind to its processors (%s); it runs unbound\n",
                pe, strerror(errno));
    sigprocmask(SIG_SETMASK, old_mask, NULL);
    execvp(argv[0], argv);
    fprintf(stderr, "shmemrun: PE %d: cannot run '%s': %s\n", pe, argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv) {
    int i = 1;
    n_pes = 1;
    const char *bind_mode = getenv("SHMEM_BIND"), *bind_source = "SHMEM_BIND";
    if (!bind_mode || !bind_mode[0]) {
        bind_mode = "core";
        bind_source = "default";
    }
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "-n") == 0 || strcmp(a, "-np") == 0 || strcmp(a, "--np") == 0 ||
            strcmp(a, "-N") == 0) {
            if (i + 1 >= argc) {
                usage(stderr);
                return 2;
            }
            n_pes = parse_count(argv[++i]);
            continue;
        }
        if (strcmp(a, "--bind-to") == 0 || strcmp(a, "-bind-to") == 0) {
            if (i + 1 >= argc) {
                usage(stderr);
                return 2;
            }
            bind_mode = argv[++i];
            bind_source = "--bind-to";
            continue;
        }
        if (strcmp(a, "-H") == 0 || strcmp(a, "--host") == 0 || strcmp(a, "-host") == 0 ||
            strcmp(a, "--hostfile") == 0 || strcmp(a, "-hostfile") == 0 ||
            strcmp(a, "--machinefile") == 0 || strcmp(a, "-machinefile") == 0) {
            fprintf(stderr,
                    "shmemrun: %s: shmemrun starts PEs on this node only; to run a job over "
                    "several hosts, start it with mpirun (Open MPI: mpirun -np N --host h1,h2 "
                    "program) or srun --mpi=pmix (docs/transports.md)\n",
                    a);
            return 2;
        }
        fprintf(stderr, "shmemrun: unknown option '%s'\n", a);
        usage(stderr);
        return 2;
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char **program = argv + i;
    if (strcmp(bind_mode, "core") != 0 && strcmp(bind_mode, "none") != 0) {
        fprintf(stderr, "shmemrun: %s '%s': binding is core or none\n", bind_source, bind_mode);
        return 2;
    }

    pes = calloc((size_t)n_pes, sizeof(*pes));
    if (!pes) {
        perror("shmemrun");
        return 1;
    }
    for (int pe = 0; pe < n_pes; pe++)
        pes[pe].fd = -1;
    random_hex(secret, SHMEMI_WIRE_SECRET_LEN);
    char tag[17];
    random_hex(tag, 16);
    char socket_name[96];
    snprintf(socket_name, sizeof(socket_name), "@libshmem.%d.%s", (int)getpid(), tag);

    read_hang_timeout();
    bind_pes(bind_mode, bind_source);
    start_ms = now_ms();
    int listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un addr;
    socklen_t addr_len = shmemi_wire_address(socket_name, &addr);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&addr, addr_len) != 0 ||
        listen(listen_fd, n_pes < 128 ? 128 : n_pes) != 0) {
        perror("shmemrun: socket");
        return 1;
    }

    sigset_t mask, old_mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigaddset(&mask, SIGQUIT);
    sigaddset(&mask, SIGUSR1);
    sigprocmask(SIG_BLOCK, &mask, &old_mask);
    int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sig_fd < 0) {
        perror("shmemrun: signalfd");
        return 1;
    }

    for (int pe = 0; pe < n_pes && !ending; pe++)
        start_pe(pe, program, socket_name, &old_mask);

    struct pollfd *fds = calloc((size_t)n_pes + MAX_NEWCOMERS + 2, sizeof(*fds));
    if (!fds) {
        perror("shmemrun");
        return 1;
    }
    int killed = 0;
    for (;;) {
        int running = 0;
        for (int pe = 0; pe < n_pes; pe++)
            running += pes[pe].running;
        if (!running)
            break;
        /* Slots: the signals, the listener, the PEs (by number), the newcomers. */
        int nfds = 0;
        fds[nfds++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
        fds[nfds++] = (struct pollfd){.fd = listen_fd, .events = POLLIN};
        for (int pe = 0; pe < n_pes; pe++)
            fds[nfds++] = (struct pollfd){
                .fd = pes[pe].fd, .events = (short)(POLLIN | (pes[pe].out_head ? POLLOUT : 0))};
        long long now = now_ms();
        int timeout = check_hang();
        for (int k = 0; k < n_newcomers; k++) {
            fds[nfds++] = (struct pollfd){.fd = newcomers[k].fd, .events = POLLIN};
            int left = (int)(newcomers[k].deadline_ms > now ? newcomers[k].deadline_ms - now : 0);
            if (timeout < 0 || left < timeout)
                timeout = left;
        }
        if (ending && !killed) {
            long long left = kill_deadline_ms - now;
            if (left <= 0) {
                signal_running(SIGKILL, -1);
                killed = 1;
            } else if (timeout < 0 || left < timeout) {
                timeout = (int)left;
            }
        }
        int ready = poll(fds, (nfds_t)nfds, timeout);
        if (ready < 0 && errno != EINTR) {
            perror("shmemrun: poll");
            fail_job(1, "internal error");
        }
        if (fds[0].revents) {
            struct signalfd_siginfo info;
            while (read(sig_fd, &info, sizeof(info)) == sizeof(info)) {
                int sig = (int)info.ssi_signo;
                if (sig == SIGCHLD)
                    continue;
                if (sig == SIGQUIT || sig == SIGUSR1) {
                    print_report();
                } else if (ending) {
                    signal_running(SIGKILL, -1);
                    killed = 1;
                } else {
                    fprintf(stderr, "shmemrun: received signal %d (%s); ending the job\n", sig,
                            strsignal(sig));
                    end_job(128 + sig, -1);
                }
            }
        }
        reap();
        for (int pe = 0; pe < n_pes; pe++) {
            struct pollfd *f = &fds[2 + pe];
            if (f->fd < 0 || f->fd != pes[pe].fd || !f->revents)
                continue;
            if (f->revents & POLLOUT)
                flush_pe(pe);
            if (f->revents & ~POLLOUT)
                read_pe(pe);
        }
        /* Newcomers: those that spoke, then those whose time is up (the list shifts as it
         * shrinks, so each is found by its descriptor). */
        for (int slot = 2 + n_pes; slot < nfds; slot++) {
            if (!fds[slot].revents)
                continue;
            for (int k = 0; k < n_newcomers; k++)
                if (newcomers[k].fd == fds[slot].fd) {
                    read_newcomer(k);
                    break;
                }
        }
        now = now_ms();
        for (int k = n_newcomers - 1; k >= 0; k--)
            if (newcomers[k].deadline_ms <= now)
                drop_newcomer(k);
        if (fds[1].revents & POLLIN)
            accept_all(listen_fd);
        reap();
        check_collective();
    }
    for (int k = n_newcomers - 1; k >= 0; k--)
        drop_newcomer(k);
    close(listen_fd);
    close(sig_fd);
    free(fds);
    for (int pe = 0; pe < n_pes; pe++)
        close_pe(pe);
    free(pes);
    free(pe_cpus);
    return job_status;
}
