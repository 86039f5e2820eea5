/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem-litmus run: the front end of the litmus harness. For every test it evaluates the model
 * (the checker's evaluation gives the final states the model allows), starts the interpreter on
 * as many PEs as the test has under shmemrun, and reports each test as soon as the interpreter
 * has written its counted final states: a histogram in litmus7's format with the verdict and
 * the allowed states never seen, and the JSON file rewritten with every result so far. A test
 * that runs too long is stopped (its counts so far are reported) and the job goes on with the
 * tests after it. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"

typedef struct run_cfg {
    harness_opts_t h;
    const char *platform;
    const char *weaken; /* the primitive of the weakened interpreter, or NULL */
    const char *bell;
    const char *cat;
    const char *json;
    const char *note;
    const char *machine;
    const char *commit;
    const char *command;
    const char *launcher;
    int timeout;      /* the whole run, seconds (0: none) */
    int test_timeout; /* one test, seconds (0: none) */
    int worker;
} run_cfg_t;

static void usage(FILE *out) {
    fputs("usage: shmem-litmus run [OPTIONS] TEST.litmus...\n"
          "  Runs each test on the library, many times and under stress, and prints the\n"
          "  histogram of final states, 'Verdict NAME ok|FORBIDDEN-SEEN' and the states the\n"
          "  model allows that never showed. Exit status 1 when a forbidden state was seen.\n"
          "  --platform cpu|cuda|hip  where the test's threads run (default cpu)\n"
          "  --weaken fence|quiet|wait  run on the test build of the library whose primitive\n"
          "                           is weakened (built with SHMEM_TEST_WEAKEN)\n"
          "  --iterations N           instances of each test in all (default 100000)\n"
          "  --instances K            instances per round, each on its own lines (default 500)\n"
          "  --stress S               stress threads (GPU: warps per block) per PE (default 1)\n"
          "  --prime PCT              GPU: percent of test threads that load their locations\n"
          "                           before the test starts (default 50)\n"
          "  --seed X                 seed of the placement permutations (default: the time)\n"
          "  --max-seconds SEC        run each test at most this long (default 0: no limit)\n"
          "  --min-iterations N       but never stop a spread test (threads in several blocks\n"
          "                           or PEs) for time before N instances (default 0)\n"
          "  --test-timeout SEC       stop a test that gives no result in SEC, report its\n"
          "                           counts so far and go on with the next (default 0: none)\n"
          "  --timeout SEC            stop the whole run after SEC (default 0: none)\n"
          "  --bell FILE, --cat FILE  the model (default ../shmem.bell, ../shmem.cat)\n"
          "  --json FILE              also write the results as JSON, after every test\n"
          "  --machine, --commit, --command, --note TEXT   recorded in the JSON file\n"
          "  --launcher PATH          shmemrun (default: next to this program)\n",
          out);
}

/* The interpreter: this program on the cpu, on GPUs the sibling whose name adds -PLATFORM
 * (shmem-litmus-cuda); with --weaken P, shmem-litmus-weak-P[-PLATFORM]. */
static int find_programs(const run_cfg_t *cfg, char *self, char *launcher, size_t cap) {
    ssize_t n = readlink("/proc/self/exe", self, cap - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", self);
    *strrchr(dir, '/') = '\0';
    if (cfg->weaken && snprintf(self, cap, "%s/shmem-litmus-weak-%s", dir, cfg->weaken) >= (int)cap)
        return -1;
    if (strcmp(cfg->platform, "cpu") != 0) {
        size_t len = strlen(self);
        snprintf(self + len, cap - len, "-%s", cfg->platform);
    }
    if (access(self, X_OK) != 0) {
        fprintf(stderr, "shmem-litmus run: %s is not built (configure with SHMEM_GPU=%s%s%s)\n",
                self, strcmp(cfg->platform, "cpu") ? cfg->platform : "none",
                cfg->weaken ? " and SHMEM_TEST_WEAKEN=" : "", cfg->weaken ? cfg->weaken : "");
        return -1;
    }
    if (cfg->launcher) {
        snprintf(launcher, cap, "%s", cfg->launcher);
        return 0;
    }
    static const char *const rel[] = {"/../tools/shmemrun", "/../../tools/shmemrun", "/shmemrun"};
    for (int i = 0; i < 3; i++) {
        snprintf(launcher, cap, "%s%s", dir, rel[i]);
        if (access(launcher, X_OK) == 0)
            return 0;
    }
    snprintf(launcher, cap, "shmemrun");
    return 0;
}

/* The job in flight: a signal that stops the front end stops it too. A job is a process group
 * (the launcher and its PEs), so that no PE outlives it: a PE left running would keep the
 * front end's output open after it ends. */
static volatile pid_t job_pid;

static void stop_job(int sig) {
    if (job_pid > 0)
        kill(-job_pid, SIGTERM);
    signal(sig, SIG_DFL);
    raise(sig);
}

static pid_t start_job(const run_cfg_t *cfg, const char *self, const char *launcher, int npes,
                       const char *out, int ntests, char **tests) {
    char np[16], it[32], mit[32], inst[16], st[16], pr[16], seed[32], secs[32];
    snprintf(np, sizeof np, "%d", npes);
    snprintf(it, sizeof it, "%ld", cfg->h.iterations);
    snprintf(mit, sizeof mit, "%ld", cfg->h.min_iterations);
    snprintf(inst, sizeof inst, "%d", cfg->h.instances);
    snprintf(st, sizeof st, "%d", cfg->h.stress);
    snprintf(pr, sizeof pr, "%d", cfg->h.prime);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)cfg->h.seed);
    snprintf(secs, sizeof secs, "%g", cfg->h.max_seconds);
    char *fixed[] = {(char *)launcher,
                     "-n",
                     np,
                     (char *)self,
                     "run",
                     "--worker",
                     "--out",
                     (char *)out,
                     "--iterations",
                     it,
                     "--min-iterations",
                     mit,
                     "--instances",
                     inst,
                     "--stress",
                     st,
                     "--prime",
                     pr,
                     "--seed",
                     seed,
                     "--max-seconds",
                     secs};
    int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    char **argv = calloc((size_t)(nfixed + ntests + 1), sizeof *argv);
    if (!argv)
        return -1;
    memcpy(argv, fixed, sizeof fixed);
    memcpy(argv + nfixed, tests, (size_t)ntests * sizeof *tests);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* Every PE's threads (test threads and stress) must be free to run on any processor, so
         * that they run at once and the weak outcomes can show: shmemrun binds no PE. */
        setenv("SHMEM_BIND", "none", 1);
        execvp(launcher, argv);
        fprintf(stderr, "shmem-litmus run: cannot start %s: %s\n", launcher, strerror(errno));
        _exit(127);
    }
    free(argv);
    if (pid > 0) {
        setpgid(pid, pid);
        job_pid = pid;
    }
    return pid;
}

