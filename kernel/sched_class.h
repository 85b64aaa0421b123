/*
 * kernel/sched_class.h - the scheduler interface: struct sched_class, the
 * flags of its hooks, and the services the core (kernel/sched_core.c) gives
 * a scheduler.  The interface belongs to the core, as FreeBSD's sys/sched.h
 * does, so kernel/ never depends on sched/; a scheduler includes it through
 * sched/sched.h, which explains the rules (locking, time, per-task state).
 */
#ifndef KERNEL_SCHED_CLASS_H
#define KERNEL_SCHED_CLASS_H

#include "types.h"
#include "list.h"
#include "spinlock.h"
#include "task.h"
#include "config.h"
#include "wait.h"        /* WAKE_SYNC, WAKE_NEW, WAKE_IRQ: how a task was woken */
#include "trace.h"       /* sched_trace_event */

/* enqueue() flags */
#define ENQUEUE_WAKEUP 0x1  /* the task was sleeping */
#define ENQUEUE_NEW 0x2     /* the task was just created (after task_fork) */
#define ENQUEUE_MIGRATE 0x4 /* moved here by the core (its affinity changed); follows a DEQUEUE_MIGRATE */
#define ENQUEUE_SYNC 0x8    /* a WAKE_SYNC wake-up */
#define ENQUEUE_IRQ 0x10    /* a WAKE_IRQ wake-up */

/* dequeue() flags */
#define DEQUEUE_SLEEP 0x1   /* the running task blocks */
#define DEQUEUE_EXIT 0x2    /* the running task exits */
#define DEQUEUE_MIGRATE 0x4 /* the core moves the task to another CPU; an ENQUEUE_MIGRATE follows */

/* struct sched_class flags */
#define SCHED_SHARED_RUNQUEUE 0x1  /* one run-queue lock for every CPU (a global queue, Linux 2.4) */
#define SCHED_TICK_UNLOCKED 0x2    /* call tick() without the run-queue lock (see tick) */
/* Linux 2.4's memory layout of a task, which decides where its fields fall
 * in the caches: the task structure at the base of an 8 KB-aligned
 * two-page block with the kernel stack above it (2.4.18
 * include/asm-i386/processor.h THREAD_SIZE 2*PAGE_SIZE, alloc_task_struct
 * __get_free_pages(GFP_KERNEL, 1); kernel/fork.c).  Applied only with a
 * memory model on (machine=, docs/caches.md): without one the layout
 * changes nothing a run measures.  Without the flag a task structure
 * comes from the kernel's allocator and its stack from a page of its own,
 * as 2.6 has it (a task_struct from its slab cache, kernel/fork.c). */
#define SCHED_LAYOUT_LINUX24 0x4
/* Linux 2.6.0's layout of a task: a thread_info at the base of an 8 KB-
 * aligned two-page block with the kernel stack above it (2.6.0
 * include/asm-i386/thread_info.h THREAD_SIZE 2*PAGE_SIZE,
 * current_thread_info() = %esp & ~8191), and the task structure from a
 * slab cache of its own, line-aligned (kernel/fork.c fork_init
 * task_struct_cachep, SLAB_MUST_HWCACHE_ALIGN; alloc_task_struct).  As
 * the 2.4 layout, applied only with a memory model on (kernel/task.h
 * TASK_LAYOUT_LINUX26, docs/caches.md "Layouts"). */
#define SCHED_LAYOUT_LINUX26 0x8

/*
 * Tunables: a scheduler's knobs, set at boot without rebuilding as
 * sched.<name>=<value> on the kernel command line (kernel/sched_tunables.c).
 * Each entry points at the scheduler's own variable, which the core writes
 * before init(): the table default, then what a preset (sched.preset=<name>)
 * sets, then what the command line gives.  Values are validated like every
 * other key (unknown name, bad value, out of range: one error: line, exit 1),
 * listed by bench=list ("tunable sched=<s> name=<n> unit=<u> default=<d>
 * min=<a> max=<b>") and echoed after the boot line ("tunables sched=<s>
 * <name>=<value>..."), so every result says what it ran with.  Read a
 * tunable where the modelled kernel reads its constant (a timeslice at each
 * refill, an interval at each balance), so a value never goes stale.
 */
