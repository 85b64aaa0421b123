/*
 * sched/mq.c - the multi-queue ("MQ") scheduler of IBM's Linux Scalability
 * Effort: Linux 2.4's goodness() decisions without 2.4's global run-queue lock.
 *
 * Models the patch "[RFC][PATCH] Scalable Scheduling again" (Mike Kravetz,
 * lkml, 14 Nov 2001; the mail is his alone), a diff against Linux 2.4.14:
 * kernel/sched.c and include/linux/sched.h, plus kernel/timer.c (the
 * running task's curr_na_goodness follows its counter), kernel/fork.c and
 * fs/proc/proc_misc.c, arch/i386/kernel/apm.c (nr_running becomes a sum over
 * the queues), kernel/signal.c (locks the task's queue instead of
 * runqueue_lock) and arch/i386/kernel/smpboot.c.  The MQ work was described
 * earlier by H. Franke, M. Kravetz et al., "Enhancing Linux Scheduler
 * Scalability", Ottawa Linux Symposium 2001.
 *
 * Algorithm
 *   Every CPU has its own run queue with its own lock; real-time tasks
 *   (SCHED_FIFO/RR) live on ONE shared real-time queue with its own lock,
 *   which every CPU checks first.  The aim of MQ was to keep the GLOBAL
 *   decisions of the 2.4 scheduler: a CPU should run the task with the best
 *   2.4 goodness in the whole machine, not just in its own queue.  To make
 *   that possible without taking every lock, each queue PUBLISHES
 *     max_na_goodness   the best "non-affinity goodness" of a queued task
 *                       that is not running, with a pointer to that task and
 *                       a copy of its cpus_allowed,
 *   and each CPU publishes curr_na_goodness, the na_goodness of what it runs.
 *   na_goodness = counter + 20 - nice (0 when the counter is used up, -1 for
 *   a task that has just yielded, 1000 + rt_priority for real-time tasks):
 *   2.4's goodness() without the +PROC_CHANGE_PENALTY (same CPU) and +1
 *   (same mm) bonuses, which depend on who is asking.
 *
 *   schedule() (pick_next here) on CPU c:
 *     0. a prev that is still runnable is evaluated first, with the full
 *        2.4 goodness (na_goodness + PROC_CHANGE_PENALTY, its CPU, + 1, its
 *        mm): everything below must beat it strictly (the patch's
 *        still_running path, 2.4.14's);
 *     1. the real-time queue: its best task allowed on c wins if it beats
 *        that (a real-time prev keeps the CPU against equals);
 *     2. otherwise scan c's queue with the local goodness (na_goodness + 1
 *        for the same mm; no CPU bonus, prev not scanned again), keeping the
 *        best and the second best; the second best becomes the queue's
 *        published maximum (the best is about to run, so it cannot be
 *        stolen; a displaced prev is never the second best);
 *     3. add PROC_CHANGE_PENALTY to the best so far (when it is positive): a
 *        task from another queue must beat it by that much, as 2.4's
 *        goodness() favours the CPU a task last ran on (so a running prev
 *        counts its CPU bonus twice against remote tasks);
 *     4. read the other queues' published maxima WITHOUT their locks; for
 *        the highest one above our best that may run on c, spin_trylock that
 *        queue, check that the published task is still there and still
 *        better, and steal it into c's queue; if the trylock fails or the
 *        check does, try the next highest;
 *     5. if c would go idle and some trylock failed, scan the maxima again
 *        (bounded here, see Deviations);
 *     6. if the best goodness is 0 (every candidate has used its counter),
 *        run 2.4's recalculation: drop the lock and, for every task in the
 *        system (sleepers too), counter = counter/2 + NICE_TO_TICKS(nice);
 *        then choose again.  This loop is still global, as in 2.4.
 *   Stealing in schedule() IS the load balancing: MQ has no separate
 *   balancer and no idle balancing.  An idle CPU gets work only through
 *   reschedule_idle (a wake-up, or a preempted task looking for a CPU), so it
 *   may stay idle while another queue publishes a task it could run, until
 *   that CPU reschedules.  (The option sched.idle_balance=1, off by default
 *   and not in the patch, makes an idle CPU poll the published maxima on
 *   every tick and steal, as this model did until 2026-12.)
 *
 *   Wake-up (2.4's reschedule_idle as the patch rewrote it):
 *     1. if the task's home CPU (where it last ran) is idle, queue it there;
 *     2. otherwise score every allowed CPU: an idle one by how long it has
 *        been idle (the longest idle scores lowest), a busy one by its
 *        curr_na_goodness, + PROC_CHANGE_PENALTY if it is not the task's home;
 *     3. in rising score, while the score is below the task's na_goodness,
 *        take the first CPU that is idle or whose current task the woken one
 *        preempts (2.4 preemption_goodness > 0): queue the task there and
 *        reschedule that CPU;
 *     4. otherwise the task stays on its home queue without preempting.
 *   select_cpu() makes this choice from the published values, taking no lock;
 *   enqueue() then makes the preemption decision under the chosen queue's
 *   lock.  A sync wake-up (the waker is about to sleep, pipes) that may run
 *   on the waker's CPU is queued at home without any preemption, as 2.4's
 *   try_to_wake_up does (on the waker's CPU if home is idle, see below).
 *
 *   Everything else is Linux 2.4 (see sched/goodness.c and section 1 of the
 *   fact sheet): the tick decrements the running task's counter and asks for
 *   a reschedule at 0, and (the patch's kernel/timer.c hunk) republishes its
 *   curr_na_goodness, so wake-up placement sees a busy CPU as it is; fork splits the parent's counter with the child; an
 *   exiting task gives its counter back to its parent (2.4 release_task,
 *   capped at MAX_COUNTER); sched_yield sets the SCHED_YIELD bit (goodness
 *   -1 for one decision) and moves the task to the queue's tail; an RR task
 *   whose counter ran out gets a new one and goes to the tail of the
 *   real-time queue; nice just changes the numbers.  Woken tasks go to the
 *   HEAD of a queue and a strictly better goodness wins, so on ties the most
 *   recently queued task runs first.
 *
 * Time
 *   2.4 ran the tick at HZ = 100 and its constants (NICE_TO_TICKS, counter
 *   values) count those 10 ms ticks.  This kernel ticks at HZ (1000): each
 *   CPU counts its own ticks and every HZ/100-th one (the 10th at HZ=1000)
 *   is a 2.4 tick, which decrements the running task's counter.  So a nice-0
 *   task gets NICE_TO_TICKS(0) = 6 ticks = 60 ms, as on 2.4.
 *
 * Deviations from the patch (and why)
 *   - A preempted prev that loses is published when it is the best waiting
 *     task (the patch left it unpublished until __schedule_tail); the core
 *     keeps it marked running, and our queue locked, until it has switched
 *     out, so nobody can take it earlier.
 *   - When the published task leaves its queue the patch republished the
 *     FIRST schedulable task ("good enough"); we publish the best one.
 *   - select_cpu() takes no locks, so the patch's "trylock the target,
 *     re-check, else try the next CPU" becomes: choose from the published
 *     values, then re-check preemption under the chosen queue's lock (if the
 *     check fails there the task waits on that queue, from where others may
 *     steal it).  An idle CPU that has just been handed a task publishes that
 *     task's na_goodness as its curr_na_goodness, so a burst of wake-ups
 *     spreads over the idle CPUs instead of piling onto one that has not yet
 *     switched (the patch checked cpu_curr == idle_task, still true then).
 *   - A sync wake-up whose home CPU is idle is queued on the waker's CPU:
 *     MQ queued it at home without an IPI and the waker's CPU, going to
 *     sleep, stole it; our core always kicks an idle CPU it queues on.
 *   - 2.4's __schedule_tail called reschedule_idle(prev) for a preempted
 *     prev, which could move it to an idle CPU.  The core never hands us a
 *     task that is still switching out, so instead we publish prev (if it is
 *     the best waiting task) and kick the longest-idle CPU allowed for it,
 *     which then steals it.
 *   - The premature-idle rescan is bounded (sched.idle_rescans, 32); after
 *     that the CPU idles and goes on rescanning at its next tick (the only
 *     thing the balance hook does by default).  An unbounded rescan with
 *     interrupts off could spin for as long as a virtual CPU holding the
 *     lock is descheduled by the host.
 *   - Picking a real-time task that belongs to another CPU's lock domain
 *     moves it to this CPU under both locks (trylock, or drop ours and take
 *     both in address order), because the core locks a task through p->cpu;
 *     the patch marked it has_cpu under the real-time lock instead.
 *   - No UP special case: on one CPU the same code runs with nothing to steal.
 *
 * Tunables (sched.<name>=<value> at boot, kernel/sched_tunables.c; table
 * mq_tunables at the end of this file)
 *   proc_change_penalty  15     bonus for the CPU a task last ran on
 *   def_counter          10     counter of a task without a parent (2.4 ticks)
 *   max_counter          20     cap of a counter given back at exit
 *   idle_rescans         32     rescans before idling after failed trylocks
 *   idle_balance         0      1: an idle CPU polls the published maxima (not the patch)
 *   LINUX24_HZ (100, the tick rate the 2.4 constants count in) stays a
 *   compile-time constant: NICE_TO_TICKS is evaluated by the preprocessor.
 */
