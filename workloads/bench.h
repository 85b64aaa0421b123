/*
 * Built-in workloads.  Each workload is one file under workloads/ that
 * defines a struct bench and registers it with BENCH(); the runner
 * (workloads/runner.c) selects them with bench= on the kernel command line,
 * validates every parameter before anything runs, repeats each runs=<R>
 * times and ends the run with the worst exit code (kernel_finish).
 *
 * A workload declares every key it reads in one table of struct cmdline_key
 * (name, type, default, range, help; the short suite's default where it
 * differs) and reads them only through that table's entries, so what
 * bench=list prints is what setup enforces (docs/workloads.md).
 *
 * A result line starts with bench_result_begin() and is printed in one
 * kprintf call:
 *   result bench=<name> sched=<name> cpus=<online> run=<i> <param>=<v>... <metric>=<v> status=ok
 * The channel workloads add bench_channel_params() among their parameters
 * and print their channel counters on a chanstat line (msg.h).
 */
#ifndef WORKLOADS_BENCH_H
#define WORKLOADS_BENCH_H

#include "../kernel/types.h"
#include "../kernel/cmdline.h"

struct bench {
    const char *name;
    const char *summary;            /* one line, no double quote (bench=list prints it quoted) */
    const struct cmdline_key *keys; /* every command-line key it reads (or NULL) */
    int nkeys;
    bool in_default_suite;       /* part of bench=all and of a run without bench= */
    /* Read and check every parameter through keys (the getters end the run on
     * bad input).  Called once for each selected bench before any run starts;
     * under the short suite the getters return the keys' suite defaults. */
    void (*setup)(void);
    /* One run: prints its result line(s); returns an enum exit_code
     * (EXIT_OK, EXIT_ERROR for status=error, EXIT_OOM for status=oom). */
    int (*run)(int run_index);
};

#define BENCH_KEYS(table) .keys = (table), .nkeys = (int)ARRAY_SIZE(table)

#define BENCH(var) \
    static const struct bench *const bench_entry_##var __attribute__((used, section(".benches"))) = &var

/* The CPUs every task of the run may use (bind=, else all online CPUs). */
cpumask_t bench_cpus(void);
/* Writes "result bench=<b> sched=<s> cpus=<n> run=<i>" into buf; returns its length. */
int bench_result_begin(char *buf, size_t size, const char *bench, int run_index);
/* Writes " pipe_wake=<rule> sock_model=<version>": the kernel parameters that
 * change every channel workload's numbers (result lines carry them so that
 * tables refuse to mix them).  Returns its length. */
int bench_channel_params(char *buf, size_t size);

#endif
