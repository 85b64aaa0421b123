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
 *   the domain (sched/cfs_common.h): sched_mc 1 (SD_MC_INIT, a Core 2 Duo's;
 *   0: SD_CPU_INIT), wake_idle auto (SD_MC_INIT 1, SD_CPU_INIT 0),
 *   min_interval 1 ms, max_interval 4 ms, busy_factor 64, imbalance_pct
 *   125, cache_nice_tries 1, busy_idx 2, idle_idx auto (0; SD_CPU_INIT 1),
 *   newidle_idx auto (0; SD_CPU_INIT 2), wake_idx 1
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
 * SMP (2.6.24 with one scheduling domain: a Core 2 Duo's SD_MC_INIT, or SD_CPU_INIT)
 *   - Per-CPU run queues, each with its own lock (cfs_rq + RT lists).
 *   - Fork: neither domain has SD_BALANCE_FORK, so the child starts on the
 *     parent's CPU (if allowed; else the least loaded allowed CPU); the
 *     balancer spreads it.
 *   - Wake-up (try_to_wake_up, SD_WAKE_AFFINE): the task's previous CPU,
 *     unless the waker's CPU passes the wake-affine test: a sync wake-up of a
 *     cache-cold task (not run for sysctl_sched_migration_cost, 0.5 ms), or
 *     (waker load, less the waker itself when sync, <= previous CPU's load
 *     and their sum <= the waker CPU's load per task), or 100 x (waker load +
 *     task weight) <= 112 x previous CPU's load (112 = 100 + (imbalance_pct
 *     125 - 100) / 2).  Then wake_idle (SD_WAKE_IDLE of SD_MC_INIT, with
 *     CONFIG_SCHED_SMT): if that CPU is busy with nothing else queued, the
 *     first idle CPU of the domain (none with SD_CPU_INIT).
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
 * Time: rq->clock, read from the core's sched_clock_ns() where 2.6.24
 * reads it (try_to_wake_up, schedule(), the tick; cfs_shared.h); the
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

#include "cfs_common.h"      /* weights, the domain (shared with sched/cfs23.c) */

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
    /* the run queue's clock (rq->clock, cfs_shared.h): what update_curr and the picks read */
    uint64_t clock, prev_clock_raw, tick_timestamp;
    uint32_t clock_warps, clock_overflows, clock_reads;
    bool clock_fresh;               /* schedule() has updated it for the pick that follows */
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

#include "cfs_shared.h"      /* load weights, the RT class, the run queue's clock (shared with sched/cfs23.c) */

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
    uint64_t now = rq->clock;
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
    se->exec_start = rq->clock;
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
    cfs_domain_init();
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        rb_root_cached_init(&rq->tasks_timeline);
        rq->curr = NULL;
        /* init_cfs_rq: start just below the 64-bit wrap, so wrap bugs show at once. */
        rq->min_vruntime = (uint64_t)(-(int64_t)(1 << 20));
        rq_clock_init(rq);
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

static void cfs_enqueue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    rq_clock_at(cpu);                    /* try_to_wake_up / wake_up_new_task: update_rq_clock */
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
    if (flags & (DEQUEUE_SLEEP | DEQUEUE_EXIT)) {
        rq_clock_at(cpu);                /* schedule(): __update_rq_clock, before deactivate_task */
        rq->clock_fresh = true;
    }
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

#include "cfs_smp.h"         /* wake-up placement and load balancing (shared with sched/cfs23.c) */

static struct task *cfs_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    if (!rq->clock_fresh)
        __update_rq_clock(rq);           /* schedule()'s, when no deactivate_task did it */
    rq->clock_fresh = false;
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
    rq_clock_tick(rq);                   /* scheduler_tick */
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
    __update_rq_clock(rq);               /* yield_task_fair */
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
    rq_clock_at(cpu);                    /* set_user_nice: update_rq_clock */
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
    CFS_SMP_TUNABLES
};

const struct sched_class scheduler = {
    .name = "cfs",
    .tunables = cfs_tunables,
    .ntunables = ARRAY_SIZE(cfs_tunables),
    .check_tunables = cfs_smp_check_tunables,
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
