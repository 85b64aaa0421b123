/*
 * Host tests of sched/mq.c (the LSE multi-queue scheduler for Linux 2.4) on
 * the simulated core (tests/host/simenv.h): the published maxima, stealing
 * with trylock, the shared real-time queue, wake-up placement, 2.4's
 * counter recalculation, nice, affinity and spreading.
 *
 * Numbers used below (Linux 2.4 at HZ=100, sched/mq.c):
 *   NICE_TO_TICKS(n) = ((20 - n) >> 2) + 1: nice -10 -> 8, -8 -> 8, -5 -> 7,
 *   0 -> 6, 4 -> 5, 5 -> 4, 10 -> 3, 19 -> 1 ticks of 10 ms.
 *   A task created without a parent starts with NICE_TO_TICKS(nice), so its
 *   na_goodness = counter + 20 - nice is: nice -10 -> 38, -8 -> 36, -5 -> 32,
 *   0 -> 26, 4 -> 21, 5 -> 19, 10 -> 13, 19 -> 2.
 *   Every simcore task has its own mm, so the +1 same-mm bonus only ever goes
 *   to prev itself.  One 2.4 tick = 10 simulated ticks (HZ=1000).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include "simenv.h"

/* Views into sched/mq.c (compiled with -DHOST_TEST). */
/* The scheduler itself, so its private state can be inspected: the views below. */
#include "../../sched/mq.c"

/* Views of the private state. */
static int mq_test_max_na_goodness(int cpu) { return runqueues[cpu].max_na_goodness; }
struct task *mq_test_max_na_task(int cpu) { return runqueues[cpu].max_na_task; }
static cpumask_t mq_test_max_na_cpus_allowed(int cpu) { return runqueues[cpu].max_na_cpus_allowed; }
static int mq_test_curr_na_goodness(int cpu) { return cpu_data[cpu].curr_na_goodness; }
static int mq_test_na_goodness(struct task *p) { return na_goodness(p); }
static int mq_test_counter(struct task *p) { return mq(p)->counter; }
static void mq_test_set_counter(struct task *p, int counter) { mq(p)->counter = counter; }
static int mq_test_rt_queued(void) { return rt_queue.nr_running; }

#define MIN_GOODNESS (-1000)
#define TICKS_PER_24_TICK 10
#define ALL4 0xfu

static struct task *spawn(const char *name, int nice, cpumask_t mask, int cpu)
{
    return sim_spawn(name, nice, mask, NULL, cpu);
}

static void assert_published(int cpu, struct task *p, int goodness)
{
    assert_ptr_equal(mq_test_max_na_task(cpu), p);
    assert_int_equal(mq_test_max_na_goodness(cpu), goodness);
}

/* cmocka setup: every tunable at its table default, as the kernel boots. */
static int defaults(void **state)
{
    for (int i = 0; i < scheduler.ntunables; i++)
        *scheduler.tunables[i].value = scheduler.tunables[i].def;
    return 0;
}

/* The published maximum is the best waiting (not running) task: on enqueue a
 * better task replaces it; when the best runs, the second best is published. */
static void test_published_maxima_track_queue(void **state)
{
    sim_init(2);
    assert_published(0, NULL, MIN_GOODNESS);
    struct task *a = spawn("a", 0, CPU_BIT(0), 0);        /* na 26 */
    assert_published(0, a, 26);
    assert_int_equal(mq_test_max_na_cpus_allowed(0), CPU_BIT(0));
    struct task *b = spawn("b", 5, CPU_BIT(0), 0);        /* na 19: a stays published */
    assert_published(0, a, 26);
    struct task *c = spawn("c", -5, CPU_BIT(0), 0);       /* na 32: published now */
    assert_published(0, c, 32);
    assert_int_equal(b->cpu, 0);

    /* c runs (32 > 26 > 19); a, the second best, is published. */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), c);
    assert_int_equal(mq_test_curr_na_goodness(0), 32);
    assert_published(0, a, 26);
    /* CPU 1 may not run any of them: the published copy of cpus_allowed says so. */
    assert_true(sim_curr(1)->is_idle);
    assert_int_equal(mq_test_curr_na_goodness(1), MIN_GOODNESS);

    sim_block(0);                                         /* c sleeps: a runs, b is published */
    assert_ptr_equal(sim_curr(0), a);
    assert_published(0, b, 19);
    sim_block(0);                                         /* a sleeps: b runs, nothing waits */
    assert_ptr_equal(sim_curr(0), b);
    assert_published(0, NULL, MIN_GOODNESS);

    /* a wakes at home: reschedule_idle asks cpu 0 to reschedule (2.4
     * goodness 26 + 15 > 19 + 15 + 1), but there the still-running b is
     * evaluated first with its full goodness, 35, and a's local goodness
     * (no CPU bonus for waiting tasks) is only 26: b keeps the CPU. */
    sim_wake(a, 0, 0);
    assert_published(0, a, 26);
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), b);
    assert_published(0, a, 26);
    assert_int_equal(sched_nr_queued(0), 2);
    assert_int_equal(sched_nr_queued(1), 0);

    /* The published task leaves (its affinity moves it to cpu 1): the best
     * task left, e (13), is published in its place. */
    struct task *e = spawn("e", 10, CPU_BIT(0), 0);
    assert_published(0, a, 26);
    sim_set_affinity(a, CPU_BIT(1));
    assert_int_equal(a->cpu, 1);
    assert_published(0, e, 13);
    assert_ptr_equal(sim_curr(1), a);                     /* idle cpu 1 runs it */
    assert_published(1, NULL, MIN_GOODNESS);
}

