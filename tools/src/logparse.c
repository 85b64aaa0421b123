/* Serial log parsing and the per-boot verdict (see logparse.h). */
#include "logparse.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Keys that hold a CPU list ("0,2-3"), not a list of values to sweep. */
static bool is_cpu_list_key(const char *key)
{
    return strcmp(key, "bind") == 0;
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
        if (!eq || eq == word) {
            free(word);
            continue;
        }
        *eq = '\0';
        const char *key = word, *value = eq + 1;
        if (strcmp(key, "bench") == 0) {
            free(e->bench);
            e->bench = NULL;
            if (*value && !strchr(value, ',') && strcmp(value, "all") != 0)
                e->bench = xstrdup(value);
        } else if (strcmp(key, "runs") == 0) {
            long r;
            if (parse_long(value, &r) && r >= 1 && r <= 100000)
                e->runs = r;
        } else if (strcmp(key, "watchdog") != 0) {
            e->key = xrealloc(e->key, (e->nparams + 1) * sizeof(char *));
            e->value = xrealloc(e->value, (e->nparams + 1) * sizeof(char *));
            e->swept = xrealloc(e->swept, (e->nparams + 1) * sizeof(bool));
            e->key[e->nparams] = xstrdup(key);
            e->value[e->nparams] = xstrdup(value);
            e->swept[e->nparams] = strchr(value, ',') && !is_cpu_list_key(key);
            e->nparams++;
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
    memset(e, 0, sizeof(*e));
}

void boot_verdict_free(struct boot_verdict *v)
{
    free(v->reason);
    free(v->boot_line);
    memset(v, 0, sizeof(*v));
}

/* ---- one result line ---- */

#define MAX_KV 64

struct kvline {
    size_t n;
    char *key[MAX_KV], *value[MAX_KV];
    char *problem;      /* NULL when the line is a valid result line */
};

static const char *kv_get(const struct kvline *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->key[i], key) == 0)
            return l->value[i];
    return NULL;
}

static void kv_free(struct kvline *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->key[i]);
        free(l->value[i]);
    }
    free(l->problem);
    memset(l, 0, sizeof(*l));
}

static void kv_problem(struct kvline *l, char *why)
{
    if (l->problem)
        free(why);
    else
        l->problem = why;
}

static bool printable(unsigned char c)
{
    return (c >= 0x20 && c < 0x7f) || c == '\t';
}

static bool is_key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Splits "result k=v k=v ..." (line without its end) into key/value pairs,
 * keeping whatever can be read, and notes the first thing wrong with it. */
static void parse_result_line(const char *line, size_t len, bool truncated, struct kvline *l)
{
    memset(l, 0, sizeof(*l));
    for (size_t i = 0; i < len; i++)
        if (!printable((unsigned char)line[i])) {
            kv_problem(l, xstrdup("unprintable bytes in the result line"));
            break;
        }
    if (truncated)
        kv_problem(l, xstrdup("result line cut off (log ends inside it)"));
    size_t i = strlen("result");
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        const char *w = line + start;
        size_t wl = i - start;
        const char *eq = memchr(w, '=', wl);
        if (!eq || eq == w || eq == w + wl - 1) {
            kv_problem(l, xasprintf("word '%.40s' is not key=value", w));
            continue;
        }
        size_t kl = (size_t)(eq - w);
        bool keyok = true;
        for (size_t k = 0; k < kl; k++)
            keyok = keyok && is_key_char(w[k]);
        if (!keyok || kl > 40) {
            kv_problem(l, xasprintf("bad key in '%.40s'", w));
            continue;
        }
        char *key = xstrndup(w, kl);
        char *value = xstrndup(eq + 1, wl - kl - 1);
        for (char *c = value; *c; c++)
            if (!printable((unsigned char)*c) || *c == '"')
                *c = '?';
        if (kv_get(l, key)) {
            kv_problem(l, xasprintf("key '%s' given twice", key));
            free(key);
            free(value);
            continue;
        }
        if (l->n == MAX_KV) {
            kv_problem(l, xstrdup("too many words"));
            free(key);
            free(value);
            break;
        }
        l->key[l->n] = key;
        l->value[l->n] = value;
        l->n++;
    }
    static const char *const required[] = { "bench", "sched", "cpus", "run", "status", NULL };
    for (int r = 0; required[r]; r++)
        if (!kv_get(l, required[r]))
            kv_problem(l, xasprintf("no %s=", required[r]));
    long num;
    const char *v;
    if ((v = kv_get(l, "run")) && (!parse_long(v, &num) || num < 0))
        kv_problem(l, xasprintf("run=%s is not a run index", v));
    if ((v = kv_get(l, "cpus")) && (!parse_long(v, &num) || num < 1))
        kv_problem(l, xasprintf("cpus=%s is not a CPU count", v));
    if ((v = kv_get(l, "status")) && strcmp(v, "ok") && strcmp(v, "error") && strcmp(v, "oom"))
        kv_problem(l, xasprintf("status=%s is not ok, error or oom", v));
    for (size_t k = 0; k < l->n; k++) {
        double d;
        if (is_metric_key(l->key[k]) && !parse_double(l->value[k], &d))
            kv_problem(l, xasprintf("%s=%s is not a number", l->key[k], l->value[k]));
    }
    if (l->problem) {
        char *why = xasprintf("malformed result line: %s", l->problem);
        free(l->problem);
        l->problem = why;
    }
}

