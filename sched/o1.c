/*
 * sched/o1.c - SCHED=o1: the Linux 2.6.0 O(1) scheduler.
 *
 * A model of Ingo Molnar's O(1) scheduler (2002) with Con Kolivas's
 * interactivity tuning (2003) as released in Linux 2.6.0: kernel/sched.c,
 * plus the scheduler parts of kernel/fork.c (copy_process, do_fork) and
 * kernel/exit.c (sched_exit).  Constants and names are Linux's; the code is
 * written for this kernel's scheduler interface (sched/sched.h).
 *
 * Run queues and arrays
 *   Every CPU has its own runqueue with its own lock.  A runqueue holds two
 *   prio_arrays, "active" and "expired": 140 FIFO lists, one per priority
 *   (0..99 real-time, 100..139 normal; lower is better), a bitmap with one bit
 *   per non-empty list plus an always-set sentinel bit 140, and a count.
 *   pick_next takes the head of the first non-empty list of the active array:
 *   sched_find_first_bit tests five 32-bit words (the real-time words marked
 *   unlikely, as i386 did) and applies a count-trailing-zeros instruction, so
 *   the cost does not depend on how many tasks are runnable.  A task whose
 *   timeslice runs out moves to the expired array with a fresh slice; when
 *   the active array is empty the two arrays swap (two pointer writes), which
 *   replaces Linux 2.4's walk over every task to recalculate counters.
 *
 * Timeslices and dynamic priority
 *   The timeslice depends only on the static priority (120 + nice):
 *   10 + 190 * (139 - static_prio) / 39 ms, i.e. 200 ms at nice -20, 102 ms at
 *   nice 0, 10 ms at nice 19 (task_timeslice).  The dynamic priority is
 *   static_prio - (bonus - 5), where the bonus 0..10 is sleep_avg in units of
 *   MAX_SLEEP_AVG / 10 (CURRENT_BONUS): sleeping raises sleep_avg
 *   (recalc_task_prio, on every wake-up), running lowers it (charged in
 *   pick_next, 2.6.0's schedule()).  A task whose priority is at least
 *   DELTA(nice) better than its static priority is TASK_INTERACTIVE: when its
 *   slice runs out it goes back on the active array, unless the expired
 *   array has waited longer than STARVATION_LIMIT per runnable task
 *   (EXPIRED_STARVING).  Interactive tasks of equal priority round-robin every
 *   TIMESLICE_GRANULARITY.  A wake-up from an interrupt (ENQUEUE_IRQ, timer
 *   sleeps here) counts the time spent waiting on the runqueue as sleep
 *   (activated = 2); other wake-ups count 30% of it (activated = 1,
 *   ON_RUNQUEUE_WEIGHT).  interactive_credit tracks how often a task reached
 *   the sleep_avg cap (HIGH_CREDIT) or ran it down to zero (LOW_CREDIT).
 *
 * Fork and exit
 *   A child gets half of the parent's remaining slice rounded up, the parent
 *   keeps the other half (a parent left with 0 gets 1 tick and an immediate
 *   tick); sleep_avg is rounded down to whole bonus units (PARENT_PENALTY 100)
 *   for the parent and to 95% of them (CHILD_PENALTY) for the child.  The
 *   child is queued on the parent's CPU with the parent's priority, just in
 *   front of the parent, and the parent is asked to reschedule, so the child
 *   runs first.  A child that exits still in its first slice gives the rest
 *   back to the parent (capped at MAX_TIMESLICE), and a child that slept less
 *   than its parent pulls the parent's sleep_avg down (EXIT_WEIGHT).
 *
 * Wake-up placement and load balancing
 *   try_to_wake_up has no idle-CPU search and no wake-affine logic: a task
 *   wakes on the CPU it last ran on, except that a sync wake-up (the waker is
 *   about to sleep: pipes) from another CPU that the task may use pulls it to
 *   the waker's CPU; a sync wake-up on the waker's own CPU only queues the
 *   task (no priority recalculation, no preemption).  Otherwise the woken
 *   task preempts the running one if its priority is better.  A CPU pulls
 *   work from the busiest runqueue: every tick while idle, every 200 ms while
 *   busy, and from pick_next when its runqueue is empty.  The busiest queue
 *   is chosen from runqueue lengths damped by the previous sample
 *   (prev_cpu_load), a busy CPU acts only on an imbalance of 25% or more and
 *   then moves half of it; tasks are taken from the busiest CPU's expired
 *   array first, highest priority first, from the tail of each list, and
 *   never if they are running, not allowed on this CPU, or (for a busy CPU)
 *   cache hot: switched within the last cache_decay_ticks.
 *
 * Real-time tasks
 *   SCHED_FIFO and SCHED_RR have prio = 99 - rt_priority, above every normal
 *   task, and no dynamic priority.  FIFO runs until it blocks or yields; RR
 *   gets task_timeslice(static_prio) and goes to the tail of its list when
 *   the slice ends.  SCHED_BATCH did not exist in 2.6.0 and is treated as
 *   SCHED_NORMAL.
 *
 * Time units
 *   Times are nanoseconds from sched_clock_ns() (2.6.0: sched_clock(), also
 *   ns); tick counts are jiffies at this kernel's HZ.  The constants are
 *   written as in 2.6.0, in jiffies derived from milliseconds
 *   (MIN_TIMESLICE = 10 * HZ / 1000 ...), so at the default HZ = 1000 (2.6.0
 *   i386's HZ) one tick is one millisecond and every figure above holds.
 *
 * Deviations (see docs/sched-o1.md)
 *   - Every sleep in this kernel is interruptible, so the
 *     TASK_UNINTERRUPTIBLE rules (activated = -1) never apply, and every task
 *     counts as a user task (p->mm != NULL in 2.6.0).
 *   - sched_exit runs when the child exits (task_exit hook), not when the
 *     parent reaps it.
 *   - A child created with a different nice level or policy than its parent
 *     (this kernel's task_create takes them as attributes) is queued at its
 *     own priority at the tail of its list; 2.6.0 children always inherit the
 *     parent's and go in front of it.
 *   - An affinity change is carried out by the core (it dequeues the task and
 *     wakes it on the first allowed CPU, like 2.6.0's migration thread with
 *     any_online_cpu()); there is no migration thread.
 *   - A sleep multiplied by the bonus factor is 64-bit (i386's 32-bit
 *     unsigned long could wrap in recalc_task_prio for sleeps of 430..815
 *     ms), and a clock that reads earlier on this CPU than a timestamp taken
 *     on another CPU counts as no time rather than wrapping.  sleep_avg and
 *     the capped sleep and run times are 32 bits, as 2.6.0's unsigned long.
 *   - max_sleep_avg below AVG_TIMESLICE is refused: the long sleeper's
 *     sleep_avg, MAX_SLEEP_AVG - AVG_TIMESLICE, would be negative.
 *   - The busy rebalance runs on the first tick of each 200 ms window of
 *     jiffies (2.6.0: jiffies % 200 == 0), so a CPU whose tick drifts past
 *     that exact jiffy under QEMU still balances.
 *   - cache_decay_ticks is 2.6.0's smp_tune_scheduling formula (2 ms for a
 *     512 KiB L2, 3 ms for 1 MiB), but from a stated cache size and clock
 *     (sched.cachesize, sched.bandwidth; a nominal 2 GHz) instead of the
 *     CPU's: QEMU's virtual CPU reports nothing about the modelled machine.
 *     (Until 2026-12 it was a fixed 10 ms, so a busy CPU's 200 ms balance
 *     refused about 5x more tasks as cache hot than 2.6.0.)
 *   - Tunables in milliseconds become jiffies as 2.6.0 wrote them (10 * HZ /
 *     1000) but never 0 ticks, which only matters below HZ = 100.
 *
 * Tunables (sched.<name>=<value> at boot, kernel/sched_tunables.c; Linux's
 * names in lower case; the table is o1_tunables at the end of this file)
 *   min_timeslice 10 ms, max_timeslice 200 ms, child_penalty 95 %,
 *   parent_penalty 100 %, exit_weight 3, prio_bonus_ratio 25 %,
 *   interactive_delta 2, max_sleep_avg auto (AVG_TIMESLICE x MAX_BONUS =
 *   1020 ms; at least AVG_TIMESLICE), starvation_limit auto (=
 *   max_sleep_avg; 0 = off), on_runqueue_weight 30 %, credit_limit 100,
 *   timeslice_granularity 1, idle_rebalance_tick 1 ms, busy_rebalance_tick
 *   200 ms, cachesize 512 KiB, bandwidth 350 MB/s, cache_decay_ticks auto
 *   (smp_tune_scheduling, 2 ms).  The jiffy values are derived once, in o1_init().
 *
 * Preset rml-2.4 (sched.preset=rml-2.4): the 2.5 scheduler as Robert Love
 * backported it to 2.4 (sched-O1-rml, in 2.4.19-pre7-ac2 and -jam6, the
 * kernels of seed 003), with the constants of the backport's kernel/sched.c
 * (a 2.4.18 tree carrying it: oct-month/linux-kernel-2.4.18): min_timeslice
 * 10, max_timeslice 300, max_sleep_avg and starvation_limit 2000 (2*HZ),
 * busy_rebalance_tick 250 (HZ/4), idle_rebalance_tick 10 (one tick at 2.4's
 * HZ = 100), no timeslice_granularity.  Not expressible as numbers, and so
 * not modelled (docs/sched-o1.md): its sleep_avg is counted in jiffies, +1
 * per jiffy asleep at wake-up and -1 per tick run, with no interactive_credit,
 * no sleep multiplier, no JUST_INTERACTIVE_SLEEP and no on-runqueue credit;
 * a child is queued at the tail, not in front of its parent; its
 * cache-hot test (jiffies - sleep_timestamp > cache_decay_ticks) also holds
 * for idle CPUs.
 */
