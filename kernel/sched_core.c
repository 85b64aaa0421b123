/*
 * The scheduler core: the one protocol between the kernel and a scheduler.
 *
 * Everything the kernel does to a task that a scheduler must hear about
 * goes through here, in one order: fork (task_fork under the parent's
 * run-queue lock, then the WAKE_NEW placement and ENQUEUE_NEW), wake-up
 * (select_cpu under the task's lock, ENQUEUE_WAKEUP), schedule() (DEQUEUE_SLEEP
 * or DEQUEUE_EXIT for a task that stops running, pick_next, the switch),
 * the tick (tick(), then that CPU's balance()), affinity and nice changes
 * (DEQUEUE_MIGRATE / ENQUEUE_MIGRATE when a task must move), yield and exit.
 * The policy is the one scheduler compiled in (struct sched_class
 * scheduler, kernel/sched_class.h).
 *
 * This file is compiled into the kernel and, unchanged, into the host unit
 * tests, over the machine layer of kernel/sched_env.h (x86 in the kernel,
 * simulated CPUs and clock in tests/host/simenv.c).  So a host test of a
 * scheduler exercises this code, not a copy of it.  Kernel-only pieces live
 * elsewhere: sleep timers and the watchdog (kernel/timer.c), task memory
 * and the idle loop (kernel/task.c), statistics output (kernel/schedstat.c).
 *
 * The core guarantees the invariants that every policy relies on and checks
 * them as it goes:
 *   - a CPU's run-queue lock is held from the start of schedule() until the
 *     next task has finished switching in (finish_switch), so a task is never
 *     half switched while someone else holds that lock;
 *   - every hook is called with the lock sched.h documents (checked);
 *   - a task runs on one CPU at a time (on_cpu), only on CPUs in its
 *     cpus_allowed, and only when runnable and queued;
 *   - a wake-up is decided under the task's run-queue lock: the waker that
 *     finds it TASK_SLEEPING marks it TASK_WAKING, and every other waker
 *     then leaves it alone; a task the core moves between CPUs is
 *     TASK_WAKING while it is on neither queue.
 * Violations stop the machine with a report (sched_bug), never silently.
 * The checks of the switch and wake-up paths are a static key
 * (env_checks_on, kernel/sched_env.h): on with checks=1 on the command line
 * (every test boots so), NOPs otherwise, where they would be instructions
 * of every figure measured under icount and vsmp.
 */
#include "sched_core.h"
#include "sched_class.h"
#include "sched_env.h"
#include "lib.h"

#include <stdarg.h>

/* ---- run queues ---- */

static spinlock_t shared_rq_lock;
static char rq_lock_names[MAX_CPUS][16];

static inline spinlock_t *rq_lock(int cpu) { return cpus[cpu].rq_lock; }

/* The context switch and the scheduler's enqueue, called through pointers
 * that tracing may point at its recording wrappers (kernel/trace.h): a
 * memory-indirect call is one instruction, as the direct call and the call
 * through struct sched_class were, so tracing costs nothing while it is
 * off.  sched_init sets them. */
struct task *(*sched_switch_call)(struct task *prev, struct task *next) = switch_context;
void (*sched_enqueue_call)(int cpu, struct task *p, int flags);

/* The hooks' documented lock, checked before every call with checks=1
 * (env_checks_on, kernel/sched_env.h: a NOP otherwise). */
static inline void assert_rq_held(int cpu, const char *hook)
{
    if (env_checks_on() && unlikely(rq_lock(cpu)->holder_cpu != this_cpu_id()))
        sched_bug("%s on cpu %d called without cpu %d's run-queue lock (held by %d)", hook, this_cpu_id(), cpu,
                  rq_lock(cpu)->holder_cpu);
}

void sched_assert_locked(int cpu)
{
    if (unlikely(rq_lock(cpu)->holder_cpu != this_cpu_id()))
        sched_bug("sched_assert_locked on cpu %d called without cpu %d's run-queue lock (held by %d)", this_cpu_id(),
                  cpu, rq_lock(cpu)->holder_cpu);
}

static inline __attribute__((always_inline)) void do_enqueue_on(struct cpu *c, int cpu, struct task *p, int flags)
{
    assert_rq_held(cpu, "enqueue");
    p->on_rq = 1;
    c->nr_queued++;
    sched_enqueue_call(cpu, p, flags);
}