#include "sched.h"
#include "linux24.h"

#define MIN_GOODNESS (-1000)                              /* the patch: "none" / the idle task */
#define RT_GOODNESS_MIN 1000

/* Tunables (sched.<name>=, table at the end) besides linux24.h's. */
static struct {
    uint32_t idle_rescans;           /* premature-idle rescans before idling after failed trylocks */
    uint32_t idle_balance;           /* bool: an idle CPU polls the published maxima on its tick (not the patch) */
} mq_tun = { 32, 0 };
#define MQ_IDLE_RESCANS ((int)mq_tun.idle_rescans)

/* One CPU's run queue (the patch's runqueue_data).  Its lock, and its
 * nr_running (tasks whose p->cpu is this CPU, real-time ones too), are the
 * core's: sched_rq_lock(cpu), sched_nr_queued(cpu). */
struct runqueue {
    struct list_head tasks;          /* queued tasks, the running one included; woken ones at the head */
    /* Published for other CPUs, written under lock, read without it. */
    volatile int max_na_goodness;    /* best na_goodness of a waiting task, MIN_GOODNESS if none */
    struct task *volatile max_na_task;
    volatile cpumask_t max_na_cpus_allowed;
} __attribute__((aligned(64)));

/* Per-CPU scheduling data (the patch's aligned_data). */
struct cpu_sched_data {
    volatile int curr_na_goodness;   /* na_goodness of what runs, MIN_GOODNESS when idle */
    volatile int curr_mm;            /* its mm, for the racy preemption estimate */
    volatile int running_non_idle;
    int active_mm;                   /* mm of the last task that ran (2.4's lazy active_mm of idle) */
    int tick_fraction;               /* counts towards the next 2.4 tick, in units of 1/(100*HZ) s */
    bool rescan_pending;             /* the bounded premature-idle rescan gave up: go on at the next tick */
} __attribute__((aligned(64)));

