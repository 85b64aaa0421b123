/* The scheduler core: what the rest of the kernel calls (schedulers see sched/sched.h). */
#ifndef KERNEL_SCHED_CORE_H
#define KERNEL_SCHED_CORE_H

#include "types.h"
#include "task.h"

void sched_init(int ncpus);             /* boot CPU, before any task */
void sched_init_cpu(int cpu);           /* each CPU: turn the boot context into its idle task */
void idle_loop(void) __attribute__((noreturn));
void schedule(void);
void preempt_schedule(void);             /* involuntary: a sleeping-to-be task stays runnable */
void sched_tick(void);                  /* timer interrupt */
bool wake_up_task(struct task *p, int wake_flags);   /* false if it was not asleep */
void sched_print_stats(void);           /* schedstat lines */
uint64_t task_runtime_ns(struct task *p);
void sched_check_affinity_violations(void);

/* Watchdog: exits with EXIT_WATCHDOG when nothing progresses for this long. */
void watchdog_set_timeout(uint32_t seconds);
void watchdog_touch(void);              /* long-running loops call this */

/* Internal to the core (task.c, wait.c). */
void task_start(struct task *prev);
void finish_switch(struct task *prev);
void wake_up_new_task(struct task *p);
void task_release_after_exit(struct task *p);
spinlock_t *sched_runqueue_lock(int cpu); /* scheduler.runqueue_lock(cpu), cached at boot */
extern spinlock_t tasklist_lock;
extern struct list_head all_tasks;

#endif