/* ---- expected runs ---- */

struct slot {
    long run;
    const char **value;   /* per swept parameter */
    bool filled;
};

static bool same_value(const char *a, const char *b)
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

/* ---- the verdict on a whole boot ---- */

static char *rc_reason(int rc, const char *panic, const char *watchdog, const char *error, const char *err_tail)
{
    switch (rc) {
    case -1: return xstrdup("boot never finished (matrix interrupted?)");
    case 0: return NULL;
    case 1: return error ? xasprintf("%s", error) : xstrdup("error exit (1) without an error: line");
    case 2: return panic ? xasprintf("%s", panic) : xstrdup("kernel panic (exit 2)");
    case 3: return watchdog ? xasprintf("%s", watchdog) : xstrdup("watchdog (exit 3)");
    case 4: return xstrdup("out of memory (exit 4)");
    case 5: return xstrdup("guest stopped without an exit code (triple fault or reset)");
    case 6: return err_tail ? xasprintf("QEMU failed: %s", err_tail) : xstrdup("QEMU failed (exit 6)");
    case 124: return xstrdup("timeout: the boot did not finish in time");
    default: return xasprintf("unexpected exit status %d", rc);
    }
}

/* Keeps reason strings to one short printable line. */
static char *clean_text(const char *s, size_t len)
{
    if (len > 200)
        len = 200;
    char *t = xstrndup(s, len);
    for (char *c = t; *c; c++)
        if (!printable((unsigned char)*c))
            *c = '?';
    return t;
}

static void add_row_common(struct table *out, size_t r, const struct boot_desc *b)
{
    char buf[32];
    table_setn(out, r, "sched", b->sched);
    snprintf(buf, sizeof(buf), "%ld", b->smp);
    table_setn(out, r, "smp", buf);
    snprintf(buf, sizeof(buf), "%ld", b->boot);
    table_setn(out, r, "boot", buf);
    table_setn(out, r, "oversubscribed", b->oversub ? b->oversub : "unknown");
    table_setn(out, r, "log", b->name);
}

void collect_boot(const struct boot_desc *b, const char *log, size_t len, const struct expectation *e,
                  struct table *out, struct boot_verdict *v)
{
    memset(v, 0, sizeof(*v));
    char *panic = NULL, *watchdog = NULL, *error = NULL;
    long done_exit = -1;
    size_t garbage = 0;