#include "sched.h"

#define O1_COMMON_PRIO
#include "o1_common.h"       /* priorities and time (shared with sched/nick.c) */

/* ---- the tuning knobs ---- */

/*
 * The tunables, set at boot as sched.<name>=<value> (kernel/sched_tunables.c,
 * table at the end of this file).  2.6.0 wrote its knobs as milliseconds
 * converted to jiffies (MIN_TIMESLICE = 10 * HZ / 1000), so the tunables are
 * milliseconds too and the jiffy values below are derived from them once, in
 * o1_init(), before any task exists: nothing is computed from an old value.
 */
static struct {
    uint32_t min_timeslice;           /* ms, MIN_TIMESLICE */
    uint32_t max_timeslice;           /* ms, MAX_TIMESLICE */
    uint32_t child_penalty;           /* %, CHILD_PENALTY */
    uint32_t parent_penalty;          /* %, PARENT_PENALTY */
    uint32_t exit_weight;             /* EXIT_WEIGHT */
    uint32_t prio_bonus_ratio;        /* %, PRIO_BONUS_RATIO */
    uint32_t interactive_delta;       /* INTERACTIVE_DELTA */
    uint32_t max_sleep_avg;           /* ms; AUTO: AVG_TIMESLICE * MAX_BONUS */
    uint32_t starvation_limit;        /* ms; AUTO: MAX_SLEEP_AVG; 0 = off */
    uint32_t on_runqueue_weight;      /* %, ON_RUNQUEUE_WEIGHT */
    uint32_t credit_limit;            /* CREDIT_LIMIT */
    uint32_t timeslice_granularity;   /* bool: TIMESLICE_GRANULARITY round robin of interactive tasks */
    uint32_t idle_rebalance_tick;     /* ms, IDLE_REBALANCE_TICK (HZ/1000) */
    uint32_t busy_rebalance_tick;     /* ms, BUSY_REBALANCE_TICK (HZ/5) */
    uint32_t cachesize;               /* KiB, boot_cpu_data.x86_cache_size in smp_tune_scheduling */
    uint32_t bandwidth;               /* MB/s, smp_tune_scheduling's memory bandwidth */
    uint32_t cache_decay_ticks;       /* ms; AUTO: from cachesize and bandwidth */
} tun = {
    .min_timeslice = 10,
    .max_timeslice = 200,
    .child_penalty = 95,
    .parent_penalty = 100,
    .exit_weight = 3,
    .prio_bonus_ratio = 25,
    .interactive_delta = 2,
    .max_sleep_avg = SCHED_TUNABLE_UNSET,
    .starvation_limit = SCHED_TUNABLE_UNSET,
    .on_runqueue_weight = 30,
    .credit_limit = 100,
    .timeslice_granularity = 1,
    .idle_rebalance_tick = 1,
    .busy_rebalance_tick = 200,
    .cachesize = 512,
    .bandwidth = 350,
    .cache_decay_ticks = SCHED_TUNABLE_UNSET,
};

/*
 * The CPU clock in smp_tune_scheduling's formula.  It cancels out (the
 * cycles to flush the cache, divided by cycles per millisecond) except for
 * truncation, so a stated 2 GHz gives 2.6.0's figures on any host:
 * 512 KiB -> 2 ms, 1024 KiB -> 3 ms.  The emulated TSC rate would say
 * nothing about the modelled machine.
 */
#define CPU_KHZ 2000000u

