/* SPDX-License-Identifier: BSD-3-Clause */
/* The memory model over delivered segments (docs/transports.md, "Delivered segments"), run with
 * SHMEM_NET_DELIVER=1 so that every operation between PEs is a message the target applies.
 * Modes:
 *   putsig       PE 0 sends put-with-signal to PE 1 many times, with payloads of 8 bytes to
 *                256 KiB (UCX's eager and rendezvous protocols); PE 1 waits for each signal (in
 *                the library, or outside it while its progress thread applies the message) and
 *                checks the first and last word of the payload: the payload is in place before
 *                the signal.
 *   quiet_third  PE 0 puts 1 MiB to a target PE, quiets, then sets a flag on a third PE, which
 *                then reads the last and first words of the target's copy (by load where it
 *                maps the target, else by get): quiet returned only once the put was applied at
 *                the target (3 PEs or more). The target computes outside the library.
 *   ordered      PE 0 puts a large then a small block to PE 1 with a fence between, then sets a
 *                flag by AMO; PE 1 checks, after the flag, that both arrived and that the fence
 *                kept the small put after the large one on a word both write.
 *   nbi          PE 0 puts 4 MiB with shmem_putmem_nbi to PE 1, which sleeps 2 s outside the
 *                library (run without a progress thread): the put_nbi returns within 1 s (it
 *                does not wait for its send, which the target must pull), the quiet after it
 *                only once PE 1 applied it, and PE 1 then finds the bytes.
 *   blocks       PE 0 puts to PE 1 and gets the bytes back, in rounds whose messages change size
 *                (64 KiB to 3 MiB, odd lengths among them), several put_nbi in flight at once,
 *                each with bytes of its own: the target receives large messages into blocks it
 *                keeps for the next ones and answers large gets from such blocks; PE 0 checks
 *                every byte it gets, PE 1 every byte it received. */
#include <inttypes.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PUTSIG_ROUNDS 600
#define THIRD_ROUNDS 40
#define ORDERED_ROUNDS 200
#define BIG (1u << 20)

static uint64_t sig;
static uint64_t flag;
static uint64_t ack;

static void fail(const char *mode, int round, const char *what, uint64_t got, uint64_t want) {
    fprintf(stderr, "deliver %s: PE %d, round %d: %s is %" PRIu64 ", expected %" PRIu64 "\n", mode,
            shmem_my_pe(), round, what, got, want);
    shmem_global_exit(1);
}

static void putsig(uint64_t *buf, uint64_t *src) {
    static const size_t sizes[] = {8, 4096, 65536, 262144};
    int me = shmem_my_pe();
    for (int i = 1; i <= PUTSIG_ROUNDS; i++) {
        size_t words = sizes[i % 4] / sizeof(uint64_t);
        if (me == 0) {
            for (size_t w = 0; w < words; w++)
                src[w] = (uint64_t)i;
            shmem_putmem_signal(buf, src, words * sizeof(uint64_t), &sig, (uint64_t)i,
                                SHMEM_SIGNAL_SET, 1);
            shmem_uint64_wait_until(&ack, SHMEM_CMP_EQ, (uint64_t)i);
        } else if (me == 1) {
            /* Odd rounds wait outside the library, so that the progress thread applies the
             * message while this thread looks: a signal applied before its payload shows. */
            if (i % 2)
                while (__atomic_load_n(&sig, __ATOMIC_ACQUIRE) != (uint64_t)i)
                    ;
            else
                shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, (uint64_t)i);
            uint64_t last = __atomic_load_n(&buf[words - 1], __ATOMIC_RELAXED);
            if (last != (uint64_t)i)
                fail("putsig", i, "the payload's last word", last, (uint64_t)i);
            if (buf[0] != (uint64_t)i)
                fail("putsig", i, "the payload's first word", buf[0], (uint64_t)i);
            shmem_uint64_atomic_set(&ack, (uint64_t)i, 0);
        }
    }
}

/* Writer PE 0, target T = n - 2, reader R = n - 1 (T's node peer where the job maps them, so
 * that R reads T's memory by load and store, past T's queue of operations). T computes outside
 * the library meanwhile: its progress thread applies what arrives. */
