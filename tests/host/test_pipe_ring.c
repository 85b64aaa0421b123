/*
 * Host tests of kernel/pipe.c: the byte ring (order, wrap-around, atomic
 * writes, writes larger than the ring), end of file, EPIPE, shutdown, lazy
 * ring allocation, allocation failures, and the wake-ups: which are sync
 * under each pipe_wake= rule, one list for readers and writers (a wake-up
 * wakes everybody), the read that keeps waiting while a writer sleeps, and
 * the counters.
 *
 * The kernel services the pipe uses are stubbed here: the heap and pages are
 * malloc with an injectable failure, and schedule() - reached only when a
 * pipe operation must block - runs a scripted action of "the other task"
 * (reading or writing the same pipe) and then returns, as if that task had
 * run meanwhile.  wake_up_task() records the wake-ups and their flags.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/pipe.h"
#include "../../kernel/mem.h"
#include "../../kernel/task.h"
#include "../../kernel/sched_core.h"
#include "../../sched/sched.h"

/* ---- stubs ---- */

static int fail_allocations;      /* the next allocations return NULL */
static int live_allocations;

static void *host_alloc(size_t n)
{
    if (fail_allocations)
        return NULL;
    live_allocations++;
    return calloc(1, n);
}
static void host_free(void *p)
{
    if (p) {
        live_allocations--;
        free(p);
    }
}
void *kmalloc(size_t n) { return host_alloc(n); }
void *kzalloc(size_t n) { return host_alloc(n); }
void kfree(void *p) { host_free(p); }
void *page_alloc(int npages) { return host_alloc((size_t)npages * PAGE_SIZE); }
void page_free(void *p, int npages) { (void)npages; host_free(p); }

static struct task self;
struct task *current_task(void) { return &self; }

static int wakeups, last_wake_flags, sync_wakeups;
bool wake_up_task(struct task *p, int flags)
{
    assert_ptr_equal(p, &self);
    wakeups++;
    sync_wakeups += (flags & WAKE_SYNC) != 0;
    last_wake_flags = flags;
    bool was_asleep = p->state == TASK_SLEEPING;
    p->state = TASK_RUNNING;
    return was_asleep;
}

/* What "the other task" does when we block; each call of schedule() runs it once. */
static void (*other_task)(void);
static int schedules;
void schedule(void)
{
    schedules++;
    assert_int_equal(self.state, TASK_SLEEPING);   /* only a blocking pipe operation gets here */
    assert_non_null(other_task);
    if (schedules > 1000)
        fail_msg("a pipe operation keeps blocking");
    other_task();
}

static int setup(void **state)
{
    (void)state;
    fail_allocations = 0;
    wakeups = schedules = sync_wakeups = 0;
    other_task = NULL;
    self.state = TASK_RUNNING;
    pipe_set_wake_rule(PIPE_WAKE_ASYNC);
    return 0;
}

static void fill(char *buf, uint32_t n, uint32_t from)
{
    for (uint32_t i = 0; i < n; i++)
        buf[i] = (char)((from + i) * 7 + 3);
}
static void expect_bytes(const char *buf, uint32_t n, uint32_t from)
{
    for (uint32_t i = 0; i < n; i++)
        if (buf[i] != (char)((from + i) * 7 + 3))
            fail_msg("byte %u of the stream is wrong", from + i);
}

/* ---- tests ---- */

static void test_ring_is_lazy_and_freed(void **state)
{
    (void)state;
    int before = live_allocations;
    struct pipe_stats s0, s1;
    pipe_get_stats(&s0);
    struct pipe *p = pipe_create(PIPE_DEFAULT_SIZE);
    assert_non_null(p);
    assert_false(pipe_has_ring(p));
    assert_int_equal(live_allocations, before + 1);     /* the struct only */
    char c = 'x';
    assert_int_equal(pipe_write(p, &c, 1), 1);
    assert_true(pipe_has_ring(p));
    pipe_get_stats(&s1);
    assert_int_equal(s1.pipes_live, s0.pipes_live + 1);
    assert_int_equal(s1.rings_live, s0.rings_live + 1);
    pipe_destroy(p);
    pipe_get_stats(&s1);
    assert_int_equal(s1.pipes_live, s0.pipes_live);
    assert_int_equal(s1.rings_live, s0.rings_live);
    assert_int_equal(live_allocations, before);
}

