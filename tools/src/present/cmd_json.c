/*
 * json DIR: a JSON export of a results directory, shaped like hyperfine's
 * --export-json: one entry per cell (a workload, a scheduler, a CPU count
 * and one value of every parameter), with the mean, stddev, median, min and
 * max of its ok runs, every run's value with its boot, run and status, the
 * boots' exit codes, the parameters and the provenance.
 */
#include "cmds.h"
#include "cli.h"
#include "load.h"
#include "metric.h"
#include "provenance.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static const struct verb_spec spec = {
    "json", OPT_BENCH | OPT_METRIC | OPT_OUT,
    "usage: schedlab json DIR [--out FILE|-] [--bench B] [--metric M]\n"
    "  DIR as JSON into FILE (default DIR/results.json; - for stdout), in hyperfine's\n"
    "  --export-json shape: \"meta\" (meta.txt) and\n"
    "  \"results\", one entry per cell (bench, sched, smp and every parameter equal) with\n"
    "  mean, stddev, median, min, max of the ok runs, \"runs\" (every run: boot, run,\n"
    "  status, value, reason), \"exit_codes\" of its boots, \"parameters\" and \"provenance\".\n"
    "  The metric is the workload's own (--metric another).  Exit: 0, 1 bad input, 2 usage error.\n",    NULL,
};

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A whole number from the CSV, or null: never text where a number belongs. */
static void json_int(FILE *f, const char *s)
{
    long n;
    if (s && parse_long(s, &n))
        fprintf(f, "%ld", n);
    else
        fputs("null", f);
}

static void json_number(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.10g", x);
    else
        fputs("null", f);
}

/* A column that says which cell a row belongs to: a workload parameter, or sched/smp/bench. */
static bool cell_key(const char *name)
{
    if (!strcmp(name, "sched") || !strcmp(name, "smp") || !strcmp(name, "bench"))
        return true;
    return !is_fixed_column(name) && !is_metric_key(name) && !is_counter_key(name) && !is_provenance_column(name);
}

/* A workload parameter (the cell's keys but sched, smp and bench). */
static bool parameter_column(const char *name)
{
    return cell_key(name) && strcmp(name, "sched") && strcmp(name, "smp") && strcmp(name, "bench");
}

/* {"col": "value", ...} of row r's non-empty columns that want() takes. */
static void json_columns(FILE *f, const struct table *t, size_t r, bool (*want)(const char *))
{
    bool any = false;
    fputc('{', f);
    for (size_t c = 0; c < t->ncols; c++) {
        const char *v = table_get(t, r, (int)c);
        if (!v || !want(t->col[c]))
            continue;
        fputs(any ? ", " : "", f);
        json_string(f, t->col[c]);
        fputs(": ", f);
        json_string(f, v);
        any = true;
    }
    fputc('}', f);
}

static bool same_cell(const struct table *t, size_t a, size_t b)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (cell_key(t->col[c]) && !streq(table_get(t, a, (int)c), table_get(t, b, (int)c)))
            return false;
    return true;
}

