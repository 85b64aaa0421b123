/*
 * compare DIR --base SCHED | compare DIR_A DIR_B: mmtests-style statistics
 * (Min, Median, Amean, Hmean for rates, Stddev, CoeffVar, Max and the gain
 * against the baseline), the 95% confidence interval of the difference
 * (as ministat prints it) and Welch's two-sided t-test from GSL; --format
 * lkml prints LKP/0-day lines for a mailing list, --format html the tables
 * of the report.  Before anything is compared, the series must be
 * comparable (provenance.c).
 */
#include "cmds.h"
#include "lost_ticks.h"
#include "cli.h"
#include "load.h"
#include "metric.h"
#include "present.h"
#include "provenance.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "compare", OPT_BENCH | OPT_METRIC | OPT_ACROSS | OPT_BASE | OPT_LABELS | OPT_ALLOW_DIFF | OPT_FORMAT | OPT_UNIT,
    "usage: schedlab compare DIR [--base SCHED]          schedulers within one directory\n"
    "       schedlab compare DIR_A DIR_B [--labels A,B]  the same runs in two directories (A is the baseline)\n"
    "         [--bench B] [--metric M] [--across KEY] [--allow-diff KEY[,KEY]] [--unit auto|run|boot]\n"
    "         [--format text|lkml|html]\n"
    "  Min, Median, Amean (and Hmean for rates), Stddev, CoeffVar, Max and the gain against\n"
    "  the baseline in mmtests' convention (positive is better, whichever way the metric goes);\n"
    "  Diff95: the change of the mean with its 95% confidence interval; Welch's two-sided t-test\n"
    "  (unequal variances, GSL): '*' marks p < 0.05.  The unit of the statistics is the boot\n"
    "  (each boot's mean of its runs) when every cell has two boots or more, else the run\n"
    "  (--unit forces one).  Series that differ in anything but the compared axis (workload\n"
    "  parameters, build settings, accel, memory, git revision, the boot line's fields) are\n"
    "  refused with the list of differences; --allow-diff KEY compares across KEY on purpose.\n"
    "  --format lkml: one LKP-style line per cell (base +- %stddev, %change, new +- %stddev).\n"
    "  Failed runs are not in the statistics.  Exit: 0, 1 bad input or not comparable, 2 usage error.\n",    NULL,
};

enum { ST_MIN, ST_MEDIAN, ST_AMEAN, ST_HMEAN, ST_STDDEV, ST_CV, ST_MAX, ST_N };
static const char *const stat_name[ST_N] = { "Min", "Median", "Amean", "Hmean", "Stddev", "CoeffVar", "Max" };

static double stat_of(const struct summary *s, int which)
{
    switch (which) {
    case ST_MIN: return s->min;
    case ST_MEDIAN: return s->median;
    case ST_AMEAN: return s->mean;
    case ST_HMEAN: return s->hmean;
    case ST_STDDEV: return s->sd;
    case ST_CV: return s->cv;
    default: return s->max;
    }
}

static char *fmt_stat(double x)
{
    if (!isfinite(x))
        return xstrdup("-");
    return fabs(x) >= 1e7 ? xasprintf("%.4g", x) : xasprintf("%.4f", x);
}

/* The gain of x against base in mmtests' convention: positive is better.
 * dir: the metric's direction (-1 lower is better, +1 higher, 0 none: the plain change). */
static double gain(double x, double base, int dir)
{
    double change = 100.0 * (x - base) / fabs(base);
    return dir < 0 ? -change : change;
}

/* One block's numbers: which series and columns have runs, their summaries
 * (over the chosen unit) and each series' Welch test against the first. */
struct block_stats {
    size_t ns, na;
    bool *has, *present;
    struct summary *sum;
    struct welch *w;
    size_t *boots;
};

static void block_stats(struct block_stats *bs, const struct view *v, const struct block *b, bool by_boot)
{
    size_t na = v->nacross, ns = v->nseries;
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
    bs->sum = xcalloc(ns * na + 1, sizeof(*bs->sum));
    bs->boots = xcalloc(ns * na + 1, sizeof(size_t));
    double **vals = xcalloc(ns * na + 1, sizeof(double *));
    size_t *nv = xcalloc(ns * na + 1, sizeof(size_t));
    for (size_t i = 0; i < ns * na; i++) {
        vals[i] = cell_samples(&b->cell[i], by_boot, &nv[i]);
        summarize(vals[i], nv[i], &bs->sum[i]);
        bs->boots[i] = cell_boots(&b->cell[i]);
    }
    bs->w = xcalloc(ns * na + 1, sizeof(*bs->w));
    for (size_t s = 1; s < ns; s++)
        for (size_t a = 0; a < na; a++)
            welch_test(vals[a], nv[a], vals[s * na + a], nv[s * na + a], &bs->w[s * na + a]);
    for (size_t i = 0; i < ns * na; i++)
        free(vals[i]);
    free(vals);
    free(nv);
}

