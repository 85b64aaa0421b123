/*
 * Host tests of bench=wakeup's latency recorder (workloads/latrec.c): exact
 * 64-bit samples (latencies beyond 2^32 ns = 4.29 s, which the old 32-bit
 * recorder clamped to 4294967.3 us with status=ok), nearest-rank
 * percentiles, dropped samples beyond the capacity, and no samples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../workloads/latrec.h"

static uint64_t buf[2000];
static char line[256];

static void test_percentiles_nearest_rank(void **state)
{
    struct latrec r;
    latrec_init(&r, buf, 2000);
    for (uint64_t i = 1000; i >= 1; i--)            /* 1..1000 us, in reverse order */
        latrec_add(&r, i * 1000);
    struct latrec_summary s;
    assert_true(latrec_summarize(&r, &s));
    assert_int_equal(s.samples, 1000);
    assert_int_equal(s.dropped, 0);
    assert_int_equal(s.p50, 500000);
    assert_int_equal(s.p90, 900000);
    assert_int_equal(s.p99, 990000);
    assert_int_equal(s.p999, 999000);
    assert_int_equal(s.max, 1000000);
    latrec_format(line, sizeof(line), &s);
    assert_string_equal(line,
                        " samples=1000 p50_us=500.0 p90_us=900.0 p99_us=990.0 p999_us=999.0 max_us=1000.0 dropped=0");
}

/* The bug: on o1 at 8 vCPUs a wake-up waited more than 4.29 s and the line said p99_us=4294967.3. */
static void test_latencies_beyond_32_bits_are_exact(void **state)
{
    struct latrec r;
    latrec_init(&r, buf, 2000);
    for (int i = 0; i < 90; i++)
        latrec_add(&r, 20000);                         /* 20 us */
    for (int i = 0; i < 9; i++)
        latrec_add(&r, 4294967296ull + 1000);          /* 2^32 ns + 1 us */
    latrec_add(&r, 10ull * 1000000000ull + 123456);    /* 10.000123456 s */
    struct latrec_summary s;
    assert_true(latrec_summarize(&r, &s));
    assert_int_equal(s.p99, 4294968296ull);
    assert_int_equal(s.max, 10000123456ull);
    latrec_format(line, sizeof(line), &s);
    assert_string_equal(line, " samples=100 p50_us=20.0 p90_us=20.0 p99_us=4294968.3 p999_us=10000123.5 "
                              "max_us=10000123.5 dropped=0");
    assert_null(strstr(line, "4294967.3"));
}

static void test_dropped_beyond_capacity(void **state)
{
    struct latrec r;
    latrec_init(&r, buf, 10);
    for (uint64_t i = 0; i < 25; i++)
        latrec_add(&r, 7000 + i);
    struct latrec_summary s;
    assert_true(latrec_summarize(&r, &s));
    assert_int_equal(s.samples, 10);
    assert_int_equal(s.dropped, 15);
    assert_int_equal(s.max, 7009);                    /* the first 10 are kept */
}

static void test_no_samples(void **state)
{
    struct latrec r;
    latrec_init(&r, buf, 10);
    struct latrec_summary s;
    assert_false(latrec_summarize(&r, &s));
    assert_int_equal(s.samples, 0);
    assert_int_equal(s.dropped, 0);
}

static void test_one_sample(void **state)
{
    struct latrec r;
    latrec_init(&r, buf, 10);
    latrec_add(&r, 1234);
    struct latrec_summary s;
    assert_true(latrec_summarize(&r, &s));
    assert_int_equal(s.p50, 1234);
    assert_int_equal(s.p999, 1234);
    assert_int_equal(latrec_percentile(buf, 1, 0), 1234);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentiles_nearest_rank),
        cmocka_unit_test(test_latencies_beyond_32_bits_are_exact),
        cmocka_unit_test(test_dropped_beyond_capacity),
        cmocka_unit_test(test_no_samples),
        cmocka_unit_test(test_one_sample),
    };
    return cmocka_run_group_tests_name("latrec", tests, NULL, NULL);
}
