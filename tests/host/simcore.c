/* The simulated core (see simcore.h). */
#include "simcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

struct sim_cpu {
    struct task *curr;
    struct task idle;
    bool need_resched;
    uint64_t idle_since;
};

static struct sim_cpu cpus_[MAX_CPUS];
static int ncpus_;
static int this_cpu_;
static uint64_t now_ns;
static uint64_t jiffies_;
static struct task *tasks_[SIM_MAX_TASKS];
static int ntasks_;
static int next_pid = 1;
int sim_affinity_violations;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "simcore: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* ---- the services of sched/sched.h ---- */

int sched_nr_cpus(void) { return ncpus_; }
int sched_this_cpu(void) { return this_cpu_; }
struct task *sched_cpu_curr(int cpu) { return cpus_[cpu].curr; }
bool sched_cpu_is_idle(int cpu) { return cpus_[cpu].curr == &cpus_[cpu].idle; }
uint64_t sched_cpu_idle_since_ns(int cpu) { return cpus_[cpu].idle_since; }
bool sched_task_running(const struct task *p) { return p->on_cpu != 0; }
uint64_t sched_clock_ns(void) { return now_ns; }
uint64_t sched_jiffies(void) { return jiffies_; }
void sched_resched_cpu(int cpu) { cpus_[cpu].need_resched = true; }

void sched_set_task_cpu(struct task *p, int cpu)
{
    if (!task_allowed_on(p, cpu)) {
        sim_affinity_violations++;
        fail("task %s moved to cpu %d outside cpus_allowed %#x", p->name, cpu, p->cpus_allowed);
    }
    if (p->cpu != cpu)
        p->nr_migrations++;
    p->cpu = cpu;
}

void sched_double_lock(int a, int b)
{
    spinlock_t *la = scheduler.runqueue_lock(a), *lb = scheduler.runqueue_lock(b);
    spin_lock(la);
    if (lb != la)
        spin_lock(lb);
}

void sched_double_unlock(int a, int b)
{
    spinlock_t *la = scheduler.runqueue_lock(a), *lb = scheduler.runqueue_lock(b);
    if (lb != la)
        spin_unlock(lb);
    spin_unlock(la);
}

int sched_task_runqueue_lock(struct task *p)
{
    spin_lock(scheduler.runqueue_lock(p->cpu));
    return p->cpu;
}

void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg)
{
    for (int i = 0; i < ntasks_; i++)
        if (tasks_[i]->state != TASK_DEAD)
            fn(tasks_[i], arg);
}

void sched_bug(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sched_bug: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    abort();
}

/* Host spinlocks: single-threaded, but the kernel's debug checks still apply. */
void spin_lock_init(spinlock_t *l, const char *name)
{
    l->holder_cpu = -1;
    l->name = name;
}
void spin_lock(spinlock_t *l)
{
    if (l->holder_cpu != -1)
        fail("spinlock '%s' taken twice (held by %d)", l->name ? l->name : "?", l->holder_cpu);
    l->holder_cpu = this_cpu_;
}
bool spin_trylock(spinlock_t *l)
{
    if (l->holder_cpu != -1)
        return false;
    spin_lock(l);
    return true;
}
void spin_unlock(spinlock_t *l)
{
    if (l->holder_cpu == -1)
        fail("spinlock '%s' released but not held", l->name ? l->name : "?");
    l->holder_cpu = -1;
}
unsigned long spin_lock_irqsave(spinlock_t *l) { spin_lock(l); return 0; }
void spin_unlock_irqrestore(spinlock_t *l, unsigned long f) { (void)f; spin_unlock(l); }
bool spin_is_locked(const spinlock_t *l) { return l->holder_cpu != -1; }
bool spin_held_by_me(const spinlock_t *l) { return l->holder_cpu == this_cpu_; }

/* ---- driving the scheduler ---- */

static spinlock_t *lock_of(int cpu) { return scheduler.runqueue_lock(cpu); }

void sim_reset(void)
{
    for (int i = 0; i < ntasks_; i++)
        free(tasks_[i]);
    ntasks_ = 0;
}

void sim_init(int ncpus)
{
    sim_reset();
    if (ncpus < 1 || ncpus > MAX_CPUS)
        fail("bad cpu count %d", ncpus);
    memset(cpus_, 0, sizeof(cpus_));
    ncpus_ = ncpus;
    now_ns = 1000000000ull;
    jiffies_ = 0;
    next_pid = 1;
    sim_affinity_violations = 0;
    for (int c = 0; c < ncpus; c++) {
        struct task *idle = &cpus_[c].idle;
        snprintf(idle->name, sizeof(idle->name), "idle/%d", c);
        idle->is_idle = true;
        idle->state = TASK_RUNNING;
        idle->cpu = c;
        idle->on_cpu = 1;
        idle->cpus_allowed = CPU_BIT(c);
        cpus_[c].curr = idle;
        cpus_[c].idle_since = now_ns;
    }
    scheduler.init(ncpus);
}

