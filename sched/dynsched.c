/*
 * sched/dynsched.c - SCHED=dynsched: "dyn-sched" of Andrea Arcangeli's -aa
 * kernels (30_dyn-sched-1 .. -6, 2.4.18pre2aa1 to 2.4.19pre8aa3), which was
 * Davide Libenzi's "Time Slice Split Scheduler", the scheduler of mainline
 * 2.5.2-pre3 .. pre9 before O(1), backported by Davide to 2.4.18-pre1 for
 * Andrea and fixed up by him.  Seed 003's 2.4.19-pre5-aa1 and
 * 2.4.19-pre7-aa1 rows both ran 30_dyn-sched-5 (in -aa from 2.4.19pre3aa1 to
 * 2.4.19pre7aa3, "Rediffed").
 *
 * Sources (copies in /work/shared/reference/dyn-sched/)
 *   - Davide Libenzi, "[patch] 2.5.2 scheduler code for 2.4.18-pre1",
 *     LKML, 6 Jan 2002, Message-ID
 *     <Pine.LNX.4.40.0201061554410.933-100000@blue1.dev.mcafeelabs.com>
 *     ("I made this patch for Andrea"): include/linux/sched.h (dyn_prio,
 *     time_slice, rcl_last; MAX_DYNPRIO, DEF_TSLICE, MAX_TSLICE),
 *     kernel/sched.c (goodness, add_to_runqueue, expire_task, schedule's
 *     recalculation, sys_sched_yield, fill_tslice_map), kernel/timer.c,
 *     kernel/fork.c, kernel/exit.c.
 *   - Andrea Arcangeli's release notes, 2.4.18pre2aa1 (8 Jan 2002,
 *     <20020108155553.A1894@inspiron.school.suse.de>) to 2.4.19pre9aa1, and
 *     his mail of 4 May 2002 in seed 003's thread
 *     (<20020504101345.N1396@dualathlon.random>).
 *   - The one piece of -aa's own code found: the recalculation loop of
 *     SuSE 8.0's 2.4.18 (-aa's numa-sched + dyn-sched), quoted by Peter
 *     Waechtler, "Oops in sched.c on PPro SMP", LKML 16 Sep 2002,
 *     <174178B9-C980-11D6-8873-00039387C942@mac.com>.
 *   The rest is 2.4.18 (sched/goodness.c; the run queue they share is
 *   sched/linux24_runqueue.h).
 *
 * Algorithm (Davide's patch; what it changed in 2.4.18)
 *   2.4's counter, which was both a task's slice and its goodness weight,
 *   splits in two:
 *     time_slice  2.4 ticks left to run, refilled at recalculation with the
 *                 task's nice slice TASK_TIMESLICE(p);
 *     dyn_prio    a dynamic priority 0..cap, goodness's weight.
 *   goodness(): 0 when time_slice is 0, else dyn_prio + 1
 *     + PROC_CHANGE_PENALTY (15) on the CPU it last ran on
 *     + MM_AFFINITY_BONUS (1) for the same mm + 20 - nice;
 *     real-time 1000 + rt_priority and SCHED_YIELD -1, as in 2.4.
 *   The tick (expire_task): time_slice--; when it reaches 0, dyn_prio--
 *     (if above 0) and need_resched.  So a CPU hog sinks to dyn_prio 0.
 *   Recalculation, when no candidate has goodness > 0: ++rcl_curr and every
 *     task ON THE RUN QUEUE gets time_slice = TASK_TIMESLICE(p): no walk of
 *     every task under tasklist_lock as 2.4.18 does (the point of the patch
 *     for Andrea: "boxes with thousands of tasks, but only a few of them
 *     running"), and the run-queue lock is not dropped.
 *   Sleep bonus, in add_to_runqueue (a wake-up or a new task):
 *     dyn_prio += rcl_curr - rcl_last (the recalculations since it was last
 *     added), then rcl_last = rcl_curr, and dyn_prio is capped.
 *   fork halves the parent's time_slice with the child as 2.4 halves
 *   counter; the child inherits dyn_prio and rcl_last (a copy of the parent's
 *   task_struct).  An exiting child's time_slice goes back to the parent,
 *   capped at MAX_TSLICE.  Everything else (the one run queue and its scan,
 *   ties to the earlier task, reschedule_idle, sync wake-ups, __schedule_
 *   tail's reschedule_idle of a preempted task) is 2.4.18's.
 *
 * Andrea's changes (30_dyn-sched-1 notes), and the rules that had to be guessed
 *   Known exactly:
 *   - yield "shouldn't throw away the timeslice but only roll the task
 *     over": sys_sched_yield as 2.4.18 (SCHED_YIELD, move to the tail), not
 *     Davide's time_slice = 0, ++dyn_prio.
 *   - "set need_resched on idle tasks only via reschedule_idle": here the
 *     core's idle task is never ticked or rescheduled by the scheduler
 *     except through reschedule_idle (and the core's own kick of an idle CPU
 *     it queues on, which 2.4's reschedule_idle did too), so nothing to do.
 *   - 30_dyn-sched-2: "handle gracefully a negative rcl_curr - p->rcl_last":
 *     a negative difference adds nothing.
 *   - The SuSE loop: the recalculation sets only time_slice; Davide's also
 *     set rcl_last = rcl_curr.
 *   Guessed (each a tunable; sched.preset=davide sets the patch as mailed):
 *   - "increased a bit the nice levels": the nice -> time-slice table.
 *     Davide's: (10000 + 2051 i) us, i = 19 - nice, at HZ=100: nice
 *     -20/-10/0/10/19 -> 8/6/4/2/1 ticks.  Chosen: 2.4's own NICE_TO_TICKS,
 *     11/8/6/3/1 (legacy_nice_tslice=1): a bit above Davide's at every
 *     level but 19, and Andrea measured the bonus in the same sentence
 *     against "a legacy timeslice", so he reasoned in 2.4's slices.  The
 *     nice 0 : nice 10 ratio is 2 with either table.
 *   - "give the dyn_sched at max only the double of power of a legacy
 *     timeslice": the cap of dyn_prio.  Davide's is MAX_DYNPRIO = 40 for
 *     every nice.  Chosen: 2 x NICE_TO_TICKS(nice) (12 at nice 0): in 2.4.18 a task's goodness weight is its counter,
 *     which a sleeper builds up to 2 x NICE_TO_TICKS - 1 (counter/2 +
 *     NICE_TO_TICKS at each recalculation), so "the double of a legacy
 *     timeslice" in goodness units is that (max_dynprio=0); a fixed
 *     max_dynprio=N is the other reading.
 *   - rcl_last in the recalculation: Andrea's loop (the SuSE snippet) does
 *     not set it (recalc_rcl_last=0): a task then earns, at its next
 *     wake-up, every recalculation since its previous wake-up, including
 *     those it spent runnable.  Whether -aa set it elsewhere (when a task
 *     went to sleep, say) is not known; Davide's rule is recalc_rcl_last=1.
 *   Measured effects on seed 003's tbench: docs/sched-dyn-sched.md.
 *   Not modelled: -aa's other scheduler patches of 2.4.19-pre7-aa1 (numa-sched:
 *   one node on the OSDL 4-way, so one run queue; parent-timeslice and
 *   share-timeslice, which change only what fork and exit hand over; the
 *   child-runs-first optimization); tbench forks its clients once, at the start.
 *
 * Time: as sched/goodness.c, time_slice is counted in 2.4 ticks of 10 ms
 * (HZ = 100; sched/linux24.h's sub-tick accumulator turns every tenth
 * kernel tick at HZ=1000 into one).  DEF_TSLICE = 5*HZ/100 = 5 ticks (a
 * task without a parent), MAX_TSLICE = 20*HZ/100 = 20.
 *
 * Mapping to this kernel's interface: as sched/goodness.c (one shared
 * run-queue lock, SCHED_SHARED_RUNQUEUE; the tick without it,
 * SCHED_TICK_UNLOCKED; the last CPU kept privately; per-CPU active_mm; an
 * exiting child's slice given back at exit rather than at reap).  The
 * sleep bonus is given on a wake-up or a new task's first enqueue, not on
 * the core's ENQUEUE_MIGRATE (an affinity move; 2.4 had no such path).
 *
 * Tunables (sched.<name>=; table at the end of this file)
 *   proc_change_penalty  15     goodness bonus on the CPU a task last ran on
 *   def_tslice           5      DEF_TSLICE, 2.4 ticks
 *   max_tslice           20     MAX_TSLICE, 2.4 ticks
 *   max_dynprio          0      cap of dyn_prio: 0 = 2 x NICE_TO_TICKS(nice); davide 40
 *   legacy_nice_tslice   1      slices by nice: 1 = 2.4's NICE_TO_TICKS, 0 = Davide's table
 *   recalc_rcl_last      0      the recalculation sets rcl_last (Davide: 1)
 *   yield_rollover       1      yield rolls the task over (Andrea); 0 = Davide's
 * Presets: aa (the defaults, 30_dyn-sched-5 as modelled) and davide.
 */
