/* The workloads' metrics (see metric.h). */
#include "metric.h"

#include <stddef.h>
#include <string.h>

/* Metric keys of issue 4's workloads and of the scheduler benchmarks. */
static const struct metric {
    const char *key;
    int direction;
    const char *words;
} metrics[] = {
    { "time_s", -1, "seconds" },
    { "usec_per_op", -1, "microseconds per round trip" },
    { "usec_per_switch", -1, "microseconds per context switch" },
    { "mb_per_s", +1, "MB/s" },
    { "cycles_per_pick", -1, "cycles per scheduling decision" },
    { "share", 0, "CPU share" },
    { "p50_us", -1, "median wake-up latency, us" },
    { "p90_us", -1, "90th percentile wake-up latency, us" },
    { "p99_us", -1, "99th percentile wake-up latency, us" },
    { "p999_us", -1, "99.9th percentile wake-up latency, us" },
    { "max_groups", +1, "largest group count that completed" },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static const struct metric *find_metric(const char *key)
{
    for (size_t i = 0; key && i < NMETRICS; i++)
        if (strcmp(key, metrics[i].key) == 0)
            return &metrics[i];
    return NULL;
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
        { "wakeup", "p99_us" },            { "maxgroups", "max_groups" },
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
