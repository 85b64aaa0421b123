/* Provenance columns and the comparability check (see provenance.h). */
#include "provenance.h"
#include "metric.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kvl_set(struct kvlist *l, const char *key, const char *value)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->key[i], key)) {
            free(l->value[i]);
            l->value[i] = xstrdup(value);
            return;
        }
    l->key = xrealloc(l->key, (l->n + 1) * sizeof(char *));
    l->value = xrealloc(l->value, (l->n + 1) * sizeof(char *));
    l->key[l->n] = xstrdup(key);
    l->value[l->n] = xstrdup(value);
    l->n++;
}

const char *kvl_get(const struct kvlist *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->key[i], key))
            return l->value[i];
    return NULL;
}

void kvl_free(struct kvlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->key[i]);
        free(l->value[i]);
    }
    free(l->key);
    free(l->value);
    memset(l, 0, sizeof(*l));
}

void table_set_kvlist(struct table *t, size_t r, const struct kvlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        table_setn(t, r, l->key[i], l->value[i]);
}

/* ---------------------------------------------------------------- meta.txt */

/* A value fit for one CSV cell and one line of a message: printable, and
 * whole (never cut: a provenance value is compared, and a cut one would
 * make two equal runs differ or two different ones look alike).  Commas
 * and quotes stay: the CSV writer quotes them (RFC 4180). */
static char *clean_value(const char *s, size_t n)
{
    char *v = xstrndup(s, n);
    for (char *c = v; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            *c = '?';
    return v;
}

/* FNV-1a, 64 bits: a short name for a long flags text. */
static char *hash_text(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return xasprintf("%016llx", (unsigned long long)h);
}

/* The kernel's flags without its SCHED= word: the same for every scheduler
 * of one configuration, different when any compiler flag differs. */
static char *flags_hash(const char *flags)
{
    struct strbuf b = { 0 };
    const char *p = flags;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (n && strncmp(p, "SCHED=", 6) != 0) {
            if (b.len)
                sb_add(&b, " ");
            sb_addn(&b, p, n);
        }
        p += n;
        p += strspn(p, " ");
    }
    char *h = hash_text(b.s ? b.s : "");
    sb_free(&b);
    return h;
}

/* "HZ=1000 LOCK=tas CFLAGS_EXTRA=-O3 -g": a new key starts at a word
 * [A-Z][A-Z0-9_]*=; a value runs to the next one (it may hold spaces). */
