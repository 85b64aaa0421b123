/*
 * sched/o1_common.h - the Linux 2.6.0 scheduler structures that sched/o1.c
 * (2.6.0's O(1) scheduler) and sched/nick.c (Nick Piggin's scheduler policy
 * patch against 2.6.0-test4, which keeps them) share: priorities, the
 * runqueue with its two 140-list prio_arrays and their bitmaps
 * (sched_find_first_bit), enqueue_task / dequeue_task, sys_sched_yield, try_to_wake_up's
 * choice of CPU, and the load balancer (find_busiest_queue, pull_task,
 * load_balance, rebalance_tick), as sched/o1.c's header describes them.
 *
 * Included in three parts, each once, by one scheduler file: with
 * O1_COMMON_PRIO (the priority and time macros), O1_COMMON_ARRAYS (after
 * the includer defines struct L26_TASK with run_list, array, prio,
 * timestamp, waker_cpu, and L26(p), task_of(), L26_NAME) and
 * O1_COMMON_BALANCE (after the includer defines L26_CACHE_HOT(p, idle,
 * now), L26_PREEMPTS_CURR(p, cpu), IDLE_REBALANCE_TICK,
 * and BUSY_REBALANCE_TICK).
 */
#ifdef O1_COMMON_PRIO
#undef O1_COMMON_PRIO
/* ---- priorities (2.6.0 include/linux/sched.h, kernel/sched.c) ---- */

#define MAX_USER_RT_PRIO 100
#define MAX_RT_PRIO MAX_USER_RT_PRIO
/* Normal priority levels: 40 in 2.6.0; an includer may ask for more (nick's
 * v13b has 60) by defining L26_NORMAL_PRIOS first. */
#ifndef L26_NORMAL_PRIOS
#define L26_NORMAL_PRIOS 40
#endif
#define MAX_PRIO (MAX_RT_PRIO + L26_NORMAL_PRIOS)

#define NICE_TO_PRIO(nice) (MAX_RT_PRIO + (nice) + 20)
#define PRIO_TO_NICE(prio) ((prio) - MAX_RT_PRIO - 20)
#define TASK_NICE(t) PRIO_TO_NICE((t)->static_prio)
#define USER_PRIO(prio) ((prio) - MAX_RT_PRIO)
#define MAX_USER_PRIO (USER_PRIO(MAX_PRIO))

/* ---- time ---- */

#define NSEC_PER_JIFFY (1000000000ull / HZ)
#define NS_TO_JIFFIES(t) ((uint64_t)(t) / NSEC_PER_JIFFY)
#define JIFFIES_TO_NS(t) ((uint64_t)(t) * NSEC_PER_JIFFY)
#endif

#ifdef O1_COMMON_ARRAYS
#undef O1_COMMON_ARRAYS
/* ---- runqueues ---- */

#define BITMAP_WORDS ((MAX_PRIO + 1 + 31) / 32)   /* >= MAX_PRIO + 1 bits (the sentinel): 5 for 2.6.0 */

struct prio_array {
    int nr_active;
    uint32_t bitmap[BITMAP_WORDS];
    struct list_head queue[MAX_PRIO];
};

/* The lock and rq->nr_running (the tasks queued here, the running one
 * included) are the core's: sched_rq_lock(cpu), sched_nr_queued(cpu). */
struct runqueue {
    uint64_t nr_switches;
    uint64_t expired_timestamp;   /* jiffies when the first task expired; 0: none */
    struct prio_array *active, *expired, arrays[2];
    int prev_cpu_load[MAX_CPUS];  /* nr_running of every CPU at our last balance */
    uint64_t last_tick_jiffies;   /* for the busy-rebalance windows */
    uint64_t array_sequence;      /* nick: active/expired switches (o1 does not use it) */
} __attribute__((aligned(64)));

static struct runqueue runqueues[MAX_CPUS];

static inline int cpu_of(const struct runqueue *rq) { return (int)(rq - runqueues); }
static inline int nr_running(const struct runqueue *rq) { return sched_nr_queued(cpu_of(rq)); }

static inline bool rt_prio(int prio) { return prio < MAX_RT_PRIO; }

/* ---- bitmap ---- */

/*
 * __set_bit and __clear_bit as 2.6.0 i386 has them (include/asm-i386/
 * bitops.h: one btsl or btrl on the bitmap in memory).  The host tests, and
 * a CACHES=1 kernel, whose memory model sees only the loads and stores the
 * compiler emits, have the same in C.
 */
