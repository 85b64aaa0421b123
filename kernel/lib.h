/* Freestanding C library pieces: strings, formatting, console output, exit. */
#ifndef KERNEL_LIB_H
#define KERNEL_LIB_H

#include "types.h"
#include "protocol.h"   /* the lines a program reads: printed with PROTO_FORMAT (kernel/protocol.h) */
#include <stdarg.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *d, const char *s, size_t n);

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Print to the serial console.  One call = whole lines: output of one call is
 * never interleaved with another CPU's. */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void console_init(void);
void console_write(const char *s, size_t n);
void console_panic_mode(void);   /* stop honouring the console lock */

/* num/den printed with `decimals` digits after the point, into buf (>= 32 bytes). */
const char *fmt_fixed(char *buf, uint64_t num, uint64_t den, int decimals);

/* Exit codes of the whole run (QEMU's isa-debug-exit turns code c into (c<<1)|1;
 * tools/qemu-run.sh turns that back into c). */
enum exit_code {
    EXIT_OK = 0,
    EXIT_ERROR = 1,     /* bad arguments, or a workload reported status=error */
    EXIT_PANIC = 2,     /* kernel panic or CPU exception */
    EXIT_WATCHDOG = 3,  /* no progress for watchdog= seconds */
    EXIT_OOM = 4,       /* a workload ran out of memory (status=oom) */
};
void machine_exit(int code) __attribute__((noreturn));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void print_backtrace(uint32_t ebp);

#endif
