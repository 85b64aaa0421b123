/* Shared pieces of the message-passing workloads: runs, messages, patterns (see msg.h). */
#include "msg.h"
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/mem.h"
#include "../kernel/sched_core.h"
#include "../kernel/task.h"
#include "../kernel/time.h"
#include "../kernel/x86.h"

struct run_alloc {
    struct run_alloc *next;
    uint32_t pad;                 /* keeps the caller's memory 8-byte aligned */
};

const char *const mode_names[] = { "process", "thread", NULL };

int run_init(struct run *r, const char *bench, int max_tasks, int max_pipes)
{
    memset(r, 0, sizeof(*r));
    r->bench = bench;
    waitqueue_init(&r->start_wq, "run start");
    waitqueue_init(&r->main_wq, "run main");
    r->tasks_before = task_count();
    pipe_get_stats(&r->pipe_stats_before);
    unix_get_stats(&r->unix_stats_before);
    r->pipes_before = r->pipe_stats_before.pipes_live;
    r->rings_before = r->pipe_stats_before.rings_live;
    r->socks_before = r->unix_stats_before.socks_live;
    r->skbs_before = r->unix_stats_before.skbs_live;
    if (max_tasks > 0 && !(r->tasks = kzalloc((size_t)max_tasks * sizeof(*r->tasks))))
        goto oom;
    if (max_pipes > 0 && !(r->pipes = kzalloc((size_t)max_pipes * sizeof(*r->pipes))))
        goto oom;
    r->max_tasks = max_tasks;
    r->max_pipes = max_pipes;
    return 0;
oom:
    kfree(r->tasks);
    r->tasks = NULL;
    r->status = RUN_OOM;
    strlcpy(r->why, "bookkeeping", sizeof(r->why));
    return RUN_OOM;
}

int run_init_pairs(struct run *r, int max_pairs)
{
    if (max_pairs > 0 && !(r->pairs = kzalloc((size_t)max_pairs * sizeof(*r->pairs)))) {
        r->status = RUN_OOM;
        strlcpy(r->why, "bookkeeping", sizeof(r->why));
        return RUN_OOM;
    }
    r->max_pairs = max_pairs;
    return 0;
}

void *run_zalloc(struct run *r, size_t n)
{
    struct run_alloc *a = kzalloc(sizeof(*a) + n);
    if (!a)
        return NULL;
    a->next = r->allocs;
    r->allocs = a;
    return a + 1;
}

struct pipe *run_pipe(struct run *r, uint32_t size)
{
    if (r->npipes >= r->max_pipes)
        return NULL;
    struct pipe *p = pipe_create(size);
    if (p)
        r->pipes[r->npipes++] = p;
    return p;
}

struct unix_pair *run_socketpair(struct run *r)
{
    if (r->npairs >= r->max_pairs)
        return NULL;
    struct unix_pair *pair = &r->pairs[r->npairs];
    if (unix_socketpair(pair) != 0)
        return NULL;
    r->npairs++;
    return pair;
}

struct task *run_spawn(struct run *r, void (*fn)(void *), void *arg, const char *name, int mm)
{
    if (r->ntasks >= r->max_tasks)
        return NULL;
    struct task_attr attr = TASK_ATTR_DEFAULT;
    attr.name = name;
    attr.cpus_allowed = bench_cpus();
    attr.mm = mm;
    struct task *t = task_create(fn, arg, &attr);
    if (t)
        r->tasks[r->ntasks++] = t;
    return t;
}

void run_settle(struct run *r)
{
    r->expected = r->ntasks;
    __sync_synchronize();          /* pairs with the locked add in run_wait_start */
    wait_event(r->main_wq, r->ready == r->expected);
}

void run_start(struct run *r)
{
    run_settle(r);
    r->t_start = clock_ns();
    __sync_bool_compare_and_swap(&r->go, 0, 1);
    wake_up(&r->start_wq);
}

bool run_wait_start(struct run *r)
{
    int n = atomic_add_return(&r->ready, 1);
    int e = r->expected;
    if (e && n == e)
        wake_up(&r->main_wq);
    wait_event(r->start_wq, r->go != 0);
    return r->go > 0;
}

void run_abort(struct run *r, int status, const char *why)
{
    if (__sync_bool_compare_and_swap(&r->status, RUN_OK, status))
        strlcpy(r->why, why ? why : "aborted", sizeof(r->why));
    /* Tasks waiting at the barrier are let go by run_reap, one at a time. */
    __sync_bool_compare_and_swap(&r->go, 0, -1);
    for (int i = 0; i < r->npipes; i++)
        pipe_shutdown(r->pipes[i]);
    for (int i = 0; i < r->npairs; i++)
        unix_shutdown(r->pairs[i].sk[0]);
}

bool run_aborted(const struct run *r) { return r->status != RUN_OK; }

void run_pipe_failure(struct run *r, int result, const char *what)
{
    if (result == PIPE_ESHUTDOWN)
        return;                    /* somebody else aborted the run */
    if (result == PIPE_ENOMEM)
        run_abort(r, RUN_OOM, "pipe_ring");
    else
        run_abort(r, RUN_ERROR, what);
}

void run_done(struct run *r)
{
    if (atomic_add_return(&r->pending, -1) == 0)
        r->t_end = clock_ns();
}

