/*
 * Host tests of sched/dynsched.c (-aa's dyn-sched: Davide Libenzi's 2.5.2
 * scheduler for 2.4.18, with Andrea's changes) on the simulated core
 * (tests/host/simenv.h; HZ = 1000, so one 2.4 tick is 10 simulated ticks).
 * Every expected number is worked out from the rules in sched/dynsched.c's
 * header: goodness = dyn_prio + 1 + 15 (same CPU) + 1 (same mm) + 20 - nice,
 * 0 with no time_slice left; the tick takes a tick of time_slice and, at 0,
 * one of dyn_prio; the recalculation refills the run queue's tasks only and
 * counts rcl_curr; a task added to the run queue gains the recalculations
 * since it was last added, capped (2 x NICE_TO_TICKS(nice), or 40 with
 * sched.preset=davide).  The run queue rules it shares with goodness.c
 * (sched/linux24_runqueue.h) are tested in test_sched_goodness.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "simenv.h"

#include "../../sched/dynsched.c"

#define SUB 10            /* simulated ticks per 2.4 tick (HZ 1000 / 100) */
#define NO_MM (-12345)    /* an address space no task has */

static int restore_tunables(void **state)
{
    for (int i = 0; i < scheduler.ntunables; i++) {
        const struct sched_tunable *t = &scheduler.tunables[i];
        *t->value = (t->flags & SCHED_TUNABLE_AUTO) ? SCHED_TUNABLE_UNSET : t->def;
    }
    return 0;
}

/* A fresh machine of ncpus CPUs with the aa rules (the defaults) or
 * sched.preset=davide's (the patch as mailed). */
static void init_preset(int davide, int ncpus)
{
    restore_tunables(NULL);
    if (davide) {
        max_dynprio = 40;
        legacy_nice_tslice = 0;
        recalc_rcl_last = 1;
        yield_rollover = 0;
    }
    sim_init(ncpus);
}

static struct task *spawn(const char *name, int nice, int cpu) { return sim_spawn(name, nice, 0, NULL, cpu); }
static int position(struct task *p)
{
    int i = 0;
    struct list_head *pos;
    list_for_each(pos, &runqueue_head) {
        if (task_of(pos) == p)
            return i;
        i++;
    }
    return -1;
}

/* TASK_TIMESLICE: 2.4's NICE_TO_TICKS by default; Davide's fill_tslice_map with the davide preset. */
static void test_timeslice_tables(void **state)
{
    sim_init(1);
    struct task *p = spawn("p", 0, 0);
    static const int nices[] = { -20, -10, 0, 10, 19 };
    static const int legacy[] = { 11, 8, 6, 3, 1 }, davide[] = { 8, 6, 4, 2, 1 };
    for (int i = 0; i < 5; i++) {
        p->nice = nices[i];
        legacy_nice_tslice = 1;
        assert_int_equal(task_timeslice(p), legacy[i]);
        legacy_nice_tslice = 0;
        assert_int_equal(task_timeslice(p), davide[i]);
    }
    p->nice = 0;
}

static void test_goodness_values(void **state)
{
    sim_init(2);
    struct task *p = spawn("p", 0, 1);          /* last CPU 1 */
    struct task *n = spawn("n", 10, 0);
    struct task *r = sim_spawn_rt("rt", SCHED_FIFO, 50, 0);
    dt(p)->time_slice = 3;
    dt(p)->dyn_prio = 7;
    dt(n)->time_slice = 3;
    dt(n)->dyn_prio = 0;
    assert_int_equal(goodness(p, 1, NO_MM), 7 + 1 + 15 + 20);
    assert_int_equal(goodness(p, 0, NO_MM), 7 + 1 + 20);
    assert_int_equal(goodness(p, 1, p->mm), 7 + 1 + 15 + 1 + 20);
    assert_int_equal(goodness(n, 0, NO_MM), 0 + 1 + 15 + 20 - 10);
    dt(p)->time_slice = 0;
    assert_int_equal(goodness(p, 1, p->mm), 0);         /* no slice: no bonus counts */
    assert_int_equal(goodness(r, 0, NO_MM), 1050);
}

