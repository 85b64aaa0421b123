/*
 * The machine layer: what the kernel asks of the machine under it, and the
 * two machines that answer (docs/ARCHITECTURE.md, "The machine layer").
 *
 *   plain hardware  QEMU's CPUs (TCG, KVM, icount) or a PC: each CPU has
 *                   its LAPIC (timer, IPIs), the APs start by INIT-SIPI-
 *                   SIPI, an idle CPU halts, a spin-wait PAUSEs.  The code
 *                   that drives it stays where the hardware is (lapic.c,
 *                   smp.c, task.c's idle loop);
 *   vsmp            vsmp=N logical CPUs in virtual time on one vCPU
 *                   (kernel/machine/vsmp.c, docs/vsmp.md): every point below is
 *                   one of its hooks.
 *
 * The kernel calls the hooks here, never vsmp_* for these points and never
 * the flags vsmp_on / vsmp_multi (a test holds it to that).  Which machine
 * runs is a static key (kernel/machine/keys.h), a patched NOP on plain
 * hardware, so the layer costs a plain machine one NOP per hook and no
 * memory access.  A hook that returns bool returns false on plain
 * hardware, where the caller goes on to drive the hardware itself; true
 * when the virtual machine did the work.  (So each call site keeps its
 * hardware path as it was: an icount or TCG boot executes what it did.)
 *
 * The other parts of the layer: the memory model (CACHES=1, machine=:
 * kernel/machine/memhooks.h, cache.h, presets.c) and the cost models
 * (cost=: kernel/chan_cost.h, still outside this directory; their event
 * flags are tested behind the key machine_cost_model, keys.h).
 *
 * For each hook: what it does, who calls it, in what state.
 */
#ifndef KERNEL_MACHINE_MACHINE_H
#define KERNEL_MACHINE_MACHINE_H

#include "../types.h"
#include "../cpu.h"
#include "../smp.h"
#include "vsmp.h"
#include "keys.h"

/* ---- queries ---- */

/* machine_vsmp(), machine_vsmp_multi(): keys.h.  For workloads and
 * reports that must say or skip what only real hardware has (real IPIs to
 * time, an accelerator's name), and for the lock code's waits. */

/* The clock needs no hook: kernel/time.h's local clock is RDTSC minus the
 * CPU's tsc_base on both machines (one base for all CPUs on plain
 * hardware; vsmp's dispatcher moves each logical CPU's base so that its
 * clock runs only while it runs). */

/* ---- start-up (boot CPU or a starting CPU, interrupts off, no lock) ---- */

/* A CPU's own start (smp_cpu_start, on that CPU before it goes online).
 * Plain: enable its LAPIC.  vsmp: nothing, the logical CPUs share the one
 * LAPIC that vsmp_setup programmed. */
static inline void machine_cpu_init(void)
{
    if (!machine_vsmp())
        lapic_init();
}

/* The other CPUs (smp_start_aps, boot CPU, once).  vsmp: its logical CPUs
 * start on this vCPU (vsmp_start_cpus); false on plain hardware: the
 * caller sends INIT-SIPI-SIPI. */
static inline bool machine_start_cpus(void)
{
    if (!machine_vsmp())
        return false;
    vsmp_start_cpus();
    return true;
}

/* This CPU's periodic tick (lapic_timer_start, each CPU once, after its
 * tick_start_ns).  vsmp: a tick every 1/HZ of this logical CPU's own time;
 * false on plain hardware: the caller programs the LAPIC timer. */
static inline bool machine_timer_start(void)
{
    if (!machine_vsmp())
        return false;
    vsmp_timer_start();
    return true;
}

/* ---- running ---- */

/* A reschedule IPI to cpu (smp_send_reschedule: the scheduler core's
 * resched_cpu, any CPU, interrupts in any state, run-queue locks may be
 * held).  Plain: the LAPIC's fixed IPI.  vsmp: delivered vsmp_ipi_ns
 * later in the target's time. */
static inline void machine_send_reschedule(int cpu)
{
    if (machine_vsmp())
        vsmp_send_reschedule(cpu);
    else
        lapic_send_ipi(cpus[cpu].apic_id, VECTOR_RESCHEDULE);
}

/* The idle CPU has nothing to run (idle_loop, interrupts off, no lock).
 * vsmp: halts the logical CPU until its next event and returns with
 * interrupts still off (the caller turns them on: the event is delivered
 * then).  false on plain hardware: the caller polls or halts (idle=). */
static inline bool machine_idle_halt(void)
{
    if (!machine_vsmp())
        return false;
    vsmp_halt();
    return true;
}

/* The timer vector came in (trap(), VECTOR_TIMER, after the EOI,
 * interrupts off): whether this CPU's tick runs now.  Plain: always.
 * vsmp: when the interrupt delivers this logical CPU's tick or IPI
 * (vsmp_irq_deliver does its bookkeeping; its stubs keep the interrupts
 * that deliver nothing from ever reaching trap()). */
static inline bool machine_timer_irq(void)
{
    if (!machine_vsmp())
        return true;
    return vsmp_irq_deliver();
}

/* Spin-waits (cpu_relax) and the spinlock waits: keys.h machine_relax,
 * and kernel/spinlock.c under machine_vsmp_multi() (its vsmp hooks are
 * boot-patched lock sites of their own, kernel/spinlock.h). */

/* ---- stalls, watchdog and statistics ---- */

/* Every other CPU's backtrace for a stall report (stall_report_cpus, the
 * reporting CPU, interrupts off).  vsmp: from the logical CPUs' saved
 * contexts (they are not running); false on plain hardware: the caller
 * NMIs them and waits for their answers. */
static inline bool machine_report_cpus(const char *who, void (*print_cpu)(int cpu, uint32_t eip, uint32_t ebp))
{
    if (!machine_vsmp())
        return false;
    vsmp_report_cpus(who, print_cpu);
    return true;
}

/* The clock of cpu for the end-of-run statistics (schedstat.c, the CPU
 * that prints them).  Plain: now, one clock for all CPUs.  vsmp: that
 * logical CPU's own local time. */
static inline uint64_t machine_cpu_clock_ns(int cpu, uint64_t now)
{
    return machine_vsmp() ? vsmp_cpu_clock_ns(cpu) : now;
}

/* The machine's own statistics after the schedstat lines (schedstat.c):
 * vsmp's vsmpstat lines; nothing on plain hardware. */
static inline void machine_print_cpu_stats(void)
{
    if (machine_vsmp())
        vsmp_print_stats();
}

#endif