#if defined(__i386__) && !defined(HOST_TEST) && !defined(CACHES)
static inline void set_prio_bit(int prio, uint32_t *bitmap)
{
    __asm__("btsl %1,%0" : "+m"(*(uint32_t(*)[BITMAP_WORDS])bitmap) : "r"(prio) : "cc");
}
static inline void clear_prio_bit(int prio, uint32_t *bitmap)
{
    __asm__("btrl %1,%0" : "+m"(*(uint32_t(*)[BITMAP_WORDS])bitmap) : "r"(prio) : "cc");
}
#else
static inline void set_prio_bit(int prio, uint32_t *bitmap) { bitmap[prio >> 5] |= 1u << (prio & 31); }
static inline void clear_prio_bit(int prio, uint32_t *bitmap) { bitmap[prio >> 5] &= ~(1u << (prio & 31)); }
#endif

/*
 * The first set bit of a 141-bit bitmap whose bit 140 is always set, by word
 * tests as 2.6.0 include/asm-i386/bitops.h does: the first three words hold
 * only real-time priorities 0..95 and are rarely non-zero, so they are one
 * test here (2.6.0 tests them one by one; the bit found is the same).
 */
static inline __attribute__((always_inline)) int sched_find_first_bit(const uint32_t *b)
{
    if (unlikely(b[0] | b[1] | b[2])) {      /* one test for the three real-time words */
        if (b[0])
            return __builtin_ctz(b[0]);
        if (b[1])
            return __builtin_ctz(b[1]) + 32;
        return __builtin_ctz(b[2]) + 64;
    }
    if (b[3])
        return __builtin_ctz(b[3]) + 96;
#if MAX_PRIO >= 160
    if (b[4])
        return __builtin_ctz(b[4]) + 128;
    return __builtin_ctz(b[5]) + 160;
#else
    return __builtin_ctz(b[4]) + 128;
#endif
}

/* ---- 2.6.0's thread_info (SCHED_LAYOUT_LINUX26; a CACHES=1 or CACHES=host kernel only) ----
 *
 * With a memory model a task has 2.6.0's layout (kernel/task.h): a
 * thread_info at the base of its stack block.  This kernel keeps
 * need_resched and preempt_count per CPU (%gs-relative, unseen by the
 * model), so the lines 2.6.0's scheduler touched there are touched here
 * (kernel/sched.c 2.6.0): schedule() raises prev's preempt_count
 * (preempt_disable) and clears prev's TIF_NEED_RESCHED
 * (clear_tsk_need_resched), and after the switch next's preempt_count
 * falls (finish_task_switch's spin_unlock_irq, preempt_enable) and its
 * flags are read (the need_resched test); try_to_wake_up's resched_task()
 * sets TIF_NEED_RESCHED in the flags of the woken CPU's current task.
 * The task's CPU (2.6.0 task_cpu(): p->thread_info->cpu) the model maps
 * itself (kernel/machine/memhooks.c).  The idle tasks have none here (2.6.0's
 * had one each).  A CACHES=host kernel has it too (model=host: the plugin
 * maps the task's CPU the same way).  A plain kernel has none of this: its
 * code is unchanged. */
#if (defined(CACHES) || defined(HOST_MODEL)) && !defined(LAYOUT26_PLACEMENT_ONLY)   /* (the latter: an experiment's build, docs/caches.md) */
#define TS_LAYOUT_CHECKED 0x80000000u      /* status: this thread_info was found where 2.6.0 finds it */
static inline __attribute__((always_inline)) void l26_thread_info_switch(struct task *prev, struct task *next)
{
    volatile struct thread_info *p = task_thread_info(prev);
    if (p) {
        /* schedule() runs on prev's stack: 2.6.0's current_thread_info()
         * (%esp & ~8191) must be prev's thread_info.  Checked at every
         * switch, counted once a task (memstat thread_info_at_stack_base=,
         * tests/qemu/caches_layout.sh). */
        uintptr_t esp;
        __asm__ volatile("movl %%esp, %0" : "=r"(esp));
        if ((uintptr_t)p != (esp & ~(uintptr_t)(THREAD_SIZE_2_6_0 - 1)) || p->task != prev)
            sched_bug(L26_NAME ": 2.6.0 layout: the thread_info of %s (pid %d) is not at the base of its stack block "
                      "(%p, %%esp %p)", prev->name, prev->pid, (void *)p, (void *)esp);
        if (unlikely(!(p->status & TS_LAYOUT_CHECKED))) {
            p->status = p->status | TS_LAYOUT_CHECKED;
            machine_thread_info_checked();
        }
        p->preempt_count = p->preempt_count + 1;
        p->flags = p->flags & ~TIF_NEED_RESCHED_2_6_0;
    }
    volatile struct thread_info *n = next ? task_thread_info(next) : NULL;
    if (n) {
        n->preempt_count = n->preempt_count - 1;
        (void)n->flags;
    }
}
static inline __attribute__((always_inline)) void l26_thread_info_resched(int cpu)
{
    volatile struct thread_info *c = task_thread_info(sched_cpu_curr(cpu));
    if (c)
        c->flags = c->flags | TIF_NEED_RESCHED_2_6_0;
}
#else
#define l26_thread_info_switch(prev, next) ((void)(prev), (void)(next))
#define l26_thread_info_resched(cpu) ((void)(cpu))
#endif

