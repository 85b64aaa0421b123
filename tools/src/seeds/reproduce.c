/* reproduce SEED: rows, one pool, scores (see reproduce.h). */
#define _GNU_SOURCE
#include "reproduce.h"
#include "cli.h"
#include "cmds.h"
#include "progress.h"
#include "run/benchlist.h"
#include "scoring.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: schedlab reproduce SEED [--full] [--out DIR] [--cost LIST] [--machine PRESET] [--model guest|host] [-j N]\n"
    "                          [--timeout S] [--runs R] [--only TABLES] [--groups LIST] [--smp LIST] [--accel A]\n"
    "                          [--quiet] [--estimate]\n"
    "  one seed post's experiment end to end: every table of the post measured here,\n"
    "  printed beside the seed's in the post's layout, then its fidelity scorecard\n"
    "  (normalised cells: ratios between kernels in one cell, growth along a row,\n"
    "  orderings; docs/reproduce.md) ending in one machine-readable line per table:\n"
    "    scorecard seed=S table=T cost=C cells=N median_dev_pct=X worst_dev_pct=Y orderings_agree=A/B cells_missing=M\n"
    "  (and machine=PRESET at its end when the memory model measured it, model=host after it when\n"
    "  the QEMU plugin ran the model).\n"
    "  SEED: seed000 (hackbench, max groups, Nick's 8-way series), seed001 (lat_ctx,\n"
    "  hackbench 50, pipe-test; unbound and bound to one CPU; rc1, rc6, cfs-devel),\n"
    "  seed003 (tbench 64 and 192 clients on 4 CPUs; 2.4, dyn-sched, O(1) backport, MQ; and the\n"
    "  AIM7 shared workfile and VolanoMark models the thread names, scored as one claimed ordering).\n"
    "  --full              the post's own sizes (default: quick sizes, minutes on 2 cores)\n"
    "  --cost LIST         cost models to measure, comma separated: none, linux61, era2003, era2007\n"
    "                      (kernel/chan_cost.h, docs/cost-model.md)    [none]\n"
    "  --machine PRESET    the memory model (docs/caches.md): every row boots its scheduler's CACHES=1\n"
    "                      image (make CACHES=1, build/SCHED-caches) with machine=PRESET on the boot line;\n"
    "                      PRESET one of make list-machines (piii-xeon-1m, piii-xeon-2m, core2-duo), or\n"
    "                      none: the plain images, no model.  Needs vsmp; rows the recipe runs under\n"
    "                      tcg (seed000's maxgroups) run without it and say machine=none.  A CACHES=1\n"
    "                      boot costs several times a plain one's host time (docs/caches.md): --estimate\n"
    "                      first.  A comma list (none,core2-duo): one reproduction per machine, each into\n"
    "                      DIR/machine-M/, then their scorecards side by side (DIR/side-by-side.txt) [none]\n"
    "  --model guest|host  with --machine PRESET, where the memory model runs: guest, the CACHES=1 images\n"
    "                      above (every access a call in the guest; 21-46x a plain boot's host time); host,\n"
    "                      the same model as a QEMU 7.2 TCG plugin (kernel/machine/host/hostmodel.c) on\n"
    "                      each scheduler's make CACHES=host image (build/SCHED-hostmodel: it takes the\n"
    "                      keys and gives a 2.4 scheduler 2.4's task layout), machine=PRESET model=host on\n"
    "                      the boot line, tools/qemu-run.sh loading the plugin (about 2-2.5x a plain\n"
    "                      boot's host time; what it sees differently: docs/caches.md, \"The host\n"
    "                      model\").  Needs QEMU 7.2 with TCG plugins.  Rows under tcg run without a\n"
    "                      model either way; machine=none in a list runs the plain images    [guest]\n"
    "  --only TABLES       only these tables (seed000: hackbench,maxgroups,nick;\n"
    "                      seed001: lat_ctx,hackbench,pipe; seed003: tbench,aim7,volano) [all]\n"
    "  --runs R, --timeout S, -j N   override runs per cell (the table's; 1 under vsmp, whose boots\n"
    "                      give the same numbers every time), seconds per boot (quick 120, full 900;\n"
    "                      x4 under vsmp), boots at once (all rows share one pool of the host's cores)\n"
    "  --groups LIST       seed000 hackbench groups (INC:MAX as in the STP request: 25:200)\n"
    "  --smp LIST          seed000: only these of its CPU counts (the others' cells count as missing)\n"
    "  --accel A           tcg | kvm | icount | vsmp [vsmp] (icount: instruction-exact and immune to host\n"
    "                      load, but meaningful only for 1-CPU and bound rows: --smp 1, seed001's -bound;\n"
    "                      vsmp: deterministic too, and every CPU count is meaningful, docs/vsmp.md)\n"
    "  --quiet             no status line (boots done / total, elapsed, ETA: in place on a terminal,\n"
    "                      every 10 s otherwise)\n"
    "  --estimate          build and boot nothing: the boots it would make and how long they took\n"
    "                      here before (build/boot-times.txt, else the committed tools/boot-times.txt)\n"
    "  With no --accel, --full or --runs: vsmp at the quick sizes, one run per cell (seed000's\n"
    "  maxgroups, counts of groups and not times, under tcg), the most faithful configuration\n"
    "  that fits 5 minutes on a 2-core host; the first line says which.\n"
    "  Writes DIR (default build/reproduce/SEED): COST/TABLE/ROW/ (one schedlab run each,\n"
    "  with its own plots/), COST/TABLE.txt (the table and its scorecard), scorecard.txt,\n"
    "  scorecard.csv, plots/ (seed001's graphs), report.html.  A kernel that is not in this tree (a\n"
    "  missing sched/NAME.c or preset) is a row \"not available: why\", its cells counted as missing.\n"
    "  More vCPUs than host cores: measured and marked oversubscribed.\n"
    "  Exit: 0, 1 some boot failed or a row is not available, 2 usage error, 130/143 interrupted.\n";
static const struct verb_spec spec = { "reproduce", 0, usage, NULL };

/* ---------------------------------------------------------------- what recipes call */

bool repro_want(const struct repro *R, const char *table)
{
    if (!R->only)
        return true;
    char *pad = xasprintf(",%s,", R->only), *w = xasprintf(",%s,", table);
    bool yes = strstr(pad, w) != NULL;
    free(pad);
    free(w);
    return yes;
}

long repro_runs(const struct repro *R, long table_default)
{
    return R->runs > 0 ? R->runs : table_default;
}

char *repro_groups(const char *v)
{
    char *g = expand_groups(v);
    return g ? g : xstrdup(v);
}

