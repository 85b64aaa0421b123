/*
 * bench=lat_ctx: lmbench3's context-switch latency (src/lat_ctx.c), the
 * seed's `lat_ctx -s 0 2`.
 *
 * A ring of procs tasks and procs pipes: task i reads the token from pipe i,
 * runs sumit() over its own size-KiB working set (zeroed, every int read)
 * and writes the token to pipe i+1; task 0 starts each trip and, after one
 * warm-up trip (create_daemons' "once around the loop"), times reps
 * repetitions of loops trips each.  The token is the trip number and every
 * task checks that it sees 0, 1, 2, ... in order.
 *
 * As lmbench does, the cost of the pipe operations and of sumit() without
 * any context switch is measured first, in one task (here the workload's
 * main task): lmbench's benchmark_overhead, one iteration = a write and a
 * read back on pipe i (i going round the procs pipes) and one sumit.  Each
 * of the two is measured reps times (lmbench: benchmp with TRIES = 11
 * repetitions) and lmbench keeps the median of the repetitions
 * (lib_timing.c save_median: the middle one, or the mean of the middle two).
 * The result is
 *     usec_per_switch = median(time per trip) / procs - median(overhead)
 * and, as in lmbench's main ("if (time > 0.0) fprintf(...)"), a result that
 * is not positive is not printed: the result line then carries no
 * usec_per_switch (the tools count it as a run without a metric, never as
 * a number) and lmbench's "procs time" line is left out.
 */
#include "bench.h"
#include "msg.h"
#include "latrec.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/time.h"
#include "../kernel/sched_core.h"

#define LC_MAX_PROCS 10000u
#define LC_MAX_SIZE_KIB 65536u

#define LC_MAX_REPS 101u
#define LC_TRIES 11u              /* lmbench's TRIES (bench.h): benchmp's default repetitions */

enum { KEY_PROCS, KEY_SIZE, KEY_LOOPS, KEY_REPS, KEY_PIPE_SIZE };
static const struct cmdline_key lat_ctx_keys[] = {
    [KEY_PROCS] = CMDLINE_KEY_UINT_LIST("procs", "2", NULL, 2, LC_MAX_PROCS, CMDLINE_MAX_LIST,
                                        "tasks in the ring, or a list of ring sizes run one after another"),
    [KEY_SIZE] = CMDLINE_KEY_UINT("size", 0, 0, LC_MAX_SIZE_KIB, "KiB of working set each task sums per pass"),
    [KEY_LOOPS] = CMDLINE_KEY_UINT_SUITE("loops", 10000, 1000, 1, 100000000,
                                         "timed trips of the token round the ring in each repetition"),
    [KEY_REPS] = CMDLINE_KEY_UINT_SUITE("reps", LC_TRIES, 3, 1, LC_MAX_REPS,
                                        "repetitions of the overhead and of the ring (lmbench -N, TRIES = 11); "
                                        "the medians are used"),
    [KEY_PIPE_SIZE] = MSG_KEY_PIPE_SIZE,
};

static uint32_t lc_procs[CMDLINE_MAX_LIST];
static int lc_nprocs;
static uint32_t lc_size_kib, lc_loops, lc_reps, lc_pipe_size;

struct lc_member {
    uint32_t index;
    uint32_t *work;               /* size KiB, zeroed; NULL when size=0 */
};

static struct {
    struct run run;
    struct pipe **pipes;          /* pipes[i]: what member i reads */
    uint32_t procs;
    uint64_t trip_ns[LC_MAX_REPS];  /* member 0: time per trip in each repetition */
    uint32_t trip_reps;             /* repetitions member 0 completed */
    volatile uint32_t sink;       /* keeps sumit() from being optimised away */
} lc;

/* lmbench's sumit(): read every int of the working set. */
static void sumit(const uint32_t *work)
{
    uint32_t words = lc_size_kib * 1024 / sizeof(uint32_t), sum = 0;
    for (uint32_t i = 0; i < words; i++)
        sum += work[i];
    lc.sink += sum;
}

static bool token_io(struct pipe *out, struct pipe *in, uint32_t token)
{
    uint32_t back = ~token;
    int n = pipe_write(out, &token, sizeof(token));
    if (n != (int)sizeof(token)) {
        run_pipe_failure(&lc.run, n, "write_failed");
        return false;
    }
    n = pipe_read_full(in, &back, sizeof(back));
    if (n != (int)sizeof(back)) {
        run_pipe_failure(&lc.run, n < 0 ? n : PIPE_EPIPE, "lost_token");
        return false;
    }
    if (back != token) {
        kprintf("lat_ctx: token %u came back as %u\n", token, back);
        run_abort(&lc.run, RUN_ERROR, "corrupt_token");
        return false;
    }
    return true;
}

