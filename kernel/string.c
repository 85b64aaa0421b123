/* The few string functions a freestanding kernel needs (gcc may emit calls to mem*).
 * CACHES=1 does not instrument this file (the Makefile): each function
 * charges its whole range to the memory model once (machine_access), one
 * access per line, instead of a call per byte. */
#include "lib.h"
#include "machine/memhooks.h"

void *memset(void *d, int c, size_t n)
{
    machine_access(d, n, MACHINE_WRITE);
    unsigned char *p = d;
    while (n--)
        *p++ = (unsigned char)c;
    return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
    machine_access(s, n, 0);
    machine_access(d, n, MACHINE_WRITE);
    void *dst = d;
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(s), "+c"(n) : : "memory");
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    machine_access(s, n, 0);
    machine_access(d, n, MACHINE_WRITE);
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp < sp) {
        while (n--)
            *dp++ = *sp++;
    } else {
        dp += n;
        sp += n;
        while (n--)
            *--dp = *--sp;
    }
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    machine_access(a, n, 0);
    machine_access(b, n, 0);
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

char *strchr(const char *s, int c)
{
    for (; *s; s++)
        if (*s == (char)c)
            return (char *)s;
    return c == 0 ? (char *)s : NULL;
}

size_t strlcpy(char *d, const char *s, size_t n)
{
    size_t len = strlen(s);
    if (n) {
        size_t k = len < n - 1 ? len : n - 1;
        memcpy(d, s, k);
        d[k] = 0;
    }
    return len;
}
