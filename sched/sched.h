/*
 * sched/sched.h - the one interface every scheduler implements.
 *
 * The kernel core (kernel/sched_core.c) owns tasks, CPUs, context switches,
 * wake-ups and accounting.  Policy lives in a scheduler: one file under sched/
 * that defines
 *
 *     const struct sched_class scheduler = { .name = "...", ... };
 *
 * The Makefile compiles exactly one of them (make SCHED=<name>), so nothing
 * outside sched/ and the Makefile ever names a scheduler.  The model is
 * FreeBSD's sys/sched.h (one interface, kern/sched_4bsd.c and sched_ule.c
 * behind it) and Linux's struct sched_class / sched_ext_ops.
 *
 * Locking
 *   Each CPU has a run-queue lock, provided by the scheduler through
 *   runqueue_lock(cpu): a per-CPU scheduler returns a lock per CPU, a
 *   global-queue scheduler (Linux 2.4) returns the same lock for every CPU.
 *   The core always takes run-queue locks with interrupts disabled.  Lock
 *   order: wait-queue lock -> task wake_lock -> task-list lock -> run-queue
 *   lock(s), two run-queue locks in address order (sched_double_lock).
 *
 *   A CPU's run-queue lock is held across its context switch, so while you
 *   hold it no task is half switched on that CPU.  A runnable task stays
 *   "queued" from enqueue() to dequeue(), including while it runs; whether the
 *   running task is physically kept in your queue is your business (O(1) keeps
 *   it in its array, CFS takes it out of the tree).  sched_task_running(p) says
 *   whether p is on a CPU right now: never pick or migrate such a task for
 *   another CPU.
 *
 * Time
 *   sched_clock_ns() is a monotonic nanosecond clock (TSC based).  The tick
 *   runs at HZ (kernel/config.h, default 1000); sched_jiffies() counts ticks
 *   since boot.  A scheduler that models a kernel with a different HZ (2.4
 *   used 100) converts explicitly.
 *
 * Per-task state
 *   struct task has SCHED_PRIVATE_WORDS 64-bit words reserved for the
 *   scheduler: declare your own struct and use SCHED_TASK(p, struct yours),
 *   which checks at compile time that it fits.  Keep everything else
 *   static in your file.
 *
 * Hooks marked (optional) may be NULL.
 */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "../kernel/types.h"
#include "../kernel/list.h"
#include "../kernel/spinlock.h"
#include "../kernel/task.h"
#include "../kernel/config.h"

/* select_cpu() flags */
#define WAKE_SYNC 0x1       /* waker is about to sleep (pipes, as in Linux) */
#define WAKE_NEW 0x2        /* first wake-up of a newly created task */
#define WAKE_IRQ 0x4        /* woken from interrupt context (timer sleep) */

/* enqueue() flags */
#define ENQUEUE_WAKEUP 0x1  /* the task was sleeping */
#define ENQUEUE_NEW 0x2     /* the task was just created (after task_fork) */
#define ENQUEUE_MIGRATE 0x4 /* moved here by the core (affinity change) */
#define ENQUEUE_SYNC 0x8    /* WAKE_SYNC wake-up */
#define ENQUEUE_IRQ 0x10    /* WAKE_IRQ wake-up */

/* dequeue() flags */
#define DEQUEUE_SLEEP 0x1   /* the running task blocks */
#define DEQUEUE_EXIT 0x2    /* the running task exits */
#define DEQUEUE_MIGRATE 0x4 /* the core moves the task to another CPU */

struct sched_class {
    const char *name;

    /* Once, on the boot CPU, before any task exists.  ncpus CPUs (0..ncpus-1)
     * will come online; per-CPU state for all of them must be ready. */
    void (*init)(int ncpus);

    /* The lock that protects cpu's run queue.  May be shared by CPUs.  Asked
     * once per CPU right after init(): the answer must never change. */
    spinlock_t *(*runqueue_lock)(int cpu);

    /* A task was created by parent (NULL for the kernel's first task).
     * Called with the parent's CPU run-queue lock held (parent is current
     * there); child is not yet queued and child->cpu is the parent's CPU.
     * Initialise the child's private state; split timeslices here. */
    void (*task_fork)(struct task *parent, struct task *child);

    /* Choose the CPU that a waking (or WAKE_NEW) task should be queued on.
     * For a wake-up, called with p->cpu's run-queue lock held and p in
     * TASK_WAKING, which keeps other wakers away (as 2.6.0's try_to_wake_up);
     * for WAKE_NEW with p->wake_lock held and no run-queue lock.
     * Take no lock here: read other CPUs' state racily, as Linux's
     * select_task_rq does.  Must return an online CPU in p->cpus_allowed. */
    int (*select_cpu)(struct task *p, int waker_cpu, int flags);

    /* Queue p on cpu (p->cpu == cpu).  cpu's run-queue lock is held.  Decide
     * preemption here: call sched_resched_cpu() for any CPU that should
     * reschedule (a global-queue scheduler may pick any CPU). */
    void (*enqueue)(int cpu, struct task *p, int flags);

    /* Remove p from cpu's queue.  cpu's run-queue lock is held. */
    void (*dequeue)(int cpu, struct task *p, int flags);

