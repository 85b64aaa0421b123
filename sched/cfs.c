/*
 * sched/cfs.c - SCHED=cfs: the Completely Fair Scheduler as released in
 * Linux 2.6.24 (the vruntime / min_vruntime / place_entity version), modelled
 * on kernel/sched_fair.c, kernel/sched_rt.c and kernel/sched.c of 2.6.24
 * (set_load_weight, calc_delta_mine, sched_init_granularity, try_to_wake_up,
 * wake_up_new_task, set_user_nice, sys_sched_yield, load_balance, pull_task).
 * It is NOT 2.6.23's CFS: there is no fair_clock and no wait_runtime here.
 *
 * Algorithm (SCHED_NORMAL and SCHED_BATCH)
 *   Every task has a weight from its nice level, prio_to_weight[] (1024 at
 *   nice 0, about x1.25 per level), and a virtual runtime: the CPU time it
 *   has used, scaled by NICE_0_LOAD / weight (calc_delta_fair, done with the
 *   2^32/weight reciprocals of prio_to_wmult[] exactly as 2.6.24 does on a
 *   32-bit machine).  Each CPU has a cfs_rq: a red-black tree of its waiting
 *   tasks ordered by vruntime (kernel/rbtree.h; equal keys go to the right)
 *   with the leftmost node cached, plus min_vruntime, which only moves
 *   forward: max(min_vruntime, min(curr, leftmost)).  The task to run next is
 *   always the leftmost.  The running task is kept OUT of the tree
 *   (cfs_rq->curr): put_prev puts it back at its new vruntime, set_next takes
 *   the next one out, as 2.6.24 put_prev_entity / set_next_entity do.
 *
 *   Tick: the running task's vruntime advances (update_curr); it is preempted
 *   once it has run longer than its slice since it was picked:
 *     period = sysctl_sched_latency if nr_running <= sched_nr_latency (5),
 *              else latency * nr_running / 5;
 *     slice  = period * weight / cfs_rq load  (sched_slice).
 *   So N equal hogs each get period/N, and over time CPU time is split in
 *   proportion to the weights: nice 0 vs nice 5 gets 1024:335 (3.06x).
 *
 *   place_entity, starting from min_vruntime:
 *     new task (START_DEBIT): + the vslice it would get with itself counted,
 *       period(nr+1) * 1024 / (load + w), so a stream of new tasks cannot
 *       starve the tasks already there;
 *     waking task (NEW_FAIR_SLEEPERS): max(own vruntime, min_vruntime -
 *       sysctl_sched_latency): a sleeper gets at most one latency of credit.
 *   Wake-up preemption (WAKEUP_PREEMPT): a woken or new task preempts the
 *   running fair task when woken.vruntime + gran < curr.vruntime, gran =
 *   sysctl_sched_wakeup_granularity scaled by 1024/curr weight; SCHED_BATCH
 *   tasks never preempt on wake-up; real-time tasks always preempt fair ones.
 *   Fork (task_new_fair): the child is placed as above; with
 *   sysctl_sched_child_runs_first (default 1), on the parent's CPU, if the
 *   parent's vruntime is smaller than the child's the two are swapped; then
 *   the parent's CPU is rescheduled, so the child runs first.
 *   Yield: with sysctl_sched_compat_yield off (the default) yield only
 *   updates the runtime and lets schedule() requeue the task at its vruntime
 *   (it keeps the CPU if it is still leftmost); with it on, or for
 *   SCHED_BATCH, the task moves behind the rightmost task.
 *   set_nice reweights a queued task in place (vruntime unchanged).
 *
 * Tunables (Linux names; granularities in ns, set at init as 2.6.24's
 * sched_init_granularity does: multiplied by 1 + ilog2(ncpus), i.e. x1, x2,
 * x3, x4 for 1, 2, 4, 8 CPUs; latency and min_granularity capped at 200 ms)
 *   sysctl_sched_latency               20 ms  targeted preemption latency
 *   sysctl_sched_min_granularity        4 ms  (sched_nr_latency stays 5)
 *   sysctl_sched_wakeup_granularity    10 ms  wake-up preemption threshold
 *   sysctl_sched_batch_wakeup_granularity 10 ms  scaled like 2.6.24, unused
 *                                      by its fair class (batch never preempts)
 *   sysctl_sched_child_runs_first       1     build: -DCFS_CHILD_RUNS_FIRST=0
 *   sysctl_sched_compat_yield           0     build: -DCFS_COMPAT_YIELD=1
 *   sysctl_sched_features  NEW_FAIR_SLEEPERS | WAKEUP_PREEMPT | START_DEBIT
 *   sysctl_sched_nr_migrate            32     tasks examined per balance
 *   (make CFLAGS_EXTRA='-DCFS_CHILD_RUNS_FIRST=0' SCHED=cfs; the host tests
 *   set the variables directly.)
 *
 * Real-time class (SCHED_FIFO / SCHED_RR), from 2.6.24 kernel/sched_rt.c
 *   Above every fair task.  Per CPU, one FIFO list per rt_priority (1..99,
 *   higher wins) and a bitmap; the running RT task stays in its list.
 *   FIFO runs until it blocks or yields (yield: to the tail of its list); RR
 *   gets DEF_TIMESLICE (100 ms) and goes to the tail of its list when it runs
 *   out.  A woken RT task preempts a fair task or a lower-priority RT task on
 *   its CPU.  RT tasks count with weight 2 x 88761 in the CPU load, so the
 *   load balancer spreads them like everything else (2.6.24 did the same
 *   through load_balance_rt).  There is no 2.6.25-style RT push/pull.
 *
 * SMP (2.6.24 with one flat scheduling domain, SD_CPU_INIT)
 *   - Per-CPU run queues, each with its own lock (cfs_rq + RT lists).
 *   - Fork: SD_CPU_INIT has no SD_BALANCE_FORK, so the child starts on the
 *     parent's CPU (if allowed; else the least loaded allowed CPU); the
 *     balancer spreads it.
 *   - Wake-up (try_to_wake_up, SD_WAKE_AFFINE): the task's previous CPU,
 *     unless the waker's CPU passes the wake-affine test: a sync wake-up of a
 *     cache-cold task (not run for sysctl_sched_migration_cost, 0.5 ms), or
 *     (waker load, less the waker itself when sync, <= previous CPU's load
 *     and their sum <= the waker CPU's load per task), or 100 x (waker load +
 *     task weight) <= 112 x previous CPU's load (112 = 100 + (imbalance_pct
 *     125 - 100) / 2).  No wake-idle search (not set for SD_CPU_INIT).
 *   - Periodic balancing (rebalance_domains / load_balance), from balance():
 *     every 1 ms on an idle CPU (min_interval), every 64 ms on a busy one
 *     (balance_interval x busy_factor 64).  Pull from the allowed CPU with
 *     the largest load weight if 100 x its load > imbalance_pct (125) x ours.
 *   - Newly idle balancing (idle_balance, load_balance_newidle): pick_next on
 *     an empty queue pulls from the busiest CPU, taking its lock with
 *     double_lock_balance as 2.6.24 does.
 *   - Which tasks move (move_tasks / balance_tasks / can_migrate_task): RT
 *     lists first, then the fair tree from the leftmost; never a running
 *     task, never one whose cpus_allowed excludes this CPU, at most
 *     sysctl_sched_nr_migrate examined; a task moves only if its weight is
 *     less than the remaining load difference, so every move strictly
 *     shrinks the imbalance (this stands in for 2.6.24's imbalance / 2 and
 *     fix_small_imbalance arithmetic and cannot ping-pong a task between two
 *     CPUs).  A moved fair task keeps its place relative to min_vruntime:
 *     vruntime += dst min_vruntime - src min_vruntime (set_task_cpu), then
 *     check_preempt_curr as pull_task does.
 *
 * Deviations from 2.6.24, and why
 *   - CPU loads are the instantaneous weight sums, not the decayed
 *     cpu_load[] averages, and there is no cache-hot refusal in the balancer
 *     (nr_balance_failed / cache_nice_tries): one flat domain of QEMU vCPUs
 *     has no cache topology to protect, and the averages only delay moves.
 *   - Group scheduling (CONFIG_FAIR_GROUP_SCHED) and SCHED_IDLE are absent.
 *   - A task created by the boot/idle context (no parent) is placed like a
 *     forked child (START_DEBIT) without the swap; 2.6.24 has no such case.
 *   - Wake-up preemption compares vruntimes as signed differences; 2.6.24
 *     compared the raw u64 values (wrong for a moment near the wrap that its
 *     min_vruntime start value of -2^20 ns provokes; we start there too).
 *   - A woken task whose vruntime was measured on another CPU is renormalised
 *     (set_task_cpu) by reading that CPU's min_vruntime without its lock,
 *     through a sequence counter (a 64-bit value on a 32-bit CPU).
 *
 * Time: the core's nanosecond sched_clock_ns() is 2.6.24's rq->clock; the
 * tick (HZ, 1000 by default) only decides how soon a slice end is noticed.
 */
