/*
 * workloads/schedcost.c - bench=schedcost: the cost of one pick-next with N
 * runnable tasks.
 *
 *   bench=schedcost runnable=<N or list> [rounds=<r>]
 *   result bench=schedcost sched=<s> cpus=<n> run=<i> runnable=<N> picks=<k> cycles_per_pick=<c>
 *          cycles_per_pick_mean=<m> status=ok
 *
 * Method.  For each N, N tasks are created bound to one CPU (the first CPU of
 * bench_cpus()).  Each first sleeps on a wait queue, so creating them costs
 * no scheduling work; then all are woken at once and every one loops on
 * task_yield().  From then on every schedule() on that CPU chooses among N
 * runnable tasks: this is the situation the Linux 2.4 / 2.6 comparison is
 * about (2.4's schedule() walks the whole run queue and evaluates goodness()
 * for each task; 2.6's O(1) scheduler finds the first set bit of a bitmap).
 * A yielding task in 2.4 gets goodness -1 but is still scanned, which is
 * intended: the scan is what is measured.
 *
 * The core times every scheduler.pick_next() with rdtsc and adds it to the
 * CPU's statistics (cpus[cpu].stats.pick_cycles and .picks, kernel/cpu.h).
 * The tasks themselves take the before and after snapshots of those two
 * counters, on the measured CPU with interrupts off, so the two numbers are
 * consistent with each other (no tearing of 64-bit values read from another
 * CPU).  The window opens once the scheduler reports N tasks queued on the
 * CPU (sched_nr_queued), i.e. all have been woken, plus a short
 * warm-up, and closes after a fixed number of yields; no task exits inside
 * the window, so every pick in it saw N runnable tasks (the timer tick's
 * preemptions included).  Then the tasks see `stop`, exit, and are reaped.
 *
 * Neither opening nor closing the window waits for a particular task to run.
 * Under Linux 2.4's goodness a task whose counter is 0 (fork splits the
 * parent's counter, so the creating task and the last children created
 * often have none) runs only after the epoch ends, and with N tasks
 * yielding the epoch lasts about N x 60 ms; such tasks are scanned in every
 * pick of the window without being chosen, which is what 2.4 did.  (If the
 * creating task is runnable on the measured CPU when the window opens, the
 * picks see N+1 tasks; that is within the noise.)
 *
 * The window is cut into SEGMENTS equal parts and cycles_per_pick is the
 * median of the parts' averages: under QEMU a virtual CPU can be descheduled
 * by the host in the middle of a pick, and one such pause of a few
 * milliseconds would otherwise add thousands of cycles to the average of
 * 2,000 picks.  cycles_per_pick_mean is the plain average over the whole
 * window (it includes rare expensive picks such as 2.4's counter
 * recalculation, and any host pauses).
 *
 * Window length.  rounds=<r> makes the window r*N yields.  Without it the
 * window is AUTO_WINDOW_PICKS yields whatever N is (so for N > 2000 not every
 * task runs inside the window, which does not matter for the cost of a
 * pick).  That keeps each N to a few seconds under QEMU/TCG even for Linux
 * 2.4's linear scan at N = 10,000, where one pick walks 10,000 tasks: the
 * window, the warm-up and the wind-down (N exits, each a pick over the
 * remaining tasks: about N/2 full scans) are then roughly 7,000 full scans.
 *
 * Out of memory (a task or the task array cannot be allocated): the tasks
 * created so far are stopped and reaped, the line says status=oom and the
 * run ends with EXIT_OOM.
 */
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/cpu.h"
#include "../kernel/mem.h"
#include "../kernel/wait.h"
#include "../kernel/sched_core.h"
#include "../kernel/x86.h"
#include "../kernel/sched_class.h"

#define MAX_SIZES 16
#define MAX_RUNNABLE 50000
#define AUTO_WINDOW_PICKS 2000
#define MAX_WARMUP_YIELDS 200
#define WATCHDOG_EVERY 64          /* yields between watchdog_touch() calls */
#define SEGMENTS 8                 /* parts of the window; the median part is reported */

enum { KEY_RUNNABLE, KEY_ROUNDS };
static const struct cmdline_key schedcost_keys[] = {
    [KEY_RUNNABLE] = CMDLINE_KEY_UINT_LIST("runnable", "10,100,1000,10000", NULL, 1, MAX_RUNNABLE, MAX_SIZES,
                                           "runnable tasks on the measured CPU, or a list measured in turn"),
    [KEY_ROUNDS] = CMDLINE_KEY_UINT_AUTO("rounds", 1, 1000000,
                                         "the window is rounds x N yields (default: 2000 yields whatever N is)"),
};

static uint32_t sizes[MAX_SIZES];
static int nsizes;
static uint32_t rounds;            /* 0: automatic window */

/* State of the current N.  Everything written after `go` is written only by
 * tasks on the measured CPU with interrupts off, so plain fields suffice. */
static struct {
    int cpu;                       /* the measured CPU */
    uint32_t n;                    /* tasks */
    volatile int go;               /* wake up and start yielding */
    volatile int stop;             /* the window is over (or creation failed): exit */
    int measuring;                 /* window open */
    uint32_t warmup_left;          /* yields after all are queued before the window opens */
    uint32_t window;               /* yields in the window */
    uint32_t yields;               /* yields so far in the window */
    int segment;                   /* snapshots taken so far (0..SEGMENTS+1) */
    uint64_t cycles[SEGMENTS + 1]; /* pick_cycles at the start of each part and at the end */
    uint64_t picks[SEGMENTS + 1];
} st;