/* The first set bit at or after offset below size, or size if none. */
static int find_next_bit(const uint32_t *b, int size, int offset)
{
    while (offset < size) {
        uint32_t word = b[offset >> 5] >> (offset & 31);
        if (word) {
            int bit = offset + __builtin_ctz(word);
            return bit < size ? bit : size;
        }
        offset = (offset | 31) + 1;
    }
    return size;
}

/* ---- arrays ---- */

static inline __attribute__((always_inline)) void dequeue_task(struct task *p, struct prio_array *array)
{
    struct L26_TASK *t = L26(p);
    if (t->array != array)
        sched_bug(L26_NAME ": %s (pid %d) dequeued from array %p but queued on %p", p->name, p->pid, array, t->array);
    array->nr_active--;
    list_del(&t->run_list);
    if (list_empty(&array->queue[t->prio]))
        clear_prio_bit(t->prio, array->bitmap);
    t->array = NULL;
}

static inline __attribute__((always_inline)) void enqueue_task(struct task *p, struct prio_array *array)
{
    struct L26_TASK *t = L26(p);
    if (t->array)
        sched_bug(L26_NAME ": %s (pid %d) queued twice", p->name, p->pid);
    list_add_tail(&t->run_list, &array->queue[t->prio]);
    set_prio_bit(t->prio, array->bitmap);
    array->nr_active++;
    t->array = array;
}

/* sys_sched_yield() (2.6.0; Nick's patch leaves it as it is): a normal task
 * goes to the expired array, a real-time one to the tail of its list. */
static void l26_yield(int cpu, struct task *curr)
{
    struct runqueue *rq = &runqueues[cpu];
    struct L26_TASK *t = L26(curr);
    if (curr->is_idle || !t->array)
        return;
    if (!rt_prio(t->prio)) {
        dequeue_task(curr, t->array);
        enqueue_task(curr, rq->expired);
    } else {
        list_del(&t->run_list);
        list_add_tail(&t->run_list, &t->array->queue[t->prio]);
    }
}

#endif

#ifdef O1_COMMON_BALANCE
#undef O1_COMMON_BALANCE
/* try_to_wake_up()'s choice of runqueue; the new task's is wake_up_forked_process()'s. */
static int l26_select_cpu(struct task *p, int waker_cpu, int flags)
{
    L26(p)->waker_cpu = waker_cpu;
    int cpu = p->cpu;
    if (unlikely(flags & (WAKE_NEW | WAKE_SYNC))) {
        if (flags & WAKE_NEW)
            return task_allowed_on(p, waker_cpu) ? waker_cpu : sched_first_allowed_cpu(p);
        /* Fast-migrate a sync wake-up to the waker's CPU; never violate affinity. */
        if (cpu != waker_cpu && task_allowed_on(p, waker_cpu))
            cpu = waker_cpu;
    }
    if (likely(cpu < sched_nr_cpus() && task_allowed_on(p, cpu)))
        return cpu;
    return sched_first_allowed_cpu(p);    /* as set_cpus_allowed's any_online_cpu() */
}

/* ---- load balancing ---- */

/* Our load, damped by the previous sample unless idle: the larger of now and then. */
static int this_load(struct runqueue *this_rq, int this_cpu, bool idle)
{
    int now = nr_running(this_rq);
    return idle || now > this_rq->prev_cpu_load[this_cpu] ? now : this_rq->prev_cpu_load[this_cpu];
}

/*
 * The busiest other runqueue, returned locked, or NULL.  Loads are damped by
 * the previous sample: our own as the larger of now and then, others as the
 * smaller, so only a stable long queue elsewhere and a stable short one here
 * cause a move (an idle CPU takes what is there).
 */
static struct runqueue *find_busiest_queue(int this_cpu, bool idle, int *imbalance)
{
    struct runqueue *this_rq = &runqueues[this_cpu];
    int load_here = this_load(this_rq, this_cpu, idle);

