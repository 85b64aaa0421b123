/*
 * sched/cfs23.c - SCHED=cfs23: the Completely Fair Scheduler as released in
 * Linux 2.6.23 (the wait_runtime / fair_clock version), with the code of
 * 2.6.23-rc1 as a boot-time variant (sched.preset=rc1) next to that of
 * 2.6.23-rc6 and the release (sched.preset=rc6, the default).  Modelled on
 * kernel/sched_fair.c and kernel/sched.c of 2.6.23 (update_curr,
 * __update_curr, update_stats_enqueue, update_stats_wait_end,
 * enqueue_sleeper / __enqueue_sleeper, __check_preempt_curr_fair,
 * entity_tick, task_new_fair, yield_task_fair, sched_granularity,
 * niced_granularity, limit_wait_runtime, calc_weighted, calc_delta_mine,
 * sched_init_granularity, set_task_cpu, wake_up_new_task, try_to_wake_up,
 * set_user_nice).  sched/cfs.c models 2.6.24, which replaced all of this
 * with vruntime / min_vruntime; the two share the weight tables, the
 * real-time class and the SMP balancer (sched/cfs_common.h, cfs_shared.h,
 * cfs_smp.h) and the red-black tree (kernel/rbtree.c).
 *
 * Sources: 2.6.23.17's kernel/sched_fair.c and kernel/sched.c (the
 * zheharry/linux-sh4-2.6.23.17_stm23_A18B tree) for rc6 and the release;
 * for rc1, an rc1-era kernel/sched_fair.c found in the public code index
 * (sysctl_sched_granularity = 2000000000ULL/HZ, SLEEPER_AVG and
 * PRECISE_CPU_LOAD on).  Seed 001 (Rob Hussey, lkml, 13 Sep 2007, "Re:
 * [announce] CFS-devel, performance improvements") measured rc1, rc6 and
 * cfs-devel (= 2.6.24's CFS, sched/cfs.c).
 *
 * Algorithm (SCHED_NORMAL and SCHED_BATCH)
 *   Each CPU's cfs_rq has a fair_clock: the time an ideal CPU would have
 *   given one nice-0 task, advanced by update_curr as delta_exec * 1024 /
 *   (queue load), and a red-black tree of ALL its runnable fair tasks,
 *   including the running one, keyed on fair_key.  Each task has a
 *   wait_runtime, the CPU time it is owed (positive) or has had too much
 *   (negative), clamped to +-sysctl_sched_runtime_limit:
 *     - running: wait_runtime += delta_exec * w / W - delta_exec
 *       (delta_mine - delta_exec; exactly 0 when it runs alone), after
 *       taking back outstanding sleeper_bonus from its share;
 *     - waiting: when it is picked (set_next_entity -> update_stats_wait_end)
 *       it is credited the fair_clock advance since it queued, x w/1024;
 *     - sleeping (sleeper fairness, FAIR_SLEEPERS, not SCHED_BATCH): on
 *       wake-up it is credited the fair_clock advance since it slept
 *       (sleep_start_fair), at most 2 x runtime_limit, scaled by
 *       load / (load + w) with SLEEPER_AVG (rc1 only) where the load is
 *       cpu_load[2] with SLEEPER_LOAD_AVG, and x w/1024; the credit is added
 *       to the queue's sleeper_bonus, which running tasks pay back.  rc6
 *       gives no credit while sleeper_bonus exceeds the runtime limit.
 *   fair_key = fair_clock - wait_runtime (x 1024/w for other weights, via
 *   inv_weight), computed when the task is queued, re-sorted at every tick
 *   (entity_tick dequeues and requeues the running task).  The leftmost task
 *   runs next.
 *
 *   Tick preemption (entity_tick -> __check_preempt_curr_fair): curr is
 *   preempted when curr.fair_key - leftmost.fair_key > niced(gran):
 *     rc6: gran = sched_granularity = max(lat/nr - lat/nr^2, min_gran)
 *          (lat alone when nr = 1), and 0 once curr ran more than
 *          max(lat/nr, min_gran) since it was picked;
 *     rc1: gran = sysctl_sched_granularity (fixed);
 *   niced(g) = g for nice 0, g x w/1024 for positive nice, g x inv_weight
 *   >> 22 for negative nice (rc1: >> 32, as its source has it).
 *   Wake-up preemption: the same test with sysctl_sched_wakeup_granularity
 *   (SCHED_BATCH: the batch granularity), no ideal-runtime rule in rc1; a
 *   sync wake-up on the waker's CPU does not preempt (try_to_wake_up); RT
 *   tasks always preempt fair ones.
 *   Fork (wake_up_new_task / task_new_fair, with sched_child_runs_first on
 *   the parent's CPU while the parent runs): child fair_key = parent's -
 *   niced(gran) - 1, START_DEBIT child wait_runtime = -gran/2, gran =
 *   sched_granularity (rc1: sysctl_sched_granularity); otherwise the child
 *   is queued like a woken task without sleeper credit (key = fair_clock).
 *   Yield: requeue at the new key (rc6: nothing if alone; with
 *   sched_compat_yield, behind the rightmost task).
 *   A task that moves CPU keeps wait_runtime; its wait_start_fair and
 *   sleep_start_fair are shifted by the difference of the two fair clocks
 *   (set_task_cpu).
 *
 * Differences from 2.6.24 (sched/cfs.c)
 *   - State: 2.6.24 keeps one number per task, vruntime (CPU time x
 *     1024/w), and min_vruntime per queue; 2.6.23 keeps wait_runtime (owed
 *     time, clamped to +-runtime_limit) against a per-queue fair_clock, plus
 *     sleeper_bonus.  The clamp means 2.6.23 forgets history beyond the
 *     limit; 2.6.24 has no such bound for running tasks.
 *   - The running task: in 2.6.23's tree, re-sorted at each tick; out of
 *     2.6.24's tree (put_prev / set_next).
 *   - Tick preemption: 2.6.23 by the key lead over the leftmost (gran, rc6:
 *     with the ideal_runtime cut-off); 2.6.24 by the slice, period x w / W.
 *   - Sleepers: 2.6.23 credits the fair_clock advance of the sleep (up to
 *     the limit, booked in sleeper_bonus and paid back by runners); 2.6.24
 *     places the woken task at max(vruntime, min_vruntime - latency).
 *   - Fork: 2.6.23 puts the child's key niced(gran) + 1 ahead of the
 *     parent's with wait_runtime -gran/2; 2.6.24 places it one vslice after
 *     min_vruntime and swaps with the parent.
 *   - Arithmetic: 2.6.23 scales by the queue's weight (calc_delta_mine with
 *     a lazily recomputed 2^32 / W, two per update); 2.6.24 by the task's
 *     own (one calc_delta_fair, skipped at nice 0).
 *   - Constants (2 CPUs): wake-up granularity 2 ms (rc1: 1 ms) against
 *     20 ms; min_granularity 4 ms against 8 ms; latency 40 ms both.
 *
 * rc1 against rc6: the code differs (so the presets switch code paths
 * through the tunable rc1_code, not only constants).  The hunks:
 *   1. entity_tick: rc1 preempts with the fixed sysctl_sched_granularity;
 *      rc6 uses sched_granularity(nr) plus the ideal_runtime rule (set_next_
 *      entity records prev_sum_exec_runtime for it).
 *   2. __update_curr: rc1 repays sleeper_bonus when it exceeds the
 *      granularity, calc_delta_mine(bonus, w, W) at once; rc6 when it
 *      exceeds min_granularity, at most delta_mine and at most what keeps
 *      wait_runtime under the limit.
 *   3. __enqueue_sleeper: rc6 gives nothing while sleeper_bonus > limit.
 *   4. sched_features: rc1 FAIR_SLEEPERS | SLEEPER_AVG | SLEEPER_LOAD_AVG |
 *      PRECISE_CPU_LOAD | START_DEBIT (31); rc6 FAIR_SLEEPERS |
 *      SLEEPER_LOAD_AVG | START_DEBIT (21).
 *   5. update_stats_wait_end: rc6 skips a task with wait_start_fair == 0.
 *   6. niced_granularity for negative nice: rc1 shifts by 32, rc6 by 22.
 *   7. yield_task_fair: rc6 returns at once when the task is alone and has
 *      sched_compat_yield.
 *   8. task_new_fair: rc6 updates the clock first and uses sched_granularity.
 *   9. Tunables: rc1 sched_granularity_ns = 2 ms (2e9/HZ at HZ 1000) x
 *      (1 + ilog2(ncpus)), runtime limit 5 x that, wakeup granularity 1 ms
 *      (1e9/HZ), batch 10 ms (1e10/HZ); rc6 sched_latency_ns 20 ms and
 *      sched_min_granularity_ns 2 ms, both x (1 + ilog2(ncpus)) up to
 *      100 ms, runtime limit = latency, wakeup granularity = min_gran / 2,
 *      batch 25 ms.
 *
 * Tunables (sched.<name>=<value>; 2.6.23's /proc/sys/kernel/sched_* names)
 *   rc1_code 0 (presets rc1: 1, rc6: 0), sched_latency_ns, sched_min_
 *   granularity_ns, sched_granularity_ns (rc1), sched_wakeup_granularity_ns,
 *   sched_batch_wakeup_granularity_ns, sched_runtime_limit_ns, sched_features
 *   (all auto, as above), sched_child_runs_first 1, sched_compat_yield 0;
 *   the balancer's as sched/cfs.c (sched_migration_cost, sched_nr_migrate,
 *   SD_CPU_INIT min_interval ... wake_idx).
 *
 * Deviations (measured effects in docs/sched-cfs23.md)
 *   - SMP: the balancer is 2.6.24's code (sched/cfs_smp.h, described in
 *     sched/cfs.c) with 2.6.23's differences checked against 2.6.23.17
 *     (CFS_2_6_23): no task_hot anywhere (try_to_wake_up has no cache-cold
 *     sync step, can_migrate_task no hot refusal), the domain's idle_idx and
 *     newidle_idx 0 and SD_WAKE_IDLE, so wake_idle runs (the Core 2 Duo's
 *     SD_MC_INIT domain, sched/cfs_common.h).  sched_nr_migrate is a 2.6.24
 *     knob kept at 32.  No active balancing (no migration thread), as in cfs.c.
 *   - The run queue's clock (rq->clock, sched/cfs_shared.h) is read where
 *     each release read it: rc1 in activate_task, deactivate_task and
 *     schedule() (rq_clock, __rq_clock), rc6 in try_to_wake_up and once in
 *     schedule() (update_rq_clock, __update_rq_clock); the tick in both.
 *     rc1's 64-bit "now" argument down the call chain is not modelled.
 *   - sysctl_sched_stat_granularity is 0 (2.6.23's default): the batching
 *     of delta_exec / delta_fair_run / delta_fair_sleep it controls is left
 *     out, which is the same at 0.
 *   - PRECISE_CPU_LOAD (rc1) is not modelled: cpu_load[] averages the queue
 *     weight as rc6 does, not the exec/fair-clock ratio.
 *   - rc1's sched_init_granularity was not found: the 5 x granularity
 *     runtime limit comes from the stale comment in 2.6.23's sched_fair.c
 *     ("Initialized in sched_init_granularity() [to 5 times the base
 *     granularity]"), and rc1's wakeup granularity is left unscaled.
 *   - HZ is the kernel's (1000); 2.6.23 defaulted to 250, and rc1's
 *     granularities are written as x/HZ, so at HZ 250 they are 4 x larger.
 *   - Arithmetic is 64-bit where i386's long was 32 bits; wait_runtime
 *     stays within +-runtime_limit, so only delta_exec above 4.29 s differs.
 *   - fair_clock starts at 1 on every CPU; a task woken on another CPU reads
 *     that CPU's fair_clock without its lock, through a sequence counter.
 *   - The running RT task's class is checked first; a fair task never tests
 *     preemption against an RT curr's stale fair_key (2.6.23 did, harmlessly).
 */
