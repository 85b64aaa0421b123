/*
 * Host tests of kernel/unix_sock.c, the AF_UNIX stream socket pair: the
 * truesize and sndbuf of each sock_model, the capacity (how many 100-byte
 * hackbench messages fit before a sender sleeps), the writability threshold
 * (a sleeping sender is woken exactly when at most a quarter of sndbuf is
 * in use, plain or sync by model), plain reader wake-ups, the credentials
 * rule of stream reads, partial reads, chunking of large sends, close,
 * shutdown, allocation failures and the counters.
 *
 * As in test_pipe_ring.c, the scheduler is stubbed: schedule() - reached
 * only when an operation must block - runs a scripted action of "the other
 * task" (with current_task() switched to it, so its credentials differ) and
 * returns, as if it had run meanwhile.  wake_up_task() records the wake-ups.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../kernel/unix_sock.h"
#include "../../kernel/chan_cost.h"
#include "../../kernel/mem.h"
#include "../../kernel/task.h"
#include "../../kernel/sched_core.h"
#include "../../sched/sched.h"

/* ---- stubs ---- */

static int fail_allocations, live_allocations;
static void *host_alloc(size_t n)
{
    if (fail_allocations)
        return NULL;
    live_allocations++;
    return calloc(1, n);
}
void *kmalloc(size_t n) { return host_alloc(n); }
void *kzalloc(size_t n) { return host_alloc(n); }
void kfree(void *p)
{
    if (p) {
        live_allocations--;
        free(p);
    }
}

static struct task self = { .pid = 1 }, other = { .pid = 2 }, third = { .pid = 3 };
static struct task *current = &self;
struct task *current_task(void) { return current; }

static int wakeups, sync_wakeups, last_wake_flags;
bool wake_up_task(struct task *p, int flags)
{
    assert_ptr_equal(p, &self);               /* only "self" ever sleeps here */
    wakeups++;
    sync_wakeups += (flags & WAKE_SYNC) != 0;
    last_wake_flags = flags;
    bool was_asleep = p->state == TASK_SLEEPING;
    p->state = TASK_RUNNING;
    return was_asleep;
}

static void (*other_task)(void);
static int schedules;
void schedule(void)
{
    schedules++;
    assert_ptr_equal(current, &self);
    assert_int_equal(self.state, TASK_SLEEPING);
    assert_non_null(other_task);
    if (schedules > 1000)
        fail_msg("an operation keeps blocking");
    current = &other;
    other_task();
    current = &self;
}

static struct unix_pair pair;
static int setup(void **state)
{
    (void)state;
    fail_allocations = wakeups = sync_wakeups = schedules = 0;
    last_wake_flags = -1;
    other_task = NULL;
    current = &self;
    self.state = TASK_RUNNING;
    unix_set_model(UNIX_MODEL_2_6_0);
    return 0;
}

static void fill(char *buf, uint32_t n, uint32_t from)
{
    for (uint32_t i = 0; i < n; i++)
        buf[i] = (char)((from + i) * 13 + 5);
}
static void expect_bytes(const char *buf, uint32_t n, uint32_t from)
{
    for (uint32_t i = 0; i < n; i++)
        if (buf[i] != (char)((from + i) * 13 + 5))
            fail_msg("byte %u of the stream is wrong", from + i);
}

/* ---- the model's constants ---- */

