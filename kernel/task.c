/*
 * The task API: create, exit, wait, yield, nice, affinity.
 *
 * A task is one heap object (struct task) plus a one-page stack.  The stack
 * is freed right after the task's last switch-out (finish_switch, on another
 * task's stack); the struct is freed once task_wait() has collected the exit
 * code and all of the task's children have exited, so a scheduler may still
 * look at p->parent while p exits.
 */
#include "task.h"
#include "sched_core.h"
#include "../sched/sched.h"
#include "cpu.h"
#include "mem.h"
#include "wait.h"
#include "lib.h"
#include "x86.h"

extern void task_first_entry(void);

static volatile int next_pid = 1;
static volatile int next_mm = 1;
static volatile int nr_tasks;
static struct waitqueue exit_wq = { SPINLOCK_INIT("exit_wq"), LIST_HEAD_INIT(exit_wq.waiters) };

int task_count(void) { return nr_tasks; }
int new_mm_id(void) { return atomic_add_return(&next_mm, 1); }

static cpumask_t online_mask(void)
{
    return ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1;
}

struct task *task_create(void (*entry)(void *), void *arg, const struct task_attr *attr)
{
    static const struct task_attr defaults = TASK_ATTR_DEFAULT;
    if (!attr)
        attr = &defaults;
    cpumask_t mask = (attr->cpus_allowed ? attr->cpus_allowed : CPUMASK_ALL) & online_mask();
    if (!mask || attr->nice < NICE_MIN || attr->nice > NICE_MAX)
        return NULL;
    struct task *t = kzalloc(sizeof(*t));
    if (!t)
        return NULL;
    uint32_t *stack = page_alloc(TASK_STACK_SIZE / PAGE_SIZE);
    if (!stack) {
        kfree(t);
        return NULL;
    }
    struct task *parent = current_task();
    if (parent->is_idle)
        parent = NULL;

    t->pid = atomic_add_return(&next_pid, 1);
    strlcpy(t->name, attr->name ? attr->name : "task", sizeof(t->name));
    t->state = TASK_NEW;
    t->nice = attr->nice;
    t->policy = attr->policy;
    t->rt_priority = attr->rt_priority;
    t->cpus_allowed = mask;
    t->mm = attr->mm >= 0 ? attr->mm : new_mm_id();
    t->parent = parent;
    t->entry = entry;
    t->arg = arg;
    t->stack = stack;
    spin_lock_init(&t->wake_lock, "wake");
    list_init(&t->timer_entry);

    /* The stack: filled with the canary (so its high-water mark can be read
     * at exit), and at the top what switch_context pops. */
    for (uint32_t i = 0; i < TASK_STACK_SIZE / 4; i++)
        stack[i] = STACK_CANARY;
    uint32_t *sp = (uint32_t *)((char *)stack + TASK_STACK_SIZE);
    *--sp = 0;                                  /* fake return address: ends backtraces */
    *--sp = (uint32_t)(uintptr_t)task_first_entry;
    *--sp = 0;                                  /* ebp */
    *--sp = 0;                                  /* ebx */
    *--sp = 0;                                  /* esi */
    *--sp = 0;                                  /* edi */
    t->saved_esp = (uint32_t)(uintptr_t)sp;

    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    list_add_tail(&t->all_tasks, &all_tasks);
    nr_tasks++;
    if (parent)
        parent->live_children++;
    spin_unlock(&tasklist_lock);

    int cpu = this_cpu()->id;
    t->cpu = cpu;
    spin_lock(sched_runqueue_lock(cpu));
    scheduler.task_fork(parent, t);
    spin_unlock(sched_runqueue_lock(cpu));
    irq_restore(f);

    wake_up_new_task(t);
    return t;
}

void task_exit(int code)
{
    struct task *self = current_task();
    if (scheduler.task_exit)
        scheduler.task_exit(self);
    self->exit_code = code;
    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    list_del(&self->all_tasks);
    nr_tasks--;
    spin_unlock_irqrestore(&tasklist_lock, f);
    irq_disable();
    spin_lock(&self->wake_lock);
    self->state = TASK_DEAD;
    spin_unlock(&self->wake_lock);
    schedule();
    panic("task %s ran after exit", self->name);
}

