/*
 * A view of the results table for one workload and one metric, arranged
 * the way the seed's table is: blocks (one per CPU count and per value of
 * any other varied parameter), one line per series (scheduler, or results
 * directory when comparing two directories) and one column per value of
 * the swept parameter ("across", e.g. groups).  Each cell holds the values
 * of the runs that ended with status=ok and counts those that did not.
 */
#ifndef SCHEDLAB_VIEW_H
#define SCHEDLAB_VIEW_H

#include "metric.h"
#include "table.h"

#include <stdbool.h>
#include <stddef.h>

struct point {
    double v;
    long boot, run;
};

struct cell {
    struct point *pt;
    size_t n, cap;
    size_t nfail;        /* rows that are not status=ok (or have no metric value) */
    char *reasons[3];    /* distinct failure reasons, first ones */
    size_t nreasons;
};

struct block {
    char *smp;           /* CPU count */
    char **vval;         /* values of the variant parameters */
    char *sched;         /* when the series are directories: the scheduler */
    bool oversub;        /* some run had more vCPUs than host cores */
    struct cell *cell;   /* [series * nacross + across] */
};

struct view_options {
    const char *metric;  /* NULL: the workload's default metric */
    const char *across;  /* NULL: the first varied parameter */
    const char *base;    /* series shown first and used as the baseline */
    bool by_source;      /* series are results directories ("source" column) */
    /* The swept keys of the run matrices (comma lists on the kernel command
     * line, from DIR/matrix.txt).  When known, only these make columns and
     * blocks; otherwise any varying non-metric column does, except the
     * workloads' per-run counters (tasks_started, messages...). */
    const char *const *sweep;
    size_t nsweep;
    bool sweep_known;
};

struct view {
    char *bench, *metric;
    int across;                /* column, or -1 */
    int *variant;              /* columns */
    size_t nvariant;
    char **series;
    size_t nseries;
    char **across_v;
    size_t nacross;
    bool across_numeric;
    struct block *blk;
    size_t nblk;
    size_t nrows, nok, nfail, nnotrun;   /* nnotrun: rows of boots that never started */
    bool oversub_any;
};

/* Builds the view of `bench` (rows of other workloads are ignored).
 * Returns NULL on success or a message (unknown --across, unknown --base). */
char *view_build(struct view *v, const struct table *t, const char *bench, const struct view_options *o);
void view_free(struct view *v);

/* Workloads in order of first appearance (NULL-terminated, free with free()). */
const char **table_benches(const struct table *t, size_t *n);

/* "1 CPU", "2 CPUs, size=16", "o1, 4 CPUs". */
char *block_label(const struct view *v, const struct table *t, const struct block *b);
/* Values of the ok runs of a cell, in (boot, run) order. */
double *cell_values(const struct cell *c);
/* The distinct boots of a cell's ok runs. */
size_t cell_boots(const struct cell *c);
/* A cell's samples: its runs' values (by_boot false), or the mean of each
 * boot's runs (by_boot true), in boot order; *n gets their count. */
double *cell_samples(const struct cell *c, bool by_boot, size_t *n);
const char *across_name(const struct view *v, const struct table *t);


#endif
