/* Serial log parsing and the per-boot verdict (see logparse.h). */
#include "logparse.h"
#include "proto.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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
    bool truncated;     /* the log ends inside this line */
    char *cut_key, *cut_value;   /* its last, possibly partial, word (not in key[]) */
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
    free(l->cut_key);
    free(l->cut_value);
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

/* At most 40 printable characters of a word, for messages. */
static char *word_text(const char *w, size_t wl)
{
    return clean_text(w, wl < 40 ? wl : 40);
}

/* The key of word w[0..wl) when it is a well-formed key=value, else 0. */
static size_t key_length(const char *w, size_t wl)
{
    const char *eq = memchr(w, '=', wl);
    if (!eq || eq == w || eq == w + wl - 1 || eq - w > 40)
        return 0;
    for (const char *k = w; k < eq; k++)
        if (!is_key_char(*k))
            return 0;
    return (size_t)(eq - w);
}

/* The value of key=value with the characters a CSV cell or a message must not hold replaced. */
static char *word_value(const char *v, size_t n)
{
    char *value = xstrndup(v, n);
    for (char *c = value; *c; c++)
        if (!printable((unsigned char)*c) || *c == '"')
            *c = '?';
    return value;
}

/* A line's last word when the log ends inside it: kept aside, since it may
 * be cut ("groups=10" of "groups=100"). */
static void keep_cut_word(struct kvline *l, const char *w, size_t wl)
{
    size_t kl = key_length(w, wl);
    if (kl) {
        l->cut_key = xstrndup(w, kl);
        l->cut_value = word_value(w + kl + 1, wl - kl - 1);
    }
}

/* One word of a result line into l. */
static void add_word(struct kvline *l, const char *w, size_t wl)
{
    size_t kl = key_length(w, wl);
    if (!kl) {
        char *text = word_text(w, wl);
        kv_problem(l, memchr(w, '=', wl) && w[0] != '=' && w[wl - 1] != '=' ? xasprintf("bad key in '%s'", text)
                                                                            : xasprintf("word '%s' is not key=value", text));
        free(text);
        return;
    }
    char *key = xstrndup(w, kl);
    if (kv_get(l, key)) {
        kv_problem(l, xasprintf("key '%s' given twice", key));
        free(key);
    } else if (l->n == MAX_KV) {
        kv_problem(l, xstrdup("too many words"));
        free(key);
    } else {
        l->key[l->n] = key;
        l->value[l->n] = word_value(w + kl + 1, wl - kl - 1);
        l->n++;
    }
}

/* What a complete result line must have. */
static void check_fields(struct kvline *l)
{
    static const char *const required[] = { PROTO_KEY_NAMES(RESULT) PROTO_STATUS_KEY, NULL };
    for (int r = 0; required[r]; r++)
        if (!kv_get(l, required[r]))
            kv_problem(l, xasprintf("no %s=", required[r]));
    long num;
    const char *v;
    if ((v = kv_get(l, "run")) && (!parse_long(v, &num) || num < 0))
        kv_problem(l, xasprintf("run=%s is not a run index", v));
    if ((v = kv_get(l, "cpus")) && (!parse_long(v, &num) || num < 1))
        kv_problem(l, xasprintf("cpus=%s is not a CPU count", v));
    if ((v = kv_get(l, PROTO_STATUS_KEY)) && strcmp(v, PROTO_STATUS_OK) && strcmp(v, PROTO_STATUS_ERROR) &&
        strcmp(v, PROTO_STATUS_OOM))
        kv_problem(l, xasprintf("status=%s is not ok, error or oom", v));
    for (size_t k = 0; k < l->n; k++) {
        char *why = NULL;
        if (!is_metric_key(l->key[k]))
            continue;
        if (metric_check(l->key[k], l->value[k], NULL, &why) == METRIC_BAD_NUMBER)
            kv_problem(l, why);
        else
            free(why);
    }
}

/* Splits "result k=v k=v ..." (line without its end) into key/value pairs,
 * keeping whatever can be read, and notes the first thing wrong with it. */