/* Seconds a job has to end once its last test's result is in. */
#define JOB_END_SECONDS 60

/* One step of the front end's polling loops. */
static void tick(void) {
    struct timespec t = {0, 10 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* Waits up to `seconds` (0: one look) for the job's launcher to end. Returns 1 if it has ended,
 * its wait status in *status. */
static int wait_job(pid_t pid, double seconds, int *status) {
    const double t0 = harness_now();
    while (waitpid(pid, status, WNOHANG) != pid) {
        if (harness_now() - t0 >= seconds)
            return 0;
        tick();
    }
    job_pid = 0;
    return 1;
}

/* Stops the job: SIGTERM to the launcher and its PEs, SIGKILL if that is not enough. */
static int end_job(pid_t pid) {
    int status = 0;
    kill(-pid, SIGTERM);
    if (!wait_job(pid, 5, &status)) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        job_pid = 0;
    }
    return status;
}

static int read_counts(const char *path, const plan_t *p, harness_counts_t *h, long *rounds,
                       double *secs) {
    FILE *f = fopen(path, "r");
    int ncols = -1;
    if (!f || fscanf(f, "rounds %ld seconds %lf cols %d", rounds, secs, &ncols) != 3 ||
        ncols != p->ncols) {
        if (f)
            fclose(f);
        return -1;
    }
    h->ncols = ncols;
    int64_t row[PLAN_MAX_COLS];
    long long count, v;
    while (fscanf(f, "%lld", &count) == 1) {
        for (int c = 0; c < ncols; c++) {
            if (fscanf(f, "%lld", &v) != 1) {
                fclose(f);
                return -1;
            }
            row[c] = v;
        }
        harness_counts_add(h, row, count);
    }
    fclose(f);
    return 0;
}

/* The column of the plan that shows the checker's shown variable k, -1 for a register that no
 * event sets (its value is 0). */
static int shown_col(const plan_t *p, const exec_outcome_t *o, int k) {
    if (o->shown_proc[k] < 0)
        return p->loc_col[o->shown_id[k]];
    return o->shown_id[k] < PLAN_MAX_REGS ? p->reg_col[o->shown_proc[k]][o->shown_id[k]] : -1;
}

/* Could a run end in model state v? A wait returns only when its location holds the value it
 * waits for (or, for a signal written several times, any value but the initial one). */
static int reachable(const plan_t *p, const exec_outcome_t *o, const int64_t *v) {
    for (int k = 0; k < o->nshown; k++) {
        int th = o->shown_proc[k];
        if (th < 0)
            continue;
        for (int i = 0; i < p->nops[th]; i++) {
            const plan_op_t *op = &p->ops[th][i];
            if (op->reg != o->shown_id[k] ||
                (op->kind != PLAN_WAIT && op->kind != PLAN_SIGNAL_WAIT))
                continue;
            if (op->wait_eq ? v[k] != op->wait_value : v[k] == p->test->init[op->loc])
                return 0;
        }
    }
    return 1;
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

/* Everything reported so far; the JSON file is rewritten from it after every test. */
typedef struct report {
    const run_cfg_t *cfg;
    char date[32];
    char machine[512];
    char *tests; /* the JSON objects of the tests reported so far, comma separated */
    size_t tests_len;
    int ntests;
    int forbidden_tests;
    int missing_tests;
    long long iterations;
} report_t;

static void json_write(const report_t *rep, int complete) {
    const run_cfg_t *cfg = rep->cfg;
    if (!cfg->json)
        return;
    char tmp[PATH_MAX + 8], date[32];
    snprintf(tmp, sizeof tmp, "%s.tmp", cfg->json);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        return;
    }
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "{\n  \"platform\": \"%s\", \"weakened\": ", cfg->platform);
    if (cfg->weaken)
        json_str(f, cfg->weaken);
    else
        fputs("null", f);
    fputs(",\n  \"machine\": ", f);
    json_str(f, rep->machine);
    fputs(", \"commit\": ", f);
    json_str(f, cfg->commit ? cfg->commit : "unknown");
    fputs(",\n  \"command\": ", f);
    json_str(f, cfg->command ? cfg->command : "");
    fputs(",\n  \"note\": ", f);
    json_str(f, cfg->note ? cfg->note : "");
    fprintf(f,
            ",\n  \"date\": \"%s\", \"updated\": \"%s\", \"complete\": %s,\n"
            "  \"iterations_target\": %ld, \"min_iterations\": %ld, \"max_seconds\": %g, "
            "\"instances\": %d, \"stress\": %d, \"prime\": %d, \"seed\": %llu,\n  \"tests\": [%s",
            rep->date, date, complete ? "true" : "false", cfg->h.iterations, cfg->h.min_iterations,
            cfg->h.max_seconds, cfg->h.instances, cfg->h.stress, cfg->h.prime,
            (unsigned long long)cfg->h.seed, rep->tests ? rep->tests : "");
    fprintf(f,
            "\n  ],\n  \"tests_run\": %d, \"iterations\": %lld, \"forbidden_seen\": %d, "
            "\"no_result\": %d\n}\n",
            rep->ntests, rep->iterations, rep->forbidden_tests, rep->missing_tests);
    if (fclose(f) != 0 || rename(tmp, cfg->json) != 0)
        perror(cfg->json);
}