static void lc_member(void *arg)
{
    struct lc_member *m = arg;
    struct run *r = &lc.run;
    struct pipe *in = lc.pipes[m->index], *out = lc.pipes[(m->index + 1) % lc.procs];
    if (run_wait_start(r)) {
        if (m->index == 0) {
            /* One warm-up trip, then reps timed repetitions of loops trips. */
            bool ok = token_io(out, in, 0);
            uint32_t trip = 1;
            for (uint32_t rep = 0; ok && rep < lc_reps; rep++) {
                uint64_t t0 = clock_ns();
                for (uint32_t i = 0; ok && i < lc_loops; i++, trip++) {
                    if (m->work)
                        sumit(m->work);
                    ok = token_io(out, in, trip);
                }
                if (ok)
                    lc.trip_ns[lc.trip_reps++] = (clock_ns() - t0) / lc_loops;
            }
            run_done(r);
        } else {
            uint32_t expected = 0;
            for (;;) {
                uint32_t token;
                int n = pipe_read_full(in, &token, sizeof(token));
                if (n == 0)
                    break;                      /* member 0 closed the ring */
                if (n != (int)sizeof(token)) {
                    run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "lost_token");
                    break;
                }
                if (token != expected++) {
                    kprintf("lat_ctx: member %u expected token %u, got %u\n", m->index, expected - 1, token);
                    run_abort(r, RUN_ERROR, "out_of_sequence");
                    break;
                }
                if (m->work)
                    sumit(m->work);
                n = pipe_write(out, &token, sizeof(token));
                if (n != (int)sizeof(token)) {
                    run_pipe_failure(r, n, "write_failed");
                    break;
                }
            }
            if (!run_aborted(r) && expected != lc_loops * lc_reps + 1) {
                kprintf("lat_ctx: member %u saw %u tokens, expected %u\n", m->index, expected,
                        lc_loops * lc_reps + 1);
                run_abort(r, RUN_ERROR, "lost_token");
            }
            run_done(r);
        }
    }
    /* Closing our writing end ends the next member's loop. */
    pipe_close_write(out);
    run_task_end(r);
}

