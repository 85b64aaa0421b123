/*
 * libFuzzer target for the kernel command-line parser (kernel/cmdline.c,
 * cmdline_value.c, cmdline_registry.c), compiled on the host with the
 * stand-ins of hostlib.c (machine_exit and panic longjmp back here).
 *
 * An input is a kernel command line.  Every input must either parse or end
 * in exactly one "error: ..." line, and so must every getter of every key of
 * a table shaped like the kernel's (same names, types and ranges): the
 * console then holds that one line and nothing else, ending in '\n' and short
 * enough for the kernel's kprintf buffer (512 bytes: a longer line loses its
 * end, its reason and its newline).  A panic (a bad table or getter) never
 * comes from input.  On top of that, a differential check: the words are
 * split again here, and every value is parsed again by small reference
 * parsers written from the rules in kernel/cmdline.h and docs/workloads.md; a
 * getter must succeed exactly when the reference accepts the value, and
 * return what it returns.  Any breach aborts, so libFuzzer reports the input.
 *
 * Built by "make -C tests/host fuzz" (clang -fsanitize=fuzzer,address,undefined);
 * tests/qemu/cmdline_fuzz.sh runs it for a bounded time from the seeds in
 * tests/host/fuzz_cmdline/; docs/testing.md has the command for a longer run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../kernel/cmdline.h"

void cmdline_registry_reset(void);

#define KPRINTF_LINE_MAX 511          /* kernel/cpu.h printbuf[512], kernel/console.c early_buf[512] */
#define MAX_LEN 1023                  /* kernel/cmdline.c CMDLINE_MAX_LEN - 1 */
#define SEPARATORS " \t\n\v\f\r"

#define CHECK(cond)                                                                                      \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "fuzz_cmdline: %s:%d: check failed: %s\nconsole: [%s]\n", __FILE__, __LINE__, \
                    #cond, host_console);                                                                \
            abort();                                                                                     \
        }                                                                                                \
    } while (0)

static const char *const benches[] = { "hackbench", "pipe", "all", "list", NULL };
static const char *const modes[] = { "process", "thread", NULL };
static const char *const kinds[] = { "pagefault", "divide", "ud", NULL };

/* The kernel's keys, in the shapes its tables use (kernel/main.c, workloads/runner.c and the workloads). */
static const struct cmdline_key keys[] = {
    CMDLINE_KEY_UINT("watchdog", 30, 0, 86400, "watchdog"),
    CMDLINE_KEY_UINT("runs", 1, 1, 10000, "runs"),
    CMDLINE_KEY_CPU_LIST_AUTO("bind", "cpus"),
    { .name = "bench", .type = CMDLINE_CHOICE_LIST, .def_text = "all", .choices = benches, .help = "bench" },
    CMDLINE_KEY_UINT_LIST("groups", "10", "4", 1, 100000, 64, "groups"),
    CMDLINE_KEY_UINT_LIST("procs", "2", NULL, 2, 10000, 64, "procs"),
    CMDLINE_KEY_UINT_LIST("runnable", "10,100,1000,10000", NULL, 1, 50000, 16, "runnable"),
    CMDLINE_KEY_UINT_LIST("one", "7", NULL, 0, 9, 1, "a list of one"),
    CMDLINE_KEY_INT_LIST_AUTO("nice", -20, 19, 64, "nice"),
    CMDLINE_KEY_UINT_SUITE("loops", 100, 50, 1, 1000000, "loops"),
    CMDLINE_KEY_UINT("big", 1, 0, 0xffffffffu, "the whole 32 bits"),
    CMDLINE_KEY_UINT("migrate", 0, 0, 1, "a flag"),
    CMDLINE_KEY_UINT_AUTO("hogs", 0, 256, "hogs"),
    CMDLINE_KEY_CHOICE("mode", "process", modes, "mode"),
    CMDLINE_KEY_CHOICE("kind", "pagefault", kinds, "kind"),
};
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

