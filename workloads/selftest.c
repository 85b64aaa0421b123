/*
 * Self-tests of the kernel core, run like workloads (the QEMU tests use them):
 *
 *   bench=pingpong pairs=<n> rounds=<r> [migrate=0|1]
 *       pairs of tasks hand a counter back and forth through wait queues, so
 *       every round is a sleep and a wake-up, across CPUs when there are
 *       several.  With migrate=1 each task also moves itself to the next
 *       allowed CPU every round (task_set_affinity on the running task) and
 *       checks that it really runs there.  Checks that every hand-off
 *       arrived in order and reports the CPUs used.
 *   bench=fault kind=<pagefault|divide|ud>
 *       a deliberate CPU exception: must end in a panic report (exit 2).
 *   bench=deadlock [kind=wait|spin|notick|lostwake]
 *       wait: two tasks each wait for the other forever: the watchdog must
 *       fire; spin: every CPU spins on a spinlock cycle with interrupts off:
 *       the spinlock stall check must report it.
 *   bench=clock [ms=<n>]
 *       one task per CPU reads clock_ns() in a loop for n ms of its own
 *       time, interrupts on, and counts steps backwards (there must be
 *       none: under vsmp an interrupt moves the CPU's clock base).
 *   bench=lockrace (vsmp=2 or more)
 *       vsmp's wait for a lock that was released after spin_lock saw it
 *       held (kernel/machine/vsmp.c, lock_block): the wait must end at once.
 */
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/wait.h"
#include "../kernel/mem.h"
#include "../kernel/cpu.h"
#include "../kernel/time.h"
#include "../kernel/machine/vsmp.h"
#include "../kernel/machine/keys.h"
#include "../kernel/sched_core.h"

/* ---- pingpong ---- */

struct pingpong_pair {
    struct waitqueue wq;
    volatile uint32_t turn;        /* incremented by whoever hands over; even: ping's turn */
    uint32_t rounds;
    bool migrate;
    volatile uint32_t errors;      /* out-of-order hand-offs or wrong CPU after a move */
    cpumask_t cpus_used;
};

static uint32_t pp_pairs, pp_rounds, pp_migrate;
enum { KEY_PAIRS, KEY_ROUNDS, KEY_MIGRATE };
static const struct cmdline_key pingpong_keys[] = {
    [KEY_PAIRS] = CMDLINE_KEY_UINT("pairs", 2, 1, 1000, "pairs of tasks handing a token back and forth"),
    [KEY_ROUNDS] = CMDLINE_KEY_UINT("rounds", 1000, 1, 10000000, "hand-offs each way per pair"),
    [KEY_MIGRATE] = CMDLINE_KEY_UINT("migrate", 0, 0, 1, "1: each task moves itself to the next CPU every round"),
};

static void pingpong_setup(void)
{
    pp_pairs = cmdline_key_uint(&pingpong_keys[KEY_PAIRS]);
    pp_rounds = cmdline_key_uint(&pingpong_keys[KEY_ROUNDS]);
    pp_migrate = cmdline_key_uint(&pingpong_keys[KEY_MIGRATE]);
}

static int next_allowed_cpu(int cpu, cpumask_t mask)
{
    for (int i = 1; i <= ncpus_online; i++) {
        int c = (cpu + i) % ncpus_online;
        if (mask & CPU_BIT(c))
            return c;
    }
    return cpu;
}

static void pingpong_player(struct pingpong_pair *pp, uint32_t parity)
{
    cpumask_t allowed = bench_cpus();
    for (uint32_t r = 0; r < pp->rounds; r++) {
        uint32_t my_turn = 2 * r + parity;
        wait_event(pp->wq, pp->turn >= my_turn);
        if (pp->turn != my_turn)
            pp->errors++;
        if (pp->migrate) {
            int target = next_allowed_cpu(this_cpu_id(), allowed);
            task_set_affinity(current_task(), CPU_BIT(target));
            if (this_cpu_id() != target)
                pp->errors++;
        }
        __atomic_or_fetch(&pp->cpus_used, CPU_BIT(this_cpu_id()), __ATOMIC_RELAXED);
        pp->turn = my_turn + 1;
        wake_up(&pp->wq);
    }
}

static void ping_entry(void *arg) { pingpong_player(arg, 0); }
static void pong_entry(void *arg) { pingpong_player(arg, 1); }

