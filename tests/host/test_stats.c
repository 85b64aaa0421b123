/*
 * Host tests of tools/src/results/stats.c (the statistics behind schedlab table and
 * compare): mean, sample standard deviation, coefficient of variation and
 * Welch's t-test with its p-value, against values computed elsewhere.
 *
 * Sources of the expected values:
 *  - Student's sleep data (R's `sleep` data set, Cushny & Peebles 1905).
 *    R 4.x:  t.test(extra ~ group, data = sleep)
 *      ->  t = -1.8608, df = 17.776, p-value = 0.07939
 *            mean in group 1 = 0.75, mean in group 2 = 2.33
 *    sd(sleep$extra[1:10]) = 1.789010, sd(sleep$extra[11:20]) = 2.002249.
 *    Checked by hand with bc(1): var1 = 3.2005556, var2 = 4.009,
 *    t = -1.8608135, df = 17.776474.
 *  - 1..5 against 6..10.  R: t.test(1:5, 6:10) -> t = -5, df = 8,
 *    p-value = 0.001053.  Checked with the closed form for even degrees of
 *    freedom (Abramowitz & Stegun 26.7.3): cos^2(theta) = 8/33,
 *    p = 1 - sin(theta) (1 + c/2 + 3c^2/8 + 15c^3/48) = 0.0010528258 (bc -l).
 *  - {2,4,4,4,5,5,7,9}: mean 5, population sd 2, so sample sd
 *    sqrt(32/7) = 2.1380899 and CV = 42.761799 %.
 *  - 95% confidence intervals of the difference of the means, R 4.x:
 *    t.test(extra ~ group, data = sleep) -> -3.3654832 0.2054832 (group 1
 *    minus group 2); t.test(1:5, 6:10) -> -7.306004 -2.693996 (qt(0.975, 8)
 *    = 2.306004, se = 1).
 *  - Median and harmonic mean: median(sleep$extra[1:10]) = 0.35;
 *    {1, 2, 4}: median 2, Hmean 3 / (1 + 1/2 + 1/4) = 12/7.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"

static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_summary_sleep(void **state)
{
    (void)state;
    struct summary s;
    summarize(sleep1, 10, &s);
    assert_int_equal(s.n, 10);
    assert_near(s.mean, 0.75, 1e-12);
    assert_near(s.sd, 1.789010, 5e-7);
    assert_near(s.min, -1.6, 1e-12);
    assert_near(s.max, 3.7, 1e-12);
    assert_near(s.cv, 100.0 * 1.78900966 / 0.75, 1e-4);
    summarize(sleep2, 10, &s);
    assert_near(s.mean, 2.33, 1e-12);
    assert_near(s.sd, 2.002249, 5e-7);
}

static void test_summary_cv(void **state)
{
    (void)state;
    const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    struct summary s;
    summarize(x, 8, &s);
    assert_near(s.mean, 5.0, 1e-12);
    assert_near(s.sd, sqrt(32.0 / 7.0), 1e-12);
    assert_near(s.sd, 2.1380899, 1e-7);
    assert_near(s.cv, 42.761799, 1e-6);
}

static void test_summary_small(void **state)
{
    (void)state;
    struct summary s;
    summarize(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.mean) && isnan(s.sd) && isnan(s.min) && isnan(s.max) && isnan(s.cv));
    const double one[] = { 3.5 };
    summarize(one, 1, &s);
    assert_near(s.mean, 3.5, 0);
    assert_near(s.min, 3.5, 0);
    assert_near(s.max, 3.5, 0);
    assert_true(isnan(s.sd));    /* no spread from one value */
    assert_true(isnan(s.cv));
    const double zero_mean[] = { -1, 1 };
    summarize(zero_mean, 2, &s);
    assert_near(s.sd, sqrt(2.0), 1e-12);
    assert_true(isnan(s.cv));    /* undefined for a zero mean */
}

static void test_welch_sleep(void **state)
{
    (void)state;
    struct welch w;
    welch_test(sleep1, 10, sleep2, 10, &w);
    assert_true(w.valid);
    assert_near(w.t, -1.8608135, 1e-6);
    assert_near(w.df, 17.776474, 1e-5);
    assert_near(w.p, 0.07939, 5e-6);
    assert_false(w.p < SIGNIFICANCE_LEVEL);
    /* Swapping the samples flips t, not p. */
    struct welch v;
    welch_test(sleep2, 10, sleep1, 10, &v);
    assert_near(v.t, -w.t, 1e-12);
    assert_near(v.p, w.p, 1e-12);
}

