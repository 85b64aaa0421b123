/*
 * sched/cfs_smp.h - wake-up placement and load balancing of the CFS kernels
 * (2.6.23 sched/cfs23.c and 2.6.24 sched/cfs.c): try_to_wake_up's CPU
 * choice (wake-affine, then wake_idle), update_cpu_load, find_busiest_group,
 * move_tasks / balance_tasks, load_balance, idle_balance and
 * rebalance_domains with the one domain of sched/cfs_common.h, as
 * sched/cfs.c's header describes them (2.6.24 kernel/sched.c).  Where 2.6.23
 * differs (CFS_2_6_23, from 2.6.23.17's kernel/sched.c): it has no task_hot
 * at all, so try_to_wake_up has no "attract cache-cold tasks on sync
 * wake-ups" step and can_migrate_task moves any task that is allowed and not
 * running.  The including file defines, before it: struct runqueue
 * runqueues[] with the balancing fields, se_of(), task_of(), se_of_node(),
 * vdiff(), sysctl_sched_migration_cost (2.6.24), sysctl_sched_nr_migrate,
 * and move_task(src, dst, p, check_preempt), which moves one queued task
 * with both locks held and renormalises its fair-class key.
 */
#ifndef SCHED_CFS_SMP_H
#define SCHED_CFS_SMP_H

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

#if !CFS_2_6_23
/* task_hot: ran within sysctl_sched_migration_cost (its cache is still warm). */
static bool task_hot(struct task *p)
{
    return vdiff(sched_clock_ns(), se_of(p)->exec_start) < (int64_t)sysctl_sched_migration_cost;
}
#endif

static uint32_t source_load(int cpu, unsigned int type);
static uint32_t target_load(int cpu, unsigned int type);

/*
 * wake_idle (2.6.23 and 2.6.24 kernel/sched.c; compiled in with
 * ARCH_HAS_SCHED_WAKE_IDLE, i.e. CONFIG_SCHED_SMT): a task woken onto a CPU
 * that is busy, but with nothing else queued, goes to the first idle CPU
 * of a domain with SD_WAKE_IDLE instead, the lowest-numbered first
 * (for_each_cpu_mask).  A CPU counts as idle while its current task is its
 * idle task (idle_cpu), even if a wake-up is already on its way to it.
 * The waker's own CPU is such a CPU when it wakes its partner: the waker
 * runs, alone, so a sync wake-up of a task that last ran there goes to the
 * other core if it is idle; pipe-test and lat_ctx's pair thus run on both
 * cores of a dual core, each hand-off crossing over (seed001's unbound rows).
 */
static int wake_idle(int cpu, struct task *p)
{
    if (!sd_init.wake_idle || sched_cpu_is_idle(cpu) || sched_nr_queued(cpu) > 1)
        return cpu;
    for (int i = 0; i < sched_nr_cpus(); i++)
        if (task_allowed_on(p, i) && sched_cpu_is_idle(i))
            return i;
    return cpu;
}

/* try_to_wake_up's SD_WAKE_AFFINE test: true to wake p on this_cpu rather than prev (racy reads, as in Linux). */
static bool wake_affine(struct task *p, int prev, int this_cpu, bool sync)
{
#if !CFS_2_6_23
    /* SD_WAKE_AFFINE: attract cache-cold tasks on sync wake-ups (2.6.24). */
    if (sync && !task_hot(p))
        return true;
#endif
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
    return (tl <= load && tl + target_load(prev, idx) <= tl_per_task) ||
           100 * (tl + se_of(p)->weight) <= (uint64_t)imbalance * load;
}

/* try_to_wake_up's CPU choice: the waker's CPU if wake-affine says so, else
 * the task's last; then wake_idle.  (A task woken on its last CPU skips
 * wake-affine but not wake_idle.) */
