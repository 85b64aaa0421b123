/*
 * The workload runner: the first task.  It reads bench=, runs=, bind= and
 * watchdog= (read at boot), checks that every key on the command line
 * belongs to the kernel or to a selected workload, lets each workload check
 * its parameters, then runs them in order and ends the run.
 */
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/cpu.h"
#include "../kernel/sched_core.h"
#include "../sched/sched.h"

#define MAX_SELECTED 16

extern const struct bench *const __start_benches[], *const __stop_benches[];

static const char *const kernel_keys[] = { "bench", "runs", "bind", "watchdog", NULL };
static cpumask_t bind_mask;
static bool suite_mode;

cpumask_t bench_cpus(void) { return bind_mask; }
bool bench_suite_mode(void) { return suite_mode; }

int bench_result_begin(char *buf, size_t size, const char *bench, int run_index)
{
    return snprintf(buf, size, "result bench=%s sched=%s cpus=%d run=%d", bench, scheduler.name, ncpus_online,
                    run_index);
}

static const struct bench *find_bench(const char *name, size_t len)
{
    for (const struct bench *const *b = __start_benches; b < __stop_benches; b++)
        if (strlen((*b)->name) == len && strncmp((*b)->name, name, len) == 0)
            return *b;
    return NULL;
}

static void unknown_bench(const char *name, size_t len)
{
    char why[300];
    int n = snprintf(why, sizeof(why), "unknown workload '%.*s'; known:", (int)len, name);
    for (const struct bench *const *b = __start_benches; b < __stop_benches && n < (int)sizeof(why); b++)
        n += snprintf(why + n, sizeof(why) - n, " %s", (*b)->name);
    n += snprintf(why + n, sizeof(why) - n, " all");
    cmdline_error("bench", why);
}

static int select_benches(const struct bench **out)
{
    const char *v = cmdline_get("bench");
    int n = 0;
    if (!v || strcmp(v, "all") == 0) {
        suite_mode = true;
        for (const struct bench *const *b = __start_benches; b < __stop_benches; b++)
            if ((*b)->in_default_suite && n < MAX_SELECTED)
                out[n++] = *b;
        return n;
    }
    while (*v) {
        const char *end = strchr(v, ',');
        size_t len = end ? (size_t)(end - v) : strlen(v);
        const struct bench *b = find_bench(v, len);
        if (!b)
            unknown_bench(v, len);
        if (n == MAX_SELECTED)
            cmdline_error("bench", "too many workloads");
        out[n++] = b;
        v += len + (end ? 1 : 0);
        if (end && !*v)
            cmdline_error("bench", "empty workload name");
    }
    return n;
}

static void bench_main(void *unused)
{
    (void)unused;
    const struct bench *selected[MAX_SELECTED];
    int n = select_benches(selected);
    const char *const *key_lists[MAX_SELECTED + 2];
    key_lists[0] = kernel_keys;
    for (int i = 0; i < n; i++)
        key_lists[i + 1] = selected[i]->params;
    key_lists[n + 1] = NULL;
    /* A bench without params leaves a NULL hole: compact the list. */
    int k = 1;
    for (int i = 1; i <= n; i++)
        if (key_lists[i])
            key_lists[k++] = key_lists[i];
    key_lists[k] = NULL;
    cmdline_reject_unknown(key_lists);

    uint32_t runs = cmdline_uint("runs", 1, 1, 10000);
    bind_mask = cmdline_cpu_list("bind", ncpus_online);
    if (!bind_mask)
        bind_mask = ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1;
    for (int i = 0; i < n; i++)
        if (selected[i]->setup)
            selected[i]->setup();

    int code = EXIT_OK;
    for (int i = 0; i < n && code == EXIT_OK; i++)
        for (uint32_t r = 0; r < runs && code == EXIT_OK; r++)
            code = selected[i]->run((int)r);
    sched_print_stats();
    kprintf("done: exit=%d\n", code);
    machine_exit(code);
}

void bench_start(void)
{
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = "bench-main";
    if (!task_create(bench_main, NULL, &attr))
        panic("cannot create the first task");
}

/* bench=boot: nothing but the boot line and a clean exit. */
static int boot_run(int run_index)
{
    char line[128];
    bench_result_begin(line, sizeof(line), "boot", run_index);
    kprintf("%s status=ok\n", line);
    return EXIT_OK;
}

static const struct bench boot_bench = {
    .name = "boot",
    .summary = "boot, print the boot line and exit",
    .in_default_suite = false,
    .run = boot_run,
};
BENCH(boot_bench);
