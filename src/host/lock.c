/* Distributed locks: a ticket lock in PE 0's copy of the symmetric long. The high 32 bits hand out
 * tickets (fetch-add), the low 32 bits name the ticket being served; a PE waits until its ticket is
 * served, so the lock is granted in FIFO order and no waiting PE starves. Both halves wrap modulo
 * 2^32; only the holder advances the low half, with a compare-and-swap so that it never carries
 * into the ticket half. Load/store route: PE 0's word is reached through shmemi_ptr and updated
 * with C11 atomics (a network transport would use its remote atomics). A lock word in the GPU
 * heap, which host code cannot load or store, is updated with the same steps through the heap
 * transport's AMOs (shmemi_amo). */

#include "coll_internal.h"
#include "host/rma_internal.h"

#define SHMEMI_LOCK_HOME_PE 0
#define SHMEMI_TICKET_ONE (1ull << 32)
#define SHMEMI_SERVING_MASK 0xffffffffull

/* The lock's word on PE 0, mapped; NULL when the lock is in GPU memory (use lock_amo). */
static uint64_t *lock_word(const char *call, long *lock) {
    shmemi_check_init(call);
    if (lock == NULL)
        shmemi_fatal(call, "lock is NULL");
    shmemi_check_aligned(call, lock, sizeof(long), SHMEMI_LOCK_HOME_PE);
    if (shmemi_local_on_device(lock))
        return NULL;
    uint64_t *word = shmemi_ptr(lock, SHMEMI_LOCK_HOME_PE);
    if (word == NULL)
        shmemi_fatal(call, "lock %p is not a symmetric object reachable on PE %d", (void *)lock,
                     SHMEMI_LOCK_HOME_PE);
    return word;
}

/* An AMO on PE 0's copy of a lock in GPU memory; returns the previous value. */
static uint64_t lock_amo(const char *call, shmemi_amo_op_t op, long *lock, uint64_t operand,
                         uint64_t compare) {
    return shmemi_amo(call, SHMEM_CTX_DEFAULT, op, lock, operand, compare, sizeof(long),
                      SHMEMI_LOCK_HOME_PE);
}

static void set_lock_amo(long *lock) {
    static const char call[] = "shmem_set_lock";
    uint32_t ticket = (uint32_t)(lock_amo(call, SHMEMI_AMO_ADD, lock, SHMEMI_TICKET_ONE, 0) >> 32);
    unsigned spins = 0;
    while ((uint32_t)(lock_amo(call, SHMEMI_AMO_FETCH, lock, 0, 0) & SHMEMI_SERVING_MASK) != ticket)
        shmemi_coll_relax(&spins);
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
}

static int test_lock_amo(long *lock) {
    static const char call[] = "shmem_test_lock";
    uint64_t old = lock_amo(call, SHMEMI_AMO_FETCH, lock, 0, 0);
    if ((uint32_t)(old >> 32) != (uint32_t)(old & SHMEMI_SERVING_MASK))
        return 1;
    if (lock_amo(call, SHMEMI_AMO_CSWAP, lock, old + SHMEMI_TICKET_ONE, old) != old)
        return 1;
    SHMEMI_THREAD_FENCE(__ATOMIC_ACQUIRE);
    return 0;
}

static void clear_lock_amo(long *lock) {
    static const char call[] = "shmem_clear_lock";
    uint64_t old = lock_amo(call, SHMEMI_AMO_FETCH, lock, 0, 0), seen;
    for (;; old = seen) {
        if ((uint32_t)(old >> 32) == (uint32_t)(old & SHMEMI_SERVING_MASK))
            shmemi_fatal(call, "lock %p is not held", (void *)lock);
        uint64_t next = (old & ~SHMEMI_SERVING_MASK) | ((old + 1) & SHMEMI_SERVING_MASK);
        seen = lock_amo(call, SHMEMI_AMO_CSWAP, lock, next, old);
        if (seen == old)
            return;
    }
}

void shmem_set_lock(long *lock) {
    uint64_t *word = lock_word("shmem_set_lock", lock);
    if (__builtin_expect(word == NULL, 0)) {
        set_lock_amo(lock);
        return;
    }
    uint32_t ticket =
        (uint32_t)(__atomic_fetch_add(word, SHMEMI_TICKET_ONE, __ATOMIC_ACQUIRE) >> 32);
    unsigned spins = 0;
    while ((uint32_t)(__atomic_load_n(word, __ATOMIC_ACQUIRE) & SHMEMI_SERVING_MASK) != ticket)
        shmemi_coll_relax(&spins);
}

int shmem_test_lock(long *lock) {
    uint64_t *word = lock_word("shmem_test_lock", lock);
    if (__builtin_expect(word == NULL, 0))
        return test_lock_amo(lock);
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
    if (__builtin_expect(word == NULL, 0)) {
        clear_lock_amo(lock);
        return;
    }
    uint64_t old = __atomic_load_n(word, __ATOMIC_RELAXED), next;
    do {
        if ((uint32_t)(old >> 32) == (uint32_t)(old & SHMEMI_SERVING_MASK))
            shmemi_fatal("shmem_clear_lock", "lock %p is not held", (void *)lock);
        next = (old & ~SHMEMI_SERVING_MASK) | ((old + 1) & SHMEMI_SERVING_MASK);
    } while (!__atomic_compare_exchange_n(word, &old, next, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}