#include "sched.h"
#include "../kernel/rbtree.h"

/* ---- tunables ---- */

static uint32_t rc1_code;                                           /* 0: rc6 / release, 1: rc1 */
unsigned int sysctl_sched_latency = SCHED_TUNABLE_UNSET;            /* rc6 */
unsigned int sysctl_sched_min_granularity = SCHED_TUNABLE_UNSET;    /* rc6 */
unsigned int sysctl_sched_granularity = SCHED_TUNABLE_UNSET;        /* rc1 */
unsigned int sysctl_sched_wakeup_granularity = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_batch_wakeup_granularity = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_runtime_limit = SCHED_TUNABLE_UNSET;
unsigned int sysctl_sched_child_runs_first = 1;
unsigned int sysctl_sched_compat_yield = 0;
unsigned int sysctl_sched_nr_migrate = 32;

#define SCHED_FEAT_FAIR_SLEEPERS 1
#define SCHED_FEAT_SLEEPER_AVG 2
#define SCHED_FEAT_SLEEPER_LOAD_AVG 4
#define SCHED_FEAT_PRECISE_CPU_LOAD 8
#define SCHED_FEAT_START_DEBIT 16
#define SCHED_FEAT_SKIP_INITIAL 32
unsigned int sysctl_sched_features = SCHED_TUNABLE_UNSET;
#define sched_feat(x) (sysctl_sched_features & SCHED_FEAT_##x)

