/* SPDX-License-Identifier: BSD-3-Clause */
/* Moving the executable's data into shared memory without losing a write.
 *
 * shmem_init makes each writable range of the program remotely accessible by copying it into a
 * memfd and mapping the memfd over it. A store that another thread of the process makes between
 * the copy and the remap would land in the old private pages and vanish. The private pages
 * cannot be moved into the memfd (mremap keeps them anonymous), and comparing and retrying
 * leaves a window between the last comparison and the remap, so the writers are stopped instead:
 * the range is made read-only before the copy, and a SIGSEGV handler holds every thread that
 * stores into it until the remap is done; the store then runs again, into the shared mapping.
 * mprotect also makes every store that finished before it visible to the copy (it shoots down
 * the other processors' TLB entries, which serializes them). Stores that the kernel makes for a
 * system call of another thread into the range in that window fail with EFAULT instead of
 * faulting; they cannot be held. */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shmemi.h"
#include "internal.h"

/* The ranges frozen by this process: kept after the thaw, because a thread whose fault was
 * delivered to the handler just before the thaw runs it afterwards and must still recognize
 * its address (its store then simply runs again). */
#define MAX_FROZEN (SHMEMI_MAX_SEGMENTS - 2)
static struct {
    uintptr_t base;
    size_t size;
} frozen[MAX_FROZEN];
static int n_frozen;
static int freeze_active;
static pid_t freezer;
static struct sigaction previous;

static int frozen_address(uintptr_t addr) {
    int n = __atomic_load_n(&n_frozen, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (addr - frozen[i].base < frozen[i].size)
            return 1;
    return 0;
}

static void on_fault(int sig, siginfo_t *info, void *context) {
    if (frozen_address((uintptr_t)info->si_addr) &&
        gettid() != __atomic_load_n(&freezer, __ATOMIC_ACQUIRE)) {
        /* sched_yield is a system call: async-signal-safe. */
        while (__atomic_load_n(&freeze_active, __ATOMIC_ACQUIRE))
            sched_yield();
        return;
    }
    /* Not a store into a frozen range: what the program had installed handles it. */
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else {
        /* The faulting instruction runs again and takes the default action. */
        signal(SIGSEGV, SIG_DFL);
    }
}

shmemi_status_t shmemi_data_freeze(void *base, size_t size) {
    int n = n_frozen;
    if (n == MAX_FROZEN)
        return SHMEMI_ERR_NOMEM;
    if (!frozen_address((uintptr_t)base)) {
        frozen[n].base = (uintptr_t)base;
        frozen[n].size = size;
        __atomic_store_n(&n_frozen, n + 1, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&freezer, gettid(), __ATOMIC_RELEASE);
    __atomic_store_n(&freeze_active, 1, __ATOMIC_RELEASE);
    /* Installed once and left installed: a fault taken just before the thaw may be delivered
     * after it (the kernel picks the handler when the faulting thread next returns to user
     * space, which may be much later on a busy machine), and must still find this handler, not
     * the default action. Faults elsewhere go to the handler the program had. A program that
     * installs its own afterwards gets this one back at its next shmem_init. */
    struct sigaction current;
    if (sigaction(SIGSEGV, NULL, &current) != 0)
        goto err_active;
    if (!(current.sa_flags & SA_SIGINFO) || current.sa_sigaction != on_fault) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = on_fault;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGSEGV, &action, &previous) != 0)
            goto err_active;
    }
    if (mprotect(base, size, PROT_READ) != 0)
        goto err_active;
    return SHMEMI_OK;

err_active:
    __atomic_store_n(&freeze_active, 0, __ATOMIC_RELEASE);
    return SHMEMI_ERR_IO;
}

void shmemi_data_thaw(void *base, size_t size) {
    /* Writable again: a no-op over the shared mapping that replaced the range, the original
     * protection where sharing failed. */
    mprotect(base, size, PROT_READ | PROT_WRITE);
    __atomic_store_n(&freeze_active, 0, __ATOMIC_RELEASE);
}
