/* shmem-litmus run: the front end of the litmus harness. For every test it evaluates the model
 * (the checker's evaluation gives the final states the model allows), starts the interpreter on
 * as many PEs as the test has under shmemrun, reads back the counted final states, and prints a
 * histogram in litmus7's format with the verdict and the allowed states never seen. */
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
    const char *bell;
    const char *cat;
    const char *json;
    const char *note;
    const char *launcher;
    int timeout;
    int worker;
} run_cfg_t;

static void usage(FILE *out) {
    fputs("usage: shmem-litmus run [OPTIONS] TEST.litmus...\n"
          "  Runs each test on the library, many times and under stress, and prints the\n"
          "  histogram of final states, 'Verdict NAME ok|FORBIDDEN-SEEN' and the states the\n"
          "  model allows that never showed. Exit status 1 when a forbidden state was seen.\n"
          "  --platform cpu|cuda|hip  where the test's threads run (default cpu)\n"
          "  --iterations N           instances of each test in all (default 100000)\n"
          "  --instances K            instances per round, each on its own lines (default 500)\n"
          "  --stress S               stress threads per PE (default 1)\n"
          "  --seed X                 seed of the placement permutations (default: the time)\n"
          "  --max-seconds SEC        run each test at most this long (default 0: no limit)\n"
          "  --timeout SEC            stop a job of tests that runs longer (default 0: none)\n"
          "  --bell FILE, --cat FILE  the model (default ../shmem.bell, ../shmem.cat)\n"
          "  --json FILE              also write the results as JSON\n"
          "  --note TEXT              a note for the JSON file (machine, commit)\n"
          "  --launcher PATH          shmemrun (default: next to this program)\n",
          out);
}

/* The program that runs the tests of a platform: this one on the cpu, on GPUs the sibling whose
 * name adds -PLATFORM (shmem-litmus-cuda, shmem-litmus-weak-fence-cuda). */
static int find_programs(const run_cfg_t *cfg, char *self, char *launcher, size_t cap) {
    ssize_t n = readlink("/proc/self/exe", self, cap - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    if (strcmp(cfg->platform, "cpu") != 0) {
        size_t len = strlen(self);
        snprintf(self + len, cap - len, "-%s", cfg->platform);
        if (access(self, X_OK) != 0) {
            fprintf(stderr, "shmem-litmus run: %s is not built (configure with SHMEM_GPU=%s)\n",
                    self, cfg->platform);
            return -1;
        }
    }
    if (cfg->launcher) {
        snprintf(launcher, cap, "%s", cfg->launcher);
        return 0;
    }
    static const char *const rel[] = {"/../tools/shmemrun", "/../../tools/shmemrun", "/shmemrun"};
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", self);
    *strrchr(dir, '/') = '\0';
    for (int i = 0; i < 3; i++) {
        snprintf(launcher, cap, "%s%s", dir, rel[i]);
        if (access(launcher, X_OK) == 0)
            return 0;
    }
    snprintf(launcher, cap, "shmemrun");
    return 0;
}

/* The job in flight: a signal that stops the front end stops it too. */
static volatile pid_t job_pid;

static void stop_job(int sig) {
    if (job_pid > 0)
        kill(job_pid, SIGTERM);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_job(const run_cfg_t *cfg, const char *self, const char *launcher, int npes,
                   const char *out, int ntests, char **tests) {
    char np[16], it[32], inst[16], st[16], seed[32], secs[32];
    snprintf(np, sizeof np, "%d", npes);
    snprintf(it, sizeof it, "%ld", cfg->h.iterations);
    snprintf(inst, sizeof inst, "%d", cfg->h.instances);
    snprintf(st, sizeof st, "%d", cfg->h.stress);
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
                     "--instances",
                     inst,
                     "--stress",
                     st,
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
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(launcher, argv);
        fprintf(stderr, "shmem-litmus run: cannot start %s: %s\n", launcher, strerror(errno));
        _exit(127);
    }
    free(argv);
    job_pid = pid;
    signal(SIGTERM, stop_job);
    signal(SIGINT, stop_job);
    signal(SIGHUP, stop_job);
    struct timespec t0, now, tick = {0, 10 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, cfg->timeout > 0 ? WNOHANG : 0);
        if (r == pid) {
            job_pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (r < 0 && errno != EINTR)
            return -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (cfg->timeout > 0 && now.tv_sec - t0.tv_sec >= cfg->timeout) {
            fprintf(stderr, "shmem-litmus run: the job of %d-PE tests ran longer than %d s\n", npes,
                    cfg->timeout);
            kill(pid, SIGTERM);
            waitpid(pid, &status, 0);
            return 124;
        }
        nanosleep(&tick, NULL);
    }
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
        fputc(*s, f);
    }
    fputc('"', f);
}

typedef struct report {
    FILE *json;
    int ntests;
    int forbidden_tests;
    long long iterations;
} report_t;