static int pingpong_run(int run_index)
{
    struct pingpong_pair *pairs = kzalloc(sizeof(*pairs) * pp_pairs);
    struct task **tasks = kzalloc(sizeof(*tasks) * pp_pairs * 2);
    char line[320];
    int n = bench_result_begin(line, sizeof(line), "pingpong", run_index);
    if (!pairs || !tasks) {
        kfree(pairs);
        kfree(tasks);
        kprintf("%s pairs=%u rounds=%u status=oom tasks_started=0\n", line, pp_pairs, pp_rounds);
        return EXIT_OOM;
    }
    uint64_t start = clock_ns();
    uint32_t started = 0;
    for (uint32_t i = 0; i < pp_pairs; i++) {
        waitqueue_init(&pairs[i].wq, "pingpong");
        pairs[i].rounds = pp_rounds;
        pairs[i].migrate = pp_migrate;
        struct task_attr attr = TASK_ATTR_DEFAULT;
        attr.cpus_allowed = bench_cpus();
        attr.name = "ping";
        tasks[started] = task_create(ping_entry, &pairs[i], &attr);
        if (!tasks[started])
            break;
        started++;
        attr.name = "pong";
        tasks[started] = task_create(pong_entry, &pairs[i], &attr);
        if (!tasks[started])
            break;
        started++;
    }
    bool oom = started < pp_pairs * 2;
    if (oom) {
        /* A half-made pair would wait forever: finish its partner's rounds for it. */
        uint32_t half = started / 2;
        if (started % 2) {
            struct pingpong_pair *pp = &pairs[half];
            for (uint32_t r = 0; r < pp->rounds; r++) {
                wait_event(pp->wq, pp->turn >= 2 * r + 1);
                pp->turn = 2 * r + 2;
                wake_up(&pp->wq);
            }
        }
    }
    for (uint32_t i = 0; i < started; i++)
        task_wait(tasks[i]);
    uint64_t elapsed = clock_ns() - start;
    uint32_t errors = 0;
    cpumask_t used = 0;
    for (uint32_t i = 0; i < pp_pairs; i++) {
        errors += pairs[i].errors;
        used |= pairs[i].cpus_used;
        if (!oom && pairs[i].turn != 2 * pp_rounds)
            errors++;
    }
    char s[32];
    n += snprintf(line + n, sizeof(line) - n, " pairs=%u rounds=%u migrate=%u handoffs=%llu errors=%u cpus_used=0x%x",
                  pp_pairs, pp_rounds, pp_migrate, (unsigned long long)pp_pairs * pp_rounds * 2, errors, used);
    kfree(pairs);
    kfree(tasks);
    if (oom) {
        kprintf("%s status=oom tasks_started=%u\n", line, started);
        return EXIT_OOM;
    }
    kprintf("%s time_s=%s status=%s\n", line, fmt_fixed(s, elapsed, NSEC_PER_SEC, 3), errors ? "error" : "ok");
    return errors ? EXIT_ERROR : EXIT_OK;
}

static const struct bench pingpong_bench = {
    .name = "pingpong",
    .summary = "pairs of tasks hand a token through wait queues (core self-test)",
    BENCH_KEYS(pingpong_keys),
    .setup = pingpong_setup,
    .run = pingpong_run,
};
BENCH(pingpong_bench);

/* ---- fault ---- */

static int fault_kind;
static const char *const fault_kinds[] = { "pagefault", "divide", "ud", NULL };
#define UNMAPPED_ADDRESS 0xd0000000u   /* boot/boot.S leaves 0xC0000000-0xDFFFFFFF unmapped */
static const struct cmdline_key fault_keys[] = {
    CMDLINE_KEY_CHOICE("kind", "pagefault", fault_kinds, "the CPU exception to cause"),
};

static void fault_setup(void) { fault_kind = cmdline_key_choice(&fault_keys[0]); }

static int fault_run(int run_index)
{
    kprintf("fault: causing a %s fault on purpose\n", fault_kinds[fault_kind]);
    volatile int zero = 0;
    switch (fault_kind) {
    case 0:
        return *(volatile int *)(uintptr_t)(UNMAPPED_ADDRESS + zero);
    case 1: {
        /* In assembly: gcc turns 1/x into a compare. */
        uint32_t eax = 1, edx = 0;
        __asm__ volatile("divl %2" : "+a"(eax), "+d"(edx) : "r"((uint32_t)zero));
        return (int)eax;
    }
    default:
        __asm__ volatile("ud2");
    }
    return EXIT_ERROR;
}

static const struct bench fault_bench = {
    .name = "fault",
    .summary = "a deliberate CPU exception (must panic)",
    BENCH_KEYS(fault_keys),
    .setup = fault_setup,
    .run = fault_run,
};
BENCH(fault_bench);

/* ---- deadlock ---- */

