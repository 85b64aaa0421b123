/* Option parsing for every verb (see cli.h). */
#include "cli.h"
#include "util.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cur_verb;
static const struct verb_spec *cur_spec;
static const char *cur_usage;   /* a verb that reads its own flags: its usage text */

void cli_set_verb(const char *name, const struct verb_spec *spec)
{
    cur_verb = name;
    cur_spec = spec;
    cur_usage = NULL;
}

void cli_set_usage(const char *usage)
{
    cur_usage = usage;
}

const char *cli_verb(void)
{
    return cur_verb;
}

/* The first line of the verb's usage: "usage: schedlab VERB ...". */
static void print_usage_line(void)
{
    const char *usage = cur_usage ? cur_usage : cur_spec ? cur_spec->usage : NULL;
    if (usage) {
        size_t n = strcspn(usage, "\n");
        fprintf(stderr, "%.*s\n", (int)n, usage);
        fprintf(stderr, "(schedlab %s --help: every flag)\n", cur_verb ? cur_verb : cur_spec ? cur_spec->name : "VERB");
    } else {
        fprintf(stderr, "usage: schedlab %s ...   (schedlab %s --help)\n", cur_verb ? cur_verb : "VERB",
                cur_verb ? cur_verb : "--help");
    }
}

int verb_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "schedlab%s%s: error: ", cur_verb ? " " : "", cur_verb ? cur_verb : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_usage_line();
    return EXIT_USAGE;
}

int usage_error(const char *fmt, const char *arg)
{
    return verb_usage_error(fmt, arg);
}

/* Levenshtein distance, at most 64 characters a word (longer ones are far). */
size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1;   /* two letters swapped */
        }
    return d[la][lb];
}

const char *suggest(const char *word, const char *const *names)
{
    static char several[256];
    const char *best = NULL;
    size_t bestd = 99, len = strlen(word), ties = 0;
    /* a typo: one or two edits, fewer in a short word; or the word a prefix of one name only */
    size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *prefix_of = NULL;
    int prefixes = 0;
    for (size_t i = 0; names && names[i]; i++) {
        size_t d = edit_distance(word, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
            ties = 1;
        } else if (d == bestd)
            ties++;
        if (len >= 3 && !strncmp(names[i], word, len)) {
            prefix_of = names[i];
            prefixes++;
        }
    }
    if (best && bestd && bestd <= limit && ties == 1)
        return best;
    size_t nnames = 0;
    while (names && names[nnames])
        nnames++;
    if (best && bestd && bestd <= limit && ties < nnames) {   /* as near to several: name them all, as git does */
        several[0] = 0;
        size_t k = 0;
        for (size_t i = 0; names[i]; i++)
            if (edit_distance(word, names[i]) == bestd) {
                k++;
                snprintf(several + strlen(several), sizeof(several) - strlen(several), "%s%s",
                         k == 1 ? "" : k == ties ? " or " : ", ", names[i]);
            }
        return several;
    }
    return prefixes == 1 ? prefix_of : NULL;
}

int unknown_flag_error(const char *typed, const char *const *flags)
{
    const char *w = typed;
    while (*w == '-')
        w++;
    char *name = xstrndup(w, strcspn(w, "="));
    const char *near = suggest(name, flags);
    free(name);
    return near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", typed, near)
                : verb_usage_error("unknown flag '%s'", typed);
}

char *cli_flag_value(int argc, char **argv, int *i, const char *const *flags, const char *extra, const char **val,
                     int *rc)
{
    const char *a = argv[*i];
    char *opt = xstrndup(a, strcspn(a, "="));
    *val = strchr(a, '=') ? strchr(a, '=') + 1 : NULL;
    bool known = extra && !strcmp(opt, extra);
    for (int k = 0; flags[k]; k++)
        known |= !strncmp(opt, "--", 2) && !strcmp(opt + 2, flags[k]);
    if (!known) {
        *rc = unknown_flag_error(opt, flags);
        free(opt);
        return NULL;
    }
    if (!*val) {
        if (*i + 1 >= argc || !strncmp(argv[*i + 1], "--", 2)) {
            *rc = verb_usage_error("%s needs a value", opt);
            free(opt);
            return NULL;
        }
        *val = argv[++*i];
    }
    return opt;
}

