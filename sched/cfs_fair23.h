/*
 * sched/cfs_fair23.h - the fair class of Linux 2.6.23 (kernel/sched_fair.c
 * and the parts of kernel/sched.c it calls on every switch and wake-up),
 * included twice by sched/cfs23.c: once as 2.6.23-rc1 (FAIR_RC1 1, names
 * ending in _rc1) and once as 2.6.23-rc6 and the release (FAIR_RC1 0,
 * _rc6).  Each copy is one kernel's code: the rc1/rc6 tests below are
 * compile-time constants, so a preset runs only its release's instructions
 * (no test of the preset on the way), and the presets choose the copy at
 * run time through its class table, as 2.6.23 called its class through
 * p->sched_class.  The hunks (numbered as in sched/cfs23.c's header) and
 * CFS23_RC1_HUNKS, which turns the cost hunks of the rc1 copy off one by
 * one for measuring them, are described there.
 */

#if FAIR_RC1
#define FAIR(name) name##_rc1
#define RC1 1
#else
#define FAIR(name) name##_rc6
#define RC1 0
#endif
/* Hunk n of the rc1 copy, where n is one of the cost hunks (10-14). */
#define RC1_COST(n) (RC1 && RC1_HUNK(n))

/*
 * Hunk 11: rc1 passes the 64-bit time stamp read by activate_task,
 * deactivate_task or schedule() down the call chain ("u64 now": enqueue_task
 * -> the class's enqueue_task -> enqueue_entity -> update_curr ...); from
 * August 2007 on (Ingo Molnar's series) the fair class reads rq->clock
 * where it uses it.
 */
#if RC1_COST(11)
#define NOW_DECL , uint64_t now
#define NOW_PASS , now
#define NOW_AT(rq) (now)
#else
#define NOW_DECL
#define NOW_PASS
#define NOW_AT(rq) ((rq)->clock)
#endif

/* calc_delta_mine: delta * weight / lw, with a lazily computed 2^32 / lw.
 * The inverse is i386's (WMULT_CONST = ~0UL, one 32-bit division): rc1
 * ~0UL / w, rc6 (~0UL - w/2) / w + 1 (hunk 13); rc6 rounds (SRR) and
 * clamps at LONG_MAX, rc1 truncates and clamps at sysctl_sched_runtime_limit
 * (hunk 14): rc1's kernel/sched.c against 2.6.23.17's. */
static uint64_t FAIR(calc_delta_mine)(uint64_t delta_exec, uint32_t weight, uint32_t lw_weight, uint32_t *lw_inv)
{
    if (!*lw_inv) {
        *lw_inv = RC1_COST(13) ? 0xffffffffu / lw_weight : (0xffffffffu - lw_weight / 2) / lw_weight + 1;
        COUNT_DIVISION();
    }
    uint64_t tmp = delta_exec * weight;
#if RC1_COST(14)
    if (tmp > WMULT_CONST)
        tmp = ((tmp >> (WMULT_SHIFT / 2)) * *lw_inv) >> (WMULT_SHIFT / 2);
    else
        tmp = (tmp * *lw_inv) >> WMULT_SHIFT;
    return tmp < sysctl_sched_runtime_limit ? tmp : sysctl_sched_runtime_limit;
#else
#define SRR(x, y) (((x) + (1ull << ((y) - 1))) >> (y))
    if (tmp > WMULT_CONST)
        tmp = SRR(SRR(tmp, WMULT_SHIFT / 2) * *lw_inv, WMULT_SHIFT / 2);
    else
        tmp = SRR(tmp * *lw_inv, WMULT_SHIFT);
#undef SRR
    return tmp < LONG_MAX_32 ? tmp : LONG_MAX_32;
#endif
}

/*
 * update_curr_load (kernel/sched.c, both releases): the queue's load_stat,
 * advanced on every enqueue and dequeue of any class (inc_load, dec_load)
 * before rq->ls.load changes: the time since the last change, and its fair
 * share at the queue's load (a calc_delta_fair, whose inverse weight was
 * reset by the last change), while the CPU is not idle.  rc1's
 * PRECISE_CPU_LOAD read the two sums at the tick (not modelled: cpu_load[]
 * averages the queue weight, as rc6's default).
 */
