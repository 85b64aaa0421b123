/*
 * The scheduler core: context switches, wake-ups, the tick, accounting.
 *
 * Policy is delegated to the one scheduler compiled in (struct sched_class
 * scheduler, sched/sched.h).  The core guarantees the invariants that every
 * policy relies on and checks them as it goes:
 *   - a CPU's run-queue lock is held from the start of schedule() until the
 *     next task has finished switching in (finish_switch), so a task is never
 *     half switched while someone else holds that lock;
 *   - a task runs on one CPU at a time (on_cpu), only on CPUs in its
 *     cpus_allowed, and only when runnable and queued;
 *   - a wake-up is decided under the task's run-queue lock: the waker that
 *     finds it TASK_SLEEPING marks it TASK_WAKING, and every other waker
 *     then leaves it alone.
 * Violations stop the machine with a report (sched_bug), never silently.
 */
#include "sched_core.h"
#include "../sched/sched.h"
#include "cpu.h"
#include "smp.h"
#include "time.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "stall.h"

struct task *switch_context(struct task *prev, struct task *next);

spinlock_t tasklist_lock = SPINLOCK_INIT("tasklist");
struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);

static struct list_head timer_list = LIST_HEAD_INIT(timer_list);
static spinlock_t timer_lock = SPINLOCK_INIT("timers");

/* When a task last got to run, in units of 2^20 ns (about 1.05 ms): a shift
 * instead of a 64-bit division on every switch, and 32 bits so that other
 * CPUs read it without tearing (it wraps after 52 days). */
#define PROGRESS_SHIFT 20
static volatile uint32_t last_progress;
static uint64_t watchdog_ns = (uint64_t)DEFAULT_WATCHDOG_S * NSEC_PER_SEC;

/* scheduler.runqueue_lock(cpu), asked once per CPU at boot: a CPU's lock
 * never changes, and an indirect call per lock operation is measurable in
 * pipe-test under TCG. */
static spinlock_t *runqueue_locks[MAX_CPUS];
static inline spinlock_t *rq_lock(int cpu) { return runqueue_locks[cpu]; }
spinlock_t *sched_runqueue_lock(int cpu) { return runqueue_locks[cpu]; }

/* ---- services for schedulers (sched/sched.h) ---- */

int sched_this_cpu(void) { return this_cpu_id(); }
struct task *sched_cpu_curr(int cpu) { return cpus[cpu].curr; }
bool sched_cpu_is_idle(int cpu) { return cpus[cpu].curr == cpus[cpu].idle; }
uint64_t sched_cpu_idle_since_ns(int cpu) { return cpus[cpu].idle_since_ns; }
bool sched_task_running(const struct task *p) { return p->on_cpu != 0; }
uint64_t sched_jiffies(void) { return jiffies; }

__switch_path void sched_resched_cpu(int cpu)
{
    struct cpu *target = &cpus[cpu];
    if (xchg(&target->need_resched, 1))
        return;                                  /* already pending: it will look */
    if (cpu != this_cpu_id())
        smp_send_reschedule(cpu);
}

void sched_set_task_cpu(struct task *p, int cpu)
{
    if (!task_allowed_on(p, cpu))
        sched_bug("task %s (pid %d) moved to cpu %d outside its cpus_allowed %#x", p->name, p->pid, cpu,
                  p->cpus_allowed);
    if (p->cpu != cpu) {
        p->nr_migrations++;
        cpus[cpu].stats.migrations++;
        p->cpu = cpu;
    }
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
        spin_unlock(lb);
    spin_unlock(la);
}

static inline int task_runqueue_lock(struct task *p)
{
    for (;;) {
        int cpu = p->cpu;
        spin_lock(rq_lock(cpu));
        if (likely(p->cpu == cpu))
            return cpu;
        spin_unlock(rq_lock(cpu));
    }
}

int sched_task_runqueue_lock(struct task *p) { return task_runqueue_lock(p); }

