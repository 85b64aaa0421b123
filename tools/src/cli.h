/*
 * Command-line options shared by every verb of schedlab.  Each verb
 * names the options it takes (a mask of OPT_* bits) and its usage text;
 * cli_parse() reads them with getopt_long_only, so "--metric=time_s",
 * "--metric time_s" and the old single-dash "-metric time_s" all work, and
 * every verb answers --help (or -h) with its own usage on stdout.
 *
 * Errors are said one way by every verb: "schedlab VERB: error: WHAT" on
 * stderr; a usage error (usage_error, verb_usage_error) adds the verb's
 * usage line and exits 2, with "did you mean X?" where a flag, key,
 * scheduler or seed was mistyped (suggest()).
 */
#ifndef SCHEDLAB_CLI_H
#define SCHEDLAB_CLI_H

#include <stdbool.h>
#include <stddef.h>

#define EXIT_USAGE 2
#define CLI_HELP (-1)   /* cli_parse's answer to --help: the verb exits 0 */

enum {
    OPT_BENCH = 1u << 0, OPT_METRIC = 1u << 1, OPT_ACROSS = 1u << 2, OPT_BASE = 1u << 3,
    OPT_OUT = 1u << 4, OPT_LABELS = 1u << 5, OPT_PNG_TERM = 1u << 6, OPT_STDDEV = 1u << 7,
    OPT_CV = 1u << 8, OPT_HTML = 1u << 9, OPT_SCHED = 1u << 10, OPT_CMDLINE = 1u << 11,
    OPT_SMP = 1u << 12, OPT_BOOT = 1u << 13, OPT_RC = 1u << 14, OPT_ALLOW_DIFF = 1u << 15,
    OPT_FORMAT = 1u << 16, OPT_UNIT = 1u << 17, OPT_LOG = 1u << 18, OPT_COLUMNS = 1u << 19,
    OPT_KIND = 1u << 20, OPT_WHERE = 1u << 21, OPT_ROWS = 1u << 22,
};

/* What a verb accepts: its name, its OPT_* mask and its usage (for --help). */
struct verb_spec {
    const char *name;
    unsigned allowed;
    const char *usage;
    const char *formats;    /* --format's words, "a|b"; NULL: text|html|lkml */
};

struct opts {
    const char *bench, *metric, *across, *base, *out, *labels, *png_term;
    const char *format;     /* --format: text (default), html, lkml */
    const char *unit;       /* --unit: auto (default), run, boot */
    const char *log;        /* --log: auto (default), yes, no */
    const char *columns;    /* --columns: a comma list of column names */
    const char *kind;       /* --kind: a line kind of the serial protocol (parse, field) */
    char *where;            /* every --where KEY=VALUE, joined with newlines (owned) */
    bool rows;              /* --rows (parse) */
    char *allow_diff;       /* every --allow-diff, joined with commas (owned) */
    bool stddev, cv, html;
    const char **dirs;      /* the positional arguments */
    size_t ndirs;
    /* parse */
    const char *sched, *cmdline;
    long smp, boot, rc;
    /* from the directories' matrix.txt (load.c) */
    char **sweep;
    size_t nsweep;
    bool sweep_known;
};

/* The verb that runs (for messages) and its usage (for usage errors); main and the verbs set it. */
void cli_set_verb(const char *name, const struct verb_spec *spec);
/* For a verb that reads its own flags: its usage text, whose first line usage errors print. */
void cli_set_usage(const char *usage);
/* "unknown flag '--x'" with "did you mean --y?" from flags (names without "--", NULL-terminated). */
int unknown_flag_error(const char *typed, const char *const *flags);
/* For a verb that reads its own flags: argv[*i] as "--name=VALUE" or "--name VALUE", name one of flags
 * (without "--", NULL-terminated) or the spelling `extra` (NULL: none).  Returns the flag as typed (allocated)
 * with *val its value, *i moved past a separate value; or NULL after the error line, *rc its exit status. */
char *cli_flag_value(int argc, char **argv, int *i, const char *const *flags, const char *extra, const char **val,
                     int *rc);
const char *cli_verb(void);
/* The nearest of names (NULL-terminated) to word when it is near enough to be a typo, else NULL. */
const char *suggest(const char *word, const char *const *names);
/* Levenshtein distance (99 for words over 64 characters). */
size_t edit_distance(const char *a, const char *b);
/* "schedlab VERB: error: ..." and the verb's usage line; returns EXIT_USAGE. */
int verb_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses argv[1..argc) (argv[0] is the verb).  Returns 0, CLI_HELP after
 * printing the usage, or EXIT_USAGE after an "error: ..." line.  Call
 * cli_free() in every case. */
int cli_parse(int argc, char **argv, struct opts *o, const struct verb_spec *spec);
void cli_free(struct opts *o);

/* verb_usage_error with one string argument (the older form). */
int usage_error(const char *fmt, const char *arg);

/* What a verb returns for a cli_parse() answer other than 0. */
static inline int cli_exit(int rc)
{
    return rc == CLI_HELP ? 0 : rc;
}

#endif