/* Closes the memstream of one test's JSON object and adds the object to the report. */
static void json_add(report_t *rep, FILE *js, char *const *obj, const size_t *len) {
    fclose(js);
    char *grown = realloc(rep->tests, rep->tests_len + *len + 8);
    if (!grown) {
        fprintf(stderr, "shmem-litmus run: out of memory\n");
        exit(2);
    }
    rep->tests = grown;
    rep->tests_len +=
        (size_t)sprintf(rep->tests + rep->tests_len, "%s\n    %s", rep->ntests ? "," : "", *obj);
    free(*obj);
    rep->ntests++;
}

static int uses_bypass(const plan_t *p) {
    if (p->ctx_used & ((1u << PLAN_CTX_BP) | (1u << PLAN_CTX_BP2)))
        return 1;
    for (int th = 0; th < p->test->nthreads; th++)
        for (int i = 0; i < p->nops[th]; i++)
            if (p->ops[th][i].kind == PLAN_BYPASS_LD || p->ops[th][i].kind == PLAN_BYPASS_ST)
                return 1;
    return 0;
}

/* Opens the memstream of one test's JSON object and writes the fields every test's object starts
 * with. */
static FILE *json_test_open(const plan_t *p, const exec_outcome_t *o, char **obj, size_t *len) {
    FILE *f = open_memstream(obj, len);
    if (!f) {
        fprintf(stderr, "shmem-litmus run: out of memory\n");
        exit(2);
    }
    fputs("{\"test\": ", f);
    json_str(f, p->test->name);
    fprintf(f, ", \"model\": \"%s\", \"pes\": %d, \"threads\": %d, \"spread\": %s, \"bypass\": %s",
            o->pos > 0 ? "Allow" : "Forbid", p->npes, p->test->nthreads,
            p->spread ? "true" : "false", uses_bypass(p) ? "true" : "false");
    return f;
}

