/*
 * The workload runner: the kernel's first task (KERNEL_INIT_TASK).  It
 * registers its own keys (bench=, runs=, bind=) and those of the selected
 * workloads, checks that every key on the command line is registered (the
 * kernel registered watchdog= at boot), lets each workload check its
 * parameters, then runs them in order and ends the run with kernel_finish.
 * bench=list describes every workload and key instead (docs/workloads.md).
 */
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/init.h"
#include "../kernel/lib.h"
#include "../kernel/cpu.h"
#include "../kernel/sched_core.h"
#include "../kernel/pipe.h"
#include "../kernel/unix_sock.h"
#include "../kernel/chan_cost.h"

#define MAX_SELECTED 16
#define MAX_BENCHES 32

extern const struct bench *const __start_benches[], *const __stop_benches[];

/* bench='s choices: every workload, then all and list; filled when the task starts. */
static const char *bench_names[MAX_BENCHES + 3];

/*
 * pipe_wake= and sock_model= are kernel parameters (they change the pipes
 * and sockets of every workload), declared here because the runner is the
 * first task: they are applied before any workload's setup.  (cost= is the
 * kernel's own, kernel/main.c: it prices machine events from the first
 * switch on.)  Defaults: the
 * plumbing of the seed table's kernels (2.4.18 and 2.6.0 pipes; 2.6.0
 * sockets, whose 235 messages per socket are 2.4.18's 241 within 3%).
 */
enum { KEY_BENCH, KEY_RUNS, KEY_BIND, KEY_PIPE_WAKE, KEY_SOCK_MODEL };
static const struct cmdline_key runner_keys[] = {
    [KEY_BENCH] = { .name = "bench", .type = CMDLINE_CHOICE_LIST, .def_text = "all", .choices = bench_names,
                    .help = "workloads to run, comma separated; all: the short suite; list: describe them" },
    [KEY_RUNS] = CMDLINE_KEY_UINT("runs", 1, 1, 10000, "repeat each workload this many times in this boot"),
    [KEY_BIND] = CMDLINE_KEY_CPU_LIST_AUTO("bind", "restrict every task to these CPUs, e.g. 0 or 0,2-3 "
                                                   "(default: every online CPU)"),
    [KEY_PIPE_WAKE] = CMDLINE_KEY_CHOICE("pipe_wake", "async", pipe_wake_names,
                                         "pipe wake-ups: async as 2.4.18/2.6.0 fs/pipe.c (sync only right before "
                                         "sleeping), sync as 2.6.23/24 (every wake-up sync)"),
    [KEY_SOCK_MODEL] = CMDLINE_KEY_CHOICE("sock_model", "2.6.0", unix_model_names,
                                          "AF_UNIX socket pairs as this Linux had them: skb truesize, sndbuf, "
                                          "writer wake-up (plain; sync in 2.6.24)"),
};

static cpumask_t bind_mask;

cpumask_t bench_cpus(void) { return bind_mask; }

int bench_result_begin(char *buf, size_t size, const char *bench, int run_index)
{
    return snprintf(buf, size, PROTO_FORMAT_BEGIN(RESULT), bench, sched_name(), ncpus_online, run_index);
}

int bench_channel_params(char *buf, size_t size)
{
    return snprintf(buf, size, " pipe_wake=%s sock_model=%s cost=%s", pipe_wake_names[pipe_wake_rule()],
                    unix_model_names[unix_model()], chan_cost_names[chan_cost_model()]);
}

static void fill_bench_names(void)
{
    int n = 0;
    for (const struct bench *const *b = __start_benches; b < __stop_benches; b++) {
        if (n == MAX_BENCHES)
            panic("runner: more than %d workloads", MAX_BENCHES);
        bench_names[n++] = (*b)->name;
    }
    bench_names[n++] = "all";
    bench_names[n++] = "list";
    bench_names[n] = NULL;
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
    if (n < (int)sizeof(why))
        snprintf(why + n, sizeof(why) - n, " all list");
    cmdline_error("bench", why);
}

/* bench=all (or no bench=): the short default suite, with the keys' suite defaults. */
static int select_suite(const struct bench **out)
{
    int n = 0;
    for (const struct bench *const *b = __start_benches; b < __stop_benches; b++)
        if ((*b)->in_default_suite && n < MAX_SELECTED)
            out[n++] = *b;
    cmdline_use_suite_defaults(true);
    return n;
}

static int select_benches(const char *v, const struct bench **out)
{
    if (strcmp(v, "all") == 0)
        return select_suite(out);
    int n = 0;
    while (*v) {
        const char *end = strchr(v, ',');
        size_t len = end ? (size_t)(end - v) : strlen(v);
        if ((len == 3 && strncmp(v, "all", 3) == 0) || (len == 4 && strncmp(v, "list", 4) == 0)) {
            char why[32];
            snprintf(why, sizeof(why), "%.*s stands alone", (int)len, v);
            cmdline_error("bench", why);
        }
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

/* bench=list: one line per workload and per key, then a normal end (exit 0). */
static void list_benches(void)
{
    cmdline_reject_unknown();
    cmdline_describe_registered();
    for (const struct bench *const *b = __start_benches; b < __stop_benches; b++) {
        if (strchr((*b)->summary, '"'))
            panic("runner: the summary of %s has a double quote", (*b)->name);
        kprintf(PROTO_FORMAT(WORKLOAD), (*b)->name, (*b)->summary);
        if ((*b)->keys)
            cmdline_describe((*b)->name, (*b)->keys, (*b)->nkeys);
    }
    kernel_finish(EXIT_OK);
}

static void bench_main(void *unused)
{
    (void)unused;
    fill_bench_names();
    cmdline_register("kernel", runner_keys, ARRAY_SIZE(runner_keys));
    const char *v = cmdline_key_text(&runner_keys[KEY_BENCH]);
    if (strcmp(v, "list") == 0)
        list_benches();
    const struct bench *selected[MAX_SELECTED];
    int n = select_benches(v, selected);
    for (int i = 0; i < n; i++)
        if (selected[i]->keys)
            cmdline_register(selected[i]->name, selected[i]->keys, selected[i]->nkeys);
    cmdline_reject_unknown();

    uint32_t runs = cmdline_key_uint(&runner_keys[KEY_RUNS]);
    pipe_set_wake_rule(cmdline_key_choice(&runner_keys[KEY_PIPE_WAKE]));
    unix_set_model(cmdline_key_choice(&runner_keys[KEY_SOCK_MODEL]));
    bind_mask = cmdline_key_cpu_list(&runner_keys[KEY_BIND], ncpus_online);
    if (!bind_mask)
        bind_mask = ncpus_online >= 32 ? CPUMASK_ALL : CPU_BIT(ncpus_online) - 1;
    for (int i = 0; i < n; i++)
        if (selected[i]->setup)
            selected[i]->setup();

    int code = EXIT_OK;
    for (int i = 0; i < n && code == EXIT_OK; i++)
        for (uint32_t r = 0; r < runs && code == EXIT_OK; r++)
            code = selected[i]->run((int)r);
    kernel_finish(code);
}
KERNEL_INIT_TASK(bench_main, "bench-main");

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