/* An idle CPU steals the published task of the queue with the highest
 * published maximum that it may run; never a running task, never one whose
 * cpus_allowed excludes it. */
static void test_steal_best_published(void **state)
{
    sim_init(3);
    struct task *x0 = spawn("x0", -10, CPU_BIT(0), 0);    /* na 38, runs on 0 */
    struct task *x1 = spawn("x1", -10, CPU_BIT(1), 1);    /* na 38, runs on 1 */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), x0);
    assert_ptr_equal(sim_curr(1), x1);
    /* Waiting tasks; none preempts x0/x1 (2.4 goodness 32+15 < 38+16). */
    struct task *p = spawn("p", -5, CPU_BIT(0), 0);       /* na 32 */
    struct task *q = spawn("q", 5, CPU_BIT(0), 0);        /* na 19 */
    struct task *r = spawn("r", 0, CPU_BIT(1), 1);        /* na 26 */
    struct task *d = spawn("d", -8, CPU_BIT(1), 1);       /* na 36, stays bound to cpu 1 */
    sim_set_affinity(p, 0x7);
    sim_set_affinity(q, 0x7);
    sim_set_affinity(r, 0x7);
    assert_false(sim_need_resched(0) || sim_need_resched(1) || sim_need_resched(2));
    assert_published(0, p, 32);
    assert_int_equal(mq_test_max_na_cpus_allowed(0), 0x7);
    assert_published(1, d, 36);
    assert_int_equal(mq_test_max_na_cpus_allowed(1), CPU_BIT(1));

    /* cpu 2: queue 1 publishes more (36) but d may not run on 2; queue 0's p (32) may. */
    sim_schedule(2);
    assert_ptr_equal(sim_curr(2), p);
    assert_int_equal(p->cpu, 2);
    assert_published(0, q, 19);
    assert_int_equal(sched_nr_queued(0), 2);
    assert_int_equal(sched_nr_queued(2), 1);

    /* Next: only queue 0's q is visible (queue 1 still publishes d; MQ
     * publishes one task per queue, so r, behind d, is not seen). */
    sim_block(2);
    assert_ptr_equal(sim_curr(2), q);
    assert_int_equal(q->cpu, 2);
    assert_published(0, NULL, MIN_GOODNESS);

    /* Nothing left that cpu 2 may take: running x0 and x1 and the bound d stay. */
    sim_block(2);
    assert_true(sim_curr(2)->is_idle);
    assert_ptr_equal(sim_curr(0), x0);
    assert_ptr_equal(sim_curr(1), x1);
    assert_int_equal(x0->cpu, 0);
    assert_int_equal(x1->cpu, 1);
    assert_int_equal(d->cpu, 1);
    assert_int_equal(r->cpu, 1);

    /* x0 sleeps: cpu 0's queue is empty and queue 1 still publishes the
     * bound d, which hides r: cpu 0 idles too. */
    sim_block(0);
    assert_true(sim_curr(0)->is_idle);
    /* When d runs, r becomes cpu 1's published task and an idle CPU takes it. */
    sim_block(1);                                         /* x1 sleeps: d (36) runs, r published */
    assert_ptr_equal(sim_curr(1), d);
    assert_published(1, r, 26);
    /* The patch has no idle balancing: idle cpus 0 and 2 do not look. */
    sim_tick();
    assert_true(sim_curr(0)->is_idle && sim_curr(2)->is_idle);
    assert_int_equal(r->cpu, 1);
    /* sched.idle_balance=1 (not the patch): an idle CPU polls the maxima on
     * its tick; cpu 0 asks first and steals r. */
    mq_tun.idle_balance = 1;
    sim_tick();
    assert_ptr_equal(sim_curr(0), r);
    assert_int_equal(r->cpu, 0);
    assert_true(sim_curr(2)->is_idle);
}

