/*
 * Tracing (kernel/trace.c) on the real scheduler core over simulated CPUs
 * (simenv.h), with CFS (whose pick_next emits a sched_trace_event), read
 * back by the host tool's own reader (tools/src/trace/trace_data.c) and checked
 * by its checker (trace_stats.c), the same code tools/schedlab trace runs.
 *   - a seeded random mix of everything the core does (fork, block, wake,
 *     tick, yield, nice, affinity, exit) traced on 2 and 4 CPUs keeps every
 *     invariant: each switch's prev is the previous switch's next on its
 *     CPU, a blocked task runs again only after a wake-up that comes first,
 *     no task runs on two CPUs, each exited task's slices add up to the
 *     kernel's own count, and every task's runtime in the trace is the
 *     core's task_runtime_ns;
 *   - the switches, wake-ups and migrations per CPU are the core's counters;
 *   - the text round trip gives back the same events;
 *   - a tiny buffer keeps the newest records, counts the dropped ones and
 *     never blocks; the event filter records only what it names;
 *   - the stream is rejected when cut off or corrupt.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "simenv.h"
#include "../../kernel/trace.h"
#include "trace_data.h"

#define ALL 0

static struct trace_record bufs_mem[4][1 << 14];
static uint32_t cpu_table[TRACE_CPU_SLOTS];

static void start(int ncpus, uint32_t events, uint32_t capacity)
{
    trace_host_reset();
    sim_init(ncpus);
    struct trace_record *bufs[4];
    for (int c = 0; c < ncpus; c++)
        bufs[c] = bufs_mem[c];
    trace_start(events, bufs, capacity, ncpus, cpu_table);
}

struct membuf {
    unsigned char *p;
    size_t len, cap;
};

static void to_mem(const void *data, size_t n, void *arg)
{
    struct membuf *m = arg;
    if (m->len + n > m->cap) {
        m->cap = (m->len + n) * 2;
        m->p = realloc(m->p, m->cap);
        assert_non_null(m->p);
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
}

/* Stop, write the stream and read it back with the host tool's reader. */
static struct membuf stop_and_read(struct trace *t)
{
    trace_stop();
    struct membuf m = { 0 };
    uint64_t bytes = trace_write_stream(to_mem, &m, scheduler.name, "bench=sim trace=1", HZ, 1000000);
    assert_int_equal(bytes, m.len);
    char *err = NULL;
    if (!trace_parse_stream(m.p, m.len, t, &err))
        fail_msg("the stream does not read back: %s", err);
    return m;
}

/* ---- the random mix (as the conformance suite's, with time between steps) ---- */

