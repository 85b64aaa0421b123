/*
 * Interrupt and exception dispatch.  Exceptions are always fatal: they print a
 * panic report (vector, error code, registers, CPU, task, backtrace) and end
 * the run with EXIT_PANIC.  The timer and IPIs are handled here; on the way
 * out of an interrupt that hit preemptible code, a pending reschedule runs
 * schedule() - that is how a task is preempted.
 */
#include "trap.h"
#include "cpu.h"
#include "smp.h"
#include "lib.h"
#include "x86.h"
#include "sched_core.h"
#include "stall.h"
#include "spinlock.h"
#include "machine/vsmp.h"
#include "machine/machine.h"

static const char *const exception_names[32] = {
    "divide error", "debug", "NMI", "breakpoint", "overflow", "bound range", "invalid opcode",
    "device not available", "double fault", "coprocessor overrun", "invalid TSS", "segment not present",
    "stack fault", "general protection", "page fault", "reserved", "x87 error", "alignment check",
    "machine check", "SIMD error", "virtualization", "control protection",
};

static void exception(struct trapframe *tf)
{
    irq_disable();
    console_panic_mode();
    struct cpu *c = this_cpu();
    const char *name = exception_names[tf->vector] ? exception_names[tf->vector] : "reserved";
    kprintf(PROTO_WORD_PANIC " exception %u (%s) err=0x%x cpu=%d task=%s\n", tf->vector, name, tf->error_code, c->id,
            c->curr ? c->curr->name : "boot");
    kprintf("  eip=%08x eflags=%08x cr2=%08x cr3=%08x\n", tf->eip, tf->eflags, read_cr2(), read_cr3());
    kprintf("  eax=%08x ebx=%08x ecx=%08x edx=%08x esi=%08x edi=%08x ebp=%08x esp=%08x\n", tf->eax, tf->ebx,
            tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp, tf->esp_at_pusha + 20);
    uint32_t *w = (uint32_t *)tf;
    kprintf("  frame: %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n", w[8], w[9],
            w[10], w[11], w[12], w[13], w[14], w[15], w[16], w[17], w[18], w[19], w[20], w[21], w[22], w[23]);
    print_backtrace(tf->ebp);
    machine_exit(EXIT_PANIC);
}

void trap(struct trapframe *tf)
{
    if (tf->vector == 2 && stall_nmi(tf))
        return;
    /* A pvspin kick: it only had to wake a halted lock waiter (kernel/spinlock.c). */
    if (tf->vector == 2 && spin_pvspin_nmi(tf))
        return;
    if (tf->vector < 32)
        exception(tf);
    struct cpu *c = this_cpu();
    c->in_irq++;
    c->preempt_count++;
    switch (tf->vector) {
    case VECTOR_TIMER:
        lapic_eoi();
        /* vsmp: the logical CPU's tick or IPI (its stub kept the ones that
         * deliver nothing from here: the simulation's, not the machine's). */
        if (machine_timer_irq())
            timer_tick();
        break;
    case VECTOR_RESCHEDULE:
        lapic_eoi();
        c->stats.resched_ipis++;
        /* cost=: the era's delivery (an idle CPU waited for it) or its entry/exit (kernel/chan_cost.h) */
        if (machine_cost_model() && cost_ipi_on)
            chan_cost_ipi(c->curr == c->idle);
        break;
    case VECTOR_VSMP_EVENT:
        lapic_eoi();
        if (vsmp_irq_deliver())          /* a logical CPU's tick or IPI, found due in a hook */
            timer_tick();
        break;
    case VECTOR_STOP:
        halt_forever();
    case VECTOR_SPURIOUS:
        break;
    default:
        lapic_eoi();
        panic("unexpected interrupt vector %u", tf->vector);
    }
    c->preempt_count--;
    c->in_irq--;
    /* Preempt only code that could have been interrupted anyway. */
    if (c->need_resched && c->preempt_count == 0 && (tf->eflags & EFLAGS_IF))
        preempt_schedule();
}
