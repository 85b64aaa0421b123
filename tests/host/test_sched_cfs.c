/*
 * Host tests of sched/cfs.c (Linux 2.6.24 CFS) on the simulated core
 * (tests/host/simenv.h).  The simulated clock advances 1 ms per tick
 * (HZ=1000), so every figure below follows from the 2.6.24 formulas and the
 * weight table; each test states its prediction.  Covered: the weight table
 * and granularity scaling, CPU shares by nice, the leftmost always running
 * next, slices of period/N, wake-up preemption and sleeper credit,
 * START_DEBIT placement, child-runs-first, yield, set_nice, the RT class,
 * load balancing, affinity, vruntime renormalisation on migration, and the
 * queue invariants under a random workload.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "simenv.h"

/* Inspection functions and tunables of sched/cfs.c (not in sched.h). */
/* The scheduler itself, so its private state can be inspected: the views below. */
#include "../../sched/cfs.c"

/* Views of the private state, and a consistency check of a CPU's queue. */

static uint64_t cfs_task_vruntime(struct task *p) { return se_of(p)->vruntime; }
static uint32_t cfs_task_weight(struct task *p) { return se_of(p)->weight; }
static uint64_t cfs_min_vruntime(int cpu) { return runqueues[cpu].min_vruntime; }
static uint32_t cfs_load_weight(int cpu) { return runqueues[cpu].load_weight; }
static uint32_t cfs_cpu_load(int cpu) { return runqueues[cpu].cpu_load; }
static uint64_t cfs_sched_period(int nr_running) { return sched_period((unsigned long)nr_running); }

/* The waiting fair task that would run next on cpu (leftmost), or NULL. */
struct task *cfs_leftmost(int cpu)
{
    struct rb_node *left = rb_first_cached(&runqueues[cpu].tasks_timeline);
    return left ? task_of(se_of_node(left)) : NULL;
}

/* Consistency of cpu's queue (caller holds or does not need the lock):
 * NULL when fine, else what is wrong. */
const char *cfs_check_runqueue(int cpu)
{
    struct runqueue *rq = &runqueues[cpu];
    int count;
    const char *why = rb_check_cached(&rq->tasks_timeline, entity_before, &count, NULL);
    if (why)
        return why;
    if (count + (rq->curr && rq->curr->on_rq ? 1 : 0) != rq->nr_running)
        return "nr_running does not match the tree plus the running task";
    uint32_t load = rq->curr && rq->curr->on_rq ? rq->curr->weight : 0;
    for (struct rb_node *n = rb_first(&rq->tasks_timeline.root); n; n = rb_next(n)) {
        struct cfs_entity *se = se_of_node(n);
        struct task *p = task_of(se);
        load += se->weight;
        if (!se->on_rq || se->is_rt)
            return "a task in the tree is not queued as fair";
        if (p->cpu != cpu)
            return "a task in the tree belongs to another cpu";
        if (sched_task_running(p) && sched_cpu_curr(cpu) != p)
            return "a task in the tree runs on another cpu";
        if (!task_allowed_on(p, cpu))
            return "a task in the tree may not run on this cpu";
    }
    if (load != rq->load_weight)
        return "load weight does not match the queued tasks";
    int rt = 0;
    for (int prio = 0; prio < MAX_RT_PRIO; prio++) {
        struct list_head *pos;
        list_for_each(pos, &rq->rt_queue[prio])
            rt++;
        bool bit = (rq->rt_bitmap[prio / 32] >> (prio % 32)) & 1;
        if (bit == list_empty(&rq->rt_queue[prio]))
            return "rt bitmap does not match the rt lists";
    }
    if (rt != rq->rt_nr_running)
        return "rt_nr_running does not match the rt lists";
    if (sched_nr_queued(cpu) != rq->nr_running + rq->rt_nr_running)
        return "the core's queued count does not match the fair and rt counts";
    return NULL;
}

#define MS 1000000ull
#define START_DEBIT_BIT 4

static int ncpus_now;

/* Every tunable back to its table default (AUTO ones unset, for cfs_init to
 * compute), as kernel/sched_tunables.c writes them at boot. */
static int restore_tunables(void **state)
{
    for (int i = 0; i < scheduler.ntunables; i++) {
        const struct sched_tunable *t = &scheduler.tunables[i];
        *t->value = (t->flags & SCHED_TUNABLE_AUTO) ? SCHED_TUNABLE_UNSET : t->def;
    }
    return 0;
}

static void init(int ncpus)
{
    restore_tunables(NULL);
    sim_init(ncpus);
    ncpus_now = ncpus;
}

/* A machine of separate packages: 2.6.24's SD_CPU_INIT (no SD_WAKE_IDLE, idle_idx 1, newidle_idx 2). */
static void init_cpu_level(int ncpus)
{
    restore_tunables(NULL);
    sd_init.sched_mc = 0;
    sim_init(ncpus);
    ncpus_now = ncpus;
}

static void check_queues(void)
{
    for (int cpu = 0; cpu < ncpus_now; cpu++) {
        const char *why = cfs_check_runqueue(cpu);
        if (why)
            fail_msg("cpu %d run queue: %s", cpu, why);
    }
}

static struct task *hog(const char *name, int nice) { return sim_spawn(name, nice, 0, NULL, 0); }
static struct task *hog_on(const char *name, int nice, int cpu) { return sim_spawn(name, nice, CPU_BIT(cpu), NULL, cpu); }

/* ratio a/b in thousandths */
static long ratio_milli(uint64_t a, uint64_t b) { return (long)(a * 1000 / b); }

/* ---- constants ---- */