#define GRAN_LIMIT 100000000u        /* sched_init_granularity's limit */

#define CFS_2_6_23 1         /* sched/cfs_common.h, cfs_smp.h: 2.6.23's domain and balancer details */
#include "cfs_common.h"      /* weights, the domain (shared with sched/cfs.c) */

#define NICE_0_SHIFT 10

/* ---- per-task and per-CPU state ---- */

struct cfs_entity {
    struct rb_node run_node;        /* in the cfs_rq tree while queued, running or not */
    struct list_head rt_node;       /* in an RT priority list while queued (RT tasks) */
    int64_t fair_key;
    int64_t wait_runtime;           /* ns owed (+) or overdrawn (-), within +-runtime_limit */
    uint64_t wait_start_fair;       /* fair_clock when it started waiting; 0: not waiting */
    uint64_t sleep_start_fair;      /* fair_clock when it went to sleep; 0: none */
    uint64_t exec_start;            /* clock at the last update_curr / pick */
    uint64_t sum_exec_runtime;
    uint64_t prev_sum_exec_runtime; /* when last picked (rc6's ideal_runtime rule) */
    uint32_t weight, inv_weight;
    int on_rq, is_rt, rt_time_slice;
    int fair_cpu;                   /* the CPU whose fair_clock the *_start_fair stamps refer to */
};

struct runqueue {
    /* fair class (struct cfs_rq) */
    struct rb_root_cached tasks_timeline;
    struct cfs_entity *curr;        /* the running fair task (still in the tree); NULL if none */
    uint64_t fair_clock;
    volatile uint32_t fair_clock_seq;
    uint64_t exec_clock;
    uint64_t sleeper_bonus;
    uint32_t load_weight, load_inv_weight;   /* cfs_rq->load; inv_weight 0 = to compute */
    int nr_running;
    /* real-time class */
    struct list_head rt_queue[MAX_RT_PRIO];
    uint32_t rt_bitmap[(MAX_RT_PRIO + 31) / 32];
    int rt_nr_running;
    /* balancing (sched/cfs_smp.h) */
    volatile uint32_t cpu_load;
    volatile uint32_t cpu_load_avg[CPU_LOAD_IDX_MAX];
    uint64_t next_balance, last_balance;
    unsigned int balance_interval, nr_balance_failed;
    unsigned int lb_count[CPU_MAX_IDLE_TYPES], lb_balanced[CPU_MAX_IDLE_TYPES], lb_failed[CPU_MAX_IDLE_TYPES];
    unsigned int lb_gained[CPU_MAX_IDLE_TYPES], lb_hot_gained[CPU_MAX_IDLE_TYPES];
    unsigned int alb_wanted;
    /* the run queue's clock (rq->clock): what update_curr and the picks read */
    uint64_t clock, prev_clock_raw, tick_timestamp;
    uint32_t clock_warps, clock_overflows, clock_reads;
    bool clock_fresh;               /* rc6: schedule() has updated it for the pick that follows */
    /* statistics for the tests */
    uint64_t wait_runtime_overruns, wait_runtime_underruns;
} __attribute__((aligned(1024)));

static struct runqueue runqueues[MAX_CPUS];

static struct cfs_entity *se_of(struct task *p) { return SCHED_TASK(p, struct cfs_entity); }
static struct task *task_of(struct cfs_entity *se) { return sched_task_of(se, 0); }
static struct cfs_entity *se_of_node(const struct rb_node *n)
{
    return rb_entry((struct rb_node *)n, struct cfs_entity, run_node);
}
static inline int64_t vdiff(uint64_t a, uint64_t b) { return (int64_t)(a - b); }
static inline void compiler_barrier(void) { __asm__ volatile("" ::: "memory"); }

#define CFS_RQ_CLOCK_RC1 rc1_code   /* cfs_shared.h: rc1 reads and clamps the run queue's clock its own way */
#include "cfs_shared.h"      /* load weights, the RT class, the run queue's clock (shared with sched/cfs.c) */

/* ---- arithmetic (2.6.23 kernel/sched.c, kernel/sched_fair.c) ---- */

/* calc_delta_mine: delta * weight / lw.weight with a lazily computed 2^32 /
 * weight (the model keeps no rounding; 2.6.23.17 has 2.6.24's SRR, rc1 none).
 * The inverse is i386's: WMULT_CONST is ~0UL, an unsigned long, so one
 * 32-bit division (rc6 (~0UL - w/2) / w + 1, rc1 ~0UL / w; the model had a
 * 64-bit one, about 150 more instructions through __udivdi3). */
