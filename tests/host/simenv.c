/* The simulated machine under the real scheduler core (see simenv.h). */
#include "simenv.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

struct cpu cpus[MAX_CPUS];
int ncpus_online;
uint64_t tsc_at_boot;
volatile uint64_t jiffies;
jmp_buf *sim_bug_jump;
char sim_bug_message[256];

static int executing_cpu;           /* the CPU the simulation runs code on now */
static uint64_t now_ns;
static struct task idle_tasks[MAX_CPUS];
static struct task *tasks[SIM_MAX_TASKS];
static int ntasks;
static int next_pid = 1;

/* ---- the machine layer of kernel/sched_env.h ---- */

struct cpu *this_cpu(void) { return &cpus[executing_cpu]; }
int this_cpu_id(void) { return executing_cpu; }
struct task *current_task(void) { return cpus[executing_cpu].curr; }
uint64_t clock_ns(void) { return now_ns; }
uint64_t rdtsc(void) { return now_ns; }
unsigned long irq_save(void) { return 0; }
void irq_restore(unsigned long flags) { (void)flags; }
void irq_enable(void) {}
void irq_disable(void) {}
void smp_send_reschedule(int cpu) { cpus[cpu].stats.resched_ipis++; }

/* next resumes at once, so the task that finish_switch releases is prev. */
struct task *switch_context(struct task *prev, struct task *next)
{
    (void)next;
    return prev;
}

void task_release_after_exit(struct task *p) { p->exited = true; }

/* The kernel reloads CR3 here (kernel/sched_env.h); the simulation has one address space. */
void env_switch_mm(struct cpu *c, struct task *next) { (void)c, (void)next; }

void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg)
{
    for (int i = 0; i < ntasks; i++)
        if (tasks[i]->state != TASK_DEAD)
            fn(tasks[i], arg);
}

/* The core's and the schedulers' console lines: kept, not printed (tests may read sim_log). */
char sim_log[8192];
static size_t sim_log_len;

void kprintf(const char *fmt, ...)
{
    if (sim_log_len > sizeof(sim_log) - 256)
        sim_log_len = 0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sim_log + sim_log_len, sizeof(sim_log) - sim_log_len, fmt, ap);
    va_end(ap);
    if (n > 0)
        sim_log_len += (size_t)n < sizeof(sim_log) - sim_log_len ? (size_t)n : sizeof(sim_log) - sim_log_len - 1;
}

void panic(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim_bug_message, sizeof(sim_bug_message), fmt, ap);
    va_end(ap);
    if (sim_bug_jump)
        longjmp(*sim_bug_jump, 1);
    fail_msg("core: %s", sim_bug_message);
    abort();    /* not reached: fail_msg leaves the test */
}

void machine_exit(int code) { panic("machine_exit(%d)", code); }

/* ---- spinlocks: single-threaded, with the kernel's checks ---- */

void spin_lock_init(spinlock_t *l, const char *name)
{
    l->slock = 1;
    l->holder_cpu = -1;
    l->name = name;
}
void spin_lock(spinlock_t *l)
{
    if (l->holder_cpu == executing_cpu)
        panic("spinlock '%s': recursive lock on cpu %d", l->name, executing_cpu);
    if (l->holder_cpu != -1)   /* single-threaded: nobody would ever release it */
        panic("spinlock '%s': cpu %d waits for it, held by cpu %d", l->name, executing_cpu, l->holder_cpu);
    l->holder_cpu = executing_cpu;
    l->slock = 0;
}
bool spin_trylock(spinlock_t *l)
{
    if (l->holder_cpu == executing_cpu)
        panic("spinlock '%s': recursive trylock on cpu %d", l->name, executing_cpu);
    if (l->holder_cpu != -1)
        return false;
    spin_lock(l);
    return true;
}
void spin_release(spinlock_t *l)
{
    if (l->holder_cpu != executing_cpu)
        panic("spinlock '%s': unlocked on cpu %d but held by %d", l->name, executing_cpu, l->holder_cpu);
    l->holder_cpu = -1;
    l->slock = 1;
}
void spin_unlock(spinlock_t *l) { spin_release(l); }
unsigned long spin_lock_irqsave(spinlock_t *l)
{
    spin_lock(l);
    return 0;
}
void spin_unlock_irqrestore(spinlock_t *l, unsigned long f)
{
    (void)f;
    spin_release(l);
}
bool spin_is_locked(const spinlock_t *l) { return l->holder_cpu != -1; }
bool spin_held_by_me(const spinlock_t *l) { return l->holder_cpu == executing_cpu; }
void spin_set_stall_limit_ns(uint64_t ns) { (void)ns; }

