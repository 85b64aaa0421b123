/*
 * scorecard SEED TABLE ROW=DIR...: one table of a seed post beside ours in
 * the post's layout, then its fidelity scorecard (scorecard.c): the
 * normalised cells (ratios between kernels in one cell, growth along a row)
 * with the seed's value, ours and the deviation, the orderings, and the
 * machine-readable "scorecard seed=... table=..." line.  Each ROW names a
 * kernel of the table (goodness, o1, rc1, ...) and the results directory of
 * its run (tools/schedlab run), or "!why" when that kernel cannot be
 * measured here: its cells are listed as missing with that reason, never
 * dropped or filled from another kernel.  docs/reproduce.md.
 */
#include "cmds.h"
#include "lost_ticks.h"
#include "cli.h"
#include "metric.h"
#include "repro_out.h"
#include "scorecard.h"
#include "table.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: schedlab-tool scorecard SEED TABLE [--cost MODEL] [--csv FILE] [--html FILE] [--plots DIR] [--notes FILE]\n"
    "                               ROW=DIR[#SCHED]|ROW=!WHY ...\n"
    "  SEED TABLE: seed000 hackbench|maxgroups|nick, seed001 lat_ctx|hackbench|pipe|lat_ctx-bound|hackbench-bound|\n"
    "  pipe-bound, seed003 tbench|aim7|volano.  ROW: a kernel of that table (seed000: goodness o1 [nick]; seed001: rc1 rc6 cfs;\n"
    "  seed003: goodness dyn-sched o1-rml mq; a seed001 -bound table also takes KERNEL-unbound=DIR for\n"
    "  the bound/unbound ratios) and the results directory of its run (#SCHED: only that\n"
    "  scheduler's rows, when DIR holds several), or !WHY when it cannot be\n"
    "  measured (its cells are counted as missing, with WHY).  --cost: the cost model the runs used (cost=,\n"
    "  checked against the cost= of the runs' result lines).  --csv FILE: append the cells as CSV rows.\n"
    "  --html FILE: the table as an HTML section (what ran, the scorecard with its cells coloured by\n"
    "  deviation, the notes, the post's table beside ours, the plots inline) for report.html.\n"
    "  --plots DIR: one plot per normalised quantity, ours (solid) and the post's (dashed) on one axis,\n"
    "  DIR/SEED-COST-TABLE-QUANTITY.png, .svg and .gp (gnuplot).  --notes FILE: the table's lines of\n"
    "  FILE (tools/reproduce-notes.txt) under its scorecard.\n"
    "  Exit: 0, 1 unreadable input, 2 usage error.\n";

#define MAXROWS 8
#define MAXCELLS 128

/* ---------------------------------------------------------------- the seeds' numbers */

/* seed 000, test set 1 (hackbench, mean of 5 runs, s) and test set 2 (max groups) */
static const double s000_hb[2][4][4] = {
    { { 15.52, 37.63, 74.34, 110.62 }, { 10.50, 30.42, 64.26, 112.46 }, { 7.07, 22.75, 54.10, 101.45 },
      { 7.02, 24.63, 61.48, 114.93 } },
    { { 9.91, 17.86, 27.55, 39.77 }, { 7.44, 13.45, 19.68, 26.68 }, { 5.16, 9.25, 13.64, 18.65 },
      { 4.08, 7.15, 10.31, 13.84 } },
};
static const double s000_maxg[2][4] = { { 200, 225, 225, 225 }, { 200, 350, 525, 425 } };
static const int s000_cpus[4] = { 1, 2, 4, 8 };
static const int s000_groups[4] = { 50, 100, 150, 200 };
/* Nick Piggin's scheduler patch on the 8-way, groups 20..100 */
static const double s000_nick[5] = { 1.69, 2.54, 3.41, 4.38, 5.44 };
static const int s000_nick_groups[5] = { 20, 40, 60, 80, 100 };

/* seed 001 (Rob Hussey, LKML Sep 2007): 10 runs each, rc1 rc6 cfs-devel */
static const double s001[6][3][10] = {
    { { 4.58, 4.76, 4.74, 4.74, 4.79, 4.80, 4.52, 4.72, 4.87, 4.69 },
      { 4.39, 4.42, 4.52, 4.44, 4.74, 4.65, 4.54, 4.57, 4.67, 4.47 },
      { 4.42, 4.41, 4.67, 4.76, 4.59, 4.76, 4.50, 4.62, 4.80, 4.65 } },
    { { 6.634, 6.342, 6.219, 6.702, 6.287, 6.239, 6.434, 6.229, 6.387, 6.383 },
      { 5.969, 5.974, 5.913, 5.980, 6.007, 6.022, 5.946, 6.007, 5.947, 5.946 },
      { 5.894, 5.903, 5.941, 5.916, 5.943, 5.899, 5.904, 5.941, 5.880, 5.933 } },
    { { 13.39, 13.37, 13.19, 13.17, 13.16, 13.15, 13.18, 13.45, 13.40, 13.39 },
      { 13.16, 13.12, 13.17, 13.16, 13.22, 13.19, 13.42, 13.39, 13.40, 13.44 },
      { 13.20, 13.22, 13.26, 13.18, 13.23, 13.18, 13.21, 13.26, 13.28, 13.24 } },
    { { 3.20, 3.20, 3.21, 3.19, 3.19, 3.22, 3.21, 3.22, 3.23, 3.22 },
      { 2.61, 2.60, 2.67, 2.66, 2.64, 2.67, 3.29, 2.61, 2.68, 2.60 },
      { 2.37, 2.40, 2.38, 2.34, 2.37, 2.36, 2.36, 2.44, 2.36, 2.37 } },
    { { 7.528, 7.649, 7.613, 7.550, 7.563, 7.617, 7.593, 7.602, 7.589, 7.682 },
      { 7.950, 8.026, 8.160, 8.054, 8.373, 8.152, 7.831, 8.311, 8.010, 8.059 },
      { 7.538, 7.548, 7.580, 7.558, 7.559, 7.550, 7.562, 7.588, 7.552, 7.556 } },
    /* bound pipe-test: the post has 7 runs */
    { { 10.29, 10.30, 10.31, 10.29, 10.28, 10.30, 10.30, NAN, NAN, NAN },
      { 9.27, 9.29, 9.28, 9.27, 9.28, 9.28, 9.28, NAN, NAN, NAN },
      { 8.54, 8.54, 8.54, 8.54, 8.53, 8.53, 8.54, NAN, NAN, NAN } },
};
static const char *const s001_tables[6] = { "lat_ctx", "hackbench", "pipe", "lat_ctx-bound", "hackbench-bound",
                                            "pipe-bound" };
static const char *const s001_titles[6] = { "lat_ctx -s 0 2", "hackbench 50", "pipe-test",
                                            "lat_ctx -s 0 2 (bound to single core)",
                                            "hackbench 50 (bound to single core)", "pipe-test (bound to single core)" };
static const char *const s001_bench[3] = { "lat_ctx", "hackbench", "pipe" };
static const char *const s001_metric[3] = { "usec_per_switch", "time_s", "usec_per_op" };

/* seed 003 (Randy Hron, LKML May 2002): tbench MB/s on an OSDL 4-way; stock 2.4.19-pre7,
 * -aa1 (dyn-sched), the O(1) backport as the mean of -ac2 and -jam6; MQ has no number. */
static const double s003[4][2] = {
    { 100.86, 29.93 }, { 101.76, 32.75 }, { (105.89 + 108.23) / 2, (103.98 + 104.98) / 2 }, { NAN, NAN } };
static const int s003_clients[2] = { 64, 192 };
static const char *const s003_seednames[4] = { "2.4.19-pre7", "2.4.19-pre7-aa1", "-ac2/-jam6 (mean)", "(no number)" };
/* The post's other pair with and without -aa (both -aa rows ran 30_dyn-sched-5): 2.4.19-pre5 and
 * -pre5-aa1 at 192 clients; at 64 the post has -pre5-aa1 (102.43) but no stock -pre5. */
static const double s003_pre5[2] = { 29.01, 29.22 };
static const double s003_pre5aa1_64 = 102.43;

/* ---------------------------------------------------------------- rows and their data */

struct row {
    const char *key;         /* as the table names it */
    const char *dir;         /* results directory, or NULL */
    const char *missing;     /* why there is no data (from "!why", or a load error) */
    const char *sched;       /* only this scheduler's rows (DIR#SCHED); NULL: the directory must hold one */
    struct table t;
    bool loaded;
};

static struct row rows[MAXROWS];
static size_t nrows;

