/*
 * sched/goodness.c - SCHED=goodness: the Linux 2.4.18 scheduler, modelled on
 * kernel/sched.c (schedule(), goodness(), reschedule_idle(), sys_sched_yield),
 * kernel/timer.c (update_process_times), kernel/fork.c (do_fork) and
 * kernel/exit.c (release_task) of Linux 2.4.16-2.4.18.  The run queue,
 * its scan, reschedule_idle, the sync wake-up rule and yield are in
 * sched/linux24_runqueue.h, which sched/dynsched.c (-aa's dyn-sched) shares.
 *
 * Algorithm
 *   All runnable tasks of all CPUs sit on ONE list, runqueue_head, under ONE
 *   lock, runqueue_lock: the core's run-queue lock, shared by every CPU
 *   (SCHED_SHARED_RUNQUEUE), so sched_rq_lock(cpu) is the same lock for every
 *   CPU.  The running task stays on the list.  schedule() on a CPU walks the
 *   whole list and takes the task with the highest goodness():
 *     SCHED_OTHER   counter (ticks left in this epoch), or 0 if counter is 0;
 *                   otherwise + PROC_CHANGE_PENALTY (15) if the task last ran
 *                   on this CPU, + 1 if it shares the address space (mm) of
 *                   the task this CPU ran last, + 20 - nice;
 *     FIFO / RR     1000 + rt_priority;
 *     SCHED_YIELD   -1: below any runnable task, above idle (-1000).
 *   Only a strictly greater goodness wins, so ties go to the earlier task in
 *   the list.  Tasks running on another CPU and tasks whose cpus_allowed
 *   exclude this CPU are skipped (2.4's can_schedule()).  Woken and new tasks
 *   go to the HEAD of the list (add_to_runqueue), a yielder and an expired RR
 *   task to the tail.
 *
 *   When the best candidate has goodness 0 (every runnable candidate used up
 *   its counter), the epoch ends: schedule() drops runqueue_lock and gives
 *   EVERY task, sleepers included, counter = counter/2 + NICE_TO_TICKS(nice)
 *   under the task-list lock, then re-takes the lock and rescans.  Sleepers
 *   thus accumulate up to about 2 x NICE_TO_TICKS, which is 2.4's only
 *   interactivity boost.  The loop over all tasks is kept on purpose: it is
 *   part of what hackbench measured on 2.4.
 *
 *   The tick takes one from the running task's counter; at 0 it asks for a
 *   reschedule.  fork splits the parent's counter: child (c+1)/2, parent
 *   c/2 (a parent left with 0 reschedules); the child does not run first.
 *   When a task exits, its remaining counter goes back to its parent, capped
 *   at MAX_COUNTER (2.4 release_task did that for the reaper at wait() time).
 *
 *   Wake-up placement is reschedule_idle(): the task's last CPU if it is idle
 *   and allowed; else the allowed idle CPU that has been idle longest (2.4:
 *   the oldest last_schedule); else the busy allowed CPU whose current task
 *   the woken task beats by the most (preemption_goodness > 0) is asked to
 *   reschedule (an IPI when remote).  A sync wake-up (the waker is about to
 *   sleep, as pipes do) whose task may run on the waker's CPU skips
 *   reschedule_idle altogether.  When schedule() switches away from a task
 *   that is still runnable and did not yield, reschedule_idle() is run for it
 *   (2.4 __schedule_tail), so a preempted task finds an idle CPU.  There is no
 *   other load balancing: the shared list is the balancing.
 *
 *   SCHED_FIFO runs until it blocks or yields; SCHED_RR gets its counter
 *   refilled with NICE_TO_TICKS(nice) and moves to the list tail when the
 *   counter runs out.  Both always beat SCHED_OTHER (1000 + rt_priority).
 *   sched_yield sets the SCHED_YIELD bit (SCHED_OTHER only), moves the task to
 *   the tail and reschedules, but only when some other runnable task waits
 *   (nr_running minus the CPUs running a task is not 0).  The bit is cleared
 *   at the end of the schedule() that saw it (2.4 __schedule_tail).
 *
 * Time: 2.4's HZ = 100 granularity on a faster kernel tick
 *   counter is kept in 2.4 ticks of 10 ms, and NICE_TO_TICKS / TICK_SCALE are
 *   evaluated at LINUX24_HZ = 100 (nice -20 -> 11, 0 -> 6, 10 -> 3, 19 -> 1).
 *   Each CPU's sub-tick accumulator (subtick[cpu], sched/linux24.h) makes
 *   every tenth kernel tick at HZ=1000 a 2.4 tick, charged to whatever runs
 *   on that CPU then, idle or not, as on a real 2.4 kernel.
 *
 * Mapping to this kernel's interface
 *   - The 2.4 "processor" field is kept privately (processor in struct linux24_rq_task): the CPU
 *     the task last ran on, which earns PROC_CHANGE_PENALTY.  task->cpu is the
 *     core's queue CPU; select_cpu() returns the last CPU when allowed, so the
 *     two normally agree.  For a sync wake-up whose last CPU is idle,
 *     select_cpu() returns the waker's CPU instead, only so that the core does
 *     not kick that idle CPU (2.4 sent no IPI for a sync wake-up); the task's
 *     +15 stays with its real last CPU.
 *   - The 2.4 active_mm of an idle CPU (the mm it ran last; lazy TLB) is kept
 *     per CPU in active_mm[], so a task of that mm still earns +1 there.
 *     Every task here has an address-space id, so 2.4's "+1 for a kernel
 *     thread (no mm)" has no counterpart.
 *   - pick_next() may return a task whose task->cpu is another CPU: the lock
 *     is shared, and the core records the migration.
 *   - set_nice only changes nice (the core stores it): 2.4's setpriority did
 *     nothing else, the new nice counts at the next recalculation and in
 *     goodness().  set_affinity: 2.4 had no sched_setaffinity; cpus_allowed is
 *     simply honoured by every scan, and a queued task whose mask changed is
 *     run through reschedule_idle() so a newly allowed idle CPU takes it.
 *   - A task created with no parent (by a CPU's boot context) starts with
 *     DEF_COUNTER, as 2.4's init_task did.  SCHED_BATCH (not in 2.4) is
 *     treated as SCHED_OTHER.
 *   - An exiting task's counter goes back to its parent when it exits
 *     (task_exit hook); 2.4 did it when the parent reaped it (release_task,
 *     from wait()).  Measured effect: none in this kernel's workloads, whose
 *     parents sleep until the run's children are done and then reap them,
 *     so the counter is there before the parent next needs it either way;
 *     only a parent that runs on between a child's exit and its wait() gets
 *     its up to MAX_COUNTER ticks back earlier than on 2.4.
 *   - The tick runs without runqueue_lock (SCHED_TICK_UNLOCKED), as
 *     2.4's update_process_times did.
 *   - The core counts the queued tasks per CPU (by task->cpu, the running
 *     one included); their sum is 2.4's global nr_running.
 *
 * Tunables (Linux's names; sched.proc_change_penalty=, sched.def_counter=,
 * sched.max_counter= at boot, kernel/sched_tunables.c, table at the end of
 * this file; LINUX24_HZ stays compile-time)
 *   LINUX24_HZ           100  the HZ the 2.4 constants are expressed in
 *   PROC_CHANGE_PENALTY  15   goodness bonus on the CPU a task last ran on
 *   DEF_COUNTER          10   (10*HZ/100) counter of a task without a parent
 *   MAX_COUNTER          20   (20*HZ/100) cap when an exiting child's counter
 *                             is given back to its parent
 *   NICE_TO_TICKS(nice)  TICK_SCALE(20 - nice) + 1, TICK_SCALE(x) = x >> 2
 *                        at HZ = 100 (the 2.4 table for other HZ is kept)
 * The scan's cache misses: the memory model's, with 2.4's layout
 * (goodness_scan_bytes below; sched/linux24_runqueue.h, docs/caches.md).
 *
 * Sync wake-ups are honoured as 2.4's try_to_wake_up(p, 1) did, whenever
 * the waker gives the hint: the channel decides when (kernel/pipe.h: 2.4's
 * pipes use a sync wake-up only right before the waker sleeps; its AF_UNIX
 * sockets never, kernel/unix_sock.h).
 */