static void test_truesize_and_sndbuf(void **state)
{
    (void)state;
    static const struct {
        int model;
        uint32_t t100, t1, t16320, sndbuf;
        bool sync;
    } want[] = {
        /* SKB_DATA_ALIGN(100) = 128 at 32 and at 128 bytes per line. */
        { UNIX_MODEL_2_4_18, 128 + 144, 32 + 144, 16320 + 144, 65535, false },
        { UNIX_MODEL_2_6_0, 128 + 152, 32 + 152, 16320 + 152, 65535, false },
        { UNIX_MODEL_2_6_24, 128 + 156, 128 + 156, 16384 + 156, (156 + 256) * 256, true },
    };
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        unix_set_model(want[i].model);
        assert_int_equal(unix_model(), want[i].model);
        assert_int_equal(unix_truesize(100), want[i].t100);
        assert_int_equal(unix_truesize(1), want[i].t1);
        assert_int_equal(unix_truesize(16320), want[i].t16320);
        assert_int_equal(unix_model_params()->sndbuf, want[i].sndbuf);
        assert_int_equal(unix_model_params()->write_space_sync, want[i].sync);
        assert_int_equal(unix_socketpair(&pair), 0);
        assert_int_equal(unix_sndbuf(pair.sk[1]), want[i].sndbuf);
        unix_pair_destroy(&pair);
    }
    unix_set_model(7);                          /* out of range: ignored */
    assert_int_equal(unix_model(), UNIX_MODEL_2_6_24);
}

/* ---- capacity and the writability threshold ---- */

/* The reader drains the receiver socket one 100-byte message at a time
 * until the sleeping sender is woken; it records how many it read then. */
static int reads_until_woken, queued_when_woken, wmem_when_woken;
static void reader_until_woken(void)
{
    char buf[100];
    while (wakeups == 0) {
        int queued = (int)unix_queued_skbs(pair.sk[0]);
        if (queued == 0)
            fail_msg("the queue ran empty and the sender was never woken");
        assert_int_equal(unix_recv(pair.sk[0], buf, sizeof(buf), 0), 100);
        reads_until_woken++;
        /* Not woken while more than a quarter of sndbuf is in use. */
        if (wakeups == 0)
            assert_false(unix_writable(pair.sk[1]));
    }
    queued_when_woken = (int)unix_queued_skbs(pair.sk[0]);
    wmem_when_woken = (int)unix_wmem_alloc(pair.sk[1]);
}

static void capacity_case(int model, uint32_t fit, uint32_t woken_at, bool sync)
{
    unix_set_model(model);
    wakeups = sync_wakeups = schedules = reads_until_woken = 0;
    assert_int_equal(unix_socketpair(&pair), 0);
    struct unix_sock *rx = pair.sk[0], *tx = pair.sk[1];
    char msg[100];
    fill(msg, sizeof(msg), 0);
    other_task = reader_until_woken;
    uint32_t sent = 0;
    /* Send until the first send that had to sleep. */
    while (schedules == 0) {
        assert_int_equal(unix_send(tx, msg, sizeof(msg)), 100);
        sent++;
        if (sent > 1000)
            fail_msg("the sender never blocked");
    }
    uint32_t truesize = unix_truesize(100);
    /* sent - 1 messages were queued before the blocking send: admitted while wmem_alloc < sndbuf. */
    assert_int_equal(sent - 1, fit);
    assert_true((fit - 1) * truesize < unix_sndbuf(tx));
    assert_true(fit * truesize >= unix_sndbuf(tx));
    /* The sender was woken by the free that left woken_at skbs queued: (wmem << 2) <= sndbuf. */
    assert_int_equal(queued_when_woken, (int)woken_at);
    assert_int_equal(reads_until_woken, (int)(fit - woken_at));
    assert_int_equal(wmem_when_woken, (int)(woken_at * truesize));
    assert_true(((woken_at + 1) * truesize) << 2 > unix_sndbuf(tx));
    assert_true((woken_at * truesize) << 2 <= unix_sndbuf(tx));
    assert_int_equal(wakeups, 1);
    assert_int_equal(last_wake_flags, sync ? WAKE_SYNC : 0);
    /* After the wake-up the blocked message went in. */
    assert_int_equal(unix_queued_skbs(rx), woken_at + 1);
    assert_int_equal(unix_wmem_alloc(tx), (woken_at + 1) * truesize);
    struct unix_stats s0, s1;
    unix_get_stats(&s0);
    unix_pair_destroy(&pair);
    unix_get_stats(&s1);
    assert_int_equal(s1.writer_sleeps - s0.writer_sleeps, 1);
    assert_int_equal(s1.skbs_sent - s0.skbs_sent, sent);
    assert_int_equal(s1.max_queued >= fit, true);
    assert_int_equal((s1.woken_sync - s0.woken_sync), sync ? 1 : 0);
    assert_int_equal((s1.woken_plain - s0.woken_plain), sync ? 0 : 1);
}

