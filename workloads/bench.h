/*
 * Built-in workloads.  Each workload is one file under workloads/ that
 * defines a struct bench and registers it with BENCH(); the runner
 * (workloads/runner.c) selects them with bench= on the kernel command line,
 * validates every parameter before anything runs, repeats each runs=<R>
 * times, prints the scheduler statistics and ends the run with the worst
 * exit code.
 *
 * A result line starts with bench_result_begin() and is printed in one
 * kprintf call:
 *   result bench=<name> sched=<name> cpus=<online> run=<i> <param>=<v>... <metric>=<v> status=ok
 */
#ifndef WORKLOADS_BENCH_H
#define WORKLOADS_BENCH_H

#include "../kernel/types.h"

struct bench {
    const char *name;
    const char *summary;
    const char *const *params;   /* command-line keys it reads, NULL-terminated (or NULL) */
    bool in_default_suite;       /* part of bench=all and of a run without bench= */
    /* Read and check every parameter (the cmdline getters end the run on bad
     * input).  Called once for each selected bench before any run starts. */
    void (*setup)(void);
    /* One run: prints its result line(s); returns an enum exit_code
     * (EXIT_OK, EXIT_ERROR for status=error, EXIT_OOM for status=oom). */
    int (*run)(int run_index);
};

#define BENCH(var) \
    static const struct bench *const bench_entry_##var __attribute__((used, section(".benches"))) = &var

/* The CPUs every task of the run may use (bind=, else all online CPUs). */
cpumask_t bench_cpus(void);
/* True when the short default suite runs (no bench=, or bench=all): workloads
 * then use smaller defaults for the keys the command line does not give. */
bool bench_suite_mode(void);
/* Writes "result bench=<b> sched=<s> cpus=<n> run=<i>" into buf; returns its length. */
int bench_result_begin(char *buf, size_t size, const char *bench, int run_index);
void bench_start(void);          /* boot CPU: create the task that runs everything */

#endif