#include "sched.h"
#include "linux24.h"

#define MM_AFFINITY_BONUS 1

static uint32_t def_tslice = 5 * LINUX24_HZ / 100;     /* DEF_TSLICE */
static uint32_t max_tslice = 20 * LINUX24_HZ / 100;    /* MAX_TSLICE */
static uint32_t max_dynprio = 0;                       /* 0: 2 x NICE_TO_TICKS(nice) */
static uint32_t legacy_nice_tslice = 1;
static uint32_t recalc_rcl_last = 0;
static uint32_t yield_rollover = 1;

/* Per-task state (in task->sched_private).  rq must stay first (sched/linux24_runqueue.h). */
struct dyn_task {
    struct linux24_rq_task rq;  /* run_list, processor, waker_cpu, queued, yielded */
    int time_slice;             /* 2.4 ticks left of the slice */
    int dyn_prio;               /* 0..cap: goodness's weight */
    unsigned long rcl_last;     /* rcl_curr when it was last added to the run queue */
};

static unsigned long rcl_curr;                  /* recalculations so far (Davide's global counter) */
static unsigned char ts_table[40];              /* Davide's fill_tslice_map, in 2.4 ticks */

static struct dyn_task *dt(struct task *p) { return SCHED_TASK(p, struct dyn_task); }
static struct linux24_rq_task *l24(struct task *p) { return &dt(p)->rq; }
static int goodness(struct task *p, int cpu, int this_mm);
static void new_epoch(int cpu);
static bool rr_slice_used(struct task *p);
static void on_add_to_runqueue(struct task *p, int flags);