static inline void do_enqueue(int cpu, struct task *p, int flags) { do_enqueue_on(&cpus[cpu], cpu, p, flags); }

/* The dequeue where the caller has just taken c's lock itself (schedule()). */
static inline void do_dequeue_held(struct cpu *c, int cpu, struct task *p, int flags)
{
    scheduler.dequeue(cpu, p, flags);
    c->nr_queued--;
    p->on_rq = 0;
}

static inline void do_dequeue(int cpu, struct task *p, int flags)
{
    assert_rq_held(cpu, "dequeue");
    scheduler.dequeue(cpu, p, flags);
    cpus[cpu].nr_queued--;
    p->on_rq = 0;
}

/* p now belongs to cpu: a queued task's count moves with it. */
static inline void move_to_cpu(struct task *p, int cpu)
{
    int old = p->cpu;
    if (old == cpu)
        return;
    if (p->on_rq) {
        cpus[old].nr_queued--;
        cpus[cpu].nr_queued++;
    }
    p->nr_migrations++;
    cpus[cpu].stats.migrations++;
    p->cpu = cpu;
}

/* ---- services for schedulers (kernel/sched_class.h) ---- */

__switch_path void sched_resched_cpu(int cpu)
{
    struct cpu *target = &cpus[cpu];
    if (xchg(&target->need_resched, 1))
        return;                                  /* already pending: it will look */
    if (cpu == this_cpu_id())
        return;
    /* idle=poll: a polling CPU sees need_resched by itself (task.c, idle_poll).
     * The plain read first keeps the locked cmpxchg off this path when the
     * target is not polling (always, with idle=halt); it reads after the
     * xchg above, and a stale IDLE_NOT_POLLING only sends an IPI. */
    if (target->idle_polling == IDLE_POLLING &&
        __sync_val_compare_and_swap(&target->idle_polling, IDLE_POLLING, IDLE_POLL_KICKED) == IDLE_POLLING)
        return;
    smp_send_reschedule(cpu);
}

void sched_set_task_cpu(struct task *p, int cpu)
{
    if (!task_allowed_on(p, cpu))
        sched_bug("task %s (pid %d) moved to cpu %d outside its cpus_allowed %#x", p->name, p->pid, cpu,
                  p->cpus_allowed);
    if (p->on_cpu && p->cpu != cpu)
        sched_bug("task %s (pid %d) moved to cpu %d while it runs on cpu %d", p->name, p->pid, cpu, p->cpu);
    assert_rq_held(p->cpu, "sched_set_task_cpu (source)");
    assert_rq_held(cpu, "sched_set_task_cpu (destination)");
    int old = p->cpu;
    move_to_cpu(p, cpu);
    /* A balancing move.  The core's own moves (wake-up placement, requeue,
     * a shared queue's hand-over) are seen by the tracing wrappers instead:
     * a static key in the inlined move_to_cpu would change the code of the
     * wake-up and switch paths even while off. */
    trace_migrate(p, old, cpu);
}

void sched_double_lock(int a, int b)
{
    spinlock_t *la = rq_lock(a), *lb = rq_lock(b);
    if (la == lb) {
        spin_lock(la);
    } else if (la < lb) {
        spin_lock(la);
        spin_lock(lb);
    } else {
        spin_lock(lb);
        spin_lock(la);
    }
}

void sched_double_unlock(int a, int b)
{
    spinlock_t *la = rq_lock(a), *lb = rq_lock(b);
    /* Plain release: the caller still has interrupts off, nothing to preempt yet. */
    if (la != lb)
        spin_release(lb);
    spin_release(la);
}

bool sched_double_lock_balance(int this_cpu, int other)
{
    spinlock_t *ours = rq_lock(this_cpu), *theirs = rq_lock(other);
    assert_rq_held(this_cpu, "sched_double_lock_balance");
    if (ours == theirs || spin_trylock(theirs))
        return false;
    if (theirs < ours) {
        spin_release(ours);
        spin_lock(theirs);
        spin_lock(ours);
        return true;
    }
    spin_lock(theirs);
    return false;
}

void sched_unlock_other(int this_cpu, int other)
{
    if (rq_lock(other) != rq_lock(this_cpu))
        spin_release(rq_lock(other));
}

/* p's CPU, with its run-queue lock taken; *lock is that lock (the caller
 * keeps it in a register: cpus[cpu].rq_lock is a multiply and a load, and
 * the locks' "memory" clobbers make GCC compute it again at every use). */
