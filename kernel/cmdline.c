/* Splitting the kernel command line into words and reading keys through their table entries (see cmdline.h). */
#include "cmdline.h"
#include "cmdline_internal.h"
#include "lib.h"

#define CMDLINE_MAX_LEN 1024

struct word {
    const char *key, *value;
};

static char buffer[CMDLINE_MAX_LEN];
static char raw[CMDLINE_MAX_LEN];
static struct word words[CMDLINE_MAX_WORDS];
static int nwords;
static bool suite_defaults;

const char *cmdline_raw(void) { return raw; }
void cmdline_use_suite_defaults(bool on) { suite_defaults = on; }

/* An error line shows at most CMDLINE_SHOWN bytes of a text from the command
 * line, then "...", and is cut to fit kprintf's line buffer (512 bytes,
 * kernel/cpu.h): a longer line would lose its reason and its newline, and
 * a 1000-byte value fits the command line. */
#define CMDLINE_SHOWN 160
#define ERROR_LINE_MAX 511              /* with the newline */

int cmdline_shown_len(const char *s) { return (int)MIN(strlen(s), (size_t)CMDLINE_SHOWN); }
const char *cmdline_shown_more(const char *s) { return strlen(s) > CMDLINE_SHOWN ? "..." : ""; }

void cmdline_fail(const char *fmt, ...)
{
    static char line[ERROR_LINE_MAX];   /* static: tasks have 4 KiB stacks; the run ends here */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof(line))
        strlcpy(line + sizeof(line) - 4, "...", 4);
    kprintf("%s\n", line);
    machine_exit(EXIT_ERROR);
}

void cmdline_error(const char *key, const char *why)
{
    const char *v = key ? cmdline_get(key) : NULL;
    if (key && v)
        cmdline_fail("error: " SHOWN_FMT "=" SHOWN_FMT ": %s", SHOWN(key), SHOWN(v), why);
    else if (key)
        cmdline_fail("error: " SHOWN_FMT ": %s", SHOWN(key), why);
    else
        cmdline_fail("error: %s", why);
}

void cmdline_range_error(const char *key, int64_t v, int64_t min, int64_t max)
{
    char why[96];
    cmdline_format_range(why, sizeof(why), v, min, max);
    cmdline_error(key, why);
}

/* Adds one word (already cut out of buffer); malformed or repeated words are errors. */
static void add_word(char *w)
{
    char *eq = strchr(w, '=');
    if (!eq || eq == w)
        cmdline_fail("error: '" SHOWN_FMT "': expected key=value", SHOWN(w));
    *eq = 0;
    if (!eq[1])
        cmdline_fail("error: " SHOWN_FMT "=: missing value", SHOWN(w));
    for (int i = 0; i < nwords; i++)
        if (strcmp(words[i].key, w) == 0)
            cmdline_fail("error: " SHOWN_FMT ": given twice", SHOWN(w));
    if (nwords == CMDLINE_MAX_WORDS)
        cmdline_fail("error: more than %d words on the kernel command line", CMDLINE_MAX_WORDS);
    words[nwords++] = (struct word){ w, eq + 1 };
}

/* Any ASCII white space separates words, as Linux's next_arg() does with
 * isspace(): a newline inside a word would end an error line in its middle. */
