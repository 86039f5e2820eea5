/* Distributed locks: a ticket lock in PE 0's copy of the symmetric long. The high 32 bits hand out
 * tickets (fetch-add), the low 32 bits name the ticket being served; a PE waits until its ticket is
 * served, so the lock is granted in FIFO order and no waiting PE starves. Both halves wrap modulo
 * 2^32; only the holder advances the low half, with a compare-and-swap so that it never carries
 * into the ticket half. Load/store route: PE 0's word is reached through shmemi_ptr and updated
 * with C11 atomics (a network transport would use its remote atomics). */

#include "coll_internal.h"

#define SHMEMI_LOCK_HOME_PE 0
#define SHMEMI_TICKET_ONE (1ull << 32)
#define SHMEMI_SERVING_MASK 0xffffffffull

static uint64_t *lock_word(const char *call, long *lock) {
    shmemi_check_init(call);
    if (lock == NULL)
        shmemi_fatal(call, "lock is NULL");
    shmemi_check_aligned(call, lock, sizeof(long), SHMEMI_LOCK_HOME_PE);
    shmemi_coll_check_host_memory(call, lock);
    uint64_t *word = shmemi_ptr(lock, SHMEMI_LOCK_HOME_PE);
    if (word == NULL)
        shmemi_fatal(call, "lock %p is not a symmetric object reachable on PE %d", (void *)lock,
                     SHMEMI_LOCK_HOME_PE);
    return word;
}

void shmem_set_lock(long *lock) {
    uint64_t *word = lock_word("shmem_set_lock", lock);
    uint32_t ticket =
        (uint32_t)(__atomic_fetch_add(word, SHMEMI_TICKET_ONE, __ATOMIC_ACQUIRE) >> 32);
    unsigned spins = 0;
    while ((uint32_t)(__atomic_load_n(word, __ATOMIC_ACQUIRE) & SHMEMI_SERVING_MASK) != ticket)
        shmemi_coll_relax(&spins);
}

int shmem_test_lock(long *lock) {
    uint64_t *word = lock_word("shmem_test_lock", lock);
    uint64_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    if ((uint32_t)(old >> 32) != (uint32_t)(old & SHMEMI_SERVING_MASK))
        return 1;
    return __atomic_compare_exchange_n(word, &old, old + SHMEMI_TICKET_ONE, 0, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED)
               ? 0
               : 1;
}

void shmem_clear_lock(long *lock) {
    uint64_t *word = lock_word("shmem_clear_lock", lock);
    shmemi_coll_quiet();
    uint64_t old = __atomic_load_n(word, __ATOMIC_RELAXED), next;
    do {
        if ((uint32_t)(old >> 32) == (uint32_t)(old & SHMEMI_SERVING_MASK))
            shmemi_fatal("shmem_clear_lock", "lock %p is not held", (void *)lock);
        next = (old & ~SHMEMI_SERVING_MASK) | ((old + 1) & SHMEMI_SERVING_MASK);
    } while (!__atomic_compare_exchange_n(word, &old, next, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}