/* Projects the counted rows onto the variables of the condition, compares them with the model's
 * states, prints the result block. Returns 1 if a state the model forbids was seen. */
static int report_test(report_t *rep, const plan_t *p, const exec_outcome_t *o,
                       const harness_counts_t *h, long rounds, double secs) {
    const litmus_test_t *t = p->test;
    harness_counts_t shown = {.ncols = o->nshown};
    int64_t v[EXEC_MAX_SHOWN];
    long long pos = 0, neg = 0, total = 0;
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
    static const char *const kind[] = {"Allowed", "Forbidden", "Required"};
    printf("Test %s %s\nHistogram (%d states)\n", t->name, kind[t->cond_kind], shown.n);
    int forbidden = 0;
    char text[1024];
    if (rep->json) {
        fprintf(rep->json, "%s\n    {\"test\": ", rep->ntests ? "," : "");
        json_str(rep->json, t->name);
        fprintf(rep->json,
                ", \"model\": \"%s\", \"iterations\": %lld, \"rounds\": %ld, \"seconds\": %.2f, "
                "\"histogram\": [",
                model_allows ? "Allow" : "Forbid", total, rounds, secs);
    }
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
        check_state_text(t, o, s, text, sizeof text);
        printf("%-10lld%s>%s%s\n", (long long)shown.counts[i], sat ? "*" : ":", text,
               allowed ? "" : "  (forbidden by the model)");
        if (rep->json) {
            fprintf(rep->json, "%s{\"state\": ", i ? ", " : "");
            json_str(rep->json, text);
            fprintf(rep->json, ", \"count\": %lld, \"condition\": %s, \"allowed\": %s}",
                    (long long)shown.counts[i], sat ? "true" : "false", allowed ? "true" : "false");
        }
    }
    printf("%s\nWitnesses\nPositive: %lld, Negative: %lld\n", pos ? "Ok" : "No", pos, neg);
    printf("Observation %s %s %lld %lld\n", t->name,
           pos == 0   ? "Never"
           : neg == 0 ? "Always"
                      : "Sometimes",
           pos, neg);
    printf("Model %s %s\n", t->name, model_allows ? "Allow" : "Forbid");
    printf("Verdict %s %s\n", t->name, forbidden ? "FORBIDDEN-SEEN" : "ok");
    if (rep->json)
        fprintf(rep->json, "], \"verdict\": \"%s\", \"unseen_allowed\": [",
                forbidden ? "FORBIDDEN-SEEN" : "ok");
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
        if (rep->json) {
            fprintf(rep->json, "%s", unseen ? ", " : "");
            json_str(rep->json, text);
        }
        unseen++;
    }
    if (unseen == 0)
        printf("Unseen %s none\n", t->name);
    if (blocked)
        printf("Unreachable %s %d (a wait returns only once its value has arrived)\n", t->name,
               blocked);
    printf("Time %s %.2f\n\n", t->name, secs);
    if (rep->json)
        fprintf(rep->json, "], \"unreachable_allowed\": %d}", blocked);
    fflush(stdout);
    harness_counts_free(&shown);
    rep->ntests++;
    rep->forbidden_tests += forbidden;
    rep->iterations += total;
    return forbidden;
}