struct mq_task {
    struct list_head run_list;       /* first: task_of() */
    int counter;                     /* 2.4 ticks left in this epoch */
    int wake_home;                   /* 2.4's p->processor when the wake-up was decided */
    bool yielded;                    /* 2.4's SCHED_YIELD bit */
    bool on_rt_queue;
    bool queued;
    bool no_preempt;                 /* sync wake-up: queue without preempting */
};

/* The one real-time queue, shared by every CPU, with its own lock (taken inside a run-queue lock). */
struct rt_runqueue {
    spinlock_t lock;
    struct list_head tasks;
    volatile int nr_running;
};

static struct runqueue runqueues[MAX_CPUS];
static struct rt_runqueue rt_queue;
static struct cpu_sched_data cpu_data[MAX_CPUS];

static struct mq_task *mq(const struct task *p) { return SCHED_TASK((struct task *)p, struct mq_task); }
static struct task *task_of(struct list_head *node) { return sched_task_of(node, offsetof(struct mq_task, run_list)); }

/* ---- goodness ---- */

/* The patch's na_goodness(): no CPU or mm bonus. */
static int na_goodness(const struct task *p)
{
    if (task_is_rt(p))
        return RT_GOODNESS_MIN + p->rt_priority;
    if (mq(p)->yielded)
        return -1;
    if (mq(p)->counter <= 0)
        return 0;
    return mq(p)->counter + 20 - p->nice;
}

/* 2.4 goodness() from a na_goodness: a positive SCHED_OTHER value gets
 * PROC_CHANGE_PENALTY on its own CPU and 1 for the asking CPU's mm. */
static int full_goodness(int na, bool same_cpu, bool same_mm)
{
    if (na <= 0 || na >= RT_GOODNESS_MIN)
        return na;
    return na + (same_cpu ? PROC_CHANGE_PENALTY : 0) + (same_mm ? 1 : 0);
}

/* The patch's local_goodness(): for tasks on this CPU's own queue. */
static int local_goodness(const struct task *p, int this_mm)
{
    int w = na_goodness(p);
    return w > 0 && p->mm == this_mm ? w + 1 : w;
}

/* ---- publishing ---- */

static void publish(struct runqueue *rq, struct task *p)
{
    if (p) {
        rq->max_na_goodness = na_goodness(p);
        rq->max_na_cpus_allowed = p->cpus_allowed;
        rq->max_na_task = p;
    } else {
        rq->max_na_goodness = MIN_GOODNESS;
        rq->max_na_task = NULL;
    }
}

/* A task joined the waiting tasks of rq: publish it if it beats the maximum. */
static void publish_if_better(struct runqueue *rq, struct task *p)
{
    if (na_goodness(p) > rq->max_na_goodness)
        publish(rq, p);
}

/* Publish the best waiting task of cpu's queue (after the published one left). */
static void republish(int cpu)
{
    struct runqueue *rq = &runqueues[cpu];
    struct task *best = NULL;
    int w = MIN_GOODNESS;
    struct list_head *pos;
    list_for_each(pos, &rq->tasks) {
        struct task *p = task_of(pos);
        if (!sched_task_running(p) && na_goodness(p) > w) {
            w = na_goodness(p);
            best = p;
        }
    }
    publish(rq, best);
}