/* Derived in o1_init() from the tunables above: jiffies, as 2.6.0 had them. */
static struct {
    int min_timeslice, max_timeslice, avg_timeslice;
    int max_bonus;
    int max_sleep_avg;            /* jiffies */
    uint32_t ns_max_sleep_avg;    /* < 2^32 within the tunable's range (checked in derive_constants) */
    uint32_t sleep_avg_reset;     /* JIFFIES_TO_NS(MAX_SLEEP_AVG - AVG_TIMESLICE): a long sleeper's sleep_avg */
    int starvation_limit;         /* jiffies, 0 = off */
    int idle_rebalance_tick, busy_rebalance_tick;
    uint64_t cache_decay_ns;
    int credit_limit;             /* CREDIT_LIMIT */
    uint32_t on_runqueue_weight_128;   /* ON_RUNQUEUE_WEIGHT * 128 / 100, as 2.6.0 computes it */
    /* JUST_INTERACTIVE_SLEEP(p) in ns for each static_prio - MAX_RT_PRIO (it
     * depends on the nice level only): recalc_task_prio runs on every
     * wake-up, and computed there it cost about 45 instructions each.  Only
     * ever compared with a sleep time of at most NS_MAX_SLEEP_AVG, so it is
     * stored capped there, in 32 bits (derive_constants). */
    uint32_t just_interactive_ns[MAX_PRIO - MAX_RT_PRIO];
} k;

#define MIN_TIMESLICE (k.min_timeslice)
#define MAX_TIMESLICE (k.max_timeslice)
#define AVG_TIMESLICE (k.avg_timeslice)
#define MAX_BONUS (k.max_bonus)
#define MAX_SLEEP_AVG (k.max_sleep_avg)
#define NS_MAX_SLEEP_AVG (k.ns_max_sleep_avg)
#define STARVATION_LIMIT (k.starvation_limit)
#define CHILD_PENALTY ((int)tun.child_penalty)
#define PARENT_PENALTY ((int)tun.parent_penalty)
#define EXIT_WEIGHT ((int64_t)tun.exit_weight)
#define INTERACTIVE_DELTA ((int)tun.interactive_delta)
#define CREDIT_LIMIT (k.credit_limit)
#define IDLE_REBALANCE_TICK (k.idle_rebalance_tick)
#define BUSY_REBALANCE_TICK (k.busy_rebalance_tick)

/* ms as 2.6.0 converted them (10 * HZ / 1000), but never 0 ticks. */
static int ms_to_jiffies(uint32_t ms)
{
    uint64_t j = (uint64_t)ms * HZ / 1000;
    return j ? (int)j : 1;
}

/*
 * cache_decay_ticks as 2.6.0 i386 computes it at boot (smp_tune_scheduling,
 * arch/i386/kernel/smpboot.c): the cycles a memory-bound task needs to flush
 * the cache, cacheflush_time = (cpu_khz >> 10) * (cachesize << 10) /
 * bandwidth, then cache_decay_ticks = cacheflush_time / cpu_khz + 1, which
 * 2.6.0 prints as "task migration cache decay timeout: %ld msecs" (ticks at
 * its HZ = 1000).  Within the tunable's range (cachesize <= 2048 KiB) the
 * product fits i386's 32-bit unsigned long, so 64 bits give the same result.
 */
static uint32_t smp_tune_scheduling(uint32_t cache_kib, uint32_t bw)
{
    uint64_t cacheflush_time = (uint64_t)(CPU_KHZ >> 10) * ((uint64_t)cache_kib << 10) / bw;
    return (uint32_t)(cacheflush_time / CPU_KHZ + 1);
}

/* ---- per-task state ---- */

struct prio_array;

struct o1_task {
    struct list_head run_list;    /* in array->queue[prio] */
    struct prio_array *array;     /* NULL while not queued */
    uint64_t timestamp;           /* ns: last switch in/out or activation */
    uint32_t sleep_avg;           /* ns, 0..NS_MAX_SLEEP_AVG; 2.6.0: unsigned long, 32 bits on i386 */
    int interactive_credit;       /* 2.6.0: long, 32 bits on i386 */
    int prio;                     /* dynamic priority 0..139 */
    int static_prio;              /* 120 + nice */
    int activated;                /* 0, 1 (woken by a task), 2 (woken by an interrupt) */
    int time_slice;               /* ticks left */
    int first_time_slice;         /* still in the slice it got at fork */
    int waker_cpu;                /* CPU that woke it last (set in select_cpu) */
};

/* The helpers of the wake-up and switch paths: inline in every build, so
 * that the instrumented one (CACHES=1) inlines what the plain one does
 * (GCC's own choice differed between them: docs/caches.md). */
#define O1_HOT static inline __attribute__((always_inline))

static struct o1_task *o1(struct task *p) { return SCHED_TASK(p, struct o1_task); }
static struct task *task_of(struct list_head *node) { return sched_task_of(node, offsetof(struct o1_task, run_list)); }

#define L26_TASK o1_task
#define L26(p) o1(p)
#define L26_NAME "o1"
#define O1_COMMON_ARRAYS
#include "o1_common.h"       /* runqueues, prio_arrays, bitmaps (shared with sched/nick.c) */

/* ---- priorities and interactivity ---- */

/* 2.6.0 BASE_TIMESLICE: the slice of a static priority, in jiffies, between
 * the shortest and the longest slice (the tunables' check and
 * derive_constants use it before MIN_TIMESLICE and MAX_TIMESLICE are set). */
static int slice_of(int min_timeslice, int max_timeslice, int static_prio)
{
    return min_timeslice + (max_timeslice - min_timeslice) * (MAX_PRIO - 1 - static_prio) / (MAX_USER_PRIO - 1);
}

static int task_timeslice(const struct o1_task *t) { return slice_of(MIN_TIMESLICE, MAX_TIMESLICE, t->static_prio); }

/* CURRENT_BONUS as 2.6.0 computes it: sleep_avg stays within
 * 0..NS_MAX_SLEEP_AVG (< 2^32), so 32-bit arithmetic is exact. */
static int bonus_formula(uint32_t sleep_avg)
{
    uint32_t jiffies = sleep_avg / (uint32_t)NSEC_PER_JIFFY;
    return (int)(jiffies * (uint32_t)MAX_BONUS / (uint32_t)MAX_SLEEP_AVG);
}

/*
 * The wake-up and switch paths compute a bonus two to four times a pipe
 * round trip and a dynamic priority twice, so both are tables filled at
 * boot from 2.6.0's formulas (derive_constants): the bonus of every whole
 * jiffy of sleep_avg (NS_TO_JIFFIES is the first step of CURRENT_BONUS,
 * and MAX_SLEEP_AVG is at most max_sleep_avg's 4000 ms), and
 * effective_prio()'s clamped static_prio - (bonus - MAX_BONUS / 2) for
 * every bonus (MAX_BONUS is at most 40 * 50 / 100, prio_bonus_ratio's top)
 * and nice level.
 */
#define MAX_SLEEP_AVG_JIFFIES (4000 * HZ / 1000)
#define MAX_MAX_BONUS (MAX_USER_PRIO * 50 / 100)
static uint8_t bonus_of_jiffies[MAX_SLEEP_AVG_JIFFIES + 1];
static uint8_t prio_of_bonus[MAX_MAX_BONUS + 1][MAX_USER_PRIO];

O1_HOT int bonus_of(uint32_t sleep_avg) { return bonus_of_jiffies[sleep_avg / (uint32_t)NSEC_PER_JIFFY]; }

O1_HOT int current_bonus(const struct o1_task *t) { return bonus_of(t->sleep_avg); }

