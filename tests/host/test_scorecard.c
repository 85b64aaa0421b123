/* The scorecard's arithmetic (tools/src/seeds/scorecard.c) on fixed inputs:
 * deviations, medians, worst cases, ties and agreeing orderings, and the
 * machine-readable line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scorecard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_dev_and_ratio(void **state)
{
    (void)state;
    assert_true(fabs(sc_dev_pct(0.5, 0.6) - 20.0) < 1e-9);
    assert_true(fabs(sc_dev_pct(2.0, 1.0) + 50.0) < 1e-9);
    assert_true(fabs(sc_dev_pct(0.64, 0.64)) < 1e-9);
    assert_true(isnan(sc_dev_pct(0.0, 1.0)));
    assert_true(isnan(sc_dev_pct(1.0, NAN)));
    assert_true(fabs(sc_ratio(39.77, 9.91) - 4.0131180626) < 1e-6);
    assert_true(isnan(sc_ratio(1.0, 0.0)));
    assert_true(isnan(sc_ratio(INFINITY, 1.0)));
}

static void test_median(void **state)
{
    (void)state;
    double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 }, c[] = { 7 };
    assert_true(sc_median(a, 3) == 3);
    assert_true(sc_median(b, 4) == 2.5);
    assert_true(sc_median(c, 1) == 7);
    assert_true(isnan(sc_median(a, 0)));
    assert_true(a[0] == 5 && a[1] == 1);   /* the input is not sorted in place */
}

static void test_order_sign(void **state)
{
    (void)state;
    assert_int_equal(sc_order_sign(15.52, 9.91, SC_TIE_FRAC), 1);
    assert_int_equal(sc_order_sign(9.91, 15.52, SC_TIE_FRAC), -1);
    assert_int_equal(sc_order_sign(200, 200, SC_TIE_FRAC), 0);
    assert_int_equal(sc_order_sign(100, 101.9, SC_TIE_FRAC), 0);    /* within 2% of the larger */
    assert_int_equal(sc_order_sign(100, 102.1, SC_TIE_FRAC), -1);
    assert_int_equal(sc_order_sign(NAN, 1, SC_TIE_FRAC), 2);
}

static void test_summary(void **state)
{
    (void)state;
    struct sc_cell c[5] = {
        { "a", 1.0, 1.1, NULL },      /* +10% */
        { "b", 2.0, 1.0, NULL },      /* -50% */
        { "c", 0.5, 0.55, NULL },     /* +10% */
        { "d", 4.0, 5.0, NULL },      /* +25%: within */
        { "e", 1.0, NAN, "not available: sched/nick.c does not exist" },
    };
    struct sc_order o[4] = { { "x", 1, 1 }, { "y", -1, 1 }, { "z", 0, 0 }, { "w", 1, 2 } };
    struct sc_summary s;
    sc_summarize(c, 5, o, 4, &s);
    assert_int_equal(s.cells, 5);
    assert_int_equal(s.measured, 4);
    assert_int_equal(s.within25, 3);
    assert_true(fabs(s.median_abs - 17.5) < 1e-9);   /* |dev| 10 10 25 50 */
    assert_true(fabs(s.worst_abs - 50.0) < 1e-9);
    assert_int_equal(s.orderings, 4);
    assert_int_equal(s.orderings_measured, 3);
    assert_int_equal(s.agree, 2);

    char buf[512] = { 0 };
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    assert_non_null(f);
    sc_print_line(f, "seed000", "hackbench", "none", NULL, &s);
    fclose(f);
    assert_string_equal(buf, "scorecard seed=seed000 table=hackbench cost=none cells=4 median_dev_pct=17.5 "
                             "worst_dev_pct=50.0 orderings_agree=2/3 cells_missing=1\n");
}

static void test_summary_empty(void **state)
{
    (void)state;
    struct sc_cell c[1] = { { "a", 1.0, NAN, "FAILED" } };
    struct sc_summary s;
    sc_summarize(c, 1, NULL, 0, &s);
    assert_int_equal(s.measured, 0);
    assert_true(isnan(s.median_abs) && isnan(s.worst_abs));
    char buf[512] = { 0 };
    FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
    sc_print_line(f, "seed003", "tbench", "linux61", NULL, &s);
    fclose(f);
    assert_string_equal(buf, "scorecard seed=seed003 table=tbench cost=linux61 cells=0 median_dev_pct=NA "
                             "worst_dev_pct=NA orderings_agree=0/0 cells_missing=1\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dev_and_ratio), cmocka_unit_test(test_median), cmocka_unit_test(test_order_sign),
        cmocka_unit_test(test_summary),       cmocka_unit_test(test_summary_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
