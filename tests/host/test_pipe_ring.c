/*
 * Host tests of kernel/pipe.c: the byte ring (order, wrap-around, atomic
 * writes, writes larger than the ring), end of file, EPIPE, shutdown, lazy
 * ring allocation, allocation failures, and the wake-ups.
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

static int wakeups, last_wake_flags;
bool wake_up_task(struct task *p, int flags)
{
    assert_ptr_equal(p, &self);
    wakeups++;
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
    wakeups = schedules = 0;
    other_task = NULL;
    self.state = TASK_RUNNING;
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
static void reader_all(void)
{
    int n = pipe_read(shared, other_buf, sizeof(other_buf));
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
    assert_int_equal(last_wake_flags, WAKE_SYNC);
    assert_int_equal(self.state, TASK_RUNNING);
    static char out[4096];
    assert_int_equal(pipe_read(shared, out, 4096), 200);
    expect_bytes(out, 200, 4000);
    pipe_destroy(shared);
}

/* A write larger than the ring goes in pieces while the other task drains it. */
static void drain(void)
{
    int n = pipe_read(shared, other_buf + other_pos, sizeof(other_buf) - other_pos);
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
    assert_int_equal(last_wake_flags, WAKE_SYNC);
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
    struct socketpair sp;
    assert_int_equal(socketpair_create(&sp, 64), PIPE_ENOMEM);
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

static void test_socketpair_directions(void **state)
{
    (void)state;
    struct socketpair sp;
    assert_int_equal(socketpair_create(&sp, 256), 0);
    char buf[8];
    assert_int_equal(socket_write(&sp, 1, "to0", 3), 3);
    assert_int_equal(socket_write(&sp, 0, "to1!", 4), 4);
    assert_int_equal(socket_read(&sp, 0, buf, 8), 3);
    assert_memory_equal(buf, "to0", 3);
    assert_int_equal(socket_read_full(&sp, 1, buf, 4), 4);
    assert_memory_equal(buf, "to1!", 4);
    socket_close(&sp, 0);                             /* end 1 reads EOF, its writes fail */
    assert_int_equal(socket_read(&sp, 1, buf, 8), 0);
    assert_int_equal(socket_write(&sp, 1, "x", 1), PIPE_EPIPE);
    socketpair_destroy(&sp);
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
        cmocka_unit_test_setup(test_socketpair_directions, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
