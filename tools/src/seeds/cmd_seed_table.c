/*
 * seed-table DIR: the hackbench table of DIR (goodness and o1, groups by
 * CPU count) beside seed 000's numbers, with the ratios and the growth with
 * groups that can be compared across machines.
 */
#include "cmds.h"
#include "lost_ticks.h"
#include "procs.h"
#include "scoring.h"
#include "cli.h"
#include "load.h"
#include "present.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "seed-table", 0,
    "usage: schedlab seed-table [--out DIR] [--runs R] [--boots B] [--groups LIST] [--loops L] [--smp LIST] [-j N]\n"
    "                           [--timeout S] [--quiet]\n"
    "       schedlab seed-table DIR\n"
    "  reproduces seed 000's hackbench table (goodness vs o1, groups by CPU count) on this\n"
    "  machine and prints it beside the seed's numbers (what `make seed-table` runs), with\n"
    "  o1/goodness ratios and the growth with groups; defaults: 3 runs in one boot per cell (a\n"
    "  spread in every cell), groups 10..40, loops 25, 1,2,4,8 CPUs, 150 s a boot, into\n"
    "  build/seed-table.  --groups takes a comma list or INC:MAX (25:200 is 25,50,...,200, the STP\n"
    "  request's form).  --quiet: no status line (run's: boots done / total, elapsed, ETA).\n"
    "  DIR: the table of a results directory run made before (goodness and o1, hackbench).\n"
    "  Exit: 0, 1 some boot failed or bad input, 2 usage error.\n",
    NULL,
};

/* Seed 000's numbers (seeds/seed000.c): hackbench, mean of five runs, seconds, 2.4.18 (goodness) and 2.6.0-test9 (O(1)). */

#define W 8          /* column width */
#define MAXCOLS 16   /* columns whose means are kept for the ratios */

struct seed_ctx {
    const struct view *v;
    size_t o1;       /* o1's series (v->nseries when absent) */
    size_t cols;     /* columns printed: at least the seed's 4 */
    size_t rule;
    int dec;
};

static void print_intro(const struct view *v)
{
    printf("hackbench, seconds (lower is better): this machine beside seed 000 (Craig Thomas, OSDL, LKML Nov 2003,\n"
           "2.4.18 = goodness scheduler, 2.6.0-test9 = O(1) scheduler, mean of 5 runs on real SMP hardware).\n"
           "Columns are matched by position: here groups");
    for (size_t a = 0; a < v->nacross; a++)
        printf("%s%s", a ? "," : " ", v->across_v[a]);
    printf(", seed groups 50,100,150,200.  Absolute times are not comparable\n"
           "(TCG-emulated vCPUs, an in-kernel hackbench); compare the ratios and how time grows with groups.\n\n");
}

static void print_rule(const struct seed_ctx *x)
{
    for (size_t i = 0; i < x->rule; i++)
        putchar('-');
    putchar('\n');
}

static void print_header(const struct seed_ctx *x)
{
    printf("%-28s", "number of groups (here)");
    for (size_t a = 0; a < x->cols; a++)
        printf("%*s", W, a < x->v->nacross ? x->v->across_v[a] : "");
    printf("   | %-11s", "seed:");
    for (int a = 0; a < 4; a++)
        printf("%*d", W, seed000_groups[a]);
    printf("\n");
    print_rule(x);
}

/* One scheduler's line here and its seed line; its means go to mean[]. */
static void print_sched_line(const struct seed_ctx *x, const struct block *b, int s, int ci, double *mean)
{
    const struct view *v = x->v;
    size_t si = s == 0 ? 0 : x->o1, na = v->nacross;
    printf("   %-25s", seed000_kernels[s]);
    for (size_t a = 0; a < x->cols; a++) {
        mean[a < MAXCOLS ? a : MAXCOLS - 1] = NAN;
        if (a >= na) {
            printf("%*s", W, "");
            continue;
        }
        if (!b || si >= v->nseries || strcmp(v->series[si], seed000_kernels[s])) {
            printf("%*s", W, "-");
            continue;
        }
        const struct cell *c = &b->cell[si * na + a];
        double m = cell_mean(c);
        if (a < MAXCOLS)
            mean[a] = m;
        char *txt = cell_text(c, m, x->dec);
        printf("%*s", W, txt);
        free(txt);
    }
    printf("   | %-11s", seed000_kernel_names[s]);
    for (int a = 0; a < 4; a++)
        printf("%*.2f", W, seed000_hackbench_seconds[s][ci][a]);
    printf("\n");
}

/* A ratio line: num[a] / den[a] here (den[0] when den_first), then the seed's. */
static void print_ratio_line(const struct seed_ctx *x, const char *label, const double *num, const double *den,
                             bool den_first, const char *seedlabel, const double *snum, const double *sden)
{
    printf("   %-25s", label);
    for (size_t a = 0; a < x->cols; a++) {
        bool have = a < x->v->nacross && a < MAXCOLS;
        double r = have ? num[a] / den[den_first ? 0 : a] : NAN;
        if (isfinite(r))
            printf("%*.2f", W, r);
        else
            printf("%*s", W, a < x->v->nacross ? "-" : "");
    }
    printf("   | %-11s", seedlabel);
    for (int a = 0; a < 4; a++)
        printf("%*.2f", W, snum[a] / sden[den_first ? 0 : a]);
    printf("\n");
}