static uint64_t calc_delta_mine(uint64_t delta_exec, uint32_t weight, struct runqueue *rq)
{
    if (!rq->load_inv_weight)
        rq->load_inv_weight = rc1_code ? 0xffffffffu / rq->load_weight
                                       : (0xffffffffu - rq->load_weight / 2) / rq->load_weight + 1;
    uint64_t tmp = delta_exec * weight;
    if (tmp > WMULT_CONST)
        tmp = ((tmp >> (WMULT_SHIFT / 2)) * rq->load_inv_weight) >> (WMULT_SHIFT / 2);
    else
        tmp = (tmp * rq->load_inv_weight) >> WMULT_SHIFT;
    return tmp < LONG_MAX_32 ? tmp : LONG_MAX_32;
}

/* div64_likely32 (rc1 kernel/sched.c): a 32-bit division when the dividend fits, as i386 did it. */
static uint64_t div64_likely32(uint64_t dividend, uint32_t divisor)
{
    if (dividend <= 0xffffffffull)
        return (uint32_t)dividend / divisor;
    return dividend / divisor;
}

/* calc_weighted (BITS_PER_LONG == 32): delta * weight >> shift, capped at 2 x limit. */
static uint64_t calc_weighted(uint64_t delta, uint32_t weight, int shift)
{
    uint64_t tmp = delta * weight >> shift;
    uint64_t cap = 2ull * sysctl_sched_runtime_limit;
    return tmp > cap ? cap : tmp;
}

static void set_fair_clock(struct runqueue *rq, uint64_t v)
{
    rq->fair_clock_seq++;
    compiler_barrier();
    rq->fair_clock = v;
    compiler_barrier();
    rq->fair_clock_seq++;
}

static uint64_t read_fair_clock_unlocked(struct runqueue *rq)
{
    for (;;) {
        uint32_t seq = rq->fair_clock_seq;
        compiler_barrier();
        uint64_t v = rq->fair_clock;
        compiler_barrier();
        if (!(seq & 1) && seq == rq->fair_clock_seq)
            return v;
    }
}

/* The granularity a tick compares against (rc1: fixed; rc6: from the queue length). */
static uint64_t sched_granularity(struct runqueue *rq)
{
    if (rc1_code)
        return sysctl_sched_granularity;
    uint32_t gran = sysctl_sched_latency;
    uint32_t nr = (uint32_t)rq->nr_running;
    if (nr > 1) {
        gran = gran / nr - gran / nr / nr;
        if (gran < sysctl_sched_min_granularity)
            gran = sysctl_sched_min_granularity;
    }
    return gran;
}

/* niced_granularity: linear in the weight, not exponential. */
static int64_t niced_granularity(const struct cfs_entity *curr, uint64_t granularity)
{
    if (curr->weight == NICE_0_LOAD)
        return (int64_t)granularity;
    if (curr->weight < NICE_0_LOAD)
        return (int64_t)((curr->weight * granularity) >> NICE_0_SHIFT);
    uint64_t tmp = curr->inv_weight * granularity;
    return (int64_t)(tmp >> (rc1_code ? WMULT_SHIFT : WMULT_SHIFT - NICE_0_SHIFT));
}

static void limit_wait_runtime(struct runqueue *rq, struct cfs_entity *se)
{
    int64_t limit = sysctl_sched_runtime_limit;
    if (se->wait_runtime > limit) {
        se->wait_runtime = limit;
        rq->wait_runtime_overruns++;
    }
    if (se->wait_runtime < -limit) {
        se->wait_runtime = -limit;
        rq->wait_runtime_underruns++;
    }
}

static void add_wait_runtime(struct runqueue *rq, struct cfs_entity *se, int64_t delta)
{
    se->wait_runtime += delta;
    limit_wait_runtime(rq, se);
}

/* ---- the fair class: 2.6.23 kernel/sched_fair.c ---- */

/* update_curr / __update_curr: charge the running task, advance fair_clock. */
static void update_curr(struct runqueue *rq)
{
    struct cfs_entity *curr = rq->curr;
    if (!curr)
        return;
    uint64_t now = rq->clock;
    uint64_t delta_exec = now - curr->exec_start;
    if ((int64_t)delta_exec < 0)
        delta_exec = 0;
    if (delta_exec > 0xffffffffull)
        delta_exec = 0xffffffffull;      /* unsigned long on i386 */
    curr->exec_start = now;
    if (!delta_exec)
        return;                          /* curr->delta_exec > sysctl_sched_stat_granularity (0) */
    curr->sum_exec_runtime += delta_exec;
    rq->exec_clock += delta_exec;
    if (!rq->load_weight)
        return;
    uint64_t delta_fair = calc_delta_mine(delta_exec, NICE_0_LOAD, rq);
    int64_t delta_mine = (int64_t)calc_delta_mine(delta_exec, curr->weight, rq);
    if (rc1_code) {
        if (rq->sleeper_bonus > sysctl_sched_granularity) {
            uint64_t delta = calc_delta_mine(rq->sleeper_bonus, curr->weight, rq);
            if (delta > rq->sleeper_bonus)
                delta = rq->sleeper_bonus;
            rq->sleeper_bonus -= delta;
            delta_mine -= (int64_t)delta;
        }
    } else if (rq->sleeper_bonus > sysctl_sched_min_granularity) {
        uint64_t delta = (uint64_t)delta_mine < rq->sleeper_bonus ? (uint64_t)delta_mine : rq->sleeper_bonus;
        int64_t room = (int64_t)sysctl_sched_runtime_limit - curr->wait_runtime;
        if (room < 0)
            room = 0;
        if (delta > (uint64_t)room)
            delta = (uint64_t)room;
        rq->sleeper_bonus -= delta;
        delta_mine -= (int64_t)delta;
    }
    set_fair_clock(rq, rq->fair_clock + delta_fair);
    add_wait_runtime(rq, curr, delta_mine - (int64_t)delta_exec);
}

