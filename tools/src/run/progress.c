/* Plans, recorded boot times and the ETA (see progress.h). */
#include "progress.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *boot_key(const char *accel, long mem, long smp, const char *sched, const char *const *words, size_t nwords)
{
    const char **w = xcalloc(nwords + 1, sizeof(*w));
    size_t n = 0;
    for (size_t i = 0; i < nwords; i++)
        if (words[i] && words[i][0] && strcmp(words[i], "runs=1"))
            w[n++] = words[i];
    qsort(w, n, sizeof(*w), cmp_str);
    struct strbuf b = { 0 };
    sb_printf(&b, "accel=%s mem=%ld smp=%ld sched=%s", accel && *accel ? accel : "tcg", mem, smp, sched);
    for (size_t i = 0; i < n; i++)
        if (!i || strcmp(w[i], w[i - 1]))
            sb_printf(&b, " %s", w[i]);
    free(w);
    return b.s;
}

/* ---------------------------------------------------------------- plans */

bool plan_read(const char *path, struct plan *p)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return false;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[4];
        size_t nf = 0;
        char *q = line;
        while (nf < 4 && q) {
            f[nf++] = q;
            char *tab = nf < 4 ? strchr(q, '\t') : NULL;
            if (tab)
                *tab++ = '\0';
            q = tab;
        }
        long slots;
        if (nf < 4 || line[0] == '#' || !parse_long(f[2], &slots) || slots < 1)
            continue;
        grow(&p->b, &p->cap, p->n, sizeof(*p->b));
        struct plan_boot *b = &p->b[p->n++];
        memset(b, 0, sizeof(*b));
        b->done = xstrdup(f[0]);
        b->start = xstrdup(f[1]);
        b->slots = slots;
        b->key = xstrdup(f[3]);
        b->est = NAN;
        b->wall = NAN;
    }
    free(buf);
    return true;
}

void plan_free(struct plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->b[i].done);
        free(p->b[i].start);
        free(p->b[i].key);
    }
    free(p->b);
    memset(p, 0, sizeof(*p));
}

/* ---------------------------------------------------------------- recorded times */

static long times_find(const struct times *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->key[i], key))
            return (long)i;
    return -1;
}

static void times_add(struct times *t, const char *key, double wall, const char *note)
{
    long i = times_find(t, key);
    if (i < 0) {
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->key = xrealloc(t->key, t->cap * sizeof(*t->key));
            t->last_note = xrealloc(t->last_note, t->cap * sizeof(*t->last_note));
            t->last = xrealloc(t->last, t->cap * sizeof(*t->last));
            t->count = xrealloc(t->count, t->cap * sizeof(*t->count));
        }
        i = (long)t->n++;
        t->key[i] = xstrdup(key);
        t->last_note[i] = NULL;
        t->count[i] = 0;
    }
    t->last[i][t->count[i] % 5] = wall;
    t->count[i]++;
    free(t->last_note[i]);
    t->last_note[i] = xstrdup(note);
}

const char *times_note(const struct times *t, const char *key)
{
    long i = times_find(t, key);
    return i < 0 ? NULL : t->last_note[i];
}

void times_read(const char *path, struct times *t)
{
    size_t len;
    char *buf = path ? read_file(path, &len) : NULL;
    if (!buf)
        return;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        /* boot WALL_S DATE KEY...  or  run WALL_S DATE PLAN-HASH LABEL... */
        bool run = !strncmp(line, "run ", 4);
        if (strncmp(line, "boot ", 5) && !run)
            continue;
        char *p = line + (run ? 4 : 5), *sp = strchr(p, ' ');
        if (!sp)
            continue;
        *sp = '\0';
        double wall;
        if (!parse_double(p, &wall) || wall < 0)
            continue;
        char *date = sp + 1, *key = strchr(date, ' ');
        if (!key || !key[1])
            continue;
        *key = '\0';
        if (run) {   /* "run:HASH": the label is for people */
            char *end = strchr(key + 1, ' ');
            if (end)
                *end = '\0';
            char *k = xasprintf("run:%s", key + 1), *note = xasprintf("%s %s", date, end ? end + 1 : "");
            times_add(t, k, wall, note);
            free(k);
            free(note);
        } else {
            times_add(t, key + 1, wall, date);
        }
    }
    free(buf);
}

