/* Output pieces shared by table, compare and seed-table (see present.h). */
#include "present.h"
#include "metric.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *direction_words(const char *metric)
{
    int d = metric_direction(metric);
    return d < 0 ? "lower is better" : d > 0 ? "higher is better" : "no better direction";
}

void html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

const char *across_heading(const char *name)
{
    if (!strcmp(name, "groups"))
        return "number of groups";
    if (!strcmp(name, "procs"))
        return "processes";
    if (!strcmp(name, "clients"))
        return "clients";
    if (!strcmp(name, "size"))
        return "size (KiB)";
    return name;
}

static const char *or_text(const char *s, const char *otherwise)
{
    return s ? s : otherwise;
}

void print_failed_boots(FILE *f, const struct table *boots, bool multi)
{
    if (!boots || boots->nrows == 0)
        return;
    bool any = false;
    size_t notrun = 0;
    for (size_t r = 0; r < boots->nrows; r++) {
        const char *verdict = table_getn(boots, r, "verdict");
        if (streq(verdict, "ok"))
            continue;
        if (streq(verdict, "not_run")) {
            notrun++;
            continue;
        }
        if (!any)
            fprintf(f, "failed boots (see logs/<name>.log):\n");
        any = true;
        const char *src = table_getn(boots, r, "source");
        fprintf(f, "  %s%s%s: exit %s: %s\n", multi && src ? src : "", multi && src ? "/" : "",
                or_text(table_getn(boots, r, "name"), "?"), or_text(table_getn(boots, r, "rc"), "none"),
                or_text(table_getn(boots, r, "reason"), "no reason recorded"));
    }
    if (notrun)
        fprintf(f, "%zu boot(s) not run: the matrix stopped before they started (tools/schedlab run --resume DIR)\n",
                notrun);
}

static void print_one_cell_failure(FILE *f, const struct view *v, const struct table *t, size_t k, size_t s, size_t a)
{
    const struct cell *c = &v->blk[k].cell[s * v->nacross + a];
    char *label = block_label(v, t, &v->blk[k]);
    fprintf(f, "  %s, %s, %s=%s: %zu of %zu run(s) failed:", v->series[s], label, across_name(v, t), v->across_v[a],
            c->nfail, c->nfail + c->n);
    for (size_t i = 0; i < c->nreasons; i++)
        fprintf(f, "%s %s", i ? ";" : "", c->reasons[i]);
    fputc('\n', f);
    free(label);
}

void print_cell_failures(FILE *f, const struct view *v, const struct table *t)
{
    bool any = false;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t s = 0; s < v->nseries; s++)
            for (size_t a = 0; a < v->nacross; a++) {
                if (!v->blk[k].cell[s * v->nacross + a].nfail)
                    continue;
                if (!any)
                    fprintf(f, "runs not counted (status is not ok; never averaged in):\n");
                any = true;
                print_one_cell_failure(f, v, t, k, s, a);
            }
}

double cell_mean(const struct cell *c)
{
    struct summary s;
    double *x = cell_values(c);
    summarize(x, c->n, &s);
    free(x);
    return s.mean;
}

char *fmt_number(double x, int decimals)
{
    if (fabs(x) >= 1e9)   /* bounded width whatever the value: 1.234e+11 */
        return xasprintf("%.4g", x);
    return xasprintf("%.*f", decimals, x);
}

char *cell_text(const struct cell *c, double value, int decimals)
{
    if (c->n == 0)
        return xstrdup(c->nfail ? "FAILED" : "-");
    char *num = fmt_number(value, decimals), *text = xasprintf("%s%s", num, c->nfail ? "*" : "");
    free(num);
    return text;
}

static int table_decimals(double min_abs)
{
    if (!(min_abs > 0) || !isfinite(min_abs))
        return 2;
    int d = 2 - (int)floor(log10(min_abs));
    return d < 2 ? 2 : d > 9 ? 9 : d;
}

void view_decimals(const struct view *v, int *dec_mean, int *dec_sd)
{
    double min_mean = INFINITY, min_sd = INFINITY;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * v->nacross; i++) {
            struct summary s;
            double *x = cell_values(&v->blk[k].cell[i]);
            summarize(x, v->blk[k].cell[i].n, &s);
            free(x);
            if (isfinite(s.mean) && fabs(s.mean) > 0 && fabs(s.mean) < min_mean)
                min_mean = fabs(s.mean);
            if (isfinite(s.sd) && s.sd > 0 && s.sd < min_sd)
                min_sd = s.sd;
        }
    *dec_mean = table_decimals(min_mean);
    *dec_sd = table_decimals(min_sd);
}
