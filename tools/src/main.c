/*
 * schedlab-tool: the C half of tools/schedlab.  The shell script runs
 * QEMU and gnuplot; this program does everything that reads data:
 *
 *   collect DIR           serial logs of a run matrix -> DIR/results.csv, DIR/boots.csv
 *   parse LOG ...         one serial log -> CSV on stdout (debugging, tests)
 *   table DIR...          the seed's table layout (means; --stddev, --cv)
 *   compare DIR...        mmtests-style statistics with Welch's t-test
 *   plot --out D DIR...   gnuplot scripts (PNG + SVG) into D
 *   failures DIR...       every run that did not end with status=ok, and every failed boot
 *   seed-table DIR        the hackbench table beside the seed's (LKML, Nov 2003) numbers
 *
 * Every input may be truncated or malformed: nothing here trusts a file.
 * Usage errors exit 2, unreadable input exits 1.
 */
#include "logparse.h"
#include "stats.h"
#include "table.h"
#include "util.h"
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define EXIT_USAGE 2

static const char *prog = "schedlab-tool";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("error: ", stderr);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see: tools/schedlab help)\n");
    return EXIT_USAGE;
}

/* ---------------------------------------------------------------- options */

struct opts {
    const char *bench, *metric, *across, *base, *out, *labels, *png_term;
    bool stddev, cv, html;
    const char **dirs;
    size_t ndirs;
    /* parse */
    const char *sched, *cmdline;
    long smp, boot, rc;
    /* from the directories' matrix.txt */
    char **sweep;
    size_t nsweep;
    bool sweep_known;
};

static struct view_options view_opts(const struct opts *o)
{
    struct view_options vo = { o->metric, o->across, o->base, o->ndirs > 1, (const char *const *)o->sweep, o->nsweep,
                               o->sweep_known };
    return vo;
}

static void free_opts(struct opts *o)
{
    for (size_t i = 0; i < o->nsweep; i++)
        free(o->sweep[i]);
    free(o->sweep);
    free(o->dirs);
}

/* Parses the options every data verb shares.  Returns 0 or an exit status. */
static int parse_opts(int argc, char **argv, struct opts *o, const char *allowed)
{
    memset(o, 0, sizeof(*o));
    o->dirs = xcalloc((size_t)argc + 1, sizeof(char *));
    o->smp = 1;
    o->rc = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            o->dirs[o->ndirs++] = a;
            continue;
        }
        const char *name = a[1] == '-' ? a + 2 : a + 1;
        char flag[32];
        snprintf(flag, sizeof(flag), " %s ", name);
        if (!strstr(allowed, flag))
            return usage_error("unknown option '%s' for this verb", a);
        if (!strcmp(name, "stddev")) { o->stddev = true; continue; }
        if (!strcmp(name, "cv")) { o->cv = true; continue; }
        if (!strcmp(name, "html")) { o->html = true; continue; }
        if (i + 1 >= argc || !argv[i + 1][0])
            return usage_error("option '%s' needs a value", a);
        const char *val = argv[++i];
        if (!strcmp(name, "bench")) o->bench = val;
        else if (!strcmp(name, "metric")) o->metric = val;
        else if (!strcmp(name, "across")) o->across = val;
        else if (!strcmp(name, "base")) o->base = val;
        else if (!strcmp(name, "out")) o->out = val;
        else if (!strcmp(name, "labels")) o->labels = val;
        else if (!strcmp(name, "png-term")) o->png_term = val;
        else if (!strcmp(name, "sched")) o->sched = val;
        else if (!strcmp(name, "cmdline")) o->cmdline = val;
        else {
            long n;
            if (!parse_long(val, &n))
                return usage_error("option '%s' needs a number", a);
            if (!strcmp(name, "smp")) o->smp = n;
            else if (!strcmp(name, "boot")) o->boot = n;
            else if (!strcmp(name, "rc")) o->rc = n;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- loading */

/* The label of a results directory: its last path component. */
static char *dir_label(const char *dir)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    const char *start = dir;
    for (size_t i = 0; i < len; i++)
        if (dir[i] == '/' && i + 1 < len)
            start = dir + i + 1;
    return xstrndup(start, len - (size_t)(start - dir));
}

static char *results_path(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISREG(st.st_mode))
        return xstrdup(dir);
    return xasprintf("%s/results.csv", dir);
}

/* Reads every directory's results.csv into t with a "source" column, and
 * their boots.csv into boots.  Returns 0 or an exit status. */
/* DIR/matrix.txt, written by tools/schedlab run: "cmdline <kernel words>",
 * "sweep <keys the kernel sweeps in one boot>", "sweep_boots <key=list...>". */
struct matrix {
    char *cmdline;
    bool sweep_known;        /* a "sweep" line was there */
    char **sweep;            /* in-boot sweep keys, then the boot-swept keys */
    size_t nsweep, nkernel;  /* nkernel: how many of them the kernel sweeps */
};

static void add_key(char ***list, size_t *n, const char *key, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*list)[i]) == len && strncmp((*list)[i], key, len) == 0)
            return;
    *list = xrealloc(*list, (*n + 1) * sizeof(char *));
    (*list)[(*n)++] = xstrndup(key, len);
}

static bool read_matrix(const char *dir, struct matrix *m)
{
    memset(m, 0, sizeof(*m));
    char *path = xasprintf("%s/matrix.txt", dir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    if (!buf)
        return false;
    char **boot_keys = NULL;
    size_t nboot = 0;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "cmdline ", 8) == 0 && !m->cmdline) {
            m->cmdline = xstrdup(line + 8);
        } else if (strncmp(line, "sweep_boots", 11) == 0 && (line[11] == ' ' || !line[11])) {
            for (char *w = line + 11; *w;) {
                while (*w == ' ')
                    w++;
                size_t wl = strcspn(w, " "), kl = strcspn(w, "= ");
                if (kl && kl < wl)
                    add_key(&boot_keys, &nboot, w, kl);
                w += wl;
            }
        } else if (strncmp(line, "sweep", 5) == 0 && (line[5] == ' ' || !line[5])) {
            m->sweep_known = true;
            for (char *w = line + 5; *w;) {
                while (*w == ' ')
                    w++;
                size_t wl = strcspn(w, " ");
                if (wl)
                    add_key(&m->sweep, &m->nsweep, w, wl);
                w += wl;
            }
        }
    }
    m->nkernel = m->nsweep;
    for (size_t i = 0; i < nboot; i++) {
        add_key(&m->sweep, &m->nsweep, boot_keys[i], strlen(boot_keys[i]));
        free(boot_keys[i]);
    }
    free(boot_keys);
    free(buf);
    return true;
}

static void matrix_free(struct matrix *m)
{
    for (size_t i = 0; i < m->nsweep; i++)
        free(m->sweep[i]);
    free(m->sweep);
    free(m->cmdline);
    memset(m, 0, sizeof(*m));
}

static void load_sweep(struct opts *o, const char *dir)
{
    struct matrix m;
    if (!read_matrix(dir, &m) || !m.cmdline) {
        o->sweep_known = false;
        matrix_free(&m);
        return;
    }
    struct expectation e;
    expectation_parse(&e, m.cmdline);
    for (size_t i = 0; i < e.nparams; i++)
        if (e.swept[i] && !m.sweep_known)   /* an older matrix.txt: every comma list but bind= */
            add_key(&o->sweep, &o->nsweep, e.key[i], strlen(e.key[i]));
    for (size_t i = 0; i < m.nsweep; i++)
        add_key(&o->sweep, &o->nsweep, m.sweep[i], strlen(m.sweep[i]));
    expectation_free(&e);
    matrix_free(&m);
}

