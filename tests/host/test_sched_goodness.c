/*
 * Host tests of sched/goodness.c (the Linux 2.4.18 scheduler) on the
 * simulated core (tests/host/simenv.h).
 *
 * The simulated kernel ticks at HZ = 1000, so one 2.4 tick (10 ms, HZ = 100)
 * is 10 simulated ticks; NICE_TO_TICKS(0) = 6 2.4 ticks = 60 simulated ticks.
 * Every expected number below is worked out from the 2.4 rules in the
 * comment at the top of sched/goodness.c:
 *   goodness = counter + 15 (same CPU) + 1 (same mm) + 20 - nice, 0 if
 *   counter is 0, 1000 + rt_priority for FIFO/RR, -1 after a yield;
 *   recalculation: counter = counter/2 + NICE_TO_TICKS(nice), all tasks.
 * A task created with no parent starts with DEF_COUNTER = 10.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "simenv.h"

/* Test windows into sched/goodness.c (compiled with -DHOST_TEST). */
/* The scheduler itself, so its private state can be inspected: the views below. */
#include "../../sched/goodness.c"

/* Views of the private state. */
static int goodness_test_counter(struct task *p) { return gt(p)->counter; }
static void goodness_test_set_counter(struct task *p, int counter) { gt(p)->counter = counter; }
static int goodness_test_goodness(struct task *p, int cpu, int this_mm) { return goodness(p, cpu, this_mm); }
static int goodness_test_processor(struct task *p) { return gt(p)->rq.processor; }
static unsigned long goodness_test_recalculations(void) { return recalculations; }
static int goodness_test_nice_to_ticks(int nice) { return NICE_TO_TICKS(nice); }
/* Position of p on runqueue_head (0 = head), or -1. */
static int goodness_test_position(struct task *p)
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

#define SUB 10            /* simulated ticks per 2.4 tick (HZ 1000 / 100) */
#define EXPECTED_DEF_COUNTER 10   /* 2.4 kernel/sched.c: 10 * HZ / 100 at HZ = 100 */
#define NO_MM (-12345)    /* an address space no task has */

static struct task *spawn(const char *name, int nice, cpumask_t mask, int cpu)
{
    return sim_spawn(name, nice, mask, NULL, cpu);
}

/* NICE_TO_TICKS at HZ = 100: TICK_SCALE(x) = x >> 2, plus one. */
static void test_nice_to_ticks_table(void **state)
{
    assert_int_equal(goodness_test_nice_to_ticks(-20), 11);
    assert_int_equal(goodness_test_nice_to_ticks(-10), 8);
    assert_int_equal(goodness_test_nice_to_ticks(0), 6);
    assert_int_equal(goodness_test_nice_to_ticks(5), 4);
    assert_int_equal(goodness_test_nice_to_ticks(10), 3);
    assert_int_equal(goodness_test_nice_to_ticks(19), 1);
}

