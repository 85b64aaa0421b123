/* Parsing and validating the kernel command line (see cmdline.h). */
#include "cmdline.h"
#include "lib.h"

#define CMDLINE_MAX_LEN 1024

struct word {
    const char *key, *value;
};

static char buffer[CMDLINE_MAX_LEN];
static char raw[CMDLINE_MAX_LEN];
static struct word words[CMDLINE_MAX_WORDS];
static int nwords;

const char *cmdline_raw(void) { return raw; }

void cmdline_error(const char *key, const char *why)
{
    const char *v = key ? cmdline_get(key) : NULL;
    if (key && v)
        kprintf("error: %s=%s: %s\n", key, v, why);
    else if (key)
        kprintf("error: %s: %s\n", key, why);
    else
        kprintf("error: %s\n", why);
    machine_exit(EXIT_ERROR);
}

void cmdline_parse(const char *s)
{
    if (strlen(s) >= CMDLINE_MAX_LEN) {
        kprintf("error: kernel command line longer than %d bytes\n", CMDLINE_MAX_LEN - 1);
        machine_exit(EXIT_ERROR);
    }
    strlcpy(raw, s, sizeof(raw));
    strlcpy(buffer, s, sizeof(buffer));
    char *p = buffer;
    nwords = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            *p++ = 0;
        if (!*p)
            break;
        char *w = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = 0;
        char *eq = strchr(w, '=');
        if (!eq || eq == w) {
            kprintf("error: '%s': expected key=value\n", w);
            machine_exit(EXIT_ERROR);
        }
        *eq = 0;
        if (!eq[1]) {
            kprintf("error: %s=: missing value\n", w);
            machine_exit(EXIT_ERROR);
        }
        for (int i = 0; i < nwords; i++)
            if (strcmp(words[i].key, w) == 0) {
                kprintf("error: %s: given twice\n", w);
                machine_exit(EXIT_ERROR);
            }
        if (nwords == CMDLINE_MAX_WORDS) {
            kprintf("error: more than %d words on the kernel command line\n", CMDLINE_MAX_WORDS);
            machine_exit(EXIT_ERROR);
        }
        words[nwords++] = (struct word){ w, eq + 1 };
    }
}

const char *cmdline_get(const char *key)
{
    for (int i = 0; i < nwords; i++)
        if (strcmp(words[i].key, key) == 0)
            return words[i].value;
    return NULL;
}

/* Parses one unsigned decimal number from s up to a ',' or '-' or end; returns the end or NULL. */
static const char *parse_uint(const char *s, uint32_t *out)
{
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return NULL;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > 0xffffffffu)
            return NULL;
    }
    *out = (uint32_t)v;
    return s;
}

static void check_range(const char *key, uint32_t v, uint32_t min, uint32_t max)
{
    if (v < min || v > max) {
        char why[80];
        snprintf(why, sizeof(why), "%u is out of range %u..%u", v, min, max);
        cmdline_error(key, why);
    }
}

uint32_t cmdline_uint(const char *key, uint32_t def, uint32_t min, uint32_t max)
{
    const char *v = cmdline_get(key);
    if (!v)
        return def;
    uint32_t n;
    const char *end = parse_uint(v, &n);
    if (!end || *end)
        cmdline_error(key, "not an unsigned integer");
    check_range(key, n, min, max);
    return n;
}

int cmdline_uint_list(const char *key, const char *def, uint32_t min, uint32_t max, uint32_t *out, int max_n)
{
    const char *v = cmdline_get(key);
    if (!v)
        v = def;
    int n = 0;
    for (;;) {
        uint32_t x;
        const char *end = parse_uint(v, &x);
        if (!end || (*end && *end != ','))
            cmdline_error(key, "expected a comma-separated list of unsigned integers");
        if (n == max_n) {
            char why[64];
            snprintf(why, sizeof(why), "more than %d values", max_n);
            cmdline_error(key, why);
        }
        check_range(key, x, min, max);
        out[n++] = x;
        if (!*end)
            return n;
        v = end + 1;
    }
}

int cmdline_choice(const char *key, const char *def, const char *const *choices)
{
    const char *v = cmdline_get(key);
    if (!v)
        v = def;
    for (int i = 0; choices[i]; i++)
        if (strcmp(v, choices[i]) == 0)
            return i;
    char why[160];
    int len = snprintf(why, sizeof(why), "expected one of");
    for (int i = 0; choices[i] && len < (int)sizeof(why); i++)
        len += snprintf(why + len, sizeof(why) - len, "%s%s", i ? "|" : " ", choices[i]);
    cmdline_error(key, why);
}

cpumask_t cmdline_cpu_list(const char *key, int ncpus)
{
    const char *v = cmdline_get(key);
    if (!v)
        return 0;
    cpumask_t mask = 0;
    for (;;) {
        uint32_t a, b;
        const char *end = parse_uint(v, &a);
        if (!end)
            cmdline_error(key, "expected a CPU list such as 0 or 0,2-3");
        b = a;
        if (*end == '-') {
            end = parse_uint(end + 1, &b);
            if (!end || b < a)
                cmdline_error(key, "bad CPU range");
        }
        if (*end && *end != ',')
            cmdline_error(key, "expected a CPU list such as 0 or 0,2-3");
        if (b >= (uint32_t)ncpus) {
            char why[64];
            snprintf(why, sizeof(why), "cpu %u is not online (%d online)", b, ncpus);
            cmdline_error(key, why);
        }
        for (uint32_t c = a; c <= b; c++)
            mask |= CPU_BIT(c);
        if (!*end)
            return mask;
        v = end + 1;
    }
}

void cmdline_reject_unknown(const char *const *const *key_lists)
{
    for (int i = 0; i < nwords; i++) {
        bool known = false;
        for (int l = 0; key_lists[l] && !known; l++)
            for (int k = 0; key_lists[l][k] && !known; k++)
                known = strcmp(words[i].key, key_lists[l][k]) == 0;
        if (!known) {
            kprintf("error: %s=%s: unknown key for this run\n", words[i].key, words[i].value);
            machine_exit(EXIT_ERROR);
        }
    }
}
