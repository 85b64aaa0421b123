/*
 * The host tool's trace code (tools/src/trace_*.c) on traces made here:
 *   - trace.dat read back through libtracecmd, the library trace-cmd report
 *     and KernelShark load files with: every event, its type, CPU, time,
 *     task and fields as written;
 *   - the latency and summary numbers of a trace whose answers are known;
 *   - a Linux ftrace text (five-character flags, a tgid column, events we do
 *     not trace) reads, and malformed lines are rejected with their number.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <trace-cmd.h>
#include "trace_data.h"

/* A small trace by hand: two CPUs, task a (pid 10) and b (pid 11). */
static void add(struct trace *t, uint64_t ts_us, int cpu, int type, int pid, const char *comm, int pid2,
                const char *comm2, int flags, int tcpu)
{
    t->ev = realloc(t->ev, (t->nev + 1) * sizeof(*t->ev));
    struct tev *e = &t->ev[t->nev++];
    memset(e, 0, sizeof(*e));
    e->ts = ts_us * 1000;
    e->cpu = (uint8_t)cpu;
    e->type = (uint8_t)type;
    e->pid = pid, e->pid2 = pid2;
    e->prio = e->prio2 = 120;
    snprintf(e->comm, sizeof(e->comm), "%s", comm);
    snprintf(e->comm2, sizeof(e->comm2), "%s", comm2);
    e->flags = (uint8_t)flags;
    e->tcpu = (uint8_t)tcpu;
    t->cpu[cpu].written++, t->cpu[cpu].kept++;
}

static struct trace known(void)
{
    struct trace t;
    memset(&t, 0, sizeof(t));
    t.ncpus = 2, t.events = TRACE_ALL_TYPES, t.capacity = 100, t.hz = 1000;
    t.start_ns = 1000000, t.stop_ns = 10000000;     /* 1 ms .. 10 ms */
    snprintf(t.sched, sizeof(t.sched), "o1");
    snprintf(t.cmdline, sizeof(t.cmdline), "bench=known trace=1");
    /* a is forked and woken onto cpu 0 at 2 ms, runs 2.5-4 ms, blocks; b woken at 3 ms onto cpu 1 runs 3.2-9 ms;
     * b wakes a at 5 ms onto cpu 0 (sync), a runs 5.7-6 ms, is preempted (R+), runs again 7-8 ms and exits. */
    add(&t, 2000, 0, TRACE_FORK, 0, "idle/0", 10, "a", 0, 0);
    add(&t, 2000, 0, TRACE_WAKEUP_NEW, 10, "a", 0, "", 0, 0);
    add(&t, 2500, 0, TRACE_SWITCH, 0, "idle/0", 10, "a", TRACE_STATE_RUNNABLE, 0);
    add(&t, 3000, 0, TRACE_WAKEUP, 11, "b", 10, "a", 0, 1);
    add(&t, 3200, 1, TRACE_SWITCH, 0, "idle/1", 11, "b", TRACE_STATE_RUNNABLE, 0);
    add(&t, 4000, 0, TRACE_SWITCH, 10, "a", 0, "idle/0", TRACE_STATE_SLEEPING, 0);
    add(&t, 5000, 1, TRACE_WAKEUP, 10, "a", 11, "b", TRACE_FLAG_SYNC, 0);
    add(&t, 5700, 0, TRACE_SWITCH, 0, "idle/0", 10, "a", TRACE_STATE_RUNNABLE, 0);
    add(&t, 6000, 0, TRACE_SWITCH, 10, "a", 0, "idle/0", TRACE_STATE_RUNNABLE, 0);
    add(&t, 6500, 0, TRACE_SCHED, 0, "<idle>", 0, "array_swap", 0, 0);
    add(&t, 7000, 0, TRACE_SWITCH, 0, "idle/0", 10, "a", TRACE_STATE_RUNNABLE, 0);
    add(&t, 8000, 0, TRACE_EXIT, 10, "a", 0, "", 0, 0);
    t.ev[t.nev - 1].value = 3800000;                 /* 1.5 + 0.3 + 1.0 ms... and what the kernel counted */
    add(&t, 8000, 0, TRACE_SWITCH, 10, "a", 0, "idle/0", TRACE_STATE_DEAD, 0);
    add(&t, 9000, 1, TRACE_MIGRATE, 11, "b", 11, "b", 0, 0);
    t.ev[t.nev - 1].ocpu = 1;
    add(&t, 9000, 1, TRACE_SWITCH, 11, "b", 0, "idle/1", TRACE_STATE_SLEEPING, 0);
    for (size_t i = 0; i < t.nev; i++)
        t.ev[i].seq = (uint32_t)i;
    trace_sort(&t);
    t.ts_resolution_ns = 1;
    return t;
}