/* Every option any verb knows; a verb's spec picks some of them. */
enum kind { FLAG, TEXT, NUMBER };
static const struct option_def {
    const char *name;
    unsigned bit;
    enum kind kind;
} defs[] = {
    { "bench", OPT_BENCH, TEXT },     { "metric", OPT_METRIC, TEXT },   { "across", OPT_ACROSS, TEXT },
    { "base", OPT_BASE, TEXT },       { "out", OPT_OUT, TEXT },         { "labels", OPT_LABELS, TEXT },
    { "png-term", OPT_PNG_TERM, TEXT }, { "stddev", OPT_STDDEV, FLAG }, { "cv", OPT_CV, FLAG },
    { "html", OPT_HTML, FLAG },       { "sched", OPT_SCHED, TEXT },     { "cmdline", OPT_CMDLINE, TEXT },
    { "smp", OPT_SMP, NUMBER },       { "boot", OPT_BOOT, NUMBER },     { "rc", OPT_RC, NUMBER },
    { "allow-diff", OPT_ALLOW_DIFF, TEXT }, { "format", OPT_FORMAT, TEXT }, { "unit", OPT_UNIT, TEXT },
    { "log", OPT_LOG, TEXT },         { "columns", OPT_COLUMNS, TEXT },
    { "kind", OPT_KIND, TEXT },       { "where", OPT_WHERE, TEXT },     { "rows", OPT_ROWS, FLAG },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))
#define HELP_VAL 1000   /* getopt's value for --help; option i returns i + 1 */

/* The getopt_long table of one verb: its options and --help. */
static struct option *long_options(unsigned allowed)
{
    struct option *lo = xcalloc(NDEFS + 2, sizeof(*lo));
    size_t n = 0;
    for (size_t i = 0; i < NDEFS; i++)
        if (allowed & defs[i].bit)
            lo[n++] = (struct option){ defs[i].name, defs[i].kind == FLAG ? no_argument : required_argument, NULL,
                                       (int)i + 1 };
    lo[n++] = (struct option){ "help", no_argument, NULL, HELP_VAL };
    return lo;
}

static void set_text(struct opts *o, const char *name, const char *val)
{
    const char **slot = !strcmp(name, "bench")    ? &o->bench
                        : !strcmp(name, "metric") ? &o->metric
                        : !strcmp(name, "across") ? &o->across
                        : !strcmp(name, "base")   ? &o->base
                        : !strcmp(name, "out")    ? &o->out
                        : !strcmp(name, "labels") ? &o->labels
                        : !strcmp(name, "sched")  ? &o->sched
                        : !strcmp(name, "cmdline") ? &o->cmdline
                        : !strcmp(name, "format") ? &o->format
                        : !strcmp(name, "unit")   ? &o->unit
                        : !strcmp(name, "log")    ? &o->log
                        : !strcmp(name, "columns") ? &o->columns
                        : !strcmp(name, "kind")   ? &o->kind
                                                   : &o->png_term;
    *slot = val;
}

/* The options that take one of a few words. */
static int choice_check(const struct opts *o, const char *typed, const struct verb_spec *spec)
{
    const char *checks[][2] = { { o->format, spec->formats ? spec->formats : "text|html|lkml" },
                                { o->unit, "auto|run|boot" }, { o->log, "auto|yes|no" } };
    for (size_t i = 0; i < 3; i++) {
        if (!checks[i][0])
            continue;
        char *pat = xasprintf("|%s|", checks[i][1]), *word = xasprintf("|%s|", checks[i][0]);
        bool ok = strstr(pat, word) != NULL && !strchr(checks[i][0], '|');
        free(pat);
        free(word);
        if (!ok) {
            char *msg = xasprintf("%s %s: expected %s", typed, checks[i][0], checks[i][1]);
            int rc = usage_error("%s", msg);
            free(msg);
            return rc;
        }
    }
    return 0;
}