static void check_target(struct task *p, int cpu)
{
    if (cpu < 0 || cpu >= ncpus_ || !task_allowed_on(p, cpu)) {
        sim_affinity_violations++;
        fail("select_cpu put %s on cpu %d (allowed %#x)", p->name, cpu, p->cpus_allowed);
    }
}

static void enqueue_on(int cpu, struct task *p, int flags)
{
    this_cpu_ = cpu;  /* the core holds the target's lock; "this cpu" stays the waker's in reality */
    spin_lock(lock_of(cpu));
    p->state = TASK_RUNNING;
    p->on_rq = 1;
    scheduler.enqueue(cpu, p, flags);
    if (sched_cpu_is_idle(cpu))
        sched_resched_cpu(cpu);
    spin_unlock(lock_of(cpu));
}

struct task *sim_spawn(const char *name, int nice, cpumask_t mask, struct task *parent, int parent_cpu)
{
    if (ntasks_ == SIM_MAX_TASKS)
        fail("too many tasks");
    struct task *p = calloc(1, sizeof(*p));
    if (!p)
        fail("out of memory");
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->pid = next_pid++;
    p->state = TASK_NEW;
    p->nice = nice;
    p->policy = SCHED_NORMAL;
    p->cpus_allowed = mask ? mask : (ncpus_ >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_) - 1);
    p->mm = p->pid;
    p->parent = parent;
    p->cpu = parent_cpu;
    spin_lock_init(&p->wake_lock, "wake");
    tasks_[ntasks_++] = p;
    this_cpu_ = parent_cpu;
    spin_lock(lock_of(parent_cpu));
    scheduler.task_fork(parent, p);
    spin_unlock(lock_of(parent_cpu));
    int target = scheduler.select_cpu(p, parent_cpu, WAKE_NEW);
    check_target(p, target);
    sched_set_task_cpu(p, target);
    enqueue_on(target, p, ENQUEUE_NEW);
    this_cpu_ = parent_cpu;
    return p;
}

struct task *sim_spawn_rt(const char *name, int policy, int rt_priority, cpumask_t mask)
{
    /* Real-time attributes are set before the first wake-up, as task_create does. */
    if (ntasks_ == SIM_MAX_TASKS)
        fail("too many tasks");
    struct task *p = calloc(1, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->pid = next_pid++;
    p->state = TASK_NEW;
    p->policy = policy;
    p->rt_priority = rt_priority;
    p->cpus_allowed = mask ? mask : (ncpus_ >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_) - 1);
    p->mm = p->pid;
    spin_lock_init(&p->wake_lock, "wake");
    tasks_[ntasks_++] = p;
    this_cpu_ = 0;
    spin_lock(lock_of(0));
    scheduler.task_fork(NULL, p);
    spin_unlock(lock_of(0));
    int target = scheduler.select_cpu(p, 0, WAKE_NEW);
    check_target(p, target);
    sched_set_task_cpu(p, target);
    enqueue_on(target, p, ENQUEUE_NEW);
    return p;
}

struct task *sim_curr(int cpu) { return cpus_[cpu].curr; }
bool sim_need_resched(int cpu) { return cpus_[cpu].need_resched; }

void sim_schedule(int cpu)
{
    struct sim_cpu *c = &cpus_[cpu];
    struct task *prev = c->curr;
    this_cpu_ = cpu;
    spin_lock(lock_of(cpu));
    c->need_resched = false;
    bool requeue = false;
    if (!prev->is_idle && prev->state != TASK_RUNNING) {
        scheduler.dequeue(cpu, prev, prev->state == TASK_DEAD ? DEQUEUE_EXIT : DEQUEUE_SLEEP);
        prev->on_rq = 0;
    } else if (!prev->is_idle && !task_allowed_on(prev, cpu)) {
        /* Affinity changed under it: off this CPU, woken on an allowed one after the switch. */
        scheduler.dequeue(cpu, prev, DEQUEUE_MIGRATE);
        prev->on_rq = 0;
        prev->state = TASK_SLEEPING;
        requeue = true;
    }
    struct task *next = scheduler.pick_next(cpu, prev);
    if (!next)
        next = &c->idle;
    if (!next->is_idle) {
        if (!task_allowed_on(next, cpu)) {
            sim_affinity_violations++;
            fail("picked %s on cpu %d, allowed %#x", next->name, cpu, next->cpus_allowed);
        }
        if (next != prev && next->on_cpu)
            fail("picked %s on cpu %d while it runs on cpu %d", next->name, cpu, next->cpu);
        if (!next->on_rq || next->state != TASK_RUNNING)
            fail("picked %s which is not runnable", next->name);
        if (next->cpu != cpu)
            sched_set_task_cpu(next, cpu);
    }
    if (next != prev) {
        if (prev->is_idle)
            ;
        else
            prev->on_cpu = 0;
        if (next->is_idle)
            c->idle_since = now_ns;
        next->on_cpu = 1;
        next->nr_switches_in++;
        next->cpus_run_mask |= CPU_BIT(cpu);
        c->curr = next;
    }
    spin_unlock(lock_of(cpu));
    if (requeue)
        sim_wake(prev, cpu, 0);
}