static void block_stats_free(struct block_stats *bs)
{
    free(bs->has);
    free(bs->present);
    free(bs->sum);
    free(bs->w);
    free(bs->boots);
}

/* ---------------------------------------------------------------- a block as a grid of texts */

struct gcell {
    char *text;
    int mood;       /* +1 better, -1 worse, 0 neither (for the HTML colours) */
    bool signif;
};

struct grow {
    char *stat, *col;       /* "Amean", "groups-10" */
    struct gcell *cell;     /* one per shown series */
};

struct grid {
    char *title;
    char **head;            /* shown series */
    size_t nhead;
    struct grow *row;
    size_t nrows;
};

static struct grow *grid_row(struct grid *g, const char *stat, const char *an, const char *value)
{
    g->row = xrealloc(g->row, (g->nrows + 1) * sizeof(*g->row));
    struct grow *r = &g->row[g->nrows++];
    r->stat = xstrdup(stat);
    r->col = xasprintf("%s-%s", an, value);
    r->cell = xcalloc(g->nhead + 1, sizeof(*r->cell));
    return r;
}

static void grid_free(struct grid *g)
{
    for (size_t i = 0; i < g->nrows; i++) {
        for (size_t c = 0; c < g->nhead; c++)
            free(g->row[i].cell[c].text);
        free(g->row[i].cell);
        free(g->row[i].stat);
        free(g->row[i].col);
    }
    for (size_t c = 0; c < g->nhead; c++)
        free(g->head[c]);
    free(g->head);
    free(g->row);
    free(g->title);
}

struct cmp_ctx {
    const struct view *v;
    const struct table *t;
    const struct opts *o;
    bool by_boot;
    int dir;
};

/* Min ... Max rows: each value and its gain against the baseline. */
static void stat_rows(struct grid *g, const struct cmp_ctx *x, const struct block_stats *bs)
{
    const struct view *v = x->v;
    const char *an = across_name(v, x->t);
    for (int st = 0; st < ST_N; st++) {
        if (st == ST_HMEAN && !metric_is_rate(v->metric))
            continue;
        int dir = st == ST_STDDEV || st == ST_CV ? -1 : x->dir;   /* less spread is better */
        for (size_t a = 0; a < bs->na; a++) {
            if (!bs->present[a])
                continue;
            struct grow *r = grid_row(g, stat_name[st], an, v->across_v[a]);
            double base = stat_of(&bs->sum[a], st);
            for (size_t s = 0, c = 0; s < bs->ns; s++) {
                if (!bs->has[s])
                    continue;
                double val = stat_of(&bs->sum[s * bs->na + a], st);
                const struct welch *w = &bs->w[s * bs->na + a];
                char *num = fmt_stat(val);
                bool sig = st == ST_AMEAN && s > 0 && w->valid && w->p < SIGNIFICANCE_LEVEL;
                if (isfinite(val) && isfinite(base) && base != 0) {
                    double gn = s == 0 ? 0.0 : gain(val, base, dir);
                    r->cell[c].text = xasprintf("%12s %c%7.2f%%%c", num, sig ? '*' : '(', gn, sig ? '*' : ')');
                    r->cell[c].mood = s == 0 || !dir || fabs(gn) < 0.005 ? 0 : gn > 0 ? 1 : -1;
                } else {
                    r->cell[c].text = xasprintf("%12s %10s", num, "");
                }
                r->cell[c].signif = sig;
                free(num);
                c++;
            }
        }
    }
}

