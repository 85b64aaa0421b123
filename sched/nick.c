/*
 * sched/nick.c - SCHED=nick: Nick Piggin's "scheduler policy" patch for
 * Linux 2.6.0-test, version 8 (the default, sched.preset=v8) and version
 * 13b (sched.preset=v13b, the latest whose code was found), on the 2.6.0
 * O(1) structures.
 *
 * Source: "[PATCH] Nick's scheduler policy v8", Nick Piggin, linux-kernel,
 * Thu, 28 Aug 2003 18:49:12 +1000, Message-ID
 * <3F4DC208.8050606@cyberone.com.au>, attachment sched-policy-8 ("Against
 * 0-test4"): kernel/sched.c (add_task_time, task_timeslice, task_priority,
 * activate_task, deactivate_task, try_to_wake_up, sched_fork,
 * wake_up_forked_process, sched_exit, pull_task, can_migrate_task,
 * scheduler_tick, schedule, set_user_nice), include/linux/sched.h,
 * kernel/fork.c.  And "[PATCH] Nick's scheduler policy v13", Mon, 8 Sep
 * 2003 03:13 +1000, <3F5B6727.2010201@cyberone.com.au>, attachment
 * sched-policy-13b (the same functions), modelled as the variant v13b (see
 * below).  The announcements of v10 (31 Aug),
 * v12 (5 Sep), v14 (8 Sep, "I'm
 * starting to attack SMP and NUMA balancing") and v15 (Fri, 12 Sep 2003,
 * <3F608807.9090705@cyberone.com.au>, "fixed a bug that might be causing a
 * few people oopses. Also very small interactivity tweaks") point to
 * http://www.kerneltrap.org/~npiggin/vNN/, which is not in any archive
 * searched, and so do v16 (Oct 2003), v17 (24 Oct 2003, SMP/NUMA
 * balancing) and v18 (about 11 Nov 2003, against 2.6.0-test9: "High end
 * performance is now starting to get better"), the latest before the seed's
 * thread (000, OSDL's 2.6.0-test9 hackbench thread, Nov 2003), which does
 * not say which version Nick ran.  docs/sched-nick.md lists what is known.
 *
 * The runqueue, the active/expired prio_arrays with their bitmaps, the
 * wake-up CPU choice and the load balancer are 2.6.0's, shared with
 * sched/o1.c (sched/o1_common.h); v8 changes only the policy:
 *
 * Sleep accounting (replaces sleep_avg and the interactivity estimator)
 *   Each task keeps total_time and sleep_time, decaying over MAX_SLEEP
 *   (HZ jiffies = 1 s): add_task_time(p, t, sleep) multiplies both by
 *   (MAX_SLEEP - t) / MAX_SLEEP (rounded), adds 1000 t to total_time (and to
 *   sleep_time if it was sleep), and sets sleep_avg = 1000 sleep_time /
 *   total_time, in 0..1000; t >= MAX_SLEEP resets both first.  schedule()
 *   charges prev's run time (jiffies since its timestamp) as not-sleep; a
 *   wake-up charges the sleep (capped at MAX_SLEEP): from a task, half to
 *   the wakee and half to the waker ("boost"), from an interrupt all of it
 *   plus half again to the wakee.
 * Priority (task_priority): nice is compressed into 20 levels and the bonus
 *   covers the other 20: prio = 100 + USER_PRIO(static_prio) / 2 + 20 -
 *   40 x sleep_avg / 1000 / 2, clamped to 100..139 (a nice-0 hog sits at
 *   130, a nice-0 task that always sleeps at 110).  Recomputed at wake-up
 *   and when a slice ends.
 * Timeslice (task_timeslice), computed at every tick from the queue state:
 *   idx = the best normal priority queued on the CPU (active or expired,
 *   this task included), delta = prio - idx,
 *     slice = MIN_TIMESLICE x 41 / (delta + 2) x (USER_PRIO(idx) + 8) / 8
 *   ticks (integer steps as written): the best queued task gets the longest
 *   slice, and slices shrink with the gap to the best; a lone nice-0 hog
 *   gets 20 x 38 / 8 = 95 ms, with a nice-10 hog beside it 5 x 38 / 8 =
 *   23 ms for that one.  RT tasks: MAX_TIMESLICE = 40 ticks.  The task
 *   counts used_slice up; at used_slice >= slice it goes to the expired
 *   array with a new priority.  No TASK_INTERACTIVE reinsertion, no
 *   EXPIRED_STARVING: every expiry goes to the expired array.
 * array_sequence: the runqueue counts its array switches; a task woken on a
 *   runqueue whose arrays have switched since it slept starts a fresh slice
 *   (used_slice = 0), otherwise it keeps what it had used.
 * Wake-up (activate_task, try_to_wake_up): after the accounting above, a
 *   task woken by a task gives up min(sleep / 2, (slice - used) / 2) ticks of
 *   its slice to the waker (p->used_slice += steal, current->used_slice -=
 *   steal, unsigned as in the patch).  Every wake-up recalculates priority
 *   (no sync shortcut); a non-sync wake-up preempts when
 *   TASK_PREEMPTS_CURR: better prio, or equal prio and better static_prio.
 * Fork (sched_fork, wake_up_forked_process): the child gets used_slice =
 *   parent's + half of what the parent had left, the parent uses up the
 *   other half (rounded up); a parent left with nothing gets ts - 1 and a
 *   forced tick.  The child gets a tenth of the parent's total_time and a
 *   tenth of its sleep_time plus a twentieth of its run time; the parent
 *   keeps 3/4 of its sleep_time.  The child is queued at the tail of its
 *   priority (no longer in front of the parent), and the parent is asked to
 *   reschedule (do_fork).
 * Exit (sched_exit): a child still in its first slice returns what it did
 *   not use to the parent; a child with a lower sleep_avg than the parent
 *   charges the parent (parent sleep_avg - child's) / 2 as run time.
 * Balancing: 2.6.0's load balancer with v8's can_migrate_task: a task
 *   that ran within cache_decay_ticks is left alone by an idle CPU
 *   (v8 keeps 2.6.0-test4's sense of the test; 2.6.0, sched/o1.c, leaves it
 *   alone on a busy CPU), and pull_task preempts by TASK_PREEMPTS_CURR.
 *
 * v13b (sched.preset=v13b, tunable version=13) changes, from its diff:
 *   60 normal levels (MAX_PRIO = 160, NICE_TO_PRIO = 100 + nice + 30);
 *   task_priority = 100 + USER_PRIO(static) + 10 - round(20 x sleep_avg /
 *   1024) (nice-0 hog 140, nice-0 sleeper 120); history in SLEEP_FACTOR =
 *   1024 units with each event capped (sleep and run HZ/4, runqueue wait
 *   HZ/16: STIME_WAIT, charged when the task is switched in, only decays the
 *   history) and at least MIN_HISTORY = HZ/2 kept; task_timeslice divides
 *   by 24 (a lone nice-0 hog 30 x 48/24 = 60 ms, a nice-10 hog beside it
 *   10 ms), MAX_TIMESLICE 60; a wake-up charges the whole sleep to the
 *   wakee and moves no slice; TASK_PREEMPTS_CURR compares prio only; a child
 *   gets a quarter of the parent's history; sched_exit charges MAX_SLEEP x
 *   the sleep_avg difference / 1024 / 2 as run time; can_migrate_task
 *   leaves cache-hot tasks alone on a busy CPU (2.6.0's sense).
 *
 * Tunables (sched.<name>=; the patch's constants)
 *   min_timeslice 1 tick (MIN_TIMESLICE; MAX_TIMESLICE = 40 x it),
 *   max_sleep 1000 ms (MAX_SLEEP = HZ), cache_decay_ticks 2 (2.6.0 i386
 *   smp_tune_scheduling for a 512 KiB cache, as sched/o1.c), idle_rebalance_
 *   tick 1 ms, busy_rebalance_tick 200 ms, version 8 (or 13: presets v8,
 *   v13b).
 *
 * Deviations (docs/sched-nick.md)
 *   - v8 and v13b, not v18 (the latest before the seed, not found), nor
 *     whatever Nick ran in November 2003; v17/v18's SMP/NUMA balancing is
 *     absent.
 *   - find_busiest_queue / load_balance are 2.6.0's (sched/o1_common.h):
 *     imbalance = max - ours, halved in load_balance, a 25% threshold, the
 *     recheck "busiest <= ours".  v8 ran on 2.6.0-test4's, which halved in
 *     find_busiest_queue, required imbalance >= (max + 3) / 4 and rechecked
 *     "busiest <= ours + 1" (v13b's diff shows the change to 2.6.0's form);
 *     for v8 that is a deviation, not measured.
 *   - The arrays have 160 levels for both variants; v8 uses 100..139.
 *   - Every task counts as a user task (current->mm != NULL) except the idle
 *     task; a wake-up by the idle context or from an interrupt takes the
 *     else branch of activate_task.  An affinity move (the core's
 *     DEQUEUE_MIGRATE / ENQUEUE_MIGRATE, 2.6.0's migration thread, a kernel
 *     thread) is accounted as a wake-up by a kernel thread, as there.
 *   - The waker's used_slice and sleep accounting are updated under the
 *     wakee's runqueue lock only, as the patch does (current is the waker
 *     and runs on this CPU with interrupts off).
 *   - sched_exit runs when the child exits, not when it is reaped.
 *   - A child created with another nice level or policy gets its own.
 */
