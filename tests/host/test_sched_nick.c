/*
 * Host tests of sched/nick.c (Nick Piggin's scheduler policy v8 against
 * 2.6.0-test4) on the simulated core (1 ms per tick, HZ=1000).  Each test
 * states what the patch's formulas predict: task_timeslice from the queue
 * state, task_priority from nice and sleep_avg, add_task_time's decay over
 * MAX_SLEEP, TASK_PREEMPTS_CURR with static_prio, array_sequence and the
 * slice a woken task gives its waker, the fork split, and the CPU shares of
 * two hogs that follow from the slices.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "simenv.h"

#include "../../sched/nick.c"

#define MS 1000000ull

static int defaults(void **state)
{
    for (int i = 0; i < scheduler.ntunables; i++) {
        const struct sched_tunable *t = &scheduler.tunables[i];
        *t->value = t->def;
    }
    return 0;
}

static void init(int ncpus)
{
    defaults(NULL);
    sim_init(ncpus);
}

static struct task *hog(const char *name, int nice) { return sim_spawn(name, nice, 0, NULL, 0); }

/* The v13b formulas (sched.preset=v13b). */
static void init_v13b(int ncpus)
{
    defaults(NULL);
    tun.version = 13;
    sim_init(ncpus);
}

/* v13b task_priority: 100 + USER_PRIO(static) + 10 - round(20 x sleep_avg / 1024), 60 levels. */
static void test_v13b_priority_and_history(void **state)
{
    init_v13b(1);
    struct nick_task t = { .static_prio = 130, .prio = 130 };   /* nice 0: 100 + 0 + 30 */
    assert_int_equal(task_priority(&t), 140);
    t.sleep_avg = 1024;
    assert_int_equal(task_priority(&t), 120);
    t.static_prio = 140;                                        /* nice 10 */
    t.sleep_avg = 0;
    assert_int_equal(task_priority(&t), 150);
    t.static_prio = 149;                                        /* nice 19 */
    assert_int_equal(task_priority(&t), 159);
    t.static_prio = 110;                                        /* nice -20 */
    t.sleep_avg = 1024;
    assert_int_equal(task_priority(&t), 100);
    /* add_task_time: SLEEP_FACTOR units, MIN_HISTORY floor, capped events, WAIT only decays. */
    struct nick_task h = { 0 };
    add_task_time(&h, 100, STIME_SLEEP);
    assert_int_equal(h.sleep_avg, 1024);
    assert_int_equal(h.total_time, 512000);                     /* raised to 1024 x MIN_HISTORY */
    assert_int_equal(h.sleep_time, 512000);
    add_task_time(&h, 100, STIME_RUN);
    assert_int_equal(h.total_time, 563200);
    assert_int_equal(h.sleep_time, 460800);
    assert_int_equal(h.sleep_avg, 837);
    add_task_time(&h, 100, STIME_WAIT);                         /* capped at MAX_WAIT_AFFECT = 62 */
    assert_int_equal(h.total_time, 528282);
    assert_int_equal(h.sleep_time, 432230);
    assert_int_equal(h.sleep_avg, 837);
    add_task_time(&h, 5000, STIME_RUN);                         /* capped at MAX_RUN_AFFECT = 250 */
    assert_int_equal(h.total_time, (750 * 528282 + 500) / 1000 + 256000);
}

/* v13b task_timeslice divides by 24: a lone nice-0 hog (140) gets 61/2 x 48/24 = 60,
 * a nice-10 hog (150) beside it 61/12 x 48/24 = 10: shares 6:1. */
static void test_v13b_timeslices_and_shares(void **state)
{
    init_v13b(1);
    struct runqueue *rq = &runqueues[0];
    struct task *a = hog("a", 0), *b = hog("b", 10);
    nk(a)->sleep_avg = nk(b)->sleep_avg = 0;
    dequeue_task(a, nk(a)->array);
    nk(a)->prio = task_priority(nk(a));
    enqueue_task(a, rq->active);
    dequeue_task(b, nk(b)->array);
    nk(b)->prio = task_priority(nk(b));
    enqueue_task(b, rq->active);
    assert_int_equal(nk(a)->prio, 140);
    assert_int_equal(nk(b)->prio, 150);
    assert_int_equal(task_timeslice(nk(a), rq), 60);
    assert_int_equal(task_timeslice(nk(b), rq), 10);
    sim_reschedule_pending();
    sim_run(3000);
    uint64_t ra0 = sim_runtime_ns(a), rb0 = sim_runtime_ns(b);
    sim_run(6000);
    long r = (long)((sim_runtime_ns(a) - ra0) * 1000 / (sim_runtime_ns(b) - rb0));
    print_message("v13b nice 0 vs 10: %ld/1000 (slices 60:10 = 6000)\n", r);
    assert_in_range(r, 6000 * 95 / 100, 6000 * 105 / 100);
}

