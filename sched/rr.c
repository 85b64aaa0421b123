/*
 * sched/rr.c - round robin on per-CPU queues, with stealing.
 *
 * Algorithm
 *   Every CPU has its own FIFO run queue (and the core's per-CPU lock).  A
 *   task runs for a fixed timeslice (RR_TIMESLICE_MS) and then goes to the
 *   tail of its CPU's queue.  New and woken tasks go to the tail of the
 *   queue of the allowed CPU with the fewest queued tasks, preferring the
 *   CPU they last ran on on a tie, so their cache stays warm when it costs
 *   nothing.  A CPU that finds its own queue empty steals the oldest waiting
 *   task from the longest queue it may take from, and an idle CPU also tries
 *   that on every tick.  Nice, policy and real-time priority are ignored:
 *   this is the baseline that shows what the real schedulers add.
 *
 * It models no Linux version.  sched/simple.c is smaller still (one global
 * queue); this one shows per-CPU queues and the locking they need.
 *
 * Tunables
 *   RR_TIMESLICE_MS   timeslice in milliseconds (default 10)
 */
#include "sched.h"

#define RR_TIMESLICE_MS 10
#define RR_TIMESLICE_TICKS SCHED_MS_TO_TICKS(RR_TIMESLICE_MS)

struct rr_task {
    struct list_head node;      /* in its CPU's queue, running task included */
    int timeslice;              /* ticks left */
};

static struct list_head queues[MAX_CPUS];

static struct rr_task *rr(struct task *p) { return SCHED_TASK(p, struct rr_task); }
static struct task *task_of(struct list_head *node) { return sched_task_of(node, offsetof(struct rr_task, node)); }

static void rr_init(int ncpus)
{
    for (int cpu = 0; cpu < MAX_CPUS; cpu++)
        list_init(&queues[cpu]);
}

static void rr_task_fork(struct task *parent, struct task *child)
{
    list_init(&rr(child)->node);
    rr(child)->timeslice = RR_TIMESLICE_TICKS;
}

static int rr_select_cpu(struct task *p, int waker_cpu, int flags)
{
    int best = -1;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (!task_allowed_on(p, cpu))
            continue;
        int load = sched_nr_queued(cpu);
        if (best < 0 || load < sched_nr_queued(best) || (load == sched_nr_queued(best) && cpu == p->cpu))
            best = cpu;
    }
    return best;
}

static void rr_enqueue(int cpu, struct task *p, int flags) { list_add_tail(&rr(p)->node, &queues[cpu]); }

static void rr_dequeue(int cpu, struct task *p, int flags) { list_del(&rr(p)->node); }

/* Take the oldest stealable task from the busiest other queue.  Our lock is held. */
static void steal(int cpu)
{
    int busiest = -1;
    for (int other = 0; other < sched_nr_cpus(); other++)
        if (other != cpu && sched_nr_queued(other) > 1 &&
            (busiest < 0 || sched_nr_queued(other) > sched_nr_queued(busiest)))
            busiest = other;
    if (busiest < 0)
        return;
    sched_double_lock_balance(cpu, busiest);
    struct list_head *pos;
    list_for_each(pos, &queues[busiest]) {
        struct task *p = task_of(pos);
        if (!sched_task_running(p) && task_allowed_on(p, cpu)) {
            list_del(&rr(p)->node);
            sched_set_task_cpu(p, cpu);
            list_add_tail(&rr(p)->node, &queues[cpu]);
            break;
        }
    }
    sched_unlock_other(cpu, busiest);
}

static struct task *rr_pick_next(int cpu, struct task *prev)
{
    /* A preempted or yielding task goes behind the others. */
    if (!prev->is_idle && prev->on_rq && rr(prev)->timeslice <= 0) {
        rr(prev)->timeslice = RR_TIMESLICE_TICKS;
        list_move_tail(&rr(prev)->node, &queues[cpu]);
    }
    if (list_empty(&queues[cpu]))
        steal(cpu);
    if (list_empty(&queues[cpu]))
        return NULL;
    return task_of(queues[cpu].next);
}

static void rr_tick(int cpu, struct task *curr)
{
    if (curr->is_idle)
        return;
    if (--rr(curr)->timeslice <= 0 && sched_nr_queued(cpu) > 1)
        sched_resched_cpu(cpu);
}

/* An idle CPU looks for work on every tick. */
static void rr_balance(int cpu, bool idle)
{
    if (!idle)
        return;
    spin_lock(sched_rq_lock(cpu));
    if (list_empty(&queues[cpu])) {
        steal(cpu);
        if (!list_empty(&queues[cpu]))
            sched_resched_cpu(cpu);
    }
    spin_release(sched_rq_lock(cpu));
}

static void rr_yield(int cpu, struct task *curr)
{
    rr(curr)->timeslice = 0;    /* pick_next moves it to the tail */
}

const struct sched_class scheduler = {
    .name = "rr",
    .init = rr_init,
    .task_fork = rr_task_fork,
    .select_cpu = rr_select_cpu,
    .enqueue = rr_enqueue,
    .dequeue = rr_dequeue,
    .pick_next = rr_pick_next,
    .tick = rr_tick,
    .balance = rr_balance,
    .yield = rr_yield,
};
