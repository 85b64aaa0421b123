/*
 * The kernel command line: space-separated key=value words.
 *
 * Every key is declared once, in a table of struct cmdline_key (name, type,
 * default, range, one line of help), and read only through its entry: so
 * what bench=list prints about a key is what the getters enforce.  Whoever
 * reads keys registers its table (cmdline_register) before reading; the
 * unknown-key check (cmdline_reject_unknown) accepts exactly the registered
 * keys.  The kernel registers its own keys (watchdog=), the workload runner
 * its own and those of the selected workloads.
 *
 * Every getter validates and, on a bad value, prints one line
 *     error: <key>=<value>: <why>
 * and ends the run with EXIT_ERROR - so callers never see bad input.  A
 * table that contradicts itself or a getter of the wrong type is a kernel
 * bug and panics.
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "types.h"

#define CMDLINE_MAX_WORDS 48
#define CMDLINE_MAX_LIST 64

enum cmdline_type {
    CMDLINE_UINT,        /* one unsigned decimal number in min..max */
    CMDLINE_UINT_LIST,   /* "50,100,150": up to max_values numbers, each in min..max */
    CMDLINE_INT_LIST,    /* "-5,0,10": signed, each in min..max */
    CMDLINE_CHOICE,      /* one of choices */
    CMDLINE_CHOICE_LIST, /* a comma list of choices (parsed by the key's owner) */
    CMDLINE_CPU_LIST,    /* "0,2-3": CPUs min..max, each online */
};

#define CMDLINE_AUTO 1u          /* flags: the default is computed at run time (the help says how) */
/* A scheduler tunable, sched.<name> (kernel/sched_tunables.c): bench=list
 * describes it as "tunable sched=<owner> name=<name> unit=<unit> ..." */
#define CMDLINE_TUNABLE 2u
/* sched.preset: a choice whose choice_info[i] is what choices[i] sets;
 * bench=list describes each as "preset sched=<owner> name=<choice> <settings>" */
#define CMDLINE_PRESET 4u

struct cmdline_key {
    const char *name;
    enum cmdline_type type;
    uint32_t flags;
    int64_t def, suite_def;          /* CMDLINE_UINT: the default and the short suite's */
    const char *def_text, *suite_text; /* other types: as written on the command line (suite: NULL = same) */
    int64_t min, max;                /* each value; CPU numbers for a CPU list */
    int max_values;                  /* lists */
    const char *const *choices;      /* choices: NULL-terminated */
    const char *help;                /* one line, no double quote */
    const char *unit;                /* CMDLINE_TUNABLE: ns, ms, ticks, ... */
    const char *const *choice_info;  /* CMDLINE_PRESET: the settings of each choice */
};

/* Table entries.  A default of a list or a choice is its text. */
#define CMDLINE_KEY_UINT(n, d, lo, hi, h) \
    { .name = n, .type = CMDLINE_UINT, .def = (d), .suite_def = (d), .min = (lo), .max = (hi), .help = h }
#define CMDLINE_KEY_UINT_SUITE(n, d, sd, lo, hi, h) \
    { .name = n, .type = CMDLINE_UINT, .def = (d), .suite_def = (sd), .min = (lo), .max = (hi), .help = h }
#define CMDLINE_KEY_UINT_AUTO(n, lo, hi, h) \
    { .name = n, .type = CMDLINE_UINT, .flags = CMDLINE_AUTO, .min = (lo), .max = (hi), .help = h }
#define CMDLINE_KEY_UINT_LIST(n, d, sd, lo, hi, count, h)                                                   \
    { .name = n, .type = CMDLINE_UINT_LIST, .def_text = d, .suite_text = sd, .min = (lo), .max = (hi),    \
      .max_values = (count), .help = h }
#define CMDLINE_KEY_INT_LIST_AUTO(n, lo, hi, count, h)                                                      \
    { .name = n, .type = CMDLINE_INT_LIST, .flags = CMDLINE_AUTO, .min = (lo), .max = (hi),               \
      .max_values = (count), .help = h }
#define CMDLINE_KEY_CHOICE(n, d, list, h) \
    { .name = n, .type = CMDLINE_CHOICE, .def_text = d, .choices = list, .help = h }
#define CMDLINE_KEY_CPU_LIST_AUTO(n, h) \
    { .name = n, .type = CMDLINE_CPU_LIST, .flags = CMDLINE_AUTO, .min = 0, .max = MAX_CPUS - 1, .help = h }

void cmdline_parse(const char *s);             /* splits; malformed words are errors */
const char *cmdline_raw(void);
const char *cmdline_get(const char *key);      /* the word's value; NULL when absent */

/* The registry.  owner is what bench=list prints as workload= ("kernel" for
 * the kernel's and the runner's own keys). */
void cmdline_register(const char *owner, const struct cmdline_key *keys, int n);
/* Every word's key must be registered. */
void cmdline_reject_unknown(void);
/* Short-suite defaults (suite_def, suite_text) instead of the plain ones. */
void cmdline_use_suite_defaults(bool on);
/* bench=list: "key workload=<owner> name=... type=... default=... min=... max=..." per key. */
void cmdline_describe(const char *owner, const struct cmdline_key *keys, int n);
void cmdline_describe_registered(void);

/* Getters.  Each takes the key's table entry, which must be registered. */
bool cmdline_given(const struct cmdline_key *k);
uint32_t cmdline_key_uint(const struct cmdline_key *k);
/* A CMDLINE_AUTO key: the value given, else automatic (computed by the caller). */
uint32_t cmdline_key_uint_auto(const struct cmdline_key *k, uint32_t automatic);
/* Lists: the count of values written to out[size]; size must hold max_values.  An
 * absent CMDLINE_AUTO list gives 0. */
int cmdline_key_uint_list(const struct cmdline_key *k, uint32_t *out, int size);
int cmdline_key_int_list(const struct cmdline_key *k, int32_t *out, int size);
int cmdline_key_choice(const struct cmdline_key *k);     /* the index into choices */
/* Checked against the online CPUs; 0 when absent (CMDLINE_AUTO). */
cpumask_t cmdline_key_cpu_list(const struct cmdline_key *k, int ncpus);
/* The value, or the default text: for keys whose owner parses them (CMDLINE_CHOICE_LIST). */
const char *cmdline_key_text(const struct cmdline_key *k);

void cmdline_error(const char *key, const char *why) __attribute__((noreturn));
/* "error: <key>=<value>: <v> is out of range <min>..<max>": for limits that depend on other keys. */
void cmdline_range_error(const char *key, int64_t v, int64_t min, int64_t max) __attribute__((noreturn));

#endif
