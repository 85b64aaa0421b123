/*
 * Per-CPU data.  Each CPU's %gs segment starts at its struct cpu, whose first
 * word points to itself, so this_cpu() is one instruction and needs no lock.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "types.h"
#include "task.h"

struct cpu_stats {
    uint64_t schedule_calls;    /* entries into schedule() */
    uint64_t context_switches;  /* schedule() calls that changed task */
    uint64_t migrations;        /* tasks that arrived here from another CPU */
    uint64_t idle_ns;           /* time spent in the idle task */
    uint64_t pick_cycles;       /* TSC cycles spent in pick_next */
    uint64_t picks;
    uint64_t ticks;
    uint64_t wakeups;           /* tasks woken onto this CPU */
    uint64_t resched_ipis;      /* reschedule IPIs received */
};

struct cpu {
    struct cpu *self;           /* must stay first: %gs:0 */
    int id;                     /* 0..ncpus-1 */
    int apic_id;
    volatile bool online;
    struct task *curr;
    struct task *idle;
    volatile int preempt_count; /* spinlocks held, plus in-interrupt */
    volatile int need_resched;
    int in_irq;
    uint64_t idle_since_ns;
    struct cpu_stats stats;
    char printbuf[512];         /* kprintf formats here with interrupts off */
} __attribute__((aligned(64)));

extern struct cpu cpus[MAX_CPUS];
extern int ncpus_online;        /* CPUs that finished booting */
extern int ncpus_found;         /* CPUs listed by the firmware */

/*
 * this_cpu() is only stable while the task cannot move: with interrupts off
 * or a spinlock held.  Code that may be preempted must read a per-CPU field
 * in ONE %gs-relative instruction, as this_cpu_id() and current_task() do:
 * "this_cpu()->curr" is two loads, and a preemption between them returns
 * the task now running on the CPU we just left.
 */
static inline struct cpu *this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("movl %%gs:0, %0" : "=r"(c));
    return c;
}

static inline int this_cpu_id(void)
{
    int id;
    __asm__ volatile("movl %%gs:%c1, %0" : "=r"(id) : "i"(offsetof(struct cpu, id)));
    return id;
}

static inline struct task *this_cpu_curr(void)
{
    struct task *t;
    __asm__ volatile("movl %%gs:%c1, %0" : "=r"(t) : "i"(offsetof(struct cpu, curr)));
    return t;
}

/* Both read by spin_unlock() after it may have become preemptible: one
 * instruction each, so each value is the current CPU's (a preemption between
 * the two at worst costs a spurious or a delayed preempt_schedule()). */
static inline int this_cpu_preempt_count(void)
{
    int n;
    __asm__ volatile("movl %%gs:%c1, %0" : "=r"(n) : "i"(offsetof(struct cpu, preempt_count)));
    return n;
}

static inline int this_cpu_need_resched(void)
{
    int n;
    __asm__ volatile("movl %%gs:%c1, %0" : "=r"(n) : "i"(offsetof(struct cpu, need_resched)));
    return n;
}

void gdt_init_cpu(int cpu);     /* loads the GDT and this CPU's %gs */
void idt_init(void);
void idt_load(void);

#endif