static int parse_opts(int argc, char **argv, run_cfg_t *cfg, int *first) {
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
        if (strcmp(a, "--platform") == 0)
            cfg->platform = v;
        else if (strcmp(a, "--iterations") == 0)
            cfg->h.iterations = strtol(v, &end, 10);
        else if (strcmp(a, "--instances") == 0)
            cfg->h.instances = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--stress") == 0)
            cfg->h.stress = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--seed") == 0)
            cfg->h.seed = strtoull(v, &end, 10);
        else if (strcmp(a, "--max-seconds") == 0)
            cfg->h.max_seconds = strtod(v, &end);
        else if (strcmp(a, "--timeout") == 0)
            cfg->timeout = (int)strtol(v, &end, 10);
        else if (strcmp(a, "--bell") == 0)
            cfg->bell = v;
        else if (strcmp(a, "--cat") == 0)
            cfg->cat = v;
        else if (strcmp(a, "--json") == 0)
            cfg->json = v;
        else if (strcmp(a, "--note") == 0)
            cfg->note = v;
        else if (strcmp(a, "--launcher") == 0)
            cfg->launcher = v;
        else if (strcmp(a, "--out") == 0)
            cfg->h.out = v;
        else {
            fprintf(stderr, "shmem-litmus run: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
        if (end && (*end || cfg->h.iterations < 1 || cfg->h.instances < 1 || cfg->h.stress < 0 ||
                    cfg->timeout < 0 || cfg->h.max_seconds < 0)) {
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

int litmus_run_main(int argc, char **argv) {
    run_cfg_t cfg = {
        .h = {.iterations = 100000, .instances = 500, .stress = 1, .seed = (uint64_t)time(NULL)},
        .platform = "cpu"};
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
    char self[PATH_MAX], launcher[PATH_MAX], bell[PATH_MAX], cat[PATH_MAX], out[PATH_MAX];
    char dir[] = "/tmp/shmem-litmus-XXXXXX";
    if (find_programs(&cfg, self, launcher, sizeof self) < 0)
        return 2;
    check_default_model(argv[first], bell, cat, sizeof bell);
    if (!mkdtemp(dir)) {
        perror("shmem-litmus run: mkdtemp");
        return 2;
    }
    cfg.h.out = out;
    int ntests = argc - first;
    litmus_error_t err;
    cat_model_t *m = malloc(sizeof *m);
    litmus_test_t *t = calloc((size_t)ntests, sizeof *t);
    plan_t *p = calloc((size_t)ntests, sizeof *p);
    exec_outcome_t *o = calloc((size_t)ntests, sizeof *o);
    harness_counts_t *h = calloc((size_t)ntests, sizeof *h);
    long *rounds = calloc((size_t)ntests, sizeof *rounds);
    double *secs = calloc((size_t)ntests, sizeof *secs);
    int *ran = calloc((size_t)ntests, sizeof *ran);
    char **group = calloc((size_t)ntests, sizeof *group);
    int *member = calloc((size_t)ntests, sizeof *member);
    report_t rep = {0};
    int status = 0, nparsed = 0;
    if (!m || !t || !p || !o || !h || !rounds || !secs || !ran || !group || !member) {
        fprintf(stderr, "shmem-litmus run: out of memory\n");
        status = 2;
    } else if (cat_parse_model(cfg.bell ? cfg.bell : bell, cfg.cat ? cfg.cat : cat, m, &err) < 0) {
        check_print_error(&err);
        status = 2;
    }
    for (; status == 0 && nparsed < ntests; nparsed++) {
        int i = nparsed;
        if (litmus_parse_file(argv[first + i], &t[i], &err) < 0 ||
            plan_build(&t[i], &p[i], &err) < 0 || exec_check(m, &t[i], &o[i], &err) < 0) {
            check_print_error(&err);
            status = 2;
        }
    }
    /* One job per PE count: the tests with that many PEs run one after another in it. */
    int ready = status == 0; /* a failed job does not stop the other jobs */
    for (int npes = 1; ready && npes <= 64; npes++) {
        int n = 0;
        for (int i = 0; i < ntests; i++)
            if (p[i].npes == npes) {
                member[n] = i;
                group[n++] = argv[first + i];
            }
        if (n == 0)
            continue;
        snprintf(out, sizeof out, "%s/n%d", dir, npes);
        int rc = run_job(&cfg, self, launcher, npes, out, n, group);
        for (int j = 0; j < n; j++) {
            char path[PATH_MAX + 16];
            snprintf(path, sizeof path, "%s.%d", out, j);
            int i = member[j];
            if (read_counts(path, &p[i], &h[i], &rounds[i], &secs[i]) == 0)
                ran[i] = 1;
            else
                fprintf(stderr, "shmem-litmus run: %s: the run failed (status %d)\n", t[i].name,
                        rc);
            unlink(path);
            snprintf(path, sizeof path, "%s.%d.stop", out, j);
            unlink(path);
        }
        if (rc != 0)
            status = 2;
    }
    rmdir(dir);
    if (cfg.json && !(rep.json = fopen(cfg.json, "w"))) {
        perror(cfg.json);
        status = 2;
    }
    if (rep.json) {
        struct utsname u;
        uname(&u);
        fprintf(rep.json,
                "{\n  \"platform\": \"%s\", \"machine\": \"%s %s %s\", \"note\": ", cfg.platform,
                u.nodename, u.sysname, u.machine);
        json_str(rep.json, cfg.note ? cfg.note : "");
        fprintf(rep.json, ",\n  \"instances\": %d, \"stress\": %d, \"seed\": %llu,\n  \"tests\": [",
                cfg.h.instances, cfg.h.stress, (unsigned long long)cfg.h.seed);
    }
    for (int i = 0; i < ntests; i++)
        if (ran[i] && report_test(&rep, &p[i], &o[i], &h[i], rounds[i], secs[i]) && status == 0)
            status = 1;
    if (rep.json) {
        fprintf(rep.json,
                "\n  ],\n  \"tests_run\": %d, \"iterations\": %lld, "
                "\"forbidden_seen\": %d\n}\n",
                rep.ntests, rep.iterations, rep.forbidden_tests);
        fclose(rep.json);
    }
    fprintf(stderr, "shmem-litmus run: %d tests, %lld iterations, %d with a forbidden state\n",
            rep.ntests, rep.iterations, rep.forbidden_tests);
    for (int i = 0; i < nparsed; i++) {
        harness_counts_free(&h[i]);
        exec_outcome_free(&o[i]);
    }
    free(m);
    free(t);
    free(p);
    free(o);
    free(h);
    free(rounds);
    free(secs);
    free(ran);
    free(group);
    free(member);
    return status;
}