/* update_stats_enqueue: start the wait (not for curr) and compute the key. */
static void update_stats_enqueue(struct runqueue *rq, struct cfs_entity *se)
{
    if (se != rq->curr)
        se->wait_start_fair = rq->fair_clock;
    int64_t key = (int64_t)rq->fair_clock;
    if (se->weight == NICE_0_LOAD) {
        key -= se->wait_runtime;
    } else if (se->wait_runtime < 0) {
        key += (int64_t)(((uint64_t)-se->wait_runtime * se->inv_weight) >> (WMULT_SHIFT - NICE_0_SHIFT));
    } else {
        key -= (int64_t)(((uint64_t)se->wait_runtime * se->inv_weight) >> (WMULT_SHIFT - NICE_0_SHIFT));
    }
    se->fair_key = key;
    se->fair_cpu = (int)(rq - runqueues);
}

/* update_stats_wait_end: credit the fair_clock advance while it waited. */
static void update_stats_wait_end(struct runqueue *rq, struct cfs_entity *se)
{
    if (!rc1_code && !se->wait_start_fair)
        return;
    uint64_t delta_fair = rq->fair_clock - se->wait_start_fair;
    uint64_t cap = 2ull * sysctl_sched_runtime_limit;
    if ((int64_t)delta_fair < 0)
        delta_fair = 0;
    if (delta_fair > cap)
        delta_fair = cap;
    if (se->weight != NICE_0_LOAD)
        delta_fair = calc_weighted(delta_fair, se->weight, NICE_0_SHIFT);
    add_wait_runtime(rq, se, (int64_t)delta_fair);
    se->wait_start_fair = 0;
}

/* enqueue_sleeper / __enqueue_sleeper: sleeper fairness. */
static void enqueue_sleeper(struct runqueue *rq, struct cfs_entity *se, struct task *p)
{
    if (p->policy == SCHED_BATCH || !sched_feat(FAIR_SLEEPERS))
        return;
    uint64_t delta_fair = rq->fair_clock - se->sleep_start_fair;
    uint64_t cap = 2ull * sysctl_sched_runtime_limit;
    if ((int64_t)delta_fair < 0)
        delta_fair = 0;
    if (delta_fair > cap)
        delta_fair = cap;
    se->sleep_start_fair = 0;
    if (!delta_fair)
        return;                          /* abs(delta_fair_sleep) >= stat_granularity (0) */
    /* Do not boost sleepers if there is too much bonus in flight already (rc6). */
    if (!rc1_code && rq->sleeper_bonus > sysctl_sched_runtime_limit)
        return;
    uint64_t load = rq->load_weight;
    if (sched_feat(SLEEPER_LOAD_AVG))
        load = rq->cpu_load_avg[2];
    if (sched_feat(SLEEPER_AVG))
        delta_fair = div64_likely32(delta_fair * load, (uint32_t)(load + se->weight));
    if (se->weight != NICE_0_LOAD)
        delta_fair = calc_weighted(delta_fair, se->weight, NICE_0_SHIFT);
    int64_t prev_runtime = se->wait_runtime;
    add_wait_runtime(rq, se, (int64_t)delta_fair);
    int64_t given = se->wait_runtime - prev_runtime;
    if (given > 0)
        rq->sleeper_bonus += (uint64_t)given;
}

static void update_cpu_load_now(struct runqueue *rq) { update_cpu_load(rq); }

static void __enqueue_entity(struct runqueue *rq, struct cfs_entity *se)
{
    struct rb_node **link = &rq->tasks_timeline.root.node, *parent = NULL;
    bool leftmost = true;
    while (*link) {
        parent = *link;
        if (se->fair_key - se_of_node(parent)->fair_key < 0) {
            link = &parent->left;
        } else {
            link = &parent->right;
            leftmost = false;
        }
    }
    rb_link_node(&se->run_node, parent, link);
    rb_insert_color(&se->run_node, &rq->tasks_timeline.root);
    if (leftmost)
        rq->tasks_timeline.leftmost = &se->run_node;
    rq->load_weight += se->weight;
    rq->load_inv_weight = 0;
    rq->nr_running++;
    se->on_rq = 1;
    update_cpu_load_now(rq);
}

static void __dequeue_entity(struct runqueue *rq, struct cfs_entity *se)
{
    rb_erase_cached(&se->run_node, &rq->tasks_timeline);
    rq->load_weight -= se->weight;
    rq->load_inv_weight = 0;
    rq->nr_running--;
    se->on_rq = 0;
    update_cpu_load_now(rq);
}

static void enqueue_entity(struct runqueue *rq, struct cfs_entity *se, struct task *p, bool wakeup)
{
    update_curr(rq);
    if (wakeup)
        enqueue_sleeper(rq, se, p);
    update_stats_enqueue(rq, se);
    __enqueue_entity(rq, se);
}

static void dequeue_entity(struct runqueue *rq, struct cfs_entity *se, bool sleep)
{
    update_curr(rq);
    if (se != rq->curr)
        update_stats_wait_end(rq, se);
    if (sleep) {
        se->sleep_start_fair = rq->fair_clock;
        se->fair_cpu = (int)(rq - runqueues);
    }
    __dequeue_entity(rq, se);
}

/* __check_preempt_curr_fair: preempt curr if se's key leads by more than niced(gran). */
static bool check_preempt_fair(struct runqueue *rq, struct cfs_entity *se, struct cfs_entity *curr,
                               uint64_t granularity)
{
    int64_t delta = curr->fair_key - se->fair_key;
    if (!rc1_code && rq->nr_running > 0) {
        uint64_t ideal_runtime = sysctl_sched_latency / (uint32_t)rq->nr_running;
        if (ideal_runtime < sysctl_sched_min_granularity)
            ideal_runtime = sysctl_sched_min_granularity;
        if (curr->sum_exec_runtime - curr->prev_sum_exec_runtime > ideal_runtime)
            granularity = 0;
    }
    return delta > niced_granularity(curr, granularity);
}