void repro_row(struct repro *R, const char *table, const char *row, const char *sched, const char *preset, const char *smp,
               const char *const *flags)
{
    R->rows = xrealloc(R->rows, (R->nrows + 1) * sizeof(*R->rows));
    struct repro_row *r = &R->rows[R->nrows++];
    memset(r, 0, sizeof(*r));
    r->table = xstrdup(table);
    r->row = xstrdup(row);
    r->sched = xstrdup(sched);
    r->preset = preset ? xstrdup(preset) : NULL;
    r->cost = xstrdup(R->cost);
    r->dir = xasprintf("%s/%s/%s", R->cdir, table, row);
    argv_add(&r->flags, "run");
    argv_add(&r->flags, "--sched");
    argv_add(&r->flags, sched);
    argv_add(&r->flags, "--smp");
    argv_add(&r->flags, smp);
    argv_add(&r->flags, "--out");
    argv_add(&r->flags, r->dir);
    argv_add(&r->flags, "--force");
    argv_add(&r->flags, "--timeout");
    argv_addf(&r->flags, "%ld", R->timeout);
    argv_add(&r->flags, "--accel");
    argv_add(&r->flags, R->row_accel ? R->row_accel : R->accel);
    for (size_t i = 0; flags[i]; i++)
        argv_add(&r->flags, flags[i]);
    if (preset) {
        argv_add(&r->flags, "--set");
        argv_addf(&r->flags, "sched.preset=%s", preset);
    }
    if (strcmp(R->cost, "none")) {
        argv_add(&r->flags, "--cost");
        argv_add(&r->flags, R->cost);
    }
    /* the memory model: vsmp's virtual time only (a recipe's tcg rows run without it); in the guest (the
     * CACHES=1 image) or in QEMU (model=host: the plugin, on the CACHES=host image, which takes the keys) */
    r->machine = R->machine && strcmp(R->machine, "none") && !strcmp(R->row_accel ? R->row_accel : R->accel, "vsmp")
                     ? R->machine : "none";
    r->host_model = strcmp(r->machine, "none") && R->model && !strcmp(R->model, "host");
    if (strcmp(r->machine, "none")) {
        argv_add(&r->flags, "--caches");
        argv_add(&r->flags, r->host_model ? "host" : "1");
        argv_add(&r->flags, "--set");
        argv_addf(&r->flags, "machine=%s", r->machine);
        if (r->host_model) {
            argv_add(&r->flags, "--set");
            argv_add(&r->flags, "model=host");
        }
    }
}

void repro_score(struct repro *R, const char *table, const char *unbound)
{
    R->scores = xrealloc(R->scores, (R->nscores + 1) * sizeof(*R->scores));
    R->scores[R->nscores++] = (struct repro_score){ xstrdup(table), xstrdup(R->cost), xstrdup(R->cdir),
                                                    unbound ? xstrdup(unbound) : NULL };
}

/* ---------------------------------------------------------------- helpers */