/* lmbench's save_median over n values (sorted here): the middle one, or the mean of the middle two. */
static uint64_t median(uint64_t *v, uint32_t n)
{
    latrec_sort(v, n);
    if (n == 0)
        return 0;
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* lmbench's benchmark_overhead, once: iterations of a write and a read back
 * on pipe i (round the ring's pipes) plus one sumit, without any context
 * switch.  Nanoseconds per iteration, or 0 after an abort. */
static uint64_t overhead_once(const uint32_t *work, uint64_t iterations)
{
    uint64_t t0 = clock_ns();
    uint32_t i = 0;
    for (uint64_t it = 0; it < iterations; it++) {
        if (!token_io(lc.pipes[i], lc.pipes[i], (uint32_t)it))
            return 0;
        if (++i == lc.procs)
            i = 0;
        if (work)
            sumit(work);
        if ((it & 255) == 0)
            watchdog_touch();           /* no context switch happens in this loop */
    }
    return (clock_ns() - t0) / iterations;
}

static void lat_ctx_setup(void)
{
    lc_nprocs = cmdline_key_uint_list(&lat_ctx_keys[KEY_PROCS], lc_procs, CMDLINE_MAX_LIST);
    lc_size_kib = cmdline_key_uint(&lat_ctx_keys[KEY_SIZE]);
    lc_loops = cmdline_key_uint(&lat_ctx_keys[KEY_LOOPS]);
    lc_reps = cmdline_key_uint(&lat_ctx_keys[KEY_REPS]);
    lc_pipe_size = cmdline_key_uint(&lat_ctx_keys[KEY_PIPE_SIZE]);
}

/* Signed microseconds from nanoseconds, with decimals decimals. */
static const char *fmt_us_signed(char *buf, int64_t ns, int decimals)
{
    if (ns >= 0)
        return fmt_fixed(buf, (uint64_t)ns, NSEC_PER_USEC, decimals);
    buf[0] = '-';
    fmt_fixed(buf + 1, (uint64_t)-ns, NSEC_PER_USEC, decimals);
    return buf;
}

/* A comma list of microseconds with 3 decimals, for the per-repetition line. */
static void fmt_us_list(char *buf, size_t size, const uint64_t *ns, uint32_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < n && len + 24 < size; i++) {
        char num[32];
        fmt_fixed(num, ns[i], NSEC_PER_USEC, 3);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", num);
    }
}

static int lat_ctx_once(uint32_t procs, int run_index)
{
    struct run *r = &lc.run;
    static uint64_t ovh_ns[LC_MAX_REPS], trips[LC_MAX_REPS];
    uint32_t ovh_reps = 0;
    lc.procs = procs;
    lc.trip_reps = 0;
    if (run_init(r, "lat_ctx", (int)procs, (int)procs) == 0) {
        r->pending = (int)procs;
        struct lc_member *members = run_zalloc(r, procs * sizeof(*members));
        lc.pipes = run_zalloc(r, procs * sizeof(*lc.pipes));
        if (!members || !lc.pipes)
            run_abort(r, RUN_OOM, "ring_state");
        for (uint32_t i = 0; i < procs && !run_aborted(r); i++) {
            members[i].index = i;
            if (lc_size_kib && !(members[i].work = run_zalloc(r, lc_size_kib * 1024)))
                run_abort(r, RUN_OOM, "working_set");
            else if (!(lc.pipes[i] = run_pipe(r, lc_pipe_size)))
                run_abort(r, RUN_OOM, "pipe");
        }
        for (uint32_t rep = 0; rep < lc_reps && !run_aborted(r); rep++) {
            uint64_t ns = overhead_once(members[0].work, (uint64_t)lc_loops * procs);
            if (!run_aborted(r))
                ovh_ns[ovh_reps++] = ns;
        }
        for (uint32_t i = 0; i < procs && !run_aborted(r); i++)
            if (!run_spawn(r, lc_member, &members[i], "lat_ctx", -1))
                run_abort(r, RUN_OOM, "task_create");
        if (!run_aborted(r))
            run_start(r);
        run_reap(r);
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used;
    uint32_t nreps = lc.trip_reps;
    for (uint32_t i = 0; i < nreps; i++)
        trips[i] = lc.trip_ns[i];
    int status = run_free(r);

    static char line[400];
    char ovr[32], per[32];
    int n = bench_result_begin(line, sizeof(line), "lat_ctx", run_index);
    n += snprintf(line + n, sizeof(line) - n, " procs=%u size=%u loops=%u reps=%u pipe_size=%u", procs, lc_size_kib,
                  lc_loops, lc_reps, lc_pipe_size);
    n += bench_channel_params(line + n, sizeof(line) - n);
    n += snprintf(line + n, sizeof(line) - n, " tasks_started=%d cpus_used=0x%x", tasks, cpus_used);
    if (status == RUN_OK) {
        static char trip_list[LC_MAX_REPS * 16], ovh_list[LC_MAX_REPS * 16];
        fmt_us_list(trip_list, sizeof(trip_list), trips, nreps);
        fmt_us_list(ovh_list, sizeof(ovh_list), ovh_ns, ovh_reps);
        kprintf("lat_ctx: procs=%u trip_us=%s overhead_us=%s\n", procs, trip_list, ovh_list);
        int64_t overhead_ns = (int64_t)median(ovh_ns, ovh_reps);
        int64_t per_switch = (int64_t)(median(trips, nreps) / procs) - overhead_ns;
        /* lmbench prints "ovr=%.2f" and "%d %.2f" (to stderr), the latter only for a positive time. */
        fmt_us_signed(ovr, overhead_ns, 2);
        kprintf("\"size=%uk ovr=%s\n", lc_size_kib, ovr);
        fmt_us_signed(ovr, overhead_ns, 3);
        if (per_switch > 0) {
            fmt_us_signed(per, per_switch, 2);
            kprintf("%u %s\n", procs, per);
            fmt_us_signed(per, per_switch, 3);
            snprintf(line + n, sizeof(line) - n, " overhead_us=%s usec_per_switch=%s status=ok", ovr, per);
        } else {
            fmt_us_signed(per, per_switch, 3);
            kprintf("lat_ctx: procs=%u: %s us per switch is not positive: left out, as lmbench does\n", procs, per);
            snprintf(line + n, sizeof(line) - n, " overhead_us=%s status=ok", ovr);
        }
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
    run_print_chanstat(r, run_index, NULL);
    return status;
}

static int lat_ctx_run(int run_index)
{
    for (int i = 0; i < lc_nprocs; i++) {
        int status = lat_ctx_once(lc_procs[i], run_index);
        if (status != RUN_OK)
            return run_exit_code(status);
    }
    return EXIT_OK;
}

static const struct bench lat_ctx_bench = {
    .name = "lat_ctx",
    .summary = "lmbench lat_ctx: a ring of tasks passing a token through pipes",
    BENCH_KEYS(lat_ctx_keys),
    .in_default_suite = true,
    .setup = lat_ctx_setup,
    .run = lat_ctx_run,
};
BENCH(lat_ctx_bench);