static void parse_result_line(const char *line, size_t len, bool truncated, struct kvline *l)
{
    memset(l, 0, sizeof(*l));
    l->truncated = truncated;
    for (size_t i = 0; i < len; i++)
        if (!printable((unsigned char)line[i])) {
            kv_problem(l, xstrdup("unprintable bytes in the result line"));
            break;
        }
    if (truncated)
        kv_problem(l, xstrdup("result line cut off (log ends inside it)"));
    size_t i = strlen(PROTO_WORD_RESULT);
    while (i < len) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        if (truncated && i >= len)
            keep_cut_word(l, line + start, i - start);
        else
            add_word(l, line + start, i - start);
    }
    check_fields(l);
    if (l->problem) {
        char *why = xasprintf("malformed result line: %s", l->problem);
        free(l->problem);
        l->problem = why;
    }
}

/* The expected run a result line reports, or NULL (see slots_match). */
static bool *match_slot(struct slots *sl, const struct expectation *e, const struct kvline *l, bool *duplicate)
{
    *duplicate = false;
    if (!sl->n || !streq(kv_get(l, "bench"), e->bench))
        return NULL;
    struct wanted *want = xcalloc(sl->nswept + 1, sizeof(*want));
    for (size_t k = 0; k <= sl->nswept; k++) {
        const char *key = k == 0 ? "run" : e->key[sl->param[k - 1]];
        want[k].exact = kv_get(l, key);
        want[k].prefix = streq(l->cut_key, key) ? l->cut_value : NULL;
    }
    bool *match = slots_match(sl, want, l->truncated, duplicate);
    free(want);
    return match;
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

/* What a result line says its run is: every key but the measurements
 * (metrics, counters) and the outcome, in the order printed.  Two lines of
 * one run that differ in it are two rows of that run (cpuhog prints one line
 * per task: task=0, task=1); two that do not are a duplicate. */
static char *line_identity(const struct kvline *l)
{
    struct strbuf b = { 0 };
    for (size_t i = 0; i < l->n; i++)
        if (!is_metric_key(l->key[i]) && !is_counter_key(l->key[i]) && strcmp(l->key[i], "status"))
            sb_printf(&b, "%s=%s ", l->key[i], l->value[i]);
    return b.s ? b.s : xstrdup("");
}

/* One boot being read. */
struct walk {
    const struct boot_desc *b;
    const struct expectation *e;
    struct table *out;
    struct boot_verdict *v;
    struct slots sl;
    char *count_problem;           /* why the expected runs cannot be counted */
    char *panic, *watchdog, *error;
    long done_exit;
    size_t garbage;
    char **seen;                   /* line_identity() of every complete line that found its run */
    size_t nseen;
};

static bool seen_before(const struct walk *w, const char *id)
{
    for (size_t i = 0; i < w->nseen; i++)
        if (!strcmp(w->seen[i], id))
            return true;
    return false;
}

static void note_first(char **slot, const char *line, size_t ll)
{
    if (!*slot)
        *slot = clean_text(line, ll);
}

/* The boot line whole, however long: it is the row's provenance (every
 * word becomes a boot_<key> column, provenance.c), and a cut word would be
 * a wrong value in the very field that guards comparisons (vsmp_ipi_ns=12
 * of vsmp_ipi_ns=1260).  A line the log ends inside loses its last word,
 * which may be cut. */
static void note_boot_line(char **slot, const char *line, size_t ll, bool truncated)
{
    if (*slot)
        return;
    if (truncated)
        while (ll > 0 && line[ll - 1] != ' ')
            ll--;
    char *t = xstrndup(line, ll);
    for (char *c = t; *c; c++)
        if (!printable((unsigned char)*c))
            *c = '?';
    *slot = t;
}

/* The kernel's sched= and cpus= against the boot's. */
static void check_boot_match(struct kvline *l, const struct boot_desc *b)
{
    char buf[64];
    const char *sched = kv_get(l, "sched"), *cpus = kv_get(l, "cpus");
    if (!l->problem && !streq(sched, b->sched))
        kv_problem(l, xasprintf("the kernel reports sched=%s, expected %s", sched, b->sched));
    snprintf(buf, sizeof(buf), "%ld", b->smp);
    if (!l->problem && !same_value(cpus, buf))
        kv_problem(l, xasprintf("only cpus=%s online of smp=%ld", cpus, b->smp));
}

/* A workload status=ok that holds an impossible metric (a negative time): why, or NULL. */
static char *bad_metric(const struct kvline *l)
{
    for (size_t k = 0; k < l->n; k++) {
        char *why = NULL;
        if (is_metric_key(l->key[k]) && metric_check(l->key[k], l->value[k], NULL, &why) != METRIC_OK)
            return why;
        free(why);
    }
    return NULL;
}

/* A result row's status and, unless it is ok, why (allocated). */
static const char *row_status(const struct kvline *l, char **why)
{
    const char *st = kv_get(l, "status");
    *why = l->problem ? xstrdup(l->problem) : NULL;
    if (!*why && strcmp(st, "ok") == 0)
        *why = bad_metric(l);
    if (*why)
        return "failed";
    if (strcmp(st, "ok") != 0) {
        const char *kr = kv_get(l, "reason");
        *why = xasprintf("the workload reported status=%s%s%s", st, kr ? ": " : "", kr ? kr : "");
    }
    return st;
}

/* The row of a result line; match: the expected run it reports, or NULL. */
static void add_result_row(struct walk *w, const struct kvline *l, const bool *match)
{
    size_t r = table_add_row(w->out);
    char *why;
    const char *st = row_status(l, &why);
    bool failed = strcmp(st, "failed") == 0;   /* a failed row never carries a metric */
    add_row_common(w->out, r, w->b);
    for (size_t k = 0; k < l->n; k++)
        if (strcmp(l->key[k], "sched") && strcmp(l->key[k], "status") && strcmp(l->key[k], "reason"))
            if (!failed || !is_metric_key(l->key[k]))
                table_setn(w->out, r, l->key[k], l->value[k]);
    /* A scheduler tunable (sched.<name>=, swept one boot per value) is not
     * in the result line: the row takes it from the boot's command line, so
     * runs with different values never share a cell. */
    for (size_t i = 0; i < w->e->nparams; i++)
        if (strncmp(w->e->key[i], "sched.", 6) == 0 && !kv_get(l, w->e->key[i]))
            table_setn(w->out, r, w->e->key[i], w->e->value[i]);
    if (match) {   /* a damaged line that still matched an expected run gets that run's values */
        size_t s = (size_t)(match - w->sl.filled);
        char buf[32];
        snprintf(buf, sizeof(buf), "%ld", slot_run(&w->sl, s));
        table_setn(w->out, r, "run", buf);
        for (size_t k = 0; k < w->sl.nswept; k++)
            table_setn(w->out, r, w->e->key[w->sl.param[k]], slot_value(&w->sl, s, k));
        if (!kv_get(l, "bench"))
            table_setn(w->out, r, "bench", w->e->bench);
    }
    table_setn(w->out, r, "status", st);
    if (why)
        table_setn(w->out, r, "reason", why);
    if (why)
        w->v->failed_rows++;
    else
        w->v->ok_rows++;
    free(why);
}

static void result_line(struct walk *w, const char *line, size_t ll, bool truncated)
{
    struct kvline l;
    parse_result_line(line, ll, truncated, &l);
    check_boot_match(&l, w->b);
    bool duplicate;
    bool *match = match_slot(&w->sl, w->e, &l, &duplicate);
    char *id = !l.problem && !truncated ? line_identity(&l) : NULL;
    if (duplicate && id && !seen_before(w, id))
        duplicate = false;   /* another line of a run that reported (one per task): a row of its own */
    if (duplicate)
        kv_problem(&l, xstrdup("duplicate result line"));
    if (id && (match || !duplicate) && !seen_before(w, id)) {
        w->seen = xrealloc(w->seen, (w->nseen + 1) * sizeof(char *));
        w->seen[w->nseen++] = id;
        id = NULL;
    }
    free(id);
    if (match)
        *match = true;
    /* A cut-off line that names no single missing run is not a run of its
     * own: the run it was is missing (and says why). */
    if (match || !truncated || !w->sl.n)
        add_result_row(w, &l, match);
    kv_free(&l);
}

/* Is the line's first word the kind's (kernel/protocol.h)? */
static bool of_kind(const char *line, size_t ll, const char *word)
{
    size_t n = strlen(word);
    return ll >= n && memcmp(line, word, n) == 0 && (ll == n || line[n] == ' ');
}

static void one_line(struct walk *w, const char *line, size_t ll, bool truncated)
{
    static const char done_exit[] = PROTO_WORD_DONE " exit=";   /* PROTO_DONE_KEYS */
    for (size_t i = 0; i < ll; i++)
        w->garbage += !printable((unsigned char)line[i]);
    if (of_kind(line, ll, PROTO_WORD_BOOT) && ll > strlen(PROTO_WORD_BOOT)) {
        note_boot_line(&w->v->boot_line, line, ll, truncated);
    } else if (of_kind(line, ll, PROTO_WORD_PANIC)) {
        note_first(&w->panic, line, ll);
    } else if (of_kind(line, ll, PROTO_WORD_WATCHDOG)) {
        note_first(&w->watchdog, line, ll);
    } else if (of_kind(line, ll, PROTO_WORD_ERROR)) {
        note_first(&w->error, line, ll);
    } else if (ll >= strlen(done_exit) && memcmp(line, done_exit, strlen(done_exit)) == 0 && !truncated) {
        char *t = xstrndup(line + strlen(done_exit), ll - strlen(done_exit));
        long x;
        if (parse_long(t, &x))
            w->done_exit = x;
        free(t);
    } else if (of_kind(line, ll, PROTO_WORD_RESULT) && ll > strlen(PROTO_WORD_RESULT)) {
        result_line(w, line, ll, truncated);
    }
}

static void walk_lines(struct walk *w, const char *log, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        const char *line = log + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        if (ll && line[ll - 1] == '\r')
            ll--;
        one_line(w, line, ll, nl == NULL);
    }
}