/* DELTA(p): C division truncates toward zero, as in 2.6.0's SCALE(). */
O1_HOT int interactive_delta(const struct o1_task *t)
{
    return TASK_NICE(t) * MAX_BONUS / 40 + INTERACTIVE_DELTA;
}

O1_HOT bool task_interactive(const struct o1_task *t)
{
    return t->prio <= t->static_prio - interactive_delta(t);
}

/* 2.6.0's JUST_INTERACTIVE_SLEEP for a task of this static_prio (derive_constants tabulates it). */
static uint64_t just_interactive_sleep_of(int static_prio)
{
    int delta = PRIO_TO_NICE(static_prio) * MAX_BONUS / 40 + INTERACTIVE_DELTA;   /* interactive_delta() */
    return JIFFIES_TO_NS(MAX_SLEEP_AVG * (MAX_BONUS / 2 + delta + 1) / MAX_BONUS - 1);
}

O1_HOT bool high_credit(const struct o1_task *t) { return t->interactive_credit > CREDIT_LIMIT; }
O1_HOT bool low_credit(const struct o1_task *t) { return t->interactive_credit < -CREDIT_LIMIT; }

static int timeslice_granularity(const struct o1_task *t)
{
    int shift = MAX_BONUS - current_bonus(t);
    if (shift == 0)
        shift = 1;
    return MIN_TIMESLICE * (1 << (shift - 1)) * sched_nr_cpus();
}

/* 2.6.0 effective_prio() of a normal task of this static_prio and bonus (derive_constants tabulates it). */
static int effective_prio_formula(int static_prio, int bonus)
{
    int prio = static_prio - (bonus - MAX_BONUS / 2);
    if (prio < MAX_RT_PRIO)
        prio = MAX_RT_PRIO;
    if (prio > MAX_PRIO - 1)
        prio = MAX_PRIO - 1;
    return prio;
}

O1_HOT int effective_prio(const struct o1_task *t)
{
    if (rt_prio(t->prio))
        return t->prio;
    return prio_of_bonus[current_bonus(t)][t->static_prio - MAX_RT_PRIO];
}

/* now - then, or 0 if another CPU's clock was ahead of ours. */
static uint64_t ns_since(uint64_t now, uint64_t then) { return now > then ? now - then : 0; }

/* ns_since() capped at NS_MAX_SLEEP_AVG: what a sleep or a run counts for
 * (2.6.0 caps both so, and they then fit its 32-bit unsigned long). */
O1_HOT uint32_t capped_ns_since(uint64_t now, uint64_t then)
{
    /* Clock readings are below 2^63 ns, so the difference's sign says
     * which is later; its high word is 0 for any gap under 4.3 s. */
    uint64_t d = now - then;
    uint32_t high = (uint32_t)(d >> 32), low = (uint32_t)d;
    if (unlikely(high))
        return (int32_t)high < 0 ? 0 : NS_MAX_SLEEP_AVG;
    return low > NS_MAX_SLEEP_AVG ? NS_MAX_SLEEP_AVG : low;
}

/* recalc_task_prio()'s sleep_avg for a sleep while at the cap: a long sleeper's reset or the cap. */
O1_HOT void sleep_avg_to(struct o1_task *t, uint32_t sleep_avg)
{
    t->sleep_avg = sleep_avg;
    if (!high_credit(t))
        t->interactive_credit++;
}

/* What a sleep of sleep_time earns: the lower the sleep_avg, the more. */
O1_HOT uint64_t sleep_earned(const struct o1_task *t, uint32_t sleep_time)
{
    uint32_t factor = (uint32_t)(MAX_BONUS - current_bonus(t));   /* >= 0: sleep_avg <= NS_MAX_SLEEP_AVG */
    return (uint64_t)sleep_time * (factor ? factor : 1);          /* one 32x32->64 multiply */
}

/* sleep_avg += earned, at most NS_MAX_SLEEP_AVG (where the credit rises). */
O1_HOT void sleep_avg_add(struct o1_task *t, uint64_t earned)
{
    /* sleep_avg + earned > NS_MAX_SLEEP_AVG, without a 64-bit sum. */
    if ((uint32_t)(earned >> 32) || (uint32_t)earned > NS_MAX_SLEEP_AVG - t->sleep_avg)
        sleep_avg_to(t, NS_MAX_SLEEP_AVG);
    else
        t->sleep_avg += (uint32_t)earned;
}

/*
 * The two rarer cases of recalc_task_prio()'s sleep: a long sleeper becomes
 * just interactive, not maximally so: it must not turn into a CPU hog with a
 * huge bonus (2.6.0 also requires a user task that is not waking from an
 * uninterruptible sleep: here every task is one and no sleep is
 * uninterruptible); and a low-credit task earns at most one timeslice of
 * sleep.
 */
static __attribute__((noinline)) void recalc_sleep_rare(struct o1_task *t, uint32_t sleep_time)
{
    if (sleep_time > k.just_interactive_ns[t->static_prio - MAX_RT_PRIO]) {
        sleep_avg_to(t, k.sleep_avg_reset);
        return;
    }
    uint64_t earned = sleep_earned(t, sleep_time);
    if (low_credit(t) && earned > JIFFIES_TO_NS(task_timeslice(t)))
        earned = JIFFIES_TO_NS(task_timeslice(t));
    /* sleep_avg_add's test in its 64-bit form: the same result, and the
     * instructions this path had (under vsmp its length is time). */
    if (earned > NS_MAX_SLEEP_AVG - t->sleep_avg)
        sleep_avg_to(t, NS_MAX_SLEEP_AVG);
    else
        t->sleep_avg += (uint32_t)earned;
}

/*
 * 2.6.0 recalc_task_prio() for a task that slept sleep_time ns, already
 * capped at NS_MAX_SLEEP_AVG (its callers measure it from t->timestamp):
 * the sleep raises sleep_avg, the lower the sleep_avg the faster, then the
 * priority follows.
 */
O1_HOT void recalc_task_prio(struct o1_task *t, uint32_t sleep_time)
{
    if (likely(sleep_time > 0)) {
        if (unlikely(sleep_time > k.just_interactive_ns[t->static_prio - MAX_RT_PRIO] || low_credit(t))) {
            recalc_sleep_rare(t, sleep_time);
        } else {
            sleep_avg_add(t, sleep_earned(t, sleep_time));
        }
    }
    t->prio = effective_prio(t);
}

/* 2.6.0 resched_task(rq->curr) is our sched_resched_cpu(cpu); idle has prio MAX_PRIO. */
O1_HOT int curr_prio(int cpu)
{
    struct task *curr = sched_cpu_curr(cpu);
    return curr->is_idle ? MAX_PRIO : o1(curr)->prio;
}

O1_HOT void __activate_task(struct task *p, struct runqueue *rq) { enqueue_task(p, rq->active); }