static void set_next_entity(struct runqueue *rq, struct cfs_entity *se)
{
    update_stats_wait_end(rq, se);
    se->exec_start = rq->clock;
    rq->curr = se;
    if (!rc1_code)
        se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static void put_prev_entity(struct runqueue *rq, struct cfs_entity *prev)
{
    if (prev->on_rq) {
        update_curr(rq);
        prev->wait_start_fair = rq->fair_clock;   /* update_stats_wait_start */
    }
    rq->curr = NULL;
}

/* check_preempt_curr for p just queued on cpu (try_to_wake_up, wake_up_new_task, pull_task). */
static void check_preempt_curr(int cpu, struct task *p)
{
    struct runqueue *rq = &runqueues[cpu];
    struct task *curr = sched_cpu_curr(cpu);
    if (curr->is_idle) {
        sched_resched_cpu(cpu);
        return;
    }
    if (task_is_rt(curr)) {
        if (task_is_rt(p) && rt_index(p) > rt_index(curr))
            sched_resched_cpu(cpu);
        return;
    }
    if (task_is_rt(p)) {
        update_curr(rq);
        sched_resched_cpu(cpu);
        return;
    }
    struct cfs_entity *cse = rq->curr, *pse = se_of(p);
    if (!cse || cse == pse)
        return;
    uint64_t gran = p->policy == SCHED_BATCH ? sysctl_sched_batch_wakeup_granularity : sysctl_sched_wakeup_granularity;
    if (check_preempt_fair(rq, pse, cse, gran))
        sched_resched_cpu(cpu);
}

/* set_task_cpu: shift the fair-clock stamps to the new CPU's fair_clock. */
static void renormalise(struct cfs_entity *se, int new_cpu, bool other_locked)
{
    if (se->fair_cpu == new_cpu)
        return;
    struct runqueue *orq = &runqueues[se->fair_cpu], *nrq = &runqueues[new_cpu];
    uint64_t old_clock = other_locked ? orq->fair_clock : read_fair_clock_unlocked(orq);
    uint64_t offset = old_clock - nrq->fair_clock;
    if (se->wait_start_fair)
        se->wait_start_fair -= offset;
    if (se->sleep_start_fair)
        se->sleep_start_fair -= offset;
    se->fair_cpu = new_cpu;
}

/* pull_task: deactivate on src, set_task_cpu, activate on dst, check_preempt_curr. */
static void move_task(int src, int dst, struct task *p, bool check_preempt)
{
    struct runqueue *srq = &runqueues[src], *drq = &runqueues[dst];
    struct cfs_entity *se = se_of(p);
    if (se->is_rt) {
        rt_dequeue(srq, p);
        sched_set_task_cpu(p, dst);
        rt_enqueue(drq, p);
    } else {
        if (rc1_code) {                  /* pull_task: deactivate_task and activate_task read rq_clock */
            rq_clock_at(src);
            rq_clock_at(dst);
        }
        dequeue_entity(srq, se, false);
        se->fair_cpu = src;
        sched_set_task_cpu(p, dst);
        renormalise(se, dst, true);
        enqueue_entity(drq, se, p, false);
    }
    if (check_preempt)
        check_preempt_curr(dst, p);
}

#include "cfs_smp.h"         /* wake-up placement and load balancing (shared with sched/cfs.c) */

/* ---- the sched_class hooks ---- */

/* sched_init_granularity, rc6 (2.6.23 kernel/sched.c) or rc1. */
static void sched_init_granularity(int ncpus)
{
    unsigned int factor = 1 + ilog2_u((unsigned int)ncpus);
    if (sysctl_sched_features == SCHED_TUNABLE_UNSET)
        sysctl_sched_features = rc1_code ? (SCHED_FEAT_FAIR_SLEEPERS | SCHED_FEAT_SLEEPER_AVG |
                                            SCHED_FEAT_SLEEPER_LOAD_AVG | SCHED_FEAT_PRECISE_CPU_LOAD |
                                            SCHED_FEAT_START_DEBIT)
                                         : (SCHED_FEAT_FAIR_SLEEPERS | SCHED_FEAT_SLEEPER_LOAD_AVG |
                                            SCHED_FEAT_START_DEBIT);
    if (sysctl_sched_min_granularity == SCHED_TUNABLE_UNSET) {
        sysctl_sched_min_granularity = 2000000u * factor;
        if (sysctl_sched_min_granularity > GRAN_LIMIT)
            sysctl_sched_min_granularity = GRAN_LIMIT;
    }
    if (sysctl_sched_latency == SCHED_TUNABLE_UNSET) {
        sysctl_sched_latency = 20000000u * factor;
        if (sysctl_sched_latency > GRAN_LIMIT)
            sysctl_sched_latency = GRAN_LIMIT;
    }
    if (sysctl_sched_granularity == SCHED_TUNABLE_UNSET) {
        sysctl_sched_granularity = (uint32_t)(2000000000ull / HZ) * factor;
        if (sysctl_sched_granularity > GRAN_LIMIT)
            sysctl_sched_granularity = GRAN_LIMIT;
    }
    if (rc1_code) {
        if (sysctl_sched_runtime_limit == SCHED_TUNABLE_UNSET)
            sysctl_sched_runtime_limit = sysctl_sched_granularity * 5;
        if (sysctl_sched_wakeup_granularity == SCHED_TUNABLE_UNSET)
            sysctl_sched_wakeup_granularity = (uint32_t)(1000000000ull / HZ);
        if (sysctl_sched_batch_wakeup_granularity == SCHED_TUNABLE_UNSET)
            sysctl_sched_batch_wakeup_granularity = (uint32_t)(10000000000ull / HZ);
    } else {
        if (sysctl_sched_runtime_limit == SCHED_TUNABLE_UNSET)
            sysctl_sched_runtime_limit = sysctl_sched_latency;
        if (sysctl_sched_wakeup_granularity == SCHED_TUNABLE_UNSET)
            sysctl_sched_wakeup_granularity = sysctl_sched_min_granularity / 2;
        if (sysctl_sched_batch_wakeup_granularity == SCHED_TUNABLE_UNSET)
            sysctl_sched_batch_wakeup_granularity = 25000000u;
    }
}

static void cfs23_init(int ncpus)
{
    cfs_domain_init();
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        rb_root_cached_init(&rq->tasks_timeline);
        rq->curr = NULL;
        rq->fair_clock = 1;              /* init_cfs_rq */
        rq_clock_init(rq);
        rq->fair_clock_seq = 0;
        rq->exec_clock = 0;
        rq->sleeper_bonus = 0;
        rq->load_weight = 0;
        rq->load_inv_weight = 0;
        rq->nr_running = 0;
        for (int prio = 0; prio < MAX_RT_PRIO; prio++)
            list_init(&rq->rt_queue[prio]);
        for (unsigned i = 0; i < ARRAY_SIZE(rq->rt_bitmap); i++)
            rq->rt_bitmap[i] = 0;
        rq->rt_nr_running = 0;
        update_cpu_load(rq);
        for (int i = 0; i < CPU_LOAD_IDX_MAX; i++)
            rq->cpu_load_avg[i] = 0;
        rq->next_balance = sched_jiffies();
        rq->last_balance = sched_jiffies();
        rq->balance_interval = sd_init.min_interval;
        rq->nr_balance_failed = 0;
        for (int t = 0; t < CPU_MAX_IDLE_TYPES; t++)
            rq->lb_count[t] = rq->lb_balanced[t] = rq->lb_failed[t] = rq->lb_gained[t] = rq->lb_hot_gained[t] = 0;
        rq->alb_wanted = 0;
        rq->wait_runtime_overruns = rq->wait_runtime_underruns = 0;
    }
    sched_init_granularity(ncpus);
    sched_log("cfs23: Linux 2.6.23 CFS, %s code, %d cpus: latency=%u min_gran=%u gran=%u wakeup_gran=%u "
              "runtime_limit=%u features=%u",
              rc1_code ? "rc1" : "rc6", ncpus, sysctl_sched_latency, sysctl_sched_min_granularity,
              sysctl_sched_granularity, sysctl_sched_wakeup_granularity, sysctl_sched_runtime_limit,
              sysctl_sched_features);
}