static void FAIR(update_curr_load)(struct runqueue *rq NOW_DECL)
{
#ifdef CFS23_NO_LOAD_STAT                /* experiment flag: the model before load_stat was modelled */
    (void)rq;
#if RC1_COST(11)
    (void)now;
#endif
    return;
#endif
    uint64_t start = rq->ls_update_start;
    rq->ls_update_start = NOW_AT(rq);
    rq->ls_delta_stat += (uint32_t)(NOW_AT(rq) - start);
    /* ls->delta_stat >= sysctl_sched_stat_granularity (0): always */
    if (!sched_cpu_curr((int)(rq - runqueues))->is_idle && rq->ls_weight) {
        rq->ls_delta_exec += rq->ls_delta_stat;
        rq->ls_delta_fair += (uint32_t)FAIR(calc_delta_mine)(rq->ls_delta_stat, NICE_0_LOAD, rq->ls_weight,
                                                            &rq->ls_inv_weight);
        rq->ls_delta_stat = 0;
    }
}

/* inc_nr_running / dec_nr_running: inc_load / dec_load on rq->ls.load. */
static void FAIR(inc_nr_running)(struct runqueue *rq, uint32_t weight NOW_DECL)
{
    FAIR(update_curr_load)(rq NOW_PASS);
    rq->ls_weight += weight;
    rq->ls_inv_weight = 0;
}

static void FAIR(dec_nr_running)(struct runqueue *rq, uint32_t weight NOW_DECL)
{
    FAIR(update_curr_load)(rq NOW_PASS);
    rq->ls_weight -= weight;
    rq->ls_inv_weight = 0;
}

/* update_curr / __update_curr: charge the running task, advance fair_clock. */
static void FAIR(update_curr)(struct runqueue *rq NOW_DECL)
{
    struct cfs_entity *curr = rq->curr;
    if (!curr)
        return;
    uint64_t delta_exec = NOW_AT(rq) - curr->exec_start;
    if ((int64_t)delta_exec < 0)
        delta_exec = 0;
    if (delta_exec > 0xffffffffull)
        delta_exec = 0xffffffffull;      /* unsigned long on i386 */
    curr->exec_start = NOW_AT(rq);
    if (!delta_exec)
        return;                          /* curr->delta_exec > sysctl_sched_stat_granularity (0) */
    curr->sum_exec_runtime += delta_exec;
    rq->exec_clock += delta_exec;
    if (!rq->load_weight)
        return;
    uint64_t delta_fair = FAIR(calc_delta_mine)(delta_exec, NICE_0_LOAD, rq->load_weight, &rq->load_inv_weight);
    int64_t delta_mine =
        (int64_t)FAIR(calc_delta_mine)(delta_exec, curr->weight, rq->load_weight, &rq->load_inv_weight);
#if RC1
    if (rq->sleeper_bonus > sysctl_sched_granularity) {
        uint64_t delta =
            FAIR(calc_delta_mine)(rq->sleeper_bonus, curr->weight, rq->load_weight, &rq->load_inv_weight);
        if (delta > rq->sleeper_bonus)
            delta = rq->sleeper_bonus;
        rq->sleeper_bonus -= delta;
        delta_mine -= (int64_t)delta;
    }
#else
    if (rq->sleeper_bonus > sysctl_sched_min_granularity) {
        uint64_t delta = (uint64_t)delta_mine < rq->sleeper_bonus ? (uint64_t)delta_mine : rq->sleeper_bonus;
        int64_t room = (int64_t)sysctl_sched_runtime_limit - curr->wait_runtime;
        if (room < 0)
            room = 0;
        if (delta > (uint64_t)room)
            delta = (uint64_t)room;
        rq->sleeper_bonus -= delta;
        delta_mine -= (int64_t)delta;
    }
#endif
    set_fair_clock(rq, rq->fair_clock + delta_fair);
    add_wait_runtime(rq, curr, delta_mine - (int64_t)delta_exec);
}

/* update_curr with the clock just read (rc1: update_curr(cfs_rq, rq_clock(rq))). */
static void FAIR(update_curr_here)(struct runqueue *rq)
{
#if RC1_COST(11)
    FAIR(update_curr)(rq, rq->clock);
#else
    FAIR(update_curr)(rq);
#endif
}

