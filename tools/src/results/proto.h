/*
 * The serial protocol, read: every line of a boot's console log split into
 * its kind and key=value words, and checked against the kernel's own
 * declaration of that kind (kernel/protocol.h: the kinds, each one's keys
 * in order, the result line's metrics and counters).  This is the one
 * place that splits console lines; collect (logparse.c), the parse and
 * field verbs, trace-check and the tests all read through it.
 */
#ifndef SCHEDLAB_PROTO_H
#define SCHEDLAB_PROTO_H

#include "kernel/protocol.h"

#include <stdbool.h>
#include <stddef.h>

/* One console line. */
struct proto_line {
    int kind;                /* enum proto_kind, or -1: a line of no declared kind */
    char *word;              /* its first word ("schedstat", "boot:", "maxgroups:"); "" for an empty line */
    size_t n;                /* key=value words, in order */
    char **key, **value;
    char *text;              /* everything after the first word (the message of error:, panic: ...) */
    char *problem;           /* NULL when the line is what its kind declares, else what is wrong */
};

/* Splits line[0..len) (no newline) into *l; always succeeds (a line that
 * breaks its kind's declaration gets l->problem).  A value in double
 * quotes (help="two words") is one value, without the quotes. */
void proto_parse(const char *line, size_t len, struct proto_line *l);
void proto_line_free(struct proto_line *l);
/* The value of key, or NULL. */
const char *proto_get(const struct proto_line *l, const char *key);

/* The kind whose first word is word ("boot:", or "boot" for it too), or -1. */
int proto_kind(const char *word);
const char *proto_kind_word(int kind);
/* The kind's declared keys, NULL-terminated (vsmpstat's machine line; its
 * CPU lines have proto_vsmpstat_cpu_keys); an empty list for a text kind. */
const char *const *proto_keys(int kind);
extern const char *const proto_vsmpstat_cpu_keys[];
enum proto_shape proto_shape_of(int kind);
/* Does a line of this first word (or kind name) match want?  want may name a
 * kind with or without its ':' ("boot" is "boot:"), or any first word. */
bool proto_word_is(const char *word, const char *want);

/* The result line's measurements (kernel/protocol.h PROTO_METRICS). */
bool proto_is_metric(const char *key);
int proto_metric_better(const char *key);      /* +1, -1, 0; 0 for an unknown key too */
bool proto_metric_positive(const char *key);   /* a time, cost or rate: > 0 */
bool proto_is_counter(const char *key);
const char *proto_workload_metric(const char *bench);   /* or NULL */

/* Calls fn for every line of log[0..len), numbered from 1; a last line
 * without its newline is passed with cut = true. */
typedef void (*proto_line_fn)(const char *line, size_t len, size_t lineno, bool cut, void *arg);
void proto_each_line(const char *log, size_t len, proto_line_fn fn, void *arg);

#endif