/* ---- reference parsers ---- */

struct word {
    const char *key, *value;
    size_t klen, vlen;
};

/* An unsigned decimal of exactly [s, s+n); false when empty, not digits or above 2^32-1. */
static bool ref_uint(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > 0xffffffffu)
            return false;
    }
    *out = v;
    return true;
}

/* Calls f on every comma-separated piece; false as soon as f refuses one. */
static bool ref_pieces(const char *v, bool (*f)(const struct cmdline_key *, const char *, size_t, void *),
                       const struct cmdline_key *k, void *ctx)
{
    for (;;) {
        const char *comma = strchr(v, ',');
        size_t n = comma ? (size_t)(comma - v) : strlen(v);
        if (!f(k, v, n, ctx))
            return false;
        if (!comma)
            return true;
        v = comma + 1;
    }
}

struct list_ctx {
    int count;
    int64_t values[CMDLINE_MAX_LIST + 1];
    int ncpus;
    cpumask_t mask;
};

static bool ref_uint_piece(const struct cmdline_key *k, const char *s, size_t n, void *p)
{
    struct list_ctx *c = p;
    uint64_t v;
    if (!ref_uint(s, n, &v) || c->count == k->max_values || (int64_t)v < k->min || (int64_t)v > k->max)
        return false;
    c->values[c->count++] = (int64_t)v;
    return true;
}

static bool ref_int_piece(const struct cmdline_key *k, const char *s, size_t n, void *p)
{
    struct list_ctx *c = p;
    bool negative = n > 0 && s[0] == '-';
    if (n > 0 && (s[0] == '-' || s[0] == '+'))
        s++, n--;
    uint64_t u;
    if (!ref_uint(s, n, &u) || u > 0x7fffffffu || c->count == k->max_values)
        return false;
    int64_t v = negative ? -(int64_t)u : (int64_t)u;
    if (v < k->min || v > k->max)
        return false;
    c->values[c->count++] = v;
    return true;
}

static bool ref_cpu_piece(const struct cmdline_key *k, const char *s, size_t n, void *p)
{
    struct list_ctx *c = p;
    const char *dash = memchr(s, '-', n);
    uint64_t a, b;
    if (dash) {
        if (!ref_uint(s, (size_t)(dash - s), &a) || !ref_uint(dash + 1, n - (size_t)(dash - s) - 1, &b) || b < a)
            return false;
    } else if (!ref_uint(s, n, &a)) {
        return false;
    } else {
        b = a;
    }
    if (b >= (uint64_t)c->ncpus || (int64_t)b > k->max)
        return false;
    for (uint64_t i = a; i <= b; i++)
        c->mask |= CPU_BIT(i);
    return true;
}

/* ---- checks ---- */

static const struct word *find_word(const struct word *w, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (w[i].klen == strlen(key) && memcmp(w[i].key, key, w[i].klen) == 0)
            return &w[i];
    return NULL;
}

/* The console holds exactly one line: "error: ..." (with prefix, when given), ending in '\n', short enough. */
static void check_one_error_line(int rc, const char *prefix)
{
    CHECK(rc == EXIT_ERROR);
    CHECK(host_console_len > 0 && host_console_len <= KPRINTF_LINE_MAX);
    CHECK(strncmp(host_console, "error: ", 7) == 0);
    CHECK(host_console[host_console_len - 1] == '\n');
    CHECK(strchr(host_console, '\n') == host_console + host_console_len - 1);
    CHECK(strlen(host_console) == host_console_len);      /* no NUL inside */
    if (prefix)
        CHECK(strncmp(host_console, prefix, strlen(prefix)) == 0);
}

/* "error: <key>=<value>: " when the value fits the line, else the start of it (the kernel shortens long texts). */
static void error_prefix(char *buf, size_t size, const char *key, const char *value)
{
    snprintf(buf, size, "error: %s=%.40s", key, value);
}

