/* The serial protocol, read (see proto.h and kernel/protocol.h). */
#include "proto.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* ---- the declarations, as tables ---- */

struct pkey {
    const char *name;   /* NULL: a place for optional words (a W() of the table) */
    const char *conv;   /* the kernel's printf conversion: what the value looks like */
};
#define PK_(key, conv) { #key, conv },
#define PW_(conv) { NULL, conv },
#define TABLE(T) static const struct pkey t_##T[] = { PROTO_##T##_KEYS(PK_, PW_) { "", NULL } };
TABLE(BOOT)
TABLE(TUNABLES)
TABLE(RESULT)
TABLE(CHANSTAT)
TABLE(TBENCHSTAT)
TABLE(STACKSTAT)
TABLE(SCHEDSTAT)
TABLE(VSMPSTAT)
TABLE(VSMPSTAT_CPU)
TABLE(COSTSTAT)
TABLE(PVSPINSTAT)
TABLE(TRACESTAT)
TABLE(WORKLOAD)
TABLE(KEY)
TABLE(TUNABLE)
TABLE(PRESET)
TABLE(DONE)
#undef TABLE

static const struct kind {
    const char *name, *word;
    enum proto_shape shape;
} kinds[] = {
#define KIND_(name, word, shape) { #name, word, shape },
    PROTO_KINDS(KIND_)
#undef KIND_
};

static const struct pkey *table_of(int kind)
{
    switch (kind) {
    case PROTO_BOOT: return t_BOOT;
    case PROTO_TUNABLES: return t_TUNABLES;
    case PROTO_RESULT: return t_RESULT;
    case PROTO_CHANSTAT: return t_CHANSTAT;
    case PROTO_TBENCHSTAT: return t_TBENCHSTAT;
    case PROTO_STACKSTAT: return t_STACKSTAT;
    case PROTO_SCHEDSTAT: return t_SCHEDSTAT;
    case PROTO_VSMPSTAT: return t_VSMPSTAT;
    case PROTO_COSTSTAT: return t_COSTSTAT;
    case PROTO_PVSPINSTAT: return t_PVSPINSTAT;
    case PROTO_TRACESTAT: return t_TRACESTAT;
    case PROTO_WORKLOAD: return t_WORKLOAD;
    case PROTO_KEY: return t_KEY;
    case PROTO_TUNABLE: return t_TUNABLE;
    case PROTO_PRESET: return t_PRESET;
    case PROTO_DONE: return t_DONE;
    default: return NULL;
    }
}

/* The key names of each table, NULL-terminated (proto_keys). */
#define PN_(key, conv) #key,
#define PNW_(conv)
#define NAMES(T) static const char *const n_##T[] = { PROTO_##T##_KEYS(PN_, PNW_) NULL };
NAMES(BOOT)
NAMES(TUNABLES)
NAMES(RESULT)
NAMES(CHANSTAT)
NAMES(TBENCHSTAT)
NAMES(STACKSTAT)
NAMES(SCHEDSTAT)
NAMES(VSMPSTAT)
NAMES(COSTSTAT)
NAMES(PVSPINSTAT)
NAMES(TRACESTAT)
NAMES(WORKLOAD)
NAMES(KEY)
NAMES(TUNABLE)
NAMES(PRESET)
NAMES(DONE)
#undef NAMES
const char *const proto_vsmpstat_cpu_keys[] = { PROTO_VSMPSTAT_CPU_KEYS(PN_, PNW_) NULL };
static const char *const no_keys[] = { NULL };

const char *const *proto_keys(int kind)
{
    switch (kind) {
    case PROTO_BOOT: return n_BOOT;
    case PROTO_TUNABLES: return n_TUNABLES;
    case PROTO_RESULT: return n_RESULT;
    case PROTO_CHANSTAT: return n_CHANSTAT;
    case PROTO_TBENCHSTAT: return n_TBENCHSTAT;
    case PROTO_STACKSTAT: return n_STACKSTAT;
    case PROTO_SCHEDSTAT: return n_SCHEDSTAT;
    case PROTO_VSMPSTAT: return n_VSMPSTAT;
    case PROTO_COSTSTAT: return n_COSTSTAT;
    case PROTO_PVSPINSTAT: return n_PVSPINSTAT;
    case PROTO_TRACESTAT: return n_TRACESTAT;
    case PROTO_WORKLOAD: return n_WORKLOAD;
    case PROTO_KEY: return n_KEY;
    case PROTO_TUNABLE: return n_TUNABLE;
    case PROTO_PRESET: return n_PRESET;
    case PROTO_DONE: return n_DONE;
    default: return no_keys;
    }
}