static inline __attribute__((always_inline)) int task_rq_lock_get(struct task *p, spinlock_t **lock)
{
    for (;;) {
        int cpu = p->cpu;
        spinlock_t *l = rq_lock(cpu);
        spin_lock(l);
        if (likely(p->cpu == cpu)) {
            *lock = l;
            return cpu;
        }
        spin_unlock(l);
    }
}

static inline int task_rq_lock(struct task *p)
{
    spinlock_t *lock;
    return task_rq_lock_get(p, &lock);
}

int sched_task_rq_lock(struct task *p) { return task_rq_lock(p); }

int sched_task_rq_lock_irqsave(struct task *p, unsigned long *flags)
{
    *flags = irq_save();
    return task_rq_lock(p);
}

void sched_rq_unlock_irqrestore(int cpu, unsigned long flags) { spin_unlock_irqrestore(rq_lock(cpu), flags); }

int sched_first_allowed_cpu(const struct task *p)
{
    for (int cpu = 0; cpu < ncpus_online; cpu++)
        if (task_allowed_on(p, cpu))
            return cpu;
    sched_bug("%s (pid %d) may run on no online cpu (cpus_allowed %#x)", p->name, p->pid, p->cpus_allowed);
}

void sched_bug(const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    panic("scheduler invariant broken (%s): %s", scheduler.name, msg);
}

void sched_log(const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    kprintf("%s\n", msg);
}

/* ---- boot ---- */

/* The first mandatory hook that a class leaves out, or NULL. */
const char *sched_class_missing_hook(const struct sched_class *c)
{
    if (!c->name || !c->name[0])
        return "name";
    if (!c->enqueue)
        return "enqueue";
    if (!c->dequeue)
        return "dequeue";
    if (!c->pick_next)
        return "pick_next";
    return NULL;
}

void sched_init(int ncpus)
{
    const char *missing = sched_class_missing_hook(&scheduler);
    if (missing) {
        kprintf("error: sched/%s.c: hook %s is missing\n", scheduler.name ? scheduler.name : "?", missing);
        machine_exit(EXIT_ERROR);
    }
    sched_switch_call = switch_context;
    sched_enqueue_call = scheduler.enqueue;
    spin_lock_init(&shared_rq_lock, "runqueue (shared)");
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        struct cpu *c = &cpus[cpu];
        snprintf(rq_lock_names[cpu], sizeof(rq_lock_names[cpu]), "runqueue/%d", cpu);
        spin_lock_init(&c->own_rq_lock, rq_lock_names[cpu]);
        c->rq_lock = (scheduler.flags & SCHED_SHARED_RUNQUEUE) ? &shared_rq_lock : &c->own_rq_lock;
        c->nr_queued = 0;
    }
    if (scheduler.init)
        scheduler.init(ncpus);
}

/* cpu's boot context becomes its idle task. */
void sched_setup_idle(int cpu, struct task *idle)
{
    struct cpu *c = &cpus[cpu];
    snprintf(idle->name, sizeof(idle->name), "idle/%d", cpu);
    idle->pid = 0;
    idle->is_idle = true;
    idle->state = TASK_RUNNING;
    idle->cpu = cpu;
    idle->on_cpu = 1;
    idle->nice = NICE_MAX;
    idle->cpus_allowed = CPU_BIT(cpu);
    list_init(&idle->all_tasks);
    list_init(&idle->timer_entry);
    c->id = cpu;
    c->idle = idle;
    c->curr = idle;
    c->idle_since_ns = clock_ns();
}

/* ---- switching ---- */

static inline void account_switch(struct cpu *c, struct task *prev, struct task *next, uint64_t now)
{
    if (unlikely(prev->is_idle))         /* the busy case falls through: no jmp back */
        c->stats.idle_ns += now - c->idle_since_ns;
    else
        prev->runtime_ns += now - prev->last_switch_in_ns;
    if (unlikely(next->is_idle)) {
        c->idle_since_ns = now;
    } else {
        next->last_switch_in_ns = now;
        next->nr_switches_in++;
        next->cpus_run_mask |= CPU_BIT(c->id);
        env_note_progress(now);
    }
    c->stats.context_switches++;
}