static void test_order_partial_reads_and_wrap(void **state)
{
    (void)state;
    struct pipe *p = pipe_create(4096);
    static char in[8192], out[8192];
    fill(in, sizeof(in), 0);
    /* 3000 in, 2000 out, 3000 in: the second write wraps around the end. */
    assert_int_equal(pipe_write(p, in, 3000), 3000);
    assert_int_equal(pipe_read(p, out, 2000), 2000);
    expect_bytes(out, 2000, 0);
    assert_int_equal(pipe_write(p, in + 3000, 3000), 3000);
    /* A read returns what is there, at most what was asked. */
    assert_int_equal(pipe_read(p, out, 8192), 4000);
    expect_bytes(out, 4000, 2000);
    assert_int_equal(schedules, 0);
    pipe_destroy(p);
}

static void test_sizes_are_checked(void **state)
{
    (void)state;
    assert_null(pipe_create(PIPE_MIN_SIZE - 1));
    assert_null(pipe_create(PIPE_MAX_SIZE + 1));
    struct pipe *p = pipe_create(PIPE_MIN_SIZE);
    assert_non_null(p);
    assert_int_equal(pipe_size(p), PIPE_MIN_SIZE);
    pipe_destroy(p);
}

/* The atomic-write test's other task: empties the ring, which must hold no
 * part of the blocked 200-byte write. */
static struct pipe *shared;
static uint32_t other_pos;
static char other_buf[70000];
/* "The other task" may not sleep (schedule() would recurse), so it asks for
 * exactly what is there: a read asking for more keeps waiting while a writer
 * sleeps (see test_read_waits_for_sleeping_writer). */
static void reader_all(void)
{
    int n = pipe_read(shared, other_buf, 4000);
    assert_int_equal(n, 4000);
    expect_bytes(other_buf, 4000, other_pos);
    other_pos += 4000;
}

static void test_small_write_is_atomic_and_wakes(void **state)
{
    (void)state;
    static char in[8192];
    fill(in, sizeof(in), 0);
    shared = pipe_create(4096);
    other_pos = 0;
    assert_int_equal(pipe_write(shared, in, 4000), 4000);
    /* 96 bytes free: a 200-byte write must wait for room for all of it. */
    other_task = reader_all;
    assert_int_equal(pipe_write(shared, in + 4000, 200), 200);
    assert_int_equal(schedules, 1);
    assert_int_equal(wakeups, 1);                     /* the reader's read woke the writer */
    assert_int_equal(last_wake_flags, 0);             /* at the end of pipe_read: plain (2.4, 2.6.0) */
    assert_int_equal(self.state, TASK_RUNNING);
    static char out[4096];
    assert_int_equal(pipe_read(shared, out, 4096), 200);
    expect_bytes(out, 200, 4000);
    pipe_destroy(shared);
}

/* A write larger than the ring goes in pieces while the other task drains it
 * (a writer sleeps only on a full ring, so asking for one ring's worth never waits). */
static void drain(void)
{
    int n = pipe_read(shared, other_buf + other_pos, MIN(4096u, (uint32_t)sizeof(other_buf) - other_pos));
    assert_true(n > 0);
    other_pos += (uint32_t)n;
}

static void test_large_write_in_pieces(void **state)
{
    (void)state;
    static char in[65471];
    fill(in, sizeof(in), 0);
    shared = pipe_create(4096);
    other_pos = 0;
    other_task = drain;
    assert_int_equal(pipe_write(shared, in, sizeof(in)), (int)sizeof(in));
    assert_true(schedules >= 15);                     /* 65471 bytes through a 4096-byte ring */
    while (other_pos < sizeof(in))
        drain();
    expect_bytes(other_buf, sizeof(in), 0);
    pipe_destroy(shared);
}

/* A reader of an empty pipe sleeps until the other task writes. */
static void writer_5(void)
{
    static char in[5];
    fill(in, 5, 0);
    assert_int_equal(pipe_write(shared, in, 5), 5);
}

