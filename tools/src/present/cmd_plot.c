/*
 * plot [--out PLOTDIR] DIR...: PNG and SVG plots, drawn by gnuplot from scripts
 * (data inline) kept beside them as PLOTDIR/NAME.gp.
 *
 *   <bench>-<metric>-smpN[...]          the metric against the swept parameter: every
 *                                       run as a point beside its series' mean, error
 *                                       bars of one standard deviation, the series
 *                                       dodged so that no two bars overlap, n in the legend
 *   <stem>-ratio                        each series' mean divided by the baseline's
 *   <bench>-<metric>-scaling-KEY=V      the metric against the CPU count (seed 000's
 *                                       question: how does each scheduler scale?)
 *   <stem>-runs-KEY=V                   every run in boot order (seed 001), for pipe,
 *                                       lat_ctx and any workload with one column
 *
 * Axes say what and in which unit ("time (s)"); the key sits outside the
 * plot, so it never covers data; nothing is clipped (the y range follows
 * the data and the error bars, a zero line shows when it is crossed, and a
 * negative value is marked in red: no metric may be negative).  The y axis
 * is logarithmic with --log yes, and by itself (--log auto) when the
 * series differ by more than 10x and every bar stays above zero.
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "metric.h"
#include "present.h"
#include "provenance.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/procs.h"

static const struct verb_spec spec = {
    "plot", OPT_BENCH | OPT_METRIC | OPT_ACROSS | OPT_BASE | OPT_LABELS | OPT_OUT | OPT_PNG_TERM | OPT_LOG | OPT_ALLOW_DIFF,
    "usage: schedlab plot DIR... [--out PLOTDIR] [--bench B] [--metric M] [--across KEY] [--base SCHED]\n"
    "                     [--labels A,B] [--log auto|yes|no] [--allow-diff KEY[,KEY]]\n"
    "  PNG and SVG (gnuplot) into PLOTDIR (default: the first DIR's plots/): the metric\n"
    "  against the swept parameter, one file per CPU count, each run as a point beside\n"
    "  its series' mean with stddev error bars (dodged), n in the legend; the scaling\n"
    "  plot against the CPU count; the ratio to the baseline; per-run series (run index\n"
    "  across, as in seed 001) for pipe, lat_ctx and any workload with one column.\n"
    "  A log scale with --log yes, and by itself (auto) when lines differ by more than 10x.\n"
    "  Each plot's gnuplot script (PLOTDIR/NAME.gp) stays beside it.\n"
    "  Exit: 0, 1 bad input, not comparable or gnuplot failed, 2 usage error.\n",
    NULL,
};

const struct verb_spec *plot_spec(void)
{
    return &spec;
}

/* Where the names of the scripts written go (a file the verb reads back). */
static FILE *plot_list;

/* Colours of the series (Okabe-Ito: distinguishable with colour blindness too). */
static const char *const colour[] = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442" };
#define NCOLOURS (sizeof(colour) / sizeof(colour[0]))
#define FONT_PX 14   /* the same text size in the PNG and the SVG */

static char *file_stem(const char *s)
{
    char *out = xstrdup(s);
    for (char *c = out; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
              *c == '_' || *c == '.' || *c == '='))
            *c = '_';
    return out;
}

/* A gnuplot single-quoted string: quotes doubled. */
static void gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static void sb_gp_string(struct strbuf *b, const char *s)
{
    sb_add(b, "'");
    for (const char *c = s; *c; c++)
        sb_add(b, *c == '\'' ? "''" : (char[2]){ *c, 0 });
    sb_add(b, "'");
}

static void gp_set(FILE *f, const char *what, const char *text)
{
    fprintf(f, "set %s ", what);
    gp_string(f, text);
    fputc('\n', f);
}

/* The PNG and the SVG of one plot: the same size and the same font in pixels. */
static void gp_terminals(FILE *f, const char *png_term, const char *stem, const char *plotcmd)
{
    bool cairo = strstr(png_term, "cairo") != NULL;
    /* pngcairo takes points at 72 dpi... of a 96 dpi canvas; gd png takes pixels */
    fprintf(f, "set terminal %s size 1000,600 noenhanced font 'Sans,%d'\nset output ", png_term,
            cairo ? FONT_PX * 3 / 4 : FONT_PX);
    gp_string(f, stem);
    fprintf(f, " . '.png'\n%s\nset output\n", plotcmd);
    fprintf(f, "set terminal svg size 1000,600 noenhanced font 'Sans,%d' background rgb 'white'\nset output ", FONT_PX);
    gp_string(f, stem);
    fprintf(f, " . '.svg'\n%s\nset output\n", plotcmd);
}

static void gp_common(FILE *f)
{
    fprintf(f, "set grid\nset key outside right top vertical Left reverse noautotitle box width 2\n"
               "set border 3\nset tics nomirror\nset xzeroaxis lt -1 lw 1\n");
}

static bool series_plot_wanted(const struct view *v)
{
    return !strcmp(v->bench, "pipe") || !strcmp(v->bench, "lat_ctx") || v->nacross <= 1;
}

static FILE *open_script(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        errorf("%s: %s", path, strerror(errno));
    return f;
}

/* What every plot of one view needs. */
struct plot_ctx {
    const struct view *v;
    const struct table *t;
    const struct opts *o;
    const char *term, *an;
    const char *note;   /* the allowed differences, or NULL */
    size_t *count;
};