#include "linux24_runqueue.h"

/* TASK_TIMESLICE(p): the slice by nice, in 2.4 ticks. */
static int task_timeslice(const struct task *p)
{
    return legacy_nice_tslice ? NICE_TO_TICKS(p->nice) : ts_table[19 - p->nice];
}

/* The cap of dyn_prio (MAX_DYNPRIO in Davide's patch; see the header for the -aa reading). */
static int dynprio_cap(const struct task *p)
{
    return max_dynprio ? (int)max_dynprio : 2 * NICE_TO_TICKS(p->nice);
}

/* goodness(p, this_cpu, this_mm) of Davide's patch. */
static int goodness(struct task *p, int cpu, int this_mm)
{
    struct dyn_task *d = dt(p);
    if (d->rq.yielded)
        return GOODNESS_YIELD;
    if (!is_other(p))
        return GOODNESS_RT_BASE + p->rt_priority;
    if (d->time_slice == 0)
        return 0;               /* out of time: may still be chosen, may trigger a recalculation */
    int weight = d->dyn_prio + 1;
    if (d->rq.processor == cpu)
        weight += PROC_CHANGE_PENALTY;
    if (p->mm == this_mm)
        weight += MM_AFFINITY_BONUS;
    return weight + 20 - p->nice;
}

/* add_to_runqueue: the recalculations slept through become dyn_prio, capped. */
static void on_add_to_runqueue(struct task *p, int flags)
{
    if (flags & ENQUEUE_MIGRATE)
        return;
    struct dyn_task *d = dt(p);
    long slept = (long)(rcl_curr - d->rcl_last);
    if (slept > 0)              /* 30_dyn-sched-2: a negative difference adds nothing */
        d->dyn_prio += (int)(slept < 1000 ? slept : 1000);
    d->rcl_last = rcl_curr;
    int cap = dynprio_cap(p);
    if (d->dyn_prio > cap)
        d->dyn_prio = cap;
}