O1_HOT void activate_task(struct task *p, struct runqueue *rq, bool from_interrupt)
{
    struct o1_task *t = o1(p);
    uint64_t now = sched_clock_ns();
    recalc_task_prio(t, capped_ns_since(now, t->timestamp));
    if (!t->activated)
        t->activated = from_interrupt ? 2 : 1;
    t->timestamp = now;
    __activate_task(p, rq);
}

O1_HOT void deactivate_task(struct task *p)
{
    struct o1_task *t = o1(p);
    if (!t->array)
        sched_bug("o1: dequeue of %s (pid %d), which is not queued", p->name, p->pid);
    dequeue_task(p, t->array);
}

/* ---- hooks ---- */

/* The jiffy values 2.6.0 had as constants, from the tunables (which no longer change). */
static void derive_constants(void)
{
    k.min_timeslice = ms_to_jiffies(tun.min_timeslice);
    k.max_timeslice = ms_to_jiffies(tun.max_timeslice);
    k.avg_timeslice = slice_of(MIN_TIMESLICE, MAX_TIMESLICE, NICE_TO_PRIO(0));
    k.max_bonus = MAX_USER_PRIO * (int)tun.prio_bonus_ratio / 100;
    /* 2.6.0: MAX_SLEEP_AVG = AVG_TIMESLICE * MAX_BONUS, STARVATION_LIMIT = MAX_SLEEP_AVG. */
    if (tun.max_sleep_avg == SCHED_TUNABLE_UNSET)
        tun.max_sleep_avg = (uint32_t)((uint64_t)(AVG_TIMESLICE * MAX_BONUS) * 1000 / HZ);
    k.max_sleep_avg = ms_to_jiffies(tun.max_sleep_avg);
    /* sleep_avg, sleep and run times are 32 bits, as 2.6.0's unsigned long
     * on i386: exact while the cap fits (the tunable's range keeps it
     * below, 4000 ms), and then a multiply or a division is one instruction. */
    if (JIFFIES_TO_NS(MAX_SLEEP_AVG) > UINT32_MAX)
        sched_bug("o1: max_sleep_avg %u ms does not fit recalc_task_prio's 32-bit sleep times", tun.max_sleep_avg);
    k.ns_max_sleep_avg = (uint32_t)JIFFIES_TO_NS(MAX_SLEEP_AVG);
    /* o1_check_tunables keeps MAX_SLEEP_AVG >= AVG_TIMESLICE: never negative. */
    k.sleep_avg_reset = (uint32_t)JIFFIES_TO_NS(MAX_SLEEP_AVG - AVG_TIMESLICE);
    if (tun.starvation_limit == SCHED_TUNABLE_UNSET)
        tun.starvation_limit = tun.max_sleep_avg;
    k.starvation_limit = tun.starvation_limit ? ms_to_jiffies(tun.starvation_limit) : 0;
    k.idle_rebalance_tick = ms_to_jiffies(tun.idle_rebalance_tick);
    k.busy_rebalance_tick = ms_to_jiffies(tun.busy_rebalance_tick);
    if (tun.cache_decay_ticks == SCHED_TUNABLE_UNSET)
        tun.cache_decay_ticks = smp_tune_scheduling(tun.cachesize, tun.bandwidth);
    k.cache_decay_ns = (uint64_t)tun.cache_decay_ticks * 1000000u;   /* ticks at 2.6.0's HZ = 1000: ms */
    k.credit_limit = tun.credit_limit;
    k.on_runqueue_weight_128 = tun.on_runqueue_weight * 128 / 100;
    /* A sleep time is at most NS_MAX_SLEEP_AVG, so "sleep_time >
     * JUST_INTERACTIVE_SLEEP" is the same test against the value capped
     * there: which fits 32 bits.  (A level below zero jiffies, possible at
     * extreme tunables, is a huge unsigned value that no sleep exceeds, as
     * in 2.6.0's unsigned comparison: it becomes the cap.) */
    for (int prio = MAX_RT_PRIO; prio < MAX_PRIO; prio++) {
        uint64_t ns = just_interactive_sleep_of(prio);
        k.just_interactive_ns[prio - MAX_RT_PRIO] = ns < NS_MAX_SLEEP_AVG ? (uint32_t)ns : NS_MAX_SLEEP_AVG;
    }
    /* The tables of bonus_of() and effective_prio(), from 2.6.0's formulas. */
    if (MAX_SLEEP_AVG > MAX_SLEEP_AVG_JIFFIES || MAX_BONUS > MAX_MAX_BONUS)
        sched_bug("o1: max_sleep_avg %d jiffies or MAX_BONUS %d beyond the tables", MAX_SLEEP_AVG, MAX_BONUS);
    for (int j = 0; j <= MAX_SLEEP_AVG; j++)
        bonus_of_jiffies[j] = (uint8_t)bonus_formula((uint32_t)JIFFIES_TO_NS(j));
    for (int bonus = 0; bonus <= MAX_BONUS; bonus++)
        for (int prio = MAX_RT_PRIO; prio < MAX_PRIO; prio++)
            prio_of_bonus[bonus][prio - MAX_RT_PRIO] = (uint8_t)effective_prio_formula(prio, bonus);
}

static const char *o1_check_tunables(const char **bad)
{
    if (tun.min_timeslice > tun.max_timeslice) {
        *bad = "min_timeslice";
        return "min_timeslice is above max_timeslice";
    }
    /* A long sleeper's sleep_avg is MAX_SLEEP_AVG - AVG_TIMESLICE
     * (recalc_task_prio); below zero it has no meaning (2.6.0's constants
     * never got there). */
    if (tun.max_sleep_avg != SCHED_TUNABLE_UNSET) {
        int avg = slice_of(ms_to_jiffies(tun.min_timeslice), ms_to_jiffies(tun.max_timeslice), NICE_TO_PRIO(0));
        if (ms_to_jiffies(tun.max_sleep_avg) < avg) {
            *bad = "max_sleep_avg";
            return "max_sleep_avg is below AVG_TIMESLICE (the nice 0 slice: 102 ms at the default slices)";
        }
    }
    return NULL;
}

static void o1_init(int ncpus)
{
    (void)ncpus;
    derive_constants();
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct runqueue *rq = &runqueues[cpu];
        rq->nr_switches = 0;
        rq->expired_timestamp = 0;
        rq->last_tick_jiffies = 0;
        for (int i = 0; i < MAX_CPUS; i++)
            rq->prev_cpu_load[i] = 0;
        for (int a = 0; a < 2; a++) {
            struct prio_array *array = &rq->arrays[a];
            array->nr_active = 0;
            for (int w = 0; w < BITMAP_WORDS; w++)
                array->bitmap[w] = 0;
            for (int prio = 0; prio < MAX_PRIO; prio++)
                list_init(&array->queue[prio]);
            set_prio_bit(MAX_PRIO, array->bitmap);   /* the sentinel: find-first-bit always finds one */
        }
        rq->active = &rq->arrays[0];
        rq->expired = &rq->arrays[1];
    }
}

/*
 * The timeslice part of 2.6.0 scheduler_tick() for the running task curr of
 * cpu (not idle), with cpu's lock held.  Also the "forced tick" of fork.
 */
