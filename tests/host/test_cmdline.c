/* Host tests of kernel command-line parsing and validation (kernel/cmdline.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/cmdline.h"

static int parse(const char *s)
{
    host_console_clear();
    return host_expect_exit(cmdline_parse(s));
}

static void test_parses_words(void **state)
{
    assert_int_equal(parse("  bench=hackbench   groups=50,100 runs=3 "), -1);
    assert_string_equal(cmdline_get("bench"), "hackbench");
    assert_string_equal(cmdline_get("groups"), "50,100");
    assert_null(cmdline_get("loops"));
    assert_int_equal(cmdline_uint("runs", 1, 1, 10), 3);
    assert_int_equal(cmdline_uint("loops", 100, 1, 1000), 100);
    uint32_t v[8];
    assert_int_equal(cmdline_uint_list("groups", "10", 1, 1000, v, 8), 2);
    assert_int_equal(v[0], 50);
    assert_int_equal(v[1], 100);
    assert_int_equal(cmdline_uint_list("sizes", "1,2,3", 0, 9, v, 8), 3);
    assert_int_equal(v[2], 3);
}

static void test_malformed_words(void **state)
{
    assert_int_equal(parse("bench=boot runs"), EXIT_ERROR);
    assert_non_null(strstr(host_console, "error: 'runs': expected key=value"));
    assert_int_equal(parse("=5"), EXIT_ERROR);
    assert_int_equal(parse("runs="), EXIT_ERROR);
    assert_non_null(strstr(host_console, "error: runs=: missing value"));
    assert_int_equal(parse("runs=1 runs=2"), EXIT_ERROR);
    assert_non_null(strstr(host_console, "given twice"));
}

static void test_bad_values(void **state)
{
    parse("runs=abc loops=0 big=99999999999 groups=1,,2 cpu=1-0 mode=warp");
    host_console_clear();
    assert_int_equal(host_expect_exit(cmdline_uint("runs", 1, 1, 10)), EXIT_ERROR);
    assert_non_null(strstr(host_console, "error: runs=abc: not an unsigned integer"));
    assert_int_equal(host_expect_exit(cmdline_uint("loops", 1, 1, 10)), EXIT_ERROR);
    assert_non_null(strstr(host_console, "out of range 1..10"));
    assert_int_equal(host_expect_exit(cmdline_uint("big", 1, 0, 0xffffffffu)), EXIT_ERROR);
    uint32_t v[4];
    assert_int_equal(host_expect_exit(cmdline_uint_list("groups", "1", 1, 9, v, 4)), EXIT_ERROR);
    assert_int_equal(host_expect_exit(cmdline_cpu_list("cpu", 4)), EXIT_ERROR);
    static const char *const modes[] = { "process", "thread", NULL };
    host_console_clear();
    assert_int_equal(host_expect_exit(cmdline_choice("mode", "process", modes)), EXIT_ERROR);
    assert_non_null(strstr(host_console, "expected one of process|thread"));
}

static void test_cpu_lists_and_choices(void **state)
{
    parse("bind=0,2-3 one=1 mode=thread");
    assert_int_equal(cmdline_cpu_list("bind", 4), 0xd);
    assert_int_equal(cmdline_cpu_list("absent", 4), 0);
    host_console_clear();
    assert_int_equal(host_expect_exit(cmdline_cpu_list("bind", 3)), EXIT_ERROR);
    assert_non_null(strstr(host_console, "cpu 3 is not online (3 online)"));
    static const char *const modes[] = { "process", "thread", NULL };
    assert_int_equal(cmdline_choice("mode", "process", modes), 1);
    assert_int_equal(cmdline_choice("absent", "process", modes), 0);
}

static void test_unknown_keys(void **state)
{
    static const char *const kernel_keys[] = { "bench", "runs", NULL };
    static const char *const bench_keys[] = { "groups", NULL };
    const char *const *lists[] = { kernel_keys, bench_keys, NULL };
    parse("bench=x groups=2 runs=1");
    assert_int_equal(host_expect_exit(cmdline_reject_unknown(lists)), -1);
    parse("bench=x groupz=2");
    host_console_clear();
    assert_int_equal(host_expect_exit(cmdline_reject_unknown(lists)), EXIT_ERROR);
    assert_non_null(strstr(host_console, "error: groupz=2: unknown key"));
}

static void test_too_long(void **state)
{
    char big[1200];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;
    assert_int_equal(parse(big), EXIT_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parses_words),         cmocka_unit_test(test_malformed_words),
        cmocka_unit_test(test_bad_values),           cmocka_unit_test(test_cpu_lists_and_choices),
        cmocka_unit_test(test_unknown_keys),         cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