/* ---- queues ---- */

static void mq_init(int ncpus)
{
    (void)ncpus;
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        list_init(&rq->tasks);
        publish(rq, NULL);
        cpu_data[cpu].curr_na_goodness = MIN_GOODNESS;
        cpu_data[cpu].curr_mm = -1;
        cpu_data[cpu].running_non_idle = 0;
        cpu_data[cpu].active_mm = -1;
        cpu_data[cpu].tick_fraction = 0;
        cpu_data[cpu].rescan_pending = false;
    }
    spin_lock_init(&rt_queue.lock, "mq realtime queue");
    list_init(&rt_queue.tasks);
    rt_queue.nr_running = 0;
    sched_log("mq: LSE multi-queue scheduler (2.4.14 patch), counters in 2.4 ticks at HZ=%d (kernel HZ=%d)",
              LINUX24_HZ, HZ);
}

/* Put p at the head of its queue (2.4 add_to_runqueue).  cpu's lock is held. */
static void add_to_queue(int cpu, struct task *p)
{
    struct mq_task *t = mq(p);
    if (task_is_rt(p)) {
        spin_lock(&rt_queue.lock);
        list_add(&t->run_list, &rt_queue.tasks);
        rt_queue.nr_running++;
        spin_release(&rt_queue.lock);
        t->on_rt_queue = true;
    } else {
        list_add(&t->run_list, &runqueues[cpu].tasks);
        t->on_rt_queue = false;
    }
    t->queued = true;
}

static void remove_from_queue(int cpu, struct task *p)
{
    struct mq_task *t = mq(p);
    if (t->on_rt_queue) {
        spin_lock(&rt_queue.lock);
        list_del(&t->run_list);
        rt_queue.nr_running--;
        spin_release(&rt_queue.lock);
    } else {
        list_del(&t->run_list);
        if (runqueues[cpu].max_na_task == p)
            republish(cpu);
    }
    t->queued = false;
    t->on_rt_queue = false;
}

/* Move p to the tail of its queue (2.4 move_last_runqueue).  Its CPU's lock is held. */
static void move_to_tail(int cpu, struct task *p)
{
    struct mq_task *t = mq(p);
    if (t->on_rt_queue) {
        spin_lock(&rt_queue.lock);
        list_move_tail(&t->run_list, &rt_queue.tasks);
        spin_release(&rt_queue.lock);
    } else {
        list_move_tail(&t->run_list, &runqueues[cpu].tasks);
    }
}

/* ---- fork and exit ---- */

static void mq_task_fork(struct task *parent, struct task *child)
{
    struct mq_task *t = mq(child);
    list_init(&t->run_list);
    t->yielded = false;
    t->on_rt_queue = false;
    t->queued = false;
    t->no_preempt = false;
    t->wake_home = child->cpu;
    if (parent && !parent->is_idle) {
        /* 2.4 do_fork: the child gets half of the parent's ticks (rounded
         * up), so forking cannot create CPU time. */
        bool parent_empty;
        t->counter = linux24_split_counter(&mq(parent)->counter, &parent_empty);
        if (parent_empty)
            sched_resched_cpu(child->cpu);
    } else {
        t->counter = NICE_TO_TICKS(child->nice);
    }
}

static void mq_task_exit(struct task *p)
{
    /* 2.4 release_task gives the reaper what is left of the child's counter
     * ("this way the parent does not get penalized for creating too many
     * processes"), capped at MAX_COUNTER.  The parent is our reaper.  As in
     * 2.4 this runs without the parent's run-queue lock (2.4 held only the
     * task-list lock), so it may race with the parent's own tick; one lost
     * tick is harmless. */
    struct task *parent = p->parent;
    if (!parent || parent->is_idle)
        return;
    mq(parent)->counter = linux24_give_back(mq(parent)->counter, mq(p)->counter);
}

/* ---- wake-up ---- */

/* Idle as the patch sees it: published curr_na_goodness is MIN_GOODNESS. */
static bool placement_idle(int cpu) { return cpu_data[cpu].curr_na_goodness == MIN_GOODNESS; }

/* 2.4 preemption_goodness(curr, p, cpu) > 0 from published values: p's
 * goodness minus curr's, both seen with curr's mm; p has the CPU bonus only
 * on its home CPU, curr always has it. */
static bool would_preempt(int cpu, const struct task *p, int home)
{
    struct cpu_sched_data *cd = &cpu_data[cpu];
    int gp = full_goodness(na_goodness(p), cpu == home, p->mm == cd->curr_mm);
    int gc = full_goodness(cd->curr_na_goodness, true, true);
    return gp - gc > 0;
}

