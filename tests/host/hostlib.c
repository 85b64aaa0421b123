/*
 * What kernel files need from the rest of the kernel when they are unit
 * tested on the host: console output goes to a capture buffer, and
 * machine_exit/panic jump back into the test (host_expect_exit) instead of
 * stopping a machine.  The kernel's own snprintf/vsnprintf are renamed by
 * hostlib.h so they do not clash with the C library's.
 */
#include "hostlib.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

char host_console[8192];
size_t host_console_len;
jmp_buf *host_exit_jump;
int host_exit_code = -1;

void host_console_clear(void)
{
    host_console_len = 0;
    host_console[0] = 0;
}

void kprintf(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);   /* the kernel's, renamed */
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(line))
        n = sizeof(line) - 1;
    if (host_console_len + (size_t)n < sizeof(host_console)) {
        memcpy(host_console + host_console_len, line, (size_t)n);
        host_console_len += (size_t)n;
        host_console[host_console_len] = 0;
    }
}

void machine_exit(int code)
{
    host_exit_code = code;
    if (host_exit_jump)
        longjmp(*host_exit_jump, 1);
    fprintf(stderr, "machine_exit(%d) outside host_expect_exit\n%s", code, host_console);
    abort();
}

void panic(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    kprintf("panic: %s\n", msg);
    machine_exit(2);
}

/* glibc 2.36 has no strlcpy; the kernel's semantics. */
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
