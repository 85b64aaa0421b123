/* The workloads' metrics (see metric.h). */
#include "metric.h"
#include "util.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* What a metric's value may be: a time, a cost or a rate is positive (a
 * zero or negative one is a broken measurement: lmbench's lat_ctx drops
 * them, schedlab marks the run failed); a share or a count is not negative. */
enum sign { POSITIVE, NONNEGATIVE };

/* Metric keys of issue 4's workloads and of the scheduler benchmarks. */
static const struct metric {
    const char *key;
    int direction;
    enum sign sign;
    const char *words, *axis;
    bool rate;
} metrics[] = {
    { "time_s", -1, POSITIVE, "seconds", "time (s)", false },
    { "usec_per_op", -1, POSITIVE, "microseconds per round trip", "round trip (\xc2\xb5s)", false },
    { "usec_per_switch", -1, POSITIVE, "microseconds per context switch", "context switch (\xc2\xb5s)", false },
    { "mb_per_s", +1, POSITIVE, "MB/s", "throughput (MB/s)", true },
    { "ops_per_s", +1, POSITIVE, "round trips per second", "round trips per second", true },
    { "messages_per_s", +1, POSITIVE, "messages per second", "messages per second", true },
    { "jobs_per_min", +1, POSITIVE, "jobs per minute", "jobs per minute", true },
    { "cycles_per_pick", -1, POSITIVE, "cycles per scheduling decision", "cycles per pick", false },
    { "share", 0, NONNEGATIVE, "CPU share", "CPU share", false },
    { "p50_us", -1, POSITIVE, "median wake-up latency, us", "median wake-up latency (\xc2\xb5s)", false },
    { "p90_us", -1, POSITIVE, "90th percentile wake-up latency, us", "p90 wake-up latency (\xc2\xb5s)", false },
    { "p99_us", -1, POSITIVE, "99th percentile wake-up latency, us", "p99 wake-up latency (\xc2\xb5s)", false },
    { "p999_us", -1, POSITIVE, "99.9th percentile wake-up latency, us", "p99.9 wake-up latency (\xc2\xb5s)", false },
    { "max_groups", +1, NONNEGATIVE, "largest group count that completed", "groups", false },
    /* schedstat.csv (collect): per CPU of a boot, over the whole boot */
    { "switches_per_s", 0, NONNEGATIVE, "context switches per second", "context switches per second", false },
    { "migrations_per_s", 0, NONNEGATIVE, "migrations per second", "migrations per second", false },
    { "wakeups_per_s", 0, NONNEGATIVE, "wake-ups per second", "wake-ups per second", false },
    { "idle_share", 0, NONNEGATIVE, "share of the time idle", "idle (share of the time)", false },
    { "pick_cycles", -1, NONNEGATIVE, "cycles per pick-next (mean of the boot)", "cycles per pick", false },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static const struct metric *find_metric(const char *key)
{
    for (size_t i = 0; key && i < NMETRICS; i++)
        if (strcmp(key, metrics[i].key) == 0)
            return &metrics[i];
    return NULL;
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
 * the metric (the workloads sources): never parameters, never copied between runs. */
bool is_counter_key(const char *name)
{
    static const char *const counters[] = {
        "tasks_started", "messages", "sent", "received", "jobs", "cpus_used", "attempts", "first_failure", "reason", "created", "runtime_ms",
        "bytes", "ops", "max_latency_ms", "overhead_us", "picks", "cycles_per_pick_mean", "samples", "max_us",
        "dropped", "cpus_used_count",
        /* the raw counters of schedstat.csv */
        "schedule_calls", "context_switches", "migrations", "wakeups", "idle_ms", "pick_cycles_total",
        "pick_cycles_avg", "ticks", "resched_ipis", "seconds", "ticks_expected", "busy_us", "idle_us",
        /* lost_ticks.h: how much of the boot's ticks the host took away, not a parameter */
        "ticks_lost_pct", NULL,
    };
    for (int i = 0; counters[i]; i++)
        if (strcmp(name, counters[i]) == 0)
            return true;
    return false;
}

bool is_metric_key(const char *key)
{
    return find_metric(key) != NULL;
}

const char *default_metric(const char *bench)
{
    static const char *const map[][2] = {
        { "hackbench", "time_s" },         { "pipe", "usec_per_op" },   { "lat_ctx", "usec_per_switch" },
        { "tbench", "mb_per_s" },          { "schedcost", "cycles_per_pick" }, { "cpuhog", "share" },
        { "wakeup", "p99_us" },            { "maxgroups", "max_groups" },  { "volano", "messages_per_s" },
        { "aim7", "jobs_per_min" },
    };
    for (size_t i = 0; bench && i < sizeof(map) / sizeof(map[0]); i++)
        if (strcmp(bench, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

int metric_direction(const char *metric)
{
    const struct metric *m = find_metric(metric);
    return m ? m->direction : 0;
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

bool metric_is_rate(const char *metric)
{
    const struct metric *m = find_metric(metric);
    return m && m->rate;
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
    if (m && m->sign == POSITIVE && !(v > 0)) {
        *why = xasprintf("non-positive %s=%.40s", key, value);
        return METRIC_BAD_VALUE;
    }
    if (m && m->sign == NONNEGATIVE && v < 0) {
        *why = xasprintf("negative %s=%.40s", key, value);
        return METRIC_BAD_VALUE;
    }
    return METRIC_OK;
}