/* How long cpu has been idle, as a score below every busy CPU's. */
static int idle_score(int cpu, uint64_t now)
{
    uint64_t since = sched_cpu_idle_since_ns(cpu);
    uint64_t idle_us = now > since ? (now - since) >> 10 : 0;
    if (idle_us > (1u << 30))
        idle_us = 1u << 30;
    return MIN_GOODNESS - 1 - (int)idle_us;
}

static int mq_select_cpu(struct task *p, int waker_cpu, int flags)
{
    struct mq_task *t = mq(p);
    int ncpus = sched_nr_cpus();
    int home = task_allowed_on(p, p->cpu) ? p->cpu : -1;
    t->wake_home = p->cpu;
    t->no_preempt = false;

    /* 2.4 try_to_wake_up: a sync wake-up that may run on the waker's CPU
     * is just queued at home, without reschedule_idle: no IPI, no
     * preemption.  If home is idle the core would kick it, which MQ did not
     * do: there the waker's CPU, about to sleep, steals the task in its next
     * schedule().  Queue it on the waker's CPU directly for that outcome. */
    if ((flags & WAKE_SYNC) && task_allowed_on(p, waker_cpu) && home >= 0) {
        t->no_preempt = true;
        return placement_idle(home) && home != waker_cpu ? waker_cpu : home;
    }
    /* 1. The home CPU is idle: use it. */
    if (home >= 0 && placement_idle(home))
        return home;

    /* 2. Score the allowed CPUs. */
    int score[MAX_CPUS];
    int na = na_goodness(p);
    uint64_t now = sched_clock_ns();
    int fallback = -1;
    for (int cpu = 0; cpu < ncpus; cpu++) {
        if (!task_allowed_on(p, cpu)) {
            score[cpu] = INT32_MAX;
            continue;
        }
        if (placement_idle(cpu))
            score[cpu] = idle_score(cpu, now);
        else
            score[cpu] = cpu_data[cpu].curr_na_goodness + (cpu != home ? PROC_CHANGE_PENALTY : 0);
        if (fallback < 0 || score[cpu] < score[fallback])
            fallback = cpu;
    }
    /* 3. Lowest score first, while it is below the task's na_goodness. */
    for (;;) {
        int target = -1;
        for (int cpu = 0; cpu < ncpus; cpu++)
            if (score[cpu] < na && (target < 0 || score[cpu] < score[target]))
                target = cpu;
        if (target < 0)
            break;
        if (placement_idle(target) || would_preempt(target, p, home))
            return target;
        score[target] = INT32_MAX;
    }
    /* 4. Stay at home (or, if home is no longer allowed, the lowest score). */
    return home >= 0 ? home : fallback;
}

/* 2.4 preemption_goodness(curr, p, cpu) with live values.  cpu's lock held. */
static int preemption_goodness(struct task *curr, struct task *p, int cpu)
{
    int gp = full_goodness(na_goodness(p), mq(p)->wake_home == cpu, p->mm == curr->mm);
    int gc = full_goodness(na_goodness(curr), true, true);
    return gp - gc;
}

static void mq_enqueue(int cpu, struct task *p, int flags)
{
    struct mq_task *t = mq(p);
    add_to_queue(cpu, p);
    if (!t->on_rt_queue && !sched_task_running(p))
        publish_if_better(&runqueues[cpu], p);
    struct task *curr = sched_cpu_curr(cpu);
    if (curr->is_idle) {
        /* The core wakes the idle CPU.  Until it has switched, count it as
         * busy with this task so that further wake-ups go elsewhere. */
        if (placement_idle(cpu))
            cpu_data[cpu].curr_na_goodness = na_goodness(p);
    } else if (!t->no_preempt && preemption_goodness(curr, p, cpu) > 0) {
        sched_resched_cpu(cpu);
    }
    t->no_preempt = false;
}

static void mq_dequeue(int cpu, struct task *p, int flags) { remove_from_queue(cpu, p); }

/* ---- pick_next ---- */

/* Move a queued task from one CPU's queue to another's; both locks held. */
static void steal_task(int from, int to, struct task *p)
{
    list_del(&mq(p)->run_list);
    if (runqueues[from].max_na_task == p)
        republish(from);
    sched_set_task_cpu(p, to);
    list_add(&mq(p)->run_list, &runqueues[to].tasks);   /* the patch's add_to_runqueue_noupd */
}

/* The best real-time task cpu may run whose goodness (1000 + rt_priority)
 * is above c, first in queue order on ties; skip is the still-running prev,
 * evaluated before the scan (the patch's has_cpu).  The RT lock is held. */
static struct task *best_rt_task(int cpu, struct task *skip, int c)
{
    struct task *best = NULL;
    int w = c;
    struct list_head *pos;
    list_for_each(pos, &rt_queue.tasks) {
        struct task *p = task_of(pos);
        if (p == skip || !task_allowed_on(p, cpu) || sched_task_running(p))
            continue;
        if (na_goodness(p) > w) {
            w = na_goodness(p);
            best = p;
        }
    }
    return best;
}

