/*
 * The task API: create, exit, wait, yield, nice, affinity; and what the
 * scheduler core needs from the kernel around a task's life (idle tasks,
 * the first code of a new task, freeing a dead task's stack, the task list).
 *
 * A task is one heap object (struct task) plus a one-page stack, and a
 * reference on its address space (kernel/mm.h: a page directory per mm id).
 * The stack and the reference go right after the task's last switch-out
 * (finish_switch, on another task's stack); the struct is freed once task_wait() has collected the exit
 * code and all of the task's children have exited, so a scheduler may still
 * look at p->parent while p exits.  What a scheduler hears of all this goes
 * through the core (kernel/sched_core.c).
 */
#include "task.h"
#include "sched_core.h"
#include "sched_env.h"
#include "mem.h"
#include "mm.h"
#include "wait.h"
#include "lib.h"
#include "machine/machine.h"
#include "sched_class.h"
#include "machine/memhooks.h"

_Static_assert(sizeof(struct task) <= PAGE_SIZE && TASK_STACK_SIZE == PAGE_SIZE,
               "the 2.4 layout puts the task structure and its stack in one 8 KB block");

#if defined(CACHES) || defined(HOST_MODEL)   /* (CACHES=host: 2.6.0's layout for model=host too) */
/* ---- 2.6.0's task slab (SCHED_LAYOUT_LINUX26, kernel/task.h TASK26_*) ----
 * Objects are handed out in address order from chunks of 16 pages, and a
 * freed one is the next handed out (LIFO, as the slab's per-CPU array
 * gives back the most recently freed object first: mm/slab.c
 * ____cache_alloc).  Chunks stay with the slab.  Only a CACHES=1 kernel
 * and a CACHES=host one (model=host, docs/caches.md "The host model") have
 * it: the plain build's code is unchanged. */
_Static_assert(TASK26_PER_PAGE >= 1 && (1u << TASK26_CHUNK_SHIFT) == TASK26_CHUNK_PAGES * PAGE_SIZE,
               "the task slab's geometry");
_Static_assert(sizeof(struct thread_info) == 48 && offsetof(struct thread_info, cpu) == 0x10 &&
                   offsetof(struct thread_info, preempt_count) == 0x14,
               "2.6.0's thread_info: TI_CPU 0x10, TI_PRE_COUNT 0x14");
static spinlock_t task26_lock = SPINLOCK_INIT("task_struct_cachep");
static struct task *task26_free_list;   /* linked through saved_esp's word */
static char *task26_chunk;              /* the chunk being filled */
static uint32_t task26_next;            /* its next unused object: page * TASK26_PER_PAGE + index */

static struct task *task26_alloc(void)
{
    unsigned long f = spin_lock_irqsave(&task26_lock);
    struct task *t = task26_free_list;
    if (t) {
        task26_free_list = *(struct task **)t;
    } else {
        if (!task26_chunk || task26_next == TASK26_CHUNK_PAGES * TASK26_PER_PAGE) {
            char *chunk = page_alloc_aligned(TASK26_CHUNK_PAGES, TASK26_CHUNK_PAGES);
            if (!chunk) {
                spin_unlock_irqrestore(&task26_lock, f);
                return NULL;
            }
            machine_task26_chunk(chunk);
            task26_chunk = chunk;
            task26_next = 0;
        }
        uint32_t pg = task26_next / TASK26_PER_PAGE, i = task26_next % TASK26_PER_PAGE;
        t = (struct task *)(task26_chunk + pg * PAGE_SIZE + task26_colour(pg) + i * TASK26_OBJ + TASK26_HEAD);
        task26_next++;
    }
    spin_unlock_irqrestore(&task26_lock, f);
    return t;
}

static void task26_free(struct task *t)
{
    unsigned long f = spin_lock_irqsave(&task26_lock);
    *(struct task **)t = task26_free_list;
    task26_free_list = t;
    spin_unlock_irqrestore(&task26_lock, f);
}

/* The thread_info's page (the stack block's lower one) stays until the
 * struct goes (task_free_struct): the stack's page goes after the last
 * switch-out as every task's does.  Its address is kept in the object's
 * head, the word before the struct (2.6.0's pdeath_signal: a line fork
 * and exit touch). */
static inline struct thread_info **task26_ti_slot(struct task *t) { return (struct thread_info **)t - 1; }
#else
#define task26_free(t) ((void)(t))
#endif

/* A task structure goes back where it came from (see task_create). */
static void task_free_struct(struct task *t)
{
    /* (2.4's test first and as it was: the other layouts' tests cost the
     * 2.4 schedulers' CACHES=1 kernels no instruction) */
#if defined(CACHES) || defined(HOST_MODEL)
    if (t->layout == TASK_LAYOUT_LINUX24) {
#else
    if (t->layout != TASK_LAYOUT_HEAP) {      /* TASK_LAYOUT_LINUX24 */
#endif
        machine_era_task(t, false);
        page_free(t, 1);
        return;
    }
#if defined(CACHES) || defined(HOST_MODEL)
    if (t->layout == TASK_LAYOUT_LINUX26) {
        page_free(*task26_ti_slot(t), 1);
        task26_free(t);
        return;
    }
#endif
    kfree(t);
}

extern void task_first_entry(void);

spinlock_t tasklist_lock = SPINLOCK_INIT("tasklist");
static struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
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

void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg)
{
    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    struct list_head *pos;
    list_for_each(pos, &all_tasks)
        fn(list_entry(pos, struct task, all_tasks), arg);
    spin_unlock_irqrestore(&tasklist_lock, f);
}

