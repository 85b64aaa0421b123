/*
 * sched/simple.c - SCHED=simple: one global FIFO queue with time slices.
 * The template for a new scheduler (docs/new-scheduler.md walks through it).
 *
 * Algorithm
 *   Every runnable task of every CPU waits on ONE list under ONE lock (the
 *   core's shared run-queue lock, SCHED_SHARED_RUNQUEUE).  New and woken
 *   tasks go to the tail; a CPU runs the first task on the list that it may
 *   run; a task runs until it blocks, yields or has used SIMPLE_SLICE_MS of
 *   CPU time, and then goes to the tail (first again if nobody waits).  Where a
 *   woken task runs is the core's default select_cpu: an idle CPU if there is
 *   one, its own CPU first.  This is sched_ext's scx_simple in FIFO mode.
 *
 * What it does not do, candidly
 *   - No priorities: nice, SCHED_FIFO/RR and rt_priority are ignored.
 *   - No fairness beyond the slice: a task that sleeps often gets no credit
 *     for it, and one that runs long gets no penalty.
 *   - No wake-up preemption: a woken task waits for the running one's slice
 *     to end, even on a CPU that runs a CPU hog.
 *   - No cache affinity: a CPU takes the first task it may run, whichever CPU
 *     it last ran on.
 *   - One lock for every CPU: every pick, wake-up and tick of every CPU
 *     contends on it, which is what Linux 2.4 measured at 8 CPUs
 *     (sched/goodness.c models that scheduler faithfully).
 *   - No load balancing: the shared queue is the balancing.
 *   It models no Linux version.
 *
 * Tunables
 *   SIMPLE_SLICE_MS   time slice in milliseconds (default 10)
 *
 * To start your own: copy this file to sched/<yours>.c, change .name, and
 * run `make test` - the conformance suite picks it up.
 */
#include "sched.h"

#define SIMPLE_SLICE_MS 10

struct simple_task {
    struct list_head node;      /* on the queue while runnable, the running task too */
    int slice;                  /* ticks left of its slice */
};

static struct list_head queue;

static struct simple_task *st(struct task *p) { return SCHED_TASK(p, struct simple_task); }

static void simple_init(int ncpus) { list_init(&queue); }

static void simple_enqueue(int cpu, struct task *p, int flags)
{
    st(p)->slice = SCHED_MS_TO_TICKS(SIMPLE_SLICE_MS);
    list_add_tail(&st(p)->node, &queue);
}

static void simple_dequeue(int cpu, struct task *p, int flags) { list_del(&st(p)->node); }

static struct task *simple_pick_next(int cpu, struct task *prev)
{
    /* prev used its slice (or yielded): behind everyone else, with a new one. */
    if (!prev->is_idle && prev->on_rq && st(prev)->slice <= 0) {
        st(prev)->slice = SCHED_MS_TO_TICKS(SIMPLE_SLICE_MS);
        list_move_tail(&st(prev)->node, &queue);
    }
    struct list_head *pos;
    list_for_each(pos, &queue) {
        struct task *p = sched_task_of(pos, offsetof(struct simple_task, node));
        if (task_allowed_on(p, cpu) && (p == prev || !sched_task_running(p)))
            return p;
    }
    return NULL;
}

static void simple_tick(int cpu, struct task *curr)
{
    if (!curr->is_idle && --st(curr)->slice <= 0)
        sched_resched_cpu(cpu);
}

static void simple_yield(int cpu, struct task *curr) { st(curr)->slice = 0; }

const struct sched_class scheduler = {
    .name = "simple",
    .flags = SCHED_SHARED_RUNQUEUE,
    .init = simple_init,
    .enqueue = simple_enqueue,
    .dequeue = simple_dequeue,
    .pick_next = simple_pick_next,
    .tick = simple_tick,
    .yield = simple_yield,
};