/* Step 1: the shared real-time queue.  Returns the task moved to cpu that
 * beats c, or NULL.  If the task belongs to a CPU whose lock is busy, drops
 * our lock and takes both in address order (2.6's double_lock_balance),
 * then looks again. */
static struct task *pick_rt(int cpu, struct task *skip, int c)
{
    int held = -1;              /* another CPU's lock taken after re-locking */
    struct task *best;
    spin_lock(&rt_queue.lock);
    for (;;) {
        best = best_rt_task(cpu, skip, c);
        if (!best || best->cpu == cpu)
            break;
        int from = best->cpu;
        if (from == held || spin_trylock(sched_rq_lock(from))) {
            sched_set_task_cpu(best, cpu);   /* it changes lock domain; it stays on the RT queue */
            if (from != held)
                spin_release(sched_rq_lock(from));
            break;
        }
        /* Lock order is run-queue locks, then the RT lock. */
        spin_release(&rt_queue.lock);
        if (held >= 0)
            sched_unlock_other(cpu, held);
        sched_double_lock_balance(cpu, from);
        held = from;
        spin_lock(&rt_queue.lock);
    }
    spin_release(&rt_queue.lock);
    if (held >= 0)
        sched_unlock_other(cpu, held);
    return best;
}

/*
 * Step 2: the local queue (the patch's scan_runqueue), against *c and *next
 * as they come in: the still-running prev with its full goodness, or
 * nothing.  Waiting tasks score their local goodness (no CPU bonus: they
 * are all on this CPU's queue) and must beat the best so far strictly;
 * prev itself is not scanned (the patch's has_cpu).  A task displaced from
 * the lead becomes the second best unless it is prev (which runs, so it
 * cannot be stolen); the second best is what the queue publishes.
 */
static struct task *scan_local(int cpu, struct task *prev, int this_mm, int *c, struct task *next,
                               struct task **second)
{
    struct task *runner_up = NULL;
    int best_w = *c, second_w = MIN_GOODNESS;
    struct list_head *pos;
    list_for_each(pos, &runqueues[cpu].tasks) {
        struct task *p = task_of(pos);
        if (p == prev || sched_task_running(p) || !task_allowed_on(p, cpu))
            continue;
        int w = local_goodness(p, this_mm);
        if (w > best_w) {
            if (next && next != prev) {
                runner_up = next;
                second_w = best_w;
            }
            best_w = w;
            next = p;
        } else if (w > second_w) {
            runner_up = p;
            second_w = w;
        }
    }
    *c = best_w;
    *second = runner_up;
    return next;
}

/* Steps 3-5: look at the other queues' published maxima and steal the best
 * task that beats ours (the patch's examine_rmt_rqs). */
static struct task *examine_remote(int cpu, struct task *next, int *cp, struct task **second)
{
    int ncpus = sched_nr_cpus();
    int c = *cp;
    int candidate[MAX_CPUS];
    if (ncpus == 1)
        return next;
    if (c > 0)
        c += PROC_CHANGE_PENALTY;   /* the local best has not had its CPU bonus yet */
    for (int scan = 0;; scan++) {
        int failed_trylocks = 0;
        for (int o = 0; o < ncpus; o++) {
            struct runqueue *other = &runqueues[o];
            int g = other->max_na_goodness;
            candidate[o] = o != cpu && (other->max_na_cpus_allowed & CPU_BIT(cpu)) && g > c ? g : MIN_GOODNESS;
        }
        for (;;) {
            int best = -1, best_g = c;
            for (int o = 0; o < ncpus; o++)
                if (candidate[o] > best_g) {
                    best = o;
                    best_g = candidate[o];
                }
            if (best < 0)
                break;
            candidate[best] = MIN_GOODNESS;   /* whatever happens, next time the next highest */
            struct runqueue *other = &runqueues[best];
            if (!spin_trylock(sched_rq_lock(best))) {
                failed_trylocks++;
                continue;
            }
            struct task *p = other->max_na_task;
            if (p && other->max_na_goodness > c && task_allowed_on(p, cpu) && !sched_task_running(p) &&
                p->cpu == best && mq(p)->queued && !mq(p)->on_rt_queue) {
                /* Our own best now waits: it is the best task left here
                 * (unless it is prev, which has the CPU until it switches). */
                if (next && !sched_task_running(next))
                    *second = next;
                steal_task(best, cpu, p);
                spin_release(sched_rq_lock(best));
                *cp = na_goodness(p);
                return p;
            }
            spin_release(sched_rq_lock(best));
        }
        if (next || failed_trylocks == 0)
            break;
        if (scan >= MQ_IDLE_RESCANS) {
            cpu_data[cpu].rescan_pending = true;   /* the patch would go on rescanning: go on at our next tick */
            break;
        }
        /* About to idle although another queue may have work: look again.
         * Publish nothing meanwhile, so that a CPU doing the same towards us
         * does not wait for us (the patch's comment: "potential for deadlock"). */
        publish(&runqueues[cpu], NULL);
    }
    return next;
}

