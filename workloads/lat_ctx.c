/*
 * bench=lat_ctx: lmbench3's context-switch latency (src/lat_ctx.c), the
 * seed's `lat_ctx -s 0 2`.
 *
 * A ring of procs tasks and procs pipes: task i reads the token from pipe i,
 * runs sumit() over its own size-KiB working set (zeroed, every int read)
 * and writes the token to pipe i+1; task 0 starts each trip and times
 * loops trips after one warm-up trip.  The token is the trip number and
 * every task checks that it sees 0, 1, 2, ... in order.
 *
 * As lmbench does, the cost of the pipe operations and of sumit() without
 * any context switch is measured first, in one task (here the workload's
 * main task): it writes and reads back each of the procs pipes in turn and
 * runs sumit once per pipe.  Result = (time per trip) / procs - overhead,
 * in microseconds (usec_per_switch; it may come out slightly negative when
 * the overhead dominates, as in lmbench).  lmbench repeats and keeps the
 * median; here each run=<i> is one measurement (runs=R repeats).
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"
#include "../kernel/time.h"
#include "../kernel/sched_core.h"

#define LC_MAX_PROCS 10000u
#define LC_MAX_SIZE_KIB 65536u

enum { KEY_PROCS, KEY_SIZE, KEY_LOOPS, KEY_PIPE_SIZE };
static const struct cmdline_key lat_ctx_keys[] = {
    [KEY_PROCS] = CMDLINE_KEY_UINT_LIST("procs", "2", NULL, 2, LC_MAX_PROCS, CMDLINE_MAX_LIST,
                                        "tasks in the ring, or a list of ring sizes run one after another"),
    [KEY_SIZE] = CMDLINE_KEY_UINT("size", 0, 0, LC_MAX_SIZE_KIB, "KiB of working set each task sums per pass"),
    [KEY_LOOPS] = CMDLINE_KEY_UINT_SUITE("loops", 10000, 1000, 1, 100000000, "timed trips of the token round the ring"),
    [KEY_PIPE_SIZE] = MSG_KEY_PIPE_SIZE,
};

static uint32_t lc_procs[CMDLINE_MAX_LIST];
static int lc_nprocs;
static uint32_t lc_size_kib, lc_loops, lc_pipe_size;

struct lc_member {
    uint32_t index;
    uint32_t *work;               /* size KiB, zeroed; NULL when size=0 */
};

static struct {
    struct run run;
    struct pipe **pipes;          /* pipes[i]: what member i reads */
    uint32_t procs;
    uint64_t t0, t1;              /* written by member 0 */
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
            /* One warm-up trip, then the timed ones. */
            bool ok = token_io(out, in, 0);
            lc.t0 = clock_ns();
            for (uint32_t trip = 1; ok && trip <= lc_loops; trip++) {
                if (m->work)
                    sumit(m->work);
                ok = token_io(out, in, trip);
            }
            lc.t1 = clock_ns();
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
            if (!run_aborted(r) && expected != lc_loops + 1) {
                kprintf("lat_ctx: member %u saw %u tokens, expected %u\n", m->index, expected, lc_loops + 1);
                run_abort(r, RUN_ERROR, "lost_token");
            }
            run_done(r);
        }
    }
    /* Closing our writing end ends the next member's loop. */
    pipe_close_write(out);
    run_task_end(r);
}

/* lmbench's overhead: pipe write + read back + sumit, per process, without switching. */
static uint64_t measure_overhead(const uint32_t *work)
{
    uint64_t t0 = clock_ns();
    for (uint32_t trip = 0; trip < lc_loops && !run_aborted(&lc.run); trip++) {
        for (uint32_t i = 0; i < lc.procs; i++) {
            if (!token_io(lc.pipes[i], lc.pipes[i], trip))
                return 0;
            if (work)
                sumit(work);
        }
        if ((trip & 255) == 0)
            watchdog_touch();           /* no context switch happens in this loop */
    }
    return (clock_ns() - t0) / ((uint64_t)lc_loops * lc.procs);
}

static void lat_ctx_setup(void)
{
    lc_nprocs = cmdline_key_uint_list(&lat_ctx_keys[KEY_PROCS], lc_procs, CMDLINE_MAX_LIST);
    lc_size_kib = cmdline_key_uint(&lat_ctx_keys[KEY_SIZE]);
    lc_loops = cmdline_key_uint(&lat_ctx_keys[KEY_LOOPS]);
    lc_pipe_size = cmdline_key_uint(&lat_ctx_keys[KEY_PIPE_SIZE]);
}

/* Signed microseconds from nanoseconds, 3 decimals. */
static const char *fmt_us_signed(char *buf, int64_t ns)
{
    if (ns >= 0)
        return fmt_fixed(buf, (uint64_t)ns, NSEC_PER_USEC, 3);
    buf[0] = '-';
    fmt_fixed(buf + 1, (uint64_t)-ns, NSEC_PER_USEC, 3);
    return buf;
}

static int lat_ctx_once(uint32_t procs, int run_index)
{
    struct run *r = &lc.run;
    uint64_t overhead_ns = 0;
    lc.procs = procs;
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
        if (!run_aborted(r))
            overhead_ns = measure_overhead(members[0].work);
        for (uint32_t i = 0; i < procs && !run_aborted(r); i++)
            if (!run_spawn(r, lc_member, &members[i], "lat_ctx", -1))
                run_abort(r, RUN_OOM, "task_create");
        if (!run_aborted(r))
            run_start(r);
        run_reap(r);
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used;
    uint64_t trip_ns = lc.t1 > lc.t0 ? (lc.t1 - lc.t0) / lc_loops : 0;
    int status = run_free(r);

    static char line[320];
    char ovr[32], per[32];
    int n = bench_result_begin(line, sizeof(line), "lat_ctx", run_index);
    n += snprintf(line + n, sizeof(line) - n, " procs=%u size=%u loops=%u pipe_size=%u tasks_started=%d cpus_used=0x%x",
                  procs, lc_size_kib, lc_loops, lc_pipe_size, tasks, cpus_used);
    if (status == RUN_OK) {
        int64_t per_switch = (int64_t)(trip_ns / procs) - (int64_t)overhead_ns;
        fmt_us_signed(ovr, (int64_t)overhead_ns);
        fmt_us_signed(per, per_switch);
        kprintf("\"size=%uk ovr=%s\n%u %s\n", lc_size_kib, ovr, procs, per);
        snprintf(line + n, sizeof(line) - n, " overhead_us=%s usec_per_switch=%s status=ok", ovr, per);
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
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