/* v13b: a wake-up moves no slice to the waker, and equal prio never preempts. */
static void test_v13b_no_transfer_prio_only(void **state)
{
    init_v13b(1);
    struct task *s = hog("sleeper", 0);
    sim_reschedule_pending();
    sim_run(3);
    sim_block(0);
    struct task *w = hog("waker", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), w);
    sim_run(50);
    uint32_t w_used = nk(w)->used_slice, s_used = nk(s)->used_slice;
    sim_wake(s, 0, WAKE_SYNC);
    assert_int_equal(nk(w)->used_slice, w_used);
    assert_int_equal(nk(s)->used_slice, s_used);
    struct nick_task t = { .prio = nk(w)->prio, .static_prio = nk(w)->static_prio - 5 };
    assert_false(task_preempts_curr(&t, 0));
    t.prio--;
    assert_true(task_preempts_curr(&t, 0));
}

/* task_priority: prio = 100 + (static-100)/2 + 20 - 40*sleep_avg/2000. */
static void test_task_priority(void **state)
{
    init(1);
    struct nick_task t = { .static_prio = 120, .prio = 120 };
    t.sleep_avg = 0;
    assert_int_equal(task_priority(&t), 130);
    t.sleep_avg = 1000;
    assert_int_equal(task_priority(&t), 110);
    t.sleep_avg = 500;
    assert_int_equal(task_priority(&t), 120);
    t.static_prio = 139;     /* nice 19 */
    t.sleep_avg = 0;
    assert_int_equal(task_priority(&t), 139);
    t.static_prio = 100;     /* nice -20 */
    t.sleep_avg = 1000;
    assert_int_equal(task_priority(&t), 100);
    t.static_prio = 130;     /* nice 10 */
    t.sleep_avg = 0;
    assert_int_equal(task_priority(&t), 135);
}

/* add_task_time over MAX_SLEEP = 1000 jiffies. */
static void test_add_task_time_decay(void **state)
{
    init(1);
    struct nick_task t = { 0 };
    add_task_time(&t, 100, true);              /* 100 ms asleep from nothing */
    assert_int_equal(t.total_time, 100000);
    assert_int_equal(t.sleep_time, 100000);
    assert_int_equal(t.sleep_avg, 1000);
    add_task_time(&t, 100, false);             /* then 100 ms run: both x 0.9, +100000 total */
    assert_int_equal(t.total_time, 190000);
    assert_int_equal(t.sleep_time, 90000);
    assert_int_equal(t.sleep_avg, 473);
    add_task_time(&t, 0, true);                /* nothing */
    assert_int_equal(t.sleep_avg, 473);
    add_task_time(&t, 5000, false);            /* beyond MAX_SLEEP: reset, then 1000 jiffies run */
    assert_int_equal(t.total_time, 1000000);
    assert_int_equal(t.sleep_time, 0);
    assert_int_equal(t.sleep_avg, 0);
}

/* The check: task_timeslice follows the formula for a queue state. */
static void test_timeslice_formula(void **state)
{
    init(1);
    struct runqueue *rq = &runqueues[0];
    struct task *a = hog("a", 0);              /* sleep_avg 0: prio 130 */
    assert_int_equal(nk(a)->prio, 130);
    /* Alone: idx = 130, delta 0: 1 x 41 / 2 = 20, x (30 + 8) / 8 = 95. */
    assert_int_equal(task_timeslice(nk(a), rq), 95);
    struct task *b = hog("b", 10);             /* prio 135 */
    assert_int_equal(nk(b)->prio, 135);
    /* b beside a: idx 130, delta 5: 41 / 7 = 5, x 38 / 8 = 23; a keeps 95. */
    assert_int_equal(task_timeslice(nk(b), rq), 23);
    assert_int_equal(task_timeslice(nk(a), rq), 95);
    /* A sleeper-boosted task at 110 queued: idx 110 (in the expired array too). */
    struct task *c = hog("c", 0);
    dequeue_task(c, nk(c)->array);
    nk(c)->prio = 110;
    enqueue_task(c, rq->expired);
    /* c: delta 0, 20 x (10 + 8) / 8 = 45; a: delta 20, 41/22 = 1, x 18/8 = 2; b: 41/27 = 1 -> 2. */
    assert_int_equal(task_timeslice(nk(c), rq), 45);
    assert_int_equal(task_timeslice(nk(a), rq), 2);
    assert_int_equal(task_timeslice(nk(b), rq), 2);
    /* RT: MAX_TIMESLICE = 40. */
    struct nick_task rt = { .prio = 50 };
    assert_int_equal(task_timeslice(&rt, rq), 40);
}

