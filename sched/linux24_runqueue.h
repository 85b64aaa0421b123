/*
 * sched/linux24_runqueue.h - Linux 2.4's one run queue, as the two
 * schedulers that kept it share it here: sched/goodness.c (stock 2.4.18)
 * and sched/dynsched.c (-aa's dyn-sched, Davide Libenzi's "2.5.2 scheduler
 * code for 2.4.18-pre1").  Davide's patch changed what goodness() adds up,
 * the recalculation and the tick; it left everything below as 2.4.18 had
 * it (kernel/sched.c: runqueue_head under runqueue_lock, schedule()'s scan,
 * reschedule_idle(), try_to_wake_up()'s sync rule, __schedule_tail,
 * sys_sched_yield), so it is written once.  What each of those rules is
 * and why is in sched/goodness.c's header.
 *
 * The including file defines, before it:
 *   - its per-task struct, whose FIRST member is struct linux24_rq_task
 *     (sched/linux24.h), and static struct linux24_rq_task *l24(struct task *p);
 *   - static int goodness(struct task *p, int cpu, int this_mm): 2.4's
 *     goodness(p, this_cpu, this_mm) by its own rule (0 when the task's
 *     time is used up, which may start a recalculation);
 *   - static void new_epoch(int cpu): the recalculation, runqueue_lock
 *     held on entry and on return;
 *   - static bool rr_slice_used(struct task *p): an RR task whose slice ran
 *     out gets a new one (true: it goes behind the others);
 *   - static void on_add_to_runqueue(struct task *p, int flags): what its
 *     add_to_runqueue() does besides the list_add (dyn-sched's sleep bonus).
 * and includes sched/linux24.h.
 */
#ifndef SCHED_LINUX24_RUNQUEUE_H
#define SCHED_LINUX24_RUNQUEUE_H

/* runqueue_lock is the core's shared run-queue lock (SCHED_SHARED_RUNQUEUE). */
static struct list_head runqueue_head;
static int subtick[MAX_CPUS];                   /* kernel ticks, in units of LINUX24_HZ, since the last 2.4 tick */
static int active_mm[MAX_CPUS];                 /* mm of the last task this CPU ran (2.4 active_mm) */
static volatile unsigned long recalculations;   /* epochs ended, for tests and curiosity */