#define SCHED_TUNABLE_AUTO 0x1          /* no fixed default: left SCHED_TUNABLE_UNSET unless given, init() computes it */
#define SCHED_TUNABLE_UNSET 0xffffffffu

struct sched_tunable {
    const char *name;               /* Linux's name where Linux had one ([a-z0-9_]) */
    const char *unit;               /* ns, ms, ticks, %, KiB, bool, count ... */
    uint32_t def, min, max;         /* def is ignored with SCHED_TUNABLE_AUTO */
    uint32_t flags;                 /* SCHED_TUNABLE_AUTO */
    uint32_t *value;                /* the scheduler's variable */
    const char *help;               /* one line, no double quote; for AUTO, how the default is computed */
};

/* A named set of tunables: sched.preset=<name>; values given as well win. */
struct sched_preset {
    const char *name;
    const char *settings;           /* "tunable=value tunable=value ..." */
};

struct sched_class {
    const char *name;
    unsigned int flags;             /* SCHED_SHARED_RUNQUEUE, SCHED_TICK_UNLOCKED */

    /* (optional) The tunables (ntunables entries) and presets; none if NULL. */
    const struct sched_tunable *tunables;
    int ntunables;
    const struct sched_preset *presets;
    int npresets;
    /* (optional) Called once the tunables are set, before init(): NULL if
     * they fit together, else why not, with *bad the offending tunable. */
    const char *(*check_tunables)(const char **bad);

    /* (optional) Once, on the boot CPU, before any task exists.  ncpus CPUs
     * (0..ncpus-1) will come online; per-CPU state for all must be ready. */
    void (*init)(int ncpus);

    /* (optional) A task was created by parent (NULL for the kernel's first
     * task).  The parent's CPU's run-queue lock is held (parent is current
     * there); child is not queued yet and child->cpu is the parent's CPU.
     * Initialise the child's private state; split timeslices here. */
    void (*task_fork)(struct task *parent, struct task *child);

    /* (optional) Choose the CPU that a waking (WAKE_*) task is queued on.
     * For a wake-up, p->cpu's run-queue lock is held and p is TASK_WAKING,
     * which keeps other wakers away (as 2.6.0's try_to_wake_up); for
     * WAKE_NEW, no lock is held.  Take no lock here: read other CPUs' state
     * racily, as Linux's select_task_rq does.  Must return an online CPU in
     * p->cpus_allowed.  Default: p->cpu if it is allowed and idle, else an
     * allowed idle CPU, else p->cpu if allowed, else the first allowed CPU. */
    int (*select_cpu)(struct task *p, int waker_cpu, int flags);

    /* Queue p on cpu (p->cpu == cpu).  cpu's run-queue lock is held.  Decide
     * preemption here: call sched_resched_cpu() for any CPU that should
     * reschedule (the core itself kicks cpu if it is idle). */
    void (*enqueue)(int cpu, struct task *p, int flags);

    /* Remove p from cpu's queue.  cpu's run-queue lock is held. */
    void (*dequeue)(int cpu, struct task *p, int flags);

    /* Choose what cpu runs next.  cpu's run-queue lock is held; prev is the
     * task that was running (possibly the idle task), still queued if it is
     * runnable (prev->state == TASK_RUNNING).  Return a queued task whose
     * cpus_allowed includes cpu and that is not running elsewhere, or NULL
     * to run idle.  Returning a task with p->cpu != cpu is only allowed with
     * SCHED_SHARED_RUNQUEUE; otherwise move it first (sched_set_task_cpu
     * under both locks).  May drop and retake the lock (2.4's recalculation
     * does, and so does sched_double_lock_balance); prev stays marked
     * running meanwhile. */
    struct task *(*pick_next)(int cpu, struct task *prev);

    /* (optional) Timer tick on cpu, from the interrupt, after the core's own
     * accounting; cpu's run-queue lock is held unless SCHED_TICK_UNLOCKED
     * (then interrupts are off, so curr cannot be switched out; for a
     * global-queue scheduler whose tick only touches the current task, as
     * Linux 2.4's update_process_times: taking the one shared lock on every
     * tick of every CPU is a cost 2.4 never paid).  curr may be the idle task
     * (curr->is_idle).  Default: nothing (no preemption by time). */
    void (*tick)(int cpu, struct task *curr);

