/* SPDX-License-Identifier: BSD-3-Clause */
/* The interpreter on the cpu platform: every PE of the job runs the threads that the test places
 * on it as POSIX threads, each event one library call (plan.h). A round runs many instances of
 * the test, each on its own symmetric lines; the threads of an instance meet at a spin barrier
 * and then run their events at once. Each round draws a new assignment of the test's PEs to the
 * job's PEs and of instances to memory slots, and stress threads write and read scratch lines of
 * every PE meanwhile. Plain accesses of the test are relaxed atomic accesses: the same
 * instructions as plain ones on the cpu, without a data race in C.
 *
 * PEs on other nodes (or every peer, with SHMEM_DISABLE_P2P=1) are not mapped: the start barrier
 * then counts and polls PE 0's word with AMOs, stress touches the mapped PEs' lines only, PE 0
 * collects the results with gets, and a test whose plain or bypass access crosses PEs cannot run
 * (it says so, and gets no result). */
#include <pthread.h>
#include <sched.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define LINE 8 /* longs per cache line: every location and counter has a line of its own */
#define STRESS_LINES 64

typedef struct cpu {
    const plan_t *p;
    const litmus_test_t *t;
    int me;
    int npes;
    int nthreads;
    int nlocs;
    int ngroups;
    int group_size[2 * LITMUS_MAX_THREADS];
    long *mem;     /* K slots x nlocs lines, symmetric */
    long *scratch; /* K slots x nthreads lines: the word of a put_signal that carries no put */
    long *regs;    /* K x nthreads x PLAN_MAX_REGS registers of this PE's threads */
    long *ctl;     /* K lines: the start barrier of each instance, on PE 0 */
    long *stress;  /* STRESS_LINES lines */
    long *start0;  /* PE 0's ctl; NULL when PE 0 is not mapped */
    long *grp;     /* K x ngroups counters of warp and block calls (process-local) */
    long *mem_of[64];
    long *regs_of[64];
    long *stress_of[64];
    int mapped[64]; /* the job's PEs this PE maps, stress_of's non-NULL entries */
    int nmapped;
    shmem_ctx_t ctx[PLAN_NCTX];
    /* This round. */
    int perm[64]; /* the test's PE -> the job's PE */
    int *slot;    /* instance -> memory slot */
    int kr;       /* instances this round */
    int stop;
    uint64_t stress_seed;
} cpu_t;

typedef struct job {
    cpu_t *c;
    int th;
    pthread_t tid;
} job_t;

static void spin_until(long *counter, long target) {
    for (unsigned i = 0; __atomic_load_n(counter, __ATOMIC_ACQUIRE) < target; i++) {
        if (i < 256) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        } else {
            sched_yield();
        }
    }
}

static long *loc_addr(const cpu_t *c, int s, int loc) {
    return c->mem + ((size_t)s * (size_t)c->nlocs + (size_t)loc) * LINE;
}

/* The address through which this PE loads and stores job PE pe's copy of a symmetric word. */
static long *direct(const cpu_t *c, long *sym, int pe) {
    return c->mem_of[pe] + (sym - c->mem);
}

/* Every thread of a warp or block meets here before and after its group's fence or quiet. */
static void group_sync(cpu_t *c, const plan_op_t *op, int th, int k, int phase) {
    if (op->group == PLAN_GROUP_THREAD)
        return;
    int g = op->group == PLAN_GROUP_BLOCK ? c->p->thread_block[th]
                                          : LITMUS_MAX_THREADS + c->p->thread_warp[th];
    long *counter = &c->grp[(size_t)k * (size_t)c->ngroups + (size_t)g];
    __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
    spin_until(counter, (long)phase * c->group_size[g]);
}

static uint64_t wait_signal(shmem_ctx_t ctx, uint64_t *s, int cmp, uint64_t value) {
    if (ctx == SHMEM_CTX_DEFAULT)
        return shmem_signal_wait_until(s, cmp, value);
    return shmemx_ctx_signal_wait_until(ctx, s, cmp, value);
}