/* 2.4.18: truesize 272, 241 messages fit 65535; writable again at 60 queued (16320 <= 16383). */
static void test_capacity_2_4_18(void **state)
{
    (void)state;
    capacity_case(UNIX_MODEL_2_4_18, 241, 60, false);
}
/* 2.6.0: truesize 280: 235 fit; writable at 58. */
static void test_capacity_2_6_0(void **state)
{
    (void)state;
    capacity_case(UNIX_MODEL_2_6_0, 235, 58, false);
}
/* 2.6.24: truesize 284, sndbuf 105472: 372 fit; writable at 92; the writer's wake-up is sync. */
static void test_capacity_2_6_24(void **state)
{
    (void)state;
    capacity_case(UNIX_MODEL_2_6_24, 372, 92, true);
}

/* ---- reading ---- */

/* Another task queues 5 bytes while we sleep on an empty socket: a plain wake-up (sock_def_readable). */
static void sender_5(void)
{
    char in[5];
    fill(in, 5, 0);
    assert_int_equal(unix_send(pair.sk[1], in, 5), 5);
}

static void test_reader_wake_is_plain(void **state)
{
    (void)state;
    for (int model = UNIX_MODEL_2_4_18; model <= UNIX_MODEL_2_6_24; model++) {
        unix_set_model(model);
        wakeups = schedules = 0;
        assert_int_equal(unix_socketpair(&pair), 0);
        other_task = sender_5;
        char out[16];
        assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 5);
        expect_bytes(out, 5, 0);
        assert_int_equal(schedules, 1);
        assert_int_equal(wakeups, 1);
        assert_int_equal(last_wake_flags, 0);
        unix_pair_destroy(&pair);
    }
}

/* Never glue messages from different writers; one writer's are glued. */
static void test_credentials(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char in[200], out[200];
    fill(in, sizeof(in), 0);
    current = &other;
    assert_int_equal(unix_send(pair.sk[1], in, 50), 50);
    current = &third;
    assert_int_equal(unix_send(pair.sk[1], in + 50, 50), 50);
    current = &self;
    assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 50);     /* the first writer's only */
    expect_bytes(out, 50, 0);
    assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 50);
    expect_bytes(out, 50, 50);
    /* The same writer twice: one read takes both skbs. */
    current = &other;
    assert_int_equal(unix_send(pair.sk[1], in, 60), 60);
    assert_int_equal(unix_send(pair.sk[1], in + 60, 40), 40);
    current = &self;
    assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 100);
    expect_bytes(out, 100, 0);
    unix_pair_destroy(&pair);
}

/* A read asking for less than an skb leaves the rest at the head; the
 * writer's truesize is released only when the whole skb is read. */
static void test_partial_read(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char in[100], out[100];
    fill(in, sizeof(in), 0);
    assert_int_equal(unix_send(pair.sk[1], in, 100), 100);
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), unix_truesize(100));
    assert_int_equal(unix_recv(pair.sk[0], out, 30, 0), 30);
    expect_bytes(out, 30, 0);
    assert_int_equal(unix_queued_skbs(pair.sk[0]), 1);
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), unix_truesize(100));
    assert_int_equal(unix_recv(pair.sk[0], out, 100, 0), 70);
    expect_bytes(out, 70, 30);
    assert_int_equal(unix_queued_skbs(pair.sk[0]), 0);
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), 0);
    unix_pair_destroy(&pair);
}

/* MSG_WAITALL: the reader sleeps until all n bytes are there. */
static void sender_rest(void)
{
    char in[60];
    fill(in, 60, 40);
    assert_int_equal(unix_send(pair.sk[1], in, 60), 60);
}