static void test_weights_and_granularity_scaling(void **state)
{
    init(1);
    /* prio_to_weight: nice -20, -5, 0, 1, 5, 10, 19. */
    const int nices[] = { -20, -5, 0, 1, 5, 10, 19 };
    const uint32_t weights[] = { 88761, 3121, 1024, 820, 335, 110, 15 };
    for (unsigned i = 0; i < ARRAY_SIZE(nices); i++)
        assert_int_equal(cfs_task_weight(hog("t", nices[i])), weights[i]);
    /* RT weight = 2 x 88761. */
    assert_int_equal(cfs_task_weight(sim_spawn_rt("rt", SCHED_FIFO, 10, 0)), 2 * 88761);

    /* sched_init_granularity: x (1 + ilog2(ncpus)); nr_latency stays 5. */
    const int cpus[] = { 1, 2, 3, 4, 8, 16 };
    const unsigned factor[] = { 1, 2, 2, 3, 4, 5 };
    for (unsigned i = 0; i < ARRAY_SIZE(cpus); i++) {
        init(cpus[i]);
        assert_int_equal(sysctl_sched_latency, 20 * MS * factor[i]);
        assert_int_equal(sysctl_sched_min_granularity, 4 * MS * factor[i]);
        assert_int_equal(sysctl_sched_wakeup_granularity, 10 * MS * factor[i]);
    }
    /* __sched_period on one CPU: 20 ms up to 5 tasks, then 20 ms x nr / 5. */
    init(1);
    assert_int_equal(cfs_sched_period(1), 20 * MS);
    assert_int_equal(cfs_sched_period(5), 20 * MS);
    assert_int_equal(cfs_sched_period(6), 24 * MS);
    assert_int_equal(cfs_sched_period(10), 40 * MS);
}

/* ---- CPU shares ---- */

/* Two hogs on one CPU for 6 s: runtime ratio = weight ratio.  vruntimes
 * stay within one slice of each other, so the error is below 1%. */
static void share_test(int nice_a, int nice_b, long predicted_milli)
{
    init(1);
    struct task *a = hog("a", nice_a), *b = hog("b", nice_b);
    sim_reschedule_pending();
    sim_run(6000);
    check_queues();
    assert_int_equal(sim_runtime_ns(a) + sim_runtime_ns(b), 6000 * MS);
    long r = ratio_milli(sim_runtime_ns(a), sim_runtime_ns(b));
    print_message("nice %d vs %d: ratio %ld/1000, predicted %ld/1000\n", nice_a, nice_b, r, predicted_milli);
    assert_in_range(r, predicted_milli * 99 / 100, predicted_milli * 101 / 100);
    /* vruntimes close: within the larger slice (20 ms x w / W) plus a tick. */
    int64_t gap = vdiff(cfs_task_vruntime(a), cfs_task_vruntime(b));
    assert_in_range(gap < 0 ? -gap : gap, 0, 21 * MS);
}

static void test_nice_0_vs_5_gets_1024_to_335(void **state) { share_test(0, 5, 3057); }      /* 1024/335 */
static void test_nice_0_vs_10_gets_9_3x(void **state) { share_test(0, 10, 9309); }           /* 1024/110 */
static void test_nice_minus_5_vs_0(void **state) { share_test(-5, 0, 3048); }                /* 3121/1024 */

static void test_equal_nice_equal_shares(void **state)
{
    /* 3 hogs at nice 0 and 3 at nice 7 (weight 215): each group shares equally. */
    init(1);
    struct task *t[6];
    for (int i = 0; i < 6; i++)
        t[i] = hog("t", i < 3 ? 0 : 7);
    sim_reschedule_pending();
    sim_run(9000);
    for (int i = 0; i < 6; i++)
        print_message("task %d nice %d: %llu ms\n", i, t[i]->nice, (unsigned long long)(sim_runtime_ns(t[i]) / MS));
    check_queues();
    /* Predicted: nice 0 gets 1024/(3*1024+3*215) = 27.5% each (2479 ms), nice 7 5.8% (521 ms). */
    for (int i = 0; i < 6; i++) {
        uint64_t expect = 9000 * MS * (i < 3 ? 1024 : 215) / (3 * 1024 + 3 * 215);
        assert_in_range(sim_runtime_ns(t[i]), expect - 30 * MS, expect + 30 * MS);
    }
    for (int i = 1; i < 6; i++) {
        int64_t d = (int64_t)sim_runtime_ns(t[i]) - (int64_t)sim_runtime_ns(t[i < 3 ? 0 : 3]);
        assert_in_range(d < 0 ? -d : d, 0, 25 * MS);
    }
}

/* ---- picking ---- */

static void test_leftmost_always_runs_next(void **state)
{
    /* Mixed nice levels with sleeps and wake-ups: whenever a switch happens,
     * the task switched to has the smallest vruntime of all queued tasks
     * (the one it preempted included), and it is the one that was leftmost. */
    init(1);
    struct task *t[6];
    for (int i = 0; i < 6; i++)
        t[i] = hog("t", (i * 7) % 13 - 3);
    sim_reschedule_pending();
    int switches = 0;
    for (int step = 0; step < 4000; step++) {
        struct task *before = sim_curr(0);
        uint32_t before_in = before->nr_switches_in;
        if (step % 97 == 13 && !before->is_idle) {
            sim_block(0);
        } else if (step % 89 == 5) {
            for (int i = 0; i < 6; i++)
                if (t[i]->state == TASK_SLEEPING) {
                    sim_wake(t[i], 0, 0);
                    break;
                }
            sim_reschedule_pending();
        } else {
            sim_tick();
        }
        check_queues();
        struct task *now = sim_curr(0);
        if (now->is_idle)
            continue;
        if (now != before || now->nr_switches_in != before_in) {
            switches++;
            /* Nothing has run since the pick: curr <= every waiting task. */
            for (int i = 0; i < 6; i++)
                if (t[i] != now && t[i]->on_rq)
                    assert_true(vdiff(cfs_task_vruntime(now), cfs_task_vruntime(t[i])) <= 0);
        }
    }
    assert_true(switches > 100);
}

/* Runs on one CPU with N equal hogs: each run lasts the first whole tick past
 * slice = period/N (check_preempt_tick: delta_exec > ideal_runtime), and each
 * task runs once per round. */