static struct row *find_row(const char *key)
{
    for (size_t i = 0; i < nrows; i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    return NULL;
}

/* Loads a row's results.csv (once); false with r->missing set when it cannot. */
static bool row_load(struct row *r)
{
    if (r->missing)
        return false;
    if (r->loaded)
        return true;
    char *path = xasprintf("%s/results.csv", r->dir);
    size_t warn = 0;
    const char *err = table_read_csv(&r->t, path, &warn);
    if (err) {
        r->missing = xasprintf("cannot read %s: %s", path, err);
        free(path);
        return false;
    }
    free(path);
    r->loaded = true;
    int sc = table_col(&r->t, "sched");
    const char *first = NULL;
    for (size_t i = 0; !r->sched && i < r->t.nrows; i++) {
        const char *s = table_get(&r->t, i, sc);
        if (!first)
            first = s;
        else if (s && !streq(s, first)) {
            r->missing = xasprintf("%s holds runs of several schedulers (%s, %s): name one with %s=%s#SCHED", r->dir,
                                   first, s, r->key, r->dir);
            return false;
        }
    }
    return true;
}

/* The ok values of bench/metric at smp (0: any) and across=aval (NULL: any), in the file's order.
 * *nfail: matching rows that failed; *over: some matching row was oversubscribed. */
static size_t row_values(struct row *r, const char *bench, const char *metric, int smp, const char *across,
                         const char *aval, double *out, size_t max, size_t *nfail, bool *over)
{
    size_t n = 0;
    *nfail = 0;
    if (!row_load(r))
        return 0;
    struct table *t = &r->t;
    int cb = table_col(t, "bench"), cs = table_col(t, "smp"), cst = table_col(t, "status"), cm = table_col(t, metric),
        ca = across ? table_col(t, across) : -1, co = table_col(t, "oversubscribed");
    for (size_t i = 0; i < t->nrows; i++) {
        if (!streq(table_get(t, i, cb), bench) || (r->sched && !streq(table_get(t, i, table_col(t, "sched")), r->sched)))
            continue;
        long s;
        if (smp && (!table_get(t, i, cs) || !parse_long(table_get(t, i, cs), &s) || s != smp))
            continue;
        if (aval && !streq(table_get(t, i, ca), aval))
            continue;
        if (over && streq(table_get(t, i, co), "yes"))
            *over = true;
        double v;
        if (!streq(table_get(t, i, cst), "ok") || cm < 0 || !table_get(t, i, cm) || !parse_double(table_get(t, i, cm), &v)) {
            (*nfail)++;
            continue;
        }
        if (n < max)
            out[n++] = v;
    }
    return n;
}

static double mean(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / n;
}

/* The distinct values of column `across` for bench at smp, sorted numerically (at most max). */
static size_t row_across(struct row *r, const char *bench, int smp, const char *across, long *out, size_t max)
{
    size_t n = 0;
    if (!row_load(r))
        return 0;
    int cb = table_col(&r->t, "bench"), cs = table_col(&r->t, "smp"), ca = table_col(&r->t, across);
    for (size_t i = 0; i < r->t.nrows; i++) {
        long s, v;
        if (!streq(table_get(&r->t, i, cb), bench) ||
            (r->sched && !streq(table_get(&r->t, i, table_col(&r->t, "sched")), r->sched)) || !table_get(&r->t, i, cs) || !parse_long(table_get(&r->t, i, cs), &s) ||
            (smp && s != smp) || !table_get(&r->t, i, ca) || !parse_long(table_get(&r->t, i, ca), &v))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen = seen || out[k] == v;
        if (!seen && n < max)
            out[n++] = v;
    }
    for (size_t a = 1; a < n; a++)   /* insertion sort */
        for (size_t b = a; b > 0 && out[b - 1] > out[b]; b--) {
            long x = out[b];
            out[b] = out[b - 1];
            out[b - 1] = x;
        }
    return n;
}

/* The distinct cpus_used values of bench's ok runs in a row, "/"-joined into buf ("-" when none). */
static const char *row_cpus_used(struct row *r, const char *bench, char *buf, size_t size)
{
    snprintf(buf, size, "-");
    if (!row_load(r))
        return buf;
    struct table *t = &r->t;
    int cb = table_col(t, "bench"), cst = table_col(t, "status"), cu = table_col(t, "cpus_used");
    size_t len = 0;
    for (size_t i = 0; cu >= 0 && i < t->nrows; i++) {
        const char *v = table_get(t, i, cu);
        if (!streq(table_get(t, i, cb), bench) || !streq(table_get(t, i, cst), "ok") || !v || !*v ||
            (r->sched && !streq(table_get(t, i, table_col(t, "sched")), r->sched)))
            continue;
        char key[40];
        snprintf(key, sizeof(key), "/%s/", v);
        char have[256];
        snprintf(have, sizeof(have), "/%s/", len ? buf : "");
        if (strstr(have, key))
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? "/" : "", v);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    return buf;
}

/* A cell's mean here; sets *why when there is none. */
static double cell_here(struct row *r, const char *bench, const char *metric, int smp, const char *across, long aval,
                        bool *over, const char **why)
{
    double v[256];
    size_t nf = 0;
    char buf[32];
    snprintf(buf, sizeof(buf), "%ld", aval);
    size_t n = row_values(r, bench, metric, smp, across, across ? buf : NULL, v, 256, &nf, over);
    if (r->missing) {
        *why = r->missing;
        return NAN;
    }
    if (!n) {
        *why = nf ? "FAILED: every run of this cell failed" : "not measured: no run of this cell";
        return NAN;
    }
    return mean(v, n);
}

/* ---------------------------------------------------------------- output helpers */

static struct sc_cell cells[MAXCELLS];
static struct sc_order ords[MAXCELLS];
static size_t ncells, nords;

static void add_cell(const char *label, double seed, double ours, const char *why)
{
    if (ncells >= MAXCELLS)
        return;
    struct sc_cell *c = &cells[ncells++];
    snprintf(c->label, sizeof(c->label), "%s", label);
    c->seed = seed;
    c->ours = isfinite(ours) ? ours : NAN;
    c->missing = isfinite(ours) ? NULL : (why ? why : "not measured");
}

static void add_order(const char *label, double sa, double sb, double oa, double ob)
{
    if (nords >= MAXCELLS)
        return;
    struct sc_order *o = &ords[nords++];
    snprintf(o->label, sizeof(o->label), "%s", label);
    o->seed = sc_order_sign(sa, sb, SC_TIE_FRAC);
    o->ours = sc_order_sign(oa, ob, SC_TIE_FRAC);
}

static void print_val(double x, int w, int dec)
{
    if (isfinite(x))
        printf("%*.*f", w, dec, x);
    else
        printf("%*s", w, "-");
}

/* "not available" lines: every row given as !why */
static void print_unavailable(void)
{
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].missing)
            printf("   %-12s not available: %s\n", rows[i].key, rows[i].missing);
}

/* ---------------------------------------------------------------- what a person reads beside the numbers */

/* What a table shows besides the text: the post's table and ours (HTML),
 * the plots of its normalised quantities, what it measured and compares. */
static struct htable *post_t, *ours_t;
static const char *post_none;            /* the post has no table: why (shown instead of one) */
static struct nplot *plots[8];
static size_t nplots;
static char *ran_here, *ran_post;        /* the sizes, runs, CPUs, accelerator and cost: ours, the post's */
static const char *compares;             /* one sentence: what the scorecard compares */
static const char *title_text;           /* the table's title */

static struct nplot *add_plot(struct nplot *p)
{
    if (nplots < sizeof(plots) / sizeof(plots[0]))
        plots[nplots++] = p;
    else
        free(p);
    return p;
}

static int cmp_num_text(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    double dx, dy;
    if (parse_double(x, &dx) && parse_double(y, &dy))
        return (dx > dy) - (dx < dy);
    return strcmp(x, y);
}

/* The rows that measure the table (not a bound table's KERNEL-unbound ones). */
static bool table_row(const struct row *r)
{
    size_t n = strlen(r->key);
    return r->dir && !(n > 8 && !strcmp(r->key + n - 8, "-unbound"));
}

/* Every distinct value of column key in the rows of bench (numbers in order), comma-joined; NULL when none. */
static char *distinct_values(const char *bench, const char *key)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < nrows; i++) {
        struct row *r = &rows[i];
        if (!table_row(r) || !row_load(r))
            continue;
        int cb = table_col(&r->t, "bench"), ck = table_col(&r->t, key), cs = table_col(&r->t, "sched");
        if (ck < 0) {   /* a key the result lines do not echo (bind=): as the run asked, in matrix.txt */
            char *path = xasprintf("%s/matrix.txt", r->dir), *want = xasprintf(" %s=", key);
            size_t len;
            char *buf = read_file(path, &len);
            char *cl = buf ? strstr(buf, "\ncmdline ") : NULL;
            if (!cl && buf && !strncmp(buf, "cmdline ", 8))
                cl = buf - 1;
            char *eol = cl ? strchr(cl + 1, '\n') : NULL;
            if (eol)
                *eol = '\0';
            char *w = cl ? strstr(cl + 8, want) : NULL;
            if (w) {
                w += strlen(want);
                char *x = xstrndup(w, strcspn(w, " "));
                bool seen = false;
                for (size_t k = 0; k < n && !seen; k++)
                    seen = !strcmp(v[k], x);
                if (!seen) {
                    grow(&v, &cap, n, sizeof(*v));
                    v[n++] = x;
                } else
                    free(x);
            }
            free(buf);
            free(path);
            free(want);
        }
        for (size_t j = 0; ck >= 0 && j < r->t.nrows; j++) {
            const char *x = table_get(&r->t, j, ck);
            if (!x || (bench && !streq(table_get(&r->t, j, cb), bench)) || (r->sched && !streq(table_get(&r->t, j, cs), r->sched)))
                continue;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = !strcmp(v[k], x);
            if (!seen) {
                grow(&v, &cap, n, sizeof(*v));
                v[n++] = xstrdup(x);
            }
        }
    }
    if (!n)
        return NULL;
    qsort(v, n, sizeof(*v), cmp_num_text);
    struct strbuf b = { 0 };
    for (size_t k = 0; k < n; k++) {
        sb_printf(&b, "%s%s", k ? "," : "", v[k]);
        free(v[k]);
    }
    free(v);
    return b.s;
}

