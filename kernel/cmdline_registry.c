/*
 * The registry of known keys: who reads which keys (cmdline_register), the
 * unknown-key check, and bench=list's description of a table.  A table is
 * checked when it is registered or described: its defaults must pass the
 * same parsers as a value typed on the command line, so a table cannot
 * print a default that its getter would reject.
 */
#include "cmdline_internal.h"
#include "lib.h"

#define MAX_SETS 24

struct key_set {
    const char *owner;
    const struct cmdline_key *keys;
    int n;
};

static struct key_set sets[MAX_SETS];
static int nsets;

#ifdef HOST_TEST
void cmdline_registry_reset(void) { nsets = 0; }   /* tests/host/test_cmdline.c: each test starts empty */
#endif

bool cmdline_registered(const struct cmdline_key *k)
{
    for (int i = 0; i < nsets; i++)
        if (k >= sets[i].keys && k < sets[i].keys + sets[i].n)
            return true;
    return false;
}

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

#define SCHED_PREFIX "sched."

/* A scheduler's keys are sched.<name>; nobody else's contain a dot. */
static bool key_name_ok(const struct cmdline_key *k)
{
    if (k->flags & (CMDLINE_TUNABLE | CMDLINE_PRESET))
        return strncmp(k->name, SCHED_PREFIX, strlen(SCHED_PREFIX)) == 0 && name_ok(k->name + strlen(SCHED_PREFIX));
    return name_ok(k->name);
}

/* The default text (or number) must be one the key's own parser accepts. */
static void check_default(const char *owner, const struct cmdline_key *k, const char *text, int64_t number)
{
    static uint32_t values[CMDLINE_MAX_LIST];   /* static: tasks have 4 KiB stacks */
    static int32_t ints[CMDLINE_MAX_LIST];
    char why[160];
    int bad = 0;
    if (k->flags & CMDLINE_AUTO)
        return;
    switch (k->type) {
    case CMDLINE_UINT:
        if (number < k->min || number > k->max) {
            cmdline_format_range(why, sizeof(why), number, k->min, k->max);
            bad = -1;
        }
        break;
    case CMDLINE_UINT_LIST:
        bad = !text ? -1 : cmdline_parse_uint_list(k, text, values, why, sizeof(why));
        break;
    case CMDLINE_INT_LIST:
        bad = !text ? -1 : cmdline_parse_int_list(k, text, ints, why, sizeof(why));
        break;
    case CMDLINE_CHOICE:
    case CMDLINE_CHOICE_LIST:
        bad = !text || !k->choices ? -1 : 0;
        if (!bad && k->type == CMDLINE_CHOICE)
            bad = cmdline_parse_choice(k, text, why, sizeof(why));
        break;
    case CMDLINE_CPU_LIST:
        bad = -1;
        strlcpy(why, "a CPU list's default must be automatic", sizeof(why));
        break;
    }
    if (bad < 0 && k->type == CMDLINE_UINT)
        panic("cmdline: %s key %s: default %lld: %s", owner, k->name, (long long)number, why);
    if (bad < 0)
        panic("cmdline: %s key %s: default '%s': %s", owner, k->name, text ? text : "(none)", why);
}

