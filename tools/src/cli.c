/* Option parsing for every verb (see cli.h). */
#include "cli.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int usage_error(const char *fmt, const char *arg)
{
    fputs("error: ", stderr);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see: tools/schedlab help)\n");
    return EXIT_USAGE;
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
        return usage_error("option '%s' needs a value", typed);
    if (d->bit == OPT_ALLOW_DIFF) {   /* may be given several times */
        char *joined = o->allow_diff ? xasprintf("%s,%s", o->allow_diff, val) : xstrdup(val);
        free(o->allow_diff);
        o->allow_diff = joined;
        return 0;
    }
    if (d->bit == OPT_WHERE) {   /* may be given several times */
        if (!strchr(val, '=') || *val == '=')
            return usage_error("option '--where' needs KEY=VALUE, not '%s'", val);
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
        return usage_error("option '%s' needs a number", typed);
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

int cli_parse(int argc, char **argv, struct opts *o, const struct verb_spec *spec)
{
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
            rc = usage_error("option '%s' needs a value", typed);
        } else if (c <= 0 || c > (int)NDEFS) {
            rc = usage_error("unknown option '%s' for this verb", arg);
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