void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg)
{
    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    struct list_head *pos;
    list_for_each(pos, &all_tasks)
        fn(list_entry(pos, struct task, all_tasks), arg);
    spin_unlock_irqrestore(&tasklist_lock, f);
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

/* ---- boot ---- */

void sched_init(int ncpus)
{
    scheduler.init(ncpus);
    for (int cpu = 0; cpu < MAX_CPUS; cpu++)
        runqueue_locks[cpu] = scheduler.runqueue_lock(cpu);
    watchdog_touch();
}

void sched_init_cpu(int cpu)
{
    struct cpu *c = &cpus[cpu];
    struct task *idle = kzalloc(sizeof(*idle));
    if (!idle)
        panic("no memory for the idle task of cpu %d", cpu);
    snprintf(idle->name, sizeof(idle->name), "idle/%d", cpu);
    idle->pid = 0;
    idle->is_idle = true;
    idle->state = TASK_RUNNING;
    idle->cpu = cpu;
    idle->on_cpu = 1;
    idle->nice = NICE_MAX;
    idle->cpus_allowed = CPU_BIT(cpu);
    spin_lock_init(&idle->wake_lock, "wake");
    list_init(&idle->all_tasks);
    list_init(&idle->timer_entry);
    c->idle = idle;
    c->curr = idle;
    c->idle_since_ns = clock_ns();
}

/* ---- switching ---- */

static void check_stack(struct task *t)
{
    if (t->stack && *(uint32_t *)t->stack != STACK_CANARY)
        panic("stack overflow in task %s (pid %d): canary at %p overwritten", t->name, t->pid, t->stack);
}

/*
 * The stack we run on must be the current task's.  Anything else means a
 * CPU is running one task's code under another's name: a task resumed from
 * a stale context, or per-CPU data read in two steps across a preemption.
 * Both once ran bench-main twice; this check costs a few instructions.
 */
static inline void check_on_own_stack(struct cpu *c, const char *where)
{
    struct task *curr = c->curr;
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    if (!curr->is_idle && (frame & ~(uintptr_t)(TASK_STACK_SIZE - 1)) != (uintptr_t)curr->stack)
        sched_bug("%s: cpu %d runs on stack %p but its current task %s (pid %d) owns %p", where, c->id,
                  (void *)frame, curr->name, curr->pid, curr->stack);
}

static void account_switch(struct cpu *c, struct task *prev, struct task *next, uint64_t now)
{
    if (prev->is_idle)
        c->stats.idle_ns += now - c->idle_since_ns;
    else
        prev->runtime_ns += now - prev->last_switch_in_ns;
    if (next->is_idle) {
        c->idle_since_ns = now;
    } else {
        next->last_switch_in_ns = now;
        next->nr_switches_in++;
        next->cpus_run_mask |= CPU_BIT(c->id);
        if (next->woken_at_ns) {
            next->wakeup_latency_ns = now - next->woken_at_ns;
            next->woken_at_ns = 0;
        }
        last_progress = (uint32_t)(now >> PROGRESS_SHIFT);
    }
    c->stats.context_switches++;
}

static void check_next(int cpu, struct task *prev, struct task *next)
{
    if (next->is_idle)
        return;
    if (!task_allowed_on(next, cpu)) {
        next->affinity_violations++;
        sched_bug("picked %s (pid %d) on cpu %d, cpus_allowed %#x", next->name, next->pid, cpu,
                  next->cpus_allowed);
    }
    if (next != prev && next->on_cpu)
        sched_bug("picked %s (pid %d) on cpu %d while it runs on cpu %d", next->name, next->pid, cpu, next->cpu);
    if (!next->on_rq || next->state != TASK_RUNNING)
        sched_bug("picked %s (pid %d) which is not runnable (state %d)", next->name, next->pid, next->state);
}

/* Runs on the new task's stack right after every switch: release what schedule() held. */
static inline __attribute__((always_inline)) void finish_switch_inline(struct task *prev)
{
    struct cpu *c = this_cpu();
    check_on_own_stack(c, "finish_switch");
    bool migrate = prev->requeue_elsewhere;
    bool dead = prev->state == TASK_DEAD;
    prev->requeue_elsewhere = false;
    prev->on_cpu = 0;
    spin_unlock(rq_lock(c->id));
    if (migrate)
        wake_up_task(prev, 0);
    if (dead)
        task_release_after_exit(prev);
}

void finish_switch(struct task *prev) { finish_switch_inline(prev); }

/* Pick and switch.  May be called with interrupts on or off; never while holding a spinlock. */
__switch_path void schedule(void)
{
    unsigned long flags = irq_save();
    struct cpu *c = this_cpu();
    if (c->preempt_count != 0)
        sched_bug("schedule() called while atomic (preempt_count %d) by %s", c->preempt_count, c->curr->name);
    int cpu = c->id;
    struct task *prev = c->curr;
    check_on_own_stack(c, "schedule");
    spin_lock(rq_lock(cpu));
    c->stats.schedule_calls++;
    c->need_resched = 0;
    if (!prev->is_idle) {
        check_stack(prev);
        if (prev->state != TASK_RUNNING) {
            scheduler.dequeue(cpu, prev, prev->state == TASK_DEAD ? DEQUEUE_EXIT : DEQUEUE_SLEEP);
            prev->on_rq = 0;
        } else if (!task_allowed_on(prev, cpu)) {
            /* Its affinity changed: take it off here, wake it on an allowed CPU after the switch. */
            scheduler.dequeue(cpu, prev, DEQUEUE_MIGRATE);
            prev->on_rq = 0;
            prev->state = TASK_SLEEPING;
            prev->requeue_elsewhere = true;  /* finish_switch wakes it on an allowed CPU */
        }
    }
    uint64_t t0 = rdtsc();
    struct task *next = scheduler.pick_next(cpu, prev);
    uint64_t t1 = rdtsc();       /* also the switch's timestamp: one RDTSC less */
    c->stats.pick_cycles += t1 - t0;
    c->stats.picks++;
    if (!next)
        next = c->idle;
    check_next(cpu, prev, next);
    if (next == prev) {
        spin_unlock(rq_lock(cpu));
        irq_restore(flags);
        return;
    }
    if (next->cpu != cpu)      /* only a shared-lock scheduler may hand over another CPU's task */
        sched_set_task_cpu(next, cpu);
    account_switch(c, prev, next, cycles_to_ns(t1 - tsc_at_boot));
    next->on_cpu = 1;
    c->curr = next;
    prev = switch_context(prev, next);
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
        spin_lock(rq_lock(c->id));
        if (self->state == TASK_SLEEPING && self->on_rq)
            self->state = TASK_RUNNING;
        spin_unlock(rq_lock(c->id));     /* interrupts are off: no nested reschedule */
    }
    schedule();
    irq_restore(flags);
}