void run_task_end(struct run *r)
{
    __sync_fetch_and_or(&r->cpus_used, current_task()->cpus_run_mask);
}

/*
 * A run aborted before its start (memory ran out while its tasks were being
 * created) lets the tasks waiting at its barrier go one at a time, each
 * reaped before the next is woken.  Woken together, the thousands of tasks
 * of a failed maxgroups attempt would all be runnable at once: 2.4's
 * goodness() scans them at every switch, and the bench task, whose counter
 * beats the children's, would wake them faster than they exit (O(n^2), 40 s
 * of host time for 14,500 tasks at 1 CPU under TCG).  Nothing is measured
 * here; a run's start still wakes everyone at once.
 */
void run_reap(struct run *r)
{
    bool aborted_before_start = r->go < 0;
    for (int i = 0; i < r->ntasks; i++) {
        if (r->tasks[i]) {
            if (aborted_before_start)
                wake_up_task(r->tasks[i], 0);   /* false if it never got to the barrier */
            task_wait(r->tasks[i]);
        }
        r->tasks[i] = NULL;
    }
    r->t_reaped = clock_ns();
}

int run_free(struct run *r)
{
    for (int i = 0; i < r->npipes; i++)
        pipe_destroy(r->pipes[i]);
    r->npipes = 0;
    uint32_t max_queued = 0;
    for (int i = 0; i < r->npairs; i++) {
        max_queued = MAX(max_queued, unix_max_queued(r->pairs[i].sk[0]));
        max_queued = MAX(max_queued, unix_max_queued(r->pairs[i].sk[1]));
        unix_pair_destroy(&r->pairs[i]);
    }
    r->npairs = 0;
    while (r->allocs) {
        struct run_alloc *a = r->allocs;
        r->allocs = a->next;
        kfree(a);
    }
    kfree(r->tasks);
    kfree(r->pipes);
    kfree(r->pairs);
    r->tasks = NULL;
    r->pipes = NULL;
    r->pairs = NULL;
    struct pipe_stats ps;
    struct unix_stats us;
    pipe_get_stats(&ps);
    unix_get_stats(&us);
    const struct pipe_stats *p0 = &r->pipe_stats_before;
    const struct unix_stats *u0 = &r->unix_stats_before;
    r->chan = (struct run_chanstat){
        .pipe_woken_sync = ps.woken_sync - p0->woken_sync,
        .pipe_woken_plain = ps.woken_plain - p0->woken_plain,
        .pipe_reader_sleeps = ps.reader_sleeps - p0->reader_sleeps,
        .pipe_writer_sleeps = ps.writer_sleeps - p0->writer_sleeps,
        .sock_woken_sync = us.woken_sync - u0->woken_sync,
        .sock_woken_plain = us.woken_plain - u0->woken_plain,
        .sock_reader_sleeps = us.reader_sleeps - u0->reader_sleeps,
        .sock_writer_sleeps = us.writer_sleeps - u0->writer_sleeps,
        .sock_skbs = us.skbs_sent - u0->skbs_sent,
        .sock_max_queued = max_queued,
    };
    int tasks_now = task_count();
    if (tasks_now != r->tasks_before || ps.pipes_live != r->pipes_before || ps.rings_live != r->rings_before ||
        us.socks_live != r->socks_before || us.skbs_live != r->skbs_before) {
        kprintf("%s: leak after the run: tasks %d -> %d, pipes %u -> %u, rings %u -> %u, sockets %u -> %u, "
                "skbs %u -> %u\n",
                r->bench, r->tasks_before, tasks_now, r->pipes_before, ps.pipes_live, r->rings_before, ps.rings_live,
                r->socks_before, us.socks_live, r->skbs_before, us.skbs_live);
        r->status = RUN_ERROR;
        strlcpy(r->why, "leak", sizeof(r->why));
    }
    return r->status;
}

void run_print_chanstat(const struct run *r, int run_index, const char *extra)
{
    const struct run_chanstat *c = &r->chan;
    kprintf(PROTO_FORMAT(CHANSTAT), r->bench, run_index, extra ? extra : "", (unsigned long long)c->pipe_woken_sync,
            (unsigned long long)c->pipe_woken_plain, (unsigned long long)c->pipe_reader_sleeps,
            (unsigned long long)c->pipe_writer_sleeps, (unsigned long long)c->sock_woken_sync,
            (unsigned long long)c->sock_woken_plain, (unsigned long long)c->sock_reader_sleeps,
            (unsigned long long)c->sock_writer_sleeps, (unsigned long long)c->sock_skbs, c->sock_max_queued);
}

uint64_t run_elapsed_ns(const struct run *r) { return r->t_end > r->t_start ? r->t_end - r->t_start : 0; }
uint64_t run_reaped_ns(const struct run *r) { return r->t_reaped > r->t_start ? r->t_reaped - r->t_start : 0; }

const char *run_status_name(int status)
{
    return status == RUN_OK ? PROTO_STATUS_OK : status == RUN_OOM ? PROTO_STATUS_OOM : PROTO_STATUS_ERROR;
}

int run_exit_code(int status)
{
    return status == RUN_OK ? EXIT_OK : status == RUN_OOM ? EXIT_OOM : EXIT_ERROR;
}
