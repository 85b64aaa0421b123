/*
 * sched/cfs_shared.h - code the CFS of 2.6.23 (sched/cfs23.c) and of 2.6.24
 * (sched/cfs.c) share, included by each after it defines struct cfs_entity
 * (weight, inv_weight, rt_node, on_rq, exec_start, sum_exec_runtime),
 * struct runqueue (load_weight, cpu_load, rt_queue, rt_bitmap,
 * rt_nr_running) and se_of(): the CPU load (weighted_cpuload),
 * set_load_weight, and the real-time class (kernel/sched_rt.c, the same in
 * both releases as far as this kernel models it).
 */
#ifndef SCHED_CFS_SHARED_H
#define SCHED_CFS_SHARED_H

static void update_cpu_load(struct runqueue *rq)
{
    rq->cpu_load = rq->load_weight + (uint32_t)rq->rt_nr_running * (2 * prio_to_weight[0]);
}

/* set_load_weight: RT tasks weigh twice nice -20. */
static void set_load_weight(struct task *p, struct cfs_entity *se, int nice)
{
    if (task_is_rt(p)) {
        se->weight = prio_to_weight[0] * 2;
        se->inv_weight = prio_to_wmult[0] >> 1;
    } else {
        se->weight = prio_to_weight[nice + 20];
        se->inv_weight = prio_to_wmult[nice + 20];
    }
}

/* ---- the real-time class: 2.6.24 kernel/sched_rt.c ---- */

/* The list a task queues on: its rt_priority, 1..99 (higher runs first). */
static int rt_index(const struct task *p)
{
    int prio = p->rt_priority;
    return prio < 1 ? 1 : prio > MAX_RT_PRIO - 1 ? MAX_RT_PRIO - 1 : prio;
}

static void rt_enqueue(struct runqueue *rq, struct task *p)
{
    int prio = rt_index(p);
    list_add_tail(&se_of(p)->rt_node, &rq->rt_queue[prio]);
    rq->rt_bitmap[prio / 32] |= 1u << (prio % 32);
    rq->rt_nr_running++;
    se_of(p)->on_rq = 1;
    update_cpu_load(rq);
}

static void rt_dequeue(struct runqueue *rq, struct task *p)
{
    int prio = rt_index(p);
    list_del(&se_of(p)->rt_node);
    if (list_empty(&rq->rt_queue[prio]))
        rq->rt_bitmap[prio / 32] &= ~(1u << (prio % 32));
    rq->rt_nr_running--;
    se_of(p)->on_rq = 0;
    update_cpu_load(rq);
}

/* Highest queued rt_priority, or -1. */
static int rt_highest(struct runqueue *rq)
{
    for (int word = ARRAY_SIZE(rq->rt_bitmap) - 1; word >= 0; word--)
        if (rq->rt_bitmap[word])
            return word * 32 + 31 - __builtin_clz(rq->rt_bitmap[word]);
    return -1;
}

static void update_curr_rt(struct task *curr)
{
    struct cfs_entity *se = se_of(curr);
    uint64_t now = sched_clock_ns();
    uint64_t delta = now - se->exec_start;
    if ((int64_t)delta > 0)
        se->sum_exec_runtime += delta;
    se->exec_start = now;
}

static unsigned int ilog2_u(unsigned int x)
{
    unsigned int r = 0;
    while (x >>= 1)
        r++;
    return r;
}

/* ---- the run queue's clock (rq->clock): 2.6.23 / 2.6.24 __update_rq_clock, rc1 __rq_clock ---- */

#ifndef CFS_RQ_CLOCK_RC1
#define CFS_RQ_CLOCK_RC1 0
#endif
#define TICK_NS (1000000000ull / HZ)

/*
 * Read sched_clock() into rq->clock, kept monotonic: a step back counts
 * 1 ns (clock_warps); a jump forward is cut (clock_overflows): to one tick
 * past the last tick's stamp (2.6.23, 2.6.24), or to 1 ns when it exceeds
 * two ticks (2.6.23-rc1).  Every reader of time in the fair class reads
 * rq->clock; where this runs, and how often, is each release's
 * (sched/cfs23.c, sched/cfs.c).
 */
static uint64_t __update_rq_clock(struct runqueue *rq)
{
    uint64_t now = sched_clock_ns();
    int64_t delta = (int64_t)(now - rq->prev_clock_raw);
    uint64_t clock = rq->clock;
    rq->clock_reads++;
    if (delta < 0) {
        clock++;
        rq->clock_warps++;
    } else if (CFS_RQ_CLOCK_RC1 ? (uint64_t)delta > 2 * TICK_NS
                                : clock + (uint64_t)delta > rq->tick_timestamp + TICK_NS) {
        if (!CFS_RQ_CLOCK_RC1 && clock < rq->tick_timestamp + TICK_NS)
            clock = rq->tick_timestamp + TICK_NS;
        else
            clock++;
        rq->clock_overflows++;
    } else {
        clock += (uint64_t)delta;
    }
    rq->prev_clock_raw = now;
    rq->clock = clock;
    return clock;
}

/* update_rq_clock (rq_clock in rc1): only the CPU that owns the queue reads sched_clock(). */
static void rq_clock_at(int cpu)
{
    if (cpu == sched_this_cpu())
        __update_rq_clock(&runqueues[cpu]);
}

/* scheduler_tick's read; 2.6.23 and 2.6.24 "let rq->clock advance by at least TICK_NSEC". */
static void rq_clock_tick(struct runqueue *rq)
{
    uint64_t next_tick = rq->tick_timestamp + TICK_NS;
    __update_rq_clock(rq);
    if (!CFS_RQ_CLOCK_RC1) {
        if (rq->clock < next_tick)
            rq->clock = next_tick;
        rq->tick_timestamp = rq->clock;
    }
}

static void rq_clock_init(struct runqueue *rq)
{
    rq->clock = rq->prev_clock_raw = rq->tick_timestamp = sched_clock_ns();
    rq->clock_warps = rq->clock_overflows = rq->clock_reads = 0;
    rq->clock_fresh = false;
}

#endif