/* Two hogs on one CPU: nice 0 runs 95-tick slices, nice 10 23-tick ones
 * (once their inherited sleep_avg has decayed), so the shares approach
 * 95 : 23 = 4.13. */
static void test_two_hog_shares_follow_the_slices(void **state)
{
    init(1);
    struct task *a = hog("a", 0), *b = hog("b", 10);
    sim_reschedule_pending();
    sim_run(3000);
    uint64_t ra0 = sim_runtime_ns(a), rb0 = sim_runtime_ns(b);
    sim_run(6000);
    long r = (long)((sim_runtime_ns(a) - ra0) * 1000 / (sim_runtime_ns(b) - rb0));
    print_message("nice 0 vs 10: %ld/1000 (slices 95:23 = 4130)\n", r);
    assert_in_range(r, 4130 * 95 / 100, 4130 * 105 / 100);
}

/* TASK_PREEMPTS_CURR: better prio, or equal prio and better static_prio. */
static void test_preempts_curr_with_static_prio(void **state)
{
    init(1);
    struct task *a = hog("a", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    struct nick_task t = { .prio = nk(a)->prio, .static_prio = nk(a)->static_prio };
    assert_false(task_preempts_curr(&t, 0));
    t.static_prio--;
    assert_true(task_preempts_curr(&t, 0));
    t.static_prio += 2;
    t.prio--;
    assert_true(task_preempts_curr(&t, 0));
    t.prio += 2;
    t.static_prio -= 5;
    assert_false(task_preempts_curr(&t, 0));
}

/* Wake-up: half the sleep goes to the waker; the wakee gives
 * min(sleep/2, (slice - used)/2) of its slice to the waker; a wakee whose
 * runqueue switched arrays since it slept starts a fresh slice. */
static void test_wakeup_boost_steal_and_array_sequence(void **state)
{
    init(1);
    struct task *s = hog("sleeper", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
    sim_run(3);
    sim_block(0);                              /* s sleeps; used_slice 3 */
    struct task *w = hog("waker", 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), w);
    sim_run(50);                               /* w runs 50 ms: s sleeps 50 */
    struct runqueue *rq = &runqueues[0];
    uint64_t seq = rq->array_sequence;
    assert_int_equal(nk(s)->array_sequence, seq);
    uint32_t w_used = nk(w)->used_slice;
    uint32_t w_total = nk(w)->total_time;
    uint32_t s_used = nk(s)->used_slice;
    sim_wake(s, 0, WAKE_SYNC);
    /* sleep 50: the waker is credited 25 asleep, the sleeper 25. */
    assert_int_not_equal(nk(w)->total_time, w_total);
    /* s kept its used slice (no array switch), then gave min(25, (ts - used)/2). */
    uint32_t ts = task_timeslice(nk(s), rq);
    uint32_t left = (ts - s_used) / 2;
    uint32_t steal = 25 < left ? 25 : left;
    print_message("sleeper used %u of %u, gives %u to the waker (used %u -> %u)\n", s_used, ts, steal, w_used,
                  nk(w)->used_slice);
    assert_int_equal(nk(s)->used_slice, s_used + steal);
    assert_int_equal(nk(w)->used_slice, w_used - steal);
    /* A sync wake-up does not preempt. */
    assert_false(sim_need_resched(0));

    /* Array switch while asleep: a fresh slice. */
    sim_reschedule_pending();
    for (int i = 0; i < 1000 && sim_curr(0) != s; i++)
        sim_tick();
    assert_ptr_equal(sim_curr(0), s);
    sim_block(0);
    uint64_t before = rq->array_sequence;
    sim_run(300);                              /* w alone expires and the arrays switch */
    assert_true(rq->array_sequence > before);
    uint32_t used_before = nk(s)->used_slice;
    sim_wake(s, 0, 0);
    /* used_slice restarts at 0, then gives min(300/2, ts/2) to the waker. */
    uint32_t ts2 = task_timeslice(nk(s), rq);
    print_message("after an array switch: used %u before, %u after (slice %u)\n", used_before, nk(s)->used_slice, ts2);
    assert_int_equal(nk(s)->used_slice, ts2 / 2 < 150 ? ts2 / 2 : 150);
}

/* sched_fork: the child gets the parent's used slice plus half of what was
 * left, the parent uses up the other half rounded up. */
static void test_fork_splits_the_slice(void **state)
{
    init(1);
    struct task *p = hog("parent", 0);
    sim_reschedule_pending();
    sim_run(15);
    uint32_t used = nk(p)->used_slice;
    uint32_t ts = task_timeslice(nk(p), &runqueues[0]);
    struct task *c = sim_spawn("child", 0, 0, p, 0);
    assert_int_equal(nk(c)->used_slice, used + (ts - used) / 2);
    assert_int_equal(nk(p)->used_slice, used + (ts - used + 1) / 2);
    assert_true(nk(c)->first_time_slice);
    /* wake_up_forked_process: child total = parent's / 10. */
    assert_true(sim_need_resched(0));
}

static uint64_t rng_state = 0xabcdef;

/* After every step: every task queued is in the array its bookkeeping says,
 * bitmaps match the lists, counts add up. */
static void check_step(int step)
{
    const char *why = sim_check_invariants();
    if (why)
        fail_msg("step %d: %s", step, why);
    for (int c = 0; c < 4; c++) {
        struct runqueue *rq = &runqueues[c];
        int count = 0;
        for (int a = 0; a < 2; a++) {
            struct prio_array *arr = &rq->arrays[a];
            int in = 0;
            for (int prio = 0; prio < MAX_PRIO; prio++) {
                int len = 0;
                struct list_head *pos;
                list_for_each(pos, &arr->queue[prio]) {
                    struct nick_task *nt = nk(task_of(pos));
                    assert_ptr_equal(nt->array, arr);
                    assert_int_equal(nt->prio, prio);
                    assert_true(nt->prio >= 100 || task_is_rt(task_of(pos)));
                    assert_true(nt->prio < k.max_prio);
                    len++;
                }
                assert_int_equal((arr->bitmap[prio >> 5] >> (prio & 31)) & 1, len > 0);
                in += len;
            }
            assert_int_equal(in, arr->nr_active);
            count += in;
        }
        assert_int_equal(count, sched_nr_queued(c));
    }
}

/* Random workload on 4 CPUs (sim_mix), checked after every step. */
static void random_workload(int version)
{
    defaults(NULL);
    tun.version = (uint32_t)version;
    sim_init(4);
    enum { MAXT = 48 };
    struct task *t[MAXT];
    const struct sim_mix mix = { .seed = &rng_state, .steps = 5000, .max_tasks = MAXT, .irq_wakes = true,
                                 .affinity_pct = 3, .check = check_step };
    sim_mix(&mix, t);
}

static void test_random_workload_keeps_arrays_consistent(void **state) { random_workload(8); }
static void test_random_workload_v13b(void **state) { random_workload(13); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_task_priority, defaults),
        cmocka_unit_test_teardown(test_add_task_time_decay, defaults),
        cmocka_unit_test_teardown(test_timeslice_formula, defaults),
        cmocka_unit_test_teardown(test_two_hog_shares_follow_the_slices, defaults),
        cmocka_unit_test_teardown(test_preempts_curr_with_static_prio, defaults),
        cmocka_unit_test_teardown(test_wakeup_boost_steal_and_array_sequence, defaults),
        cmocka_unit_test_teardown(test_fork_splits_the_slice, defaults),
        cmocka_unit_test_teardown(test_random_workload_keeps_arrays_consistent, defaults),
        cmocka_unit_test_teardown(test_v13b_priority_and_history, defaults),
        cmocka_unit_test_teardown(test_v13b_timeslices_and_shares, defaults),
        cmocka_unit_test_teardown(test_v13b_no_transfer_prio_only, defaults),
        cmocka_unit_test_teardown(test_random_workload_v13b, defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
