/* Host tests of the kernel command line: words, keys read through their tables, the registry, bench=list lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/cmdline.h"

void cmdline_registry_reset(void);

static const char *const modes[] = { "process", "thread", NULL };

enum { K_RUNS, K_LOOPS, K_GROUPS, K_SIZES, K_MODE, K_BIND, K_NICE, K_HOGS, K_BIG, K_COUNT };
static const struct cmdline_key keys[] = {
    [K_RUNS] = CMDLINE_KEY_UINT("runs", 1, 1, 10, "repeats"),
    [K_LOOPS] = CMDLINE_KEY_UINT_SUITE("loops", 100, 50, 1, 1000, "loops"),
    [K_GROUPS] = CMDLINE_KEY_UINT_LIST("groups", "10", "4", 1, 1000, 8, "groups"),
    [K_SIZES] = CMDLINE_KEY_UINT_LIST("sizes", "1,2,3", NULL, 0, 9, 4, "sizes"),
    [K_MODE] = CMDLINE_KEY_CHOICE("mode", "process", modes, "mode"),
    [K_BIND] = CMDLINE_KEY_CPU_LIST_AUTO("bind", "cpus"),
    [K_NICE] = CMDLINE_KEY_INT_LIST_AUTO("nice", -20, 19, 4, "nice levels"),
    [K_HOGS] = CMDLINE_KEY_UINT_AUTO("hogs", 0, 256, "hogs"),
    [K_BIG] = CMDLINE_KEY_UINT("big", 1, 0, 0xffffffffu, "anything"),
};

static int parse(const char *s)
{
    host_console_clear();
    cmdline_registry_reset();
    cmdline_use_suite_defaults(false);
    int rc = host_expect_exit(cmdline_parse(s));
    cmdline_register("test", keys, K_COUNT);
    return rc;
}

#define expect_error(stmt, text)                                   \
    do {                                                           \
        host_console_clear();                                      \
        assert_int_equal(host_expect_exit(stmt), EXIT_ERROR);      \
        assert_non_null(strstr(host_console, text));               \
    } while (0)

#define expect_panic(stmt, text)                                   \
    do {                                                           \
        host_console_clear();                                      \
        assert_int_equal(host_expect_exit(stmt), EXIT_PANIC);      \
        assert_non_null(strstr(host_console, text));               \
    } while (0)

static void test_reads_keys_and_defaults(void **state)
{
    assert_int_equal(parse("  bench=hackbench   groups=50,100 runs=3 "), -1);
    assert_string_equal(cmdline_get("bench"), "hackbench");
    assert_null(cmdline_get("loops"));
    assert_true(cmdline_given(&keys[K_RUNS]));
    assert_false(cmdline_given(&keys[K_LOOPS]));
    assert_int_equal(cmdline_key_uint(&keys[K_RUNS]), 3);
    assert_int_equal(cmdline_key_uint(&keys[K_LOOPS]), 100);
    uint32_t v[8];
    assert_int_equal(cmdline_key_uint_list(&keys[K_GROUPS], v, 8), 2);
    assert_int_equal(v[0], 50);
    assert_int_equal(v[1], 100);
    assert_int_equal(cmdline_key_uint_list(&keys[K_SIZES], v, 8), 3);
    assert_int_equal(v[2], 3);
    assert_int_equal(cmdline_key_choice(&keys[K_MODE]), 0);
    assert_string_equal(cmdline_key_text(&keys[K_MODE]), "process");
}

static void test_suite_defaults(void **state)
{
    parse("sizes=7");
    cmdline_use_suite_defaults(true);
    assert_int_equal(cmdline_key_uint(&keys[K_LOOPS]), 50);
    assert_int_equal(cmdline_key_uint(&keys[K_RUNS]), 1);           /* no suite default: the plain one */
    uint32_t v[8];
    assert_int_equal(cmdline_key_uint_list(&keys[K_GROUPS], v, 8), 1);
    assert_int_equal(v[0], 4);
    assert_int_equal(cmdline_key_uint_list(&keys[K_SIZES], v, 8), 1);  /* given wins */
    assert_int_equal(v[0], 7);
    cmdline_use_suite_defaults(false);
}

