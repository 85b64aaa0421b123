/*
 * Summary statistics and Welch's t-test (see stats.h).  The arithmetic is
 * GSL's: gsl_stats_mean / gsl_stats_sd (sample, n - 1) / gsl_stats_minmax,
 * and the p-value comes from GSL's Student t upper tail gsl_cdf_tdist_Q.
 * Welch's statistic and the Welch-Satterthwaite degrees of freedom are the
 * textbook definitions (B. L. Welch, Biometrika 34, 1947).
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>

/* GSL's default error handler aborts the program; while welch_test calls
 * GSL, this one notes the first error instead, and the test is reported
 * as failed (struct welch's error) rather than taking the tool down. */
static char gsl_failure[160];

static void note_gsl_error(const char *reason, const char *file, int line, int gsl_errno)
{
    if (!gsl_failure[0])
        snprintf(gsl_failure, sizeof(gsl_failure), "GSL: %s:%d: %s (%s)", file, line, reason, gsl_strerror(gsl_errno));
}

void summarize(const double *x, size_t n, struct summary *s)
{
    s->n = n;
    s->min = s->max = s->mean = s->sd = s->cv = NAN;
    if (n == 0)
        return;
    gsl_stats_minmax(&s->min, &s->max, x, 1, n);
    s->mean = gsl_stats_mean(x, 1, n);
    if (n >= 2) {
        s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
        if (s->mean != 0)
            s->cv = 100.0 * s->sd / fabs(s->mean);
    }
}

double two_sided_p(double t, double df, char *error, size_t size)
{
    gsl_failure[0] = '\0';
    gsl_error_handler_t *old = gsl_set_error_handler(note_gsl_error);
    double p = 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
    gsl_set_error_handler(old);
    error[0] = '\0';
    if (gsl_failure[0] || !isfinite(p)) {
        snprintf(error, size, "%s", gsl_failure[0] ? gsl_failure : "the p-value is not a number");
        return NAN;
    }
    return p > 1 ? 1 : p;
}

void welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
    w->valid = false;
    w->t = w->df = w->p = NAN;
    w->error[0] = '\0';
    if (na < 2 || nb < 2)
        return;
    double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
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
    w->valid = !w->error[0];
}