/* Runs a cell: runs x boots of the rows' matrix.txt ("1", or "2-3" when they differ). */
static char *runs_a_cell(void)
{
    long lo = 0, hi = 0;
    for (size_t i = 0; i < nrows; i++) {
        if (!table_row(&rows[i]))
            continue;
        char *path = xasprintf("%s/matrix.txt", rows[i].dir);
        size_t len;
        char *buf = read_file(path, &len);
        free(path);
        long runs = 1, boots = 1;
        char *save = NULL;
        for (char *l = buf ? strtok_r(buf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
            if (!strncmp(l, "runs ", 5))
                parse_long(l + 5, &runs);
            else if (!strncmp(l, "boots ", 6))
                parse_long(l + 6, &boots);
        }
        bool have = buf != NULL;
        free(buf);
        if (!have)
            continue;
        long x = runs * boots;
        lo = !lo || x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (!hi)
        return NULL;
    return lo == hi ? xasprintf("%ld run%s a cell", hi, hi == 1 ? "" : "s") : xasprintf("%ld-%ld runs a cell", lo, hi);
}

/* One workload key of a table: its column, how it is named, and the post's value. */
struct size_spec {
    const char *key, *label, *post;
};

/* ran_here and ran_post: what the rows measured (from their results) and what the post did. */
static void describe(const char *bench, const struct size_spec *spec, size_t nspec, const char *post_runs,
                     const char *post_cpus, const char *post_machine, const char *post_extra)
{
    struct strbuf h = { 0 }, p = { 0 };
    sb_printf(&h, "%s", bench);
    sb_printf(&p, "%s", bench);
    for (size_t i = 0; i < nspec; i++) {
        char *v = distinct_values(bench, spec[i].key);
        sb_printf(&h, ", %s %s", spec[i].label, v ? v : "-");
        sb_printf(&p, ", %s %s", spec[i].label, spec[i].post);
        free(v);
    }
    char *runs = runs_a_cell(), *cpus = distinct_values(bench, "smp"), *accel = distinct_values(bench, "accel"),
         *cost = distinct_values(bench, "cost");
    if (!cost)
        cost = distinct_values(bench, "boot_cost");
    if (cpus)
        for (char *c = cpus; *c; c++)
            if (*c == ',')
                *c = '/';
    sb_printf(&h, "; %s; %s CPU%s; accel=%s; cost=%s", runs ? runs : "no run", cpus ? cpus : "-",
              cpus && strcmp(cpus, "1") ? "s" : "", accel ? accel : "-", cost ? cost : "none");
    sb_printf(&p, "; %s; %s; %s%s%s", post_runs, post_cpus, post_machine, post_extra ? "; " : "", post_extra ? post_extra : "");
    free(runs);
    free(cpus);
    free(accel);
    free(cost);
    free(ran_here);
    free(ran_post);
    ran_here = h.s;
    ran_post = p.s;
}

/* "HEAD text", the text wrapped at 100 columns under itself. */
static void print_wrapped(const char *head, const char *text)
{
    size_t col = strlen(head);
    fputs(head, stdout);
    for (const char *w = text; *w;) {
        size_t n = strcspn(w, " ");
        if (col > strlen(head) && col + 1 + n > 100) {
            printf("\n%*s", (int)strlen(head), "");
            col = strlen(head);
        }
        printf(" %.*s", (int)n, w);
        col += 1 + n;
        w += n;
        w += strspn(w, " ");
    }
    fputc('\n', stdout);
}

/* The header lines under a table's title: what ran here and in the post, and what the scorecard compares. */
static void print_described(void)
{
    if (ran_here)
        print_wrapped("measured here:", ran_here);
    if (ran_post)
        print_wrapped("the post:     ", ran_post);
    if (compares)
        print_wrapped("compared:     ", compares);
    printf("\n");
}

/* The table's notes from FILE ("SEED TABLE: text" lines): text, wrapped, after a heading; and their count. */
static size_t read_notes(const char *path, const char *seed, const char *table, char ***out)
{
    *out = NULL;
    if (!path)
        return 0;
    size_t len, n = 0, cap = 0;
    char *buf = read_file(path, &len);
    if (!buf)
        return 0;
    char *prefix = xasprintf("%s %s: ", seed, table);
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, prefix, strlen(prefix))) {
            grow(out, &cap, n, sizeof(**out));
            (*out)[n++] = xstrdup(l + strlen(prefix));
        }
    free(prefix);
    free(buf);
    return n;
}

static void print_notes(const char *file, char **notes, size_t n)
{
    if (!n)
        return;
    printf("notes (%s: what this table is missing where it stays far from the seed, as measured, or said to be unknown):\n",
           file);
    for (size_t i = 0; i < n; i++) {
        const char *w = notes[i];
        size_t col = 3;
        fputs("  -", stdout);
        while (*w) {
            size_t k = strcspn(w, " ");
            if (col + 1 + k > 100) {
                fputs("\n   ", stdout);
                col = 3;
            }
            printf(" %.*s", (int)k, w);
            col += 1 + k;
            w += k;
            w += strspn(w, " ");
        }
        fputc('\n', stdout);
    }
}

/* An SVG file inline: from its <svg element on. */
static void inline_svg(FILE *f, const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    const char *s = buf ? strstr(buf, "<svg") : NULL;
    if (s)
        fputs(s, f);
    else
        fprintf(f, "<p class=\"bad\">no plot (%s could not be read)</p>\n", path);
    free(buf);
}