#include "sched.h"

/* Arrays for v13b's 60 normal levels; v8 uses 100..139 of them. */
#define L26_NORMAL_PRIOS 60
#define O1_COMMON_PRIO
#include "o1_common.h"       /* priorities and time (shared with sched/o1.c) */

/* ---- tunables ---- */

static struct {
    uint32_t min_timeslice;       /* ticks */
    uint32_t max_sleep;           /* ms */
    uint32_t cache_decay_ticks;   /* ms (ticks at HZ 1000) */
    uint32_t idle_rebalance_tick; /* ms */
    uint32_t busy_rebalance_tick; /* ms */
    uint32_t version;             /* 8 or 13: the patch version's formulas */
} tun = { 1, 1000, 2, 1, 200, 8 };

static struct {
    uint32_t max_sleep;           /* jiffies */
    int idle_rebalance_tick, busy_rebalance_tick;
    uint64_t cache_decay_jiffies;
    bool v13;                     /* v13b's formulas */
    int nice_offset;              /* NICE_TO_PRIO: 100 + nice + 20 (v8) or + 30 (v13b) */
    int max_prio;                 /* 140 (v8) or 160 (v13b) */
    uint32_t max_user_prio;       /* 40 or 60 */
    uint32_t ts_divisor;          /* task_timeslice's last divisor: 8 or 24 */
    uint32_t factor;              /* sleep_avg scale: 1000 (v8) or SLEEP_FACTOR 1024 (v13b) */
} k;