static bool separator(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

void cmdline_parse(const char *s)
{
    if (strlen(s) >= CMDLINE_MAX_LEN)
        cmdline_fail("error: kernel command line longer than %d bytes", CMDLINE_MAX_LEN - 1);
    strlcpy(raw, s, sizeof(raw));
    strlcpy(buffer, s, sizeof(buffer));
    char *p = buffer;
    nwords = 0;
    while (*p) {
        while (separator(*p))
            *p++ = 0;
        if (!*p)
            break;
        char *w = p;
        while (*p && !separator(*p))
            p++;
        if (*p)
            *p++ = 0;
        add_word(w);
    }
}

const char *cmdline_get(const char *key)
{
    for (int i = 0; i < nwords; i++)
        if (strcmp(words[i].key, key) == 0)
            return words[i].value;
    return NULL;
}

int cmdline_word_count(void) { return nwords; }
const char *cmdline_word_key(int i) { return words[i].key; }

/* ---- getters ---- */

/* A getter of the wrong type, or of a table nobody registered, is a kernel bug. */
static void check_key(const struct cmdline_key *k, enum cmdline_type type)
{
    if (k->type != type)
        panic("cmdline: key %s is a %s, read as a %s", k->name, cmdline_type_name(k->type), cmdline_type_name(type));
    if (!cmdline_registered(k))
        panic("cmdline: key %s read before its table was registered", k->name);
}

bool cmdline_given(const struct cmdline_key *k) { return cmdline_get(k->name) != NULL; }

/* The value given, else the default text (the suite's when it has one and suite defaults are on). */
static const char *text_or_default(const struct cmdline_key *k)
{
    const char *v = cmdline_get(k->name);
    if (v)
        return v;
    if ((k->flags & CMDLINE_AUTO) && k->type != CMDLINE_UINT)
        return NULL;
    return suite_defaults && k->suite_text ? k->suite_text : k->def_text;
}

static uint32_t uint_value(const struct cmdline_key *k, uint32_t def)
{
    const char *v = cmdline_get(k->name);
    if (!v)
        return def;
    uint32_t n;
    char why[96];
    if (cmdline_parse_uint_value(k, v, &n, why, sizeof(why)) != 0)
        cmdline_error(k->name, why);
    return n;
}

uint32_t cmdline_key_uint(const struct cmdline_key *k)
{
    check_key(k, CMDLINE_UINT);
    if (k->flags & CMDLINE_AUTO)
        panic("cmdline: key %s has a computed default: read it with cmdline_key_uint_auto", k->name);
    return uint_value(k, (uint32_t)(suite_defaults ? k->suite_def : k->def));
}

uint32_t cmdline_key_uint_auto(const struct cmdline_key *k, uint32_t automatic)
{
    check_key(k, CMDLINE_UINT);
    if (!(k->flags & CMDLINE_AUTO))
        panic("cmdline: key %s has a fixed default: read it with cmdline_key_uint", k->name);
    return uint_value(k, automatic);
}

static void check_list_room(const struct cmdline_key *k, int size)
{
    if (size < k->max_values)
        panic("cmdline: key %s takes %d values, the reader has room for %d", k->name, k->max_values, size);
}

int cmdline_key_uint_list(const struct cmdline_key *k, uint32_t *out, int size)
{
    check_key(k, CMDLINE_UINT_LIST);
    check_list_room(k, size);
    const char *v = text_or_default(k);
    char why[96];
    int n = cmdline_parse_uint_list(k, v, out, why, sizeof(why));
    if (n < 0)
        cmdline_error(k->name, why);
    return n;
}

int cmdline_key_int_list(const struct cmdline_key *k, int32_t *out, int size)
{
    check_key(k, CMDLINE_INT_LIST);
    check_list_room(k, size);
    const char *v = text_or_default(k);
    if (!v)
        return 0;
    char why[96];
    int n = cmdline_parse_int_list(k, v, out, why, sizeof(why));
    if (n < 0)
        cmdline_error(k->name, why);
    return n;
}

int cmdline_key_choice(const struct cmdline_key *k)
{
    check_key(k, CMDLINE_CHOICE);
    char why[160];
    int i = cmdline_parse_choice(k, text_or_default(k), why, sizeof(why));
    if (i < 0)
        cmdline_error(k->name, why);
    return i;
}

cpumask_t cmdline_key_cpu_list(const struct cmdline_key *k, int ncpus)
{
    check_key(k, CMDLINE_CPU_LIST);
    const char *v = text_or_default(k);
    if (!v)
        return 0;
    cpumask_t mask;
    char why[96];
    if (cmdline_parse_cpu_list(k, v, ncpus, &mask, why, sizeof(why)) != 0)
        cmdline_error(k->name, why);
    return mask;
}

const char *cmdline_key_text(const struct cmdline_key *k)
{
    if (!cmdline_registered(k))
        panic("cmdline: key %s read before its table was registered", k->name);
    return text_or_default(k);
}