/* checks=1, at schedule()'s entry: not atomic, on the current task's stack, its canary intact. */
static __attribute__((noinline, cold)) void check_schedule_entry(struct cpu *c, struct task *prev)
{
    if (c->preempt_count != 0)
        sched_bug("schedule() called while atomic (preempt_count %d) by %s", c->preempt_count, prev->name);
    env_check_own_stack(c, "schedule");
    if (!prev->is_idle)
        env_check_stack_canary(prev);
}

static void check_next(int cpu, struct task *prev, struct task *next)
{
    if (!task_allowed_on(next, cpu))
        sched_bug("picked %s (pid %d) on cpu %d, cpus_allowed %#x", next->name, next->pid, cpu, next->cpus_allowed);
    if (next != prev && next->on_cpu)
        sched_bug("picked %s (pid %d) on cpu %d while it runs on cpu %d", next->name, next->pid, cpu, next->cpu);
    if (!next->on_rq || next->state != TASK_RUNNING)
        sched_bug("picked %s (pid %d) which is not runnable (state %d)", next->name, next->pid, next->state);
    if (next->cpu != cpu && !(scheduler.flags & SCHED_SHARED_RUNQUEUE))
        sched_bug("picked %s (pid %d) on cpu %d from cpu %d's queue without moving it", next->name, next->pid, cpu,
                  next->cpu);
}

/* A runnable task that may no longer use cpu, whose lock is held: off the
 * queue (DEQUEUE_MIGRATE) and claimed (TASK_WAKING), so that nobody runs,
 * wakes or moves it until requeue_migrated() puts it on an allowed CPU. */
static inline void take_off_for_migration(int cpu, struct task *p)
{
    do_dequeue(cpu, p, DEQUEUE_MIGRATE);
    p->state = TASK_WAKING;
}

/* on_rq first (a task that went to sleep is off its queue: one test
 * decides), then the mask, almost always allowed. */
static inline bool runnable_but_not_allowed(const struct task *p, int cpu)
{
    return p->on_rq && unlikely(!task_allowed_on(p, cpu)) && !p->is_idle && p->state == TASK_RUNNING;
}

/* As Linux's migration thread with any_online_cpu(): the first allowed CPU. */
static void requeue_migrated(struct task *p)
{
    int target = sched_first_allowed_cpu(p);
    spin_lock(rq_lock(target));
    move_to_cpu(p, target);              /* p is on no queue: no lock on its old CPU needed */
    p->state = TASK_RUNNING;
    do_enqueue(target, p, ENQUEUE_MIGRATE);
    if (sched_cpu_is_idle(target))
        sched_resched_cpu(target);
    spin_release(rq_lock(target));
}

/* Runs on the new task's stack right after every switch: release what schedule() held. */
static inline __attribute__((always_inline)) void finish_switch_inline(struct task *prev)
{
    struct cpu *c = this_cpu();
    env_check_own_stack(c, "finish_switch");
    /* Its affinity changed while pick_next had dropped our lock: move it now. */
    if (unlikely(runnable_but_not_allowed(prev, c->id))) {
        take_off_for_migration(c->id, prev);
        prev->migrate_after_switch = true;
    }
    bool migrate = prev->migrate_after_switch;
    bool dead = prev->state == TASK_DEAD;
    prev->migrate_after_switch = false;
    prev->on_cpu = 0;
    spin_release(c->rq_lock);            /* interrupts are off: no preemption check */
    env_switch_in_cost();               /* cost=: CR3 refills, a migrated task's cache (kernel/chan_cost.h) */
    if (unlikely(migrate))
        requeue_migrated(prev);
    if (dead)
        task_release_after_exit(prev);
}

void finish_switch(struct task *prev) { finish_switch_inline(prev); }