static void say_to(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_to(FILE *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (log) {
        vfprintf(log, fmt, ap);
        fputc('\n', log);
        fflush(log);
    }
    va_end(ap);
}

static bool mkdirs(const char *path)
{
    char *argv[] = { "mkdir", "-p", "--", (char *)path, NULL };
    return spawn_run(argv, NULL) == 0;
}

/* Runs fn with stdout and stderr into files (NULL: as they are); its return. */
static int redirected(const char *out, const char *err, bool append, int (*fn)(void *), void *arg)
{
    fflush(stdout);
    fflush(stderr);
    int so = -1, se = -1, fo = -1, fe = -1, flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
    if (out && (fo = open(out, flags, 0644)) >= 0) {
        so = dup(1);
        dup2(fo, 1);
    }
    if (err && (fe = open(err, flags, 0644)) >= 0) {
        se = dup(2);
        dup2(fe, 2);
    }
    int rc = fn(arg);
    fflush(stdout);
    fflush(stderr);
    if (so >= 0) {
        dup2(so, 1);
        close(so);
    }
    if (se >= 0) {
        dup2(se, 2);
        close(se);
    }
    if (fo >= 0)
        close(fo);
    if (fe >= 0)
        close(fe);
    return rc;
}

/* ---------------------------------------------------------------- availability */

/* Why this kernel cannot be measured here, or NULL. */
static char *row_unavailable(const struct repro_row *r, char **known, const struct build_settings *b, const char *logdir)
{
    bool found = false;
    char *have = NULL;
    for (size_t i = 0; known[i]; i++) {
        found |= !strcmp(known[i], r->sched);
        char *n = xasprintf("%s%s%s", have ? have : "", have ? " " : "", known[i]);
        free(have);
        have = n;
    }
    if (!found) {
        char *why = xasprintf("sched/%s.c does not exist in this tree (make list-scheds: %s)", r->sched, have);
        free(have);
        return why;
    }
    free(have);
    if (!r->preset)
        return NULL;
    struct build_settings rb = *b;   /* the row's image: CACHES=1 with a machine (CACHES=host with model=host) */
    rb.caches = r->host_model ? BUILD_CACHES_HOST : strcmp(r->machine, "none") ? 1 : b->caches;
    b = &rb;
    char *dir = build_dir(b, r->sched);
    if (!dir)
        return xasprintf("make print-build failed for %s", r->sched);
    char *log = xasprintf("%s/build-%s.log", logdir, r->sched);
    int fd = tree_lock();
    int mrc = make_config(b, r->sched, "kernel", log);
    tree_unlock(fd);
    char *why = NULL;
    if (mrc != 0)
        why = xasprintf("make SCHED=%s%s failed (log %s)", r->sched,
                        b->caches == 1 ? " CACHES=1" : b->caches == BUILD_CACHES_HOST ? " CACHES=host" : "", log);
    else {
        char *elf = xasprintf("%s/kernel.elf", dir), *cache = xasprintf("%s.list", elf);
        char *path = bench_list_file(elf, cache);
        struct bench_list bl;
        if (!path || !bench_list_load(path, &bl)) {
            why = xasprintf("bench=list of %s failed", r->sched);
        } else {
            char *presets = bench_list_names(&bl, "preset", r->sched);
            char *pad = xasprintf(" %s ", presets), *w = xasprintf(" %s ", r->preset);
            if (!strstr(pad, w))
                why = xasprintf("sched.preset=%s is not a preset of sched/%s.c (its presets: %s)", r->preset, r->sched,
                                *presets ? presets : "none");
            free(pad), free(w), free(presets);
            bench_list_free(&bl);
        }
        free(path), free(elf), free(cache);
    }
    free(log);
    free(dir);
    return why;
}

/* ---------------------------------------------------------------- the pool's callbacks */

struct repro_job {
    struct repro_row *row;
    const struct run_job *j;
};

static void job_started(struct job *j, void *ctx)
{
    (void)ctx;
    struct repro_job *rj = j->arg;
    say_to(rj->row->log, "schedlab: start  %s", rj->j->name);
}

static void job_finished(struct job *j, void *ctx)
{
    size_t *done = ctx;
    struct repro_job *rj = j->arg;
    if (j->status != 130 && j->status != 143)
        boot_write_rc(&rj->row->rd, rj->j, j->status, j->t_start, j->t_end);
    if (j->t_end > rj->row->t_end)
        rj->row->t_end = j->t_end;
    (*done)++;
    char *outcome = boot_outcome(&rj->row->rd, rj->j->name);
    say_to(rj->row->log, "schedlab: done   %s: %s", rj->j->name, outcome);
    free(outcome);
}

/* ---------------------------------------------------------------- scoring */

struct score_call {
    char **argv;
    int argc;
};

static int call_scorecard(void *arg)
{
    struct score_call *c = arg;
    return cmd_scorecard(c->argc, c->argv);
}

/* The memory model the rows of a scored table ran with (a recipe gives every row of a table one accelerator),
 * and whether the QEMU plugin ran it. */
static const char *score_machine(const struct repro *R, const struct repro_score *s, bool *host)
{
    *host = false;
    for (size_t i = 0; i < R->nrows; i++)
        if (!strcmp(R->rows[i].table, s->table) && !strcmp(R->rows[i].cost, s->cost)) {
            *host = R->rows[i].host_model;
            return R->rows[i].machine;
        }
    return "none";
}

static int score_table(struct repro *R, const struct repro_score *s, const char *plotsdir)
{
    bool host;
    const char *machine = score_machine(R, s, &host);
    struct argv a = { 0 };
    argv_add(&a, "scorecard");
    argv_add(&a, R->seed->name);
    argv_add(&a, s->table);
    argv_add(&a, "--cost");
    argv_add(&a, s->cost);
    argv_add(&a, "--machine");
    argv_add(&a, machine);
    if (host) {
        argv_add(&a, "--model");
        argv_add(&a, "host");
    }
    argv_add(&a, "--csv");
    argv_addf(&a, "%s/scorecard.csv", R->out);
    argv_add(&a, "--html");
    argv_addf(&a, "%s/%s.html", s->cdir, s->table);
    argv_add(&a, "--plots");
    argv_add(&a, plotsdir);
    argv_add(&a, "--notes");
    argv_addf(&a, "%s/tools/reproduce-notes.txt", schedlab_root());
    /* ROW=DIR (or ROW=!why) of this table, then a -bound table's unbound rows as ROW-unbound=DIR */
    char *words_file = xasprintf("%s/%s/rows", s->cdir, s->table);
    FILE *wf = fopen(words_file, "w");
    for (int pass = 0; pass < (s->unbound ? 2 : 1); pass++) {
        const char *t = pass ? s->unbound : s->table;
        for (size_t i = 0; i < R->nrows; i++) {
            struct repro_row *r = &R->rows[i];
            if (strcmp(r->table, t) || strcmp(r->cost, s->cost))
                continue;
            char *w = r->why ? xasprintf("%s%s=!%s", r->row, pass ? "-unbound" : "", r->why)
                             : xasprintf("%s%s=%s", r->row, pass ? "-unbound" : "", r->dir);
            argv_add(&a, w);
            if (wf)
                fprintf(wf, "%s\n", w);
            free(w);
        }
    }
    if (wf)
        fclose(wf);
    free(words_file);
    char *txt = xasprintf("%s/%s.txt", s->cdir, s->table), *html = xasprintf("%s/%s.html", s->cdir, s->table);
    struct score_call c = { a.v, (int)a.n };
    cli_set_verb("reproduce", &spec);
    int rc = redirected(txt, NULL, false, call_scorecard, &c);
    cli_set_verb("reproduce", &spec);
    argv_free(&a);
    if (rc) {
        errorf("scoring %s %s failed", R->seed->name, s->table);
        free(txt), free(html);
        return 1;
    }
    size_t len;
    char *text = read_file(txt, &len);
    char *head = xasprintf("== %s %s, cost=%s, machine=%s%s%s (quick=%d, accel=%s%s%s)\n", R->seed->name, s->table, s->cost,
                           machine, host ? " model=host" : "",
                           R->machine && strcmp(R->machine, "none") && !strcmp(machine, "none")
                               ? (!strcmp(R->model, "host") ? " (the memory model needs vsmp; this table runs under tcg, "
                                                              "without model=host too)"
                                                            : " (the memory model needs vsmp; this table runs under tcg)")
                               : "",
                           R->quick ? 1 : 0, R->accel, R->smp ? ", smp=" : "", R->smp ? R->smp : "");
    char *sc = xasprintf("%s/scorecard.txt", R->out);
    FILE *f = fopen(sc, "a");
    fputs(head, stdout);
    fputs(text ? text : "", stdout);
    fputs("\n", stdout);
    fflush(stdout);
    if (f) {
        fputs(head, f);
        fputs(text ? text : "", f);
        fputs("\n", f);
        fclose(f);
    }
    /* the table beside each of its rows (a report of a row shows it) */
    for (size_t i = 0; i < R->nrows; i++) {
        struct repro_row *r = &R->rows[i];
        if (r->why || strcmp(r->table, s->table) || strcmp(r->cost, s->cost))
            continue;
        char *a1 = xasprintf("%s/scorecard.txt", r->dir), *a2 = xasprintf("%s/scorecard.html", r->dir);
        copy_file(txt, a1);
        copy_file(html, a2);
        free(a1), free(a2);
    }
    free(sc), free(head), free(text), free(txt), free(html);
    return 0;
}

/* ---------------------------------------------------------------- the verb */

static bool is_uint(const char *s)
{
    if (!s || !*s || strlen(s) > 9)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

struct prep_call {
    struct repro_row *r;
    int rc;
};

static int prepare_row(void *arg)
{
    struct prep_call *c = arg;
    struct repro_row *r = c->r;
    run_req_init(&r->req);
    bool help;
    int rc = run_req_parse(&r->req, (int)r->flags.n, r->flags.v, &help);
    if (!rc)
        rc = run_prepare(&r->req, &r->rd);
    c->rc = rc;
    return rc;
}

struct collect_call {
    const char *dir;
};

static int collect_row(void *arg)
{
    struct collect_call *c = arg;
    char *av[] = { "collect", (char *)c->dir, NULL };
    return cmd_collect(2, av);
}

struct plot_call {
    const char *dir;
};

static int plot_row(void *arg)
{
    struct plot_call *c = arg;
    char *av[] = { "plot", (char *)c->dir, NULL };
    return cmd_plot(2, av);
}

/* The value of KEY= in a line of words (allocated), NULL when it has none. */
static char *word_value(const char *line, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p++)
        if ((p == line || p[-1] == ' ') && p[kl] == '=')
            return xstrndup(p + kl + 1, strcspn(p + kl + 1, " \n"));
    return NULL;
}

/* --machine A,B,...: one reproduction per machine, each into OUT/machine-M/ (its own scorecard.txt,
 * scorecard.csv and report.html), then their scorecard lines side by side in OUT/side-by-side.txt. */
static int side_by_side(const struct repro *R, int argc, char **argv, bool estimate)
{
    char *list = xstrdup(R->machine);
    char **ms = NULL;
    size_t nm = 0;
    for (char *save = NULL, *m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        ms = xrealloc(ms, (nm + 1) * sizeof(*ms));
        ms[nm++] = m;
    }
    if (!estimate && !mkdirs(R->out)) {
        errorf("cannot create the directory %s", R->out);
        return 1;
    }
    int worst = 0;
    /* a SIGTERM (or SIGINT) sent to this process alone is passed on to the running reproduction, which stops its
     * boots and exits 143 (130); Ctrl-C reaches both through the terminal's process group */
    pool_catch_signals();
    for (size_t k = 0; k < nm && !pool_stop_signal(); k++) {
        struct argv a = { 0 };
        argv_add(&a, self_exe());
        argv_add(&a, "reproduce");
        for (int i = 1; i < argc; i++) {
            const char *w = argv[i];
            bool pair = !strcmp(w, "--machine") || !strcmp(w, "--out") || !strcmp(w, "--model");
            if (pair || !strncmp(w, "--machine=", 10) || !strncmp(w, "--out=", 6) || !strncmp(w, "--model=", 8)) {
                i += pair;
                continue;
            }
            argv_add(&a, w);
        }
        argv_add(&a, "--machine");
        argv_add(&a, ms[k]);
        if (strcmp(ms[k], "none")) {   /* machine=none: the plain images, no model anywhere */
            argv_add(&a, "--model");
            argv_add(&a, R->model);
        }
        argv_add(&a, "--out");
        argv_addf(&a, "%s/machine-%s", R->out, ms[k]);
        fprintf(stderr, "reproduce: %s --machine %s (%zu of %zu) into %s/machine-%s\n", R->seed->name, ms[k], k + 1, nm,
                R->out, ms[k]);
        pid_t pid = spawn_start(a.v, NULL);
        argv_free(&a);
        int rc = pid < 0 ? 127 : -1, sent = 0;
        while (pid >= 0) {
            int ws;
            if (waitpid(pid, &ws, 0) == pid) {
                rc = spawn_status(ws);
                break;
            }
            if (pool_stop_signal() && sent != pool_stop_signal())
                kill(pid, sent = pool_stop_signal());
        }
        if (pool_stop_signal() && rc != 130 && rc != 143)
            rc = pool_stop_signal() == SIGINT ? 130 : 143;
        if (rc == 130 || rc == 143 || rc == 2) {
            free(ms), free(list);
            return rc;
        }
        if (rc > worst)
            worst = rc;
    }
    if (estimate) {
        free(ms), free(list);
        return worst;
    }
    /* every table's line of each machine: median / worst |dev|, orderings */
    char *path = xasprintf("%s/side-by-side.txt", R->out);
    FILE *f = fopen(path, "w");
    if (!f) {
        errorf("cannot write %s", path);
        return 1;
    }
    fprintf(f, "%s: the scorecards side by side, each machine's median / worst |dev| %% and orderings agree\n"
               "(each from OUT/machine-M/scorecard.txt; a table with no line there: -)%s\n", R->seed->name,
            !strcmp(R->model, "host") ? "; the presets' model run by the QEMU plugin (model=host)" : "");
    fprintf(f, "  %-24s", "table (cost)");
    for (size_t k = 0; k < nm; k++)
        fprintf(f, k + 1 < nm ? " %-20s" : " %s", ms[k]);
    fputc('\n', f);
    char **texts = xcalloc(nm, sizeof(*texts));
    for (size_t k = 0; k < nm; k++) {
        char *sc = xasprintf("%s/machine-%s/scorecard.txt", R->out, ms[k]);
        size_t len;
        texts[k] = read_file(sc, &len);
        free(sc);
    }
    /* the tables in the first machine's order (every run has the same tables) */
    char *first = texts[0] ? xstrdup(texts[0]) : NULL;
    for (char *save = NULL, *l = first ? strtok_r(first, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "scorecard seed=", 15))
            continue;
        char *table = word_value(l, "table"), *cost = word_value(l, "cost");
        char *key = xasprintf("%s (%s)", table ? table : "?", cost ? cost : "?");
        fprintf(f, "  %-24s", key);
        for (size_t k = 0; k < nm; k++) {
            char *found = NULL;
            for (char *p = texts[k]; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
                if (strncmp(p, "scorecard seed=", 15))
                    continue;
                char *line = xstrndup(p, strcspn(p, "\n"));
                char *t = word_value(line, "table"), *c = word_value(line, "cost");
                bool same = t && c && table && cost && !strcmp(t, table) && !strcmp(c, cost);
                free(t), free(c);
                if (same) {
                    found = line;
                    break;
                }
                free(line);
            }
            char *med = found ? word_value(found, "median_dev_pct") : NULL, *wst = found ? word_value(found, "worst_dev_pct") : NULL,
                 *ord = found ? word_value(found, "orderings_agree") : NULL;
            char *cell = found ? xasprintf("%5s / %5s  %s", med ? med : "?", wst ? wst : "?", ord ? ord : "?") : xstrdup("-");
            fprintf(f, k + 1 < nm ? " %-20s" : " %s", cell);
            free(cell), free(med), free(wst), free(ord), free(found);
        }
        fputc('\n', f);
        free(table), free(cost), free(key);
    }
    fclose(f);
    free(first);
    size_t len;
    char *text = read_file(path, &len);
    fputs(text ? text : "", stdout);
    free(text);
    fprintf(stderr, "reproduce: %s side by side in %s (each machine's reproduction under %s/machine-*/)\n", R->seed->name,
            path, R->out);
    for (size_t k = 0; k < nm; k++)
        free(texts[k]);
    free(texts), free(path), free(ms), free(list);
    return worst;
}