#include "sched.h"
#include "../kernel/rbtree.h"

/* ---- tunables (2.6.24 kernel/sched_fair.c, kernel/sched.c) ---- */

#ifndef CFS_CHILD_RUNS_FIRST
#define CFS_CHILD_RUNS_FIRST 1
#endif
#ifndef CFS_COMPAT_YIELD
#define CFS_COMPAT_YIELD 0
#endif

/* Base values before sched_init_granularity() scales them. */
#define SCHED_LATENCY_BASE 20000000u
#define SCHED_MIN_GRANULARITY_BASE 4000000u
#define SCHED_WAKEUP_GRANULARITY_BASE 10000000u
#define SCHED_GRANULARITY_LIMIT 200000000u

unsigned int sysctl_sched_latency = SCHED_LATENCY_BASE;
unsigned int sysctl_sched_min_granularity = SCHED_MIN_GRANULARITY_BASE;
static unsigned int sched_nr_latency = 5;    /* latency / min_granularity, not rescaled at init */
unsigned int sysctl_sched_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE;
unsigned int sysctl_sched_batch_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE;
unsigned int sysctl_sched_child_runs_first = CFS_CHILD_RUNS_FIRST;
unsigned int sysctl_sched_compat_yield = CFS_COMPAT_YIELD;
unsigned int sysctl_sched_migration_cost = 500000u;
unsigned int sysctl_sched_nr_migrate = 32;

