/* The workloads' metrics (see metric.h). */
#include "metric.h"
#include "proto.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* What a metric's value may be: a time, a cost or a rate is positive (a
 * zero or negative one is a broken measurement: lmbench's lat_ctx drops
 * them, schedlab marks the run failed); a share or a count is not negative. */
enum sign { POSITIVE, NONNEGATIVE };

/* The words for the metrics of the result lines (which ones there are, and
 * their sense, are the protocol's: kernel/protocol.h PROTO_METRICS), and
 * the metrics collect derives for schedstat.csv, with their sense here. */
static const struct metric {
    const char *key;
    const char *words, *axis;
    int direction;        /* derived metrics only: the protocol's say theirs */
    enum sign sign;
} metrics[] = {
    { "time_s", "seconds", "time (s)", 0, 0 },
    { "usec_per_op", "microseconds per round trip", "round trip (\xc2\xb5s)", 0, 0 },
    { "usec_per_switch", "microseconds per context switch", "context switch (\xc2\xb5s)", 0, 0 },
    { "mb_per_s", "MB/s", "throughput (MB/s)", 0, 0 },
    { "ops_per_s", "round trips per second", "round trips per second", 0, 0 },
    { "messages_per_s", "messages per second", "messages per second", 0, 0 },
    { "jobs_per_min", "jobs per minute", "jobs per minute", 0, 0 },
    { "cycles_per_pick", "cycles per scheduling decision", "cycles per pick", 0, 0 },
    { "share", "CPU share", "CPU share", 0, 0 },
    { "p50_us", "median wake-up latency, us", "median wake-up latency (\xc2\xb5s)", 0, 0 },
    { "p90_us", "90th percentile wake-up latency, us", "p90 wake-up latency (\xc2\xb5s)", 0, 0 },
    { "p99_us", "99th percentile wake-up latency, us", "p99 wake-up latency (\xc2\xb5s)", 0, 0 },
    { "p999_us", "99.9th percentile wake-up latency, us", "p99.9 wake-up latency (\xc2\xb5s)", 0, 0 },
    { "max_groups", "largest group count that completed", "groups", 0, 0 },
    /* schedstat.csv (collect): per CPU of a boot, over the whole boot */
    { "switches_per_s", "context switches per second", "context switches per second", 0, NONNEGATIVE },
    { "migrations_per_s", "migrations per second", "migrations per second", 0, NONNEGATIVE },
    { "wakeups_per_s", "wake-ups per second", "wake-ups per second", 0, NONNEGATIVE },
    { "idle_share", "share of the time idle", "idle (share of the time)", 0, NONNEGATIVE },
    { "pick_cycles", "cycles per pick-next (mean of the boot)", "cycles per pick", -1, NONNEGATIVE },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static const struct metric *find_metric(const char *key)
{
    for (size_t i = 0; key && i < NMETRICS; i++)
        if (strcmp(key, metrics[i].key) == 0)
            return &metrics[i];
    return NULL;
}

/* A metric's sense: the protocol's for a result line's, else the table's. */
static int direction_of(const struct metric *m)
{
    return proto_is_metric(m->key) ? proto_metric_better(m->key) : m->direction;
}
static enum sign sign_of(const struct metric *m)
{
    return proto_is_metric(m->key) ? (proto_metric_positive(m->key) ? POSITIVE : NONNEGATIVE) : m->sign;
}

/* Columns that describe a run rather than a workload parameter. */
bool is_fixed_column(const char *name)
{
    static const char *const fixed[] = {
        "sched", "smp", "cpus", "boot", "run", "bench", "status", "reason", "oversubscribed", "log", "source", "exit", NULL,
    };
    for (int i = 0; fixed[i]; i++)
        if (strcmp(name, fixed[i]) == 0)
            return true;
    return false;
}

/* Per-run counters and secondary measurements the workloads print beside
 * the metric (kernel/protocol.h PROTO_COUNTERS), and the raw counters of
 * schedstat.csv: never parameters, never copied between runs. */
bool is_counter_key(const char *name)
{
    static const char *const counters[] = {
        "reason", "cpus_used_count",
        /* the raw counters of schedstat.csv */
        "schedule_calls", "context_switches", "migrations", "wakeups", "idle_ms", "pick_cycles_total",
        "pick_cycles_avg", "ticks", "resched_ipis", "seconds", "ticks_expected", "busy_us", "idle_us",
        /* lost_ticks.h: how much of the boot's ticks the host took away, not a parameter */
        "ticks_lost_pct", NULL,
    };
    if (proto_is_counter(name))
        return true;
    for (int i = 0; counters[i]; i++)
        if (strcmp(name, counters[i]) == 0)
            return true;
    return false;
}

bool is_metric_key(const char *key)
{
    return proto_is_metric(key) || find_metric(key) != NULL;
}

const char *default_metric(const char *bench)
{
    return proto_workload_metric(bench);
}

int metric_direction(const char *metric)
{
    const struct metric *m = find_metric(metric);
    return m ? direction_of(m) : proto_metric_better(metric);
}

const char *metric_words(const char *metric)
{
    const struct metric *m = find_metric(metric);
    return m ? m->words : NULL;
}

const char *metric_axis_label(const char *metric)
{
    const struct metric *m = find_metric(metric);
    return m ? m->axis : metric;
}

/* A rate: higher is better and positive (mb_per_s, ops_per_s, messages_per_s, jobs_per_min). */
bool metric_is_rate(const char *metric)
{
    return proto_metric_better(metric) > 0 && proto_metric_positive(metric);
}

bool is_provenance_column(const char *name)
{
    static const char *const names[] = { "git_revision", "accel", "mem_mib", "kernel_flags", "qemu", "date", "host", NULL };
    if (!strncmp(name, "boot_", 5) || !strncmp(name, "build_", 6))
        return true;
    for (int i = 0; names[i]; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

bool is_measured_provenance(const char *name)
{
    return !strcmp(name, "date") || !strcmp(name, "host") || !strcmp(name, "boot_tsc_khz");
}

enum metric_verdict metric_check(const char *key, const char *value, double *x, char **why)
{
    const struct metric *m = find_metric(key);
    double v;
    *why = NULL;
    if (!parse_double(value, &v)) {
        *why = xasprintf("%s=%.40s is not a number", key, value);
        return METRIC_BAD_NUMBER;
    }
    if (fabs(v) >= METRIC_LIMIT || (v != 0 && fabs(v) < METRIC_FLOOR)) {
        *why = xasprintf("%s=%.40s is not a plausible value (magnitude %g or more, or under %g)", key, value,
                         METRIC_LIMIT, METRIC_FLOOR);
        return METRIC_BAD_NUMBER;
    }
    if (x)
        *x = v;
    if (m && sign_of(m) == POSITIVE && !(v > 0)) {
        *why = xasprintf("non-positive %s=%.40s", key, value);
        return METRIC_BAD_VALUE;
    }
    if (m && sign_of(m) == NONNEGATIVE && v < 0) {
        *why = xasprintf("negative %s=%.40s", key, value);
        return METRIC_BAD_VALUE;
    }
    return METRIC_OK;
}
