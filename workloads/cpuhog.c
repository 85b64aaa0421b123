/*
 * workloads/cpuhog.c - bench=cpuhog: CPU-bound tasks at given nice levels,
 * and the share of the CPU each one gets.
 *
 *   bench=cpuhog tasks=<n> nice=<list, one per task> seconds=<s> [bind=<cpus>]
 *   result bench=cpuhog sched=<s> cpus=<n> run=<i> tasks=<n> seconds=<s> task=<i> nice=<n>
 *          share=<fraction of one CPU> runtime_ms=<ms> status=ok        (one line per task)
 *
 * Every task spins until a common deadline, touching the watchdog now and
 * then; nothing sleeps, so the split of CPU time between them is decided by
 * the scheduler's treatment of nice alone.  share = the task's CPU time
 * (task_runtime_ns(), counted from when it started spinning) divided by the
 * wall time from the start signal to the deadline.  With bind=0 all tasks
 * share one CPU and the shares add up to about 1; the ratio of two shares is
 * what each scheduler predicts:
 *   rr        ignores nice: 1
 *   goodness  Linux 2.4 NICE_TO_TICKS at HZ=100: nice 0 6 ticks, nice 10 3: 2.0
 *   o1        Linux 2.6.0 task_timeslice: nice 0 102 ms, nice 10 53 ms: about 1.92
 *   cfs       the nice-to-weight table: 1024 / 110: about 9.3
 *
 * The tasks are created asleep on a wait queue and all woken at once, so
 * none gets a head start while the others are still being created.  nice
 * defaults to 0 for every task.
 */
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/mem.h"
#include "../kernel/wait.h"
#include "../kernel/time.h"
#include "../kernel/sched_core.h"
#include "../kernel/x86.h"

#define MAX_TASKS 64
#define SPIN_CHECK_EVERY 4096      /* loop iterations between clock reads */

enum { KEY_TASKS, KEY_NICE, KEY_SECONDS };
static const struct cmdline_key cpuhog_keys[] = {
    [KEY_TASKS] = CMDLINE_KEY_UINT("tasks", 2, 1, MAX_TASKS, "CPU-bound tasks"),
    [KEY_NICE] = CMDLINE_KEY_INT_LIST_AUTO("nice", NICE_MIN, NICE_MAX, MAX_TASKS,
                                           "one nice level per task (default: 0 for every task)"),
    [KEY_SECONDS] = CMDLINE_KEY_UINT("seconds", 2, 1, 3600, "how long the tasks spin"),
};

static uint32_t ntasks;
static uint32_t seconds;
static int32_t nices[MAX_TASKS];

struct hog {
    uint64_t runtime_ns;           /* CPU time from the start signal to the deadline */
};

static volatile int go;
static volatile uint64_t deadline_ns;
static struct waitqueue start_wq = { SPINLOCK_INIT("cpuhog start"), LIST_HEAD_INIT(start_wq.waiters) };

static void cpuhog_setup(void)
{
    ntasks = cmdline_key_uint(&cpuhog_keys[KEY_TASKS]);
    seconds = cmdline_key_uint(&cpuhog_keys[KEY_SECONDS]);
    int n = cmdline_key_int_list(&cpuhog_keys[KEY_NICE], nices, MAX_TASKS);
    if (n == 0) {                       /* absent: every task at nice 0 */
        for (uint32_t i = 0; i < ntasks; i++)
            nices[i] = 0;
        return;
    }
    if ((uint32_t)n != ntasks) {
        char why[80];
        snprintf(why, sizeof(why), "%d nice levels for tasks=%u: give one per task", n, ntasks);
        cmdline_error("nice", why);
    }
}

/* The running task's CPU time up to the deadline: what it has run since the
 * deadline (in its current stint on the CPU) is not counted.  Under QEMU the
 * virtual CPU may be paused by the host for a while just before the task
 * looks at the clock; without this, that pause would count as its CPU time. */
static uint64_t runtime_until_deadline(struct task *self)
{
    unsigned long f = irq_save();
    uint64_t now = clock_ns();
    uint64_t t = self->runtime_ns + (now - self->last_switch_in_ns);
    uint64_t from = MAX(deadline_ns, self->last_switch_in_ns);
    if (now > from)
        t -= now - from;
    irq_restore(f);
    return t;
}

static void hog_main(void *arg)
{
    struct hog *h = arg;
    struct task *self = current_task();
    wait_event(start_wq, go);
    uint64_t start = task_runtime_ns(self);
    volatile uint32_t work = 0;
    for (;;) {
        for (int i = 0; i < SPIN_CHECK_EVERY; i++)
            work++;
        watchdog_touch();
        if (clock_ns() >= deadline_ns)
            break;
    }
    uint64_t end = runtime_until_deadline(self);
    h->runtime_ns = end > start ? end - start : 0;
}

static int cpuhog_run(int run_index)
{
    char line[256];
    struct hog *hogs = kzalloc(ntasks * sizeof(*hogs));
    struct task **tasks = kzalloc(ntasks * sizeof(*tasks));
    uint32_t created = 0;
    go = 0;
    deadline_ns = ~0ull;
    if (hogs && tasks) {
        struct task_attr attr = TASK_ATTR_DEFAULT;
        attr.name = "cpuhog";
        attr.cpus_allowed = bench_cpus();
        for (; created < ntasks; created++) {
            attr.nice = nices[created];
            tasks[created] = task_create(hog_main, &hogs[created], &attr);
            if (!tasks[created])
                break;
        }
    }
    uint64_t start = clock_ns();
    /* Out of memory: a deadline in the past ends the tasks at once. */
    deadline_ns = created == ntasks ? start + (uint64_t)seconds * NSEC_PER_SEC : 0;
    go = 1;
    wake_up(&start_wq);
    for (uint32_t i = 0; i < created; i++)
        task_wait(tasks[i]);
    if (created < ntasks) {
        bench_result_begin(line, sizeof(line), "cpuhog", run_index);
        kprintf("%s tasks=%u seconds=%u created=%u status=oom\n", line, ntasks, seconds, created);
        kfree(hogs);
        kfree(tasks);
        return EXIT_OOM;
    }
    uint64_t elapsed = deadline_ns - start;
    for (uint32_t i = 0; i < ntasks; i++) {
        char share[32];
        int len = bench_result_begin(line, sizeof(line), "cpuhog", run_index);
        snprintf(line + len, sizeof(line) - len,
                 " tasks=%u seconds=%u task=%u nice=%d share=%s runtime_ms=%llu status=ok", ntasks, seconds, i,
                 nices[i], fmt_fixed(share, hogs[i].runtime_ns, elapsed, 3),
                 (unsigned long long)(hogs[i].runtime_ns / NSEC_PER_MSEC));
        kprintf("%s\n", line);
    }
    kfree(hogs);
    kfree(tasks);
    return EXIT_OK;
}

static const struct bench cpuhog_bench = {
    .name = "cpuhog",
    .summary = "CPU-bound tasks at given nice levels: CPU share of each (tasks=<n> nice=<list> seconds=<s>)",
    BENCH_KEYS(cpuhog_keys),
    .in_default_suite = false,
    .setup = cpuhog_setup,
    .run = cpuhog_run,
};
BENCH(cpuhog_bench);