#define MIN_TIMESLICE (tun.min_timeslice)
#define MAX_TIMESLICE (k.max_user_prio * MIN_TIMESLICE)   /* 40 (v8), 60 (v13b) */
#define NICK_NICE_TO_PRIO(nice) (MAX_RT_PRIO + (nice) + k.nice_offset)
#define NICK_TASK_NICE(t) ((t)->static_prio - MAX_RT_PRIO - k.nice_offset)
/* v13b: the most one block of activity counts, and the least history kept. */
#define MAX_SLEEP_AFFECT (MAX_SLEEP / 4)
#define MAX_RUN_AFFECT (MAX_SLEEP / 4)
#define MAX_WAIT_AFFECT (MAX_RUN_AFFECT / 4)
#define MIN_HISTORY (MAX_SLEEP / 2)
enum { STIME_SLEEP = 1, STIME_RUN = 2, STIME_WAIT = 3 };
#define MAX_SLEEP (k.max_sleep)
#define IDLE_REBALANCE_TICK (k.idle_rebalance_tick)
#define BUSY_REBALANCE_TICK (k.busy_rebalance_tick)

static int ms_to_jiffies(uint32_t ms)
{
    uint64_t j = (uint64_t)ms * HZ / 1000;
    return j ? (int)j : 1;
}

/* ---- per-task state ---- */

struct prio_array;

struct nick_task {
    struct list_head run_list;
    struct prio_array *array;
    uint64_t timestamp;           /* jiffies: last switch in/out or activation */
    uint64_t array_sequence;      /* the runqueue's when it was last deactivated */
    uint32_t total_time, sleep_time, sleep_avg;   /* unsigned long on i386 */
    uint32_t used_slice;          /* ticks of the current slice used (unsigned int) */
    int first_time_slice;
    int prio, static_prio;
    int waker_cpu;
};

