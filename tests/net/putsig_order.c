/* SPDX-License-Identifier: BSD-3-Clause */
/* Put-with-signal over the network is ordered after everything its context sent the same PE
 * before it (docs/memory_model.md: the signal is delivered after the call's data and after every
 * earlier put, AMO and signal of the caller on the same context to the same PE), whichever way
 * the transport sends it (UCX: one active message up to 64 KiB, put + fence + AMO above; the
 * earlier puts by RMA or as messages). Each PE of the first half writes to its partner in the
 * second half (PE + n/2: on another test host across hosts). Each round the writer issues a random
 * plan of 1 to 8 operations (putmem, putmem_nbi, a posted atomic add, put-with-signal blocking or
 * nbi, with payloads of random sizes around 64 KiB and random data), then ends the round in one of
 * three ways: a put-with-signal that sets the round's signal; or a put-with-signal, a fence and an
 * atomic set of the round's signal; or a put-with-signal, a fence, a put of the inverted data over
 * the same block (the later write must win), a fence and the atomic set. The reader waits for the
 * round's signal and checks every block, counter and signal the plan wrote, then lets the writer
 * go on. The plan comes from a seed both sides share, so the reader knows what to expect. */
#include <inttypes.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_mix.h"

#define MAX_OPS 8
#define SLOTS (MAX_OPS + 1) /* the plan's blocks and the ending's */
#define SLOT_BYTES 300000
#define DEFAULT_ROUNDS 2000

enum { OP_PUT, OP_PUT_NBI, OP_ADD, OP_PUT_SIGNAL, OP_PUT_SIGNAL_NBI, OP_KINDS };
enum { END_PUT_SIGNAL, END_FENCE_SET, END_OVERWRITE, END_KINDS };

static const size_t sizes[] = {8, 1024, 65528, 65536, 65544, 131072, SLOT_BYTES};
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

static unsigned char dst[SLOTS][SLOT_BYTES];
static uint64_t counter[MAX_OPS];
static uint64_t op_sig[MAX_OPS];
static uint64_t round_sig;
static uint64_t go_on;

/* Word w of the payload of operation op in round r: never zero, different per round and op. */
static uint64_t word(int pair, int r, int op, size_t w) {
    uint64_t v = net_mix(((uint64_t)pair << 48) ^ ((uint64_t)r << 24) ^ ((uint64_t)op << 20) ^ w);
    return v ? v : 1;
}

typedef struct {
    int n_ops;
    int kind[MAX_OPS];
    size_t size[MAX_OPS];
    uint64_t value[MAX_OPS]; /* the add or the signal's add */
    int end;
    size_t end_size;
} plan_t;

static plan_t plan_make(int pair, int r) {
    uint64_t s = net_mix(((uint64_t)pair << 32) ^ (uint64_t)r ^ 0x5eedull);
    plan_t p;
    p.n_ops = 1 + (int)(s % MAX_OPS);
    for (int i = 0; i < p.n_ops; i++) {
        s = net_mix(s + 1);
        p.kind[i] = (int)(s % OP_KINDS);
        p.size[i] = sizes[(s >> 8) % N_SIZES];
        p.value[i] = 1 + ((s >> 16) % 1000);
    }
    s = net_mix(s + 1);
    p.end = (int)(s % END_KINDS);
    p.end_size = sizes[(s >> 8) % N_SIZES];
    return p;
}

static void fill(unsigned char *buf, size_t size, int pair, int r, int op) {
    for (size_t w = 0; w < size / 8; w++) {
        uint64_t v = word(pair, r, op, w);
        memcpy(buf + w * 8, &v, 8);
    }
}

static void fail(int r, const char *what, int op, size_t at, uint64_t got, uint64_t want) {
    fprintf(stderr,
            "putsig_order: PE %d, round %d: %s of operation %d (byte %zu) is %#" PRIx64
            ", expected %#" PRIx64 "\n",
            shmem_my_pe(), r, what, op, at, got, want);
    shmem_global_exit(1);
}

static void check_block(int pair, int r, int op, size_t size, int overwritten) {
    for (size_t w = 0; w < size / 8; w++) {
        uint64_t got, want = word(pair, r, op, w);
        memcpy(&got, dst[op] + w * 8, 8);
        if (overwritten)
            want = ~want;
        if (got != want)
            fail(r, "the data", op, w * 8, got, want);
    }
}