static void test_welch_integer_df(void **state)
{
    (void)state;
    const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
    struct welch w;
    welch_test(a, 5, b, 5, &w);
    assert_true(w.valid);
    assert_near(w.t, -5.0, 1e-12);
    assert_near(w.df, 8.0, 1e-12);
    assert_near(w.p, 0.0010528258, 1e-9);
    assert_true(w.p < SIGNIFICANCE_LEVEL);
}

static void test_welch_degenerate(void **state)
{
    (void)state;
    struct welch w;
    const double a[] = { 1, 2, 3 }, c[] = { 4, 4, 4 }, d[] = { 5, 5 };
    welch_test(a, 1, a, 3, &w);          /* one value: no variance estimate */
    assert_false(w.valid);
    assert_true(isnan(w.p));
    welch_test(c, 3, d, 2, &w);          /* both constant: t undefined */
    assert_false(w.valid);
    welch_test(a, 3, a, 3, &w);          /* identical samples: t = 0, p = 1 */
    assert_true(w.valid);
    assert_near(w.t, 0.0, 1e-12);
    assert_near(w.p, 1.0, 1e-12);
    welch_test(a, 3, c, 3, &w);          /* one constant side still works: df = n_a - 1 */
    assert_true(w.valid);
    assert_near(w.df, 2.0, 1e-12);
    assert_near(w.t, (2.0 - 4.0) / sqrt(1.0 / 3.0), 1e-12);
}

/* Values near 1e77 overflow the squares in Welch's degrees of freedom, and
 * GSL's default error handler aborted the whole tool (schedlab compare died
 * with SIGABRT).  Now the test is invalid and says why. */
static void test_welch_huge_values(void **state)
{
    (void)state;
    const double a[] = { 1.5e80, 1.6e80, 1.7e80 }, b[] = { 2.5e80, 2.6e80, 2.7e80 };
    const double c[] = { 1.5e70, 1.6e70, 1.7e70 };
    struct welch w;
    welch_test(a, 3, b, 3, &w);
    assert_false(w.valid);
    assert_true(w.error[0] != '\0');
    welch_test(c, 3, b, 3, &w);
    assert_false(w.valid);
    assert_true(w.error[0] != '\0');
    /* GSL's own errors come back as a message (the handler), not an abort. */
    char why[200];
    assert_true(isnan(two_sided_p(2.0, NAN, why, sizeof(why))));
    assert_non_null(strstr(why, "GSL: "));
    assert_near(two_sided_p(-5.0, 8.0, why, sizeof(why)), 0.0010528258, 1e-9);
    assert_true(why[0] == '\0');
    welch_test(sleep1, 10, sleep2, 10, &w);   /* and an ordinary test afterwards is unaffected */
    assert_true(w.valid);
    assert_true(w.error[0] == '\0');
    assert_near(w.p, 0.07939, 5e-5);
}

static void test_median_hmean(void **state)
{
    (void)state;
    struct summary s;
    summarize(sleep1, 10, &s);
    assert_near(s.median, 0.35, 1e-12);
    assert_true(isnan(s.hmean));     /* values <= 0: a harmonic mean is undefined */
    const double x[] = { 4, 1, 2 };
    summarize(x, 3, &s);
    assert_near(s.median, 2.0, 1e-12);
    assert_near(s.hmean, 12.0 / 7.0, 1e-12);
    const double one[] = { 3.5 };
    summarize(one, 1, &s);
    assert_near(s.median, 3.5, 0);
    assert_near(s.hmean, 3.5, 1e-12);
    summarize(NULL, 0, &s);
    assert_true(isnan(s.median) && isnan(s.hmean));
}

static void test_welch_confidence_interval(void **state)
{
    (void)state;
    struct welch w;
    welch_test(sleep1, 10, sleep2, 10, &w);   /* diff is b - a: group 2 minus group 1 */
    assert_true(w.valid);
    assert_near(w.diff, 1.58, 1e-12);
    assert_near(w.diff - w.ci95, -0.2054832, 1e-6);
    assert_near(w.diff + w.ci95, 3.3654832, 1e-6);
    const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
    welch_test(b, 5, a, 5, &w);
    assert_near(w.diff - w.ci95, -7.306004, 1e-6);
    assert_near(w.diff + w.ci95, -2.693996, 1e-6);
    welch_test(a, 1, b, 5, &w);               /* one value: a difference, no interval */
    assert_false(w.valid);
    assert_near(w.diff, 7.0, 1e-12);
    assert_true(isnan(w.ci95));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_sleep),     cmocka_unit_test(test_summary_cv),
        cmocka_unit_test(test_summary_small),     cmocka_unit_test(test_welch_sleep),
        cmocka_unit_test(test_welch_integer_df),  cmocka_unit_test(test_welch_degenerate),
        cmocka_unit_test(test_welch_huge_values), cmocka_unit_test(test_median_hmean),
        cmocka_unit_test(test_welch_confidence_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