static void test_latency_of_a_known_trace(void **state)
{
    struct trace t = known();
    struct trace_analysis a;
    trace_analyze(&t, &a);
    struct trace_task *ta = trace_find_task(&a, 10), *tb = trace_find_task(&a, 11);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_int_equal(ta->runtime_ns, 1500000 + 300000 + 1000000);
    assert_int_equal(ta->slices, 3);
    /* delays: 2.0->2.5 (woken new), 5.0->5.7 (woken), 6.0->7.0 (preempted) */
    assert_int_equal(ta->ndelays, 3);
    assert_int_equal(ta->delay_sum_ns, 500000 + 700000 + 1000000);
    assert_int_equal(ta->delay_max_ns, 1000000);
    assert_int_equal(ta->delay_max_at, 7000000);
    assert_int_equal(tb->runtime_ns, 5800000);
    assert_int_equal(tb->delay_max_ns, 200000);
    /* Idle from each CPU's first record: cpu 0 2-2.5, 4-5.7, 6-7, 8-10 ms; cpu 1 (first at 3.2 ms) 9-10 ms. */
    assert_int_equal(a.cpu[0].idle_ns, 500000 + 1700000 + 1000000 + 2000000);
    assert_int_equal(a.cpu[1].idle_ns, 1000000);
    assert_int_equal(a.cpu[0].switches, 6);
    assert_int_equal(a.cpu[0].wakeups, 2);
    assert_int_equal(a.cpu[1].wakeups, 1);
    assert_int_equal(a.migrations, 1);
    assert_int_equal(a.cpu[0].rq_max, 1);
    trace_analysis_free(&a);
    /* Its exit count was made to disagree (3.8 ms vs 2.8 ms): the check says so. */
    char *rep = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rep, &len);
    size_t bad = trace_check_invariants(&t, f, 10);
    fclose(f);
    assert_int_equal(bad, 1);
    assert_non_null(strstr(rep, "pid 10 (a): its slices add up to 2800000 ns, the kernel counted 3800000 ns"));
    free(rep);
    /* perf sched latency's table names the maximum and when it happened. */
    f = open_memstream(&rep, &len);
    trace_write_latency(&t, f);
    fclose(f);
    assert_non_null(strstr(rep, "  a:10                  |      2.800 ms |        3 | avg:    0.733 ms | max:    1.000 ms | "
                                "max at:      0.007000 s"));
    assert_non_null(strstr(rep, "*A0 "));       /* perf sched map: a is A0 */
    free(rep);
    trace_free(&t);
}

/* Every event of trace.dat through libtracecmd, in time order, as written. */
struct seen {
    size_t n, mismatches, waking;
    size_t per[TRACE_NR_TYPES];
};

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
    (void)cpu;
    struct seen *s = arg;
    struct tep_handle *tep = tracecmd_get_tep(h);
    struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, rec));
    if (ev && !strcmp(ev->name, "sched_waking")) {   /* written before every sched_wakeup, as Linux 4.3+ */
        s->waking++;
        return 0;
    }
    int type = ev ? tev_type_of_name(ev->name) : -1;
    if (type < 0) {
        s->mismatches++;
        return 0;
    }
    s->per[type]++;
    unsigned long long v = 0;
    if (type == TRACE_SWITCH) {
        if (tep_get_field_val(NULL, ev, "next_pid", rec, &v, 0) != 0)
            s->mismatches++;
    }
    s->n++;
    return 0;
}

