/*
 * Host tests of sched/cfs23.c (Linux 2.6.23 CFS: wait_runtime, fair_clock)
 * on the simulated core (tests/host/simenv.h; 1 ms per tick, HZ=1000).
 * Each test states what the 2.6.23 formulas predict: the granularities of
 * sched_init_granularity (rc6 and rc1), wait_runtime of hogs kept within
 * +-sysctl_sched_runtime_limit with shares converging, nice shares by
 * weight, the tick's preemption granularity (rc6: max(lat/nr - lat/nr^2,
 * min_gran) with the ideal_runtime rule; rc1: fixed), START_DEBIT and
 * child-runs-first at fork, sleeper credit capped and booked in
 * sleeper_bonus, niced_granularity for both code variants, and the tree's
 * invariants under a random workload.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "simenv.h"

#include "../../sched/cfs23.c"

#define MS 1000000ull

static int ncpus_now;

static int restore_tunables(void **state)
{
    for (int i = 0; i < scheduler.ntunables; i++) {
        const struct sched_tunable *t = &scheduler.tunables[i];
        *t->value = (t->flags & SCHED_TUNABLE_AUTO) ? SCHED_TUNABLE_UNSET : t->def;
    }
    return 0;
}

/* A fresh machine running the rc6 (rc1 = 0) or rc1 code. */
static void init_variant(int ncpus, int rc1)
{
    restore_tunables(NULL);
    rc1_code = (uint32_t)rc1;
    sim_init(ncpus);
    ncpus_now = ncpus;
}

static bool key_before(const struct rb_node *a, const struct rb_node *b)
{
    return se_of_node(a)->fair_key - se_of_node(b)->fair_key < 0;
}

static const char *check_runqueue(int cpu)
{
    struct runqueue *rq = &runqueues[cpu];
    int count;
    const char *why = rb_check_cached(&rq->tasks_timeline, key_before, &count, NULL);
    if (why)
        return why;
    if (count != rq->nr_running)
        return "nr_running does not match the tree (2.6.23 keeps the running task in it)";
    uint32_t load = 0;
    for (struct rb_node *n = rb_first(&rq->tasks_timeline.root); n; n = rb_next(n)) {
        struct cfs_entity *se = se_of_node(n);
        load += se->weight;
        if (!se->on_rq || se->is_rt)
            return "a task in the tree is not queued as fair";
        if (task_of(se)->cpu != cpu)
            return "a task in the tree belongs to another cpu";
        if (se->wait_runtime > (int64_t)sysctl_sched_runtime_limit ||
            se->wait_runtime < -(int64_t)sysctl_sched_runtime_limit)
            return "wait_runtime outside +-runtime_limit";
    }
    if (load != rq->load_weight)
        return "load weight does not match the queued tasks";
    if (rq->curr && !rq->curr->on_rq)
        return "curr is not queued";
    if (sched_nr_queued(cpu) != rq->nr_running + rq->rt_nr_running)
        return "the core's queued count does not match";
    return NULL;
}

static void check_queues(void)
{
    for (int cpu = 0; cpu < ncpus_now; cpu++) {
        const char *why = check_runqueue(cpu);
        if (why)
            fail_msg("cpu %d run queue: %s", cpu, why);
    }
}

static struct task *hog(const char *name, int nice) { return sim_spawn(name, nice, 0, NULL, 0); }