/* Diff95 rows: mean - base mean with its 95% interval, in units and in percent of the base. */
static void diff_rows(struct grid *g, const struct cmp_ctx *x, const struct block_stats *bs)
{
    const struct view *v = x->v;
    const char *an = across_name(v, x->t);
    for (int pct = 0; pct < 2; pct++)
        for (size_t a = 0; a < bs->na; a++) {
            if (!bs->present[a])
                continue;
            struct grow *r = grid_row(g, pct ? "Diff95%" : "Diff95", an, v->across_v[a]);
            double base = bs->sum[a].mean;
            for (size_t s = 0, c = 0; s < bs->ns; s++) {
                if (!bs->has[s])
                    continue;
                const struct welch *w = &bs->w[s * bs->na + a];
                double scale = pct ? 100.0 / fabs(base) : 1.0;
                if (s == 0)
                    r->cell[c].text = xstrdup("base");
                else if (!isfinite(w->diff) || (pct && !(fabs(base) > 0)))
                    r->cell[c].text = xstrdup("-");
                else if (!w->valid)
                    r->cell[c].text = xasprintf(pct ? "%+.2f%% (no CI)" : "%+.4g (no CI)", w->diff * scale);
                else
                    r->cell[c].text = xasprintf(pct ? "%+.2f%% +- %.2f%%" : "%+.4g +- %.4g", w->diff * scale,
                                                w->ci95 * scale);
                c++;
            }
        }
}

static void welch_rows(struct grid *g, const struct cmp_ctx *x, const struct block_stats *bs)
{
    const struct view *v = x->v;
    const char *an = across_name(v, x->t);
    for (size_t a = 0; a < bs->na; a++) {
        if (!bs->present[a])
            continue;
        struct grow *r = grid_row(g, "Welch-p", an, v->across_v[a]);
        for (size_t s = 0, c = 0; s < bs->ns; s++) {
            if (!bs->has[s])
                continue;
            const struct welch *w = &bs->w[s * bs->na + a];
            bool sig = s > 0 && w->valid && w->p < SIGNIFICANCE_LEVEL;
            char p[32];
            if (s == 0 || !w->valid)
                snprintf(p, sizeof(p), "%s", s == 0 ? "base" : "n/a");
            else if (w->p >= 0.0001)
                snprintf(p, sizeof(p), "%.4f", w->p);
            else
                snprintf(p, sizeof(p), "%.2e", w->p);
            r->cell[c].text = xasprintf("%12s %-10s", p, sig ? "signif." : "");
            r->cell[c].signif = sig;
            c++;
        }
    }
}

