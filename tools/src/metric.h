/*
 * The metrics the workloads print: which result keys they are, the one a
 * table shows by default for each workload, which direction is better and
 * what they measure in words.
 */
#ifndef SCHEDLAB_METRIC_H
#define SCHEDLAB_METRIC_H

#include <stdbool.h>

bool is_metric_key(const char *key);
/* The metric a table shows by default for a workload, or NULL. */
const char *default_metric(const char *bench);
/* +1 when larger is better, -1 when smaller is better, 0 unknown. */
int metric_direction(const char *metric);
/* "seconds", "MB/s"...; NULL for an unknown metric. */
const char *metric_words(const char *metric);

#endif
