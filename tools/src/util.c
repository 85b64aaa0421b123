/* Helpers for the schedlab host tool (see util.h). */
#include "util.h"
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void out_of_memory(void)
{
    fputs("error: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void grow(void *array_ptr, size_t *cap, size_t need, size_t elem)
{
    void **array = array_ptr;
    if (need < *cap)
        return;
    size_t ncap = *cap ? *cap * 2 : 8;
    while (ncap <= need)
        ncap *= 2;
    *array = xrealloc(*array, ncap * elem);
    memset((char *)*array + *cap * elem, 0, (ncap - *cap) * elem);
    *cap = ncap;
}

void sb_addn(struct strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        while (ncap < b->len + n + 1)
            ncap *= 2;
        b->s = xrealloc(b->s, ncap);
        b->cap = ncap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_add(struct strbuf *b, const char *s)
{
    sb_addn(b, s, strlen(s));
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    char *tmp = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(tmp, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_addn(b, tmp, (size_t)n);
    free(tmp);
}

void sb_free(struct strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf b = { 0 };
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        sb_addn(&b, chunk, n);
    int err = ferror(f);
    fclose(f);
    if (err) {
        sb_free(&b);
        errno = EIO;
        return NULL;
    }
    if (!b.s)
        sb_addn(&b, "", 0);
    *len = b.len;
    return b.s;
}

bool parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    /* Only plain decimal numbers: no hex, inf or nan from strtod. */
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789+-.eE", *p))
            return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool parse_long(const char *s, long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

bool streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

void errorf(const char *fmt, ...)
{
    va_list ap;
    const char *verb = cli_verb();
    fprintf(stderr, "schedlab%s%s: error: ", verb ? " " : "", verb ? verb : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

bool no_such_dir(const char *dir, const char *kind, const char *makes)
{
    struct stat st;
    if (stat(dir, &st) == 0)
        return false;
    errorf("%s: no such %s (%s makes one)", dir, kind, makes);
    return true;
}

bool copy_file(const char *from, const char *to)
{
    size_t len;
    char *buf = read_file(from, &len);
    if (!buf)
        return false;
    FILE *f = fopen(to, "wb");
    bool ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    free(buf);
    return ok;
}

