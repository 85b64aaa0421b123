/*
 * workloads/wakeup.c - bench=wakeup: wake-up latency while every CPU is busy
 * (in the spirit of Chris Mason's schbench).
 *
 *   bench=wakeup seconds=<s> [ms=<ms>] [workers=<n>] [hogs=<n>]
 *   result bench=wakeup sched=<s> cpus=<n> run=<i> seconds=<s>|ms=<ms> workers=<n> hogs=<n> samples=<k>
 *          p50_us=<..> p90_us=<..> p99_us=<..> p999_us=<..> max_us=<..> dropped=<d> status=ok
 *
 * Tasks
 *   hogs      CPU-bound nice-0 tasks that spin until the end; hog i is bound
 *             to the (i mod n)-th CPU of bench_cpus(), so with the default
 *             hogs = number of those CPUs every CPU is busy all the time.
 *   messenger one task that, in a loop until the deadline, wakes every
 *             worker (each through its own wait queue, stamping clock_ns()
 *             just before the wake_up) and then sleeps until all of them
 *             have reported back.
 *   workers   each sleeps on its wait queue; when it runs again it records
 *             now - the messenger's stamp as one latency sample, does a short
 *             burst of work (THINK_NS, like schbench's think time), and
 *             reports back.
 * A worker woken while hogs occupy every CPU runs only when the scheduler
 * decides to preempt a hog (wake-up preemption, an interactivity bonus) or
 * when a hog's timeslice ends, so the latency distribution shows what O(1)'s
 * interactivity estimator and CFS's wake-up preemption were for.
 *
 * The latency is measured from just before the wake-up call to the moment
 * the worker runs after its wait_event() returns: it includes choosing a CPU,
 * queueing, waiting in the run queue and the context switch.  A worker that
 * had not yet gone to sleep when woken records close to zero, which is right:
 * it never waited.
 *
 * Samples go into a latency recorder (latrec.h): exact 64-bit nanoseconds
 * in one kmalloc'd array of at most MAX_SAMPLES entries; once it is full,
 * further samples are counted as dropped.  At the end the array is sorted
 * and the percentiles are taken by the nearest-rank rule (the smallest
 * sample with at least p% of the samples at or below it).  Samples used to
 * be 32 bits, saturated at 2^32-1 ns: on an oversubscribed host (o1, 8
 * vCPUs) a wake-up can wait longer than 4.29 s, and the line said
 * p99_us=4294967.3 status=ok.  Now such a latency is printed as measured.
 */
#include "bench.h"
#include "latrec.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/mem.h"
#include "../kernel/wait.h"
#include "../kernel/time.h"
#include "../kernel/sched_core.h"
#include "../kernel/x86.h"

#define MAX_WORKERS 256
#define MAX_HOGS 256
#define MAX_SAMPLES 200000
#define THINK_NS (20 * NSEC_PER_USEC)
#define HOG_SPIN 4096              /* loop iterations between checks of `stop` */

enum { KEY_SECONDS, KEY_MS, KEY_WORKERS, KEY_HOGS };
static const struct cmdline_key wakeup_keys[] = {
    [KEY_SECONDS] = CMDLINE_KEY_UINT("seconds", 2, 1, 3600, "how long the messenger keeps waking the workers"),
    /* A shorter run for the test suite under icount, where one virtual
     * second of wake-ups costs 5-8 s of host time; the line then says ms=. */
    [KEY_MS] = CMDLINE_KEY_UINT_AUTO("ms", 1, 3600000, "the run's length in milliseconds, instead of seconds="),
    [KEY_WORKERS] = CMDLINE_KEY_UINT("workers", 4, 1, MAX_WORKERS, "tasks woken in each round"),
    [KEY_HOGS] = CMDLINE_KEY_UINT_AUTO("hogs", 0, MAX_HOGS,
                                       "CPU-bound tasks, spread over the CPUs (default: one per CPU of bind=)"),
};

static uint32_t run_ms, nworkers, nhogs;
static bool ms_given;              /* ms= was on the command line: the result line says ms= */

struct worker {
    struct waitqueue wq;
    volatile int woken;            /* set by the messenger, cleared by the worker */
    volatile uint64_t wake_ns;     /* clock_ns() just before the wake-up */
};

static struct {
    volatile int stop;             /* everyone exits */
    volatile int outstanding;      /* workers woken in this round that have not reported back */
    struct worker *workers;
    struct latrec latencies;
} st;

static struct waitqueue messenger_wq = { SPINLOCK_INIT("wakeup messenger"), LIST_HEAD_INIT(messenger_wq.waiters) };

static uint32_t count_cpus(cpumask_t mask) { return (uint32_t)__builtin_popcount(mask); }

static void wakeup_setup(void)
{
    uint32_t seconds = cmdline_key_uint(&wakeup_keys[KEY_SECONDS]);
    run_ms = cmdline_key_uint_auto(&wakeup_keys[KEY_MS], 0);
    ms_given = run_ms != 0;
    if (!ms_given)
        run_ms = seconds * 1000;
    nworkers = cmdline_key_uint(&wakeup_keys[KEY_WORKERS]);
    nhogs = cmdline_key_uint_auto(&wakeup_keys[KEY_HOGS], count_cpus(bench_cpus()));
}

