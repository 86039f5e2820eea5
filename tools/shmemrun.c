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
 * (PR_SET_PDEATHSIG). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
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
#include "core/env.h"

#define MAX_PES 4096
#define KILL_GRACE_MS 2000
#define IO_TIMEOUT_S 30

typedef struct {
    pid_t pid;
    int fd;        /* connection to the PE, -1 before HELLO and after it closes */
    int running;   /* not yet reaped */
    int connected; /* said HELLO */
    int said_bye;  /* finalized */
    int gone;      /* exited, disconnected or finalized: contributes to no more collectives */
    int has_pending;
    size_t pending_len;
    char *pending;
} pe_t;

static pe_t *pes;
static int n_pes;
static char secret[SHMEMI_WIRE_SECRET_LEN + 1];
static int ending;           /* the job is being ended */
static int job_status;       /* what shmemrun exits with */
static int exit_caller = -1; /* PE that called shmem_global_exit: not sent SIGTERM */
static long long kill_deadline_ms;

static void usage(FILE *out) {
    fprintf(out, "usage: shmemrun -n N [--] program [arguments...]\n"
                 "  -n, -np, --np N   number of PEs to start on this node\n"
                 "  -h, --help        this text\n"
                 "Runs N copies of program as the PEs of one OpenSHMEM job.\n");
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
    char line[512];
    vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    fprintf(stderr, "shmemrun: %s; ending the job\n", line);
    end_job(status, -1);
}

static void close_pe(int pe) {
    if (pes[pe].fd >= 0)
        close(pes[pe].fd);
    pes[pe].fd = -1;
    free(pes[pe].pending);
    pes[pe].pending = NULL;
    pes[pe].has_pending = 0;
}

static void set_timeouts(int fd) {
    struct timeval tv = {.tv_sec = IO_TIMEOUT_S};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
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
        fail_job(1, "PE %d waits in a collective call that PE %d %s", waiting, missing,
                 pes[missing].said_bye ? "left by calling shmem_finalize"
                                       : "will never make (it has exited or disconnected)");
        return;
    }
    for (int i = 0; i < n_pes; i++)
        if (!pes[i].has_pending)
            return;
    size_t len = pes[0].pending_len;
    for (int i = 1; i < n_pes; i++)
        if (pes[i].pending_len != len) {
            fail_job(1,
                     "PEs are in different collective calls (PE 0 contributes %zu bytes, PE %d "
                     "%zu bytes): every PE must make the same collective calls in the same order",
                     len, i, pes[i].pending_len);
            return;
        }
    size_t total = len * (size_t)n_pes;
    char *all = total ? malloc(total) : NULL;
    if (total && !all) {
        fail_job(1, "out of memory for a collective of %zu bytes", total);
        return;
    }
    for (int i = 0; i < n_pes; i++)
        if (len)
            memcpy(all + (size_t)i * len, pes[i].pending, len);
    for (int i = 0; i < n_pes; i++) {
        free(pes[i].pending);
        pes[i].pending = NULL;
        pes[i].has_pending = 0;
        if (shmemi_wire_send_msg(pes[i].fd, SHMEMI_WIRE_ALLGATHER, 0, all, total) != 0)
            fail_job(1, "cannot answer PE %d: %s", i, strerror(errno));
    }
    free(all);
}

static void accept_pe(int listen_fd) {
    int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    /* Abstract sockets are visible to every user: only this user's processes get a hearing. */
    struct ucred cred;
    socklen_t cred_len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) != 0 || cred.uid != getuid()) {
        close(fd);
        return;
    }
    set_timeouts(fd);
    shmemi_wire_header_t h;
    char their_secret[SHMEMI_WIRE_SECRET_LEN];
    if (shmemi_wire_recv_all(fd, &h, sizeof(h)) != 0 || !shmemi_wire_hello_header_ok(&h) ||
        shmemi_wire_recv_all(fd, their_secret, sizeof(their_secret)) != 0) {
        close(fd);
        return;
    }
    int pe = shmemi_wire_hello_accept(&h, their_secret, secret, n_pes);
    if (pe < 0 || pes[pe].fd >= 0 || pes[pe].gone) {
        close(fd);
        return;
    }
    if (shmemi_wire_send_msg(fd, SHMEMI_WIRE_HELLO, n_pes, NULL, 0) != 0) {
        close(fd);
        return;
    }
    pes[pe].fd = fd;
    pes[pe].connected = 1;
}

