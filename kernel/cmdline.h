/*
 * The kernel command line: space-separated key=value words.
 *
 * Every getter validates and, on a bad value, prints one line
 *     error: <key>=<value>: <why>
 * and ends the run with EXIT_ERROR - so callers never see bad input.  Read
 * every parameter before starting work.  Keys nobody declared are rejected
 * by cmdline_reject_unknown().
 */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include "types.h"

#define CMDLINE_MAX_WORDS 48
#define CMDLINE_MAX_LIST 64

void cmdline_parse(const char *s);             /* splits; malformed words are errors */
const char *cmdline_raw(void);
const char *cmdline_get(const char *key);      /* NULL when absent */
uint32_t cmdline_uint(const char *key, uint32_t def, uint32_t min, uint32_t max);
/* A comma list of unsigned integers ("50,100,150"); def is used when absent.  Returns the count. */
int cmdline_uint_list(const char *key, const char *def, uint32_t min, uint32_t max, uint32_t *out, int max_n);
/* One of choices (NULL-terminated); returns its index. */
int cmdline_choice(const char *key, const char *def, const char *const *choices);
/* A CPU list "0,2-3" checked against the online CPUs; returns the mask (0 when absent). */
cpumask_t cmdline_cpu_list(const char *key, int ncpus);
/* Every word's key must be in one of the NULL-terminated lists (the array ends with NULL). */
void cmdline_reject_unknown(const char *const *const *key_lists);
void cmdline_error(const char *key, const char *why) __attribute__((noreturn));

#endif
