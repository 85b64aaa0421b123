/*
 * The conformance suite: what every scheduler must do, whatever its policy.
 * Built once per sched/<name>.c (build/host/test_conformance_<name>) and run
 * on the real scheduler core over the simulated machine (simenv.h), so a new
 * scheduler is checked by adding its file, nothing else.
 *
 * Only invariants are asserted, never a policy: no shares, no order, no
 * preemption (a FIFO scheduler without time slices passes).
 *   - the hook table has every mandatory hook;
 *   - every runnable task runs once the tasks ahead of it block;
 *   - a task runs only on CPUs in its cpus_allowed and never on two CPUs;
 *   - a wake-up is neither lost nor doubled, and a woken task runs;
 *   - the core's counts add up (queued tasks per CPU, switches, wake-ups);
 *   - exit leaves nothing queued, and nothing runs on a CPU that is offline;
 *   - a seeded random mix of all of the above keeps every invariant after
 *     every step (sim_check_invariants).
 * A broken invariant inside the core (sched_bug) fails the test with its
 * message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "simenv.h"

#ifndef SCHED_NAME
#error "build with -DSCHED_NAME='\"<name>\"' (tests/host/Makefile does)"
#endif

#define ALL 0

static void assert_invariants(void)
{
    const char *why = sim_check_invariants();
    if (why)
        fail_msg("%s: %s", scheduler.name, why);
}

/* Ticks until every CPU that has something queued runs it (a scheduler may idle a tick). */
static void settle(void)
{
    sim_reschedule_pending();
    sim_run(2);
    assert_invariants();
}

static void test_hook_table(void **state)
{
    assert_string_equal(scheduler.name, SCHED_NAME);
    assert_null(sched_class_missing_hook(&scheduler));
    struct sched_class broken = scheduler;
    broken.pick_next = NULL;
    assert_string_equal(sched_class_missing_hook(&broken), "pick_next");
    broken = scheduler;
    broken.enqueue = NULL;
    assert_string_equal(sched_class_missing_hook(&broken), "enqueue");
}

/* n tasks on ncpus CPUs: blocking whatever runs lets every task run exactly once. */
static void every_task_runs_when_others_block(int ncpus, int n)
{
    sim_init(ncpus);
    struct task *t[64];
    for (int i = 0; i < n; i++)
        t[i] = sim_spawn("t", 0, ALL, NULL, i % ncpus);
    settle();
    int ran = 0;
    for (int round = 0; round < 4 * n && ran < n; round++) {
        for (int cpu = 0; cpu < ncpus; cpu++) {
            struct task *c = sim_curr(cpu);
            if (c->is_idle)
                continue;
            assert_true(c->state == TASK_RUNNING);
            sim_block(cpu);
            ran++;
            assert_invariants();
        }
        sim_run(1);         /* an idle CPU may take a queued task only on its tick */
    }
    assert_int_equal(ran, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(t[i]->state, TASK_SLEEPING);
        assert_true(t[i]->nr_switches_in >= 1);
    }
    for (int cpu = 0; cpu < ncpus; cpu++) {
        assert_true(sim_curr(cpu)->is_idle);
        assert_int_equal(sched_nr_queued(cpu), 0);
    }
}

static void test_every_task_runs_1cpu(void **state) { every_task_runs_when_others_block(1, 12); }
static void test_every_task_runs_4cpus(void **state) { every_task_runs_when_others_block(4, 40); }

static void test_affinity_is_never_broken(void **state)
{
    sim_init(4);
    struct task *pinned[8], *pair[8];
    for (int i = 0; i < 8; i++) {
        pinned[i] = sim_spawn("pinned", 0, CPU_BIT(i % 4), NULL, 0);
        pair[i] = sim_spawn("pair", 0, CPU_BIT(1) | CPU_BIT(3), NULL, 0);
    }
    for (int step = 0; step < 400; step++) {
        sim_tick();
        /* Some block and are woken again from other CPUs. */
        int cpu = step % 4;
        if (!sim_curr(cpu)->is_idle && step % 3 == 0)
            sim_block(cpu);
        for (int i = 0; i < 8; i++)
            if (pair[i]->state == TASK_SLEEPING && (step + i) % 5 == 0)
                sim_wake(pair[i], (step + i) % 4, (step & 1) ? WAKE_SYNC : 0);
        for (int i = 0; i < 8; i++)
            if (pinned[i]->state == TASK_SLEEPING && (step + i) % 7 == 0)
                sim_wake(pinned[i], (step + 2 * i) % 4, 0);
        assert_invariants();
    }
    for (int i = 0; i < 8; i++) {
        assert_int_equal(pinned[i]->cpus_run_mask & ~CPU_BIT(i % 4), 0);
        assert_int_equal(pair[i]->cpus_run_mask & ~(CPU_BIT(1) | CPU_BIT(3)), 0);
    }
}

