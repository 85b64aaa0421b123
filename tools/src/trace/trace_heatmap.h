/*
 * A trace's per-CPU utilisation over time as a heatmap (SchedViz's swim
 * lanes, one row per CPU, folded into time bins): each cell is the share
 * of its time bin in which the CPU ran a task rather than idle, from the
 * sched_switch events.  Where a CPU has no switch yet (before its first
 * record) its state is unknown and the cell is grey, never counted as idle.
 */
#ifndef SCHEDLAB_TRACE_HEATMAP_H
#define SCHEDLAB_TRACE_HEATMAP_H

#include "trace_data.h"

#include <stdio.h>

/* The heatmap as a standalone SVG (it also sits inline in report.html). */
void trace_write_heatmap(const struct trace *t, FILE *out);

#endif
