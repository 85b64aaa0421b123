/*
 * plot --out PLOTDIR DIR...: gnuplot scripts (PNG + SVG) into PLOTDIR, one
 * per CPU count: the metric against the swept parameter with stddev error
 * bars, and per-run series (as in seed 001) for pipe, lat_ctx and any
 * workload with one column.  tools/schedlab runs gnuplot on them.
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct verb_spec spec = {
    "plot", OPT_BENCH | OPT_METRIC | OPT_ACROSS | OPT_BASE | OPT_LABELS | OPT_OUT | OPT_PNG_TERM,
    "usage: schedlab-tool plot --out PLOTDIR DIR... [--bench B] [--metric M] [--across KEY] [--base SCHED]\n"
    "                          [--labels A,B] [--png-term TERM]\n"
    "  Writes one gnuplot script (PNG and SVG output) per plot into PLOTDIR (which must\n"
    "  exist) and prints their names; tools/schedlab plot runs gnuplot on them.\n"
    "  Exit: 0, 1 bad input, 2 usage error.\n",
};

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

/* The same, appended to a plot command. */
static void sb_gp_string(struct strbuf *plot, const char *s)
{
    sb_add(plot, "'");
    for (const char *c = s; *c; c++)
        sb_add(plot, *c == '\'' ? "''" : (char[2]){ *c, 0 });
    sb_add(plot, "'");
}

static void gp_terminals(FILE *f, const char *png_term, const char *stem, const char *plotcmd)
{
    fprintf(f, "set terminal %s size 900,560 noenhanced\nset output ", png_term);
    gp_string(f, stem);
    fprintf(f, " . '.png'\n%s\nset output\n", plotcmd);
    fprintf(f, "set terminal svg size 900,560 noenhanced\nset output ");
    gp_string(f, stem);
    fprintf(f, " . '.svg'\n%s\nset output\n", plotcmd);
}

static bool series_plot_wanted(const struct view *v)
{
    return !strcmp(v->bench, "pipe") || !strcmp(v->bench, "lat_ctx") || v->nacross <= 1;
}