/* A running task that changes its own mask leaves its CPU; a queued one moves too. */
static void test_affinity_change_moves_tasks(void **state)
{
    sim_init(4);
    struct task *t[8];
    for (int i = 0; i < 8; i++)
        t[i] = sim_spawn("t", 0, ALL, NULL, 0);
    settle();
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 8; i++) {
            int target = (round + i) % 4;
            sim_set_affinity(t[i], CPU_BIT(target));
            assert_invariants();
            if (t[i]->on_rq)
                assert_int_equal(t[i]->cpu, target);    /* queued or running: now on the new CPU */
        }
        sim_run(3);
        assert_invariants();
        for (int cpu = 0; cpu < 4; cpu++)
            if (!sim_curr(cpu)->is_idle)
                assert_true(task_allowed_on(sim_curr(cpu), cpu));
    }
    /* Moving is not waking: the core counted no wake-ups for it. */
    uint64_t wakeups = 0;
    for (int cpu = 0; cpu < 4; cpu++)
        wakeups += cpus[cpu].stats.wakeups;
    assert_int_equal(wakeups, 8);    /* the eight first wake-ups (WAKE_NEW) */
}

static void test_wakeup_is_neither_lost_nor_doubled(void **state)
{
    sim_init(2);
    struct task *a = sim_spawn("a", 0, ALL, NULL, 0);
    struct task *b = sim_spawn("b", 0, ALL, NULL, 0);
    settle();
    struct task *sleeper = sim_curr(0)->is_idle ? sim_curr(1) : sim_curr(0);
    sim_block(sleeper->cpu);
    assert_int_equal(sleeper->state, TASK_SLEEPING);
    assert_false(sleeper->on_rq);
    int queued_before = sched_nr_queued(0) + sched_nr_queued(1);
    assert_true(wake_up_task(sleeper, 0));
    assert_false(wake_up_task(sleeper, 0));           /* already awake: no second wake-up */
    assert_int_equal(sleeper->state, TASK_RUNNING);
    assert_int_equal(sched_nr_queued(0) + sched_nr_queued(1), queued_before + 1);
    assert_invariants();
    /* It runs once the others block. */
    for (int i = 0; i < 6 && sleeper->nr_switches_in < 2; i++) {
        for (int cpu = 0; cpu < 2; cpu++)
            if (!sim_curr(cpu)->is_idle && sim_curr(cpu) != sleeper)
                sim_block(cpu);
        sim_run(1);
    }
    assert_true(sleeper->nr_switches_in >= 2);
    (void)a, (void)b;
}

/* A task woken in the middle of going to sleep (not yet switched out) just keeps running. */
static void test_wakeup_before_switch_out(void **state)
{
    sim_init(1);
    struct task *a = sim_spawn("a", 0, ALL, NULL, 0);
    settle();
    assert_ptr_equal(sim_curr(0), a);
    a->state = TASK_SLEEPING;            /* as prepare_to_wait() leaves it */
    assert_true(wake_up_task(a, 0));     /* the waker comes first */
    assert_int_equal(a->state, TASK_RUNNING);
    sim_schedule(0);                     /* then the task reaches schedule() */
    assert_ptr_equal(sim_curr(0), a);    /* it was never taken off */
    assert_invariants();
}

static void test_counts_add_up_and_exit_frees(void **state)
{
    sim_init(3);
    struct task *t[30];
    for (int i = 0; i < 30; i++)
        t[i] = sim_spawn("t", (i % 5) - 2, ALL, NULL, i % 3);
    settle();
    int queued = 0;
    for (int cpu = 0; cpu < 3; cpu++)
        queued += sched_nr_queued(cpu);
    assert_int_equal(queued, 30);
    sim_run(100);
    assert_invariants();
    /* Everyone exits, whatever runs. */
    int exited = 0;
    for (int round = 0; round < 200 && exited < 30; round++) {
        for (int cpu = 0; cpu < 3; cpu++)
            if (!sim_curr(cpu)->is_idle) {
                sim_exit_task(cpu);
                exited++;
                assert_invariants();
            }
        sim_run(1);
    }
    assert_int_equal(exited, 30);
    for (int i = 0; i < 30; i++) {
        assert_int_equal(t[i]->state, TASK_DEAD);
        assert_true(t[i]->exited);
        assert_false(t[i]->on_rq);
    }
    uint64_t switches = 0, calls = 0;
    for (int cpu = 0; cpu < 3; cpu++) {
        assert_int_equal(sched_nr_queued(cpu), 0);
        assert_true(sim_curr(cpu)->is_idle);
        switches += cpus[cpu].stats.context_switches;
        calls += cpus[cpu].stats.schedule_calls;
    }
    assert_true(switches <= calls);
    assert_true(switches >= 30);         /* every task was switched in at least once */
}

/* Two CPUs online out of MAX_CPUS: masks that name offline CPUs only reach the online ones. */
static void test_nothing_runs_offline(void **state)
{
    sim_init(2);
    for (int i = 0; i < 10; i++)
        sim_spawn("t", 0, CPUMASK_ALL, NULL, i % 2);
    for (int step = 0; step < 200; step++) {
        sim_tick();
        if (step % 4 == 0 && !sim_curr(step % 2)->is_idle)
            sim_block(step % 2);
        for (int i = 0; i < sim_task_count(); i++)
            if (sim_task(i)->state == TASK_SLEEPING && (step + i) % 3 == 0)
                sim_wake(sim_task(i), i % 2, 0);
        assert_invariants();
    }
    for (int i = 0; i < sim_task_count(); i++)
        assert_int_equal(sim_task(i)->cpus_run_mask & ~0x3u, 0);
}