static void run_op(cpu_t *c, const plan_op_t *op, int th, int k, int s, long *r, long *nbi) {
    long *x = op->loc >= 0 ? loc_addr(c, s, op->loc) : NULL;
    int pe = op->loc >= 0 ? c->perm[c->p->loc_home[op->loc]] : 0;
    shmem_ctx_t ctx = c->ctx[op->ctx];
    long v = (long)op->value;
    switch (op->kind) {
    case PLAN_NOP:
        return;
    case PLAN_PLAIN_ST:
        __atomic_store_n(direct(c, x, pe), v, __ATOMIC_RELAXED);
        return;
    case PLAN_PLAIN_LD:
        r[op->reg] = __atomic_load_n(direct(c, x, pe), __ATOMIC_RELAXED);
        return;
    case PLAN_BYPASS_ST:
        shmemx_long_st_bypass(direct(c, x, pe), v);
        return;
    case PLAN_BYPASS_LD:
        r[op->reg] = shmemx_long_ld_bypass(direct(c, x, pe));
        return;
    case PLAN_PUT:
        shmem_ctx_long_p(ctx, x, v, pe);
        return;
    case PLAN_GET:
        r[op->reg] = shmem_ctx_long_g(ctx, x, pe);
        return;
    case PLAN_GETNBI:
        shmem_ctx_long_get_nbi(ctx, &nbi[op->reg], x, 1, pe);
        return;
    case PLAN_AMO_SET:
        if (op->other_type)
            shmem_ctx_ulong_atomic_set(ctx, (unsigned long *)x, (unsigned long)v, pe);
        else
            shmem_ctx_long_atomic_set(ctx, x, v, pe);
        return;
    case PLAN_AMO_FETCH:
        r[op->reg] = op->other_type
                         ? (long)shmem_ctx_ulong_atomic_fetch(ctx, (unsigned long *)x, pe)
                         : shmem_ctx_long_atomic_fetch(ctx, x, pe);
        return;
    case PLAN_AMO_ADD:
        r[op->reg] = op->other_type ? (long)shmem_ctx_ulong_atomic_fetch_add(
                                          ctx, (unsigned long *)x, (unsigned long)v, pe)
                                    : shmem_ctx_long_atomic_fetch_add(ctx, x, v, pe);
        return;
    case PLAN_AMO_SWAP:
        r[op->reg] = op->other_type ? (long)shmem_ctx_ulong_atomic_swap(ctx, (unsigned long *)x,
                                                                        (unsigned long)v, pe)
                                    : shmem_ctx_long_atomic_swap(ctx, x, v, pe);
        return;
    case PLAN_PUT_SIGNAL: {
        long data = op->data_loc >= 0 ? (long)op->data : 1;
        long *dest = op->data_loc >= 0
                         ? loc_addr(c, s, op->data_loc)
                         : c->scratch + ((size_t)s * (size_t)c->nthreads + (size_t)th) * LINE;
        shmem_ctx_long_put_signal(ctx, dest, &data, 1, (uint64_t *)x, (uint64_t)v,
                                  op->sig_add ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, pe);
        return;
    }
    case PLAN_SIGNAL_SET:
        shmem_ctx_signal_set(ctx, (uint64_t *)x, (uint64_t)v, pe);
        return;
    case PLAN_SIGNAL_ADD:
        shmem_ctx_signal_add(ctx, (uint64_t *)x, (uint64_t)v, pe);
        return;
    case PLAN_SIGNAL_FETCH:
        r[op->reg] = (long)shmem_signal_fetch((uint64_t *)x);
        return;
    case PLAN_WAIT:
        shmem_long_wait_until(x, SHMEM_CMP_EQ, (long)op->wait_value);
        r[op->reg] = (long)op->wait_value;
        return;
    case PLAN_SIGNAL_WAIT:
        r[op->reg] =
            (long)wait_signal(ctx, (uint64_t *)x, op->wait_eq ? SHMEM_CMP_EQ : SHMEM_CMP_NE,
                              (uint64_t)(op->wait_eq ? op->wait_value : c->t->init[op->loc]));
        return;
    case PLAN_FENCE:
    case PLAN_QUIET:
        group_sync(c, op, th, k, 1);
        if (op->kind == PLAN_FENCE)
            shmem_ctx_fence(ctx);
        else
            shmem_ctx_quiet(ctx);
        group_sync(c, op, th, k, 2);
        return;
    case PLAN_BARRIER:
        shmem_barrier_all();
        return;
    case PLAN_ACQUIRE:
        shmemx_acquire(op->scope);
        return;
    case PLAN_RELEASE:
        shmemx_release(op->scope);
        return;
    }
}

/* The start barrier of instance k: every thread of the test, on every PE, arrives on PE 0's word
 * and waits until all have. */
static void start_barrier(cpu_t *c, int k) {
    if (c->start0) {
        __atomic_fetch_add(&c->start0[(size_t)k * LINE], 1, __ATOMIC_ACQ_REL);
        spin_until(&c->start0[(size_t)k * LINE], c->nthreads);
        return;
    }
    long *word = &c->ctl[(size_t)k * LINE];
    shmem_long_atomic_add(word, 1, 0);
    while (shmem_long_atomic_fetch(word, 0) < c->nthreads)
        sched_yield();
}