/* update_stats_enqueue: start the wait (not for curr) and compute the key.
 * (rc1 passes now down to update_stats_wait_start, which uses it only for
 * CONFIG_SCHEDSTATS's wait_start.) */
static void FAIR(update_stats_enqueue)(struct runqueue *rq, struct cfs_entity *se NOW_DECL)
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
#if RC1_COST(11)
    (void)now;
#endif
}

/* update_stats_wait_end: credit the fair_clock advance while it waited (hunk 5: rc6 skips a 0 stamp). */
static void FAIR(update_stats_wait_end)(struct runqueue *rq, struct cfs_entity *se NOW_DECL)
{
#if !RC1
    if (!se->wait_start_fair)
        return;
#endif
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
#if RC1_COST(11)
    (void)now;
#endif
}

/* enqueue_sleeper / __enqueue_sleeper: sleeper fairness (hunk 3: rc6 gives
 * nothing while too much bonus is in flight; hunk 12: rc1's SLEEPER_AVG
 * divides with div64_likely32). */
static void FAIR(enqueue_sleeper)(struct runqueue *rq, struct cfs_entity *se, struct task *p NOW_DECL)
{
#if RC1_COST(11)
    (void)now;
#endif
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
#if !RC1
    if (rq->sleeper_bonus > sysctl_sched_runtime_limit)
        return;
#endif
    uint64_t load = rq->load_weight;
    if (sched_feat(SLEEPER_LOAD_AVG))
        load = rq->cpu_load_avg[2];
    if (sched_feat(SLEEPER_AVG)) {
#if RC1_COST(12)
        delta_fair = div64_likely32(delta_fair * load, (uint32_t)(load + se->weight));
#else
        delta_fair = delta_fair * load / (uint32_t)(load + se->weight);   /* do_div */
#endif
        COUNT_DIVISION();
    }
    if (se->weight != NICE_0_LOAD)
        delta_fair = calc_weighted(delta_fair, se->weight, NICE_0_SHIFT);
    int64_t prev_runtime = se->wait_runtime;
    add_wait_runtime(rq, se, (int64_t)delta_fair);
    int64_t given = se->wait_runtime - prev_runtime;
    if (given > 0)
        rq->sleeper_bonus += (uint64_t)given;
}

static void FAIR(enqueue_entity)(struct runqueue *rq, struct cfs_entity *se, struct task *p, bool wakeup NOW_DECL)
{
    FAIR(update_curr)(rq NOW_PASS);
    if (wakeup)
        FAIR(enqueue_sleeper)(rq, se, p NOW_PASS);
    FAIR(update_stats_enqueue)(rq, se NOW_PASS);
    __enqueue_entity(rq, se);
}

static void FAIR(dequeue_entity)(struct runqueue *rq, struct cfs_entity *se, bool sleep NOW_DECL)
{
    FAIR(update_curr)(rq NOW_PASS);      /* update_stats_dequeue */
    if (se != rq->curr)
        FAIR(update_stats_wait_end)(rq, se NOW_PASS);
    if (sleep) {
        se->sleep_start_fair = rq->fair_clock;
        se->fair_cpu = (int)(rq - runqueues);
    }
    __dequeue_entity(rq, se);
}

/* __check_preempt_curr_fair: preempt curr if se's key leads by more than
 * niced(gran); rc6 with the ideal_runtime rule (hunk 1). */
static bool FAIR(check_preempt_fair)(struct runqueue *rq, struct cfs_entity *se, struct cfs_entity *curr,
                                     uint64_t granularity)
{
    int64_t delta = curr->fair_key - se->fair_key;
#if !RC1
    if (rq->nr_running > 0) {
        uint64_t ideal_runtime = sysctl_sched_latency / (uint32_t)rq->nr_running;
        if (ideal_runtime < sysctl_sched_min_granularity)
            ideal_runtime = sysctl_sched_min_granularity;
        if (curr->sum_exec_runtime - curr->prev_sum_exec_runtime > ideal_runtime)
            granularity = 0;
    }
#else
    (void)rq;
#endif
    return delta > niced_granularity_k(curr, granularity, RC1);
}

/* set_next_entity (update_stats_wait_end, update_stats_curr_start). */
static void FAIR(set_next_entity)(struct runqueue *rq, struct cfs_entity *se NOW_DECL)
{
    FAIR(update_stats_wait_end)(rq, se NOW_PASS);
    se->exec_start = NOW_AT(rq);
    rq->curr = se;
#if !RC1
    se->prev_sum_exec_runtime = se->sum_exec_runtime;
#endif
}