void sim_reschedule_pending(void)
{
    /* Repeat: a schedule() may ask another CPU to reschedule. */
    for (int round = 0; round < 4; round++) {
        bool any = false;
        for (int cpu = 0; cpu < ncpus_; cpu++)
            if (cpus_[cpu].need_resched) {
                sim_schedule(cpu);
                any = true;
            }
        if (!any)
            return;
    }
}

void sim_tick(void)
{
    now_ns += SIM_TICK_NS;
    jiffies_++;
    for (int cpu = 0; cpu < ncpus_; cpu++) {
        struct task *curr = cpus_[cpu].curr;
        if (!curr->is_idle)
            curr->runtime_ns += SIM_TICK_NS;
        this_cpu_ = cpu;
        spin_lock(lock_of(cpu));
        scheduler.tick(cpu, curr);
        spin_unlock(lock_of(cpu));
    }
    if (scheduler.balance)
        for (int cpu = 0; cpu < ncpus_; cpu++) {
            this_cpu_ = cpu;
            scheduler.balance(cpu, cpus_[cpu].curr->is_idle);
        }
    sim_reschedule_pending();
}

void sim_run(int ticks)
{
    for (int i = 0; i < ticks; i++)
        sim_tick();
}

void sim_advance(uint64_t ns)
{
    for (int cpu = 0; cpu < ncpus_; cpu++)
        if (!cpus_[cpu].curr->is_idle)
            cpus_[cpu].curr->runtime_ns += ns;
    now_ns += ns;
}

void sim_block(int cpu)
{
    struct task *p = cpus_[cpu].curr;
    if (p->is_idle)
        fail("sim_block on idle cpu %d", cpu);
    p->state = TASK_SLEEPING;
    sim_schedule(cpu);
}

void sim_wake(struct task *p, int waker_cpu, int flags)
{
    if (p->state != TASK_SLEEPING)
        fail("sim_wake: %s is not sleeping", p->name);
    if (p->on_rq) {            /* has not reached schedule() yet */
        p->state = TASK_RUNNING;
        return;
    }
    this_cpu_ = waker_cpu;
    int target = scheduler.select_cpu(p, waker_cpu, flags);
    check_target(p, target);
    sched_set_task_cpu(p, target);
    int ef = ENQUEUE_WAKEUP | ((flags & WAKE_SYNC) ? ENQUEUE_SYNC : 0) | ((flags & WAKE_IRQ) ? ENQUEUE_IRQ : 0);
    enqueue_on(target, p, ef);
    this_cpu_ = waker_cpu;
}

void sim_exit_task(int cpu)
{
    struct task *p = cpus_[cpu].curr;
    this_cpu_ = cpu;
    if (scheduler.task_exit)
        scheduler.task_exit(p);
    p->state = TASK_DEAD;
    sim_schedule(cpu);
}

void sim_yield(int cpu)
{
    this_cpu_ = cpu;
    spin_lock(lock_of(cpu));
    if (scheduler.yield)
        scheduler.yield(cpu, cpus_[cpu].curr);
    spin_unlock(lock_of(cpu));
    sim_schedule(cpu);
}

void sim_set_nice(struct task *p, int nice)
{
    int cpu = p->cpu;
    this_cpu_ = cpu;
    spin_lock(lock_of(cpu));
    if (scheduler.set_nice)
        scheduler.set_nice(cpu, p, nice);
    p->nice = nice;
    spin_unlock(lock_of(cpu));
    sim_reschedule_pending();
}

void sim_set_affinity(struct task *p, cpumask_t mask)
{
    int cpu = p->cpu;
    this_cpu_ = cpu;
    spin_lock(lock_of(cpu));
    p->cpus_allowed = mask;
    if (scheduler.set_affinity)
        scheduler.set_affinity(cpu, p, mask);
    bool move = p->on_rq && !p->on_cpu && !task_allowed_on(p, cpu);
    bool kick = p->on_cpu && !task_allowed_on(p, cpu);
    if (move) {
        scheduler.dequeue(cpu, p, DEQUEUE_MIGRATE);
        p->on_rq = 0;
    }
    spin_unlock(lock_of(cpu));
    if (move) {
        int target = scheduler.select_cpu(p, cpu, 0);
        check_target(p, target);
        sched_set_task_cpu(p, target);
        enqueue_on(target, p, ENQUEUE_MIGRATE);
    }
    if (kick)
        sim_schedule(cpu);     /* as the kernel core does: schedule() moves it off this CPU */
    sim_reschedule_pending();
}

uint64_t sim_runtime_ns(struct task *p) { return p->runtime_ns; }
int sim_task_count(void) { return ntasks_; }
struct task *sim_task(int i) { return tasks_[i]; }
