/*
 * Summary statistics and Welch's t-test (see stats.h).  The arithmetic is
 * GSL's: gsl_stats_mean / gsl_stats_sd (sample, n - 1) / gsl_stats_minmax /
 * gsl_stats_median_from_sorted_data, and the p-value and the confidence
 * interval come from GSL's Student t distribution (gsl_cdf_tdist_Q,
 * gsl_cdf_tdist_Pinv).  Welch's statistic and the Welch-Satterthwaite
 * degrees of freedom are the textbook definitions (B. L. Welch, Biometrika
 * 34, 1947); the harmonic mean is mmtests' Hmean for rates.
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GSL's default error handler aborts the program; while welch_test calls
 * GSL, this one notes the first error instead, and the test is reported
 * as failed (struct welch's error) rather than taking the tool down. */
static char gsl_failure[160];

static void note_gsl_error(const char *reason, const char *file, int line, int gsl_errno)
{
    if (!gsl_failure[0])
        snprintf(gsl_failure, sizeof(gsl_failure), "GSL: %s:%d: %s (%s)", file, line, reason, gsl_strerror(gsl_errno));
}

static double median_of(const double *x, size_t n)
{
    double *sorted = malloc(n * sizeof(double));
    if (!sorted)
        return NAN;
    memcpy(sorted, x, n * sizeof(double));
    gsl_sort(sorted, 1, n);
    double m = gsl_stats_median_from_sorted_data(sorted, 1, n);
    free(sorted);
    return m;
}

static double harmonic_mean(const double *x, size_t n)
{
    double inv = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > 0))
            return NAN;
        inv += 1.0 / x[i];
    }
    return (double)n / inv;
}

void summarize(const double *x, size_t n, struct summary *s)
{
    s->n = n;
    s->min = s->max = s->mean = s->median = s->hmean = s->sd = s->cv = NAN;
    if (n == 0)
        return;
    gsl_stats_minmax(&s->min, &s->max, x, 1, n);
    s->mean = gsl_stats_mean(x, 1, n);
    s->median = median_of(x, n);
    s->hmean = harmonic_mean(x, n);
    if (n >= 2) {
        s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
        if (s->mean != 0)
            s->cv = 100.0 * s->sd / fabs(s->mean);
    }
}

/* Runs f(t, df) with GSL's errors noted instead of aborting. */
static double guarded(double (*f)(double, double), double a, double b, char *error, size_t size)
{
    gsl_failure[0] = '\0';
    gsl_error_handler_t *old = gsl_set_error_handler(note_gsl_error);
    double r = f(a, b);
    gsl_set_error_handler(old);
    error[0] = '\0';
    if (gsl_failure[0] || !isfinite(r)) {
        snprintf(error, size, "%s", gsl_failure[0] ? gsl_failure : "the result is not a number");
        return NAN;
    }
    return r;
}

double two_sided_p(double t, double df, char *error, size_t size)
{
    double q = guarded(gsl_cdf_tdist_Q, fabs(t), df, error, size);
    if (isnan(q))
        return NAN;
    return 2 * q > 1 ? 1 : 2 * q;
}

void welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
    w->valid = false;
    w->t = w->df = w->p = w->diff = w->ci95 = NAN;
    w->error[0] = '\0';
    if (na == 0 || nb == 0)
        return;
    double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
    w->diff = mb - ma;
    if (na < 2 || nb < 2)
        return;
    double va = gsl_stats_variance_m(a, 1, na, ma) / (double)na;   /* squared standard errors */
    double vb = gsl_stats_variance_m(b, 1, nb, mb) / (double)nb;
    double se2 = va + vb;
    if (!(se2 > 0))
        return;   /* both samples constant: the t statistic is undefined */
    w->t = (ma - mb) / sqrt(se2);
    w->df = se2 * se2 / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
    if (!isfinite(w->t) || !isfinite(w->df) || !(w->df > 0)) {   /* values near 1e77 overflow the squares */
        snprintf(w->error, sizeof(w->error), "t=%g, df=%g: the values are too large for the test", w->t, w->df);
        return;
    }
    w->p = two_sided_p(w->t, w->df, w->error, sizeof(w->error));
    if (!w->error[0])
        w->ci95 = guarded(gsl_cdf_tdist_Pinv, 0.975, w->df, w->error, sizeof(w->error)) * sqrt(se2);
    w->valid = !w->error[0];
}
