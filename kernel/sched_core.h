/*
 * The scheduler core (kernel/sched_core.c): what the rest of the kernel
 * calls.  Schedulers see kernel/sched_class.h, through sched/sched.h.
 */
#ifndef KERNEL_SCHED_CORE_H
#define KERNEL_SCHED_CORE_H

#include "types.h"
#include "task.h"

struct sched_class;

void sched_init(int ncpus);             /* boot CPU, before any task: run queues, the scheduler's init */
void sched_setup_idle(int cpu, struct task *idle); /* cpu's boot context becomes its idle task */
/* The first mandatory hook a class lacks ("enqueue", ...), or NULL. */
const char *sched_class_missing_hook(const struct sched_class *c);
void schedule(void);
void preempt_schedule(void);            /* involuntary: a sleeping-to-be task stays runnable */
void sched_tick(void);                  /* this CPU's tick: the scheduler's tick, then its balance */
bool wake_up_task(struct task *p, int wake_flags);   /* false if it was not asleep */
bool sched_test_wake_unkicked(struct task *p);         /* a wake-up whose kick is lost: tests only (bench=deadlock) */
void sched_fork(struct task *parent, struct task *child);  /* a new task, before wake_up_new_task */
void wake_up_new_task(struct task *p);
void sched_exit(void);                  /* the running task's last switch (never returns in the kernel) */
void sched_yield(void);
void sched_set_nice(struct task *p, int nice);
void sched_set_affinity(struct task *p, cpumask_t mask);  /* mask: online CPUs only, not empty */
uint64_t task_runtime_ns(struct task *p);
const char *sched_name(void);           /* the compiled-in scheduler */
void sched_print_stats(void);           /* schedstat lines (kernel/schedstat.c) */

/* The timer interrupt (kernel/timer.c): sleep timers, the watchdog, then sched_tick(). */
void timer_tick(void);
/* Watchdog (kernel/timer.c): exits with EXIT_WATCHDOG when nothing progresses for this long. */
void watchdog_set_timeout(uint32_t seconds);
void watchdog_touch(void);              /* long-running loops call this */
void watchdog_note_progress(void);      /* the same without its tick check: a wait with interrupts off */

/* kernel/task.c: each CPU's idle task and loop. */
void sched_init_cpu(int cpu);
void idle_loop(void) __attribute__((noreturn));
/* What an idle CPU does (kernel keys idle= and idle_poll_us=): halt until an
 * interrupt (the default, as 2.4 and 2.6.0's default_idle), or first watch
 * need_resched with interrupts on for poll_us (Linux's cpuidle-haltpoll: a
 * wake-up in that window sends no IPI).  Set at boot, after the TSC's
 * calibration (the window is kept in TSC cycles). */
enum idle_mode { IDLE_HALT, IDLE_POLL };
extern const char *const idle_mode_names[];     /* "halt", "poll", NULL */
void idle_set_mode(enum idle_mode mode, uint32_t poll_us);
enum idle_mode idle_get_mode(void);
/* cpu->idle_polling: not polling, polling, or polling and already kicked. */
enum { IDLE_NOT_POLLING, IDLE_POLLING, IDLE_POLL_KICKED };

/* Provided by the environment of the core: kernel/task.c, or the host tests' simulation. */
void finish_switch(struct task *prev);
void task_release_after_exit(struct task *p);   /* after p's last switch, on another stack */

#endif