static void slice_test(int ncpus, int n, int expected_run_ticks)
{
    init(ncpus);
    for (int i = 0; i < n; i++)
        hog_on("t", 0, 0);
    sim_run(300);   /* warm up: new tasks start with START_DEBIT offsets */
    struct task *prev = sim_curr(0);
    int run = 0, runs = 0;
    struct task *round[16];
    int in_round = 0;
    for (int step = 0; step < 2000; step++) {
        sim_tick();
        struct task *c = sim_curr(0);
        run++;
        if (c != prev) {
            if (runs > 0)   /* the first measured run may have started before the window */
                assert_int_equal(run, expected_run_ticks);
            runs++;
            run = 0;
            /* Within a round of n runs, every task appears once. */
            for (int i = 0; i < in_round; i++)
                assert_ptr_not_equal(round[i], prev);
            round[in_round++] = prev;
            if (in_round == n)
                in_round = 0;
            prev = c;
        }
    }
    assert_true(runs >= 2000 / expected_run_ticks - 2);
    check_queues();
}

static void test_latency_slices_of_period_over_n(void **state)
{
    slice_test(1, 2, 11);    /* period 20 ms, slice 10 ms -> 11 ticks */
    slice_test(1, 3, 7);     /* slice 6.67 ms -> 7 ticks */
    slice_test(1, 4, 6);     /* slice 5 ms -> 6 ticks */
    slice_test(1, 5, 5);     /* slice 4 ms -> 5 ticks */
    slice_test(1, 10, 5);    /* period stretched to 40 ms: slice 4 ms -> 5 ticks */
    slice_test(2, 4, 11);    /* 2 CPUs: latency 40 ms, slice 10 ms -> 11 ticks */
    slice_test(4, 2, 31);    /* 4 CPUs: latency 60 ms, slice 30 ms -> 31 ticks */
}

/* ---- wake-up ---- */

/* A hog runs alone for a while after a sleeper blocked: the sleeper wakes at
 * max(own vruntime, min_vruntime - sysctl_sched_latency) and preempts only if
 * that is more than sysctl_sched_wakeup_granularity behind the hog. */
static void test_long_sleeper_gets_one_latency_and_preempts(void **state)
{
    init(1);    /* latency 20 ms, wakeup granularity 10 ms */
    struct task *s = hog("sleeper", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
    sim_run(3);
    sim_block(0);
    struct task *a = hog("hog", 0);
    sim_reschedule_pending();
    sim_run(1000);
    assert_ptr_equal(sim_curr(0), a);
    uint64_t min = cfs_min_vruntime(0);
    assert_int_equal(min, cfs_task_vruntime(a));          /* alone: min_vruntime follows it */
    sim_wake(s, 0, 0);
    /* Sleeper credit capped at one latency. */
    assert_int_equal(cfs_task_vruntime(s), min - 20 * MS);
    /* 20 ms behind > 10 ms granularity: preempt. */
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
    check_queues();
}

/* Two hogs share the CPU; one blocks, the other runs k ticks alone; on wake-up
 * the gap is (hog vruntime - sleeper vruntime): preempt iff gap > 10 ms. */
static void gap_test(int64_t target_gap_ms, bool expect_preempt)
{
    init(1);
    struct task *s = hog("s", 0), *a = hog("a", 0);
    sim_run(200);
    while (sim_curr(0) != s)
        sim_tick();
    sim_block(0);
    assert_ptr_equal(sim_curr(0), a);
    while (vdiff(cfs_task_vruntime(a), cfs_task_vruntime(s)) < target_gap_ms * (int64_t)MS)
        sim_tick();
    int64_t gap = vdiff(cfs_task_vruntime(a), cfs_task_vruntime(s));
    uint64_t own = cfs_task_vruntime(s);
    sim_wake(s, 0, 0);
    assert_int_equal(cfs_task_vruntime(s), own);   /* short sleep: no credit needed */
    print_message("gap %lld ms: preempt %d\n", (long long)(gap / (int64_t)MS), sim_need_resched(0));
    assert_int_equal(sim_need_resched(0), expect_preempt);
    assert_int_equal(gap > 10 * (int64_t)MS, expect_preempt);
}

static void test_wakeup_preemption_threshold(void **state)
{
    gap_test(5, false);     /* 5 ms behind: within the granularity */
    gap_test(11, true);     /* 11 ms behind: beyond it */
}

static void test_batch_never_preempts_on_wakeup(void **state)
{
    init(1);
    struct task *s = hog("batch", 0);
    s->policy = SCHED_BATCH;
    sim_reschedule_pending();
    sim_block(0);
    struct task *a = hog("hog", 0);
    sim_run(500);
    sim_wake(s, 0, 0);
    assert_int_equal(cfs_task_vruntime(s), cfs_min_vruntime(0) - 20 * MS);
    assert_false(sim_need_resched(0));
    assert_ptr_equal(sim_curr(0), a);
}

/* ---- new tasks ---- */

static void test_start_debit_places_new_tasks_behind(void **state)
{
    init(1);
    struct task *a = hog("a", 0);
    sim_run(100);
    /* New task B (no parent): vruntime = min_vruntime + period(2) x 1024 /
     * (1024 + 1024) = min + 10 ms, behind A: A is not preempted. */
    struct task *b = hog("b", 0);
    uint64_t min = cfs_min_vruntime(0);
    assert_int_equal(cfs_task_vruntime(b), min + 10 * MS);
    assert_int_equal(min, cfs_task_vruntime(a));
    assert_false(sim_need_resched(0));
    /* A keeps the CPU until its vruntime passes B's: 10 ms more. */
    int ticks = 0;
    while (sim_curr(0) == a) {
        sim_tick();
        ticks++;
    }
    assert_ptr_equal(sim_curr(0), b);
    assert_in_range(ticks, 10, 12);
    /* A nice 5 newcomer gets a bigger debit: period x 1024 / (2048 + 335). */
    struct task *c = hog("c", 5);
    assert_int_equal(cfs_task_vruntime(c), cfs_min_vruntime(0) + 20 * MS * 1024 / (2048 + 335));

    /* Without START_DEBIT the newcomer starts at min_vruntime. */
    init(1);
    sysctl_sched_features &= ~START_DEBIT_BIT;
    hog("a", 0);
    sim_run(100);
    struct task *d = hog("d", 0);
    assert_int_equal(cfs_task_vruntime(d), cfs_min_vruntime(0));
}

static void test_fork_storm_does_not_starve_existing(void **state)
{
    /* A hog plus a new hog every 5 ms for 200 ms: with START_DEBIT each
     * newcomer is placed a vslice behind min_vruntime, so the old task keeps
     * running its slices: it gets at least its fair share of the 200 ms. */
    init(1);
    struct task *old = hog("old", 0);
    sim_run(50);
    uint64_t before = sim_runtime_ns(old);
    for (int i = 0; i < 40; i++) {
        hog("new", 0);
        sim_run(5);
    }
    uint64_t got = sim_runtime_ns(old) - before;
    /* Fair share if everyone had been there all along: sum over 5 ms windows of 5/(i+2). */
    uint64_t fair = 0;
    for (int i = 0; i < 40; i++)
        fair += 5 * MS / (uint64_t)(i + 2);
    print_message("old task got %llu ms of 200, fair share %llu ms\n", (unsigned long long)(got / MS),
                  (unsigned long long)(fair / MS));
    assert_true(got >= fair);
    check_queues();
}

static void test_child_runs_first(void **state)
{
    init(1);
    struct task *parent = hog("parent", 0);
    sim_run(50);
    assert_ptr_equal(sim_curr(0), parent);
    uint64_t min = cfs_min_vruntime(0);
    uint64_t pv = cfs_task_vruntime(parent);
    struct task *child = sim_spawn("child", 0, 0, parent, 0);
    /* Placed at min + 10 ms, then swapped with the parent (which was behind). */
    assert_int_equal(cfs_task_vruntime(child), pv);
    assert_int_equal(cfs_task_vruntime(parent), min + 10 * MS);
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), child);
    check_queues();

    /* Disabled: no swap, the parent goes on. */
    init(1);
    sysctl_sched_child_runs_first = 0;
    parent = hog("parent", 0);
    sim_run(50);
    child = sim_spawn("child", 0, 0, parent, 0);
    assert_int_equal(cfs_task_vruntime(child), cfs_min_vruntime(0) + 10 * MS);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), parent);

    /* A child that cannot run on the parent's CPU is not swapped. */
    init(2);
    parent = hog_on("parent", 0, 0);
    sim_run(50);
    pv = cfs_task_vruntime(parent);
    child = sim_spawn("child", 0, CPU_BIT(1), parent, 0);
    assert_int_equal(child->cpu, 1);
    assert_int_equal(cfs_task_vruntime(parent), pv);
}

