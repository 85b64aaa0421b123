/*
 * Single-instruction reads and updates of the current CPU's struct cpu
 * (kernel/cpu.h) through %gs, for headers that cannot include cpu.h
 * (spinlock.h and task.h come before it).  One instruction is what makes
 * them safe in preemptible code: a task moved between "find my CPU" and
 * "read its field" would read the CPU it left.  cpu.h checks the offsets.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "types.h"

#define PERCPU_ID 4              /* int id */
#define PERCPU_CURR 16           /* struct task *curr */
#define PERCPU_PREEMPT_COUNT 24  /* volatile int preempt_count */
#define PERCPU_NEED_RESCHED 28   /* volatile int need_resched */
#define PERCPU_TSC_BASE 36       /* uint64_t tsc_base (after int in_irq at 32; i386 aligns it to 4) */
/* The memory model (CACHES=1 builds, kernel/machine/memhooks.c). */
#define PERCPU_MACHINE_DEBT 44   /* uint32_t machine_debt: instrumentation cycles not yet taken off the clock */
#define PERCPU_MACHINE_RFILTER 48 /* const uint32_t *machine_rfilter */
#define PERCPU_MACHINE_WFILTER 52 /* const uint32_t *machine_wfilter */

static inline uint32_t percpu_read(const int offset)
{
    uint32_t v;
    __asm__ volatile("movl %%gs:%c1, %0" : "=r"(v) : "i"(offset) : "memory");
    return v;
}

static inline void percpu_inc(const int offset) { __asm__ volatile("incl %%gs:%c0" : : "i"(offset) : "memory"); }
static inline void percpu_dec(const int offset) { __asm__ volatile("decl %%gs:%c0" : : "i"(offset) : "memory"); }

#endif