/* bench-metric[-sched]-smpN[-key=value...], safe as a file name. */
static char *block_stem(const struct view *v, const struct table *t, const struct block *b)
{
    struct strbuf stem = { 0 };
    sb_printf(&stem, "%s-%s", v->bench, v->metric);
    if (b->sched)
        sb_printf(&stem, "-%s", b->sched);
    sb_printf(&stem, "-smp%s", b->smp);
    for (size_t p = 0; p < v->nvariant; p++)
        sb_printf(&stem, "-%s=%s", t->col[v->variant[p]], b->vval[p]);
    char *fstem = file_stem(stem.s);
    sb_free(&stem);
    return fstem;
}

/* The x position of across value a (its number, or its index for words). */
static double x_of(const struct view *v, size_t a)
{
    double x = (double)a;
    if (v->across_numeric)
        parse_double(v->across_v[a], &x);
    return x;
}

/* The dodge step: a small share of the x range, so each series' bars sit
 * beside the others' instead of on top of them. */
static double dodge_step(const struct view *v)
{
    if (!v->across_numeric || v->nacross < 2)
        return v->nseries > 1 ? 0.3 / (double)v->nseries : 0;
    double lo = x_of(v, 0), hi = x_of(v, v->nacross - 1), gap = hi - lo;
    for (size_t a = 1; a < v->nacross; a++)
        if (x_of(v, a) - x_of(v, a - 1) < gap)
            gap = x_of(v, a) - x_of(v, a - 1);
    return gap * 0.16 / (double)(v->nseries > 1 ? v->nseries : 1);
}

/* A series' points in one block: the cells across, each with its runs. */
struct scale_check {
    double lo, hi;        /* smallest and largest mean */
    bool nonpositive;     /* a value, or a bar's lower end, at or below 0 */
    bool negative;        /* a value below 0 */
};

static void scan_cell(struct scale_check *sc, const struct cell *c)
{
    if (!c->n)
        return;
    struct summary s;
    double *x = cell_values(c);
    summarize(x, c->n, &s);
    for (size_t i = 0; i < c->n; i++) {
        sc->nonpositive |= !(x[i] > 0);
        sc->negative |= x[i] < 0;
    }
    free(x);
    if (s.mean < sc->lo)
        sc->lo = s.mean;
    if (s.mean > sc->hi)
        sc->hi = s.mean;
    if (c->n >= 2 && !(s.mean - s.sd > 0))
        sc->nonpositive = true;
}

/* Whether the y axis is logarithmic: --log yes, or auto with more than 10x between means. */
static bool use_log(const struct plot_ctx *x, const struct scale_check *sc, char **why)
{
    *why = NULL;
    const char *mode = x->o->log ? x->o->log : "auto";
    if (!strcmp(mode, "no"))
        return false;
    if (!strcmp(mode, "yes")) {
        if (sc->nonpositive)
            *why = xstrdup("log scale: values or error bars at or below 0 are cut at the bottom");
        return true;
    }
    if (sc->lo > 0 && sc->hi / sc->lo > 10 && !sc->nonpositive) {
        *why = xasprintf("log scale: the means differ by %.0fx", sc->hi / sc->lo);
        return true;
    }
    return false;
}

/* The n of a series in a block: "n=6" or "n=3-6" (ok runs per cell). */
static char *n_text(const struct view *v, const struct block *b, size_t s)
{
    size_t lo = (size_t)-1, hi = 0;
    for (size_t a = 0; a < v->nacross; a++) {
        size_t n = b->cell[s * v->nacross + a].n;
        if (!n)
            continue;
        lo = n < lo ? n : lo;
        hi = n > hi ? n : hi;
    }
    if (!hi)
        return xstrdup("n=0");
    return lo == hi ? xasprintf("n=%zu", hi) : xasprintf("n=%zu-%zu", lo, hi);
}

/* One series' data: $mS (x, mean, low, high) and $pS (x, every run), dodged by off. */
static bool series_data(FILE *f, const struct view *v, const struct block *b, size_t s, double off, double step,
                        bool logy, double floor)
{
    size_t na = v->nacross;
    bool any = false;
    for (size_t a = 0; a < na; a++)
        any = any || b->cell[s * na + a].n;
    if (!any)
        return false;
    fprintf(f, "$m%zu << EOD\n", s);
    for (size_t a = 0; a < na; a++) {
        const struct cell *c = &b->cell[s * na + a];
        if (!c->n)
            continue;   /* a failed cell: no point (the title counts them) */
        struct summary sum;
        double *vals = cell_values(c);
        summarize(vals, c->n, &sum);
        free(vals);
        double sd = c->n >= 2 ? sum.sd : 0, low = sum.mean - sd;
        if (logy && !(low > 0))
            low = floor;
        fprintf(f, "%.9g %.9g %.9g %.9g \"%s\"\n", x_of(v, a) + off, sum.mean, low, sum.mean + sd, v->across_v[a]);
    }
    fprintf(f, "EOD\n$p%zu << EOD\n", s);
    for (size_t a = 0; a < na; a++) {
        const struct cell *c = &b->cell[s * na + a];
        double *vals = cell_values(c);
        for (size_t i = 0; i < c->n; i++) {
            double spread = c->n > 1 ? ((double)i / (double)(c->n - 1) - 0.5) * step * 0.5 : 0;
            double y = logy && !(vals[i] > 0) ? floor : vals[i];
            fprintf(f, "%.9g %.9g %d\n", x_of(v, a) + off + spread, y, vals[i] < 0);
        }
        free(vals);
    }
    fprintf(f, "EOD\n");
    return true;
}