/* Counters after each epoch, for a runner that uses its whole slice and for sleepers. */
static void test_recalculation_epochs(void **state)
{
    sim_init(1);
    /* Two sleepers (nice 0 and nice 10) and one runner. */
    struct task *s = spawn("s", 0, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
    sim_block(0);
    struct task *s10 = spawn("s10", 10, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s10);
    sim_block(0);
    struct task *a = spawn("a", 0, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    unsigned long r0 = goodness_test_recalculations();

    goodness_test_set_counter(s, 4);
    goodness_test_set_counter(s10, 0);
    goodness_test_set_counter(a, 1);
    /* One 2.4 tick later a is at 0: the only candidate has goodness 0, so a new epoch starts. */
    sim_run(SUB - 1);
    assert_int_equal(goodness_test_counter(a), 1);
    assert_int_equal(goodness_test_recalculations(), r0);
    sim_run(1);
    assert_int_equal(goodness_test_recalculations(), r0 + 1);
    assert_int_equal(goodness_test_counter(a), 0 / 2 + 6);
    assert_int_equal(goodness_test_counter(s), 4 / 2 + 6);     /* sleepers too */
    assert_int_equal(goodness_test_counter(s10), 0 / 2 + 3);
    assert_ptr_equal(sim_curr(0), a);

    /* The runner uses its 6 ticks every epoch and gets 6 again; sleepers
     * converge from below to 2 x NICE_TO_TICKS - 1: 8 -> 10 -> 11 -> 11, 3 -> 4 -> 5 -> 5. */
    static const int s_expect[] = { 10, 11, 11, 11 };
    static const int s10_expect[] = { 4, 5, 5, 5 };
    for (int epoch = 0; epoch < 4; epoch++) {
        sim_run(6 * SUB);
        assert_int_equal(goodness_test_recalculations(), r0 + 2 + epoch);
        assert_int_equal(goodness_test_counter(a), 6);
        assert_int_equal(goodness_test_counter(s), s_expect[epoch]);
        assert_int_equal(goodness_test_counter(s10), s10_expect[epoch]);
    }
    /* The sleeper's saved counter is 2.4's interactivity boost: woken, it
     * preempts the runner (11+15+20 = 46 against at most 6+15+1+20 = 42). */
    sim_wake(s, 0, 0);
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);
}

static void test_goodness_values(void **state)
{
    sim_init(2);
    struct task *p = spawn("p", 0, 0, 1);      /* last CPU 1 (not run yet: the parent's CPU) */
    struct task *n = spawn("n", 10, 0, 0);
    struct task *r = sim_spawn_rt("rt", SCHED_FIFO, 50, 0);
    assert_int_equal(goodness_test_processor(p), 1);
    goodness_test_set_counter(p, 5);
    goodness_test_set_counter(n, 5);
    assert_int_equal(goodness_test_goodness(p, 1, NO_MM), 5 + 15 + 20);
    assert_int_equal(goodness_test_goodness(p, 0, NO_MM), 5 + 20);
    assert_int_equal(goodness_test_goodness(p, 1, p->mm), 5 + 15 + 1 + 20);
    assert_int_equal(goodness_test_goodness(n, 1, NO_MM), 5 + 20 - 10);
    assert_int_equal(goodness_test_goodness(n, 0, NO_MM), 5 + 15 + 20 - 10);
    goodness_test_set_counter(p, 0);
    assert_int_equal(goodness_test_goodness(p, 1, p->mm), 0);   /* out of time: no bonuses */
    assert_int_equal(goodness_test_goodness(r, 0, NO_MM), 1050);
    goodness_test_set_counter(r, 0);
    assert_int_equal(goodness_test_goodness(r, 0, NO_MM), 1050); /* RT ignores counter */
}

/* Woken/new tasks go to the list head; a strictly greater goodness wins, so
 * the earlier task wins a tie. */
static void test_tie_goes_to_earlier_task(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0, 0);
    struct task *b = spawn("b", 0, 0, 0);
    struct task *c = spawn("c", 0, 0, 0);
    assert_int_equal(goodness_test_position(c), 0);
    assert_int_equal(goodness_test_position(b), 1);
    assert_int_equal(goodness_test_position(a), 2);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), c);          /* all 10+15+20: the head wins */
    sim_run(EXPECTED_DEF_COUNTER * SUB);
    assert_ptr_equal(sim_curr(0), b);          /* c is at 0; b before a */
    sim_run(EXPECTED_DEF_COUNTER * SUB);
    assert_ptr_equal(sim_curr(0), a);
    assert_int_equal(goodness_test_recalculations(), 0);
    sim_run(EXPECTED_DEF_COUNTER * SUB);                /* all at 0: recalculated to 6 each; c is first again */
    assert_int_equal(goodness_test_recalculations(), 1);
    /* a ran last, so it has +1 for the same mm (it is prev): 6+15+1+20 beats 6+15+20. */
    assert_ptr_equal(sim_curr(0), a);
}

