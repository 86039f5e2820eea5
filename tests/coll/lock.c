/* Locks: mutual exclusion (a non-atomic counter on PE 0 updated under the lock), test_lock on a
 * held and a free lock, and fairness: PE 0 takes and releases the lock in a tight loop while the
 * others each acquire it a number of times. The ticket lock lets PE 0 get ahead of a waiting PE
 * at most once after the waiter asked (twice counting the hold in progress), so most waits see
 * at most that many PE 0 acquisitions; an unfair lock lets the hammering PE take it again and
 * again while the others starve. A waiter descheduled between reading the count and asking for
 * the lock can see more, so the test bounds the typical wait, not the worst. */
#include <sched.h>

#include "coll_test.h"

#define INCREMENTS 200
#define WAITS 40
#define FAIR_BYPASS 3

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long *lock = shmem_malloc(2 * sizeof(long));
    long *data = shmem_malloc(4 * sizeof(long));
    lock[0] = lock[1] = 0;
    for (int i = 0; i < 4; i++)
        data[i] = 0;
    shmem_barrier_all();
    long *counter = shmem_ptr(&data[0], 0), *hammer = shmem_ptr(&data[1], 0);
    long *done = shmem_ptr(&data[2], 0);
    CHECK(counter != NULL && hammer != NULL && done != NULL, "PE 0 not mapped");

    for (int i = 0; i < INCREMENTS; i++) {
        shmem_set_lock(&lock[0]);
        long v = *(volatile long *)counter;
        if (i % 16 == 0)
            sched_yield();
        *(volatile long *)counter = v + 1;
        shmem_clear_lock(&lock[0]);
    }
    shmem_barrier_all();
    CHECK(*counter == (long)n * INCREMENTS, "counter %ld, expected %ld", *counter,
          (long)n * INCREMENTS);

    /* test_lock: held by PE 0, then free. */
    if (me == 0)
        shmem_set_lock(&lock[1]);
    shmem_barrier_all();
    if (me != 0)
        CHECK(shmem_test_lock(&lock[1]) == 1, "test_lock took a held lock");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(&lock[1]);
    shmem_barrier_all();
    if (me == n - 1) {
        CHECK(shmem_test_lock(&lock[1]) == 0, "test_lock failed on a free lock");
        shmem_clear_lock(&lock[1]);
    }
    shmem_barrier_all();

    /* Fairness under a hammering PE. */
    long worst = 0;
    int fair = 0;
    if (me == 0) {
        while (__atomic_load_n(done, __ATOMIC_ACQUIRE) < n - 1) {
            shmem_set_lock(&lock[0]);
            *(volatile long *)hammer += 1;
            for (volatile int spin = 0; spin < 100; spin++)
                ;
            shmem_clear_lock(&lock[0]);
        }
    } else {
        for (int k = 0; k < WAITS; k++) {
            long before = __atomic_load_n(hammer, __ATOMIC_RELAXED);
            shmem_set_lock(&lock[0]);
            long bypass = *(volatile long *)hammer - before;
            shmem_clear_lock(&lock[0]);
            worst = bypass > worst ? bypass : worst;
            fair += bypass <= FAIR_BYPASS;
            sched_yield();
        }
        __atomic_fetch_add(done, 1, __ATOMIC_RELEASE);
        CHECK(fair >= WAITS / 2,
              "only %d of %d waits saw at most %d acquisitions by PE 0 (worst %ld)", fair, WAITS,
              FAIR_BYPASS, worst);
        printf("fairness: PE %d: %d of %d waits saw at most %d acquisitions by PE 0 (worst %ld)\n",
               me, fair, WAITS, FAIR_BYPASS, worst);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("fairness: PE 0 acquired the lock %ld times; waiters each acquired it %d times\n",
               *hammer, WAITS);
    shmem_free(data);
    shmem_free(lock);
    shmem_finalize();
    return 0;
}