/* The HTML fragment of one table (tools/schedlab reproduce assembles report.html from them). */
static int write_html(const char *path, const char *seed, const char *table, const char *cost, const char *plotdir,
                      const char *notes_file, char **notes, size_t nnotes)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        errorf("cannot write %s", path);
        return 1;
    }
    fprintf(f, "<section class=\"seedtable\" id=\"%s-%s-%s\">\n<h2>", seed, cost, table);
    html_text(f, title_text ? title_text : table);
    fprintf(f, " <span class=\"sub\">%s %s, cost=%s</span></h2>\n", seed, table, cost);
    fputs("<table class=\"ran\"><tbody>\n<tr><th>measured here</th><td>", f);
    html_text(f, ran_here ? ran_here : "-");
    fputs("</td></tr>\n<tr><th>the post</th><td>", f);
    html_text(f, ran_post ? ran_post : "-");
    fputs("</td></tr>\n</tbody></table>\n", f);
    if (compares) {
        fputs("<p class=\"compares\"><b>What the scorecard compares.</b> ", f);
        html_text(f, compares);
        fputs("</p>\n", f);
    }
    sc_write_html(f, seed, table, cost, cells, ncells, ords, nords);
    if (nnotes) {
        fputs("<div class=\"notes\"><p><b>Where it stays far from the post, and why</b> (", f);
        html_text(f, notes_file);
        fputs(")</p><ul>\n", f);
        for (size_t i = 0; i < nnotes; i++) {
            fputs("<li>", f);
            html_text(f, notes[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul></div>\n", f);
    }
    fputs("<div class=\"side\">\n<div>", f);
    if (post_t)
        ht_write(f, post_t);
    else {
        fputs("<p class=\"nopost\">", f);
        html_text(f, post_none ? post_none : "The post has no table here.");
        fputs("</p>", f);
    }
    fputs("</div>\n<div>", f);
    if (ours_t)
        ht_write(f, ours_t);
    fputs("</div>\n</div>\n", f);
    for (size_t i = 0; plotdir && i < nplots; i++) {
        char *svg = xasprintf("%s/%s.svg", plotdir, plots[i]->stem);
        fputs("<figure>", f);
        inline_svg(f, svg);
        fputs("<figcaption>", f);
        html_text(f, plots[i]->title);
        fputs("</figcaption></figure>\n", f);
        free(svg);
    }
    fputs("</section>\n", f);
    return fclose(f) ? 1 : 0;
}

/* ---------------------------------------------------------------- seed 000 */

static const char *const s000_keys[2] = { "goodness", "o1" };
static const char *const s000_names[2] = { "2.4.18", "2.6.0-test9" };

static int seed000_hackbench(void)
{
    struct row *r[2] = { find_row("goodness"), find_row("o1") };
    for (int k = 0; k < 2; k++)
        if (!r[k])
            return usage_error("seed000 hackbench needs the row %s=DIR (or =!why)", s000_keys[k]);
    printf("Test set 1: Performance of hackbench (seconds, lower is better): here beside the seed.\n"
           "Columns are matched by position (here the groups of the run, seed groups 50 100 150 200).\n");
    static const struct size_spec spec[] = { { "groups", "groups", "50,100,150,200" }, { "loops", "loops", "100" } };
    describe("hackbench", spec, 2, "the mean of 5 runs a cell", "1/2/4/8 CPUs", "OSDL's Scalable Test Platform",
             "2.4.18 and 2.6.0-test9");
    title_text = "Test set 1: hackbench, seconds (lower is better)";
    compares = "shapes, not seconds: o1/goodness in each cell (16 cells), each kernel's growth along its row, every "
               "column over the row's first (24), and which kernel is faster in each cell (16 orderings). Columns are "
               "matched by position, so a smaller run's groups stand for the post's 50..200 in order.";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: hackbench, seconds (mean of 5 runs)", 5);
    ours_t = ht_new("ours", "Here: hackbench, seconds (mean of the ok runs)", 5);
    ht_head(post_t, 0, "groups", NULL);
    ht_head(ours_t, 0, "groups", NULL);
    for (int a = 0; a < 4; a++) {
        char g[16];
        snprintf(g, sizeof(g), "%d", s000_groups[a]);
        ht_head(post_t, (size_t)a + 1, g, "num");
        snprintf(g, sizeof(g), "col %d", a + 1);   /* ours: the groups of the run, in a row of each block */
        ht_head(ours_t, (size_t)a + 1, g, "num");
    }
    struct nplot *pr = add_plot(np_new("ratio", "seed000 hackbench: o1 / goodness time in each cell, by CPU count",
                                       "groups column (here | the post)", "ratio o1 / goodness (time)"));
    pr->ratio_line = true;
    struct nplot *pg[2];
    for (int k = 0; k < 2; k++) {
        char st[32], ti[160];
        snprintf(st, sizeof(st), "growth-%s", s000_keys[k]);
        snprintf(ti, sizeof(ti), "seed000 hackbench: %s (%s) time over its first column, by CPU count", s000_keys[k],
                 s000_names[k]);
        pg[k] = add_plot(np_new(st, ti, "groups column (here | the post)", "ratio to the first column (time)"));
        pg[k]->ratio_line = true;
    }
    for (int ci = 0; ci < 4; ci++) {
        int cpu = s000_cpus[ci];
        long gv[8] = { 0 };
        size_t ng = 0;
        for (int k = 0; k < 2 && !ng; k++)
            ng = row_across(r[k], "hackbench", cpu, "groups", gv, 8);
        double here[2][4];
        bool over = false;
        const char *why[2][4];
        for (int k = 0; k < 2; k++)
            for (int a = 0; a < 4; a++) {
                why[k][a] = NULL;
                here[k][a] = a < (int)ng ? cell_here(r[k], "hackbench", "time_s", cpu, "groups", gv[a], &over, &why[k][a])
                                         : NAN;
                if (a >= (int)ng)
                    why[k][a] = r[k]->missing ? r[k]->missing : "not measured: no such column here";
            }
        printf("%d CPU%s%s\n", cpu, cpu > 1 ? "s" : "", over ? "  (here oversubscribed: more vCPUs than host cores)" : "");
        printf("   %-24s", "groups (here | seed)");
        for (int a = 0; a < 4; a++)
            if (a < (int)ng)
                printf("%8ld", gv[a]);
            else
                printf("%8s", "-");
        printf("   |");
        for (int a = 0; a < 4; a++)
            printf("%8d", s000_groups[a]);
        printf("\n");
        for (int k = 0; k < 2; k++) {
            printf("   %-24s", s000_keys[k]);
            for (int a = 0; a < 4; a++)
                print_val(here[k][a], 8, 3);
            printf("   |");
            for (int a = 0; a < 4; a++)
                print_val(s000_hb[k][ci][a], 8, 2);
            printf("   %s\n", s000_names[k]);
        }
        printf("   %-24s", "o1/goodness");
        for (int a = 0; a < 4; a++)
            print_val(sc_ratio(here[1][a], here[0][a]), 8, 2);
        printf("   |");
        for (int a = 0; a < 4; a++)
            print_val(s000_hb[1][ci][a] / s000_hb[0][ci][a], 8, 2);
        printf("   2.6/2.4\n");
        char blk[48];
        snprintf(blk, sizeof(blk), "%d CPU%s%s", cpu, cpu > 1 ? "s" : "", over ? " (here oversubscribed)" : "");
        ht_group(post_t, blk);
        ht_group(ours_t, blk);
        ht_row(ours_t);
        ht_cell(ours_t, "groups here", "sub");
        for (int a = 0; a < 4; a++) {
            char g[16];
            snprintf(g, sizeof(g), "%ld", a < (int)ng ? gv[a] : 0L);
            ht_cell(ours_t, a < (int)ng ? g : "-", "num sub");
        }
        for (int k = 0; k < 2; k++) {
            ht_row(post_t);
            ht_cell(post_t, s000_names[k], NULL);
            ht_row(ours_t);
            ht_cell(ours_t, s000_keys[k], NULL);
            for (int a = 0; a < 4; a++) {
                ht_num(post_t, s000_hb[k][ci][a], 2);
                ht_num(ours_t, here[k][a], 3);
            }
        }
        ht_row(post_t);
        ht_cell(post_t, "2.6 / 2.4", "ratio");
        ht_row(ours_t);
        ht_cell(ours_t, "o1 / goodness", "ratio");
        for (int a = 0; a < 4; a++) {
            ht_num(post_t, s000_hb[1][ci][a] / s000_hb[0][ci][a], 2);
            ht_num(ours_t, sc_ratio(here[1][a], here[0][a]), 2);
        }
        /* the plots: a colour per CPU count, the columns across */
        char sname[16];
        snprintf(sname, sizeof(sname), "%d CPU%s", cpu, cpu > 1 ? "s" : "");
        for (int a = 0; a < 4; a++) {
            char xl[32];
            if (a < (int)ng)
                snprintf(xl, sizeof(xl), "%ld | %d", gv[a], s000_groups[a]);
            else
                snprintf(xl, sizeof(xl), "- | %d", s000_groups[a]);
            int x = np_x(pr, xl);
            struct np_series *se = np_series(pr, sname, ci);
            if (se && x >= 0) {
                se->ours[x] = sc_ratio(here[1][a], here[0][a]);
                se->post[x] = s000_hb[1][ci][a] / s000_hb[0][ci][a];
            }
            for (int k = 0; k < 2; k++) {
                int xg = np_x(pg[k], xl);
                struct np_series *sg = np_series(pg[k], sname, ci);
                if (sg && xg >= 0) {
                    sg->ours[xg] = sc_ratio(here[k][a], here[k][0]);
                    sg->post[xg] = s000_hb[k][ci][a] / s000_hb[k][ci][0];
                }
            }
        }
        for (int a = 0; a < 4; a++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d CPU col %d: o1/goodness", cpu, a + 1);
            const char *w = why[0][a] ? why[0][a] : why[1][a];
            add_cell(lab, s000_hb[1][ci][a] / s000_hb[0][ci][a], sc_ratio(here[1][a], here[0][a]), w);
        }
        for (int k = 0; k < 2; k++)
            for (int a = 1; a < 4; a++) {
                char lab[96];
                snprintf(lab, sizeof(lab), "%d CPU col %d/col 1: %s growth", cpu, a + 1, s000_keys[k]);
                const char *w = why[k][a] ? why[k][a] : why[k][0];
                add_cell(lab, s000_hb[k][ci][a] / s000_hb[k][ci][0], sc_ratio(here[k][a], here[k][0]), w);
            }
        for (int a = 0; a < 4; a++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d CPU col %d: goodness vs o1", cpu, a + 1);
            add_order(lab, s000_hb[0][ci][a], s000_hb[1][ci][a], here[0][a], here[1][a]);
        }
    }
    return 0;
}

static int seed000_maxgroups(void)
{
    struct row *r[2] = { find_row("goodness"), find_row("o1") };
    for (int k = 0; k < 2; k++)
        if (!r[k])
            return usage_error("seed000 maxgroups needs the row %s=DIR (or =!why)", s000_keys[k]);
    printf("Test set 2: Max Groups Before Out of Resource (larger is better): here beside the seed.\n");
    static const struct size_spec spec[] = { { "step", "groups step", "25 (the STP request's increment)" },
                                             { "loops", "loops", "not given" },
                                             { "mem_mib", "memory MiB", "not given (untuned defaults)" } };
    describe("maxgroups", spec, 3, "one count a cell", "1/2/4/8 CPUs", "OSDL's Scalable Test Platform",
             "2.4.18 and 2.6.0-test9");
    title_text = "Test set 2: max groups before out of resource (larger is better)";
    compares = "o1/goodness max groups per CPU count (4 cells), each kernel's count at 2, 4 and 8 CPUs over its "
               "1-CPU count (6), and the orderings between the kernels and along the CPU counts (10).";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: max groups (groups)", 3);
    ours_t = ht_new("ours", "Here: max groups (groups)", 3);
    ht_head(post_t, 0, "CPUs", NULL);
    ht_head(post_t, 1, "2.4.18", "num");
    ht_head(post_t, 2, "2.6.0-test9", "num");
    ht_head(ours_t, 0, "CPUs", NULL);
    ht_head(ours_t, 1, "goodness", "num");
    ht_head(ours_t, 2, "o1", "num");
    struct nplot *pr = add_plot(np_new("ratio", "seed000 maxgroups: o1 / goodness max groups by CPU count", "CPUs",
                                       "ratio o1 / goodness (groups)"));
    pr->ratio_line = true;
    struct nplot *pgr = add_plot(np_new("growth", "seed000 maxgroups: each kernel's max groups over its 1-CPU count",
                                        "CPUs", "ratio to 1 CPU (groups)"));
    pgr->ratio_line = true;
    double here[2][4];
    const char *why[2][4];
    printf("------------------------------------------------\n");
    for (int ci = 0; ci < 4; ci++) {
        bool over = false;
        for (int k = 0; k < 2; k++) {
            why[k][ci] = NULL;
            here[k][ci] = cell_here(r[k], "maxgroups", "max_groups", s000_cpus[ci], NULL, 0, &over, &why[k][ci]);
        }
        printf("%d CPU%s%s\n", s000_cpus[ci], ci ? "s" : "", over ? "  (here oversubscribed)" : "");
        for (int k = 0; k < 2; k++) {
            printf("   %-12s", s000_keys[k]);
            print_val(here[k][ci], 8, 0);
            printf("   | %-12s %6.0f\n", s000_names[k], s000_maxg[k][ci]);
        }
        char cl[32];
        snprintf(cl, sizeof(cl), "%d%s", s000_cpus[ci], over ? " (oversubscribed)" : "");
        ht_row(post_t);
        ht_cell(post_t, cl, NULL);
        ht_row(ours_t);
        ht_cell(ours_t, cl, NULL);
        for (int k = 0; k < 2; k++) {
            ht_num(post_t, s000_maxg[k][ci], 0);
            ht_num(ours_t, here[k][ci], 0);
        }
        printf("------------------------------------------------\n");
    }
    for (int ci = 0; ci < 4; ci++) {
        char xl[16];
        snprintf(xl, sizeof(xl), "%d", s000_cpus[ci]);
        int x = np_x(pr, xl);
        struct np_series *se = np_series(pr, "o1 / goodness", 1);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(here[1][ci], here[0][ci]);
            se->post[x] = s000_maxg[1][ci] / s000_maxg[0][ci];
        }
        for (int k = 0; k < 2; k++) {
            struct np_series *sg = np_series(pgr, s000_keys[k], k);
            int xg = np_x(pgr, xl);
            if (sg && xg >= 0) {
                sg->ours[xg] = sc_ratio(here[k][ci], here[k][0]);
                sg->post[xg] = s000_maxg[k][ci] / s000_maxg[k][0];
            }
        }
    }
    for (int ci = 0; ci < 4; ci++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "%d CPU: o1/goodness", s000_cpus[ci]);
        add_cell(lab, s000_maxg[1][ci] / s000_maxg[0][ci], sc_ratio(here[1][ci], here[0][ci]),
                 why[0][ci] ? why[0][ci] : why[1][ci]);
    }
    for (int k = 0; k < 2; k++)
        for (int ci = 1; ci < 4; ci++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s %d CPUs / 1 CPU", s000_keys[k], s000_cpus[ci]);
            add_cell(lab, s000_maxg[k][ci] / s000_maxg[k][0], sc_ratio(here[k][ci], here[k][0]),
                     why[k][ci] ? why[k][ci] : why[k][0]);
        }
    for (int ci = 0; ci < 4; ci++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "%d CPU: goodness vs o1", s000_cpus[ci]);
        add_order(lab, s000_maxg[0][ci], s000_maxg[1][ci], here[0][ci], here[1][ci]);
    }
    for (int k = 0; k < 2; k++)
        for (int ci = 1; ci < 4; ci++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s %d CPUs vs %d", s000_keys[k], s000_cpus[ci], s000_cpus[ci - 1]);
            add_order(lab, s000_maxg[k][ci], s000_maxg[k][ci - 1], here[k][ci], here[k][ci - 1]);
        }
    return 0;
}

