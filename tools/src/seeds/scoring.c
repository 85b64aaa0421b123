/* Scoring a seed post's table: rows, cells, what a person reads (see scoring.h). */
#include "scoring.h"
#include "cli.h"
#include "metric.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- rows and their data */


struct row rows[MAXROWS];
size_t nrows;

struct row *find_row(const char *key)
{
    for (size_t i = 0; i < nrows; i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    return NULL;
}

/* Loads a row's results.csv (once); false with r->missing set when it cannot. */
bool row_load(struct row *r)
{
    if (r->missing)
        return false;
    if (r->loaded)
        return true;
    char *path = xasprintf("%s/results.csv", r->dir);
    size_t warn = 0;
    const char *err = table_read_csv(&r->t, path, &warn);
    if (err) {
        r->missing = xasprintf("cannot read %s: %s", path, err);
        free(path);
        return false;
    }
    free(path);
    r->loaded = true;
    int sc = table_col(&r->t, "sched");
    const char *first = NULL;
    for (size_t i = 0; !r->sched && i < r->t.nrows; i++) {
        const char *s = table_get(&r->t, i, sc);
        if (!first)
            first = s;
        else if (s && !streq(s, first)) {
            r->missing = xasprintf("%s holds runs of several schedulers (%s, %s): name one with %s=%s#SCHED", r->dir,
                                   first, s, r->key, r->dir);
            return false;
        }
    }
    return true;
}

/* The ok values of bench/metric at smp (0: any) and across=aval (NULL: any), in the file's order.
 * *nfail: matching rows that failed; *over: some matching row was oversubscribed. */
size_t row_values(struct row *r, const char *bench, const char *metric, int smp, const char *across,
                         const char *aval, double *out, size_t max, size_t *nfail, bool *over)
{
    size_t n = 0;
    *nfail = 0;
    if (!row_load(r))
        return 0;
    struct table *t = &r->t;
    int cb = table_col(t, "bench"), cs = table_col(t, "smp"), cst = table_col(t, "status"), cm = table_col(t, metric),
        ca = across ? table_col(t, across) : -1, co = table_col(t, "oversubscribed");
    for (size_t i = 0; i < t->nrows; i++) {
        if (!streq(table_get(t, i, cb), bench) || (r->sched && !streq(table_get(t, i, table_col(t, "sched")), r->sched)))
            continue;
        long s;
        if (smp && (!table_get(t, i, cs) || !parse_long(table_get(t, i, cs), &s) || s != smp))
            continue;
        if (aval && !streq(table_get(t, i, ca), aval))
            continue;
        if (over && streq(table_get(t, i, co), "yes"))
            *over = true;
        double v;
        if (!streq(table_get(t, i, cst), "ok") || cm < 0 || !table_get(t, i, cm) || !parse_double(table_get(t, i, cm), &v)) {
            (*nfail)++;
            continue;
        }
        if (n < max)
            out[n++] = v;
    }
    return n;
}

double mean(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / n;
}

/* The distinct values of column `across` for bench at smp, sorted numerically (at most max). */
size_t row_across(struct row *r, const char *bench, int smp, const char *across, long *out, size_t max)
{
    size_t n = 0;
    if (!row_load(r))
        return 0;
    int cb = table_col(&r->t, "bench"), cs = table_col(&r->t, "smp"), ca = table_col(&r->t, across);
    for (size_t i = 0; i < r->t.nrows; i++) {
        long s, v;
        if (!streq(table_get(&r->t, i, cb), bench) ||
            (r->sched && !streq(table_get(&r->t, i, table_col(&r->t, "sched")), r->sched)) || !table_get(&r->t, i, cs) || !parse_long(table_get(&r->t, i, cs), &s) ||
            (smp && s != smp) || !table_get(&r->t, i, ca) || !parse_long(table_get(&r->t, i, ca), &v))
            continue;
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen = seen || out[k] == v;
        if (!seen && n < max)
            out[n++] = v;
    }
    for (size_t a = 1; a < n; a++)   /* insertion sort */
        for (size_t b = a; b > 0 && out[b - 1] > out[b]; b--) {
            long x = out[b];
            out[b] = out[b - 1];
            out[b - 1] = x;
        }
    return n;
}

/* The distinct cpus_used values of bench's ok runs in a row, "/"-joined into buf ("-" when none). */
const char *row_cpus_used(struct row *r, const char *bench, char *buf, size_t size)
{
    snprintf(buf, size, "-");
    if (!row_load(r))
        return buf;
    struct table *t = &r->t;
    int cb = table_col(t, "bench"), cst = table_col(t, "status"), cu = table_col(t, "cpus_used");
    size_t len = 0;
    for (size_t i = 0; cu >= 0 && i < t->nrows; i++) {
        const char *v = table_get(t, i, cu);
        if (!streq(table_get(t, i, cb), bench) || !streq(table_get(t, i, cst), "ok") || !v || !*v ||
            (r->sched && !streq(table_get(t, i, table_col(t, "sched")), r->sched)))
            continue;
        char key[40];
        snprintf(key, sizeof(key), "/%s/", v);
        char have[256];
        snprintf(have, sizeof(have), "/%s/", len ? buf : "");
        if (strstr(have, key))
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? "/" : "", v);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    return buf;
}

/* A cell's mean here; sets *why when there is none. */
double cell_here(struct row *r, const char *bench, const char *metric, int smp, const char *across, long aval,
                        bool *over, const char **why)
{
    double v[256];
    size_t nf = 0;
    char buf[32];
    snprintf(buf, sizeof(buf), "%ld", aval);
    size_t n = row_values(r, bench, metric, smp, across, across ? buf : NULL, v, 256, &nf, over);
    if (r->missing) {
        *why = r->missing;
        return NAN;
    }
    if (!n) {
        *why = nf ? "FAILED: every run of this cell failed" : "not measured: no run of this cell";
        return NAN;
    }
    return mean(v, n);
}

/* ---------------------------------------------------------------- output helpers */

struct sc_cell cells[MAXCELLS];
struct sc_order ords[MAXCELLS];
size_t ncells, nords;

void add_cell(const char *label, double seed, double ours, const char *why)
{
    if (ncells >= MAXCELLS)
        return;
    struct sc_cell *c = &cells[ncells++];
    snprintf(c->label, sizeof(c->label), "%s", label);
    c->seed = seed;
    c->ours = isfinite(ours) ? ours : NAN;
    c->missing = isfinite(ours) ? NULL : (why ? why : "not measured");
}

void add_order(const char *label, double sa, double sb, double oa, double ob)
{
    if (nords >= MAXCELLS)
        return;
    struct sc_order *o = &ords[nords++];
    snprintf(o->label, sizeof(o->label), "%s", label);
    o->seed = sc_order_sign(sa, sb, SC_TIE_FRAC);
    o->ours = sc_order_sign(oa, ob, SC_TIE_FRAC);
}

void print_val(double x, int w, int dec)
{
    if (isfinite(x))
        printf("%*.*f", w, dec, x);
    else
        printf("%*s", w, "-");
}

/* "not available" lines: every row given as !why */
void print_unavailable(void)
{
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].missing)
            printf("   %-12s not available: %s\n", rows[i].key, rows[i].missing);
}