/* ---- the driver ---- */

void sim_reset(void)
{
    for (int i = 0; i < ntasks; i++)
        free(tasks[i]);
    ntasks = 0;
}

void sim_init(int ncpus)
{
    sim_reset();
    if (ncpus < 1 || ncpus > MAX_CPUS)
        panic("sim_init: bad cpu count %d", ncpus);
    memset(cpus, 0, sizeof(cpus));
    memset(idle_tasks, 0, sizeof(idle_tasks));
    ncpus_online = ncpus;
    now_ns = 1000000000ull;
    jiffies = 0;
    next_pid = 1;
    executing_cpu = 0;
    sim_log_len = 0;
    sim_log[0] = 0;
    sched_init(ncpus);      /* the kernel's order: run queues first, then each CPU's idle task */
    for (int c = 0; c < ncpus; c++) {
        executing_cpu = c;
        cpus[c].online = true;
        sched_setup_idle(c, &idle_tasks[c]);
    }
    executing_cpu = 0;
}

static struct task *new_task(const char *name, int nice, int policy, int rt_priority, cpumask_t mask,
                             struct task *parent)
{
    if (ntasks == SIM_MAX_TASKS)
        panic("sim: too many tasks");
    struct task *p = calloc(1, sizeof(*p));
    if (!p)
        panic("sim: out of memory");
    cpumask_t online = ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1;
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->pid = next_pid++;
    p->nice = nice;
    p->policy = policy;
    p->rt_priority = rt_priority;
    p->cpus_allowed = (mask ? mask : CPUMASK_ALL) & online;
    if (!p->cpus_allowed)
        panic("sim: task %s may run on no online cpu (mask %#x)", name, mask);
    p->mm = p->pid;
    p->parent = parent;
    list_init(&p->all_tasks);
    list_init(&p->timer_entry);
    if (parent)
        parent->live_children++;
    tasks[ntasks++] = p;
    return p;
}

/* As kernel/task.c's task_create after the allocation: sched_fork, then the first wake-up. */
static void fork_and_wake(struct task *parent, struct task *p, int cpu)
{
    executing_cpu = cpu;
    sched_fork(parent, p);
    wake_up_new_task(p);
}

struct task *sim_spawn(const char *name, int nice, cpumask_t mask, struct task *parent, int parent_cpu)
{
    struct task *p = new_task(name, nice, SCHED_NORMAL, 0, mask, parent);
    fork_and_wake(parent, p, parent_cpu);
    return p;
}

struct task *sim_spawn_rt(const char *name, int policy, int rt_priority, cpumask_t mask)
{
    struct task *p = new_task(name, 0, policy, rt_priority, mask, NULL);
    fork_and_wake(NULL, p, 0);
    return p;
}

struct task *sim_curr(int cpu) { return cpus[cpu].curr; }
bool sim_need_resched(int cpu) { return cpus[cpu].need_resched != 0; }
uint64_t sim_now_ns(void) { return now_ns; }

void sim_on_cpu(int cpu) { executing_cpu = cpu; }

void sim_schedule(int cpu)
{
    executing_cpu = cpu;
    schedule();
}

void sim_reschedule_pending(void)
{
    /* Repeat: a schedule() may ask another CPU to reschedule. */
    for (int round = 0; round < 8; round++) {
        bool any = false;
        for (int cpu = 0; cpu < ncpus_online; cpu++)
            if (cpus[cpu].need_resched) {
                sim_schedule(cpu);
                any = true;
            }
        if (!any)
            return;
    }
}