static uint64_t target_done;

static void quiet_third(uint64_t *buf, uint64_t *src) {
    int me = shmem_my_pe(), n = shmem_n_pes(), target = n - 2, reader = n - 1;
    size_t words = BIG / sizeof(uint64_t);
    if (me == target) {
        while (__atomic_load_n(&target_done, __ATOMIC_ACQUIRE) == 0)
            ;
        return;
    }
    const uint64_t *mapped = shmem_ptr(buf, target);
    for (int i = 1; i <= THIRD_ROUNDS; i++) {
        if (me == 0) {
            for (size_t w = 0; w < words; w++)
                src[w] = (uint64_t)i;
            shmem_putmem_nbi(buf, src, BIG, target);
            shmem_quiet();
            shmem_uint64_p(&flag, (uint64_t)i, reader);
            shmem_uint64_wait_until(&ack, SHMEM_CMP_EQ, (uint64_t)i);
        } else if (me == reader) {
            shmem_uint64_wait_until(&flag, SHMEM_CMP_EQ, (uint64_t)i);
            uint64_t last = mapped ? __atomic_load_n(&mapped[words - 1], __ATOMIC_ACQUIRE)
                                   : shmem_uint64_g(&buf[words - 1], target);
            uint64_t first = mapped ? __atomic_load_n(&mapped[0], __ATOMIC_ACQUIRE)
                                    : shmem_uint64_g(&buf[0], target);
            if (last != (uint64_t)i)
                fail("quiet_third", i, "the target's last word", last, (uint64_t)i);
            if (first != (uint64_t)i)
                fail("quiet_third", i, "the target's first word", first, (uint64_t)i);
            shmem_uint64_atomic_set(&ack, (uint64_t)i, 0);
        }
    }
    if (me == 0)
        shmem_uint64_atomic_set(&target_done, 1, target);
}

static void ordered(uint64_t *buf, uint64_t *src) {
    int me = shmem_my_pe();
    size_t words = (BIG / 4) / sizeof(uint64_t);
    for (int i = 1; i <= ORDERED_ROUNDS; i++) {
        if (me == 0) {
            for (size_t w = 0; w < words; w++)
                src[w] = (uint64_t)i * 2;
            uint64_t one = (uint64_t)i * 2 + 1;
            shmem_putmem_nbi(buf, src, words * sizeof(uint64_t), 1);
            shmem_fence();
            shmem_putmem_nbi(&buf[words - 1], &one, sizeof(one), 1);
            shmem_fence();
            shmem_uint64_atomic_set(&flag, (uint64_t)i, 1);
            shmem_uint64_wait_until(&ack, SHMEM_CMP_EQ, (uint64_t)i);
        } else if (me == 1) {
            shmem_uint64_wait_until(&flag, SHMEM_CMP_EQ, (uint64_t)i);
            if (buf[0] != (uint64_t)i * 2)
                fail("ordered", i, "the large put's first word", buf[0], (uint64_t)i * 2);
            if (buf[words - 1] != (uint64_t)i * 2 + 1)
                fail("ordered", i, "the word the fenced put wrote last", buf[words - 1],
                     (uint64_t)i * 2 + 1);
            shmem_uint64_atomic_set(&ack, (uint64_t)i, 0);
        }
    }
}