static void test_reader_sleeps_and_is_woken(void **state)
{
    (void)state;
    shared = pipe_create(64);
    other_task = writer_5;
    char out[16];
    assert_int_equal(pipe_read(shared, out, sizeof(out)), 5);
    expect_bytes(out, 5, 0);
    assert_int_equal(schedules, 1);
    assert_int_equal(wakeups, 1);
    assert_int_equal(last_wake_flags, 0);             /* "Signal readers asynchronously" */
    /* Woken waiters leave the list: another write wakes nobody. */
    assert_int_equal(pipe_write(shared, out, 5), 5);
    assert_int_equal(wakeups, 1);
    pipe_destroy(shared);
}

static void closer(void) { pipe_close_write(shared); }

static void test_eof_after_data(void **state)
{
    (void)state;
    shared = pipe_create(64);
    char buf[8] = "abc";
    assert_int_equal(pipe_write(shared, buf, 3), 3);
    pipe_close_write(shared);
    assert_int_equal(pipe_read(shared, buf, 8), 3);   /* data first */
    assert_int_equal(pipe_read(shared, buf, 8), 0);   /* then end of file */
    assert_int_equal(pipe_read_full(shared, buf, 8), 0);
    pipe_destroy(shared);
    /* A sleeping reader is woken by the close. */
    shared = pipe_create(64);
    other_task = closer;
    assert_int_equal(pipe_read(shared, buf, 8), 0);
    assert_int_equal(wakeups, 1);
    pipe_destroy(shared);
}

static void test_epipe_and_shutdown(void **state)
{
    (void)state;
    struct pipe *p = pipe_create(64);
    char buf[8] = "abc";
    pipe_close_read(p);
    assert_int_equal(pipe_write(p, buf, 3), PIPE_EPIPE);
    pipe_destroy(p);
    p = pipe_create(64);
    assert_int_equal(pipe_write(p, buf, 3), 3);
    pipe_shutdown(p);
    assert_int_equal(pipe_read(p, buf, 8), PIPE_ESHUTDOWN);   /* even with data left */
    assert_int_equal(pipe_write(p, buf, 3), PIPE_ESHUTDOWN);
    pipe_destroy(p);
}

static void test_allocation_failures(void **state)
{
    (void)state;
    int before = live_allocations;
    struct pipe_stats s0, s1;
    pipe_get_stats(&s0);
    fail_allocations = 1;
    assert_null(pipe_create(64));
    fail_allocations = 0;
    struct pipe *p = pipe_create(4096);
    fail_allocations = 1;                             /* the ring cannot be allocated */
    char c = 'x';
    assert_int_equal(pipe_write(p, &c, 1), PIPE_ENOMEM);
    assert_false(pipe_has_ring(p));
    fail_allocations = 0;
    pipe_get_stats(&s1);
    assert_int_equal(s1.ring_alloc_failures, s0.ring_alloc_failures + 1);
    assert_int_equal(pipe_write(p, &c, 1), 1);        /* works once memory is back */
    pipe_destroy(p);
    assert_int_equal(live_allocations, before);
}

/* pipe_wake=sync: the wake-ups at the end of pipe_read and pipe_write are sync too (2.6.23/24). */
static void test_sync_rule(void **state)
{
    (void)state;
    pipe_set_wake_rule(PIPE_WAKE_SYNC);
    assert_int_equal(pipe_wake_rule(), PIPE_WAKE_SYNC);
    shared = pipe_create(64);
    other_task = writer_5;
    char out[16];
    assert_int_equal(pipe_read(shared, out, 5), 5);   /* sleeps; the writer's wake-up ends its write */
    assert_int_equal(wakeups, 1);
    assert_int_equal(last_wake_flags, WAKE_SYNC);
    pipe_destroy(shared);
}

/* A large write that fills the ring wakes the reader with a sync wake-up
 * before it sleeps (both rules), and its last wake-up follows the rule. */