static int seed000_nick(void)
{
    struct row *r = find_row("nick");
    if (!r)
        return usage_error("seed000 nick needs the row %s=DIR (or =!why)", "nick");
    printf("Nick Piggin's scheduler patch on the 8-way, hackbench groups 20..100 (seconds): here beside the seed.\n");
    static const struct size_spec spec[] = { { "groups", "groups", "20,40,60,80,100" },
                                             { "loops", "loops", "100 (hackbench's default)" } };
    describe("hackbench", spec, 2, "runs a cell not given", "8 CPUs", "OSDL's 8-way", "Nick Piggin's patch on 2.6.0-test");
    title_text = "Nick Piggin's scheduler on the 8-way: hackbench, seconds (lower is better)";
    compares = "the growth of the time along the row: groups 40..100 over groups 20 (4 cells); the 8-way's seconds "
               "themselves are not compared.";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: hackbench on 8 CPUs, seconds", 2);
    ours_t = ht_new("ours", "Here: hackbench on 8 CPUs, seconds", 2);
    ht_head(post_t, 0, "groups", NULL);
    ht_head(post_t, 1, "nick", "num");
    ht_head(ours_t, 0, "groups", NULL);
    ht_head(ours_t, 1, "nick", "num");
    struct nplot *pgr = add_plot(np_new("growth", "seed000 nick: hackbench time over groups 20, 8 CPUs", "groups",
                                        "ratio to groups 20 (time)"));
    pgr->ratio_line = true;
    double here[5];
    const char *why[5];
    bool over = false;
    printf("   %-8s %10s   | %8s\n", "groups", "nick", "seed");
    for (int a = 0; a < 5; a++) {
        why[a] = NULL;
        here[a] = cell_here(r, "hackbench", "time_s", 8, "groups", s000_nick_groups[a], &over, &why[a]);
        printf("   %-8d", s000_nick_groups[a]);
        print_val(here[a], 10, 3);
        printf("   | %8.2f\n", s000_nick[a]);
        char gl[16];
        snprintf(gl, sizeof(gl), "%d", s000_nick_groups[a]);
        ht_row(post_t);
        ht_cell(post_t, gl, NULL);
        ht_num(post_t, s000_nick[a], 2);
        ht_row(ours_t);
        ht_cell(ours_t, gl, NULL);
        ht_num(ours_t, here[a], 3);
    }
    for (int a = 0; a < 5; a++) {
        char gl[16];
        snprintf(gl, sizeof(gl), "%d", s000_nick_groups[a]);
        int x = np_x(pgr, gl);
        struct np_series *se = np_series(pgr, "nick", 2);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(here[a], here[0]);
            se->post[x] = s000_nick[a] / s000_nick[0];
        }
    }
    if (over)
        printf("   (here oversubscribed: more vCPUs than host cores)\n");
    for (int a = 1; a < 5; a++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "groups %d / groups 20", s000_nick_groups[a]);
        add_cell(lab, s000_nick[a] / s000_nick[0], sc_ratio(here[a], here[0]), why[a] ? why[a] : why[0]);
    }
    return 0;
}

/* ---------------------------------------------------------------- seed 001 */

static const char *const s001_keys[3] = { "rc1", "rc6", "cfs" };

