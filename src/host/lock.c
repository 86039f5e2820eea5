/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed locks: a ticket lock in PE 0's copy of the symmetric long. The high 32 bits hand out
 * tickets (fetch-add), the low 32 bits name the ticket being served; a PE waits until its ticket is
 * served, so the lock is granted in FIFO order and no waiting PE starves. Both halves wrap modulo
 * 2^32; only the holder advances the low half, with a compare-and-swap so that it never carries
 * into the ticket half. Load/store route: PE 0's word is reached through shmemi_ptr and updated
 * with C11 atomics. A lock word in the GPU heap, which host code cannot load or store, or one whose
 * AMOs take the network (a job over several nodes), takes the same steps through the transport's
 * AMOs (shmemi_amo): the algorithm is written once over lock_fetch_add, lock_load and lock_cas.
 * shmem_clear_lock quiets before its release, so the critical section's puts are complete. */

#include "coll_internal.h"
#include "host/rma_internal.h"

#define SHMEMI_LOCK_HOME_PE 0
#define SHMEMI_TICKET_ONE (1ull << 32)
#define SHMEMI_SERVING_MASK 0xffffffffull

/* PE 0's copy of the lock: word is its mapping, NULL when the lock is reached through a
 * transport's AMOs (shmemi_amo): GPU memory, or AMOs that take the network. */
typedef struct {
    long *lock;
    uint64_t *word;
} lock_ref_t;

static lock_ref_t lock_ref(const char *call, long *lock) {
    shmemi_check_init(call);
    if (lock == NULL)
        shmemi_fatal(call, "lock is NULL");
    shmemi_check_aligned(call, lock, sizeof(long), SHMEMI_LOCK_HOME_PE);
    lock_ref_t l = {lock, NULL};
    if (shmemi_local_on_device(lock) || shmemi_routes[SHMEMI_LOCK_HOME_PE].amo_net)
        return l;
    l.word = shmemi_ptr(lock, SHMEMI_LOCK_HOME_PE);
    if (l.word == NULL)
        shmemi_fatal(call, "lock %p is not a symmetric object reachable on PE %d", (void *)lock,
                     SHMEMI_LOCK_HOME_PE);
    return l;
}

/* The three operations of the algorithm on either route; each returns the word's previous value
 * and orders later accesses after it (acquire), the compare-and-swap also earlier ones before it
 * (release). */
static uint64_t lock_amo(const char *call, lock_ref_t l, shmemi_amo_op_t op, uint64_t operand,
                         uint64_t compare) {
    uint64_t old = shmemi_amo(call, SHMEM_CTX_DEFAULT, op, l.lock, operand, compare, sizeof(long),
                              SHMEMI_LOCK_HOME_PE);
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
    return old;
}
static uint64_t lock_fetch_add(const char *call, lock_ref_t l, uint64_t v) {
    return l.word ? __atomic_fetch_add(l.word, v, __ATOMIC_ACQUIRE)
                  : lock_amo(call, l, SHMEMI_AMO_ADD, v, 0);
}
static uint64_t lock_load(const char *call, lock_ref_t l) {
    return l.word ? __atomic_load_n(l.word, __ATOMIC_ACQUIRE)
                  : lock_amo(call, l, SHMEMI_AMO_FETCH, 0, 0);
}
static uint64_t lock_cas(const char *call, lock_ref_t l, uint64_t expected, uint64_t desired) {
    if (l.word == NULL)
        return lock_amo(call, l, SHMEMI_AMO_CSWAP, desired, expected);
    __atomic_compare_exchange_n(l.word, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return expected;
}

void shmem_set_lock(long *lock) {
    static const char call[] = "shmem_set_lock";
    lock_ref_t l = lock_ref(call, lock);
    uint32_t ticket = (uint32_t)(lock_fetch_add(call, l, SHMEMI_TICKET_ONE) >> 32);
    unsigned spins = 0;
    while ((uint32_t)(lock_load(call, l) & SHMEMI_SERVING_MASK) != ticket)
        shmemi_coll_relax(&spins);
}

int shmem_test_lock(long *lock) {
    static const char call[] = "shmem_test_lock";
    lock_ref_t l = lock_ref(call, lock);
    uint64_t old = lock_load(call, l);
    if ((uint32_t)(old >> 32) != (uint32_t)(old & SHMEMI_SERVING_MASK))
        return 1;
    return lock_cas(call, l, old, old + SHMEMI_TICKET_ONE) == old ? 0 : 1;
}

void shmem_clear_lock(long *lock) {
    static const char call[] = "shmem_clear_lock";
    lock_ref_t l = lock_ref(call, lock);
    shmemi_coll_quiet();
    uint64_t old = lock_load(call, l), seen;
    for (;; old = seen) {
        if ((uint32_t)(old >> 32) == (uint32_t)(old & SHMEMI_SERVING_MASK))
            shmemi_fatal(call, "lock %p is not held", (void *)lock);
        uint64_t next = (old & ~SHMEMI_SERVING_MASK) | ((old + 1) & SHMEMI_SERVING_MASK);
        seen = lock_cas(call, l, old, next);
        if (seen == old)
            return;
    }
}