#define NBI_BYTES (4u << 20)

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nbi(void) {
    unsigned char *dst = shmem_calloc(NBI_BYTES, 1);
    unsigned char *src = malloc(NBI_BYTES);
    if (!dst || !src) {
        fprintf(stderr, "deliver nbi: out of memory\n");
        shmem_global_exit(1);
    }
    for (size_t i = 0; i < NBI_BYTES; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        struct timespec nap = {2, 0};
        nanosleep(&nap, NULL);
    } else if (shmem_my_pe() == 0) {
        double t0 = seconds();
        shmem_putmem_nbi(dst, src, NBI_BYTES, 1);
        double t1 = seconds();
        shmem_quiet();
        double t2 = seconds();
        if (t1 - t0 > 1.0)
            fail("nbi", 0, "the put_nbi's time (ms) while its target slept",
                 (uint64_t)((t1 - t0) * 1e3), 1000);
        if (t2 - t0 < 1.0)
            fail("nbi", 0, "the quiet's end (ms) while its target slept 2 s",
                 (uint64_t)((t2 - t0) * 1e3), 2000);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        for (size_t i = 0; i < NBI_BYTES; i += 4093)
            if (dst[i] != (unsigned char)(i * 7 + 1))
                fail("nbi", 0, "a byte of the put", dst[i], (unsigned char)(i * 7 + 1));
    free(src);
    shmem_free(dst);
}

#define BLOCK_ROUNDS 24
#define BLOCK_PUTS 4
#define BLOCK_MAX (3u << 20)
static const size_t block_sizes[] = {BLOCK_MAX,       64u << 10,  (1u << 20) + 8,
                                     (96u << 10) + 3, 512u << 10, 2u << 20};

static unsigned char block_byte(size_t i, int round, int k) {
    return (unsigned char)(i * 131 + (size_t)round * 7 + (size_t)k * 13 + 1);
}

static void blocks(void) {
    unsigned char *dst = shmem_malloc((size_t)BLOCK_PUTS * BLOCK_MAX);
    unsigned char *src = malloc((size_t)BLOCK_PUTS * BLOCK_MAX), *back = malloc(BLOCK_MAX);
    if (!dst || !src || !back) {
        fprintf(stderr, "deliver blocks: out of memory\n");
        shmem_global_exit(1);
    }
    for (int r = 0; r < BLOCK_ROUNDS; r++) {
        const size_t len = block_sizes[r % (sizeof(block_sizes) / sizeof(block_sizes[0]))];
        shmem_barrier_all();
        if (shmem_my_pe() == 0) {
            for (int k = 0; k < BLOCK_PUTS; k++) {
                unsigned char *from = src + (size_t)k * BLOCK_MAX;
                for (size_t i = 0; i < len; i++)
                    from[i] = block_byte(i, r, k);
                shmem_putmem_nbi(dst + (size_t)k * BLOCK_MAX, from, len, 1);
            }
            shmem_quiet();
            for (int k = 0; k < BLOCK_PUTS; k++) {
                shmem_getmem(back, dst + (size_t)k * BLOCK_MAX, len, 1);
                for (size_t i = 0; i < len; i++)
                    if (back[i] != block_byte(i, r, k))
                        fail("blocks", r, "a byte got back", back[i], block_byte(i, r, k));
            }
        }
        shmem_barrier_all();
        if (shmem_my_pe() == 1)
            for (int k = 0; k < BLOCK_PUTS; k++)
                for (size_t i = 0; i < len; i++)
                    if (dst[(size_t)k * BLOCK_MAX + i] != block_byte(i, r, k))
                        fail("blocks", r, "a byte received", dst[(size_t)k * BLOCK_MAX + i],
                             block_byte(i, r, k));
    }
    free(back);
    free(src);
    shmem_free(dst);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    shmem_init();
    int n = shmem_n_pes();
    if (n < (strcmp(mode, "quiet_third") == 0 ? 3 : 2)) {
        fprintf(stderr, "deliver %s: needs more PEs than %d\n", mode, n);
        shmem_global_exit(2);
    }
    uint64_t *buf = shmem_calloc(BIG / sizeof(uint64_t), sizeof(uint64_t));
    uint64_t *src = malloc(BIG);
    if (!buf || !src) {
        fprintf(stderr, "deliver: out of memory\n");
        shmem_global_exit(1);
    }
    if (strcmp(mode, "putsig") == 0)
        putsig(buf, src);
    else if (strcmp(mode, "quiet_third") == 0)
        quiet_third(buf, src);
    else if (strcmp(mode, "ordered") == 0)
        ordered(buf, src);
    else if (strcmp(mode, "nbi") == 0)
        nbi();
    else if (strcmp(mode, "blocks") == 0)
        blocks();
    else {
        fprintf(stderr, "usage: deliver putsig|quiet_third|ordered|nbi|blocks\n");
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("deliver %s: %d PEs ok\n", mode, n);
    free(src);
    shmem_free(buf);
    shmem_finalize();
    return 0;
}