static void runs_rows(struct grid *g, const struct cmp_ctx *x, const struct block_stats *bs, const struct block *b)
{
    const struct view *v = x->v;
    const char *an = across_name(v, x->t);
    for (size_t a = 0; a < bs->na; a++) {
        if (!bs->present[a])
            continue;
        struct grow *r = grid_row(g, "Runs", an, v->across_v[a]);
        for (size_t s = 0, c = 0; s < bs->ns; s++) {
            if (!bs->has[s])
                continue;
            const struct cell *cl = &b->cell[s * bs->na + a];
            size_t boots = bs->boots[s * bs->na + a];
            char in[32] = "";
            if (boots > 1)
                snprintf(in, sizeof(in), " in %zu boots", boots);
            if (cl->nfail)
                r->cell[c].text = xasprintf("%zu ok, %zu FAILED%s", cl->n, cl->nfail, in);
            else
                r->cell[c].text = xasprintf("%zu ok%s", cl->n, in);
            c++;
        }
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

static void build_grid(struct grid *g, const struct cmp_ctx *x, const struct block *b, const struct block_stats *bs)
{
    const struct view *v = x->v;
    memset(g, 0, sizeof(*g));
    char *label = block_label(v, x->t, b);
    g->title = xasprintf("%s %s, %s%s (%s)", v->bench, v->metric, label, b->oversub ? " (oversubscribed)" : "",
                         direction_words(v->metric));
    free(label);
    g->head = xcalloc(bs->ns + 1, sizeof(char *));
    for (size_t s = 0; s < bs->ns; s++)
        if (bs->has[s])
            g->head[g->nhead++] = xstrdup(v->series[s]);
    stat_rows(g, x, bs);
    diff_rows(g, x, bs);
    welch_rows(g, x, bs);
    runs_rows(g, x, bs, b);
}

static void print_grid_text(FILE *f, const struct grid *g)
{
    size_t lw = 0, cw = 23;
    for (size_t i = 0; i < g->nrows; i++) {
        if (10 + strlen(g->row[i].col) + 1 > lw)
            lw = 10 + strlen(g->row[i].col) + 1;
        for (size_t c = 0; c < g->nhead; c++)
            if (g->row[i].cell[c].text && strlen(g->row[i].cell[c].text) > cw)
                cw = strlen(g->row[i].cell[c].text);
    }
    fprintf(f, "%s\n%*s", g->title, (int)lw, "");
    for (size_t c = 0; c < g->nhead; c++)
        fprintf(f, " %*.*s", (int)cw, (int)cw, g->head[c]);
    fputc('\n', f);
    for (size_t i = 0; i < g->nrows; i++) {
        char lab[160];
        snprintf(lab, sizeof(lab), "%-9s %s", g->row[i].stat, g->row[i].col);
        fprintf(f, "%-*s", (int)lw, lab);
        for (size_t c = 0; c < g->nhead; c++)
            fprintf(f, " %*s", (int)cw, g->row[i].cell[c].text ? g->row[i].cell[c].text : "");
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void print_grid_html(FILE *f, const struct grid *g)
{
    fputs("<table class=\"compare\">\n<caption>", f);
    html_escape(f, g->title);
    fputs("</caption>\n<thead><tr><th>statistic</th><th>cell</th>", f);
    for (size_t c = 0; c < g->nhead; c++) {
        fputs("<th>", f);
        html_escape(f, g->head[c]);
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < g->nrows; i++) {
        fputs("<tr><th>", f);
        html_escape(f, g->row[i].stat);
        fputs("</th><td>", f);
        html_escape(f, g->row[i].col);
        fputs("</td>", f);
        for (size_t c = 0; c < g->nhead; c++) {
            const struct gcell *gc = &g->row[i].cell[c];
            fprintf(f, "<td class=\"num%s%s%s\">", gc->mood > 0 ? " better" : "", gc->mood < 0 ? " worse" : "",
                    gc->signif ? " signif" : "");
            const char *t = gc->text ? gc->text : "";
            html_escape(f, t + strspn(t, " "));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* ---------------------------------------------------------------- LKP lines */

/* "    0.3317 ±  2%" as LKP prints a value and its relative stddev. */
static void lkml_value(FILE *f, const struct summary *s)
{
    char *num = fmt_stat(s->mean);
    if (isfinite(s->cv) && s->cv >= 0.5)
        fprintf(f, "%12s \xc2\xb1%3.0f%%", num, s->cv);
    else
        fprintf(f, "%12s      ", num);
    free(num);
}

static void lkml_block(FILE *f, const struct cmp_ctx *x, const struct block *b, const struct block_stats *bs)
{
    const struct view *v = x->v;
    struct strbuf sfx = { 0 };
    if (b->sched)
        sb_printf(&sfx, "%s.", b->sched);
    sb_printf(&sfx, "smp%s", b->smp);
    for (size_t p = 0; p < v->nvariant; p++)
        sb_printf(&sfx, ".%s=%s", x->t->col[v->variant[p]], b->vval[p]);
    const char *suffix = sfx.s;
    for (size_t s = 1; s < bs->ns; s++) {
        if (!bs->has[s] || !bs->has[0])
            continue;
        for (size_t a = 0; a < bs->na; a++) {
            const struct summary *base = &bs->sum[a], *now = &bs->sum[s * bs->na + a];
            if (!bs->present[a] || !isfinite(base->mean) || !isfinite(now->mean) || base->mean == 0)
                continue;
            lkml_value(f, base);
            const struct welch *w = &bs->w[s * bs->na + a];
            char chg[32];
            snprintf(chg, sizeof(chg), "%+.1f%%", 100.0 * (now->mean - base->mean) / fabs(base->mean));
            fprintf(f, "  %9s%s", chg, w->valid && w->p < SIGNIFICANCE_LEVEL ? "*" : " ");
            lkml_value(f, now);
            fprintf(f, "  %s.%s.%s-%s.%s", v->bench, v->metric, across_name(v, x->t), v->across_v[a], suffix);
            if (bs->ns > 2)
                fprintf(f, " (%s vs %s)", v->series[s], v->series[0]);
            fputc('\n', f);
        }
    }
    sb_free(&sfx);
}

/* ---------------------------------------------------------------- a workload */

/* Boots as the unit when every cell with runs has two or more of them (auto). */
static bool unit_is_boot(const struct view *v, const char *unit)
{
    if (unit && !strcmp(unit, "run"))
        return false;
    if (unit && !strcmp(unit, "boot"))
        return true;
    bool any = false;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * v->nacross; i++) {
            const struct cell *c = &v->blk[k].cell[i];
            if (!c->n)
                continue;
            any = true;
            if (cell_boots(c) < 2)
                return false;
        }
    return any;
}

static void print_header(const struct cmp_ctx *x, const char *note)
{
    const struct view *v = x->v;
    bool html = streq(x->o->format, "html"), lkml = streq(x->o->format, "lkml");
    FILE *f = stdout;
    if (html)
        fputs("<p class=\"compare-head\">", f);
    if (lkml) {
        fprintf(f, "%s %s: LKP style; base %s; %%change = (new - base) / base of the means (%s),\n"
                   "\xc2\xb1 the coefficient of variation (shown from 1%%); * after %%change: Welch p < %.2f; unit: %s\n",
                v->bench, v->metric, v->nseries ? v->series[0] : "-", direction_words(v->metric), SIGNIFICANCE_LEVEL,
                x->by_boot ? "boots" : "runs");
        fprintf(f, "\n%16s %30s\n---------------- ------------------------------\n", v->nseries ? v->series[0] : "-",
                v->nseries > 1 ? v->series[1] : "");
        fprintf(f, "        %%stddev     %%change         %%stddev\n            \\          |                \\\n");
    } else {
        if (x->dir)
            fprintf(f, "%s %s: baseline %s; %% is the gain against it (mmtests' convention: positive is better; %s;\n"
                       "Stddev and CoeffVar: smaller is better); ",
                    v->bench, v->metric, v->nseries ? v->series[0] : "-", direction_words(v->metric));
        else
            fprintf(f, "%s %s: baseline %s; %% is the plain change against it (%s has no better direction;\n"
                       "Stddev and CoeffVar: smaller is better); ",
                    v->bench, v->metric, v->nseries ? v->series[0] : "-", v->metric);
        fprintf(f, "Welch's two-sided t-test (unequal variances),\n"
                   "* around the Amean gain marks p < %.2f; Diff95: mean - baseline mean with its 95%% confidence interval;\n"
                   "Stddev and CoeffVar from n-1; failed runs are not in the statistics\n",
                SIGNIFICANCE_LEVEL);
        if (x->by_boot)
            fprintf(f, "unit: the boot (each boot's mean of its runs is one sample; runs within one boot are not independent)\n");
        else
            fprintf(f, "unit: the run (runs within one boot are not independent, so p-values and intervals are optimistic;\n"
                       "more boots per cell, --boots 2 or more, make the boot the unit)\n");
    }
    if (note)
        fprintf(f, "%s\n", note);
    if (html)
        fputs("</p>", f);
    if (!lkml)
        fputc('\n', f);
}

/* One workload's comparison.  Returns 0 or 1. */
static int compare_bench(const struct opts *o, const struct table *t, const char *bench)
{
    struct view v;
    struct view_options vo = view_opts(o);
    char *note = NULL;
    char *err = view_build_comparable(&v, t, bench, &vo, o->ndirs > 1, o->allow_diff, &note);
    int rc = 0;
    if (err) {
        errorf("%s", err);
        free(err);
        rc = 1;
    } else if (!v.metric) {
        printf("%s: no metric in the results (%zu ok, %zu failed runs)\n\n", bench, v.nok, v.nfail);
    } else {
        struct cmp_ctx x = { &v, t, o, unit_is_boot(&v, o->unit), metric_direction(v.metric) };
        bool html = streq(o->format, "html"), lkml = streq(o->format, "lkml");
        print_header(&x, note);
        if (v.nseries < 2)
            printf("%s(only one %s: nothing to compare against)%s\n\n", html ? "<p>" : "",
                   o->ndirs > 1 ? "directory has these results" : "scheduler", html ? "</p>" : "");
        char *where = o->ndirs > 1 ? xasprintf("%s and %s", o->dirs[0], o->dirs[1]) : xstrdup(o->dirs[0]);
        for (size_t k = 0; k < v.nblk && rc == 0; k++) {
            struct block_stats bs;
            block_stats(&bs, &v, &v.blk[k], x.by_boot);
            rc = check_welch(&bs, &v, t, &v.blk[k], where);
            if (!rc && lkml) {
                lkml_block(stdout, &x, &v.blk[k], &bs);
            } else if (!rc) {
                struct grid g;
                build_grid(&g, &x, &v.blk[k], &bs);
                if (html)
                    print_grid_html(stdout, &g);
                else
                    print_grid_text(stdout, &g);
                grid_free(&g);
            }
            block_stats_free(&bs);
        }
        free(where);
        if (rc == 0 && lkml)
            putchar('\n');
        if (rc == 0 && !html)
            print_cell_failures(stdout, &v, t);
        if (rc == 0)
            lost_ticks_warn(stdout, t, bench, html);
        if (rc == 0 && v.nnotrun)
            printf("%s%zu runs not run (their boots never started: tools/schedlab run --resume)%s\n", html ? "<p>" : "",
                   v.nnotrun, html ? "</p>" : "");
    }
    free(note);
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
    if (!rc && !streq(o.format, "html"))
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    free(benches);
    table_free(&t);
    table_free(&boots);
    cli_free(&o);
    return rc;
}
