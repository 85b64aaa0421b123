/* Arranging results rows into blocks, series and columns (see view.h). */
#include "view.h"
#include "logparse.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static bool row_ok(const struct table *t, size_t r)
{
    return streq(table_getn(t, r, "status"), "ok");
}

const char **table_benches(const struct table *t, size_t *n)
{
    const char **out = xcalloc(t->nrows + 1, sizeof(char *));
    *n = 0;
    int bc = table_col(t, "bench");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *b = table_get(t, r, bc);
        if (!b)
            continue;
        size_t i;
        for (i = 0; i < *n && strcmp(out[i], b); i++)
            ;
        if (i == *n)
            out[(*n)++] = b;
    }
    return out;
}

/* Index of s in list[0..*n), appending it when absent. */
static size_t intern(char ***list, size_t *n, const char *s)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return i;
    *list = xrealloc(*list, (*n + 1) * sizeof(char *));
    (*list)[*n] = xstrdup(s);
    return (*n)++;
}

static int cmp_numeric_strings(const void *a, const void *b)
{
    double x = 0, y = 0;
    parse_double(*(char *const *)a, &x);
    parse_double(*(char *const *)b, &y);
    return (x > y) - (x < y);
}

static bool all_numeric(char **s, size_t n)
{
    double d;
    for (size_t i = 0; i < n; i++)
        if (!parse_double(s[i], &d))
            return false;
    return n > 0;
}

static const char *val_or_dash(const char *s)
{
    return s ? s : "-";
}

static void cell_add_failure(struct cell *c, const char *reason)
{
    c->nfail++;
    if (!reason)
        reason = "no reason recorded";
    for (size_t i = 0; i < c->nreasons; i++)
        if (strcmp(c->reasons[i], reason) == 0)
            return;
    if (c->nreasons < 3)
        c->reasons[c->nreasons++] = xstrdup(reason);
}

/* Blocks in order: scheduler (first appearance), CPU count, then first appearance. */
struct block_key {
    size_t sched_rank, index;
    double smp;
};