/* fill_tslice_map: (MIN_NICE_TSLICE + (MAX - MIN) / 39 * i) us at HZ = 100, at least one tick. */
static void fill_tslice_map(void)
{
    for (int i = 0; i < 40; i++) {
        int t = (int)(((10000 + ((90000 - 10000) / 39) * i) * (uint64_t)LINUX24_HZ) / 1000000);
        ts_table[i] = (unsigned char)(t ? t : 1);
    }
}

static void dyn_init(int ncpus)
{
    (void)ncpus;
    linux24_rq_init();
    rcl_curr = 0;
    fill_tslice_map();
    sched_log("dynsched: -aa's dyn-sched (Davide Libenzi's 2.5.2 scheduler for 2.4.18), slices in 2.4 ticks at HZ=%d "
              "(kernel HZ=%d)",
              LINUX24_HZ, HZ);
}

/* do_fork: the child is a copy (dyn_prio, rcl_last) and takes half the slice. */
static void dyn_task_fork(struct task *parent, struct task *child)
{
    struct dyn_task *c = dt(child);
    linux24_rq_fork(child);
    if (!parent || parent->is_idle) {
        c->time_slice = (int)def_tslice;
        c->dyn_prio = 0;
        c->rcl_last = 0;
        return;
    }
    struct dyn_task *pd = dt(parent);
    c->dyn_prio = pd->dyn_prio;
    c->rcl_last = pd->rcl_last;
    bool parent_empty;
    c->time_slice = linux24_split_counter(&pd->time_slice, &parent_empty);
    if (parent_empty)
        sched_resched_cpu(child->cpu);  /* the parent is current there */
}

/* Every candidate is out of time: new slices for the tasks on the run
 * queue only, under runqueue_lock (Davide's loop; -aa's does not set
 * rcl_last).  Out of line for the same reason as goodness.c's new_epoch. */
static __attribute__((noinline)) void new_epoch(int cpu)
{
    sched_trace_event(cpu, "recalc", recalculations + 1);
    ++rcl_curr;
    int walked = 0;
    struct list_head *pos;
    list_for_each(pos, &runqueue_head) {
        struct task *p = task_of(pos);
        struct dyn_task *d = dt(p);
        d->time_slice = task_timeslice(p);
        if (recalc_rcl_last)
            d->rcl_last = rcl_curr;
        walked++;
    }
    recalculations++;
    sched_trace_event(cpu, "recalc_tasks", walked);     /* what 2.4.18 would have walked: every task */
    sched_trace_event(cpu, "recalc_end", recalculations);
}

/* An RR task whose slice ran out gets TASK_TIMESLICE. */
static bool rr_slice_used(struct task *p)
{
    struct dyn_task *d = dt(p);
    if (d->time_slice != 0)
        return false;
    d->time_slice = task_timeslice(p);
    return true;
}

/* expire_task, once per 10 ms of kernel ticks (kernel/timer.c called it for
 * every task but the idle ones); without runqueue_lock as in 2.4. */
static void dyn_tick(int cpu, struct task *curr)
{
    for (int due = linux24_ticks_due(&subtick[cpu]); due > 0; due--) {
        if (curr->is_idle)
            continue;
        struct dyn_task *d = dt(curr);
        if (d->time_slice == 0) {
            sched_resched_cpu(cpu);
        } else if (--d->time_slice == 0) {
            if (d->dyn_prio > 0)
                d->dyn_prio--;
            sched_resched_cpu(cpu);
        }
    }
}

/* sys_sched_yield: -aa rolls the task over (2.4.18's yield); Davide's threw
 * the slice away and raised dyn_prio, and left the task where it was. */
static void dyn_yield(int cpu, struct task *curr)
{
    if (!linux24_yield(cpu, curr))
        return;
    if (yield_rollover) {
        linux24_move_last(curr);
        return;
    }
    struct dyn_task *d = dt(curr);
    d->time_slice = 0;
    d->dyn_prio++;
}

/* exit: the child's remaining slice goes back to its parent, capped at MAX_TSLICE. */
static void dyn_task_exit(struct task *p)
{
    struct task *parent = p->parent;
    if (!parent || parent->is_idle)
        return;
    unsigned long flags;
    int cpu = sched_task_rq_lock_irqsave(parent, &flags);
    if (parent->state != TASK_DEAD) {
        struct dyn_task *pd = dt(parent);
        int t = pd->time_slice + dt(p)->time_slice;
        pd->time_slice = t > (int)max_tslice ? (int)max_tslice : t;
    }
    sched_rq_unlock_irqrestore(cpu, flags);
}

