/*
 * Kernel tasks: the unit every scheduler schedules.
 *
 * All code runs in ring 0, so a "process" here is a kernel task with an
 * address-space id (mm): tasks that share an id behave like the threads of one
 * Linux process, which matters to schedulers that model Linux's same-mm bonus.
 * Each id has its own page directory (kernel/mm.h), and a switch between
 * tasks of different ids reloads CR3 (unless mm=shared).  The idle tasks are
 * kernel threads: they have no mm_struct and borrow the CPU's.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "types.h"
#include "list.h"
#include "spinlock.h"
#include "mem.h"

/* Task states. */
enum task_state {
    TASK_NEW = 0,     /* created, not yet woken for the first time */
    TASK_RUNNING,     /* runnable or running */
    TASK_SLEEPING,    /* blocked on a wait queue or timer */
    TASK_DEAD,        /* exited; stack freed after its last switch-out */
    TASK_WAKING,      /* a waker (or the core moving it) has claimed it and is queueing it (Linux 2.6.32's TASK_WAKING) */
};

/* Scheduling policies, numbered as in Linux. */
#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define MAX_RT_PRIORITY 99

#define NICE_MIN (-20)
#define NICE_MAX 19

/* Words of per-task state that belong to the scheduler (see kernel/sched_class.h). */
#define SCHED_PRIVATE_WORDS 32

#define TASK_NAME_LEN 16

struct task {
    uint32_t saved_esp;           /* kernel stack pointer while switched out */
    int pid;
    char name[TASK_NAME_LEN];

    volatile int state;           /* enum task_state */
    volatile int cpu;             /* run queue the task is on, or last ran on */
    volatile int on_cpu;          /* 1 from switch-in until switch-out completes */
    int on_rq;                    /* queued with the scheduler (runnable) */
    bool is_idle;                 /* a CPU's idle task: never queued */
    uint8_t layout;               /* where this struct and its stack are: TASK_LAYOUT_* (task.c) */
    bool migrate_after_switch;    /* core: affinity changed while running; requeue once switched out */
    volatile bool exited;         /* stack released; task_wait may proceed */

    int nice;                     /* -20..19 */
    int policy;                   /* SCHED_NORMAL, SCHED_FIFO, SCHED_RR, SCHED_BATCH */
    int rt_priority;              /* 1..99 for FIFO/RR, else 0 */
    cpumask_t cpus_allowed;
    int mm;                       /* address-space id; tasks of one "process" share it */
    struct mm *mm_struct;         /* its page directory (kernel/mm.h); NULL: a kernel thread, or mm=shared */

    struct task *parent;
    volatile int live_children;   /* children not yet exited: keeps this struct alive */
    volatile bool reaped;         /* task_wait() is done with it */

    /* Accounting kept by the core. */
    uint64_t runtime_ns;          /* CPU time consumed */
    uint64_t last_switch_in_ns;
    uint32_t nr_switches_in;
    uint32_t nr_migrations;
    uint32_t cpus_run_mask;       /* every CPU the task has run on */
    int last_ran_cpu;             /* cost= only (kernel/chan_cost.c): 1 + the CPU it last ran on, 0: never */

    void (*entry)(void *);
    void *arg;
    void *stack;                  /* bottom of the kernel stack (one allocation) */
    int exit_code;

    struct list_head all_tasks;   /* on the global task list */
    struct list_head timer_entry; /* on the sleep-timer list */
    uint64_t timer_deadline_ns;

    /* Opaque to the core: each scheduler keeps its per-task state here. */
    uint64_t sched_private[SCHED_PRIVATE_WORDS] __attribute__((aligned(8)));
};

/* struct task's layout (kernel/sched_class.h SCHED_LAYOUT_LINUX24 and
 * _LINUX26; applied only with a memory model, task.c). */
#define TASK_LAYOUT_HEAP 0      /* the struct from the kernel's allocator, the stack a page of its own */
#define TASK_LAYOUT_LINUX24 1   /* the struct is the first page of its stack's 8 KB block */
#define TASK_LAYOUT_LINUX26 2   /* the struct from the task slab, a thread_info at the base of its stack's 8 KB block */