#define SCHED_FEAT_NEW_FAIR_SLEEPERS 1
#define SCHED_FEAT_WAKEUP_PREEMPT 2
#define SCHED_FEAT_START_DEBIT 4
unsigned int sysctl_sched_features = SCHED_FEAT_NEW_FAIR_SLEEPERS | SCHED_FEAT_WAKEUP_PREEMPT | SCHED_FEAT_START_DEBIT;
#define sched_feat(x) (sysctl_sched_features & SCHED_FEAT_##x)

/* Load balancing (2.6.24 SD_CPU_INIT: min_interval 1 ms, busy_factor 64, imbalance_pct 125). */
#define BALANCE_IDLE_INTERVAL_MS 1
#define BALANCE_BUSY_INTERVAL_MS 64
#define IMBALANCE_PCT 125
#define WAKE_AFFINE_IMBALANCE (100 + (IMBALANCE_PCT - 100) / 2)

/* Real-time class. */
#define MAX_RT_PRIO 100
#define DEF_TIMESLICE (100 * HZ / 1000 > 0 ? 100 * HZ / 1000 : 1)   /* SCHED_RR, ticks */

/* ---- weights (2.6.24 kernel/sched.c, verbatim constants) ---- */

#define NICE_0_LOAD 1024
#define WMULT_CONST 0xffffffffull   /* ~0UL on a 32-bit kernel, which this is */
#define WMULT_SHIFT 32
#define LONG_MAX_32 0x7fffffffull   /* calc_delta_mine clamps to a 32-bit LONG_MAX */

static const uint32_t prio_to_weight[40] = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548,  7620,  6100,  4904,  3906,
    /*  -5 */ 3121,  2501,  1991,  1586,  1277,
    /*   0 */ 1024,  820,   655,   526,   423,
    /*   5 */ 335,   272,   215,   172,   137,
    /*  10 */ 110,   87,    70,    56,    45,
    /*  15 */ 36,    29,    23,    18,    15,
};