enum proto_shape proto_shape_of(int kind)
{
    return kind >= 0 && kind < PROTO_NKINDS ? kinds[kind].shape : PROTO_TEXT;
}

const char *proto_kind_word(int kind)
{
    return kind >= 0 && kind < PROTO_NKINDS ? kinds[kind].word : NULL;
}

bool proto_word_is(const char *word, const char *want)
{
    size_t w = strlen(word), n = strlen(want);
    if (w && word[w - 1] == ':')
        w--;
    if (n && want[n - 1] == ':')
        n--;
    return w == n && strncmp(word, want, n) == 0;
}

int proto_kind(const char *word)
{
    for (int k = 0; k < PROTO_NKINDS; k++)
        if (proto_word_is(kinds[k].word, word))
            return k;
    return -1;
}

/* ---- what a result line measures ---- */

static const struct metric_decl {
    const char *key;
    int better, positive;
} metrics[] = {
#define M_(key, better, sign) { #key, better, sign },
    PROTO_METRICS(M_)
#undef M_
};
static const char *const counters[] = {
#define C_(key) #key,
    PROTO_COUNTERS(C_)
#undef C_
};
static const char *const workload_metric[][2] = {
#define W_(bench, metric) { #bench, #metric },
    PROTO_WORKLOAD_METRICS(W_)
#undef W_
};

static const struct metric_decl *metric_decl(const char *key)
{
    for (size_t i = 0; key && i < sizeof(metrics) / sizeof(metrics[0]); i++)
        if (!strcmp(metrics[i].key, key))
            return &metrics[i];
    return NULL;
}

bool proto_is_metric(const char *key) { return metric_decl(key) != NULL; }

int proto_metric_better(const char *key)
{
    const struct metric_decl *m = metric_decl(key);
    return m ? m->better : 0;
}

bool proto_metric_positive(const char *key)
{
    const struct metric_decl *m = metric_decl(key);
    return m && m->positive == PROTO_POSITIVE;
}

bool proto_is_counter(const char *key)
{
    for (size_t i = 0; key && i < sizeof(counters) / sizeof(counters[0]); i++)
        if (!strcmp(counters[i], key))
            return true;
    return false;
}

const char *proto_workload_metric(const char *bench)
{
    for (size_t i = 0; bench && i < sizeof(workload_metric) / sizeof(workload_metric[0]); i++)
        if (!strcmp(workload_metric[i][0], bench))
            return workload_metric[i][1];
    return NULL;
}

/* ---- one line ---- */

static bool is_key_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static void problem(struct proto_line *l, char *why)
{
    if (l->problem)
        free(why);
    else
        l->problem = why;
}

static void add(struct proto_line *l, const char *k, size_t kl, const char *v, size_t vl)
{
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->key[i]) == kl && !memcmp(l->key[i], k, kl)) {
            problem(l, xasprintf("key '%.*s' given twice", (int)kl, k));
            return;
        }
    l->key = xrealloc(l->key, (l->n + 1) * sizeof(*l->key));
    l->value = xrealloc(l->value, (l->n + 1) * sizeof(*l->value));
    l->key[l->n] = xstrndup(k, kl);
    l->value[l->n] = xstrndup(v, vl);
    l->n++;
}

/* Does value look like what the kernel prints with conv? */
static bool looks_like(const char *v, const char *conv)
{
    if (!conv || !strcmp(conv, "%s") || !strcmp(conv, "\"%s\""))
        return *v != 0 || (conv && conv[0] == '"');
    if (!strcmp(conv, "%d") && *v == '-')
        v++;
    if (!*v)
        return false;
    for (; *v; v++)
        if (*v < '0' || *v > '9')
            return false;
    return true;
}

/* The line's keys against its kind's table: each declared key in its
 * place (after a place for optional words, any keys may come first), its
 * value of the declared form; a fixed kind has nothing more. */