/* One recognised option; returns 0 or EXIT_USAGE. */
static int take_option(struct opts *o, const struct option_def *d, const char *typed, const char *val,
                       const struct verb_spec *spec)
{
    if (d->kind == FLAG) {
        if (d->bit == OPT_STDDEV)
            o->stddev = true;
        else if (d->bit == OPT_CV)
            o->cv = true;
        else if (d->bit == OPT_ROWS)
            o->rows = true;
        else
            o->html = true;
        return 0;
    }
    if (!val || !val[0])
        return usage_error("%s needs a value", typed);
    if (d->bit == OPT_ALLOW_DIFF) {   /* may be given several times */
        char *joined = o->allow_diff ? xasprintf("%s,%s", o->allow_diff, val) : xstrdup(val);
        free(o->allow_diff);
        o->allow_diff = joined;
        return 0;
    }
    if (d->bit == OPT_WHERE) {   /* may be given several times */
        if (!strchr(val, '=') || *val == '=')
            return usage_error("--where needs KEY=VALUE, not '%s'", val);
        char *joined = o->where ? xasprintf("%s\n%s", o->where, val) : xstrdup(val);
        free(o->where);
        o->where = joined;
        return 0;
    }
    if (d->kind == TEXT) {
        set_text(o, d->name, val);
        return choice_check(o, typed, spec);
    }
    long n;
    if (!parse_long(val, &n))
        return usage_error("%s needs a number", typed);
    if (d->bit == OPT_SMP)
        o->smp = n;
    else if (d->bit == OPT_BOOT)
        o->boot = n;
    else
        o->rc = n;
    return 0;
}

/* The option word as typed ("--metric=x" -> "--metric"), for messages. */
static char *typed_name(const char *arg)
{
    return xstrndup(arg, strcspn(arg, "="));
}

/* An unknown flag, with the verb's nearest flag when it looks like a typo of it. */
static int unknown_option(const char *arg, const struct verb_spec *spec)
{
    const char *names[NDEFS + 2];
    size_t n = 0;
    for (size_t i = 0; i < NDEFS; i++)
        if (spec->allowed & defs[i].bit)
            names[n++] = defs[i].name;
    names[n++] = "help";
    names[n] = NULL;
    char *word = xstrndup(arg + strspn(arg, "-"), strcspn(arg + strspn(arg, "-"), "="));
    const char *near = suggest(word, names);
    free(word);
    char *typed = xstrndup(arg, strcspn(arg, "="));
    int rc = near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", typed, near)
                  : verb_usage_error("unknown flag '%s'", typed);
    free(typed);
    return rc;
}

int cli_parse(int argc, char **argv, struct opts *o, const struct verb_spec *spec)
{
    cli_set_verb(cli_verb() ? cli_verb() : spec->name, spec);
    memset(o, 0, sizeof(*o));
    o->dirs = xcalloc((size_t)argc + 1, sizeof(char *));
    o->smp = 1;
    struct option *lo = long_options(spec->allowed);
    int rc = 0, c;
    optind = 0;   /* glibc: start afresh (several verbs may parse in one process, as the tests do) */
    opterr = 0;
    while (rc == 0 && (c = getopt_long_only(argc, argv, ":", lo, NULL)) != -1) {
        /* The option word: the element before its value when the value was a separate word. */
        int at = optarg && optind >= 2 && optarg == argv[optind - 1] ? optind - 2 : optind - 1;
        const char *arg = at >= 0 && argv[at] ? argv[at] : "?";
        char *typed = typed_name(arg);
        if (c == HELP_VAL) {
            printf("%s", spec->usage);
            rc = CLI_HELP;
        } else if (c == ':') {
            rc = usage_error("%s needs a value", typed);
        } else if (c <= 0 || c > (int)NDEFS) {
            rc = unknown_option(arg, spec);
        } else {
            rc = take_option(o, &defs[c - 1], typed, optarg, spec);
        }
        free(typed);
    }
    for (int i = optind; rc == 0 && i < argc; i++)
        o->dirs[o->ndirs++] = argv[i];
    free(lo);
    return rc;
}

void cli_free(struct opts *o)
{
    for (size_t i = 0; i < o->nsweep; i++)
        free(o->sweep[i]);
    free(o->sweep);
    free(o->dirs);
    free(o->allow_diff);
    o->allow_diff = NULL;
    free(o->where);
    o->where = NULL;
    o->sweep = NULL;
    o->dirs = NULL;
    o->nsweep = 0;
}