/* A busy CPU steals only when the remote task beats its local best plus
 * PROC_CHANGE_PENALTY. */
static void test_steal_needs_penalty_margin(void **state)
{
    sim_init(2);
    struct task *x0 = spawn("x0", 0, CPU_BIT(0), 0);      /* runs on 0 */
    struct task *x1 = spawn("x1", -10, CPU_BIT(1), 1);    /* runs on 1 */
    sim_reschedule_pending();
    struct task *local = spawn("local", 10, CPU_BIT(0), 0);   /* na 13, waits on 0 */
    struct task *remote = spawn("remote", -5, CPU_BIT(1), 1); /* na 32, waits on 1 */
    sim_set_affinity(remote, 0x3);
    assert_ptr_equal(sim_curr(0), x0);
    assert_published(1, remote, 32);
    /* cpu 0 reschedules with x0 still runnable: local best x0 = 26 + 1 (own
     * mm), + 15 = 42 >= 32: no steal. */
    sim_schedule(0);
    assert_ptr_equal(sim_curr(0), x0);
    assert_int_equal(remote->cpu, 1);
    /* x0 sleeps: local best is local (13) + 15 = 28 < 32: steal remote. */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), remote);
    assert_int_equal(remote->cpu, 0);
    assert_published(0, local, 13);
    (void)x1;
}

/* A failed trylock is skipped; going idle after one, the CPU rescans a
 * bounded number of times, then idles, and its next tick tries again. */
static void test_failed_trylock(void **state)
{
    sim_init(2);
    struct task *x = spawn("x", 0, CPU_BIT(0), 0);
    sim_reschedule_pending();
    struct task *w = spawn("w", 0, CPU_BIT(0), 0);
    sim_set_affinity(w, 0x3);
    assert_ptr_equal(sim_curr(0), x);
    assert_published(0, w, 26);

    spinlock_t *lock0 = sched_rq_lock(0);
    sim_on_cpu(0);
    spin_lock(lock0);                                     /* cpu 0's queue is busy */
    sim_schedule(1);
    sim_on_cpu(0);
    spin_unlock(lock0);
    assert_true(sim_curr(1)->is_idle);                    /* gave up, did not spin forever */
    assert_int_equal(w->cpu, 0);                          /* nothing half moved */
    assert_int_equal(sched_nr_queued(0), 2);
    assert_int_equal(sched_nr_queued(1), 0);
    assert_published(0, w, 26);

    sim_tick();                                           /* the idle tick sees w and steals it */
    assert_ptr_equal(sim_curr(1), w);
    assert_int_equal(w->cpu, 1);
    assert_int_equal(sched_nr_queued(0), 1);
    assert_int_equal(sched_nr_queued(1), 1);
}

/* Real-time tasks live on the shared queue, which every CPU checks first. */
static void test_rt_queue_first(void **state)
{
    sim_init(2);
    struct task *a2 = spawn("a2", -10, CPU_BIT(0), 0);    /* na 38 */
    struct task *b = spawn("b", 0, CPU_BIT(1), 1);
    sim_reschedule_pending();
    struct task *a = spawn("a", 0, CPU_BIT(0), 0);        /* na 26: waits behind a2 */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a2);

    /* rt1 (home 0): cpu 0 runs na 38, cpu 1 na 26 + 15 = 41: cpu 0 scores
     * lower and 1010 preempts it. */
    struct task *rt1 = sim_spawn_rt("rt1", SCHED_FIFO, 10, 0);
    assert_int_equal(mq_test_rt_queued(), 1);
    assert_int_equal(mq_test_na_goodness(rt1), 1010);
    assert_true(sim_need_resched(0));
    assert_false(sim_need_resched(1));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), rt1);
    assert_int_equal(mq_test_curr_na_goodness(0), 1010);

    /* rt2, bound to cpu 0 with a higher priority, preempts rt1 there. */
    struct task *rt2 = sim_spawn_rt("rt2", SCHED_FIFO, 20, CPU_BIT(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), rt2);
    assert_int_equal(mq_test_rt_queued(), 2);
    assert_int_equal(rt1->cpu, 0);

    /* cpu 1 reschedules: the waiting rt1 beats its own b, and moves to cpu 1. */
    sim_block(1);
    assert_ptr_equal(sim_curr(1), rt1);
    assert_int_equal(rt1->cpu, 1);
    /* rt2 sleeps: the only real-time task left runs on cpu 1, so cpu 0
     * takes the best of its own queue, a2 (38) before a (26). */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), a2);
    assert_int_equal(sched_nr_queued(0), 2);         /* a2 + a */
    assert_int_equal(sched_nr_queued(1), 1);         /* rt1 (b sleeps) */
    assert_int_equal(mq_test_rt_queued(), 1);
    (void)a;
    (void)b;
}

