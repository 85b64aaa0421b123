/*
 * Summary statistics and Welch's t-test (see stats.h).  The arithmetic is
 * GSL's: gsl_stats_mean / gsl_stats_sd (sample, n - 1) / gsl_stats_minmax,
 * and the p-value comes from GSL's Student t upper tail gsl_cdf_tdist_Q.
 * Welch's statistic and the Welch-Satterthwaite degrees of freedom are the
 * textbook definitions (B. L. Welch, Biometrika 34, 1947).
 */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

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

void welch_test(const double *a, size_t na, const double *b, size_t nb, struct welch *w)
{
    w->valid = false;
    w->t = w->df = w->p = NAN;
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
    w->p = 2.0 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
    if (w->p > 1)
        w->p = 1;
    w->valid = true;
}