/* 2^32 / weight. */
static const uint32_t prio_to_wmult[40] = {
    /* -20 */ 48388,     59856,     76040,     92818,     118348,
    /* -15 */ 147320,    184698,    229616,    287308,    360437,
    /* -10 */ 449829,    563644,    704093,    875809,    1099582,
    /*  -5 */ 1376151,   1717300,   2157191,   2708050,   3363326,
    /*   0 */ 4194304,   5237765,   6557202,   8165337,   10153587,
    /*   5 */ 12820798,  15790321,  19976592,  24970740,  31350126,
    /*  10 */ 39045157,  49367440,  61356676,  76695844,  95443717,
    /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/* ---- per-task and per-CPU state ---- */

struct cfs_entity {
    struct rb_node run_node;        /* in the cfs_rq tree while waiting */
    struct list_head rt_node;       /* in an RT priority list while queued (RT tasks) */
    uint64_t vruntime;              /* ns of CPU time x 1024 / weight */
    uint64_t exec_start;            /* clock at the last update_curr / pick */
    uint64_t sum_exec_runtime;      /* CPU time used, ns */
    uint64_t prev_sum_exec_runtime; /* sum_exec_runtime when last picked: the slice check */
    uint32_t weight;                /* load.weight */
    uint32_t inv_weight;            /* load.inv_weight = 2^32 / weight */
    int on_rq;                      /* counted in the cfs_rq (or RT queue) */
    int is_rt;                      /* queued in the RT class */
    int rt_time_slice;              /* SCHED_RR ticks left */
    int vruntime_cpu;               /* the CPU whose min_vruntime vruntime is measured against */
    int fork_cpu;                   /* the CPU that forked it (child_runs_first) */
};

/* The lock and rq->nr_running of 2.6.24 (both classes) are the core's:
 * sched_rq_lock(cpu), sched_nr_queued(cpu). */
struct runqueue {
    /* fair class (struct cfs_rq) */
    struct rb_root_cached tasks_timeline;
    struct cfs_entity *curr;        /* running fair task, out of the tree; NULL if none */
    uint64_t min_vruntime;
    volatile uint32_t min_vruntime_seq; /* odd while min_vruntime is being written */
    uint32_t load_weight;           /* cfs_rq->load.weight: fair tasks, running one included */
    int nr_running;                 /* cfs_rq->nr_running */
    /* real-time class (struct rt_rq) */
    struct list_head rt_queue[MAX_RT_PRIO];
    uint32_t rt_bitmap[(MAX_RT_PRIO + 31) / 32];
    int rt_nr_running;
    /* read without the lock by other CPUs: wake-up placement, balancing, statistics */
    volatile uint32_t cpu_load;     /* fair load + RT weights: rq->load.weight */
    uint64_t next_balance;          /* jiffies */
} __attribute__((aligned(64)));

static struct runqueue runqueues[MAX_CPUS];

static struct cfs_entity *se_of(struct task *p) { return SCHED_TASK(p, struct cfs_entity); }
static struct task *task_of(struct cfs_entity *se) { return sched_task_of(se, 0); }
static struct cfs_entity *se_of_node(const struct rb_node *n)
{
    return rb_entry((struct rb_node *)n, struct cfs_entity, run_node);
}

static inline void compiler_barrier(void) { __asm__ volatile("" ::: "memory"); }

static inline int64_t vdiff(uint64_t a, uint64_t b) { return (int64_t)(a - b); }
static inline uint64_t max_vruntime(uint64_t min_vruntime, uint64_t vruntime)
{
    return vdiff(vruntime, min_vruntime) > 0 ? vruntime : min_vruntime;
}
static inline uint64_t min_vruntime(uint64_t min_vruntime, uint64_t vruntime)
{
    return vdiff(vruntime, min_vruntime) < 0 ? vruntime : min_vruntime;
}

/* Tree order: vruntime - min_vruntime (entity_key), i.e. the signed difference. */
static bool entity_before(const struct rb_node *a, const struct rb_node *b)
{
    return vdiff(se_of_node(a)->vruntime, se_of_node(b)->vruntime) < 0;
}

/* min_vruntime is 64 bits on a 32-bit CPU: written under the lock inside a
 * sequence count, so other CPUs can read it consistently without the lock. */
static void set_min_vruntime(struct runqueue *rq, uint64_t v)
{
    rq->min_vruntime_seq++;
    compiler_barrier();
    rq->min_vruntime = v;
    compiler_barrier();
    rq->min_vruntime_seq++;
}

static uint64_t read_min_vruntime_unlocked(struct runqueue *rq)
{
    for (;;) {
        uint32_t seq = rq->min_vruntime_seq;
        compiler_barrier();
        uint64_t v = rq->min_vruntime;
        compiler_barrier();
        if (!(seq & 1) && seq == rq->min_vruntime_seq)
            return v;
    }
}

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

/* Shift right and round (SRR). */
static inline uint64_t shift_round(uint64_t x, int y) { return (x + (1ull << (y - 1))) >> y; }

/* calc_delta_mine(delta, weight, lw) = delta * weight / lw.weight with the
 * cached reciprocal, exactly as 2.6.24 does it on a 32-bit kernel. */
static uint64_t calc_delta_mine(uint64_t delta_exec, uint32_t weight, uint32_t inv_weight)
{
    uint64_t tmp = delta_exec * weight;
    if (tmp > WMULT_CONST)
        tmp = shift_round(shift_round(tmp, WMULT_SHIFT / 2) * inv_weight, WMULT_SHIFT / 2);
    else
        tmp = shift_round(tmp * inv_weight, WMULT_SHIFT);
    return tmp < LONG_MAX_32 ? tmp : LONG_MAX_32;
}

static uint64_t calc_delta_fair(uint64_t delta_exec, const struct cfs_entity *se)
{
    return calc_delta_mine(delta_exec, NICE_0_LOAD, se->inv_weight);
}

/* ---- the fair class: 2.6.24 kernel/sched_fair.c ---- */

/* __sched_period: one latency for up to sched_nr_latency tasks, stretched beyond. */
static uint64_t sched_period(unsigned long nr_running)
{
    uint64_t period = sysctl_sched_latency;
    if (nr_running > sched_nr_latency)
        period = period * nr_running / sched_nr_latency;
    return period;
}

/* sched_slice: the wall-time share of one period. */
static uint64_t sched_slice(struct runqueue *rq, struct cfs_entity *se)
{
    return sched_period(rq->nr_running) * se->weight / rq->load_weight;
}

/* __sched_vslice: a period in vruntime units. */
static uint64_t sched_vslice(uint32_t rq_weight, unsigned long nr_running)
{
    return sched_period(nr_running) * NICE_0_LOAD / rq_weight;
}

static uint64_t sched_vslice_add(struct runqueue *rq, struct cfs_entity *se)
{
    return sched_vslice(rq->load_weight + se->weight, rq->nr_running + 1);
}

/* update_curr: charge the running fair task and move min_vruntime forward. */
static void update_curr(struct runqueue *rq)
{
    struct cfs_entity *curr = rq->curr;
    if (!curr)
        return;
    uint64_t now = sched_clock_ns();
    uint64_t delta_exec = now - curr->exec_start;
    if ((int64_t)delta_exec < 0)
        delta_exec = 0;
    if (delta_exec > 0xffffffffull)      /* an unsigned long on 2.6.24/i386 */
        delta_exec = 0xffffffffull;
    curr->exec_start = now;
    curr->sum_exec_runtime += delta_exec;
    uint64_t weighted = delta_exec;
    if (curr->weight != NICE_0_LOAD)
        weighted = calc_delta_fair(delta_exec, curr);
    curr->vruntime += weighted;

    uint64_t vruntime = curr->vruntime;
    struct rb_node *left = rb_first_cached(&rq->tasks_timeline);
    if (left)
        vruntime = min_vruntime(vruntime, se_of_node(left)->vruntime);
    set_min_vruntime(rq, max_vruntime(rq->min_vruntime, vruntime));
}

static void enqueue_tree(struct runqueue *rq, struct cfs_entity *se)
{
    rb_add_cached(&se->run_node, &rq->tasks_timeline, entity_before);
}

static void dequeue_tree(struct runqueue *rq, struct cfs_entity *se)
{
    rb_erase_cached(&se->run_node, &rq->tasks_timeline);
}

static void account_enqueue(struct runqueue *rq, struct cfs_entity *se)
{
    rq->load_weight += se->weight;
    rq->nr_running++;
    se->on_rq = 1;
    update_cpu_load(rq);
}

static void account_dequeue(struct runqueue *rq, struct cfs_entity *se)
{
    rq->load_weight -= se->weight;
    rq->nr_running--;
    se->on_rq = 0;
    update_cpu_load(rq);
}

static void place_entity(struct runqueue *rq, struct cfs_entity *se, bool initial)
{
    uint64_t vruntime = rq->min_vruntime;
    /* The current period is promised to the tasks already here; the new
     * one's weight slows them a little, so it goes into the slot that stays
     * open at the end. */
    if (initial && sched_feat(START_DEBIT))
        vruntime += sched_vslice_add(rq, se);
    if (!initial) {
        /* Sleeps up to one latency do not count. */
        if (sched_feat(NEW_FAIR_SLEEPERS))
            vruntime -= sysctl_sched_latency;
        /* Never gain time by being placed backwards. */
        vruntime = max_vruntime(se->vruntime, vruntime);
    }
    se->vruntime = vruntime;
}

/* set_next_entity: the picked task leaves the tree and starts a new slice. */
static void set_next_entity(struct runqueue *rq, struct cfs_entity *se)
{
    dequeue_tree(rq, se);
    se->exec_start = sched_clock_ns();
    rq->curr = se;
    se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* put_prev_entity: the task that ran goes back into the tree if still queued. */
static void put_prev_entity(struct runqueue *rq, struct cfs_entity *prev)
{
    if (prev->on_rq) {
        update_curr(rq);
        enqueue_tree(rq, prev);
    }
    rq->curr = NULL;
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

/* ---- shared pieces ---- */

/* check_preempt_curr: should p, just queued on cpu, preempt what runs there? */
static void check_preempt_curr(int cpu, struct task *p)
{
    struct runqueue *rq = &runqueues[cpu];
    struct task *curr = sched_cpu_curr(cpu);
    if (curr->is_idle) {
        sched_resched_cpu(cpu);
        return;
    }
    if (task_is_rt(curr)) {
        /* check_preempt_curr_rt: only a higher RT priority preempts. */
        if (task_is_rt(p) && rt_index(p) > rt_index(curr))
            sched_resched_cpu(cpu);
        return;
    }
    /* check_preempt_wakeup: curr is a fair task. */
    if (task_is_rt(p)) {
        update_curr(rq);
        sched_resched_cpu(cpu);
        return;
    }
    if (p->policy == SCHED_BATCH || !sched_feat(WAKEUP_PREEMPT))
        return;
    struct cfs_entity *se = rq->curr, *pse = se_of(p);
    if (!se || se == pse)
        return;
    uint64_t gran = sysctl_sched_wakeup_granularity;
    if (se->weight != NICE_0_LOAD)
        gran = calc_delta_fair(gran, se);
    if (vdiff(pse->vruntime + gran, se->vruntime) < 0)
        sched_resched_cpu(cpu);
}

/* Put a fair task (not running, not in any tree) into cpu's queue. */
static void enqueue_fair(struct runqueue *rq, int cpu, struct cfs_entity *se)
{
    se->vruntime_cpu = cpu;
    enqueue_tree(rq, se);
    account_enqueue(rq, se);
}

/* ---- the sched_class hooks ---- */

static unsigned int ilog2_u(unsigned int x)
{
    unsigned int r = 0;
    while (x >>= 1)
        r++;
    return r;
}

/* sched_init_granularity (2.6.24 kernel/sched.c). */
static void sched_init_granularity(int ncpus)
{
    unsigned int factor = 1 + ilog2_u((unsigned int)ncpus);
    sysctl_sched_min_granularity = SCHED_MIN_GRANULARITY_BASE * factor;
    if (sysctl_sched_min_granularity > SCHED_GRANULARITY_LIMIT)
        sysctl_sched_min_granularity = SCHED_GRANULARITY_LIMIT;
    sysctl_sched_latency = SCHED_LATENCY_BASE * factor;
    if (sysctl_sched_latency > SCHED_GRANULARITY_LIMIT)
        sysctl_sched_latency = SCHED_GRANULARITY_LIMIT;
    sysctl_sched_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE * factor;
    sysctl_sched_batch_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE * factor;
}

static void cfs_init(int ncpus)
{
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        rb_root_cached_init(&rq->tasks_timeline);
        rq->curr = NULL;
        /* init_cfs_rq: start just below the 64-bit wrap, so wrap bugs show at once. */
        rq->min_vruntime = (uint64_t)(-(int64_t)(1 << 20));
        rq->min_vruntime_seq = 0;
        rq->load_weight = 0;
        rq->nr_running = 0;
        for (int prio = 0; prio < MAX_RT_PRIO; prio++)
            list_init(&rq->rt_queue[prio]);
        for (unsigned i = 0; i < ARRAY_SIZE(rq->rt_bitmap); i++)
            rq->rt_bitmap[i] = 0;
        rq->rt_nr_running = 0;
        rq->next_balance = 0;
        update_cpu_load(rq);
    }
    sched_init_granularity(ncpus);
    sched_log("cfs: Linux 2.6.24 CFS (vruntime), %d cpus: sched_latency=%u ns min_granularity=%u ns "
              "wakeup_granularity=%u ns nr_latency=%u child_runs_first=%u compat_yield=%u HZ=%d",
              ncpus, sysctl_sched_latency, sysctl_sched_min_granularity, sysctl_sched_wakeup_granularity,
              sched_nr_latency, sysctl_sched_child_runs_first, sysctl_sched_compat_yield, HZ);
}

/* sched_fork / __sched_fork: a fresh entity; placement happens at the first enqueue. */
static void cfs_task_fork(struct task *parent, struct task *child)
{
    (void)parent;
    struct cfs_entity *se = se_of(child);
    *se = (struct cfs_entity){ 0 };
    list_init(&se->rt_node);
    set_load_weight(child, se, child->nice);
    se->rt_time_slice = DEF_TIMESLICE;
    se->fork_cpu = child->cpu;
    se->vruntime_cpu = child->cpu;
}

static uint32_t load_of(int cpu) { return runqueues[cpu].cpu_load; }

/* The least loaded allowed CPU, preferring prefer on a tie. */
static int least_loaded_allowed(struct task *p, int prefer)
{
    int best = -1;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (!task_allowed_on(p, cpu))
            continue;
        if (best < 0 || load_of(cpu) < load_of(best) || (load_of(cpu) == load_of(best) && cpu == prefer))
            best = cpu;
    }
    return best;
}

/* task_hot: ran within sysctl_sched_migration_cost (its cache is still warm). */
static bool task_hot(struct task *p)
{
    return vdiff(sched_clock_ns(), se_of(p)->exec_start) < (int64_t)sysctl_sched_migration_cost;
}

/* try_to_wake_up's CPU choice with one SD_CPU_INIT domain (racy reads, as in Linux). */
static int cfs_select_cpu(struct task *p, int waker_cpu, int flags)
{
    int prev = p->cpu;
    if (!task_allowed_on(p, prev))
        return least_loaded_allowed(p, task_allowed_on(p, waker_cpu) ? waker_cpu : prev);
    if (flags & WAKE_NEW)
        return prev;                     /* no SD_BALANCE_FORK: start on the parent's CPU */
    int this_cpu = waker_cpu;
    if (prev == this_cpu || !task_allowed_on(p, this_cpu))
        return prev;
    bool sync = (flags & WAKE_SYNC) != 0;
    /* SD_WAKE_AFFINE: attract cache-cold tasks on sync wake-ups. */
    if (sync && !task_hot(p))
        return this_cpu;
    uint64_t this_load = load_of(this_cpu), load = load_of(prev);
    int this_nr = sched_nr_queued(this_cpu);
    uint64_t tl = this_load;
    if (sync) {
        struct task *waker = sched_cpu_curr(this_cpu);
        uint32_t w = waker->is_idle ? 0 : se_of(waker)->weight;
        tl = tl > w ? tl - w : 0;
    }
    uint64_t tl_per_task = this_nr ? this_load / (uint64_t)this_nr : NICE_0_LOAD;
    if ((tl <= load && tl + load <= tl_per_task) ||
        100 * (tl + se_of(p)->weight) <= (uint64_t)WAKE_AFFINE_IMBALANCE * load)
        return this_cpu;
    return prev;
}

static void cfs_enqueue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    if (task_is_rt(p)) {
        se->is_rt = 1;
        se->vruntime_cpu = cpu;
        rt_enqueue(rq, p);
        check_preempt_curr(cpu, p);
        return;
    }
    se->is_rt = 0;
    update_curr(rq);
    bool new_task = (flags & ENQUEUE_NEW) != 0;
    if (flags & ENQUEUE_MIGRATE) {
        /* Moved by the core (affinity): keep its distance to min_vruntime, no sleeper credit. */
        se->vruntime += rq->min_vruntime;
    } else if (new_task) {
        /* task_new_fair */
        place_entity(rq, se, true);
        struct cfs_entity *curr = rq->curr;
        if (p->parent && sysctl_sched_child_runs_first && cpu == se->fork_cpu && curr &&
            vdiff(curr->vruntime, se->vruntime) < 0) {
            /* The parent is curr here (out of the tree): swap, so the child is leftmost. */
            uint64_t v = curr->vruntime;
            curr->vruntime = se->vruntime;
            se->vruntime = v;
        }
    } else {
        if (se->vruntime_cpu != cpu) {
            /* set_task_cpu: woken on another CPU than it slept on. */
            uint64_t old_min = read_min_vruntime_unlocked(&runqueues[se->vruntime_cpu]);
            se->vruntime = se->vruntime - old_min + rq->min_vruntime;
        }
        if (flags & ENQUEUE_WAKEUP)
            place_entity(rq, se, false);
    }
    enqueue_fair(rq, cpu, se);
    if (new_task && p->parent)
        sched_resched_cpu(cpu);          /* task_new_fair: resched_task(rq->curr) */
    else
        check_preempt_curr(cpu, p);
}