static int load(struct opts *o, struct table *t, struct table *boots)
{
    o->sweep_known = true;
    if (o->ndirs == 0)
        return usage_error("%s", "no results directory given");
    char **labels = xcalloc(o->ndirs + 1, sizeof(char *));
    size_t nl = 0;
    if (o->labels) {
        char *copy = xstrdup(o->labels), *save = NULL;
        for (char *p = strtok_r(copy, ",", &save); p && nl < o->ndirs; p = strtok_r(NULL, ",", &save))
            labels[nl++] = xstrdup(p);
        free(copy);
        if (nl != o->ndirs) {
            for (size_t i = 0; i < nl; i++)
                free(labels[i]);
            free(labels);
            return usage_error("%s", "--labels needs one label per directory");
        }
    }
    for (size_t d = 0; d < o->ndirs; d++) {
        if (!labels[d])
            labels[d] = dir_label(o->dirs[d]);
        for (size_t e = 0; e < d; e++)
            if (strcmp(labels[e], labels[d]) == 0) {
                char *l = xasprintf("%s#%zu", labels[d], d + 1);
                free(labels[d]);
                labels[d] = l;
            }
    }
    int rc = 0;
    for (size_t d = 0; d < o->ndirs && rc == 0; d++) {
        char *path = results_path(o->dirs[d]);
        size_t before = t->nrows, warnings = 0;
        const char *err = table_read_csv(t, path, &warnings);
        if (err) {
            errorf("%s: %s", path, err);
            rc = 1;
        } else {
            if (warnings)
                fprintf(stderr, "warning: %s: %zu extra field(s) beyond the header ignored\n", path, warnings);
            int sc = table_add_col(t, "source");
            for (size_t r = before; r < t->nrows; r++)
                table_set(t, r, sc, labels[d]);
            if (table_col(t, "bench") < 0 || table_col(t, "status") < 0) {
                errorf("%s: not a schedlab results file (no bench or status column)", path);
                rc = 1;
            }
        }
        free(path);
        struct stat st;
        if (stat(o->dirs[d], &st) == 0 && S_ISDIR(st.st_mode))
            load_sweep(o, o->dirs[d]);
        else
            o->sweep_known = false;
        if (boots && stat(o->dirs[d], &st) == 0 && S_ISDIR(st.st_mode)) {
            char *bp = xasprintf("%s/boots.csv", o->dirs[d]);
            size_t bb = boots->nrows, w;
            if (!table_read_csv(boots, bp, &w)) {
                int sc = table_add_col(boots, "source");
                for (size_t r = bb; r < boots->nrows; r++)
                    table_set(boots, r, sc, labels[d]);
            }
            free(bp);
        }
    }
    for (size_t i = 0; i < o->ndirs; i++)
        free(labels[i]);
    free(labels);
    return rc;
}

static const char **selected_benches(const struct opts *o, const struct table *t, size_t *n)
{
    const char **all = table_benches(t, n);
    if (!o->bench)
        return all;
    size_t i;
    for (i = 0; i < *n && strcmp(all[i], o->bench); i++)
        ;
    if (i == *n) {
        *n = 0;
        return all;
    }
    all[0] = all[i];
    *n = 1;
    return all;
}

static const char *metric_words(const char *metric)
{
    static const char *const words[][2] = {
        { "time_s", "seconds" }, { "usec_per_op", "microseconds per round trip" },
        { "usec_per_switch", "microseconds per context switch" }, { "mb_per_s", "MB/s" },
        { "cycles_per_pick", "cycles per scheduling decision" }, { "share", "CPU share" },
        { "p50_us", "median wake-up latency, us" }, { "p90_us", "90th percentile wake-up latency, us" },
        { "p99_us", "99th percentile wake-up latency, us" }, { "p999_us", "99.9th percentile wake-up latency, us" },
        { "max_groups", "largest group count that completed" },
    };
    for (size_t i = 0; metric && i < sizeof(words) / sizeof(words[0]); i++)
        if (!strcmp(metric, words[i][0]))
            return words[i][1];
    return NULL;
}

static const char *direction_words(const char *metric)
{
    int d = metric_direction(metric);
    return d < 0 ? "lower is better" : d > 0 ? "higher is better" : "no better direction";
}

static const char *across_heading(const char *name)
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

/* Failed boots (boots.csv) belonging to a workload's results, as lines. */
static void print_failed_boots(FILE *f, const struct table *boots, bool multi)
{
    if (!boots || boots->nrows == 0)
        return;
    bool any = false;
    for (size_t r = 0; r < boots->nrows; r++) {
        if (streq(table_getn(boots, r, "verdict"), "ok"))
            continue;
        if (!any)
            fprintf(f, "failed boots (see logs/<name>.log):\n");
        any = true;
        const char *src = table_getn(boots, r, "source");
        fprintf(f, "  %s%s%s: exit %s: %s\n", multi && src ? src : "", multi && src ? "/" : "",
                table_getn(boots, r, "name") ? table_getn(boots, r, "name") : "?",
                table_getn(boots, r, "rc") ? table_getn(boots, r, "rc") : "?",
                table_getn(boots, r, "reason") ? table_getn(boots, r, "reason") : "no reason recorded");
    }
}

static void print_cell_failures(FILE *f, const struct view *v, const struct table *t)
{
    bool any = false;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t s = 0; s < v->nseries; s++)
            for (size_t a = 0; a < v->nacross; a++) {
                const struct cell *c = &v->blk[k].cell[s * v->nacross + a];
                if (!c->nfail)
                    continue;
                if (!any)
                    fprintf(f, "runs not counted (status is not ok; never averaged in):\n");
                any = true;
                char *label = block_label(v, t, &v->blk[k]);
                fprintf(f, "  %s, %s, %s=%s: %zu of %zu run(s) failed:", v->series[s], label, across_name(v, t),
                        v->across_v[a], c->nfail, c->nfail + c->n);
                for (size_t i = 0; i < c->nreasons; i++)
                    fprintf(f, "%s %s", i ? ";" : "", c->reasons[i]);
                fputc('\n', f);
                free(label);
            }
}

/* ---------------------------------------------------------------- table */

/* Decimals that give the smallest magnitude in a table three significant
 * digits (at least 2, as in the seed's table). */
static int table_decimals(double min_abs)
{
    if (!(min_abs > 0) || !isfinite(min_abs))
        return 2;
    int d = 2 - (int)floor(log10(min_abs));
    return d < 2 ? 2 : d > 9 ? 9 : d;
}

static char *cell_text(const struct cell *c, double value, int decimals)
{
    if (c->n == 0)
        return xstrdup(c->nfail ? "FAILED" : "-");
    return xasprintf("%.*f%s", decimals, value, c->nfail ? "*" : "");
}

struct line {
    char *label;
    char **cell;
};