/* Wake-up placement, step 1: the home CPU is idle. */
static void test_wakeup_home_idle(void **state)
{
    sim_init(4);
    struct task *t = spawn("t", 0, 0, 2);                 /* forked on cpu 2: its home */
    assert_int_equal(t->cpu, 2);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(2), t);
    sim_block(2);
    /* Everything is idle, cpu 0 the longest (since boot): t still goes home. */
    sim_wake(t, 0, 0);
    assert_int_equal(t->cpu, 2);
    assert_int_equal(mq_test_curr_na_goodness(2), 26);
    /* cpu 2 has been handed t but has not switched yet: it counts as busy
     * with t (26), so a burst of new tasks from home 2 spreads over the
     * other idle CPUs (equal idle times: lowest number first) instead of
     * piling onto cpu 2. */
    struct task *n[3];
    for (int i = 0; i < 3; i++)
        n[i] = spawn("n", 0, 0, 2);
    cpumask_t used = CPU_BIT(2);
    for (int i = 0; i < 3; i++) {
        assert_false(used & CPU_BIT(n[i]->cpu));
        used |= CPU_BIT(n[i]->cpu);
    }
    assert_int_equal(used, ALL4);
}

/* Step 2/3: home busy: the CPU idle for the longest time. */
static void test_wakeup_longest_idle(void **state)
{
    sim_init(4);
    for (int cpu = 0; cpu < 4; cpu++)
        spawn("busy", 0, CPU_BIT(cpu), cpu);
    sim_reschedule_pending();
    sim_advance(1000000);
    sim_block(2);                                         /* idle from t+1 ms */
    sim_advance(1000000);
    sim_block(3);                                         /* from t+2 ms */
    sim_advance(1000000);
    sim_block(1);                                         /* from t+3 ms */
    sim_advance(1000000);
    struct task *w1 = spawn("w1", 0, 0, 0);               /* home 0 is busy */
    assert_int_equal(w1->cpu, 2);
    struct task *w2 = spawn("w2", 0, 0, 0);
    assert_int_equal(w2->cpu, 3);
    struct task *w3 = spawn("w3", 0, 0, 0);
    assert_int_equal(w3->cpu, 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(2), w1);
    assert_ptr_equal(sim_curr(3), w2);
    assert_ptr_equal(sim_curr(1), w3);
}

/* Step 3: every CPU busy: the lowest curr_na_goodness (+15 away from home)
 * below the task's na_goodness, if the task preempts there; else home. */
static void test_wakeup_preempt_lowest(void **state)
{
    sim_init(3);
    spawn("c0", -5, CPU_BIT(0), 0);                       /* na 32: score 32 at home */
    spawn("c1", 10, CPU_BIT(1), 1);                       /* na 13: score 28 */
    struct task *c2 = spawn("c2", 19, CPU_BIT(2), 2);     /* na 2: score 17 */
    sim_reschedule_pending();
    /* w (na 26, home 0): cpu 2 scores lowest (17 < 26) and w's 2.4 goodness
     * there, 26 (no CPU bonus), beats c2's 2 + 15 + 1 = 18. */
    struct task *w = spawn("w", 0, 0, 0);
    assert_int_equal(w->cpu, 2);
    assert_true(sim_need_resched(2));
    assert_false(sim_need_resched(0) || sim_need_resched(1));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(2), w);
    assert_int_equal(mq_test_curr_na_goodness(2), 26);
    assert_published(2, c2, 2);

    /* The +15 home rule: cpu 0 (home) runs na 21, cpu 1 runs na 13.  cpu 1's
     * score is 13 + 15 = 28 >= 26, cpu 0's 21 < 26 and at home w's
     * 26 + 15 beats 21 + 15 + 1: w is queued at home and cpu 0 asked to
     * reschedule.  There schedule() keeps h, evaluated first with its full
     * goodness 21 + 15 + 1 = 37 against w's local 26: the patch's
     * reschedule_idle and schedule() judge a waiting task differently. */
    sim_init(2);
    struct task *h = spawn("h", 4, CPU_BIT(0), 0);        /* na 21 */
    spawn("o", 10, CPU_BIT(1), 1);                        /* na 13 */
    sim_reschedule_pending();
    w = spawn("w", 0, 0, 0);
    assert_int_equal(w->cpu, 0);
    assert_true(sim_need_resched(0));
    assert_false(sim_need_resched(1));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), h);
    assert_published(0, w, 26);
}