static unsigned int rnd_state;
static unsigned int rnd(unsigned int n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

static cpumask_t random_mask(int ncpus)
{
    cpumask_t m = 0;
    while (!m)
        m = rnd(1u << ncpus);
    return m;
}

/* simenv's driver, with the clock moving between one CPU's action and the
 * next, as a real clock does: a wake-up and the switch-in it causes on
 * another CPU never share a timestamp (ftrace's merged order needs that). */
static void pending(void)
{
    for (int round = 0; round < 8; round++) {
        bool any = false;
        for (int cpu = 0; cpu < ncpus_online; cpu++)
            if (cpus[cpu].need_resched) {
                sim_advance(1);
                sim_schedule(cpu);
                any = true;
            }
        if (!any)
            return;
    }
}

static void tick(void)
{
    sim_advance(SIM_TICK_NS);
    jiffies++;
    for (int cpu = 0; cpu < ncpus_online; cpu++) {
        sim_advance(1);
        sim_on_cpu(cpu);
        sched_tick();
        sim_advance(1);
        if (cpus[cpu].need_resched)
            schedule();
    }
    pending();
}

static void ticks(int n)
{
    for (int i = 0; i < n; i++)
        tick();
}

static void random_step(int ncpus)
{
    int cpu = (int)rnd((unsigned)ncpus);
    struct task *curr = sim_curr(cpu);
    int n = sim_task_count();
    struct task *any = n ? sim_task((int)rnd((unsigned)n)) : NULL;
    sim_advance(1 + rnd(40000));
    switch (rnd(10)) {
    case 0:
        if (n < 100) {
            sim_spawn("r", (int)rnd(40) - 20, rnd(3) ? ALL : random_mask(ncpus), curr->is_idle ? NULL : curr, cpu);
            pending();
        }
        break;
    case 1:
        if (!curr->is_idle)
            sim_block(cpu);
        break;
    case 2:
    case 3:
        if (any && any->state == TASK_SLEEPING) {
            sim_wake(any, cpu, rnd(2) ? WAKE_SYNC : 0);
            pending();
        }
        break;
    case 4:
        if (!curr->is_idle && rnd(6) == 0)
            sim_exit_task(cpu);
        break;
    case 5:
        if (!curr->is_idle)
            sim_yield(cpu);
        break;
    case 6:
        if (any && any->state != TASK_DEAD) {
            sim_on_cpu(any->cpu);
            sched_set_nice(any, (int)rnd(40) - 20);
            pending();
        }
        break;
    case 7:
        if (any && any->state != TASK_DEAD) {
            sim_on_cpu(any->cpu);     /* from its own CPU, as simenv's sim_set_affinity */
            sched_set_affinity(any, random_mask(ncpus));
            pending();
        }
        break;
    default:
        ticks(1 + (int)rnd(3));
        break;
    }
}

static void run_mix(int ncpus, unsigned seed, int steps)
{
    rnd_state = seed;
    for (int i = 0; i < 6; i++) {
        sim_advance(1);
        sim_spawn("s", 0, ALL, NULL, i % ncpus);
    }
    pending();
    for (int step = 0; step < steps; step++) {
        random_step(ncpus);
        const char *why = sim_check_invariants();
        if (why)
            fail_msg("seed %u, step %d: %s", seed, step, why);
    }
}

/* The console lines the kernel prints at the end (schedstat, tracestat), from the same counters. */
static char *console_of(int ncpus)
{
    static char log[4096];
    size_t n = 0;
    for (int c = 0; c < ncpus; c++) {
        uint64_t w, d;
        trace_cpu_counts(c, &w, &d);
        n += (size_t)snprintf(log + n, sizeof(log) - n,
                              "schedstat cpu=%d sched=%s context_switches=%llu migrations=%llu wakeups=%llu\n"
                              "tracestat cpu=%d events=%llu kept=%llu dropped=%llu\n",
                              c, scheduler.name, (unsigned long long)cpus[c].stats.context_switches,
                              (unsigned long long)cpus[c].stats.migrations, (unsigned long long)cpus[c].stats.wakeups, c,
                              (unsigned long long)w, (unsigned long long)(w - d), (unsigned long long)d);
    }
    return log;
}

static void check_all(int ncpus, const struct trace *t)
{
    char *report = NULL;
    size_t rlen = 0;
    FILE *out = open_memstream(&report, &rlen);
    size_t bad = trace_check_invariants(t, out, 10);
    bad += trace_check_against_log(t, console_of(ncpus), out);
    fclose(out);
    if (bad)
        fail_msg("%zu violations:\n%s", bad, report);
    free(report);
    /* Every task's CPU time in the trace is the core's. */
    struct trace_analysis a;
    trace_analyze(t, &a);
    for (int i = 0; i < sim_task_count(); i++) {
        struct task *p = sim_task(i);
        struct trace_task *tt = trace_find_task(&a, p->pid);
        uint64_t want = p->exited ? p->runtime_ns : sim_runtime_ns(p);
        uint64_t got = tt ? tt->runtime_ns : 0;
        if (got != want)
            fail_msg("pid %d (%s): %llu ns in the trace, %llu in the core", p->pid, p->name, (unsigned long long)got,
                     (unsigned long long)want);
    }
    trace_analysis_free(&a);
}

static void traced_mix(int ncpus, unsigned seed)
{
    start(ncpus, TRACE_ALL_TYPES, 1 << 14);
    run_mix(ncpus, seed, 4000);
    struct trace t;
    struct membuf m = stop_and_read(&t);
    assert_true(t.nev > 1000);
    for (int c = 0; c < ncpus; c++)
        assert_int_equal(t.cpu[c].dropped, 0);
    check_all(ncpus, &t);
    uint64_t per[TRACE_NR_TYPES] = { 0 };
    for (size_t i = 0; i < t.nev; i++)
        per[t.ev[i].type]++;
    for (int ty = 0; ty < TRACE_NR_TYPES; ty++)
        if (!per[ty] && ty != TRACE_MEMSTALL)   /* the memory model's (kernel/machine/), not the core's */
            fail_msg("no %s in the trace", tev_event_name(ty));

    /* The text round trip: every event back, at ftrace's microseconds. */
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    trace_write_text(&t, f);
    fclose(f);
    struct trace back;
    char *err = NULL;
    if (!trace_parse_text(text, tlen, &back, &err))
        fail_msg("the text does not read back: %s", err);
    assert_int_equal(back.nev, t.nev);
    assert_int_equal(back.ncpus, t.ncpus);
    assert_string_equal(back.sched, "cfs");
    assert_string_equal(back.cmdline, "bench=sim trace=1");
    size_t per_cpu_a[4] = { 0 }, per_cpu_b[4] = { 0 };
    for (size_t i = 0; i < t.nev; i++)
        per_cpu_a[t.ev[i].cpu]++, per_cpu_b[back.ev[i].cpu]++;
    for (int c = 0; c < ncpus; c++)
        assert_int_equal(per_cpu_a[c], per_cpu_b[c]);
    /* Compare per CPU in order. */
    for (int c = 0; c < ncpus; c++) {
        size_t ia = 0, ib = 0;
        for (;;) {
            while (ia < t.nev && t.ev[ia].cpu != c)
                ia++;
            while (ib < back.nev && back.ev[ib].cpu != c)
                ib++;
            if (ia == t.nev || ib == back.nev)
                break;
            const struct tev *x = &t.ev[ia], *y = &back.ev[ib];
            if (x->type != y->type || x->pid != y->pid || x->pid2 != y->pid2 || x->tcpu != y->tcpu ||
                x->ocpu != y->ocpu || x->flags != y->flags || (x->ts + 500) / 1000 * 1000 != y->ts ||
                (x->type == TRACE_EXIT && x->value != y->value) || (x->type == TRACE_SCHED && x->value != y->value))
                fail_msg("cpu %d: %s at %llu ns reads back as %s at %llu", c, tev_event_name(x->type),
                         (unsigned long long)x->ts, tev_event_name(y->type), (unsigned long long)y->ts);
            ia++, ib++;
        }
    }
    /* And the text's own checks hold at its resolution. */
    char *rep = NULL;
    size_t rl = 0;
    f = open_memstream(&rep, &rl);
    size_t bad = trace_check_invariants(&back, f, 5);
    fclose(f);
    if (bad)
        fail_msg("the text breaks %zu invariants:\n%s", bad, rep);
    free(rep);
    free(text);
    trace_free(&back);
    trace_free(&t);
    free(m.p);
}

static void test_mix_2cpus(void **state) { traced_mix(2, 2); }
static void test_mix_4cpus(void **state) { traced_mix(4, 4); }

/* The same run into a buffer of 8 records: the newest 8 per CPU, the rest counted. */
static void test_tiny_buffer_keeps_the_newest(void **state)
{
    start(2, TRACE_ALL_TYPES, 1 << 14);
    run_mix(2, 7, 600);
    struct trace big;
    struct membuf mb = stop_and_read(&big);
    start(2, TRACE_ALL_TYPES, 8);
    run_mix(2, 7, 600);
    struct trace small;
    struct membuf ms = stop_and_read(&small);
    for (int c = 0; c < 2; c++) {
        assert_int_equal(small.cpu[c].written, big.cpu[c].written);
        assert_int_equal(small.cpu[c].kept, 8);
        assert_int_equal(small.cpu[c].dropped, big.cpu[c].written - 8);
        /* The kept ones are the last 8 this CPU wrote. */
        size_t nb = 0, ns = 0;
        const struct tev *lb[1 << 14], *ls[8];
        for (size_t i = 0; i < big.nev; i++)
            if (big.ev[i].cpu == c)
                lb[nb++] = &big.ev[i];
        for (size_t i = 0; i < small.nev; i++)
            if (small.ev[i].cpu == c)
                ls[ns++] = &small.ev[i];
        assert_int_equal(ns, 8);
        for (size_t k = 0; k < 8; k++)
            assert_true(ls[k]->ts == lb[nb - 8 + k]->ts && ls[k]->type == lb[nb - 8 + k]->type &&
                        ls[k]->pid == lb[nb - 8 + k]->pid);
    }
    /* Incomplete, but what is there is consistent. */
    char *rep = NULL;
    size_t rl = 0;
    FILE *f = open_memstream(&rep, &rl);
    size_t bad = trace_check_invariants(&small, f, 5);
    bad += trace_check_against_log(&small, console_of(2), f);
    fclose(f);
    if (bad)
        fail_msg("%s", rep);
    free(rep);
    trace_free(&big);
    trace_free(&small);
    free(mb.p);
    free(ms.p);
}

/* trace_events=switch: switches only, and the enqueue is not wrapped at all. */
static void test_filter(void **state)
{
    start(2, 1u << TRACE_SWITCH, 1 << 14);
    assert_true(sched_enqueue_call == scheduler.enqueue);
    assert_true(sched_switch_call != switch_context);
    run_mix(2, 3, 500);
    struct trace t;
    struct membuf m = stop_and_read(&t);
    assert_true(t.nev > 50);
    for (size_t i = 0; i < t.nev; i++)
        assert_int_equal(t.ev[i].type, TRACE_SWITCH);
    trace_free(&t);
    free(m.p);

    start(2, 1u << TRACE_SCHED, 1 << 14);
    assert_true(sched_enqueue_call == scheduler.enqueue);
    assert_true(sched_switch_call == switch_context);
    run_mix(2, 3, 500);
    m = stop_and_read(&t);
    assert_true(t.nev > 10);
    for (size_t i = 0; i < t.nev; i++) {
        assert_int_equal(t.ev[i].type, TRACE_SCHED);
        assert_string_equal(t.ev[i].comm2, "vruntime");     /* cfs's pick_next */
        assert_int_equal(t.ev[i].tcpu, t.ev[i].cpu);
    }
    trace_free(&t);
    free(m.p);
}

/* Off: the core's calls are the plain ones and no static key is on. */
static void test_off(void **state)
{
    trace_host_reset();
    sim_init(2);
    assert_true(sched_switch_call == switch_context);
    assert_true(sched_enqueue_call == scheduler.enqueue);
    assert_false(trace_key(TRACE_MIGRATE));
    assert_false(trace_key(TRACE_SCHED));
    run_mix(2, 5, 200);
    assert_false(trace_enabled());
}

static void test_event_names(void **state)
{
    uint32_t m;
    char why[160];
    assert_true(trace_parse_events("switch,wakeup", &m, why, sizeof(why)));
    assert_int_equal(m, 1u << TRACE_SWITCH | 1u << TRACE_WAKEUP);
    assert_true(trace_parse_events("all", &m, why, sizeof(why)));
    assert_int_equal(m, TRACE_ALL_TYPES);
    assert_false(trace_parse_events("switch,foo", &m, why, sizeof(why)));
    assert_non_null(strstr(why, "unknown event 'foo'"));
    assert_false(trace_parse_events("", &m, why, sizeof(why)));
    assert_false(trace_parse_events("switch,,exit", &m, why, sizeof(why)));
    assert_false(trace_parse_events("switch,", &m, why, sizeof(why)));
}

/* A stream cut off anywhere, or with any byte changed, does not read. */
static void test_corrupt_stream(void **state)
{
    start(2, TRACE_ALL_TYPES, 64);
    run_mix(2, 9, 300);
    struct trace t;
    struct membuf m = stop_and_read(&t);
    trace_free(&t);
    char *err = NULL;
    for (size_t cut = 0; cut < m.len; cut += 1 + m.len / 97) {
        assert_false(trace_parse_stream(m.p, cut, &t, &err));
        free(err);
    }
    for (size_t at = 0; at < m.len; at += 1 + m.len / 89) {
        m.p[at] ^= 0x5a;
        assert_false(trace_parse_stream(m.p, m.len, &t, &err));
        free(err);
        m.p[at] ^= 0x5a;
    }
    assert_true(trace_parse_stream(m.p, m.len, &t, &err));
    trace_free(&t);
    free(m.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_names),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_mix_2cpus),
        cmocka_unit_test(test_mix_4cpus),
        cmocka_unit_test(test_tiny_buffer_keeps_the_newest),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_corrupt_stream),
    };
    return cmocka_run_group_tests_name("trace_core", tests, NULL, NULL);
}
