/* What a kernel command line asks for, and the runs it expects (see expect.h). */
#include "expect.h"
#include "metric.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys that hold a CPU list ("0,2-3"), not a list of values to sweep. */
static bool is_cpu_list_key(const char *key)
{
    return strcmp(key, "bind") == 0;
}

/* One word of the command line into e. */
static void expectation_word(struct expectation *e, const char *key, const char *value)
{
    if (strcmp(key, "bench") == 0) {
        free(e->bench);
        e->bench = NULL;
        if (*value && !strchr(value, ',') && strcmp(value, "all") != 0)
            e->bench = xstrdup(value);
    } else if (strcmp(key, "runs") == 0) {
        long r;
        free(e->problem);
        e->problem = NULL;
        e->runs = 1;
        if (parse_long(value, &r) && r >= 1 && r <= MAX_RUNS)
            e->runs = r;
        else   /* the kernel would refuse it: the runs cannot be counted */
            e->problem = xasprintf("runs=%.40s is not a run count the kernel accepts (1..%d)", value, MAX_RUNS);
    } else if (strcmp(key, "watchdog") != 0) {
        e->key = xrealloc(e->key, (e->nparams + 1) * sizeof(char *));
        e->value = xrealloc(e->value, (e->nparams + 1) * sizeof(char *));
        e->swept = xrealloc(e->swept, (e->nparams + 1) * sizeof(bool));
        e->key[e->nparams] = xstrdup(key);
        e->value[e->nparams] = xstrdup(value);
        e->swept[e->nparams] = strchr(value, ',') && !is_cpu_list_key(key);
        e->nparams++;
    }
}

void expectation_parse(struct expectation *e, const char *cmdline)
{
    memset(e, 0, sizeof(*e));
    e->runs = 1;
    const char *p = cmdline ? cmdline : "";
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        const char *end = p;
        while (*end && *end != ' ' && *end != '\t' && *end != '\n')
            end++;
        char *word = xstrndup(p, (size_t)(end - p));
        p = *end ? end + 1 : end;
        char *eq = strchr(word, '=');
        if (eq && eq != word) {
            *eq = '\0';
            expectation_word(e, word, eq + 1);
        }
        free(word);
    }
}

void expectation_set_sweep(struct expectation *e, char *const *keys, size_t n)
{
    for (size_t i = 0; i < e->nparams; i++) {
        bool listed = false;
        for (size_t k = 0; k < n && !listed; k++)
            listed = strcmp(keys[k], e->key[i]) == 0;
        e->swept[i] = listed && strchr(e->value[i], ',');
    }
}

void expectation_free(struct expectation *e)
{
    for (size_t i = 0; i < e->nparams; i++) {
        free(e->key[i]);
        free(e->value[i]);
    }
    free(e->key);
    free(e->value);
    free(e->swept);
    free(e->bench);
    free(e->problem);
    memset(e, 0, sizeof(*e));
}

/* Columns a command-line word must never set in a row: what identifies the
 * run, its outcome and its measurements (a "time_s=" word is no result). */
bool is_run_column(const char *key)
{
    return is_fixed_column(key) || is_metric_key(key);
}

/* A key the runs are swept over (a metric's or run='s "list" is not one). */
static bool sweeps(const struct expectation *e, size_t i)
{
    return e->swept[i] && !is_run_column(e->key[i]);
}

size_t expectation_count(const struct expectation *e, char **why)
{
    *why = NULL;
    if (e->problem) {
        *why = xstrdup(e->problem);
        return 0;
    }
    if (!e->bench)
        return 0;   /* unknown workload set: take whatever arrives */
    size_t n = (size_t)e->runs;
    struct strbuf how = { 0 };
    sb_printf(&how, "runs=%ld", e->runs);
    for (size_t i = 0; i < e->nparams; i++) {
        if (!sweeps(e, i))
            continue;
        size_t values = 1;
        for (const char *c = e->value[i]; *c; c++)
            values += *c == ',';
        sb_printf(&how, " x %zu %s", values, e->key[i]);
        n = n > MAX_EXPECTED_RUNS ? n : n * values;   /* stops growing once too large: no overflow */
    }
    if (n > MAX_EXPECTED_RUNS) {
        *why = xasprintf("the command line asks for more than %d runs per boot (%s)", MAX_EXPECTED_RUNS, how.s);
        n = 0;
    }
    sb_free(&how);
    return n;
}

/* ---- expected runs ---- */

