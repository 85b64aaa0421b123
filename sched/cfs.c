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
 * Tunables (sched.<name>=<value> at boot, kernel/sched_tunables.c; the
 * names of 2.6.24's /proc/sys/kernel/sched_* and of its sched_domain sysctl
 * files; the table is cfs_tunables at the end of this file)
 *   sched_latency_ns            auto: 20 ms x (1 + ilog2(ncpus)), <= 200 ms
 *   sched_min_granularity_ns    auto: 4 ms x the same, <= 200 ms
 *   sched_wakeup_granularity_ns auto: 10 ms x the same
 *   sched_batch_wakeup_granularity_ns  auto: as wakeup; its fair class never
 *                               reads it (batch never preempts)
 *     (auto is 2.6.24's sched_init_granularity at boot: x1, x2, x3, x4 for
 *     1, 2, 4, 8 CPUs; a given value is used as is, as a sysctl write, and,
 *     as the sysctl handler does, sets sched_nr_latency = latency /
 *     min_granularity rounded up; otherwise sched_nr_latency stays 5)
 *   sched_child_runs_first 1, sched_compat_yield 0, sched_features 7
 *   (NEW_FAIR_SLEEPERS | WAKEUP_PREEMPT | START_DEBIT), sched_migration_cost
 *   500000 ns (task_hot; 0 = never hot), sched_nr_migrate 32
 *   SD_CPU_INIT: min_interval 1 ms, max_interval 4 ms, busy_factor 64,
 *   imbalance_pct 125, cache_nice_tries 1, busy_idx 2, idle_idx 1,
 *   newidle_idx 2, wake_idx 1
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
 *   - Loads (update_cpu_load, every tick): cpu_load[i] decays towards the
 *     queue's weight with weight 1/2^i; source_load(cpu, idx) is the smaller
 *     of cpu_load[idx - 1] and now, target_load the larger (idx 0: now).
 *     Wake-affine reads them with wake_idx, the balancer with busy_idx,
 *     idle_idx or newidle_idx.
 *   - Periodic balancing (rebalance_domains / load_balance), from balance()
 *     once jiffies reach rq->next_balance: balance_interval ms after the last
 *     one, x busy_factor on a busy CPU.  The interval doubles up to
 *     max_interval while the CPU finds itself balanced (or, up to 512 ms, all
 *     tasks pinned) and falls back to min_interval when it is not: 1..4 ms
 *     idle, 64..256 ms busy.
 *   - find_busiest_group (one CPU per group, cpu_power SCHED_LOAD_SCALE):
 *     the most loaded other CPU with more than one task; balanced if ours is
 *     at least the average or 100 x busiest <= imbalance_pct x ours.  The
 *     imbalance is min(busiest - average, busiest - its load per task,
 *     average - ours); below one task's load fix_small_imbalance decides,
 *     with SCHED_LOAD_SCALE_FUZZ (1024): 2048 against 1024 moves a task, so
 *     the odd task of five hogs on four CPUs rotates.
 *   - Newly idle balancing (idle_balance, load_balance_newidle): pick_next on
 *     an empty queue does the same with newidle_idx, taking the busiest
 *     queue's lock with double_lock_balance as 2.6.24 does.
 *   - Which tasks move (move_tasks / balance_tasks / can_migrate_task): RT
 *     lists first (highest priority, each from its tail), then the fair tree
 *     from the leftmost, while load is left to move, at most
 *     sysctl_sched_nr_migrate examined; never a running task or one whose
 *     cpus_allowed excludes this CPU; a cache-hot one (ran within
 *     sysctl_sched_migration_cost) only once the domain has failed to
 *     balance more than cache_nice_tries times; one whose half weight is
 *     above what is left to move (plus the fuzz) only if it would be the
 *     best priority on this CPU (this_best_prio).  A moved fair task keeps
 *     its place relative to min_vruntime: vruntime += dst min_vruntime - src
 *     min_vruntime (set_task_cpu), then check_preempt_curr as pull_task does.
 *
 * Deviations from 2.6.24, and why (measured effects in docs/sched-cfs.md)
 *   - No active balancing: when a balance has failed cache_nice_tries + 2
 *     times, 2.6.24 wakes the busiest CPU's migration thread to push its
 *     running task over; there is no migration thread here.  The bookkeeping
 *     is the same (the failure count is reset, the interval backs off as
 *     after a kick).  Counted (alb_wanted): never in 20 s of 5 or 8 hogs on 4
 *     CPUs, nor in 200,000 steps of 32 sleeping and waking tasks on 2.
 *   - HZ is the kernel's, 1000 by default; 2.6.24's Kconfig.hz defaulted to
 *     250 (make SCHED=cfs HZ=250 builds that).  Slices end and balances run
 *     at tick resolution, so at 1000 a 4 ms balance interval is 4 ticks, not
 *     1, and a slice end is noticed within 1 ms instead of 4.  hackbench
 *     (groups=10, 2 vCPUs) at HZ=250 made 1.7x the context switches and
 *     fewer migrations (median 524 against 787).
 *   - Group scheduling (CONFIG_FAIR_GROUP_SCHED), SCHED_IDLE and the power
 *     savings balance (SD_POWERSAVINGS_BALANCE, off by default) are absent.
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
 * tick (HZ, 1000 by default) decides how soon a slice end is noticed, and
 * counts the balance intervals (msecs_to_jiffies, rounding up).
 */