static void timeslice_tick(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    struct o1_task *t = o1(curr);

    /* It expired already but has not scheduled away yet. */
    if (t->array != rq->active) {
        sched_resched_cpu(cpu);
        return;
    }
    if (rt_prio(t->prio)) {
        /* SCHED_RR: a fresh slice and the tail of its list.  FIFO has no slice. */
        if (curr->policy == SCHED_RR && --t->time_slice <= 0) {
            t->time_slice = task_timeslice(t);
            t->first_time_slice = 0;
            sched_resched_cpu(cpu);
            dequeue_task(curr, rq->active);
            enqueue_task(curr, rq->active);
        }
        return;
    }
    if (--t->time_slice <= 0) {
        dequeue_task(curr, rq->active);
        sched_resched_cpu(cpu);
        t->prio = effective_prio(t);
        t->time_slice = task_timeslice(t);
        t->first_time_slice = 0;
        uint64_t j = sched_jiffies();
        if (!rq->expired_timestamp)
            rq->expired_timestamp = j;
        /* EXPIRED_STARVING: the first expired task has waited long enough. */
        bool starving = STARVATION_LIMIT && rq->expired_timestamp &&
                        j - rq->expired_timestamp >= (uint64_t)STARVATION_LIMIT * nr_running(rq) + 1;
        if (!task_interactive(t) || starving)
            enqueue_task(curr, rq->expired);
        else
            enqueue_task(curr, rq->active);
    } else if (tun.timeslice_granularity) {
        /* Split a long slice: an interactive task goes behind the others of
         * its priority every TIMESLICE_GRANULARITY, keeping what is left
         * (Con Kolivas's 2.6 tuning; the 2.5 scheduler and its 2.4
         * backports had no such split). */
        int granularity = timeslice_granularity(t);
        if (task_interactive(t) && (task_timeslice(t) - t->time_slice) % granularity == 0 &&
            t->time_slice >= granularity && t->array == rq->active) {
            dequeue_task(curr, rq->active);
            sched_resched_cpu(cpu);
            t->prio = effective_prio(t);
            enqueue_task(curr, rq->active);
        }
    }
}

/* copy_process() and the accounting half of wake_up_forked_process(). */
static void o1_task_fork(struct task *parent, struct task *child)
{
    struct o1_task *c = o1(child);
    list_init(&c->run_list);
    c->array = NULL;
    c->static_prio = NICE_TO_PRIO(child->nice);
    c->prio = c->static_prio;
    c->timestamp = sched_clock_ns();
    c->activated = 0;
    c->waker_cpu = child->cpu;
    if (parent && !parent->is_idle) {
        struct o1_task *pp = o1(parent);
        /* Share the parent's remaining slice: the total is unchanged, so
         * forking cannot be used to get more CPU time. */
        c->time_slice = (pp->time_slice + 1) / 2;
        c->first_time_slice = 1;
        pp->time_slice /= 2;
        if (pp->time_slice <= 0) {
            /* 2.6.0 gives it one tick and runs scheduler_tick() at once. */
            pp->time_slice = 1;
            if (sched_cpu_curr(child->cpu) == parent)
                timeslice_tick(child->cpu, parent);
        }
        /* Forking parents and their children lose a little sleep_avg, so a
         * maximally interactive task cannot fork maximally interactive ones. */
        c->sleep_avg = pp->sleep_avg;
        pp->sleep_avg = (uint32_t)JIFFIES_TO_NS(current_bonus(pp) * PARENT_PENALTY / 100 * MAX_SLEEP_AVG / MAX_BONUS);
        c->sleep_avg = (uint32_t)JIFFIES_TO_NS(current_bonus(c) * CHILD_PENALTY / 100 * MAX_SLEEP_AVG / MAX_BONUS);
    } else {
        /* The kernel's first tasks: nothing to split. */
        c->time_slice = task_timeslice(c);
        c->first_time_slice = 0;
        c->sleep_avg = 0;
    }
    c->interactive_credit = 0;
    if (task_is_rt(child))
        c->prio = MAX_USER_RT_PRIO - 1 - child->rt_priority;
    else
        c->prio = effective_prio(c);
}

static bool same_priority_class(const struct task *a, const struct task *b)
{
    if (task_is_rt(a) || task_is_rt(b))
        return task_is_rt(a) && task_is_rt(b) && a->rt_priority == b->rt_priority;
    return a->nice == b->nice;
}

/* wake_up_forked_process(): in front of the parent, at its priority. */
static __attribute__((noinline)) void enqueue_forked(int cpu, struct task *p)
{
    struct o1_task *t = o1(p);
    struct task *parent = p->parent;
    if (parent && !parent->is_idle && parent->cpu == cpu && o1(parent)->array && same_priority_class(p, parent)) {
        struct o1_task *pp = o1(parent);
        t->prio = pp->prio;
        list_add_tail(&t->run_list, &pp->run_list);
        t->array = pp->array;
        t->array->nr_active++;
    } else {
        __activate_task(p, &runqueues[cpu]);
    }
    /* do_fork(): set_need_resched() on the parent, so the child runs first. */
    if (parent && !parent->is_idle)
        sched_resched_cpu(t->waker_cpu);
}

static void o1_enqueue(int cpu, struct task *p, int flags)
{
    struct runqueue *rq = &runqueues[cpu];
    struct o1_task *t = o1(p);

    if (unlikely(flags & ENQUEUE_NEW)) {
        enqueue_forked(cpu, p);
        return;
    }
    /* A sync wake-up on the waker's own CPU is only queued: the waker is
     * about to sleep, so no recalculation and no preemption. */
    if ((flags & ENQUEUE_SYNC) && cpu == t->waker_cpu) {
        __activate_task(p, rq);
        return;
    }
    activate_task(p, rq, (flags & ENQUEUE_IRQ) != 0);
    if (t->prio < curr_prio(cpu)) {
        l26_thread_info_resched(cpu);
        sched_resched_cpu(cpu);
    }
}

static void o1_dequeue(int cpu, struct task *p, int flags) { deactivate_task(p); }

/* Cache hot: it ran (or was queued) within cache_decay_ticks; a busy CPU leaves it. */
#define L26_CACHE_HOT(p, idle, now) (!(idle) && ns_since((now), o1(p)->timestamp) <= k.cache_decay_ns)
#define L26_PREEMPTS_CURR(p, cpu) (o1(p)->prio < curr_prio(cpu))
#define O1_COMMON_BALANCE
#include "o1_common.h"       /* wake-up CPU choice and load balancing (shared with sched/nick.c) */

/* ---- schedule() ---- */

/*
 * 2.6.0 schedule() dequeues next, recalculates its priority and enqueues it
 * again on the same array: it goes to the tail of its (new) priority's list.
 * The same, without the two halves' bookkeeping that cancels out (nr_active,
 * the array pointer, and a bit cleared and set again).
 */