static void test_dat_reads_back_through_libtracecmd(void **state)
{
    struct trace t = known();
    char path[] = "/tmp/schedlab-test-dat-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char *err = NULL;
    if (!trace_write_dat(&t, path, &err))
        fail_msg("%s", err);
    struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(h);
    struct seen s = { 0, 0, 0, { 0 } };
    assert_int_equal(tracecmd_iterate_events(h, NULL, 0, on_record, &s), 0);
    assert_int_equal(s.n, t.nev);
    assert_int_equal(s.mismatches, 0);
    size_t want[TRACE_NR_TYPES] = { 0 };
    for (size_t i = 0; i < t.nev; i++)
        want[t.ev[i].type]++;
    assert_true(want[TRACE_WAKEUP] > 0);
    assert_int_equal(s.waking, want[TRACE_WAKEUP]);
    for (int ty = 0; ty < TRACE_NR_TYPES; ty++)
        assert_int_equal(s.per[ty], want[ty]);
    /* Per CPU, in order: time, the task column and the fields. */
    struct tep_handle *tep = tracecmd_get_tep(h);
    for (int cpu = 0; cpu < 2; cpu++) {
        struct tep_record *rec = tracecmd_read_cpu_first(h, cpu);
        for (size_t i = 0; i < t.nev; i++) {
            const struct tev *e = &t.ev[i];
            if (e->cpu != cpu)
                continue;
            assert_non_null(rec);
            assert_int_equal(rec->ts, e->ts);
            struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, rec));
            unsigned long long v;
            if (e->type == TRACE_WAKEUP) {               /* sched_waking first, the same wake-up */
                assert_string_equal(ev->name, "sched_waking");
                assert_int_equal(tep_get_field_val(NULL, ev, "pid", rec, &v, 1), 0);
                assert_int_equal(v, e->pid);
                assert_int_equal(tep_get_field_val(NULL, ev, "target_cpu", rec, &v, 1), 0);
                assert_int_equal(v, e->tcpu);
                tracecmd_free_record(rec);
                rec = tracecmd_read_data(h, cpu);
                assert_non_null(rec);
                assert_int_equal(rec->ts, e->ts);
                ev = tep_find_event(tep, tep_data_type(tep, rec));
            }
            assert_string_equal(ev->name, tev_event_name(e->type));
            assert_int_equal(tep_data_pid(tep, rec), tev_current_pid(e));
            if (e->type == TRACE_SWITCH) {
                assert_int_equal(tep_get_field_val(NULL, ev, "prev_pid", rec, &v, 1), 0);
                assert_int_equal(v, e->pid);
                assert_int_equal(tep_get_field_val(NULL, ev, "next_pid", rec, &v, 1), 0);
                assert_int_equal(v, e->pid2);
                assert_int_equal(tep_get_field_val(NULL, ev, "prev_state", rec, &v, 1), 0);
                assert_int_equal(v, e->flags == TRACE_STATE_SLEEPING ? 1 : e->flags == TRACE_STATE_DEAD ? 0x10
                                    : e->pid ? 0x100 : 0);
            } else if (e->type == TRACE_WAKEUP) {
                assert_int_equal(tep_get_field_val(NULL, ev, "target_cpu", rec, &v, 1), 0);
                assert_int_equal(v, e->tcpu);
                assert_int_equal(tep_get_field_val(NULL, ev, "sync", rec, &v, 1), 0);
                assert_int_equal(v, (e->flags & TRACE_FLAG_SYNC) != 0);
            } else if (e->type == TRACE_EXIT) {
                assert_int_equal(tep_get_field_val(NULL, ev, "runtime_ns", rec, &v, 1), 0);
                assert_int_equal(v, e->value);
            }
            tracecmd_free_record(rec);
            rec = tracecmd_read_data(h, cpu);
        }
        assert_null(rec);
    }
    tracecmd_close(h);
    unlink(path);
    trace_free(&t);
}

/* A gap of more than 2^27 ns between two events needs a time_extend record. */
static void test_dat_long_gaps(void **state)
{
    struct trace t = known();
    for (size_t i = 0; i < t.nev; i++)
        t.ev[i].ts *= 1000;                      /* milliseconds become seconds */
    t.start_ns *= 1000, t.stop_ns *= 1000;
    char path[] = "/tmp/schedlab-test-dat-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    char *err = NULL;
    assert_true(trace_write_dat(&t, path, &err));
    struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(h);
    struct tep_record *rec = tracecmd_read_cpu_first(h, 0);
    for (size_t i = 0; i < t.nev; i++) {
        if (t.ev[i].cpu != 0)
            continue;
        for (int k = t.ev[i].type == TRACE_WAKEUP ? 2 : 1; k > 0; k--) {   /* sched_waking, then sched_wakeup */
            assert_non_null(rec);
            assert_int_equal(rec->ts, t.ev[i].ts);
            tracecmd_free_record(rec);
            rec = tracecmd_read_data(h, 0);
        }
    }
    tracecmd_close(h);
    unlink(path);
    trace_free(&t);
}

static const char linux_text[] =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 5/5   #P:4\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "          <idle>-0       [002] d..2.  1234.567890: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 "
    "prev_state=R ==> next_comm=kworker/2:1 next_pid=77 next_prio=120\n"
    "     kworker/2:1-77      (   77) [002] d..3.  1234.567901: sched_wakeup: comm=bash pid=4242 prio=120 target_cpu=001\n"
    "     kworker/2:1-77      [002] d..2.  1234.567950: sched_switch: prev_comm=kworker/2:1 prev_pid=77 prev_prio=120 "
    "prev_state=I ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
    "            bash-4242    [001] ....   1234.568000: irq_handler_entry: irq=1 name=i8042\n"
    "          <idle>-0       [001] d..2.  1234.568010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 "
    "prev_state=R ==> next_comm=bash next_pid=4242 next_prio=120\n";