#include "sched.h"
#include "../kernel/rbtree.h"

/* ---- tunables (2.6.24 kernel/sched_fair.c, kernel/sched.c, include/linux/topology.h) ---- */

/*
 * Every knob is a tunable, sched.<name>=<value> at boot (table at the end of
 * this file), named as 2.6.24's /proc/sys/kernel/sched_* (and, for the
 * scheduling domain, .../sched_domain/cpu<n>/domain0/<name>).  The granularities
 * are AUTO: unless given they get 2.6.24's boot values, the bases below
 * scaled by sched_init_granularity; a given value is used as is, as a sysctl
 * write would set it, and like the sysctl handler it recomputes
 * sched_nr_latency.  Nothing changes after init().
 */

/* Base values before sched_init_granularity() scales them. */
#define SCHED_LATENCY_BASE 20000000u
#define SCHED_MIN_GRANULARITY_BASE 4000000u
#define SCHED_WAKEUP_GRANULARITY_BASE 10000000u
#define SCHED_GRANULARITY_LIMIT 200000000u

unsigned int sysctl_sched_latency = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_min_granularity = SCHED_TUNABLE_UNSET;
static unsigned int sched_nr_latency = 5;    /* latency / min_granularity, recomputed only for given values */
unsigned int sysctl_sched_wakeup_granularity = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_batch_wakeup_granularity = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_child_runs_first = 1;
unsigned int sysctl_sched_compat_yield = 0;
unsigned int sysctl_sched_migration_cost = 500000u;
unsigned int sysctl_sched_nr_migrate = 32;

#define SCHED_FEAT_NEW_FAIR_SLEEPERS 1
#define SCHED_FEAT_WAKEUP_PREEMPT 2
#define SCHED_FEAT_START_DEBIT 4
unsigned int sysctl_sched_features = SCHED_FEAT_NEW_FAIR_SLEEPERS | SCHED_FEAT_WAKEUP_PREEMPT | SCHED_FEAT_START_DEBIT;
#define sched_feat(x) (sysctl_sched_features & SCHED_FEAT_##x)

/* The one scheduling domain of a flat SMP machine: 2.6.24 SD_CPU_INIT. */
static struct {
    unsigned int min_interval, max_interval;      /* ms: balance_interval doubles from min to max while balanced */
    unsigned int busy_factor;                     /* interval x this on a busy CPU */
    unsigned int imbalance_pct;                   /* balanced unless 100 x busiest > pct x ours */
    unsigned int cache_nice_tries;                /* failed balances before cache-hot tasks move anyway */
    unsigned int busy_idx, idle_idx, newidle_idx, wake_idx;   /* which cpu_load[] average (0: now) */
} sd_init = { 1, 4, 64, 125, 1, 2, 1, 2, 1 };

#define SCHED_LOAD_SCALE 1024u
#define SCHED_LOAD_SCALE_FUZZ SCHED_LOAD_SCALE   /* 2.6.24 include/linux/sched.h */
#define CPU_LOAD_IDX_MAX 5
#define MAX_PINNED_INTERVAL 512                   /* ms */
#define NR_CPUS_2_6_24 8                          /* i386 CONFIG_NR_CPUS default: caps the interval at HZ*8/10 */