/* The boot key without the words " machine=..." and " model=host" (the same boot without the model; allocated). */
static char *plain_key(const char *key)
{
    struct strbuf b = { 0 };
    char *copy = xstrdup(key);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (strncmp(w, "machine=", 8) && strcmp(w, "model=host"))
            sb_printf(&b, "%s%s", b.s && *b.s ? " " : "", w);
    free(copy);
    return b.s ? b.s : xstrdup("");
}

/* --estimate with --model host: the host model's boots never recorded, from their plain boots' recorded times
 * times the upper end of docs/caches.md's measured 2.0-2.5x ("Host cost"), labelled as that. */
#define HOST_MODEL_COST_X 2.5
static void host_model_extrapolation(const char *plan_path, const char *times_path, const char *ref_path, long slots)
{
    struct plan p = { 0 };
    if (!plan_read(plan_path, &p))
        return;
    struct times local = { 0 }, ref = { 0 };
    times_read(times_path, &local);
    times_read(ref_path, &ref);
    size_t n_model = 0, n_plain = 0, n_none = 0;
    double total = 0;   /* slot-seconds */
    for (size_t i = 0; i < p.n; i++) {
        const char *key = p.b[i].key;
        double t = times_lookup(&local, key);
        if (!isfinite(t))
            t = times_lookup(&ref, key);
        bool model = strstr(key, " model=host") != NULL;
        n_model += model;
        if (!isfinite(t) && model) {
            char *pk = plain_key(key);
            t = times_lookup(&local, pk);
            if (!isfinite(t))
                t = times_lookup(&ref, pk);
            free(pk);
            if (isfinite(t)) {
                t *= HOST_MODEL_COST_X;
                n_plain++;
            }
        }
        if (isfinite(t))
            total += t * (double)p.b[i].slots;
        else
            n_none++;
    }
    if (n_model && n_plain) {
        char d[32];
        fmt_duration(d, sizeof(d), total / (double)(slots > 0 ? slots : 1));
        printf("  with model=host: %zu of its %zu model boots never recorded, taken as their plain boots' recorded "
               "times x%.1f (docs/caches.md, \"Host cost\": 2.0-2.5x): the boots alone %s%s on %ld host "
               "core%s%s\n", n_plain, n_model, HOST_MODEL_COST_X, n_none ? "more than " : "about ", d, slots,
               slots == 1 ? "" : "s", n_none ? " (some boots have no record at all)" : "");
    }
    times_free(&local);
    times_free(&ref);
    plan_free(&p);
}

/* What model=host needs of QEMU: tools/qemu-run.sh --check-host-model, the check it makes before it loads the
 * plugin; its words (without "error: ") when it cannot run here (allocated), or NULL. */
