/*
 * Summary statistics and Welch's t-test for benchmark samples, computed with
 * GSL (gsl_stats_* and the Student t distribution gsl_cdf_tdist_Q) rather
 * than hand-rolled formulas for the distribution.
 */
#ifndef SCHEDLAB_STATS_H
#define SCHEDLAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
    size_t n;
    double min, max;
    double mean;
    double sd;      /* sample standard deviation (n - 1); NAN when n < 2 */
    double cv;      /* coefficient of variation sd / mean in percent; NAN when undefined */
};

/* Summarises x[0..n); with n == 0 every field but n is NAN. */
void summarize(const double *x, size_t n, struct summary *s);

struct welch {
    bool valid;     /* false when a side has fewer than 2 values or both have zero variance */
    double t;       /* (mean_a - mean_b) / sqrt(var_a/n_a + var_b/n_b) */
    double df;      /* Welch-Satterthwaite degrees of freedom */
    double p;       /* two-sided p-value: 2 * P(T_df > |t|) */
};

/* Welch's unequal-variances two-sample t-test (two-sided). */
void welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *w);

#define SIGNIFICANCE_LEVEL 0.05

#endif