static struct nick_task *nk(struct task *p) { return SCHED_TASK(p, struct nick_task); }
static struct task *task_of(struct list_head *node) { return sched_task_of(node, offsetof(struct nick_task, run_list)); }

#define L26_TASK nick_task
#define L26(p) nk(p)
#define L26_NAME "nick"
#define O1_COMMON_ARRAYS
#include "o1_common.h"       /* runqueues, prio_arrays, bitmaps (shared with sched/o1.c) */

/* ---- the policy ---- */

/* add_task_time: v8 (sleep or run, 1000 units) or v13b (sleep, run or wait,
 * each capped, SLEEP_FACTOR 1024 units, at least MIN_HISTORY kept). */
static void add_task_time(struct nick_task *t, uint32_t time, int type)
{
    if (time == 0)
        return;
    if (!k.v13) {
        if (time > MAX_SLEEP) {
            time = MAX_SLEEP;
            t->total_time = 0;
            t->sleep_time = 0;
        } else {
            uint32_t r = MAX_SLEEP - time;
            t->total_time = (r * t->total_time + MAX_SLEEP / 2) / MAX_SLEEP;
            t->sleep_time = (r * t->sleep_time + MAX_SLEEP / 2) / MAX_SLEEP;
        }
        t->total_time += 1000 * time;
        if (type == STIME_SLEEP)
            t->sleep_time += 1000 * time;
        t->sleep_avg = (1000 * t->sleep_time) / t->total_time;
        return;
    }
    uint32_t max_affect = type == STIME_SLEEP ? MAX_SLEEP_AFFECT : type == STIME_RUN ? MAX_RUN_AFFECT : MAX_WAIT_AFFECT;
    if (time > max_affect)
        time = max_affect;
    uint32_t r = MAX_SLEEP - time;
    t->total_time = (r * t->total_time + MAX_SLEEP / 2) / MAX_SLEEP;
    t->sleep_time = (r * t->sleep_time + MAX_SLEEP / 2) / MAX_SLEEP;
    if (type != STIME_WAIT) {
        t->total_time += k.factor * time;
        if (type == STIME_SLEEP)
            t->sleep_time += k.factor * time;
        t->sleep_avg = (k.factor * t->sleep_time) / t->total_time;
    }
    if (t->total_time < k.factor * MIN_HISTORY) {
        t->total_time = k.factor * MIN_HISTORY;
        t->sleep_time = t->total_time * t->sleep_avg / k.factor;
    }
}

static int min_int(int a, int b) { return a < b ? a : b; }

static uint32_t task_timeslice(const struct nick_task *t, struct runqueue *rq)
{
    if (rt_prio(t->prio))
        return MAX_TIMESLICE;
    int idx = min_int(find_next_bit(rq->active->bitmap, k.max_prio, MAX_RT_PRIO),
                      find_next_bit(rq->expired->bitmap, k.max_prio, MAX_RT_PRIO));
    idx = min_int(idx, t->prio);
    int delta = t->prio - idx;
    uint32_t base = MIN_TIMESLICE * (k.max_user_prio + 1) / (uint32_t)(delta + 2);
    uint32_t timeslice = base * (uint32_t)(USER_PRIO(idx) + 8) / k.ts_divisor;
    return timeslice ? timeslice : 1;
}

static int task_priority(const struct nick_task *t)
{
    if (rt_prio(t->prio))
        return t->prio;
    int bonus, prio;
    if (k.v13) {
        bonus = (int)(((k.max_user_prio / 3) * t->sleep_avg + k.factor / 2) / k.factor);
        prio = USER_PRIO(t->static_prio) + 10;
    } else {
        bonus = (int)((k.max_user_prio * t->sleep_avg) / 1000 / 2);
        prio = USER_PRIO(t->static_prio) / 2 + (int)(k.max_user_prio / 2);
    }
    prio = MAX_RT_PRIO + prio - bonus;
    if (prio < MAX_RT_PRIO)
        prio = MAX_RT_PRIO;
    if (prio > k.max_prio - 1)
        prio = k.max_prio - 1;
    return prio;
}