O1_HOT void requeue_task(struct o1_task *t, struct prio_array *array, int old_prio)
{
    struct list_head *old_queue = &array->queue[old_prio];
    if (t->prio == old_prio) {
        if (t->run_list.next != old_queue) {     /* already last: nothing moves */
            list_del(&t->run_list);
            list_add_tail(&t->run_list, old_queue);
        }
        return;
    }
    list_del(&t->run_list);
    if (list_empty(old_queue))
        clear_prio_bit(old_prio, array->bitmap);
    list_add_tail(&t->run_list, &array->queue[t->prio]);
    set_prio_bit(t->prio, array->bitmap);
}

/*
 * 2.6.0 schedule()'s delta for a task picked after a wake-up: its time
 * waiting on the runqueue counts as sleep, all of it after an interrupt's
 * wake-up, 30% otherwise (delta * (ON_RUNQUEUE_WEIGHT * 128 / 100) / 128),
 * capped as recalc_task_prio caps a sleep.  The common wait, under 2^32 ns,
 * in 32 bits (the weight is at most 128/128, so the product shifted back
 * fits); a longer one, or a timestamp ahead of our clock, the 64-bit way.
 */
static __attribute__((noinline)) uint32_t runqueue_credit_64(const struct o1_task *n, uint64_t now)
{
    uint64_t delta = ns_since(now, n->timestamp);
    if (n->activated == 1)
        delta = delta * k.on_runqueue_weight_128 / 128;
    return delta > NS_MAX_SLEEP_AVG ? NS_MAX_SLEEP_AVG : (uint32_t)delta;
}

O1_HOT uint32_t runqueue_credit(const struct o1_task *n, uint64_t now)
{
    uint64_t d = now - n->timestamp;
    if (unlikely(d >> 32))
        return runqueue_credit_64(n, now);
    uint32_t delta = (uint32_t)d;
    if (n->activated == 1)
        delta = (uint32_t)((uint64_t)delta * k.on_runqueue_weight_128 >> 7);
    return delta > NS_MAX_SLEEP_AVG ? NS_MAX_SLEEP_AVG : delta;
}

/* schedule(): the running task's time since its timestamp lowers its sleep_avg. */
O1_HOT void charge_run_time(struct o1_task *pp, uint64_t now)
{
    uint32_t run_time = capped_ns_since(now, pp->timestamp);
    /* High-credit tasks are charged less, to keep their status longer. */
    if (unlikely(high_credit(pp))) {
        int bonus = current_bonus(pp);
        run_time /= bonus ? (uint32_t)bonus : 1u;
    }
    /* 2.6.0: sleep_avg -= run_time; if ((long)sleep_avg <= 0) ... */
    if (run_time >= pp->sleep_avg) {
        pp->sleep_avg = 0;
        if (!(high_credit(pp) || low_credit(pp)))
            pp->interactive_credit--;
    } else {
        pp->sleep_avg -= run_time;
    }
    pp->timestamp = now;
}

static struct task *o1_pick_next(int cpu, struct task *prev)
{
    struct runqueue *rq = &runqueues[cpu];
    uint64_t now = sched_clock_ns();
    /* 2.6.0 charges prev's run time after the pick; here before it, which is
     * the same: the pick neither reads nor writes the running task's
     * sleep_avg, credit or timestamp (it is not woken, activated is 0, and
     * balancing leaves a running task alone). */
    if (!prev->is_idle)
        charge_run_time(o1(prev), now);

    struct task *next = NULL;
    for (;;) {
        /* A task in the active array is queued here: only an empty active
         * array asks whether this CPU has any (the order of 2.6.0's tests,
         * with the common case first). */
        if (unlikely(!rq->active->nr_active) && sched_nr_queued(cpu) == 0) {
            /* About to go idle: pull one task from the busiest CPU. */
            if (sched_nr_cpus() > 1) {
                load_balance(cpu, true, true);
                if (sched_nr_queued(cpu))
                    continue;
            }
            rq->expired_timestamp = 0;
            break;
        }
        struct prio_array *array = rq->active;
        if (unlikely(!array->nr_active)) {
            /* Every active task has used its slice: swap the arrays. */
            rq->active = rq->expired;
            rq->expired = array;
            array = rq->active;
            rq->expired_timestamp = 0;
            sched_trace_event(cpu, "array_swap", array->nr_active);    /* on the trace timeline */
        }
        int idx = sched_find_first_bit(array->bitmap);
        next = task_of(array->queue[idx].next);
        struct o1_task *n = o1(next);
        if (n->activated > 0) {
            /* recalc_task_prio(next, next->timestamp + delta): a sleep of delta. */
            int old_prio = n->prio;
            recalc_task_prio(n, runqueue_credit(n, now));
            requeue_task(n, array, old_prio);
        }
        n->activated = 0;
        break;
    }

    /* (2.6.0 also counts rq->nr_switches here, for /proc/stat's ctxt and
     * nothing else: the core's schedstat context_switches is that count.) */
    if (next && next != prev)
        o1(next)->timestamp = now;
    l26_thread_info_switch(prev, next);
    return next;
}

static void o1_tick(int cpu, struct task *curr)
{
    if (curr->is_idle)
        return;                 /* the idle rebalance is in l26_balance() (o1_common.h) */
    timeslice_tick(cpu, curr);
}

/* set_user_nice(). */
static void o1_set_nice(int cpu, struct task *p, int nice)
{
    struct o1_task *t = o1(p);
    if (TASK_NICE(t) == nice)
        return;
    if (rt_prio(t->prio)) {
        /* Stored, but no effect until the task is SCHED_NORMAL again. */
        t->static_prio = NICE_TO_PRIO(nice);
        return;
    }
    struct prio_array *array = t->array;
    if (array)
        dequeue_task(p, array);
    int new_prio = NICE_TO_PRIO(nice);
    /* As 2.6.0: delta is taken against the dynamic priority, so the task
     * keeps no bonus until its next recalculation. */
    int delta = new_prio - t->prio;
    t->static_prio = new_prio;
    t->prio += delta;
    if (array) {
        enqueue_task(p, array);
        /* Better priority, or a running task made worse: reschedule. */
        if (delta < 0 || (delta > 0 && sched_task_running(p)))
            sched_resched_cpu(cpu);
    }
}

/* sched_exit(): give back the unused first slice, inherit a hog's sleep_avg. */
static void o1_task_exit(struct task *p)
{
    struct task *parent = p->parent;
    if (!parent || parent->is_idle)
        return;
    struct o1_task *t = o1(p), *pp = o1(parent);
    unsigned long flags;
    int cpu = sched_task_rq_lock_irqsave(parent, &flags);
    if (t->first_time_slice) {
        pp->time_slice += t->time_slice;
        if (pp->time_slice > MAX_TIMESLICE)
            pp->time_slice = MAX_TIMESLICE;
    }
    if (t->sleep_avg < pp->sleep_avg)
        pp->sleep_avg = (uint32_t)(pp->sleep_avg / (EXIT_WEIGHT + 1) * EXIT_WEIGHT + t->sleep_avg / (EXIT_WEIGHT + 1));
    sched_rq_unlock_irqrestore(cpu, flags);
}