/* The x axis of a plot against the across values. */
static void across_axis(FILE *f, const struct view *v, double step)
{
    if (!v->across_numeric) {
        fprintf(f, "set xrange [-0.7:%zu.7]\nset xtics (", v->nacross - 1);
        for (size_t a = 0; a < v->nacross; a++) {
            fprintf(f, "%s", a ? ", " : "");
            gp_string(f, v->across_v[a]);
            fprintf(f, " %zu", a);
        }
        fprintf(f, ")\n");
        return;
    }
    double lo = x_of(v, 0), hi = x_of(v, v->nacross - 1), pad = (hi - lo) * 0.06 + step * (double)v->nseries;
    if (!(pad > 0))
        pad = 1;
    fprintf(f, "set xrange [%.9g:%.9g]\n", lo - pad, hi + pad);
    if (v->nacross <= 16) {
        fprintf(f, "set xtics (");
        for (size_t a = 0; a < v->nacross; a++)
            fprintf(f, "%s%s", a ? ", " : "", v->across_v[a]);
        fprintf(f, ")\n");
    }
}

/* ", sched.preset=rc1": the scheduler settings every run of the workload shares (a row of
 * reproduce is cfs23 with a preset; the series says only cfs23). */
static void sched_settings(struct strbuf *b, const struct plot_ctx *x)
{
    const struct table *t = x->t;
    int bc = table_col(t, "bench");
    for (size_t c = 0; c < t->ncols; c++) {
        if (strncmp(t->col[c], "sched.", 6))
            continue;
        const char *one = NULL;
        bool same = true;
        for (size_t r = 0; r < t->nrows && same; r++) {
            const char *v = table_get(t, r, (int)c);
            if (!streq(table_get(t, r, bc), x->v->bench) || !v)
                continue;
            same = !one || !strcmp(one, v);
            one = one ? one : v;
        }
        if (one && same)
            sb_printf(b, ", %s=%s", t->col[c], one);
    }
}

static void plot_title(FILE *f, const struct plot_ctx *x, const char *what, const char *label, bool oversub, size_t nfail,
                       const char *extra)
{
    struct strbuf t = { 0 };
    sb_printf(&t, "%s %s, %s", x->v->bench, x->v->metric, label);
    sched_settings(&t, x);
    sb_printf(&t, "%s: %s", oversub ? " (oversubscribed)" : "", what);
    if (nfail)
        sb_printf(&t, "\\n%zu run(s) FAILED and are not plotted", nfail);
    if (extra)
        sb_printf(&t, "\\n%s", extra);
    if (x->note)
        sb_add(&t, "\\ncompared across differences on purpose (--allow-diff)");
    fprintf(f, "set title \"");
    for (const char *c = t.s; *c; c++)   /* double quotes: \n makes a second line */
        fputs(*c == '"' ? "'" : (char[2]){ *c, 0 }, f);
    fprintf(f, "\"\n");
    sb_free(&t);
}

/* The metric against the swept parameter, runs and means.  Returns 0 or 1. */
static int write_mean_plot(const struct plot_ctx *x, const struct block *b)
{
    const struct view *v = x->v;
    size_t nfail = 0;
    struct scale_check sc = { INFINITY, -INFINITY, false, false };
    for (size_t i = 0; i < v->nseries * v->nacross; i++) {
        nfail += b->cell[i].nfail;
        scan_cell(&sc, &b->cell[i]);
    }
    char *stem = block_stem(v, x->t, b), *label = block_label(v, x->t, b);
    char *path = xasprintf("%s/%s.gp", x->o->out, stem);
    FILE *f = open_script(path);
    if (!f) {
        free(stem);
        free(label);
        free(path);
        return 1;
    }
    char *why;
    bool logy = use_log(x, &sc, &why);
    double floor = sc.lo > 0 ? sc.lo / 10 : 1e-9, step = dodge_step(v);
    fprintf(f, "# %s: %s against %s, %s (written by schedlab plot)\n", v->bench, v->metric, x->an, label);
    struct strbuf plot = { 0 };
    size_t lines = 0;
    for (size_t s = 0; s < v->nseries; s++) {
        double off = ((double)s - (double)(v->nseries - 1) / 2) * step;
        if (!series_data(f, v, b, s, off, step, logy, floor))
            continue;
        const char *col = colour[s % NCOLOURS];
        char *n = n_text(v, b, s), *title = xasprintf("%s (%s)", v->series[s], n);
        sb_printf(&plot, "%s$p%zu using 1:2 with points pt 6 ps 0.8 lc rgb '%s' notitle, ", lines ? ", " : "plot ", s, col);
        sb_printf(&plot, "$m%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 1.3 lc rgb '%s' title ", s, col);
        sb_gp_string(&plot, title);
        sb_printf(&plot, ", $p%zu using 1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 2.5 lw 3 lc rgb 'red' notitle", s);
        free(n);
        free(title);
        lines++;
    }
    if (!lines) {
        fclose(f);
        remove(path);
        fprintf(stderr, "plot: %s, %s: no successful runs, no plot\n", v->bench, label);
    } else {
        plot_title(f, x, "mean of the ok runs (points: every run; bars: one standard deviation)", label, b->oversub,
                   nfail, sc.negative ? "NEGATIVE values (red x): no metric can be negative, an error" : why);
        gp_set(f, "xlabel", across_heading(x->an));
        gp_set(f, "ylabel", metric_axis_label(v->metric));
        gp_common(f);
        across_axis(f, v, step);
        fprintf(f, logy ? "set logscale y\nset autoscale y\n" : "set autoscale y\nset offsets 0, 0, graph 0.05, graph 0.05\n");
        gp_terminals(f, x->term, stem, plot.s);
        fclose(f);
        fprintf(plot_list, "%s\n", path);
        (*x->count)++;
    }
    free(why);
    free(path);
    free(stem);
    free(label);
    sb_free(&plot);
    return 0;
}

