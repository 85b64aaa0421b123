/*
 * Host tests of sched/rr.c on the simulated core (tests/host/simenv.h):
 * FIFO order and the fixed timeslice, spreading of new tasks, stealing by
 * idle CPUs, and affinity.  Also the example to copy for other schedulers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "simenv.h"

/* The scheduler itself (the test can then look at its private state). */
#include "../../sched/rr.c"

#define SLICE_TICKS 10   /* RR_TIMESLICE_MS at HZ=1000 */

static void test_round_robin_order_and_slice(void **state)
{
    sim_init(1);
    struct task *a = sim_spawn("a", 0, 0, NULL, 0);
    struct task *b = sim_spawn("b", 0, 0, NULL, 0);
    struct task *c = sim_spawn("c", 0, 0, NULL, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    sim_run(SLICE_TICKS - 1);
    assert_ptr_equal(sim_curr(0), a);          /* not before the slice ends */
    sim_run(1);
    assert_ptr_equal(sim_curr(0), b);
    sim_run(SLICE_TICKS);
    assert_ptr_equal(sim_curr(0), c);
    sim_run(SLICE_TICKS);
    assert_ptr_equal(sim_curr(0), a);
    /* Equal shares over whole rounds. */
    sim_run(3 * SLICE_TICKS * 30);
    assert_int_equal(sim_runtime_ns(a), sim_runtime_ns(b));
    assert_int_equal(sim_runtime_ns(b), sim_runtime_ns(c));
}

static void test_new_tasks_spread_over_cpus(void **state)
{
    sim_init(4);
    for (int i = 0; i < 8; i++)
        sim_spawn("t", 0, 0, NULL, 0);
    sim_reschedule_pending();
    for (int cpu = 0; cpu < 4; cpu++) {
        assert_false(sim_curr(cpu)->is_idle);
        assert_int_equal(sched_nr_queued(cpu), 2);
    }
}

static void test_idle_cpu_steals(void **state)
{
    sim_init(2);
    struct task *t[4];
    for (int i = 0; i < 4; i++)
        t[i] = sim_spawn("t", 0, CPU_BIT(0), NULL, 0);   /* all start on cpu 0 ... */
    sim_reschedule_pending();
    for (int i = 0; i < 4; i++)
        sim_set_affinity(t[i], 0x3);                      /* ... then may run anywhere */
    assert_true(sim_curr(1)->is_idle);
    sim_run(1);                                           /* idle cpu 1 balances on its tick */
    assert_false(sim_curr(1)->is_idle);
    assert_int_equal(sched_nr_queued(0) + sched_nr_queued(1), 4);
    assert_true(sched_nr_queued(1) >= 1);
}

static void test_affinity_is_respected(void **state)
{
    sim_init(4);
    struct task *pinned[6];
    for (int i = 0; i < 6; i++)
        pinned[i] = sim_spawn("pinned", 0, CPU_BIT(2), NULL, 0);
    for (int i = 0; i < 6; i++)
        sim_spawn("free", 0, 0, NULL, 0);
    sim_run(500);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pinned[i]->cpus_run_mask, CPU_BIT(2));
        assert_true(sim_runtime_ns(pinned[i]) > 0);
    }
    /* Moving a running task's affinity takes it off its CPU. */
    struct task *running = sim_curr(2);
    sim_set_affinity(running, CPU_BIT(3));
    assert_int_equal(running->cpu, 3);
    sim_run(200);
    assert_int_equal(running->cpus_run_mask & ~(CPU_BIT(2) | CPU_BIT(3)), 0);
}

static void test_sleep_and_wake(void **state)
{
    sim_init(1);
    struct task *a = sim_spawn("a", 0, 0, NULL, 0);
    struct task *b = sim_spawn("b", 0, 0, NULL, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(sched_nr_queued(0), 1);
    sim_wake(a, 0, 0);
    assert_int_equal(sched_nr_queued(0), 2);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), a);
    sim_block(0);
    assert_true(sim_curr(0)->is_idle);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_robin_order_and_slice),
        cmocka_unit_test(test_new_tasks_spread_over_cpus),
        cmocka_unit_test(test_idle_cpu_steals),
        cmocka_unit_test(test_affinity_is_respected),
        cmocka_unit_test(test_sleep_and_wake),
    };
    return cmocka_run_group_tests_name("sched_rr", tests, NULL, NULL);
}