    /* (optional) Periodic load balancing, on every tick of every CPU, right
     * after that CPU's tick(), with no lock held (interrupts off).  Decide
     * your own interval; idle says whether cpu is idle. */
    void (*balance)(int cpu, bool idle);

    /* (optional) The running task curr calls yield.  cpu's run-queue lock is
     * held.  The core calls schedule() afterwards. */
    void (*yield)(int cpu, struct task *curr);

    /* (optional) The nice level of p changes to nice (p->nice still holds the
     * old value; the core stores the new one afterwards).  p's run-queue lock
     * is held (cpu is p->cpu); p may be queued, running or asleep. */
    void (*set_nice)(int cpu, struct task *p, int nice);

    /* (optional) p->cpus_allowed has just changed.  p's run-queue lock is held
     * (cpu is p->cpu).  Afterwards the core moves p off a CPU it may no longer
     * use: a queued task with DEQUEUE_MIGRATE / ENQUEUE_MIGRATE, a running
     * one through schedule() on its CPU. */
    void (*set_affinity)(int cpu, struct task *p, cpumask_t mask);

    /* (optional) The running task p is about to exit.  No lock is held;
     * p->parent, if not NULL, is still allocated (the core keeps a parent
     * until its children have exited) and may be locked with
     * sched_task_rq_lock(). */
    void (*task_exit)(struct task *p);

    /* (optional, SCHED_LAYOUT_LINUX24) The bytes of the private state
     * (SCHED_TASK: offset and size, ending with a size of 0) that the
     * scheduler's scan of its run queue reads for every task.  2.4 kept
     * them, with the task's nice, policy, mm and cpus_allowed, in one line
     * of the task_struct (2.4.18 include/linux/sched.h: "We keep all fields
     * in a single cacheline that are needed for the goodness() loop"); the
     * memory model sees them there (kernel/machine/memhooks.c, docs/caches.md
     * "Layouts").  NULL: each field where this kernel has it.  line 1: a
     * field 2.4 kept on the task_struct's next line (dyn-sched's time_slice,
     * after run_list), which the model sees on a second line. */
    const struct sched_scan_bytes {
        uint16_t offset, size;
        uint16_t line;          /* 0: the goodness line; 1: the line after it */
    } *scan_bytes;

    /* (optional, SCHED_LAYOUT_LINUX26) Where 2.6.0's task_struct kept the
     * private state's fields (SCHED_TASK: offset and size, and `at`, the
     * byte offset of the field in 2.6.0's i386 task_struct,
     * include/linux/sched.h; ending with a size of 0): the memory model
     * sees them there (kernel/machine/memhooks.c, "2.6.0's task_struct").
     * Fields not listed stay where this kernel has them. */
    const struct sched_task26_bytes {
        uint16_t offset, size;
        uint16_t at;
    } *task26_bytes;
};

/* The scheduler compiled into this kernel (sched/<name>.c defines it). */
extern const struct sched_class scheduler;

