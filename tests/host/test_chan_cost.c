/* The cost model's tables (kernel/chan_cost.c): the names cost= accepts,
 * each era figure as docs/cost-model.md derives it, what the boot line's
 * charged= says, the vsmp IPI default, and the per-call charges. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/chan_cost.h"

static void test_names(void **state)
{
    (void)state;
    const char *want[] = { "none", "linux61", "era2003", "era2007" };
    for (int i = 0; i < 4; i++)
        assert_string_equal(chan_cost_names[i], want[i]);
    assert_null(chan_cost_names[4]);
    assert_string_equal(cost_event_names[COST_CR3], "cr3");
    assert_string_equal(cost_event_names[COST_MIGRATE], "migrate");
    assert_string_equal(cost_event_names[COST_TCP], "tcp");
    assert_null(cost_event_names[COST_EVENTS]);
}

static void test_era_figures(void **state)
{
    (void)state;
    const struct chan_cost_budget *b = chan_cost_budget_of(CHAN_COST_ERA2003);
    assert_int_equal(b->event[COST_CR3], 1006);       /* 6 pages x (158.9 + 8.8) ns */
    assert_int_equal(b->event[COST_MIGRATE], 19302);  /* 128 lines x 150.8 ns */
    assert_int_equal(b->event[COST_LOCK], 159);
    assert_int_equal(b->event[COST_IPI_IDLE], 1660);  /* 1,260 + 400 */
    assert_int_equal(b->event[COST_IPI_BUSY], 400);
    assert_int_equal(b->event[COST_TCP], 7380);       /* (lat_tcp 23.4 - lat_unix 8.64 us) / 2 */
    assert_int_equal(b->tcp_per_kib, 4286);           /* 1,024 x (1/132 - 1/295) us */
    assert_int_equal(b->syscall_ns, 400);
    assert_int_equal(b->ipi_ns, 1660);
    b = chan_cost_budget_of(CHAN_COST_ERA2007);
    assert_int_equal(b->event[COST_CR3], 119);
    assert_int_equal(b->event[COST_MIGRATE], 2336);
    assert_int_equal(b->event[COST_LOCK], 37);
    assert_int_equal(b->event[COST_IPI_IDLE], 1000);
    assert_int_equal(b->event[COST_IPI_BUSY], 267);
    assert_int_equal(b->event[COST_TCP], 0);          /* no TCP figure for the Core 2 */
    assert_int_equal(b->tcp_per_kib, 0);
    assert_int_equal(b->ipi_ns, 1000);
    /* none and linux61 charge no machine events and give vsmp no IPI figure */
    for (int m = CHAN_COST_NONE; m <= CHAN_COST_LINUX61; m++) {
        b = chan_cost_budget_of(m);
        for (int e = 0; e < COST_EVENTS; e++)
            assert_int_equal(b->event[e], 0);
        assert_int_equal(b->ipi_ns, 0);
    }
    assert_ptr_equal(chan_cost_budget_of(99), chan_cost_budget_of(CHAN_COST_NONE));
}

static void test_describe_and_switches(void **state)
{
    (void)state;
    char buf[200];
    chan_cost_set(CHAN_COST_NONE);
    chan_cost_describe(buf, sizeof(buf));
    assert_string_equal(buf, "none");
    assert_false(cost_switch_on || cost_lock_on || cost_ipi_on || cost_calls_on);
    assert_int_equal(chan_cost_ipi_ns(), 0);

    chan_cost_set(CHAN_COST_LINUX61);
    chan_cost_describe(buf, sizeof(buf));
    assert_string_equal(buf, "pipe_call:2501,sock_call:3740");
    assert_true(cost_calls_on);
    assert_false(cost_switch_on || cost_lock_on || cost_ipi_on || cost_tcp_on);

    chan_cost_set(CHAN_COST_ERA2003);
    assert_int_equal(chan_cost_model(), CHAN_COST_ERA2003);
    chan_cost_describe(buf, sizeof(buf));
    assert_string_equal(buf, "cr3:1006,migrate:19302,lock:159,ipi_idle:1660,ipi_busy:400,tcp_skb:7380,tcp_kib:4286");
    assert_true(cost_switch_on && cost_lock_on && cost_ipi_on && cost_tcp_on);
    assert_false(cost_calls_on);                      /* no entry/exit per call (docs/cost-model.md) */
    assert_int_equal(chan_cost_ipi_ns(), 1660);
    cost_ipi_on = 0;                                  /* what kernel/main.c does under vsmp */
    chan_cost_describe(buf, sizeof(buf));
    assert_string_equal(buf, "cr3:1006,migrate:19302,lock:159,tcp_skb:7380,tcp_kib:4286");

    chan_cost_set(CHAN_COST_ERA2007);
    chan_cost_describe(buf, sizeof(buf));
    assert_string_equal(buf, "cr3:119,migrate:2336,lock:37,ipi_idle:1000,ipi_busy:267");
    assert_false(cost_tcp_on);
    chan_cost_set(-1);
    assert_int_equal(chan_cost_model(), CHAN_COST_NONE);
}

static void test_call_charges(void **state)
{
    (void)state;
    chan_cost_set(CHAN_COST_NONE);
    uint64_t before = chan_cost_charged();
    chan_cost_pipe(100);
    chan_cost_sock(100, 1);
    assert_true(chan_cost_charged() == before);
    chan_cost_set(CHAN_COST_LINUX61);
    chan_cost_pipe(4);
    chan_cost_sock(100, 1);
    assert_true(chan_cost_charged() == before + 2501 + 3740);
    chan_cost_tcp(100, 1);                            /* linux61 has no TCP figure */
    assert_true(chan_cost_charged() == before + 2501 + 3740);
    chan_cost_set(CHAN_COST_ERA2003);
    chan_cost_pipe(4);
    assert_true(chan_cost_charged() == before + 2501 + 3740);
    before = chan_cost_charged();
    chan_cost_tcp(55, 1);                             /* a tbench request: one segment, 55 bytes */
    assert_true(chan_cost_charged() == before + 7380 + 55 * 4286 / 1024);
    before = chan_cost_charged();
    chan_cost_tcp(65475, 5);                          /* the largest reply: five skbs of at most 16,320 */
    assert_true(chan_cost_charged() == before + 5 * 7380 + (uint64_t)65475 * 4286 / 1024);
    chan_cost_set(CHAN_COST_NONE);
    before = chan_cost_charged();
    chan_cost_tcp(100, 1);
    assert_true(chan_cost_charged() == before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_era_figures),
        cmocka_unit_test(test_describe_and_switches),
        cmocka_unit_test(test_call_charges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