static void print_lines(FILE *f, struct line *lines, size_t n, size_t ncells, size_t lw, size_t cw)
{
    for (size_t i = 0; i < n; i++) {
        if (!lines[i].cell) {   /* a heading */
            fprintf(f, "%s\n", lines[i].label);
            continue;
        }
        fprintf(f, "%-*s", (int)lw, lines[i].label);
        for (size_t a = 0; a < ncells; a++)
            fprintf(f, "%*s", (int)cw, lines[i].cell[a] ? lines[i].cell[a] : "");
        fputc('\n', f);
    }
}

static void free_lines(struct line *lines, size_t n, size_t ncells)
{
    for (size_t i = 0; i < n; i++) {
        free(lines[i].label);
        if (lines[i].cell)
            for (size_t a = 0; a < ncells; a++)
                free(lines[i].cell[a]);
        free(lines[i].cell);
    }
    free(lines);
}

static void add_line(struct line **lines, size_t *n, char *label, char **cells)
{
    *lines = xrealloc(*lines, (*n + 1) * sizeof(**lines));
    (*lines)[*n].label = label;
    (*lines)[*n].cell = cells;
    (*n)++;
}

static double cell_mean(const struct cell *c)
{
    struct summary s;
    double *x = cell_values(c);
    summarize(x, c->n, &s);
    free(x);
    return s.mean;
}

/* The decimals of a view's means and standard deviations. */
static void view_decimals(const struct view *v, int *dec_mean, int *dec_sd)
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

static void print_view_table(FILE *f, const struct view *v, const struct table *t, const struct opts *o)
{
    const char *an = across_name(v, t);
    size_t na = v->nacross;
    int dec_mean, dec_sd;
    view_decimals(v, &dec_mean, &dec_sd);
    const char *words = metric_words(v->metric);
    size_t minruns = (size_t)-1, maxruns = 0;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * na; i++) {
            const struct cell *c = &v->blk[k].cell[i];
            if (c->n + c->nfail == 0)
                continue;
            minruns = c->n + c->nfail < minruns ? c->n + c->nfail : minruns;
            maxruns = c->n + c->nfail > maxruns ? c->n + c->nfail : maxruns;
        }
    fprintf(f, "%s: %s%s%s%s, %s; each cell is the mean of ", v->bench, v->metric, words ? " (" : "",
            words ? words : "", words ? ")" : "", direction_words(v->metric));
    if (minruns == maxruns)
        fprintf(f, "its ok runs (of %zu runs per cell)\n\n", maxruns);
    else
        fprintf(f, "its ok runs (of %zu to %zu runs per cell)\n\n", minruns == (size_t)-1 ? 0 : minruns, maxruns);

    struct line *lines = NULL;
    size_t nlines = 0;
    char **head = xcalloc(na + 1, sizeof(char *));
    for (size_t a = 0; a < na; a++)
        head[a] = xstrdup(v->across >= 0 ? v->across_v[a] : v->metric);
    add_line(&lines, &nlines, xstrdup(v->across >= 0 ? across_heading(an) : ""), head);
    size_t rule_at = nlines;
    add_line(&lines, &nlines, xstrdup(""), NULL);   /* the rule, filled in below */
    for (size_t k = 0; k < v->nblk; k++) {
        const struct block *b = &v->blk[k];
        char *label = block_label(v, t, b);
        add_line(&lines, &nlines, b->oversub ? xasprintf("%s  (oversubscribed)", label) : xstrdup(label), NULL);
        free(label);
        double *base_mean = xcalloc(na + 1, sizeof(double));
        for (size_t s = 0; s < v->nseries; s++) {
            bool present = false;
            for (size_t a = 0; a < na; a++)
                present = present || b->cell[s * na + a].n + b->cell[s * na + a].nfail > 0;
            if (!present)
                continue;
            char **cells = xcalloc(na + 1, sizeof(char *));
            char **sd = o->stddev ? xcalloc(na + 1, sizeof(char *)) : NULL;
            char **cv = o->cv ? xcalloc(na + 1, sizeof(char *)) : NULL;
            for (size_t a = 0; a < na; a++) {
                const struct cell *c = &b->cell[s * na + a];
                struct summary sum;
                double *x = cell_values(c);
                summarize(x, c->n, &sum);
                free(x);
                if (s == 0)
                    base_mean[a] = sum.mean;
                cells[a] = cell_text(c, sum.mean, dec_mean);

                if (sd)
                    sd[a] = c->n >= 2 ? xasprintf("%.*f", dec_sd, sum.sd) : xstrdup("-");
                if (cv)
                    cv[a] = c->n >= 2 && isfinite(sum.cv) ? xasprintf("%.2f%%", sum.cv) : xstrdup("-");
            }
            add_line(&lines, &nlines, xasprintf("   %s", v->series[s]), cells);
            if (sd)
                add_line(&lines, &nlines, xstrdup("     stddev"), sd);
            if (cv)
                add_line(&lines, &nlines, xstrdup("     coeff. of variation"), cv);
        }
        /* Ratio lines: each scheduler against the first; with one scheduler,
         * each column against the first column (how the time grows). */
        if (v->nseries >= 2) {
            for (size_t s = 1; s < v->nseries; s++) {
                char **cells = xcalloc(na + 1, sizeof(char *));
                bool any = false;
                for (size_t a = 0; a < na; a++) {
                    double m = cell_mean(&b->cell[s * na + a]);
                    if (isfinite(m) && isfinite(base_mean[a]) && base_mean[a] != 0) {
                        cells[a] = xasprintf("%.2f", m / base_mean[a]);
                        any = true;
                    } else {
                        cells[a] = xstrdup("-");
                    }
                }
                if (any)
                    add_line(&lines, &nlines, xasprintf("   %s/%s", v->series[s], v->series[0]), cells);
                else {   /* nothing to compare */
                    for (size_t a = 0; a < na; a++)
                        free(cells[a]);
                    free(cells);
                }
            }
        } else if (na >= 2 && isfinite(base_mean[0]) && base_mean[0] != 0) {
            char **cells = xcalloc(na + 1, sizeof(char *));
            for (size_t a = 0; a < na; a++)
                cells[a] = isfinite(base_mean[a]) ? xasprintf("%.2f", base_mean[a] / base_mean[0]) : xstrdup("-");
            add_line(&lines, &nlines, xasprintf("   ratio to %s=%s", an, v->across_v[0]), cells);
        }
        free(base_mean);
        add_line(&lines, &nlines, xstrdup(""), NULL);   /* rule */
    }
    /* Widths. */
    size_t lw = 0, cw = 8;
    for (size_t i = 0; i < nlines; i++) {
        if (!lines[i].cell)
            continue;
        lw = strlen(lines[i].label) > lw ? strlen(lines[i].label) : lw;
        for (size_t a = 0; a < na; a++)
            if (lines[i].cell[a] && strlen(lines[i].cell[a]) + 2 > cw)
                cw = strlen(lines[i].cell[a]) + 2;
    }
    lw += 2;
    size_t rule = lw + cw * na;
    for (size_t i = rule_at; i < nlines; i++)
        if (!lines[i].cell && lines[i].label[0] == '\0') {
            free(lines[i].label);
            lines[i].label = xmalloc(rule + 1);
            memset(lines[i].label, '-', rule);
            lines[i].label[rule] = '\0';
        }
    print_lines(f, lines, nlines, na, lw, cw);
    free_lines(lines, nlines, na);

    bool marks = false, oversub = v->oversub_any;
    for (size_t k = 0; k < v->nblk; k++)
        for (size_t i = 0; i < v->nseries * na; i++)
            marks = marks || v->blk[k].cell[i].nfail;
    if (marks)
        fprintf(f, "* some runs of this cell failed and are left out of the mean; FAILED: no run succeeded\n");
    if (oversub)
        fprintf(f, "(oversubscribed): more vCPUs than host cores, so vCPUs time-share cores; parallel speed-up is not real\n");
    if (v->nseries >= 2)
        fprintf(f, "ratio lines: the mean of each line divided by the mean of %s (same column)\n", v->series[0]);
    print_cell_failures(f, v, t);
}

