/*
 * failures DIR...: every run that did not end with status=ok (what it was,
 * its status and reason) and every failed boot; --html gives the tables the
 * report embeds.
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "metric.h"
#include "present.h"
#include "util.h"

#include <stdlib.h>

static const struct verb_spec spec = {
    "failures", OPT_HTML | OPT_LABELS,
    "usage: schedlab failures DIR... [--html] [--labels A,B,...]\n"
    "  Every run that did not end with status=ok, with its parameters and reason, and\n"
    "  every failed boot (boots.csv).  --html: the same as HTML tables (for the report).\n"
    "  Exit: 0, 1 bad input, 2 usage error.\n",    NULL,
};

/* The columns that say what a run was: everything but metrics and bookkeeping. */
static int *describing_columns(const struct table *t, bool multi, size_t *nc)
{
    int *cols = xcalloc(t->ncols + 1, sizeof(int));
    static const char *const first[] = { "sched", "smp", "boot", "run", "bench", NULL };
    *nc = 0;
    for (int i = 0; first[i]; i++)
        if (table_col(t, first[i]) >= 0)
            cols[(*nc)++] = table_col(t, first[i]);
    if (multi)
        cols[(*nc)++] = table_col(t, "source");
    for (size_t c = 0; c < t->ncols; c++)
        if (!is_fixed_column(t->col[c]) && !is_metric_key(t->col[c]) && !is_counter_key(t->col[c]) &&
            !is_provenance_column(t->col[c]))
            cols[(*nc)++] = (int)c;
    return cols;
}

static void html_cell(const char *tag, const char *s)
{
    printf("<%s>", tag);
    html_escape(stdout, s);
    printf("</%s>", tag);
}

static bool row_ok(const struct table *t, size_t r, int statusc)
{
    return streq(table_get(t, r, statusc), "ok");
}

static void html_runs(const struct table *t, const int *cols, size_t nc, size_t nfail)
{
    int statusc = table_col(t, "status"), reasonc = table_col(t, "reason"), logc = table_col(t, "log");
    printf("<p>%zu of %zu runs did not end with status=ok.</p>\n", nfail, t->nrows);
    if (!nfail)
        return;
    printf("<table>\n<tr>");
    for (size_t i = 0; i < nc; i++)
        html_cell("th", t->col[cols[i]]);
    printf("<th>status</th><th>reason</th><th>log</th></tr>\n");
    for (size_t r = 0; r < t->nrows; r++) {
        if (row_ok(t, r, statusc))
            continue;
        printf("<tr>");
        for (size_t i = 0; i < nc; i++)
            html_cell("td", table_get(t, r, cols[i]));
        html_cell("td", table_get(t, r, statusc) ? table_get(t, r, statusc) : "(none)");
        html_cell("td", table_get(t, r, reasonc));
        html_cell("td", table_get(t, r, logc));
        printf("</tr>\n");
    }
    printf("</table>\n");
}

static void html_boots(const struct table *boots)
{
    size_t nbf = 0;
    for (size_t r = 0; r < boots->nrows; r++)
        nbf += !streq(table_getn(boots, r, "verdict"), "ok");
    printf("<p>%zu of %zu boots failed.</p>\n", nbf, boots->nrows);
    if (!nbf)
        return;
    printf("<table>\n<tr><th>boot</th><th>exit</th><th>reason</th><th>ok results</th><th>expected</th></tr>\n");
    static const char *const bc[] = { "name", "rc", "reason", "ok_results", "expected" };
    for (size_t r = 0; r < boots->nrows; r++) {
        if (streq(table_getn(boots, r, "verdict"), "ok"))
            continue;
        printf("<tr>");
        for (size_t i = 0; i < 5; i++)
            html_cell("td", table_getn(boots, r, bc[i]));
        printf("</tr>\n");
    }
    printf("</table>\n");
}

static void text_runs(const struct table *t, const int *cols, size_t nc, size_t nfail)
{
    int statusc = table_col(t, "status"), reasonc = table_col(t, "reason");
    printf("%zu of %zu runs did not end with status=ok\n", nfail, t->nrows);
    for (size_t r = 0; r < t->nrows; r++) {
        if (row_ok(t, r, statusc))
            continue;
        printf(" ");
        for (size_t i = 0; i < nc; i++) {
            const char *val = table_get(t, r, cols[i]);
            if (val)
                printf(" %s=%s", t->col[cols[i]], val);
        }
        printf(" status=%s: %s\n", table_get(t, r, statusc) ? table_get(t, r, statusc) : "(none)",
               table_get(t, r, reasonc) ? table_get(t, r, reasonc) : "no reason recorded");
    }
}

int cmd_failures(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    struct table t = { 0 }, boots = { 0 };
    if (!rc)
        rc = load(&o, &t, &boots);
    if (!rc) {
        size_t nc, nfail = 0;
        int *cols = describing_columns(&t, o.ndirs > 1, &nc);
        int statusc = table_col(&t, "status");
        for (size_t r = 0; r < t.nrows; r++)
            nfail += !row_ok(&t, r, statusc);
        if (o.html) {
            html_runs(&t, cols, nc, nfail);
            html_boots(&boots);
        } else {
            text_runs(&t, cols, nc, nfail);
            print_failed_boots(stdout, &boots, o.ndirs > 1);
        }
        free(cols);
    }
    table_free(&t);
    table_free(&boots);
    cli_free(&o);
    return cli_exit(rc);
}