static void test_linux_ftrace_text(void **state)
{
    struct trace t;
    char *err = NULL;
    if (!trace_parse_text(linux_text, sizeof(linux_text) - 1, &t, &err))
        fail_msg("%s", err);
    assert_int_equal(t.nev, 4);                  /* irq_handler_entry is not ours: skipped */
    assert_int_equal(t.ncpus, 3);
    assert_int_equal(t.ev[1].type, TRACE_WAKEUP);
    assert_int_equal(t.ev[1].pid, 4242);
    assert_int_equal(t.ev[1].pid2, 77);          /* the waker, from the task column */
    assert_string_equal(t.ev[1].comm2, "kworker/2:1");
    assert_int_equal(t.ev[1].tcpu, 1);
    assert_int_equal(t.ev[2].flags, TRACE_STATE_SLEEPING);    /* "I" */
    assert_int_equal(t.ev[3].ts, 1234568010000ull);
    char *rep = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rep, &len);
    assert_int_equal(trace_check_invariants(&t, f, 5), 0);
    fclose(f);
    free(rep);
    trace_free(&t);
}

static void test_malformed_text(void **state)
{
    static const char *bad[] = {
        "          <idle>-0     [000] d...     0.000001: sched_switch: prev_comm=a prev_pid=x prev_prio=1 prev_state=S "
        "==> next_comm=b next_pid=2 next_prio=3\n",
        "no cpu column here: sched_switch: prev_pid=1\n",
        "          <idle>-0     [000] d...     0.0001: sched_wakeup: comm=a pid=1 prio=120 target_cpu=000\n",
        "          <idle>-0     [099] d...     0.000001: sched_wakeup: comm=a pid=1 prio=120 target_cpu=000\n",
        "          <idle>-0     [000] d...     0.000001: sched_wakeup: comm=a pid=1 prio=120\n",
        "# schedlab: sched=o1 cpus=99 start_ns=0 stop_ns=1\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct trace t;
        char *err = NULL;
        char text[512];
        snprintf(text, sizeof(text), "# tracer: nop\n%s", bad[i]);
        if (trace_parse_text(text, strlen(text), &t, &err))
            fail_msg("read: %s", bad[i]);
        assert_non_null(strstr(err, "line 2"));
        free(err);
    }
}

/* memstall (the memory model's biggest stall of a CPU and tick): through the
 * text both ways, trace.dat (libtracecmd) and the summary; a trace that did
 * not record them says so instead of showing none. */
static void add_stall(struct trace *t, uint64_t ts_us, int cpu, int pid, const char *what, int64_t ns, int32_t tick_ns,
                      int src, uint32_t site)
{
    add(t, ts_us, cpu, TRACE_MEMSTALL, pid, "", tick_ns, "", src, cpu);
    struct tev *e = &t->ev[t->nev - 1];
    t->cpu[cpu].written--, t->cpu[cpu].kept--, t->cpu[cpu].memstall++;
    e->value = ns;
    e->prio = (int16_t)(uint16_t)(site & 0xffff), e->prio2 = (int16_t)(uint16_t)(site >> 16);
    snprintf(e->what, sizeof(e->what), "%s", what);
}

static const struct tev *find_stall(const struct trace *t, int cpu)
{
    for (size_t i = 0; i < t->nev; i++)
        if (t->ev[i].type == TRACE_MEMSTALL && t->ev[i].cpu == cpu)
            return &t->ev[i];
    return NULL;
}