static void print_meta(FILE *f, const char *dir)
{
    char *path = xasprintf("%s/meta.txt", dir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    fputs("  \"meta\": {", f);
    bool first = true;
    char *save = NULL;
    for (char *line = buf ? strtok_r(buf, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strstr(line, ": ");
        if (!colon || !strncmp(line, "boot ", 5))   /* the per-boot commands: in meta.txt */
            continue;
        *colon = '\0';
        fprintf(f, "%s\n    ", first ? "" : ",");
        json_string(f, line);
        fputs(": ", f);
        json_string(f, colon + 2);
        first = false;
    }
    fputs(first ? "},\n" : "\n  },\n", f);
    free(buf);
}

/* One cell: the rows in members[0..n). */
static void print_cell(FILE *f, const struct table *t, const size_t *members, size_t n, const char *metric, bool first)
{
    size_t r0 = members[0];
    int mc = metric ? table_col(t, metric) : -1;
    double *vals = xcalloc(n + 1, sizeof(double));
    size_t nok = 0, nfail = 0;
    for (size_t i = 0; i < n; i++) {
        double x;
        const char *v = table_get(t, members[i], mc);
        if (streq(table_getn(t, members[i], "status"), "ok") && v && parse_double(v, &x))
            vals[nok++] = x;
        else if (!streq(table_getn(t, members[i], "status"), "not_run"))
            nfail++;
    }
    struct summary s;
    summarize(vals, nok, &s);
    fprintf(f, "%s    {\n      \"bench\": ", first ? "" : ",\n");
    json_string(f, table_getn(t, r0, "bench"));
    fputs(", \"sched\": ", f);
    json_string(f, table_getn(t, r0, "sched"));
    fputs(", \"smp\": ", f);
    json_int(f, table_getn(t, r0, "smp"));
    fputs(",\n      \"metric\": ", f);
    json_string(f, metric);
    fputs(", \"unit\": ", f);
    json_string(f, metric_words(metric));
    fputs(", \"direction\": ", f);
    json_number(f, metric_direction(metric));
    fputs(",\n      \"parameters\": ", f);
    json_columns(f, t, r0, parameter_column);
    fprintf(f, ",\n      \"n_ok\": %zu, \"n_failed\": %zu,\n      \"mean\": ", nok, nfail);
    json_number(f, s.mean);
    fputs(", \"stddev\": ", f);
    json_number(f, s.sd);
    fputs(", \"median\": ", f);
    json_number(f, s.median);
    fputs(", \"min\": ", f);
    json_number(f, s.min);
    fputs(", \"max\": ", f);
    json_number(f, s.max);
    fputs(",\n      \"values\": [", f);
    for (size_t i = 0; i < nok; i++) {
        fputs(i ? ", " : "", f);
        json_number(f, vals[i]);
    }
    fputs("],\n      \"runs\": [", f);
    for (size_t i = 0; i < n; i++) {
        size_t r = members[i];
        double x;
        const char *v = table_get(t, r, mc);
        fprintf(f, "%s\n        {\"boot\": ", i ? "," : "");
        json_int(f, table_getn(t, r, "boot"));
        fputs(", \"run\": ", f);
        json_int(f, table_getn(t, r, "run"));
        fputs(", \"status\": ", f);
        json_string(f, table_getn(t, r, "status"));
        fputs(", \"value\": ", f);
        if (streq(table_getn(t, r, "status"), "ok") && v && parse_double(v, &x))
            json_number(f, x);
        else
            fputs("null", f);
        if (table_getn(t, r, "reason")) {
            fputs(", \"reason\": ", f);
            json_string(f, table_getn(t, r, "reason"));
        }
        fputs(", \"log\": ", f);
        json_string(f, table_getn(t, r, "log"));
        fputs("}", f);
    }
    fputs("\n      ],\n      \"exit_codes\": [", f);
    bool ex = false;
    for (size_t i = 0; i < n; i++) {   /* one per boot, in order */
        const char *b = table_getn(t, members[i], "boot"), *e = table_getn(t, members[i], "exit");
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = streq(table_getn(t, members[j], "boot"), b) && streq(table_getn(t, members[j], "log"),
                                                                       table_getn(t, members[i], "log"));
        if (seen)
            continue;
        fprintf(f, "%s", ex ? ", " : "");
        json_int(f, e);
        ex = true;
    }
    fputs("],\n      \"provenance\": ", f);
    json_columns(f, t, r0, is_provenance_column);
    fputs("\n    }", f);
    free(vals);
}

int cmd_json(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &spec);
    if (!rc && o.ndirs != 1)
        rc = usage_error("%s", o.ndirs ? "json takes one results directory" : "json needs a results directory");
    struct table t = { 0 };
    if (!rc)
        rc = load(&o, &t, NULL);
    char *out = NULL, *part = NULL;
    FILE *f = stdout;
    if (!rc && !streq(o.out, "-")) {   /* a file: written beside, renamed into place */
        out = o.out ? xstrdup(o.out) : xasprintf("%s/results.json", o.dirs[0]);
        struct stat st;
        if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
            errorf("%s is a directory (--out needs a file name)", out);
            rc = 1;
        } else {
            part = xasprintf("%s.part", out);
            if (!(f = fopen(part, "w"))) {
                errorf("cannot write %s: %s", out, strerror(errno));
                rc = 1;
            }
        }
    }
    if (!rc) {
        size_t nb;
        const char **benches = selected_benches(&o, &t, &nb);
        fputs("{\n  \"schedlab_json\": 1,\n  \"source\": ", f);
        json_string(f, o.dirs[0]);
        fputs(",\n", f);
        print_meta(f, o.dirs[0]);
        fputs("  \"results\": [\n", f);
        bool *used = xcalloc(t.nrows + 1, sizeof(bool));
        size_t *members = xcalloc(t.nrows + 1, sizeof(size_t));
        bool first = true;
        for (size_t b = 0; b < nb; b++) {
            const char *metric = o.metric ? o.metric : default_metric(benches[b]);
            for (size_t r = 0; r < t.nrows; r++) {
                if (used[r] || !streq(table_getn(&t, r, "bench"), benches[b]))
                    continue;
                size_t n = 0;
                for (size_t q = r; q < t.nrows; q++)
                    if (!used[q] && same_cell(&t, r, q)) {
                        used[q] = true;
                        members[n++] = q;
                    }
                print_cell(f, &t, members, n, metric, first);
                first = false;
            }
        }
        fputs("\n  ]\n}\n", f);
        free(used);
        free(members);
        free(benches);
        if (ferror(f))
            rc = 1;
    }
    if (part && f && f != stdout) {
        if (fclose(f) != 0 || rc || rename(part, out) != 0) {
            if (!rc)
                errorf("cannot write %s", out);
            remove(part);
            rc = rc ? rc : 1;
        } else {
            struct stat st;
            fprintf(stderr, "schedlab: %s (%lld bytes)\n", out, stat(out, &st) == 0 ? (long long)st.st_size : 0LL);
        }
    }
    free(out);
    free(part);
    table_free(&t);
    cli_free(&o);
    return cli_exit(rc);
}