static int cmp_block_key(const void *a, const void *b)
{
    const struct block_key *x = a, *y = b;
    if (x->sched_rank != y->sched_rank)
        return x->sched_rank < y->sched_rank ? -1 : 1;
    if (x->smp != y->smp)
        return x->smp < y->smp ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static void sort_blocks(struct view *v)
{
    struct block_key *key = xcalloc(v->nblk + 1, sizeof(*key));
    for (size_t i = 0; i < v->nblk; i++) {
        key[i].index = i;
        key[i].smp = 0;
        parse_double(v->blk[i].smp, &key[i].smp);
        key[i].sched_rank = 0;
        for (size_t j = 0; j < i && v->blk[i].sched; j++)
            if (streq(v->blk[j].sched, v->blk[i].sched)) {
                key[i].sched_rank = key[j].sched_rank;
                goto ranked;
            }
        key[i].sched_rank = v->blk[i].sched ? i : 0;
    ranked:;
    }
    qsort(key, v->nblk, sizeof(*key), cmp_block_key);
    struct block *sorted = xcalloc(v->nblk + 1, sizeof(*sorted));
    for (size_t i = 0; i < v->nblk; i++)
        sorted[i] = v->blk[key[i].index];
    free(v->blk);
    v->blk = sorted;
    free(key);
}

/* The rows of one workload (and how many of them are ok). */
static size_t *bench_rows(const struct table *t, const char *bench, size_t *nrows, size_t *nokrows)
{
    int bc = table_col(t, "bench");
    size_t *rows = xcalloc(t->nrows + 1, sizeof(size_t));
    *nrows = *nokrows = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (streq(table_get(t, r, bc), bench)) {
            rows[(*nrows)++] = r;
            *nokrows += row_ok(t, r);
        }
    return rows;
}

/* --metric, else the workload's own metric (even when no run produced it:
 * all failed), else the first metric column an ok row has. */
static const char *choose_metric(const struct table *t, const char *bench, const size_t *rows, size_t nrows,
                                 const char *wanted)
{
    const char *metric = wanted ? wanted : default_metric(bench);
    for (size_t c = 0; !metric && c < t->ncols; c++) {
        if (!is_metric_key(t->col[c]))
            continue;
        for (size_t i = 0; i < nrows && !metric; i++)
            if (row_ok(t, rows[i]) && table_get(t, rows[i], (int)c))
                metric = t->col[c];
    }
    return metric;
}

/* Parameters: the matrix's swept keys when they are known, otherwise the
 * columns every reference row has (ok rows if there are any). */
static int *parameter_columns(const struct table *t, const size_t *rows, size_t nrows, size_t nokrows,
                              const char *metric, const struct view_options *o, size_t *nparam)
{
    int *param = xcalloc(t->ncols + o->nsweep + 1, sizeof(int));
    *nparam = 0;
    if (o->sweep_known) {
        for (size_t k = 0; k < o->nsweep; k++) {
            int c = table_col(t, o->sweep[k]);
            bool dup = false;
            for (size_t p = 0; p < *nparam; p++)
                dup = dup || param[p] == c;
            if (c >= 0 && !dup)
                param[(*nparam)++] = c;
        }
        return param;
    }
    for (size_t c = 0; c < t->ncols; c++) {
        const char *name = t->col[c];
        if (is_fixed_column(name) || is_metric_key(name) || streq(name, metric) || is_counter_key(name) ||
            is_provenance_column(name))
            continue;
        bool everywhere = true, any = false;
        for (size_t i = 0; i < nrows && everywhere; i++) {
            if (nokrows && !row_ok(t, rows[i]))
                continue;
            any = true;
            everywhere = table_get(t, rows[i], (int)c) != NULL;
        }
        if (everywhere && any)
            param[(*nparam)++] = (int)c;
    }
    return param;
}

/* The parameters whose value is not the same in every row. */
static int *varying_columns(const struct table *t, const size_t *rows, size_t nrows, const int *param, size_t nparam,
                            size_t *nvarying)
{
    int *varying = xcalloc(nparam + 1, sizeof(int));
    *nvarying = 0;
    for (size_t p = 0; p < nparam; p++) {
        const char *first = NULL;
        bool varies = false;
        for (size_t i = 0; i < nrows && !varies; i++) {
            const char *s = table_get(t, rows[i], param[p]);
            if (!s)
                continue;
            if (!first)
                first = s;
            else if (strcmp(first, s))
                varies = true;
        }
        if (varies)
            varying[(*nvarying)++] = param[p];
    }
    return varying;
}

/* The column across: --across, the first varying parameter, the first
 * swept one, or (nothing varies) the usual sweep key as a single column. */
static void choose_across(struct view *v, const struct table *t, const size_t *rows, size_t nrows, const int *param,
                          size_t nparam, const int *varying, size_t nvarying, const struct view_options *o)
{
    if (o->across) {
        v->across = table_col(t, o->across);
    } else if (nvarying) {
        v->across = varying[0];
    } else if (o->sweep_known && nparam) {
        v->across = param[0];
    } else {
        static const char *const usual[] = { "groups", "procs", "clients", "tasks", "runnable", "size", NULL };
        for (int u = 0; usual[u] && v->across < 0; u++) {
            int c = table_col(t, usual[u]);
            for (size_t i = 0; c >= 0 && i < nrows && v->across < 0; i++)
                if (table_get(t, rows[i], c))
                    v->across = c;
        }
    }
}

/* Which parameters make blocks and columns.  Returns NULL or a message. */
static char *arrange(struct view *v, const struct table *t, const size_t *rows, size_t nrows, size_t nokrows,
                     const struct view_options *o)
{
    size_t nparam, nvarying;
    int *param = parameter_columns(t, rows, nrows, nokrows, v->metric, o, &nparam);
    int *varying = varying_columns(t, rows, nrows, param, nparam, &nvarying);
    char *err = NULL;
    choose_across(v, t, rows, nrows, param, nparam, varying, nvarying, o);
    if (o->across && v->across < 0) {
        err = xasprintf("no parameter '%s' in the %s results", o->across, v->bench);
    } else {
        v->variant = xcalloc(nvarying + 1, sizeof(int));
        for (size_t p = 0; p < nvarying; p++)
            if (varying[p] != v->across)
                v->variant[v->nvariant++] = varying[p];
    }
    free(param);
    free(varying);
    return err;
}

/* Series (schedulers or directories), the baseline first.  Returns NULL or a message. */
static char *find_series(struct view *v, const struct table *t, const size_t *rows, size_t nrows, int sc,
                         const struct view_options *o)
{
    if (o->base)
        intern(&v->series, &v->nseries, o->base);
    for (size_t i = 0; i < nrows; i++)
        intern(&v->series, &v->nseries, val_or_dash(table_get(t, rows[i], sc)));
    if (!o->base)
        return NULL;
    for (size_t i = 0; i < nrows; i++)
        if (streq(table_get(t, rows[i], sc), o->base))
            return NULL;
    return xasprintf("--base %s: no %s results for it", o->base, v->bench);
}

/* The block of row r, made when it is the first of its (scheduler, smp, variant values). */
static struct block *block_of(struct view *v, const struct table *t, size_t r, bool by_source)
{
    const char *smp = val_or_dash(table_getn(t, r, "smp"));
    const char *sched = by_source ? val_or_dash(table_getn(t, r, "sched")) : NULL;
    for (size_t k = 0; k < v->nblk; k++) {
        struct block *c = &v->blk[k];
        bool same = strcmp(c->smp, smp) == 0 && streq(c->sched, sched);
        for (size_t p = 0; p < v->nvariant && same; p++)
            same = strcmp(c->vval[p], val_or_dash(table_get(t, r, v->variant[p]))) == 0;
        if (same)
            return c;
    }
    v->blk = xrealloc(v->blk, (v->nblk + 1) * sizeof(*v->blk));
    struct block *b = &v->blk[v->nblk++];
    memset(b, 0, sizeof(*b));
    b->smp = xstrdup(smp);
    b->sched = sched ? xstrdup(sched) : NULL;
    b->vval = xcalloc(v->nvariant + 1, sizeof(char *));
    for (size_t p = 0; p < v->nvariant; p++)
        b->vval[p] = xstrdup(val_or_dash(table_get(t, r, v->variant[p])));
    b->cell = xcalloc(v->nseries * v->nacross + 1, sizeof(struct cell));
    return b;
}

/* Row r into its cell: a value when ok with a numeric metric, else a failure. */
static void add_to_cell(struct view *v, const struct table *t, size_t r, struct cell *c, int metricc)
{
    double x;
    const char *mv = table_get(t, r, metricc);
    if (streq(table_getn(t, r, "status"), "not_run")) {
        v->nnotrun++;   /* never started: neither a result nor a failure */
        return;
    }
    if (row_ok(t, r) && mv && parse_double(mv, &x)) {
        grow(&c->pt, &c->cap, c->n, sizeof(*c->pt));
        c->pt[c->n].v = x;
        long bootn = 0, runn = 0;
        parse_long(table_getn(t, r, "boot"), &bootn);
        parse_long(table_getn(t, r, "run"), &runn);
        c->pt[c->n].boot = bootn;
        c->pt[c->n].run = runn;
        c->n++;
        v->nok++;
    } else if (row_ok(t, r) && !v->metric) {
        /* A workload without a metric (bench=boot): count it as ok. */
        v->nok++;
    } else {
        const char *why = table_getn(t, r, "reason");
        char *tmp = NULL;
        if (row_ok(t, r))
            why = tmp = xasprintf("status=ok but no numeric %s", v->metric);
        cell_add_failure(c, why);
        free(tmp);
        v->nfail++;
    }
}

/* Every row into its block and cell. */
static void fill_cells(struct view *v, const struct table *t, const size_t *rows, size_t nrows, int sc, bool by_source)
{
    int overc = table_col(t, "oversubscribed");
    int metricc = v->metric ? table_col(t, v->metric) : -1;
    for (size_t i = 0; i < nrows; i++) {
        size_t r = rows[i];
        struct block *b = block_of(v, t, r, by_source);
        if (streq(table_get(t, r, overc), "yes"))
            b->oversub = v->oversub_any = true;
        size_t s = intern(&v->series, &v->nseries, val_or_dash(table_get(t, r, sc)));
        size_t a = intern(&v->across_v, &v->nacross, val_or_dash(table_get(t, r, v->across)));
        add_to_cell(v, t, r, &b->cell[s * v->nacross + a], metricc);
    }
}

char *view_build(struct view *v, const struct table *t, const char *bench, const struct view_options *o)
{
    memset(v, 0, sizeof(*v));
    v->across = -1;
    v->bench = xstrdup(bench);
    size_t nrows, nokrows;
    size_t *rows = bench_rows(t, bench, &nrows, &nokrows);
    v->nrows = nrows;
    const char *metric = choose_metric(t, bench, rows, nrows, o->metric);
    v->metric = metric ? xstrdup(metric) : NULL;
    char *err = NULL;
    if (o->metric && table_col(t, o->metric) < 0)
        err = xasprintf("no column '%s' in the results", o->metric);
    int sc = table_col(t, o->by_source ? "source" : "sched");
    if (!err)
        err = arrange(v, t, rows, nrows, nokrows, o);
    if (!err)
        err = find_series(v, t, rows, nrows, sc, o);
    if (!err) {
        for (size_t i = 0; i < nrows; i++)
            intern(&v->across_v, &v->nacross, val_or_dash(table_get(t, rows[i], v->across)));
        v->across_numeric = all_numeric(v->across_v, v->nacross);
        if (v->across_numeric)
            qsort(v->across_v, v->nacross, sizeof(char *), cmp_numeric_strings);
        fill_cells(v, t, rows, nrows, sc, o->by_source);
        sort_blocks(v);
    }
    free(rows);
    return err;
}

void view_free(struct view *v)
{
    for (size_t k = 0; k < v->nblk; k++) {
        struct block *b = &v->blk[k];
        for (size_t i = 0; i < v->nseries * v->nacross; i++) {
            free(b->cell[i].pt);
            for (size_t j = 0; j < b->cell[i].nreasons; j++)
                free(b->cell[i].reasons[j]);
        }
        free(b->cell);
        for (size_t p = 0; p < v->nvariant; p++)
            free(b->vval[p]);
        free(b->vval);
        free(b->smp);
        free(b->sched);
    }
    free(v->blk);
    for (size_t i = 0; i < v->nseries; i++)
        free(v->series[i]);
    free(v->series);
    for (size_t i = 0; i < v->nacross; i++)
        free(v->across_v[i]);
    free(v->across_v);
    free(v->variant);
    free(v->bench);
    free(v->metric);
    memset(v, 0, sizeof(*v));
}

char *block_label(const struct view *v, const struct table *t, const struct block *b)
{
    struct strbuf s = { 0 };
    if (b->sched)
        sb_printf(&s, "%s, ", b->sched);
    sb_printf(&s, "%s %s", b->smp, strcmp(b->smp, "1") == 0 ? "CPU" : "CPUs");
    for (size_t p = 0; p < v->nvariant; p++)
        sb_printf(&s, ", %s=%s", t->col[v->variant[p]], b->vval[p]);
    return s.s;
}

static int cmp_point(const void *a, const void *b)
{
    const struct point *x = a, *y = b;
    if (x->boot != y->boot)
        return (x->boot > y->boot) - (x->boot < y->boot);
    return (x->run > y->run) - (x->run < y->run);
}

double *cell_values(const struct cell *c)
{
    struct point *p = xcalloc(c->n + 1, sizeof(*p));
    if (c->n)
        memcpy(p, c->pt, c->n * sizeof(*p));
    qsort(p, c->n, sizeof(*p), cmp_point);
    double *x = xcalloc(c->n + 1, sizeof(double));
    for (size_t i = 0; i < c->n; i++)
        x[i] = p[i].v;
    free(p);
    return x;
}

size_t cell_boots(const struct cell *c)
{
    size_t n;
    free(cell_samples(c, true, &n));
    return n;
}

double *cell_samples(const struct cell *c, bool by_boot, size_t *n)
{
    struct point *p = xcalloc(c->n + 1, sizeof(*p));
    if (c->n)
        memcpy(p, c->pt, c->n * sizeof(*p));
    qsort(p, c->n, sizeof(*p), cmp_point);
    double *x = xcalloc(c->n + 1, sizeof(double));
    *n = 0;
    for (size_t i = 0; i < c->n;) {
        size_t j = i + 1;
        double sum = p[i].v;
        while (by_boot && j < c->n && p[j].boot == p[i].boot)
            sum += p[j++].v;
        x[(*n)++] = sum / (double)(j - i);
        i = j;
    }
    free(p);
    return x;
}

const char *across_name(const struct view *v, const struct table *t)
{
    return v->across >= 0 ? t->col[v->across] : "-";
}
