/*
 * Host tests of the serial-log parser and the CSV reader behind
 * tools/schedlab (tools/src/results/logparse.c, table.c): good, truncated, garbage,
 * panicking and malformed logs (fixtures in tests/tools/) must give one row
 * per expected run, failed rows with the right reason and no metric, and no
 * crash on any input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "logparse.h"
#include "table.h"
#include "util.h"

#ifndef FIXTURES
#error "FIXTURES (the tests/tools directory) must be defined by the Makefile"
#endif

#define CMDLINE "bench=hackbench groups=50,100 loops=100 runs=2"

struct parsed {
    struct table t;
    struct boot_verdict v;
};

static void parse_buf(struct parsed *p, const char *log, size_t len, int rc, const char *cmdline)
{
    struct expectation e;
    expectation_parse(&e, cmdline);
    struct boot_desc b = { "fixture", "goodness", 2, 1, rc, "no", NULL };
    memset(&p->t, 0, sizeof(p->t));
    collect_boot(&b, log, len, &e, &p->t, &p->v);
    expectation_free(&e);
}

static void parse_fixture(struct parsed *p, const char *name, int rc)
{
    char *path = xasprintf("%s/%s", FIXTURES, name);
    size_t len;
    char *log = read_file(path, &len);
    assert_non_null(log);
    parse_buf(p, log, len, rc, CMDLINE);
    free(log);
    free(path);
}

static void parsed_free(struct parsed *p)
{
    table_free(&p->t);
    boot_verdict_free(&p->v);
}

static size_t count_status(const struct table *t, const char *status)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        n += streq(table_getn(t, r, "status"), status);
    return n;
}

/* Every failed row has a reason and no metric. */
static void check_failed_rows(const struct table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        if (streq(table_getn(t, r, "status"), "ok")) {
            assert_non_null(table_getn(t, r, "time_s"));
            assert_null(table_getn(t, r, "reason"));
        } else {
            assert_non_null(table_getn(t, r, "reason"));
            if (streq(table_getn(t, r, "status"), "failed"))
                assert_null(table_getn(t, r, "time_s"));
        }
        assert_string_equal(table_getn(t, r, "sched"), "goodness");
        assert_string_equal(table_getn(t, r, "smp"), "2");
        assert_non_null(table_getn(t, r, "run"));
        assert_non_null(table_getn(t, r, "groups"));
    }
}

/* The row of run R with groups G, or fails the test. */
static size_t find_row(const struct table *t, const char *run, const char *groups)
{
    for (size_t r = 0; r < t->nrows; r++)
        if (streq(table_getn(t, r, "run"), run) && streq(table_getn(t, r, "groups"), groups))
            return r;
    fail_msg("no row run=%s groups=%s", run, groups);
    return 0;
}

static bool reason_has(const struct table *t, size_t r, const char *text)
{
    const char *why = table_getn(t, r, "reason");
    return why && strstr(why, text);
}

static void test_good(void **state)
{
    (void)state;
    struct parsed p;
    parse_fixture(&p, "good.log", 0);
    assert_true(p.v.ok);
    assert_null(p.v.reason);
    assert_int_equal(p.v.expected, 4);
    assert_int_equal(p.v.ok_rows, 4);
    assert_int_equal(p.t.nrows, 4);
    assert_int_equal(count_status(&p.t, "ok"), 4);
    check_failed_rows(&p.t);
    assert_string_equal(table_getn(&p.t, find_row(&p.t, "0", "50"), "time_s"), "0.512");
    /* Keys in any order after "result". */
    size_t r = find_row(&p.t, "1", "100");
    assert_string_equal(table_getn(&p.t, r, "time_s"), "1.250");
    assert_string_equal(table_getn(&p.t, r, "mode"), "process");
    assert_string_equal(table_getn(&p.t, r, "cpus"), "2");
    assert_string_equal(p.v.boot_line, "boot: cpus=2 sched=goodness hz=1000 tsc_khz=2096318 accel=tcg mem_mib=254");
    parsed_free(&p);
}