    /* The expected runs: runs x the product of the swept lists. */
    size_t nswept = 0, nslots = 1;
    size_t *swept_idx = xcalloc(e->nparams + 1, sizeof(size_t));
    char ***lists = xcalloc(e->nparams + 1, sizeof(char **));
    size_t *listn = xcalloc(e->nparams + 1, sizeof(size_t));
    for (size_t i = 0; i < e->nparams; i++)
        if (e->swept[i]) {
            swept_idx[nswept] = i;
            lists[nswept] = split_commas(e->value[i], &listn[nswept]);
            if (nslots < 1000000)
                nslots *= listn[nswept];
            nswept++;
        }
    if (!e->bench || nslots >= 1000000)
        nslots = 0;   /* unknown workload set: take whatever arrives */
    else
        nslots *= (size_t)e->runs;
    struct slot *slots = xcalloc(nslots + 1, sizeof(struct slot));
    for (size_t s = 0; s < nslots; s++) {
        size_t rest = s;
        slots[s].value = xcalloc(nswept + 1, sizeof(char *));
        for (size_t k = nswept; k-- > 0;) {
            slots[s].value[k] = lists[k][rest % listn[k]];
            rest /= listn[k];
        }
        slots[s].run = (long)rest;
    }
    v->expected = nslots;

    /* Walk the lines. */
    size_t pos = 0;
    while (pos < len) {
        const char *line = log + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        bool truncated = nl == NULL;
        pos += ll + (nl ? 1 : 0);
        if (ll && line[ll - 1] == '\r')
            ll--;
        for (size_t i = 0; i < ll; i++)
            garbage += !printable((unsigned char)line[i]);
        if (ll >= 6 && memcmp(line, "boot: ", 6) == 0) {
            if (!v->boot_line)
                v->boot_line = clean_text(line, ll);
        } else if (ll >= 6 && memcmp(line, "panic:", 6) == 0) {
            if (!panic)
                panic = clean_text(line, ll);
        } else if (ll >= 9 && memcmp(line, "watchdog:", 9) == 0) {
            if (!watchdog)
                watchdog = clean_text(line, ll);
        } else if (ll >= 6 && memcmp(line, "error:", 6) == 0) {
            if (!error)
                error = clean_text(line, ll);
        } else if (ll >= 11 && memcmp(line, "done: exit=", 11) == 0 && !truncated) {
            char *t = xstrndup(line + 11, ll - 11);
            long x;
            if (parse_long(t, &x))
                done_exit = x;
            free(t);
        } else if (ll >= 7 && memcmp(line, "result ", 7) == 0) {
            struct kvline l;
            parse_result_line(line, ll, truncated, &l);
            char buf[64];
            const char *sched = kv_get(&l, "sched"), *cpus = kv_get(&l, "cpus");
            if (!l.problem && !streq(sched, b->sched))
                kv_problem(&l, xasprintf("the kernel reports sched=%s, expected %s", sched, b->sched));
            snprintf(buf, sizeof(buf), "%ld", b->smp);
            if (!l.problem && !same_value(cpus, buf))
                kv_problem(&l, xasprintf("only cpus=%s online of smp=%ld", cpus, b->smp));

            /* Which expected run is this? */
            struct slot *match = NULL;
            bool duplicate = false;
            long run;
            const char *bench = kv_get(&l, "bench");
            if (nslots && streq(bench, e->bench) && parse_long(kv_get(&l, "run"), &run)) {
                for (size_t s = 0; s < nslots && !match; s++) {
                    if (slots[s].run != run)
                        continue;
                    bool fits = true;
                    for (size_t k = 0; k < nswept && fits; k++) {
                        const char *rv = kv_get(&l, e->key[swept_idx[k]]);
                        fits = !rv || same_value(rv, slots[s].value[k]);
                    }
                    if (!fits)
                        continue;
                    if (slots[s].filled)
                        duplicate = true;
                    else
                        match = &slots[s];
                }
                if (!match && duplicate)
                    kv_problem(&l, xstrdup("duplicate result line"));
            }
            if (match)
                match->filled = true;

            size_t r = table_add_row(out);
            add_row_common(out, r, b);
            for (size_t k = 0; k < l.n; k++)
                if (strcmp(l.key[k], "sched") && strcmp(l.key[k], "status") && strcmp(l.key[k], "reason"))
                    if (!l.problem || !is_metric_key(l.key[k]))
                        table_setn(out, r, l.key[k], l.value[k]);
            /* A damaged line that still matched an expected run gets that run's values. */
            for (size_t k = 0; match && k < nswept; k++)
                if (!kv_get(&l, e->key[swept_idx[k]]))
                    table_setn(out, r, e->key[swept_idx[k]], match->value[k]);
            if (match && !kv_get(&l, "bench"))
                table_setn(out, r, "bench", e->bench);
            if (l.problem) {
                table_setn(out, r, "status", "failed");
                table_setn(out, r, "reason", l.problem);
                v->failed_rows++;
            } else {
                const char *st = kv_get(&l, "status");
                table_setn(out, r, "status", st);
                if (strcmp(st, "ok") == 0) {
                    v->ok_rows++;
                } else {
                    const char *kr = kv_get(&l, "reason");
                    char *why = xasprintf("the workload reported status=%s%s%s", st, kr ? ": " : "", kr ? kr : "");
                    table_setn(out, r, "reason", why);
                    free(why);
                    v->failed_rows++;
                }
            }
            kv_free(&l);
        }
    }