/* Step 4: nothing scores below the task: it waits at home, nobody preempted. */
static void test_wakeup_stays_home(void **state)
{
    sim_init(2);
    struct task *c0 = spawn("c0", -10, CPU_BIT(0), 0);    /* na 38 */
    struct task *c1 = spawn("c1", -10, CPU_BIT(1), 1);    /* na 38 */
    sim_reschedule_pending();
    struct task *w = spawn("w", 0, 0, 1);                 /* na 26, home 1: scores 53 and 38 */
    assert_int_equal(w->cpu, 1);
    assert_false(sim_need_resched(0) || sim_need_resched(1));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), c0);
    assert_ptr_equal(sim_curr(1), c1);
    assert_published(1, w, 26);
    /* A sync wake-up (pipes) that may run on the waker's CPU is queued at
     * home without preempting, even where it would win. */
    sim_init(2);
    struct task *lo = spawn("lo", 19, CPU_BIT(0), 0);     /* na 2 */
    sim_reschedule_pending();
    struct task *s = spawn("s", 0, CPU_BIT(0), 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), s);                     /* s preempted lo */
    sim_block(0);
    assert_ptr_equal(sim_curr(0), lo);
    sim_wake(s, 0, WAKE_SYNC);
    assert_int_equal(s->cpu, 0);
    assert_false(sim_need_resched(0));
    assert_ptr_equal(sim_curr(0), lo);
    /* A sync wake-up whose home is idle goes to the waker's CPU (MQ: the
     * waker, going to sleep, steals it there) and wakes nobody. */
    sim_init(2);
    struct task *sleeper = spawn("sleeper", 0, 0, 1);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(1), sleeper);
    sim_block(1);                                         /* cpu 1 idles */
    struct task *waker = spawn("waker", 0, CPU_BIT(0), 0);
    sim_reschedule_pending();
    sim_wake(sleeper, 0, WAKE_SYNC);
    assert_int_equal(sleeper->cpu, 0);
    assert_false(sim_need_resched(0) || sim_need_resched(1));
    sim_block(0);                                         /* the waker sleeps: sleeper runs on 0 */
    assert_ptr_equal(sim_curr(0), sleeper);
    (void)waker;
}

/* 2.4 recalculation: when every candidate's counter is 0, every task's
 * counter (sleepers too) becomes counter/2 + NICE_TO_TICKS(nice). */
static void test_recalculation(void **state)
{
    sim_init(1);
    struct task *sleeper = spawn("sleeper", 0, 0, 0);
    sim_reschedule_pending();
    sim_block(0);                                         /* sleeps with counter 6 */
    struct task *a = spawn("a", 0, 0, 0);                 /* na 26 */
    struct task *b = spawn("b", 10, 0, 0);                /* na 13 */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    sim_run(6 * TICKS_PER_24_TICK - 1);
    assert_int_equal(mq_test_counter(a), 1);
    assert_ptr_equal(sim_curr(0), a);
    sim_run(1);                                           /* a's counter reaches 0: b runs */
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(mq_test_counter(a), 0);
    assert_int_equal(mq_test_counter(sleeper), 6);
    sim_run(3 * TICKS_PER_24_TICK);                       /* b's too: recalculate */
    assert_int_equal(mq_test_counter(a), 0 / 2 + 6);
    assert_int_equal(mq_test_counter(b), 0 / 2 + 3);
    assert_int_equal(mq_test_counter(sleeper), 6 / 2 + 6);
    /* The still-running b is evaluated first: 3 + 10 + 15 + 1 = 29 beats
     * a's local goodness 6 + 20 = 26, so b goes on with its new counter. */
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(sim_runtime_ns(a), 60 * SIM_TICK_NS);
    assert_int_equal(sim_runtime_ns(b), 30 * SIM_TICK_NS);
    sim_run(3 * TICKS_PER_24_TICK);
    assert_ptr_equal(sim_curr(0), a);
    assert_int_equal(sim_runtime_ns(b), 60 * SIM_TICK_NS);
    /* The sleeper tends to 2 x NICE_TO_TICKS - 1 = 11: 9, 10, 11, 11. */
    sim_run(3 * 9 * TICKS_PER_24_TICK);
    assert_int_equal(mq_test_counter(sleeper), 11);
}