void task_start(struct task *prev)
{
    finish_switch(prev);
    /* current_task(), one %gs load: "this_cpu()->curr" is two, and a task
     * preempted and moved between them read the task now current on the CPU
     * it had left and ran that task's entry a second time. */
    struct task *self = current_task();
    irq_enable();
    self->entry(self->arg);
    task_exit(0);
}

void idle_loop(void)
{
    for (;;) {
        irq_disable();
        struct cpu *c = this_cpu();
        if (c->need_resched) {
            irq_enable();
            schedule();
            continue;
        }
        __asm__ volatile("sti; hlt" ::: "memory");   /* sti's shadow makes this atomic */
    }
}

/* ---- wake-ups ---- */

static void check_target(struct task *p, int cpu)
{
    if (cpu < 0 || cpu >= ncpus_online || !task_allowed_on(p, cpu))
        sched_bug("select_cpu put %s (pid %d) on cpu %d; cpus_allowed %#x, %d cpus online", p->name, p->pid, cpu,
                  p->cpus_allowed, ncpus_online);
}

/* target's run-queue lock held: queue p there as runnable. */
static inline __attribute__((always_inline)) void enqueue_locked(int target, struct task *p, int enqueue_flags, uint64_t now)
{
    p->state = TASK_RUNNING;
    p->on_rq = 1;
    p->woken_at_ns = now;
    cpus[target].stats.wakeups++;
    scheduler.enqueue(target, p, enqueue_flags);
    if (sched_cpu_is_idle(target))
        sched_resched_cpu(target);
}