static void test_memstall(void **state)
{
    (void)state;
    struct trace t = known();
    add_stall(&t, 2600, 0, 10, "task.cpus_allowed", 155, 4650, TRACE_STALL_MEMORY, 0x00104abcu);
    add_stall(&t, 3300, 1, 11, "goodness_task.rq.yielded", 3120, 9000, TRACE_STALL_C2C, 0x00100dc7u);
    snprintf(t.ev[t.nev - 2].comm, TRACE_COMM_LEN, "a");
    snprintf(t.ev[t.nev - 1].comm, TRACE_COMM_LEN, "b");
    for (size_t i = 0; i < t.nev; i++)
        t.ev[i].seq = (uint32_t)i;
    trace_sort(&t);
    /* the text, and back */
    char *txt = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&txt, &len);
    trace_write_text(&t, f);
    fclose(f);
    assert_non_null(strstr(txt, "a-10    [000] d...     0.002600: memstall: what=task.cpus_allowed stall_ns=155 "
                                "from=memory tick_stall_ns=4650 site=0x00104abc\n"));
    struct trace r;
    char *err = NULL;
    if (!trace_parse_text(txt, len, &r, &err))
        fail_msg("%s", err);
    const struct tev *a = find_stall(&r, 0), *b = find_stall(&r, 1);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a->what, "task.cpus_allowed");
    assert_string_equal(a->comm, "a");
    assert_int_equal(a->pid, 10);
    assert_int_equal(a->value, 155);
    assert_int_equal(a->pid2, 4650);
    assert_int_equal(a->flags, TRACE_STALL_MEMORY);
    assert_int_equal(tev_stall_site(a), 0x00104abc);
    assert_string_equal(b->what, "goodness_task.rq.yielded");
    assert_int_equal(b->flags, TRACE_STALL_C2C);
    assert_int_equal(tev_stall_site(b), 0x00100dc7);
    assert_int_equal(r.cpu[1].memstall, 1);
    assert_true(r.events & (1u << TRACE_MEMSTALL));
    trace_free(&r);
    free(txt);
    /* malformed: an unknown source */
    const char *bad = "# schedlab: sched=o1 cpus=1 hz=1000 tsc_khz=1 events=memstall capacity=1 start_ns=0 stop_ns=9\n"
                      "  a-10    [000] d...     0.000001: memstall: what=x stall_ns=1 from=disk tick_stall_ns=1 site=0x0\n";
    assert_false(trace_parse_text(bad, strlen(bad), &r, &err));
    assert_non_null(strstr(err, "line 2: malformed memstall"));
    free(err);
    /* trace.dat: schedlab:memstall with its fields */
    char path[] = "/tmp/schedlab-test-memstall-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    if (!trace_write_dat(&t, path, &err))
        fail_msg("%s", err);
    struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
    assert_non_null(h);
    struct tep_handle *tep = tracecmd_get_tep(h);
    size_t found = 0;
    for (struct tep_record *rec = tracecmd_read_cpu_first(h, 1); rec; rec = tracecmd_read_data(h, 1)) {
        struct tep_event *ev = tep_find_event(tep, tep_data_type(tep, rec));
        if (ev && !strcmp(ev->name, "memstall")) {
            unsigned long long v;
            assert_int_equal(rec->ts, 3300000);
            assert_int_equal(tep_get_field_val(NULL, ev, "stall_ns", rec, &v, 1), 0);
            assert_int_equal(v, 3120);
            assert_int_equal(tep_get_field_val(NULL, ev, "from", rec, &v, 1), 0);
            assert_int_equal(v, TRACE_STALL_C2C);
            assert_int_equal(tep_get_field_val(NULL, ev, "site", rec, &v, 1), 0);
            assert_int_equal(v, 0x00100dc7);
            struct tep_format_field *fw = tep_find_field(ev, "what");
            assert_non_null(fw);
            assert_string_equal((const char *)rec->data + fw->offset, "goodness_task.rq.yielded");
            assert_int_equal(tep_data_pid(tep, rec), 11);
            found++;
        }
        tracecmd_free_record(rec);
    }
    assert_int_equal(found, 1);
    tracecmd_close(h);
    unlink(path);
    /* the summary names the objects; without the event it says "not recorded" */
    char *sum = NULL;
    f = open_memstream(&sum, &len);
    trace_write_summary(&t, f);
    fclose(f);
    assert_non_null(strstr(sum, "memory stalls: 2 ticks with a stall recorded"));
    assert_non_null(strstr(sum, "goodness_task.rq.yielded"));
    assert_non_null(strstr(sum, "c2c=1"));
    free(sum);
    trace_free(&t);
    t = known();
    t.events &= ~(1u << TRACE_MEMSTALL);
    f = open_memstream(&sum, &len);
    trace_write_summary(&t, f);
    fclose(f);
    assert_non_null(strstr(sum, "memory stalls: not recorded"));
    free(sum);
    trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_of_a_known_trace),
        cmocka_unit_test(test_dat_reads_back_through_libtracecmd),
        cmocka_unit_test(test_dat_long_gaps),
        cmocka_unit_test(test_linux_ftrace_text),
        cmocka_unit_test(test_malformed_text),
        cmocka_unit_test(test_memstall),
    };
    return cmocka_run_group_tests_name("trace_tools", tests, NULL, NULL);
}
