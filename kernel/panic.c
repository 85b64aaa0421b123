/* Ending the run: clean exits through QEMU's isa-debug-exit port, and panics. */
#include "lib.h"
#include "x86.h"
#include "cpu.h"
#include "smp.h"

#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_OFFSET 0x10

void machine_exit(int code)
{
    irq_disable();
    smp_stop_other_cpus();
    /* QEMU exits with (value << 1) | 1.  The offset keeps our codes apart from
     * QEMU's own exit status 1 (bad arguments): the wrapper maps 33 + 2*code back. */
    outb(DEBUG_EXIT_PORT, (uint8_t)(DEBUG_EXIT_OFFSET + code));
    /* Not under QEMU (or no isa-debug-exit device): say so and stop. */
    kprintf("exit: code=%d (no isa-debug-exit device; halting)\n", code);
    halt_forever();
}

void print_backtrace(uint32_t ebp)
{
    char line[200];
    int n = snprintf(line, sizeof(line), "backtrace:");
    for (int depth = 0; ebp && depth < 12; depth++) {
        if (ebp < 0x100000 || (ebp & 3))
            break;
        uint32_t ret = ((uint32_t *)ebp)[1];
        n += snprintf(line + n, sizeof(line) - n, " %08x", ret);
        if (n >= (int)sizeof(line))
            break;
        ebp = ((uint32_t *)ebp)[0];
    }
    kprintf("%s\n", line);
}

static volatile int panicking;

void panic(const char *fmt, ...)
{
    irq_disable();
    if (xchg(&panicking, 1)) /* a second CPU panicking at once: let the first report */
        halt_forever();
    console_panic_mode();
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    struct cpu *c = cpus_ready() ? this_cpu() : NULL;
    kprintf(PROTO_WORD_PANIC " cpu=%d task=%s: %s\n", c ? c->id : 0, c && c->curr ? c->curr->name : "boot", msg);
    print_backtrace((uint32_t)__builtin_frame_address(0));
    machine_exit(EXIT_PANIC);
}