static void test_granularities_rc6_and_rc1(void **state)
{
    const int cpus[] = { 1, 2, 4, 8, 32 };
    const unsigned factor[] = { 1, 2, 3, 4, 6 };
    for (unsigned i = 0; i < ARRAY_SIZE(cpus); i++) {
        init_variant(cpus[i], 0);
        uint32_t lat = 20 * MS * factor[i] > 100 * MS ? 100 * MS : 20 * MS * factor[i];
        assert_int_equal(sysctl_sched_latency, lat);
        assert_int_equal(sysctl_sched_min_granularity, 2 * MS * factor[i]);
        assert_int_equal(sysctl_sched_runtime_limit, lat);
        assert_int_equal(sysctl_sched_wakeup_granularity, MS * factor[i]);
        assert_int_equal(sysctl_sched_batch_wakeup_granularity, 25 * MS);
        assert_int_equal(sysctl_sched_features, 21);
        init_variant(cpus[i], 1);
        assert_int_equal(sysctl_sched_granularity, 2 * MS * factor[i]);
        assert_int_equal(sysctl_sched_runtime_limit, 10 * MS * factor[i]);
        assert_int_equal(sysctl_sched_wakeup_granularity, MS);
        assert_int_equal(sysctl_sched_features, 31);
    }
    /* sched_granularity (rc6, 1 CPU): lat/nr - lat/nr^2, at least min_gran. */
    init_variant(1, 0);
    struct runqueue *rq = &runqueues[0];
    rq->nr_running = 1;
    assert_int_equal(sched_granularity(rq), 20 * MS);
    rq->nr_running = 2;
    assert_int_equal(sched_granularity(rq), 5 * MS);
    rq->nr_running = 4;
    assert_int_equal(sched_granularity(rq), 3750000);
    rq->nr_running = 10;
    assert_int_equal(sched_granularity(rq), 2 * MS);   /* 1.8 ms -> min_gran */
    rq->nr_running = 0;
}

/* The check: two nice-0 hogs on one CPU; at every tick both
 * wait_runtimes lie within +-runtime_limit, and their CPU times converge
 * (within one latency of each other after 3 s). */
static void two_hogs(int rc1)
{
    init_variant(1, rc1);
    struct task *a = hog("a", 0), *b = hog("b", 0);
    sim_reschedule_pending();
    int64_t limit = sysctl_sched_runtime_limit;
    int64_t max_abs = 0;
    for (int t = 0; t < 3000; t++) {
        sim_tick();
        struct task *p[2] = { a, b };
        for (int i = 0; i < 2; i++) {
            int64_t w = se_of(p[i])->wait_runtime;
            assert_true(w >= -limit && w <= limit);
            if ((w < 0 ? -w : w) > max_abs)
                max_abs = w < 0 ? -w : w;
        }
    }
    check_queues();
    int64_t d = (int64_t)sim_runtime_ns(a) - (int64_t)sim_runtime_ns(b);
    print_message("%s: runtime a %llu ms b %llu ms, max |wait_runtime| %lld us (limit %lld)\n", rc1 ? "rc1" : "rc6",
                  (unsigned long long)(sim_runtime_ns(a) / MS), (unsigned long long)(sim_runtime_ns(b) / MS),
                  (long long)(max_abs / 1000), (long long)(limit / 1000));
    assert_true((d < 0 ? -d : d) <= (int64_t)sysctl_sched_latency);
    assert_int_equal(sim_runtime_ns(a) + sim_runtime_ns(b), 3000 * MS);
    /* Nobody ran into the limit: equal hogs stay well inside it. */
    assert_int_equal(runqueues[0].wait_runtime_overruns + runqueues[0].wait_runtime_underruns, 0);
}

static void test_two_hogs_within_limit_rc6(void **state) { two_hogs(0); }
static void test_two_hogs_within_limit_rc1(void **state) { two_hogs(1); }

/* Shares follow the weights: 1024:335 for nice 0 against 5 (3.06x). */
static void test_nice_shares_by_weight(void **state)
{
    for (int rc1 = 0; rc1 <= 1; rc1++) {
        init_variant(1, rc1);
        struct task *a = hog("a", 0), *b = hog("b", 5);
        sim_reschedule_pending();
        sim_run(6000);
        check_queues();
        long r = (long)(sim_runtime_ns(a) * 1000 / sim_runtime_ns(b));
        print_message("%s nice 0 vs 5: %ld/1000 (weights 3057)\n", rc1 ? "rc1" : "rc6", r);
        assert_in_range(r, 3057 * 90 / 100, 3057 * 110 / 100);
    }
}