/* enum cpu_idle_type, in 2.6.24's order (they index the schedstat counters). */
enum { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE, CPU_MAX_IDLE_TYPES };

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
    volatile uint32_t cpu_load;     /* fair load + RT weights: rq->load.weight (weighted_cpuload) */
    volatile uint32_t cpu_load_avg[CPU_LOAD_IDX_MAX];  /* rq->cpu_load[]: decaying averages, per tick */
    uint64_t next_balance;          /* jiffies: rq->next_balance */
    /* this CPU's sched_domain (its balancing state); only this CPU writes it */
    uint64_t last_balance;          /* jiffies */
    unsigned int balance_interval;  /* ms */
    unsigned int nr_balance_failed;
    /* schedstats of the domain, by cpu_idle_type */
    unsigned int lb_count[CPU_MAX_IDLE_TYPES], lb_balanced[CPU_MAX_IDLE_TYPES], lb_failed[CPU_MAX_IDLE_TYPES];
    unsigned int lb_gained[CPU_MAX_IDLE_TYPES], lb_hot_gained[CPU_MAX_IDLE_TYPES];
    unsigned int alb_wanted;        /* times 2.6.24 would have started active balancing (not modelled) */
} __attribute__((aligned(1024)));   /* a power of two: &runqueues[cpu] is one shift on every switch */

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
    bool given = sysctl_sched_latency != SCHED_TUNABLE_UNSET || sysctl_sched_min_granularity != SCHED_TUNABLE_UNSET;
    if (sysctl_sched_min_granularity == SCHED_TUNABLE_UNSET) {
        sysctl_sched_min_granularity = SCHED_MIN_GRANULARITY_BASE * factor;
        if (sysctl_sched_min_granularity > SCHED_GRANULARITY_LIMIT)
            sysctl_sched_min_granularity = SCHED_GRANULARITY_LIMIT;
    }
    if (sysctl_sched_latency == SCHED_TUNABLE_UNSET) {
        sysctl_sched_latency = SCHED_LATENCY_BASE * factor;
        if (sysctl_sched_latency > SCHED_GRANULARITY_LIMIT)
            sysctl_sched_latency = SCHED_GRANULARITY_LIMIT;
    }
    if (sysctl_sched_wakeup_granularity == SCHED_TUNABLE_UNSET)
        sysctl_sched_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE * factor;
    if (sysctl_sched_batch_wakeup_granularity == SCHED_TUNABLE_UNSET)
        sysctl_sched_batch_wakeup_granularity = SCHED_WAKEUP_GRANULARITY_BASE * factor;
    /* sched_nr_latency_handler: a written latency or min_granularity
     * recomputes it; at boot 2.6.24 leaves it at 5. */
    sched_nr_latency = given ? (sysctl_sched_latency + sysctl_sched_min_granularity - 1) / sysctl_sched_min_granularity
                             : 5;
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
        update_cpu_load(rq);
        for (int i = 0; i < CPU_LOAD_IDX_MAX; i++)
            rq->cpu_load_avg[i] = 0;
        /* SD_CPU_INIT: .last_balance = jiffies, .balance_interval = 1 */
        rq->next_balance = sched_jiffies();
        rq->last_balance = sched_jiffies();
        rq->balance_interval = sd_init.min_interval;
        rq->nr_balance_failed = 0;
        for (int t = 0; t < CPU_MAX_IDLE_TYPES; t++)
            rq->lb_count[t] = rq->lb_balanced[t] = rq->lb_failed[t] = rq->lb_gained[t] = rq->lb_hot_gained[t] = 0;
        rq->alb_wanted = 0;
    }
    sched_init_granularity(ncpus);
    sched_log("cfs: Linux 2.6.24 CFS (vruntime), %d cpus: sched_latency=%u ns min_granularity=%u ns "
              "wakeup_granularity=%u ns nr_latency=%u child_runs_first=%u compat_yield=%u HZ=%d",
              ncpus, sysctl_sched_latency, sysctl_sched_min_granularity, sysctl_sched_wakeup_granularity,
              sched_nr_latency, sysctl_sched_child_runs_first, sysctl_sched_compat_yield, HZ);
}