static void cfs_dequeue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    if (se->is_rt) {
        if (sched_cpu_curr(cpu) == p)
            update_curr_rt(p);
        rt_dequeue(rq, p);
        return;
    }
    update_curr(rq);
    if (se != rq->curr)
        dequeue_tree(rq, se);
    account_dequeue(rq, se);
    se->vruntime_cpu = cpu;
    if (flags & DEQUEUE_MIGRATE)
        se->vruntime -= rq->min_vruntime;   /* relative until the ENQUEUE_MIGRATE that follows */
}

/* pull_task: both run-queue locks held; p is queued on src, not running, allowed on dst. */
static void move_task(int src, int dst, struct task *p, bool check_preempt)
{
    struct runqueue *srq = &runqueues[src], *drq = &runqueues[dst];
    struct cfs_entity *se = se_of(p);
    if (se->is_rt) {
        rt_dequeue(srq, p);
        sched_set_task_cpu(p, dst);
        rt_enqueue(drq, p);
        se->vruntime_cpu = dst;
    } else {
        dequeue_tree(srq, se);
        account_dequeue(srq, se);
        se->vruntime = se->vruntime - srq->min_vruntime + drq->min_vruntime;
        sched_set_task_cpu(p, dst);
        update_curr(drq);
        enqueue_fair(drq, dst, se);
    }
    if (check_preempt)
        check_preempt_curr(dst, p);
}