/* ---- yield and nice ---- */

/* Tick until the running task's vruntime compares with the other's as wanted (sign). */
static struct task *run_until_curr(struct task *a, struct task *b, int sign)
{
    for (int i = 0; i < 1000; i++) {
        struct task *c = sim_curr(0), *o = c == a ? b : a;
        int64_t d = vdiff(cfs_task_vruntime(c), cfs_task_vruntime(o));
        if ((sign < 0 && d < 0) || (sign > 0 && d > 0))
            return c;
        sim_tick();
    }
    fail_msg("the vruntimes never compared as wanted");
    return NULL;
}

static void test_yield_2_6_24_semantics(void **state)
{
    init(1);
    struct task *a = hog("a", 0), *b = hog("b", 0);
    sim_reschedule_pending();
    /* A yielding task that is still leftmost (vruntime below the other's) keeps the CPU. */
    struct task *c = run_until_curr(a, b, -1);
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), c);
    /* Once it is past the other task, yield hands over. */
    c = run_until_curr(a, b, +1);
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), c == a ? b : a);
    /* compat_yield: even from behind, it goes after the rightmost. */
    sysctl_sched_compat_yield = 1;
    c = run_until_curr(a, b, -1);
    struct task *other = c == a ? b : a;
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), other);
    assert_int_equal(cfs_task_vruntime(c), cfs_task_vruntime(other) + 1);
    check_queues();
    /* Alone: yield returns to the same task. */
    init(1);
    struct task *solo = hog("solo", 0);
    sim_reschedule_pending();
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), solo);
}

static void test_set_nice_reweights(void **state)
{
    init(1);
    struct task *a = hog("a", 0), *b = hog("b", 0);
    sim_run(1000);
    assert_int_equal(cfs_load_weight(0), 2048);
    sim_set_nice(b, 5);
    assert_int_equal(cfs_task_weight(b), 335);
    assert_int_equal(cfs_load_weight(0), 1024 + 335);
    check_queues();
    uint64_t ra = sim_runtime_ns(a), rb = sim_runtime_ns(b);
    sim_run(6000);
    long r = ratio_milli(sim_runtime_ns(a) - ra, sim_runtime_ns(b) - rb);
    assert_in_range(r, 3057 * 98 / 100, 3057 * 102 / 100);
    /* Back to nice -5: it now gets 3121/1024 of the other. */
    sim_set_nice(b, -5);
    ra = sim_runtime_ns(a);
    rb = sim_runtime_ns(b);
    sim_run(6000);
    r = ratio_milli(sim_runtime_ns(b) - rb, sim_runtime_ns(a) - ra);
    assert_in_range(r, 3048 * 98 / 100, 3048 * 102 / 100);
    check_queues();
}

/* ---- real-time class ---- */

