/*
 * sched/goodness.c - SCHED=goodness: the Linux 2.4.18 scheduler, modelled on
 * kernel/sched.c (schedule(), goodness(), reschedule_idle(), sys_sched_yield),
 * kernel/timer.c (update_process_times), kernel/fork.c (do_fork) and
 * kernel/exit.c (release_task) of Linux 2.4.16-2.4.18.
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
 *   - The 2.4 "processor" field is kept privately (processor below): the CPU
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
 * Experiment flags, off by default: -DGOODNESS_SCAN_NS=N burns N
 * instructions per task the pick examines, -DGOODNESS_SCAN_FIT=C only
 * while more than C tasks are queued (scan_miss, below).
 *
 * Sync wake-ups are honoured as 2.4's try_to_wake_up(p, 1) did, whenever
 * the waker gives the hint: the channel decides when (kernel/pipe.h: 2.4's
 * pipes use a sync wake-up only right before the waker sleeps; its AF_UNIX
 * sockets never, kernel/unix_sock.h).
 */
#include "sched.h"
#include "linux24.h"

#define GOODNESS_IDLE (-1000)   /* what the idle task scores: never chosen over a runnable task */
#define GOODNESS_YIELD (-1)
#define GOODNESS_RT_BASE 1000

/* Per-task state (in task->sched_private).  run_list must stay first: task_of() relies on it. */
struct goodness_task {
    struct list_head run_list;  /* on runqueue_head while runnable, running included */
    int counter;                /* 2.4 ticks (10 ms) left in this epoch */
    int processor;              /* CPU it last ran on (2.4 p->processor) */
    int waker_cpu;              /* set by select_cpu() for the enqueue() that follows; -1 if none */
    bool queued;                /* on runqueue_head */
    bool yielded;               /* the SCHED_YIELD bit of 2.4's p->policy */
};

/* runqueue_lock is the core's shared run-queue lock (SCHED_SHARED_RUNQUEUE). */
static struct list_head runqueue_head;
static int subtick[MAX_CPUS];                   /* kernel ticks, in units of LINUX24_HZ, since the last 2.4 tick */
static int active_mm[MAX_CPUS];                 /* mm of the last task this CPU ran (2.4 active_mm) */
static volatile unsigned long recalculations;   /* epochs ended, for tests and curiosity */

static struct goodness_task *gt(struct task *p) { return SCHED_TASK(p, struct goodness_task); }
static struct task *task_of(struct list_head *node)
{
    return sched_task_of(node, offsetof(struct goodness_task, run_list));
}

/* 2.4 nr_running: every task on runqueue_head (the core counts them per CPU). */
static int nr_running(void)
{
    int n = 0;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++)
        n += sched_nr_queued(cpu);
    return n;
}

/* 2.4 tasks are SCHED_OTHER unless FIFO or RR; BATCH did not exist. */
static bool is_other(const struct task *p) { return !task_is_rt(p); }

/* 2.4 goodness(p, this_cpu, this_mm). */
static int goodness(struct task *p, int cpu, int this_mm)
{
    struct goodness_task *g = gt(p);
    if (g->yielded)
        return GOODNESS_YIELD;
    if (!is_other(p))
        return GOODNESS_RT_BASE + p->rt_priority;
    int weight = g->counter;
    if (weight == 0)
        return 0;               /* out of time: may still be chosen, may trigger a recalculation */
    if (g->processor == cpu)
        weight += PROC_CHANGE_PENALTY;
    if (p->mm == this_mm)
        weight += 1;
    return weight + 20 - p->nice;
}

/* 2.4 preemption_goodness(curr, p, cpu): both scored with curr's mm.  > 0 means p should replace curr. */
static int preemption_goodness(struct task *curr, struct task *p, int cpu)
{
    return goodness(p, cpu, curr->mm) - goodness(curr, cpu, curr->mm);
}

/*
 * 2.4 reschedule_idle(p), runqueue_lock held.  self/self_next describe a CPU
 * that is in the middle of schedule() and is about to run self_next (its
 * current task is still the old one): 2.4 ran this from __schedule_tail, after
 * the switch, so that CPU must be judged by what it switches to.  self is -1
 * when no CPU is in that state (the wake-up path).
 *
 * An idle CPU that has a reschedule pending still counts as idle, as in
 * 2.4.18 (send_now_idle: "need_resched = tsk->need_resched;
 * tsk->need_resched = 1; if (best_cpu != this_cpu && !need_resched)
 * smp_send_reschedule(best_cpu)"): two tasks can be sent to the same idle
 * CPU, which takes one, and the other waits on the run queue until some CPU
 * schedules, while other CPUs idle.  An oddity of 2.4 that costs it latency;
 * kept (docs/testing.md: "goodness strands a runnable task").
 */
static bool cpu_idle_now(int cpu, int self, struct task *self_next)
{
    if (cpu == self)
        return self_next == NULL || self_next->is_idle;
    return sched_cpu_is_idle(cpu);
}