static bool can_migrate(int src, int dst, struct task *p)
{
    return task_allowed_on(p, dst) && !sched_task_running(p) && sched_cpu_curr(src) != p;
}

/*
 * move_tasks: both locks held.  Pull tasks from src to dst while each move
 * makes the load difference strictly smaller (weight < remaining
 * difference); RT lists first (highest priority first), then the fair tree
 * from the leftmost.  Returns the number of tasks moved.
 */
static int move_tasks(int dst, int src, bool check_preempt)
{
    struct runqueue *srq = &runqueues[src];
    int64_t rem = (int64_t)load_of(src) - (int64_t)load_of(dst);
    int moved = 0;
    unsigned int loops = 0;
    if (rem <= 0)
        return 0;
    for (int prio = MAX_RT_PRIO - 1; prio > 0 && rem > 0; prio--) {
        struct list_head *pos, *tmp;
        list_for_each_safe(pos, tmp, &srq->rt_queue[prio]) {
            if (rem <= 0 || loops++ > sysctl_sched_nr_migrate)
                return moved;
            struct task *p = task_of(list_entry(pos, struct cfs_entity, rt_node));
            uint32_t w = se_of(p)->weight;
            if ((int64_t)w < rem && can_migrate(src, dst, p)) {
                move_task(src, dst, p, check_preempt);
                rem -= 2 * (int64_t)w;
                moved++;
            }
        }
    }
    struct rb_node *node = rb_first_cached(&srq->tasks_timeline);
    while (node && rem > 0 && loops++ <= sysctl_sched_nr_migrate) {
        struct rb_node *next = rb_next(node);
        struct cfs_entity *se = se_of_node(node);
        struct task *p = task_of(se);
        if ((int64_t)se->weight < rem && can_migrate(src, dst, p)) {
            move_task(src, dst, p, check_preempt);
            rem -= 2 * (int64_t)se->weight;
            moved++;
        }
        node = next;
    }
    return moved;
}