/* ---- tunables and presets (sched.<name>=, sched.preset=) ---- */

static const struct sched_tunable o1_tunables[] = {
    { "min_timeslice", "ms", 10, 1, 1000, 0, &tun.min_timeslice, "MIN_TIMESLICE: the slice of nice 19" },
    { "max_timeslice", "ms", 200, 1, 10000, 0, &tun.max_timeslice, "MAX_TIMESLICE: the slice of nice -20" },
    { "child_penalty", "percent", 95, 0, 100, 0, &tun.child_penalty, "CHILD_PENALTY: sleep_avg a child keeps" },
    { "parent_penalty", "percent", 100, 0, 100, 0, &tun.parent_penalty,
      "PARENT_PENALTY: sleep_avg a forking parent keeps" },
    { "exit_weight", "count", 3, 0, 100, 0, &tun.exit_weight,
      "EXIT_WEIGHT: parent:child weight when a hog child pulls the parent's sleep_avg down" },
    { "prio_bonus_ratio", "percent", 25, 5, 50, 0, &tun.prio_bonus_ratio,
      "PRIO_BONUS_RATIO: the bonus range as a share of the 40 nice levels (MAX_BONUS)" },
    { "interactive_delta", "count", 2, 0, 40, 0, &tun.interactive_delta,
      "INTERACTIVE_DELTA: the interactivity threshold's offset" },
    { "max_sleep_avg", "ms", 0, 1, 4000, SCHED_TUNABLE_AUTO, &tun.max_sleep_avg,
      "MAX_SLEEP_AVG: sleep_avg cap; auto: AVG_TIMESLICE x MAX_BONUS (1020 at the default slices)" },
    { "starvation_limit", "ms", 0, 0, 100000, SCHED_TUNABLE_AUTO, &tun.starvation_limit,
      "STARVATION_LIMIT per runnable task before the expired array must run (0: off); auto: MAX_SLEEP_AVG" },
    { "on_runqueue_weight", "percent", 30, 0, 100, 0, &tun.on_runqueue_weight,
      "ON_RUNQUEUE_WEIGHT: runqueue wait after a task's wake-up counted as sleep" },
    { "credit_limit", "count", 100, 0, 1000000, 0, &tun.credit_limit, "CREDIT_LIMIT: interactive_credit bounds" },
    { "timeslice_granularity", "bool", 1, 0, 1, 0, &tun.timeslice_granularity,
      "TIMESLICE_GRANULARITY: interactive tasks of one priority take turns within their slices" },
    { "idle_rebalance_tick", "ms", 1, 1, 1000, 0, &tun.idle_rebalance_tick,
      "IDLE_REBALANCE_TICK: balancing interval of an idle CPU" },
    { "busy_rebalance_tick", "ms", 200, 1, 10000, 0, &tun.busy_rebalance_tick,
      "BUSY_REBALANCE_TICK: balancing interval of a busy CPU" },
    { "cachesize", "kib", 512, 0, 2048, 0, &tun.cachesize,
      "the L2 size smp_tune_scheduling computes cache_decay_ticks from" },
    { "bandwidth", "mb_s", 350, 1, 100000, 0, &tun.bandwidth, "smp_tune_scheduling's memory bandwidth" },
    { "cache_decay_ticks", "ms", 0, 0, 10000, SCHED_TUNABLE_AUTO, &tun.cache_decay_ticks,
      "a busy CPU leaves tasks that ran this recently; auto: cachesize / bandwidth + 1 (smp_tune_scheduling)" },
};

/*
 * rml-2.4: the 2.5 O(1) scheduler as backported to 2.4 (Robert Love's
 * sched-O1-rml patches, carried by 2.4.19-pre7-ac2 and -jam6, the kernels of
 * seed 003), whose constants are those of the 2.4.18 tree with the backport
 * (kernel/sched.c: MIN_TIMESLICE 10 ms, MAX_TIMESLICE 300 ms, MAX_SLEEP_AVG
 * and STARVATION_LIMIT 2*HZ, BUSY_REBALANCE_TICK HZ/4) at 2.4's HZ = 100,
 * where IDLE_REBALANCE_TICK (HZ/1000 ?: 1) is one 10 ms tick; it had no
 * TIMESLICE_GRANULARITY.  What the numbers cannot say (its sleep_avg counted
 * in jiffies, +1 per jiffy asleep and -1 per tick run, no interactive_credit)
 * is listed in docs/sched-o1.md.
 */
static const struct sched_preset o1_presets[] = {
    { "rml-2.4", "min_timeslice=10 max_timeslice=300 max_sleep_avg=2000 starvation_limit=2000 "
                 "busy_rebalance_tick=250 idle_rebalance_tick=10 timeslice_granularity=0" },
};

/* Where 2.6.0's i386 task_struct had them (include/linux/sched.h; the
 * model's view with machine_layout=era, kernel/sched_class.h
 * SCHED_LAYOUT_LINUX26).  waker_cpu is this kernel's (2.6.0: a local of
 * try_to_wake_up), seen in the line of cpus_allowed, which select_cpu reads. */
static const struct sched_task26_bytes o1_task26_bytes[] = {
    { offsetof(struct o1_task, prio), sizeof(int), 24 },
    { offsetof(struct o1_task, static_prio), sizeof(int), 28 },
    { offsetof(struct o1_task, run_list), sizeof(struct list_head), 32 },
    { offsetof(struct o1_task, array), sizeof(void *), 40 },
    { offsetof(struct o1_task, sleep_avg), sizeof(uint32_t), 44 },
    { offsetof(struct o1_task, interactive_credit), sizeof(int), 48 },
    { offsetof(struct o1_task, timestamp), sizeof(uint64_t), 52 },
    { offsetof(struct o1_task, activated), sizeof(int), 60 },
    { offsetof(struct o1_task, time_slice), sizeof(int), 72 },
    { offsetof(struct o1_task, first_time_slice), sizeof(int), 76 },
    { offsetof(struct o1_task, waker_cpu), sizeof(int), 84 },
    { 0, 0, 0 },
};

const struct sched_class scheduler = {
    .name = "o1",
    .flags = SCHED_LAYOUT_LINUX26,
    .task26_bytes = o1_task26_bytes,
    .tunables = o1_tunables,
    .ntunables = ARRAY_SIZE(o1_tunables),
    .presets = o1_presets,
    .npresets = ARRAY_SIZE(o1_presets),
    .check_tunables = o1_check_tunables,
    .init = o1_init,
    .task_fork = o1_task_fork,
    .select_cpu = l26_select_cpu,
    .enqueue = o1_enqueue,
    .dequeue = o1_dequeue,
    .pick_next = o1_pick_next,
    .tick = o1_tick,
    .balance = l26_balance,
    .yield = l26_yield,
    .set_nice = o1_set_nice,
    .task_exit = o1_task_exit,
};
