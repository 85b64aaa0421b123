/*
 * The machine as the scheduler core (kernel/sched_core.c) and the schedulers
 * see it: CPUs, the clock, interrupts, IPIs and the context switch.
 *
 * The same core is compiled into the kernel and into the host unit tests.
 * In the kernel these are the x86 functions, inline (they are on the path of
 * every wake-up and switch, and a call costs under TCG).  Under HOST_TEST
 * tests/host/simenv.c provides them over simulated CPUs and a simulated
 * clock: single-threaded, deterministic, and the same protocol code runs.
 */
#ifndef KERNEL_SCHED_ENV_H
#define KERNEL_SCHED_ENV_H

#include "types.h"
#include "cpu.h"

struct task;
extern struct cpu cpus[MAX_CPUS];
extern int ncpus_online;            /* CPUs that finished booting: 0..n-1 */

#ifdef HOST_TEST
uint64_t clock_ns(void);            /* the simulated clock */
uint64_t rdtsc(void);               /* cycles = ns in the simulation */
static inline uint64_t cycles_to_ns(uint64_t cycles) { return cycles; }
extern uint64_t tsc_at_boot;
static inline uint64_t local_tsc(void) { return rdtsc() - tsc_at_boot; }
extern volatile uint64_t jiffies;
unsigned long irq_save(void);
void irq_restore(unsigned long flags);
void irq_enable(void);
void irq_disable(void);
static inline void cpu_relax(void) {}
static inline int xchg(volatile int *p, int v)
{
    int old = *p;
    *p = v;
    return old;
}
/* The simulated switch: next "resumes" at once, so prev is what finish_switch releases. */
struct task *switch_context(struct task *prev, struct task *next);
void smp_send_reschedule(int cpu);
/* The simulation has no address spaces: a no-op (simenv.c). */
void env_switch_mm(struct cpu *c, struct task *next);
/* The host tests always check the core's invariants (kernel/sched_core.c). */
static inline bool env_checks_on(void) { return true; }
/* The simulation has no stacks and no watchdog. */
static inline void env_note_progress(uint64_t now) { (void)now; }
static inline void env_check_own_stack(struct cpu *c, const char *where) { (void)c, (void)where; }
static inline void env_check_stack_canary(struct task *t) { (void)t; }
/* The simulation charges no machine costs (cost=, kernel/chan_cost.h). */
static inline void env_switch_in_cost(void) {}
#else
#include "time.h"
#include "smp.h"
#include "x86.h"
#include "config.h"
#include "task.h"
#include "mm.h"
struct task *switch_context(struct task *prev, struct task *next);  /* kernel/switch.S */
void sched_bug(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* When a task last got to run, in units of 2^20 ns (about 1.05 ms): a shift
 * instead of a 64-bit division on every switch, and 32 bits so that other
 * CPUs read it without tearing (it wraps after 52 days).  kernel/timer.c's
 * watchdog reads it. */
#define PROGRESS_SHIFT 20
extern volatile uint32_t watchdog_progress;
static inline void env_note_progress(uint64_t now) { watchdog_progress = (uint32_t)(now >> PROGRESS_SHIFT); }

/*
 * The core's invariant checks (kernel/sched_core.c: the run-queue lock a
 * hook is called with, what pick_next and select_cpu return, the stack a
 * switch runs on, the canary of the task that stops running).  About 50
 * instructions a pipe round trip's switch and 25 its wake-up, and under
 * icount and vsmp instructions are time: so they are a static key, as the
 * trace points are (kernel/trace.h), off unless the command line says
 * checks=1 (tests/lib.sh's boot() does).  Off, each site is one 5-byte NOP;
 * checks_enable() (kernel/main.c, before the other CPUs start) patches every
 * site into a jmp to its check (PATCH_SITE, kernel/patch_site.h).
 */
static inline __attribute__((always_inline)) bool env_checks_on(void)
{
    PATCH_SITE("check_sites", on);
    return false;
on: __attribute__((cold));
    return true;
}

/*
 * The stack we run on must be the current task's.  Anything else means a
 * CPU is running one task's code under another's name: a task resumed from
 * a stale context, or per-CPU data read in two steps across a preemption.
 * Both once ran bench-main twice (checks=1).
 */
static inline void env_check_own_stack(struct cpu *c, const char *where)
{
    if (!env_checks_on())
        return;
    struct task *curr = c->curr;
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    if (!curr->is_idle && (frame & ~(uintptr_t)(TASK_STACK_SIZE - 1)) != (uintptr_t)curr->stack)
        sched_bug("%s: cpu %d runs on stack %p but its current task %s (pid %d) owns %p", where, c->id,
                  (void *)frame, curr->name, curr->pid, curr->stack);
}

static inline void env_check_stack_canary(struct task *t)
{
    if (!env_checks_on())
        return;
    if (t->stack && *(uint32_t *)t->stack != STACK_CANARY)
        panic("stack overflow in task %s (pid %d): canary at %p overwritten", t->name, t->pid, t->stack);
}

/*
 * The address-space switch, right before switch_context (kernel/mm.h):
 * Linux 2.6.0 context_switch() and i386 switch_mm().  A kernel thread (no
 * mm_struct: the idle task, or every task with mm=shared) keeps CR3 and
 * borrows the CPU's active mm (lazy TLB); so does a task of the active mm.
 * Otherwise env_load_mm (kernel/mm.c) loads the next mm's page directory.
 * Inline here is only the test, two loads and two compares; the load is a
 * call to 12 instructions of assembly that take c in %eax and mm in %edx and
 * keep every register, so that schedule() keeps its values in registers
 * around it.  (With the switch written in C inline, GCC spilled prev and
 * reloaded it: 24 more instructions per pipe round trip even when no CR3 was
 * loaded; as a C call that saves its registers, 31 per CR3 load.)
 */
static inline __attribute__((always_inline)) void env_switch_mm(struct cpu *c, struct task *next)
{
    struct mm *mm = next->mm_struct;
    if (unlikely(mm != NULL && mm != c->active_mm))
        __asm__ volatile("call env_load_mm" : : "a"(c), "d"(mm) : "memory", "cc");
}

/*
 * cost= (kernel/chan_cost.h): right after a switch, with the run-queue lock
 * released, an era model charges the CR3 reload's TLB refills and a
 * migrated task's cache refill to the task that switched in.  Off, it is
 * a test of one byte.
 */
static inline __attribute__((always_inline)) void env_switch_in_cost(void)
{
    if (machine_cost_model() && unlikely(cost_switch_on))
        chan_cost_switch_in();
}
#endif

static inline int sched_nr_cpus(void) { return ncpus_online; }
static inline uint64_t sched_clock_ns(void) { return clock_ns(); }
static inline int sched_this_cpu(void) { return this_cpu_id(); }

#endif