static void recalculate_one(struct task *p, void *arg)
{
    struct mq_task *t = mq(p);
    t->counter = linux24_recalc_counter(t->counter, p->nice);
}

/* Kick the longest-idle CPU that may run p (2.4 __schedule_tail's
 * reschedule_idle(prev)): it will steal p, or whatever we publish instead. */
static void kick_idle_cpu_for(struct task *p, int cpu)
{
    int target = -1;
    uint64_t oldest = 0;
    for (int o = 0; o < sched_nr_cpus(); o++) {
        if (o == cpu || !task_allowed_on(p, o) || !placement_idle(o))
            continue;
        uint64_t since = sched_cpu_idle_since_ns(o);
        if (target < 0 || since < oldest) {
            target = o;
            oldest = since;
        }
    }
    if (target >= 0)
        sched_resched_cpu(target);
}

static struct task *mq_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cpu_sched_data *cd = &cpu_data[cpu];
    bool prev_waits = !prev->is_idle && prev->on_rq && prev->state == TASK_RUNNING && mq(prev)->queued;
    struct task *next, *second = NULL;
    int c;
    bool scanned_local;

    /* 2.4: an RR task that used its counter gets a new one and goes last. */
    if (prev_waits && prev->policy == SCHED_RR && mq(prev)->counter <= 0) {
        mq(prev)->counter = NICE_TO_TICKS(prev->nice);
        move_to_tail(cpu, prev);
    }
    int this_mm = prev->is_idle ? cd->active_mm : prev->mm;
    cd->rescan_pending = false;
    for (;;) {
        /* The patch's still_running path: a prev that stays runnable is
         * evaluated first, with the full goodness (+PROC_CHANGE_PENALTY on
         * its CPU, +1 for its mm); everyone else must beat it strictly. */
        next = NULL;
        c = MIN_GOODNESS;
        if (prev_waits) {
            next = prev;
            c = full_goodness(na_goodness(prev), true, prev->mm == this_mm);
        }
        scanned_local = false;
        if (rt_queue.nr_running > 0) {
            struct task *rt = pick_rt(cpu, prev_waits ? prev : NULL, c);
            if (rt) {
                next = rt;
                break;
            }
            if (next && mq(next)->on_rt_queue)
                break;                           /* prev is real-time and nothing beats it */
        }
        scanned_local = true;
        next = scan_local(cpu, prev_waits ? prev : NULL, this_mm, &c, next, &second);
        next = examine_remote(cpu, next, &c, &second);
        if (c != 0)
            break;
        /* Everyone runnable has used up the counter: 2.4's global
         * recalculation over every task, without our lock. */
        spin_release(sched_rq_lock(cpu));
        sched_for_each_task(recalculate_one, NULL);
        spin_lock(sched_rq_lock(cpu));
    }

    /* What 2.4 does in __schedule_tail: the yield lasts one decision. */
    bool prev_yielded = !prev->is_idle && mq(prev)->yielded;
    if (!prev->is_idle)
        mq(prev)->yielded = false;
    if (scanned_local)
        publish(rq, second);
    if (prev_waits && prev != next) {
        if (!mq(prev)->on_rt_queue)
            publish_if_better(rq, prev);
        if (!prev_yielded)
            kick_idle_cpu_for(prev, cpu);
    }
    cd->curr_na_goodness = next ? na_goodness(next) : MIN_GOODNESS;
    cd->curr_mm = next ? next->mm : -1;
    cd->running_non_idle = next != NULL;
    if (next)
        cd->active_mm = next->mm;
    return next;
}

/* ---- tick, balance, yield, nice, affinity ---- */

static void mq_tick(int cpu, struct task *curr)
{
    struct cpu_sched_data *cd = &cpu_data[cpu];
    /* Every HZ/LINUX24_HZ-th tick of this CPU is a 2.4 tick. */
    for (int due = linux24_ticks_due(&cd->tick_fraction); due > 0; due--) {
        if (curr->is_idle)
            continue;
        if (--mq(curr)->counter <= 0) {
            mq(curr)->counter = 0;
            sched_resched_cpu(cpu);
        }
        /* The patch's kernel/timer.c hunk: the running task's published
         * goodness follows its counter, so wake-up placement (which reads
         * curr_na_goodness) sees a busy CPU as it is. */
        if (cd->curr_na_goodness != MIN_GOODNESS)
            cd->curr_na_goodness = na_goodness(curr);
    }
}