/*
 * kind=wait: two tasks wait on a wait queue forever (the tick's watchdog
 * must fire).  kind=spin: one task per CPU, each bound to its CPU, takes its
 * own lock with interrupts off and then the next CPU's: a cycle in which
 * every CPU spins with interrupts off, so no tick runs; the spinlock stall
 * check must report it (needs 2 or more CPUs).
 */
static struct waitqueue deadlock_wq = { SPINLOCK_INIT("deadlock"), LIST_HEAD_INIT(deadlock_wq.waiters) };
static volatile int never;
static int deadlock_kind;
static const char *const deadlock_kinds[] = { "wait", "spin", "notick", "lostwake", NULL };
static const struct cmdline_key deadlock_keys[] = {
    CMDLINE_KEY_CHOICE("kind", "wait", deadlock_kinds,
                       "wait: on a wait queue (the watchdog); spin: a spinlock cycle, interrupts off (the stall check); "
                       "notick: a task that keeps the watchdog quiet on a CPU that takes no tick (the tick check); "
                       "lostwake: a task queued on an idle CPU that is never told (the lost wake-up check)"),
};
static spinlock_t deadlock_locks[MAX_CPUS];
static volatile int deadlock_holding;

static void deadlock_setup(void)
{
    deadlock_kind = cmdline_key_choice(&deadlock_keys[0]);
    if (deadlock_kind == 1 && ncpus_online < 2)
        cmdline_error("kind", "a spinlock cycle needs 2 or more CPUs");
    if (deadlock_kind == 3 && ncpus_online < 2)
        cmdline_error("kind", "a lost wake-up needs 2 or more CPUs (the waker's and the sleeper's)");
}

static void deadlock_entry(void *arg)
{
    (void)arg;
    wait_event(deadlock_wq, never);
}

/* The tasks wait, asleep, until all of them exist: a CPU that spins with
 * interrupts off early could keep bench-main, which is still creating the
 * others, from ever running again (goodness's one queue with a reschedule
 * already pending on the CPU it picks does exactly that at 5+ vCPUs). */
static struct waitqueue spin_start_wq = { SPINLOCK_INIT("spin-start"), LIST_HEAD_INIT(spin_start_wq.waiters) };
static volatile int spin_start;

/* The gathering (on bench-main's stack, so that the images' static data
 * stay where they were: tests/caches-image-layout.txt): each CPU's ticks
 * when the spinners were woken, and whether its spinner holds its own
 * lock yet. */
struct spin_gather {
    uint32_t limit_ticks;               /* watchdog= in ticks */
    uint32_t ticks[MAX_CPUS];           /* low halves: a difference fits */
    volatile int holds[MAX_CPUS];
};

/*
 * Until the last CPU holds its own lock, the CPUs that do spin with
 * interrupts off and switch nothing in, while the CPUs still to arrive take
 * their ticks: the watchdog there would find no progress since the last
 * spinner switched in, and under TCG the time a vCPU waits for the host to
 * run it is host time: at load 11-13 a late vCPU's first tick found none
 * and the watchdog's "no progress" came instead of the stall report
 * (smp-stall-nick-smp8-report; the last CPU held back 3 s with interrupts
 * off, as a vCPU the host does not run, does it every time).  So the wait
 * is progress, judged on the guest's own clock: while every CPU still to
 * arrive has taken fewer than watchdog= seconds of its own ticks since the
 * wake-up.  One that ticked that long and never ran its spinner is the
 * guest's stall, and the watchdog reports it (measured: 1,000 ticks of
 * watchdog=1 on 8 vCPUs came in 20-30 s).
 */
static bool gathering_progresses(const struct spin_gather *g)
{
    for (int cpu = 0; cpu < ncpus_online; cpu++)
        if (!g->holds[cpu] && (uint32_t)cpus[cpu].stats.ticks - g->ticks[cpu] >= g->limit_ticks)
            return false;
    return true;
}

static void spin_cycle_entry(void *arg)
{
    struct spin_gather *g = arg;
    int cpu = this_cpu_id();            /* the task is bound to its CPU */
    wait_event(spin_start_wq, spin_start);
    unsigned long f = spin_lock_irqsave(&deadlock_locks[cpu]);
    g->holds[cpu] = 1;
    __atomic_add_fetch(&deadlock_holding, 1, __ATOMIC_SEQ_CST);
    while (deadlock_holding < ncpus_online) {
        if (gathering_progresses(g))
            watchdog_note_progress();
        cpu_relax();
    }
    /* The cycle is closed: every CPU waits in spin_lock with interrupts
     * off, no tick runs, and only the stall check can end it. */
    spin_lock(&deadlock_locks[(cpu + 1) % ncpus_online]);   /* never returns */
    spin_unlock_irqrestore(&deadlock_locks[cpu], f);
}