/* Why the boot as a whole failed, or NULL. */
static char *boot_reason(const struct walk *w)
{
    char *reason = rc_reason(w->b->rc, w->panic, w->watchdog, w->error, w->b->err_tail);
    size_t missing = 0;
    for (size_t s = 0; s < w->sl.n; s++)
        missing += !w->sl.filled[s];
    if (!reason && !w->v->boot_line)
        reason = xstrdup("no boot: line on the serial console");
    if (!reason && w->done_exit != 0)
        reason = w->done_exit < 0 ? xstrdup("no 'done: exit=0' line (log ends early)")
                                  : xasprintf("done: exit=%ld but QEMU exited 0", w->done_exit);
    if (!reason && w->garbage)
        reason = xasprintf("garbage on the serial line (%zu unprintable bytes)", w->garbage);
    if (!reason && missing)
        reason = xasprintf("%zu of %zu expected results missing", missing, w->sl.n);
    if (!reason && w->count_problem)
        reason = xstrdup(w->count_problem);
    if (!reason && w->sl.n == 0 && w->v->ok_rows + w->v->failed_rows == 0)
        reason = xstrdup("no result lines");
    return reason;
}

/* A row for every expected run that never reported. */
static void add_missing_rows(struct walk *w, const char *reason)
{
    for (size_t s = 0; s < w->sl.n; s++) {
        if (w->sl.filled[s])
            continue;
        size_t r = table_add_row(w->out);
        add_row_common(w->out, r, w->b);
        for (size_t i = 0; i < w->e->nparams; i++)
            if (!w->e->swept[i] && !is_run_column(w->e->key[i]))
                table_setn(w->out, r, w->e->key[i], w->e->value[i]);
        char buf[32];
        snprintf(buf, sizeof(buf), "%ld", slot_run(&w->sl, s));
        table_setn(w->out, r, "run", buf);
        table_setn(w->out, r, "bench", w->e->bench);
        for (size_t k = 0; k < w->sl.nswept; k++)
            table_setn(w->out, r, w->e->key[w->sl.param[k]], slot_value(&w->sl, s, k));
        table_setn(w->out, r, "status", "failed");
        char *why = xasprintf("missing result: %s", reason ? reason : "not printed");
        table_setn(w->out, r, "reason", why);
        free(why);
        w->v->failed_rows++;
    }
}

void collect_boot(const struct boot_desc *b, const char *log, size_t len, const struct expectation *e,
                  struct table *out, struct boot_verdict *v)
{
    memset(v, 0, sizeof(*v));
    struct walk w = { .b = b, .e = e, .out = out, .v = v, .done_exit = -1 };
    slots_init(&w.sl, e, &w.count_problem);
    v->expected = w.sl.n;
    walk_lines(&w, log, len);
    char *reason = boot_reason(&w);
    add_missing_rows(&w, reason);
    if (w.sl.n == 0 && reason && v->ok_rows + v->failed_rows == 0) {
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
    slots_free(&w.sl);
    for (size_t i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    free(w.seen);
    free(w.count_problem);
    free(w.panic);
    free(w.watchdog);
    free(w.error);
}
