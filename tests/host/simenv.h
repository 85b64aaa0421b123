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

/* The random workload the scheduler tests drive on 4 CPUs (sim_mix): every
 * step one of spawn (8%), block (12%), wake (15%, sync or not), nice
 * (5%), affinity (3% or 4%), yield (4%), exit (2%) or tick (the rest), from
 * a random CPU; after every step check(step) runs (the test's invariants).
 * The pseudo-random sequence is xorshift from *seed, so a test sees the same
 * steps every time. */
struct sim_mix {
    uint64_t *seed;
    int steps, max_tasks;           /* max_tasks <= 64 */
    int rt;                         /* spawn: 0 no RT tasks; 1 one in 10 is SCHED_RR; 2 SCHED_FIFO or SCHED_RR */
    bool spawn_masks;               /* spawn: a quarter get a mask of one or two CPUs (a parent outside it is dropped) */
    bool irq_wakes;                 /* wake: a third sync, then half of the rest WAKE_IRQ */
    int affinity_pct;               /* 3 or 4; with 4, a third of the changes are to every CPU (0xf) */
    void (*check)(int step);
};
uint32_t sim_rng(uint64_t *state);
/* Runs the mix; returns how many tasks it made, in t[] (t has max_tasks entries). */
int sim_mix(const struct sim_mix *m, struct task **t);

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
