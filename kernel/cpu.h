/*
 * Per-CPU data.  Each CPU's %gs segment starts at its struct cpu, whose first
 * word points to itself, so this_cpu() is one instruction and needs no lock.
 */
#ifndef KERNEL_CPU_H
#define KERNEL_CPU_H

#include "types.h"
#include "task.h"
#include "spinlock.h"
#include "chan_cost.h"
#ifndef HOST_TEST
#include "percpu.h"
#endif

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
    uint64_t poll_wakes;        /* idle=poll: wake-ups that found this CPU polling, so sent no IPI */
    uint64_t cr3_loads;         /* page-directory switches (kernel/sched_env.h, env_switch_mm) */
    uint64_t pv_halts;          /* pvspin: lock waits that halted this CPU */
    uint64_t pv_kicks;          /* pvspin: halted waiters this CPU kicked on release */
    uint64_t pv_nmis;           /* pvspin: kicks received */
    uint64_t idle_ticks;        /* ticks that found the idle task running: ticks - idle_ticks
                                 * are the ticks at which tasks ran, the clock of their slices
                                 * (under QEMU a busy vCPU that the host deschedules loses
                                 * ticks while its TSC, and so runtime and idle_ns, runs on) */
    uint64_t lock_wait_cycles;  /* waiting for spinlocks held by other CPUs (kernel/spinlock.c;
                                 * under vsmp in this CPU's local time, kernel/machine/vsmp.c) */
    uint64_t lock_waits;        /* acquisitions that had to wait */
    uint64_t tick_start_ns;     /* when this CPU's tick was started, on its own clock: the ticks
                                 * it should have taken by now (schedstat ticks_expected=) */
    uint64_t last_tick_ns;      /* its last tick (watchdog_touch: a task that runs on with no
                                 * tick for the watchdog's limit is reported, kernel/timer.c) */
    /* cost= (kernel/chan_cost.h): the events charged here and their instructions. */
    uint64_t cost_events[COST_EVENTS];
    uint64_t cost_insns[COST_EVENTS];
};

struct mm;

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
    /* This CPU's clock: local TSC = RDTSC - tsc_base (kernel/time.h).  Every
     * CPU has the same base (the boot TSC) except under vsmp, where each
     * logical CPU's clock runs only while it runs (kernel/machine/vsmp.c). */
    uint64_t tsc_base;
    /* CACHES=1 (kernel/machine/memhooks.c): the instructions of the memory
     * instrumentation that the clock has counted and is owed back (local
     * TSC = RDTSC - tsc_base - machine_debt), and the fast path's filters
     * of this CPU's lines. */
    uint32_t machine_debt;
    const uint32_t *machine_rfilter, *machine_wfilter;
    uint64_t idle_since_ns;
    /* idle=poll (kernel/task.c): IDLE_POLLING while the idle loop watches
     * need_resched; a waker that finds it so sets IDLE_POLL_KICKED instead
     * of sending an IPI (Linux's TIF_POLLING_NRFLAG). */
    volatile int idle_polling;
    /* The scheduler core's run queue of this CPU (kernel/sched_core.c): its
     * lock (this CPU's own, or the one every CPU shares) and the number of
     * tasks queued here. */
    spinlock_t *rq_lock;
    volatile int nr_queued;
    spinlock_t own_rq_lock;
    /* The address space whose page directory CR3 holds (NULL: the kernel's
     * own, boot_page_directory).  A kernel thread (the idle task) borrows
     * it, as Linux's active_mm; this CPU holds a reference on it. */
    struct mm *active_mm;
    uint8_t cost_cr3_pending;   /* env_load_mm loaded CR3: cost= charges it after the switch */
    uint32_t cr3;               /* the page directory this CPU runs on (env_load_mm); with
                                 * cr3=elide the hardware CR3 stays the kernel's (kernel/mm.c) */
    /* pvspin (kernel/spinlock.c): the lock and ticket this CPU is halted
     * on, published for the unlocker (KVM's per-CPU klock_waiting). */
    spinlock_t *volatile pv_lock;
    volatile uint32_t pv_want;
    struct cpu_stats stats;
    char printbuf[512];         /* kprintf formats here with interrupts off */
} __attribute__((aligned(64)));

#ifndef HOST_TEST
_Static_assert(offsetof(struct cpu, id) == PERCPU_ID, "kernel/percpu.h: PERCPU_ID");
_Static_assert(offsetof(struct cpu, curr) == PERCPU_CURR, "kernel/percpu.h: PERCPU_CURR");
_Static_assert(offsetof(struct cpu, preempt_count) == PERCPU_PREEMPT_COUNT, "kernel/percpu.h: PERCPU_PREEMPT_COUNT");
_Static_assert(offsetof(struct cpu, need_resched) == PERCPU_NEED_RESCHED, "kernel/percpu.h: PERCPU_NEED_RESCHED");
_Static_assert(offsetof(struct cpu, tsc_base) == PERCPU_TSC_BASE, "kernel/percpu.h: PERCPU_TSC_BASE");
_Static_assert(offsetof(struct cpu, machine_debt) == PERCPU_MACHINE_DEBT, "kernel/percpu.h: PERCPU_MACHINE_DEBT");
_Static_assert(offsetof(struct cpu, machine_rfilter) == PERCPU_MACHINE_RFILTER, "kernel/percpu.h: PERCPU_MACHINE_RFILTER");
_Static_assert(offsetof(struct cpu, machine_wfilter) == PERCPU_MACHINE_WFILTER, "kernel/percpu.h: PERCPU_MACHINE_WFILTER");
#endif

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
#ifdef HOST_TEST
/* The host unit tests simulate the CPUs (tests/host/simenv.c). */
struct cpu *this_cpu(void);
int this_cpu_id(void);
#else
static inline struct cpu *this_cpu(void)
{
    struct cpu *c;
    __asm__ volatile("movl %%gs:0, %0" : "=r"(c));
    return c;
}

static inline int this_cpu_id(void) { return (int)percpu_read(PERCPU_ID); }
#endif

void gdt_init_cpu(int cpu);     /* loads the GDT and this CPU's %gs */
uint16_t gdt_percpu_selector(int cpu);   /* the %gs selector of that CPU's struct cpu */
void idt_init(void);
void idt_load(void);
void idt_set_gate(int vector, void (*handler)(void));

#endif