    /* Choose what cpu runs next.  cpu's run-queue lock is held; prev is the
     * task that was running (possibly the idle task), still queued if it is
     * runnable (prev->state == TASK_RUNNING).  Return a queued task whose
     * cpus_allowed includes cpu and that is not running elsewhere, or NULL
     * to run idle.  Returning a task with p->cpu != cpu is only allowed for a
     * scheduler whose runqueue_lock() is shared by both CPUs; otherwise move
     * it first (sched_set_task_cpu under both locks).  May drop and retake
     * the lock (2.4's recalculation does); prev stays marked running. */
    struct task *(*pick_next)(int cpu, struct task *prev);

    /* Timer tick on cpu, from the interrupt, run-queue lock held (unless
     * tick_unlocked).  curr may be the idle task (curr->is_idle). */
    void (*tick)(int cpu, struct task *curr);

    /* (optional) Call tick() without the run-queue lock (interrupts are off,
     * so curr cannot be switched out).  For a global-queue scheduler whose
     * tick only touches the current task, as Linux 2.4's
     * update_process_times(): taking the one shared lock on every tick of
     * every CPU is a cost 2.4 never paid, and under QEMU it convoys. */
    bool tick_unlocked;

    /* (optional) Periodic load balancing, every tick on every CPU, from the
     * timer interrupt, after tick(), with no lock held (interrupts off).
     * Decide your own interval; idle says whether cpu is idle. */
    void (*balance)(int cpu, bool idle);

    /* (optional) The running task curr calls yield.  Lock held.  The core
     * calls schedule() afterwards. */
    void (*yield)(int cpu, struct task *curr);

    /* (optional) Nice of p changes to nice (p->nice still holds the old
     * value; the core stores the new one afterwards).  p's run-queue lock is
     * held; p may be queued or running. */
    void (*set_nice)(int cpu, struct task *p, int nice);

    /* (optional) p->cpus_allowed has just changed.  p's run-queue lock is
     * held.  The core itself moves p off a CPU that is no longer allowed. */
    void (*set_affinity)(int cpu, struct task *p, cpumask_t mask);

    /* (optional) The running task p is about to exit.  No lock held;
     * p->parent, if not NULL, is still allocated (the core keeps a parent
     * until its children have exited) and may be locked with
     * sched_task_runqueue_lock. */
    void (*task_exit)(struct task *p);

    /* Tasks queued on cpu (including a running one), read without the
     * lock: for statistics and the watchdog. */
    int (*nr_running)(int cpu);
};

/* The scheduler compiled into this kernel (sched/<name>.c defines it). */
extern const struct sched_class scheduler;

#define SCHED_TASK(p, type)                                                                          \
    ((void)sizeof(struct {                                                                           \
        _Static_assert(sizeof(type) <= sizeof((p)->sched_private), #type " too big for sched_private"); \
        int unused_;                                                                                 \
    }),                                                                                              \
     (type *)(void *)(p)->sched_private)

/*
 * Services the core provides to schedulers.  The host unit tests provide
 * the same functions over a simulated clock and simulated CPUs
 * (tests/host/simcore.c), so a scheduler file builds unchanged there.
 */
#ifdef HOST_TEST
int sched_nr_cpus(void);                  /* CPUs online: 0..n-1 */
uint64_t sched_clock_ns(void);            /* monotonic ns */
#else
/* Inline in the kernel: called on every switch, and a call costs under TCG. */
#include "../kernel/time.h"
extern int ncpus_online;
static inline int sched_nr_cpus(void) { return ncpus_online; }
static inline uint64_t sched_clock_ns(void) { return clock_ns(); }
#endif
int sched_this_cpu(void);
struct task *sched_cpu_curr(int cpu);     /* running task (maybe idle) */
bool sched_cpu_is_idle(int cpu);          /* running its idle task */
uint64_t sched_cpu_idle_since_ns(int cpu);/* when it went idle (valid if idle) */
bool sched_task_running(const struct task *p);
uint64_t sched_jiffies(void);             /* ticks at HZ since boot */
/* Mark cpu's current task for rescheduling; IPI if it is another CPU. */
void sched_resched_cpu(int cpu);
/* Record that p now belongs to cpu's queue (balancing).  The caller holds
 * both run-queue locks and has already dequeued p from the old queue in its
 * own structures; panics if cpu is not in p->cpus_allowed. */
void sched_set_task_cpu(struct task *p, int cpu);
/* Lock two CPUs' run queues (one lock if shared) in address order. */
void sched_double_lock(int cpu_a, int cpu_b);
void sched_double_unlock(int cpu_a, int cpu_b);
/* Lock the run queue p is on (loops until p->cpu is stable).  Interrupts
 * must already be disabled.  Returns the CPU whose lock is held. */
int sched_task_runqueue_lock(struct task *p);
/* Call fn for every task that exists (sleepers too, not idle tasks), under
 * the task-list lock.  The caller must hold no run-queue lock. */
void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg);
/* Stop the machine with a report; for broken invariants. */
void sched_bug(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static inline bool task_is_rt(const struct task *p)
{
    return p->policy == SCHED_FIFO || p->policy == SCHED_RR;
}

static inline bool task_allowed_on(const struct task *p, int cpu)
{
    return (p->cpus_allowed & CPU_BIT(cpu)) != 0;
}

#endif