static void test_waitall(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char in[40], out[100];
    fill(in, 40, 0);
    current = &other;                            /* the same writer as sender_rest: creds match */
    assert_int_equal(unix_send(pair.sk[1], in, 40), 40);
    current = &self;
    other_task = sender_rest;
    assert_int_equal(unix_recv(pair.sk[0], out, 100, UNIX_WAITALL), 100);
    expect_bytes(out, 100, 0);
    assert_int_equal(schedules, 1);
    unix_pair_destroy(&pair);
}

/* A send larger than one skb goes in chunks of min(sndbuf/2 - 64, SKB_MAX_ALLOC). */
static void test_large_send_chunks(void **state)
{
    (void)state;
    unix_set_model(UNIX_MODEL_2_4_18);
    assert_int_equal(unix_socketpair(&pair), 0);
    static char in[40000], out[40000];
    fill(in, sizeof(in), 0);
    struct unix_stats s0, s1;
    unix_get_stats(&s0);
    assert_int_equal(unix_send(pair.sk[1], in, sizeof(in)), (int)sizeof(in));
    assert_int_equal(unix_queued_skbs(pair.sk[0]), 3);                  /* 16320 + 16320 + 7360 */
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), 2 * unix_truesize(16320) + unix_truesize(7360));
    uint32_t got = 0;
    while (got < sizeof(in)) {
        int n = unix_recv(pair.sk[0], out + got, sizeof(out) - got, 0);
        assert_true(n > 0);
        got += (uint32_t)n;
    }
    expect_bytes(out, sizeof(out), 0);
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), 0);
    unix_pair_destroy(&pair);
    unix_get_stats(&s1);
    assert_int_equal(s1.skbs_sent - s0.skbs_sent, 3);
}

/* A pair that stands for TCP over loopback pays cost=era2003's TCP figure
 * per skb and per KiB it sends, either end; a plain pair does not. */
static void test_tcp_pair_charges(void **state)
{
    (void)state;
    unix_set_model(UNIX_MODEL_2_4_18);
    chan_cost_set(CHAN_COST_ERA2003);
    static char in[40000], out[40000];
    fill(in, sizeof(in), 0);
    for (int tcp = 0; tcp <= 1; tcp++) {
        assert_int_equal(unix_socketpair(&pair), 0);
        if (tcp)
            unix_pair_model_tcp(&pair);
        for (int end = 0; end <= 1; end++) {
            uint64_t before = chan_cost_charged();
            assert_int_equal(unix_send(pair.sk[end], in, sizeof(in)), (int)sizeof(in));   /* three skbs */
            uint64_t want = tcp ? 3 * 7380 + (uint64_t)sizeof(in) * 4286 / 1024 : 0;
            assert_true(chan_cost_charged() - before == want);
            uint32_t got = 0;
            while (got < sizeof(in)) {
                int n = unix_recv(pair.sk[!end], out + got, sizeof(out) - got, 0);
                assert_true(n > 0);
                got += (uint32_t)n;
            }
            expect_bytes(out, sizeof(out), 0);
        }
        unix_pair_destroy(&pair);
    }
    chan_cost_set(CHAN_COST_NONE);
}

/* ---- closing, shutdown, memory ---- */

static void test_close(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char buf[16] = "abc";
    assert_int_equal(unix_send(pair.sk[1], buf, 3), 3);
    unix_close(pair.sk[1]);                              /* the senders' end goes */
    assert_int_equal(unix_recv(pair.sk[0], buf, 16, 0), 3);   /* data first */
    assert_int_equal(unix_recv(pair.sk[0], buf, 16, 0), 0);   /* then end of file */
    assert_int_equal(unix_send(pair.sk[0], buf, 3), PIPE_EPIPE);
    unix_pair_destroy(&pair);
}

static void closer(void) { unix_close(pair.sk[1]); }

static void test_close_wakes_reader(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    other_task = closer;
    char buf[8];
    assert_int_equal(unix_recv(pair.sk[0], buf, 8, 0), 0);
    assert_int_equal(wakeups, 1);
    unix_pair_destroy(&pair);
}