/* ---------------------------------------------------------------- what a person reads beside the numbers */

/* What a table shows besides the text: the post's table and ours (HTML),
 * the plots of its normalised quantities, what it measured and compares. */
struct htable *post_t, *ours_t;
const char *post_none;            /* the post has no table: why (shown instead of one) */
struct nplot *plots[8];
size_t nplots;
char *ran_here, *ran_post;        /* the sizes, runs, CPUs, accelerator and cost: ours, the post's */
const char *compares;             /* one sentence: what the scorecard compares */
const char *title_text;           /* the table's title */

struct nplot *add_plot(struct nplot *p)
{
    if (nplots < sizeof(plots) / sizeof(plots[0]))
        plots[nplots++] = p;
    else
        free(p);
    return p;
}

int cmp_num_text(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    double dx, dy;
    if (parse_double(x, &dx) && parse_double(y, &dy))
        return (dx > dy) - (dx < dy);
    return strcmp(x, y);
}

/* The rows that measure the table (not a bound table's KERNEL-unbound ones). */
bool table_row(const struct row *r)
{
    size_t n = strlen(r->key);
    return r->dir && !(n > 8 && !strcmp(r->key + n - 8, "-unbound"));
}

/* Every distinct value of column key in the rows of bench (numbers in order), comma-joined; NULL when none. */
char *distinct_values(const char *bench, const char *key)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < nrows; i++) {
        struct row *r = &rows[i];
        if (!table_row(r) || !row_load(r))
            continue;
        int cb = table_col(&r->t, "bench"), ck = table_col(&r->t, key), cs = table_col(&r->t, "sched");
        if (ck < 0) {   /* a key the result lines do not echo (bind=): as the run asked, in matrix.txt */
            char *path = xasprintf("%s/matrix.txt", r->dir), *want = xasprintf(" %s=", key);
            size_t len;
            char *buf = read_file(path, &len);
            char *cl = buf ? strstr(buf, "\ncmdline ") : NULL;
            if (!cl && buf && !strncmp(buf, "cmdline ", 8))
                cl = buf - 1;
            char *eol = cl ? strchr(cl + 1, '\n') : NULL;
            if (eol)
                *eol = '\0';
            char *w = cl ? strstr(cl + 8, want) : NULL;
            if (w) {
                w += strlen(want);
                char *x = xstrndup(w, strcspn(w, " "));
                bool seen = false;
                for (size_t k = 0; k < n && !seen; k++)
                    seen = !strcmp(v[k], x);
                if (!seen) {
                    grow(&v, &cap, n, sizeof(*v));
                    v[n++] = x;
                } else
                    free(x);
            }
            free(buf);
            free(path);
            free(want);
        }
        for (size_t j = 0; ck >= 0 && j < r->t.nrows; j++) {
            const char *x = table_get(&r->t, j, ck);
            if (!x || (bench && !streq(table_get(&r->t, j, cb), bench)) || (r->sched && !streq(table_get(&r->t, j, cs), r->sched)))
                continue;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = !strcmp(v[k], x);
            if (!seen) {
                grow(&v, &cap, n, sizeof(*v));
                v[n++] = xstrdup(x);
            }
        }
    }
    if (!n)
        return NULL;
    qsort(v, n, sizeof(*v), cmp_num_text);
    struct strbuf b = { 0 };
    for (size_t k = 0; k < n; k++) {
        sb_printf(&b, "%s%s", k ? "," : "", v[k]);
        free(v[k]);
    }
    free(v);
    return b.s;
}

