/*
 * Reports of a stalled machine.  A CPU that has waited too long for a
 * spinlock (kernel/spinlock.c) or found no progress for watchdog= seconds
 * (the tick's watchdog) stops the machine with exit 3 and a report of every
 * CPU: its current task and a backtrace.  The other CPUs' backtraces are
 * taken by an NMI, which reaches a CPU even while it spins with interrupts
 * off; under vsmp from the logical CPUs' saved contexts (kernel/machine/vsmp.c).
 */
#ifndef KERNEL_STALL_H
#define KERNEL_STALL_H

#include "types.h"

struct trapframe;

void stall_report_lock(const char *lock_name, int holder_cpu, uint64_t waited_ns) __attribute__((noreturn));
/* The same report for a waiter that is not the calling CPU (vsmp: a logical
 * CPU that waits in the dispatcher), with the reason in parentheses. */
void stall_report_lock_why(const char *lock_name, int waiter_cpu, int holder_cpu, uint64_t waited_ns,
                           const char *why) __attribute__((noreturn));
/* Every CPU's current task and backtrace (NMIs to the others); then the caller exits.
 * First, if every CPU is idle while tasks are runnable: "who: every cpu idle
 * while K task(s) runnable: a lost wake-up", and each CPU's need_resched,
 * queue length, idle time and time since its last tick. */
void stall_report_cpus(const char *who);
/* The NMI handler: true if it was a stall report's NMI (it then halts this CPU). */
bool stall_nmi(const struct trapframe *tf);

#endif