static void spin_until(uint64_t t)
{
    while (clock_ns() < t)
        cpu_relax();
}

static void worker_main(void *arg)
{
    struct worker *w = arg;
    for (;;) {
        wait_event(w->wq, w->woken || st.stop);
        if (!w->woken)
            break;                 /* stop, and not woken for a round */
        uint64_t now = clock_ns();
        uint64_t stamp = w->wake_ns;
        latrec_add(&st.latencies, now > stamp ? now - stamp : 0);
        w->woken = 0;
        spin_until(now + THINK_NS);
        watchdog_touch();
        if (atomic_add_return(&st.outstanding, -1) == 0)
            wake_up(&messenger_wq);
    }
}

/* The clock starts when the messenger first runs (with the hogs already
 * spinning it may start late, e.g. under 2.4 with no counter left after the
 * fork), and at least one round always runs. */
static void messenger_main(void *unused)
{
    (void)unused;
    uint64_t deadline = clock_ns() + (uint64_t)run_ms * NSEC_PER_MSEC;
    do {
        st.outstanding = (int)nworkers;
        for (uint32_t i = 0; i < nworkers; i++) {
            struct worker *w = &st.workers[i];
            w->wake_ns = clock_ns();
            w->woken = 1;
            wake_up(&w->wq);
        }
        wait_event(messenger_wq, st.outstanding == 0);
    } while (clock_ns() < deadline);
}

static void hog_main(void *unused)
{
    (void)unused;
    volatile uint32_t work = 0;
    while (!st.stop) {
        for (int i = 0; i < HOG_SPIN; i++)
            work++;
        watchdog_touch();
    }
}

static int wakeup_run(int run_index)
{
    char line[320];
    int len = bench_result_begin(line, sizeof(line), "wakeup", run_index);
    if (ms_given)
        len += snprintf(line + len, sizeof(line) - len, " ms=%u", run_ms);
    else
        len += snprintf(line + len, sizeof(line) - len, " seconds=%u", run_ms / 1000);
    len += snprintf(line + len, sizeof(line) - len, " workers=%u hogs=%u", nworkers, nhogs);

    memset(&st, 0, sizeof(st));
    uint32_t ntasks = nworkers + nhogs + 1;
    st.workers = kzalloc(nworkers * sizeof(*st.workers));
    uint64_t *samples = kmalloc(MAX_SAMPLES * sizeof(*samples));
    latrec_init(&st.latencies, samples, MAX_SAMPLES);
    struct task **tasks = kzalloc(ntasks * sizeof(*tasks));
    uint32_t created = 0;
    bool oom = !st.workers || !samples || !tasks;

    cpumask_t cpus = bench_cpus();
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.cpus_allowed = cpus;
    /* Workers first, so that they are asleep on their queues before anything wakes them. */
    for (uint32_t i = 0; !oom && i < nworkers; i++) {
        waitqueue_init(&st.workers[i].wq, "wakeup worker");
        attr.name = "wakeup-worker";
        if (!(tasks[created] = task_create(worker_main, &st.workers[i], &attr)))
            oom = true;
        else
            created++;
    }
    /* Hogs: one per CPU of bench_cpus() in turn. */
    uint32_t ncpu = count_cpus(cpus);
    for (uint32_t i = 0; !oom && i < nhogs; i++) {
        uint32_t nth = i % ncpu;
        cpumask_t m = cpus;
        for (uint32_t k = 0; k < nth; k++)
            m &= m - 1;            /* drop the lowest CPU nth times */
        struct task_attr hog_attr = TASK_ATTR_DEFAULT;
        hog_attr.name = "wakeup-hog";
        hog_attr.cpus_allowed = m & -m;
        if (!(tasks[created] = task_create(hog_main, NULL, &hog_attr)))
            oom = true;
        else
            created++;
    }
    if (!oom) {
        attr.name = "wakeup-msg";
        struct task *messenger = task_create(messenger_main, NULL, &attr);
        if (!messenger) {
            oom = true;
        } else {
            task_wait(messenger);
        }
    }
    /* The messenger has returned (every round complete) or never started: stop the rest. */
    st.stop = 1;
    for (uint32_t i = 0; st.workers && i < nworkers && i < created; i++)
        wake_up(&st.workers[i].wq);
    for (uint32_t i = 0; i < created; i++)
        task_wait(tasks[i]);
    kfree(tasks);
    kfree(st.workers);

    struct latrec_summary sum;
    bool any = !oom && latrec_summarize(&st.latencies, &sum);
    kfree(samples);
    if (oom) {
        kprintf("%s status=oom\n", line);
        return EXIT_OOM;
    }
    if (!any) {
        kprintf("%s samples=0 status=error reason=no-wakeups\n", line);
        return EXIT_ERROR;
    }
    latrec_format(line + len, sizeof(line) - len, &sum);
    kprintf("%s status=ok\n", line);
    return EXIT_OK;
}

static const struct bench wakeup_bench = {
    .name = "wakeup",
    .summary = "schbench-like wake-up latency percentiles with CPU hogs on every CPU (seconds= or ms=, workers= hogs=)",
    BENCH_KEYS(wakeup_keys),
    .in_default_suite = false,
    .setup = wakeup_setup,
    .run = wakeup_run,
};
BENCH(wakeup_bench);