static void test_rt_runs_above_fair(void **state)
{
    init(1);
    struct task *f = hog("fair", -20);
    sim_run(10);
    struct task *r = sim_spawn_rt("fifo", SCHED_FIFO, 10, 0);
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), r);
    uint64_t fair_before = sim_runtime_ns(f);
    sim_run(500);                               /* FIFO: no timeslice, no fair task runs */
    assert_ptr_equal(sim_curr(0), r);
    assert_int_equal(sim_runtime_ns(f), fair_before);
    /* A higher priority preempts; the lower one resumes after it blocks. */
    struct task *hi = sim_spawn_rt("hi", SCHED_FIFO, 50, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), hi);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), r);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), f);
    /* Two SCHED_RR at one priority alternate every DEF_TIMESLICE (100 ms). */
    struct task *rr1 = sim_spawn_rt("rr1", SCHED_RR, 5, 0), *rr2 = sim_spawn_rt("rr2", SCHED_RR, 5, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), rr1);
    sim_run(99);
    assert_ptr_equal(sim_curr(0), rr1);
    sim_run(1);
    assert_ptr_equal(sim_curr(0), rr2);
    sim_run(100);
    assert_ptr_equal(sim_curr(0), rr1);
    assert_int_equal(sim_runtime_ns(f), fair_before);
    check_queues();
}

/* ---- SMP ---- */

static uint32_t total_migrations(struct task **t, int n)
{
    uint32_t m = 0;
    for (int i = 0; i < n; i++)
        m += t[i]->nr_migrations;
    return m;
}