static void enqueue_on(int target, struct task *p, int enqueue_flags)
{
    spin_lock(rq_lock(target));
    enqueue_locked(target, p, enqueue_flags, clock_ns());
    spin_unlock(rq_lock(target));
}

static int enqueue_flags_for(int wake_flags)
{
    return ENQUEUE_WAKEUP | ((wake_flags & WAKE_SYNC) ? ENQUEUE_SYNC : 0) | ((wake_flags & WAKE_IRQ) ? ENQUEUE_IRQ : 0);
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
    int cpu = task_runqueue_lock(p);
    if (p->state != TASK_SLEEPING) {
        spin_unlock_irqrestore(rq_lock(cpu), f);
        return false;
    }
    if (p->on_rq) {
        /* It has not reached schedule() yet: it simply keeps running. */
        p->state = TASK_RUNNING;
        spin_unlock_irqrestore(rq_lock(cpu), f);
        return true;
    }
    p->state = TASK_WAKING;
    if (p->on_cpu) {
        /* Its CPU is still switching away from it (only possible while a
         * pick_next dropped that lock): wait without holding the lock.  A
         * WAKING task is not moved by anyone else, so p->cpu stays put. */
        spin_unlock(rq_lock(cpu));
        while (p->on_cpu)
            cpu_relax();
        spin_lock(rq_lock(cpu));
    }
    int target = scheduler.select_cpu(p, this_cpu_id(), wake_flags);
    check_target(p, target);
    if (rq_lock(target) != rq_lock(cpu)) {
        spin_unlock(rq_lock(cpu));
        spin_lock(rq_lock(target));
    }
    if (target != cpu)
        sched_set_task_cpu(p, target);
    enqueue_locked(target, p, enqueue_flags_for(wake_flags), clock_ns());
    spin_unlock_irqrestore(rq_lock(target), f);
    return true;
}

void wake_up_new_task(struct task *p)
{
    unsigned long f = spin_lock_irqsave(&p->wake_lock);
    int target = scheduler.select_cpu(p, this_cpu()->id, WAKE_NEW);
    check_target(p, target);
    if (target != p->cpu)
        sched_set_task_cpu(p, target);
    enqueue_on(target, p, ENQUEUE_NEW);
    spin_unlock_irqrestore(&p->wake_lock, f);
}

/* ---- timers and the tick ---- */

void task_sleep_ns(uint64_t ns)
{
    struct task *self = current_task();
    self->timer_deadline_ns = clock_ns() + ns;
    unsigned long f = spin_lock_irqsave(&timer_lock);
    struct list_head *pos;
    list_for_each(pos, &timer_list)     /* keep the list sorted by deadline */
        if (list_entry(pos, struct task, timer_entry)->timer_deadline_ns > self->timer_deadline_ns)
            break;
    list_add_tail(&self->timer_entry, pos);
    self->state = TASK_SLEEPING;
    spin_unlock(&timer_lock);           /* keep interrupts off until schedule() */
    schedule();
    irq_restore(f);
}

static void run_timers(uint64_t now)
{
    for (;;) {
        spin_lock(&timer_lock);
        struct task *t = NULL;
        if (!list_empty(&timer_list)) {
            t = list_first_entry(&timer_list, struct task, timer_entry);
            if (t->timer_deadline_ns > now)
                t = NULL;
            else
                list_del(&t->timer_entry);
        }
        bool pending = !list_empty(&timer_list);
        spin_unlock(&timer_lock);
        if (!t) {
            if (pending)
                last_progress = (uint32_t)(now >> PROGRESS_SHIFT); /* waiting for a timer is not a stall */
            return;
        }
        wake_up_task(t, WAKE_IRQ);
    }
}