#include "sched.h"
#include "linux24.h"

/* Per-task state (in task->sched_private).  rq must stay first (sched/linux24_runqueue.h). */
struct goodness_task {
    struct linux24_rq_task rq;  /* run_list, processor, waker_cpu, queued, yielded */
    int counter;                /* 2.4 ticks (10 ms) left in this epoch */
};

static struct goodness_task *gt(struct task *p) { return SCHED_TASK(p, struct goodness_task); }
static struct linux24_rq_task *l24(struct task *p) { return &gt(p)->rq; }
static int goodness(struct task *p, int cpu, int this_mm);
static void new_epoch(int cpu);
static bool rr_slice_used(struct task *p);
static inline void on_add_to_runqueue(struct task *p, int flags) { (void)p, (void)flags; }

#include "linux24_runqueue.h"

/* 2.4 goodness(p, this_cpu, this_mm). */
static int goodness(struct task *p, int cpu, int this_mm)
{
    struct goodness_task *g = gt(p);
    if (g->rq.yielded)
        return GOODNESS_YIELD;
    if (!is_other(p))
        return GOODNESS_RT_BASE + p->rt_priority;
    int weight = g->counter;
    if (weight == 0)
        return 0;               /* out of time: may still be chosen, may trigger a recalculation */
    if (g->rq.processor == cpu)
        weight += PROC_CHANGE_PENALTY;
    if (p->mm == this_mm)
        weight += 1;
    return weight + 20 - p->nice;
}

static void goodness_init(int ncpus)
{
    (void)ncpus;
    linux24_rq_init();
    sched_log("goodness: Linux 2.4.18 scheduler, counters in 2.4 ticks at HZ=%d (kernel HZ=%d)", LINUX24_HZ, HZ);
}