/* Each series' mean over the baseline's (the first series), per column.  Returns 0 or 1. */
static int write_ratio_plot(const struct plot_ctx *x, const struct block *b)
{
    const struct view *v = x->v;
    size_t na = v->nacross;
    if (v->nseries < 2)
        return 0;
    char *stem0 = block_stem(v, x->t, b), *stem = xasprintf("%s-ratio", stem0), *label = block_label(v, x->t, b);
    char *path = xasprintf("%s/%s.gp", x->o->out, stem);
    free(stem0);
    struct strbuf data = { 0 }, plot = { 0 };
    size_t lines = 0;
    for (size_t s = 1; s < v->nseries; s++) {
        struct strbuf d = { 0 };
        for (size_t a = 0; a < na; a++) {
            double base = cell_mean(&b->cell[a]), m = cell_mean(&b->cell[s * na + a]);
            if (isfinite(base) && isfinite(m) && base != 0)
                sb_printf(&d, "%.9g %.9g\n", x_of(v, a), m / base);
        }
        if (!d.s)
            continue;
        sb_printf(&data, "$r%zu << EOD\n%sEOD\n", s, d.s);
        sb_free(&d);
        sb_printf(&plot, "%s$r%zu using 1:2 with linespoints lw 2 pt 7 ps 1.3 lc rgb '%s' title ", lines ? ", " : "plot ", s,
                  colour[s % NCOLOURS]);
        char *t = xasprintf("%s / %s", v->series[s], v->series[0]);
        sb_gp_string(&plot, t);
        free(t);
        lines++;
    }
    int rc = 0;
    if (lines) {
        FILE *f = open_script(path);
        if (!f) {
            rc = 1;
        } else {
            fprintf(f, "# %s: %s of each series over %s, %s (written by schedlab plot)\n%s", v->bench, v->metric,
                    v->series[0], label, data.s);
            char *what = xasprintf("mean / mean of %s (%s)", v->series[0], direction_words(v->metric));
            plot_title(f, x, what, label, b->oversub, 0, NULL);
            free(what);
            gp_set(f, "xlabel", across_heading(x->an));
            char *yl = xasprintf("ratio to %s", v->series[0]);
            gp_set(f, "ylabel", yl);
            free(yl);
            gp_common(f);
            across_axis(f, v, 0);
            fprintf(f, "set autoscale y\nset offsets 0, 0, graph 0.08, graph 0.08\n");
            sb_add(&plot, ", 1 with lines lw 2 dt 2 lc rgb '#555555' title 'same as baseline'");
            gp_terminals(f, x->term, stem, plot.s);
            fclose(f);
            fprintf(plot_list, "%s\n", path);
            (*x->count)++;
        }
    }
    sb_free(&data);
    sb_free(&plot);
    free(path);
    free(stem);
    free(label);
    return rc;
}

/* Blocks that differ only in their CPU count (same scheduler and variant values). */
static bool same_but_smp(const struct view *v, const struct block *a, const struct block *b)
{
    if (!streq(a->sched, b->sched))
        return false;
    for (size_t p = 0; p < v->nvariant; p++)
        if (strcmp(a->vval[p], b->vval[p]))
            return false;
    return true;
}

