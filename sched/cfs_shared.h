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

#endif
