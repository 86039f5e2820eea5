/* SPDX-License-Identifier: BSD-3-Clause */
/* put_signal_latency: latency of shmem_putmem_signal between PE 0 and PE 1 (OpenSHMEM 1.5).
 * pingpong: PE 0 puts with a signal (SHMEM_SIGNAL_SET of the iteration's number) to PE 1, which
 *           waits for it with shmem_signal_wait_until and answers the same way; half the round
 *           trip is reported. Each iteration the payload's last byte changes and the receiver
 *           checks it once the signal is seen; each repetition the whole payload (random bytes,
 *           never zero) is checked.
 * putfirst: the same, but each side first puts an 8-byte header (shmem_putmem, random, new
 *           each iteration, checked once the signal is seen) and then the payload with its
 *           signal, as a dispatch that sends metadata ahead of the data does: the signal must
 *           follow the earlier put too. */
#include "bench_common.h"

static const bench_desc_t desc = {
    .name = "put_signal_latency",
    .usage = "putmem_signal ping-pong latency (put with signal, signal_wait_until), in us",
    .defaults = {.min_size = 8,
                 .max_size = 1 << 20,
                 .step = 2,
                 .iters = 2000,
                 .warmup = 200,
                 .reps = 5,
                 .window = 1,
                 .mode = "all"},
    .has_sizes = 1,
    .has_mode = 1,
};

static unsigned char *src, *dst;
static uint64_t *header; /* putfirst: PE 1's copy of PE 0's header and the reverse */
static uint64_t *sig;
static double *vals;
static uint64_t seq;

/* The payload's last byte in iteration s: never zero. */
static unsigned char last_byte(uint64_t s) {
    return (unsigned char)(s % 255u + 1u);
}

/* The header of iteration s: random, never zero. */
static uint64_t header_word(uint64_t s) {
    uint64_t st = bench_rand_state(s, 8);
    return bench_rand_next(&st) | 1u;
}

static void pingpong(const bench_opts_t *o, size_t size, int put_first) {
    int active = bench_me < 2, peer = 1 - bench_me;
    uint64_t head_src = 0;
    for (int r = 0; r < o->reps; r++) {
        /* A new pattern per repetition, checked (but for the last byte) after it, before the
         * barrier lets the peer send the next one. */
        bench_pattern_fill(src, size, size, 1000 * (uint64_t)r + (uint64_t)bench_me);
        shmem_barrier_all();
        if (!active)
            continue;
        double t0 = 0;
        for (long i = 0; i < o->warmup + o->iters; i++) {
            if (i == o->warmup)
                t0 = bench_now_ns();
            seq++;
            src[size - 1] = last_byte(seq);
            head_src = header_word(seq);
            if (bench_me == 0) {
                if (put_first)
                    shmem_putmem(header, &head_src, sizeof(head_src), peer);
                shmem_putmem_signal(dst, src, size, sig, seq, SHMEM_SIGNAL_SET, peer);
            }
            shmem_signal_wait_until(sig, SHMEM_CMP_EQ, seq);
            /* Before PE 1 answers: the answer lets PE 0 send the next payload. */
            if (dst[size - 1] != last_byte(seq))
                bench_fail("the payload's last byte is not the one sent with the signal", size,
                           (long)i);
            if (put_first && *header != header_word(seq))
                bench_fail("the header put before the signal is not in place", size, (long)i);
            if (bench_me == 1) {
                if (put_first)
                    shmem_putmem(header, &head_src, sizeof(head_src), peer);
                shmem_putmem_signal(dst, src, size, sig, seq, SHMEM_SIGNAL_SET, peer);
            }
        }
        vals[r] = (bench_now_ns() - t0) / (double)o->iters / 2e3;
        long bad = bench_pattern_check(dst, size - 1, size, 1000 * (uint64_t)r + (uint64_t)peer);
        if (bad >= 0)
            bench_fail("ping-pong payload differs from the sender's pattern", size, bad);
    }
    shmem_barrier_all();
    bench_report(desc.name, "put_signal", put_first ? "putfirst" : "pingpong", size, o->iters,
                 o->warmup, o->reps, "us", vals);
}

int main(int argc, char **argv) {
    bench_opts_t o;
    bench_init(&desc, argc, argv, &o);
    src = malloc(o.max_size);
    dst = shmem_malloc(o.max_size);
    sig = shmem_malloc(sizeof(uint64_t));
    header = shmem_malloc(sizeof(uint64_t));
    vals = malloc((size_t)o.reps * sizeof(double));
    if (!src || !dst || !sig || !header || !vals)
        bench_fail("out of memory", o.max_size, 0);
    *sig = 0;
    shmem_barrier_all();
    if (bench_mode_on(&o, "pingpong"))
        for (size_t size = o.min_size; size <= o.max_size; size *= o.step)
            pingpong(&o, size, 0);
    if (bench_mode_on(&o, "putfirst"))
        for (size_t size = o.min_size; size <= o.max_size; size *= o.step)
            pingpong(&o, size, 1);
    free(vals);
    shmem_free(header);
    shmem_free(sig);
    shmem_free(dst);
    free(src);
    shmem_finalize();
    return 0;
}
