/*
 * Serial console on COM1 (16550 UART at 0x3f8), which QEMU puts on stdout.
 *
 * kprintf formats a whole call into a per-CPU buffer with interrupts off and
 * writes it under one lock, so lines from different CPUs never mix.  The lock
 * is a plain test-and-set lock of its own (not spinlock_t) because it must
 * work before per-CPU data exists and while panicking.
 */
#include "lib.h"
#include "x86.h"
#include "cpu.h"

#define COM1 0x3f8

static volatile int console_lock;
static volatile bool panic_mode;
static bool percpu_ready;
static char early_buf[512];

void console_init(void)
{
    outb(COM1 + 1, 0x00);    /* no UART interrupts: we poll */
    outb(COM1 + 3, 0x80);    /* DLAB on */
    outb(COM1 + 0, 0x01);    /* 115200 baud */
    outb(COM1 + 1, 0x00);
    outb(COM1 + 3, 0x03);    /* 8N1 */
    outb(COM1 + 2, 0xc7);    /* FIFO on */
    outb(COM1 + 4, 0x03);
}

void console_percpu_ready(void) { percpu_ready = true; }

static void serial_putc(char c)
{
    while (!(inb(COM1 + 5) & 0x20))
        cpu_relax();
    outb(COM1, (uint8_t)c);
}

/* Plain \n line ends: QEMU's stdio keeps the terminal's output processing,
 * and logs and parsers get Unix text. */
void console_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        serial_putc(s[i]);
}

void console_panic_mode(void) { panic_mode = true; }

static void lock_console(void)
{
    while (xchg(&console_lock, 1)) {
        if (panic_mode)
            return;
        cpu_relax();
    }
}

void kprintf(const char *fmt, ...)
{
    unsigned long flags = irq_save();
    char *buf = percpu_ready ? this_cpu()->printbuf : early_buf;
    size_t size = percpu_ready ? sizeof(this_cpu()->printbuf) : sizeof(early_buf);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    bool cut = n >= (int)size;
    if (cut)
        n = (int)size - 1;
    lock_console();
    console_write(buf, (size_t)n);
    if (cut) {
        /* A line that does not fit is an error, never a silent cut: the
         * host would read the cut line as whole (a boot line's last value
         * shortened, the next line joined to this one). */
        static const char msg[] = "\nerror: kprintf: a line longer than the console's buffer was cut\n";
        console_write(msg, sizeof(msg) - 1);
    }
    console_lock = 0;
    irq_restore(flags);
}
