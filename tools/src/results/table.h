/*
 * An in-memory table of strings with named columns: the results CSV
 * (one row per benchmark run) as every verb sees it.  Rows may be shorter
 * than the header (missing cells read as NULL), which is how truncated
 * or ragged CSV files stay readable.
 */
#ifndef SCHEDLAB_TABLE_H
#define SCHEDLAB_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct trow {
    char **cell;
    size_t n;          /* cells present */
    size_t line;       /* where the row starts in the CSV file it came from (0: not from a file) */
};

struct table {
    char **col;
    size_t ncols, colcap;
    struct trow *row;
    size_t nrows, rowcap;
};

int table_col(const struct table *t, const char *name);            /* -1 when absent */
int table_add_col(struct table *t, const char *name);              /* existing index or a new one */
size_t table_add_row(struct table *t);
const char *table_get(const struct table *t, size_t r, int col);    /* NULL when absent or empty */
const char *table_getn(const struct table *t, size_t r, const char *name);
void table_set(struct table *t, size_t r, int col, const char *value);
void table_setn(struct table *t, size_t r, const char *name, const char *value);
void table_free(struct table *t);

/* Reads CSV (RFC 4180 quoting; CRLF or LF; NUL bytes become '?').  Appends
 * the rows to t, adding columns as needed (so several files can be merged).
 * Returns NULL on success, otherwise a static message (file unreadable, empty,
 * no header, and for table_read_csv a quoted field that is never closed,
 * with its line).  *warnings counts fields that were dropped from over-long
 * rows.  table_parse_csv is lenient: an unclosed quote runs to the end. */
const char *table_read_csv(struct table *t, const char *path, size_t *warnings);
const char *table_parse_csv(struct table *t, const char *buf, size_t len, size_t *warnings);

/* Writes one CSV field, quoted when it has a comma, quote, newline or edge space. */
void csv_field(FILE *f, const char *s);
int table_write_csv(const struct table *t, FILE *f);

#endif