/* Each CPU's timer interrupt in turn: jiffies on CPU 0, then sched_tick(),
 * and the preemption the interrupt's return would do. */
void sim_tick(void)
{
    now_ns += SIM_TICK_NS;
    jiffies++;
    for (int cpu = 0; cpu < ncpus_online; cpu++) {
        executing_cpu = cpu;
        sched_tick();
        if (cpus[cpu].need_resched)
            schedule();
    }
    sim_reschedule_pending();
}

void sim_run(int ticks)
{
    for (int i = 0; i < ticks; i++)
        sim_tick();
}

void sim_advance(uint64_t ns) { now_ns += ns; }

void sim_block(int cpu)
{
    struct task *p = cpus[cpu].curr;
    if (p->is_idle)
        panic("sim_block: cpu %d runs its idle task", cpu);
    p->state = TASK_SLEEPING;
    sim_schedule(cpu);
}

void sim_wake(struct task *p, int waker_cpu, int flags)
{
    if (p->state != TASK_SLEEPING)
        panic("sim_wake: %s is not sleeping (state %d)", p->name, p->state);
    executing_cpu = waker_cpu;
    wake_up_task(p, flags);
}

void sim_exit_task(int cpu)
{
    executing_cpu = cpu;
    if (cpus[cpu].curr->is_idle)
        panic("sim_exit_task: cpu %d runs its idle task", cpu);
    sched_exit();
}

void sim_yield(int cpu)
{
    executing_cpu = cpu;
    sched_yield();
}

void sim_set_nice(struct task *p, int nice)
{
    executing_cpu = p->cpu;
    sched_set_nice(p, nice);
    sim_reschedule_pending();
}

/* Called from p's own CPU: a running task changes its own affinity, as in bench=pingpong migrate=1. */
void sim_set_affinity(struct task *p, cpumask_t mask)
{
    executing_cpu = p->cpu;
    cpumask_t online = ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1;
    if (!(mask & online))
        panic("sim_set_affinity: mask %#x has no online cpu", mask);
    sched_set_affinity(p, mask & online);
    sim_reschedule_pending();
}

uint64_t sim_runtime_ns(struct task *p) { return task_runtime_ns(p); }
int sim_task_count(void) { return ntasks; }
struct task *sim_task(int i) { return tasks[i]; }

const char *sim_check_invariants(void)
{
    static char why[200];
    int queued[MAX_CPUS] = { 0 };
    for (int i = 0; i < ntasks; i++) {
        struct task *p = tasks[i];
        int running_on = -1;
        for (int c = 0; c < ncpus_online; c++)
            if (cpus[c].curr == p) {
                if (running_on >= 0)
                    return snprintf(why, sizeof(why), "%s runs on cpus %d and %d", p->name, running_on, c), why;
                running_on = c;
            }
        if (running_on >= 0 && (!p->on_cpu || p->cpu != running_on || p->state != TASK_RUNNING))
            return snprintf(why, sizeof(why), "%s is current on cpu %d but on_cpu=%d cpu=%d state=%d", p->name,
                            running_on, p->on_cpu, p->cpu, p->state), why;
        if (running_on < 0 && p->on_cpu)
            return snprintf(why, sizeof(why), "%s has on_cpu set but runs nowhere", p->name), why;
        if (running_on >= 0 && !task_allowed_on(p, running_on))
            return snprintf(why, sizeof(why), "%s runs on cpu %d outside %#x", p->name, running_on, p->cpus_allowed),
                   why;
        if (p->on_rq) {
            if (p->state != TASK_RUNNING)
                return snprintf(why, sizeof(why), "%s is queued in state %d", p->name, p->state), why;
            queued[p->cpu]++;
        } else if (p->state == TASK_RUNNING) {
            return snprintf(why, sizeof(why), "%s is runnable but not queued", p->name), why;
        }
        if (p->cpu < 0 || p->cpu >= ncpus_online)
            return snprintf(why, sizeof(why), "%s belongs to offline cpu %d", p->name, p->cpu), why;
        if ((p->cpus_run_mask & ~(ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1)) != 0)
            return snprintf(why, sizeof(why), "%s ran on an offline cpu (mask %#x)", p->name, p->cpus_run_mask), why;
    }
    for (int c = 0; c < ncpus_online; c++) {
        if (queued[c] != cpus[c].nr_queued)
            return snprintf(why, sizeof(why), "cpu %d counts %d queued tasks, %d are", c, cpus[c].nr_queued,
                            queued[c]), why;
        if (spin_is_locked(cpus[c].rq_lock))
            return snprintf(why, sizeof(why), "cpu %d's run-queue lock is held between operations", c), why;
        if (!cpus[c].curr->is_idle && !cpus[c].curr->on_rq)
            return snprintf(why, sizeof(why), "cpu %d runs %s, which is not queued", c, cpus[c].curr->name), why;
    }
    return NULL;
}