/* Pick and switch.  May be called with interrupts on or off; never while holding a spinlock. */
__switch_path void schedule(void)
{
    unsigned long flags = irq_save();
    struct cpu *c = this_cpu();
    int cpu = c->id;
    spinlock_t *lock = c->rq_lock;       /* in a register: see task_rq_lock_get */
    struct task *prev = c->curr;
    if (env_checks_on())
        check_schedule_entry(c, prev);
    spin_lock(lock);
    c->stats.schedule_calls++;
    c->need_resched = 0;
    if (!prev->is_idle && prev->state != TASK_RUNNING)
        do_dequeue_held(c, cpu, prev, prev->state == TASK_DEAD ? DEQUEUE_EXIT : DEQUEUE_SLEEP);
    struct task *next;
    uint64_t t0, t1;
    for (;;) {
        if (unlikely(runnable_but_not_allowed(prev, cpu))) {
            /* Its affinity changed: off this CPU, queued on an allowed one after the switch. */
            take_off_for_migration(cpu, prev);
            prev->migrate_after_switch = true;
        }
        t0 = local_tsc();
        next = scheduler.pick_next(cpu, prev);
        t1 = local_tsc();                /* also the switch's timestamp: one RDTSC less */
        c->stats.pick_cycles += (uint32_t)t1 - (uint32_t)t0;   /* a pick is shorter than 2^32 cycles */
        c->stats.picks++;
        if (!next)
            next = c->idle;
        /* prev again, but its mask changed while pick_next had dropped our lock: once more without it. */
        if (likely(next != prev || task_allowed_on(prev, cpu) || prev->is_idle))
            break;
    }
    if (env_checks_on()) {
        assert_rq_held(cpu, "pick_next");    /* called with it, and returns with it */
        if (!next->is_idle)
            check_next(cpu, prev, next);
    }
    if (!next->is_idle) {
        if (next->cpu != cpu)            /* only a shared-lock scheduler may hand over another CPU's task */
            move_to_cpu(next, cpu);
    }
    if (next == prev) {
        spin_release(lock);
        irq_restore(flags);
        return;
    }
    account_switch(c, prev, next, cycles_to_ns(t1));
    next->on_cpu = 1;
    c->curr = next;
    env_switch_mm(c, next);              /* CR3, lazily (kernel/sched_env.h) */
    prev = sched_switch_call(prev, next);
    /* Now on next's stack, which may have gone to sleep on another CPU. */
    finish_switch_inline(prev);
    irq_restore(flags);
}

/*
 * An involuntary reschedule: an interrupt return or the release of the last
 * spinlock found need_resched set.  The task may be inside wait_event()
 * between prepare_to_wait() (state TASK_SLEEPING) and its test of the
 * condition; taking it off the run queue there would lose a wake-up that
 * came before prepare_to_wait(), for good.  As Linux's PREEMPT_ACTIVE does,
 * a preempted task stays runnable: it is marked TASK_RUNNING again (under its
 * run-queue lock, which serialises with wake_up_task), then re-tests its
 * condition and sleeps through the wait_event() loop.
 */
__switch_path void preempt_schedule(void)
{
    unsigned long flags = irq_save();
    struct cpu *c = this_cpu();
    struct task *self = c->curr;
    if (self->state == TASK_SLEEPING) {
        spin_lock(c->rq_lock);
        if (self->state == TASK_SLEEPING && self->on_rq)
            self->state = TASK_RUNNING;
        spin_release(c->rq_lock);        /* interrupts are off: no nested reschedule */
    }
    schedule();
    irq_restore(flags);
}

/* ---- wake-ups ---- */

static void check_target(struct task *p, int cpu)
{
    if (cpu < 0 || cpu >= ncpus_online || !task_allowed_on(p, cpu))
        sched_bug("select_cpu put %s (pid %d) on cpu %d; cpus_allowed %#x, %d cpus online", p->name, p->pid, cpu,
                  p->cpus_allowed, ncpus_online);
}

/* sched.h's default placement: an idle CPU if there is one (its own first). */
static int default_select_cpu(struct task *p, int waker_cpu, int flags)
{
    int prev = p->cpu;
    bool prev_ok = prev < ncpus_online && task_allowed_on(p, prev);
    if (prev_ok && sched_cpu_is_idle(prev))
        return prev;
    for (int cpu = 0; cpu < ncpus_online; cpu++)
        if (task_allowed_on(p, cpu) && sched_cpu_is_idle(cpu))
            return cpu;
    return prev_ok ? prev : sched_first_allowed_cpu(p);
}

static inline int select_cpu(struct task *p, int waker_cpu, int flags)
{
    int target = scheduler.select_cpu ? scheduler.select_cpu(p, waker_cpu, flags)
                                      : default_select_cpu(p, waker_cpu, flags);
    if (env_checks_on())
        check_target(p, target);
    return target;
}