static void test_same_cpu_bonus(void **state)
{
    sim_init(2);
    struct task *y = spawn("y", 0, 0, 0);      /* last CPU 0 */
    struct task *x = spawn("x", 0, 0, 1);      /* last CPU 1, ahead of y on the list */
    assert_int_equal(goodness_test_position(x), 0);
    sim_schedule(0);
    assert_ptr_equal(sim_curr(0), y);          /* 10+15+20 = 45 beats x's 10+20 = 30 */
    sim_schedule(1);
    assert_ptr_equal(sim_curr(1), x);
    assert_int_equal(x->nr_migrations, 0);
    assert_int_equal(y->nr_migrations, 0);
}

static void test_same_mm_bonus(void **state)
{
    for (int shared = 0; shared <= 1; shared++) {
        sim_init(1);
        struct task *b = spawn("b", 0, 0, 0);
        sim_reschedule_pending();
        struct task *m = spawn("m", 0, 0, 0);
        struct task *a = spawn("a", 0, 0, 0);   /* list: a, m, b */
        if (shared)
            m->mm = b->mm;                      /* m is a thread of b's process */
        goodness_test_set_counter(a, 5);
        goodness_test_set_counter(m, 5);
        sim_block(0);                           /* b sleeps: its mm is the CPU's mm */
        /* Without the shared mm a and m tie at 5+15+20 and a, earlier, wins; with it m has 41. */
        assert_ptr_equal(sim_curr(0), shared ? m : a);
    }
}

static void test_yield(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    /* Alone: nobody waits, yield does nothing (no move, no -1). */
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), a);
    struct task *b = spawn("b", 0, 0, 0);      /* list: b, a */
    goodness_test_set_counter(a, 10);
    goodness_test_set_counter(b, 1);
    assert_false(sim_need_resched(0));          /* b (36) does not preempt a (46) */
    /* a yields: goodness -1, moved to the tail; b (1+15+20) runs although a has more left. */
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(goodness_test_position(a), 1);
    /* The yield bit lasted one schedule(): a scores normally again. */
    assert_int_equal(goodness_test_goodness(a, 0, NO_MM), 10 + 15 + 20);
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), a);
    /* A yield with only counter-0 tasks waiting: c = 0 starts an epoch, and
     * the yielder still goes after the refilled task. */
    goodness_test_set_counter(b, 0);
    unsigned long r = goodness_test_recalculations();
    sim_yield(0);
    assert_int_equal(goodness_test_recalculations(), r + 1);
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(goodness_test_counter(b), 6);

    /* On two CPUs with one task each, nothing waits: yield keeps the task in place. */
    sim_init(2);
    struct task *p = spawn("p", 0, 0, 0);
    struct task *q = spawn("q", 0, 0, 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), p);
    assert_ptr_equal(sim_curr(1), q);
    int pos = goodness_test_position(p);
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), p);
    assert_int_equal(goodness_test_position(p), pos);
}