bool same_value(const char *a, const char *b)
{
    long x, y;
    if (parse_long(a, &x) && parse_long(b, &y))
        return x == y;
    return strcmp(a, b) == 0;
}

/* Splits a comma list into pieces (the caller frees the array and strings). */
static char **split_commas(const char *s, size_t *n)
{
    char **out = NULL;
    size_t cap = 0;
    *n = 0;
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        grow(&out, &cap, *n, sizeof(char *));
        out[(*n)++] = xstrndup(p, len);
        if (!c)
            break;
        p = c + 1;
    }
    return out;
}

/* The expected runs of e; none when they cannot be counted (*why says why). */
void slots_init(struct slots *sl, const struct expectation *e, char **why)
{
    memset(sl, 0, sizeof(*sl));
    sl->param = xcalloc(e->nparams + 1, sizeof(size_t));
    sl->list = xcalloc(e->nparams + 1, sizeof(char **));
    sl->listn = xcalloc(e->nparams + 1, sizeof(size_t));
    sl->per_run = 1;
    for (size_t i = 0; i < e->nparams; i++)
        if (sweeps(e, i)) {
            sl->param[sl->nswept] = i;
            sl->list[sl->nswept] = split_commas(e->value[i], &sl->listn[sl->nswept]);
            sl->per_run *= sl->listn[sl->nswept];   /* bounded: expectation_count checked the product */
            sl->nswept++;
        }
    sl->n = expectation_count(e, why);
    sl->filled = xcalloc(sl->n + 1, sizeof(bool));
}

void slots_free(struct slots *sl)
{
    for (size_t k = 0; k < sl->nswept; k++) {
        for (size_t i = 0; i < sl->listn[k]; i++)
            free(sl->list[k][i]);
        free(sl->list[k]);
    }
    free(sl->list);
    free(sl->listn);
    free(sl->param);
    free(sl->filled);
}

/* The value of swept key k in slot s, and the slot's run. */
const char *slot_value(const struct slots *sl, size_t s, size_t k)
{
    size_t rest = s % sl->per_run;
    for (size_t j = sl->nswept; --j > k;)
        rest /= sl->listn[j];
    return sl->list[k][rest % sl->listn[k]];
}

long slot_run(const struct slots *sl, size_t s)
{
    return (long)(s / sl->per_run);
}

static bool fits(const struct wanted *w, const char *value)
{
    if (w->exact)
        return same_value(w->exact, value);
    return !w->prefix || strncmp(value, w->prefix, strlen(w->prefix)) == 0;
}

struct search {
    const struct slots *sl;
    const struct wanted *want;   /* [0]: run, [1 + k]: swept key k */
    size_t unfilled, filled;     /* fitting slots of each kind seen */
    size_t first;                /* the first fitting unfilled slot */
};

/* Visits every slot that fits, dimension by dimension, in slot order. */
static void search_slots(struct search *q, size_t k, size_t base)
{
    const struct slots *sl = q->sl;
    if (k == sl->nswept) {
        if (sl->filled[base])
            q->filled++;
        else if (q->unfilled++ == 0)
            q->first = base;
        return;
    }
    for (size_t i = 0; i < sl->listn[k]; i++)
        if (fits(&q->want[1 + k], sl->list[k][i]))
            search_slots(q, k + 1, base * sl->listn[k] + i);
}

static void search_runs(struct search *q)
{
    long runs = (long)(q->sl->n / q->sl->per_run), run;
    if (q->want[0].exact) {   /* the usual case: one run, then each list */
        if (parse_long(q->want[0].exact, &run) && run >= 0 && run < runs)
            search_slots(q, 0, (size_t)run);
        return;
    }
    char text[32];
    for (run = 0; run < runs; run++) {
        snprintf(text, sizeof(text), "%ld", run);
        if (fits(&q->want[0], text))
            search_slots(q, 0, (size_t)run);
    }
}

bool *slots_match(struct slots *sl, const struct wanted *want, bool cut, bool *duplicate)
{
    *duplicate = false;
    struct search q = { sl, want, 0, 0, 0 };
    if (sl->n && (want[0].exact || want[0].prefix))   /* a line that does not say its run= matches none */
        search_runs(&q);
    if (cut)
        return q.unfilled == 1 ? &sl->filled[q.first] : NULL;
    *duplicate = !q.unfilled && q.filled;
    return q.unfilled ? &sl->filled[q.first] : NULL;
}

