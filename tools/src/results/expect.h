/*
 * What a kernel command line asks for (the workload, runs=, the swept
 * lists) and the runs a boot must therefore report: "slots", one per run x
 * every swept value, in the order the kernel runs them, so that a result
 * line finds its run by index and a run that never reported is a row too.
 */
#ifndef SCHEDLAB_EXPECT_H
#define SCHEDLAB_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel's own limit on runs= (workloads/runner.c). */
#define MAX_RUNS 10000
/* At most this many expected runs per boot (runs x every swept value):
 * beyond it collect refuses the matrix instead of allocating without end. */
#define MAX_EXPECTED_RUNS 100000

/* What the kernel command line asked for. */
struct expectation {
    char *bench;          /* the single workload, or NULL (bench=all, a list, or absent) */
    long runs;            /* runs= (default 1) */
    size_t nparams;
    char **key, **value;  /* every other key=value word except runs/bench/watchdog */
    bool *swept;          /* a comma list of values, each run in turn (bind= is a CPU list, not swept) */
    char *problem;        /* why runs= cannot be the kernel's (it would reject it), or NULL */
};
void expectation_parse(struct expectation *e, const char *cmdline);
void expectation_free(struct expectation *e);
/* Marks as swept only the comma-list keys in keys[0..n) (the kernel's own
 * list keys, from DIR/matrix.txt), instead of every comma list but bind=. */
void expectation_set_sweep(struct expectation *e, char *const *keys, size_t n);
/* The runs a boot must report (runs x every swept value), or 0 when they
 * cannot be counted (no single workload, a bad runs=, more than
 * MAX_EXPECTED_RUNS); then *why (allocated) says why, unless it is only
 * that the workload set is unknown. */
size_t expectation_count(const struct expectation *e, char **why);

/* Columns a command-line word must never set in a row: what identifies a
 * run, its outcome and its measurements (a "time_s=" word is no result). */
bool is_run_column(const char *key);
/* Equal as numbers when both are, else as strings ("050" is "50"). */
bool same_value(const char *a, const char *b);

/* The runs a boot must report, slot s = ((run * L0 + i0) * L1 + i1) ...: run
 * slowest, the last swept key fastest, as the kernel runs them. */
struct slots {
    size_t nswept, n, per_run;   /* per_run: the product of the list lengths */
    size_t *param;               /* the swept parameters' indexes in the expectation */
    char ***list;                /* their values */
    size_t *listn;
    bool *filled;                /* the run has reported */
};

/* The slots of e; none when they cannot be counted (*why says why, see expectation_count). */
void slots_init(struct slots *sl, const struct expectation *e, char **why);
void slots_free(struct slots *sl);
/* Slot s's value of swept key k, and its run. */
const char *slot_value(const struct slots *sl, size_t s, size_t k);
long slot_run(const struct slots *sl, size_t s);

/* What a result line says about its run: for each dimension (the run, then
 * each swept key) a value that must equal, a cut-off value that must be a
 * prefix, or nothing (any value fits). */
struct wanted {
    const char *exact, *prefix;
};

/* The slot a result line reports (want[0] the run, want[1 + k] swept key k),
 * or NULL.  A complete line takes the first fitting slot that has not
 * reported (*duplicate when every fitting one has); a cut-off line (cut)
 * only a slot it names unambiguously. */
bool *slots_match(struct slots *sl, const struct wanted *want, bool cut, bool *duplicate);

#endif