/* TASK_PREEMPTS_CURR(p, rq): the idle task has prio MAX_PRIO; v13b compares prio only. */
static bool task_preempts_curr(const struct nick_task *t, int cpu)
{
    struct task *curr = sched_cpu_curr(cpu);
    if (curr->is_idle)
        return true;
    const struct nick_task *c = nk(curr);
    if (k.v13)
        return t->prio < c->prio;
    return t->prio < c->prio || (t->prio == c->prio && t->static_prio < c->static_prio);
}

static void __activate_task(struct task *p, struct runqueue *rq) { enqueue_task(p, rq->active); }

/* activate_task: waker is current on the waking CPU (NULL: none with an mm). */
static void activate_task(struct task *p, struct runqueue *rq, bool in_interrupt, struct task *waker)
{
    struct nick_task *t = nk(p);
    uint64_t now = sched_jiffies();
    uint64_t s = now > t->timestamp ? now - t->timestamp : 0;
    t->timestamp = now;
    if (k.v13) {
        /* v13b: the sleep counts for the wakee alone (add_task_time caps it). */
        add_task_time(t, s > 0xffffffffull ? 0xffffffffu : (uint32_t)s, STIME_SLEEP);
        t->prio = task_priority(t);
        if (rq->array_sequence != t->array_sequence)
            t->used_slice = 0;
        __activate_task(p, rq);
        return;
    }
    uint32_t sleep = s > MAX_SLEEP ? MAX_SLEEP : (uint32_t)s;
    bool from_task = !in_interrupt && waker && !waker->is_idle && waker != p;
    if (from_task) {
        uint32_t boost = sleep / 2;
        add_task_time(nk(waker), boost, STIME_SLEEP);
        add_task_time(t, sleep - boost, STIME_SLEEP);
    } else {
        add_task_time(t, sleep, STIME_SLEEP);
        if (in_interrupt)
            add_task_time(t, sleep / 2, STIME_SLEEP);
    }
    t->prio = task_priority(t);
    if (rq->array_sequence != t->array_sequence)
        t->used_slice = 0;
    if (from_task) {
        uint32_t left = (task_timeslice(t, rq) - t->used_slice) / 2;   /* unsigned, as written */
        uint32_t steal = sleep / 2 < left ? sleep / 2 : left;
        t->used_slice += steal;
        nk(waker)->used_slice -= steal;
    }
    __activate_task(p, rq);
}

static void deactivate_task(struct task *p, struct runqueue *rq)
{
    struct nick_task *t = nk(p);
    t->array_sequence = rq->array_sequence;
    if (!t->array)
        sched_bug("nick: dequeue of %s (pid %d), which is not queued", p->name, p->pid);
    dequeue_task(p, t->array);
}

/* ---- balancing (2.6.0's, sched/o1_common.h) with v8's two changes ---- */

/* v8 leaves a cache-hot task alone when this CPU is idle (2.6.0-test4's
 * sense), v13b when it is busy (2.6.0's). */
#define L26_CACHE_HOT(p, idle, now) \
    ((void)(now), (k.v13 ? !(idle) : (idle)) && sched_jiffies() - nk(p)->timestamp <= k.cache_decay_jiffies)
#define L26_PREEMPTS_CURR(p, cpu) task_preempts_curr(nk(p), (cpu))
#define O1_COMMON_BALANCE
#include "o1_common.h"       /* wake-up CPU choice and load balancing (shared with sched/o1.c) */

/* ---- hooks ---- */

static void nick_init(int ncpus)
{
    (void)ncpus;
    k.max_sleep = (uint32_t)ms_to_jiffies(tun.max_sleep);
    k.idle_rebalance_tick = ms_to_jiffies(tun.idle_rebalance_tick);
    k.busy_rebalance_tick = ms_to_jiffies(tun.busy_rebalance_tick);
    k.cache_decay_jiffies = (uint64_t)tun.cache_decay_ticks * HZ / 1000;
    k.v13 = tun.version == 13;
    k.nice_offset = k.v13 ? 30 : 20;
    k.max_prio = MAX_RT_PRIO + (k.v13 ? 60 : 40);
    k.max_user_prio = k.v13 ? 60 : 40;
    k.ts_divisor = k.v13 ? 24 : 8;
    k.factor = k.v13 ? 1024 : 1000;
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        rq->nr_switches = 0;
        rq->expired_timestamp = 0;
        rq->array_sequence = 0;
        rq->last_tick_jiffies = 0;
        for (int i = 0; i < MAX_CPUS; i++)
            rq->prev_cpu_load[i] = 0;
        for (int a = 0; a < 2; a++) {
            struct prio_array *array = &rq->arrays[a];
            array->nr_active = 0;
            for (int w = 0; w < BITMAP_WORDS; w++)
                array->bitmap[w] = 0;
            for (int prio = 0; prio < MAX_PRIO; prio++)
                list_init(&array->queue[prio]);
            set_prio_bit(MAX_PRIO, array->bitmap);
        }
        rq->active = &rq->arrays[0];
        rq->expired = &rq->arrays[1];
    }
    sched_log("nick: Nick Piggin's scheduler policy %s, min_timeslice=%u max_sleep=%u jiffies",
              k.v13 ? "v13b (2.6.0-test4/5)" : "v8 (2.6.0-test4)", tun.min_timeslice, k.max_sleep);
}

