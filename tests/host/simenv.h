/*
 * The host tests' machine: simulated CPUs and a simulated nanosecond clock
 * under the real scheduler core (kernel/sched_core.c, compiled with
 * HOST_TEST), and a driver that plays a kernel's part: creating tasks,
 * blocking and waking them, ticking, changing nice and affinity.
 *
 * Nothing here decides the order of hook calls: every sim_* call goes
 * through the same core functions the kernel calls (sched_fork,
 * wake_up_new_task, wake_up_task, schedule, sched_tick, sched_set_affinity,
 * ...).  What the simulation adds is only what a kernel would do around them:
 * which CPU is executing (sim_* calls set it), the clock (advanced by whole
 * ticks or by sim_advance), and when a CPU with need_resched reschedules
 * (right after its tick, as an interrupt return would, and in
 * sim_reschedule_pending for the others).  Everything is single-threaded and
 * deterministic.  A broken invariant (sched_bug or panic in the core) fails
 * the running cmocka test with the core's message; sim_expect_bug() catches
 * it instead, for tests that want one.
 */
#ifndef TESTS_SIMENV_H
#define TESTS_SIMENV_H

#include "../../sched/sched.h"
#include "../../kernel/sched_core.h"
#include <setjmp.h>

#define SIM_MAX_TASKS 20000
#define SIM_TICK_NS (1000000000ull / HZ)

void sim_init(int ncpus);                        /* fresh CPUs, clock at 1 s, sched_init() */
void sim_reset(void);                            /* free every task */
/* Create a task as if current on parent_cpu forked it (parent may be NULL) and wake it (WAKE_NEW). */
struct task *sim_spawn(const char *name, int nice, cpumask_t mask, struct task *parent, int parent_cpu);
struct task *sim_spawn_rt(const char *name, int policy, int rt_priority, cpumask_t mask);
struct task *sim_curr(int cpu);
void sim_schedule(int cpu);                      /* schedule() on cpu */
void sim_on_cpu(int cpu);                        /* what the test does next, it does on cpu (e.g. take a lock) */
void sim_reschedule_pending(void);               /* schedule() on every CPU with need_resched */
void sim_tick(void);                             /* one tick: each CPU's sched_tick(), then its preemption */
void sim_run(int ticks);                         /* sim_tick() ticks times */
void sim_advance(uint64_t ns);                   /* move the clock without ticking */
void sim_block(int cpu);                         /* cpu's current task sleeps; schedule() */
void sim_wake(struct task *p, int waker_cpu, int flags);   /* wake a sleeping task (WAKE_* flags) */
void sim_exit_task(int cpu);                     /* cpu's current task exits */
void sim_yield(int cpu);
void sim_set_nice(struct task *p, int nice);
void sim_set_affinity(struct task *p, cpumask_t mask);
bool sim_need_resched(int cpu);
uint64_t sim_runtime_ns(struct task *p);         /* CPU time consumed (the core's task_runtime_ns) */
uint64_t sim_now_ns(void);
int sim_task_count(void);
struct task *sim_task(int i);                    /* i-th task created and not freed */
extern char sim_log[8192];                       /* console lines since sim_init (sched_log) */
/* Every invariant the core promises, checked from outside: NULL if all hold, else what broke. */
const char *sim_check_invariants(void);

/* Runs stmt; true if it ended in a sched_bug/panic of the core (whose message is in sim_bug_message). */
extern jmp_buf *sim_bug_jump;
extern char sim_bug_message[256];
#define sim_expect_bug(stmt)                    \
    ({                                          \
        jmp_buf jb_;                            \
        bool bugged_ = false;                   \
        sim_bug_jump = &jb_;                    \
        if (setjmp(jb_) == 0) {                 \
            stmt;                               \
        } else {                                \
            bugged_ = true;                     \
        }                                       \
        sim_bug_jump = NULL;                    \
        bugged_;                                \
    })

#endif
