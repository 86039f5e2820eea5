/* SPDX-License-Identifier: BSD-3-Clause */
/* A process that a PE of a PMIx job starts (fork + exec) inherits the job's PMIX_* variables. If
 * it called shmem_init as that PE it would join the job a second time under the same rank; it
 * must run as a job of its own, one PE, and the parent job must go on unharmed. Run under mpirun
 * (tests/core/pmix.cmake); PE 0 starts this program again with argument "child". */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <shmem.h>

static int run_child(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    shmem_barrier_all();
    shmem_finalize();
    printf("child: PE %d of %d\n", me, n);
    return me == 0 && n == 1 ? 0 : 1;
}

/* The child's exit status, or -1 when it has not ended within 20 seconds (then it is killed). */
static int wait_child(pid_t pid) {
    for (int i = 0; i < 200; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return run_child();
    shmem_init();
    int me = shmem_my_pe(), failed = 0;
    if (me == 0) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/proc/self/exe", argv[0], "child", (char *)NULL);
            _exit(127);
        }
        int status = pid > 0 ? wait_child(pid) : -2;
        if (status != 0) {
            fprintf(stderr, "PE 0: the child started by this PE ended with status %d\n", status);
            failed = 1;
        }
    }
    int *flag = shmem_calloc(1, sizeof(int));
    if (me == 0)
        *flag = failed;
    shmem_barrier_all();
    int result = shmem_int_g(flag, 0);
    shmem_barrier_all();
    shmem_free(flag);
    shmem_finalize();
    if (me == 0 && !result)
        printf("parent: the child ran as a job of its own\n");
    return result;
}