static void test_truncated(void **state)
{
    (void)state;
    struct parsed p;
    parse_fixture(&p, "truncated.log", 124);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "timeout"));
    assert_int_equal(p.t.nrows, 4);
    assert_int_equal(count_status(&p.t, "ok"), 2);
    assert_int_equal(count_status(&p.t, "failed"), 2);
    check_failed_rows(&p.t);
    assert_true(reason_has(&p.t, find_row(&p.t, "1", "50"), "cut off"));
    assert_true(reason_has(&p.t, find_row(&p.t, "1", "100"), "missing result: timeout"));
    parsed_free(&p);
}

static void test_garbage(void **state)
{
    (void)state;
    struct parsed p;
    parse_fixture(&p, "garbage.log", 0);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "garbage on the serial line"));
    assert_int_equal(p.t.nrows, 4);
    assert_int_equal(count_status(&p.t, "ok"), 3);
    check_failed_rows(&p.t);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "100"), "unprintable"));
    parsed_free(&p);
}

static void test_panic(void **state)
{
    (void)state;
    struct parsed p;
    parse_fixture(&p, "panic.log", 2);
    assert_false(p.v.ok);
    assert_string_equal(p.v.reason, "panic: cpu 1: page fault at 0x00000010 (eip 0x00102345) in task hackbench-s12");
    assert_int_equal(p.t.nrows, 4);
    assert_int_equal(count_status(&p.t, "ok"), 1);
    assert_int_equal(count_status(&p.t, "failed"), 3);
    check_failed_rows(&p.t);
    assert_true(reason_has(&p.t, find_row(&p.t, "1", "100"), "missing result: panic: cpu 1"));
    parsed_free(&p);
}

static void test_malformed(void **state)
{
    (void)state;
    struct parsed p;
    parse_fixture(&p, "malformed.log", 1);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "error: hackbench: group 3"));
    assert_int_equal(count_status(&p.t, "ok"), 1);
    assert_int_equal(count_status(&p.t, "error"), 1);
    assert_int_equal(p.t.nrows, 5);   /* 4 expected + the duplicate */
    check_failed_rows(&p.t);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "50"), "time_s=abc is not a number"));
    assert_true(reason_has(&p.t, find_row(&p.t, "1", "50"), "no cpus="));
    assert_true(reason_has(&p.t, find_row(&p.t, "1", "100"), "status=error"));
    size_t dup = 0;
    for (size_t r = 0; r < p.t.nrows; r++)
        dup += reason_has(&p.t, r, "duplicate result line");
    assert_int_equal(dup, 1);
    parsed_free(&p);
}

/* cpuhog prints one line per task of a run (task=0, task=1 with run=0): rows
 * of that run, not duplicates; the same line twice still is one. */
static void test_lines_per_task(void **state)
{
    (void)state;
    const char *log = "boot: cpus=2 sched=goodness hz=1000\n"
                      "result bench=cpuhog sched=goodness cpus=2 run=0 tasks=2 task=0 nice=0 share=0.43 runtime_ms=431 status=ok\n"
                      "result bench=cpuhog sched=goodness cpus=2 run=0 tasks=2 task=1 nice=5 share=0.56 runtime_ms=564 status=ok\n"
                      "done: exit=0\n";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 0, "bench=cpuhog tasks=2 nice=0,5 seconds=1");
    assert_true(p.v.ok);
    assert_int_equal(p.t.nrows, 2);
    assert_int_equal(count_status(&p.t, "ok"), 2);
    parsed_free(&p);
    const char *twice = "boot: cpus=2 sched=goodness hz=1000\n"
                        "result bench=cpuhog sched=goodness cpus=2 run=0 tasks=2 task=0 nice=0 share=0.43 runtime_ms=431 status=ok\n"
                        "result bench=cpuhog sched=goodness cpus=2 run=0 tasks=2 task=0 nice=0 share=0.44 runtime_ms=440 status=ok\n"
                        "done: exit=0\n";
    parse_buf(&p, twice, strlen(twice), 0, "bench=cpuhog tasks=2 nice=0,5 seconds=1");
    assert_false(p.v.ok);
    assert_int_equal(count_status(&p.t, "ok"), 1);
    assert_true(reason_has(&p.t, 1, "duplicate result line"));
    parsed_free(&p);
}