static void *test_thread(void *arg) {
    job_t *j = arg;
    cpu_t *c = j->c;
    const plan_t *p = c->p;
    int th = j->th, nops = p->nops[th];
    for (int k = 0; k < c->kr; k++) {
        int s = c->slot[k];
        long r[PLAN_MAX_REGS] = {0}, nbi[PLAN_MAX_REGS] = {0};
        start_barrier(c, k);
        for (int i = 0; i < nops; i++)
            run_op(c, &p->ops[th][i], th, k, s, r, nbi);
        for (int i = 0; i < nops; i++)
            if (p->ops[th][i].kind == PLAN_GETNBI) {
                shmem_ctx_quiet(c->ctx[p->ops[th][i].ctx]);
                r[p->ops[th][i].reg] = nbi[p->ops[th][i].reg];
            }
        long *out = c->regs + ((size_t)k * (size_t)c->nthreads + (size_t)th) * PLAN_MAX_REGS;
        memcpy(out, r, sizeof r);
    }
    for (int x = 0; x < PLAN_NCTX; x++)
        if (p->ctx_used & (1u << x))
            shmem_ctx_quiet(c->ctx[x]);
    return NULL;
}

static void *stress_thread(void *arg) {
    cpu_t *c = arg;
    uint64_t seed = __atomic_fetch_add(&c->stress_seed, 0x51ed27u, __ATOMIC_RELAXED);
    for (long i = 0; !__atomic_load_n(&c->stop, __ATOMIC_RELAXED); i++) {
        uint64_t z = harness_rand(&seed);
        long *line =
            c->stress_of[c->mapped[z % (uint64_t)c->nmapped]] + ((z >> 16) % STRESS_LINES) * LINE;
        __atomic_store_n(&line[(z >> 32) % LINE], i, __ATOMIC_RELAXED);
        (void)__atomic_load_n(&line[(z >> 40) % LINE], __ATOMIC_RELAXED);
        /* Yield often: on a machine with fewer cores than threads the test's own threads must
         * still meet at their spin barriers. */
        if ((i & 63) == 63)
            sched_yield();
    }
    return NULL;
}

static void collect(cpu_t *c, harness_counts_t *counts) {
    const plan_t *p = c->p;
    int64_t row[PLAN_MAX_COLS];
    for (int k = 0; k < c->kr; k++) {
        for (int col = 0; col < p->ncols; col++) {
            int th = p->col_proc[col], id = p->col_id[col];
            long *sym;
            int pe;
            if (th >= 0) {
                pe = c->perm[p->thread_pe[th]];
                sym = c->regs + ((size_t)k * (size_t)c->nthreads + (size_t)th) * PLAN_MAX_REGS + id;
            } else {
                pe = c->perm[p->loc_home[id]];
                sym = loc_addr(c, c->slot[k], id);
            }
            row[col] = c->mem_of[pe] ? __atomic_load_n(direct(c, sym, pe), __ATOMIC_RELAXED)
                                     : shmem_long_g(sym, pe);
        }
        harness_counts_add(counts, row, 1);
    }
}

static void *alloc(size_t longs) {
    void *a = shmem_calloc(longs, sizeof(long));
    if (!a) {
        fprintf(stderr, "shmem-litmus run: no room for %zu bytes of symmetric memory\n",
                longs * sizeof(long));
        shmem_global_exit(2);
    }
    return a;
}