/* The metric against the CPU count: one plot per column across and group of blocks. */
static int write_scaling_plots(const struct plot_ctx *x)
{
    const struct view *v = x->v;
    bool *done = xcalloc(v->nblk + 1, sizeof(bool));
    int rc = 0;
    for (size_t k = 0; k < v->nblk && rc == 0; k++) {
        if (done[k])
            continue;
        size_t *grp = xcalloc(v->nblk + 1, sizeof(size_t)), ng = 0;
        for (size_t j = k; j < v->nblk; j++)
            if (!done[j] && same_but_smp(v, &v->blk[k], &v->blk[j])) {
                done[j] = true;
                grp[ng++] = j;
            }
        for (size_t a = 0; ng >= 2 && a < v->nacross && rc == 0; a++) {
            struct strbuf data = { 0 }, plot = { 0 }, stem = { 0 }, label = { 0 };
            size_t lines = 0;
            double lo = INFINITY, hi = -INFINITY;
            for (size_t g = 0; g < ng; g++) {
                double smp = 0;
                parse_double(v->blk[grp[g]].smp, &smp);
                lo = smp < lo ? smp : lo;
                hi = smp > hi ? smp : hi;
            }
            for (size_t s = 0; s < v->nseries; s++) {
                struct strbuf d = { 0 };
                size_t nlo = (size_t)-1, nhi = 0;
                double off = ((double)s - (double)(v->nseries - 1) / 2) * 0.03 * (hi - lo) / (double)v->nseries;
                for (size_t g = 0; g < ng; g++) {
                    const struct block *b = &v->blk[grp[g]];
                    const struct cell *c = &b->cell[s * v->nacross + a];
                    if (!c->n)
                        continue;
                    struct summary sum;
                    double *vals = cell_values(c);
                    summarize(vals, c->n, &sum);
                    free(vals);
                    double sd = c->n >= 2 ? sum.sd : 0, smp = 0;
                    parse_double(b->smp, &smp);
                    sb_printf(&d, "%.9g %.9g %.9g %.9g\n", smp + off, sum.mean, sum.mean - sd, sum.mean + sd);
                    nlo = c->n < nlo ? c->n : nlo;
                    nhi = c->n > nhi ? c->n : nhi;
                }
                if (!d.s)
                    continue;
                sb_printf(&data, "$s%zu << EOD\n%sEOD\n", s, d.s);
                sb_free(&d);
                sb_printf(&plot, "%s$s%zu using 1:2:3:4 with yerrorlines lw 2 pt 7 ps 1.3 lc rgb '%s' title ",
                          lines ? ", " : "plot ", s, colour[s % NCOLOURS]);
                char *title = nlo == nhi ? xasprintf("%s (n=%zu)", v->series[s], nhi)
                                         : xasprintf("%s (n=%zu-%zu)", v->series[s], nlo, nhi);
                sb_gp_string(&plot, title);
                free(title);
                lines++;
            }
            const struct block *b0 = &v->blk[grp[0]];
            sb_printf(&stem, "%s-%s%s%s-scaling", v->bench, v->metric, b0->sched ? "-" : "", b0->sched ? b0->sched : "");
            if (v->across >= 0)
                sb_printf(&stem, "-%s=%s", x->an, v->across_v[a]);
            if (b0->sched)
                sb_printf(&label, "%s, ", b0->sched);
            sb_printf(&label, "%s=%s", x->an, v->across_v[a]);
            for (size_t p = 0; p < v->nvariant; p++) {
                sb_printf(&stem, "-%s=%s", x->t->col[v->variant[p]], b0->vval[p]);
                sb_printf(&label, ", %s=%s", x->t->col[v->variant[p]], b0->vval[p]);
            }
            char *fstem = file_stem(stem.s), *path = xasprintf("%s/%s.gp", x->o->out, fstem);
            FILE *f = lines ? open_script(path) : NULL;
            if (lines && !f)
                rc = 1;
            if (f) {
                fprintf(f, "# %s: %s against the CPU count, %s (written by schedlab plot)\n%s", v->bench, v->metric,
                        label.s, data.s);
                bool over = false;
                for (size_t g = 0; g < ng; g++)
                    over = over || v->blk[grp[g]].oversub;
                plot_title(f, x, "mean against the number of CPUs (bars: one standard deviation)", label.s, false, 0,
                           over ? "some CPU counts oversubscribed: more vCPUs than host cores" : NULL);
                gp_set(f, "xlabel", "CPUs (vCPUs of the guest)");
                gp_set(f, "ylabel", metric_axis_label(v->metric));
                gp_common(f);
                fprintf(f, "set xtics (");
                for (size_t g = 0; g < ng; g++)
                    fprintf(f, "%s%s", g ? ", " : "", v->blk[grp[g]].smp);
                fprintf(f, ")\nset offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\nset autoscale y\n");
                gp_terminals(f, x->term, fstem, plot.s);
                fclose(f);
                fprintf(plot_list, "%s\n", path);
                (*x->count)++;
            }
            free(fstem);
            free(path);
            sb_free(&data);
            sb_free(&plot);
            sb_free(&stem);
            sb_free(&label);
        }
        free(grp);
    }
    free(done);
    return rc;
}

/* Column a's runs in boot order, one line per series.  Returns 0 or 1. */
static int write_run_plot(const struct plot_ctx *x, const struct block *b, size_t a)
{
    const struct view *v = x->v;
    char *fstem = block_stem(v, x->t, b), *label = block_label(v, x->t, b);
    char *sstem = v->across >= 0 ? xasprintf("%s-runs-%s=%s", fstem, x->an, v->across_v[a]) : xasprintf("%s-runs", fstem);
    char *clean = file_stem(sstem);
    char *path = xasprintf("%s/%s.gp", x->o->out, clean);
    free(sstem);
    free(fstem);
    FILE *f = open_script(path);
    if (!f) {
        free(path);
        free(clean);
        free(label);
        return 1;
    }
    fprintf(f, "# %s: %s of every run, %s, %s=%s (written by schedlab plot)\n", v->bench, v->metric, label, x->an,
            v->across_v[a]);
    struct strbuf plot = { 0 };
    size_t lines = 0, nf = 0;
    for (size_t s = 0; s < v->nseries; s++) {
        const struct cell *c = &b->cell[s * v->nacross + a];
        nf += c->nfail;
        if (!c->n)
            continue;
        double *vals = cell_values(c);
        fprintf(f, "$r%zu << EOD\n", s);
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "%zu %.9g\n", i + 1, vals[i]);
        fprintf(f, "EOD\n");
        free(vals);
        char *title = xasprintf("%s (n=%zu)", v->series[s], c->n);
        sb_printf(&plot, "%s$r%zu using 1:2 with linespoints lw 2 pt 7 lc rgb '%s' title ", lines ? ", " : "plot ", s,
                  colour[s % NCOLOURS]);
        sb_gp_string(&plot, title);
        free(title);
        lines++;
    }
    char *where = v->across >= 0 ? xasprintf("%s, %s=%s", label, x->an, v->across_v[a]) : xstrdup(label);
    plot_title(f, x, "every run in boot order", where, b->oversub, nf, NULL);
    free(where);
    gp_set(f, "xlabel", "run (in boot order)");
    gp_set(f, "ylabel", metric_axis_label(v->metric));
    gp_common(f);
    fprintf(f, "set xtics 1\nset autoscale y\nset offsets graph 0.02, graph 0.02, graph 0.1, graph 0.1\n");
    gp_terminals(f, x->term, clean, plot.s);
    fclose(f);
    fprintf(plot_list, "%s\n", path);
    (*x->count)++;
    sb_free(&plot);
    free(path);
    free(clean);
    free(label);
    return 0;
}

