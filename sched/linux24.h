/*
 * sched/linux24.h - Linux 2.4 as the 2.4-era schedulers here need it
 * (sched/goodness.c, sched/mq.c): its constants, counted in 2.4's ticks of
 * HZ = 100, and the arithmetic both of them share.
 *
 * 2.4 ran the timer at HZ = 100 on i386 and its scheduler constants count
 * those 10 ms ticks (include/linux/sched.h: TICK_SCALE, NICE_TO_TICKS;
 * kernel/sched.c: DEF_COUNTER, MAX_COUNTER; include/asm-i386/smp.h:
 * PROC_CHANGE_PENALTY).  This kernel ticks at HZ (1000 by default), so each
 * CPU keeps a sub-tick accumulator: every kernel tick adds LINUX24_HZ to it,
 * and each time it reaches HZ, HZ is taken off and one 2.4 tick is due
 * (every 10th kernel tick at HZ=1000; exact for any HZ).  The accumulator
 * advances while the CPU is idle too, because a 2.4 tick is a fixed 10 ms
 * wall-clock event: a task that runs less than 10 ms between ticks is
 * charged nothing, just as on a real 2.4 kernel.
 */
#ifndef SCHED_LINUX24_H
#define SCHED_LINUX24_H

#include "sched.h"

#define LINUX24_HZ 100

#if LINUX24_HZ < 200
#define TICK_SCALE(x) ((x) >> 2)
#elif LINUX24_HZ < 400
#define TICK_SCALE(x) ((x) >> 1)
#elif LINUX24_HZ < 800
#define TICK_SCALE(x) (x)
#elif LINUX24_HZ < 1600
#define TICK_SCALE(x) ((x) << 1)
#else
#define TICK_SCALE(x) ((x) << 2)
#endif

#define NICE_TO_TICKS(nice) (TICK_SCALE(20 - (nice)) + 1)   /* nice -20: 11, 0: 6, 10: 3, 19: 1 */

/*
 * The 2.4 constants a scheduler may offer as tunables (sched.<name>=, see
 * struct sched_tunable): each scheduler file that includes this header is
 * compiled into its own kernel, so each gets its own copy, set at boot
 * before its init().  Defaults as in 2.4 i386 at HZ = 100.
 */
static struct {
    uint32_t proc_change_penalty;   /* include/asm-i386/smp.h PROC_CHANGE_PENALTY */
    uint32_t def_counter;           /* DEF_COUNTER = 10 * HZ / 100 ticks */
    uint32_t max_counter;           /* MAX_COUNTER = 20 * HZ / 100 ticks */
} linux24 __attribute__((unused)) = { 15, 10 * LINUX24_HZ / 100, 20 * LINUX24_HZ / 100 };

#define PROC_CHANGE_PENALTY ((int)linux24.proc_change_penalty)   /* goodness bonus on the CPU a task last ran on */
#define DEF_COUNTER ((int)linux24.def_counter)                   /* counter of a task without a parent (init_task) */
#define MAX_COUNTER ((int)linux24.max_counter)                   /* cap when an exiting child's counter is given back */

/* Their table entries, for the schedulers' tunables tables. */
#define LINUX24_TUNABLES                                                                                           \
    { "proc_change_penalty", "count", 15, 0, 1000, 0, &linux24.proc_change_penalty,                                \
      "PROC_CHANGE_PENALTY: goodness bonus on the CPU a task last ran on" },                                       \
    { "def_counter", "ticks", 10 * LINUX24_HZ / 100, 1, 1000, 0, &linux24.def_counter,                             \
      "DEF_COUNTER: the counter of a task without a parent, in 2.4 ticks" },                                       \
    { "max_counter", "ticks", 20 * LINUX24_HZ / 100, 1, 1000, 0, &linux24.max_counter,                             \
      "MAX_COUNTER: cap of a parent's counter when an exiting child gives its own back, in 2.4 ticks" }

/* How many 2.4 ticks are due at this kernel tick (0 or, for HZ < 100, more). */
static inline int linux24_ticks_due(int *subtick)
{
    int due = 0;
    *subtick += LINUX24_HZ;
    while (*subtick >= HZ) {
        *subtick -= HZ;
        due++;
    }
    return due;
}

/* 2.4 schedule()'s recalculation, for one task (sleepers too). */
static inline int linux24_recalc_counter(int counter, int nice) { return (counter >> 1) + NICE_TO_TICKS(nice); }

/* 2.4 do_fork: the child gets half of the parent's counter rounded up, the
 * parent keeps the rest, so forking creates no CPU time.  Returns the
 * child's; true in *parent_empty when the parent must reschedule. */
static inline int linux24_split_counter(int *parent_counter, bool *parent_empty)
{
    int child = (*parent_counter + 1) >> 1;
    *parent_counter >>= 1;
    *parent_empty = *parent_counter == 0;
    return child;
}

/* 2.4 release_task: what is left of an exiting child's counter goes back to its parent, capped. */
static inline int linux24_give_back(int parent_counter, int child_counter)
{
    int c = parent_counter + child_counter;
    return c > MAX_COUNTER ? MAX_COUNTER : c;
}

/* Goodness values and the run-queue part of a task's state of the schedulers that keep 2.4's one
 * run queue (sched/linux24_runqueue.h: goodness.c, dynsched.c). */
#define GOODNESS_IDLE (-1000)   /* what the idle task scores: never chosen over a runnable task */
#define GOODNESS_YIELD (-1)
#define GOODNESS_RT_BASE 1000

/* The part of a task's state that the one run queue keeps (run_list first: task_of() relies on it). */
struct linux24_rq_task {
    struct list_head run_list;  /* on runqueue_head while runnable, running included */
    int processor;              /* CPU it last ran on (2.4 p->processor) */
    int waker_cpu;              /* set by select_cpu() for the enqueue() that follows; -1 if none */
    bool queued;                /* on runqueue_head */
    bool yielded;               /* the SCHED_YIELD bit of 2.4's p->policy */
};

#endif