/* Runs a cell: runs x boots of the rows' matrix.txt ("1", or "2-3" when they differ). */
char *runs_a_cell(void)
{
    long lo = 0, hi = 0;
    for (size_t i = 0; i < nrows; i++) {
        if (!table_row(&rows[i]))
            continue;
        char *path = xasprintf("%s/matrix.txt", rows[i].dir);
        size_t len;
        char *buf = read_file(path, &len);
        free(path);
        long runs = 1, boots = 1;
        char *save = NULL;
        for (char *l = buf ? strtok_r(buf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
            if (!strncmp(l, "runs ", 5))
                parse_long(l + 5, &runs);
            else if (!strncmp(l, "boots ", 6))
                parse_long(l + 6, &boots);
        }
        bool have = buf != NULL;
        free(buf);
        if (!have)
            continue;
        long x = runs * boots;
        lo = !lo || x < lo ? x : lo;
        hi = x > hi ? x : hi;
    }
    if (!hi)
        return NULL;
    return lo == hi ? xasprintf("%ld run%s a cell", hi, hi == 1 ? "" : "s") : xasprintf("%ld-%ld runs a cell", lo, hi);
}


/* ran_here and ran_post: what the rows measured (from their results) and what the post did. */
void describe(const char *bench, const struct size_spec *spec, size_t nspec, const char *post_runs,
                     const char *post_cpus, const char *post_machine, const char *post_extra)
{
    struct strbuf h = { 0 }, p = { 0 };
    sb_printf(&h, "%s", bench);
    sb_printf(&p, "%s", bench);
    for (size_t i = 0; i < nspec; i++) {
        char *v = distinct_values(bench, spec[i].key);
        sb_printf(&h, ", %s %s", spec[i].label, v ? v : "-");
        sb_printf(&p, ", %s %s", spec[i].label, spec[i].post);
        free(v);
    }
    char *runs = runs_a_cell(), *cpus = distinct_values(bench, "smp"), *accel = distinct_values(bench, "accel"),
         *cost = distinct_values(bench, "cost");
    if (!cost)
        cost = distinct_values(bench, "boot_cost");
    if (cpus)
        for (char *c = cpus; *c; c++)
            if (*c == ',')
                *c = '/';
    sb_printf(&h, "; %s; %s CPU%s; accel=%s; cost=%s", runs ? runs : "no run", cpus ? cpus : "-",
              cpus && strcmp(cpus, "1") ? "s" : "", accel ? accel : "-", cost ? cost : "none");
    sb_printf(&p, "; %s; %s; %s%s%s", post_runs, post_cpus, post_machine, post_extra ? "; " : "", post_extra ? post_extra : "");
    free(runs);
    free(cpus);
    free(accel);
    free(cost);
    free(ran_here);
    free(ran_post);
    ran_here = h.s;
    ran_post = p.s;
}

/* "HEAD text", the text wrapped at 100 columns under itself. */
void print_wrapped(const char *head, const char *text)
{
    size_t col = strlen(head);
    fputs(head, stdout);
    for (const char *w = text; *w;) {
        size_t n = strcspn(w, " ");
        if (col > strlen(head) && col + 1 + n > 100) {
            printf("\n%*s", (int)strlen(head), "");
            col = strlen(head);
        }
        printf(" %.*s", (int)n, w);
        col += 1 + n;
        w += n;
        w += strspn(w, " ");
    }
    fputc('\n', stdout);
}

/* The header lines under a table's title: what ran here and in the post, and what the scorecard compares. */
void print_described(void)
{
    if (ran_here)
        print_wrapped("measured here:", ran_here);
    if (ran_post)
        print_wrapped("the post:     ", ran_post);
    if (compares)
        print_wrapped("compared:     ", compares);
    printf("\n");
}

/* The table's notes from FILE ("SEED TABLE: text" lines): text, wrapped, after a heading; and their count. */
size_t read_notes(const char *path, const char *seed, const char *table, char ***out)
{
    *out = NULL;
    if (!path)
        return 0;
    size_t len, n = 0, cap = 0;
    char *buf = read_file(path, &len);
    if (!buf)
        return 0;
    char *prefix = xasprintf("%s %s: ", seed, table);
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, prefix, strlen(prefix))) {
            grow(out, &cap, n, sizeof(**out));
            (*out)[n++] = xstrdup(l + strlen(prefix));
        }
    free(prefix);
    free(buf);
    return n;
}

