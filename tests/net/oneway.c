/* SPDX-License-Identifier: BSD-3-Clause */
/* The network transport's one-way put-with-signal (put_signal_oneway, the message that carries
 * the collectives' tokens, pushes and credits): a PE that sees the signal finds the whole
 * payload. Each PE sends its partner on another node (me + n/2) rounds of messages of random
 * sizes (0 to 8 KiB) and random data, each into a region of its own with a signal word of its
 * own; the partner waits for each signal and checks the payload at once, last bytes first. Every
 * other message also adds to a second word (a credit riding with a token, as the collectives
 * send them), whose total the partner checks at the end. A
 * quiet of the tokens' context must not wait for these messages (nobody acknowledges them), and
 * a fence or quiet of the default context between rounds changes nothing. */
#include <inttypes.h>
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net_mix.h"

#define ROUNDS 300
#define MESSAGES 16
#define MAX_LEN 8192

void *oneway_probe_alloc(size_t size);
int oneway_probe_net(int pe);
int oneway_probe_send(int pe, void *dest, const void *src, size_t len, uint64_t *signal,
                      uint64_t add, uint64_t *signal2, uint64_t add2);
int oneway_probe_quiet(void);
void oneway_probe_progress(void);

/* Symmetric, for the reduction of the counts of bad messages. */
static long bad_all, bad_sum;

/* The length and the bytes of message k of round r from PE from: both sides compute them. */
static size_t message_len(uint64_t seed, int from, int r, int k) {
    uint64_t x = net_mix(seed ^ ((uint64_t)from << 48) ^ ((uint64_t)r << 16) ^ (uint64_t)k);
    switch (x % 4) {
    case 0:
        return 0;
    case 1:
        return 1 + (x >> 8) % 64;
    case 2:
        return MAX_LEN;
    default:
        return 1 + (x >> 8) % MAX_LEN;
    }
}

static unsigned char message_byte(uint64_t seed, int from, int r, int k, size_t i) {
    return (unsigned char)net_mix(seed + ((uint64_t)from << 40) + ((uint64_t)r << 24) +
                                  ((uint64_t)k << 14) + i);
}

/* What the checker thread needs, set before it starts. */
static int me, partner;
static uint64_t s;
static const unsigned char *data;
static uint64_t *sig;
static long bad;
/* Rounds sent (by the main thread) and checked (by the checker). */
static int round_go, round_checked;