/* sched_fork / __sched_fork: neutral statistics. */
static void cfs23_task_fork(struct task *parent, struct task *child)
{
    (void)parent;
    struct cfs_entity *se = se_of(child);
    *se = (struct cfs_entity){ 0 };
    list_init(&se->rt_node);
    set_load_weight(child, se, child->nice);
    se->rt_time_slice = DEF_TIMESLICE;
    se->fair_cpu = child->cpu;
}

static void cfs23_enqueue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    rq_clock_at(cpu);                    /* rc1 activate_task's rq_clock; rc6 try_to_wake_up's update_rq_clock */
    if (task_is_rt(p)) {
        se->is_rt = 1;
        rt_enqueue(rq, p);
        check_preempt_curr(cpu, p);
        return;
    }
    se->is_rt = 0;
    renormalise(se, cpu, false);
    if (flags & ENQUEUE_NEW) {
        struct task *parent = p->parent;
        struct cfs_entity *curr = rq->curr;
        if (parent && !parent->is_idle && sysctl_sched_child_runs_first && cpu == sched_this_cpu() && curr &&
            curr == se_of(parent) && curr->on_rq) {
            /* task_new_fair */
            if (!rc1_code)
                update_curr(rq);
            update_stats_enqueue(rq, se);
            uint64_t gran = sched_granularity(rq);
            se->fair_key = curr->fair_key - niced_granularity(curr, gran) - 1;
            if (sched_feat(SKIP_INITIAL))
                se->wait_start_fair = 0;
            if (sched_feat(START_DEBIT))
                se->wait_runtime = -(int64_t)(gran / 2);
            __enqueue_entity(rq, se);
        } else {
            enqueue_entity(rq, se, p, false);
        }
        check_preempt_curr(cpu, p);      /* wake_up_new_task */
        return;
    }
    enqueue_entity(rq, se, p, (flags & ENQUEUE_WAKEUP) != 0);
    /* try_to_wake_up: a sync wake-up on the waker's CPU does not preempt. */
    if (!(flags & ENQUEUE_SYNC) || cpu != sched_this_cpu())
        check_preempt_curr(cpu, p);
}

static void cfs23_dequeue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    /* rc1: deactivate_task's rq_clock, then schedule() reads it again for
     * the pick.  rc6: schedule() reads it once, before deactivate_task, and
     * the pick uses that. */
    if (rc1_code) {
        rq_clock_at(cpu);
    } else if (flags & (DEQUEUE_SLEEP | DEQUEUE_EXIT)) {
        rq_clock_at(cpu);
        rq->clock_fresh = true;
    }
    if (se->is_rt) {
        if (sched_cpu_curr(cpu) == p)
            update_curr_rt(p);
        rt_dequeue(rq, p);
        return;
    }
    dequeue_entity(rq, se, (flags & DEQUEUE_SLEEP) != 0);
}

static struct task *cfs23_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    if (rc1_code || !rq->clock_fresh)
        __update_rq_clock(rq);           /* rc1: now = __rq_clock(rq); rc6: __update_rq_clock, unless done */
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
    struct task *next = task_of(se);
    sched_trace_event(next->cpu, "fair_key", (uint64_t)se_of(next)->fair_key);
    return next;
}