/* The same limit stops a CPU that waits that long for one spinlock (stall.h). */
void watchdog_set_timeout(uint32_t seconds)
{
    watchdog_ns = (uint64_t)seconds * NSEC_PER_SEC;
    spin_set_stall_limit_ns(watchdog_ns);
}
void watchdog_touch(void) { last_progress = (uint32_t)(clock_ns() >> PROGRESS_SHIFT); }

static void watchdog_fire(uint64_t stalled_ns)
{
    static volatile int fired;
    if (xchg(&fired, 1))
        return;             /* another CPU is already reporting */
    char s[32];
    kprintf("watchdog: no progress for %s s (watchdog=%llu)\n", fmt_fixed(s, stalled_ns, NSEC_PER_SEC, 1),
            (unsigned long long)(watchdog_ns / NSEC_PER_SEC));
    for (int i = 0; i < ncpus_online; i++) {
        struct task *t = cpus[i].curr;
        kprintf("watchdog: cpu=%d current=%s pid=%d state=%d runqueue=%d\n", i, t ? t->name : "?", t ? t->pid : -1,
                t ? t->state : -1, scheduler.nr_running(i));
    }
    stall_report_cpus("watchdog");
    machine_exit(EXIT_WATCHDOG);
}

void sched_tick(void)
{
    struct cpu *c = this_cpu();
    int cpu = c->id;
    uint64_t now = clock_ns();
    c->stats.ticks++;
    if (cpu == 0) {
        jiffies++;
        run_timers(now);
    }
    /* Every CPU watches, so one CPU stuck with interrupts off cannot hide a stall. */
    uint64_t last = (uint64_t)last_progress << PROGRESS_SHIFT;
    if (watchdog_ns && now > last && now - last > watchdog_ns)
        watchdog_fire(now - last);
    if (scheduler.tick_unlocked) {
        scheduler.tick(cpu, c->curr);
    } else {
        spin_lock(rq_lock(cpu));
        scheduler.tick(cpu, c->curr);
        spin_unlock(rq_lock(cpu));
    }
    if (scheduler.balance)
        scheduler.balance(cpu, c->curr->is_idle);
}

/* ---- reporting ---- */

/* Under p's run-queue lock, which schedule() holds from accounting a switch
 * until on_cpu is cleared: read unlocked, a task caught in between would
 * have its last slice counted twice. */
uint64_t task_runtime_ns(struct task *p)
{
    unsigned long f = irq_save();
    int cpu = sched_task_runqueue_lock(p);
    uint64_t t = p->runtime_ns;
    if (p->on_cpu && !p->is_idle)
        t += clock_ns() - p->last_switch_in_ns;
    spin_unlock(rq_lock(cpu));
    irq_restore(f);
    return t;
}

void sched_print_stats(void)
{
    uint64_t now = clock_ns();
    kprintf("stackstat stack_bytes=%d max_used_bytes=%d\n", TASK_STACK_SIZE, task_stack_high_water());
    for (int i = 0; i < ncpus_online; i++) {
        struct cpu *c = &cpus[i];
        uint64_t idle = c->stats.idle_ns + (c->curr == c->idle ? now - c->idle_since_ns : 0);
        uint64_t pick = c->stats.picks ? c->stats.pick_cycles / c->stats.picks : 0;
        kprintf("schedstat cpu=%d sched=%s schedule_calls=%llu context_switches=%llu migrations=%llu "
                "wakeups=%llu idle_ms=%llu pick_cycles_total=%llu pick_cycles_avg=%llu ticks=%llu "
                "resched_ipis=%llu\n",
                i, scheduler.name, (unsigned long long)c->stats.schedule_calls,
                (unsigned long long)c->stats.context_switches, (unsigned long long)c->stats.migrations,
                (unsigned long long)c->stats.wakeups, (unsigned long long)(idle / NSEC_PER_MSEC),
                (unsigned long long)c->stats.pick_cycles, (unsigned long long)pick,
                (unsigned long long)c->stats.ticks, (unsigned long long)c->stats.resched_ipis);
    }
}