/* find_busiest_queue: the most loaded other CPU with a task that could move,
 * skipping the CPUs in exclude (found all pinned this round). */
static int find_busiest(int this_cpu, cpumask_t exclude)
{
    int busiest = -1;
    for (int cpu = 0; cpu < sched_nr_cpus(); cpu++) {
        if (cpu == this_cpu || sched_nr_queued(cpu) < 2 || (exclude & CPU_BIT(cpu)))
            continue;
        if (busiest < 0 || load_of(cpu) > load_of(busiest))
            busiest = cpu;
    }
    return busiest;
}

/* idle_balance / load_balance_newidle: from pick_next on an empty queue, our
 * lock held; the busiest queue's lock is taken as 2.6.24 does, with
 * double_lock_balance (which may drop ours for a moment).  A CPU whose
 * waiting tasks may not come here is skipped (all_pinned). */
static void idle_balance(int cpu)
{
    cpumask_t exclude = 0;
    for (int tries = 0; tries < sched_nr_cpus(); tries++) {
        int busiest = find_busiest(cpu, exclude);
        if (busiest < 0)
            return;
        sched_double_lock_balance(cpu, busiest);
        int moved = move_tasks(cpu, busiest, false);
        sched_unlock_other(cpu, busiest);
        if (moved)
            return;
        exclude |= CPU_BIT(busiest);
    }
}