/* The most ok runs of any cell of column a. */
static size_t column_max_runs(const struct view *v, const struct block *b, size_t a)
{
    size_t m = 0;
    for (size_t s = 0; s < v->nseries; s++)
        if (b->cell[s * v->nacross + a].n > m)
            m = b->cell[s * v->nacross + a].n;
    return m;
}

/* Column a with one run per cell: a "run index" across would be one dot per
 * series on the y axis, so each series is a labelled point of its own
 * (its value written beside it), the series across.  Returns 0 or 1. */
static int write_cell_plot(const struct plot_ctx *x, const struct block *b, size_t a)
{
    const struct view *v = x->v;
    char *fstem = block_stem(v, x->t, b), *label = block_label(v, x->t, b);
    char *sstem = v->across >= 0 ? xasprintf("%s-cells-%s=%s", fstem, x->an, v->across_v[a]) : xasprintf("%s-cells", fstem);
    char *clean = file_stem(sstem);
    char *path = xasprintf("%s/%s.gp", x->o->out, clean);
    free(sstem);
    free(fstem);
    FILE *f = open_script(path);
    if (!f) {
        free(path);
        free(clean);
        free(label);
        return 1;
    }
    fprintf(f, "# %s: %s, one run per cell, %s (written by schedlab plot)\n", v->bench, v->metric, label);
    struct strbuf plot = { 0 };
    size_t lines = 0, nf = 0;
    for (size_t s = 0; s < v->nseries; s++) {
        const struct cell *c = &b->cell[s * v->nacross + a];
        nf += c->nfail;
        if (!c->n)
            continue;
        double *vals = cell_values(c);
        fprintf(f, "$c%zu << EOD\n%zu %.9g \"%.4g\"\nEOD\n", s, s, vals[0], vals[0]);
        free(vals);
        sb_printf(&plot, "%s$c%zu using 1:2 with points pt 7 ps 2 lc rgb '%s' title ", lines ? ", " : "plot ", s,
                  colour[s % NCOLOURS]);
        sb_gp_string(&plot, v->series[s]);
        sb_printf(&plot, ", $c%zu using 1:2:3 with labels offset 0,1.4 tc rgb '%s' notitle", s, colour[s % NCOLOURS]);
        lines++;
    }
    char *where = v->across >= 0 ? xasprintf("%s, %s=%s", label, x->an, v->across_v[a]) : xstrdup(label);
    plot_title(f, x, "one run per cell", where, b->oversub, nf, NULL);
    free(where);
    gp_set(f, "xlabel", x->o->ndirs > 1 ? "results directory" : "scheduler");
    gp_set(f, "ylabel", metric_axis_label(v->metric));
    gp_common(f);
    fprintf(f, "set xrange [-0.7:%zu.7]\nset xtics (", v->nseries - 1);
    for (size_t s = 0; s < v->nseries; s++) {
        fprintf(f, "%s", s ? ", " : "");
        gp_string(f, v->series[s]);
        fprintf(f, " %zu", s);
    }
    fprintf(f, ")\nset yrange [0:*]\nset offsets 0, 0, graph 0.15, 0\n");
    gp_terminals(f, x->term, clean, plot.s);
    fclose(f);
    fprintf(plot_list, "%s\n", path);
    (*x->count)++;
    sb_free(&plot);
    free(path);
    free(clean);
    free(label);
    return 0;
}

/* Wake-up latency as the kernel prints it, p50 to max: one plot per block
 * (and column across), the percentiles across, one line per series (the
 * mean of its ok runs at each percentile), microseconds on a log axis. */
static const char *const pct_col[] = { "p50_us", "p90_us", "p99_us", "p999_us", "max_us" };
static const char *const pct_name[] = { "p50", "p90", "p99", "p99.9", "max" };
#define NPCT (sizeof(pct_col) / sizeof(pct_col[0]))