static void test_automatic_defaults(void **state)
{
    parse("runs=2");
    assert_int_equal(cmdline_key_uint_auto(&keys[K_HOGS], 7), 7);
    assert_int_equal(cmdline_key_cpu_list(&keys[K_BIND], 4), 0);
    int32_t n[4];
    assert_int_equal(cmdline_key_int_list(&keys[K_NICE], n, 4), 0);
    parse("hogs=3");
    assert_int_equal(cmdline_key_uint_auto(&keys[K_HOGS], 7), 3);
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
    parse("runs=abc loops=0 big=99999999999 groups=1,,2 bind=1-0 mode=warp sizes=1,2,3,4,5");
    expect_error(cmdline_key_uint(&keys[K_RUNS]), "error: runs=abc: not an unsigned integer");
    expect_error(cmdline_key_uint(&keys[K_LOOPS]), "error: loops=0: 0 is out of range 1..1000");
    expect_error(cmdline_key_uint(&keys[K_BIG]), "error: big=99999999999: not an unsigned integer");
    uint32_t v[8];
    expect_error(cmdline_key_uint_list(&keys[K_GROUPS], v, 8), "groups=1,,2: expected a comma-separated list");
    expect_error(cmdline_key_uint_list(&keys[K_SIZES], v, 8), "sizes=1,2,3,4,5: more than 4 values");
    expect_error(cmdline_key_cpu_list(&keys[K_BIND], 4), "bind=1-0: bad CPU range");
    expect_error(cmdline_key_choice(&keys[K_MODE]), "error: mode=warp: expected one of process|thread");
    parse("groups=5,2000");
    expect_error(cmdline_key_uint_list(&keys[K_GROUPS], v, 8), "groups=5,2000: 2000 is out of range 1..1000");
}

static void test_int_lists(void **state)
{
    int32_t n[4];
    parse("nice=-20,0,+5,19");
    assert_int_equal(cmdline_key_int_list(&keys[K_NICE], n, 4), 4);
    assert_int_equal(n[0], -20);
    assert_int_equal(n[2], 5);
    assert_int_equal(n[3], 19);
    parse("nice=0,20");
    expect_error(cmdline_key_int_list(&keys[K_NICE], n, 4), "error: nice=0,20: 20 is out of range -20..19");
    parse("nice=0,x");
    expect_error(cmdline_key_int_list(&keys[K_NICE], n, 4),
                 "error: nice=0,x: expected a comma-separated list of integers -20..19");
    parse("nice=-");
    expect_error(cmdline_key_int_list(&keys[K_NICE], n, 4), "nice=-: expected");
    parse("nice=1,");
    expect_error(cmdline_key_int_list(&keys[K_NICE], n, 4), "nice=1,: expected");
    parse("nice=-99999999999");
    expect_error(cmdline_key_int_list(&keys[K_NICE], n, 4), "nice=-99999999999: expected");
}

static void test_cpu_lists_and_choices(void **state)
{
    parse("bind=0,2-3 mode=thread");
    assert_int_equal(cmdline_key_cpu_list(&keys[K_BIND], 4), 0xd);
    expect_error(cmdline_key_cpu_list(&keys[K_BIND], 3), "cpu 3 is not online (3 online)");
    assert_int_equal(cmdline_key_choice(&keys[K_MODE]), 1);
    expect_error(cmdline_range_error("loops", 6, 0, 5), "error: loops: 6 is out of range 0..5");
}

static void test_unknown_keys(void **state)
{
    parse("runs=1 groups=2");
    assert_int_equal(host_expect_exit(cmdline_reject_unknown()), -1);
    parse("runs=1 groupz=2");
    expect_error(cmdline_reject_unknown(), "error: groupz=2: unknown key for this run (did you mean groups=?)\n");
    parse("runs=1 frobnicate=2");   /* near nothing */
    expect_error(cmdline_reject_unknown(), "error: frobnicate=2: unknown key for this run (bench=list lists them)\n");
    parse("runs=1 groupz=2");
    /* Keys of a second table count once it is registered. */
    static const struct cmdline_key more[] = { CMDLINE_KEY_UINT("groupz", 1, 1, 9, "z") };
    cmdline_register("other", more, 1);
    assert_int_equal(host_expect_exit(cmdline_reject_unknown()), -1);
}

