/* Host tests of the kernel's vsnprintf and fmt_fixed (kernel/printf.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

static char buf[128];

static void test_integers(void **state)
{
    snprintf(buf, sizeof(buf), "%d %i %u %x %X", -42, 7, 4000000000u, 0xbeef, 0xbeef);
    assert_string_equal(buf, "-42 7 4000000000 beef BEEF");
    snprintf(buf, sizeof(buf), "%lld %llu %llx", -9000000000ll, 18446744073709551615ull, 0x123456789abcull);
    assert_string_equal(buf, "-9000000000 18446744073709551615 123456789abc");
}

static void test_width_and_padding(void **state)
{
    snprintf(buf, sizeof(buf), "[%5d][%-5d][%05d][%08x][%-3s][%3s]", 42, 42, -42, 0xab, "a", "abcd");
    assert_string_equal(buf, "[   42][42   ][-0042][000000ab][a  ][abcd]");
    const char *volatile nothing = NULL;   /* volatile: keep gcc from rejecting a literal NULL */
    snprintf(buf, sizeof(buf), "[%.2s][%c][%%][%s]", "hello", 'z', nothing);
    assert_string_equal(buf, "[he][z][%][(null)]");
}

/* Precision and width from the argument list ("%.*s", "%*d"), as C99 7.19.6.1. */
static void test_star_precision_and_width(void **state)
{
    const char *name = "hackbenh,pipe";
    snprintf(buf, sizeof(buf), "unknown workload '%.*s'; known:", 8, name);
    assert_string_equal(buf, "unknown workload 'hackbenh'; known:");
    /* The arguments after a '*' are still read in order. */
    snprintf(buf, sizeof(buf), "[%.*s][%d][%s]", 3, "abcdef", 42, "tail");
    assert_string_equal(buf, "[abc][42][tail]");
    snprintf(buf, sizeof(buf), "[%.*s][%.0s][%.*s]", 0, "abc", "abc", -1, "whole");  /* negative: no precision */
    assert_string_equal(buf, "[][][whole]");
    snprintf(buf, sizeof(buf), "[%.10s][%5.2s][%-5.2s]", "abc", "abcdef", "abcdef");
    assert_string_equal(buf, "[abc][   ab][ab   ]");
    snprintf(buf, sizeof(buf), "[%*d][%*d][%-*s]", 5, 42, -5, 42, 4, "x");
    assert_string_equal(buf, "[   42][42   ][x   ]");
    /* A precision lets the string end without a NUL: nothing past it is read. */
    char unterminated[3] = { 'x', 'y', 'z' };
    snprintf(buf, sizeof(buf), "<%.*s>", 3, unterminated);
    assert_string_equal(buf, "<xyz>");
}

static void test_truncation(void **state)
{
    char small[8];
    int n = snprintf(small, sizeof(small), "%s", "0123456789");
    assert_int_equal(n, 10);                 /* returns the full length, as C99 says */
    assert_string_equal(small, "0123456");
}

static void test_fmt_fixed(void **state)
{
    char b[32];
    assert_string_equal(fmt_fixed(b, 512, 1000, 3), "0.512");
    assert_string_equal(fmt_fixed(b, 2, 3, 3), "0.667");            /* rounds half up */
    assert_string_equal(fmt_fixed(b, 19995, 10000, 3), "2.000");    /* carry into the whole part */
    assert_string_equal(fmt_fixed(b, 5920000000ull, 1000000000ull, 2), "5.92");
    assert_string_equal(fmt_fixed(b, 7, 2, 0), "4");
    assert_string_equal(fmt_fixed(b, 1, 0, 2), "nan");
    assert_string_equal(fmt_fixed(b, 1, 1000000, 6), "0.000001");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),
        cmocka_unit_test(test_width_and_padding),
        cmocka_unit_test(test_star_precision_and_width),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_fmt_fixed),
    };
    return cmocka_run_group_tests_name("printf", tests, NULL, NULL);
}
