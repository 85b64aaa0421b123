/*
 * compare DIR --base SCHED | compare DIR_A DIR_B: mmtests-style statistics
 * (Min, Amean, Stddev, CoeffVar, Max and the % change against the baseline)
 * with Welch's two-sided t-test from GSL.
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "present.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "compare", OPT_BENCH | OPT_METRIC | OPT_ACROSS | OPT_BASE | OPT_LABELS,
    "usage: schedlab-tool compare DIR [--base SCHED]          schedulers within one directory\n"
    "       schedlab-tool compare DIR_A DIR_B [--labels A,B]  the same runs in two directories (A is the baseline)\n"
    "         [--bench B] [--metric M] [--across KEY]\n"
    "  Min, Amean, Stddev, CoeffVar, Max and the % change against the baseline; Welch's\n"
    "  two-sided t-test (unequal variances, GSL): '*' marks p < 0.05.  Failed runs are not\n"
    "  in the statistics.  Exit: 0, 1 bad input, 2 usage error.\n",
};

static void fmt_stat(char *buf, size_t size, double x)
{
    if (!isfinite(x))
        snprintf(buf, size, "%12s", "-");
    else if (fabs(x) >= 1e7)
        snprintf(buf, size, "%12.4g", x);
    else
        snprintf(buf, size, "%12.4f", x);
}

enum { ST_MIN, ST_AMEAN, ST_STDDEV, ST_CV, ST_MAX, ST_N };
static const char *const stat_name[ST_N] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };

static double stat_of(const struct summary *s, int which)
{
    switch (which) {
    case ST_MIN: return s->min;
    case ST_AMEAN: return s->mean;
    case ST_STDDEV: return s->sd;
    case ST_CV: return s->cv;
    default: return s->max;
    }
}

/* One block's numbers: which series and columns have runs, their summaries
 * and each series' Welch test against the first. */
struct block_stats {
    size_t ns, na, lw;
    bool *has, *present;
    struct summary *sum;
    struct welch *w;
};

static void block_stats(struct block_stats *bs, const struct view *v, const struct table *t, const struct block *b)
{
    size_t na = v->nacross, ns = v->nseries;
    const char *an = across_name(v, t);
    bs->ns = ns;
    bs->na = na;
    bs->has = xcalloc(ns + 1, sizeof(bool));
    bs->present = xcalloc(na + 1, sizeof(bool));
    for (size_t s = 0; s < ns; s++)
        for (size_t a = 0; a < na; a++) {
            bool any = b->cell[s * na + a].n + b->cell[s * na + a].nfail;
            bs->has[s] = bs->has[s] || any;           /* series with data in this block */
            bs->present[a] = bs->present[a] || any;   /* columns with no run at all are left out */
        }
    bs->lw = 10 + strlen(an) + 1;
    for (size_t a = 0; a < na; a++)
        if (10 + strlen(an) + 1 + strlen(v->across_v[a]) + 1 > bs->lw)
            bs->lw = 10 + strlen(an) + 1 + strlen(v->across_v[a]) + 1;
    bs->sum = xcalloc(ns * na + 1, sizeof(*bs->sum));
    double **vals = xcalloc(ns * na + 1, sizeof(double *));
    for (size_t i = 0; i < ns * na; i++) {
        vals[i] = cell_values(&b->cell[i]);
        summarize(vals[i], b->cell[i].n, &bs->sum[i]);
    }
    bs->w = xcalloc(ns * na + 1, sizeof(*bs->w));
    for (size_t s = 1; s < ns; s++)
        for (size_t a = 0; a < na; a++)
            welch_test(vals[a], b->cell[a].n, vals[s * na + a], b->cell[s * na + a].n, &bs->w[s * na + a]);
    for (size_t i = 0; i < ns * na; i++)
        free(vals[i]);
    free(vals);
}

static void block_stats_free(struct block_stats *bs)
{
    free(bs->has);
    free(bs->present);
    free(bs->sum);
    free(bs->w);
}

static void print_row_label(FILE *f, const struct block_stats *bs, const char *what, const char *an, const char *value)
{
    char lab[128];
    snprintf(lab, sizeof(lab), "%-9s %s-%s", what, an, value);
    fprintf(f, "%-*s", (int)bs->lw, lab);
}

/* Min ... Max lines: each value and its change against the baseline. */
static void print_stat_lines(FILE *f, const struct view *v, const char *an, const struct block_stats *bs)
{
    char num[64];
    for (int st = 0; st < ST_N; st++)
        for (size_t a = 0; a < bs->na; a++) {
            if (!bs->present[a])
                continue;
            print_row_label(f, bs, stat_name[st], an, v->across_v[a]);
            double base = stat_of(&bs->sum[a], st);
            for (size_t s = 0; s < bs->ns; s++) {
                if (!bs->has[s])
                    continue;
                double x = stat_of(&bs->sum[s * bs->na + a], st);
                const struct welch *w = &bs->w[s * bs->na + a];
                fmt_stat(num, sizeof(num), x);
                bool sig = st == ST_AMEAN && s > 0 && w->valid && w->p < SIGNIFICANCE_LEVEL;
                if (isfinite(x) && isfinite(base) && base != 0)
                    fprintf(f, " %s %c%7.2f%%%c", num, sig ? '*' : '(', 100.0 * (x - base) / fabs(base), sig ? '*' : ')');
                else
                    fprintf(f, " %s %10s", num, "");
            }
            fputc('\n', f);
        }
}