/* scheduler_tick's slice accounting for curr (not idle), cpu's lock held. */
static void timeslice_tick(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    struct nick_task *t = nk(curr);
    if (t->array != rq->active) {
        sched_resched_cpu(cpu);
        return;
    }
    if (rt_prio(t->prio)) {
        if (curr->policy == SCHED_RR) {
            t->used_slice++;
            if (t->used_slice >= task_timeslice(t, rq)) {
                t->used_slice = 0;
                t->first_time_slice = 0;
                sched_resched_cpu(cpu);
                dequeue_task(curr, rq->active);
                enqueue_task(curr, rq->active);
            }
        }
        return;
    }
    t->used_slice++;
    if (t->used_slice >= task_timeslice(t, rq)) {
        dequeue_task(curr, rq->active);
        sched_resched_cpu(cpu);
        t->prio = task_priority(t);
        t->used_slice = 0;
        t->first_time_slice = 0;
        enqueue_task(curr, rq->expired);
    }
}

/* sched_fork (the slice split) and copy_process's copy of the parent's fields. */
static void nick_task_fork(struct task *parent, struct task *child)
{
    struct nick_task *c = nk(child);
    list_init(&c->run_list);
    c->array = NULL;
    c->static_prio = NICK_NICE_TO_PRIO(child->nice);
    c->prio = c->static_prio;
    c->timestamp = sched_jiffies();
    c->waker_cpu = child->cpu;
    c->first_time_slice = 1;
    if (parent && !parent->is_idle) {
        struct nick_task *pp = nk(parent);
        struct runqueue *rq = &runqueues[child->cpu];
        c->total_time = pp->total_time;
        c->sleep_time = pp->sleep_time;
        c->sleep_avg = pp->sleep_avg;
        c->array_sequence = pp->array_sequence;
        uint32_t ts = task_timeslice(pp, rq);
        c->used_slice = pp->used_slice + (ts - pp->used_slice) / 2;
        pp->used_slice += (ts - pp->used_slice + 1) / 2;
        if (pp->used_slice >= ts) {
            pp->used_slice = ts - 1;
            if (sched_cpu_curr(child->cpu) == parent)
                timeslice_tick(child->cpu, parent);
        }
    } else {
        c->total_time = c->sleep_time = c->sleep_avg = 0;
        c->array_sequence = 0;
        c->used_slice = 0;
        c->first_time_slice = 0;
    }
    if (task_is_rt(child))
        c->prio = MAX_USER_RT_PRIO - 1 - child->rt_priority;
    else
        c->prio = task_priority(c);
}