static void FAIR(put_prev_entity)(struct runqueue *rq, struct cfs_entity *prev NOW_DECL)
{
    if (prev->on_rq) {
        FAIR(update_curr)(rq NOW_PASS);
        prev->wait_start_fair = rq->fair_clock;   /* update_stats_wait_start */
    }
    rq->curr = NULL;
}

/* check_preempt_curr for p just queued on cpu (try_to_wake_up, wake_up_new_task, pull_task). */
static void FAIR(check_preempt_curr)(int cpu, struct task *p)
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
        FAIR(update_curr_here)(rq);
        sched_resched_cpu(cpu);
        return;
    }
    struct cfs_entity *cse = rq->curr, *pse = se_of(p);
    if (!cse || cse == pse)
        return;
    uint64_t gran = p->policy == SCHED_BATCH ? sysctl_sched_batch_wakeup_granularity : sysctl_sched_wakeup_granularity;
    if (FAIR(check_preempt_fair)(rq, pse, cse, gran))
        sched_resched_cpu(cpu);
}

/* ---- the class's methods, called through its table (2.6.23's p->sched_class) ---- */

static void FAIR(enqueue_task_fair)(struct runqueue *rq, struct task *p, int wakeup NOW_DECL)
{
    FAIR(enqueue_entity)(rq, se_of(p), p, wakeup != 0 NOW_PASS);
}

static void FAIR(dequeue_task_fair)(struct runqueue *rq, struct task *p, int sleep NOW_DECL)
{
    FAIR(dequeue_entity)(rq, se_of(p), sleep != 0 NOW_PASS);
}

static void FAIR(put_prev_task_fair)(struct runqueue *rq, struct task *prev NOW_DECL)
{
    FAIR(put_prev_entity)(rq, se_of(prev) NOW_PASS);
}

static struct task *FAIR(pick_next_task_fair)(struct runqueue *rq NOW_DECL)
{
    struct rb_node *left = rb_first_cached(&rq->tasks_timeline);
    if (!left)
        return NULL;
    struct cfs_entity *se = se_of_node(left);
    FAIR(set_next_entity)(rq, se NOW_PASS);
    return task_of(se);
}

/* Not static, not const: the calls go through it, as through 2.6.23's fair_sched_class. */
struct FAIR(fair_sched_class) {
    void (*enqueue_task)(struct runqueue *rq, struct task *p, int wakeup NOW_DECL);
    void (*dequeue_task)(struct runqueue *rq, struct task *p, int sleep NOW_DECL);
    void (*put_prev_task)(struct runqueue *rq, struct task *prev NOW_DECL);
    struct task *(*pick_next_task)(struct runqueue *rq NOW_DECL);
} FAIR(fair_sched_class) = {
    .enqueue_task = FAIR(enqueue_task_fair),
    .dequeue_task = FAIR(dequeue_task_fair),
    .put_prev_task = FAIR(put_prev_task_fair),
    .pick_next_task = FAIR(pick_next_task_fair),
};

/* ---- what sched.c does around the class (activate_task, deactivate_task, schedule, ...) ---- */

/*
 * activate_task (try_to_wake_up, wake_up_new_task's non-child-first case,
 * pull_task): the clock (hunk 10: rc1's activate_task reads it, rq_clock;
 * rc6's try_to_wake_up, update_rq_clock), enqueue_task through the class,
 * inc_nr_running.  RT tasks go to the RT class (no now: not modelled there).
 */
static void FAIR(activate_task)(int cpu, struct task *p, int wakeup)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    rq_clock_at(cpu);
#if RC1_COST(11)
    uint64_t now = rq->clock;            /* u64 now = rq_clock(rq) */
#endif
    if (task_is_rt(p)) {
        se->is_rt = 1;
        rt_enqueue(rq, p);
    } else {
        se->is_rt = 0;
        renormalise(se, cpu, false);
        FAIR(fair_sched_class).enqueue_task(rq, p, wakeup NOW_PASS);
    }
    FAIR(inc_nr_running)(rq, se->weight NOW_PASS);
}

