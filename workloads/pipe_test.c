/*
 * bench=pipe: Ingo Molnar's pipe-test-1m.c as ported to `perf bench sched
 * pipe` (tools/perf/bench/sched-pipe.c).  Two tasks and two pipes: A writes
 * a 4-byte token and reads one back, B reads it and writes it back; one
 * loop is one round trip, i.e. two context switches when both share a CPU.
 * perf times from before the fork to after waitpid; here the clock runs
 * from the start barrier (both tasks created and ready) until A has read
 * the last token, so task creation is excluded.
 *
 * The token is the loop number: B checks that it receives 0, 1, 2, ... and
 * A that each token comes back unchanged, so a lost or duplicated token
 * gives status=error.  mode=thread gives both tasks one address space (perf
 * bench sched pipe -T).
 *
 * Metric: usec_per_op per round trip, as perf prints "usecs/op"; also
 * ops_per_s.
 */
#include "bench.h"
#include "msg.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/task.h"

enum { KEY_LOOPS, KEY_MODE, KEY_PIPE_SIZE };
static const struct cmdline_key pipe_keys[] = {
    /* perf's default is 1,000,000 round trips; the short suite does 1000. */
    [KEY_LOOPS] = CMDLINE_KEY_UINT_SUITE("loops", 1000000, 1000, 1, 1000000000, "round trips of the token"),
    [KEY_MODE] = MSG_KEY_MODE,
    [KEY_PIPE_SIZE] = MSG_KEY_PIPE_SIZE,
};

static uint32_t pt_loops, pt_pipe_size;
static int pt_mode;

static struct {
    struct run run;
    struct pipe *to_b, *to_a;
} pt;

static void pipe_side_a(void *unused)
{
    (void)unused;
    struct run *r = &pt.run;
    if (run_wait_start(r)) {
        for (uint32_t i = 0; i < pt_loops; i++) {
            uint32_t token = i, back = 0;
            int n = pipe_write(pt.to_b, &token, sizeof(token));
            if (n != (int)sizeof(token)) {
                run_pipe_failure(r, n, "write_failed");
                break;
            }
            n = pipe_read_full(pt.to_a, &back, sizeof(back));
            if (n != (int)sizeof(back)) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "lost_token");
                break;
            }
            if (back != token) {
                kprintf("pipe: sent token %u, got %u back\n", token, back);
                run_abort(r, RUN_ERROR, "corrupt_token");
                break;
            }
        }
        run_done(r);
        pipe_close_write(pt.to_b);
    }
    run_task_end(r);
}

static void pipe_side_b(void *unused)
{
    (void)unused;
    struct run *r = &pt.run;
    if (run_wait_start(r)) {
        for (uint32_t i = 0; i < pt_loops; i++) {
            uint32_t token = 0;
            int n = pipe_read_full(pt.to_b, &token, sizeof(token));
            if (n != (int)sizeof(token)) {
                run_pipe_failure(r, n < 0 ? n : PIPE_EPIPE, "lost_token");
                break;
            }
            if (token != i) {
                kprintf("pipe: expected token %u, got %u\n", i, token);
                run_abort(r, RUN_ERROR, "out_of_sequence");
                break;
            }
            n = pipe_write(pt.to_a, &token, sizeof(token));
            if (n != (int)sizeof(token)) {
                run_pipe_failure(r, n, "write_failed");
                break;
            }
        }
        run_done(r);
    }
    run_task_end(r);
}

static void pipe_setup(void)
{
    pt_loops = cmdline_key_uint(&pipe_keys[KEY_LOOPS]);
    pt_mode = cmdline_key_choice(&pipe_keys[KEY_MODE]);
    pt_pipe_size = cmdline_key_uint(&pipe_keys[KEY_PIPE_SIZE]);
}

static int pipe_run(int run_index)
{
    struct run *r = &pt.run;
    if (run_init(r, "pipe", 2, 2) == 0) {
        r->pending = 2;
        int mm = pt_mode == MODE_THREAD ? new_mm_id() : -1;
        if (!(pt.to_b = run_pipe(r, pt_pipe_size)) || !(pt.to_a = run_pipe(r, pt_pipe_size)))
            run_abort(r, RUN_OOM, "pipe");
        else if (!run_spawn(r, pipe_side_a, NULL, "pipe-a", mm) || !run_spawn(r, pipe_side_b, NULL, "pipe-b", mm))
            run_abort(r, RUN_OOM, "task_create");
        else
            run_start(r);
        run_reap(r);
    }
    int tasks = r->ntasks;
    uint32_t cpus_used = r->cpus_used;
    uint64_t ns = run_elapsed_ns(r);
    int status = run_free(r);

    static char line[320];
    char per_op[32], total[32];
    int n = bench_result_begin(line, sizeof(line), "pipe", run_index);
    n += snprintf(line + n, sizeof(line) - n, " loops=%u mode=%s pipe_size=%u", pt_loops, mode_names[pt_mode],
                  pt_pipe_size);
    n += bench_channel_params(line + n, sizeof(line) - n);
    n += snprintf(line + n, sizeof(line) - n, " tasks_started=%d cpus_used=0x%x", tasks, cpus_used);
    if (status == RUN_OK) {
        fmt_fixed(per_op, ns, (uint64_t)pt_loops * NSEC_PER_USEC, 3);
        fmt_fixed(total, ns, NSEC_PER_SEC, 3);
        uint64_t ops_per_s = ns ? (uint64_t)pt_loops * NSEC_PER_SEC / ns : 0;
        kprintf("# Executed %u pipe operations between two %s\n"
                "     Total time: %s [sec]\n"
                "%16s usecs/op\n"
                "%16llu ops/sec\n",
                pt_loops, pt_mode == MODE_THREAD ? "threads" : "processes", total, per_op,
                (unsigned long long)ops_per_s);
        snprintf(line + n, sizeof(line) - n, " time_s=%s usec_per_op=%s ops_per_s=%llu status=ok", total, per_op,
                 (unsigned long long)ops_per_s);
    } else {
        snprintf(line + n, sizeof(line) - n, " status=%s reason=%s", run_status_name(status), r->why);
    }
    kprintf("%s\n", line);
    run_print_chanstat(r, run_index, NULL);
    return run_exit_code(status);
}

static const struct bench pipe_bench = {
    .name = "pipe",
    .summary = "two tasks ping-pong a token through two pipes (perf bench sched pipe)",
    BENCH_KEYS(pipe_keys),
    .in_default_suite = true,
    .setup = pipe_setup,
    .run = pipe_run,
};
BENCH(pipe_bench);
