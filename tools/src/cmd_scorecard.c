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
#include "scorecard.h"
#include "table.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: schedlab-tool scorecard SEED TABLE [--cost MODEL] [--csv FILE] [--plot-data FILE] ROW=DIR[#SCHED]|ROW=!WHY ...\n"
    "  SEED TABLE: seed000 hackbench|maxgroups|nick, seed001 lat_ctx|hackbench|pipe|lat_ctx-bound|hackbench-bound|\n"
    "  pipe-bound, seed003 tbench|aim7|volano.  ROW: a kernel of that table (seed000: goodness o1 [nick]; seed001: rc1 rc6 cfs;\n"
    "  seed003: goodness dyn-sched o1-rml mq; a seed001 -bound table also takes KERNEL-unbound=DIR for\n"
    "  the bound/unbound ratios) and the results directory of its run (#SCHED: only that\n"
    "  scheduler's rows, when DIR holds several), or !WHY when it cannot be\n"
    "  measured (its cells are counted as missing, with WHY).  --cost: the cost model the runs used (cost=,\n"
    "  checked against the cost= of the runs' result lines).  --csv FILE: append the cells as CSV rows.\n"
    "  --plot-data FILE: seed001: run index and one column per kernel, ours then the seed's (gnuplot).\n"
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
           "Columns are matched by position (here the groups of the run, seed groups 50 100 150 200).\n\n");
    print_unavailable();
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
    printf("Test set 2: Max Groups Before Out of Resource (larger is better): here beside the seed.\n\n");
    print_unavailable();
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
        printf("------------------------------------------------\n");
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
    printf("Nick Piggin's scheduler patch on the 8-way, hackbench groups 20..100 (seconds): here beside the seed.\n\n");
    print_unavailable();
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

static int seed001_table(int ti, const char *plot_data)
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
    if (over)
        printf("  (here oversubscribed: more vCPUs than host cores)\n");
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
    }
    if (plot_data) {
        FILE *f = fopen(plot_data, "w");
        if (!f) {
            errorf("cannot write %s", plot_data);
            return 1;
        }
        fprintf(f, "# %s: run ours_rc1 ours_rc6 ours_cfs seed_rc1 seed_rc6 seed_cfs-devel (NaN: none)\n", s001_titles[ti]);
        for (size_t i = 0; i < lines; i++) {
            fprintf(f, "%zu", i + 1);
            for (int k = 0; k < 3; k++)
                fprintf(f, " %.6g", i < n[k] ? v[k][i] : NAN);
            for (int k = 0; k < 3; k++)
                fprintf(f, " %.6g", i < 10 ? s001[ti][k][i] : NAN);
            fprintf(f, "\n");
        }
        fclose(f);
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
    print_unavailable();
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
    for (int c = 0; c < 2; c++)
        for (int k = 1; k < 3; k++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d clients: %s/goodness", s003_clients[c], s003_keys[k]);
            add_cell(lab, s003[k][c] / s003[0][c], sc_ratio(here[k][c], here[0][c]), why[k][c] ? why[k][c] : why[0][c]);
        }
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
    print_unavailable();
    double peak[4];
    bool over = false;
    for (int k = 0; k < 4; k++) {
        long av[16];
        size_t na = row_across(r[k], bench, 4, across, av, 16);
        peak[k] = NAN;
        printf("   %-12s", s003_keys[k]);
        for (size_t a = 0; a < na; a++) {
            const char *why = NULL;
            double m = cell_here(r[k], bench, metric, 4, across, av[a], &over, &why);
            printf("  %s=%ld: ", across, av[a]);
            print_val(m, 10, 0);
            if (isfinite(m) && !(m <= peak[k]))
                peak[k] = m;
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
    const char *cost = "none", *csv = NULL, *plot = NULL, *seed = NULL, *tname = NULL;
    nrows = ncells = nords = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            return 0;
        }
        if (!strcmp(a, "--cost") || !strcmp(a, "--csv") || !strcmp(a, "--plot-data")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char **dst = !strcmp(a, "--cost") ? &cost : !strcmp(a, "--csv") ? &csv : &plot;
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
        rc = seed001_table(ti, plot);
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