uint32_t sim_rng(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (uint32_t)((*state * 2685821657736338717ull) >> 32);
}

int sim_mix(const struct sim_mix *m, struct task **t)
{
    uint64_t *r = m->seed;
    int n = 0;
    for (int step = 0; step < m->steps; step++) {
        uint32_t op = sim_rng(r) % 100;
        int cpu = (int)(sim_rng(r) % 4);
        int aff_end = 40 + m->affinity_pct, yield_end = aff_end + 4, exit_end = yield_end + 2;
        if (op < 8 && n < m->max_tasks) {
            struct task *parent = sim_curr(cpu)->is_idle ? NULL : sim_curr(cpu);
            cpumask_t mask = 0;
            if (m->spawn_masks) {
                mask = sim_rng(r) % 4 == 0 ? CPU_BIT(sim_rng(r) % 4) | CPU_BIT(sim_rng(r) % 4) : 0;
                if (mask && !(mask & CPU_BIT(cpu)) && parent)
                    parent = NULL;
            }
            if (m->rt && sim_rng(r) % 10 == 0) {
                int policy = m->rt == 2 && sim_rng(r) % 2 ? SCHED_FIFO : SCHED_RR;
                t[n++] = sim_spawn_rt("rt", policy, 1 + (int)(sim_rng(r) % 99), mask);
            } else {
                t[n++] = sim_spawn("t", (int)(sim_rng(r) % 40) - 20, mask, parent, cpu);
            }
            sim_reschedule_pending();
        } else if (op < 20) {
            if (!sim_curr(cpu)->is_idle)
                sim_block(cpu);
        } else if (op < 35 && n) {
            struct task *p = t[sim_rng(r) % n];
            if (p->state == TASK_SLEEPING) {
                int flags = m->irq_wakes ? (sim_rng(r) % 3 == 0 ? WAKE_SYNC : sim_rng(r) % 2 ? WAKE_IRQ : 0)
                                         : (sim_rng(r) % 2 ? WAKE_SYNC : 0);
                sim_wake(p, cpu, flags);
                sim_reschedule_pending();
            }
        } else if (op < 40 && n) {
            struct task *p = t[sim_rng(r) % n];
            if (p->state != TASK_DEAD)
                sim_set_nice(p, (int)(sim_rng(r) % 40) - 20);
        } else if (op < (uint32_t)aff_end && n) {
            struct task *p = t[sim_rng(r) % n];
            if (p->state != TASK_DEAD && p->state != TASK_SLEEPING) {
                cpumask_t mask = m->affinity_pct == 4 && sim_rng(r) % 3 == 0 ? 0xf
                                                                             : CPU_BIT(sim_rng(r) % 4) | CPU_BIT(sim_rng(r) % 4);
                sim_set_affinity(p, mask);
            }
        } else if (op < (uint32_t)yield_end) {
            if (!sim_curr(cpu)->is_idle)
                sim_yield(cpu);
        } else if (op < (uint32_t)exit_end) {
            /* RT hogs would starve everything; let exits keep the mix moving. */
            if (!sim_curr(cpu)->is_idle)
                sim_exit_task(cpu);
        } else {
            sim_tick();
        }
        m->check(step);
    }
    return n;
}