static void test_sync_before_sleeping(void **state)
{
    (void)state;
    static char in[6000];
    fill(in, sizeof(in), 0);
    for (int rule = PIPE_WAKE_ASYNC; rule <= PIPE_WAKE_SYNC; rule++) {
        pipe_set_wake_rule(rule);
        wakeups = sync_wakeups = schedules = 0;
        shared = pipe_create(4096);
        other_pos = 0;
        other_task = drain;
        /* The reader is asleep on the pipe first: the drain task is "it". */
        assert_int_equal(pipe_write(shared, in, sizeof(in)), (int)sizeof(in));
        assert_int_equal(schedules, 1);               /* 4096 fit, then the writer slept once */
        /* Nobody slept when the writer's wake-ups ran (the stub wakes "self"), but the
         * rule is visible in the flags of the last one. */
        assert_int_equal(last_wake_flags, rule == PIPE_WAKE_SYNC ? WAKE_SYNC : 0);
        while (other_pos < sizeof(in))
            drain();
        expect_bytes(other_buf, sizeof(in), 0);
        pipe_destroy(shared);
    }
}

/* A read that got less than it asked for keeps waiting while a writer sleeps
 * in pipe_write (2.4/2.6 "syscall merging"), and returns at once otherwise. */
static uint32_t merge_reads;
static void reader_partial(void)
{
    /* "The other task" reads 3000 of the 4000 bytes, leaving the writer room. */
    static char buf[3000];
    assert_int_equal(pipe_read(shared, buf, sizeof(buf)), 3000);
    merge_reads++;
}

static void test_read_waits_for_sleeping_writer(void **state)
{
    (void)state;
    static char in[8192], out[8192];
    fill(in, sizeof(in), 0);
    shared = pipe_create(4096);
    /* No writer asleep: a read of 100 with 10 bytes there returns 10 at once. */
    assert_int_equal(pipe_write(shared, in, 10), 10);
    assert_int_equal(pipe_read(shared, out, 100), 10);
    assert_int_equal(schedules, 0);
    pipe_destroy(shared);
    /* The pipe full and our 2000-byte write asleep: the other task reads 3000,
     * our write completes; our counters show one writer sleep. */
    shared = pipe_create(4096);
    assert_int_equal(pipe_write(shared, in, 4000), 4000);
    merge_reads = 0;
    other_task = reader_partial;
    assert_int_equal(pipe_write(shared, in + 4000, 2000), 2000);
    assert_int_equal(merge_reads, 1);
    assert_int_equal(pipe_read(shared, out, 8192), 3000);
    expect_bytes(out, 3000, 3000);
    struct pipe_stats s0, s1;
    pipe_get_stats(&s0);
    pipe_destroy(shared);
    pipe_get_stats(&s1);
    assert_int_equal(s1.writer_sleeps - s0.writer_sleeps, 1);
    assert_int_equal(s1.woken_plain - s0.woken_plain, 1);   /* the other task's read woke us, plain */
    assert_int_equal(s1.woken_sync - s0.woken_sync, 0);
}

/* The counters reach the totals when the pipe is destroyed, by kind. */
static void test_counters(void **state)
{
    (void)state;
    struct pipe_stats s0, s1;
    pipe_get_stats(&s0);
    shared = pipe_create(64);
    other_task = writer_5;
    char out[8];
    assert_int_equal(pipe_read(shared, out, 5), 5);
    pipe_get_stats(&s1);
    assert_int_equal(s1.woken_plain, s0.woken_plain);       /* not yet: still alive */
    pipe_destroy(shared);
    pipe_get_stats(&s1);
    assert_int_equal(s1.woken_plain - s0.woken_plain, 1);
    assert_int_equal(s1.reader_sleeps - s0.reader_sleeps, 1);
    assert_int_equal(s1.writer_sleeps - s0.writer_sleeps, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_ring_is_lazy_and_freed, setup),
        cmocka_unit_test_setup(test_order_partial_reads_and_wrap, setup),
        cmocka_unit_test_setup(test_sizes_are_checked, setup),
        cmocka_unit_test_setup(test_small_write_is_atomic_and_wakes, setup),
        cmocka_unit_test_setup(test_large_write_in_pieces, setup),
        cmocka_unit_test_setup(test_reader_sleeps_and_is_woken, setup),
        cmocka_unit_test_setup(test_eof_after_data, setup),
        cmocka_unit_test_setup(test_epipe_and_shutdown, setup),
        cmocka_unit_test_setup(test_allocation_failures, setup),
        cmocka_unit_test_setup(test_sync_rule, setup),
        cmocka_unit_test_setup(test_sync_before_sleeping, setup),
        cmocka_unit_test_setup(test_read_waits_for_sleeping_writer, setup),
        cmocka_unit_test_setup(test_counters, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