static void reschedule_idle(struct task *p, int self, struct task *self_next)
{
    int last = gt(p)->processor;
    if (last >= 0 && last < sched_nr_cpus() && task_allowed_on(p, last) && cpu_idle_now(last, self, self_next)) {
        sched_resched_cpu(last);
        return;
    }
    /* The allowed idle CPU idle longest (its cache is the coldest); failing
     * that, the busy CPU whose task p beats by the most. */
    int target = -1;
    bool target_idle = false;
    uint64_t oldest_idle = 0;
    int max_prio = 0;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (!task_allowed_on(p, cpu))
            continue;
        if (cpu_idle_now(cpu, self, self_next)) {
            uint64_t since = sched_cpu_idle_since_ns(cpu);
            if (!target_idle || since < oldest_idle) {
                oldest_idle = since;
                target = cpu;
                target_idle = true;
            }
        } else if (!target_idle) {
            struct task *curr = cpu == self ? self_next : sched_cpu_curr(cpu);
            int prio = preemption_goodness(curr, p, cpu);
            if (prio > max_prio) {
                max_prio = prio;
                target = cpu;
            }
        }
    }
    if (target >= 0)
        sched_resched_cpu(target);
}

static void goodness_init(int ncpus)
{
    (void)ncpus;
    list_init(&runqueue_head);
    recalculations = 0;
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        subtick[cpu] = 0;
        active_mm[cpu] = -1;
    }
    sched_log("goodness: Linux 2.4.18 scheduler, counters in 2.4 ticks at HZ=%d (kernel HZ=%d)", LINUX24_HZ, HZ);
}

/* 2.4 do_fork: share the parent's counter so that forking creates no CPU time. */
static void goodness_task_fork(struct task *parent, struct task *child)
{
    struct goodness_task *c = gt(child);
    list_init(&c->run_list);
    c->queued = false;
    c->yielded = false;
    c->waker_cpu = -1;
    c->processor = child->cpu;  /* the parent's CPU */
    if (!parent || parent->is_idle) {
        c->counter = DEF_COUNTER;
        return;
    }
    bool parent_empty;
    c->counter = linux24_split_counter(&gt(parent)->counter, &parent_empty);
    if (parent_empty)
        sched_resched_cpu(child->cpu);  /* the parent is current there */
}

static int goodness_select_cpu(struct task *p, int waker_cpu, int flags)
{
    gt(p)->waker_cpu = waker_cpu;
    int last = p->cpu;
    bool last_ok = task_allowed_on(p, last);
    /* A sync wake-up that 2.4 would not announce: keep the core from kicking an idle last CPU. */
    if ((flags & WAKE_SYNC) && task_allowed_on(p, waker_cpu) && last != waker_cpu &&
        (!last_ok || sched_cpu_is_idle(last)))
        return waker_cpu;
    if (last_ok)
        return last;
    /* Its affinity moved away from its last CPU (impossible in 2.4): the
     * allowed CPU idle longest, else the lowest allowed one. */
    int best = -1;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (!task_allowed_on(p, cpu))
            continue;
        if (best < 0)
            best = cpu;
        if (sched_cpu_is_idle(cpu) &&
            (!sched_cpu_is_idle(best) || sched_cpu_idle_since_ns(cpu) < sched_cpu_idle_since_ns(best)))
            best = cpu;
    }
    return best;
}

/* 2.4 try_to_wake_up: add_to_runqueue (the head) and, unless sync, reschedule_idle. */
static void goodness_enqueue(int cpu, struct task *p, int flags)
{
    struct goodness_task *g = gt(p);
    list_add(&g->run_list, &runqueue_head);
    g->queued = true;
    int waker = g->waker_cpu >= 0 ? g->waker_cpu : sched_this_cpu();
    g->waker_cpu = -1;
    if (!(flags & ENQUEUE_SYNC) || !task_allowed_on(p, waker))
        reschedule_idle(p, -1, NULL);
}