static int run_test(const harness_opts_t *o, int test, const plan_t *p, int provided) {
    static const long ctx_options[PLAN_NCTX] = {
        0, 0, 0, SHMEM_CTX_NOSTORE, SHMEMX_CTX_BYPASS, SHMEMX_CTX_BYPASS};
    const litmus_test_t *t = p->test;
    cpu_t c = {.p = p,
               .t = t,
               .me = shmem_my_pe(),
               .npes = shmem_n_pes(),
               .nthreads = t->nthreads,
               .nlocs = t->nlocs,
               .ngroups = 2 * LITMUS_MAX_THREADS};
    if (c.npes != p->npes || c.npes > 64 || provided < SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "shmem-litmus run: %s needs %d PEs with SHMEM_THREAD_MULTIPLE\n", t->name,
                p->npes);
        shmem_global_exit(2);
    }
    size_t K = (size_t)o->instances;
    c.mem = alloc(K * (size_t)c.nlocs * LINE);
    c.scratch = alloc(K * (size_t)c.nthreads * LINE);
    c.regs = alloc(K * (size_t)c.nthreads * PLAN_MAX_REGS);
    c.ctl = alloc(K * LINE);
    c.stress = alloc(STRESS_LINES * LINE);
    c.grp = calloc(K * (size_t)c.ngroups, sizeof(long));
    c.slot = calloc(K, sizeof(int));
    if (!c.grp || !c.slot) {
        fprintf(stderr, "shmem-litmus run: out of memory\n");
        shmem_global_exit(2);
    }
    c.start0 = shmem_ptr(c.ctl, 0);
    for (int q = 0; q < c.npes; q++) {
        c.mem_of[q] = shmem_ptr(c.mem, q);
        c.regs_of[q] = shmem_ptr(c.regs, q);
        c.stress_of[q] = shmem_ptr(c.stress, q);
        if (c.stress_of[q])
            c.mapped[c.nmapped++] = q;
    }
    /* A plain or bypass access to a location of another PE needs load/store between PEs. */
    for (int th = 0; c.nmapped < c.npes && th < t->nthreads; th++)
        for (int i = 0; i < p->nops[th]; i++) {
            const plan_op_t *op = &p->ops[th][i];
            int direct_access = op->kind == PLAN_PLAIN_ST || op->kind == PLAN_PLAIN_LD ||
                                op->kind == PLAN_BYPASS_ST || op->kind == PLAN_BYPASS_LD;
            if (direct_access && op->loc >= 0 && p->loc_home[op->loc] != p->thread_pe[th]) {
                fprintf(stderr,
                        "shmem-litmus run: %s: a plain access to another PE's location needs "
                        "PEs that map each other's memory (one node)\n",
                        t->name);
                shmem_global_exit(2);
            }
        }
    for (int th = 0; th < t->nthreads; th++) {
        c.group_size[p->thread_block[th]]++;
        c.group_size[LITMUS_MAX_THREADS + p->thread_warp[th]]++;
    }
    for (int x = 1; x < PLAN_NCTX; x++)
        if ((p->ctx_used & (1u << x)) && shmem_ctx_create(ctx_options[x], &c.ctx[x]) != 0) {
            fprintf(stderr, "shmem-litmus run: shmem_ctx_create failed\n");
            shmem_global_exit(2);
        }
    harness_counts_t counts = {.ncols = p->ncols};
    job_t jobs[LITMUS_MAX_THREADS];
    pthread_t stress[64];
    int nstress = o->stress < 64 ? o->stress : 64;
    long done = 0, round = 0;
    double start = harness_now();
    for (;; round++) {
        uint64_t rs = o->seed * 0x100000001b3ull + (uint64_t)round;
        harness_shuffle(c.perm, c.npes, &rs);
        harness_shuffle(c.slot, (int)K, &rs);
        c.kr = o->iterations - done < (long)K ? (int)(o->iterations - done) : (int)K;
        c.kr = c.kr > 0 ? c.kr : 1;
        c.stress_seed = rs ^ (uint64_t)c.me;
        for (size_t s = 0; s < K; s++)
            for (int l = 0; l < c.nlocs; l++)
                c.mem[(s * (size_t)c.nlocs + (size_t)l) * LINE] = (long)t->init[l];
        memset(c.regs, 0, K * (size_t)c.nthreads * PLAN_MAX_REGS * sizeof(long));
        memset(c.ctl, 0, K * LINE * sizeof(long));
        memset(c.grp, 0, K * (size_t)c.ngroups * sizeof(long));
        shmem_barrier_all();
        c.stop = 0;
        for (int i = 0; i < nstress; i++)
            if (pthread_create(&stress[i], NULL, stress_thread, &c) != 0)
                nstress = i;
        int njobs = 0;
        for (int th = 0; th < t->nthreads; th++)
            if (c.perm[p->thread_pe[th]] == c.me) {
                jobs[njobs] = (job_t){.c = &c, .th = th};
                if (pthread_create(&jobs[njobs].tid, NULL, test_thread, &jobs[njobs]) != 0) {
                    fprintf(stderr, "shmem-litmus run: cannot start a thread\n");
                    shmem_global_exit(2);
                }
                njobs++;
            }
        for (int i = 0; i < njobs; i++)
            pthread_join(jobs[i].tid, NULL);
        __atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
        for (int i = 0; i < nstress; i++)
            pthread_join(stress[i], NULL);
        shmem_barrier_all();
        done += c.kr;
        if (c.me == 0) {
            collect(&c, &counts);
            harness_round_done(o, test, p, &counts, done, round + 1, harness_now() - start);
        }
        shmem_barrier_all();
        if (harness_stop_seen(o, test))
            break;
    }
    int rc = c.me == 0
                 ? harness_write_counts(o, test, p, &counts, round + 1, harness_now() - start, 0)
                 : 0;
    for (int x = 1; x < PLAN_NCTX; x++)
        if (p->ctx_used & (1u << x))
            shmem_ctx_destroy(c.ctx[x]);
    harness_counts_free(&counts);
    free(c.grp);
    free(c.slot);
    shmem_free(c.stress);
    shmem_free(c.ctl);
    shmem_free(c.regs);
    shmem_free(c.scratch);
    shmem_free(c.mem);
    return rc < 0 ? 2 : 0;
}

int harness_worker_main(const harness_opts_t *o, int n, const plan_t *plans) {
    int provided, rc = 0;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    for (int i = 0; i < n; i++)
        rc |= run_test(o, i, &plans[i], provided);
    shmem_finalize();
    return rc;
}