static int write_percentile_plots(const struct plot_ctx *x)
{
    const struct view *v = x->v;
    const struct table *t = x->t;
    int pc[NPCT], have = 0;
    for (size_t i = 0; i < NPCT; i++)
        have += (pc[i] = table_col(t, pct_col[i])) >= 0;
    if (have < 3)
        return 0;
    const char *scol = x->o->ndirs > 1 ? "source" : "sched";
    int sc = table_col(t, scol), bc = table_col(t, "bench"), stc = table_col(t, "status"), smpc = table_col(t, "smp"),
        schc = table_col(t, "sched");
    for (size_t k = 0; k < v->nblk; k++) {
        const struct block *b = &v->blk[k];
        for (size_t a = 0; a < (v->nacross ? v->nacross : 1); a++) {
            struct strbuf data = { 0 }, plot = { 0 };
            size_t lines = 0;
            for (size_t s = 0; s < v->nseries; s++) {
                double sum[NPCT] = { 0 };
                size_t n[NPCT] = { 0 };
                for (size_t r = 0; r < t->nrows; r++) {
                    if (!streq(table_get(t, r, bc), v->bench) || !streq(table_get(t, r, stc), "ok") ||
                        !streq(table_get(t, r, sc), v->series[s]) || !streq(table_get(t, r, smpc), b->smp) ||
                        (b->sched && !streq(table_get(t, r, schc), b->sched)) ||
                        (v->across >= 0 && !streq(table_get(t, r, v->across), v->across_v[a])))
                        continue;
                    bool match = true;
                    for (size_t p = 0; p < v->nvariant && match; p++)
                        match = streq(table_get(t, r, v->variant[p]), b->vval[p]);
                    for (size_t i = 0; match && i < NPCT; i++) {
                        double y;
                        if (pc[i] >= 0 && parse_double(table_get(t, r, pc[i]), &y) && y > 0) {
                            sum[i] += y;
                            n[i]++;
                        }
                    }
                }
                struct strbuf d = { 0 };
                size_t runs = 0;
                for (size_t i = 0; i < NPCT; i++)
                    if (n[i]) {
                        sb_printf(&d, "%zu %.9g\n", i, sum[i] / (double)n[i]);
                        runs = n[i] > runs ? n[i] : runs;
                    }
                if (!d.s)
                    continue;
                sb_printf(&data, "$l%zu << EOD\n%sEOD\n", s, d.s);
                sb_free(&d);
                char *title = xasprintf("%s (%s%zu run%s)", v->series[s], runs > 1 ? "mean of " : "", runs,
                                        runs == 1 ? "" : "s");
                sb_printf(&plot, "%s$l%zu using 1:2 with linespoints lw 2 pt 7 ps 1.3 lc rgb '%s' title ",
                          lines ? ", " : "plot ", s, colour[s % NCOLOURS]);
                sb_gp_string(&plot, title);
                free(title);
                lines++;
            }
            if (lines) {
                char *bstem = block_stem(v, t, b), *label = block_label(v, t, b);
                char *stem0 = v->across >= 0 ? xasprintf("%s-percentiles-%s=%s", bstem, x->an, v->across_v[a])
                                             : xasprintf("%s-percentiles", bstem);
                /* not the metric's name: the plot is of every percentile */
                char *m = strstr(stem0, v->metric);
                char *stem1 = m ? xasprintf("%.*slatency%s", (int)(m - stem0), stem0, m + strlen(v->metric)) : xstrdup(stem0);
                char *stem = file_stem(stem1), *path = xasprintf("%s/%s.gp", x->o->out, stem);
                FILE *f = open_script(path);
                if (f) {
                    fprintf(f, "# %s: wake-up latency p50 to max, %s (written by schedlab plot)\n%s", v->bench, label,
                            data.s);
                    char *where = v->across >= 0 ? xasprintf("%s, %s=%s", label, x->an, v->across_v[a]) : xstrdup(label);
                    struct strbuf t2 = { 0 };
                    sb_printf(&t2, "wake-up latency (bench=%s), %s%s: percentiles p50 to max", v->bench, where,
                              b->oversub ? " (oversubscribed)" : "");
                    gp_set(f, "title", t2.s);
                    sb_free(&t2);
                    free(where);
                    gp_set(f, "xlabel", "percentile of the run's wake-ups");
                    gp_set(f, "ylabel", "wake-up latency (\xc2\xb5s, log scale)");
                    gp_common(f);
                    fprintf(f, "set xrange [-0.4:%zu.4]\nset xtics (", NPCT - 1);
                    for (size_t i = 0; i < NPCT; i++)
                        fprintf(f, "%s'%s' %zu", i ? ", " : "", pct_name[i], i);
                    fprintf(f, ")\nset logscale y\nset autoscale y\nset offsets 0, 0, graph 0.05, graph 0.05\n");
                    gp_terminals(f, x->term, stem, plot.s);
                    fclose(f);
                    fprintf(plot_list, "%s\n", path);
                    (*x->count)++;
                }
                free(bstem);
                free(label);
                free(stem0);
                free(stem1);
                free(stem);
                free(path);
                if (!f) {
                    sb_free(&data);
                    sb_free(&plot);
                    return 1;
                }
            }
            sb_free(&data);
            sb_free(&plot);
        }
    }
    return 0;
}

static bool column_has_runs(const struct view *v, const struct block *b, size_t a)
{
    for (size_t s = 0; s < v->nseries; s++)
        if (b->cell[s * v->nacross + a].n)
            return true;
    return false;
}

/* Writes one .gp file per plot into o->out; prints their names. */
static int plot_view(const struct plot_ctx *x)
{
    const struct view *v = x->v;
    int rc = 0;
    for (size_t k = 0; k < v->nblk && rc == 0; k++) {
        const struct block *b = &v->blk[k];
        if (v->nacross >= 2 || !series_plot_wanted(v))
            rc = write_mean_plot(x, b);
        if (rc == 0 && v->nacross >= 2)
            rc = write_ratio_plot(x, b);
        for (size_t a = 0; rc == 0 && series_plot_wanted(v) && a < v->nacross; a++)
            if (column_max_runs(v, b, a) == 1)
                rc = write_cell_plot(x, b, a);
            else if (column_has_runs(v, b, a))
                rc = write_run_plot(x, b, a);
    }
    if (rc == 0)
        rc = write_scaling_plots(x);
    if (rc == 0)
        rc = write_percentile_plots(x);
    return rc;
}