static const char *const cond_kind_name[] = {"Allowed", "Forbidden", "Required"};

/* Projects the counted rows onto the variables of the condition, compares them with the model's
 * states, prints the result block. `stopped` says why a test ended early (NULL: it ran its
 * course). Returns 1 if a state the model forbids was seen. */
static int report_test(report_t *rep, const plan_t *p, const exec_outcome_t *o,
                       const harness_counts_t *h, long rounds, double secs, const char *stopped) {
    const litmus_test_t *t = p->test;
    harness_counts_t shown = {.ncols = o->nshown};
    int64_t v[EXEC_MAX_SHOWN];
    long long pos = 0, neg = 0, total = 0, forbidden_runs = 0;
    for (int i = 0; i < h->n; i++) {
        const int64_t *row = h->rows + (size_t)i * (size_t)h->ncols;
        for (int k = 0; k < o->nshown; k++) {
            int c = shown_col(p, o, k);
            v[k] = c < 0 ? 0 : row[c];
        }
        harness_counts_add(&shown, v, h->counts[i]);
        if (plan_eval_cond(p, row))
            pos += h->counts[i];
        else
            neg += h->counts[i];
        total += h->counts[i];
    }
    int model_allows = o->pos > 0;
    printf("Test %s %s\nHistogram (%d states)\n", t->name, cond_kind_name[t->cond_kind], shown.n);
    int forbidden = 0;
    char text[1024];
    char *obj = NULL;
    size_t len = 0;
    FILE *js = json_test_open(p, o, &obj, &len);
    fprintf(js, ", \"iterations\": %lld, \"rounds\": %ld, \"seconds\": %.2f, \"stopped\": ", total,
            rounds, secs);
    if (stopped)
        json_str(js, stopped);
    else
        fputs("null", js);
    fputs(", \"histogram\": [", js);
    for (int i = 0; i < shown.n; i++) {
        const int64_t *s = shown.rows + (size_t)i * (size_t)o->nshown;
        int allowed = 0;
        for (int j = 0; j < o->nstates && !allowed; j++)
            allowed = memcmp(o->states + (size_t)j * (size_t)o->nshown, s,
                             (size_t)o->nshown * sizeof *s) == 0;
        /* The condition depends only on the shown variables: evaluate it on any full row. */
        int sat = 0;
        for (int r = 0; r < h->n; r++) {
            const int64_t *row = h->rows + (size_t)r * (size_t)h->ncols;
            int same = 1;
            for (int k = 0; k < o->nshown && same; k++) {
                int c = shown_col(p, o, k);
                same = (c < 0 ? 0 : row[c]) == s[k];
            }
            if (same) {
                sat = plan_eval_cond(p, row);
                break;
            }
        }
        forbidden |= !allowed;
        if (!allowed)
            forbidden_runs += shown.counts[i];
        check_state_text(t, o, s, text, sizeof text);
        printf("%-10lld%s>%s%s\n", (long long)shown.counts[i], sat ? "*" : ":", text,
               allowed ? "" : "  (forbidden by the model)");
        fprintf(js, "%s{\"state\": ", i ? ", " : "");
        json_str(js, text);
        fprintf(js, ", \"count\": %lld, \"condition\": %s, \"allowed\": %s}",
                (long long)shown.counts[i], sat ? "true" : "false", allowed ? "true" : "false");
    }
    printf("%s\nWitnesses\nPositive: %lld, Negative: %lld\n", pos ? "Ok" : "No", pos, neg);
    printf("Observation %s %s %lld %lld\n", t->name,
           pos == 0   ? "Never"
           : neg == 0 ? "Always"
                      : "Sometimes",
           pos, neg);
    printf("Model %s %s\n", t->name, model_allows ? "Allow" : "Forbid");
    printf("Verdict %s %s\n", t->name, forbidden ? "FORBIDDEN-SEEN" : "ok");
    fprintf(js,
            "], \"condition_count\": %lld, \"forbidden_count\": %lld, \"verdict\": \"%s\", "
            "\"unseen_allowed\": [",
            pos, forbidden_runs, forbidden ? "FORBIDDEN-SEEN" : "ok");
    int unseen = 0, blocked = 0;
    for (int j = 0; j < o->nstates; j++) {
        const int64_t *s = o->states + (size_t)j * (size_t)o->nshown;
        int seen = 0;
        for (int i = 0; i < shown.n && !seen; i++)
            seen = memcmp(shown.rows + (size_t)i * (size_t)o->nshown, s,
                          (size_t)o->nshown * sizeof *s) == 0;
        if (seen)
            continue;
        if (!reachable(p, o, s)) {
            blocked++;
            continue;
        }
        check_state_text(t, o, s, text, sizeof text);
        printf("Unseen %s %s\n", t->name, text);
        fprintf(js, "%s", unseen ? ", " : "");
        json_str(js, text);
        unseen++;
    }
    if (unseen == 0)
        printf("Unseen %s none\n", t->name);
    if (blocked)
        printf("Unreachable %s %d (a wait returns only once its value has arrived)\n", t->name,
               blocked);
    if (stopped)
        printf("Stopped %s after %lld runs: %s\n", t->name, total, stopped);
    printf("Time %s %.2f\n\n", t->name, secs);
    fprintf(js, "], \"unreachable_allowed\": %d}", blocked);
    fflush(stdout);
    fprintf(stderr, "shmem-litmus run: %-28s %-14s %9lld runs %7.2f s%s%s\n", t->name,
            forbidden ? "FORBIDDEN-SEEN" : "ok", total, secs, stopped ? ", stopped: " : "",
            stopped ? stopped : "");
    harness_counts_free(&shown);
    json_add(rep, js, &obj, &len);
    rep->forbidden_tests += forbidden;
    rep->iterations += total;
    json_write(rep, 0);
    return forbidden;
}