/*
 * The patch has no idle balancing: an idle CPU gets work through
 * reschedule_idle (a wake-up or a preempted task) only.  Two things here:
 * a CPU whose bounded premature-idle rescan gave up (see the deviations)
 * goes on with it at its next tick, as the patch's unbounded rescan would
 * have; and, only with sched.idle_balance=1 (a named option, off by
 * default, not the patch), an idle CPU reschedules itself, and so steals,
 * when another queue publishes a task it may run or a real-time task waits.
 */
static void mq_balance(int cpu, bool idle)
{
    if (!idle)
        return;
    if (cpu_data[cpu].rescan_pending) {
        sched_resched_cpu(cpu);
        return;
    }
    if (!mq_tun.idle_balance)
        return;
    for (int o = 0; o < sched_nr_cpus(); o++) {
        struct runqueue *other = &runqueues[o];
        if (o != cpu && other->max_na_goodness > MIN_GOODNESS && (other->max_na_cpus_allowed & CPU_BIT(cpu))) {
            sched_resched_cpu(cpu);
            return;
        }
    }
    if (rt_queue.nr_running > 0) {
        spin_lock(&rt_queue.lock);
        bool waiting = best_rt_task(cpu, NULL, MIN_GOODNESS) != NULL;
        spin_release(&rt_queue.lock);
        if (waiting)
            sched_resched_cpu(cpu);
    }
}

static void mq_yield(int cpu, struct task *curr)
{
    /* 2.4 sys_sched_yield as the patch counts it: yield only if some task
     * waits somewhere (queued minus running, over every CPU). */
    int pending = 0;
    for (int o = 0; o < sched_nr_cpus(); o++)
        pending += sched_nr_queued(o) - cpu_data[o].running_non_idle;
    if (pending <= 0 || !mq(curr)->queued)
        return;
    if (!task_is_rt(curr))
        mq(curr)->yielded = true;
    move_to_tail(cpu, curr);
}

static void mq_set_nice(int cpu, struct task *p, int nice)
{
    /* 2.4 set_user_nice only changes the number.  Store it now (the core
     * stores the same value right after) so the published maximum can be
     * brought up to date. */
    p->nice = nice;
    struct mq_task *t = mq(p);
    if (!t->queued || t->on_rt_queue || sched_task_running(p))
        return;
    if (runqueues[cpu].max_na_task == p)
        republish(cpu);
    else
        publish_if_better(&runqueues[cpu], p);
}

static void mq_set_affinity(int cpu, struct task *p, cpumask_t mask)
{
    if (runqueues[cpu].max_na_task == p)
        runqueues[cpu].max_na_cpus_allowed = mask;
}


/* ---- tunables (sched.<name>=) ---- */

static const struct sched_tunable mq_tunables[] = {
    LINUX24_TUNABLES,
    { "idle_rescans", "count", 32, 0, 100000, 0, &mq_tun.idle_rescans,
      "premature-idle rescans after failed trylocks before idling until the next tick" },
    { "idle_balance", "bool", 0, 0, 1, 0, &mq_tun.idle_balance,
      "not in the patch: an idle CPU polls the published maxima on every tick" },
};

/* What the scans read of each task (scan_local, republish, the real-time
 * queue's scan: na_goodness and local_goodness).  The patch changed no
 * field of the task_struct (its include/linux/sched.h hunks add the queue
 * and CPU data only), so they are 2.4's goodness-line fields: counter,
 * nice, policy (SCHED_YIELD is its bit), mm, has_cpu, cpus_allowed and
 * run_list.next at offsets 32-63 of 2.4.14's task_struct ("We keep all
 * fields in a single cacheline that are needed for the goodness() loop").
 * The kernel's nice, policy, mm, cpus_allowed and on_cpu (has_cpu) are in
 * that line already (kernel/machine/memhooks.c); these are mq's own. */
static const struct sched_scan_bytes mq_scan_bytes[] = {
    { offsetof(struct mq_task, run_list.next), sizeof(void *), 0 },
    { offsetof(struct mq_task, counter), sizeof(int), 0 },
    { offsetof(struct mq_task, yielded), sizeof(bool), 0 },
    { 0, 0, 0 },
};

const struct sched_class scheduler = {
    .name = "mq",
    .flags = SCHED_LAYOUT_LINUX24,      /* a 2.4 kernel's task layout (kernel/sched_class.h) */
    .tunables = mq_tunables,
    .ntunables = ARRAY_SIZE(mq_tunables),
    .init = mq_init,
    .task_fork = mq_task_fork,
    .select_cpu = mq_select_cpu,
    .enqueue = mq_enqueue,
    .dequeue = mq_dequeue,
    .pick_next = mq_pick_next,
    .tick = mq_tick,
    .balance = mq_balance,
    .yield = mq_yield,
    .set_nice = mq_set_nice,
    .set_affinity = mq_set_affinity,
    .task_exit = mq_task_exit,
    .scan_bytes = mq_scan_bytes,
};
