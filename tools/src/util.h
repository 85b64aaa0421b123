/*
 * Small helpers shared by the schedlab host tool: allocation that never
 * returns NULL, a growable string, whole-file reading and strict number
 * parsing.  Every input the tool reads may be truncated or malformed, so
 * the number parsers report failure instead of guessing.
 */
#ifndef SCHEDLAB_UTIL_H
#define SCHEDLAB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *array (of elem bytes each) so that index `need` fits. */
void grow(void *array_ptr, size_t *cap, size_t need, size_t elem);

struct strbuf {
    char *s;
    size_t len, cap;
};
void sb_add(struct strbuf *b, const char *s);
void sb_addn(struct strbuf *b, const char *s, size_t n);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_free(struct strbuf *b);

/* Reads a whole file; returns NULL (errno set) when it cannot be read.
 * The buffer is NUL-terminated one byte past *len. */
char *read_file(const char *path, size_t *len);
/* Copies the file FROM to TO (created or truncated) whole; false on any error. */
bool copy_file(const char *from, const char *to);

/* Strict parsers: the whole string must be a number (no trailing junk). */
bool parse_double(const char *s, double *out);   /* finite values only */
bool parse_long(const char *s, long *out);

bool streq(const char *a, const char *b);        /* NULL-safe */
/* Prints "error: ..." on stderr. */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* When dir does not exist: "DIR: no such KIND (MAKES makes one)" and true. */
bool no_such_dir(const char *dir, const char *kind, const char *makes);

#endif