static char *host_model_unusable(void)
{
    char *qemu_run = xasprintf("%s/tools/qemu-run.sh", schedlab_root());
    char *argv[] = { "sh", "-c", "\"$0\" --check-host-model 2>&1", qemu_run, NULL };
    int rc;
    char *out = spawn_capture(argv, &rc);
    free(qemu_run);
    if (rc == 0) {
        free(out);
        return NULL;
    }
    char *msg = out && *out ? out : xstrdup("model=host: tools/qemu-run.sh --check-host-model failed");
    if (msg != out)
        free(out);
    msg[strcspn(msg, "\n")] = 0;
    if (!strncmp(msg, "error: ", 7))
        memmove(msg, msg + 7, strlen(msg + 7) + 1);
    return msg;
}

int cmd_reproduce(int argc, char **argv)
{
    cli_set_verb("reproduce", &spec);
    struct repro R;
    memset(&R, 0, sizeof(R));
    R.quick = true;
    R.runs = -1;
    bool estimate = false, quiet = false;
    char *seed_name = NULL;
    const char *me = getenv("SCHEDLAB_ARGV0");
    char *command = xasprintf("%s reproduce", me && *me ? me : "schedlab");
    for (int i = 1; i < argc; i++) {
        char *n = xasprintf("%s %s", command, argv[i]);
        free(command);
        command = n;
    }
    static const char *const flags[] = { "full", "quick", "quiet", "estimate", "out", "cost", "jobs", "timeout", "runs",
                                         "only", "groups", "accel", "smp", "machine", "model", "help", NULL };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *opt = NULL;
        const char *val = NULL;
        if (!strncmp(a, "--", 2) && strchr(a, '=')) {
            opt = xstrndup(a, strcspn(a, "="));
            val = strchr(a, '=') + 1;
        } else {
            opt = xstrdup(a);
        }
        int rc = -1;
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage, stdout);
            free(opt);
            return 0;
        } else if (!strcmp(opt, "--full") || !strcmp(opt, "--quick") || !strcmp(opt, "--quiet") ||
                   !strcmp(opt, "--estimate")) {
            if (val)
                rc = verb_usage_error("%s takes no value", opt);
            else if (!strcmp(opt, "--full"))
                R.quick = false;
            else if (!strcmp(opt, "--quick"))
                R.quick = true;
            else if (!strcmp(opt, "--quiet"))
                quiet = true;
            else
                estimate = true;
        } else if (!strcmp(opt, "--out") || !strcmp(opt, "--cost") || !strcmp(opt, "-j") || !strcmp(opt, "--jobs") ||
                   !strcmp(opt, "--timeout") || !strcmp(opt, "--runs") || !strcmp(opt, "--only") ||
                   !strcmp(opt, "--groups") || !strcmp(opt, "--accel") || !strcmp(opt, "--smp") ||
                   !strcmp(opt, "--machine") || !strcmp(opt, "--model")) {
            if (!val) {
                if (i + 1 >= argc)
                    rc = verb_usage_error("%s needs a value", opt);
                else if (!strncmp(argv[i + 1], "--", 2))
                    rc = verb_usage_error("%s needs a value (got the flag %s)", opt, argv[i + 1]);
                else
                    val = argv[++i];
            }
            if (rc < 0) {
                char **slot = !strcmp(opt, "--out")      ? &R.out
                              : !strcmp(opt, "--cost")   ? &R.costs
                              : !strcmp(opt, "--only")   ? &R.only
                              : !strcmp(opt, "--groups") ? &R.groups
                              : !strcmp(opt, "--accel")  ? &R.accel
                              : !strcmp(opt, "--smp")    ? &R.smp
                              : !strcmp(opt, "--machine") ? &R.machine
                              : !strcmp(opt, "--model")  ? &R.model
                                                         : NULL;
                if (slot) {
                    free(*slot);
                    *slot = xstrdup(val);
                } else {
                    long *num = !strcmp(opt, "--timeout") ? &R.timeout : !strcmp(opt, "--runs") ? &R.runs : &R.jobs;
                    if (!is_uint(val) || atol(val) < 1)
                        rc = verb_usage_error("%s %s: expected %s", !strcmp(opt, "--jobs") ? "-j" : opt, val,
                                              !strcmp(opt, "--timeout") ? "seconds >= 1" : "a number >= 1");
                    else
                        *num = atol(val);
                }
            }
        } else if (opt[0] == '-') {
            const char *near = suggest(opt + strspn(opt, "-"), flags);
            rc = near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", opt, near)
                      : verb_usage_error("unknown flag '%s'", opt);
        } else if (seed_name) {
            rc = verb_usage_error("reproduce takes one seed (got '%s' and '%s')", seed_name, opt);
        } else {
            seed_name = xstrdup(opt);
        }
        free(opt);
        if (rc >= 0)
            return rc;
    }
    /* the seeds reproduce knows: scoring.c's seeds[], "seed000, seed001 or seed003" */
    const char *names[8];
    char seeds_known[96] = "";
    size_t nn = 0;
    for (; seeds[nn] && nn + 1 < sizeof(names) / sizeof(names[0]); nn++) {
        names[nn] = seeds[nn]->name;
        snprintf(seeds_known + strlen(seeds_known), sizeof(seeds_known) - strlen(seeds_known), "%s%s", nn ? (seeds[nn + 1] ? ", " : " and ") : "",
                 seeds[nn]->name);
    }
    names[nn] = NULL;
    if (!seed_name)
        return verb_usage_error("reproduce needs a seed (it knows %s)", seeds_known);
    R.seed = seed_find(seed_name);
    if (!R.seed) {
        const char *near = suggest(seed_name, names);
        return near ? verb_usage_error("no seed '%s' (did you mean %s? reproduce knows %s)", seed_name, near, seeds_known)
                    : verb_usage_error("no seed '%s' (reproduce knows %s)", seed_name, seeds_known);
    }
    if (!R.costs)
        R.costs = xstrdup("none");
    {
        const char *c = R.costs;
        bool ok = *c && *c != ',' && c[strlen(c) - 1] != ',' && !strstr(c, ",,");
        char *copy = xstrdup(c);
        for (char *save = NULL, *w = strtok_r(copy, ",", &save); ok && w; w = strtok_r(NULL, ",", &save))
            ok = !strcmp(w, "none") || !strcmp(w, "linux61") || !strcmp(w, "era2003") || !strcmp(w, "era2007");
        free(copy);
        if (!ok)
            return verb_usage_error("--cost %s: expected none, linux61, era2003 and/or era2007, comma separated", c);
    }
    if (R.only) {
        char *copy = xstrdup(R.only);
        for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            char *pad = xasprintf(",%s,", R.seed->tables), *ww = xasprintf(",%s,", w);
            bool ok = strstr(pad, ww) != NULL;
            free(pad), free(ww);
            if (!ok) {
                char *tables = xstrdup(R.seed->tables);
                for (char *p = tables; *p; p++)
                    if (*p == ',')
                        *p = ' ';
                size_t nt = 0;
                const char *names[8];
                char *tc = xstrdup(R.seed->tables);
                for (char *s2 = NULL, *t = strtok_r(tc, ",", &s2); t && nt < 7; t = strtok_r(NULL, ",", &s2))
                    names[nt++] = t;
                names[nt] = NULL;
                const char *near = suggest(w, names);
                int rc = verb_usage_error("--only %s: %s has no table '%s'%s%s%s (its tables: %s)", R.only, R.seed->name, w,
                                          near ? "; did you mean " : "", near ? near : "", near ? "?" : "", tables);
                free(tables), free(tc), free(copy);
                return rc;
            }
        }
        free(copy);
    }
    /* The default configuration: vsmp at the quick sizes, one run per cell (docs/reproduce.md). */
    struct build_settings build;
    build_settings_init(&build);
    char *why = NULL;
    if (!R.accel) {
        R.accel = xstrdup("vsmp");
        R.accel_default = true;
        why = xstrdup(R.quick ? "the default: the most faithful configuration that fits 5 minutes here (docs/reproduce.md)"
                              : "the default accelerator at the post's sizes: deterministic, every CPU count parallel in "
                                "virtual time (docs/reproduce.md; the wall times are in docs/measurements.md)");
        char *n = xasprintf("%s%s; --accel tcg for the host's own parallel vCPUs", why,
                            !strcmp(R.seed->name, "seed000") ? ", seed000's maxgroups counts under tcg" : "");
        free(why);
        why = n;
        if (!build_is_default(&build)) {
            const char *rest = !strncmp(why, "the default: ", 13) ? why + 13 : why;
            n = xasprintf("the default accelerator and sizes with another build: %s", rest);
            free(why);
            why = n;
        }
    } else {
        why = xstrdup("given");
    }
    if (strcmp(R.accel, "tcg") && strcmp(R.accel, "kvm") && strcmp(R.accel, "icount") && strcmp(R.accel, "vsmp")) {
        static const char *const accels[] = { "tcg", "kvm", "icount", "vsmp", NULL };
        const char *near = suggest(R.accel, accels);
        return verb_usage_error("--accel %s: expected tcg, kvm, icount or vsmp%s%s%s", R.accel, near ? " (did you mean " : "",
                                near ? near : "", near ? "?)" : "");
    }
    /* --machine: a preset of the kernel's (make list-machines), and vsmp (the model's stalls are virtual time) */
    if (!R.machine)
        R.machine = xstrdup("none");
    bool machine_list = strchr(R.machine, ',') != NULL;
    if (machine_list && (*R.machine == ',' || R.machine[strlen(R.machine) - 1] == ',' || strstr(R.machine, ",,")))
        return verb_usage_error("--machine %s: an empty name in the list", R.machine);
    char *mcopy = xstrdup(R.machine);
    for (char *msave = NULL, *m = strtok_r(mcopy, ",", &msave); m; m = strtok_r(NULL, ",", &msave)) {
        {
            char *pad = xasprintf(",%s,", R.machine), *w = xasprintf(",%s,", m);
            bool twice = strstr(strstr(pad, w) + 1, w) != NULL;
            free(pad), free(w);
            if (twice) {
                int rc = verb_usage_error("--machine %s: %s twice", R.machine, m);
                free(mcopy);
                return rc;
            }
        }
        if (!strcmp(m, "none"))
            continue;
        char **machines = list_machines();
        if (!machines) {
            errorf("make list-machines failed");
            return 1;
        }
        bool found = false;
        char *have = xstrdup("none");
        const char *names2[16] = { "none" };
        size_t nm = 1;
        for (size_t i = 0; machines[i]; i++) {
            found |= !strcmp(machines[i], m);
            char *n = xasprintf("%s, %s", have, machines[i]);
            free(have);
            have = n;
            if (nm + 1 < sizeof(names2) / sizeof(names2[0]))
                names2[nm++] = machines[i];
        }
        names2[nm] = NULL;
        int rc = -1;
        if (!found) {
            const char *near = suggest(m, names2);
            rc = near ? verb_usage_error("--machine %s: no such preset (did you mean %s? make list-machines: %s)", m,
                                         near, have)
                      : verb_usage_error("--machine %s: no such preset (make list-machines: %s)", m, have);
        } else if (strcmp(R.accel, "vsmp")) {
            rc = verb_usage_error("--machine %s needs --accel vsmp (the model's stalls are the logical CPUs' virtual time; "
                                  "docs/caches.md)", m);
        }
        free(have);
        for (size_t i = 0; machines[i]; i++)
            free(machines[i]);
        free(machines);
        if (rc >= 0) {
            free(mcopy);
            return rc;
        }
    }
    free(mcopy);
    /* --model: where the preset's model runs (guest: the CACHES=1 images; host: the QEMU plugin, CACHES=host) */
    bool model_given = R.model != NULL;
    if (!R.model)
        R.model = xstrdup("guest");
    if (strcmp(R.model, "guest") && strcmp(R.model, "host")) {
        static const char *const models[] = { "guest", "host", NULL };
        const char *near = suggest(R.model, models);
        return verb_usage_error("--model %s: expected guest or host (where --machine's memory model runs; docs/caches.md)%s%s%s",
                                R.model, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
    }
    if (model_given) {
        bool preset = false;
        char *copy = xstrdup(R.machine);
        for (char *save = NULL, *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save))
            preset |= strcmp(m, "none") != 0;
        free(copy);
        if (!preset)
            return verb_usage_error("--model %s goes with --machine PRESET (where that preset's memory model runs; "
                                    "make list-machines)", R.model);
    }
    /* Under vsmp one run per cell unless --runs says otherwise: a vsmp boot's numbers are the same every time. */
    if (R.runs < 0 && !strcmp(R.accel, "vsmp"))
        R.runs = 1;
    if (R.smp && strcmp(R.seed->name, "seed000"))
        return verb_usage_error("--smp goes with seed000 (the other posts have one CPU count)");
    if (R.smp) {
        char *copy = xstrdup(R.smp);
        bool ok = *R.smp && R.smp[strlen(R.smp) - 1] != ',' && *R.smp != ',' && !strstr(R.smp, ",,");
        for (char *save = NULL, *w = strtok_r(copy, ",", &save); ok && w; w = strtok_r(NULL, ",", &save))
            ok = !strcmp(w, "1") || !strcmp(w, "2") || !strcmp(w, "4") || !strcmp(w, "8");
        free(copy);
        if (!ok)
            return verb_usage_error("--smp %s: seed000's CPU counts are 1, 2, 4 and 8", R.smp);
    }
    if (R.groups && strcmp(R.seed->name, "seed000"))
        return verb_usage_error("--groups goes with seed000");
    if (R.groups) {
        char *g = expand_groups(R.groups);
        if (!g)
            return EXIT_USAGE;
        bool ok = *g && g[strlen(g) - 1] != ',' && *g != ',' && !strstr(g, ",,");
        for (const char *c = g; ok && *c; c++)
            ok = (*c >= '0' && *c <= '9') || *c == ',';
        free(g);
        if (!ok)
            return verb_usage_error("--groups %s: expected a comma list or INC:MAX", R.groups);
    }
    /* vsmp runs every logical CPU on one host thread: a boot takes about as long as all its CPUs' work, so 4x. */
    if (!R.timeout)
        R.timeout = (R.quick ? 120 : 900) * (!strcmp(R.accel, "vsmp") ? 4 : 1);
    const char *root = schedlab_root();
    if (!root) {
        errorf("reproduce needs the schedlab tree (SCHEDLAB_ROOT)");
        return 1;
    }
    if (!R.out)
        R.out = xasprintf("%s/build/reproduce/%s", root, R.seed->name);
    /* model=host: QEMU 7.2 with plugins (what qemu-run.sh would refuse at the first boot), and the plugin built once
     * here under the tree's lock (qemu-run.sh's own make then finds it up to date) */
    bool host_model = !strcmp(R.model, "host");
    if (host_model && !estimate) {
        char *why_not = host_model_unusable();
        if (why_not) {
            errorf("--model host: %s (tools/qemu-run.sh refuses such a boot; docs/caches.md, \"The host model\")", why_not);
            free(why_not);
            return 1;
        }
        char *log = xasprintf("%s/build/hostmodel-plugin.log", root);
        int fd = tree_lock();
        int mrc = make_config(NULL, NULL, "hostmodel-plugin", log);
        tree_unlock(fd);
        if (mrc != 0) {
            errorf("--model host: make hostmodel-plugin failed (log %s)", log);
            free(log);
            return 1;
        }
        free(log);
    }
    if (machine_list)
        return side_by_side(&R, argc, argv, estimate);
    char *label = xasprintf("reproduce %s (%s, %s%s%s%s)", R.seed->name, R.accel, R.quick ? "quick sizes" : "the post's sizes",
                            strcmp(R.machine, "none") ? ", machine=" : "", strcmp(R.machine, "none") ? R.machine : "",
                            strcmp(R.machine, "none") && host_model ? " model=host" : "");
    long slots = host_cores();
    if (R.jobs && R.jobs < slots)
        slots = R.jobs;

    /* every row of every cost, and the tables to score */
    char *real_out = NULL;
    if (estimate) {
        char tmpl[] = "/tmp/schedlab-estimate.XXXXXX";
        real_out = mkdtemp(tmpl) ? xstrdup(tmpl) : NULL;
        if (!real_out) {
            errorf("mktemp failed");
            return 1;
        }
        free(R.out);
        R.out = xstrdup(real_out);
    } else {
        struct stat st;
        if (stat(R.out, &st) == 0 && !S_ISDIR(st.st_mode)) {
            errorf("%s exists and is not a directory", R.out);
            return 1;
        }
        if (!mkdirs(R.out)) {
            errorf("cannot create the directory %s", R.out);
            return 1;
        }
        char buf[PATH_MAX];
        if (realpath(R.out, buf)) {
            free(R.out);
            R.out = xstrdup(buf);
        }
    }
    char *costs = xstrdup(R.costs);
    char **cost_list = NULL;
    size_t ncost = 0;
    for (char *save = NULL, *c = strtok_r(costs, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        cost_list = xrealloc(cost_list, (ncost + 1) * sizeof(char *));
        cost_list[ncost++] = xstrdup(c);
    }
    free(costs);
    for (size_t c = 0; c < ncost; c++) {
        R.cost = cost_list[c];
        char *cdir = xasprintf("%s/cost-%s", R.out, cost_list[c]);
        R.cdir = cdir;
        R.seed->recipe(&R);
        R.cdir = NULL;
        free(cdir);
    }
    char **known = list_scheds();
    if (!known) {
        errorf("make list-scheds failed");
        return 1;
    }

    /* the plan: every boot of every row whose scheduler is in this tree */
    char *plan = xasprintf("%s/.plan", R.out);
    {
        FILE *pf = fopen(plan, "w");
        if (pf)
            fclose(pf);
        for (size_t i = 0; i < R.nrows; i++) {
            bool found = false;
            for (size_t k = 0; known[k]; k++)
                found |= !strcmp(known[k], R.rows[i].sched);
            if (!found)
                continue;
            struct argv a = { 0 };
            argv_add(&a, self_exe());
            argv_add(&a, "plan");
            argv_add(&a, "row");
            argv_add(&a, R.rows[i].dir);
            for (size_t k = 1; k < R.rows[i].flags.n; k++)
                argv_add(&a, R.rows[i].flags.v[k]);
            struct spawn_io io = { .out = plan, .append = true };
            if (spawn_run(a.v, &io) != 0) {
                errorf("planning %s failed", R.rows[i].row);
                argv_free(&a);
                return 1;
            }
            argv_free(&a);
        }
    }
    if (estimate) {
        char *times = xasprintf("%s/build/boot-times.txt", root), *ref = xasprintf("%s/tools/boot-times.txt", root);
        char sl[32];
        snprintf(sl, sizeof(sl), "%ld", slots);
        char *av[] = { "progress", plan, "--estimate", "--label", label, "--slots", sl, "--times", times, "--reference", ref, NULL };
        int rc = cmd_progress(11, av);
        if (rc == 0 && host_model)
            host_model_extrapolation(plan, times, ref, slots);
        char *rm[] = { "rm", "-rf", real_out, NULL };
        spawn_run(rm, NULL);
        free(times), free(ref);
        return rc;
    }

    /* a clean start: nothing an earlier run left counts as done now */
    {
        static const char *const old[] = { "scorecard.txt", "scorecard.csv", "report.html", "plots", NULL };
        for (int i = 0; old[i]; i++) {
            char *p = xasprintf("%s/%s", R.out, old[i]);
            char *rm[] = { "rm", "-rf", p, NULL };
            spawn_run(rm, NULL);
            free(p);
        }
        size_t len;
        char *text = read_file(plan, &len);
        for (char *save = NULL, *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
            char *tab = strchr(l, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
            if (tab) {
                char *done = xstrndup(l, (size_t)(tab - l));
                unlink(done);
                free(done);
            }
            if (tab && tab2) {
                char *start = xstrndup(tab + 1, (size_t)(tab2 - tab - 1));
                unlink(start);
                free(start);
            }
        }
        free(text);
    }
    char *plotsdir = xasprintf("%s/plots", R.out);
    if (!mkdirs(plotsdir)) {
        errorf("cannot create %s", plotsdir);
        return 1;
    }
    double t0 = pool_now();
    char *build_word = NULL;
    if (!build_is_default(&build)) {
        char *bs = build_settings_text(&build);
        build_word = xasprintf(" build='%s'", bs);
        free(bs);
    }
    char runs_text[32];
    if (R.runs > 0)
        snprintf(runs_text, sizeof(runs_text), "%ld", R.runs);
    else
        snprintf(runs_text, sizeof(runs_text), "table-default");
    char *config = xasprintf("configuration: accel=%s sizes=%s cost=%s machine=%s%s runs=%s timeout=%ld%s (%s)", R.accel,
                             R.quick ? "quick" : "full", R.costs, R.machine,
                             !strcmp(R.machine, "none") ? ""
                             : host_model ? " model=host (CACHES=host images, the model in QEMU: the plugin of docs/caches.md)"
                                          : " (CACHES=1 images)",
                             runs_text, R.timeout, build_word ? build_word : "", why);
    fprintf(stderr, "reproduce: %s %s\n", R.seed->name, config);
    char *sc = xasprintf("%s/scorecard.txt", R.out);
    FILE *scf = fopen(sc, "w");
    if (scf) {
        fprintf(scf, "# %s %s\n", R.seed->name, config);
        fclose(scf);
    }

    /* the rows: not available, or prepared (their images built, their directories written) */
    pool_catch_signals();
    progress_start(plan, label, slots, quiet);
    int failed = 0, missing = 0;
    for (size_t i = 0; i < R.nrows && !pool_stop_signal(); i++) {
        struct repro_row *r = &R.rows[i];
        char *tdir = xasprintf("%s/cost-%s/%s", R.out, r->cost, r->table);
        mkdirs(tdir);
        r->why = row_unavailable(r, known, &build, R.out);
        if (r->why) {
            say("reproduce: %s %s %s: not available: %s", R.seed->name, r->table, r->row, r->why);
            missing = 1;
            free(tdir);
            continue;
        }
        char *shown = argv_shell(r->flags.v + 1);
        say("reproduce: %s %s %s: %s run %s", R.seed->name, r->table, r->row, me && *me ? me : "schedlab", shown);
        free(shown);
        r->t0 = pool_now();
        char *out = xasprintf("%s/%s.out", tdir, r->row), *err = xasprintf("%s/%s.err", tdir, r->row);
        struct prep_call pc = { r, 0 };
        redirected(out, err, false, prepare_row, &pc);
        cli_set_verb("reproduce", &spec);
        if (pc.rc) {
            size_t len;
            char *text = read_file(err, &len);
            if (text) {
                const char *p = text + len;
                for (int n = 0; p > text && n <= 5; p--)
                    if (p[-1] == '\n')
                        n++;
                fputs(p, stderr);
            }
            free(text);
            progress_stop();
            errorf("the run of %s failed to start (exit %d; %s)", r->row, pc.rc, err);
            return pc.rc;
        }
        r->prepared = true;
        r->log = fopen(err, "a");
        free(out), free(err), free(tdir);
    }

    /* every boot of every row: one pool */
    size_t njobs = 0;
    for (size_t i = 0; i < R.nrows; i++)
        if (R.rows[i].prepared)
            njobs += R.rows[i].rd.njobs;
    struct job *jobs = xcalloc(njobs ? njobs : 1, sizeof(*jobs));
    struct times times = { 0 };
    {
        char *tp = xasprintf("%s/build/boot-times.txt", root), *rp = xasprintf("%s/tools/boot-times.txt", root);
        times_read(rp, &times);
        times_read(tp, &times);
        free(tp), free(rp);
    }
    size_t k = 0;
    for (size_t i = 0; i < R.nrows; i++) {
        struct repro_row *r = &R.rows[i];
        if (!r->prepared)
            continue;
        const struct run_job **all = xcalloc(r->rd.njobs + 1, sizeof(*all));
        for (size_t j = 0; j < r->rd.njobs; j++)
            all[j] = &r->rd.jobs[j];
        struct job *js = run_jobs(&r->rd, all, r->rd.njobs, k);
        for (size_t j = 0; j < r->rd.njobs; j++) {
            /* longest first: each boot's recorded time (progress.h's key) */
            char **words = NULL;
            size_t nw = 0;
            char *line = xasprintf("%s%s%s", r->rd.cmdline, all[j]->extra[0] ? " " : "", all[j]->extra);
            for (char *save = NULL, *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                words = xrealloc(words, (nw + 1) * sizeof(char *));
                words[nw++] = w;
            }
            char *key = boot_key(r->rd.accel, r->rd.mem, all[j]->smp, all[j]->sched, (const char *const *)words, nw);
            js[j].est = times_lookup(&times, key);
            free(key);
            free(words);
            free(line);
            free(js[j].arg);
            struct repro_job *rj = xcalloc(1, sizeof(*rj));
            rj->row = r;
            rj->j = all[j];
            js[j].arg = rj;
            jobs[k++] = js[j];
        }
        free(js);
        free(all);
    }
    times_free(&times);
    size_t done = 0;
    struct pool pool = { .budget = host_cores(), .max_jobs = R.jobs, .started = job_started, .finished = job_finished,
                         .ctx = &done };
    int sig = pool_stop_signal() ? pool_stop_signal() : pool_run(&pool, jobs, njobs);
    int interrupted = sig == SIGINT ? 130 : sig ? 143 : 0;
    if (interrupted)
        say("reproduce: interrupted; stopping the rows that run");

    /* each row: its end in meta.txt, collect, plots */
    for (size_t i = 0; i < R.nrows; i++) {
        struct repro_row *r = &R.rows[i];
        if (!r->prepared)
            continue;
        write_meta_end(r->rd.dir, r->t0, interrupted);
        char *tdir = xasprintf("%s/cost-%s/%s", R.out, r->cost, r->table);
        char *out = xasprintf("%s/%s.out", tdir, r->row), *err = xasprintf("%s/%s.err", tdir, r->row);
        struct collect_call cc = { r->rd.dir };
        if (r->log)
            fflush(r->log);
        cli_set_verb("run", NULL);
        int crc = redirected(out, err, true, collect_row, &cc);
        cli_set_verb("reproduce", &spec);
        if (crc) {
            progress_stop();
            errorf("collecting %s failed (%s)", r->rd.dir, err);
            return 1;
        }
        if (!interrupted) {
            char *pout = xasprintf("%s/%s.plot.out", tdir, r->row);
            struct plot_call pl = { r->rd.dir };
            cli_set_verb("plot", NULL);
            if (redirected(pout, pout, false, plot_row, &pl))
                say("reproduce: no plots for %s (%s)", r->row, pout);
            cli_set_verb("reproduce", &spec);
            free(pout);
        }
        /* the boots that did not end ok */
        bool ok = true;
        for (size_t j = 0; j < r->rd.njobs; j++) {
            char *rcf = boot_file(&r->rd, &r->rd.jobs[j], "rc");
            if (rc_file_status(rcf) != 0)
                ok = false;
            free(rcf);
        }
        if (!ok)
            failed = 1;
        if (!interrupted)
            say("reproduce: %s %s %s: %s in %ld s", R.seed->name, r->table, r->row, ok ? "ok" : "some boots failed",
                (long)(floor(r->t_end > r->t0 ? r->t_end : pool_now()) - floor(r->t0)));
        free(tdir), free(out), free(err);
    }
    if (interrupted) {
        progress_stop();
        return interrupted;
    }
    /* the tables, in the post's order */
    for (size_t s = 0; s < R.nscores; s++)
        if (score_table(&R, &R.scores[s], plotsdir)) {
            progress_stop();
            return 1;
        }
    {
        char *av[] = { "repro-report", R.out, "--command", command, NULL };
        cli_set_verb("repro-report", NULL);
        if (cmd_repro_report(4, av)) {
            cli_set_verb("reproduce", &spec);
            progress_stop();
            errorf("cannot write %s/report.html", R.out);
            return 1;
        }
        cli_set_verb("reproduce", &spec);
    }
    progress_stop();
    unlink(plan);
    fprintf(stderr, "reproduce: %s in %ld s; %s/scorecard.txt, %s/scorecard.csv, %s/report.html\n", R.seed->name,
            (long)(floor(pool_now()) - floor(t0)), R.out, R.out, R.out);
    size_t len;
    char *text = read_file(sc, &len);
    for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "scorecard seed=", 15))
            printf("%.*s\n", (int)strcspn(l, "\n"), l);
    free(text);
    if (failed)
        fprintf(stderr, "reproduce: some boots failed (FAILED cells above; logs under %s/cost-*/*/*/logs/)\n", R.out);
    if (missing)
        fprintf(stderr, "reproduce: some rows are not available in this tree (their cells are counted as missing)\n");
    for (size_t i = 0; i < R.nrows; i++)
        if (R.rows[i].log)
            fclose(R.rows[i].log);
    run_jobs_free(jobs, njobs);
    return failed || missing ? 1 : 0;
}
