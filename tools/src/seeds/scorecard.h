/*
 * The fidelity scorecard's arithmetic (docs/reproduce.md): normalised cells
 * (a ratio between kernels in one cell of a seed table, or a cell over its
 * row's first), their deviation from the seed's own normalised value, and
 * orderings (which of two numbers is larger, with a tie band).  Pure
 * functions over doubles, tested on the host (tests/host/test_scorecard.c).
 */
#ifndef SCHEDLAB_SCORECARD_H
#define SCHEDLAB_SCORECARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Two numbers within this fraction of the larger one are a tie (an ordering "=") */
#define SC_TIE_FRAC 0.02

/* One normalised cell: the seed's value and ours (NAN: not measured, with why). */
struct sc_cell {
    char label[96];
    double seed, ours;
    const char *missing;    /* NULL when measured; else why not (not owned) */
};

/* One ordering: the seed's sign and ours (of a - b: -1, 0 tie, 1; 2 = not measured). */
struct sc_order {
    char label[96];
    int seed, ours;
};

struct sc_summary {
    size_t cells, measured;           /* normalised cells, and how many have our value */
    double median_abs, worst_abs;     /* |deviation| in percent over the measured ones; NAN when none */
    size_t within25;                  /* measured cells with |deviation| <= 25% */
    size_t orderings, orderings_measured, agree;
};

/* (ours / seed - 1) * 100; NAN when either is not finite or seed is 0. */
double sc_dev_pct(double seed, double ours);
/* a / b; NAN when either is not finite or b is 0. */
double sc_ratio(double a, double b);
/* The sign of a - b with ties: 0 when |a - b| <= tie * max(|a|, |b|); 2 when either is not finite. */
int sc_order_sign(double a, double b, double tie);
/* The median of x[0..n) (mean of the middle two for even n); NAN for n == 0.  Sorts a copy. */
double sc_median(const double *x, size_t n);
/* Summarises the cells and orderings. */
void sc_summarize(const struct sc_cell *c, size_t nc, const struct sc_order *o, size_t no, struct sc_summary *s);
/* The machine-readable line:
 * scorecard seed=S table=T cost=C cells=N median_dev_pct=X worst_dev_pct=Y orderings_agree=A/B cells_missing=M */
/* machine: the memory model's preset (NULL or "none": no model, and no machine= word) */
void sc_print_line(FILE *f, const char *seed, const char *table, const char *cost, const char *machine,
                   const struct sc_summary *s);
/* Every cell (seed, ours, deviation) and ordering, then the summary and the line. */
void sc_print(FILE *f, const char *seed, const char *table, const char *cost, const char *machine, const struct sc_cell *c,
              size_t nc, const struct sc_order *o, size_t no);
/* The cells as CSV rows (seed,table,cost,kind,label,seed_value,ours,dev_pct,note); header when header is true. */
void sc_write_csv(FILE *f, bool header, const char *seed, const char *table, const char *cost, const char *machine,
                  const struct sc_cell *c, size_t nc, const struct sc_order *o, size_t no);

#endif