static void test_balancing_spreads_tasks(void **state)
{
    /* No fork balancing in 2.6.24's SD_CPU_INIT: 8 children of CPU 0 start
     * there.  At tick 1 the idle CPUs pull, judging sources by
     * source_load(idle_idx 1) = min(cpu_load[0], now) and the average
     * load: CPU 1 takes 2 (imbalance 2048 of 8192/4), CPU 2 takes 2 (CPU 1
     * counts 0: its own cpu_load[0] was taken before its pull), CPU 3 one
     * (4096/4).  So 3/2/2/1, and CPU 3's next balance, busy now, comes
     * 1 ms x busy_factor 64 later: 2/2/2/2 at tick 65.  (With loads read
     * "now", as the model had them until 2026-12, it was 2/2/2/2 at once.) */
    init_cpu_level(4);
    struct task *t[8];
    for (int i = 0; i < 8; i++)
        t[i] = hog("t", 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(t[i]->cpu, 0);
    sim_run(1);
    static const int first[4] = { 3, 2, 2, 1 };
    for (int cpu = 0; cpu < 4; cpu++)
        assert_int_equal(sched_nr_queued(cpu), first[cpu]);
    sim_run(63);
    assert_int_equal(sched_nr_queued(3), 1);
    sim_run(1);
    for (int cpu = 0; cpu < 4; cpu++)
        assert_int_equal(sched_nr_queued(cpu), 2);
    check_queues();
    /* Balanced (2048 everywhere is never above ours): no further
     * migrations, every task gets about half a CPU. */
    uint32_t migrations = total_migrations(t, 8);
    uint64_t before[8];
    for (int i = 0; i < 8; i++)
        before[i] = sim_runtime_ns(t[i]);
    sim_run(2000);
    for (int i = 0; i < 8; i++)
        assert_in_range(sim_runtime_ns(t[i]) - before[i], 950 * MS, 1050 * MS);
    assert_int_equal(total_migrations(t, 8), migrations);
    check_queues();
}

/*
 * Five hogs on four CPUs: 2048 against 1024 is out of balance (100 x 2048 >
 * 125 x 1024) although no move can even it out.  find_busiest_group's
 * imbalance is min(2048 - 1280, 1280 - 1024) = 256, less than a task, so
 * fix_small_imbalance decides: 2048 - 1024 + SCHED_LOAD_SCALE_FUZZ (1024) >=
 * 2 x 1024, move one.  The odd task rotates at the busy balance interval
 * (64..256 ms) and over 20 s every hog gets close to 4/5 of a CPU.  (The
 * model's old "move only while the difference shrinks" rule kept them at
 * 1, 1, 1, 1/2, 1/2 with no migration at all.)  Four separate packages
 * (SD_CPU_INIT: idle_idx 1, newidle_idx 2).
 */
static void test_five_hogs_on_four_cpus_rotate(void **state)
{
    init_cpu_level(4);
    struct task *t[5];
    for (int i = 0; i < 5; i++)
        t[i] = hog("t", 0);
    sim_run(5);
    for (int cpu = 0; cpu < 4; cpu++)
        assert_false(sim_curr(cpu)->is_idle);
    uint32_t migrations = total_migrations(t, 5);
    sim_run(20000);
    assert_true(total_migrations(t, 5) - migrations >= 100);
    for (int i = 0; i < 5; i++)
        assert_in_range(sim_runtime_ns(t[i]), 15400 * MS, 16600 * MS);   /* 0.77..0.83 of 20 s */
    check_queues();
}

/*
 * The balance interval (rebalance_domains): balance_interval starts at
 * min_interval (1 ms), doubles up to max_interval (4 ms) each time the CPU
 * finds itself balanced and falls back to 1 when it is not; a busy CPU waits
 * busy_factor (64) times as long.  Four hogs on four CPUs: balanced every
 * time, so 64, 128, then every 256 ms: 40 busy balances in 10.24 s (64 +
 * 128 + 38 x 256 = 9920).  One hog on four CPUs: the idle ones balance at
 * 1, 2, then every 4 ms: 251 times in a second.  (Until 2026-12 the model
 * used a fixed 64 ms busy and 1 ms idle: 160 and 1000.)
 */
static void test_balance_interval_backs_off(void **state)
{
    init(4);
    for (int cpu = 0; cpu < 4; cpu++)
        sim_spawn("t", 0, 0, NULL, cpu);
    sim_run(10240);
    for (int cpu = 0; cpu < 4; cpu++) {
        assert_int_equal(runqueues[cpu].lb_count[CPU_NOT_IDLE], 40);
        assert_int_equal(runqueues[cpu].lb_balanced[CPU_NOT_IDLE], 40);
        assert_int_equal(runqueues[cpu].balance_interval, 4);
    }
    init(4);
    sim_spawn("t", 0, 0, NULL, 0);
    sim_run(1000);
    for (int cpu = 1; cpu < 4; cpu++)
        assert_int_equal(runqueues[cpu].lb_count[CPU_IDLE], 251);
}

static void test_busy_balance_by_weight(void **state)
{
    /* CPU 0: four nice 0 hogs; CPU 1: one.  Allowed everywhere after 2 ms.
     * CPU 1's balance at tick 1 was an idle one that found CPU 0's tasks
     * pinned (balance_interval 1 -> 2), so its first busy balance comes
     * 2 x 64 ms later, at jiffy 129: imbalance min(4096 - 2560, 2560 - 1024)
     * = 1536, so it pulls one task (1024) and then a second (half its weight
     * is not above the 512 left plus the fuzz): 2 and 3.  From then on the
     * odd task rotates, as with five hogs on four CPUs. */
    init(2);
    struct task *t[5];
    for (int i = 0; i < 4; i++)
        t[i] = hog_on("t", 0, 0);
    t[4] = hog_on("u", 0, 1);
    sim_run(2);
    for (int i = 0; i < 5; i++)
        sim_set_affinity(t[i], 0x3);
    while (sched_jiffies() < 128)
        sim_run(1);
    assert_int_equal(sched_nr_queued(0), 4);
    sim_run(1);
    assert_int_equal(sched_jiffies(), 129);
    assert_int_equal(sched_nr_queued(0), 2);
    assert_int_equal(sched_nr_queued(1), 3);
    uint32_t moved = total_migrations(t, 5);
    sim_run(1000);
    assert_true(total_migrations(t, 5) > moved);
    /* Weighted: a nice -5 (3121) hog alone on CPU 1 vs three nice 0 on CPU 0
     * (3072): CPU 1 is the busier one but runs a single task, and CPU 0 is
     * below it: nothing moves. */
    init(2);
    for (int i = 0; i < 3; i++)
        t[i] = hog_on("t", 0, 0);
    t[3] = hog_on("heavy", -5, 1);
    sim_run(2);
    for (int i = 0; i < 4; i++)
        sim_set_affinity(t[i], 0x3);
    sim_run(1000);
    assert_int_equal(t[3]->cpu, 1);
    assert_int_equal(sched_nr_queued(0), 3);
    assert_int_equal(cfs_cpu_load(0), 3072);
    assert_int_equal(total_migrations(t, 4), 0);
    check_queues();
}

/*
 * can_migrate_task's cache-hot rule: a task that ran within
 * sysctl_sched_migration_cost (0.5 ms) stays where it is until the domain
 * has failed to balance more than cache_nice_tries (1) times.  CPU 1 (one
 * hog) balances against CPU 0 (two, the waiting one made hot): refused
 * twice (nr_balance_failed 1, 2), taken the third time (lb_hot_gained).  A
 * task that ran 0.6 ms ago moves at once.  (The model had no such refusal
 * until 2026-12: the hot task moved at the first balance.)
 */
static int hot_pull_attempts(uint64_t ran_ago, unsigned int migration_cost)
{
    init(2);
    sysctl_sched_migration_cost = migration_cost;
    struct task *a = hog_on("a", 0, 0), *b = hog_on("b", 0, 0);
    hog_on("c", 0, 1);
    sim_run(30);
    sim_set_affinity(a, 0x3);
    sim_set_affinity(b, 0x3);
    struct task *waiting = sim_curr(0) == a ? b : a;
    for (int attempt = 1; attempt <= 5; attempt++) {
        se_of(waiting)->exec_start = sched_clock_ns() - ran_ago;
        sim_on_cpu(1);
        load_balance(1, CPU_NOT_IDLE);
        if (waiting->cpu == 1) {
            assert_int_equal(runqueues[1].lb_hot_gained[CPU_NOT_IDLE], ran_ago < migration_cost ? 1 : 0);
            assert_int_equal(runqueues[1].nr_balance_failed, 0);
            return attempt;
        }
        assert_int_equal(runqueues[1].nr_balance_failed, attempt);
        assert_int_equal(runqueues[1].lb_failed[CPU_NOT_IDLE], attempt);
    }
    return -1;
}

static void test_cache_hot_refused_until_balancing_fails(void **state)
{
    assert_int_equal(hot_pull_attempts(200000, 500000), 3);
    assert_int_equal(hot_pull_attempts(600000, 500000), 1);
    assert_int_equal(hot_pull_attempts(200000, 0), 1);     /* sched_migration_cost=0: nothing is ever hot */
}

/*
 * balance_tasks skips a task whose half weight exceeds what is left to move
 * (plus the fuzz), unless it would be the best-priority task on the new CPU
 * (p->prio < this_best_prio, the prio of what runs there).  CPU 0 runs a
 * FIFO task; its only waiting fair task is a nice -20 hog (88761: half is
 * 44380 > 1024 + 1024).  Asked to move 1024 while CPU 1 runs a nice 0 hog
 * (prio 120), it moves (prio 100 is better); while CPU 1 runs a nice -20 hog
 * (prio 100) it stays.
 */
static void test_heavy_task_moves_if_best_priority_there(void **state)
{
    for (int round = 0; round < 2; round++) {
        init(2);
        struct task *heavy = hog_on("heavy", -20, 0);
        sim_run(30);
        struct task *rt = sim_spawn_rt("rt", SCHED_FIFO, 10, CPU_BIT(0));
        hog_on("there", round == 0 ? 0 : -20, 1);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), rt);
        sim_set_affinity(heavy, 0x3);
        sim_run(5);                                  /* cold: it last ran 5 ms ago */
        sim_on_cpu(1);
        bool all_pinned = false;
        sched_double_lock(1, 0);
        bool moved = move_tasks(1, 0, 1024, CPU_NOT_IDLE, &all_pinned, true);
        sched_double_unlock(1, 0);
        assert_int_equal(moved, round == 0);
        assert_int_equal(heavy->cpu, round == 0 ? 1 : 0);
        check_queues();
    }
}