/* Each CPU: its boot context becomes its idle task. */
void sched_init_cpu(int cpu)
{
    struct task *idle = kzalloc(sizeof(*idle));
    if (!idle)
        panic("no memory for the idle task of cpu %d", cpu);
    sched_setup_idle(cpu, idle);
}

/* Where a new task's first switch lands (kernel/switch.S). */
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

const char *const idle_mode_names[] = { "halt", "poll", NULL };
static enum idle_mode idle_mode;
static uint64_t idle_poll_cycles;     /* the poll window in TSC cycles: tsc_khz is known by then */
void idle_set_mode(enum idle_mode mode, uint32_t poll_us)
{
    idle_mode = mode;
    idle_poll_cycles = (uint64_t)tsc_khz * poll_us / 1000;
}
enum idle_mode idle_get_mode(void) { return idle_mode; }

/* idle=poll: watch need_resched with interrupts on for up to idle_poll_us=
 * (Linux's cpuidle-haltpoll, guest_halt_poll_ns 200,000 by default), then
 * halt.  A waker on another CPU sets need_resched, then finds IDLE_POLLING
 * and marks the kick instead of sending an IPI (sched_resched_cpu); the
 * xchg here and the waker's on need_resched order the two sides.  A kicked
 * wake-up is what a halted CPU would have taken an IPI for: counted, and
 * charged as one under cost= (the era machines halted their idle CPUs).
 * Called with interrupts off; returns with them off, and whether
 * need_resched came before the window closed.
 *
 * Not preemptible while it polls (as Linux's idle task): an interrupt's
 * return must not switch to a task while wakers still see IDLE_POLLING and
 * send this CPU no IPI.  And no PAUSE: TCG's PAUSE leaves the translated
 * code for QEMU's CPU loop, which takes and drops QEMU's global lock each
 * time; a vCPU polling with it starved the other vCPU's serial output and
 * LAPIC accesses of that lock (a 2 s cpuhog boot hung for 40 s and more on
 * a loaded host).  A plain loop costs the other vCPUs nothing. */
static bool idle_poll(struct cpu *c)
{
    uint64_t end = rdtsc() + idle_poll_cycles;
    c->preempt_count++;
    xchg(&c->idle_polling, IDLE_POLLING);
    irq_enable();
    while (!c->need_resched && rdtsc() < end)
        barrier();
    irq_disable();
    if (xchg(&c->idle_polling, IDLE_NOT_POLLING) == IDLE_POLL_KICKED) {
        c->stats.poll_wakes++;
        if (machine_cost_model() && cost_ipi_on)
            chan_cost_ipi(true);
    }
    c->preempt_count--;
    return c->need_resched;
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
        if (machine_idle_halt()) {       /* vsmp: until this logical CPU's next event */
            irq_enable();                /* which the timer delivers now */
            continue;
        }
        if (idle_mode == IDLE_POLL && idle_poll(c))
            continue;
        if (!c->need_resched)
            __asm__ volatile("sti; hlt" ::: "memory");   /* sti's shadow makes this atomic */
        irq_enable();
    }
}

struct task *task_create(void (*entry)(void *), void *arg, const struct task_attr *attr)
{
    static const struct task_attr defaults = TASK_ATTR_DEFAULT;
    if (!attr)
        attr = &defaults;
    cpumask_t mask = (attr->cpus_allowed ? attr->cpus_allowed : CPUMASK_ALL) & online_mask();
    if (!mask || attr->nice < NICE_MIN || attr->nice > NICE_MAX)
        return NULL;
    struct task *t;
    uint32_t *stack;
    if ((scheduler.flags & SCHED_LAYOUT_LINUX24) && machine_era_layout()) {
        /* 2.4 (kernel/sched_class.h SCHED_LAYOUT_LINUX24): the struct at the
         * base of an 8 KB-aligned block, the stack the page above it. */
        t = page_alloc_aligned(2, 2);
        if (!t)
            return NULL;
        memset(t, 0, sizeof(*t));
        t->layout = TASK_LAYOUT_LINUX24;
        machine_era_task(t, true);
        stack = (uint32_t *)((char *)t + PAGE_SIZE);
    }
#if defined(CACHES) || defined(HOST_MODEL)
    else if ((scheduler.flags & SCHED_LAYOUT_LINUX26) && machine_era_layout()) {
        /* 2.6.0 (kernel/sched_class.h SCHED_LAYOUT_LINUX26; kernel/fork.c
         * dup_task_struct: alloc_task_struct, then alloc_thread_info): the
         * struct from the task slab, the thread_info at the base of an
         * 8 KB-aligned block, the stack the page above it.  (After 2.4's
         * test: the 2.4 schedulers' CACHES=1 kernels run no instruction
         * more.) */
        t = task26_alloc();
        if (!t)
            return NULL;
        struct thread_info *ti = page_alloc_aligned(2, 2);
        if (!ti) {
            task26_free(t);
            return NULL;
        }
        memset(t, 0, sizeof(*t));
        memset(ti, 0, sizeof(*ti));
        t->layout = TASK_LAYOUT_LINUX26;
        ti->task = t;
        ti->addr_limit = 0xffffffffu;     /* KERNEL_DS */
        *task26_ti_slot(t) = ti;
        stack = (uint32_t *)((char *)ti + PAGE_SIZE);
    }
#endif
    else {
        t = kzalloc(sizeof(*t));
        if (!t)
            return NULL;
        stack = page_alloc(TASK_STACK_SIZE / PAGE_SIZE);
        if (!stack) {
            task_free_struct(t);
            return NULL;
        }
    }
    int mm_id = attr->mm >= 0 ? attr->mm : new_mm_id();
    /* Its page directory: shared with the other tasks of mm_id, new for a
     * new process (none with mm=shared). */
    struct mm *mm = mm_get(mm_id);
    if (!mm && mm_get_mode() == MM_PER_PROCESS) {
        page_free(stack, TASK_STACK_SIZE / PAGE_SIZE);
        task_free_struct(t);
        return NULL;
    }
    struct task *parent = current_task();
    if (parent->is_idle)
        parent = NULL;