static void pause_step(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Checks each round's messages as their signals appear, without progressing the network. */
static void *checker_main(void *arg) {
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        while (__atomic_load_n(&round_go, __ATOMIC_ACQUIRE) < r + 1)
            pause_step();
        /* Received in a random order: any arrival order is allowed. */
        int first = (int)(net_mix(s + (uint64_t)r) % MESSAGES);
        for (int j = 0; j < MESSAGES; j++) {
            int k = (first + j) % MESSAGES;
            while (__atomic_load_n(&sig[k], __ATOMIC_ACQUIRE) < (uint64_t)r + 1)
                pause_step();
            size_t len = message_len(s, partner, r, k);
            const unsigned char *got = data + (size_t)k * MAX_LEN;
            for (size_t i = len; i-- > 0;)
                if (got[i] != message_byte(s, partner, r, k, i)) {
                    if (bad++ < 5)
                        fprintf(stderr,
                                "oneway: PE %d: round %d message %d (%zu bytes) from PE %d: "
                                "byte %zu is %d, not %d, once the signal was seen\n",
                                me, r, k, len, partner, i, got[i],
                                message_byte(s, partner, r, k, i));
                    break;
                }
            if (__atomic_load_n(&sig[k], __ATOMIC_ACQUIRE) != (uint64_t)r + 1) {
                fprintf(stderr, "oneway: PE %d: signal %d is %" PRIu64 " in round %d\n", me, k,
                        sig[k], r);
                bad++;
            }
        }
        __atomic_store_n(&round_checked, r + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

int main(void) {
    shmem_init();
    me = shmem_my_pe();
    int n = shmem_n_pes();
    partner = (me + n / 2) % n;
    unsigned char *region = oneway_probe_alloc((size_t)MESSAGES * MAX_LEN);
    data = region;
    sig = oneway_probe_alloc(MESSAGES * sizeof(uint64_t));
    uint64_t *second = oneway_probe_alloc(sizeof(uint64_t)), second_want = 0;
    uint64_t *seed = shmem_malloc(sizeof(uint64_t));
    unsigned char *buf = malloc(MAX_LEN);
    if (region == NULL || sig == NULL || second == NULL || seed == NULL || buf == NULL) {
        fprintf(stderr, "oneway: PE %d: out of memory\n", me);
        shmem_global_exit(1);
    }
    if (n % 2 != 0 || !oneway_probe_net(partner)) {
        /* Every PE decides alike: n is the same everywhere, and the layouts put a PE's partner
         * on another node or nowhere on this one. */
        if (me == 0)
            printf("oneway: %d PEs: no partner on another node for every PE, nothing to do\n", n);
        shmem_finalize();
        return 0;
    }
    if (me == 0)
        *seed = net_mix((uint64_t)time(NULL));
    shmem_barrier_all();
    s = shmem_uint64_atomic_fetch(seed, 0);
    shmem_barrier_all();
    pthread_t checker;
    if (pthread_create(&checker, NULL, checker_main, NULL) != 0) {
        fprintf(stderr, "oneway: PE %d: cannot start the checker thread\n", me);
        shmem_global_exit(1);
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < MESSAGES; k++) {
            size_t len = message_len(s, me, r, k);
            for (size_t i = 0; i < len; i++)
                buf[i] = message_byte(s, me, r, k, i);
            /* The second add: k + 1 on odd messages, none on even ones. */
            uint64_t add2 = k % 2 ? (uint64_t)k + 1 : 0;
            second_want += add2;
            int st = oneway_probe_send(partner, region + (size_t)k * MAX_LEN, buf, len, &sig[k], 1,
                                       second, add2);
            if (st != 0) {
                fprintf(stderr, "oneway: PE %d: put_signal_oneway to PE %d failed (status %d)\n",
                        me, partner, st);
                shmem_global_exit(1);
            }
            /* The source may be reused at return. */
            memset(buf, 0xa5, len);
        }
        if (r % 7 == 0 && oneway_probe_quiet() != 0) {
            fprintf(stderr, "oneway: PE %d: quiet of the tokens' context failed\n", me);
            shmem_global_exit(1);
        }
        if (r % 5 == 0)
            shmem_fence();
        if (r % 5 == 1)
            shmem_quiet();
        /* The checker reads the round while this thread progresses the network (which
         * applies the messages): it sees the signals as any thread but the applying one does. */
        __atomic_store_n(&round_go, r + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&round_checked, __ATOMIC_ACQUIRE) < r + 1)
            oneway_probe_progress();
        /* The partner has checked this round before its regions are written again. */
        shmem_barrier_all();
    }
    pthread_join(checker, NULL);
    /* The partner sent as much as this PE; its last second add may still be applied after the
     * signal that the checker saw. */
    time_t deadline = time(NULL) + 10;
    while (__atomic_load_n(second, __ATOMIC_ACQUIRE) < second_want && time(NULL) < deadline)
        oneway_probe_progress();
    if (__atomic_load_n(second, __ATOMIC_ACQUIRE) != second_want) {
        fprintf(stderr, "oneway: PE %d: the second word is %" PRIu64 ", not %" PRIu64 "\n", me,
                *second, second_want);
        bad++;
    }
    bad_all = bad;
    long total = shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &bad_sum, &bad_all, 1) == 0 ? bad_sum : -1;
    if (me == 0)
        printf("oneway: %d PEs, %d rounds of %d messages each: %ld bad%s\n", n, ROUNDS, MESSAGES,
               total, total == 0 ? ", payload always before its signal" : "");
    free(buf);
    shmem_free(seed);
    shmem_finalize();
    return total == 0 ? 0 : 1;
}