/* A test that gave no counts at all. */
static void report_missing(report_t *rep, const plan_t *p, const exec_outcome_t *o,
                           const char *why) {
    const litmus_test_t *t = p->test;
    printf("Test %s %s\nNo result: %s\nVerdict %s no-result\n\n", t->name,
           cond_kind_name[t->cond_kind], why, t->name);
    fflush(stdout);
    fprintf(stderr, "shmem-litmus run: %-28s no result: %s\n", t->name, why);
    char *obj = NULL;
    size_t len = 0;
    FILE *js = json_test_open(p, o, &obj, &len);
    fputs(", \"iterations\": 0, \"stopped\": ", js);
    json_str(js, why);
    fputs(", \"histogram\": [], \"verdict\": \"no-result\", \"unseen_allowed\": []}", js);
    json_add(rep, js, &obj, &len);
    rep->missing_tests++;
    json_write(rep, 0);
}

typedef struct runner {
    const run_cfg_t *cfg;
    report_t rep;
    const char *self;
    const char *launcher;
    const char *dir;
    double deadline; /* harness_now() after which the run stops, 0: none */
    int status;
} runner_t;

/* Runs the tests members[0..n) (all with npes PEs) in jobs of one interpreter each: reports
 * each test as its result arrives, stops a test that overruns --test-timeout, and starts a new
 * job for the tests after a test that was stopped or whose job failed. */