static void test_wrong_cpus_and_sched(void **state)
{
    (void)state;
    const char *log = "boot: cpus=1 sched=goodness hz=1000 tsc_khz=1 accel=tcg mem_mib=254\n"
                      "result bench=hackbench sched=goodness cpus=1 run=0 groups=50 time_s=0.5 status=ok\n"
                      "result bench=hackbench sched=rr cpus=2 run=0 groups=100 time_s=0.5 status=ok\n"
                      "done: exit=0\n";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 0, "bench=hackbench groups=50,100");
    assert_false(p.v.ok);
    assert_int_equal(p.t.nrows, 2);
    assert_int_equal(count_status(&p.t, "ok"), 0);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "50"), "only cpus=1 online of smp=2"));
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "100"), "sched=rr, expected goodness"));
    parsed_free(&p);
}

static void test_empty_log(void **state)
{
    (void)state;
    struct parsed p;
    parse_buf(&p, "", 0, 0, CMDLINE);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "no boot: line"));
    assert_int_equal(p.t.nrows, 4);
    assert_int_equal(count_status(&p.t, "failed"), 4);
    check_failed_rows(&p.t);
    parsed_free(&p);
    /* A boot that never ran (no exit status) and an unknown workload set. */
    parse_buf(&p, "", 0, -1, "bench=all");
    assert_false(p.v.ok);
    assert_int_equal(p.t.nrows, 1);
    assert_true(reason_has(&p.t, 0, "never finished"));
    parsed_free(&p);
}

static void test_random_bytes(void **state)
{
    (void)state;
    /* 64 KiB of pseudo-random bytes with some result-like lines mixed in. */
    size_t len = 65536;
    char *buf = xmalloc(len);
    uint32_t x = 12345;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (char)(x >> 16);
        if ((x >> 8) % 97 == 0 && i + 40 < len) {
            memcpy(buf + i, "\nresult bench=hackbench run=1 groups=5", 38);
            i += 37;
        }
    }
    for (int rc = -1; rc <= 124; rc += 25) {
        struct parsed p;
        parse_buf(&p, buf, len, rc, CMDLINE);
        assert_false(p.v.ok);
        assert_true(p.t.nrows >= 4);
        assert_int_equal(count_status(&p.t, "ok"), 0);
        parsed_free(&p);
    }
    free(buf);
}

static void test_expectation(void **state)
{
    (void)state;
    struct expectation e;
    expectation_parse(&e, "bench=lat_ctx runs=3 procs=2,8 size=0,16 bind=0,1 watchdog=30");
    assert_string_equal(e.bench, "lat_ctx");
    assert_int_equal(e.runs, 3);
    assert_int_equal(e.nparams, 3);
    assert_string_equal(e.key[0], "procs");
    assert_true(e.swept[0]);
    assert_true(e.swept[1]);
    assert_string_equal(e.key[2], "bind");
    assert_false(e.swept[2]);    /* a CPU list, not a sweep */
    expectation_free(&e);
    expectation_parse(&e, "bench=hackbench,pipe runs=0 =x junk");
    assert_null(e.bench);        /* a list of workloads: not matched run by run */
    assert_int_equal(e.runs, 1);
    assert_int_equal(e.nparams, 0);
    expectation_free(&e);
    /* lat_ctx: 3 runs x 2 procs x 2 sizes are expected. */
    const char *log = "boot: cpus=2 sched=goodness\n"
                      "result bench=lat_ctx sched=goodness cpus=2 run=0 procs=8 size=16 usec_per_switch=4.5 status=ok\n"
                      "done: exit=0\n";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 0, "bench=lat_ctx runs=3 procs=2,8 size=0,16");
    assert_int_equal(p.v.expected, 12);
    assert_int_equal(p.t.nrows, 12);
    assert_int_equal(count_status(&p.t, "ok"), 1);
    assert_non_null(strstr(p.v.reason, "11 of 12 expected results missing"));
    parsed_free(&p);
}

