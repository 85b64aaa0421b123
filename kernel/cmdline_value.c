/* Parsing one key's value text by the key's type and range (see cmdline_internal.h). */
#include "cmdline_internal.h"
#include "lib.h"

static const char *const type_names[] = {
    [CMDLINE_UINT] = "uint",           [CMDLINE_UINT_LIST] = "uint_list", [CMDLINE_INT_LIST] = "int_list",
    [CMDLINE_CHOICE] = "choice",       [CMDLINE_CHOICE_LIST] = "choice_list",
    [CMDLINE_CPU_LIST] = "cpu_list",
};

const char *cmdline_type_name(enum cmdline_type type)
{
    return (unsigned)type < ARRAY_SIZE(type_names) && type_names[type] ? type_names[type] : "?";
}

void cmdline_format_range(char *why, size_t n, int64_t v, int64_t min, int64_t max)
{
    snprintf(why, n, "%lld is out of range %lld..%lld", (long long)v, (long long)min, (long long)max);
}

/* One unsigned decimal number from s up to a ',' or '-' or the end; returns the end, NULL if none or > 2^32-1. */
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

/* An optionally signed decimal number; NULL if none or beyond 32 bits. */
static const char *parse_int(const char *s, int64_t *out)
{
    bool negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    uint32_t u;
    const char *end = parse_uint(s, &u);
    if (!end || u > 0x7fffffffu)
        return NULL;
    *out = negative ? -(int64_t)u : (int64_t)u;
    return end;
}

static int out_of_range(const struct cmdline_key *k, int64_t v, char *why, size_t n)
{
    if (v >= k->min && v <= k->max)
        return 0;
    cmdline_format_range(why, n, v, k->min, k->max);
    return -1;
}

static int fail(char *why, size_t n, const char *text)
{
    strlcpy(why, text, n);
    return -1;
}

int cmdline_parse_uint_value(const struct cmdline_key *k, const char *v, uint32_t *out, char *why, size_t n)
{
    const char *end = parse_uint(v, out);
    if (!end || *end)
        return fail(why, n, "not an unsigned integer");
    return out_of_range(k, *out, why, n);
}

static int too_many(const struct cmdline_key *k, char *why, size_t n)
{
    snprintf(why, n, "more than %d values", k->max_values);
    return -1;
}

int cmdline_parse_uint_list(const struct cmdline_key *k, const char *v, uint32_t *out, char *why, size_t n)
{
    int count = 0;
    for (;;) {
        uint32_t x;
        const char *end = parse_uint(v, &x);
        if (!end || (*end && *end != ','))
            return fail(why, n, "expected a comma-separated list of unsigned integers");
        if (count == k->max_values)
            return too_many(k, why, n);
        if (out_of_range(k, x, why, n) != 0)
            return -1;
        out[count++] = x;
        if (!*end)
            return count;
        v = end + 1;
    }
}

int cmdline_parse_int_list(const struct cmdline_key *k, const char *v, int32_t *out, char *why, size_t n)
{
    int count = 0;
    for (;;) {
        int64_t x;
        const char *end = parse_int(v, &x);
        if (!end || (*end && *end != ',')) {
            snprintf(why, n, "expected a comma-separated list of integers %lld..%lld", (long long)k->min,
                     (long long)k->max);
            return -1;
        }
        if (count == k->max_values)
            return too_many(k, why, n);
        if (out_of_range(k, x, why, n) != 0)
            return -1;
        out[count++] = (int32_t)x;
        if (!*end)
            return count;
        v = end + 1;
    }
}

int cmdline_parse_choice(const struct cmdline_key *k, const char *v, char *why, size_t n)
{
    for (int i = 0; v && k->choices[i]; i++)
        if (strcmp(v, k->choices[i]) == 0)
            return i;
    size_t len = (size_t)snprintf(why, n, "expected one of");
    for (int i = 0; k->choices[i] && len < n; i++)
        len += (size_t)snprintf(why + len, n - len, "%s%s", i ? "|" : " ", k->choices[i]);
    return -1;
}

int cmdline_parse_cpu_list(const struct cmdline_key *k, const char *v, int ncpus, cpumask_t *out, char *why,
                           size_t n)
{
    cpumask_t mask = 0;
    for (;;) {
        uint32_t a, b;
        const char *end = parse_uint(v, &a);
        if (!end)
            return fail(why, n, "expected a CPU list such as 0 or 0,2-3");
        b = a;
        if (*end == '-') {
            end = parse_uint(end + 1, &b);
            if (!end || b < a)
                return fail(why, n, "bad CPU range");
        }
        if (*end && *end != ',')
            return fail(why, n, "expected a CPU list such as 0 or 0,2-3");
        if (b >= (uint32_t)ncpus || b > k->max) {
            snprintf(why, n, "cpu %u is not online (%d online)", b, ncpus);
            return -1;
        }
        for (uint32_t c = a; c <= b; c++)
            mask |= CPU_BIT(c);
        if (!*end) {
            *out = mask;
            return 0;
        }
        v = end + 1;
    }
}
