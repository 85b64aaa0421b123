/* The status line's arithmetic (tools/src/run/progress.c) on fixed inputs: the
 * key of a boot whatever the order of its words, the median of a key's last
 * five records, a plan read and hashed whatever its order, and the ETA of
 * boots sharing the cores, with this run's pace and with nothing recorded. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "progress.h"

static void test_boot_key_order(void **state)
{
    (void)state;
    const char *a[] = { "bench=pipe", "loops=200", "runs=1", "sched.preset=rc1" };
    const char *b[] = { "sched.preset=rc1", "runs=1", "loops=200", "bench=pipe", "loops=200" };
    char *ka = boot_key("vsmp", 256, 2, "cfs23", a, 4), *kb = boot_key("vsmp", 256, 2, "cfs23", b, 5);
    assert_string_equal(ka, "accel=vsmp mem=256 smp=2 sched=cfs23 bench=pipe loops=200 sched.preset=rc1");
    assert_string_equal(ka, kb);   /* order, the default runs=1 and a repeated word do not matter */
    const char *c[] = { "bench=pipe", "loops=200", "runs=2" };
    char *kc = boot_key("vsmp", 256, 2, "cfs23", c, 3);
    assert_string_not_equal(ka, kc);   /* runs=2 is another boot */
    free(ka);
    free(kb);
    free(kc);
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/test_progress.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void test_times_median_of_last_five(void **state)
{
    (void)state;
    char *p = write_tmp("boot 100 2026-01-01T00:00:00Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "boot 1 2026-01-01T00:00:01Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "boot 2 2026-01-01T00:00:02Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "garbage line\nboot x 2026 k\n"
                        "boot 3 2026-01-01T00:00:03Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "boot 4 2026-01-01T00:00:04Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "boot 5 2026-01-01T00:00:05Z accel=tcg mem=256 smp=1 sched=o1 bench=pipe\n"
                        "run 60.5 2026-01-02T00:00:00Z 00ff00ff00ff00ff reproduce seed001 [load 1.0-2.0]\n");
    struct times t = { 0 };
    times_read(p, &t);
    /* the first record (100) is older than the last five: 1..5, median 3 */
    assert_true(fabs(times_lookup(&t, "accel=tcg mem=256 smp=1 sched=o1 bench=pipe") - 3.0) < 1e-9);
    assert_true(isnan(times_lookup(&t, "accel=tcg mem=256 smp=2 sched=o1 bench=pipe")));
    assert_true(fabs(times_lookup(&t, "run:00ff00ff00ff00ff") - 60.5) < 1e-9);
    assert_string_equal(times_note(&t, "run:00ff00ff00ff00ff"), "2026-01-02T00:00:00Z reproduce seed001 [load 1.0-2.0]");
    times_free(&t);
    unlink(p);
    free(p);
}

static void test_plan_hash_and_eta(void **state)
{
    (void)state;
    char *p1 = write_tmp("/x/a.rc\t/x/a.log\t1\tkey-a\n/x/b.rc\t/x/b.log\t1\tkey-b\n# a comment\n"
                         "/x/c.rc\t/x/c.log\t2\tkey-c\nbroken line\n");
    char *p2 = write_tmp("/y/c.rc\t/y/c.log\t2\tkey-c\n/y/a.rc\t/y/a.log\t1\tkey-a\n/y/b.rc\t/y/b.log\t1\tkey-b\n");
    struct plan a = { 0 }, b = { 0 };
    assert_true(plan_read(p1, &a));
    assert_true(plan_read(p2, &b));
    assert_int_equal(a.n, 3);
    char *ha = plan_hash(&a), *hb = plan_hash(&b);
    assert_string_equal(ha, hb);   /* the same boots, other paths and order */
    /* recorded: a 10 s, b 20 s, c 30 s on 2 slots: c takes both, a and b one each:
     * work 10 + 20 + 60 = 90 slot-seconds / 2 = 45 s, more than the longest (30) */
    a.b[0].est = 10, a.b[1].est = 20, a.b[2].est = 30;
    struct eta e;
    plan_eta(&a, 0, 2, &e);
    assert_int_equal(e.total, 3);
    assert_true(fabs(e.seconds - 45) < 1e-9);
    /* a finished in 20 s where it was recorded at 10: this host is 2x slower now */
    a.b[0].finished = true, a.b[0].wall = 20;
    plan_eta(&a, 20, 2, &e);
    assert_int_equal(e.done, 1);
    assert_true(fabs(e.factor - 2) < 1e-9);
    assert_true(fabs(e.seconds - (40 + 120) / 2.0) < 1e-9);
    /* b running for 15 s of its 40: 25 left */
    a.b[1].seen_start = true, a.b[1].t_start = 5;
    plan_eta(&a, 20, 2, &e);
    assert_true(fabs(e.seconds - (25 + 120) / 2.0) < 1e-9);
    /* nothing recorded, nothing finished: unknown */
    for (size_t i = 0; i < b.n; i++)
        b.b[i].est = NAN;
    plan_eta(&b, 0, 2, &e);
    assert_true(isnan(e.seconds));
    assert_int_equal(e.unknown, 3);
    /* one finished in 12 s: the others estimated from it */
    b.b[0].finished = true, b.b[0].wall = 12;
    plan_eta(&b, 12, 1, &e);
    assert_true(e.from_run);
    assert_true(fabs(e.seconds - 24) < 1e-9);
    free(ha);
    free(hb);
    plan_free(&a);
    plan_free(&b);
    unlink(p1);
    unlink(p2);
    free(p1);
    free(p2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boot_key_order),
        cmocka_unit_test(test_times_median_of_last_five),
        cmocka_unit_test(test_plan_hash_and_eta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