static int seed001_table(int ti)
{
    struct row *r[3];
    for (int k = 0; k < 3; k++)
        if (!(r[k] = find_row(s001_keys[k])))
            return usage_error("seed001 needs the row %s=DIR (or =!why)", s001_keys[k]);
    const char *bench = s001_bench[ti % 3], *metric = s001_metric[ti % 3];
    double v[3][16];
    size_t n[3];
    double m[3], sm[3];
    const char *why[3];
    bool over = false;
    size_t seed_n = 0;
    for (int i = 0; i < 10; i++)
        seed_n += isfinite(s001[ti][0][i]);
    for (int k = 0; k < 3; k++) {
        size_t nf = 0;
        n[k] = row_values(r[k], bench, metric, 0, NULL, NULL, v[k], 16, &nf, &over);
        m[k] = mean(v[k], n[k]);
        sm[k] = mean(s001[ti][k], seed_n);
        why[k] = r[k]->missing ? r[k]->missing : !n[k] ? (nf ? "FAILED: every run failed" : "not measured: no run") : NULL;
    }
    printf("%s (%s): here beside the seed, one column per kernel, one line per run\n", s001_titles[ti], metric);
    static const struct size_spec lat_spec[] = { { "procs", "procs", "2" }, { "size", "size", "0 (lat_ctx -s 0 2)" },
                                                 { "loops", "loops", "lmbench's default" }, { "reps", "reps", "lmbench's default" },
                                                 { "bind", "bound to CPU", "0 (bound to a single core)" } };
    static const struct size_spec hb_spec[] = { { "groups", "groups", "50 (hackbench 50)" },
                                                { "loops", "loops", "100 (hackbench's default)" },
                                                { "bind", "bound to CPU", "0 (bound to a single core)" } };
    static const struct size_spec pipe_spec[] = { { "loops", "round trips", "1000000 (pipe-test's)" },
                                                  { "bind", "bound to CPU", "0 (bound to a single core)" } };
    const struct size_spec *spec = ti % 3 == 0 ? lat_spec : ti % 3 == 1 ? hb_spec : pipe_spec;
    size_t nspec = (ti % 3 == 0 ? 5 : ti % 3 == 1 ? 3 : 2) - (ti < 3);   /* bind= only where bound */
    describe(bench, spec, nspec, ti == 5 ? "7 runs a cell" : "10 runs a cell", "2 CPUs", "Rob Hussey's dual core",
             "2.6.23-rc1, 2.6.23-rc6 and CFS-devel (v21 combo-3)");
    title_text = s001_titles[ti];
    compares = ti < 3 ? "ratios between the kernels' means over their runs: rc6/rc1 and cfs/rc1 (2 cells), and which of "
                        "each pair is faster (3 orderings). A machine 20 years newer gives other seconds; what is "
                        "scored is whether the kernels stand to each other as in the post."
                      : "ratios between the kernels' means over their runs: rc6/rc1 and cfs/rc1 (2 cells), each kernel's "
                        "bound mean over its unbound mean (3 cells, a normalisation within one kernel), and which of "
                        "each pair of kernels is faster (3 orderings).";
    print_described();
    print_unavailable();
    printf("# %-4s %9s %9s %9s   | %9s %9s %9s\n", "run", "rc1", "rc6", "cfs", "rc1", "rc6", "cfs-devel");
    size_t lines = seed_n;
    for (int k = 0; k < 3; k++)
        if (n[k] > lines)
            lines = n[k];
    for (size_t i = 0; i < lines; i++) {
        printf("  %-4zu ", i + 1);
        for (int k = 0; k < 3; k++)
            print_val(i < n[k] ? v[k][i] : NAN, 10, 3);
        printf("   |");
        for (int k = 0; k < 3; k++)
            print_val(i < 10 ? s001[ti][k][i] : NAN, 10, 3);
        printf("\n");
    }
    printf("  %-4s ", "mean");
    for (int k = 0; k < 3; k++)
        print_val(m[k], 10, 3);
    printf("   |");
    for (int k = 0; k < 3; k++)
        print_val(sm[k], 10, 3);
    printf("\n");
    /* Which CPUs each kernel's runs used (the boot's cpus_used): the post's
     * unbound rows ran on both cores of its dual core, the bound ones on one. */
    printf("  %-4s ", "cpus");
    for (int k = 0; k < 3; k++) {
        char cu[64];
        printf("%10s", row_cpus_used(r[k], bench, cu, sizeof(cu)));
    }
    printf("   |   (cpus_used; the post: %s)\n", ti >= 3 ? "bound to one core" : "unbound on a dual core");
    if (over)
        printf("  (here oversubscribed: more vCPUs than host cores)\n");
    /* the post's runs and ours, side by side; the unit in the caption */
    const char *unit = ti % 3 == 0 ? "microseconds per context switch" : ti % 3 == 1 ? "seconds" : "microseconds per round trip";
    char *pc = xasprintf("The post: %s, %s", s001_titles[ti], unit), *oc = xasprintf("Here: %s, %s", s001_titles[ti], unit);
    post_t = ht_new("post", pc, 4);
    ours_t = ht_new("ours", oc, 4);
    free(pc);
    free(oc);
    static const char *const post_names[3] = { "rc1", "rc6", "cfs-devel" };
    for (int k = 0; k < 4; k++) {
        ht_head(post_t, (size_t)k, k ? post_names[k - 1] : "run", k ? "num" : NULL);
        ht_head(ours_t, (size_t)k, k ? s001_keys[k - 1] : "run", k ? "num" : NULL);
    }
    size_t ours_lines = 0;
    for (int k = 0; k < 3; k++)
        ours_lines = n[k] > ours_lines ? n[k] : ours_lines;
    for (size_t i = 0; i < seed_n; i++) {
        char rl[32];
        snprintf(rl, sizeof(rl), "%zu", i + 1);
        ht_row(post_t);
        ht_cell(post_t, rl, NULL);
        for (int k = 0; k < 3; k++)
            ht_num(post_t, s001[ti][k][i], 3);
    }
    for (size_t i = 0; i < ours_lines; i++) {
        char rl[32];
        snprintf(rl, sizeof(rl), "%zu", i + 1);
        ht_row(ours_t);
        ht_cell(ours_t, rl, NULL);
        for (int k = 0; k < 3; k++)
            ht_num(ours_t, i < n[k] ? v[k][i] : NAN, 3);
    }
    ht_row(post_t);
    ht_cell(post_t, "mean", "mean");
    ht_row(ours_t);
    ht_cell(ours_t, "mean", "mean");
    for (int k = 0; k < 3; k++) {
        ht_num(post_t, sm[k], 3);
        ht_num(ours_t, m[k], 3);
    }
    ht_row(ours_t);                      /* which CPUs each kernel's runs used */
    ht_cell(ours_t, "cpus_used", NULL);
    for (int k = 0; k < 3; k++) {
        char cu[64];
        ht_cell(ours_t, row_cpus_used(r[k], bench, cu, sizeof(cu)), NULL);
    }
    /* the plots: each kernel's mean over rc1's (the post's convention: the first column), a point per kernel;
     * ours with the spread of its runs when there are several */
    {
        char st[32], ti2[200];
        snprintf(st, sizeof(st), "kernels");
        snprintf(ti2, sizeof(ti2), "seed001 %s: each kernel's mean over rc1's (%s)", s001_tables[ti], s001_titles[ti]);
        struct nplot *pk = add_plot(np_new(st, ti2, "kernel (here | the post)", "ratio to rc1 (mean time)"));
        pk->ratio_line = true;
        pk->connect = true;
        for (int k = 0; k < 3; k++) {
            char xl[32];
            snprintf(xl, sizeof(xl), "%s | %s", s001_keys[k], post_names[k]);
            int x = np_x(pk, xl);
            struct np_series *se = np_series(pk, s001_keys[k], k);
            if (!se || x < 0)
                continue;
            se->ours[x] = sc_ratio(m[k], m[0]);
            se->post[x] = sm[k] / sm[0];
            if (n[k] > 1 && isfinite(m[0]) && m[0] > 0) {
                double lo = v[k][0], hi = v[k][0];
                for (size_t i = 1; i < n[k]; i++) {
                    lo = v[k][i] < lo ? v[k][i] : lo;
                    hi = v[k][i] > hi ? v[k][i] : hi;
                }
                se->lo[x] = lo / m[0];
                se->hi[x] = hi / m[0];
            }
        }
    }
    for (int k = 1; k < 3; k++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "mean %s / mean rc1", s001_keys[k]);
        add_cell(lab, sm[k] / sm[0], sc_ratio(m[k], m[0]), why[k] ? why[k] : why[0]);
    }
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s vs %s", s001_keys[a], s001_keys[b]);
            add_order(lab, sm[a], sm[b], m[a], m[b]);
        }
    /* Bound tables: each kernel's bound mean over its unbound mean (rows KERNEL-unbound=DIR), a
     * normalisation within one kernel, measurable even when the other kernels are not here. */
    for (int k = 0; ti >= 3 && k < 3; k++) {
        char key[32], lab[96];
        snprintf(key, sizeof(key), "%s-unbound", s001_keys[k]);
        struct row *u = find_row(key);
        if (!u)
            continue;
        double uv[16];
        size_t nf = 0, nu = row_values(u, bench, metric, 0, NULL, NULL, uv, 16, &nf, NULL);
        const char *w = why[k] ? why[k] : u->missing ? u->missing : !nu ? "not measured: no unbound run" : NULL;
        snprintf(lab, sizeof(lab), "%s: bound / unbound", s001_keys[k]);
        add_cell(lab, sm[k] / mean(s001[ti - 3][k], 10), sc_ratio(m[k], mean(uv, nu)), w);
        if (nplots < 2) {
            char ti2[200];
            snprintf(ti2, sizeof(ti2), "seed001 %s: each kernel's bound mean over its unbound mean", s001_bench[ti % 3]);
            struct nplot *pb = add_plot(np_new("bound-over-unbound", ti2, "kernel (here | the post)",
                                               "ratio bound / unbound (mean time)"));
            pb->ratio_line = true;
            pb->connect = true;
        }
        static const char *const pn[3] = { "rc1", "rc6", "cfs-devel" };
        char xl[32];
        snprintf(xl, sizeof(xl), "%s | %s", s001_keys[k], pn[k]);
        int x = np_x(plots[1], xl);
        struct np_series *se = np_series(plots[1], s001_keys[k], k);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(m[k], mean(uv, nu));
            se->post[x] = sm[k] / mean(s001[ti - 3][k], 10);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- seed 003 */

static const char *const s003_keys[4] = { "goodness", "dyn-sched", "o1-rml", "mq" };

static int seed003_tbench(void)
{
    struct row *r[4];
    for (int k = 0; k < 4; k++)
        if (!(r[k] = find_row(s003_keys[k])))
            return usage_error("seed003 tbench needs the row %s=DIR (or =!why)", s003_keys[k]);
    double here[4][2];
    const char *why[4][2];
    bool over = false;
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 2; c++) {
            why[k][c] = NULL;
            here[k][c] = cell_here(r[k], "tbench", "mb_per_s", 4, "clients", s003_clients[c], &over, &why[k][c]);
        }
    printf("tbench on 4 CPUs, MB/s (higher is better): here beside the seed%s\n",
           over ? "  (here oversubscribed: more vCPUs than host cores)" : "");
    static const struct size_spec spec[] = { { "clients", "clients", "64,192" },
                                             { "load_ops", "operations of the load file", "the whole file" } };
    describe("tbench", spec, 2, "one number a cell", "4 CPUs", "an OSDL 4-way",
             "2.4.19-pre7, -aa1 (dyn-sched), -ac2 and -jam6 (the O(1) backport)");
    title_text = "tbench on 4 CPUs, MB/s (higher is better)";
    compares = "throughput ratios to stock 2.4 (goodness) per client count: dyn-sched/goodness and o1-rml/goodness "
               "(4 cells), each kernel's 192-client throughput over its 64-client one (3), and the orderings of the "
               "three kernels (6). mq has no number in the thread: shown, not scored.";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: tbench, MB/s", 4);
    ours_t = ht_new("ours", "Here: tbench, MB/s", 3);
    ht_head(post_t, 0, "row", NULL);
    ht_head(post_t, 1, "kernel in the post", NULL);
    ht_head(post_t, 2, "64 clients", "num");
    ht_head(post_t, 3, "192 clients", "num");
    ht_head(ours_t, 0, "row", NULL);
    ht_head(ours_t, 1, "64 clients", "num");
    ht_head(ours_t, 2, "192 clients", "num");
    for (int k = 0; k < 4; k++) {
        ht_row(post_t);
        ht_cell(post_t, s003_keys[k], NULL);
        ht_cell(post_t, s003_seednames[k], NULL);
        ht_row(ours_t);
        ht_cell(ours_t, s003_keys[k], NULL);
        for (int c = 0; c < 2; c++) {
            ht_num(post_t, s003[k][c], 2);
            ht_num(ours_t, here[k][c], 2);
        }
    }
    struct nplot *pr = add_plot(np_new("ratio", "seed003 tbench: throughput over stock 2.4's (goodness), by clients",
                                       "clients", "ratio to goodness (MB/s)"));
    pr->ratio_line = true;
    struct nplot *pg = add_plot(np_new("growth", "seed003 tbench: each kernel's 192-client throughput over its 64-client",
                                       "kernel", "ratio 192 / 64 clients (MB/s)"));
    pg->ratio_line = true;
    pg->connect = true;
    for (int k = 1; k < 4; k++)
        for (int c = 0; c < 2; c++) {
            char xl[16];
            snprintf(xl, sizeof(xl), "%d", s003_clients[c]);
            int x = np_x(pr, xl);
            struct np_series *se = np_series(pr, s003_keys[k], k);
            if (se && x >= 0) {
                se->ours[x] = sc_ratio(here[k][c], here[0][c]);
                se->post[x] = s003[k][c] / s003[0][c];
            }
        }
    for (int k = 0; k < 4; k++) {
        int x = np_x(pg, s003_keys[k]);
        struct np_series *se = np_series(pg, s003_keys[k], k);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(here[k][1], here[k][0]);
            se->post[x] = s003[k][1] / s003[k][0];
        }
    }
    for (int c = 1; c >= 0; c--) {
        printf("tbench %d processes\n", s003_clients[c]);
        for (int k = 0; k < 4; k++) {
            printf("   %-12s", s003_keys[k]);
            print_val(here[k][c], 10, 2);
            printf("   | %-22s", s003_seednames[k]);
            print_val(s003[k][c], 8, 2);
            printf("\n");
        }
    }
    printf("   (the post's -pre5 pair: 2.4.19-pre5 %.2f and -pre5-aa1 %.2f at 192; -pre5-aa1 %.2f at 64, no stock -pre5)\n",
           s003_pre5[0], s003_pre5[1], s003_pre5aa1_64);
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 3; k++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d clients: %s/goodness", s003_clients[c], s003_keys[k]);
            add_cell(lab, s003[k][c] / s003[0][c], sc_ratio(here[k][c], here[0][c]), why[k][c] ? why[k][c] : why[0][c]);
        }
    add_cell("192 clients: dyn-sched/goodness (-pre5-aa1/-pre5)", s003_pre5[1] / s003_pre5[0], sc_ratio(here[1][1], here[0][1]),
             why[1][1] ? why[1][1] : why[0][1]);
    for (int k = 0; k < 3; k++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "%s: 192 clients / 64", s003_keys[k]);
        add_cell(lab, s003[k][1] / s003[k][0], sc_ratio(here[k][1], here[k][0]), why[k][1] ? why[k][1] : why[k][0]);
    }
    for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++)
            for (int b = a + 1; b < 3; b++) {
                char lab[96];
                snprintf(lab, sizeof(lab), "%d clients: %s vs %s", s003_clients[c], s003_keys[a], s003_keys[b]);
                add_order(lab, s003[a][c], s003[b][c], here[a][c], here[b][c]);
            }
    printf("   (mq: the thread names it but gives no number; shown, not scored)\n");
    return 0;
}