static int cmd_table(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " bench metric across base stddev cv labels ");
    if (rc) {
        free_opts(&o);
        return rc;
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
        struct view v;
        struct view_options vo = view_opts(&o);
        char *err = view_build(&v, &t, benches[i], &vo);
        if (err) {
            errorf("%s", err);
            free(err);
            rc = 1;
        } else if (!v.metric) {
            printf("%s: no metric in the results (%zu ok, %zu failed runs)\n", benches[i], v.nok, v.nfail);
            print_cell_failures(stdout, &v, &t);
        } else {
            print_view_table(stdout, &v, &t, &o);
        }
        if (i + 1 < nb)
            putchar('\n');
        view_free(&v);
    }
    if (!rc)
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    free(benches);
    table_free(&t);
    table_free(&boots);
    free_opts(&o);
    return rc;
}

/* ---------------------------------------------------------------- compare */

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

static void print_compare_block(FILE *f, const struct view *v, const struct table *t, const struct block *b)
{
    size_t na = v->nacross, ns = v->nseries;
    const char *an = across_name(v, t);
    char *label = block_label(v, t, b);
    fprintf(f, "%s %s, %s%s (%s)\n", v->bench, v->metric, label, b->oversub ? " (oversubscribed)" : "",
            direction_words(v->metric));
    free(label);
    /* Which series have data in this block. */
    bool *has = xcalloc(ns + 1, sizeof(bool));
    for (size_t s = 0; s < ns; s++)
        for (size_t a = 0; a < na; a++)
            has[s] = has[s] || b->cell[s * na + a].n + b->cell[s * na + a].nfail;
    /* Columns with no run at all in this block are left out. */
    bool *present = xcalloc(na + 1, sizeof(bool));
    for (size_t a = 0; a < na; a++)
        for (size_t s = 0; s < ns; s++)
            present[a] = present[a] || b->cell[s * na + a].n + b->cell[s * na + a].nfail;
    size_t lw = 10 + strlen(an) + 1;
    for (size_t a = 0; a < na; a++)
        if (10 + strlen(an) + 1 + strlen(v->across_v[a]) + 1 > lw)
            lw = 10 + strlen(an) + 1 + strlen(v->across_v[a]) + 1;
    fprintf(f, "%*s", (int)lw, "");
    for (size_t s = 0; s < ns; s++)
        if (has[s])
            fprintf(f, " %23.23s", v->series[s]);
    fputc('\n', f);

    struct summary *sum = xcalloc(ns * na + 1, sizeof(*sum));
    double **vals = xcalloc(ns * na + 1, sizeof(double *));
    for (size_t i = 0; i < ns * na; i++) {
        vals[i] = cell_values(&b->cell[i]);
        summarize(vals[i], b->cell[i].n, &sum[i]);
    }
    struct welch *w = xcalloc(ns * na + 1, sizeof(*w));
    for (size_t s = 1; s < ns; s++)
        for (size_t a = 0; a < na; a++)
            welch_test(vals[a], b->cell[a].n, vals[s * na + a], b->cell[s * na + a].n, &w[s * na + a]);

    char num[64], lab[128];
    for (int st = 0; st < ST_N; st++)
        for (size_t a = 0; a < na; a++) {
            if (!present[a])
                continue;
            snprintf(lab, sizeof(lab), "%-9s %s-%s", stat_name[st], an, v->across_v[a]);
            fprintf(f, "%-*s", (int)lw, lab);
            double base = stat_of(&sum[a], st);
            for (size_t s = 0; s < ns; s++) {
                if (!has[s])
                    continue;
                double x = stat_of(&sum[s * na + a], st);
                fmt_stat(num, sizeof(num), x);
                bool sig = st == ST_AMEAN && s > 0 && w[s * na + a].valid && w[s * na + a].p < SIGNIFICANCE_LEVEL;
                if (isfinite(x) && isfinite(base) && base != 0)
                    fprintf(f, " %s %c%7.2f%%%c", num, sig ? '*' : '(', 100.0 * (x - base) / fabs(base), sig ? '*' : ')');
                else
                    fprintf(f, " %s %10s", num, "");
            }
            fputc('\n', f);
        }
    for (size_t a = 0; a < na; a++) {
        if (!present[a])
            continue;
        snprintf(lab, sizeof(lab), "%-9s %s-%s", "Welch-p", an, v->across_v[a]);
        fprintf(f, "%-*s", (int)lw, lab);
        for (size_t s = 0; s < ns; s++) {
            if (!has[s])
                continue;
            const struct welch *x = &w[s * na + a];
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
    for (size_t a = 0; a < na; a++) {
        if (!present[a])
            continue;
        snprintf(lab, sizeof(lab), "%-9s %s-%s", "Runs", an, v->across_v[a]);
        fprintf(f, "%-*s", (int)lw, lab);
        for (size_t s = 0; s < ns; s++) {
            if (!has[s])
                continue;
            const struct cell *c = &b->cell[s * na + a];
            char runs[64];
            if (c->nfail)
                snprintf(runs, sizeof(runs), "%zu ok, %zu FAILED", c->n, c->nfail);
            else
                snprintf(runs, sizeof(runs), "%zu ok", c->n);
            fprintf(f, " %23s", runs);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < ns * na; i++)
        free(vals[i]);
    free(vals);
    free(sum);
    free(w);
    free(has);
    free(present);
}

static int cmd_compare(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " bench metric across base labels ");
    if (rc) {
        free_opts(&o);
        return rc;
    }
    if (o.ndirs > 1 && o.base) {
        free_opts(&o);
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
    for (size_t i = 0; !rc && i < nb; i++) {
        struct view v;
        struct view_options vo = view_opts(&o);
        char *err = view_build(&v, &t, benches[i], &vo);
        if (err) {
            errorf("%s", err);
            free(err);
            rc = 1;
        } else if (!v.metric) {
            printf("%s: no metric in the results (%zu ok, %zu failed runs)\n\n", benches[i], v.nok, v.nfail);
        } else {
            printf("%s %s: baseline %s; %% is the change against it; Welch's two-sided t-test (unequal variances),\n"
                   "* around the Amean change marks p < %.2f; Stddev and CoeffVar from n-1; failed runs are not in the statistics\n\n",
                   v.bench, v.metric, v.nseries ? v.series[0] : "-", SIGNIFICANCE_LEVEL);
            if (v.nseries < 2)
                printf("(only one %s: nothing to compare against)\n\n", o.ndirs > 1 ? "directory has these results" : "scheduler");
            for (size_t k = 0; k < v.nblk; k++)
                print_compare_block(stdout, &v, &t, &v.blk[k]);
            print_cell_failures(stdout, &v, &t);
        }
        view_free(&v);
    }
    if (!rc)
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    free(benches);
    table_free(&t);
    table_free(&boots);
    free_opts(&o);
    return rc;
}

/* ---------------------------------------------------------------- plot */

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

/* Writes one .gp file per plot into o->out; prints their names. */
static int plot_view(const struct view *v, const struct table *t, const struct opts *o, bool multi, size_t *count)
{
    size_t na = v->nacross, ns = v->nseries;
    const char *an = across_name(v, t);
    const char *term = o->png_term ? o->png_term : "pngcairo";
    for (size_t k = 0; k < v->nblk; k++) {
        const struct block *b = &v->blk[k];
        char *label = block_label(v, t, b);
        struct strbuf stem = { 0 };
        sb_printf(&stem, "%s-%s", v->bench, v->metric);
        if (b->sched)
            sb_printf(&stem, "-%s", b->sched);
        sb_printf(&stem, "-smp%s", b->smp);
        for (size_t p = 0; p < v->nvariant; p++)
            sb_printf(&stem, "-%s=%s", t->col[v->variant[p]], b->vval[p]);
        char *fstem = file_stem(stem.s);
        sb_free(&stem);
        size_t nfail = 0;
        for (size_t i = 0; i < ns * na; i++)
            nfail += b->cell[i].nfail;

        /* Metric against the swept parameter, error bars = stddev. */
        if (na >= 2 || !series_plot_wanted(v)) {
            char *path = xasprintf("%s/%s.gp", o->out, fstem);
            FILE *f = fopen(path, "w");
            if (!f) {
                errorf("%s: %s", path, strerror(errno));
                free(path);
                free(fstem);
                free(label);
                return 1;
            }
            fprintf(f, "# %s: %s against %s, %s (written by schedlab plot)\n", v->bench, v->metric, an, label);
            struct strbuf plot = { 0 };
            size_t lines = 0;
            for (size_t s = 0; s < ns; s++) {
                bool any = false;
                for (size_t a = 0; a < na; a++)
                    any = any || b->cell[s * na + a].n;
                if (!any)
                    continue;
                fprintf(f, "$d%zu << EOD\n", s);
                for (size_t a = 0; a < na; a++) {
                    const struct cell *c = &b->cell[s * na + a];
                    if (!c->n)
                        continue;   /* a failed cell: no point (the title counts them) */
                    struct summary sum;
                    double *x = cell_values(c);
                    summarize(x, c->n, &sum);
                    free(x);
                    fprintf(f, "%zu %s \"%s\" %.9g %.9g\n", a, v->across_numeric ? v->across_v[a] : "0", v->across_v[a], sum.mean,
                            c->n >= 2 ? sum.sd : 0.0);
                }
                fprintf(f, "EOD\n");
                sb_printf(&plot, "%s$d%zu using %s:4:5%s with yerrorlines lw 2 pt 7 title ", lines ? ", " : "plot ", s,
                          v->across_numeric ? "2" : "1", v->across_numeric ? "" : ":xtic(3)");
                sb_add(&plot, "'");
                for (const char *c = v->series[s]; *c; c++)
                    sb_add(&plot, *c == '\'' ? "''" : (char[2]){ *c, 0 });
                sb_add(&plot, "'");
                lines++;
            }
            if (!lines) {
                fclose(f);
                remove(path);
                fprintf(stderr, "plot: %s, %s: no successful runs, no plot\n", v->bench, label);
                free(path);
            } else {
                fprintf(f, "set title ");
                char *title = xasprintf("%s: %s, %s%s%s", v->bench, v->metric, label,
                                        b->oversub ? " (oversubscribed)" : "",
                                        nfail ? " - some runs FAILED and are not plotted" : "");
                gp_string(f, title);
                free(title);
                fprintf(f, "\nset xlabel ");
                gp_string(f, an);
                fprintf(f, "\nset ylabel ");
                char *yl = xasprintf("%s (mean, error bars: stddev)", v->metric);
                gp_string(f, yl);
                free(yl);
                fprintf(f, "\nset grid\nset key top left\nset yrange [0:*]\n");
                if (!v->across_numeric)
                    fprintf(f, "set xrange [-0.5:%zu.5]\n", na - 1);
                else {
                    fprintf(f, "set offsets graph 0.03, graph 0.03, 0, 0\n");
                    if (na <= 16) {
                        fprintf(f, "set xtics (");
                        for (size_t a = 0; a < na; a++)
                            fprintf(f, "%s%s", a ? ", " : "", v->across_v[a]);
                        fprintf(f, ")\n");
                    }
                }
                gp_terminals(f, term, fstem, plot.s);
                fclose(f);
                printf("%s\n", path);
                (*count)++;
                free(path);
            }
            sb_free(&plot);
        }

        /* Per-run series, as in seed 001: run index across, one line per series. */
        for (size_t a = 0; series_plot_wanted(v) && a < na; a++) {
            bool any = false;
            for (size_t s = 0; s < ns; s++)
                any = any || b->cell[s * na + a].n;
            if (!any)
                continue;
            char *sstem = na > 1 || v->across >= 0 ? xasprintf("%s-runs-%s=%s", fstem, an, v->across_v[a])
                                                    : xasprintf("%s-runs", fstem);
            char *clean = file_stem(sstem);
            free(sstem);
            char *path = xasprintf("%s/%s.gp", o->out, clean);
            FILE *f = fopen(path, "w");
            if (!f) {
                errorf("%s: %s", path, strerror(errno));
                free(path);
                free(clean);
                free(fstem);
                free(label);
                return 1;
            }
            fprintf(f, "# %s: %s of every run, %s, %s=%s (written by schedlab plot)\n", v->bench, v->metric, label,
                    an, v->across_v[a]);
            struct strbuf plot = { 0 };
            size_t lines = 0, nf = 0;
            for (size_t s = 0; s < ns; s++) {
                const struct cell *c = &b->cell[s * na + a];
                nf += c->nfail;
                if (!c->n)
                    continue;
                double *x = cell_values(c);
                fprintf(f, "$r%zu << EOD\n", s);
                for (size_t i = 0; i < c->n; i++)
                    fprintf(f, "%zu %.9g\n", i + 1, x[i]);
                fprintf(f, "EOD\n");
                free(x);
                sb_printf(&plot, "%s$r%zu using 1:2 with linespoints lw 2 pt 7 title ", lines ? ", " : "plot ", s);
                sb_add(&plot, "'");
                for (const char *c2 = v->series[s]; *c2; c2++)
                    sb_add(&plot, *c2 == '\'' ? "''" : (char[2]){ *c2, 0 });
                sb_add(&plot, "'");
                lines++;
            }
            fprintf(f, "set title ");
            char *where = v->across >= 0 ? xasprintf(" %s=%s", an, v->across_v[a]) : xstrdup("");
            char *title = xasprintf("%s%s: %s per run, %s%s%s", v->bench, where, v->metric, label,
                                    b->oversub ? " (oversubscribed)" : "", nf ? " - FAILED runs not plotted" : "");
            free(where);
            gp_string(f, title);
            free(title);
            fprintf(f, "\nset xlabel 'run (in boot order)'\nset ylabel ");
            gp_string(f, v->metric);
            fprintf(f, "\nset grid\nset key top right\nset xtics 1\nset offsets graph 0.02, graph 0.02, graph 0.1, graph 0.1\n");
            gp_terminals(f, term, clean, plot.s);
            fclose(f);
            printf("%s\n", path);
            (*count)++;
            sb_free(&plot);
            free(path);
            free(clean);
        }
        free(fstem);
        free(label);
    }
    (void)multi;
    return 0;
}

static int cmd_plot(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " bench metric across base labels out png-term ");
    if (rc) {
        free_opts(&o);
        return rc;
    }
    if (!o.out) {
        free_opts(&o);
        return usage_error("%s", "plot needs --out PLOTDIR");
    }
    struct stat st;
    if (stat(o.out, &st) != 0 || !S_ISDIR(st.st_mode)) {
        errorf("%s: not a directory", o.out);
        free_opts(&o);
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
    for (size_t i = 0; !rc && i < nb; i++) {
        struct view v;
        struct view_options vo = view_opts(&o);
        char *err = view_build(&v, &t, benches[i], &vo);
        if (err) {
            errorf("%s", err);
            free(err);
            rc = 1;
        } else if (!v.metric) {
            fprintf(stderr, "plot: %s has no metric, no plot\n", benches[i]);
        } else {
            rc = plot_view(&v, &t, &o, o.ndirs > 1, &count);
        }
        view_free(&v);
    }
    free(benches);
    table_free(&t);
    free_opts(&o);
    return rc;
}

/* ---------------------------------------------------------------- failures */

static void html_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static int cmd_failures(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " html labels ");
    if (rc) {
        free_opts(&o);
        return rc;
    }
    struct table t = { 0 }, boots = { 0 };
    rc = load(&o, &t, &boots);
    if (rc) {
        table_free(&t);
        table_free(&boots);
        free_opts(&o);
        return rc;
    }
    /* The columns that say what a run was: everything but metrics and bookkeeping. */
    int *cols = xcalloc(t.ncols + 1, sizeof(int));
    size_t nc = 0;
    static const char *const first[] = { "sched", "smp", "boot", "run", "bench", NULL };
    for (int i = 0; first[i]; i++)
        if (table_col(&t, first[i]) >= 0)
            cols[nc++] = table_col(&t, first[i]);
    if (o.ndirs > 1)
        cols[nc++] = table_col(&t, "source");
    for (size_t c = 0; c < t.ncols; c++)
        if (!is_fixed_column(t.col[c]) && !is_metric_key(t.col[c]) && !is_counter_key(t.col[c]))
            cols[nc++] = (int)c;
    int statusc = table_col(&t, "status"), reasonc = table_col(&t, "reason"), logc = table_col(&t, "log");
    size_t nfail = 0;
    for (size_t r = 0; r < t.nrows; r++)
        nfail += !streq(table_get(&t, r, statusc), "ok");
    if (o.html) {
        printf("<p>%zu of %zu runs did not end with status=ok.</p>\n", nfail, t.nrows);
        if (nfail) {
            printf("<table>\n<tr>");
            for (size_t i = 0; i < nc; i++) {
                printf("<th>");
                html_escape(stdout, t.col[cols[i]]);
                printf("</th>");
            }
            printf("<th>status</th><th>reason</th><th>log</th></tr>\n");
            for (size_t r = 0; r < t.nrows; r++) {
                if (streq(table_get(&t, r, statusc), "ok"))
                    continue;
                printf("<tr>");
                for (size_t i = 0; i < nc; i++) {
                    printf("<td>");
                    html_escape(stdout, table_get(&t, r, cols[i]));
                    printf("</td>");
                }
                printf("<td>");
                html_escape(stdout, table_get(&t, r, statusc) ? table_get(&t, r, statusc) : "(none)");
                printf("</td><td>");
                html_escape(stdout, table_get(&t, r, reasonc));
                printf("</td><td>");
                html_escape(stdout, table_get(&t, r, logc));
                printf("</td></tr>\n");
            }
            printf("</table>\n");
        }
        size_t nbf = 0;
        for (size_t r = 0; r < boots.nrows; r++)
            nbf += !streq(table_getn(&boots, r, "verdict"), "ok");
        printf("<p>%zu of %zu boots failed.</p>\n", nbf, boots.nrows);
        if (nbf) {
            printf("<table>\n<tr><th>boot</th><th>exit</th><th>reason</th><th>ok results</th><th>expected</th></tr>\n");
            for (size_t r = 0; r < boots.nrows; r++) {
                if (streq(table_getn(&boots, r, "verdict"), "ok"))
                    continue;
                static const char *const bc[] = { "name", "rc", "reason", "ok_results", "expected" };
                printf("<tr>");
                for (size_t i = 0; i < 5; i++) {
                    printf("<td>");
                    html_escape(stdout, table_getn(&boots, r, bc[i]));
                    printf("</td>");
                }
                printf("</tr>\n");
            }
            printf("</table>\n");
        }
    } else {
        printf("%zu of %zu runs did not end with status=ok\n", nfail, t.nrows);
        for (size_t r = 0; r < t.nrows; r++) {
            if (streq(table_get(&t, r, statusc), "ok"))
                continue;
            printf(" ");
            for (size_t i = 0; i < nc; i++) {
                const char *val = table_get(&t, r, cols[i]);
                if (val)
                    printf(" %s=%s", t.col[cols[i]], val);
            }
            printf(" status=%s: %s\n", table_get(&t, r, statusc) ? table_get(&t, r, statusc) : "(none)",
                   table_get(&t, r, reasonc) ? table_get(&t, r, reasonc) : "no reason recorded");
        }
        print_failed_boots(stdout, &boots, o.ndirs > 1);
    }
    free(cols);
    table_free(&t);
    table_free(&boots);
    free_opts(&o);
    return 0;
}

/* ---------------------------------------------------------------- collect */

/* Writes t as CSV with the columns in a fixed order: what the run was, the
 * workload parameters, the metrics, then status and bookkeeping. */
static int write_results(const struct table *t, const char *path)
{
    static const char *const head[] = { "sched", "smp", "boot", "run", "bench", NULL };
    static const char *const tail[] = { "cpus", "status", "reason", "oversubscribed", "log", NULL };
    int *order = xcalloc(t->ncols + 16, sizeof(int));
    size_t n = 0;
    struct table tmp = { 0 };
    for (int i = 0; head[i]; i++)
        table_add_col(&tmp, head[i]);
    for (int pass = 0; pass < 2; pass++)
        for (size_t c = 0; c < t->ncols; c++)
            if (!is_fixed_column(t->col[c]) && is_metric_key(t->col[c]) == (pass == 1))
                table_add_col(&tmp, t->col[c]);
    for (int i = 0; tail[i]; i++)
        table_add_col(&tmp, tail[i]);
    for (size_t c = 0; c < tmp.ncols; c++)
        order[n++] = table_col(t, tmp.col[c]);
    char *part = xasprintf("%s.part", path);
    FILE *f = fopen(part, "w");
    if (!f) {
        errorf("%s: %s", part, strerror(errno));
        free(part);
        free(order);
        table_free(&tmp);
        return 1;
    }
    for (size_t c = 0; c < tmp.ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, tmp.col[c]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < n; c++) {
            if (c)
                fputc(',', f);
            csv_field(f, table_get(t, r, order[c]));
        }
        fputc('\n', f);
    }
    int bad = ferror(f);
    bad |= fclose(f);
    if (!bad)
        bad = rename(part, path);
    if (bad)
        errorf("%s: cannot write", path);
    free(part);
    free(order);
    table_free(&tmp);
    return bad ? 1 : 0;
}

/* Failed rows carry only the parameters given on the command line; the
 * kernel prints its defaults too (datasize=100...).  Fill a missing
 * parameter of a failed row when every ok row of that workload agrees. */
static void fill_defaults(struct table *t)
{
    int bc = table_col(t, "bench"), sc = table_col(t, "status");
    for (size_t c = 0; c < t->ncols; c++) {
        if (is_fixed_column(t->col[c]) || is_metric_key(t->col[c]))
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            if (table_get(t, r, (int)c) || streq(table_get(t, r, sc), "ok"))
                continue;
            const char *bench = table_get(t, r, bc), *agreed = NULL;
            bool unanimous = true, all_have = true;
            for (size_t q = 0; q < t->nrows && unanimous && all_have; q++) {
                if (!streq(table_get(t, q, bc), bench) || !streq(table_get(t, q, sc), "ok"))
                    continue;
                const char *v = table_get(t, q, (int)c);
                if (!v)
                    all_have = false;
                else if (!agreed)
                    agreed = v;
                else if (strcmp(agreed, v))
                    unanimous = false;
            }
            if (agreed && unanimous && all_have) {
                char *copy = xstrdup(agreed);
                table_set(t, r, (int)c, copy);
                free(copy);
            }
        }
    }
}