/*
 * Newly idle balancing takes the busiest queue's lock with
 * double_lock_balance, as 2.6.24's load_balance_newidle: when the trylock
 * fails it waits for the lock (dropping its own first when the lock order
 * requires it) instead of giving up, as the model did until 2026-12 (the
 * CPU then idled until its next tick).  CPU 0, with two hogs, holds its
 * lock while CPU 1 runs out of work (its cpu_load[1] is 1024, below the
 * average 1536, so it balances); in the single-threaded simulation the wait
 * shows as the simulator's "waits for it" report, where the old code went
 * idle.
 */
static void test_newidle_balance_waits_for_the_lock(void **state)
{
    init(2);
    hog_on("a", 0, 0);
    struct task *b = hog_on("b", 0, 0);
    hog_on("c", 0, 1);
    sim_run(30);
    sim_set_affinity(b, 0x3);
    sim_on_cpu(0);
    spin_lock(sched_rq_lock(0));
    bool waited = sim_expect_bug(sim_block(1));
    assert_true(waited);
    assert_non_null(strstr(sim_bug_message, "runqueue/0"));
    assert_non_null(strstr(sim_bug_message, "waits for it"));
}

static void test_affinity_never_violated(void **state)
{
    init(4);
    struct task *pinned[6];
    for (int i = 0; i < 6; i++)
        pinned[i] = hog_on("pinned", 0, 2);
    for (int i = 0; i < 6; i++)
        hog("free", 0);
    sim_run(2000);
    check_queues();
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pinned[i]->cpus_run_mask, CPU_BIT(2));
        assert_true(sim_runtime_ns(pinned[i]) > 0);
    }
    /* The free tasks spread over CPUs 0, 1 and 3: none of them idles. */
    for (int cpu = 0; cpu < 4; cpu++)
        assert_false(sim_curr(cpu)->is_idle);
    /* Changing a running task's affinity moves it off. */
    struct task *running = sim_curr(2);
    sim_set_affinity(running, CPU_BIT(3));
    assert_int_equal(running->cpu, 3);
    sim_run(500);
    assert_int_equal(running->cpus_run_mask & ~(CPU_BIT(2) | CPU_BIT(3)), 0);
    check_queues();
}

static void test_migration_renormalises_vruntime(void **state)
{
    /* CPU 0 runs two hogs for 2 s, CPU 1 one for 0.1 s: their min_vruntimes
     * are about 900 ms apart.
     * A waiting task moved from 0 to 1 keeps vruntime - min_vruntime. */
    init(2);
    struct task *a = hog_on("a", 0, 0), *w = hog_on("w", 0, 0);
    sim_run(2000);
    struct task *b = hog_on("b", 0, 1);
    sim_run(100);
    struct task *waiting = sim_curr(0) == a ? w : a;
    int64_t key = vdiff(cfs_task_vruntime(waiting), cfs_min_vruntime(0));
    assert_true(vdiff(cfs_min_vruntime(0), cfs_min_vruntime(1)) > 500 * (int64_t)MS);
    sim_set_affinity(waiting, CPU_BIT(1));
    assert_int_equal(waiting->cpu, 1);
    assert_int_equal(vdiff(cfs_task_vruntime(waiting), cfs_min_vruntime(1)), key);
    check_queues();
    (void)b;

    /* A sleeper that wakes on another CPU is renormalised first (set_task_cpu:
     * vruntime - old min_vruntime + new min_vruntime), then placed with the
     * sleeper credit: max(that, new min_vruntime - latency (40 ms on 2 CPUs)). */
    for (int long_sleep = 0; long_sleep < 2; long_sleep++) {
        init(2);
        struct task *s = hog_on("s", 0, 0);
        a = hog_on("a", 0, 0);
        b = hog_on("b", 0, 1);
        sim_run(2000);
        while (sim_curr(0) != s)
            sim_tick();
        sim_run(3);
        sim_block(0);
        if (long_sleep)
            sim_run(100);      /* CPU 0's min_vruntime moves 100 ms on without it */
        int64_t rel = vdiff(cfs_task_vruntime(s), cfs_min_vruntime(0));
        s->cpus_allowed = CPU_BIT(1);   /* as task_set_affinity does for a sleeper */
        sim_wake(s, 0, 0);
        assert_int_equal(s->cpu, 1);
        int64_t placed = vdiff(cfs_task_vruntime(s), cfs_min_vruntime(1));
        print_message("sleeper %s: %lld ms relative to min_vruntime, placed at %lld ms\n", long_sleep ? "100 ms" : "0 ms",
                      (long long)(rel / (int64_t)MS), (long long)(placed / (int64_t)MS));
        assert_int_equal(placed, rel > -40 * (int64_t)MS ? rel : -40 * (int64_t)MS);
        assert_true(long_sleep ? placed == -40 * (int64_t)MS : placed > -40 * (int64_t)MS);
        check_queues();
    }
}

static void test_wake_affine_sync(void **state)
{
    /* Separate packages (2.6.24's SD_CPU_INIT has no SD_WAKE_IDLE): a sync
     * wake-up of a cache-cold task (slept > 0.5 ms) goes to the waker's CPU. */
    init_cpu_level(2);
    struct task *s = hog_on("s", 0, 0);
    sim_reschedule_pending();
    sim_block(0);
    s->cpus_allowed = 0x3;
    struct task *waker = hog_on("waker", 0, 1);
    sim_run(10);
    sim_wake(s, 1, WAKE_SYNC);
    assert_int_equal(s->cpu, 1);
    /* A plain wake-up with the previous CPU idle and the waker busy stays put. */
    init_cpu_level(2);
    s = hog_on("s", 0, 0);
    sim_reschedule_pending();
    sim_block(0);
    s->cpus_allowed = 0x3;
    waker = hog_on("waker", 0, 1);
    sim_run(10);
    sim_wake(s, 1, 0);
    assert_int_equal(s->cpu, 0);
    /* The cores of one package (SD_MC_INIT, the default): wake-affine still
     * chooses the waker's CPU, and wake_idle moves the task on to the idle
     * core, since the waker's CPU is busy with nothing else queued. */
    init(2);
    s = hog_on("s", 0, 0);
    sim_reschedule_pending();
    sim_block(0);
    s->cpus_allowed = 0x3;
    waker = hog_on("waker", 0, 1);
    sim_run(10);
    sim_wake(s, 1, WAKE_SYNC);
    assert_int_equal(s->cpu, 0);
    (void)waker;
}