/* ---- a seeded random mix ---- */

static unsigned int rnd_state;
static unsigned int rnd(unsigned int n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

static cpumask_t random_mask(int ncpus)
{
    cpumask_t m = 0;
    while (!m)
        m = rnd(1u << ncpus);
    return m;
}

static void random_step(int ncpus)
{
    int cpu = (int)rnd((unsigned)ncpus);
    struct task *curr = sim_curr(cpu);
    int n = sim_task_count();
    struct task *any = n ? sim_task((int)rnd((unsigned)n)) : NULL;
    switch (rnd(11)) {
    case 0:
        if (n < 120)
            sim_spawn("r", (int)rnd(40) - 20, rnd(3) ? ALL : random_mask(ncpus), curr->is_idle ? NULL : curr, cpu);
        break;
    case 1:
        if (!curr->is_idle)
            sim_block(cpu);
        break;
    case 2:
    case 3:
        if (any && any->state == TASK_SLEEPING)
            sim_wake(any, cpu, rnd(2) ? WAKE_SYNC : (rnd(4) ? 0 : WAKE_IRQ));
        break;
    case 4:
        if (!curr->is_idle && rnd(6) == 0)
            sim_exit_task(cpu);
        break;
    case 5:
        if (!curr->is_idle)
            sim_yield(cpu);
        break;
    case 6:
        if (any && any->state != TASK_DEAD)
            sim_set_nice(any, (int)rnd(40) - 20);
        break;
    case 7:
        if (any && any->state != TASK_DEAD)
            sim_set_affinity(any, random_mask(ncpus));
        break;
    case 8:
        if (n < 120 && rnd(4) == 0)
            sim_spawn_rt("rt", rnd(2) ? SCHED_FIFO : SCHED_RR, 1 + (int)rnd(98), random_mask(ncpus));
        break;
    default:
        sim_run(1 + (int)rnd(3));
        break;
    }
}

static void random_mix(int ncpus, unsigned int seed, int steps)
{
    sim_init(ncpus);
    rnd_state = seed;
    for (int i = 0; i < 8; i++)
        sim_spawn("s", 0, ALL, NULL, i % ncpus);
    for (int step = 0; step < steps; step++) {
        random_step(ncpus);
        const char *why = sim_check_invariants();
        if (why)
            fail_msg("%s, seed %u, step %d: %s", scheduler.name, seed, step, why);
    }
    /* Drain: RT tasks of FIFO policy never leave the CPU by themselves, so
     * everything left exits, and nothing stays queued. */
    for (int round = 0; round < 2000; round++) {
        bool any = false;
        for (int cpu = 0; cpu < ncpus; cpu++)
            if (!sim_curr(cpu)->is_idle) {
                sim_exit_task(cpu);
                any = true;
            }
        for (int i = 0; i < sim_task_count(); i++)
            if (sim_task(i)->state == TASK_SLEEPING)
                sim_wake(sim_task(i), 0, 0);
        sim_run(1);
        if (!any && sim_check_invariants() == NULL) {
            bool queued = false;
            for (int cpu = 0; cpu < ncpus; cpu++)
                queued |= sched_nr_queued(cpu) != 0;
            if (!queued)
                break;
        }
    }
    for (int cpu = 0; cpu < ncpus; cpu++)
        assert_int_equal(sched_nr_queued(cpu), 0);
    for (int i = 0; i < sim_task_count(); i++)
        assert_int_equal(sim_task(i)->state, TASK_DEAD);
}

static void test_random_mix_1cpu(void **state) { random_mix(1, 1, 6000); }
static void test_random_mix_2cpus(void **state) { random_mix(2, 2, 6000); }
static void test_random_mix_4cpus(void **state) { random_mix(4, 4, 6000); }
static void test_random_mix_8cpus(void **state) { random_mix(8, 8, 6000); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_table),
        cmocka_unit_test(test_every_task_runs_1cpu),
        cmocka_unit_test(test_every_task_runs_4cpus),
        cmocka_unit_test(test_affinity_is_never_broken),
        cmocka_unit_test(test_affinity_change_moves_tasks),
        cmocka_unit_test(test_wakeup_is_neither_lost_nor_doubled),
        cmocka_unit_test(test_wakeup_before_switch_out),
        cmocka_unit_test(test_counts_add_up_and_exit_frees),
        cmocka_unit_test(test_nothing_runs_offline),
        cmocka_unit_test(test_random_mix_1cpu),
        cmocka_unit_test(test_random_mix_2cpus),
        cmocka_unit_test(test_random_mix_4cpus),
        cmocka_unit_test(test_random_mix_8cpus),
    };
    return cmocka_run_group_tests_name("conformance_" SCHED_NAME, tests, NULL, NULL);
}
