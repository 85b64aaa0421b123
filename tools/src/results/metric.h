/*
 * What the columns of the results are: the metrics the workloads print
 * (the one a table shows by default for each workload, which direction is
 * better, what they measure in words, which values they may have), the
 * fixed columns that say what a run was, and the per-run counters.
 */
#ifndef SCHEDLAB_METRIC_H
#define SCHEDLAB_METRIC_H

#include <stdbool.h>

bool is_metric_key(const char *key);
/* Columns that describe a run rather than a workload parameter (sched, run, status...). */
bool is_fixed_column(const char *name);
/* Per-run counters the workloads print beside their metric (tasks_started...): never parameters. */
bool is_counter_key(const char *name);
/* The metric a table shows by default for a workload, or NULL. */
const char *default_metric(const char *bench);
/* +1 when larger is better, -1 when smaller is better, 0 unknown. */
int metric_direction(const char *metric);
/* "seconds", "MB/s"...; NULL for an unknown metric. */
const char *metric_words(const char *metric);
/* An axis label with the unit: "time (s)", "round trip (us)"; the key itself for an unknown metric. */
const char *metric_axis_label(const char *metric);
/* A rate (higher is better, per second): summarised with the harmonic mean too, as mmtests does. */
bool metric_is_rate(const char *metric);

/* Columns that say where and how a run was made (results.csv's provenance:
 * git_revision, accel, mem_mib, build_*, kernel_flags, qemu, date, host and
 * every field of the kernel's boot line as boot_<key>): never workload
 * parameters.  A boot_ or build_ prefix is enough, so new fields of the
 * boot line or of the build settings need no change here. */
bool is_provenance_column(const char *name);
/* Provenance that is recorded but differs from boot to boot by nature (the
 * date, the host, the calibrated TSC): not compared by the comparability check. */
bool is_measured_provenance(const char *name);

/* Values beyond these are no measurement (a time of 1e12 s is 30,000
 * years; the kernel prints at most nanosecond resolution): they are
 * rejected before any arithmetic, which keeps the statistics finite
 * (Welch's degrees of freedom overflow near 1e77) and every printed number
 * short (a ratio or CV of such values had hundreds of digits). */
#define METRIC_LIMIT 1e12
#define METRIC_FLOOR 1e-9

enum metric_verdict {
    METRIC_OK,
    METRIC_BAD_NUMBER,   /* not a finite decimal number below METRIC_LIMIT: malformed input */
    METRIC_BAD_VALUE,    /* a number the metric cannot have: a non-positive time or rate, a negative share */
};
/* Checks one metric value of a run; *x gets the number (when it is one)
 * and *why an allocated reason unless the verdict is METRIC_OK. */
enum metric_verdict metric_check(const char *key, const char *value, double *x, char **why);

#endif