/* expire_task: a tick of time_slice per 2.4 tick; at 0, one of dyn_prio and a reschedule. */
static void test_tick_expires_slice_and_dynprio(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0);
    struct task *b = spawn("b", 0, 0);
    sim_reschedule_pending();
    struct task *cur = sim_curr(0), *other = cur == a ? b : a;
    dt(cur)->time_slice = 2;
    dt(cur)->dyn_prio = 3;
    dt(other)->time_slice = 6;
    dt(other)->dyn_prio = 0;
    sim_run(SUB);
    assert_int_equal(dt(cur)->time_slice, 1);
    assert_int_equal(dt(cur)->dyn_prio, 3);
    assert_ptr_equal(sim_curr(0), cur);
    sim_run(SUB);
    assert_int_equal(dt(cur)->time_slice, 0);
    assert_int_equal(dt(cur)->dyn_prio, 2);
    assert_ptr_equal(sim_curr(0), other);               /* cur has goodness 0 now */
    /* A hog sinks to 0 and stays there. */
    dt(other)->dyn_prio = 1;
    sim_run(6 * SUB);
    assert_int_equal(dt(other)->dyn_prio, 0);
}

/* The recalculation refills the run queue's tasks only, and counts rcl_curr. */
static void test_recalc_run_queue_only(void **state)
{
    for (int davide = 0; davide <= 1; davide++) {
        init_preset(davide, 1);
        struct task *s = spawn("s", 0, 0);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), s);
        dt(s)->time_slice = 0;
        sim_block(0);                                   /* a sleeper with no slice left */
        struct task *a = spawn("a", 0, 0);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), a);
        unsigned long r0 = recalculations, c0 = rcl_curr, a_last = dt(a)->rcl_last;
        dt(a)->time_slice = 1;
        sim_run(SUB);                                   /* a runs out: only candidate at 0 */
        assert_int_equal(recalculations, r0 + 1);
        assert_int_equal(rcl_curr, c0 + 1);
        assert_int_equal(dt(a)->time_slice, davide ? 4 : 6);
        assert_int_equal(dt(s)->time_slice, 0);         /* the sleeper is not walked */
        assert_int_equal(dt(a)->rcl_last, davide ? c0 + 1 : a_last);
    }
}

/* A task added to the run queue gains the recalculations since it was last
 * added, capped at 2 x NICE_TO_TICKS (12 at nice 0, 6 at nice 10), or 40. */
static void test_sleep_bonus_and_cap(void **state)
{
    for (int davide = 0; davide <= 1; davide++) {
        init_preset(davide, 1);
        struct task *s = spawn("s", 0, 0);
        struct task *s10 = spawn("s10", 10, 0);
        sim_reschedule_pending();
        sim_block(0);
        sim_reschedule_pending();
        sim_block(0);                                   /* both asleep */
        unsigned long last = dt(s)->rcl_last;
        assert_int_equal(dt(s10)->rcl_last, last);
        assert_int_equal(dt(s)->dyn_prio, 0);
        rcl_curr = last + 5;
        sim_wake(s, 0, 0);
        assert_int_equal(dt(s)->dyn_prio, 5);
        assert_int_equal(dt(s)->rcl_last, last + 5);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(0), s);
        sim_block(0);                                   /* s sleeps again */
        rcl_curr = last + 5 + 30;
        sim_wake(s, 0, 0);
        assert_int_equal(dt(s)->dyn_prio, davide ? 35 : 12);
        sim_wake(s10, 0, 0);
        assert_int_equal(dt(s10)->dyn_prio, davide ? 35 : 6);
        /* A negative difference adds nothing (30_dyn-sched-2). */
        sim_init(1);
        struct task *t = spawn("t", 0, 0);
        sim_reschedule_pending();
        dt(t)->dyn_prio = 3;
        sim_block(0);
        dt(t)->rcl_last = rcl_curr + 3;
        sim_wake(t, 0, 0);
        assert_int_equal(dt(t)->dyn_prio, 3);
    }
}

