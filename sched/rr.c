/*
 * sched/rr.c - round robin: the smallest complete scheduler.
 *
 * Algorithm
 *   Every CPU has its own FIFO run queue and lock.  A task runs for a fixed
 *   timeslice (RR_TIMESLICE_MS) and then goes to the tail of its CPU's queue.
 *   New and woken tasks go to the tail of the queue of the allowed CPU with
 *   the fewest queued tasks, preferring the CPU they last ran on on a tie, so
 *   their cache stays warm when it costs nothing.  A CPU that finds its own
 *   queue empty steals the oldest waiting task from the longest queue it may
 *   take from, and an idle CPU also tries that on every tick.  Nice, policy
 *   and real-time priority are ignored: this is the baseline that shows what
 *   the real schedulers add.
 *
 * It models no Linux version; it is the teaching example that the other
 * schedulers are compared with, in the spirit of sched_ext's scx_simple.
 *
 * Tunables
 *   RR_TIMESLICE_MS   timeslice in milliseconds (default 10)
 */
#include "sched.h"

#define RR_TIMESLICE_MS 10
#define RR_TIMESLICE_TICKS ((RR_TIMESLICE_MS * HZ + 999) / 1000)

struct runqueue {
    spinlock_t lock;
    struct list_head queue;     /* queued tasks, running one included, FIFO */
    volatile int nr_queued;
} __attribute__((aligned(64)));

struct rr_task {
    struct list_head node;
    int timeslice;              /* ticks left */
};

static struct runqueue runqueues[MAX_CPUS];

static struct rr_task *rr(struct task *p) { return SCHED_TASK(p, struct rr_task); }
static struct task *task_of(struct list_head *node)
{
    return container_of((void *)node, struct task, sched_private);
}

static void rr_init(int ncpus)
{
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        spin_lock_init(&runqueues[cpu].lock, "rr runqueue");
        list_init(&runqueues[cpu].queue);
        runqueues[cpu].nr_queued = 0;
    }
    (void)ncpus;
}

static spinlock_t *rr_runqueue_lock(int cpu) { return &runqueues[cpu].lock; }

static void rr_task_fork(struct task *parent, struct task *child)
{
    (void)parent;
    list_init(&rr(child)->node);
    rr(child)->timeslice = RR_TIMESLICE_TICKS;
}

static int rr_select_cpu(struct task *p, int waker_cpu, int flags)
{
    (void)waker_cpu;
    (void)flags;
    int best = -1;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (!task_allowed_on(p, cpu))
            continue;
        int load = runqueues[cpu].nr_queued;
        if (best < 0 || load < runqueues[best].nr_queued || (load == runqueues[best].nr_queued && cpu == p->cpu))
            best = cpu;
    }
    return best;
}

static void rr_enqueue(int cpu, struct task *p, int flags)
{
    (void)flags;
    list_add_tail(&rr(p)->node, &runqueues[cpu].queue);
    runqueues[cpu].nr_queued++;
}

static void rr_dequeue(int cpu, struct task *p, int flags)
{
    (void)flags;
    list_del(&rr(p)->node);
    runqueues[cpu].nr_queued--;
}

/* Take the oldest stealable task from the busiest other queue.  Our lock is held. */
static struct task *steal(int cpu)
{
    int busiest = -1;
    for (int other = 0; other < sched_nr_cpus(); other++)
        if (other != cpu && runqueues[other].nr_queued > 1 &&
            (busiest < 0 || runqueues[other].nr_queued > runqueues[busiest].nr_queued))
            busiest = other;
    if (busiest < 0)
        return NULL;
    /* Lock order is by address; trylock avoids dropping ours. */
    if (!spin_trylock(&runqueues[busiest].lock))
        return NULL;
    struct task *found = NULL;
    struct list_head *pos;
    list_for_each(pos, &runqueues[busiest].queue) {
        struct task *p = task_of(pos);
        if (!sched_task_running(p) && task_allowed_on(p, cpu)) {
            found = p;
            break;
        }
    }
    if (found) {
        rr_dequeue(busiest, found, DEQUEUE_MIGRATE);
        sched_set_task_cpu(found, cpu);
        rr_enqueue(cpu, found, ENQUEUE_MIGRATE);
    }
    spin_unlock(&runqueues[busiest].lock);
    return found;
}

static struct task *rr_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    /* A preempted or yielding task goes behind the others. */
    if (!prev->is_idle && prev->on_rq && rr(prev)->timeslice <= 0) {
        rr(prev)->timeslice = RR_TIMESLICE_TICKS;
        list_move_tail(&rr(prev)->node, &rq->queue);
    }
    if (list_empty(&rq->queue))
        steal(cpu);
    if (list_empty(&rq->queue))
        return NULL;
    return task_of(rq->queue.next);
}

static void rr_tick(int cpu, struct task *curr)
{
    if (curr->is_idle)
        return;
    if (--rr(curr)->timeslice <= 0 && runqueues[cpu].nr_queued > 1)
        sched_resched_cpu(cpu);
}

static void rr_balance(int cpu, bool idle)
{
    if (!idle)
        return;
    spin_lock(&runqueues[cpu].lock);
    if (list_empty(&runqueues[cpu].queue) && steal(cpu))
        sched_resched_cpu(cpu);
    spin_unlock(&runqueues[cpu].lock);
}

static void rr_yield(int cpu, struct task *curr)
{
    (void)cpu;
    rr(curr)->timeslice = 0;    /* pick_next moves it to the tail */
}

static int rr_nr_running(int cpu) { return runqueues[cpu].nr_queued; }

const struct sched_class scheduler = {
    .name = "rr",
    .init = rr_init,
    .runqueue_lock = rr_runqueue_lock,
    .task_fork = rr_task_fork,
    .select_cpu = rr_select_cpu,
    .enqueue = rr_enqueue,
    .dequeue = rr_dequeue,
    .pick_next = rr_pick_next,
    .tick = rr_tick,
    .balance = rr_balance,
    .yield = rr_yield,
    .nr_running = rr_nr_running,
};