static void print_welch_lines(FILE *f, const struct view *v, const char *an, const struct block_stats *bs)
{
    for (size_t a = 0; a < bs->na; a++) {
        if (!bs->present[a])
            continue;
        print_row_label(f, bs, "Welch-p", an, v->across_v[a]);
        for (size_t s = 0; s < bs->ns; s++) {
            if (!bs->has[s])
                continue;
            const struct welch *x = &bs->w[s * bs->na + a];
            char p[32];
            if (s == 0 || !x->valid)
                snprintf(p, sizeof(p), "%s", s == 0 ? "base" : "n/a");
            else if (x->p >= 0.0001)
                snprintf(p, sizeof(p), "%.4f", x->p);
            else
                snprintf(p, sizeof(p), "%.2e", x->p);
            fprintf(f, " %12s %-10s", p, s > 0 && x->valid && x->p < SIGNIFICANCE_LEVEL ? "signif." : "");
        }
        fputc('\n', f);
    }
}

static void print_runs_lines(FILE *f, const struct view *v, const char *an, const struct block_stats *bs,
                             const struct block *b)
{
    for (size_t a = 0; a < bs->na; a++) {
        if (!bs->present[a])
            continue;
        print_row_label(f, bs, "Runs", an, v->across_v[a]);
        for (size_t s = 0; s < bs->ns; s++) {
            if (!bs->has[s])
                continue;
            const struct cell *c = &b->cell[s * bs->na + a];
            char runs[64];
            if (c->nfail)
                snprintf(runs, sizeof(runs), "%zu ok, %zu FAILED", c->n, c->nfail);
            else
                snprintf(runs, sizeof(runs), "%zu ok", c->n);
            fprintf(f, " %23s", runs);
        }
        fputc('\n', f);
    }
}

/* A Welch test that could not be computed is an error naming its cell, never a guess. */
static int check_welch(const struct block_stats *bs, const struct view *v, const struct table *t,
                       const struct block *b, const char *where)
{
    for (size_t s = 1; s < bs->ns; s++)
        for (size_t a = 0; a < bs->na; a++) {
            const struct welch *w = &bs->w[s * bs->na + a];
            if (!w->error[0])
                continue;
            char *label = block_label(v, t, b);
            errorf("%s: %s %s, %s, %s=%s, %s against %s: Welch's t-test failed: %s", where, v->bench, v->metric, label,
                   across_name(v, t), v->across_v[a], v->series[s], v->series[0], w->error);
            free(label);
            return 1;
        }
    return 0;
}

/* One block's statistics; returns 0 or 1 (a test that failed, nothing printed). */
static int print_compare_block(FILE *f, const struct view *v, const struct table *t, const struct block *b,
                               const char *where)
{
    const char *an = across_name(v, t);
    struct block_stats bs;
    block_stats(&bs, v, t, b);
    if (check_welch(&bs, v, t, b, where)) {
        block_stats_free(&bs);
        return 1;
    }
    char *label = block_label(v, t, b);
    fprintf(f, "%s %s, %s%s (%s)\n", v->bench, v->metric, label, b->oversub ? " (oversubscribed)" : "",
            direction_words(v->metric));
    free(label);
    fprintf(f, "%*s", (int)bs.lw, "");
    for (size_t s = 0; s < bs.ns; s++)
        if (bs.has[s])
            fprintf(f, " %23.23s", v->series[s]);
    fputc('\n', f);
    print_stat_lines(f, v, an, &bs);
    print_welch_lines(f, v, an, &bs);
    print_runs_lines(f, v, an, &bs, b);
    fputc('\n', f);
    block_stats_free(&bs);
    return 0;
}

/* One workload's comparison.  Returns 0 or 1. */
static int compare_bench(const struct opts *o, const struct table *t, const char *bench)
{
    struct view v;
    struct view_options vo = view_opts(o);
    char *err = view_build(&v, t, bench, &vo);
    int rc = 0;
    if (err) {
        errorf("%s", err);
        free(err);
        rc = 1;
    } else if (!v.metric) {
        printf("%s: no metric in the results (%zu ok, %zu failed runs)\n\n", bench, v.nok, v.nfail);
    } else {
        printf("%s %s: baseline %s; %% is the change against it; Welch's two-sided t-test (unequal variances),\n"
               "* around the Amean change marks p < %.2f; Stddev and CoeffVar from n-1; failed runs are not in the statistics\n\n",
               v.bench, v.metric, v.nseries ? v.series[0] : "-", SIGNIFICANCE_LEVEL);
        if (v.nseries < 2)
            printf("(only one %s: nothing to compare against)\n\n", o->ndirs > 1 ? "directory has these results" : "scheduler");
        char *where = o->ndirs > 1 ? xasprintf("%s and %s", o->dirs[0], o->dirs[1]) : xstrdup(o->dirs[0]);
        for (size_t k = 0; k < v.nblk && rc == 0; k++)
            rc = print_compare_block(stdout, &v, t, &v.blk[k], where);
        free(where);
        if (rc == 0)
            print_cell_failures(stdout, &v, t);
    }
    view_free(&v);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (rc) {
        cli_free(&o);
        return cli_exit(rc);
    }
    if (o.ndirs > 1 && o.base) {
        cli_free(&o);
        return usage_error("%s", "--base chooses a scheduler within one directory; with two directories the first is the baseline");
    }
    struct table t = { 0 }, boots = { 0 };
    rc = load(&o, &t, &boots);
    size_t nb = 0;
    const char **benches = rc ? NULL : selected_benches(&o, &t, &nb);
    if (!rc && nb == 0) {
        errorf(o.bench ? "no %s results" : "no results at all%s", o.bench ? o.bench : "");
        rc = 1;
    }
    for (size_t i = 0; !rc && i < nb; i++)
        rc = compare_bench(&o, &t, benches[i]);
    if (!rc)
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    free(benches);
    table_free(&t);
    table_free(&boots);
    cli_free(&o);
    return rc;
}