static void test_realtime(void **state)
{
    sim_init(1);
    struct task *n1 = spawn("n1", -20, 0, 0);
    struct task *n2 = spawn("n2", 0, 0, 0);
    sim_reschedule_pending();
    goodness_test_set_counter(n1, 40);
    /* A FIFO task beats everything and keeps the CPU although its counter runs out. */
    struct task *f = sim_spawn_rt("fifo", SCHED_FIFO, 1, 0);
    assert_true(sim_need_resched(0));           /* 1001 - (40+15+1+40) > 0 */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), f);
    uint64_t n1_before = sim_runtime_ns(n1), n2_before = sim_runtime_ns(n2);
    sim_run(1000);
    assert_ptr_equal(sim_curr(0), f);
    assert_int_equal(goodness_test_counter(f), 0);
    assert_int_equal(sim_runtime_ns(n1), n1_before);
    assert_int_equal(sim_runtime_ns(n2), n2_before);
    sim_block(0);
    assert_false(sim_curr(0)->is_idle);
    assert_false(task_is_rt(sim_curr(0)));

    /* Two RR tasks of equal priority take turns: first DEF_COUNTER (10) 2.4
     * ticks, then NICE_TO_TICKS(0) = 6 each, moving to the tail each time. */
    sim_init(1);
    struct task *r1 = sim_spawn_rt("r1", SCHED_RR, 10, 0);
    struct task *r2 = sim_spawn_rt("r2", SCHED_RR, 10, 0);
    struct task *other = spawn("other", -20, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), r2);          /* list: other, r2, r1; r2 is the first with 1010 */
    sim_run(EXPECTED_DEF_COUNTER * SUB);
    assert_ptr_equal(sim_curr(0), r1);          /* r2 refilled to 6 and moved behind r1 */
    assert_int_equal(goodness_test_counter(r2), 6);
    assert_int_equal(goodness_test_position(r2), 2);
    sim_run(EXPECTED_DEF_COUNTER * SUB);
    assert_ptr_equal(sim_curr(0), r2);
    assert_int_equal(goodness_test_counter(r1), 6);
    sim_run(6 * SUB - 1);
    assert_ptr_equal(sim_curr(0), r2);
    sim_run(1);
    assert_ptr_equal(sim_curr(0), r1);
    sim_run(6 * SUB);
    assert_ptr_equal(sim_curr(0), r2);
    assert_int_equal(sim_runtime_ns(other), 0);
    /* Higher RT priority wins over FIFO and RR alike. */
    struct task *hi = sim_spawn_rt("hi", SCHED_FIFO, 99, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), hi);
}

static void test_fork_splits_counter(void **state)
{
    sim_init(1);
    struct task *parent = spawn("parent", 0, 0, 0);
    sim_reschedule_pending();
    goodness_test_set_counter(parent, 7);
    struct task *c1 = sim_spawn("c1", 0, 0, parent, 0);
    assert_int_equal(goodness_test_counter(c1), 4);         /* (7+1)/2 */
    assert_int_equal(goodness_test_counter(parent), 3);     /* 7/2 */
    /* No child-runs-first: the child (4+15+20) does not beat the parent (3+15+1+20). */
    assert_false(sim_need_resched(0));
    assert_ptr_equal(sim_curr(0), parent);
    assert_int_equal(goodness_test_processor(c1), 0);

    goodness_test_set_counter(parent, 1);
    struct task *c2 = sim_spawn("c2", 0, 0, parent, 0);
    assert_int_equal(goodness_test_counter(c2), 1);
    assert_int_equal(goodness_test_counter(parent), 0);
    assert_true(sim_need_resched(0));                       /* parent out of time */
    sim_reschedule_pending();
    /* list: c2 (1+15+20 = 36), c1 (4+15+20 = 39), parent (0): c1. */
    assert_ptr_equal(sim_curr(0), c1);
    assert_int_equal(goodness_test_counter(c2), 1);
}

static void test_exit_returns_counter(void **state)
{
    sim_init(1);
    struct task *parent = spawn("parent", 0, 0, 0);
    sim_reschedule_pending();
    goodness_test_set_counter(parent, 8);
    struct task *child = sim_spawn("child", 0, 0, parent, 0);   /* 4 and 4 */
    sim_block(0);                                               /* parent waits for it */
    assert_ptr_equal(sim_curr(0), child);
    goodness_test_set_counter(child, 3);
    sim_exit_task(0);
    assert_int_equal(goodness_test_counter(parent), 4 + 3);
    /* Capped at MAX_COUNTER = 20. */
    sim_wake(parent, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), parent);
    goodness_test_set_counter(parent, 30);
    struct task *child2 = sim_spawn("child2", 0, 0, parent, 0); /* 15 and 15 */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), child2);
    sim_exit_task(0);
    assert_int_equal(goodness_test_counter(parent), 20);
}

/* reschedule_idle (a): the woken task's last CPU, when idle. */
static void test_wakeup_last_cpu_if_idle(void **state)
{
    sim_init(4);
    struct task *p = spawn("p", 0, 0, 2);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(2), p);
    sim_advance(1000000);
    sim_block(2);                       /* cpu 2 idle now; 0, 1, 3 idle for longer */
    sim_advance(1000000);
    sim_wake(p, 0, 0);
    assert_true(sim_need_resched(2));
    assert_false(sim_need_resched(0));
    assert_false(sim_need_resched(1));
    assert_false(sim_need_resched(3));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(2), p);
    assert_int_equal(p->nr_migrations, 0);
}

