/*
 * Scoring a seed post's table (schedlab scorecard; docs/reproduce.md): the
 * rows (a kernel of the table and its run's results), the cells and
 * orderings collected for the scorecard (scorecard.h), and what a person
 * reads beside the numbers (what ran here and in the post, the post's
 * table and ours, plots, notes).  Each seed is one file, seedNNN.c: the
 * post's numbers, how each of its tables is scored, and how it is measured
 * (its recipe for reproduce).
 */
#ifndef SCHEDLAB_SCORING_H
#define SCHEDLAB_SCORING_H

#include "repro_out.h"
#include "scorecard.h"
#include "table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MAXROWS 8
#define MAXCELLS 128

/* ---- the rows of the table being scored ---- */
struct row {
    const char *key;         /* as the table names it */
    const char *dir;         /* results directory, or NULL */
    const char *missing;     /* why there is no data (from "!why", or a load error) */
    const char *sched;       /* only this scheduler's rows (DIR#SCHED); NULL: the directory must hold one */
    struct table t;
    bool loaded;
};
extern struct row rows[MAXROWS];
extern size_t nrows;
struct row *find_row(const char *key);
/* Loads a row's results.csv (once); false with r->missing set when it cannot. */
bool row_load(struct row *r);
size_t row_values(struct row *r, const char *bench, const char *metric, int smp, const char *across, const char *aval,
                  double *out, size_t max, size_t *nfail, bool *over);
double mean(const double *x, size_t n);
size_t row_across(struct row *r, const char *bench, int smp, const char *across, long *out, size_t max);
const char *row_cpus_used(struct row *r, const char *bench, char *buf, size_t size);
double cell_here(struct row *r, const char *bench, const char *metric, int smp, const char *across, long aval, bool *over,
                 const char **why);
/* The cost= word of the runs' result lines ("none" when they have none); NULL if they differ; dflt when no row has runs. */
const char *runs_cost(const char *dflt);
/* The boot line's machine= of the runs' result lines (boot_machine; "none" when they have none); NULL if they differ;
 * dflt when no row has runs. */
const char *runs_machine(const char *dflt);
/* Where the memory model ran: "host" for runs whose boot lines say model=host (a kernel of make CACHES=host),
 * "guest" for those with none (boot_model); NULL if they differ; dflt when no row has runs. */
const char *runs_model(const char *dflt);

/* ---- the scorecard being collected ---- */
extern struct sc_cell cells[MAXCELLS];
extern struct sc_order ords[MAXCELLS];
extern size_t ncells, nords;
void add_cell(const char *label, double seed, double ours, const char *why);
void add_order(const char *label, double sa, double sb, double oa, double ob);
void print_val(double x, int w, int dec);
void print_unavailable(void);

/* ---- what a person reads beside the numbers ---- */
extern struct htable *post_t, *ours_t;
extern const char *post_none;           /* the post has no table: why (shown instead of one) */
extern struct nplot *plots[8];
extern size_t nplots;
extern char *ran_here, *ran_post;       /* the sizes, runs, CPUs, accelerator and cost: ours, the post's */
extern const char *compares;            /* one sentence: what the scorecard compares */
extern const char *title_text;          /* the table's title */
struct nplot *add_plot(struct nplot *p);
int cmp_num_text(const void *a, const void *b);
bool table_row(const struct row *r);
char *distinct_values(const char *bench, const char *key);
char *runs_a_cell(void);
/* One workload key of a table: its column, how it is named, and the post's value. */
struct size_spec {
    const char *key, *label, *post;
};
void describe(const char *bench, const struct size_spec *spec, size_t nspec, const char *post_runs, const char *post_cpus,
              const char *post_machine, const char *post_extra);
void print_wrapped(const char *head, const char *text);
void print_described(void);
size_t read_notes(const char *path, const char *seed, const char *table, char ***out);
void print_notes(const char *file, char **notes, size_t n);
void inline_svg(FILE *f, const char *path);
int write_html(const char *path, const char *seed, const char *table, const char *cost, const char *plotdir,
               const char *notes_file, char **notes, size_t nnotes);

/* ---- the seeds ---- */
struct repro;
struct seed_table {
    const char *name;
    const char *rows;          /* the rows it takes, " a b c " */
    int (*score)(const char *table);
};
struct seed {
    const char *name;          /* seed000 */
    const char *tables;        /* its tables, in the post's order, for --only: "hackbench,maxgroups,nick" */
    const struct seed_table *scored;   /* every table scorecard scores (seed001's -bound ones too), NULL-named end */
    void (*recipe)(struct repro *R);   /* how reproduce measures it (reproduce.c) */
};
extern const struct seed seed000, seed001, seed003;
extern const struct seed *const seeds[];   /* NULL-terminated */
const struct seed *seed_find(const char *name);   /* seed000, 000 or 0; NULL when none */

/* seed 000's hackbench numbers, for seed-table: [kernel 2.4.18, 2.6.0-test9][CPUs 1,2,4,8][groups 50..200] */
extern const double seed000_hackbench_seconds[2][4][4];
extern const int seed000_cpus[4], seed000_groups[4];
extern const char *const seed000_kernels[2], *const seed000_kernel_names[2];
/* seed-table: seed 000's hackbench table measured here, scaled to fit (seed000.c) */
struct seed_table_sizes {
    const char *runs, *boots, *groups, *loops, *smp, *timeout, *jobs;
    bool quiet, given;
};
void seed000_table_defaults(struct seed_table_sizes *z);
/* Checks, says how it is scaled, runs the matrix into out (its stdout discarded); *scaled: the words.  run's exit status. */
int seed000_table_measure(struct seed_table_sizes *z, const char *out, char **scaled);

#endif