/* Linux 2.6.0's thread_info (include/asm-i386/thread_info.h, i386; the
 * offsets TI_TASK 0 .. TI_RESTART_BLOCK 0x1c of its entry.S constants): at
 * the base of each task's 8 KB-aligned stack block (THREAD_SIZE
 * 2*PAGE_SIZE; current_thread_info() is %esp & ~8191).  This kernel keeps
 * the CPU in struct task and need_resched and preempt_count per CPU; a task
 * in 2.6.0's layout (TASK_LAYOUT_LINUX26, only with a memory model) has one
 * anyway, so that the model sees the lines 2.6.0's schedule() and
 * try_to_wake_up() touched there (docs/caches.md, "Layouts"). */
struct thread_info {
    struct task *task;
    void *exec_domain;
    uint32_t flags;               /* TIF_NEED_RESCHED is bit 3 */
    uint32_t status;
    uint32_t cpu;
    int32_t preempt_count;
    uint32_t addr_limit;
    uint32_t restart_block[5];    /* fn and four arguments */
};
#define THREAD_SIZE_2_6_0 8192
#define TIF_NEED_RESCHED_2_6_0 (1u << 3)

/* The task slab of 2.6.0's layout (kernel/fork.c fork_init:
 * kmem_cache_create("task_struct", sizeof(struct task_struct), 0,
 * SLAB_MUST_HWCACHE_ALIGN)): objects aligned to the L1 line of a Pentium
 * III build (L1_CACHE_BYTES 32) and packed into pages, each page's first
 * object offset by the slab's colour (mm/slab.c cache_grow: successive
 * slabs colour_off apart).  An object is TASK26_HEAD bytes, where the
 * model sees the fields 2.6.0's task_struct had in its first four lines
 * (kernel/machine/memhooks.c, "2.6.0's task_struct"), then struct task.
 * The slab takes its pages TASK26_CHUNK_PAGES at a time, aligned to as
 * many, so that the model finds an object from an address alone. */
#define TASK26_ALIGN 32u
#define TASK26_HEAD 128u
#define TASK26_OBJ ((TASK26_HEAD + (uint32_t)sizeof(struct task) + TASK26_ALIGN - 1) & ~(TASK26_ALIGN - 1))
#define TASK26_PER_PAGE (PAGE_SIZE / TASK26_OBJ)
#define TASK26_COLOURS ((PAGE_SIZE - TASK26_PER_PAGE * TASK26_OBJ) / TASK26_ALIGN + 1)
#define TASK26_CHUNK_PAGES 16u
#define TASK26_CHUNK_SHIFT 16   /* 16 pages: 64 KB */
/* The first object of page pg (0..15) of a chunk: its colour. */
static inline uint32_t task26_colour(uint32_t pg) { return (pg % TASK26_COLOURS) * TASK26_ALIGN; }

#if defined(CACHES) || defined(HOST_MODEL)
void machine_thread_info_checked(void);   /* kernel/machine/memhooks.c: one more found where 2.6.0 finds it */
#endif

static inline struct thread_info *task_thread_info(const struct task *t)
{
    return t->layout == TASK_LAYOUT_LINUX26 && t->stack ? (struct thread_info *)((char *)t->stack - PAGE_SIZE) : NULL;
}

struct task_attr {
    const char *name;
    int nice;
    int policy;
    int rt_priority;
    cpumask_t cpus_allowed;       /* 0 means every CPU */
    int mm;                       /* -1: a new address space; else share this id */
};
#define TASK_ATTR_DEFAULT { "task", 0, SCHED_NORMAL, 0, 0, -1 }

/* Creating and ending tasks.  task_create returns NULL when memory runs out. */
struct task *task_create(void (*entry)(void *), void *arg, const struct task_attr *attr);
void task_exit(int code) __attribute__((noreturn));
int task_wait(struct task *t);    /* wait for exit, free it, return its exit code */
void task_yield(void);
void task_sleep_ns(uint64_t ns);
int task_set_nice(struct task *t, int nice);
int task_set_affinity(struct task *t, cpumask_t mask);
#ifdef HOST_TEST
struct task *current_task(void);
#else
#include "percpu.h"
/* One %gs-relative load: safe even if we are preempted right after (see percpu.h). */
static inline struct task *current_task(void) { return (struct task *)percpu_read(PERCPU_CURR); }
#endif
int task_count(void);             /* tasks alive (not yet reaped) */
int task_stack_high_water(void);  /* deepest stack use of any exited task, bytes */
int new_mm_id(void);

#endif