static void build_words(struct kvlist *l, const char *s)
{
    const char *p = s;
    while (*p) {
        p += strspn(p, " ");
        const char *k = p;
        while (isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_')
            p++;
        if (p == k || *p != '=' || !isupper((unsigned char)*k)) {   /* not a KEY=: skip the word */
            p += strcspn(p, " ");
            continue;
        }
        size_t kl = (size_t)(p - k);
        const char *v = ++p, *end = v;
        for (;;) {   /* up to the next " KEY=" */
            const char *sp = strchr(end, ' ');
            if (!sp) {
                end = v + strlen(v);
                break;
            }
            const char *q = sp + 1;
            while (isupper((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_')
                q++;
            if (q > sp + 1 && *q == '=' && isupper((unsigned char)sp[1])) {
                end = sp;
                break;
            }
            end = sp + 1;
        }
        char *key = xasprintf("build_%.*s", (int)kl, k);
        for (char *c = key; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        char *val = end > v ? clean_value(v, (size_t)(end - v)) : xstrdup("none");   /* an empty setting is one too */
        kvl_set(l, key, val);
        free(key);
        free(val);
        p = end;
    }
}

bool meta_read(const char *dir, struct meta *m)
{
    memset(m, 0, sizeof(*m));
    char *path = xasprintf("%s/meta.txt", dir);
    size_t len;
    char *buf = read_file(path, &len);
    free(path);
    if (!buf)
        return false;
    static const char *const plain[][2] = {
        { "git_revision", "git_revision" }, { "accel", "accel" }, { "mem_mib", "mem_mib" },
        { "qemu", "qemu" },                 { "date", "date" },   { "host", "host" },
    };
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strstr(line, ": ");
        if (!colon)
            continue;
        *colon = '\0';
        const char *value = colon + 2;
        if (!strcmp(line, "build")) {
            build_words(&m->common, value);
        } else if (!strncmp(line, "kernel_flags_", 13) && line[13]) {
            char *h = flags_hash(value);
            kvl_set(&m->flags, line + 13, h);
            free(h);
        } else {
            for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
                if (!strcmp(line, plain[i][0]) && !kvl_get(&m->common, plain[i][1])) {
                    char *v = clean_value(value, strlen(value));
                    kvl_set(&m->common, plain[i][1], v);
                    free(v);
                }
        }
    }
    free(buf);
    return true;
}

void meta_free(struct meta *m)
{
    kvl_free(&m->common);
    kvl_free(&m->flags);
}

void meta_row_provenance(const struct meta *m, const char *sched, struct kvlist *out)
{
    for (size_t i = 0; i < m->common.n; i++)
        kvl_set(out, m->common.key[i], m->common.value[i]);
    const char *f = sched ? kvl_get(&m->flags, sched) : NULL;
    if (f)
        kvl_set(out, "kernel_flags", f);
}

void boot_line_provenance(const char *boot_line, struct kvlist *out)
{
    if (!boot_line || strncmp(boot_line, "boot: ", 6) != 0)
        return;
    const char *p = boot_line + 6;
    while (*p) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        const char *eq = memchr(p, '=', n);
        size_t kl = eq ? (size_t)(eq - p) : 0;
        bool good = kl > 0 && kl + 1 < n;
        for (size_t i = 0; good && i < kl; i++)
            good = islower((unsigned char)p[i]) || isdigit((unsigned char)p[i]) || p[i] == '_';
        if (good && !(kl == 4 && !strncmp(p, "cpus", 4)) && !(kl == 5 && !strncmp(p, "sched", 5))) {
            char *key = xasprintf("boot_%.*s", (int)kl, p);
            char *val = clean_value(eq + 1, n - kl - 1);   /* whole: real=atomic,timer,hlt,ipi */
            kvl_set(out, key, val);
            free(key);
            free(val);
        }
        p += n;
    }
}

/* ---------------------------------------------------------------- comparability */

/* The values one series has in one column (distinct, in order of appearance). */
struct valset {
    char **v;
    size_t n;
};

static void valset_add(struct valset *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], x))
            return;
    s->v = xrealloc(s->v, (s->n + 1) * sizeof(char *));
    s->v[s->n++] = xstrdup(x);
}

static bool valset_equal(const struct valset *a, const struct valset *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        bool found = false;
        for (size_t j = 0; j < b->n && !found; j++)
            found = !strcmp(a->v[i], b->v[j]);
        if (!found)
            return false;
    }
    return true;
}

static void valset_clear(struct valset *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < s[i].n; j++)
            free(s[i].v[j]);
        free(s[i].v);
        s[i].v = NULL;
        s[i].n = 0;
    }
}

/* Row r's CPU count ("" when the table has none). */
static const char *row_smp(const struct table *t, size_t r, int smpc)
{
    const char *smp = smpc >= 0 ? table_get(t, r, smpc) : NULL;
    return smp ? smp : "";
}

/* Each series' values in column c, in the rows of the view's workload with
 * CPU count smp (NULL: every CPU count); sets[] is cleared first. */
static void series_values(const struct view *v, const struct table *t, int c, int sc, int bc, int smpc,
                          const char *smp, struct valset *sets)
{
    valset_clear(sets, v->nseries);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *val = table_get(t, r, c), *s = table_get(t, r, sc);
        if (!val || !s || !streq(table_get(t, r, bc), v->bench) || (smp && strcmp(row_smp(t, r, smpc), smp)))
            continue;
        for (size_t i = 0; i < v->nseries; i++)
            if (!strcmp(v->series[i], s))
                valset_add(&sets[i], val);
    }
}

/* A series that records nothing in the column (an older results.csv) is not a difference. */
static bool sets_differ(const struct view *v, const struct valset *sets)
{
    for (size_t i = 1; i < v->nseries; i++)
        if (sets[0].n && sets[i].n && !valset_equal(&sets[0], &sets[i]))
            return true;
    return false;
}

static void valset_print(struct strbuf *b, const struct valset *s)
{
    for (size_t i = 0; i < s->n && i < 4; i++)
        sb_printf(b, "%s%s", i ? "," : "", s->v[i]);
    if (s->n > 4)
        sb_printf(b, ",... (%zu values)", s->n);
}

static bool in_comma_list(const char *list, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n == kl && !strncmp(p, key, kl))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

/* A column the check compares: provenance that does not vary by nature, and
 * workload parameters; never a dimension of the view or the compared axis. */