/* reschedule_idle (b): else the allowed idle CPU idle longest. */
static void test_wakeup_longest_idle_cpu(void **state)
{
    for (int restricted = 0; restricted <= 1; restricted++) {
        sim_init(4);
        struct task *p = spawn("p", 0, restricted ? (CPU_BIT(1) | CPU_BIT(2)) : 0, 2);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(2), p);
        sim_block(2);
        spawn("hog0", 0, CPU_BIT(0), 0);
        spawn("hog2", 0, CPU_BIT(2), 2);
        struct task *t1 = spawn("t1", 0, CPU_BIT(1), 1);
        struct task *t3 = spawn("t3", 0, CPU_BIT(3), 3);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(1), t1);
        assert_ptr_equal(sim_curr(3), t3);
        sim_advance(1000000);
        sim_block(3);                   /* cpu 3 idle since T */
        sim_advance(1000000);
        sim_block(1);                   /* cpu 1 idle since T + 1 ms */
        sim_advance(1000000);
        sim_wake(p, 0, 0);              /* last CPU 2 is busy */
        int expect = restricted ? 1 : 3;
        for (int cpu = 0; cpu < 4; cpu++)
            assert_int_equal(sim_need_resched(cpu), cpu == expect);
        sim_reschedule_pending();
        assert_ptr_equal(sim_curr(expect), p);
    }
}

/* reschedule_idle (b'): no idle CPU: preempt the CPU whose task p beats by the most. */
static void test_wakeup_preempts_weakest(void **state)
{
    sim_init(4);
    struct task *p = spawn("p", 0, 0, 0);
    sim_reschedule_pending();
    sim_block(0);                                   /* p last ran on cpu 0 */
    struct task *hog[4];
    static const int nice[4] = { 0, 19, 10, 5 };
    static const int counter[4] = { 10, 1, 5, 8 };
    for (int cpu = 0; cpu < 4; cpu++)
        hog[cpu] = spawn("hog", nice[cpu], CPU_BIT(cpu), cpu);
    sim_reschedule_pending();
    for (int cpu = 0; cpu < 4; cpu++) {
        assert_ptr_equal(sim_curr(cpu), hog[cpu]);
        goodness_test_set_counter(hog[cpu], counter[cpu]);
    }
    /* p: 6 + 20 = 26 (+15 on cpu 0).  The hogs (counter+15+1+20-nice): 46, 18, 31, 39.
     * preemption_goodness: cpu0 41-46 < 0, cpu1 26-18 = 8, cpu2 26-31 < 0, cpu3 26-39 < 0. */
    goodness_test_set_counter(p, 6);
    sim_wake(p, 0, 0);
    for (int cpu = 0; cpu < 4; cpu++)
        assert_int_equal(sim_need_resched(cpu), cpu == 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(1), p);
    /* A task that beats nobody preempts nobody. */
    sim_block(1);
    assert_ptr_equal(sim_curr(1), hog[1]);
    goodness_test_set_counter(p, 1);
    goodness_test_set_counter(hog[1], 30);
    /* p: 1 + 20 = 21 (36 on cpu 1, its last CPU) against 46, 30+15+1+1 = 47, 31, 39. */
    sim_wake(p, 0, 0);
    for (int cpu = 0; cpu < 4; cpu++)
        assert_false(sim_need_resched(cpu));
}

