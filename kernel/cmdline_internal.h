/*
 * Inside kernel/cmdline*.c: the value parsers (cmdline_value.c), shared by
 * the getters (cmdline.c) and by the check of every registered table
 * (cmdline_registry.c), so that a default is held to the same rules as a
 * value on the command line.  Parsers return -1 and write why on bad input;
 * they never exit.
 */
#ifndef KERNEL_CMDLINE_INTERNAL_H
#define KERNEL_CMDLINE_INTERNAL_H

#include "cmdline.h"

int cmdline_parse_uint_value(const struct cmdline_key *k, const char *v, uint32_t *out, char *why, size_t n);
int cmdline_parse_uint_list(const struct cmdline_key *k, const char *v, uint32_t *out, char *why, size_t n);
int cmdline_parse_int_list(const struct cmdline_key *k, const char *v, int32_t *out, char *why, size_t n);
int cmdline_parse_choice(const struct cmdline_key *k, const char *v, char *why, size_t n);
int cmdline_parse_cpu_list(const struct cmdline_key *k, const char *v, int ncpus, cpumask_t *out, char *why,
                           size_t n);
void cmdline_format_range(char *why, size_t n, int64_t v, int64_t min, int64_t max);
const char *cmdline_type_name(enum cmdline_type type);

/* Every error line: printf-style, without the newline; ends the run with
 * EXIT_ERROR.  A text from the command line goes in as SHOWN_FMT/SHOWN(s):
 * at most 160 bytes of it, then "...", so that the line keeps its reason. */
void cmdline_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int cmdline_shown_len(const char *s);
const char *cmdline_shown_more(const char *s);
#define SHOWN_FMT "%.*s%s"
#define SHOWN(s) cmdline_shown_len(s), (s), cmdline_shown_more(s)

/* The registry (cmdline_registry.c) and the words (cmdline.c). */
bool cmdline_registered(const struct cmdline_key *k);
int cmdline_word_count(void);
const char *cmdline_word_key(int i);

#endif
