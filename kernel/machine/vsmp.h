/*
 * vsmp: N logical CPUs in virtual time on one QEMU vCPU (docs/vsmp.md).
 *
 * QEMU runs one vCPU under -icount shift=0 (one instruction, one TSC cycle,
 * one nanosecond); the kernel runs vsmp=N logical CPUs on it, each with its
 * own struct cpu, %gs, idle task, run queue, timer tick and local clock.  A
 * dispatcher below the scheduler core (kernel/machine/vsmp.c) always runs the
 * logical CPU whose local time is smallest; the instructions it executes are
 * its time, so N logical CPUs run in parallel in virtual time.
 *
 * What the rest of the kernel sees: the machine layer calls these hooks
 * where it would touch the hardware of the other CPUs (IPIs, the timer,
 * HLT, spin-waits, spinlock waits), and kernel/time.h's clock is the
 * current CPU's local time.  Nothing above the machine layer changes.
 */
#ifndef KERNEL_VSMP_H
#define KERNEL_VSMP_H

#include "../types.h"

struct spinlock;

/* Defaults of the boot keys vsmp_quantum_ns= and vsmp_ipi_ns= (docs/vsmp.md
 * says where they come from). */
#define VSMP_DEFAULT_QUANTUM_NS 20000
#define VSMP_DEFAULT_SLACK_NS 0
#define VSMP_DEFAULT_IPI_NS 1260   /* P6 APIC bus: a 21-cycle short message at 16.67 MHz (Intel SDM vol. 3 app. F; Lundell, LKML 2001-10-08) */

extern bool vsmp_on;        /* vsmp=N given (N >= 1) */
extern bool vsmp_multi;     /* ... and N >= 2: spinlocks, spin-waits and IPIs go through the dispatcher */

/* Boot CPU, after the clocks are calibrated and before sched_init: the
 * logical CPUs' bookkeeping and the code patches.  Returns N. */
int vsmp_setup(int ncpus, uint32_t quantum_ns, uint32_t ipi_ns, uint32_t slack_ns);
uint32_t vsmp_quantum_ns(void);
uint32_t vsmp_ipi_ns(void);
uint32_t vsmp_slack_ns(void);

void vsmp_start_cpus(void);         /* instead of INIT-SIPI-SIPI (kernel/smp.c) */
void vsmp_timer_start(void);        /* this logical CPU's tick, every 1/HZ of its local time */
/* VECTOR_TIMER and VECTOR_VSMP_EVENT reach trap() only when they deliver
 * a tick or an IPI to the current logical CPU (kernel/machine/vsmp.c's own stubs
 * take the others, which cost the interrupted code nothing): the IPI's and
 * the tick's bookkeeping, then true when the caller must run the tick. */
bool vsmp_irq_deliver(void);
void vsmp_send_reschedule(int cpu); /* the reschedule IPI, delivered vsmp_ipi_ns later */
void vsmp_halt(void);               /* the idle HLT (interrupts off): returns when an event is due */
void vsmp_relax(void);              /* cpu_relax() in a spin-wait */

/* Spinlocks (kernel/spinlock.h): before every acquisition attempt, when the
 * lock is held by another logical CPU, and after every release. */
void vsmp_lock_order(struct spinlock *lock);
/* vsmp_lock_block: the caller saw the lock held, with interrupts on; it
 * returns at once if the lock is free by now (ticket: the caller's, for
 * ticket locks; unused by the byte lock), else when it has been released. */
void vsmp_lock_block(struct spinlock *lock, uint32_t ticket);
void vsmp_lock_release(struct spinlock *lock);
/* The same two hooks as the patched sites call them (kernel/spinlock.c
 * retargets their calls): the clock read as the longer path before read it. */
void vsmp_site_order(struct spinlock *lock);
void vsmp_site_release(struct spinlock *lock);

/* Reports and statistics. */
void vsmp_report_cpus(const char *who, void (*print_cpu)(int cpu, uint32_t eip, uint32_t ebp));
uint64_t vsmp_cpu_clock_ns(int cpu);   /* that logical CPU's local time */
/* Measured at boot (cycles): 0 the acquisition hook's residue, 1 the
 * release hook's, 2 a quiet interrupt's. */
uint32_t vsmp_hook_residue(int which);
int32_t vsmp_timer_fire_err(void);      /* measured at boot: when the timer fires, from its count (cycles) */
void vsmp_print_stats(void);

#endif