/* kind=notick: as a CPU hog on a CPU whose ticks stopped (its timer, or
 * the host, no longer delivers them): interrupts off, so none comes, and
 * it touches the watchdog as every hog does.  Nothing else can run on
 * that CPU; watchdog_touch's tick check must end the run. */
static void notick_entry(void *arg)
{
    (void)arg;
    unsigned long f = irq_save();
    for (;;) {
        for (volatile int i = 0; i < 4096; i++)
            ;
        watchdog_touch();
    }
    irq_restore(f);
}

/* kind=lostwake: lostwake-sleeper, bound to cpu 1, waits forever;
 * lostwake-waker, bound to cpu 0, queues it there without telling cpu 1
 * (sched_test_wake_unkicked: a lost reschedule IPI) and waits forever too.
 * Every CPU then idles with one task runnable: the watchdog's report must
 * name a lost wake-up. */
static void lostwake_waker_entry(void *arg)
{
    while (!sched_test_wake_unkicked(arg))
        task_sleep_ns(NSEC_PER_SEC / 100);   /* not asleep yet */
    deadlock_entry(NULL);
}

static int deadlock_run(int run_index)
{
    if (deadlock_kind == 3) {
        kprintf("deadlock: a task is queued on an idle cpu that is never told; the lost wake-up check must end this "
                "run\n");
        struct task_attr attr = TASK_ATTR_DEFAULT;
        attr.name = "lostwake-sleeper";
        attr.cpus_allowed = CPU_BIT(1);
        struct task *sleeper = task_create(deadlock_entry, NULL, &attr);
        attr.name = "lostwake-waker";
        attr.cpus_allowed = CPU_BIT(0);
        if (sleeper)
            task_wait(task_create(lostwake_waker_entry, sleeper, &attr));
        return EXIT_ERROR;   /* not reached */
    }
    if (deadlock_kind == 2) {
        kprintf("deadlock: a task spins with no tick on its cpu and touches the watchdog; the tick check must end "
                "this run\n");
        struct task_attr attr = TASK_ATTR_DEFAULT;
        attr.name = "notick-hog";
        attr.cpus_allowed = CPU_BIT(0);
        task_wait(task_create(notick_entry, NULL, &attr));
        return EXIT_ERROR;   /* not reached */
    }
    if (deadlock_kind == 1) {
        kprintf("deadlock: every cpu takes its lock, then the next cpu's, with interrupts off; the spinlock stall "
                "check must end this run\n");
        for (int cpu = 0; cpu < ncpus_online; cpu++)
            spin_lock_init(&deadlock_locks[cpu], "deadlock-cycle");
        struct spin_gather gather, *g = &gather;   /* this task never returns */
        struct task_attr attr = TASK_ATTR_DEFAULT;
        attr.name = "spin-cycle";
        for (int cpu = 0; cpu < ncpus_online; cpu++) {
            attr.cpus_allowed = CPU_BIT(cpu);
            task_create(spin_cycle_entry, g, &attr);
        }
        g->limit_ticks = (uint32_t)(spin_stall_limit_ns() / (NSEC_PER_SEC / HZ));
        for (int cpu = 0; cpu < ncpus_online; cpu++) {
            g->holds[cpu] = 0;
            g->ticks[cpu] = (uint32_t)cpus[cpu].stats.ticks;
        }
        spin_start = 1;
        wake_up(&spin_start_wq);
        for (;;)
            task_sleep_ns(NSEC_PER_SEC);
    }
    kprintf("deadlock: two tasks now wait for each other forever; the watchdog must end this run\n");
    struct task *a = task_create(deadlock_entry, NULL, NULL);
    struct task *b = task_create(deadlock_entry, NULL, NULL);
    if (a)
        task_wait(a);
    if (b)
        task_wait(b);
    return EXIT_ERROR;   /* not reached */
}

static const struct bench deadlock_bench = {
    .name = "deadlock",
    .summary = "tasks that wait forever (kind=wait: the watchdog must fire; kind=spin: the spinlock stall check; "
               "kind=notick: the tick check; kind=lostwake: the lost wake-up check)",
    BENCH_KEYS(deadlock_keys),
    .setup = deadlock_setup,
    .run = deadlock_run,
};
BENCH(deadlock_bench);

/* ---- lockrace ---- */