static const char *cfs_check_tunables(const char **bad)
{
    if (sd_init.min_interval > sd_init.max_interval) {
        *bad = "min_interval";
        return "min_interval is above max_interval";
    }
    return NULL;
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

static uint32_t source_load(int cpu, unsigned int type);
static uint32_t target_load(int cpu, unsigned int type);

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
    unsigned int idx = sd_init.wake_idx;
    uint64_t load = source_load(prev, idx), this_load = target_load(this_cpu, idx);
    int this_nr = sched_nr_queued(this_cpu);
    uint64_t tl = this_load;
    if (sync) {
        /* Less the (maximum possible) effect of the waker, about to sleep. */
        struct task *waker = sched_cpu_curr(this_cpu);
        uint32_t w = waker->is_idle ? 0 : se_of(waker)->weight;
        tl = tl > w ? tl - w : 0;
    }
    uint64_t tl_per_task = this_nr ? load_of(this_cpu) / (uint64_t)this_nr : NICE_0_LOAD;   /* cpu_avg_load_per_task */
    unsigned int imbalance = 100 + (sd_init.imbalance_pct - 100) / 2;
    if ((tl <= load && tl + target_load(prev, idx) <= tl_per_task) ||
        100 * (tl + se_of(p)->weight) <= (uint64_t)imbalance * load)
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

/* ---- load balancing: 2.6.24 kernel/sched.c with one SD_CPU_INIT domain ---- */

/*
 * update_cpu_load, every tick of every CPU: cpu_load[i] decays towards the
 * current load with weight 1/2^i, rounding up while the load rises.
 */
static void update_cpu_load_avg(struct runqueue *rq)
{
    uint32_t this_load = rq->cpu_load;
    for (uint32_t i = 0, scale = 1; i < CPU_LOAD_IDX_MAX; i++, scale += scale) {
        uint32_t old_load = rq->cpu_load_avg[i], new_load = this_load;
        if (new_load > old_load)
            new_load += scale - 1;
        rq->cpu_load_avg[i] = (uint32_t)(((uint64_t)old_load * (scale - 1) + new_load) >> i);
    }
}

/* A low guess at a migration source's load, a high one at a target's. */
static uint32_t source_load(int cpu, unsigned int type)
{
    uint32_t total = load_of(cpu);
    if (type == 0)
        return total;
    uint32_t avg = runqueues[cpu].cpu_load_avg[type - 1];
    return avg < total ? avg : total;
}

static uint32_t target_load(int cpu, unsigned int type)
{
    uint32_t total = load_of(cpu);
    if (type == 0)
        return total;
    uint32_t avg = runqueues[cpu].cpu_load_avg[type - 1];
    return avg > total ? avg : total;
}

/* p->prio as 2.6.24 has it: 99 - rt_priority for RT, 120 + nice, MAX_PRIO (140) for idle. */
static int task_prio(const struct task *p)
{
    if (p->is_idle)
        return 140;
    return task_is_rt(p) ? MAX_RT_PRIO - 1 - p->rt_priority : 120 + p->nice;
}

/* can_migrate_task: allowed here, not running, and cache-cold unless the
 * domain has failed to balance more than cache_nice_tries times. */
static bool can_migrate_task(struct task *p, int src, int this_cpu, int idle, bool *pinned)
{
    if (!task_allowed_on(p, this_cpu))
        return false;
    *pinned = false;
    if (sched_task_running(p) || sched_cpu_curr(src) == p)
        return false;
    bool hot = !se_of(p)->is_rt && task_hot(p);
    if (!hot)
        return true;
    if (runqueues[this_cpu].nr_balance_failed > sd_init.cache_nice_tries) {
        runqueues[this_cpu].lb_hot_gained[idle]++;
        return true;
    }
    return false;
}

/*
 * The iterators of 2.6.24's balance_tasks: the RT lists from the highest
 * priority, each from its tail (load_balance_start_rt/next_rt); the fair
 * tree from the leftmost (load_balance_start_fair/next_fair).
 */
struct lb_iter {
    struct runqueue *rq;
    bool rt;
    int prio;                       /* RT: the list being walked */
    struct list_head *pos;          /* RT: next entry (towards the head) */
    struct rb_node *node;           /* fair: next node */
};

static struct task *lb_next(struct lb_iter *it)
{
    if (!it->rt) {
        if (!it->node)
            return NULL;
        struct task *p = task_of(se_of_node(it->node));
        it->node = rb_next(it->node);
        return p;
    }
    for (;;) {
        if (it->pos && it->pos != &it->rq->rt_queue[it->prio]) {
            struct task *p = task_of(list_entry(it->pos, struct cfs_entity, rt_node));
            it->pos = it->pos->prev;
            return p;
        }
        while (--it->prio > 0 && list_empty(&it->rq->rt_queue[it->prio]))
            ;
        if (it->prio <= 0)
            return NULL;
        it->pos = it->rq->rt_queue[it->prio].prev;
    }
}

static void lb_start(struct lb_iter *it, struct runqueue *rq, bool rt)
{
    *it = (struct lb_iter){ .rq = rq, .rt = rt, .prio = MAX_RT_PRIO, .pos = NULL };
    if (!rt)
        it->node = rb_first_cached(&rq->tasks_timeline);
}

/*
 * balance_tasks: pull up to max_load_move of weighted load from src, in the
 * iterator's order, examining at most sysctl_sched_nr_migrate tasks.  A task
 * whose half weight exceeds what is left to move (plus the fuzz) is skipped,
 * unless it would be the best-priority task here (*this_best_prio).
 */
static uint64_t balance_tasks(int this_cpu, int src, uint64_t max_load_move, int idle, bool *all_pinned,
                              int *this_best_prio, bool rt, bool check_preempt)
{
    int64_t rem_load_move = (int64_t)max_load_move;
    unsigned int loops = 0;
    bool pinned = false;
    unsigned int pulled = 0;
    if (max_load_move == 0)
        goto out;
    pinned = true;
    struct lb_iter it;
    lb_start(&it, &runqueues[src], rt);
    struct task *p = lb_next(&it);
    while (p && loops++ <= sysctl_sched_nr_migrate) {
        struct task *next = lb_next(&it);    /* before p can move */
        uint32_t w = se_of(p)->weight;
        bool skip_for_load = (int64_t)(w >> 1) > rem_load_move + (int64_t)SCHED_LOAD_SCALE_FUZZ;
        if (!(skip_for_load && task_prio(p) >= *this_best_prio) && can_migrate_task(p, src, this_cpu, idle, &pinned)) {
            move_task(src, this_cpu, p, check_preempt);
            pulled++;
            rem_load_move -= w;
            if (rem_load_move <= 0)
                break;
            if (task_prio(p) < *this_best_prio)
                *this_best_prio = task_prio(p);
        }
        p = next;
    }
out:
    runqueues[this_cpu].lb_gained[idle] += pulled;
    *all_pinned = pinned;
    return (uint64_t)((int64_t)max_load_move - rem_load_move);   /* may exceed max_load_move by part of a task */
}

/* move_tasks: both locks held.  The RT class, then the fair one while load
 * is left to move; true if anything moved. */
static bool move_tasks(int this_cpu, int src, uint64_t max_load_move, int idle, bool *all_pinned, bool check_preempt)
{
    int this_best_prio = task_prio(sched_cpu_curr(this_cpu));
    uint64_t moved = balance_tasks(this_cpu, src, max_load_move, idle, all_pinned, &this_best_prio, true, check_preempt);
    if (max_load_move > moved)
        moved += balance_tasks(this_cpu, src, max_load_move - moved, idle, all_pinned, &this_best_prio, false,
                               check_preempt);
    return moved > 0;
}

static unsigned int load_idx_of(int idle)
{
    return idle == CPU_NOT_IDLE ? sd_init.busy_idx : idle == CPU_NEWLY_IDLE ? sd_init.newidle_idx : sd_init.idle_idx;
}

/*
 * find_busiest_group with one CPU per group (cpu_power SCHED_LOAD_SCALE, so
 * a group's avg_load is its CPU's load): the most loaded other CPU running
 * more than one task, or -1 when balanced; *imbalance is the weighted load
 * to move, fix_small_imbalance included.  CPUs in exclude were all pinned.
 */
static int find_busiest_group(int this_cpu, int idle, cpumask_t exclude, uint64_t *imbalance)
{
    unsigned int idx = load_idx_of(idle);
    uint64_t max_load = 0, this_load = 0, total_load = 0;
    uint64_t busiest_load_per_task = 0, busiest_nr_running = 0, this_load_per_task = 0, this_nr_running = 0;
    int busiest = -1;
    int ncpus = sched_nr_cpus();
    *imbalance = 0;
    for (int i = 0; i < ncpus; i++) {
        if (exclude & CPU_BIT(i))
            continue;
        uint64_t load = i == this_cpu ? target_load(i, idx) : source_load(i, idx);
        uint64_t nr = (uint64_t)sched_nr_queued(i);
        total_load += load;
        if (i == this_cpu) {
            this_load = load;
            this_nr_running = nr;
            this_load_per_task = load_of(i);
        } else if (load > max_load && nr > 1) {      /* sum_nr_running > group_capacity (1) */
            max_load = load;
            busiest = i;
            busiest_nr_running = nr;
            busiest_load_per_task = load_of(i);
        }
    }
    if (busiest < 0 || this_load >= max_load || busiest_nr_running == 0)
        return -1;
    uint64_t avg_load = SCHED_LOAD_SCALE * total_load / ((uint64_t)ncpus * SCHED_LOAD_SCALE);
    if (this_load >= avg_load || 100 * max_load <= (uint64_t)sd_init.imbalance_pct * this_load)
        return -1;
    busiest_load_per_task /= busiest_nr_running;
    if (max_load <= busiest_load_per_task)
        return -1;
    if (max_load >= avg_load) {
        /* Don't pull so much that a CPU would go below the average or idle. */
        uint64_t max_pull = max_load - avg_load < max_load - busiest_load_per_task ? max_load - avg_load
                                                                                   : max_load - busiest_load_per_task;
        uint64_t want = avg_load - this_load;
        *imbalance = max_pull < want ? max_pull : want;
        if (*imbalance >= busiest_load_per_task)
            return busiest;
    }
    /* fix_small_imbalance: the imbalance is less than one task.  With the
     * fuzz (SCHED_LOAD_SCALE) a nice-0 task moves at 2048 against 1024. */
    unsigned int imbn = 2;
    if (this_nr_running) {
        this_load_per_task /= this_nr_running;
        if (busiest_load_per_task > this_load_per_task)
            imbn = 1;
    } else {
        this_load_per_task = SCHED_LOAD_SCALE;
    }
    if (max_load - this_load + SCHED_LOAD_SCALE_FUZZ >= busiest_load_per_task * imbn) {
        *imbalance = busiest_load_per_task;
        return busiest;
    }
    /* Otherwise move one only if that raises the CPU power in use. */
    uint64_t pwr_now = (busiest_load_per_task < max_load ? busiest_load_per_task : max_load) +
                       (this_load_per_task < this_load ? this_load_per_task : this_load);
    uint64_t pwr_move = 0;
    if (max_load > busiest_load_per_task)
        pwr_move += busiest_load_per_task < max_load - busiest_load_per_task ? busiest_load_per_task
                                                                              : max_load - busiest_load_per_task;
    uint64_t tmp = max_load < busiest_load_per_task ? max_load : busiest_load_per_task;
    pwr_move += this_load_per_task < this_load + tmp ? this_load_per_task : this_load + tmp;
    if (pwr_move > pwr_now)
        *imbalance = busiest_load_per_task;
    return busiest;
}

/* load_balance (periodic, from the tick): our lock is not held.  Returns whether tasks moved. */
static bool load_balance(int this_cpu, int idle)
{
    struct runqueue *rq = &runqueues[this_cpu];
    cpumask_t exclude = 0;
    bool all_pinned = false, moved = false, active_balance = false;
    uint64_t imbalance;
    rq->lb_count[idle]++;
    for (;;) {
        int busiest = find_busiest_group(this_cpu, idle, exclude, &imbalance);
        if (busiest < 0)
            goto out_balanced;
        moved = false;
        if (sched_nr_queued(busiest) > 1) {
            sched_double_lock(this_cpu, busiest);
            moved = move_tasks(this_cpu, busiest, imbalance, idle, &all_pinned, true);
            sched_double_unlock(this_cpu, busiest);
            if (all_pinned) {
                exclude |= CPU_BIT(busiest);     /* every task there was pinned: try the next busiest */
                continue;
            }
        }
        if (!moved) {
            rq->lb_failed[idle]++;
            rq->nr_balance_failed++;
            if (rq->nr_balance_failed > sd_init.cache_nice_tries + 2) {
                /* 2.6.24 would now wake busiest's migration thread to push
                 * its running task here (active balancing); there is none
                 * (see the deviations), but the bookkeeping is the same. */
                if (!task_allowed_on(sched_cpu_curr(busiest), this_cpu)) {
                    all_pinned = true;
                    goto out_one_pinned;
                }
                active_balance = true;
                rq->alb_wanted++;
                rq->nr_balance_failed = sd_init.cache_nice_tries + 1;
            }
        } else {
            rq->nr_balance_failed = 0;
        }
        if (!active_balance)
            rq->balance_interval = sd_init.min_interval;       /* unbalanced: look again soon */
        else if (rq->balance_interval < sd_init.max_interval)
            rq->balance_interval *= 2;
        return moved;
    }
out_balanced:
    rq->lb_balanced[idle]++;
    rq->nr_balance_failed = 0;
out_one_pinned:
    /* Balanced (or pinned): back off, up to max_interval. */
    if ((all_pinned && rq->balance_interval < MAX_PINNED_INTERVAL) || rq->balance_interval < sd_init.max_interval)
        rq->balance_interval *= 2;
    return false;
}

/* msecs_to_jiffies, rounding up as Linux does. */
static uint64_t ms_to_jiffies(uint64_t ms) { return (ms * HZ + 999) / 1000; }

/*
 * idle_balance / load_balance_newidle: from pick_next on an empty queue, our
 * lock held; the busiest queue's lock is taken as 2.6.24 does, with
 * double_lock_balance (which may drop ours for a moment).  A CPU whose
 * waiting tasks may not come here is skipped (all_pinned).
 */
static __attribute__((noinline)) void idle_balance(int cpu)
{
    struct runqueue *rq = &runqueues[cpu];
    cpumask_t exclude = 0;
    bool moved = false;
    uint64_t imbalance;
    rq->lb_count[CPU_NEWLY_IDLE]++;
    for (;;) {
        int busiest = find_busiest_group(cpu, CPU_NEWLY_IDLE, exclude, &imbalance);
        if (busiest < 0) {
            rq->lb_balanced[CPU_NEWLY_IDLE]++;
            rq->nr_balance_failed = 0;
            break;
        }
        bool all_pinned = false;
        if (sched_nr_queued(busiest) > 1) {
            sched_double_lock_balance(cpu, busiest);
            moved = move_tasks(cpu, busiest, imbalance, CPU_NEWLY_IDLE, &all_pinned, false);
            sched_unlock_other(cpu, busiest);
            if (all_pinned) {
                exclude |= CPU_BIT(busiest);
                continue;
            }
        }
        if (!moved)
            rq->lb_failed[CPU_NEWLY_IDLE]++;
        else
            rq->nr_balance_failed = 0;
        break;
    }
    /* We are going idle: the next periodic balance follows the idle interval. */
    uint64_t now = sched_jiffies();
    uint64_t next_balance = now + HZ;
    uint64_t at = rq->last_balance + ms_to_jiffies(rq->balance_interval);
    if ((int64_t)(next_balance - at) > 0)
        next_balance = at;
    if (moved || (int64_t)(now - rq->next_balance) > 0)
        rq->next_balance = next_balance;
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
    update_cpu_load_avg(rq);             /* scheduler_tick: update_cpu_load, idle or not */
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

/*
 * rebalance_domains, triggered from the tick once jiffies reach
 * rq->next_balance: balance_interval ms (x busy_factor on a busy CPU) after
 * the last balance.  The interval doubles up to max_interval while the CPU
 * finds itself balanced and falls back to min_interval when it is not:
 * 1..4 ms idle, 64..256 ms busy with SD_CPU_INIT.
 */
static void cfs_balance(int cpu, bool idle_now)
{
    struct runqueue *rq = &runqueues[cpu];
    if (sched_nr_cpus() < 2)
        return;
    uint64_t now = sched_jiffies();
    if ((int64_t)(now - rq->next_balance) < 0)
        return;
    int idle = idle_now ? CPU_IDLE : CPU_NOT_IDLE;
    uint64_t interval = rq->balance_interval;
    if (idle != CPU_IDLE)
        interval *= sd_init.busy_factor;
    interval = ms_to_jiffies(interval);
    if (!interval)
        interval = 1;
    if (interval > (uint64_t)HZ * NR_CPUS_2_6_24 / 10)
        interval = (uint64_t)HZ * NR_CPUS_2_6_24 / 10;
    if ((int64_t)(now - (rq->last_balance + interval)) >= 0) {
        load_balance(cpu, idle);
        rq->last_balance = now;
    }
    rq->next_balance = rq->last_balance + interval;
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


/* ---- tunables (sched.<name>=) ---- */

static const struct sched_tunable cfs_tunables[] = {
    { "sched_latency_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_latency,
      "targeted preemption latency; auto: 20 ms x (1 + ilog2(ncpus)), at most 200 ms" },
    { "sched_min_granularity_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_min_granularity,
      "minimal preemption granularity; auto: 4 ms x (1 + ilog2(ncpus)), at most 200 ms" },
    { "sched_wakeup_granularity_ns", "ns", 0, 0, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_wakeup_granularity,
      "wake-up preemption threshold; auto: 10 ms x (1 + ilog2(ncpus))" },
    { "sched_batch_wakeup_granularity_ns", "ns", 0, 0, 1000000000, SCHED_TUNABLE_AUTO,
      &sysctl_sched_batch_wakeup_granularity, "scaled as 2.6.24 does; its fair class never reads it; auto: as wakeup" },
    { "sched_child_runs_first", "bool", 1, 0, 1, 0, &sysctl_sched_child_runs_first,
      "a forked child runs before its parent" },
    { "sched_compat_yield", "bool", 0, 0, 1, 0, &sysctl_sched_compat_yield, "yield moves the task behind all others" },
    { "sched_features", "count", 7, 0, 7, 0, &sysctl_sched_features,
      "bits: 1 NEW_FAIR_SLEEPERS, 2 WAKEUP_PREEMPT, 4 START_DEBIT" },
    { "sched_migration_cost", "ns", 500000, 0, 1000000000, 0, &sysctl_sched_migration_cost,
      "a task that ran this recently is cache hot (task_hot; 0: never)" },
    { "sched_nr_migrate", "count", 32, 1, 100000, 0, &sysctl_sched_nr_migrate, "tasks examined per balance pass" },
    { "min_interval", "ms", 1, 1, 1000, 0, &sd_init.min_interval, "SD_CPU_INIT: shortest balancing interval" },
    { "max_interval", "ms", 4, 1, 1000, 0, &sd_init.max_interval,
      "SD_CPU_INIT: the interval doubles up to this while balanced" },
    { "busy_factor", "count", 64, 1, 1000, 0, &sd_init.busy_factor, "SD_CPU_INIT: interval x this on a busy CPU" },
    { "imbalance_pct", "percent", 125, 100, 1000, 0, &sd_init.imbalance_pct,
      "SD_CPU_INIT: balanced unless the busiest load is this much above ours" },
    { "cache_nice_tries", "count", 1, 0, 100, 0, &sd_init.cache_nice_tries,
      "SD_CPU_INIT: failed balances before cache-hot tasks move anyway" },
    { "busy_idx", "count", 2, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.busy_idx,
      "SD_CPU_INIT: cpu_load[] average a busy CPU balances by (0: now)" },
    { "idle_idx", "count", 1, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.idle_idx, "SD_CPU_INIT: the same for an idle CPU" },
    { "newidle_idx", "count", 2, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.newidle_idx,
      "SD_CPU_INIT: the same for a CPU about to go idle" },
    { "wake_idx", "count", 1, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.wake_idx, "SD_CPU_INIT: the same for wake-affine" },
};

const struct sched_class scheduler = {
    .name = "cfs",
    .tunables = cfs_tunables,
    .ntunables = ARRAY_SIZE(cfs_tunables),
    .check_tunables = cfs_check_tunables,
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
