/*
 * Host tests of kernel/sched_tunables.c: a scheduler's tunables as keys of
 * the command line (sched.<name>=, sched.preset=), over the real registry
 * (kernel/cmdline*.c) and a scheduler class made up for the test.  Checked:
 * defaults, AUTO tunables left unset, a given value, a preset and a value
 * given with it (the value wins), every error (unknown name, bad value, out
 * of range, unknown preset, the scheduler's own cross-check, a scheduler
 * without tunables) as one error: line and exit 1, bench=list's tunable and
 * preset lines, the tunables line, and a preset that names no tunable
 * (a kernel bug: panic).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/sched_tunables.h"
#include "../../kernel/cmdline.h"

void cmdline_registry_reset(void);

static uint32_t a, b, c;

static const char *check_ab(const char **bad)
{
    if (a > b) {
        *bad = "a";
        return "a is above b";
    }
    return NULL;
}

static const struct sched_tunable fake_tunables[] = {
    { "a", "ms", 10, 1, 100, 0, &a, "the first" },
    { "b", "ns", 50, 0, 1000, 0, &b, "the second" },
    { "c", "count", 0, 0, 9, SCHED_TUNABLE_AUTO, &c, "computed by init unless given" },
};
static const struct sched_preset fake_presets[] = {
    { "p1", "a=20 b=30" },
    { "p2", "c=4" },
};
static const struct sched_class fake = {
    .name = "fake",
    .tunables = fake_tunables,
    .ntunables = 3,
    .presets = fake_presets,
    .npresets = 2,
    .check_tunables = check_ab,
};
static const struct sched_class bare = { .name = "bare" };

static const struct sched_preset broken_presets[] = { { "bad", "a=20 nosuch=1" } };
static const struct sched_class broken = {
    .name = "broken", .tunables = fake_tunables, .ntunables = 3, .presets = broken_presets, .npresets = 1,
};

/* Parse a command line and set the class's tunables; the exit code, -1 if none. */
static int setup(const struct sched_class *cls, const char *cmdline)
{
    host_console_clear();
    cmdline_registry_reset();
    a = b = c = 12345;
    return host_expect_exit({
        cmdline_parse(cmdline);
        sched_tunables_setup(cls);
    });
}

#define expect_error(cls, cmdline, text)                          \
    do {                                                          \
        assert_int_equal(setup(cls, cmdline), EXIT_ERROR);        \
        assert_non_null(strstr(host_console, text));              \
        assert_ptr_equal(strstr(host_console, "error: "), host_console); \
    } while (0)

static void test_defaults_and_values(void **state)
{
    assert_int_equal(setup(&fake, "bench=boot"), -1);
    assert_int_equal(a, 10);
    assert_int_equal(b, 50);
    assert_int_equal(c, SCHED_TUNABLE_UNSET);
    assert_int_equal(setup(&fake, "sched.a=7 sched.c=9"), -1);
    assert_int_equal(a, 7);
    assert_int_equal(b, 50);
    assert_int_equal(c, 9);
}

static void test_presets(void **state)
{
    assert_int_equal(setup(&fake, "sched.preset=p1"), -1);
    assert_int_equal(a, 20);
    assert_int_equal(b, 30);
    assert_int_equal(c, SCHED_TUNABLE_UNSET);
    assert_int_equal(setup(&fake, "sched.preset=p1 sched.b=40"), -1);   /* a value given as well wins */
    assert_int_equal(a, 20);
    assert_int_equal(b, 40);
    assert_int_equal(setup(&fake, "sched.preset=p2"), -1);
    assert_int_equal(c, 4);
    assert_int_equal(a, 10);
    assert_int_equal(setup(&fake, "sched.preset=none"), -1);
    assert_int_equal(a, 10);
}

static void test_errors(void **state)
{
    expect_error(&fake, "sched.nosuch=1", "error: sched.nosuch=1: no tunable of sched/fake.c; it has: a b c preset");
    expect_error(&fake, "sched.a=0", "error: sched.a=0: 0 is out of range 1..100");
    expect_error(&fake, "sched.a=101", "error: sched.a=101: 101 is out of range 1..100");
    expect_error(&fake, "sched.a=5x", "error: sched.a=5x: not an unsigned integer");
    expect_error(&fake, "sched.preset=p3", "error: sched.preset=p3: expected one of none|p1|p2");
    expect_error(&fake, "sched.a=60", "error: sched.a=60: a is above b");
    expect_error(&bare, "sched.a=1", "error: sched.a=1: sched/bare.c has no tunables");
    expect_error(&bare, "sched.preset=p1", "error: sched.preset=p1: sched/bare.c has no tunables");
    /* one line only */
    expect_error(&fake, "sched.a=0", "\n");
    assert_null(strchr(strchr(host_console, '\n') + 1, '\n'));
}

static void test_bench_list_lines(void **state)
{
    assert_int_equal(setup(&fake, "bench=list"), -1);
    host_console_clear();
    cmdline_describe_registered();
    assert_non_null(strstr(host_console,
                           "tunable sched=fake name=a unit=ms default=10 min=1 max=100 help=\"the first\"\n"));
    assert_non_null(strstr(host_console, "tunable sched=fake name=b unit=ns default=50 min=0 max=1000 help="));
    assert_non_null(strstr(host_console, "tunable sched=fake name=c unit=count default=auto min=0 max=9 help="));
    assert_non_null(strstr(host_console, "preset sched=fake name=none\n"));
    assert_non_null(strstr(host_console, "preset sched=fake name=p1 a=20 b=30\n"));
    assert_non_null(strstr(host_console, "preset sched=fake name=p2 c=4\n"));
    assert_null(strstr(host_console, "key workload=fake"));   /* no key lines: the tunable lines say it all */
}

static void test_tunables_line(void **state)
{
    assert_int_equal(setup(&fake, "sched.preset=p1 sched.b=40"), -1);
    c = 3;                                     /* what init() would have computed */
    host_console_clear();
    sched_tunables_print(&fake);
    assert_string_equal(host_console, "tunables sched=fake preset=p1 a=20 b=40 c=3\n");
    assert_int_equal(setup(&bare, ""), -1);
    host_console_clear();
    sched_tunables_print(&bare);
    assert_string_equal(host_console, "");
}

static void test_bad_preset_is_a_kernel_bug(void **state)
{
    assert_int_equal(setup(&broken, ""), EXIT_PANIC);
    assert_non_null(strstr(host_console, "preset bad sets nosuch, which is no tunable"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_values),
        cmocka_unit_test(test_presets),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bench_list_lines),
        cmocka_unit_test(test_tunables_line),
        cmocka_unit_test(test_bad_preset_is_a_kernel_bug),
    };
    return cmocka_run_group_tests_name("tunables", tests, NULL, NULL);
}