/* 2.4 do_fork: share the parent's counter so that forking creates no CPU time. */
static void goodness_task_fork(struct task *parent, struct task *child)
{
    struct goodness_task *c = gt(child);
    linux24_rq_fork(child);
    if (!parent || parent->is_idle) {
        c->counter = DEF_COUNTER;
        return;
    }
    bool parent_empty;
    c->counter = linux24_split_counter(&gt(parent)->counter, &parent_empty);
    if (parent_empty)
        sched_resched_cpu(child->cpu);  /* the parent is current there */
}

/* The recalculation of 2.4 schedule(), for one task (sleepers too). */
static void recalculate_counter(struct task *p, void *arg)
{
    struct goodness_task *g = gt(p);
    g->counter = linux24_recalc_counter(g->counter, p->nice);
}

/* Every candidate is out of time: new epoch for every task, as 2.4 does
 * it, without runqueue_lock (it nests inside the task-list lock).  Out of
 * line so that its trace events (a static key each) leave the code of the
 * scan in linux24_pick_next as it was: the trace is free while off. */
static __attribute__((noinline)) void new_epoch(int cpu)
{
    sched_trace_event(cpu, "recalc", recalculations + 1);
    spin_release(sched_rq_lock(cpu));
    sched_for_each_task(recalculate_counter, NULL);
    spin_lock(sched_rq_lock(cpu));
    recalculations++;
    sched_trace_event(cpu, "recalc_end", recalculations);
}

/* An RR task whose counter ran out gets NICE_TO_TICKS(nice). */
static bool rr_slice_used(struct task *p)
{
    struct goodness_task *g = gt(p);
    if (g->counter != 0)
        return false;
    g->counter = NICE_TO_TICKS(p->nice);
    return true;
}

/*
 * 2.4 update_process_times, once per 10 ms of kernel ticks.  Runs without
 * runqueue_lock (SCHED_TICK_UNLOCKED), as in 2.4: with interrupts off curr stays
 * this CPU's task, subtick[] is per CPU, and the other writers of a running
 * task's counter (the recalculation, an exiting child's give-back) race with
 * it exactly as they did in 2.4.  Taking the one lock on every tick of every
 * CPU convoys under QEMU: 4 vCPUs spent almost all their time queued on it.
 */
static void goodness_tick(int cpu, struct task *curr)
{
    for (int due = linux24_ticks_due(&subtick[cpu]); due > 0; due--) {
        if (curr->is_idle)
            continue;
        struct goodness_task *g = gt(curr);
        if (--g->counter <= 0) {
            g->counter = 0;
            sched_resched_cpu(cpu);
        }
    }
}

/* 2.4 sys_sched_yield: the SCHED_YIELD bit, and behind the others. */
static void goodness_yield(int cpu, struct task *curr)
{
    if (linux24_yield(cpu, curr))
        linux24_move_last(curr);
}

/* 2.4 release_task: the remaining counter of an exiting child goes back to its parent. */
static void goodness_task_exit(struct task *p)
{
    struct task *parent = p->parent;
    if (!parent || parent->is_idle)
        return;
    unsigned long flags;
    int cpu = sched_task_rq_lock_irqsave(parent, &flags);
    if (parent->state != TASK_DEAD)
        gt(parent)->counter = linux24_give_back(gt(parent)->counter, gt(p)->counter);
    sched_rq_unlock_irqrestore(cpu, flags);
}

/* sched.<name>= at boot: 2.4's constants (sched/linux24.h). */
static const struct sched_tunable goodness_tunables[] = {
    LINUX24_TUNABLES,
};

/* What goodness() and the scan read of each task (2.4 kept them in the
 * task_struct's goodness line with nice, policy, mm and cpus_allowed). */
static const struct sched_scan_bytes goodness_scan_bytes[] = {
    { offsetof(struct goodness_task, rq.run_list.next), sizeof(void *), 0 },
    { offsetof(struct goodness_task, rq.processor), sizeof(int), 0 },
    { offsetof(struct goodness_task, rq.yielded), sizeof(bool), 0 },
    { offsetof(struct goodness_task, counter), sizeof(int), 0 },
    { 0, 0, 0 },
};

const struct sched_class scheduler = {
    .name = "goodness",
    .tunables = goodness_tunables,
    .ntunables = ARRAY_SIZE(goodness_tunables),
    /* one runqueue_lock; 2.4's tick never took it; 2.4's task layout */
    .flags = SCHED_SHARED_RUNQUEUE | SCHED_TICK_UNLOCKED | SCHED_LAYOUT_LINUX24,
    .init = goodness_init,
    .task_fork = goodness_task_fork,
    .select_cpu = linux24_select_cpu,
    .enqueue = linux24_enqueue,
    .dequeue = linux24_dequeue,
    .pick_next = linux24_pick_next,
    .tick = goodness_tick,
    .yield = goodness_yield,
    .set_affinity = linux24_set_affinity,
    .task_exit = goodness_task_exit,
    .scan_bytes = goodness_scan_bytes,
};