#define SCHED_TASK(p, type)                                                                          \
    ((void)sizeof(struct {                                                                           \
        _Static_assert(sizeof(type) <= sizeof((p)->sched_private), #type " too big for sched_private"); \
        int unused_;                                                                                 \
    }),                                                                                              \
     (type *)(void *)(p)->sched_private)

/* The task whose private state (SCHED_TASK) holds member at member_offset:
 * sched_task_of(node, offsetof(struct yours, run_list)). */
static inline struct task *sched_task_of(const void *member, size_t member_offset)
{
    return container_of((void *)((char *)member - member_offset), struct task, sched_private);
}

/* ---- services of the core ---- */

#include "sched_env.h"   /* sched_nr_cpus(), sched_clock_ns(), sched_this_cpu(): inline in the kernel */

/* Inline: several are read on every wake-up and switch. */
static inline struct task *sched_cpu_curr(int cpu) { return cpus[cpu].curr; }    /* maybe idle */
static inline bool sched_cpu_is_idle(int cpu) { return cpus[cpu].curr == cpus[cpu].idle; }
static inline uint64_t sched_cpu_idle_since_ns(int cpu) { return cpus[cpu].idle_since_ns; } /* valid if idle */
static inline uint64_t sched_jiffies(void) { return jiffies; }                   /* ticks at HZ since boot */
static inline bool sched_task_running(const struct task *p) { return p->on_cpu != 0; }

/* Tasks queued on cpu (p->cpu == cpu, a running one included), kept by the
 * core: enqueue/dequeue and sched_set_task_cpu move the count.  Read it
 * without a lock for estimates (balancing, placement). */
static inline int sched_nr_queued(int cpu) { return cpus[cpu].nr_queued; }

/* cpu's run-queue lock (the same for every CPU with SCHED_SHARED_RUNQUEUE). */
static inline spinlock_t *sched_rq_lock(int cpu) { return cpus[cpu].rq_lock; }
/* Stop with a report unless this CPU holds cpu's run-queue lock. */
void sched_assert_locked(int cpu);

/* Mark cpu's current task for rescheduling; IPI if it is another CPU. */
void sched_resched_cpu(int cpu);
/* Record that p now belongs to cpu's queue (balancing).  The caller holds
 * both run-queue locks and has already taken p out of the old queue in its
 * own structures; panics if cpu is not in p->cpus_allowed or p is running. */
void sched_set_task_cpu(struct task *p, int cpu);
/* Lock two CPUs' run queues (one lock if shared) in address order. */
void sched_double_lock(int cpu_a, int cpu_b);
void sched_double_unlock(int cpu_a, int cpu_b);
/* With this_cpu's lock held, take other's too (2.6.0 double_lock_balance):
 * a trylock first; if that fails and the lock order requires it, our lock
 * is dropped and both are taken in address order.  Returns true if our lock
 * was dropped meanwhile (what we read under it may have changed).  Release
 * with sched_unlock_other(). */
bool sched_double_lock_balance(int this_cpu, int other);
void sched_unlock_other(int this_cpu, int other);
/* Lock the run queue p is on (loops until p->cpu is stable).  Interrupts
 * must already be disabled.  Returns the CPU whose lock is held. */
int sched_task_rq_lock(struct task *p);
/* The same from a context with interrupts on (task_exit): interrupts are
 * disabled and their state saved in *flags; release with
 * sched_rq_unlock_irqrestore(cpu, flags). */
int sched_task_rq_lock_irqsave(struct task *p, unsigned long *flags);
void sched_rq_unlock_irqrestore(int cpu, unsigned long flags);
/* Call fn for every task that exists (sleepers too, not idle tasks), under
 * the task-list lock.  The caller must hold no run-queue lock. */
void sched_for_each_task(void (*fn)(struct task *p, void *arg), void *arg);
/* A line on the console (the kernel's) or the test log (host tests). */
void sched_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Stop the machine with a report; for broken invariants. */
void sched_bug(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* A moment of your algorithm on the trace timeline (trace=1, tools/schedlab
 * trace, docs/tracing.md): "what" is a string literal (15 characters are
 * kept), value any number that explains it (a vruntime, a count), cpu the
 * CPU it concerns; the record also names the task running here.  Call it
 * anywhere, any lock held or none.  Free when tracing is off: a static key
 * (one 5-byte nop in the code, patched into a jump at boot with trace=1).
 *     sched_trace_event(cpu, "recalc", nr_tasks);
 */
#define sched_trace_event(cpu, what, value) trace_sched_event((cpu), (what), (value))

/* Milliseconds to ticks at the kernel's HZ, at least one tick. */
#define SCHED_MS_TO_TICKS(ms) (((ms) * HZ + 999) / 1000 > 0 ? ((ms) * HZ + 999) / 1000 : 1)

static inline bool task_is_rt(const struct task *p)
{
    return p->policy == SCHED_FIFO || p->policy == SCHED_RR;
}

static inline bool task_allowed_on(const struct task *p, int cpu)
{
    return (p->cpus_allowed & CPU_BIT(cpu)) != 0;
}

/* The lowest-numbered online CPU in p->cpus_allowed (Linux's any_online_cpu). */
int sched_first_allowed_cpu(const struct task *p);

#endif
