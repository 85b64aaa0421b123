#define _GNU_SOURCE
/*
 * The job pool of the verbs that boot (tools/src/run/pool.c), with real
 * processes (sh -c 'sleep ...'): what a boot is charged, that jobs start
 * longest first within the core budget and one after another in that
 * order, that -j caps how many run at once, and that a stop (SIGTERM)
 * stops the running jobs and the processes below them and starts no other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "run/pool.h"
#include "run/procs.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 2 cores: a boot of more vCPUs than that is charged one core fewer, niced, so that a one-core boot runs beside it */
static void test_charges(void **state)
{
    (void)state;
    bool niced;
    assert_int_equal(pool_charge(1, 2, &niced), 1);
    assert_false(niced);
    assert_int_equal(pool_charge(2, 2, &niced), 2);
    assert_false(niced);
    assert_int_equal(pool_charge(8, 2, &niced), 1);
    assert_true(niced);
    assert_int_equal(pool_charge(8, 4, &niced), 3);
    assert_true(niced);
    assert_int_equal(pool_charge(4, 1, &niced), 1);   /* one core: alone, nothing beside it to leave room for */
    assert_false(niced);
}

struct record {
    char order[16][8];
    size_t n, most;
    const struct pool *p;
};

static void started(struct job *j, void *ctx)
{
    struct record *r = ctx;
    snprintf(r->order[r->n++], sizeof(r->order[0]), "%s", (const char *)j->arg);
    if (r->p->running > r->most)
        r->most = r->p->running;
}

static char *sleep_argv[] = { "sh", "-c", "sleep 0.2", NULL };

static struct job mkjob(const char *name, long vcpus, double est, size_t order)
{
    struct job j;
    memset(&j, 0, sizeof(j));
    j.argv = sleep_argv;
    j.out = "/dev/null";
    j.err = "/dev/null";
    j.vcpus = vcpus;
    j.est = est;
    j.arg = (void *)name;
    j.order = order;
    return j;
}

/* Longest first (an unknown length first of all: a new boot may be long), but a known job
 * that takes the whole budget before the others (it runs alone: later it would wait for
 * them to drain); a job that does not fit waits, and the ones after it wait behind it. */
static void test_longest_first(void **state)
{
    (void)state;
    struct job jobs[6] = { mkjob("short", 1, 1, 0), mkjob("long", 1, 50, 1), mkjob("new", 1, NAN, 2),
                           mkjob("mid", 2, 10, 3), mkjob("tiny", 1, 0.5, 4), mkjob("newpair", 2, NAN, 5) };
    struct record r = { 0 };
    struct pool p = { .budget = 2, .started = started, .ctx = &r };
    r.p = &p;
    assert_int_equal(pool_run(&p, jobs, 6), 0);
    const char *want[] = { "new", "newpair", "mid", "long", "short", "tiny" };
    for (int i = 0; i < 6; i++)
        assert_string_equal(r.order[i], want[i]);
    assert_int_equal(r.most, 2);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(jobs[i].state, JOB_DONE);
        assert_int_equal(jobs[i].status, 0);
    }
}

/* -j 1: one at a time whatever the budget */
static void test_max_jobs(void **state)
{
    (void)state;
    struct job jobs[3] = { mkjob("a", 1, 3, 0), mkjob("b", 1, 2, 1), mkjob("c", 1, 1, 2) };
    struct record r = { 0 };
    struct pool p = { .budget = 8, .max_jobs = 1, .started = started, .ctx = &r };
    r.p = &p;
    assert_int_equal(pool_run(&p, jobs, 3), 0);
    assert_int_equal(r.most, 1);
}

/* A stop: the running job and the process below it end, the waiting ones never start. */
static void stop_in_start(struct job *j, void *ctx)
{
    (void)j;
    (void)ctx;
    usleep(200 * 1000);   /* its grandchild is there */
    kill(getpid(), SIGTERM);
}

static void test_stop(void **state)
{
    (void)state;
    char mark[] = "/tmp/schedlab-pool-test.XXXXXX";
    assert_non_null(mkdtemp(mark));
    char *script = NULL;
    assert_true(asprintf(&script, "sh -c 'sleep 30; touch %s/late' & wait", mark) > 0);
    char *argv[] = { "sh", "-c", script, NULL };
    struct job jobs[2] = { mkjob("first", 2, 9, 0), mkjob("second", 2, 1, 1) };
    jobs[0].argv = argv;
    pool_catch_signals();
    struct pool p = { .budget = 2, .started = stop_in_start };
    double t0 = pool_now();
    assert_int_equal(pool_run(&p, jobs, 2), SIGTERM);
    assert_true(pool_now() - t0 < 10);
    assert_int_equal(jobs[0].state, JOB_STOPPED);
    assert_int_equal(jobs[1].state, JOB_WAITING);
    sleep(1);
    char *late = NULL;
    assert_true(asprintf(&late, "%s/late", mark) > 0);
    struct stat st;
    assert_int_not_equal(stat(late, &st), 0);   /* the sleep below the job was stopped too */
    rmdir(mark);
    free(late);
    free(script);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_charges),
        cmocka_unit_test(test_longest_first),
        cmocka_unit_test(test_max_jobs),
        cmocka_unit_test(test_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