/* Runs one getter; on success returns true, on failure checks the error line and returns false. */
#define GET(stmt, key, value)                                          \
    ({                                                                 \
        host_console_clear();                                          \
        int rc_ = host_expect_exit(stmt);                              \
        if (rc_ != -1) {                                               \
            char p_[128];                                              \
            error_prefix(p_, sizeof(p_), key, value);                  \
            check_one_error_line(rc_, p_);                             \
        } else {                                                       \
            CHECK(host_console_len == 0);                              \
        }                                                              \
        rc_ == -1;                                                     \
    })

static void check_key(const struct cmdline_key *k, const struct word *w, int nwords, bool suite)
{
    const struct word *given = find_word(w, nwords, k->name);
    const char *v = cmdline_get(k->name);
    CHECK((v != NULL) == (given != NULL));
    CHECK(cmdline_given(k) == (given != NULL));
    if (given)
        CHECK(strlen(v) == given->vlen && memcmp(v, given->value, given->vlen) == 0);
    const char *shown = v ? v : "";
    struct list_ctx ref = { 0 };
    bool ok;
    switch (k->type) {
    case CMDLINE_UINT: {
        uint32_t got = 0;
        bool autok = k->flags & CMDLINE_AUTO;
        ok = GET(got = autok ? cmdline_key_uint_auto(k, 12345) : cmdline_key_uint(k), k->name, shown);
        if (!v) {
            CHECK(ok);
            CHECK(got == (autok ? 12345u : (uint32_t)(suite ? k->suite_def : k->def)));
            break;
        }
        uint64_t r;
        bool valid = ref_uint(v, strlen(v), &r) && (int64_t)r >= k->min && (int64_t)r <= k->max;
        CHECK(ok == valid);
        if (ok)
            CHECK(got == r);
        break;
    }
    case CMDLINE_UINT_LIST: {
        uint32_t got[CMDLINE_MAX_LIST];
        int n = 0;
        ok = GET(n = cmdline_key_uint_list(k, got, CMDLINE_MAX_LIST), k->name, shown);
        const char *text = v ? v : (suite && k->suite_text ? k->suite_text : k->def_text);
        bool valid = ref_pieces(text, ref_uint_piece, k, &ref);
        CHECK(ok == valid);
        if (ok) {
            CHECK(n == ref.count);
            for (int i = 0; i < n; i++)
                CHECK(got[i] == ref.values[i]);
        }
        break;
    }
    case CMDLINE_INT_LIST: {
        int32_t got[CMDLINE_MAX_LIST];
        int n = 0;
        ok = GET(n = cmdline_key_int_list(k, got, CMDLINE_MAX_LIST), k->name, shown);
        if (!v) {
            CHECK(ok && n == 0);
            break;
        }
        bool valid = ref_pieces(v, ref_int_piece, k, &ref);
        CHECK(ok == valid);
        if (ok) {
            CHECK(n == ref.count);
            for (int i = 0; i < n; i++)
                CHECK(got[i] == ref.values[i]);
        }
        break;
    }
    case CMDLINE_CHOICE: {
        int got = -1;
        ok = GET(got = cmdline_key_choice(k), k->name, shown);
        const char *text = v ? v : k->def_text;
        int want = -1;
        for (int i = 0; k->choices[i]; i++)
            if (strcmp(text, k->choices[i]) == 0)
                want = i;
        CHECK(ok == (want >= 0));
        if (ok)
            CHECK(got == want);
        break;
    }
    case CMDLINE_CPU_LIST: {
        static const int ncpus[] = { 1, 3, 32 };
        for (size_t c = 0; c < sizeof(ncpus) / sizeof(ncpus[0]); c++) {
            cpumask_t got = 0;
            ok = GET(got = cmdline_key_cpu_list(k, ncpus[c]), k->name, shown);
            if (!v) {
                CHECK(ok && got == 0);
                continue;
            }
            struct list_ctx r = { .ncpus = ncpus[c] };
            bool valid = ref_pieces(v, ref_cpu_piece, k, &r);
            CHECK(ok == valid);
            if (ok)
                CHECK(got == r.mask);
        }
        break;
    }
    case CMDLINE_CHOICE_LIST: {
        const char *got = NULL;
        ok = GET(got = cmdline_key_text(k), k->name, shown);
        CHECK(ok);
        CHECK(strcmp(got, v ? v : k->def_text) == 0);
        break;
    }
    }
    /* The error paths a workload uses for limits between keys print the value the same way. */
    if (v) {
        host_console_clear();
        char prefix[128];
        error_prefix(prefix, sizeof(prefix), k->name, v);
        check_one_error_line(host_expect_exit(cmdline_range_error(k->name, 5, 0, 4)), prefix);
        CHECK(strstr(host_console, ": 5 is out of range 0..4\n") != NULL);
    }
}