/* The bonus outweighs the hog: a woken sleeper preempts it. */
static void test_sleeper_preempts_hog(void **state)
{
    sim_init(1);
    struct task *s = spawn("s", 0, 0);
    sim_reschedule_pending();
    sim_block(0);
    struct task *hog = spawn("hog", 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), hog);
    sim_run(30 * 6 * SUB);                              /* many epochs: the hog sinks to 0 */
    assert_int_equal(dt(hog)->dyn_prio, 0);
    assert_true(rcl_curr > dt(s)->rcl_last + 12);
    sim_wake(s, 0, 0);
    assert_int_equal(dt(s)->dyn_prio, 12);
    /* s: 12+1+15+20 = 48 against the hog's at most 0+1+15+1+20 = 37. */
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
}

/* -aa's yield rolls the task over (2.4.18's); Davide's throws the slice away and raises dyn_prio. */
static void test_yield(void **state)
{
    for (int davide = 0; davide <= 1; davide++) {
        init_preset(davide, 1);
        struct task *a = spawn("a", 0, 0);
        sim_reschedule_pending();
        struct task *b = spawn("b", 0, 0);              /* list: b, a */
        dt(a)->time_slice = 5;
        dt(a)->dyn_prio = 2;
        dt(b)->time_slice = 1;
        dt(b)->dyn_prio = 0;
        assert_ptr_equal(sim_curr(0), a);
        sim_yield(0);
        assert_ptr_equal(sim_curr(0), b);
        if (davide) {
            assert_int_equal(dt(a)->time_slice, 0);
            assert_int_equal(dt(a)->dyn_prio, 3);
            assert_int_equal(position(a), 1);           /* left where it was, behind b */
        } else {
            assert_int_equal(dt(a)->time_slice, 5);
            assert_int_equal(dt(a)->dyn_prio, 2);
            assert_int_equal(position(a), 1);           /* moved to the tail */
        }
    }
}

/* fork: half the slice each, the child a copy of dyn_prio and rcl_last; exit gives the slice back, capped at 20. */
static void test_fork_and_exit(void **state)
{
    sim_init(1);
    struct task *parent = spawn("parent", 0, 0);
    sim_reschedule_pending();
    dt(parent)->time_slice = 7;
    dt(parent)->dyn_prio = 4;
    rcl_curr = 9;
    dt(parent)->rcl_last = 9;
    struct task *c = sim_spawn("c", 0, 0, parent, 0);
    assert_int_equal(dt(c)->time_slice, 4);
    assert_int_equal(dt(parent)->time_slice, 3);
    assert_int_equal(dt(c)->dyn_prio, 4);               /* no recalculation since: no bonus */
    assert_int_equal(dt(c)->rcl_last, 9);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), c);
    dt(c)->time_slice = 2;
    sim_exit_task(0);
    assert_int_equal(dt(parent)->time_slice, 5);
    sim_wake(parent, 0, 0);
    sim_reschedule_pending();
    dt(parent)->time_slice = 30;
    struct task *c2 = sim_spawn("c2", 0, 0, parent, 0); /* 15 and 15 */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), c2);
    sim_exit_task(0);
    assert_int_equal(dt(parent)->time_slice, 20);       /* MAX_TSLICE */
}

/* Two hogs at nice 0 and 10 on one CPU: slices 6 and 3 per epoch. */
static void test_nice_ratio(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0);
    struct task *b = spawn("b", 10, 0);
    sim_reschedule_pending();
    sim_run(100 * 9 * SUB);
    double ratio = (double)sim_runtime_ns(a) / (double)sim_runtime_ns(b);
    assert_true(ratio > 1.9 && ratio < 2.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_timeslice_tables, restore_tunables),
        cmocka_unit_test_teardown(test_goodness_values, restore_tunables),
        cmocka_unit_test_teardown(test_tick_expires_slice_and_dynprio, restore_tunables),
        cmocka_unit_test_teardown(test_recalc_run_queue_only, restore_tunables),
        cmocka_unit_test_teardown(test_sleep_bonus_and_cap, restore_tunables),
        cmocka_unit_test_teardown(test_sleeper_preempts_hog, restore_tunables),
        cmocka_unit_test_teardown(test_yield, restore_tunables),
        cmocka_unit_test_teardown(test_fork_and_exit, restore_tunables),
        cmocka_unit_test_teardown(test_nice_ratio, restore_tunables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