/* Programming errors in a table or a getter are kernel bugs: they panic, naming the key. */
static void test_bad_tables_panic(void **state)
{
    parse("runs=1");
    static const struct cmdline_key unregistered[] = { CMDLINE_KEY_UINT("runs", 1, 1, 10, "r") };
    expect_panic(cmdline_key_uint(&unregistered[0]), "runs read before its table was registered");
    expect_panic(cmdline_key_choice(&keys[K_RUNS]), "key runs is a uint, read as a choice");
    expect_panic(cmdline_key_uint(&keys[K_HOGS]), "hogs has a computed default");
    expect_panic(cmdline_key_uint_auto(&keys[K_RUNS], 1), "runs has a fixed default");
    uint32_t v[2];
    expect_panic(cmdline_key_uint_list(&keys[K_GROUPS], v, 2), "groups takes 8 values, the reader has room for 2");

    static const struct cmdline_key out_of_range[] = { CMDLINE_KEY_UINT("x", 0, 1, 10, "x") };
    expect_panic(cmdline_register("t1", out_of_range, 1), "t1 key x: default 0: 0 is out of range 1..10");
    static const struct cmdline_key bad_suite[] = { CMDLINE_KEY_UINT_SUITE("x", 5, 11, 1, 10, "x") };
    expect_panic(cmdline_register("t2", bad_suite, 1), "t2 key x: default 11: 11 is out of range 1..10");
    static const struct cmdline_key bad_list[] = { CMDLINE_KEY_UINT_LIST("x", "1,,2", NULL, 1, 10, 4, "x") };
    expect_panic(cmdline_register("t3", bad_list, 1), "default '1,,2'");
    static const struct cmdline_key bad_choice[] = { CMDLINE_KEY_CHOICE("x", "fiber", modes, "x") };
    expect_panic(cmdline_register("t4", bad_choice, 1), "default 'fiber': expected one of process|thread");
    static const struct cmdline_key twice[] = { CMDLINE_KEY_UINT("x", 1, 1, 2, "a"),
                                                CMDLINE_KEY_UINT("x", 1, 1, 2, "b") };
    expect_panic(cmdline_register("t5", twice, 2), "t5 declares key x twice");
    static const struct cmdline_key quote[] = { CMDLINE_KEY_UINT("x", 1, 1, 2, "a \"quoted\" word") };
    expect_panic(cmdline_register("t6", quote, 1), "double quote");
    static const struct cmdline_key bad_name[] = { CMDLINE_KEY_UINT("Bad-Name", 1, 1, 2, "a") };
    expect_panic(cmdline_register("t7", bad_name, 1), "bad name");
}

/* bench=list's lines: every field, and the ones that only some types have. */
static void test_describe(void **state)
{
    parse("runs=1");
    host_console_clear();
    cmdline_describe("test", keys, K_COUNT);
    const char *expected =
        "key workload=test name=runs type=uint default=1 min=1 max=10 help=\"repeats\"\n"
        "key workload=test name=loops type=uint default=100 min=1 max=1000 suite_default=50 help=\"loops\"\n"
        "key workload=test name=groups type=uint_list default=10 min=1 max=1000 suite_default=4 max_values=8 "
        "help=\"groups\"\n"
        "key workload=test name=sizes type=uint_list default=1,2,3 min=0 max=9 max_values=4 help=\"sizes\"\n"
        "key workload=test name=mode type=choice default=process min=- max=- choices=process|thread help=\"mode\"\n"
        "key workload=test name=bind type=cpu_list default=auto min=0 max=31 help=\"cpus\"\n"
        "key workload=test name=nice type=int_list default=auto min=-20 max=19 max_values=4 help=\"nice levels\"\n"
        "key workload=test name=hogs type=uint default=auto min=0 max=256 help=\"hogs\"\n"
        "key workload=test name=big type=uint default=1 min=0 max=4294967295 help=\"anything\"\n";
    assert_string_equal(host_console, expected);
    host_console_clear();
    cmdline_describe_registered();
    assert_string_equal(host_console, expected);
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
        cmocka_unit_test(test_reads_keys_and_defaults), cmocka_unit_test(test_suite_defaults),
        cmocka_unit_test(test_automatic_defaults),      cmocka_unit_test(test_malformed_words),
        cmocka_unit_test(test_bad_values),              cmocka_unit_test(test_int_lists),
        cmocka_unit_test(test_cpu_lists_and_choices),   cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_bad_tables_panic),        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
