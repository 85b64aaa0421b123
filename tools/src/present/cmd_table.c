/*
 * table DIR...: the seed's layout (seed 000): the swept parameter across, a
 * block per CPU count, a line per scheduler with the mean of its ok runs and
 * a ratio line; failed runs are marked, listed and never averaged in.
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
    "table", OPT_BENCH | OPT_METRIC | OPT_ACROSS | OPT_BASE | OPT_STDDEV | OPT_CV | OPT_LABELS | OPT_ALLOW_DIFF |
                 OPT_FORMAT,
    "usage: schedlab table DIR... [--stddev] [--cv] [--bench B] [--metric M] [--across KEY] [--base SCHED]\n"
    "                           [--labels A,B,...] [--allow-diff KEY[,KEY]] [--format text|html]\n"
    "  The seed's layout: the swept parameter across, a block per CPU count, a line per\n"
    "  scheduler (mean of its ok runs) and a ratio line.  Failed runs are marked with *,\n"
    "  listed with their reasons and never averaged in.  Several DIRs: a line per directory;\n"
    "  they must match in everything but the directory (workload parameters, build settings,\n"
    "  accel, memory, git revision, the boot line's fields), or --allow-diff KEY names what may\n"
    "  differ.  DIR may also be a CSV file (results.csv, schedstat.csv).  --format html: an\n"
    "  HTML <table> (for the report).  Exit: 0, 1 bad input or not comparable, 2 usage error.\n",    NULL,
};

/* A table line: a label and one text per column, or a heading/rule (no cells). */
struct line {
    char *label;
    char **cell;
};

struct lines {
    struct line *l;
    size_t n, ncells;
};

static void add_line(struct lines *ls, char *label, char **cells)
{
    ls->l = xrealloc(ls->l, (ls->n + 1) * sizeof(*ls->l));
    ls->l[ls->n].label = label;
    ls->l[ls->n].cell = cells;
    ls->n++;
}

static void free_cells(char **cells, size_t n)
{
    for (size_t a = 0; cells && a < n; a++)
        free(cells[a]);
    free(cells);
}

static void free_lines(struct lines *ls)
{
    for (size_t i = 0; i < ls->n; i++) {
        free(ls->l[i].label);
        if (ls->l[i].cell)
            free_cells(ls->l[i].cell, ls->ncells);
    }
    free(ls->l);
}

/* The same lines as an HTML table: the first line is the header, a heading
 * spans the row, rules are left out. */