static void cfs23_tick(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    rq_clock_tick(rq);                   /* scheduler_tick (rc6) / update_cpu_load's __rq_clock (rc1) */
    update_cpu_load_avg(rq);
    if (curr->is_idle)
        return;
    struct cfs_entity *se = se_of(curr);
    if (se->is_rt) {
        update_curr_rt(curr);
        if (curr->policy != SCHED_RR || --se->rt_time_slice > 0)
            return;
        se->rt_time_slice = DEF_TIMESLICE;
        if (se->rt_node.prev != se->rt_node.next) {
            list_move_tail(&se->rt_node, &rq->rt_queue[rt_index(curr)]);
            sched_resched_cpu(cpu);
        }
        return;
    }
    if (rq->curr != se)
        return;
    if (rq->rt_nr_running > 0) {
        update_curr(rq);
        sched_resched_cpu(cpu);
        return;
    }
    /* entity_tick: requeue curr at its new key, then compare with the leftmost. */
    dequeue_entity(rq, se, false);
    enqueue_entity(rq, se, curr, false);
    struct cfs_entity *next = se_of_node(rb_first_cached(&rq->tasks_timeline));
    if (next == se)
        return;
    if (check_preempt_fair(rq, next, se, sched_granularity(rq)))
        sched_resched_cpu(cpu);
}

/* yield_task_fair: requeue at the current key, or behind the rightmost. */
static void cfs23_yield(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(curr);
    __update_rq_clock(rq);               /* yield_task_fair */
    if (se->is_rt) {
        list_move_tail(&se->rt_node, &rq->rt_queue[rt_index(curr)]);
        return;
    }
    if (!se->on_rq)
        return;
    if (!rc1_code && rq->nr_running == 1)
        return;
    if (rc1_code || !sysctl_sched_compat_yield) {
        dequeue_entity(rq, se, false);
        enqueue_entity(rq, se, curr, false);
        return;
    }
    struct rb_node *last = rb_last(&rq->tasks_timeline.root);
    struct cfs_entity *rightmost = se_of_node(last);
    if (rightmost == se)
        return;
    rb_erase_cached(&se->run_node, &rq->tasks_timeline);
    se->fair_key = rightmost->fair_key + 1;
    rq->load_weight -= se->weight;       /* __enqueue_entity adds them back */
    rq->nr_running--;
    __enqueue_entity(rq, se);
}

/* set_user_nice: dequeue, reweight, requeue (a new key at the new weight). */
static void cfs23_set_nice(int cpu, struct task *p, int nice)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    if (task_is_rt(p))
        return;
    rq_clock_at(cpu);                    /* set_user_nice: update_rq_clock (rc6), rq_clock (rc1) */
    bool queued = se->on_rq && !se->is_rt;
    if (queued)
        dequeue_entity(rq, se, false);
    set_load_weight(p, se, nice);
    if (queued) {
        enqueue_entity(rq, se, p, false);
        if (nice < p->nice || (nice > p->nice && sched_task_running(p)))
            sched_resched_cpu(cpu);
    }
}

/* ---- tunables and presets ---- */

static const struct sched_tunable cfs23_tunables[] = {
    { "rc1_code", "bool", 0, 0, 1, 0, &rc1_code,
      "the 2.6.23-rc1 code paths (fixed granularity, SLEEPER_AVG...) instead of rc6 / 2.6.23" },
    { "sched_latency_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_latency,
      "rc6: targeted preemption latency; auto: 20 ms x (1 + ilog2(ncpus)), at most 100 ms" },
    { "sched_min_granularity_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_min_granularity,
      "rc6: minimal preemption granularity; auto: 2 ms x (1 + ilog2(ncpus)), at most 100 ms" },
    { "sched_granularity_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_granularity,
      "rc1: preemption granularity; auto: 2e9/HZ ns x (1 + ilog2(ncpus)), at most 100 ms" },
    { "sched_wakeup_granularity_ns", "ns", 0, 0, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_wakeup_granularity,
      "wake-up preemption granularity; auto: rc6 min_granularity / 2, rc1 1e9/HZ ns" },
    { "sched_batch_wakeup_granularity_ns", "ns", 0, 0, 1000000000, SCHED_TUNABLE_AUTO,
      &sysctl_sched_batch_wakeup_granularity, "the same for SCHED_BATCH; auto: rc6 25 ms, rc1 1e10/HZ ns" },
    { "sched_runtime_limit_ns", "ns", 0, 100000, 1000000000, SCHED_TUNABLE_AUTO, &sysctl_sched_runtime_limit,
      "wait_runtime is kept within +-this; auto: rc6 = latency, rc1 = 5 x granularity" },
    { "sched_features", "count", 0, 0, 63, SCHED_TUNABLE_AUTO, &sysctl_sched_features,
      "bits: 1 FAIR_SLEEPERS 2 SLEEPER_AVG 4 SLEEPER_LOAD_AVG 8 PRECISE_CPU_LOAD 16 START_DEBIT 32 SKIP_INITIAL; "
      "auto: rc6 21, rc1 31" },
    { "sched_child_runs_first", "bool", 1, 0, 1, 0, &sysctl_sched_child_runs_first,
      "a forked child gets a key ahead of its parent" },
    { "sched_compat_yield", "bool", 0, 0, 1, 0, &sysctl_sched_compat_yield,
      "rc6: yield moves the task behind all others" },
    CFS_SMP_TUNABLES
};

/* rc1 and rc6 differ in code (the hunks in the header); the presets switch it. */
static const struct sched_preset cfs23_presets[] = {
    { "rc1", "rc1_code=1" },
    { "rc6", "rc1_code=0" },
};

const struct sched_class scheduler = {
    .name = "cfs23",
    .tunables = cfs23_tunables,
    .ntunables = ARRAY_SIZE(cfs23_tunables),
    .presets = cfs23_presets,
    .npresets = ARRAY_SIZE(cfs23_presets),
    .check_tunables = cfs_smp_check_tunables,
    .init = cfs23_init,
    .task_fork = cfs23_task_fork,
    .select_cpu = cfs_select_cpu,
    .enqueue = cfs23_enqueue,
    .dequeue = cfs23_dequeue,
    .pick_next = cfs23_pick_next,
    .tick = cfs23_tick,
    .balance = cfs_balance,
    .yield = cfs23_yield,
    .set_nice = cfs23_set_nice,
};