static void print_cpu_block(const struct seed_ctx *x, int ci)
{
    const struct view *v = x->v;
    char smp[16];
    snprintf(smp, sizeof(smp), "%d", seed000_cpus[ci]);
    const struct block *b = NULL;
    for (size_t k = 0; k < v->nblk && !b; k++)
        if (!strcmp(v->blk[k].smp, smp))
            b = &v->blk[k];
    printf("%d CPU%s%s\n", seed000_cpus[ci], ci ? "s" : "",
           b && b->oversub ? "  (here oversubscribed: more vCPUs than host cores)" : "");
    double here[2][MAXCOLS];
    for (int s = 0; s < 2; s++)
        print_sched_line(x, b, s, ci, here[s]);
    print_ratio_line(x, "o1/goodness", here[1], here[0], false, "2.6/2.4", seed000_hackbench_seconds[1][ci], seed000_hackbench_seconds[0][ci]);
    for (int s = 0; s < 2; s++) {
        char lab[64];
        snprintf(lab, sizeof(lab), "%s growth (x col 1)", seed000_kernels[s]);
        print_ratio_line(x, lab, here[s], here[s], true, seed000_kernel_names[s], seed000_hackbench_seconds[s][ci], seed000_hackbench_seconds[s][ci]);
    }
    print_rule(x);
}

static void print_seed_table(const struct view *v, const struct table *t, const struct table *boots)
{
    struct seed_ctx x = { v, v->nseries, v->nacross > 4 ? v->nacross : 4, 0, 0 };
    for (size_t s = 0; s < v->nseries; s++)
        if (!strcmp(v->series[s], "o1"))
            x.o1 = s;
    x.rule = 28 + W * x.cols + 9 + W * 4;
    int dec_sd;
    view_decimals(v, &x.dec, &dec_sd);
    print_intro(v);
    print_header(&x);
    bool marks = false;
    for (int ci = 0; ci < 4; ci++) {   /* only the CPU counts that were run */
        char smp[16];
        snprintf(smp, sizeof(smp), "%d", seed000_cpus[ci]);
        bool have = false;
        for (size_t k = 0; k < v->nblk && !have; k++)
            have = !strcmp(v->blk[k].smp, smp);
        if (have)
            print_cpu_block(&x, ci);
    }
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * v->nacross; i++)
            marks = marks || v->blk[k].cell[i].nfail;
    if (marks)
        printf("* some runs of this cell failed and are left out of the mean; FAILED: no run succeeded\n");
    print_cell_failures(stdout, v, t);
    print_failed_boots(stdout, boots, false);
}

/* The table of an existing results directory. */
static int table_of(const char *dir)
{
    struct opts o;
    memset(&o, 0, sizeof(o));
    const char *dirs[1] = { dir };
    o.dirs = dirs;
    o.ndirs = 1;
    o.smp = 1;
    int rc;
    struct table t = { 0 }, boots = { 0 };
    rc = load(&o, &t, &boots);
    struct view v;
    struct view_options vo = view_opts(&o);
    vo.metric = "time_s";
    vo.across = "groups";
    vo.base = "goodness";
    char *err = rc ? NULL : view_build(&v, &t, "hackbench", &vo);
    if (rc || err) {
        if (err)
            errorf("%s", err);
        free(err);
        rc = 1;
    } else {
        print_seed_table(&v, &t, &boots);
        lost_ticks_warn(stdout, &t, "hackbench", false);
    }
    if (err || !rc)
        view_free(&v);
    table_free(&t);
    table_free(&boots);
    return rc;
}

int cmd_seed_table(int argc, char **argv)
{
    cli_set_verb("seed-table", &spec);
    struct seed_table_sizes z;
    seed000_table_defaults(&z);
    const char *out = NULL, *dir = NULL;
    static const char *const flags[] = { "out", "runs", "boots", "groups", "loops", "smp", "jobs", "timeout", "quiet",
                                         "help", NULL };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(spec.usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--quiet")) {
            z.quiet = true;
            continue;
        }
        if (a[0] != '-') {
            if (dir)
                return verb_usage_error("seed-table takes one results directory (got '%s' and '%s')", dir, a);
            dir = a;
            continue;
        }
        const char *val;
        int rc;
        char *opt = cli_flag_value(argc, argv, &i, flags, "-j", &val, &rc);
        if (!opt)
            return rc;
        const char **slot = !strcmp(opt, "--out")      ? &out
                            : !strcmp(opt, "--runs")   ? &z.runs
                            : !strcmp(opt, "--boots")  ? &z.boots
                            : !strcmp(opt, "--groups") ? &z.groups
                            : !strcmp(opt, "--loops")  ? &z.loops
                            : !strcmp(opt, "--smp")    ? &z.smp
                            : !strcmp(opt, "--timeout") ? &z.timeout
                                                        : &z.jobs;
        *slot = val;
        z.given = true;
        free(opt);
    }
    if (dir) {
        if (out || z.given)
            return verb_usage_error("seed-table DIR prints DIR's table; the flags go with measuring it (no DIR)");
        return table_of(dir);
    }
    const char *root = schedlab_root();
    char *dflt = root ? xasprintf("%s/build/seed-table", root) : NULL;
    if (!out)
        out = dflt;
    if (!out) {
        errorf("seed-table needs the schedlab tree to measure (SCHEDLAB_ROOT)");
        return 1;
    }
    char *scaled = NULL;
    int rc = seed000_table_measure(&z, out, &scaled);
    if (rc > 1) {
        free(scaled);
        free(dflt);
        return rc;
    }
    printf("\nscaled:%s\n", scaled ? scaled : " nothing");
    fflush(stdout);
    int trc = table_of(out);
    if (trc) {
        free(scaled);
        free(dflt);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "seed-table: some boots failed (FAILED cells above, reasons listed; logs in %s/logs/)\n", out);
        rc = 1;
    }
    free(scaled);
    free(dflt);
    return rc;
}