    struct runqueue *busiest = NULL;
    int max_load = 1;
    for (int i = 0; i < sched_nr_cpus(); i++) {
        struct runqueue *src = &runqueues[i];
        int now_running = nr_running(src);
        int load = (idle || now_running < this_rq->prev_cpu_load[i]) ? now_running : this_rq->prev_cpu_load[i];
        this_rq->prev_cpu_load[i] = now_running;
        if (load > max_load && src != this_rq) {
            busiest = src;
            max_load = load;
        }
    }
    if (!busiest)
        return NULL;
    *imbalance = max_load - load_here;
    /* A busy CPU needs an imbalance of at least ~25%. */
    if (!idle && *imbalance * 4 < max_load)
        return NULL;
    /* 2.6.0 double_lock_balance; if our lock was dropped, our load may have changed. */
    if (sched_double_lock_balance(this_cpu, cpu_of(busiest)))
        load_here = this_load(this_rq, this_cpu, idle);
    /* Make sure nothing changed since we looked without the lock. */
    if (nr_running(busiest) <= load_here) {
        sched_unlock_other(this_cpu, cpu_of(busiest));
        return NULL;
    }
    return busiest;
}

static bool can_migrate_task(struct task *p, int this_cpu, bool idle, uint64_t now)
{
    /* Cache hot: it ran (or was queued) within cache_decay_ticks. */
    if (L26_CACHE_HOT(p, idle, now))
        return false;
    if (sched_task_running(p))
        return false;
    if (!task_allowed_on(p, this_cpu))
        return false;
    return true;
}

static void pull_task(struct prio_array *src_array, struct task *p, int this_cpu, bool in_schedule)
{
    struct runqueue *this_rq = &runqueues[this_cpu];
    dequeue_task(p, src_array);
    sched_set_task_cpu(p, this_cpu);
    enqueue_task(p, this_rq->active);
    /* 2.6.0 sets need_resched if it beats current.  Called from pick_next
     * (2.6.0's schedule()) the flag would be cleared before the switch
     * anyway; our core clears it earlier, so do not set it there. */
    if (!in_schedule && L26_PREEMPTS_CURR(p, this_cpu))
        sched_resched_cpu(this_cpu);
}

/*
 * Pull tasks from the busiest runqueue to this_cpu's, whose lock is held
 * (and may be dropped and retaken).  An idle pull takes one task; a busy one
 * takes half the imbalance (counted the 2.6.0 way: with imbalance/2 == 0 the
 * first pull leaves -1, which keeps pulling; see docs/sched-o1.md).
 */
static void load_balance(int this_cpu, bool idle, bool in_schedule)
{
    int imbalance = 0;
    struct runqueue *busiest = find_busiest_queue(this_cpu, idle, &imbalance);
    if (!busiest)
        return;
    /* Move half the imbalance, or we would only shift it to this queue. */
    imbalance /= 2;
    uint64_t now = sched_clock_ns();

    /* Expired tasks first: they will not run soon and are likely cache cold. */
    struct prio_array *array = busiest->expired->nr_active ? busiest->expired : busiest->active;
    int idx = 0;
    for (;;) {
        idx = idx == 0 ? sched_find_first_bit(array->bitmap) : find_next_bit(array->bitmap, MAX_PRIO, idx);
        if (idx >= MAX_PRIO) {
            if (array == busiest->expired) {
                array = busiest->active;
                idx = 0;
                continue;
            }
            break;
        }
        struct list_head *head = &array->queue[idx];
        struct list_head *curr = head->prev;     /* from the tail: the longest waiting go last */
        bool done = false;
        while (curr != head) {
            struct task *p = task_of(curr);
            curr = curr->prev;
            if (!can_migrate_task(p, this_cpu, idle, now))
                continue;
            pull_task(array, p, this_cpu, in_schedule);
            if (idle || !--imbalance) {
                done = true;
                break;
            }
        }
        if (done)
            break;
        idx++;
    }
    sched_unlock_other(this_cpu, cpu_of(busiest));
}

/* rebalance_tick(): every tick while idle, every BUSY_REBALANCE_TICK while busy. */
static void l26_balance(int cpu, bool idle)
{
    if (sched_nr_cpus() < 2)
        return;
    struct runqueue *rq = &runqueues[cpu];
    uint64_t j = sched_jiffies();
    uint64_t last = rq->last_tick_jiffies;
    rq->last_tick_jiffies = j;
    if (idle) {
        /* As 2.6.0: every IDLE_REBALANCE_TICK (every tick at HZ=1000). */
        if (j % IDLE_REBALANCE_TICK)
            return;
    } else {
        /* 2.6.0 tests j % BUSY_REBALANCE_TICK == 0; we take the first tick
         * of each window, which is the same when no jiffy is skipped (only
         * CPU 0 advances jiffies, and its tick can lag under QEMU). */
        if (j / BUSY_REBALANCE_TICK == last / BUSY_REBALANCE_TICK)
            return;
    }
    spin_lock(sched_rq_lock(cpu));
    load_balance(cpu, idle, false);
    spin_release(sched_rq_lock(cpu));
}

#endif