static void test_csv(void **state)
{
    (void)state;
    struct table t = { 0 };
    size_t warn;
    const char csv[] = "a,b,c\r\n1,\"x, \"\"y\"\"\",3\n\n4,5\n6,7,8,9\n\"unterminated,\n";
    assert_null(table_parse_csv(&t, csv, sizeof(csv) - 1, &warn));
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 4);
    assert_string_equal(table_getn(&t, 0, "b"), "x, \"y\"");
    assert_null(table_getn(&t, 1, "c"));      /* short row */
    assert_string_equal(table_getn(&t, 2, "c"), "8");
    assert_int_equal(warn, 1);                /* the field beyond the header */
    assert_string_equal(table_getn(&t, 3, "a"), "unterminated,\n");
    table_free(&t);
    assert_non_null(table_parse_csv(&t, "", 0, &warn));
    assert_non_null(table_parse_csv(&t, "\n\n,,\n", 5, &warn));
    table_free(&t);
    const char nul[] = "a,b\n1\0002,3\n";
    assert_null(table_parse_csv(&t, nul, sizeof(nul) - 1, &warn));
    assert_string_equal(table_getn(&t, 0, "a"), "1?2");
    table_free(&t);
}

/* How many rows have a value in column col. */
static size_t count_rows_with(const struct table *t, const char *col)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        n += table_getn(t, r, col) != NULL;
    return n;
}

/* A cut-off last line that does not say its run= is not a run of its own:
 * the run it would have been is missing, and nothing is counted twice or
 * given another run's groups=. */
static void test_cut_line_without_run(void **state)
{
    (void)state;
    const char *log = "boot: cpus=2 sched=goodness hz=1000 tsc_khz=1 accel=tcg mem_mib=254\n"
                      "result bench=hackbench sched=goodness cpus=2 run=0 groups=50 loops=100 time_s=0.5 status=ok\n"
                      "result bench=hackbench sched=goodness cp";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 124, CMDLINE);
    assert_false(p.v.ok);
    assert_int_equal(p.v.expected, 4);
    assert_int_equal(p.t.nrows, 4);                 /* was 5: the cut line counted as a run besides the missing one */
    assert_int_equal(count_status(&p.t, "ok"), 1);
    assert_int_equal(p.v.failed_rows, 3);
    check_failed_rows(&p.t);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "100"), "missing result: timeout"));
    parsed_free(&p);
    /* A cut value that could be two runs' ("groups=10" of 10 or 100) names neither. */
    log = "boot: cpus=2 sched=goodness\n"
          "result bench=hackbench sched=goodness cpus=2 run=0 groups=10";
    parse_buf(&p, log, strlen(log), 124, "bench=hackbench groups=10,100");
    assert_int_equal(p.t.nrows, 2);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "10"), "missing result"));
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "100"), "missing result"));
    parsed_free(&p);
    /* ... while one that fits only one run stands for it. */
    log = "boot: cpus=2 sched=goodness\n"
          "result bench=hackbench sched=goodness cpus=2 run=0 groups=1";
    parse_buf(&p, log, strlen(log), 124, "bench=hackbench groups=10,200");
    assert_int_equal(p.t.nrows, 2);
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "10"), "cut off"));
    assert_true(reason_has(&p.t, find_row(&p.t, "0", "200"), "missing result"));
    parsed_free(&p);
}

/* A time or rate that is not positive fails its run; so does a value that is no measurement. */
static void test_impossible_metrics(void **state)
{
    (void)state;
    static const struct {
        const char *value, *reason;
    } cases[] = {
        { "time_s=-15.185", "non-positive time_s=-15.185" },
        { "time_s=0.000", "non-positive time_s=0.000" },
        { "time_s=1e100", "time_s=1e100 is not a plausible value" },
        { "time_s=0.5 mb_per_s=-3", "non-positive mb_per_s=-3" },
        { "time_s=0.5 share=-0.1", "negative share=-0.1" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *log = xasprintf("boot: cpus=2 sched=goodness\n"
                              "result bench=hackbench sched=goodness cpus=2 run=0 groups=50 %s status=ok\n"
                              "done: exit=0\n",
                              cases[i].value);
        struct parsed p;
        parse_buf(&p, log, strlen(log), 0, "bench=hackbench groups=50");
        assert_int_equal(p.t.nrows, 1);
        assert_string_equal(table_getn(&p.t, 0, "status"), "failed");
        if (!reason_has(&p.t, 0, cases[i].reason))
            fail_msg("%s: reason '%s'", cases[i].value, table_getn(&p.t, 0, "reason"));
        assert_null(table_getn(&p.t, 0, "time_s"));   /* never averaged in */
        assert_false(p.v.ok);
        parsed_free(&p);
        free(log);
    }
    /* A share of 0 is a share (a starved task), not an error. */
    const char *log = "boot: cpus=2 sched=goodness\n"
                      "result bench=cpuhog sched=goodness cpus=2 run=0 task=0 share=0.000 status=ok\ndone: exit=0\n";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 0, "bench=cpuhog");
    assert_int_equal(count_status(&p.t, "ok"), 1);
    parsed_free(&p);
}