/* What every plot of one block needs. */
struct plot_ctx {
    const struct view *v;
    const struct table *t;
    const struct block *b;
    const char *outdir, *term, *an;
    char *label, *fstem;
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

static FILE *open_script(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        errorf("%s: %s", path, strerror(errno));
    return f;
}

/* The $dN data blocks of the mean plot and its plot command; returns the line count. */
static size_t mean_plot_data(FILE *f, const struct plot_ctx *x, struct strbuf *plot)
{
    const struct view *v = x->v;
    size_t na = v->nacross, lines = 0;
    for (size_t s = 0; s < v->nseries; s++) {
        bool any = false;
        for (size_t a = 0; a < na; a++)
            any = any || x->b->cell[s * na + a].n;
        if (!any)
            continue;
        fprintf(f, "$d%zu << EOD\n", s);
        for (size_t a = 0; a < na; a++) {
            const struct cell *c = &x->b->cell[s * na + a];
            if (!c->n)
                continue;   /* a failed cell: no point (the title counts them) */
            struct summary sum;
            double *vals = cell_values(c);
            summarize(vals, c->n, &sum);
            free(vals);
            fprintf(f, "%zu %s \"%s\" %.9g %.9g\n", a, v->across_numeric ? v->across_v[a] : "0", v->across_v[a], sum.mean,
                    c->n >= 2 ? sum.sd : 0.0);
        }
        fprintf(f, "EOD\n");
        sb_printf(plot, "%s$d%zu using %s:4:5%s with yerrorlines lw 2 pt 7 title ", lines ? ", " : "plot ", s,
                  v->across_numeric ? "2" : "1", v->across_numeric ? "" : ":xtic(3)");
        sb_gp_string(plot, v->series[s]);
        lines++;
    }
    return lines;
}

static void mean_plot_settings(FILE *f, const struct plot_ctx *x, size_t nfail)
{
    const struct view *v = x->v;
    size_t na = v->nacross;
    fprintf(f, "set title ");
    char *title = xasprintf("%s: %s, %s%s%s", v->bench, v->metric, x->label, x->b->oversub ? " (oversubscribed)" : "",
                            nfail ? " - some runs FAILED and are not plotted" : "");
    gp_string(f, title);
    free(title);
    fprintf(f, "\nset xlabel ");
    gp_string(f, x->an);
    fprintf(f, "\nset ylabel ");
    char *yl = xasprintf("%s (mean, error bars: stddev)", v->metric);
    gp_string(f, yl);
    free(yl);
    fprintf(f, "\nset grid\nset key top left\nset yrange [0:*]\n");
    if (!v->across_numeric) {
        fprintf(f, "set xrange [-0.5:%zu.5]\n", na - 1);
        return;
    }
    fprintf(f, "set offsets graph 0.03, graph 0.03, 0, 0\n");
    if (na <= 16) {
        fprintf(f, "set xtics (");
        for (size_t a = 0; a < na; a++)
            fprintf(f, "%s%s", a ? ", " : "", v->across_v[a]);
        fprintf(f, ")\n");
    }
}

/* The metric against the swept parameter, error bars = stddev.  Returns 0 or 1. */
static int write_mean_plot(const struct plot_ctx *x)
{
    const struct view *v = x->v;
    size_t nfail = 0;
    for (size_t i = 0; i < v->nseries * v->nacross; i++)
        nfail += x->b->cell[i].nfail;
    char *path = xasprintf("%s/%s.gp", x->outdir, x->fstem);
    FILE *f = open_script(path);
    if (!f) {
        free(path);
        return 1;
    }
    fprintf(f, "# %s: %s against %s, %s (written by schedlab plot)\n", v->bench, v->metric, x->an, x->label);
    struct strbuf plot = { 0 };
    if (!mean_plot_data(f, x, &plot)) {
        fclose(f);
        remove(path);
        fprintf(stderr, "plot: %s, %s: no successful runs, no plot\n", v->bench, x->label);
    } else {
        mean_plot_settings(f, x, nfail);
        gp_terminals(f, x->term, x->fstem, plot.s);
        fclose(f);
        printf("%s\n", path);
        (*x->count)++;
    }
    free(path);
    sb_free(&plot);
    return 0;
}

/* The $rN data blocks of one column's per-run plot; returns the line count, failed runs in *nf. */
static size_t run_plot_data(FILE *f, const struct plot_ctx *x, size_t a, struct strbuf *plot, size_t *nf)
{
    const struct view *v = x->v;
    size_t lines = 0;
    *nf = 0;
    for (size_t s = 0; s < v->nseries; s++) {
        const struct cell *c = &x->b->cell[s * v->nacross + a];
        *nf += c->nfail;
        if (!c->n)
            continue;
        double *vals = cell_values(c);
        fprintf(f, "$r%zu << EOD\n", s);
        for (size_t i = 0; i < c->n; i++)
            fprintf(f, "%zu %.9g\n", i + 1, vals[i]);
        fprintf(f, "EOD\n");
        free(vals);
        sb_printf(plot, "%s$r%zu using 1:2 with linespoints lw 2 pt 7 title ", lines ? ", " : "plot ", s);
        sb_gp_string(plot, v->series[s]);
        lines++;
    }
    return lines;
}

/* Column a's runs in boot order, one line per series.  Returns 0 or 1. */
static int write_run_plot(const struct plot_ctx *x, size_t a)
{
    const struct view *v = x->v;
    char *sstem = v->nacross > 1 || v->across >= 0 ? xasprintf("%s-runs-%s=%s", x->fstem, x->an, v->across_v[a])
                                                   : xasprintf("%s-runs", x->fstem);
    char *clean = file_stem(sstem);
    free(sstem);
    char *path = xasprintf("%s/%s.gp", x->outdir, clean);
    FILE *f = open_script(path);
    if (!f) {
        free(path);
        free(clean);
        return 1;
    }
    fprintf(f, "# %s: %s of every run, %s, %s=%s (written by schedlab plot)\n", v->bench, v->metric, x->label, x->an,
            v->across_v[a]);
    struct strbuf plot = { 0 };
    size_t nf;
    run_plot_data(f, x, a, &plot, &nf);
    fprintf(f, "set title ");
    char *where = v->across >= 0 ? xasprintf(" %s=%s", x->an, v->across_v[a]) : xstrdup("");
    char *title = xasprintf("%s%s: %s per run, %s%s%s", v->bench, where, v->metric, x->label,
                            x->b->oversub ? " (oversubscribed)" : "", nf ? " - FAILED runs not plotted" : "");
    free(where);
    gp_string(f, title);
    free(title);
    fprintf(f, "\nset xlabel 'run (in boot order)'\nset ylabel ");
    gp_string(f, v->metric);
    fprintf(f, "\nset grid\nset key top right\nset xtics 1\nset offsets graph 0.02, graph 0.02, graph 0.1, graph 0.1\n");
    gp_terminals(f, x->term, clean, plot.s);
    fclose(f);
    printf("%s\n", path);
    (*x->count)++;
    sb_free(&plot);
    free(path);
    free(clean);
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
static int plot_view(const struct view *v, const struct table *t, const struct opts *o, size_t *count)
{
    int rc = 0;
    for (size_t k = 0; k < v->nblk && rc == 0; k++) {
        struct plot_ctx x = { v, t, &v->blk[k], o->out, o->png_term ? o->png_term : "pngcairo", across_name(v, t),
                              block_label(v, t, &v->blk[k]), block_stem(v, t, &v->blk[k]), count };
        if (v->nacross >= 2 || !series_plot_wanted(v))
            rc = write_mean_plot(&x);
        for (size_t a = 0; rc == 0 && series_plot_wanted(v) && a < v->nacross; a++)
            if (column_has_runs(v, x.b, a))
                rc = write_run_plot(&x, a);
        free(x.fstem);
        free(x.label);
    }
    return rc;
}

static int plot_bench(const struct opts *o, const struct table *t, const char *bench, size_t *count)
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
        fprintf(stderr, "plot: %s has no metric, no plot\n", bench);
    } else {
        rc = plot_view(&v, t, o, count);
    }
    view_free(&v);
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
    if (!o.out) {
        cli_free(&o);
        return usage_error("%s", "plot needs --out PLOTDIR");
    }
    struct stat st;
    if (stat(o.out, &st) != 0 || !S_ISDIR(st.st_mode)) {
        errorf("%s: not a directory", o.out);
        cli_free(&o);
        return 1;
    }
    struct table t = { 0 };
    rc = load(&o, &t, NULL);
    size_t nb = 0, count = 0;
    const char **benches = rc ? NULL : selected_benches(&o, &t, &nb);
    if (!rc && nb == 0) {
        errorf(o.bench ? "no %s results" : "no results at all%s", o.bench ? o.bench : "");
        rc = 1;
    }
    for (size_t i = 0; !rc && i < nb; i++)
        rc = plot_bench(&o, &t, benches[i], &count);
    free(benches);
    table_free(&t);
    cli_free(&o);
    return rc;
}