/* __schedule_tail: a preempted task that can run elsewhere wakes an idle CPU. */
static void test_preempted_task_moves_to_idle_cpu(void **state)
{
    sim_init(2);
    struct task *a = spawn("a", 0, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    assert_true(sim_curr(1)->is_idle);
    struct task *r = sim_spawn_rt("rt", SCHED_FIFO, 1, CPU_BIT(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), r);
    assert_ptr_equal(sim_curr(1), a);
    assert_int_equal(a->nr_migrations, 1);
}

/* Sync wake-ups do not preempt the waker's CPU, nor wake an idle last CPU. */
static void test_sync_wakeup(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0, 0);
    sim_reschedule_pending();
    struct task *b = spawn("b", 0, 0, 0);
    assert_false(sim_need_resched(0));          /* b 10+15+20 does not beat a 10+15+1+20 */
    sim_yield(0);                               /* let b run, then put it to sleep */
    assert_ptr_equal(sim_curr(0), b);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), a);
    goodness_test_set_counter(a, 1);
    goodness_test_set_counter(b, 10);
    sim_wake(b, 0, WAKE_SYNC);                  /* b (45) beats a (37), but a sync wake-up does not preempt */
    assert_false(sim_need_resched(0));
    sim_block(0);                               /* the waker sleeps: b runs */
    assert_ptr_equal(sim_curr(0), b);
    sim_wake(a, 0, 0);                          /* plain wake: a (1+15+20) does not beat b (10+15+1+20) */
    assert_false(sim_need_resched(0));
    sim_block(0);
    assert_ptr_equal(sim_curr(0), a);
    sim_wake(b, 0, 0);                          /* plain wake: b (45) beats a (37): preempt */
    assert_true(sim_need_resched(0));

    /* Two CPUs: b last ran on idle cpu 1; a sync wake from cpu 0 leaves cpu 1 alone. */
    sim_init(2);
    struct task *w = spawn("w", 0, 0, 0);
    struct task *s = spawn("s", 0, 0, 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), w);
    assert_ptr_equal(sim_curr(1), s);
    sim_block(1);
    sim_wake(s, 0, WAKE_SYNC);
    assert_false(sim_need_resched(0));
    assert_false(sim_need_resched(1));
    assert_int_equal(goodness_test_processor(s), 1);   /* it keeps its +15 on cpu 1 */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), s);
    /* The same wake-up, not sync: the idle last CPU is woken. */
    sim_init(2);
    w = spawn("w", 0, 0, 0);
    s = spawn("s", 0, 0, 1);
    sim_reschedule_pending();
    sim_block(1);
    sim_wake(s, 0, 0);
    assert_true(sim_need_resched(1));
    assert_false(sim_need_resched(0));
}