static struct task *task_of(struct list_head *node)
{
    return sched_task_of(node, offsetof(struct linux24_rq_task, run_list));
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
 * kept (docs/notebook/2026-12-01-stress-long-runs-and-fuzzing.md: "goodness strands a runnable task").
 */
static bool cpu_idle_now(int cpu, int self, struct task *self_next)
{
    if (cpu == self)
        return self_next == NULL || self_next->is_idle;
    return sched_cpu_is_idle(cpu);
}

static void reschedule_idle(struct task *p, int self, struct task *self_next)
{
    int last = l24(p)->processor;
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

/* The run queue's part of init(). */
static void linux24_rq_init(void)
{
    list_init(&runqueue_head);
    recalculations = 0;
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        subtick[cpu] = 0;
        active_mm[cpu] = -1;
    }
}

/* The run queue's part of task_fork(): not queued, last ran on the parent's CPU. */
static void linux24_rq_fork(struct task *child)
{
    struct linux24_rq_task *c = l24(child);
    list_init(&c->run_list);
    c->queued = false;
    c->yielded = false;
    c->waker_cpu = -1;
    c->processor = child->cpu;  /* the parent's CPU */
}

static int linux24_select_cpu(struct task *p, int waker_cpu, int flags)
{
    l24(p)->waker_cpu = waker_cpu;
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
static void linux24_enqueue(int cpu, struct task *p, int flags)
{
    struct linux24_rq_task *g = l24(p);
    on_add_to_runqueue(p, flags);
    list_add(&g->run_list, &runqueue_head);
    g->queued = true;
    int waker = g->waker_cpu >= 0 ? g->waker_cpu : sched_this_cpu();
    g->waker_cpu = -1;
    if (!(flags & ENQUEUE_SYNC) || !task_allowed_on(p, waker))
        reschedule_idle(p, -1, NULL);
}

static void linux24_dequeue(int cpu, struct task *p, int flags)
{
    struct linux24_rq_task *g = l24(p);
    list_del(&g->run_list);
    g->queued = false;
}

/* 2.4 can_schedule(p, cpu): allowed here and not running on another CPU. */
static bool can_schedule(struct task *p, int cpu, struct task *prev)
{
    return task_allowed_on(p, cpu) && (p == prev || !sched_task_running(p));
}

/*
 * The scan's cache misses are the memory model's (CACHES=1, docs/caches.md):
 * 2.4 kept every field goodness() reads in one 32-byte line at offset 32 of
 * the task_struct (include/linux/sched.h, "We keep all fields in a single
 * cacheline that are needed for the goodness() loop"), at the base of an
 * 8 KB-aligned task_union, so an L2 of S bytes holds at most S / 8 KB of
 * those lines; a scan over more tasks misses on every task (Shuji Yamamura,
 * LKML 29 Nov 2001: 96.9% of the scan's L2 reads missed, 4 CPUs of an 8-way
 * PIII Xeon, 1 MB L2).  SCHED_LAYOUT_LINUX24 and each scheduler's
 * scan_bytes give the model that layout; seed003's tbench collapse at 192
 * clients comes from it (docs/notebook/2026-12-07-seed003-with-the-machine.md),
 * where it once needed the fitted -DGOODNESS_SCAN_NS/-DGOODNESS_SCAN_FIT.
 */
/* 2.4 schedule(), from taking runqueue_lock to choosing next, plus __schedule_tail's part. */
static struct task *linux24_pick_next(int cpu, struct task *prev)
{
    struct linux24_rq_task *pg = prev->is_idle ? NULL : l24(prev);

    /* An RR task whose slice ran out gets a new one and goes behind the others. */
    if (pg && prev->policy == SCHED_RR && rr_slice_used(prev)) {
        if (pg->queued)
            list_move_tail(&pg->run_list, &runqueue_head);
    }
    int this_mm = prev->is_idle ? active_mm[cpu] : prev->mm;

    struct task *next;
    for (;;) {
        next = NULL;
        int c = GOODNESS_IDLE;
        struct list_head *pos;
        list_for_each(pos, &runqueue_head) {
            struct task *p = task_of(pos);
            if (!can_schedule(p, cpu, prev))
                continue;
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
        l24(next)->processor = cpu;
        active_mm[cpu] = next->mm;      /* next->cpu may be another CPU: the core moves it here */
    }
    return next;
}

/* 2.4 sys_sched_yield: false when nobody waits (the caller does nothing then). */
static bool linux24_yield(int cpu, struct task *curr)
{
    int pending = nr_running();
    for (int i = 0; i < sched_nr_cpus(); i++)
        if (!sched_cpu_is_idle(i))
            pending--;
    if (pending <= 0)
        return false;           /* nobody waits: keep running (the core's schedule() re-picks us) */
    struct linux24_rq_task *g = l24(curr);
    if (is_other(curr))
        g->yielded = true;
    sched_resched_cpu(cpu);
    return true;
}

/* move_last_runqueue: a yielder goes behind the others. */
static void linux24_move_last(struct task *p)
{
    struct linux24_rq_task *g = l24(p);
    if (g->queued)
        list_move_tail(&g->run_list, &runqueue_head);
}

/* 2.4 had no sched_setaffinity: honour the mask and let an allowed idle CPU take a waiting task. */
static void linux24_set_affinity(int cpu, struct task *p, cpumask_t mask)
{
    if (l24(p)->queued && !sched_task_running(p))
        reschedule_idle(p, -1, NULL);
}

#endif