/* Nice 0 vs 10: weights 1024:110 = 9.31 in the long run, but START_DEBIT's
 * -gran/2 (gran = latency with one task queued: 20 ms on 1 CPU, 40 ms on 2)
 * weighs 1024/110 = 9.3x in the nice-10 hog's key, a debt it repays at
 * w/1024 of the fair clock while waiting: the first second gives it less
 * (the ratio is higher), on 2 CPUs more so; the next 5 s follow the weights. */
static void test_start_debit_biases_the_first_second(void **state)
{
    for (int ncpus = 1; ncpus <= 2; ncpus++) {
        init_variant(ncpus, 0);
        /* Forked by a runner on CPU 0, as bench=cpuhog does; then it sleeps. */
        struct task *runner = sim_spawn("runner", 0, CPU_BIT(0), NULL, 0);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), runner);
        struct task *a = sim_spawn("a", 0, CPU_BIT(0), runner, 0);
        sim_on_cpu(0);
        struct task *b = sim_spawn("b", 10, CPU_BIT(0), sim_curr(0) == runner ? runner : NULL, 0);
        sim_reschedule_pending();
        if (sim_curr(0) == runner)
            sim_block(0);
        sim_run(1000);
        long first = (long)(sim_runtime_ns(a) * 1000 / sim_runtime_ns(b));
        uint64_t a1 = sim_runtime_ns(a), b1 = sim_runtime_ns(b);
        sim_run(5000);
        long later = (long)((sim_runtime_ns(a) - a1) * 1000 / (sim_runtime_ns(b) - b1));
        print_message("%d cpus: nice 0 vs 10 first second %ld/1000, next 5 s %ld/1000 (weights 9309)\n", ncpus, first,
                      later);
        assert_in_range(later, 9309 * 95 / 100, 9309 * 105 / 100);
        assert_true(first > later);
    }
}

/* Tick preemption with two equal hogs on one CPU.  rc6: curr's key runs
 * ahead of the waiter's by 1 ms per ms run (wait_runtime -0.5, fair_clock
 * +0.5) from about -(gran + 1 ms) when it was picked, so it would be
 * preempted at a lead past gran = 5 ms (12 ticks), but the ideal_runtime
 * rule (ran more than 10 ms: gran 0) ends it at 11 ticks.  rc1: the fixed
 * granularity 2 ms, no ideal_runtime rule: from -3 ms to +3 ms, 6 ticks. */
static void run_lengths(int rc1, int lo, int hi)
{
    init_variant(1, rc1);
    hog("a", 0);
    hog("b", 0);
    sim_run(200);
    struct task *prev = sim_curr(0);
    int run = 0, runs = 0;
    for (int t = 0; t < 2000; t++) {
        sim_tick();
        run++;
        if (sim_curr(0) != prev) {
            if (runs++ > 0)
                assert_in_range(run, lo, hi);
            run = 0;
            prev = sim_curr(0);
        }
    }
    print_message("%s: %d switches in 2000 ticks\n", rc1 ? "rc1" : "rc6", runs);
    assert_true(runs >= 2000 / hi - 1);
}

static void test_tick_granularity_rc6(void **state) { run_lengths(0, 10, 11); }
static void test_tick_granularity_rc1(void **state) { run_lengths(1, 5, 6); }

/* Fork: START_DEBIT gives the child -gran/2 and child-runs-first a key
 * niced(gran) + 1 ahead of the parent's, so it preempts the parent. */
static void test_start_debit_and_child_runs_first(void **state)
{
    for (int rc1 = 0; rc1 <= 1; rc1++) {
        init_variant(1, rc1);
        struct task *parent = hog("parent", 0);
        sim_reschedule_pending();
        sim_run(7);
        assert_ptr_equal(sim_curr(0), parent);
        struct task *child = sim_spawn("child", 0, 0, parent, 0);
        /* task_new_fair computes the granularity before the child is
         * counted: nr_running 1, so rc6 gran = latency = 20 ms; rc1 2 ms. */
        int64_t gran = rc1 ? 2 * MS : 20 * MS;
        assert_int_equal(se_of(child)->wait_runtime, -gran / 2);
        assert_true(se_of(child)->fair_key == se_of(parent)->fair_key - gran - 1);
        assert_true(sim_need_resched(0));
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), child);
        check_queues();
    }
}