/*
 * wake_idle with SD_MC_INIT (2.6.24 kernel/sched.c): a task woken onto a
 * busy CPU that runs nothing else goes to the first idle CPU; onto an idle
 * CPU, or a CPU with more than one task, it stays.  A pipe-test pair woken
 * on its last CPU by its partner therefore crosses to the other core at
 * every hand-off.
 */
static void test_wake_idle_mc(void **state)
{
    init(2);
    assert_int_equal(sd_init.wake_idle, 1);
    assert_int_equal(sd_init.idle_idx, 0);
    assert_int_equal(sd_init.newidle_idx, 0);
    struct task *a = sim_spawn("a", 0, 0, NULL, 0);
    struct task *b = sim_spawn("b", 0, 0, NULL, 0);
    sim_reschedule_pending();
    struct task *run = sim_curr(0), *other = run == a ? b : a;
    /* other was never woken yet: it runs after run blocks (both on CPU 0). */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), other);
    /* other, on CPU 0 alone, wakes run (last CPU 0): CPU 1 is idle, run goes there. */
    sim_wake(run, 0, WAKE_SYNC);
    assert_int_equal(run->cpu, 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(1), run);
    /* other blocks on CPU 0; run wakes it from CPU 1: affine says CPU 1, wake_idle CPU 0. */
    sim_block(0);
    sim_wake(other, 1, WAKE_SYNC);
    assert_int_equal(other->cpu, 0);
    /* Nothing idle: no move. */
    sim_reschedule_pending();
    struct task *c = hog_on("c", 0, 1);
    (void)c;
    sim_block(0);
    assert_true(sim_curr(0)->is_idle);
    struct task *d = hog_on("d", 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), d);
    d->cpus_allowed = 0x3;
    other->cpus_allowed = 0x3;
    sim_wake(other, 0, 0);
    assert_int_equal(other->cpu, 0);
    check_queues();
}

/* ---- everything at once ---- */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static void check_step(int step) { (void)step; check_queues(); }

static void test_random_workload_keeps_queues_consistent(void **state)
{
    /* Spawns (with and without parents, some RT), blocks, wakes (sync or
     * not, from any CPU), nice and affinity changes, yields and exits on 4
     * CPUs; after every step each run queue is consistent (tree invariants,
     * counts and load weights) and no affinity was violated. */
    init(4);
    enum { MAXT = 64 };
    struct task *t[MAXT];
    const struct sim_mix mix = { .seed = &rng_state, .steps = 6000, .max_tasks = MAXT, .rt = 2, .spawn_masks = true,
                                 .affinity_pct = 4, .check = check_step };
    int n = sim_mix(&mix, t);
    /* Sanity: the queues add up to the runnable tasks. */
    int runnable = 0, queued = 0;
    for (int i = 0; i < n; i++)
        if (t[i]->on_rq)
            runnable++;
    for (int cpu = 0; cpu < 4; cpu++)
        queued += sched_nr_queued(cpu);
    assert_int_equal(queued, runnable);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_weights_and_granularity_scaling, restore_tunables),
        cmocka_unit_test_teardown(test_nice_0_vs_5_gets_1024_to_335, restore_tunables),
        cmocka_unit_test_teardown(test_nice_0_vs_10_gets_9_3x, restore_tunables),
        cmocka_unit_test_teardown(test_nice_minus_5_vs_0, restore_tunables),
        cmocka_unit_test_teardown(test_equal_nice_equal_shares, restore_tunables),
        cmocka_unit_test_teardown(test_leftmost_always_runs_next, restore_tunables),
        cmocka_unit_test_teardown(test_latency_slices_of_period_over_n, restore_tunables),
        cmocka_unit_test_teardown(test_long_sleeper_gets_one_latency_and_preempts, restore_tunables),
        cmocka_unit_test_teardown(test_wakeup_preemption_threshold, restore_tunables),
        cmocka_unit_test_teardown(test_batch_never_preempts_on_wakeup, restore_tunables),
        cmocka_unit_test_teardown(test_start_debit_places_new_tasks_behind, restore_tunables),
        cmocka_unit_test_teardown(test_fork_storm_does_not_starve_existing, restore_tunables),
        cmocka_unit_test_teardown(test_child_runs_first, restore_tunables),
        cmocka_unit_test_teardown(test_yield_2_6_24_semantics, restore_tunables),
        cmocka_unit_test_teardown(test_set_nice_reweights, restore_tunables),
        cmocka_unit_test_teardown(test_rt_runs_above_fair, restore_tunables),
        cmocka_unit_test_teardown(test_balancing_spreads_tasks, restore_tunables),
        cmocka_unit_test_teardown(test_five_hogs_on_four_cpus_rotate, restore_tunables),
        cmocka_unit_test_teardown(test_balance_interval_backs_off, restore_tunables),
        cmocka_unit_test_teardown(test_busy_balance_by_weight, restore_tunables),
        cmocka_unit_test_teardown(test_cache_hot_refused_until_balancing_fails, restore_tunables),
        cmocka_unit_test_teardown(test_heavy_task_moves_if_best_priority_there, restore_tunables),
        cmocka_unit_test_teardown(test_newidle_balance_waits_for_the_lock, restore_tunables),
        cmocka_unit_test_teardown(test_affinity_never_violated, restore_tunables),
        cmocka_unit_test_teardown(test_migration_renormalises_vruntime, restore_tunables),
        cmocka_unit_test_teardown(test_wake_affine_sync, restore_tunables),
        cmocka_unit_test_teardown(test_wake_idle_mc, restore_tunables),
        cmocka_unit_test_teardown(test_random_workload_keeps_queues_consistent, restore_tunables),
    };
    return cmocka_run_group_tests_name("sched_cfs", tests, NULL, NULL);
}