static void goodness_dequeue(int cpu, struct task *p, int flags)
{
    struct goodness_task *g = gt(p);
    list_del(&g->run_list);
    g->queued = false;
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
 * scan in goodness_pick_next as it was: the trace is free while off. */
static __attribute__((noinline)) void new_epoch(int cpu)
{
    sched_trace_event(cpu, "recalc", recalculations + 1);
    spin_release(sched_rq_lock(cpu));
    sched_for_each_task(recalculate_counter, NULL);
    spin_lock(sched_rq_lock(cpu));
    recalculations++;
    sched_trace_event(cpu, "recalc_end", recalculations);
}

/* 2.4 can_schedule(p, cpu): allowed here and not running on another CPU. */
static bool can_schedule(struct task *p, int cpu, struct task *prev)
{
    return task_allowed_on(p, cpu) && (p == prev || !sched_task_running(p));
}

/*
 * -DGOODNESS_SCAN_NS=N, an experiment (docs/notebook/, seed003's
 * tbench): N instructions of busy time per task the scan examines, for the
 * cache misses 2.4's scan took on the era's machines.  No cost= model
 * charges it.
 *
 * -DGOODNESS_SCAN_FIT=C (with it): charge only while more than C tasks
 * are on the run queue.  2.4 kept every field goodness() reads in one
 * 32-byte line at offset 32 of the task_struct (include/linux/sched.h,
 * "We keep all fields in a single cacheline that are needed for the
 * goodness() loop"), and every task_struct starts an 8 KB-aligned
 * task_union, so those lines all fall in the same 1/256 of a cache's
 * sets: an L2 of S bytes holds at most S / 8 KB of them, whatever its
 * associativity.  A scan that walks more tasks than that in the same
 * order each time evicts each line before it is read again (LRU), and
 * every task misses; one that walks fewer finds them all.  Measured then:
 * Shuji Yamamura, LKML 29 Nov 2001, "task_structs cache colouring
 * (performance measurement)": 96.9% of the L2 reads in the scan missed
 * (2.4.4, 4 CPUs of an 8-way PIII Xeon, 1 MB L2).  With C=128 and era2003's
 * 159 ns, seed003's tbench collapse at 192 clients comes out
 * (docs/notebook/2026-12-06-seed003-tbench-scan-outgrows-l2.md).
 */
#ifdef GOODNESS_SCAN_NS
#include "../kernel/chan_cost.h"
#ifndef GOODNESS_SCAN_FIT
#define GOODNESS_SCAN_FIT 0
#endif
#endif
static inline void scan_miss(int listed)
{
#ifdef GOODNESS_SCAN_NS
    if (listed > GOODNESS_SCAN_FIT)
        cost_burn(GOODNESS_SCAN_NS);
#else
    (void)listed;
#endif
}

/* 2.4 schedule(), from taking runqueue_lock to choosing next, plus __schedule_tail's part. */
static struct task *goodness_pick_next(int cpu, struct task *prev)
{
    struct goodness_task *pg = prev->is_idle ? NULL : gt(prev);

    /* An RR task whose counter ran out gets a new one and goes behind the others. */
    if (pg && prev->policy == SCHED_RR && pg->counter == 0) {
        pg->counter = NICE_TO_TICKS(prev->nice);
        if (pg->queued)
            list_move_tail(&pg->run_list, &runqueue_head);
    }
    int this_mm = prev->is_idle ? active_mm[cpu] : prev->mm;

#ifdef GOODNESS_SCAN_NS
    int listed = nr_running();
#else
    int listed = 0;
#endif
    struct task *next;
    for (;;) {
        next = NULL;
        int c = GOODNESS_IDLE;
        struct list_head *pos;
        list_for_each(pos, &runqueue_head) {
            struct task *p = task_of(pos);
            if (!can_schedule(p, cpu, prev))
                continue;
            scan_miss(listed);
            int weight = goodness(p, cpu, this_mm);
            if (weight > c) {           /* strictly greater: the earlier task wins a tie */
                c = weight;
                next = p;
            }
        }
        if (c != 0)
            break;
        new_epoch(cpu);
    }

    /* __schedule_tail: a preempted task that did not yield looks for another CPU. */
    if (pg && next != prev && pg->queued && prev->state == TASK_RUNNING && !pg->yielded)
        reschedule_idle(prev, cpu, next);
    if (pg)
        pg->yielded = false;

    if (next) {
        struct goodness_task *ng = gt(next);
        ng->processor = cpu;
        active_mm[cpu] = next->mm;      /* next->cpu may be another CPU: the core moves it here */
    }
    return next;
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

/* 2.4 sys_sched_yield. */
static void goodness_yield(int cpu, struct task *curr)
{
    int pending = nr_running();
    for (int i = 0; i < sched_nr_cpus(); i++)
        if (!sched_cpu_is_idle(i))
            pending--;
    if (pending <= 0)
        return;                 /* nobody waits: keep running (the core's schedule() re-picks us) */
    struct goodness_task *g = gt(curr);
    if (is_other(curr))
        g->yielded = true;
    sched_resched_cpu(cpu);
    if (g->queued)
        list_move_tail(&g->run_list, &runqueue_head);
}

/* 2.4 had no sched_setaffinity: honour the mask and let an allowed idle CPU take a waiting task. */
static void goodness_set_affinity(int cpu, struct task *p, cpumask_t mask)
{
    if (gt(p)->queued && !sched_task_running(p))
        reschedule_idle(p, -1, NULL);
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

const struct sched_class scheduler = {
    .name = "goodness",
    .tunables = goodness_tunables,
    .ntunables = ARRAY_SIZE(goodness_tunables),
    /* one runqueue_lock; 2.4's tick never took it; 2.4's task layout */
    .flags = SCHED_SHARED_RUNQUEUE | SCHED_TICK_UNLOCKED | SCHED_LAYOUT_LINUX24,
    .init = goodness_init,
    .task_fork = goodness_task_fork,
    .select_cpu = goodness_select_cpu,
    .enqueue = goodness_enqueue,
    .dequeue = goodness_dequeue,
    .pick_next = goodness_pick_next,
    .tick = goodness_tick,
    .yield = goodness_yield,
    .set_affinity = goodness_set_affinity,
    .task_exit = goodness_task_exit,
};