/* A long sleeper: credit at most 2 x limit before clamping, so it wakes with
 * wait_runtime = +limit (or what sleeper_bonus allows), booked in
 * sleeper_bonus; the hog then pays it back. */
static void test_sleeper_credit_capped_and_booked(void **state)
{
    init_variant(1, 0);
    struct task *s = hog("sleeper", 0);
    sim_reschedule_pending();
    sim_run(2);
    sim_block(0);
    struct task *h = hog("hog", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), h);
    sim_run(500);                          /* fair_clock advances 500 ms: > 2 x limit */
    assert_int_equal(runqueues[0].sleeper_bonus, 0);
    int64_t before = se_of(s)->wait_runtime;
    sim_wake(s, 0, 0);
    int64_t after = se_of(s)->wait_runtime;
    print_message("sleeper: wait_runtime %lld -> %lld us, sleeper_bonus %llu us\n", (long long)(before / 1000),
                  (long long)(after / 1000), (unsigned long long)(runqueues[0].sleeper_bonus / 1000));
    assert_int_equal(after, (int64_t)sysctl_sched_runtime_limit);
    assert_int_equal(runqueues[0].sleeper_bonus, (uint64_t)(after - before));
    /* It preempts the hog: its key is fair_clock - limit. */
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
    sim_block(0);
    /* The hog, running alone, pays the bonus back while it exceeds min_gran. */
    sim_run(200);
    assert_in_range(runqueues[0].sleeper_bonus, 0, sysctl_sched_min_granularity);
    check_queues();
}

/* niced_granularity: linear; negative nice shifts by 22 in rc6, by 32 in rc1. */
static void test_niced_granularity(void **state)
{
    init_variant(1, 0);
    struct cfs_entity e = { .weight = 1024, .inv_weight = 4194304 };
    assert_int_equal(niced_granularity(&e, 4 * MS), 4 * MS);
    e.weight = 335;
    e.inv_weight = 12820798;
    assert_int_equal(niced_granularity(&e, 4 * MS), (335 * 4 * MS) >> 10);
    e.weight = 3121;
    e.inv_weight = 1376151;
    assert_int_equal(niced_granularity(&e, 4 * MS), (1376151ull * 4 * MS) >> 22);   /* 1.31 ms */
    rc1_code = 1;
    assert_int_equal(niced_granularity(&e, 4 * MS), (1376151ull * 4 * MS) >> 32);   /* 1.28 us */
    rc1_code = 0;
}

static uint64_t rng_state = 0x5eed;
static void check_step(int step)
{
    check_queues();
    const char *why = sim_check_invariants();
    if (why)
        fail_msg("step %d: %s", step, why);
}

static void random_workload(int rc1)
{
    init_variant(4, rc1);
    enum { MAXT = 48 };
    struct task *t[MAXT];
    const struct sim_mix mix = { .seed = &rng_state, .steps = 5000, .max_tasks = MAXT, .rt = 1, .affinity_pct = 3,
                                 .check = check_step };
    sim_mix(&mix, t);
}

static void test_random_workload_rc6(void **state) { random_workload(0); }
static void test_random_workload_rc1(void **state) { random_workload(1); }

/*
 * 2.6.23's wake-up placement (kernel/sched.c, 2.6.23.17): wake-affine has no
 * task_hot step, and wake_idle is on in both SD_MC_INIT and SD_CPU_INIT
 * (both have SD_WAKE_IDLE, idle_idx and newidle_idx 0).  A pipe-test pair
 * woken on its last CPU by its partner crosses to the idle core.
 */