void print_notes(const char *file, char **notes, size_t n)
{
    if (!n)
        return;
    printf("notes (%s: what this table is missing where it stays far from the seed, as measured, or said to be unknown):\n",
           file);
    for (size_t i = 0; i < n; i++) {
        const char *w = notes[i];
        size_t col = 3;
        fputs("  -", stdout);
        while (*w) {
            size_t k = strcspn(w, " ");
            if (col + 1 + k > 100) {
                fputs("\n   ", stdout);
                col = 3;
            }
            printf(" %.*s", (int)k, w);
            col += 1 + k;
            w += k;
            w += strspn(w, " ");
        }
        fputc('\n', stdout);
    }
}

/* An SVG file inline: from its <svg element on. */
void inline_svg(FILE *f, const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    const char *s = buf ? strstr(buf, "<svg") : NULL;
    if (s)
        fputs(s, f);
    else
        fprintf(f, "<p class=\"bad\">no plot (%s could not be read)</p>\n", path);
    free(buf);
}

/* The HTML fragment of one table (tools/schedlab reproduce assembles report.html from them). */
int write_html(const char *path, const char *seed, const char *table, const char *cost, const char *plotdir,
                      const char *notes_file, char **notes, size_t nnotes)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        errorf("cannot write %s", path);
        return 1;
    }
    fprintf(f, "<section class=\"seedtable\" id=\"%s-%s-%s\">\n<h2>", seed, cost, table);
    html_text(f, title_text ? title_text : table);
    fprintf(f, " <span class=\"sub\">%s %s, cost=%s</span></h2>\n", seed, table, cost);
    fputs("<table class=\"ran\"><tbody>\n<tr><th>measured here</th><td>", f);
    html_text(f, ran_here ? ran_here : "-");
    fputs("</td></tr>\n<tr><th>the post</th><td>", f);
    html_text(f, ran_post ? ran_post : "-");
    fputs("</td></tr>\n</tbody></table>\n", f);
    if (compares) {
        fputs("<p class=\"compares\"><b>What the scorecard compares.</b> ", f);
        html_text(f, compares);
        fputs("</p>\n", f);
    }
    sc_write_html(f, seed, table, cost, cells, ncells, ords, nords);
    if (nnotes) {
        fputs("<div class=\"notes\"><p><b>Where it stays far from the post, and why</b> (", f);
        html_text(f, notes_file);
        fputs(")</p><ul>\n", f);
        for (size_t i = 0; i < nnotes; i++) {
            fputs("<li>", f);
            html_text(f, notes[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul></div>\n", f);
    }
    fputs("<div class=\"side\">\n<div>", f);
    if (post_t)
        ht_write(f, post_t);
    else {
        fputs("<p class=\"nopost\">", f);
        html_text(f, post_none ? post_none : "The post has no table here.");
        fputs("</p>", f);
    }
    fputs("</div>\n<div>", f);
    if (ours_t)
        ht_write(f, ours_t);
    fputs("</div>\n</div>\n", f);
    for (size_t i = 0; plotdir && i < nplots; i++) {
        char *svg = xasprintf("%s/%s.svg", plotdir, plots[i]->stem);
        fputs("<figure>", f);
        inline_svg(f, svg);
        fputs("<figcaption>", f);
        html_text(f, plots[i]->title);
        fputs("</figcaption></figure>\n", f);
        free(svg);
    }
    fputs("</section>\n", f);
    return fclose(f) ? 1 : 0;
}

/* The cost= word of the runs' result lines ("none" when they have none); NULL if they differ;
 * dflt when no row has runs. */
static const char *runs_column(const char *col, const char *dflt)
{
    const char *found = NULL;
    for (size_t i = 0; i < nrows; i++) {
        if (!rows[i].loaded)
            continue;
        int c = table_col(&rows[i].t, col);
        for (size_t j = 0; j < rows[i].t.nrows; j++) {
            const char *v = c >= 0 ? table_get(&rows[i].t, j, c) : NULL;
            v = v ? v : "none";
            if (!found)
                found = v;
            else if (strcmp(found, v))
                return NULL;
        }
    }
    return found ? found : dflt;
}

const char *runs_cost(const char *dflt)
{
    return runs_column("cost", dflt);
}

/* Only the rows of boots that printed their boot line (status ok): a boot that failed before it, or
 * was killed, has no boot_machine to compare.  A table without the column booted no model. */
static const char *runs_boot_column(const char *col, const char *none, const char *dflt)
{
    const char *found = NULL;
    for (size_t i = 0; i < nrows; i++) {
        if (!rows[i].loaded)
            continue;
        int c = table_col(&rows[i].t, col), st = table_col(&rows[i].t, "status");
        for (size_t j = 0; j < rows[i].t.nrows; j++) {
            const char *status = st >= 0 ? table_get(&rows[i].t, j, st) : NULL;
            if (st >= 0 && (!status || strcmp(status, "ok")))
                continue;
            const char *v = c >= 0 ? table_get(&rows[i].t, j, c) : NULL;
            v = v && *v ? v : none;
            if (!found)
                found = v;
            else if (strcmp(found, v))
                return NULL;
        }
    }
    return found ? found : dflt;
}

const char *runs_machine(const char *dflt)
{
    return runs_boot_column("boot_machine", "none", dflt);
}

const char *runs_model(const char *dflt)
{
    return runs_boot_column("boot_model", "guest", dflt);
}


const struct seed *const seeds[] = { &seed000, &seed001, &seed003, NULL };

const struct seed *seed_find(const char *name)
{
    static const char *const short_names[][3] = { { "seed000", "000", "0" }, { "seed001", "001", "1" },
                                                  { "seed003", "003", "3" } };
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 3; k++)
            if (name && !strcmp(name, short_names[i][k]))
                return seeds[i];
    return NULL;
}