static char *last_line_of(const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return NULL;
    char *last = NULL;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (strncmp(line, "run: ", 5) != 0 || !last)
            last = line;
    char *out = last ? xstrndup(last, strlen(last) > 160 ? 160 : strlen(last)) : NULL;
    for (char *c = out; c && *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    free(buf);
    return out;
}

static int cmd_collect(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " ");
    if (rc || o.ndirs != 1) {
        free_opts(&o);
        return rc ? rc : usage_error("%s", "collect needs exactly one results directory");
    }
    const char *dir = o.dirs[0];
    char *jpath = xasprintf("%s/jobs.txt", dir);
    size_t jlen;
    struct matrix m;
    bool have_matrix = read_matrix(dir, &m);
    char *jobs = read_file(jpath, &jlen);
    if (!have_matrix || !jobs) {
        errorf("%s/%s: cannot be read (not a schedlab run directory?)", dir, have_matrix ? "jobs.txt" : "matrix.txt");
        free(jobs);
        free(jpath);
        matrix_free(&m);
        free_opts(&o);
        return 1;
    }
    char *save = NULL;

    struct table results = { 0 }, boots = { 0 };
    static const char *const bcols[] = { "name", "sched", "smp", "boot", "rc", "verdict", "reason", "ok_results",
                                         "failed_results", "expected", "wall_s", "oversubscribed", "boot_line", NULL };
    for (int i = 0; bcols[i]; i++)
        table_add_col(&boots, bcols[i]);
    size_t nboots = 0, nbad = 0;
    for (char *line = strtok_r(jobs, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[256], sched[128];
        long smp, boot;
        int used = 0;
        if (sscanf(line, "%255s %127s %ld %ld%n", name, sched, &smp, &boot, &used) != 4)
            continue;
        /* The words after the four fields: this boot's value of a key swept across boots. */
        char *cmd = xasprintf("%s%s", m.cmdline ? m.cmdline : "", line + used);
        struct expectation e;
        expectation_parse(&e, cmd);
        if (m.sweep_known)
            expectation_set_sweep(&e, m.sweep, m.nkernel);
        free(cmd);
        char *rcpath = xasprintf("%s/logs/%s.rc", dir, name);
        char *logpath = xasprintf("%s/logs/%s.log", dir, name);
        char *errpath = xasprintf("%s/logs/%s.err", dir, name);
        size_t rlen = 0, llen = 0;
        char *rcbuf = read_file(rcpath, &rlen);
        long brc = -1, wall = -1;
        char over[16] = "unknown";
        if (rcbuf) {
            char *p;
            if ((p = strstr(rcbuf, "rc=")))
                sscanf(p + 3, "%ld", &brc);
            if ((p = strstr(rcbuf, "wall_s=")))
                sscanf(p + 7, "%ld", &wall);
            if ((p = strstr(rcbuf, "oversubscribed=")))
                sscanf(p + 15, "%15[a-z]", over);
        }
        char *log = read_file(logpath, &llen);
        char *err_tail = last_line_of(errpath);
        struct boot_desc bd = { name, sched, smp, boot, (int)brc, over, err_tail };
        struct boot_verdict v;
        collect_boot(&bd, log ? log : "", log ? llen : 0, &e, &results, &v);
        size_t r = table_add_row(&boots);
        char buf[64];
        table_setn(&boots, r, "name", name);
        table_setn(&boots, r, "sched", sched);
        snprintf(buf, sizeof(buf), "%ld", smp);
        table_setn(&boots, r, "smp", buf);
        snprintf(buf, sizeof(buf), "%ld", boot);
        table_setn(&boots, r, "boot", buf);
        snprintf(buf, sizeof(buf), "%ld", brc);
        table_setn(&boots, r, "rc", brc >= 0 ? buf : "none");
        table_setn(&boots, r, "verdict", v.ok ? "ok" : "failed");
        table_setn(&boots, r, "reason", v.reason);
        snprintf(buf, sizeof(buf), "%zu", v.ok_rows);
        table_setn(&boots, r, "ok_results", buf);
        snprintf(buf, sizeof(buf), "%zu", v.failed_rows);
        table_setn(&boots, r, "failed_results", buf);
        snprintf(buf, sizeof(buf), "%zu", v.expected);
        table_setn(&boots, r, "expected", buf);
        snprintf(buf, sizeof(buf), "%ld", wall);
        table_setn(&boots, r, "wall_s", wall >= 0 ? buf : NULL);
        table_setn(&boots, r, "oversubscribed", over);
        table_setn(&boots, r, "boot_line", v.boot_line);
        nboots++;
        nbad += !v.ok;
        boot_verdict_free(&v);
        expectation_free(&e);
        free(err_tail);
        free(log);
        free(rcbuf);
        free(rcpath);
        free(logpath);
        free(errpath);
    }
    fill_defaults(&results);
    char *rpath = xasprintf("%s/results.csv", dir), *bpath = xasprintf("%s/boots.csv", dir);
    rc = write_results(&results, rpath);
    if (!rc) {
        FILE *f = fopen(bpath, "w");
        if (!f || table_write_csv(&boots, f) != 0)
            rc = 1, errorf("%s: cannot write", bpath);
        if (f && fclose(f) != 0)
            rc = 1;
    }
    size_t okrows = 0;
    int sc = table_col(&results, "status");
    for (size_t r = 0; r < results.nrows; r++)
        okrows += streq(table_get(&results, r, sc), "ok");
    if (!rc)
        fprintf(stderr, "collect: %zu boots (%zu failed), %zu result rows (%zu ok, %zu not ok) -> %s\n", nboots, nbad,
                results.nrows, okrows, results.nrows - okrows, rpath);
    matrix_free(&m);
    table_free(&results);
    table_free(&boots);
    free(rpath);
    free(bpath);
    free(jobs);
    free(jpath);
    free_opts(&o);
    return rc;
}

static int cmd_parse(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " sched smp boot rc cmdline ");
    if (rc || o.ndirs != 1 || !o.sched) {
        free_opts(&o);
        return rc ? rc : usage_error("%s", "parse LOG --sched S [--smp N] [--boot B] [--rc RC] [--cmdline '...']");
    }
    size_t len;
    char *log = read_file(o.dirs[0], &len);
    if (!log) {
        errorf("%s: %s", o.dirs[0], strerror(errno));
        free_opts(&o);
        return 1;
    }
    struct expectation e;
    expectation_parse(&e, o.cmdline);
    struct table t = { 0 };
    struct boot_desc bd = { "log", o.sched, o.smp, o.boot, (int)o.rc, "no", NULL };
    struct boot_verdict v;
    collect_boot(&bd, log, len, &e, &t, &v);
    table_write_csv(&t, stdout);
    fprintf(stderr, "verdict: %s%s%s (%zu ok, %zu failed, %zu expected)\n", v.ok ? "ok" : "failed", v.ok ? "" : ": ",
            v.ok ? "" : v.reason, v.ok_rows, v.failed_rows, v.expected);
    int out = v.ok ? 0 : 3;
    boot_verdict_free(&v);
    expectation_free(&e);
    table_free(&t);
    free(log);
    free_opts(&o);
    return out;
}