void times_free(struct times *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->key[i]);
        free(t->last_note[i]);
    }
    free(t->key);
    free(t->last_note);
    free(t->last);
    free(t->count);
    memset(t, 0, sizeof(*t));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double times_lookup(const struct times *t, const char *key)
{
    long i = times_find(t, key);
    if (i < 0)
        return NAN;
    size_t n = t->count[i] < 5 ? t->count[i] : 5;
    double v[5];
    memcpy(v, t->last[i], n * sizeof(double));
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

char *plan_hash(const struct plan *p)
{
    char **k = xcalloc(p->n + 1, sizeof(*k));
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!p->b[i].done_before)
            k[n++] = p->b[i].key;
    qsort(k, n, sizeof(*k), cmp_str);
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        for (const char *c = k[i];; c++) {
            h ^= (unsigned char)*c;   /* the NUL too: a separator */
            h *= 1099511628211ull;
            if (!*c)
                break;
        }
    free(k);
    return xasprintf("%016llx", h);
}

bool times_append_run(const char *path, double wall, const char *hash, const char *label)
{
    char *key = xasprintf("%s %s", hash, label);
    FILE *f = fopen(path, "a");
    if (!f) {
        free(key);
        return false;
    }
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    char *line = xasprintf("run %.1f %s %s\n", wall, date, key);
    bool ok = fputs(line, f) >= 0;
    free(line);
    free(key);
    return fclose(f) == 0 && ok;
}

bool times_append(const char *path, double wall, const char *key)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return false;
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
    /* one write per line: concurrent writers (rows side by side) do not interleave */
    char *line = xasprintf("boot %.1f %s %s\n", wall, date, key);
    bool ok = fputs(line, f) >= 0;
    free(line);
    return fclose(f) == 0 && ok;
}

void fmt_duration(char *buf, size_t n, double s)
{
    long x = isfinite(s) && s > 0 ? (long)(s + 0.5) : 0;
    if (x >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", x / 3600, x / 60 % 60, x % 60);
    else
        snprintf(buf, n, "%ld:%02ld", x / 60, x % 60);
}

/* ---------------------------------------------------------------- the ETA */

void plan_eta(const struct plan *p, double now, long slots, struct eta *e)
{
    memset(e, 0, sizeof(*e));
    e->factor = 1;
    double obs = 0, rec = 0, run_sum = 0;
    size_t run_n = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_boot *b = &p->b[i];
        if (b->done_before)
            continue;
        e->total++;
        if (!b->finished)
            continue;
        e->done++;
        if (isfinite(b->wall)) {
            run_sum += b->wall;
            run_n++;
            if (isfinite(b->est) && b->est > 0) {
                obs += b->wall;
                rec += b->est;
            }
        }
    }
    if (rec > 0) {
        e->factor = obs / rec;
        e->factor = e->factor < 0.2 ? 0.2 : e->factor > 5 ? 5 : e->factor;
    }
    if (slots < 1)
        slots = 1;
    double work = 0, longest = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_boot *b = &p->b[i];
        if (b->done_before || b->finished)
            continue;
        double t;
        if (isfinite(b->est)) {
            t = b->est * e->factor;
            e->from_records = true;
        } else if (run_n) {
            t = run_sum / (double)run_n;
            e->from_run = true;
        } else {
            e->unknown++;
            continue;
        }
        if (b->seen_start) {
            e->running++;
            t -= now - b->t_start;
            if (t < 0)
                t = 0;
        }
        long s = b->slots > slots ? slots : b->slots;
        work += t * (double)s;
        if (t > longest)
            longest = t;
    }
    for (size_t i = 0; i < p->n; i++)   /* running boots without any estimate still run */
        if (!p->b[i].done_before && !p->b[i].finished && p->b[i].seen_start && !isfinite(p->b[i].est) && !run_n)
            e->running++;
    e->seconds = e->unknown == e->total - e->done && e->unknown ? NAN : fmax(work / (double)slots, longest);
}