/* A lone yielder (goodness -1) does not recalculate; -1 and 0 do (c = 0). */
static void test_yield_and_recalculation(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0, 0);
    struct task *b = spawn("b", 0, 0, 0);
    sim_reschedule_pending();
    struct task *run = sim_curr(0), *other = run == a ? b : a;
    sim_block(0);                                         /* other sleeps */
    assert_ptr_equal(sim_curr(0), other);
    sim_block(0);
    sim_wake(run, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), run);
    /* Alone: pending is 0, so the yield is ignored and nothing recalculates. */
    mq_test_set_counter(run, 4);
    sim_yield(0);
    assert_int_equal(mq_test_counter(run), 4);
    /* With a counter-0 task waiting, the yielder's -1 loses to 0, c = 0 and
     * 2.4 recalculates: 4/2 + 6 and 0/2 + 6. */
    sim_wake(other, 0, 0);
    mq_test_set_counter(other, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), run);
    sim_yield(0);
    assert_int_equal(mq_test_counter(run), 8);
    assert_int_equal(mq_test_counter(other), 6);
    /* The yield bit lasts the whole decision, the rescan after the
     * recalculation included (2.4 clears it in __schedule_tail): other runs. */
    assert_ptr_equal(sim_curr(0), other);
    assert_int_equal(mq_test_na_goodness(run), 28);
}

/* On one CPU nice 0 gets NICE_TO_TICKS 6 per epoch and nice 10 gets 3: 2.0. */
static void test_nice_ratio(void **state)
{
    sim_init(1);
    struct task *n0 = spawn("nice0", 0, 0, 0);
    struct task *n10 = spawn("nice10", 10, 0, 0);
    sim_reschedule_pending();
    sim_run(100 * 9 * TICKS_PER_24_TICK);                 /* 100 epochs of 60 + 30 ms */
    assert_int_equal(sim_runtime_ns(n0), 6000 * SIM_TICK_NS);
    assert_int_equal(sim_runtime_ns(n10), 3000 * SIM_TICK_NS);
}

/* fork halves the counter (child rounds up), exit gives it back (capped at 20). */
static void test_fork_and_exit(void **state)
{
    sim_init(1);
    struct task *parent = spawn("parent", 0, 0, 0);       /* counter 6 */
    sim_reschedule_pending();
    struct task *child = sim_spawn("child", 0, 0, parent, 0);
    assert_int_equal(mq_test_counter(child), 3);
    assert_int_equal(mq_test_counter(parent), 3);
    struct task *child2 = sim_spawn("child2", 0, 0, parent, 0);
    assert_int_equal(mq_test_counter(child2), 2);
    assert_int_equal(mq_test_counter(parent), 1);
    struct task *child3 = sim_spawn("child3", 0, 0, parent, 0);
    assert_int_equal(mq_test_counter(child3), 1);
    assert_int_equal(mq_test_counter(parent), 0);
    assert_true(sim_need_resched(0));                     /* the parent ran out */
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), child);                 /* 3 + 20: the best */
    sim_exit_task(0);                                     /* child gives back its 3 */
    assert_int_equal(mq_test_counter(parent), 3);
    mq_test_set_counter(parent, 19);
    assert_ptr_equal(sim_curr(0), parent);                /* 3 > 2 > 1 when picked */
    sim_spawn("child4", 0, 0, parent, 0);                 /* parent 19 -> 9, child4 10 */
    assert_int_equal(mq_test_counter(parent), 9);
    mq_test_set_counter(child2, 15);
    sim_block(0);                                         /* parent sleeps */
    struct task *running = sim_curr(0);
    mq_test_set_counter(running, 15);
    sim_exit_task(0);                                     /* 9 + 15 capped at MAX_COUNTER 20 */
    assert_int_equal(mq_test_counter(parent), 20);
}

/* sched_yield: goodness -1 for one decision, and to the tail. */
static void test_yield(void **state)
{
    sim_init(1);
    struct task *a = spawn("a", 0, 0, 0);
    struct task *b = spawn("b", 10, 0, 0);
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), a);
    sim_yield(0);                                         /* a: -1 this once; b (13) runs */
    assert_ptr_equal(sim_curr(0), b);
    assert_int_equal(mq_test_na_goodness(a), 26);         /* the yield lasted one decision */
    sim_yield(0);                                         /* b yields to a */
    assert_ptr_equal(sim_curr(0), a);
    /* Alone, a yield changes nothing. */
    sim_init(1);
    a = spawn("a", 0, 0, 0);
    sim_reschedule_pending();
    sim_yield(0);
    assert_ptr_equal(sim_curr(0), a);
    assert_int_equal(mq_test_na_goodness(a), 26);
}