static struct waitqueue start_wq = { SPINLOCK_INIT("schedcost start"), LIST_HEAD_INIT(start_wq.waiters) };

static void schedcost_setup(void)
{
    nsizes = cmdline_key_uint_list(&schedcost_keys[KEY_RUNNABLE], sizes, MAX_SIZES);
    rounds = cmdline_key_uint_auto(&schedcost_keys[KEY_ROUNDS], 0);
}

static void snapshot(const struct cpu *c)
{
    st.cycles[st.segment] = c->stats.pick_cycles;
    st.picks[st.segment] = c->stats.picks;
    st.segment++;
}

/* One step of the measurement, after a yield: open the window, mark the
 * boundaries of its parts, close it. */
static void account_yield(void)
{
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    if (!st.stop && (st.measuring || sched_nr_queued(st.cpu) >= (int)st.n)) {
        if (!st.measuring) {
            if (st.warmup_left > 0) {
                st.warmup_left--;
            } else {
                snapshot(c);
                st.yields = 0;
                st.measuring = 1;
            }
        } else {
            st.yields++;
            /* Part k ends after k*window/SEGMENTS yields. */
            if ((uint64_t)st.yields * SEGMENTS >= (uint64_t)st.segment * st.window)
                snapshot(c);
            if (st.segment == SEGMENTS + 1)
                st.stop = 1;
        }
    }
    irq_restore(f);
}

/* Median of the parts' cycles per pick (the lower middle one for an even count). */
static uint64_t median_part(void)
{
    uint64_t per[SEGMENTS];
    int n = 0;
    for (int k = 0; k < SEGMENTS; k++) {
        uint64_t picks = st.picks[k + 1] - st.picks[k];
        if (picks)
            per[n++] = (st.cycles[k + 1] - st.cycles[k] + picks / 2) / picks;
    }
    for (int i = 1; i < n; i++)    /* insertion sort of at most SEGMENTS values */
        for (int j = i; j > 0 && per[j - 1] > per[j]; j--) {
            uint64_t t = per[j];
            per[j] = per[j - 1];
            per[j - 1] = t;
        }
    return n ? per[(n - 1) / 2] : 0;
}

static void yielder(void *unused)
{
    (void)unused;
    wait_event(start_wq, st.go);
    for (uint32_t i = 0; !st.stop; i++) {
        task_yield();
        account_yield();
        if (i % WATCHDOG_EVERY == 0)
            watchdog_touch();
    }
}

/* Measures one N; returns EXIT_OK or EXIT_OOM after printing its line. */
static int measure(int run_index, uint32_t n)
{
    char line[192];
    int len = bench_result_begin(line, sizeof(line), "schedcost", run_index);
    len += snprintf(line + len, sizeof(line) - len, " runnable=%u", n);

    memset(&st, 0, sizeof(st));
    st.cpu = __builtin_ctz(bench_cpus());
    st.n = n;
    st.window = rounds ? (uint32_t)MIN((uint64_t)rounds * n, 0xffffffffull) : AUTO_WINDOW_PICKS;
    st.window = MAX(st.window, (uint32_t)SEGMENTS);   /* at least one yield per part */
    st.warmup_left = MIN(n, MAX_WARMUP_YIELDS);

    struct task **tasks = kmalloc(n * sizeof(*tasks));
    if (!tasks) {
        kprintf("%s created=0 status=oom\n", line);
        return EXIT_OOM;
    }
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = "schedcost";
    attr.cpus_allowed = CPU_BIT(st.cpu);
    uint32_t created = 0;
    while (created < n) {
        struct task *t = task_create(yielder, NULL, &attr);
        if (!t)
            break;
        tasks[created++] = t;
        if (created % 256 == 0)
            watchdog_touch();
    }
    if (created < n)
        st.stop = 1;               /* out of memory: let those created exit at once */
    st.go = 1;
    wake_up(&start_wq);
    for (uint32_t i = 0; i < created; i++) {
        task_wait(tasks[i]);
        if (i % 256 == 0)
            watchdog_touch();
    }
    kfree(tasks);
    if (created < n) {
        kprintf("%s created=%u status=oom\n", line, created);
        return EXIT_OOM;
    }
    uint64_t picks = st.picks[SEGMENTS] - st.picks[0];
    uint64_t cycles = st.cycles[SEGMENTS] - st.cycles[0];
    if (st.segment != SEGMENTS + 1 || picks == 0) {
        kprintf("%s status=error reason=no-picks-measured\n", line);
        return EXIT_ERROR;
    }
    kprintf("%s picks=%llu cycles_per_pick=%llu cycles_per_pick_mean=%llu status=ok\n", line,
            (unsigned long long)picks, (unsigned long long)median_part(),
            (unsigned long long)((cycles + picks / 2) / picks));
    return EXIT_OK;
}

static int schedcost_run(int run_index)
{
    for (int i = 0; i < nsizes; i++) {
        int code = measure(run_index, sizes[i]);
        if (code != EXIT_OK)
            return code;
    }
    return EXIT_OK;
}

static const struct bench schedcost_bench = {
    .name = "schedcost",
    .summary = "cycles per pick-next with N runnable tasks on one CPU (runnable=<list> [rounds=<r>])",
    BENCH_KEYS(schedcost_keys),
    .in_default_suite = false,
    .setup = schedcost_setup,
    .run = schedcost_run,
};
BENCH(schedcost_bench);