static void nick_enqueue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct nick_task *t = nk(p);
    if (flags & ENQUEUE_NEW) {
        /* wake_up_forked_process: the child inherits a little of the parent's history. */
        struct task *parent = p->parent;
        if (parent && !parent->is_idle && k.v13) {
            /* v13b: a quarter of the parent's history, at least MIN_HISTORY. */
            struct nick_task *pp = nk(parent);
            t->total_time = pp->total_time / 4;
            t->sleep_time = pp->sleep_time / 4;
            t->sleep_avg = pp->sleep_avg;
            if (t->total_time < k.factor * MIN_HISTORY) {
                t->total_time = k.factor * MIN_HISTORY;
                t->sleep_time = t->total_time * t->sleep_avg / k.factor;
            }
            pp->sleep_time = 3 * pp->sleep_time / 4;
            if (pp->total_time != 0)
                pp->sleep_avg = (k.factor * pp->sleep_time) / pp->total_time;
        } else if (parent && !parent->is_idle) {
            struct nick_task *pp = nk(parent);
            t->total_time = pp->total_time / 10;
            t->sleep_time = pp->sleep_time / 10 + (pp->total_time - pp->sleep_time) / 20;
            if (t->total_time != 0)
                t->sleep_avg = (1000 * t->sleep_time) / t->total_time;
            pp->sleep_time = 3 * pp->sleep_time / 4;
            if (pp->total_time != 0)
                pp->sleep_avg = (1000 * pp->sleep_time) / pp->total_time;
        }
        if (!task_is_rt(p))
            t->prio = task_priority(t);
        __activate_task(p, rq);
        if (parent && !parent->is_idle)
            sched_resched_cpu(t->waker_cpu);       /* do_fork: set_need_resched() */
        return;
    }
    struct task *waker = NULL;
    if (!(flags & ENQUEUE_MIGRATE))
        waker = sched_cpu_curr(sched_this_cpu());
    activate_task(p, rq, (flags & ENQUEUE_IRQ) != 0, waker);
    if (!(flags & ENQUEUE_SYNC) && task_preempts_curr(t, cpu)) {
        l26_thread_info_resched(cpu);
        sched_resched_cpu(cpu);
    }
}

static void nick_dequeue(int cpu, struct task *p, int flags) { deactivate_task(p, &runqueues[cpu]); }

static struct task *nick_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    uint64_t now = sched_jiffies();
    if (!prev->is_idle) {
        struct nick_task *pp = nk(prev);
        uint64_t run_time = now > pp->timestamp ? now - pp->timestamp : 0;
        add_task_time(pp, run_time > 0xffffffffull ? 0xffffffffu : (uint32_t)run_time, STIME_RUN);
    }
    struct task *next = NULL;
    for (;;) {
        if (nr_running(rq) == 0) {
            if (sched_nr_cpus() > 1) {
                load_balance(cpu, true, true);
                if (nr_running(rq))
                    continue;
            }
            break;
        }
        struct prio_array *array = rq->active;
        if (!array->nr_active) {
            rq->array_sequence++;
            rq->active = rq->expired;
            rq->expired = array;
            array = rq->active;
            sched_trace_event(cpu, "array_swap", array->nr_active);
        }
        int idx = sched_find_first_bit(array->bitmap);
        next = task_of(array->queue[idx].next);
        break;
    }
    if (!prev->is_idle)
        nk(prev)->timestamp = now;
    if (next && next != prev) {
        if (k.v13) {   /* v13b: the wait on the runqueue decays the history */
            uint64_t w = now > nk(next)->timestamp ? now - nk(next)->timestamp : 0;
            add_task_time(nk(next), w > 0xffffffffull ? 0xffffffffu : (uint32_t)w, STIME_WAIT);
        }
        nk(next)->timestamp = now;
        rq->nr_switches++;
    }
    l26_thread_info_switch(prev, next);
    return next;
}

static void nick_tick(int cpu, struct task *curr)
{
    if (curr->is_idle)
        return;
    timeslice_tick(cpu, curr);
}

/* set_user_nice as patched: the dynamic priority moves by the same delta. */
static void nick_set_nice(int cpu, struct task *p, int nice)
{
    struct nick_task *t = nk(p);
    if (NICK_TASK_NICE(t) == nice)
        return;
    if (rt_prio(t->prio)) {
        t->static_prio = NICK_NICE_TO_PRIO(nice);
        return;
    }
    struct prio_array *array = t->array;
    if (array)
        dequeue_task(p, array);
    int new_prio = NICK_NICE_TO_PRIO(nice);
    int delta = new_prio - t->prio;
    t->static_prio = new_prio;
    t->prio += delta;
    if (array) {
        enqueue_task(p, array);
        if (delta < 0 || (delta > 0 && sched_task_running(p)))
            sched_resched_cpu(cpu);
    }
}