    /* The boot as a whole. */
    char *reason = rc_reason(b->rc, panic, watchdog, error, b->err_tail);
    if (!reason && !v->boot_line)
        reason = xstrdup("no boot: line on the serial console");
    if (!reason && done_exit != 0)
        reason = done_exit < 0 ? xstrdup("no 'done: exit=0' line (log ends early)")
                               : xasprintf("done: exit=%ld but QEMU exited 0", done_exit);
    if (!reason && garbage)
        reason = xasprintf("garbage on the serial line (%zu unprintable bytes)", garbage);
    size_t missing = 0;
    for (size_t s = 0; s < nslots; s++)
        missing += !slots[s].filled;
    if (!reason && missing)
        reason = xasprintf("%zu of %zu expected results missing", missing, nslots);
    if (!reason && nslots == 0 && v->ok_rows + v->failed_rows == 0)
        reason = xstrdup("no result lines");

    /* A row for every expected run that never reported. */
    for (size_t s = 0; s < nslots; s++) {
        if (slots[s].filled)
            continue;
        size_t r = table_add_row(out);
        char buf[32];
        add_row_common(out, r, b);
        snprintf(buf, sizeof(buf), "%ld", slots[s].run);
        table_setn(out, r, "run", buf);
        table_setn(out, r, "bench", e->bench);
        for (size_t i = 0; i < e->nparams; i++)
            if (!e->swept[i])
                table_setn(out, r, e->key[i], e->value[i]);
        for (size_t k = 0; k < nswept; k++)
            table_setn(out, r, e->key[swept_idx[k]], slots[s].value[k]);
        table_setn(out, r, "status", "failed");
        char *why = xasprintf("missing result: %s", reason ? reason : "not printed");
        table_setn(out, r, "reason", why);
        free(why);
        v->failed_rows++;
    }
    if (nslots == 0 && reason && v->ok_rows + v->failed_rows == 0) {
        /* Nothing to match against: still leave one row so the failure shows. */
        size_t r = table_add_row(out);
        add_row_common(out, r, b);
        table_setn(out, r, "bench", e->bench ? e->bench : "unknown");
        table_setn(out, r, "status", "failed");
        table_setn(out, r, "reason", reason);
        v->failed_rows++;
    }
    if (!reason && v->failed_rows)
        reason = xasprintf("%zu result(s) not ok", v->failed_rows);
    v->ok = reason == NULL;
    v->reason = reason;

    for (size_t s = 0; s < nslots; s++)
        free(slots[s].value);
    free(slots);
    for (size_t k = 0; k < nswept; k++) {
        for (size_t i = 0; i < listn[k]; i++)
            free(lists[k][i]);
        free(lists[k]);
    }
    free(lists);
    free(listn);
    free(swept_idx);
    free(panic);
    free(watchdog);
    free(error);
}