static void run_group(runner_t *r, int npes, const int *members, int n, char **paths,
                      const plan_t *p, const exec_outcome_t *o) {
    const run_cfg_t *cfg = r->cfg;
    int next = 0, failed_jobs = 0;
    for (int job = 0; next < n; job++) {
        if (r->deadline > 0 && harness_now() >= r->deadline) {
            for (; next < n; next++)
                report_missing(&r->rep, &p[members[next]], &o[members[next]],
                               "not run: the run's --timeout passed");
            r->status = 2;
            return;
        }
        char out[PATH_MAX], path[PATH_MAX + 32];
        snprintf(out, sizeof out, "%s/n%d.%d", r->dir, npes, job);
        int base = next;
        pid_t pid = start_job(cfg, r->self, r->launcher, npes, out, n - base, paths + base);
        if (pid < 0) {
            perror("shmem-litmus run: fork");
            r->status = 2;
            return;
        }
        double t_test = harness_now();
        int status = 0, ended = 0, results = 0, stopped_at = -1;
        const char *stopped = NULL;
        while (next < n) {
            snprintf(path, sizeof path, "%s.%d", out, next - base);
            harness_counts_t h = {0};
            long rounds = 0;
            double secs = 0;
            if (access(path, F_OK) == 0) {
                int i = members[next];
                if (read_counts(path, &p[i], &h, &rounds, &secs) == 0) {
                    if (report_test(&r->rep, &p[i], &o[i], &h, rounds, secs, NULL) &&
                        r->status == 0)
                        r->status = 1;
                } else {
                    report_missing(&r->rep, &p[i], &o[i], "unreadable result file");
                    r->status = 2;
                }
                harness_counts_free(&h);
                next++;
                results++;
                t_test = harness_now();
                continue;
            }
            if (ended)
                break;
            if (wait_job(pid, 0, &status)) {
                ended = 1; /* one more look for results written just before the end */
                continue;
            }
            if (cfg->test_timeout > 0 && harness_now() - t_test >= cfg->test_timeout)
                stopped = "--test-timeout passed";
            else if (r->deadline > 0 && harness_now() >= r->deadline)
                stopped = "the run's --timeout passed";
            if (stopped) {
                stopped_at = next;
                status = end_job(pid);
                ended = 1;
                continue;
            }
            tick();
        }
        /* Every result is in: the job ends by itself, or is stopped (a PE that does not get
         * through shmem_finalize) after JOB_END_SECONDS. */
        if (!ended && !wait_job(pid, JOB_END_SECONDS, &status)) {
            fprintf(stderr,
                    "shmem-litmus run: the job of %d-PE tests did not end %d s after its last "
                    "result; stopped\n",
                    npes, JOB_END_SECONDS);
            status = end_job(pid);
            r->status = 2;
        }
        /* A PE still running once its launcher has ended (a launcher stopped by SIGKILL leaves
         * its PEs behind). */
        kill(-pid, SIGKILL);
        int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (next < n && (!stopped || next == stopped_at)) {
            /* The test in flight when the job ended: its counts so far, if any. */
            char why[128];
            if (!stopped)
                snprintf(why, sizeof why, "the job failed (status %d)", rc);
            else
                snprintf(why, sizeof why, "%s", stopped);
            int i = members[next];
            harness_counts_t h = {0};
            long rounds = 0;
            double secs = 0;
            snprintf(path, sizeof path, "%s.%d.part", out, next - base);
            if (read_counts(path, &p[i], &h, &rounds, &secs) == 0 && h.n > 0)
                report_test(&r->rep, &p[i], &o[i], &h, rounds, secs, why);
            else
                report_missing(&r->rep, &p[i], &o[i], why);
            harness_counts_free(&h);
            next++;
            r->status = 2;
            failed_jobs = stopped ? 0 : results ? 1 : failed_jobs + 1;
        } else if (rc != 0 && !stopped) {
            fprintf(stderr, "shmem-litmus run: the job of %d-PE tests ended with status %d\n", npes,
                    rc);
            r->status = 2;
        }
        for (int j = 0; j < n - base; j++)
            for (int k = 0; k < 5; k++) {
                static const char *const suffix[] = {"", ".tmp", ".part", ".part.tmp", ".stop"};
                snprintf(path, sizeof path, "%s.%d%s", out, j, suffix[k]);
                unlink(path);
            }
        if (failed_jobs >= 3) {
            for (; next < n; next++)
                report_missing(&r->rep, &p[members[next]], &o[members[next]],
                               "not run: three jobs in a row failed");
            return;
        }
    }
}