/* finish_switch calls this on the next task's stack, with interrupts off. */
static volatile int stack_high_water;   /* deepest any task's stack has been, bytes */
int task_stack_high_water(void) { return stack_high_water; }

void task_release_after_exit(struct task *p)
{
    const uint32_t *w = p->stack;
    uint32_t untouched = 0;
    while (untouched < TASK_STACK_SIZE / 4 && w[untouched] == STACK_CANARY)
        untouched++;
    int used = TASK_STACK_SIZE - (int)untouched * 4;
    if (used > stack_high_water)
        stack_high_water = used;      /* racy max: a statistic */
    /* Poison it: anything still running on this stack crashes at once
     * instead of quietly sharing the page with its next owner. */
    for (uint32_t i = 0; i < TASK_STACK_SIZE / 4; i++)
        ((uint32_t *)p->stack)[i] = STACK_POISON;
    page_free(p->stack, TASK_STACK_SIZE / PAGE_SIZE);
    p->stack = NULL;
    struct task *free_parent = NULL;
    spin_lock(&tasklist_lock);
    struct task *parent = p->parent;
    if (parent && --parent->live_children == 0 && parent->reaped)
        free_parent = parent;
    p->exited = true;
    spin_unlock(&tasklist_lock);
    if (free_parent)
        kfree(free_parent);
    wake_up(&exit_wq);
}

int task_wait(struct task *t)
{
    wait_event(exit_wq, t->exited);
    int code = t->exit_code;
    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    t->reaped = true;
    bool free_now = t->live_children == 0;
    spin_unlock_irqrestore(&tasklist_lock, f);
    if (free_now)
        kfree(t);
    return code;
}

void task_yield(void)
{
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    spinlock_t *lock = sched_runqueue_lock(c->id);
    spin_lock(lock);
    if (scheduler.yield)
        scheduler.yield(c->id, c->curr);
    spin_unlock(lock);
    schedule();
    irq_restore(f);
}

int task_set_nice(struct task *t, int nice)
{
    if (nice < NICE_MIN || nice > NICE_MAX)
        return -1;
    unsigned long f = irq_save();
    int cpu = sched_task_runqueue_lock(t);
    if (scheduler.set_nice)
        scheduler.set_nice(cpu, t, nice);
    t->nice = nice;
    spin_unlock(sched_runqueue_lock(cpu));
    irq_restore(f);
    return 0;
}

int task_set_affinity(struct task *t, cpumask_t mask)
{
    mask &= online_mask();
    if (!mask)
        return -1;
    unsigned long f = spin_lock_irqsave(&t->wake_lock);
    int cpu;
    for (;;) {
        cpu = sched_task_runqueue_lock(t);
        if (t->state != TASK_WAKING)
            break;
        spin_unlock(sched_runqueue_lock(cpu));   /* a waker is queueing it: let it finish */
        cpu_relax();
    }
    t->cpus_allowed = mask;
    if (scheduler.set_affinity)
        scheduler.set_affinity(cpu, t, mask);
    bool move = t->on_rq && !t->on_cpu && !task_allowed_on(t, cpu);
    bool kick = t->on_cpu && !task_allowed_on(t, cpu);
    if (move) {
        /* Queued but not running on a CPU it may no longer use: requeue it elsewhere. */
        scheduler.dequeue(cpu, t, DEQUEUE_MIGRATE);
        t->on_rq = 0;
        t->state = TASK_SLEEPING;
    }
    spin_unlock(sched_runqueue_lock(cpu));
    spin_unlock(&t->wake_lock);
    if (move)
        wake_up_task(t, 0);
    if (kick)
        sched_resched_cpu(cpu);    /* schedule() there moves it (see schedule()) */
    irq_restore(f);
    if (kick && t == current_task())
        schedule();
    return 0;
}