/* sched_exit: the unused first slice back to the parent; a hog child charges it. */
static void nick_task_exit(struct task *p)
{
    struct task *parent = p->parent;
    if (!parent || parent->is_idle)
        return;
    struct nick_task *t = nk(p), *pp = nk(parent);
    unsigned long flags;
    int cpu = sched_task_rq_lock_irqsave(parent, &flags);
    if (t->first_time_slice)
        pp->used_slice -= task_timeslice(t, &runqueues[p->cpu]) - t->used_slice;
    if (t->sleep_avg < pp->sleep_avg) {
        if (k.v13)
            add_task_time(pp, MAX_SLEEP * (pp->sleep_avg - t->sleep_avg) / k.factor / 2, STIME_RUN);
        else
            add_task_time(pp, (pp->sleep_avg - t->sleep_avg) / 2, STIME_RUN);
    }
    sched_rq_unlock_irqrestore(cpu, flags);
}

static const struct sched_tunable nick_tunables[] = {
    { "min_timeslice", "ticks", 1, 1, 100, 0, &tun.min_timeslice,
      "MIN_TIMESLICE: the slice unit (MAX_TIMESLICE, the RT slice, is 40 x it)" },
    { "max_sleep", "ms", 1000, 10, 10000, 0, &tun.max_sleep,
      "MAX_SLEEP: the decay window of total_time and sleep_time (HZ)" },
    { "cache_decay_ticks", "ms", 2, 0, 1000, 0, &tun.cache_decay_ticks,
      "an idle CPU leaves tasks that ran this recently (2.6.0 i386, 512 KiB cache)" },
    { "idle_rebalance_tick", "ms", 1, 1, 1000, 0, &tun.idle_rebalance_tick,
      "IDLE_REBALANCE_TICK: balancing interval of an idle CPU" },
    { "busy_rebalance_tick", "ms", 200, 1, 10000, 0, &tun.busy_rebalance_tick,
      "BUSY_REBALANCE_TICK: balancing interval of a busy CPU" },
    { "version", "count", 8, 8, 13, 0, &tun.version,
      "the patch version whose formulas run: 8 (28 Aug 2003) or 13 (v13b, 8 Sep 2003)" },
};

static const char *nick_check_tunables(const char **bad)
{
    if (tun.version != 8 && tun.version != 13) {
        *bad = "version";
        return "version must be 8 or 13";
    }
    return NULL;
}

/* v8 is the default; v13b is the latest version whose code was found. */
static const struct sched_preset nick_presets[] = {
    { "v8", "version=8" },
    { "v13b", "version=13" },
};

/* Where 2.6.0's i386 task_struct had the fields the patch kept
 * (include/linux/sched.h; kernel/sched_class.h SCHED_LAYOUT_LINUX26).
 * Where the patch put its own (total_time, sleep_time, used_slice,
 * array_sequence) is not checked here: they stay where this kernel has
 * them.  waker_cpu as o1's. */
static const struct sched_task26_bytes nick_task26_bytes[] = {
    { offsetof(struct nick_task, prio), sizeof(int), 24 },
    { offsetof(struct nick_task, static_prio), sizeof(int), 28 },
    { offsetof(struct nick_task, run_list), sizeof(struct list_head), 32 },
    { offsetof(struct nick_task, array), sizeof(void *), 40 },
    { offsetof(struct nick_task, sleep_avg), sizeof(uint32_t), 44 },
    { offsetof(struct nick_task, timestamp), sizeof(uint64_t), 52 },
    { offsetof(struct nick_task, first_time_slice), sizeof(int), 76 },
    { offsetof(struct nick_task, waker_cpu), sizeof(int), 84 },
    { 0, 0, 0 },
};

const struct sched_class scheduler = {
    .name = "nick",
    .flags = SCHED_LAYOUT_LINUX26,
    .task26_bytes = nick_task26_bytes,
    .tunables = nick_tunables,
    .ntunables = ARRAY_SIZE(nick_tunables),
    .presets = nick_presets,
    .npresets = ARRAY_SIZE(nick_presets),
    .check_tunables = nick_check_tunables,
    .init = nick_init,
    .task_fork = nick_task_fork,
    .select_cpu = l26_select_cpu,
    .enqueue = nick_enqueue,
    .dequeue = nick_dequeue,
    .pick_next = nick_pick_next,
    .tick = nick_tick,
    .balance = l26_balance,
    .yield = l26_yield,
    .set_nice = nick_set_nice,
    .task_exit = nick_task_exit,
};