/*
 * spin_lock's contended path looks at the lock with interrupts on and then
 * waits for its release (kernel/spinlock.c, vsmp_lock_contended).  An
 * interrupt between the two can run the other logical CPUs, and the holder
 * can release the lock meanwhile; the wait must then end at once, not wait
 * for a release that has happened (it did until 2026-12-06: mq's tbench at
 * 192 clients stalled on 'unix sock' held by cpu=-1).  An interrupt cannot
 * be placed between two instructions on purpose, so this calls the wait
 * in the state the race leaves: the lock free, with preemption off as in
 * spin_lock.  Without the fix the CPU waits for good and the watchdog ends
 * the run (exit 3).
 */
static spinlock_t lockrace_lock = SPINLOCK_INIT("lockrace");

static void lockrace_setup(void)
{
    if (!machine_vsmp_multi())
        cmdline_error("bench", "lockrace tests vsmp's lock wait: it needs --accel vsmp with 2 or more CPUs");
}

static int lockrace_run(int run_index)
{
    char line[256];
    bench_result_begin(line, sizeof(line), "lockrace", run_index);
    uint64_t start = clock_ns();
    percpu_inc(PERCPU_PREEMPT_COUNT);   /* as spin_lock holds it */
#if defined(SPINLOCK_TICKET)
    uint32_t ticket = lockrace_lock.now_serving;   /* the one the free lock serves */
#else
    uint32_t ticket = 0;                           /* the byte lock has none */
#endif
    vsmp_lock_block(&lockrace_lock, ticket);
    percpu_dec(PERCPU_PREEMPT_COUNT);
    uint64_t waited = clock_ns() - start;
    spin_lock(&lockrace_lock);          /* and it can be taken and given back as usual */
    spin_unlock(&lockrace_lock);
    kprintf("%s waited_ns=%llu status=ok\n", line, (unsigned long long)waited);
    return EXIT_OK;
}

static const struct bench lockrace_bench = {
    .name = "lockrace",
    .summary = "vsmp: a lock wait that comes after the release must end at once (core self-test)",
    .setup = lockrace_setup,
    .run = lockrace_run,
};
BENCH(lockrace_bench);

/* ---- clock ---- */

/*
 * clock_ns() is RDTSC minus this CPU's base (kernel/time.h).  Under vsmp an
 * interrupt moves the base (the dispatcher's instructions are not the
 * CPU's time), so a read that an interrupt splits between its RDTSC and
 * its subtraction stepped back by the handler's length (a tbench
 * max_latency_ms of 2^64 ns, 2026-12-06).  A task that spins without locks
 * is interrupted every vsmp quantum, so this loop meets that window often.
 */
static uint32_t clock_ms;
static const struct cmdline_key clock_keys[] = {
    CMDLINE_KEY_UINT("ms", 20, 1, 60000, "how long each task reads the clock (its own time)"),
};
static volatile uint32_t clock_backwards, clock_reads_k;   /* thousands of reads */

static void clock_setup(void) { clock_ms = cmdline_key_uint(&clock_keys[0]); }

static void clock_entry(void *arg)
{
    (void)arg;
    uint64_t prev = clock_ns(), end = prev + (uint64_t)clock_ms * NSEC_PER_MSEC, reads = 0;
    uint32_t back = 0;
    while (prev < end) {
        uint64_t now = clock_ns();
        if (now < prev)
            back++;
        prev = now;
        reads++;
    }
    __atomic_add_fetch(&clock_backwards, back, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&clock_reads_k, (uint32_t)(reads / 1000), __ATOMIC_SEQ_CST);
}

static int clock_run(int run_index)
{
    char line[256];
    bench_result_begin(line, sizeof(line), "clock", run_index);
    clock_backwards = 0;
    clock_reads_k = 0;
    struct task *t[MAX_CPUS];
    int n = 0;
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = "clock";
    for (int cpu = 0; cpu < ncpus_online; cpu++) {
        if (!(bench_cpus() & CPU_BIT(cpu)))
            continue;
        attr.cpus_allowed = CPU_BIT(cpu);
        if ((t[n] = task_create(clock_entry, NULL, &attr)))
            n++;
    }
    for (int i = 0; i < n; i++)
        task_wait(t[i]);
    bool ok = n > 0 && clock_backwards == 0;
    kprintf("%s ms=%u tasks=%d reads_k=%u backwards=%u status=%s\n", line, clock_ms, n, clock_reads_k,
            clock_backwards, ok ? "ok" : "error");
    return ok ? EXIT_OK : EXIT_ERROR;
}

static const struct bench clock_bench = {
    .name = "clock",
    .summary = "one task per CPU reads the clock in a loop: it must never step back (core self-test)",
    BENCH_KEYS(clock_keys),
    .setup = clock_setup,
    .run = clock_run,
};
BENCH(clock_bench);
