/* Reading results directories (see load.h). */
#include "load.h"

#include <sys/stat.h>
#include <unistd.h>
#include "logparse.h"
#include "metric.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct view_options view_opts(const struct opts *o)
{
    struct view_options vo = { o->metric, o->across, o->base, o->ndirs > 1, (const char *const *)o->sweep, o->nsweep,
                               o->sweep_known };
    return vo;
}

/* ---------------------------------------------------------------- matrix.txt */

void add_key(char ***list, size_t *n, const char *key, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*list)[i]) == len && strncmp((*list)[i], key, len) == 0)
            return;
    *list = xrealloc(*list, (*n + 1) * sizeof(char *));
    (*list)[(*n)++] = xstrndup(key, len);
}

/* The words after a line's first word; with keys_only, each word's part before '='. */
static void add_words(char ***list, size_t *n, const char *w, bool keys_only)
{
    while (*w) {
        while (*w == ' ')
            w++;
        size_t wl = strcspn(w, " "), kl = strcspn(w, "= ");
        if (!keys_only && wl)
            add_key(list, n, w, wl);
        else if (keys_only && kl && kl < wl)
            add_key(list, n, w, kl);
        w += wl;
    }
}

static bool starts_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == ' ' || !line[n]);
}

bool read_matrix(const char *dir, struct matrix *m)
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
        } else if (starts_word(line, "sweep_boots")) {
            add_words(&boot_keys, &nboot, line + 11, true);
        } else if (starts_word(line, "sweep")) {
            m->sweep_known = true;
            add_words(&m->sweep, &m->nsweep, line + 5, false);
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

void matrix_free(struct matrix *m)
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

/* ---------------------------------------------------------------- labels */

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

static void free_labels(char **labels, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(labels[i]);
    free(labels);
}

/* One label per directory: --labels, else the directory names made unique.
 * Returns NULL after a usage error. */
static char **dir_labels(const struct opts *o)
{
    char **labels = xcalloc(o->ndirs + 1, sizeof(char *));
    size_t nl = 0;
    if (o->labels) {
        char *copy = xstrdup(o->labels), *save = NULL;
        for (char *p = strtok_r(copy, ",", &save); p && nl < o->ndirs; p = strtok_r(NULL, ",", &save))
            labels[nl++] = xstrdup(p);
        free(copy);
        if (nl != o->ndirs) {
            free_labels(labels, nl);
            usage_error("%s", "--labels needs one label per directory");
            return NULL;
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
    return labels;
}

/* ---------------------------------------------------------------- results */

static char *results_path(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISREG(st.st_mode))
        return xstrdup(dir);
    return xasprintf("%s/results.csv", dir);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Labels rows [from, t->nrows) with their directory's label. */
static void set_source(struct table *t, size_t from, const char *label)
{
    int sc = table_add_col(t, "source");
    for (size_t r = from; r < t->nrows; r++)
        table_set(t, r, sc, label);
}

/* The metrics of the ok rows [from, t->nrows) of the file at path: one that
 * is no plausible number (1e100, inf, 1.2.3) is malformed input, an error;
 * one the metric cannot have (a non-positive time) makes its run a failed
 * run with that reason, listed and never averaged in.  Returns 0 or 1. */
static int check_metrics(struct table *t, size_t from, const char *path)
{
    int sc = table_col(t, "status"), rc = table_col(t, "reason");
    for (size_t r = from; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols && streq(table_get(t, r, sc), "ok"); c++) {
            const char *value = table_get(t, r, (int)c);
            char *why;
            if (!value || !is_metric_key(t->col[c]))
                continue;
            enum metric_verdict mv = metric_check(t->col[c], value, NULL, &why);
            if (mv == METRIC_BAD_NUMBER) {
                errorf("%s:%zu: %s (a status=ok row)", path, t->row[r].line, why);
                free(why);
                return 1;
            }
            if (mv == METRIC_BAD_VALUE) {
                table_set(t, r, sc, "failed");
                table_set(t, r, rc, why);
            }
            free(why);
        }
    }
    return 0;
}

/* One directory's results.csv into t.  Returns 0 or 1 (after an error line). */
static int load_results(struct table *t, const char *dir, const char *label)
{
    char *path = results_path(dir);
    size_t before = t->nrows, warnings = 0;
    int rc = 0;
    const char *err = table_read_csv(t, path, &warnings);
    if (err) {
        errorf("%s: %s", path, err);
        rc = 1;
    } else {
        if (warnings)
            fprintf(stderr, "warning: %s: %zu extra field(s) beyond the header ignored\n", path, warnings);
        set_source(t, before, label);
        if (table_col(t, "bench") < 0 || table_col(t, "status") < 0) {
            errorf("%s: not a schedlab results file (no bench or status column)", path);
            rc = 1;
        } else {
            table_add_col(t, "reason");
            rc = check_metrics(t, before, path);
        }
    }
    free(path);
    return rc;
}

/* One directory's boots.csv into boots (a missing one is no error). */
static void load_boots(struct table *boots, const char *dir, const char *label)
{
    char *bp = xasprintf("%s/boots.csv", dir);
    size_t bb = boots->nrows, w;
    const char *err = table_read_csv(boots, bp, &w);
    if (!err)
        set_source(boots, bb, label);
    else if (strncmp(err, "line ", 5) == 0)   /* there, but broken: say so (the results are still shown) */
        fprintf(stderr, "warning: %s: %s; its failed boots may not be listed\n", bp, err);
    free(bp);
}

bool results_dir_ok(const char *dir)
{
    struct stat st;
    if (no_such_dir(dir, "results directory", "schedlab run ... --out DIR") || stat(dir, &st) != 0)
        return false;
    if (S_ISDIR(st.st_mode)) {
        char *csv = xasprintf("%s/results.csv", dir);
        bool ok = access(csv, R_OK) == 0;
        if (!ok)
            errorf("%s: no results.csv here (not a results directory: schedlab run ... --out DIR makes one; "
                   "schedlab collect %s makes it from logs/)", dir, dir);
        free(csv);
        return ok;
    }
    return true;   /* a CSV file given for the directory */
}

int load(struct opts *o, struct table *t, struct table *boots)
{
    o->sweep_known = true;
    if (o->ndirs == 0)
        return usage_error("%s", "no results directory given");
    char **labels = dir_labels(o);
    if (!labels)
        return EXIT_USAGE;
    int rc = 0;
    for (size_t d = 0; d < o->ndirs && rc == 0; d++) {
        if (!results_dir_ok(o->dirs[d])) {
            rc = 1;
            break;
        }
        rc = load_results(t, o->dirs[d], labels[d]);
        if (is_dir(o->dirs[d]))
            load_sweep(o, o->dirs[d]);
        else
            o->sweep_known = false;
        if (boots && is_dir(o->dirs[d]))
            load_boots(boots, o->dirs[d], labels[d]);
    }
    free_labels(labels, o->ndirs);
    return rc;
}

const char **selected_benches(const struct opts *o, const struct table *t, size_t *n)
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