    t->pid = atomic_add_return(&next_pid, 1);
    strlcpy(t->name, attr->name ? attr->name : "task", sizeof(t->name));
    t->nice = attr->nice;
    t->policy = attr->policy;
    t->rt_priority = attr->rt_priority;
    t->cpus_allowed = mask;
    t->mm = mm_id;
    t->mm_struct = mm;
    t->parent = parent;
    t->entry = entry;
    t->arg = arg;
    t->stack = stack;
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
    spin_unlock_irqrestore(&tasklist_lock, f);

    sched_fork(parent, t);
    wake_up_new_task(t);
    return t;
}

void task_exit(int code)
{
    struct task *self = current_task();
    self->exit_code = code;
#ifndef MM_MEASURE_NO_CR3_LOAD   /* (a measurement build: CR3 never changes) */
    mm_check_current(self->mm_struct, self->name, self->pid);   /* it ran on its own page directory */
#endif
    unsigned long f = spin_lock_irqsave(&tasklist_lock);
    list_del(&self->all_tasks);
    nr_tasks--;
    spin_unlock_irqrestore(&tasklist_lock, f);
    sched_exit();
    panic("task %s (pid %d) ran after exit", self->name, self->pid);
}

/* finish_switch calls this on the next task's stack, with interrupts off. */
static volatile int stack_high_water;   /* deepest any task's stack has been, bytes */
int task_stack_high_water(void) { return stack_high_water; }

void task_release_after_exit(struct task *p)
{
    /* The words still the canary, from the bottom up.  Every word is read
     * and the count kept without a branch, so this costs the same however
     * deep the stack went: under vsmp an interrupt that delivers nothing
     * (the host's doing, kernel/machine/vsmp.c) may push its frame on any stack,
     * and the time the scan takes must not depend on it. */
    const volatile uint32_t *w = p->stack;
    uint32_t untouched = 0, touched = 0;
    for (uint32_t i = 0; i < TASK_STACK_SIZE / 4; i++) {
        touched |= w[i] ^ STACK_CANARY;
        untouched += touched == 0;
    }
    int used = TASK_STACK_SIZE - (int)untouched * 4;
    int high = stack_high_water;      /* racy max: a statistic */
    stack_high_water = used > high ? used : high;   /* (a cmov: no branch either) */
    /* Poison it: anything still running on this stack crashes at once
     * instead of quietly sharing the page with its next owner. */
    for (uint32_t i = 0; i < TASK_STACK_SIZE / 4; i++)
        ((uint32_t *)p->stack)[i] = STACK_POISON;
    page_free(p->stack, TASK_STACK_SIZE / PAGE_SIZE);
    p->stack = NULL;
    /* The task is gone: its reference on the address space goes (the last
     * one frees the page directory, unless a CPU's CR3 still holds it). */
    if (p->mm_struct) {
        mm_put(p->mm_struct);
        p->mm_struct = NULL;
    }
    struct task *free_parent = NULL;
    spin_lock(&tasklist_lock);
    struct task *parent = p->parent;
    if (parent && --parent->live_children == 0 && parent->reaped)
        free_parent = parent;
    p->exited = true;
    spin_release(&tasklist_lock);
    if (free_parent)
        task_free_struct(free_parent);
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
        task_free_struct(t);
    return code;
}

void task_yield(void) { sched_yield(); }

int task_set_nice(struct task *t, int nice)
{
    if (nice < NICE_MIN || nice > NICE_MAX)
        return -1;
    sched_set_nice(t, nice);
    return 0;
}

int task_set_affinity(struct task *t, cpumask_t mask)
{
    mask &= online_mask();
    if (!mask)
        return -1;
    sched_set_affinity(t, mask);
    return 0;
}
