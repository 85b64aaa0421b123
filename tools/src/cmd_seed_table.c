/*
 * seed-table DIR: the hackbench table of DIR (goodness and o1, groups by
 * CPU count) beside seed 000's numbers, with the ratios and the growth with
 * groups that can be compared across machines.
 */
#include "cmds.h"
#include "lost_ticks.h"
#include "cli.h"
#include "load.h"
#include "present.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "seed-table", 0,
    "usage: schedlab-tool seed-table DIR\n"
    "  DIR's hackbench time_s table (goodness and o1, groups by CPU count) beside seed 000's\n"
    "  numbers (Craig Thomas, OSDL, LKML Nov 2003), with o1/goodness ratios and the growth\n"
    "  with groups.  tools/schedlab seed-table runs the matrix first.  Exit: 0, 1 bad input.\n",
};

/* Seed 000: Craig Thomas (OSDL), "Process scheduler improvements in
 * 2.6.0-test9", LKML, November 2003: hackbench, mean of five runs, seconds. */
static const int seed_groups[4] = { 50, 100, 150, 200 };
static const int seed_cpus[4] = { 1, 2, 4, 8 };
static const double seed_24[4][4] = {   /* 2.4.18: the goodness() scheduler */
    { 15.52, 37.63, 74.34, 110.62 }, { 10.50, 30.42, 64.26, 112.46 },
    { 7.07, 22.75, 54.10, 101.45 },  { 7.02, 24.63, 61.48, 114.93 },
};
static const double seed_26[4][4] = {   /* 2.6.0-test9: the O(1) scheduler */
    { 9.91, 17.86, 27.55, 39.77 }, { 7.44, 13.45, 19.68, 26.68 },
    { 5.16, 9.25, 13.64, 18.65 },  { 4.08, 7.15, 10.31, 13.84 },
};
static const char *const names[2] = { "goodness", "o1" };
static const char *const seednames[2] = { "2.4.18", "2.6.0-test9" };
static const double (*const seed[2])[4] = { seed_24, seed_26 };

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
        printf("%*d", W, seed_groups[a]);
    printf("\n");
    print_rule(x);
}

/* One scheduler's line here and its seed line; its means go to mean[]. */
static void print_sched_line(const struct seed_ctx *x, const struct block *b, int s, int ci, double *mean)
{
    const struct view *v = x->v;
    size_t si = s == 0 ? 0 : x->o1, na = v->nacross;
    printf("   %-25s", names[s]);
    for (size_t a = 0; a < x->cols; a++) {
        mean[a < MAXCOLS ? a : MAXCOLS - 1] = NAN;
        if (a >= na) {
            printf("%*s", W, "");
            continue;
        }
        if (!b || si >= v->nseries || strcmp(v->series[si], names[s])) {
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
    printf("   | %-11s", seednames[s]);
    for (int a = 0; a < 4; a++)
        printf("%*.2f", W, seed[s][ci][a]);
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
    snprintf(smp, sizeof(smp), "%d", seed_cpus[ci]);
    const struct block *b = NULL;
    for (size_t k = 0; k < v->nblk && !b; k++)
        if (!strcmp(v->blk[k].smp, smp))
            b = &v->blk[k];
    printf("%d CPU%s%s\n", seed_cpus[ci], ci ? "s" : "",
           b && b->oversub ? "  (here oversubscribed: more vCPUs than host cores)" : "");
    double here[2][MAXCOLS];
    for (int s = 0; s < 2; s++)
        print_sched_line(x, b, s, ci, here[s]);
    print_ratio_line(x, "o1/goodness", here[1], here[0], false, "2.6/2.4", seed_26[ci], seed_24[ci]);
    for (int s = 0; s < 2; s++) {
        char lab[64];
        snprintf(lab, sizeof(lab), "%s growth (x col 1)", names[s]);
        print_ratio_line(x, lab, here[s], here[s], true, seednames[s], seed[s][ci], seed[s][ci]);
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
        snprintf(smp, sizeof(smp), "%d", seed_cpus[ci]);
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

int cmd_seed_table(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (rc || o.ndirs != 1) {
        cli_free(&o);
        return rc ? cli_exit(rc) : usage_error("%s", "seed-table needs one results directory");
    }
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
    cli_free(&o);
    return rc;
}