static void test_wake_idle_2_6_23(void **state)
{
    for (int mc = 0; mc <= 1; mc++) {
        restore_tunables(NULL);
        rc1_code = 0;
        sd_init.sched_mc = (unsigned)mc;
        sim_init(2);
        ncpus_now = 2;
        assert_int_equal(sd_init.wake_idle, 1);
        assert_int_equal(sd_init.idle_idx, 0);
        assert_int_equal(sd_init.newidle_idx, 0);
        struct task *a = sim_spawn("a", 0, 0, NULL, 0);
        struct task *b = sim_spawn("b", 0, 0, NULL, 0);
        sim_reschedule_pending();
        struct task *run = sim_curr(0), *other = run == a ? b : a;
        sim_block(0);
        assert_ptr_equal(sim_curr(0), other);
        sim_wake(run, 0, WAKE_SYNC);
        assert_int_equal(run->cpu, 1);
        sim_reschedule_pending();
        sim_block(0);
        sim_wake(other, 1, WAKE_SYNC);
        assert_int_equal(other->cpu, 0);
        check_queues();
    }
    /* wake_idle=0 (CONFIG_SCHED_SMT=n): the pair stays on CPU 0. */
    restore_tunables(NULL);
    sd_init.wake_idle = 0;
    sim_init(2);
    struct task *a = sim_spawn("a", 0, 0, NULL, 0);
    sim_spawn("b", 0, 0, NULL, 0);
    sim_reschedule_pending();
    struct task *run = sim_curr(0);
    sim_block(0);
    sim_wake(run, 0, WAKE_SYNC);
    assert_int_equal(run->cpu, 0);
    (void)a;
}

/* 2.6.23 has no task_hot: a busy balance pulls a waiting task that ran
 * 0.2 ms ago at the first attempt (2.6.24, sched/cfs.c, refuses it until
 * the domain has failed cache_nice_tries + 1 times: test_sched_cfs.c's
 * cache_hot_refused_until_balancing_fails). */
static void test_no_cache_hot_2_6_23(void **state)
{
    init_variant(2, 0);
    struct task *a = sim_spawn("a", 0, CPU_BIT(0), NULL, 0), *b = sim_spawn("b", 0, CPU_BIT(0), NULL, 0);
    sim_spawn("c", 0, CPU_BIT(1), NULL, 1);
    sim_run(30);
    sim_set_affinity(a, 0x3);
    sim_set_affinity(b, 0x3);
    struct task *waiting = sim_curr(0) == a ? b : a;
    se_of(waiting)->exec_start = sched_clock_ns() - 200000;
    sim_on_cpu(1);
    load_balance(1, CPU_NOT_IDLE);
    assert_int_equal(waiting->cpu, 1);
    assert_int_equal(runqueues[1].nr_balance_failed, 0);
    check_queues();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_granularities_rc6_and_rc1, restore_tunables),
        cmocka_unit_test_teardown(test_two_hogs_within_limit_rc6, restore_tunables),
        cmocka_unit_test_teardown(test_two_hogs_within_limit_rc1, restore_tunables),
        cmocka_unit_test_teardown(test_nice_shares_by_weight, restore_tunables),
        cmocka_unit_test_teardown(test_start_debit_biases_the_first_second, restore_tunables),
        cmocka_unit_test_teardown(test_tick_granularity_rc6, restore_tunables),
        cmocka_unit_test_teardown(test_tick_granularity_rc1, restore_tunables),
        cmocka_unit_test_teardown(test_start_debit_and_child_runs_first, restore_tunables),
        cmocka_unit_test_teardown(test_sleeper_credit_capped_and_booked, restore_tunables),
        cmocka_unit_test_teardown(test_niced_granularity, restore_tunables),
        cmocka_unit_test_teardown(test_wake_idle_2_6_23, restore_tunables),
        cmocka_unit_test_teardown(test_no_cache_hot_2_6_23, restore_tunables),
        cmocka_unit_test_teardown(test_random_workload_rc6, restore_tunables),
        cmocka_unit_test_teardown(test_random_workload_rc1, restore_tunables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