static void writer(int pair, int reader, int rounds, unsigned char *src[SLOTS]) {
    for (int r = 1; r <= rounds; r++) {
        plan_t p = plan_make(pair, r);
        for (int i = 0; i < p.n_ops; i++) {
            if (p.kind[i] != OP_ADD)
                fill(src[i], p.size[i], pair, r, i);
            switch (p.kind[i]) {
            case OP_PUT:
                shmem_putmem(dst[i], src[i], p.size[i], reader);
                break;
            case OP_PUT_NBI:
                shmem_putmem_nbi(dst[i], src[i], p.size[i], reader);
                break;
            case OP_ADD:
                shmem_uint64_atomic_add(&counter[i], p.value[i], reader);
                break;
            case OP_PUT_SIGNAL:
                shmem_putmem_signal(dst[i], src[i], p.size[i], &op_sig[i], p.value[i],
                                    SHMEM_SIGNAL_ADD, reader);
                break;
            default:
                shmem_putmem_signal_nbi(dst[i], src[i], p.size[i], &op_sig[i], p.value[i],
                                        SHMEM_SIGNAL_ADD, reader);
                break;
            }
        }
        fill(src[MAX_OPS], p.end_size, pair, r, MAX_OPS);
        if (p.end == END_PUT_SIGNAL) {
            if (r % 2)
                shmem_putmem_signal(dst[MAX_OPS], src[MAX_OPS], p.end_size, &round_sig, (uint64_t)r,
                                    SHMEM_SIGNAL_SET, reader);
            else
                shmem_putmem_signal_nbi(dst[MAX_OPS], src[MAX_OPS], p.end_size, &round_sig,
                                        (uint64_t)r, SHMEM_SIGNAL_SET, reader);
        } else {
            shmem_putmem_signal(dst[MAX_OPS], src[MAX_OPS], p.end_size, &op_sig[0], 0,
                                SHMEM_SIGNAL_ADD, reader);
            shmem_fence();
            if (p.end == END_OVERWRITE) {
                for (size_t w = 0; w < p.end_size / 8; w++) {
                    uint64_t v = ~word(pair, r, MAX_OPS, w);
                    memcpy(src[MAX_OPS] + w * 8, &v, 8);
                }
                shmem_putmem(dst[MAX_OPS], src[MAX_OPS], p.end_size, reader);
                shmem_fence();
            }
            shmem_uint64_atomic_set(&round_sig, (uint64_t)r, reader);
        }
        shmem_uint64_wait_until(&go_on, SHMEM_CMP_EQ, (uint64_t)r);
        /* The nbi puts' sources are reused next round. */
        shmem_quiet();
    }
}

static void reader(int pair, int writer_pe, int rounds) {
    uint64_t counts[MAX_OPS] = {0}, sigs[MAX_OPS] = {0};
    for (int r = 1; r <= rounds; r++) {
        plan_t p = plan_make(pair, r);
        shmem_signal_wait_until(&round_sig, SHMEM_CMP_EQ, (uint64_t)r);
        for (int i = 0; i < p.n_ops; i++) {
            if (p.kind[i] == OP_ADD)
                counts[i] += p.value[i];
            else
                check_block(pair, r, i, p.size[i], 0);
            if (p.kind[i] == OP_PUT_SIGNAL || p.kind[i] == OP_PUT_SIGNAL_NBI)
                sigs[i] += p.value[i];
        }
        check_block(pair, r, MAX_OPS, p.end_size, p.end == END_OVERWRITE);
        for (int i = 0; i < MAX_OPS; i++) {
            uint64_t c = shmem_uint64_atomic_fetch(&counter[i], shmem_my_pe());
            if (c != counts[i])
                fail(r, "the counter", i, 0, c, counts[i]);
            uint64_t s = shmem_signal_fetch(&op_sig[i]);
            if (s != sigs[i])
                fail(r, "the signal", i, 0, s, sigs[i]);
        }
        shmem_uint64_atomic_set(&go_on, (uint64_t)r, writer_pe);
    }
}

int main(int argc, char **argv) {
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    int rounds = argc > 1 ? atoi(argv[1]) : DEFAULT_ROUNDS;
    if (n % 2 != 0 || rounds <= 0) {
        if (me == 0)
            fprintf(stderr, "putsig_order: needs an even number of PEs (got %d) and rounds > 0\n",
                    n);
        shmem_global_exit(1);
    }
    int half = n / 2, pair = me % half;
    unsigned char *src[SLOTS];
    for (int i = 0; i < SLOTS; i++)
        if ((src[i] = malloc(SLOT_BYTES)) == NULL)
            shmem_global_exit(1);
    shmem_barrier_all();
    if (me < half)
        writer(pair, me + half, rounds, src);
    else
        reader(pair, me - half, rounds);
    shmem_barrier_all();
    if (me == 0)
        printf("putsig_order: %d PEs, %d rounds: every put, AMO and signal before each signal\n", n,
               rounds);
    for (int i = 0; i < SLOTS; i++)
        free(src[i]);
    shmem_finalize();
    return 0;
}