/* seed003's AIM7 and VolanoMark: the thread gives no number, only Gerrit Huizenga's "rumor is that on
 * some workloads MQ outperforms O(1)" (AIM on large CPU counts, VolanoMark "for a while"): one ordering,
 * mq above o1-rml, scored as a claim, no cells. */
static int seed003_model(const char *table)
{
    bool aim = !strcmp(table, "aim7");
    const char *bench = aim ? "aim7" : "volano", *metric = aim ? "jobs_per_min" : "messages_per_s",
               *across = aim ? "users" : "rooms";
    struct row *r[4];
    for (int k = 0; k < 4; k++)
        if (!(r[k] = find_row(s003_keys[k])))
            return usage_error("seed003 needs the row %s=DIR (or =!why)", s003_keys[k]);
    printf("%s on 4 CPUs, %s (higher is better); the thread has no number, only the rumour that MQ beats O(1) here\n",
           aim ? "AIM7 shared workfile" : "VolanoMark model", metric);
    static const struct size_spec aspec[] = { { "users", "users", "not given" }, { "jobs", "jobs", "not given" } };
    static const struct size_spec vspec[] = { { "rooms", "rooms", "not given" }, { "messages", "messages", "not given" } };
    describe(bench, aim ? aspec : vspec, 2, "no number", "not given (\"large CPU counts\")", "no machine named",
             "Gerrit Huizenga's rumour that MQ beats O(1)");
    title_text = aim ? "AIM7 shared workfile on 4 CPUs, jobs per minute (higher is better)"
                     : "VolanoMark model on 4 CPUs, messages per second (higher is better)";
    compares = "one claimed ordering: the peak of mq against the peak of o1-rml over the sizes run; the thread gives "
               "no number, so there are no cells.";
    print_described();
    print_unavailable();
    post_none = "The thread gives no number here, only the rumour that MQ outperforms O(1) on some workloads "
                "(AIM on large CPU counts, VolanoMark).";
    struct nplot *pa = add_plot(np_new("ours", aim ? "seed003 aim7: jobs per minute by users (the thread has no numbers)"
                                                   : "seed003 volano: messages per second by rooms (the thread has no numbers)",
                                       across, metric_axis_label(metric)));
    pa->post_absent = true;
    double peak[4];
    bool over = false;
    for (int k = 0; k < 4; k++) {
        long av[16];
        size_t na = row_across(r[k], bench, 4, across, av, 16);
        peak[k] = NAN;
        printf("   %-12s", s003_keys[k]);
        if (!ours_t && na) {
            ours_t = ht_new("ours", metric_axis_label(metric), na + 2);
            ht_head(ours_t, 0, "row", NULL);
            for (size_t a = 0; a < na; a++) {
                char h[48];
                snprintf(h, sizeof(h), "%s %ld", across, av[a]);
                ht_head(ours_t, a + 1, h, "num");
            }
            ht_head(ours_t, na + 1, "peak", "num");
        }
        if (ours_t) {
            ht_row(ours_t);
            ht_cell(ours_t, s003_keys[k], NULL);
        }
        for (size_t a = 0; a < na; a++) {
            const char *why = NULL;
            double m = cell_here(r[k], bench, metric, 4, across, av[a], &over, &why);
            printf("  %s=%ld: ", across, av[a]);
            print_val(m, 10, 0);
            if (isfinite(m) && !(m <= peak[k]))
                peak[k] = m;
            if (ours_t && a + 1 < ours_t->ncols - 1)
                ht_num(ours_t, m, 0);
            char xl[16];
            snprintf(xl, sizeof(xl), "%ld", av[a]);
            int x = np_x(pa, xl);
            struct np_series *se = np_series(pa, s003_keys[k], k);
            if (se && x >= 0)
                se->ours[x] = m;
        }
        if (ours_t) {
            while (ours_t->rows[ours_t->nrows - 1].n < ours_t->ncols - 1)
                ht_cell(ours_t, "-", "num missing");
            ht_num(ours_t, peak[k], 0);
        }
        if (r[k]->missing)
            printf("  -");
        printf("%s\n", aim ? "" : "");
    }
    if (over)
        printf("   (here oversubscribed: more vCPUs than host cores)\n");
    printf("   peak: ");
    for (int k = 0; k < 4; k++) {
        printf(" %s ", s003_keys[k]);
        print_val(peak[k], 0, 0);
    }
    printf("\n");
    add_order("rumour: mq vs o1-rml (peak)", 2, 1, peak[3], peak[2]);
    return 0;
}