static void read_pe(int pe) {
    shmemi_wire_header_t h;
    if (shmemi_wire_recv_all(pes[pe].fd, &h, sizeof(h)) != 0) {
        close_pe(pe);
        pes[pe].gone = 1;
        return;
    }
    shmemi_wire_msg_check_t check = shmemi_wire_check_from_pe(&h);
    if (check == SHMEMI_WIRE_MSG_MALFORMED) {
        fail_job(1, "PE %d sent a malformed message", pe);
        close_pe(pe);
        pes[pe].gone = 1;
        return;
    }
    if (check == SHMEMI_WIRE_MSG_UNKNOWN) {
        fail_job(1, "PE %d sent an unknown message (type %u)", pe, h.type);
        return;
    }
    switch (h.type) {
    case SHMEMI_WIRE_ALLGATHER: {
        char *payload = h.len ? malloc(h.len) : NULL;
        if ((h.len && !payload) ||
            (h.len && shmemi_wire_recv_all(pes[pe].fd, payload, h.len) != 0) ||
            pes[pe].has_pending) {
            free(payload);
            fail_job(1, "PE %d: broken collective message", pe);
            return;
        }
        pes[pe].pending = payload;
        pes[pe].pending_len = h.len;
        pes[pe].has_pending = 1;
        break;
    }
    case SHMEMI_WIRE_GLOBAL_EXIT:
        end_job(h.arg, pe);
        break;
    case SHMEMI_WIRE_BYE:
        pes[pe].said_bye = 1;
        pes[pe].gone = 1;
        close_pe(pe);
        break;
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
        /* Its last messages (BYE, GLOBAL_EXIT) are still in the socket: read them first. */
        while (pes[pe].fd >= 0) {
            struct pollfd p = {.fd = pes[pe].fd, .events = POLLIN};
            if (poll(&p, 1, 0) <= 0)
                break;
            read_pe(pe);
        }
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
    sigprocmask(SIG_SETMASK, old_mask, NULL);
    execvp(argv[0], argv);
    fprintf(stderr, "shmemrun: PE %d: cannot run '%s': %s\n", pe, argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv) {
    int i = 1;
    n_pes = 1;
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
        fprintf(stderr, "shmemrun: unknown option '%s'\n", a);
        usage(stderr);
        return 2;
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char **program = argv + i;

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

    int listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
    sigprocmask(SIG_BLOCK, &mask, &old_mask);
    int sig_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sig_fd < 0) {
        perror("shmemrun: signalfd");
        return 1;
    }

    for (int pe = 0; pe < n_pes && !ending; pe++)
        start_pe(pe, program, socket_name, &old_mask);

    struct pollfd *fds = calloc((size_t)n_pes + 2, sizeof(*fds));
    int *fd_pe = calloc((size_t)n_pes + 2, sizeof(*fd_pe));
    if (!fds || !fd_pe) {
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
        int nfds = 0;
        fds[nfds++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
        fds[nfds++] = (struct pollfd){.fd = listen_fd, .events = POLLIN};
        for (int pe = 0; pe < n_pes; pe++)
            if (pes[pe].fd >= 0) {
                fd_pe[nfds] = pe;
                fds[nfds++] = (struct pollfd){.fd = pes[pe].fd, .events = POLLIN};
            }
        int timeout = -1;
        if (ending && !killed) {
            long long left = kill_deadline_ms - now_ms();
            if (left <= 0) {
                signal_running(SIGKILL, -1);
                killed = 1;
            } else {
                timeout = (int)left;
            }
        }
        int ready = poll(fds, (nfds_t)nfds, timeout);
        if (ready < 0 && errno != EINTR) {
            perror("shmemrun: poll");
            fail_job(1, "internal error");
        }
        if (ready <= 0)
            continue;
        if (fds[0].revents) {
            struct signalfd_siginfo info;
            while (read(sig_fd, &info, sizeof(info)) == sizeof(info)) {
                if (info.ssi_signo == SIGCHLD)
                    continue;
                int sig = (int)info.ssi_signo;
                if (ending) {
                    signal_running(SIGKILL, -1);
                    killed = 1;
                } else {
                    fprintf(stderr, "shmemrun: received signal %d (%s); ending the job\n", sig,
                            strsignal(sig));
                    end_job(128 + sig, -1);
                }
            }
            reap();
        }
        if (fds[1].revents & POLLIN)
            accept_pe(listen_fd);
        for (int k = 2; k < nfds; k++)
            if (fds[k].revents && pes[fd_pe[k]].fd == fds[k].fd)
                read_pe(fd_pe[k]);
        reap();
        check_collective();
    }
    close(listen_fd);
    close(sig_fd);
    free(fds);
    free(fd_pe);
    for (int pe = 0; pe < n_pes; pe++)
        close_pe(pe);
    free(pes);
    return job_status;
}