static void check_declared(struct proto_line *l)
{
    const struct pkey *t = table_of(l->kind);
    if (!t)
        return;
    if (l->kind == PROTO_VSMPSTAT && l->n && !strcmp(l->key[0], "cpu"))
        t = t_VSMPSTAT_CPU;   /* its CPU lines */
    size_t i = 0;
    bool slot = false;
    for (; t->conv; t++) {
        if (!t->name) {
            slot = true;
            continue;
        }
        while (slot && i < l->n && strcmp(l->key[i], t->name))
            i++;
        slot = false;
        if (i >= l->n || strcmp(l->key[i], t->name)) {
            problem(l, i < l->n ? xasprintf("%s where %s %s= belongs", l->key[i], l->word, t->name)
                                : xasprintf("no %s= (%s declares it)", t->name, l->word));
            return;
        }
        if (!looks_like(l->value[i], t->conv)) {
            problem(l, xasprintf("%s=%.40s is not a %s", t->name, l->value[i],
                                 strcmp(t->conv, "%s") ? "number" : "value"));
            return;
        }
        i++;
    }
    if (proto_shape_of(l->kind) == PROTO_FIXED && !slot && i < l->n)
        problem(l, xasprintf("%s= after the last key %s declares", l->key[i], l->word));
}

void proto_parse(const char *line, size_t len, struct proto_line *l)
{
    memset(l, 0, sizeof(*l));
    size_t i = 0;
    while (i < len && line[i] != ' ')
        i++;
    l->word = xstrndup(line, i);
    l->kind = proto_kind(l->word);
    if (l->kind >= 0 && strcmp(l->word, kinds[l->kind].word))
        l->kind = -1;   /* "boot" is not "boot:": only the exact first word is the kind */
    l->text = xstrndup(line + (i < len ? i + 1 : i), i < len ? len - i - 1 : 0);
    for (size_t c = 0; c < len; c++)
        if ((unsigned char)line[c] < 0x20 || (unsigned char)line[c] >= 0x7f) {
            problem(l, xstrdup("unprintable bytes"));
            break;
        }
    bool text = proto_shape_of(l->kind) == PROTO_TEXT && l->kind >= 0;
    while (i < len) {
        while (i < len && line[i] == ' ')
            i++;
        if (i >= len)
            break;
        size_t w = i, k = i;
        while (k < len && is_key_char(line[k]))
            k++;
        if (k > w && k < len && line[k] == '=') {
            size_t v = k + 1, e = v;
            if (e < len && line[e] == '"') {
                const char *q = memchr(line + e + 1, '"', len - e - 1);
                if (q) {
                    add(l, line + w, k - w, line + e + 1, (size_t)(q - line - e - 1));
                    i = (size_t)(q - line) + 1;
                    if (i < len && line[i] != ' ' && !text)
                        problem(l, xasprintf("text after the closing quote of %.*s=", (int)(k - w), line + w));
                    while (i < len && line[i] != ' ')
                        i++;
                    continue;
                }
                if (!text)
                    problem(l, xasprintf("%.*s=: an opening quote without its end", (int)(k - w), line + w));
            }
            while (e < len && line[e] != ' ')
                e++;
            add(l, line + w, k - w, line + v, e - v);
            i = e;
        } else {
            while (i < len && line[i] != ' ')
                i++;
            if (!text && l->kind >= 0)
                problem(l, xasprintf("word '%.*s' is not key=value", (int)(i - w < 40 ? i - w : 40), line + w));
        }
    }
    if (l->kind >= 0 && !l->problem)
        check_declared(l);
}

void proto_line_free(struct proto_line *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->key[i]);
        free(l->value[i]);
    }
    free(l->key);
    free(l->value);
    free(l->word);
    free(l->text);
    free(l->problem);
    memset(l, 0, sizeof(*l));
}

const char *proto_get(const struct proto_line *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->key[i], key))
            return l->value[i];
    return NULL;
}

void proto_each_line(const char *log, size_t len, proto_line_fn fn, void *arg)
{
    size_t no = 0;
    for (size_t pos = 0; pos < len;) {
        const char *line = log + pos, *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        no++;
        size_t shown = ll;
        if (shown && line[shown - 1] == '\r')
            shown--;
        fn(line, shown, no, nl == NULL, arg);
    }
}