static int plot_bench(const struct opts *o, const struct table *t, const char *bench, size_t *count)
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
        fprintf(stderr, "plot: %s has no metric, no plot\n", bench);
    } else {
        struct plot_ctx x = { &v, t, o, o->png_term ? o->png_term : "pngcairo", across_name(&v, t), note, count };
        rc = plot_view(&x);
    }
    free(note);
    view_free(&v);
    return rc;
}

/* Writes the scripts of every selected workload into o->out; their names into plot_list. */
static int write_scripts(struct opts *o)
{
    struct table t = { 0 };
    int rc = load(o, &t, NULL);
    size_t nb = 0, count = 0;
    const char **benches = rc ? NULL : selected_benches(o, &t, &nb);
    if (!rc && nb == 0) {
        errorf(o->bench ? "no %s results" : "no results at all%s", o->bench ? o->bench : "");
        rc = 1;
    }
    for (size_t i = 0; !rc && i < nb; i++)
        rc = plot_bench(o, &t, benches[i], &count);
    free(benches);
    table_free(&t);
    return rc;
}

/* pngcairo when gnuplot has it (anti-aliased), else png */
static const char *png_terminal(void)
{
    char *argv[] = { "gnuplot", NULL };
    char path[] = "/tmp/schedlab-gpterm.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return "png";
    if (write(fd, "set terminal pngcairo\n", 22) != 22) {
        close(fd);
        unlink(path);
        return "png";
    }
    close(fd);
    struct spawn_io io = { .in = path, .out = "/dev/null", .err = "/dev/null" };
    int rc = spawn_run(argv, &io);
    unlink(path);
    return rc == 0 ? "pngcairo" : "png";
}

int plot_into(struct opts *o, const char *pdir, FILE *pngs)
{
    struct stat st;
    if (stat(pdir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        errorf("%s exists and is not a directory", pdir);
        return 1;
    }
    char *mk[] = { "mkdir", "-p", "--", (char *)pdir, NULL };
    struct spawn_io quiet = { .out = "/dev/null", .err = "/dev/null" };
    if (spawn_run(mk, &quiet) != 0) {
        errorf("cannot create the directory %s", pdir);
        return 1;
    }
    char *which[] = { "sh", "-c", "command -v gnuplot >/dev/null 2>&1", NULL };
    if (spawn_run(which, NULL) != 0) {
        errorf("gnuplot not found (make deps)");
        return 1;
    }
    o->out = pdir;
    if (!o->png_term)
        o->png_term = png_terminal();
    plot_list = tmpfile();
    if (!plot_list) {
        errorf("tmpfile: %s", strerror(errno));
        return 1;
    }
    int rc = write_scripts(o);
    rewind(plot_list);
    char line[4096];
    while (fgets(line, sizeof(line), plot_list)) {
        line[strcspn(line, "\n")] = 0;
        if (!*line)
            continue;
        const char *slash = strrchr(line, '/');
        char *base = xstrdup(slash ? slash + 1 : line);
        size_t bl = strlen(base);
        if (bl > 3 && !strcmp(base + bl - 3, ".gp"))
            base[bl - 3] = 0;
        char *gp = xasprintf("%s.gp", base), *logf = xasprintf("%s/%s.gnuplot.log", pdir, base);
        char *argv[] = { "gnuplot", gp, NULL };
        struct spawn_io io = { .out = logf, .err_to_out = true, .dir = pdir };
        if (spawn_run(argv, &io) == 0) {
            unlink(logf);
            if (pngs)
                fprintf(pngs, "%s/%s.png\n", pdir, base);
        } else {
            size_t len;
            char *log = read_file(logf, &len);
            errorf("gnuplot failed on %s:", line);
            for (char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
                fprintf(stderr, "    %.*s\n", (int)strcspn(l, "\n"), l);
            free(log);
            rc = 1;
        }
        free(gp);
        free(logf);
        free(base);
    }
    fclose(plot_list);
    plot_list = NULL;
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (rc) {
        cli_free(&o);
        return cli_exit(rc);
    }
    if (o.ndirs == 0) {
        cli_free(&o);
        return usage_error("%s", "plot needs a results directory");
    }
    /* DIR/plots, or beside a CSV file given instead of a directory */
    struct stat st;
    char *pdir = o.out ? xstrdup(o.out) : NULL;
    if (!pdir) {
        if (stat(o.dirs[0], &st) == 0 && S_ISDIR(st.st_mode))
            pdir = xasprintf("%s/plots", o.dirs[0]);
        else {
            char *d = xstrdup(o.dirs[0]);
            char *slash = strrchr(d, '/');
            if (slash)
                *slash = 0;
            pdir = xasprintf("%s/plots", slash ? d : ".");
            free(d);
        }
    }
    FILE *pngs = tmpfile();
    rc = plot_into(&o, pdir, pngs);
    size_t count = 0;
    if (pngs) {
        rewind(pngs);
        char line[4096];
        while (fgets(line, sizeof(line), pngs)) {
            line[strcspn(line, "\n")] = 0;
            printf("%s (and .svg)\n", line);
            count++;
        }
        fclose(pngs);
    }
    if (!rc || count)
        fprintf(stderr, "schedlab: %zu plot(s) in %s\n", count, pdir);
    free(pdir);
    cli_free(&o);
    return rc;
}