static bool compared_column(const struct view *v, const struct table *t, int c, const char *series_col)
{
    const char *name = t->col[c];
    if (c == v->across || !strcmp(name, series_col))
        return false;
    for (size_t p = 0; p < v->nvariant; p++)
        if (c == v->variant[p])
            return false;
    if (is_provenance_column(name))
        return !is_measured_provenance(name);
    return !is_fixed_column(name) && !is_metric_key(name) && !is_counter_key(name);
}

char *comparability_check(const struct view *v, const struct table *t, const char *series_col, const char *allow,
                          char **note)
{
    if (note)
        *note = NULL;
    int sc = table_col(t, series_col), bc = table_col(t, "bench");
    if (v->nseries < 2 || sc < 0)
        return NULL;
    struct strbuf diff = { 0 }, allowed = { 0 };
    size_t ndiff = 0;
    struct valset *sets = xcalloc(v->nseries + 1, sizeof(*sets));
    /* Within one CPU count: a key the run chooses by the CPU count (qemu-run's
     * idle=poll from 2 vCPUs, pvspin above the host's cores) differs between
     * a series' blocks, and is a difference only where two series have the
     * same CPU count and not the same values. */
    struct valset smps = { 0 };
    int smpc = table_col(t, "smp");
    for (size_t r = 0; r < t->nrows; r++)
        if (streq(table_get(t, r, bc), v->bench))
            valset_add(&smps, row_smp(t, r, smpc));
    for (size_t c = 0; c < t->ncols; c++) {
        if (!compared_column(v, t, (int)c, series_col))
            continue;
        bool differs = false;
        const char *at_smp = NULL;
        for (size_t k = 0; k < smps.n && !differs; k++) {
            series_values(v, t, (int)c, sc, bc, smpc, smps.v[k], sets);
            differs = sets_differ(v, sets);
            at_smp = smps.v[k];
        }
        if (differs && smps.n > 1) {
            /* Named with its CPU count only when the key differs by CPU count. */
            struct valset *all = xcalloc(v->nseries, sizeof(*all));
            series_values(v, t, (int)c, sc, bc, smpc, NULL, all);
            bool same = true;
            for (size_t i = 0; i < v->nseries && same; i++)
                same = valset_equal(&sets[i], &all[i]);
            if (same)
                at_smp = NULL;
            valset_clear(all, v->nseries);
            free(all);
        } else {
            at_smp = NULL;
        }
        if (differs) {
            bool ok = in_comma_list(allow, t->col[c]);
            struct strbuf *b = ok ? &allowed : &diff;
            if (ok)
                sb_printf(b, "%s %s (", allowed.len ? "," : "", t->col[c]);
            else if (at_smp)
                sb_printf(b, "\n  %s (smp=%s):", t->col[c], at_smp);
            else
                sb_printf(b, "\n  %s:", t->col[c]);
            for (size_t i = 0; i < v->nseries; i++) {
                sb_printf(b, "%s%s ", i ? "; " : ok ? "" : " ", v->series[i]);
                if (sets[i].n)
                    valset_print(b, &sets[i]);
                else
                    sb_add(b, "(not recorded)");
            }
            if (ok)
                sb_add(b, ")");
            ndiff += !ok;
        }
        valset_clear(sets, v->nseries);
    }
    free(sets);
    valset_clear(&smps, 1);
    char *err = NULL;
    if (ndiff) {
        const char *axis = !strcmp(series_col, "source") ? "results directories" : !strcmp(series_col, "sched") ? "schedulers" : series_col;
        err = xasprintf("%s %s: the %s are not comparable: besides the %s they differ in%s\n"
                        "(to compare across such a difference on purpose: --allow-diff KEY[,KEY...])",
                        v->bench, v->metric ? v->metric : "", axis, axis, diff.s);
    } else if (note && allowed.s) {
        *note = xasprintf("compared across differences on purpose (--allow-diff):%s", allowed.s);
    }
    sb_free(&diff);
    sb_free(&allowed);
    return err;
}

char *view_build_comparable(struct view *v, const struct table *t, const char *bench, const struct view_options *o,
                            bool several_dirs, const char *allow, char **note)
{
    char *err = view_build(v, t, bench, o);
    if (!err && v->metric)
        err = comparability_check(v, t, several_dirs ? "source" : "sched", allow, note);
    return err;
}