/* target's run-queue lock held: queue p there as runnable. */
static inline __attribute__((always_inline)) void enqueue_woken(int target, struct task *p, int enqueue_flags)
{
    struct cpu *tc = &cpus[target];      /* once: the index is a multiply */
    p->state = TASK_RUNNING;
    tc->stats.wakeups++;
    do_enqueue_on(tc, target, p, enqueue_flags);
    if (tc->curr == tc->idle)            /* sched_cpu_is_idle(target) */
        sched_resched_cpu(target);
}

/* WAKE_SYNC and WAKE_IRQ shifted onto ENQUEUE_SYNC and ENQUEUE_IRQ: no branches. */
_Static_assert(ENQUEUE_SYNC == WAKE_SYNC << 3 && ENQUEUE_IRQ == WAKE_IRQ << 2, "enqueue_flags_for's shifts");
static inline int enqueue_flags_for(int wake_flags)
{
    return ENQUEUE_WAKEUP | ((wake_flags & WAKE_SYNC) << 3) | ((wake_flags & WAKE_IRQ) << 2);
}

/*
 * As 2.6.0's try_to_wake_up, decided under the task's run-queue lock: a task
 * that has not switched out yet simply keeps running; otherwise the waker
 * claims it (TASK_WAKING: any other waker now returns false), the scheduler
 * picks a CPU and, when that CPU's lock is the one held (the common case),
 * the task is queued without taking another lock.  No per-task lock: under
 * TCG every lock round trip shows in pipe-test.
 */
__switch_path bool wake_up_task(struct task *p, int wake_flags)
{
    unsigned long f = irq_save();
    spinlock_t *lock;
    int cpu = task_rq_lock_get(p, &lock);
    if (p->state != TASK_SLEEPING) {
        spin_unlock_irqrestore(lock, f);
        return false;
    }
    if (p->on_rq) {
        /* It has not reached schedule() yet: it simply keeps running. */
        p->state = TASK_RUNNING;
        spin_unlock_irqrestore(lock, f);
        return true;
    }
    p->state = TASK_WAKING;
    if (p->on_cpu) {
        /* Its CPU is still switching away from it (only possible while a
         * pick_next dropped that lock): wait without holding the lock.  A
         * WAKING task is not moved by anyone else, so p->cpu stays put. */
        spin_release(lock);
        while (p->on_cpu)
            cpu_relax();
        spin_lock(lock);
    }
    int target = select_cpu(p, this_cpu_id(), wake_flags);
    spinlock_t *target_lock = likely(target == cpu) ? lock : rq_lock(target);
    if (target_lock != lock) {
        spin_release(lock);
        spin_lock(target_lock);
    }
    move_to_cpu(p, target);              /* not queued: only the counters move */
    enqueue_woken(target, p, enqueue_flags_for(wake_flags));
    spin_unlock_irqrestore(target_lock, f);
    return true;
}

/*
 * bench=deadlock kind=lostwake (workloads/selftest.c): a wake-up whose kick
 * is lost.  p, asleep, is woken by wake_up_task() while its CPU's
 * need_resched is held at 1, so every sched_resched_cpu() of the wake-up
 * finds a reschedule pending and sends nothing; then it is put back to 0.
 * An idle CPU never looks at its queue by itself, so p stays queued while
 * every CPU idles: what the watchdog's report must name a lost wake-up.
 * Deterministic under vsmp (the idle target does not run meanwhile); under
 * TCG a tick of the target inside the window can still find p.  False if
 * p is not asleep, or is on the caller's CPU, or its CPU has a reschedule
 * pending.  Small and called by nothing else: the kernel's layout, which
 * vsmp's figures see, moves as little as possible.
 */
bool sched_test_wake_unkicked(struct task *p)
{
    struct cpu *c = &cpus[p->cpu];
    if (p->state != TASK_SLEEPING || p->on_rq || p->cpu == this_cpu_id() || c->need_resched)
        return false;
    c->need_resched = 1;
    bool ok = wake_up_task(p, 0);
    c->need_resched = 0;
    return ok;
}

/* The first wake-up of a task that sched_fork() prepared (2.6's wake_up_new_task). */
void wake_up_new_task(struct task *p)
{
    unsigned long f = irq_save();
    int target = select_cpu(p, this_cpu_id(), WAKE_NEW);
    spin_lock(rq_lock(target));
    move_to_cpu(p, target);
    enqueue_woken(target, p, ENQUEUE_NEW);
    spin_unlock_irqrestore(rq_lock(target), f);
}

/* ---- the task's life ---- */