/* deactivate_task: rc1 reads the clock here (hunk 10), rc6 schedule() did before it. */
static void FAIR(deactivate_task)(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
#if RC1_COST(10)
    rq_clock_at(cpu);
#else
    if (flags & (DEQUEUE_SLEEP | DEQUEUE_EXIT)) {
        rq_clock_at(cpu);                /* schedule()'s __update_rq_clock, before deactivate_task */
        rq->clock_fresh = true;
    }
#endif
#if RC1_COST(11)
    uint64_t now = rq->clock;            /* u64 now = rq_clock(rq) */
#endif
    if (se->is_rt) {
        if (sched_cpu_curr(cpu) == p)
            update_curr_rt(p);
        rt_dequeue(rq, p);
    } else {
        FAIR(fair_sched_class).dequeue_task(rq, p, (flags & DEQUEUE_SLEEP) != 0 NOW_PASS);
    }
    FAIR(dec_nr_running)(rq, se->weight NOW_PASS);
}

/* wake_up_new_task with child-runs-first on the parent's CPU: task_new_fair
 * (hunk 8: rc6 updates the clock first and uses sched_granularity). */
static void FAIR(task_new_fair)(struct runqueue *rq, struct cfs_entity *se, struct cfs_entity *curr NOW_DECL)
{
#if !RC1
    FAIR(update_curr)(rq NOW_PASS);
#endif
    FAIR(update_stats_enqueue)(rq, se NOW_PASS);
    uint64_t gran = sched_granularity_k(rq, RC1);
    se->fair_key = curr->fair_key - niced_granularity_k(curr, gran, RC1) - 1;
    if (sched_feat(SKIP_INITIAL))
        se->wait_start_fair = 0;
    if (sched_feat(START_DEBIT))
        se->wait_runtime = -(int64_t)(gran / 2);
    __enqueue_entity(rq, se);
}

static void FAIR(wake_up_new_task)(int cpu, struct task *p)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    struct task *parent = p->parent;
    struct cfs_entity *curr = rq->curr;
    if (!task_is_rt(p) && parent && !parent->is_idle && sysctl_sched_child_runs_first && cpu == sched_this_cpu() &&
        curr && curr == se_of(parent) && curr->on_rq) {
        rq_clock_at(cpu);
#if RC1_COST(11)
        uint64_t now = rq->clock;        /* task_new_fair's u64 now = rq_clock(rq) */
#endif
        se->is_rt = 0;
        renormalise(se, cpu, false);
        FAIR(task_new_fair)(rq, se, curr NOW_PASS);
        FAIR(inc_nr_running)(rq, se->weight NOW_PASS);
    } else {
        FAIR(activate_task)(cpu, p, 0);
    }
    FAIR(check_preempt_curr)(cpu, p);
}

/*
 * schedule() from the clock on: rc1 reads it again (now = __rq_clock(rq),
 * hunk 10), rc6 uses the read before deactivate_task unless there was none;
 * put_prev_task and the pick through the class (the fair class directly when
 * no RT task is queued, 2.6.23's shortcut).
 */
static struct task *FAIR(schedule_pick)(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
#if RC1_COST(10)
    __update_rq_clock(rq);               /* now = __rq_clock(rq) */
#else
    if (!rq->clock_fresh)
        __update_rq_clock(rq);
#endif
    rq->clock_fresh = false;
#if RC1_COST(11)
    uint64_t now = rq->clock;
#endif
    if (!prev->is_idle) {
        struct cfs_entity *pse = se_of(prev);
        if (pse->is_rt)
            update_curr_rt(prev);
        else if (rq->curr == pse)
            FAIR(fair_sched_class).put_prev_task(rq, prev NOW_PASS);
    }
    if (rq->nr_running == 0 && rq->rt_nr_running == 0 && sched_nr_cpus() > 1)
        idle_balance(cpu);
    int prio = rt_highest(rq);
    if (prio > 0) {
        struct task *next = task_of(list_first_entry(&rq->rt_queue[prio], struct cfs_entity, rt_node));
        se_of(next)->exec_start = sched_clock_ns();
        return next;
    }
    return FAIR(fair_sched_class).pick_next_task(rq NOW_PASS);
}

/* scheduler_tick -> task_tick_fair -> entity_tick: requeue curr at its new
 * key, then compare with the leftmost (rc1: the fixed granularity). */
