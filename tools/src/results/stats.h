/*
 * Summary statistics and Welch's t-test for benchmark samples, computed with
 * GSL (gsl_stats_*, gsl_sort, and the Student t distribution
 * gsl_cdf_tdist_Q / gsl_cdf_tdist_Pinv) rather than hand-rolled formulas
 * for the distribution.
 */
#ifndef SCHEDLAB_STATS_H
#define SCHEDLAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct summary {
    size_t n;
    double min, max;
    double mean;
    double median;  /* the middle value (the mean of the two middle ones for even n) */
    double hmean;   /* harmonic mean n / sum(1/x), for rates; NAN unless every value is > 0 */
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
    double diff;    /* mean_b - mean_a (the change from a to b); NAN when a side is empty */
    double ci95;    /* half-width of the 95% confidence interval of diff: t(0.975, df) * se; NAN unless valid */
    char error[200];   /* non-empty when the test could not be computed (overflow, a GSL error) */
};

/* Welch's unequal-variances two-sample t-test (two-sided), and the 95%
 * confidence interval of the difference of the means (as R's t.test and
 * ministat print it).  GSL errors do not abort: they leave valid false
 * and say why in error. */
void welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *w);

/* 2 * P(T_df > |t|) from GSL; a GSL error (df not a number...) gives NAN
 * and its message in error[0..size) instead of GSL's abort. */
double two_sided_p(double t, double df, char *error, size_t size);

#define SIGNIFICANCE_LEVEL 0.05

#endif