/* Words of the command line that name a result column (found by the fuzz
 * target): a missing run never gets time_s= or another run= from them. */
static void test_command_line_result_words(void **state)
{
    (void)state;
    struct parsed p;
    parse_buf(&p, "", 0, 124, "bench=hackbench groups=50,100 time_s=0.512 run=7 status=ok");
    assert_int_equal(p.t.nrows, 2);
    assert_int_equal(count_rows_with(&p.t, "time_s"), 0);
    assert_int_equal(count_status(&p.t, "failed"), 2);
    find_row(&p.t, "0", "50");
    find_row(&p.t, "0", "100");
    parsed_free(&p);
    /* Nor is a metric's comma list a sweep (fuzz input tests/tools/fuzz/cmdline-swept-metric). */
    parse_buf(&p, "", 0, 124, "bench=hackbench groups=50,100 p50_us=50,100");
    assert_int_equal(p.t.nrows, 2);
    assert_int_equal(count_rows_with(&p.t, "p50_us"), 0);
    parsed_free(&p);
}

/* A command line that claims more runs than can be matched is a failed boot
 * with the reason, not hundreds of thousands of rows (nor gigabytes). */
static void test_too_many_runs(void **state)
{
    (void)state;
    struct strbuf cmd = { 0 };
    sb_add(&cmd, "bench=hackbench runs=10000 groups=1");
    for (int g = 2; g <= 20; g++)
        sb_printf(&cmd, ",%d", g);
    const char *log = "boot: cpus=2 sched=goodness\ndone: exit=0\n";
    struct parsed p;
    parse_buf(&p, log, strlen(log), 0, cmd.s);
    assert_int_equal(p.v.expected, 0);
    assert_int_equal(p.t.nrows, 1);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "more than 100000 runs per boot (runs=10000 x 20 groups)"));
    parsed_free(&p);
    sb_free(&cmd);
    /* runs= beyond what the kernel takes (it would refuse the boot). */
    parse_buf(&p, log, strlen(log), 0, "bench=hackbench runs=20000 groups=5");
    assert_int_equal(p.v.expected, 0);
    assert_false(p.v.ok);
    assert_non_null(strstr(p.v.reason, "runs=20000 is not a run count the kernel accepts"));
    parsed_free(&p);
}

/* An unterminated quote in a results file is an error naming its line, not
 * the rest of the file read as one field. */
static void test_csv_unclosed_quote(void **state)
{
    (void)state;
    char path[] = "/tmp/test_logparse.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char csv[] = "bench,status\nhackbench,ok\n\"hackbench,ok\nhackbench,ok\n";
    assert_int_equal(write(fd, csv, sizeof(csv) - 1), (ssize_t)(sizeof(csv) - 1));
    close(fd);
    struct table t = { 0 };
    size_t warn;
    const char *err = table_read_csv(&t, path, &warn);
    unlink(path);
    assert_non_null(err);
    assert_non_null(strstr(err, "line 3"));
    table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_garbage),     cmocka_unit_test(test_panic),
        cmocka_unit_test(test_malformed),   cmocka_unit_test(test_wrong_cpus_and_sched),
        cmocka_unit_test(test_empty_log),   cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_expectation), cmocka_unit_test(test_csv),
        cmocka_unit_test(test_cut_line_without_run), cmocka_unit_test(test_impossible_metrics),
        cmocka_unit_test(test_command_line_result_words), cmocka_unit_test(test_too_many_runs),
        cmocka_unit_test(test_csv_unclosed_quote), cmocka_unit_test(test_lines_per_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