static int cfs_select_cpu(struct task *p, int waker_cpu, int flags)
{
    int prev = p->cpu;
    if (!task_allowed_on(p, prev))
        return least_loaded_allowed(p, task_allowed_on(p, waker_cpu) ? waker_cpu : prev);
    if (flags & WAKE_NEW)
        return prev;                     /* no SD_BALANCE_FORK: start on the parent's CPU */
    int this_cpu = waker_cpu, new_cpu = prev;
    if (prev != this_cpu && task_allowed_on(p, this_cpu) && wake_affine(p, prev, this_cpu, (flags & WAKE_SYNC) != 0))
        new_cpu = this_cpu;
    return wake_idle(new_cpu, p);
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
#if CFS_2_6_23
    (void)idle;
    return true;                         /* 2.6.23 has no cache-hot test */
#else
    bool hot = !se_of(p)->is_rt && task_hot(p);
    if (!hot)
        return true;
    if (runqueues[this_cpu].nr_balance_failed > sd_init.cache_nice_tries) {
        runqueues[this_cpu].lb_hot_gained[idle]++;
        return true;
    }
    return false;
#endif
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

/* The balancer's tunables (the domain, the pass size): the last entries of
 * cfs.c's and cfs23.c's tables (cfs.c adds task_hot's sched_migration_cost
 * before them), and the check of their order. */
#define CFS_SMP_TUNABLES \
    { "sched_nr_migrate", "count", 32, 1, 100000, 0, &sysctl_sched_nr_migrate, "tasks examined per balance pass" }, \
    { "sched_mc", "bool", 1, 0, 1, 0, &sd_init.sched_mc, \
      "CONFIG_SCHED_MC: 1 the CPUs are cores of one package (SD_MC_INIT, a Core 2 Duo), 0 SD_CPU_INIT" }, \
    { "wake_idle", "bool", 0, 0, 1, SCHED_TUNABLE_AUTO, &sd_init.wake_idle, \
      "SD_WAKE_IDLE with wake_idle() (CONFIG_SCHED_SMT): auto from the domain, 0 only for 2.6.24 SD_CPU_INIT" }, \
    { "min_interval", "ms", 1, 1, 1000, 0, &sd_init.min_interval, "shortest balancing interval" }, \
    { "max_interval", "ms", 4, 1, 1000, 0, &sd_init.max_interval, \
      "the interval doubles up to this while balanced" }, \
    { "busy_factor", "count", 64, 1, 1000, 0, &sd_init.busy_factor, "interval x this on a busy CPU" }, \
    { "imbalance_pct", "percent", 125, 100, 1000, 0, &sd_init.imbalance_pct, \
      "balanced unless the busiest load is this much above ours" }, \
    { "cache_nice_tries", "count", 1, 0, 100, 0, &sd_init.cache_nice_tries, \
      "failed balances before cache-hot tasks move anyway (2.6.24)" }, \
    { "busy_idx", "count", 2, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.busy_idx, \
      "cpu_load[] average a busy CPU balances by (0: now)" }, \
    { "idle_idx", "count", 0, 0, CPU_LOAD_IDX_MAX, SCHED_TUNABLE_AUTO, &sd_init.idle_idx, \
      "the same for an idle CPU: auto from the domain (0; 2.6.24 SD_CPU_INIT 1)" }, \
    { "newidle_idx", "count", 0, 0, CPU_LOAD_IDX_MAX, SCHED_TUNABLE_AUTO, &sd_init.newidle_idx, \
      "the same for a CPU about to go idle: auto from the domain (0; 2.6.24 SD_CPU_INIT 2)" }, \
    { "wake_idx", "count", 1, 0, CPU_LOAD_IDX_MAX, 0, &sd_init.wake_idx, "the same for wake-affine" },

static const char *cfs_smp_check_tunables(const char **bad)
{
    if (sd_init.min_interval > sd_init.max_interval) {
        *bad = "min_interval";
        return "min_interval is above max_interval";
    }
    return NULL;
}

#endif