static void check_key_entry(const char *owner, const struct cmdline_key *keys, int i)
{
    const struct cmdline_key *k = &keys[i];
    if (!k->name || !key_name_ok(k))
        panic("cmdline: %s key %d: bad name", owner, i);
    if ((k->flags & CMDLINE_TUNABLE) && (k->type != CMDLINE_UINT || !k->unit || !name_ok(k->unit)))
        panic("cmdline: %s tunable %s: not a uint with a unit", owner, k->name);
    if ((k->flags & CMDLINE_PRESET) && (k->type != CMDLINE_CHOICE || !k->choice_info))
        panic("cmdline: %s key %s: a preset key is a choice with settings", owner, k->name);
    if (!k->help || strchr(k->help, '"'))
        panic("cmdline: %s key %s: help missing or with a double quote", owner, k->name);
    if ((k->type == CMDLINE_UINT_LIST || k->type == CMDLINE_INT_LIST) &&
        (k->max_values < 1 || k->max_values > CMDLINE_MAX_LIST))
        panic("cmdline: %s key %s: max_values %d", owner, k->name, k->max_values);
    if (k->min > k->max)
        panic("cmdline: %s key %s: min > max", owner, k->name);
    for (int j = 0; j < i; j++)
        if (strcmp(keys[j].name, k->name) == 0)
            panic("cmdline: %s declares key %s twice", owner, k->name);
    check_default(owner, k, k->def_text, k->def);
    check_default(owner, k, k->suite_text ? k->suite_text : k->def_text, k->suite_def);
}

static void check_table(const char *owner, const struct cmdline_key *keys, int n)
{
    for (int i = 0; i < n; i++)
        check_key_entry(owner, keys, i);
}

void cmdline_register(const char *owner, const struct cmdline_key *keys, int n)
{
    for (int i = 0; i < nsets; i++)
        if (sets[i].keys == keys)
            return;                  /* a workload selected twice */
    if (nsets == MAX_SETS)
        panic("cmdline: more than %d key tables", MAX_SETS);
    check_table(owner, keys, n);
    sets[nsets++] = (struct key_set){ owner, keys, n };
}

static bool known(const char *key)
{
    for (int s = 0; s < nsets; s++)
        for (int i = 0; i < sets[s].n; i++)
            if (strcmp(sets[s].keys[i].name, key) == 0)
                return true;
    return false;
}

