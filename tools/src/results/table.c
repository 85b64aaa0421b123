/* The string table and its CSV reader/writer (see table.h). */
#include "table.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int table_col(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->col[i], name) == 0)
            return (int)i;
    return -1;
}

int table_add_col(struct table *t, const char *name)
{
    int c = table_col(t, name);
    if (c >= 0)
        return c;
    grow(&t->col, &t->colcap, t->ncols, sizeof(*t->col));
    t->col[t->ncols] = xstrdup(name);
    return (int)t->ncols++;
}

size_t table_add_row(struct table *t)
{
    grow(&t->row, &t->rowcap, t->nrows, sizeof(*t->row));
    t->row[t->nrows].cell = NULL;
    t->row[t->nrows].n = 0;
    t->row[t->nrows].line = 0;
    return t->nrows++;
}

const char *table_get(const struct table *t, size_t r, int col)
{
    if (col < 0 || r >= t->nrows || (size_t)col >= t->row[r].n)
        return NULL;
    const char *v = t->row[r].cell[col];
    return v && *v ? v : NULL;
}

const char *table_getn(const struct table *t, size_t r, const char *name)
{
    return table_get(t, r, table_col(t, name));
}

void table_set(struct table *t, size_t r, int col, const char *value)
{
    if (col < 0 || r >= t->nrows)
        return;
    struct trow *row = &t->row[r];
    if ((size_t)col >= row->n) {
        row->cell = xrealloc(row->cell, ((size_t)col + 1) * sizeof(char *));
        for (size_t i = row->n; i <= (size_t)col; i++)
            row->cell[i] = NULL;
        row->n = (size_t)col + 1;
    }
    free(row->cell[col]);
    row->cell[col] = value ? xstrdup(value) : NULL;
}

void table_setn(struct table *t, size_t r, const char *name, const char *value)
{
    table_set(t, r, table_add_col(t, name), value);
}

void table_free(struct table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->row[r].n; c++)
            free(t->row[r].cell[c]);
        free(t->row[r].cell);
    }
    for (size_t c = 0; c < t->ncols; c++)
        free(t->col[c]);
    free(t->row);
    free(t->col);
    memset(t, 0, sizeof(*t));
}

/* Splits one CSV record starting at *pos; returns the fields (count in *n)
 * and advances *pos past the record's line end.  *unclosed: the input ended
 * inside a quoted field. */
static char **csv_record(const char *buf, size_t len, size_t *pos, size_t *n, bool *unclosed)
{
    char **fields = NULL;
    size_t nf = 0, cap = 0;
    struct strbuf f = { 0 };
    size_t i = *pos;
    bool quoted = false, was_quoted = false;
    for (;;) {
        if (i >= len) {
            break;
        }
        char ch = buf[i];
        if (ch == '\0')
            ch = '?';
        if (quoted) {
            if (ch == '"') {
                if (i + 1 < len && buf[i + 1] == '"') {
                    sb_addn(&f, "\"", 1);
                    i += 2;
                    continue;
                }
                quoted = false;
                i++;
                continue;
            }
            sb_addn(&f, &ch, 1);
            i++;
            continue;
        }
        if (ch == '"' && f.len == 0 && !was_quoted) {
            quoted = was_quoted = true;
            i++;
            continue;
        }
        if (ch == ',') {
            grow(&fields, &cap, nf, sizeof(*fields));
            fields[nf++] = f.s ? f.s : xstrdup("");
            f.s = NULL;
            f.len = f.cap = 0;
            was_quoted = false;
            i++;
            continue;
        }
        if (ch == '\n' || ch == '\r') {
            i++;
            if (ch == '\r' && i < len && buf[i] == '\n')
                i++;
            break;
        }
        sb_addn(&f, &ch, 1);
        i++;
    }
    grow(&fields, &cap, nf, sizeof(*fields));
    fields[nf++] = f.s ? f.s : xstrdup("");
    *unclosed = quoted;
    *pos = i;
    *n = nf;
    return fields;
}

static void free_fields(char **fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(fields[i]);
    free(fields);
}

static size_t count_lines(const char *buf, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        n += buf[i] == '\n';
    return n;
}

/* Reads the records after the header into t; returns the line of a record
 * with an unterminated quoted field, or 0. */
static size_t read_records(struct table *t, const char *buf, size_t len, size_t pos, size_t line, const int *map,
                           size_t ncols, size_t *warnings)
{
    while (pos < len) {
        size_t n, start = pos;
        bool unclosed;
        char **fields = csv_record(buf, len, &pos, &n, &unclosed);
        size_t at = line;
        line += count_lines(buf, start, pos);
        if (n == 1 && fields[0][0] == '\0') {   /* blank line */
            free_fields(fields, n);
            continue;
        }
        size_t r = table_add_row(t);
        t->row[r].line = at;
        for (size_t i = 0; i < n; i++) {
            if (i >= ncols) {
                (*warnings)++;
                continue;
            }
            if (map[i] >= 0 && fields[i][0])
                table_set(t, r, map[i], fields[i]);
        }
        free_fields(fields, n);
        if (unclosed)
            return at;
    }
    return 0;
}

/* Parses buf; *unclosed_line: where a quoted field that never closes starts (0: none). */
static const char *parse_csv(struct table *t, const char *buf, size_t len, size_t *warnings, size_t *unclosed_line)
{
    size_t pos = 0, n;
    bool unclosed;
    *warnings = 0;
    *unclosed_line = 0;
    /* Skip leading blank lines. */
    while (pos < len && (buf[pos] == '\n' || buf[pos] == '\r'))
        pos++;
    if (pos >= len)
        return "empty file";
    size_t line = 1 + count_lines(buf, 0, pos), start = pos;
    char **header = csv_record(buf, len, &pos, &n, &unclosed);
    int *map = xmalloc(n * sizeof(int));
    size_t named = 0;
    for (size_t i = 0; i < n; i++) {
        map[i] = header[i][0] ? table_add_col(t, header[i]) : -1;
        named += map[i] >= 0;
    }
    free_fields(header, n);
    if (unclosed)
        *unclosed_line = line;
    else if (named)
        *unclosed_line = read_records(t, buf, len, pos, line + count_lines(buf, start, pos), map, n, warnings);
    free(map);
    return named ? NULL : "no header line";
}

const char *table_parse_csv(struct table *t, const char *buf, size_t len, size_t *warnings)
{
    size_t unclosed_line;
    return parse_csv(t, buf, len, warnings, &unclosed_line);
}

const char *table_read_csv(struct table *t, const char *path, size_t *warnings)
{
    static char msg[96];
    size_t len, unclosed_line = 0;
    char *buf = read_file(path, &len);
    *warnings = 0;
    if (!buf)
        return "cannot be read";
    const char *err = parse_csv(t, buf, len, warnings, &unclosed_line);
    free(buf);
    if (!err && unclosed_line) {
        /* The rest of the file would be one field: no row after it could be trusted. */
        snprintf(msg, sizeof(msg), "line %zu: a quoted field (\") that is never closed", unclosed_line);
        err = msg;
    }
    return err;
}

void csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    size_t len = strlen(s);
    bool quote = len && (s[0] == ' ' || s[len - 1] == ' ');
    for (const char *p = s; *p && !quote; p++)
        quote = *p == ',' || *p == '"' || *p == '\n' || *p == '\r';
    if (!quote) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

int table_write_csv(const struct table *t, FILE *f)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        csv_field(f, t->col[c]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', f);
            csv_field(f, table_get(t, r, (int)c));
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