static const struct sched_tunable dyn_tunables[] = {
    { "proc_change_penalty", "count", 15, 0, 1000, 0, &linux24.proc_change_penalty,
      "PROC_CHANGE_PENALTY: goodness bonus on the CPU a task last ran on" },
    { "def_tslice", "ticks", 5 * LINUX24_HZ / 100, 1, 1000, 0, &def_tslice,
      "DEF_TSLICE: the slice of a task without a parent, in 2.4 ticks" },
    { "max_tslice", "ticks", 20 * LINUX24_HZ / 100, 1, 1000, 0, &max_tslice,
      "MAX_TSLICE: cap of a parent's slice when an exiting child gives its own back, in 2.4 ticks" },
    { "max_dynprio", "count", 0, 0, 1000, 0, &max_dynprio,
      "cap of dyn_prio (a guess at -aa's): 0 = 2 x NICE_TO_TICKS(nice), Davide's MAX_DYNPRIO 40" },
    { "legacy_nice_tslice", "bool", 1, 0, 1, 0, &legacy_nice_tslice,
      "slices by nice (a guess at -aa's): 1 2.4's NICE_TO_TICKS, 0 Davide's 10..90 ms table" },
    { "recalc_rcl_last", "bool", 0, 0, 1, 0, &recalc_rcl_last,
      "the recalculation sets rcl_last: 0 as -aa's loop (SuSE 2.4.18), 1 as Davide's" },
    { "yield_rollover", "bool", 1, 0, 1, 0, &yield_rollover,
      "sched_yield rolls the task over (-aa); 0 Davide's: slice thrown away, dyn_prio + 1" },
};

static const struct sched_preset dyn_presets[] = {
    { "aa", "max_dynprio=0 legacy_nice_tslice=1 recalc_rcl_last=0 yield_rollover=1" },
    { "davide", "max_dynprio=40 legacy_nice_tslice=0 recalc_rcl_last=1 yield_rollover=0" },
};

/* What the scan and Davide's goodness() read of each task.  His patch
 * (include/linux/sched.h) put dyn_prio where 2.4.18 had counter, in the
 * goodness line at offset 32 ("We keep all fields in a single cacheline
 * that are needed for the goodness() loop in schedule()"), and time_slice
 * where 2.4.18 had sleep_time, after run_list: offset 68, past the line
 * ("only the 'next' pointer fits into the cacheline").  So dyn-sched's
 * goodness() read two lines a task where 2.4.18's read one; line 1 is the
 * second (kernel/sched_class.h). */
static const struct sched_scan_bytes dyn_scan_bytes[] = {
    { offsetof(struct dyn_task, rq.run_list.next), sizeof(void *), 0 },
    { offsetof(struct dyn_task, rq.processor), sizeof(int), 0 },
    { offsetof(struct dyn_task, rq.yielded), sizeof(bool), 0 },
    { offsetof(struct dyn_task, dyn_prio), sizeof(int), 0 },
    { offsetof(struct dyn_task, time_slice), sizeof(int), 1 },
    { 0, 0, 0 },
};

const struct sched_class scheduler = {
    .name = "dynsched",
    .tunables = dyn_tunables,
    .ntunables = ARRAY_SIZE(dyn_tunables),
    .presets = dyn_presets,
    .npresets = ARRAY_SIZE(dyn_presets),
    /* one runqueue_lock; 2.4's tick never took it; 2.4's task layout */
    .flags = SCHED_SHARED_RUNQUEUE | SCHED_TICK_UNLOCKED | SCHED_LAYOUT_LINUX24,
    .init = dyn_init,
    .task_fork = dyn_task_fork,
    .select_cpu = linux24_select_cpu,
    .enqueue = linux24_enqueue,
    .dequeue = linux24_dequeue,
    .pick_next = linux24_pick_next,
    .tick = dyn_tick,
    .yield = dyn_yield,
    .set_affinity = linux24_set_affinity,
    .task_exit = dyn_task_exit,
    .scan_bytes = dyn_scan_bytes,
};