static int parse_opts(int argc, char **argv, run_cfg_t *cfg, int *first) {
    /* The options whose value is kept as given. */
    const struct {
        const char *name;
        const char **field;
    } texts[] = {
        {"--platform", &cfg->platform}, {"--weaken", &cfg->weaken}, {"--bell", &cfg->bell},
        {"--cat", &cfg->cat},           {"--json", &cfg->json},     {"--note", &cfg->note},
        {"--machine", &cfg->machine},   {"--commit", &cfg->commit}, {"--command", &cfg->command},
        {"--launcher", &cfg->launcher}, {"--out", &cfg->h.out}};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        }
        if (strcmp(a, "--worker") == 0) {
            cfg->worker = 1;
            continue;
        }
        if (a[0] != '-' || !a[1]) {
            *first = i;
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "shmem-litmus run: %s needs a value\n", a);
            return -1;
        }
        const char *v = argv[++i];
        char *end = NULL;
        const char **text = NULL;
        for (size_t k = 0; k < sizeof texts / sizeof texts[0] && !text; k++)
            if (strcmp(a, texts[k].name) == 0)
                text = texts[k].field;
        if (text)
            *text = v;
        else if (strcmp(a, "--iterations") == 0)
            cfg->h.iterations = strtol(v, &end, 10);
        else if (strcmp(a, "--min-iterations") == 0)
            cfg->h.min_iterations = strtol(v, &end, 10);
        else if (strcmp(a, "--instances") == 0)
            cfg->h.instances = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--stress") == 0)
            cfg->h.stress = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--prime") == 0)
            cfg->h.prime = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--seed") == 0)
            cfg->h.seed = strtoull(v, &end, 10);
        else if (strcmp(a, "--max-seconds") == 0)
            cfg->h.max_seconds = strtod(v, &end);
        else if (strcmp(a, "--timeout") == 0)
            cfg->timeout = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--test-timeout") == 0)
            cfg->test_timeout = (int)strtol(v, &end, 10);
        else {
            fprintf(stderr, "shmem-litmus run: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
        if (end &&
            (*end || cfg->h.iterations < 1 || cfg->h.min_iterations < 0 || cfg->h.instances < 1 ||
             cfg->h.stress < 0 || cfg->h.prime < 0 || cfg->h.prime > 100 || cfg->timeout < 0 ||
             cfg->test_timeout < 0 || cfg->h.max_seconds < 0)) {
            fprintf(stderr, "shmem-litmus run: bad value '%s' for %s\n", v, a);
            return -1;
        }
    }
    fprintf(stderr, "shmem-litmus run: no test given\n");
    usage(stderr);
    return -1;
}

static int worker_main(const run_cfg_t *cfg, int ntests, char **paths) {
    litmus_error_t err;
    litmus_test_t *t = calloc((size_t)ntests, sizeof *t);
    plan_t *p = calloc((size_t)ntests, sizeof *p);
    int rc = t && p && cfg->h.out ? 0 : 2;
    if (rc)
        fprintf(stderr, "shmem-litmus run --worker: out of memory or no --out\n");
    for (int i = 0; rc == 0 && i < ntests; i++)
        if (litmus_parse_file(paths[i], &t[i], &err) < 0 || plan_build(&t[i], &p[i], &err) < 0) {
            check_print_error(&err);
            rc = 2;
        }
    if (rc == 0)
        rc = harness_worker_main(&cfg->h, ntests, p);
    free(p);
    free(t);
    return rc;
}

