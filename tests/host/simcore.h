/*
 * A simulated kernel core for host unit tests of schedulers.
 *
 * It implements the services of sched/sched.h over simulated CPUs and a
 * simulated nanosecond clock, and drives a scheduler (the struct sched_class
 * linked in) through the same hook sequence the real core uses: fork + wake
 * new, wake-ups, schedule() with dequeue-on-sleep, the tick and balance.
 * Everything is single-threaded and deterministic; the same invariants as the
 * kernel core are checked (affinity, a task on one CPU at a time, picked tasks
 * queued and runnable) and a violation fails the test.
 */
#ifndef TESTS_SIMCORE_H
#define TESTS_SIMCORE_H

#include "../../sched/sched.h"

#define SIM_MAX_TASKS 20000
#define SIM_TICK_NS (1000000000ull / HZ)

void sim_init(int ncpus);                        /* fresh CPUs, clock at 1 s, scheduler.init() */
void sim_reset(void);                            /* free every task */
/* Create a task as if current on parent_cpu forked it (parent may be NULL) and wake it (WAKE_NEW). */
struct task *sim_spawn(const char *name, int nice, cpumask_t mask, struct task *parent, int parent_cpu);
struct task *sim_spawn_rt(const char *name, int policy, int rt_priority, cpumask_t mask);
struct task *sim_curr(int cpu);
void sim_schedule(int cpu);                      /* run schedule() on cpu */
void sim_reschedule_pending(void);               /* schedule() on every CPU with need_resched */
void sim_tick(void);                             /* one tick everywhere: account, tick(), balance(), reschedule */
void sim_run(int ticks);                         /* sim_tick() ticks times */
void sim_advance(uint64_t ns);                   /* move the clock without ticking (running tasks accrue) */
void sim_block(int cpu);                         /* cpu's current task sleeps; schedule() */
void sim_wake(struct task *p, int waker_cpu, int flags);   /* wake a sleeping task */
void sim_exit_task(int cpu);                     /* cpu's current task exits */
void sim_yield(int cpu);
void sim_set_nice(struct task *p, int nice);
void sim_set_affinity(struct task *p, cpumask_t mask);
bool sim_need_resched(int cpu);
uint64_t sim_runtime_ns(struct task *p);          /* CPU time consumed (ticks x tick length) */
int sim_task_count(void);
struct task *sim_task(int i);                    /* i-th task created and not freed */
extern int sim_affinity_violations;

#endif