static struct task *cfs_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    if (!prev->is_idle) {
        struct cfs_entity *pse = se_of(prev);
        if (pse->is_rt)
            update_curr_rt(prev);
        else if (rq->curr == pse)
            put_prev_entity(rq, pse);
    }
    if (rq->nr_running == 0 && rq->rt_nr_running == 0 && sched_nr_cpus() > 1)
        idle_balance(cpu);
    int prio = rt_highest(rq);
    if (prio > 0) {
        struct task *next = task_of(list_first_entry(&rq->rt_queue[prio], struct cfs_entity, rt_node));
        se_of(next)->exec_start = sched_clock_ns();
        return next;
    }
    struct rb_node *left = rb_first_cached(&rq->tasks_timeline);
    if (!left)
        return NULL;
    struct cfs_entity *se = se_of_node(left);
    set_next_entity(rq, se);
    /* On the trace timeline; written with only next live, so that its static
     * key leaves the code before it as it was. */
    struct task *next = task_of(se);
    sched_trace_event(next->cpu, "vruntime", se_of(next)->vruntime);
    return next;
}

static void cfs_tick(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    if (curr->is_idle)
        return;
    struct cfs_entity *se = se_of(curr);
    if (se->is_rt) {
        /* task_tick_rt */
        update_curr_rt(curr);
        if (curr->policy != SCHED_RR || --se->rt_time_slice > 0)
            return;
        se->rt_time_slice = DEF_TIMESLICE;
        if (se->rt_node.prev != se->rt_node.next) {     /* not alone at its priority */
            list_move_tail(&se->rt_node, &rq->rt_queue[rt_index(curr)]);
            sched_resched_cpu(cpu);
        }
        return;
    }
    /* entity_tick */
    update_curr(rq);
    if (rq->rt_nr_running > 0) {
        sched_resched_cpu(cpu);          /* an RT task waits (normally caught at its enqueue) */
        return;
    }
    if (rq->curr == se && (rq->nr_running > 1 || !sched_feat(WAKEUP_PREEMPT))) {
        /* check_preempt_tick */
        uint64_t ideal_runtime = sched_slice(rq, se);
        uint64_t delta_exec = se->sum_exec_runtime - se->prev_sum_exec_runtime;
        if (delta_exec > ideal_runtime)
            sched_resched_cpu(cpu);
    }
}

static void cfs_balance(int cpu, bool idle)
{
    struct runqueue *rq = &runqueues[cpu];
    if (sched_nr_cpus() < 2)
        return;
    uint64_t now = sched_jiffies();
    if ((int64_t)(now - rq->next_balance) < 0)
        return;
    rq->next_balance =
        now + (idle ? SCHED_MS_TO_TICKS(BALANCE_IDLE_INTERVAL_MS) : SCHED_MS_TO_TICKS(BALANCE_BUSY_INTERVAL_MS));
    /* load_balance: when nothing could move from the busiest CPU (all
     * pinned), leave it out and try the next one, as 2.6.24 does. */
    cpumask_t exclude = 0;
    for (int tries = 0; tries < sched_nr_cpus(); tries++) {
        int busiest = find_busiest(cpu, exclude);
        if (busiest < 0)
            return;
        /* find_busiest_group's test: balanced unless 100 x max > imbalance_pct x ours. */
        if (100 * (uint64_t)load_of(busiest) <= (uint64_t)IMBALANCE_PCT * load_of(cpu))
            return;
        sched_double_lock(cpu, busiest);
        int moved = move_tasks(cpu, busiest, true);
        sched_double_unlock(cpu, busiest);
        if (moved)
            return;
        exclude |= CPU_BIT(busiest);
    }
}

/* sys_sched_yield -> yield_task_fair / yield_task_rt; the core calls schedule() next. */
static void cfs_yield(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(curr);
    if (se->is_rt) {
        list_move_tail(&se->rt_node, &rq->rt_queue[rt_index(curr)]);
        return;
    }
    if (rq->nr_running == 1)
        return;
    update_curr(rq);
    if (!sysctl_sched_compat_yield && curr->policy != SCHED_BATCH)
        return;                          /* put_prev requeues it at its vruntime */
    struct rb_node *last = rb_last(&rq->tasks_timeline.root);
    if (!last)
        return;
    struct cfs_entity *rightmost = se_of_node(last);
    if (vdiff(rightmost->vruntime, se->vruntime) < 0)
        return;                          /* already rightmost */
    se->vruntime = rightmost->vruntime + 1;
}

/* set_user_nice: reweight in place; resched if it got more important, or less while running. */
static void cfs_set_nice(int cpu, struct task *p, int nice)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    if (task_is_rt(p))
        return;                          /* RT weight does not depend on nice */
    bool queued = se->on_rq && !se->is_rt;
    bool in_tree = queued && se != rq->curr;
    if (queued) {
        update_curr(rq);
        if (in_tree)
            dequeue_tree(rq, se);
        rq->load_weight -= se->weight;
    }
    set_load_weight(p, se, nice);
    if (queued) {
        rq->load_weight += se->weight;
        update_cpu_load(rq);
        if (in_tree)
            enqueue_tree(rq, se);
        if (nice < p->nice || (nice > p->nice && sched_task_running(p)))
            sched_resched_cpu(cpu);
    }
}


const struct sched_class scheduler = {
    .name = "cfs",
    .init = cfs_init,
    .task_fork = cfs_task_fork,
    .select_cpu = cfs_select_cpu,
    .enqueue = cfs_enqueue,
    .dequeue = cfs_dequeue,
    .pick_next = cfs_pick_next,
    .tick = cfs_tick,
    .balance = cfs_balance,
    .yield = cfs_yield,
    .set_nice = cfs_set_nice,
};