/* ---------------------------------------------------------------- the verb */

/* The cost= word of the runs' result lines ("none" when they have none); NULL if they differ;
 * dflt when no row has runs. */
static const char *runs_cost(const char *dflt)
{
    const char *found = NULL;
    for (size_t i = 0; i < nrows; i++) {
        if (!rows[i].loaded)
            continue;
        int c = table_col(&rows[i].t, "cost");
        for (size_t j = 0; j < rows[i].t.nrows; j++) {
            const char *v = c >= 0 ? table_get(&rows[i].t, j, c) : NULL;
            v = v ? v : "none";
            if (!found)
                found = v;
            else if (strcmp(found, v))
                return NULL;
        }
    }
    return found ? found : dflt;
}

int cmd_scorecard(int argc, char **argv)
{
    const char *cost = "none", *csv = NULL, *seed = NULL, *tname = NULL, *html = NULL, *plotdir = NULL, *notes_file = NULL;
    nrows = ncells = nords = nplots = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            return 0;
        }
        if (!strcmp(a, "--cost") || !strcmp(a, "--csv") || !strcmp(a, "--html") || !strcmp(a, "--plots") ||
            !strcmp(a, "--notes")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char **dst = !strcmp(a, "--cost") ? &cost : !strcmp(a, "--csv") ? &csv : !strcmp(a, "--html") ? &html
                               : !strcmp(a, "--plots") ? &plotdir : &notes_file;
            *dst = argv[++i];
            continue;
        }
        if (a[0] == '-')
            return usage_error("unknown flag '%s' for scorecard", a);
        if (!seed) {
            seed = a;
            continue;
        }
        if (!tname) {
            tname = a;
            continue;
        }
        const char *eq = strchr(a, '=');
        if (!eq || eq == a || !eq[1])
            return usage_error("'%s': expected ROW=DIR or ROW=!WHY", a);
        if (nrows >= MAXROWS)
            return usage_error("too many rows at '%s'", a);
        struct row *r = &rows[nrows++];
        memset(r, 0, sizeof(*r));
        r->key = xstrndup(a, eq - a);
        if (eq[1] == '!')
            r->missing = eq + 2;
        else {
            char *d = xstrdup(eq + 1), *h = strchr(d, '#');
            if (h) {
                *h = 0;
                r->sched = h + 1;
            }
            r->dir = d;
        }
    }
    if (!seed || !tname)
        return usage_error("%s", "scorecard needs SEED and TABLE (schedlab-tool scorecard --help)");
    for (size_t i = 0; i < nrows; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(rows[i].key, rows[j].key))
                return usage_error("row %s given twice", rows[i].key);
    const char *allowed = !strcmp(seed, "seed000") ? (!strcmp(tname, "nick") ? " nick " : " goodness o1 ")
                          : !strcmp(seed, "seed001") ? (strstr(tname, "-bound") ? " rc1 rc6 cfs rc1-unbound rc6-unbound cfs-unbound "
                                                                                  : " rc1 rc6 cfs ")
                          : !strcmp(seed, "seed003") ? " goodness dyn-sched o1-rml mq " : NULL;
    for (size_t i = 0; allowed && i < nrows; i++) {
        char *w = xasprintf(" %s ", rows[i].key);
        bool ok = strstr(allowed, w) != NULL;
        free(w);
        if (!ok) {
            errorf("%s %s has no row '%s' (its rows:%s)", seed, tname, rows[i].key, allowed);
            return EXIT_USAGE;
        }
    }
    int rc;
    if (!strcmp(seed, "seed000") && !strcmp(tname, "hackbench"))
        rc = seed000_hackbench();
    else if (!strcmp(seed, "seed000") && !strcmp(tname, "maxgroups"))
        rc = seed000_maxgroups();
    else if (!strcmp(seed, "seed000") && !strcmp(tname, "nick"))
        rc = seed000_nick();
    else if (!strcmp(seed, "seed003") && !strcmp(tname, "tbench"))
        rc = seed003_tbench();
    else if (!strcmp(seed, "seed003") && (!strcmp(tname, "aim7") || !strcmp(tname, "volano")))
        rc = seed003_model(tname);
    else if (!strcmp(seed, "seed001")) {
        int ti = -1;
        for (int i = 0; i < 6; i++)
            if (!strcmp(tname, s001_tables[i]))
                ti = i;
        if (ti < 0)
            return usage_error("seed001 has no table '%s' (lat_ctx hackbench pipe lat_ctx-bound hackbench-bound pipe-bound)",
                               tname);
        rc = seed001_table(ti);
    } else {
        char *what = xasprintf("%s %s", seed, tname);
        int e = usage_error("no seed table '%s' (seed000 hackbench|maxgroups|nick, seed001 lat_ctx|hackbench|pipe[-bound], "
                            "seed003 tbench|aim7|volano)", what);
        free(what);
        return e;
    }
    if (rc)
        return rc;
    const char *rcost = runs_cost(cost);
    if (!rcost) {
        errorf("the runs of %s %s used different cost models (the cost column differs)", seed, tname);
        return 1;
    }
    if (strcmp(rcost, cost)) {
        errorf("--cost %s, but the runs recorded cost=%s", cost, rcost);
        return 1;
    }
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].t.ncols)
            lost_ticks_warn(stdout, &rows[i].t, NULL, false);
    printf("\n");
    sc_print(stdout, seed, tname, cost, cells, ncells, ords, nords);
    char **notes;
    size_t nnotes = read_notes(notes_file, seed, tname, &notes);
    const char *nf = notes_file ? strrchr(notes_file, '/') : NULL;
    char *notes_name = notes_file ? xasprintf("tools/%s", nf ? nf + 1 : notes_file) : NULL;
    print_notes(notes_name, notes, nnotes);
    /* the plots, named SEED-COST-TABLE-QUANTITY */
    for (size_t i = 0; plotdir && i < nplots; i++) {
        char *stem = xasprintf("%s-%s-%s-%s", seed, cost, tname, plots[i]->stem);
        snprintf(plots[i]->stem, sizeof(plots[i]->stem), "%s", stem);
        free(stem);
        if (np_render(plots[i], plotdir))
            rc = 1;
    }
    if (html && write_html(html, seed, tname, cost, plotdir, notes_name, notes, nnotes))
        rc = 1;
    for (size_t i = 0; i < nnotes; i++)
        free(notes[i]);
    free(notes);
    free(notes_name);
    for (size_t i = 0; i < nplots; i++)
        free(plots[i]);
    ht_free(post_t);
    ht_free(ours_t);
    post_t = ours_t = NULL;
    if (rc)
        return rc;
    if (csv) {
        FILE *f = fopen(csv, "a");
        if (!f) {
            errorf("cannot write %s", csv);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        bool header = ftell(f) == 0;
        sc_write_csv(f, header, seed, tname, cost, cells, ncells, ords, nords);
        fclose(f);
    }
    return 0;
}
