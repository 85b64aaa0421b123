/*
 * reproduce: a seed post's experiment end to end (docs/reproduce.md).  A
 * seed's recipe (its seedNNN.c) names the rows of each table (a kernel: a
 * scheduler, maybe a preset, and the run flags that measure it) and the
 * tables to score, in the post's order; reproduce prepares every row as a
 * run (its own results directory), boots all of their boots in ONE job pool
 * (the longest first, the host's cores shared by every row), collects and
 * plots each row, then scores each table beside the post's numbers.
 */
#ifndef SCHEDLAB_REPRODUCE_H
#define SCHEDLAB_REPRODUCE_H

#include "run/runreq.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct repro_row {
    char *table, *row, *sched, *preset;   /* preset NULL: the scheduler's own defaults */
    char *dir;                            /* COST/TABLE/ROW */
    struct argv flags;                    /* run's flags */
    char *why;                            /* not available here: why (the row's cells are missing) */
    char *cost;
    const char *machine;                  /* the memory model it runs with ("none"; a preset under vsmp only) */
    bool host_model;                      /* ... run by the QEMU plugin (model=host) rather than in the guest */
    /* when it runs */
    struct run_req req;
    struct run_dir rd;
    bool prepared;
    int failed;                           /* some boot failed */
    double t0, t_end;
    FILE *log;                            /* its messages (TABLE/ROW.err) */
};

struct repro_score {
    char *table, *cost, *cdir;
    char *unbound;                        /* a -bound table: the unbound table whose rows it also takes */
};

struct repro {
    const struct seed *seed;
    bool quick, accel_default, planning;
    char *out, *costs, *only, *groups, *smp, *accel;
    char *machine;                        /* --machine: a preset of the memory model, or "none" */
    char *model;                          /* --model: where the model runs: "guest" (CACHES=1 images) or "host"
                                             (the QEMU plugin on make CACHES=host images; docs/caches.md) */
    long jobs, timeout, runs;             /* runs: -1 when not given (each table's own) */
    const char *cost, *cdir;              /* while a recipe runs: the cost model, OUT/cost-COST */
    const char *row_accel;                /* while a recipe runs: an accelerator for the rows it adds (NULL: accel) */
    struct repro_row *rows;
    size_t nrows;
    struct repro_score *scores;
    size_t nscores;
};

/* --only: is the table wanted? */
bool repro_want(const struct repro *R, const char *table);
/* One kernel of a table, measured by run with flags (NULL-terminated). */
void repro_row(struct repro *R, const char *table, const char *row, const char *sched, const char *preset, const char *smp,
               const char *const *flags);
/* Score TABLE once its rows ran; unbound: the table whose rows a -bound table compares itself with. */
void repro_score(struct repro *R, const char *table, const char *unbound);
/* runs: the table's own count unless --runs (or vsmp's 1) says otherwise */
long repro_runs(const struct repro *R, long table_default);
/* INC:MAX expanded (a recipe's own or --groups); allocated */
char *repro_groups(const char *v);

#endif