/* ---------------------------------------------------------------- seed-table */

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

static int cmd_seed_table(int argc, char **argv)
{
    struct opts o;
    int rc = parse_opts(argc, argv, &o, " ");
    if (rc || o.ndirs != 1) {
        free_opts(&o);
        return rc ? rc : usage_error("%s", "seed-table needs one results directory");
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
        table_free(&t);
        table_free(&boots);
        free_opts(&o);
        return 1;
    }
    size_t o1 = v.nseries;
    for (size_t s = 0; s < v.nseries; s++)
        if (!strcmp(v.series[s], "o1"))
            o1 = s;
    size_t na = v.nacross;
    int dec, dec_sd;
    view_decimals(&v, &dec, &dec_sd);
    printf("hackbench, seconds (lower is better): this machine beside seed 000 (Craig Thomas, OSDL, LKML Nov 2003,\n"
           "2.4.18 = goodness scheduler, 2.6.0-test9 = O(1) scheduler, mean of 5 runs on real SMP hardware).\n"
           "Columns are matched by position: here groups");
    for (size_t a = 0; a < na; a++)
        printf("%s%s", a ? "," : " ", v.across_v[a]);
    printf(", seed groups 50,100,150,200.  Absolute times are not comparable\n"
           "(TCG-emulated vCPUs, an in-kernel hackbench); compare the ratios and how time grows with groups.\n\n");
    const int W = 8;
    size_t cols = na > 4 ? na : 4;
    printf("%-28s", "number of groups (here)");
    for (size_t a = 0; a < cols; a++)
        printf("%*s", W, a < na ? v.across_v[a] : "");
    printf("   | %-11s", "seed:");
    for (int a = 0; a < 4; a++)
        printf("%*d", W, seed_groups[a]);
    printf("\n");
    size_t rule = 28 + W * cols + 9 + W * 4;
    for (size_t i = 0; i < rule; i++)
        putchar('-');
    putchar('\n');
    for (int ci = 0; ci < 4; ci++) {
        char smp[16];
        snprintf(smp, sizeof(smp), "%d", seed_cpus[ci]);
        const struct block *b = NULL;
        for (size_t k = 0; k < v.nblk; k++)
            if (!strcmp(v.blk[k].smp, smp) && !b)
                b = &v.blk[k];
        printf("%d CPU%s%s\n", seed_cpus[ci], ci ? "s" : "",
               b && b->oversub ? "  (here oversubscribed: more vCPUs than host cores)" : "");
        const char *names[2] = { "goodness", "o1" };
        const char *seednames[2] = { "2.4.18", "2.6.0-test9" };
        const double(*seed[2])[4] = { seed_24, seed_26 };
        double here_mean[2][16];
        for (int s = 0; s < 2; s++) {
            size_t si = s == 0 ? 0 : o1;
            printf("   %-25s", names[s]);
            for (size_t a = 0; a < cols; a++) {
                here_mean[s][a < 16 ? a : 15] = NAN;
                if (a >= na) {
                    printf("%*s", W, "");
                    continue;
                }
                if (!b || si >= v.nseries || strcmp(v.series[si], names[s])) {
                    printf("%*s", W, "-");
                    continue;
                }
                const struct cell *c = &b->cell[si * na + a];
                double m = cell_mean(c);
                if (a < 16)
                    here_mean[s][a] = m;
                char *txt = cell_text(c, m, dec);
                printf("%*s", W, txt);
                free(txt);
            }
            printf("   | %-11s", seednames[s]);
            for (int a = 0; a < 4; a++)
                printf("%*.2f", W, seed[s][ci][a]);
            printf("\n");
        }
        printf("   %-25s", "o1/goodness");
        for (size_t a = 0; a < cols; a++) {
            double r = a < na && a < 16 ? here_mean[1][a] / here_mean[0][a] : NAN;
            if (isfinite(r))
                printf("%*.2f", W, r);
            else
                printf("%*s", W, a < na ? "-" : "");
        }
        printf("   | %-11s", "2.6/2.4");
        for (int a = 0; a < 4; a++)
            printf("%*.2f", W, seed_26[ci][a] / seed_24[ci][a]);
        printf("\n");
        for (int s = 0; s < 2; s++) {
            char lab[64];
            snprintf(lab, sizeof(lab), "%s growth (x col 1)", names[s]);
            printf("   %-25s", lab);
            for (size_t a = 0; a < cols; a++) {
                double r = a < na && a < 16 ? here_mean[s][a] / here_mean[s][0] : NAN;
                if (isfinite(r))
                    printf("%*.2f", W, r);
                else
                    printf("%*s", W, a < na ? "-" : "");
            }
            printf("   | %-11s", seednames[s]);
            for (int a = 0; a < 4; a++)
                printf("%*.2f", W, seed[s][ci][a] / seed[s][ci][0]);
            printf("\n");
        }
        for (size_t i = 0; i < rule; i++)
            putchar('-');
        putchar('\n');
    }
    printf("* some runs of this cell failed and are left out of the mean; FAILED: no run succeeded\n");
    print_cell_failures(stdout, &v, &t);
    print_failed_boots(stdout, &boots, false);
    view_free(&v);
    table_free(&t);
    table_free(&boots);
    free_opts(&o);
    return 0;
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s collect|parse|table|compare|plot|failures|seed-table ... (see tools/schedlab help)\n", prog);
        return EXIT_USAGE;
    }
    const char *verb = argv[1];
    argc -= 2;
    argv += 2;
    if (!strcmp(verb, "collect")) return cmd_collect(argc, argv);
    if (!strcmp(verb, "parse")) return cmd_parse(argc, argv);
    if (!strcmp(verb, "table")) return cmd_table(argc, argv);
    if (!strcmp(verb, "compare")) return cmd_compare(argc, argv);
    if (!strcmp(verb, "plot")) return cmd_plot(argc, argv);
    if (!strcmp(verb, "failures")) return cmd_failures(argc, argv);
    if (!strcmp(verb, "seed-table")) return cmd_seed_table(argc, argv);
    return usage_error("unknown verb '%s'", verb);
}