static void FAIR(entity_tick)(struct runqueue *rq, struct cfs_entity *se, struct task *curr)
{
#if RC1_COST(11)
    uint64_t now = rq->clock;            /* the tick's clock read (scheduler_tick) */
#endif
    FAIR(dequeue_entity)(rq, se, false NOW_PASS);
    FAIR(enqueue_entity)(rq, se, curr, false NOW_PASS);
    struct cfs_entity *next = se_of_node(rb_first_cached(&rq->tasks_timeline));
    if (next == se)
        return;
    if (FAIR(check_preempt_fair)(rq, next, se, sched_granularity_k(rq, RC1)))
        sched_resched_cpu((int)(rq - runqueues));
}

/* yield_task_fair: requeue at the current key (rc6: nothing when alone;
 * with sched_compat_yield, behind the rightmost task: hunk 7). */
static void FAIR(yield_task_fair)(struct runqueue *rq, struct cfs_entity *se, struct task *curr)
{
    __update_rq_clock(rq);               /* rc1: u64 now = __rq_clock(rq); rc6: __update_rq_clock(rq) */
#if RC1_COST(11)
    uint64_t now = rq->clock;
#endif
#if !RC1
    if (rq->nr_running == 1)
        return;
    if (sysctl_sched_compat_yield) {
        struct rb_node *last = rb_last(&rq->tasks_timeline.root);
        struct cfs_entity *rightmost = se_of_node(last);
        if (rightmost == se)
            return;
        rb_erase_cached(&se->run_node, &rq->tasks_timeline);
        se->fair_key = rightmost->fair_key + 1;
        rq->load_weight -= se->weight;   /* __enqueue_entity adds them back */
        rq->nr_running--;
        __enqueue_entity(rq, se);
        return;
    }
#endif
    FAIR(dequeue_entity)(rq, se, false NOW_PASS);
    FAIR(enqueue_entity)(rq, se, curr, false NOW_PASS);
}

/* set_user_nice: dequeue_task, dec_load, reweight, enqueue_task, inc_load. */
static void FAIR(set_user_nice)(int cpu, struct task *p, int nice)
{
    struct runqueue *rq = &runqueues[cpu];
    struct cfs_entity *se = se_of(p);
    rq_clock_at(cpu);                    /* update_rq_clock (rc6), rq_clock (rc1) */
#if RC1_COST(11)
    uint64_t now = rq->clock;
#endif
    bool queued = se->on_rq && !se->is_rt;
    if (queued) {
        FAIR(dequeue_entity)(rq, se, false NOW_PASS);
        FAIR(dec_nr_running)(rq, se->weight NOW_PASS);
    }
    set_load_weight(p, se, nice);
    if (queued) {
        FAIR(enqueue_entity)(rq, se, p, false NOW_PASS);
        FAIR(inc_nr_running)(rq, se->weight NOW_PASS);
        if (nice < p->nice || (nice > p->nice && sched_task_running(p)))
            sched_resched_cpu(cpu);
    }
}

/* pull_task: deactivate_task on src, set_task_cpu, activate_task on dst
 * (rc1: each rq_clock, which reads only the local CPU's clock). */
static void FAIR(pull_task)(int src, int dst, struct task *p)
{
    struct runqueue *srq = &runqueues[src], *drq = &runqueues[dst];
    struct cfs_entity *se = se_of(p);
#if RC1_COST(10)
    rq_clock_at(src);
    rq_clock_at(dst);
#endif
#if RC1_COST(11)
    uint64_t now = srq->clock;
#endif
    if (se->is_rt)
        rt_dequeue(srq, p);
    else
        FAIR(dequeue_entity)(srq, se, false NOW_PASS);
    FAIR(dec_nr_running)(srq, se->weight NOW_PASS);
    se->fair_cpu = src;
    sched_set_task_cpu(p, dst);
#if RC1_COST(11)
    now = drq->clock;
#endif
    if (se->is_rt) {
        rt_enqueue(drq, p);
    } else {
        renormalise(se, dst, true);
        FAIR(enqueue_entity)(drq, se, p, false NOW_PASS);
    }
    FAIR(inc_nr_running)(drq, se->weight NOW_PASS);
}

#undef FAIR
#undef RC1
#undef RC1_COST
#undef NOW_DECL
#undef NOW_PASS
#undef NOW_AT