/* The command line, for the JSON file when --command does not give one. */
static char *command_line(int argc, char **argv) {
    static const char program[] = "shmem-litmus";
    size_t len = sizeof program;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = calloc(len, 1);
    if (s)
        strcpy(s, program);
    for (int i = 0; s && i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int litmus_run_main(int argc, char **argv) {
    run_cfg_t cfg = {.h = {.iterations = 100000,
                           .instances = 500,
                           .stress = 1,
                           .prime = 50,
                           .seed = (uint64_t)time(NULL)},
                     .platform = "cpu"};
#if defined(LITMUS_WEAKENED)
    cfg.weaken = LITMUS_WEAKENED;
#endif
    int first = argc;
    if (parse_opts(argc, argv, &cfg, &first) < 0)
        return 2;
    if (cfg.worker)
        return worker_main(&cfg, argc - first, argv + first);
    if (strcmp(cfg.platform, "cpu") && strcmp(cfg.platform, "cuda") &&
        strcmp(cfg.platform, "hip")) {
        fprintf(stderr, "shmem-litmus run: unknown platform '%s'\n", cfg.platform);
        return 2;
    }
    if (cfg.weaken && strcmp(cfg.weaken, "fence") && strcmp(cfg.weaken, "quiet") &&
        strcmp(cfg.weaken, "wait")) {
        fprintf(stderr, "shmem-litmus run: --weaken takes fence, quiet or wait, not '%s'\n",
                cfg.weaken);
        return 2;
    }
    char self[PATH_MAX], launcher[PATH_MAX], bell[PATH_MAX], cat[PATH_MAX];
    char dir[] = "/tmp/shmem-litmus-XXXXXX";
    if (find_programs(&cfg, self, launcher, sizeof self) < 0)
        return 2;
    check_default_model(argv[first], bell, cat, sizeof bell);
    if (!mkdtemp(dir)) {
        perror("shmem-litmus run: mkdtemp");
        return 2;
    }
    char *cmdline = cfg.command ? NULL : command_line(argc, argv);
    if (cmdline)
        cfg.command = cmdline;
    int ntests = argc - first;
    litmus_error_t err;
    cat_model_t *m = malloc(sizeof *m);
    litmus_test_t *t = calloc((size_t)ntests, sizeof *t);
    plan_t *p = calloc((size_t)ntests, sizeof *p);
    exec_outcome_t *o = calloc((size_t)ntests, sizeof *o);
    char **group = calloc((size_t)ntests, sizeof *group);
    int *member = calloc((size_t)ntests, sizeof *member);
    runner_t r = {.cfg = &cfg, .self = self, .launcher = launcher, .dir = dir};
    r.rep.cfg = &cfg;
    int nparsed = 0;
    if (!m || !t || !p || !o || !group || !member) {
        fprintf(stderr, "shmem-litmus run: out of memory\n");
        r.status = 2;
    } else if (cat_parse_model(cfg.bell ? cfg.bell : bell, cfg.cat ? cfg.cat : cat, m, &err) < 0) {
        check_print_error(&err);
        r.status = 2;
    }
    for (; r.status == 0 && nparsed < ntests; nparsed++) {
        int i = nparsed;
        if (litmus_parse_file(argv[first + i], &t[i], &err) < 0 ||
            plan_build(&t[i], &p[i], &err) < 0 || exec_check(m, &t[i], &o[i], &err) < 0) {
            check_print_error(&err);
            r.status = 2;
        }
    }
    time_t now = time(NULL);
    strftime(r.rep.date, sizeof r.rep.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (cfg.machine) {
        snprintf(r.rep.machine, sizeof r.rep.machine, "%s", cfg.machine);
    } else {
        struct utsname u;
        uname(&u);
        snprintf(r.rep.machine, sizeof r.rep.machine, "%s %s %s", u.nodename, u.sysname, u.machine);
    }
    if (cfg.timeout > 0)
        r.deadline = harness_now() + cfg.timeout;
    int ready = r.status == 0;
    if (ready) {
        json_write(&r.rep, 0);
        signal(SIGTERM, stop_job);
        signal(SIGINT, stop_job);
        signal(SIGHUP, stop_job);
    }
    /* One job per PE count: the tests with that many PEs run one after another in it. A
     * failed job does not stop the other groups. */
    for (int npes = 1; ready && npes <= 64; npes++) {
        int n = 0;
        for (int i = 0; i < ntests; i++)
            if (p[i].npes == npes) {
                member[n] = i;
                group[n++] = argv[first + i];
            }
        if (n > 0)
            run_group(&r, npes, member, n, group, p, o);
    }
    rmdir(dir);
    if (ready)
        json_write(&r.rep, 1);
    fprintf(stderr,
            "shmem-litmus run: %d tests, %lld iterations, %d with a forbidden state, %d "
            "without a result\n",
            r.rep.ntests, r.rep.iterations, r.rep.forbidden_tests, r.rep.missing_tests);
    for (int i = 0; i < nparsed; i++)
        exec_outcome_free(&o[i]);
    free(r.rep.tests);
    free(cmdline);
    free(m);
    free(t);
    free(p);
    free(o);
    free(group);
    free(member);
    return r.status;
}