/* child is created by the running task (parent, NULL for the boot context). */
void sched_fork(struct task *parent, struct task *child)
{
    unsigned long f = irq_save();
    int cpu = this_cpu_id();
    child->state = TASK_NEW;
    child->on_rq = 0;
    child->on_cpu = 0;
    child->cpu = cpu;
    if (scheduler.task_fork) {
        spin_lock(rq_lock(cpu));
        assert_rq_held(cpu, "task_fork");
        scheduler.task_fork(parent, child);
        spin_release(rq_lock(cpu));
    }
    irq_restore(f);
}

/* The running task exits: the scheduler hears it, then the last switch (in
 * the kernel it never returns; the host simulation returns from it). */
void sched_exit(void)
{
    struct task *self = current_task();
    if (scheduler.task_exit)
        scheduler.task_exit(self);
    irq_disable();
    self->state = TASK_DEAD;
    schedule();
}

void sched_yield(void)
{
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    if (scheduler.yield) {
        spin_lock(rq_lock(c->id));
        assert_rq_held(c->id, "yield");
        scheduler.yield(c->id, c->curr);
        spin_release(rq_lock(c->id));
    }
    schedule();
    irq_restore(f);
}

void sched_set_nice(struct task *p, int nice)
{
    unsigned long f = irq_save();
    int cpu = task_rq_lock(p);
    if (scheduler.set_nice) {
        assert_rq_held(cpu, "set_nice");
        scheduler.set_nice(cpu, p, nice);
    }
    p->nice = nice;
    spin_unlock_irqrestore(rq_lock(cpu), f);
}

/*
 * p may now run only on mask (already checked against the online CPUs).  A
 * queued task on a CPU it may no longer use moves at once; the running task
 * is rescheduled on its CPU, and schedule() moves it; a sleeper moves at its
 * next wake-up (select_cpu must respect the new mask).
 */
void sched_set_affinity(struct task *p, cpumask_t mask)
{
    unsigned long f = irq_save();
    int cpu;
    for (;;) {
        cpu = task_rq_lock(p);
        if (p->state != TASK_WAKING)
            break;
        spin_release(rq_lock(cpu));      /* a waker or a move is queueing it: let it finish */
        cpu_relax();
    }
    p->cpus_allowed = mask;
    if (scheduler.set_affinity) {
        assert_rq_held(cpu, "set_affinity");
        scheduler.set_affinity(cpu, p, mask);
    }
    bool move = false, kick = false;
    if (!task_allowed_on(p, cpu)) {
        if (p->on_cpu)
            kick = p->on_rq;             /* running: schedule() on its CPU moves it */
        else if (p->on_rq) {
            take_off_for_migration(cpu, p);
            move = true;
        }
    }
    spin_release(rq_lock(cpu));
    if (move)
        requeue_migrated(p);
    if (kick)
        sched_resched_cpu(cpu);
    irq_restore(f);
    if (kick && p == current_task())
        schedule();
}

/* ---- the tick ---- */

/* This CPU's timer tick (interrupts off): the scheduler's tick, then its balance. */
void sched_tick(void)
{
    struct cpu *c = this_cpu();
    int cpu = c->id;
    c->stats.ticks++;
    c->stats.idle_ticks += c->curr->is_idle;
    if (scheduler.tick) {
        if (scheduler.flags & SCHED_TICK_UNLOCKED) {
            scheduler.tick(cpu, c->curr);
        } else {
            spin_lock(rq_lock(cpu));
            assert_rq_held(cpu, "tick");
            scheduler.tick(cpu, c->curr);
            spin_release(rq_lock(cpu));
        }
    }
    if (scheduler.balance)
        scheduler.balance(cpu, c->curr->is_idle);
}

/* ---- reading ---- */

/* Under p's run-queue lock, which schedule() holds from accounting a switch
 * until on_cpu is cleared: read unlocked, a task caught in between would
 * have its last slice counted twice. */
uint64_t task_runtime_ns(struct task *p)
{
    unsigned long f = irq_save();
    int cpu = task_rq_lock(p);
    uint64_t t = p->runtime_ns;
    if (p->on_cpu && !p->is_idle)
        t += clock_ns() - p->last_switch_in_ns;
    spin_release(rq_lock(cpu));
    irq_restore(f);
    return t;
}

const char *sched_name(void) { return scheduler.name; }