static void print_lines_html(FILE *f, const struct lines *ls)
{
    fputs("<table class=\"results\">\n", f);
    for (size_t i = 0; i < ls->n; i++) {
        const struct line *l = &ls->l[i];
        const char *label = l->label + strspn(l->label, " ");
        if (!l->cell) {
            if (label[0] && label[0] != '-') {
                fprintf(f, "<tr class=\"block\"><th colspan=\"%zu\">", ls->ncells + 1);
                html_escape(f, label);
                fputs("</th></tr>\n", f);
            }
            continue;
        }
        const char *tag = i == 0 ? "th" : "td";
        fprintf(f, "<tr%s><th class=\"%s\">", i == 0 ? " class=\"head\"" : "", l->label[0] == ' ' && l->label[3] == ' ' ? "sub" : "line");
        html_escape(f, label);
        fputs("</th>", f);
        for (size_t a = 0; a < ls->ncells; a++) {
            fprintf(f, "<%s class=\"num\">", tag);
            html_escape(f, l->cell[a]);
            fprintf(f, "</%s>", tag);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void print_lines(FILE *f, const struct lines *ls, size_t lw, size_t cw)
{
    for (size_t i = 0; i < ls->n; i++) {
        if (!ls->l[i].cell) {   /* a heading */
            fprintf(f, "%s\n", ls->l[i].label);
            continue;
        }
        fprintf(f, "%-*s", (int)lw, ls->l[i].label);
        for (size_t a = 0; a < ls->ncells; a++)
            fprintf(f, "%*s", (int)cw, ls->l[i].cell[a] ? ls->l[i].cell[a] : "");
        fputc('\n', f);
    }
}

/* The first line: what the numbers are and how many runs each cell has. */
static void print_heading(FILE *f, const struct view *v, bool html)
{
    const char *words = metric_words(v->metric);
    size_t minruns = (size_t)-1, maxruns = 0;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * v->nacross; i++) {
            const struct cell *c = &v->blk[k].cell[i];
            if (c->n + c->nfail == 0)
                continue;
            minruns = c->n + c->nfail < minruns ? c->n + c->nfail : minruns;
            maxruns = c->n + c->nfail > maxruns ? c->n + c->nfail : maxruns;
        }
    fprintf(f, "%s%s: %s%s%s%s, %s; each cell is the mean of ", html ? "<p>" : "", v->bench, v->metric, words ? " (" : "",
            words ? words : "", words ? ")" : "", direction_words(v->metric));
    if (minruns == maxruns)
        fprintf(f, "its ok runs (of %zu runs per cell)", maxruns);
    else
        fprintf(f, "its ok runs (of %zu to %zu runs per cell)", minruns == (size_t)-1 ? 0 : minruns, maxruns);
    fputs(html ? "</p>\n" : "\n\n", f);
}

struct table_ctx {
    const struct view *v;
    const struct table *t;
    const struct opts *o;
    int dec_mean, dec_sd;
};

static bool series_present(const struct view *v, const struct block *b, size_t s)
{
    for (size_t a = 0; a < v->nacross; a++)
        if (b->cell[s * v->nacross + a].n + b->cell[s * v->nacross + a].nfail > 0)
            return true;
    return false;
}

static char *percent(double x)
{
    char *num = fmt_number(x, 2), *text = xasprintf("%s%%", num);
    free(num);
    return text;
}

/* A series' mean line (and stddev / cv lines); its means go to mean[]. */
static void add_series_lines(struct lines *ls, const struct table_ctx *x, const struct block *b, size_t s, double *mean)
{
    size_t na = x->v->nacross;
    char **cells = xcalloc(na + 1, sizeof(char *));
    char **sd = x->o->stddev ? xcalloc(na + 1, sizeof(char *)) : NULL;
    char **cv = x->o->cv ? xcalloc(na + 1, sizeof(char *)) : NULL;
    for (size_t a = 0; a < na; a++) {
        const struct cell *c = &b->cell[s * na + a];
        struct summary sum;
        double *vals = cell_values(c);
        summarize(vals, c->n, &sum);
        free(vals);
        mean[a] = sum.mean;
        cells[a] = cell_text(c, sum.mean, x->dec_mean);
        if (sd)
            sd[a] = c->n >= 2 ? fmt_number(sum.sd, x->dec_sd) : xstrdup("-");
        if (cv)
            cv[a] = c->n >= 2 && isfinite(sum.cv) ? percent(sum.cv) : xstrdup("-");
    }
    add_line(ls, xasprintf("   %s", x->v->series[s]), cells);
    if (sd)
        add_line(ls, xstrdup("     stddev"), sd);
    if (cv)
        add_line(ls, xstrdup("     coeff. of variation"), cv);
}

/* Ratio lines: each scheduler against the first (base_mean). */
static void add_ratio_lines(struct lines *ls, const struct view *v, const struct block *b, const double *base_mean)
{
    size_t na = v->nacross;
    for (size_t s = 1; s < v->nseries; s++) {
        char **cells = xcalloc(na + 1, sizeof(char *));
        bool any = false;
        for (size_t a = 0; a < na; a++) {
            double m = cell_mean(&b->cell[s * na + a]);
            if (isfinite(m) && isfinite(base_mean[a]) && base_mean[a] != 0) {
                cells[a] = fmt_number(m / base_mean[a], 2);
                any = true;
            } else {
                cells[a] = xstrdup("-");
            }
        }
        if (any)
            add_line(ls, xasprintf("   %s/%s", v->series[s], v->series[0]), cells);
        else   /* nothing to compare */
            free_cells(cells, na);
    }
}

/* With one scheduler: each column against the first column (how the time grows). */
static void add_growth_line(struct lines *ls, const struct view *v, const struct table *t, const double *base_mean)
{
    size_t na = v->nacross;
    if (na < 2 || !isfinite(base_mean[0]) || base_mean[0] == 0)
        return;
    char **cells = xcalloc(na + 1, sizeof(char *));
    for (size_t a = 0; a < na; a++)
        cells[a] = isfinite(base_mean[a]) ? fmt_number(base_mean[a] / base_mean[0], 2) : xstrdup("-");
    add_line(ls, xasprintf("   ratio to %s=%s", across_name(v, t), v->across_v[0]), cells);
}

static void add_block(struct lines *ls, const struct table_ctx *x, const struct block *b)
{
    const struct view *v = x->v;
    char *label = block_label(v, x->t, b);
    add_line(ls, b->oversub ? xasprintf("%s  (oversubscribed)", label) : xstrdup(label), NULL);
    free(label);
    double *base_mean = xcalloc(v->nacross + 1, sizeof(double));
    double *mean = xcalloc(v->nacross + 1, sizeof(double));
    for (size_t s = 0; s < v->nseries; s++) {
        if (!series_present(v, b, s))
            continue;
        add_series_lines(ls, x, b, s, s == 0 ? base_mean : mean);
    }
    if (v->nseries >= 2)
        add_ratio_lines(ls, v, b, base_mean);
    else
        add_growth_line(ls, v, x->t, base_mean);
    free(mean);
    free(base_mean);
    add_line(ls, xstrdup(""), NULL);   /* rule */
}

/* Label and column widths; the empty headings from rule_at on become rules. */
static void layout(struct lines *ls, size_t rule_at, size_t *lw, size_t *cw)
{
    *lw = 0;
    *cw = 8;
    for (size_t i = 0; i < ls->n; i++) {
        if (!ls->l[i].cell)
            continue;
        *lw = strlen(ls->l[i].label) > *lw ? strlen(ls->l[i].label) : *lw;
        for (size_t a = 0; a < ls->ncells; a++)
            if (ls->l[i].cell[a] && strlen(ls->l[i].cell[a]) + 2 > *cw)
                *cw = strlen(ls->l[i].cell[a]) + 2;
    }
    *lw += 2;
    size_t rule = *lw + *cw * ls->ncells;
    for (size_t i = rule_at; i < ls->n; i++)
        if (!ls->l[i].cell && ls->l[i].label[0] == '\0') {
            free(ls->l[i].label);
            ls->l[i].label = xmalloc(rule + 1);
            memset(ls->l[i].label, '-', rule);
            ls->l[i].label[rule] = '\0';
        }
}

static void print_notes(FILE *f, const struct view *v, const struct table *t, bool html)
{
    bool marks = false;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = f;
    if (html && !(f = open_memstream(&buf, &len)))
        f = out, html = false;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * v->nacross; i++)
            marks = marks || v->blk[k].cell[i].nfail;
    if (marks)
        fprintf(f, "* some runs of this cell failed and are left out of the mean; FAILED: no run succeeded\n");
    if (v->oversub_any)
        fprintf(f, "(oversubscribed): more vCPUs than host cores, so vCPUs time-share cores; parallel speed-up is not real\n");
    if (v->nseries >= 2)
        fprintf(f, "ratio lines: the mean of each line divided by the mean of %s (same column)\n", v->series[0]);
    if (v->nnotrun)
        fprintf(f, "%zu runs not run (their boots never started: tools/schedlab run --resume DIR finishes the matrix)\n",
                v->nnotrun);
    print_cell_failures(f, v, t);
    if (html) {
        fclose(f);
        if (len) {   /* notes are sentences, one a line: a list, not preformatted text */
            fputs("<ul class=\"notes\">\n", out);
            for (char *l = buf; *l;) {
                char *nl = strchr(l, '\n');
                if (nl)
                    *nl = '\0';
                if (*l) {
                    fputs("<li>", out);
                    html_escape(out, l);
                    fputs("</li>\n", out);
                }
                if (!nl)
                    break;
                l = nl + 1;
            }
            fputs("</ul>\n", out);
        }
        free(buf);
    }
}

static void print_view_table(FILE *f, const struct view *v, const struct table *t, const struct opts *o,
                             const char *note)
{
    struct table_ctx x = { v, t, o, 0, 0 };
    bool html = streq(o->format, "html");
    view_decimals(v, &x.dec_mean, &x.dec_sd);
    print_heading(f, v, html);
    if (note)
        fprintf(f, html ? "<p class=\"allowed\">%s</p>\n" : "%s\n\n", note);
    struct lines ls = { NULL, 0, v->nacross };
    char **head = xcalloc(v->nacross + 1, sizeof(char *));
    for (size_t a = 0; a < v->nacross; a++)
        head[a] = xstrdup(v->across >= 0 ? v->across_v[a] : v->metric);
    add_line(&ls, xstrdup(v->across >= 0 ? across_heading(across_name(v, t)) : ""), head);
    size_t rule_at = ls.n;
    add_line(&ls, xstrdup(""), NULL);   /* the rule, filled in by layout() */
    for (size_t k = 0; k < v->nblk; k++)
        add_block(&ls, &x, &v->blk[k]);
    size_t lw, cw;
    layout(&ls, rule_at, &lw, &cw);
    if (html)
        print_lines_html(f, &ls);
    else
        print_lines(f, &ls, lw, cw);
    free_lines(&ls);
    print_notes(f, v, t, html);
}

/* One workload's table.  Returns 0 or 1. */
static int table_bench(const struct opts *o, const struct table *t, const char *bench)
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
        printf("%s: no metric in the results (%zu ok, %zu failed runs)\n", bench, v.nok, v.nfail);
        print_cell_failures(stdout, &v, t);
    } else {
        print_view_table(stdout, &v, t, o, note);
        lost_ticks_warn(stdout, t, bench, streq(o->format, "html"));
    }
    free(note);
    view_free(&v);
    return rc;
}

int cmd_table(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (rc) {
        cli_free(&o);
        return cli_exit(rc);
    }
    if (streq(o.format, "lkml")) {
        cli_free(&o);
        return usage_error("%s", "table --format lkml: table prints text or html (lkml is compare's)");
    }
    struct table t = { 0 }, boots = { 0 };
    rc = load(&o, &t, &boots);
    size_t nb = 0;
    const char **benches = rc ? NULL : selected_benches(&o, &t, &nb);
    if (!rc && nb == 0) {
        errorf(o.bench ? "no %s results" : "no results at all%s", o.bench ? o.bench : "");
        rc = 1;
    }
    for (size_t i = 0; !rc && i < nb; i++) {
        rc = table_bench(&o, &t, benches[i]);
        if (i + 1 < nb)
            putchar('\n');
    }
    if (!rc && !streq(o.format, "html"))
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    free(benches);
    table_free(&t);
    table_free(&boots);
    cli_free(&o);
    return rc;
}