/* The words as docs/workloads.md and cmdline.h define them; returns -1 where cmdline_parse must refuse. */
static int ref_split(char *s, struct word *w)
{
    if (strlen(s) > MAX_LEN)
        return -1;
    int n = 0;
    for (char *p = s; *p;) {
        p += strspn(p, SEPARATORS);
        if (!*p)
            break;
        size_t len = strcspn(p, SEPARATORS);
        char *eq = memchr(p, '=', len);
        if (!eq || eq == p || eq == p + len - 1 || n == CMDLINE_MAX_WORDS)
            return -1;
        struct word x = { p, eq + 1, (size_t)(eq - p), len - (size_t)(eq - p) - 1 };
        for (int i = 0; i < n; i++)
            if (w[i].klen == x.klen && memcmp(w[i].key, x.key, x.klen) == 0)
                return -1;
        w[n++] = x;
        p += len;
    }
    return n;
}

static bool known_key(const struct word *w)
{
    for (int i = 0; i < NKEYS; i++)
        if (strlen(keys[i].name) == w->klen && memcmp(keys[i].name, w->key, w->klen) == 0)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char line[4 * MAX_LEN], copy[sizeof(line)];
    if (size >= sizeof(line))
        size = sizeof(line) - 1;
    memcpy(line, data, size);
    line[size] = 0;                          /* the kernel gets a C string: it ends at the first NUL */
    strcpy(copy, line);
    struct word words[CMDLINE_MAX_WORDS];
    int nwords = ref_split(copy, words);

    host_console_clear();
    cmdline_registry_reset();
    cmdline_use_suite_defaults(false);
    int rc = host_expect_exit(cmdline_parse(line));
    if (nwords < 0) {
        check_one_error_line(rc, NULL);
        return 0;
    }
    CHECK(rc == -1);
    CHECK(host_console_len == 0);
    CHECK(strcmp(cmdline_raw(), line) == 0);

    cmdline_register("fuzz", keys, NKEYS);
    host_console_clear();
    rc = host_expect_exit(cmdline_reject_unknown());
    const struct word *unknown = NULL;
    for (int i = 0; i < nwords && !unknown; i++)
        if (!known_key(&words[i]))
            unknown = &words[i];
    if (unknown) {
        check_one_error_line(rc, NULL);
        CHECK(strstr(host_console, ": unknown key for this run (") != NULL);
    } else {
        CHECK(rc == -1 && host_console_len == 0);
    }

    for (int suite = 0; suite < 2; suite++) {
        cmdline_use_suite_defaults(suite);
        for (int i = 0; i < NKEYS; i++)
            check_key(&keys[i], words, nwords, suite);
    }
    cmdline_use_suite_defaults(false);
    return 0;
}

/* The table itself must be one the registry accepts, and bench=list must describe it. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    cmdline_registry_reset();
    host_console_clear();
    CHECK(host_expect_exit(cmdline_register("fuzz", keys, NKEYS)) == -1);
    CHECK(host_expect_exit(cmdline_describe_registered()) == -1);
    CHECK(strstr(host_console, "key workload=fuzz name=kind type=choice") != NULL);
    return 0;
}