/* Nice changes republish a waiting task's goodness. */
static void test_nice_republishes(void **state)
{
    sim_init(2);
    spawn("x", -10, CPU_BIT(0), 0);
    sim_reschedule_pending();
    struct task *p = spawn("p", 0, CPU_BIT(0), 0);
    struct task *q = spawn("q", 5, CPU_BIT(0), 0);
    assert_published(0, p, 26);
    sim_set_nice(p, 10);                                  /* 6 + 10 = 16 < q's 19 */
    assert_published(0, q, 19);
    sim_set_nice(p, -5);                                  /* 6 + 25 = 31 */
    assert_published(0, p, 31);
}

/* Random sleeps, wake-ups and affinity changes on 4 CPUs: no task ever runs
 * outside its cpus_allowed, and the queue counts add up. */
static void test_affinity_never_violated(void **state)
{
    sim_init(4);
    struct task *t[16];
    cpumask_t masks[16];
    for (int i = 0; i < 16; i++) {
        masks[i] = i < 8 ? CPU_BIT(i % 4) | (i % 3 == 0 ? CPU_BIT((i + 1) % 4) : 0) : 0;
        t[i] = spawn("t", (i % 5) * 4 - 8, masks[i], i % 4);
        if (!masks[i])
            masks[i] = ALL4;
    }
    unsigned seed = 12345;
    for (int step = 0; step < 6000; step++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 16) % 100;
        int cpu = (seed >> 8) % 4;
        if (r < 5 && !sim_curr(cpu)->is_idle) {
            sim_block(cpu);
        } else if (r < 12) {
            struct task *p = t[(seed >> 4) % 16];
            if (p->state == TASK_SLEEPING)
                sim_wake(p, cpu, (seed & 1) ? WAKE_SYNC : 0);
        } else if (r < 14) {
            int i = (seed >> 4) % 8;
            masks[i] = CPU_BIT((seed >> 20) % 4) | CPU_BIT((seed >> 24) % 4);
            sim_set_affinity(t[i], masks[i]);
        } else if (r < 15) {
            sim_yield(cpu);
        }
        sim_tick();
        int queued = 0, runnable = 0;
        for (int c = 0; c < 4; c++)
            queued += sched_nr_queued(c);
        for (int i = 0; i < 16; i++) {
            if (t[i]->on_rq)
                runnable++;
            if (t[i]->on_cpu)
                assert_true(t[i]->cpus_allowed & CPU_BIT(t[i]->cpu));
        }
        assert_int_equal(queued, runnable);
    }
    for (int i = 0; i < 16; i++)
        if (t[i]->state == TASK_SLEEPING)
            sim_wake(t[i], 0, 0);
    sim_run(500);
    for (int i = 0; i < 8; i++)
        assert_true(t[i]->nr_switches_in > 0);
}

/* 8 CPU-bound tasks forked on cpu 0 of 4: every CPU stays busy, stealing
 * spreads them, and the global goodness decisions share the CPUs fairly. */
static void test_tasks_spread(void **state)
{
    sim_init(4);
    struct task *t[8];
    for (int i = 0; i < 8; i++)
        t[i] = spawn("hog", 0, 0, 0);
    sim_reschedule_pending();
    for (int cpu = 0; cpu < 4; cpu++)
        assert_false(sim_curr(cpu)->is_idle);
    int ticks = 100 * 9 * TICKS_PER_24_TICK;
    sim_run(ticks);
    uint64_t total = 0, lo = ~0ull, hi = 0;
    cpumask_t cpus = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t rt = sim_runtime_ns(t[i]);
        total += rt;
        lo = rt < lo ? rt : lo;
        hi = rt > hi ? rt : hi;
        cpus |= t[i]->cpus_run_mask;
    }
    /* No CPU idled: 4 CPUs x ticks of CPU time were handed out. */
    assert_int_equal(total, 4ull * ticks * SIM_TICK_NS);
    assert_int_equal(cpus, ALL4);
    /* Every 2.4 epoch gives each task its 6 ticks wherever it runs: 8 x 60 ms
     * over 4 CPUs is 120 ms per epoch, 75 epochs, 4500 ms each.  The CPUs
     * tick one after the other (as the core does it, each then reschedules),
     * and a recalculation that one CPU starts also refills the counter of a
     * task running elsewhere that had a tick left: measured 4400 and 4600 ms.
     * Allow two 60 ms slices either way. */
    uint64_t fair = (uint64_t)ticks / 2 * SIM_TICK_NS, slice = 60 * SIM_TICK_NS;
    assert_true(lo >= fair - 2 * slice);
    assert_true(hi <= fair + 2 * slice);
    for (int cpu = 0; cpu < 4; cpu++)
        assert_true(sched_nr_queued(cpu) >= 1);
}