/* Edit distance between two keys (99 for keys over 31 bytes): "did you mean". */
static unsigned key_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned row[32];
    if (la > 31 || lb > 31)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The registered key nearest to key when it is near enough to be a typo (as
 * schedlab's suggest(): one edit in a short key, two or three in longer), else NULL. */
static const char *near_key(const char *key)
{
    size_t len = strlen(key);
    unsigned limit = len <= 3 ? 1 : len <= 6 ? 2 : 3, bestd = 99;
    const char *best = NULL;
    for (int s = 0; s < nsets; s++)
        for (int i = 0; i < sets[s].n; i++) {
            unsigned d = key_distance(key, sets[s].keys[i].name);
            if (d < bestd) {
                bestd = d;
                best = sets[s].keys[i].name;
            }
        }
    return bestd <= limit ? best : NULL;
}

/* A key no table registered: said with the key it is near.  Out of line, so
 * that the loop below runs the same instructions as it did before it had
 * this (vsmp's virtual time counts them: a boot's figures stay the same). */
static __attribute__((noinline, noreturn)) void reject_key(const char *key)
{
    const char *near = near_key(key);
    if (near)
        cmdline_fail("error: " SHOWN_FMT "=" SHOWN_FMT ": unknown key for this run (did you mean %s=?)", SHOWN(key),
                     SHOWN(cmdline_get(key)), near);
    cmdline_fail("error: " SHOWN_FMT "=" SHOWN_FMT ": unknown key for this run (bench=list lists them)", SHOWN(key),
                 SHOWN(cmdline_get(key)));
}

void cmdline_reject_unknown(void)
{
    for (int i = 0; i < cmdline_word_count(); i++) {
        const char *key = cmdline_word_key(i);
        if (!known(key))
            reject_key(key);
    }
}

/* ---- bench=list ---- */

static int put_default(char *line, size_t size, const char *label, const struct cmdline_key *k, bool suite)
{
    if (k->flags & CMDLINE_AUTO)
        return snprintf(line, size, " %s=auto", label);
    if (k->type == CMDLINE_UINT)
        return snprintf(line, size, " %s=%lld", label, (long long)(suite ? k->suite_def : k->def));
    return snprintf(line, size, " %s=%s", label, suite && k->suite_text ? k->suite_text : k->def_text);
}

static bool has_suite_default(const struct cmdline_key *k)
{
    if (k->type == CMDLINE_UINT)
        return !(k->flags & CMDLINE_AUTO) && k->suite_def != k->def;
    return k->suite_text && strcmp(k->suite_text, k->def_text) != 0;
}

/* A line of bench=list, or a panic: the table that made it is a kernel bug. */
static void put_line(const char *owner, const struct cmdline_key *k, const char *line, size_t n, size_t size)
{
    if (n >= size)
        panic("cmdline: %s key %s: description longer than %u bytes", owner, k->name, (unsigned)size - 1);
    kprintf("%s\n", line);
}

/* "tunable sched=<s> name=<n> unit=<u> default=<d> min=<a> max=<b> help=..." */
static void describe_tunable(const char *owner, const struct cmdline_key *k)
{
    char line[480];
    size_t size = sizeof(line);
    size_t n = (size_t)snprintf(line, size, PROTO_FORMAT_BEGIN(TUNABLE), owner, k->name + strlen(SCHED_PREFIX),
                                k->unit);
    n += (size_t)put_default(line + n, size - n, "default", k, false);
    if (n < size)
        n += (size_t)snprintf(line + n, size - n, " min=%lld max=%lld help=\"%s\"", (long long)k->min,
                              (long long)k->max, k->help);
    put_line(owner, k, line, n, size);
}

/* "preset sched=<s> name=<p> <tunable>=<value>...", one per choice. */
static void describe_presets(const char *owner, const struct cmdline_key *k)
{
    for (int i = 0; k->choices[i]; i++) {
        char line[480];
        size_t size = sizeof(line);
        size_t n = (size_t)snprintf(line, size, PROTO_FORMAT_BEGIN(PRESET), owner, k->choices[i]);
        if (k->choice_info[i] && k->choice_info[i][0] && n < size)
            n += (size_t)snprintf(line + n, size - n, " %s", k->choice_info[i]);
        put_line(owner, k, line, n, size);
    }
}

static void describe_key(const char *owner, const struct cmdline_key *k)
{
    if (k->flags & CMDLINE_TUNABLE) {
        describe_tunable(owner, k);
        return;
    }
    if (k->flags & CMDLINE_PRESET) {
        describe_presets(owner, k);
        return;
    }
    char line[480];
    size_t size = sizeof(line);
    bool choices = k->type == CMDLINE_CHOICE || k->type == CMDLINE_CHOICE_LIST;
    size_t n = (size_t)snprintf(line, size, PROTO_FORMAT_BEGIN(KEY), owner, k->name, cmdline_type_name(k->type));
    n += (size_t)put_default(line + n, size - n, "default", k, false);
    if (choices)
        n += (size_t)snprintf(line + n, size - n, " min=- max=-");
    else
        n += (size_t)snprintf(line + n, size - n, " min=%lld max=%lld", (long long)k->min, (long long)k->max);
    for (int i = 0; choices && k->choices[i] && n < size; i++)
        n += (size_t)snprintf(line + n, size - n, "%s%s", i ? "|" : " choices=", k->choices[i]);
    if (has_suite_default(k) && n < size)
        n += (size_t)put_default(line + n, size - n, "suite_default", k, true);
    if ((k->type == CMDLINE_UINT_LIST || k->type == CMDLINE_INT_LIST) && n < size)
        n += (size_t)snprintf(line + n, size - n, " max_values=%d", k->max_values);
    if (n < size)
        n += (size_t)snprintf(line + n, size - n, " help=\"%s\"", k->help);
    put_line(owner, k, line, n, size);
}

void cmdline_describe(const char *owner, const struct cmdline_key *keys, int n)
{
    check_table(owner, keys, n);
    for (int i = 0; i < n; i++)
        describe_key(owner, &keys[i]);
}

void cmdline_describe_registered(void)
{
    for (int s = 0; s < nsets; s++)
        cmdline_describe(sets[s].owner, sets[s].keys, sets[s].n);
}