static void test_shutdown(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char buf[8] = "abc";
    assert_int_equal(unix_send(pair.sk[1], buf, 3), 3);
    unix_shutdown(pair.sk[0]);
    assert_int_equal(unix_recv(pair.sk[0], buf, 8, 0), PIPE_ESHUTDOWN);   /* even with data queued */
    assert_int_equal(unix_send(pair.sk[1], buf, 3), PIPE_ESHUTDOWN);
    assert_int_equal(unix_send(pair.sk[0], buf, 3), PIPE_ESHUTDOWN);
    unix_pair_destroy(&pair);
}

static void test_allocation_failures_and_leaks(void **state)
{
    (void)state;
    int before = live_allocations;
    struct unix_stats s0, s1;
    unix_get_stats(&s0);
    fail_allocations = 1;
    assert_int_equal(unix_socketpair(&pair), PIPE_ENOMEM);
    fail_allocations = 0;
    assert_int_equal(unix_socketpair(&pair), 0);
    char buf[2000];
    fill(buf, sizeof(buf), 0);
    fail_allocations = 1;                               /* the skb cannot be allocated */
    assert_int_equal(unix_send(pair.sk[1], buf, sizeof(buf)), PIPE_ENOMEM);
    assert_int_equal(unix_wmem_alloc(pair.sk[1]), 0);   /* its charge was given back */
    fail_allocations = 0;
    unix_get_stats(&s1);
    assert_int_equal(s1.skb_alloc_failures, s0.skb_alloc_failures + 1);
    /* Queued skbs and the sockets' free lists are freed with the pair. */
    assert_int_equal(unix_send(pair.sk[1], buf, sizeof(buf)), (int)sizeof(buf));
    assert_int_equal(unix_send(pair.sk[1], buf, 100), 100);
    unix_pair_destroy(&pair);
    unix_get_stats(&s1);
    assert_int_equal(s1.socks_live, s0.socks_live);
    assert_int_equal(s1.skbs_live, s0.skbs_live);
    assert_int_equal(live_allocations, before);
}

/* A freed skb stays with its receiving socket for the next send: no heap
 * allocation per message once the queue has been as deep as it gets. */
static void test_skbs_reused(void **state)
{
    (void)state;
    assert_int_equal(unix_socketpair(&pair), 0);
    char msg[100], out[100];
    fill(msg, sizeof(msg), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(unix_send(pair.sk[1], msg, sizeof(msg)), 100);
    for (int i = 0; i < 3; i++)
        assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 100);
    int live = live_allocations;
    for (int round = 0; round < 10; round++) {
        for (int i = 0; i < 3; i++)
            assert_int_equal(unix_send(pair.sk[1], msg, sizeof(msg)), 100);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(unix_recv(pair.sk[0], out, sizeof(out), 0), 100);
            expect_bytes(out, 100, 0);
        }
    }
    assert_int_equal(live_allocations, live);
    unix_pair_destroy(&pair);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_truesize_and_sndbuf, setup),
        cmocka_unit_test_setup(test_capacity_2_4_18, setup),
        cmocka_unit_test_setup(test_capacity_2_6_0, setup),
        cmocka_unit_test_setup(test_capacity_2_6_24, setup),
        cmocka_unit_test_setup(test_reader_wake_is_plain, setup),
        cmocka_unit_test_setup(test_credentials, setup),
        cmocka_unit_test_setup(test_partial_read, setup),
        cmocka_unit_test_setup(test_waitall, setup),
        cmocka_unit_test_setup(test_large_send_chunks, setup),
        cmocka_unit_test_setup(test_tcp_pair_charges, setup),
        cmocka_unit_test_setup(test_close, setup),
        cmocka_unit_test_setup(test_close_wakes_reader, setup),
        cmocka_unit_test_setup(test_shutdown, setup),
        cmocka_unit_test_setup(test_allocation_failures_and_leaks, setup),
        cmocka_unit_test_setup(test_skbs_reused, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
