/*
 * html-table CSV [--columns A,B,...]: a CSV file (boots.csv, schedstat.csv,
 * a scorecard) as one HTML <table>, every cell escaped; the report embeds it.
 */
#include "cmds.h"
#include "cli.h"
#include "present.h"
#include "table.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "html-table", OPT_COLUMNS,
    "usage: schedlab html-table CSV [--columns A,B,...]\n"
    "  The CSV file as an HTML <table> on stdout (every column, or those named, in that\n"
    "  order; names the file does not have are left out).  Exit: 0, 1 unreadable, 2 usage error.\n",    NULL,
};

int cmd_html_table(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (!rc && o.ndirs != 1)
        rc = usage_error("%s", "html-table needs one CSV file");
    struct table t = { 0 };
    size_t warnings;
    const char *err = rc ? NULL : table_read_csv(&t, o.dirs[0], &warnings);
    if (err) {
        errorf("%s: %s", o.dirs[0], err);
        rc = 1;
    }
    if (!rc) {
        int *cols = xcalloc(t.ncols + 1, sizeof(int));
        size_t nc = 0;
        if (o.columns) {
            char *copy = xstrdup(o.columns), *save = NULL;
            for (char *p = strtok_r(copy, ",", &save); p && nc < t.ncols; p = strtok_r(NULL, ",", &save))
                if (table_col(&t, p) >= 0)
                    cols[nc++] = table_col(&t, p);
            free(copy);
        } else {
            for (size_t c = 0; c < t.ncols; c++)
                cols[nc++] = (int)c;
        }
        fputs("<table class=\"csv\">\n<thead><tr>", stdout);
        for (size_t i = 0; i < nc; i++) {
            fputs("<th>", stdout);
            html_escape(stdout, t.col[cols[i]]);
            fputs("</th>", stdout);
        }
        fputs("</tr></thead>\n<tbody>\n", stdout);
        for (size_t r = 0; r < t.nrows; r++) {
            const char *st = table_getn(&t, r, "verdict") ? table_getn(&t, r, "verdict") : table_getn(&t, r, "status");
            printf("<tr%s>", st && strcmp(st, "ok") ? " class=\"bad\"" : "");
            for (size_t i = 0; i < nc; i++) {
                fputs("<td>", stdout);
                html_escape(stdout, table_get(&t, r, cols[i]));
                fputs("</td>", stdout);
            }
            fputs("</tr>\n", stdout);
        }
        fputs("</tbody></table>\n", stdout);
        free(cols);
    }
    table_free(&t);
    cli_free(&o);
    return cli_exit(rc);
}
