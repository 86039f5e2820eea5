/* SPDX-License-Identifier: BSD-3-Clause */
/* A small OpenSHMEM job: puts and gets around a ring, atomics on one PE's counter, a
 * put-with-signal, and barriers in between. Each PE prints what it saw, in PE order.
 * Run: shmemrun -n 4 build/examples/demo */
#include <stdio.h>

#include <shmem.h>

#define N 4

static long ring[N];     /* written by the left neighbour's put */
static long counter;     /* every PE adds to PE 0's counter */
static int winner = -1;  /* the first PE to claim it with compare_swap */
static uint64_t arrived; /* signal of the put-with-signal */
static long message[N];

/* Lets the PEs print one after the other. */
static void in_pe_order(int me, int n, const char *text) {
    for (int pe = 0; pe < n; pe++) {
        if (pe == me) {
            fputs(text, stdout);
            fflush(stdout);
        }
        shmem_barrier_all();
    }
}

int main(void) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int right = (me + 1) % n, left = (me + n - 1) % n;
    char line[256];

    /* put: send N values to the right neighbour. */
    long mine[N];
    for (int i = 0; i < N; i++)
        mine[i] = 100 * me + i;
    shmem_long_put(ring, mine, N, right);
    shmem_barrier_all();
    snprintf(line, sizeof line, "PE %d: put from PE %d arrived: %ld %ld %ld %ld\n", me, left,
             ring[0], ring[1], ring[2], ring[3]);
    in_pe_order(me, n, line);

    /* get: read what the right neighbour received. */
    long seen[N];
    shmem_long_get(seen, ring, N, right);
    snprintf(line, sizeof line, "PE %d: get from PE %d returned: %ld %ld %ld %ld\n", me, right,
             seen[0], seen[1], seen[2], seen[3]);
    in_pe_order(me, n, line);

    /* atomics: everyone adds to PE 0's counter; the first compare_swap wins. */
    long before = shmem_long_atomic_fetch_add(&counter, me + 1, 0);
    int previous = shmem_int_atomic_compare_swap(&winner, -1, me, 0);
    shmem_barrier_all();
    long total = shmem_long_atomic_fetch(&counter, 0);
    snprintf(line, sizeof line,
             "PE %d: fetch_add saw %ld before adding %d; counter on PE 0 is now %ld%s\n", me,
             before, me + 1, total, previous == -1 ? "; I won the compare_swap" : "");
    in_pe_order(me, n, line);

    /* put-with-signal: the signal arrives after the data it follows. */
    for (int i = 0; i < N; i++)
        mine[i] = 1000 * (me + 1) + i;
    shmem_long_put_signal(message, mine, N, &arrived, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&arrived, SHMEM_CMP_EQ, 1);
    snprintf(line, sizeof line, "PE %d: signal from PE %d, message %ld %ld %ld %ld\n", me, left,
             message[0], message[1], message[2], message[3]);
    in_pe_order(me, n, line);

    if (me == 0)
        printf("%d PEs, expected counter %d: %s\n", n, n * (n + 1) / 2,
               total == n * (n + 1) / 2 ? "ok" : "WRONG");
    shmem_finalize();
    return total == n * (n + 1) / 2 ? 0 : 1;
}