/* nice 0 against nice 10 on one CPU: 6 ticks against 3 every epoch: ratio 2.0. */
static void test_nice_ratio(void **state)
{
    static const struct { int a, b; double ratio; } cases[] = {
        { 0, 10, 6.0 / 3.0 },
        { -20, 19, 11.0 / 1.0 },
        { 0, 5, 6.0 / 4.0 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sim_init(1);
        struct task *a = spawn("a", cases[i].a, 0, 0);
        struct task *b = spawn("b", cases[i].b, 0, 0);
        /* Skip the first epoch (both start with DEF_COUNTER), then measure
         * 100 s: hundreds of epochs, so the partial last one moves the ratio
         * by well under 1%. */
        sim_run(1000);
        uint64_t a0 = sim_runtime_ns(a), b0 = sim_runtime_ns(b);
        sim_run(100000);
        double ratio = (double)(sim_runtime_ns(a) - a0) / (double)(sim_runtime_ns(b) - b0);
        assert_true(ratio > cases[i].ratio * 0.99 && ratio < cases[i].ratio * 1.01);
        assert_int_equal(sim_runtime_ns(a) - a0 + sim_runtime_ns(b) - b0, 100000ull * SIM_TICK_NS);
    }
}

/* More runnable tasks than CPUs: after every tick no CPU is idle, and every task runs. */
static void test_no_idle_cpu_while_tasks_wait(void **state)
{
    sim_init(4);
    struct task *t[6];
    for (int i = 0; i < 6; i++) {
        t[i] = spawn("hog", 0, 0, 0);
        sim_reschedule_pending();   /* a kicked idle CPU schedules at once, as it would on hardware */
    }
    for (int cpu = 0; cpu < 4; cpu++)
        assert_false(sim_curr(cpu)->is_idle);
    for (int tick = 0; tick < 20000; tick++) {
        sim_tick();
        for (int cpu = 0; cpu < 4; cpu++)
            assert_false(sim_curr(cpu)->is_idle);
        int queued = 0;
        for (int cpu = 0; cpu < 4; cpu++)
            queued += sched_nr_queued(cpu);
        assert_int_equal(queued, 6);
    }
    /* Each should get 4/6 of a CPU (measured: 0.664..0.668); allow 5%. */
    for (int i = 0; i < 6; i++) {
        double share = (double)sim_runtime_ns(t[i]) / (20000.0 * SIM_TICK_NS);
        assert_true(share > 0.667 * 0.95 && share < 0.667 * 1.05);
    }
}

/* A pseudo-random mix of pinned and free tasks, wake-ups, sleeps, yields and
 * affinity changes: no task ever runs outside its mask (simcore aborts if one does). */
static void test_affinity_never_violated(void **state)
{
    sim_init(4);
    enum { N = 16 };
    struct task *t[N];
    bool asleep[N] = { false };
    for (int i = 0; i < N; i++)
        t[i] = spawn("t", i % 7 - 3, (i % 3 == 0) ? CPU_BIT(i % 4) : (i % 3 == 1) ? 0x5u : 0, i % 4);
    uint32_t seed = 12345;
    for (int step = 0; step < 20000; step++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8;
        int i = r % N;
        switch ((r >> 8) % 8) {
        case 0:
            if (asleep[i]) {
                sim_wake(t[i], (r >> 12) % 4, (r & 1) ? WAKE_SYNC : 0);
                asleep[i] = false;
            }
            break;
        case 1: {
            int cpu = (r >> 12) % 4;
            struct task *c = sim_curr(cpu);
            if (!c->is_idle)
                for (int k = 0; k < N; k++)
                    if (t[k] == c) {
                        sim_block(cpu);
                        asleep[k] = true;
                    }
            break;
        }
        case 2:
            if (!sim_curr((r >> 12) % 4)->is_idle)
                sim_yield((r >> 12) % 4);
            break;
        case 3:
            if (step % 50 == 0)
                sim_set_affinity(t[i], ((r >> 12) % 15) + 1);
            break;
        default:
            sim_tick();
            break;
        }
        sim_reschedule_pending();
        for (int cpu = 0; cpu < 4; cpu++) {
            struct task *c = sim_curr(cpu);
            assert_true(c->is_idle || task_allowed_on(c, cpu));
        }
    }
    int queued = 0;
    for (int cpu = 0; cpu < 4; cpu++)
        queued += sched_nr_queued(cpu);
    int awake = 0;
    for (int i = 0; i < N; i++)
        awake += !asleep[i];
    assert_int_equal(queued, awake);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nice_to_ticks_table),
        cmocka_unit_test(test_recalculation_epochs),
        cmocka_unit_test(test_goodness_values),
        cmocka_unit_test(test_tie_goes_to_earlier_task),
        cmocka_unit_test(test_same_cpu_bonus),
        cmocka_unit_test(test_same_mm_bonus),
        cmocka_unit_test(test_yield),
        cmocka_unit_test(test_realtime),
        cmocka_unit_test(test_fork_splits_counter),
        cmocka_unit_test(test_exit_returns_counter),
        cmocka_unit_test(test_wakeup_last_cpu_if_idle),
        cmocka_unit_test(test_wakeup_longest_idle_cpu),
        cmocka_unit_test(test_wakeup_preempts_weakest),
        cmocka_unit_test(test_preempted_task_moves_to_idle_cpu),
        cmocka_unit_test(test_sync_wakeup),
        cmocka_unit_test(test_nice_ratio),
        cmocka_unit_test(test_no_idle_cpu_while_tasks_wait),
        cmocka_unit_test(test_affinity_never_violated),
    };
    return cmocka_run_group_tests_name("sched_goodness", tests, NULL, NULL);
}
