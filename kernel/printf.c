/*
 * vsnprintf for the kernel: %d %i %u %x %X %p %s %c %%, with the flags '-'
 * and '0', a field width (digits or '*'), a precision for %s (".N" or ".*",
 * as C: print at most N bytes of the string, which need not be terminated
 * within them), and the l, ll and z length modifiers.  No floating point: the kernel never touches the FPU, so
 * fractional figures go through fmt_fixed().
 */
#include "lib.h"

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, bool left, char pad)
{
    int fill = width > (int)n ? width - (int)n : 0;
    if (!left)
        while (fill-- > 0)
            put(o, pad);
    for (size_t i = 0; i < n; i++)
        put(o, s[i]);
    if (left)
        while (fill-- > 0)
            put(o, ' ');
}

static void put_number(struct out *o, uint64_t v, bool negative, int base, bool upper, int width, bool left,
                       char pad)
{
    char tmp[24];
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    int n = 0;
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    char out[26];
    int k = 0;
    if (negative && pad == '0') {
        put(o, '-');
        if (width > 0)
            width--;
    } else if (negative) {
        out[k++] = '-';
    }
    while (n)
        out[k++] = tmp[--n];
    put_padded(o, out, k, width, left, pad);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct out o = { buf, size, 0 };
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            put(&o, *fmt);
            continue;
        }
        fmt++;
        bool left = false;
        char pad = ' ';
        for (;; fmt++) {
            if (*fmt == '-')
                left = true;
            else if (*fmt == '0')
                pad = '0';
            else
                break;
        }
        int width = 0, precision = -1;
        if (*fmt == '*') {
            fmt++;
            width = va_arg(ap, int);
            if (width < 0) {            /* C: a negative '*' width is '-' with that width */
                left = true;
                width = -width;
            }
        }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        if (*fmt == '.') {
            fmt++;
            precision = 0;
            if (*fmt == '*') {
                fmt++;
                precision = va_arg(ap, int);   /* negative: as if there were none */
                if (precision < 0)
                    precision = -1;
            }
            while (*fmt >= '0' && *fmt <= '9')
                precision = precision * 10 + (*fmt++ - '0');
        }
        int longs = 0; /* 1: long or size_t, 2: long long */
        for (; *fmt == 'l' || *fmt == 'z'; fmt++)
            longs = (*fmt == 'z') ? 1 : longs + 1;
        switch (*fmt) {
        case 'd':
        case 'i': {
            int64_t v = longs >= 2 ? va_arg(ap, long long) : longs == 1 ? va_arg(ap, long) : va_arg(ap, int);
            put_number(&o, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false, width, left, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            uint64_t v = longs >= 2 ? va_arg(ap, unsigned long long)
                         : longs == 1 ? va_arg(ap, unsigned long)
                                      : va_arg(ap, unsigned int);
            put_number(&o, v, false, *fmt == 'u' ? 10 : 16, *fmt == 'X', width, left, pad);
            break;
        }
        case 'p':
            put(&o, '0');
            put(&o, 'x');
            put_number(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, 8, false, '0');
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            size_t n = 0;               /* never read past the precision: s may be a slice of a longer text */
            while ((precision < 0 || n < (size_t)precision) && s[n])
                n++;
            put_padded(&o, s, n, width, left, ' ');
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            put_padded(&o, &c, 1, width, left, ' ');
            break;
        }
        case '%':
            put(&o, '%');
            break;
        case 0:
            fmt--;
            break;
        default:
            put(&o, '%');
            put(&o, *fmt);
        }
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = 0;
    return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

const char *fmt_fixed(char *buf, uint64_t num, uint64_t den, int decimals)
{
    uint64_t scale = 1;
    for (int i = 0; i < decimals; i++)
        scale *= 10;
    if (den == 0) {
        strlcpy(buf, "nan", 32);
        return buf;
    }
    /* Round half up at the last printed digit, without overflowing for big num. */
    uint64_t whole = num / den, rem = num % den;
    uint64_t frac = (rem * scale * 2 + den) / (den * 2);
    if (frac >= scale) {
        whole++;
        frac -= scale;
    }
    int n = snprintf(buf, 32, "%llu", (unsigned long long)whole);
    if (decimals > 0 && n + decimals + 1 < 32) {
        buf[n++] = '.';
        for (int i = decimals - 1; i >= 0; i--, frac /= 10)
            buf[n + i] = (char)('0' + frac % 10);
        buf[n + decimals] = 0;
    }
    return buf;
}