/*
 * The patch's kernel/timer.c hunk: on every 2.4 tick the running task's
 * published curr_na_goodness follows its counter.  h (nice 0) runs on cpu 0:
 * 26 at the start, then 25, 24, ... 21 after five 2.4 ticks.  That is what
 * wake-up placement reads: w (nice -10, na 38, home cpu 1, which runs o,
 * nice -19: 49, now 44) finds cpu 0 at 21 + 15 = 36 < 38 and preempts h
 * there (38 against 21 + 15 + 1).  With the values left at 26 and 49, as the
 * model had them until 2026-12, cpu 0 scored 41 and w waited at home.
 */
static void test_running_goodness_follows_counter(void **state)
{
    sim_init(2);
    struct task *h = spawn("h", 0, CPU_BIT(0), 0);
    struct task *o = spawn("o", -19, CPU_BIT(1), 1);
    sim_reschedule_pending();
    assert_int_equal(mq_test_curr_na_goodness(0), 26);
    assert_int_equal(mq_test_curr_na_goodness(1), 49);
    for (int t = 1; t <= 5; t++) {
        sim_run(TICKS_PER_24_TICK);
        assert_int_equal(mq_test_counter(h), 6 - t);
        assert_int_equal(mq_test_curr_na_goodness(0), 26 - t);
        assert_int_equal(mq_test_curr_na_goodness(1), 49 - t);
    }
    struct task *w = sim_spawn("w", -10, 0x3, NULL, 1);
    assert_int_equal(w->cpu, 0);
    assert_true(sim_need_resched(0));
    sim_reschedule_pending();
    assert_ptr_equal(sim_curr(0), w);
    assert_ptr_equal(sim_curr(1), o);
}

/*
 * The still-running prev is evaluated first with the full goodness, and
 * examine_rmt_rqs adds PROC_CHANGE_PENALTY on top: x (nice 0) counts
 * 26 + 15 + 1 + 15 = 57 against a remote published task, where a waiting
 * local task would count 26 + 15 = 41.  r (nice -19, na 49) on cpu 1 is
 * therefore not stolen by cpu 0 while x runs; once x sleeps, cpu 0 has no
 * local candidate and takes it.  (The model scanned prev like any waiting
 * task until 2026-12: r ran on cpu 1 at once, 49 > 38 + 1, and x's 27 + 15
 * = 42 would not have protected it from a steal either.)
 */
static void test_prev_evaluated_first(void **state)
{
    sim_init(2);
    struct task *x = spawn("x", 0, CPU_BIT(0), 0);
    spawn("y", -10, CPU_BIT(1), 1);
    sim_reschedule_pending();
    /* r (na 49) makes cpu 1 reschedule (49 + 15 > 38 + 15 + 1), but there
     * the still-running y counts 38 + 16 = 54 against r's local 49: y stays. */
    struct task *r = spawn("r", -19, CPU_BIT(1), 1);
    sim_set_affinity(r, 0x3);
    assert_int_equal(r->cpu, 1);
    assert_published(1, r, 49);
    sim_schedule(0);
    assert_ptr_equal(sim_curr(0), x);
    assert_int_equal(r->cpu, 1);
    sim_block(0);
    assert_ptr_equal(sim_curr(0), r);
    assert_int_equal(r->cpu, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_published_maxima_track_queue, defaults),
        cmocka_unit_test_setup(test_steal_best_published, defaults),
        cmocka_unit_test_setup(test_steal_needs_penalty_margin, defaults),
        cmocka_unit_test_setup(test_running_goodness_follows_counter, defaults),
        cmocka_unit_test_setup(test_prev_evaluated_first, defaults),
        cmocka_unit_test_setup(test_failed_trylock, defaults),
        cmocka_unit_test_setup(test_rt_queue_first, defaults),
        cmocka_unit_test_setup(test_wakeup_home_idle, defaults),
        cmocka_unit_test_setup(test_wakeup_longest_idle, defaults),
        cmocka_unit_test_setup(test_wakeup_preempt_lowest, defaults),
        cmocka_unit_test_setup(test_wakeup_stays_home, defaults),
        cmocka_unit_test_setup(test_recalculation, defaults),
        cmocka_unit_test_setup(test_yield_and_recalculation, defaults),
        cmocka_unit_test_setup(test_nice_ratio, defaults),
        cmocka_unit_test_setup(test_fork_and_exit, defaults),
        cmocka_unit_test_setup(test_yield, defaults),
        cmocka_unit_test_setup(test_nice_republishes, defaults),
        cmocka_unit_test_setup(test_affinity_never_violated, defaults),
        cmocka_unit_test_setup(test_tasks_spread, defaults),
    };
    return cmocka_run_group_tests_name("sched_mq", tests, NULL, NULL);
}
