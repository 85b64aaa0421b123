/* Shared pieces of the message-passing workloads: runs, messages, patterns (see msg.h). */
#include "msg.h"
#include "bench.h"
#include "../kernel/cmdline.h"
#include "../kernel/lib.h"
#include "../kernel/mem.h"
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
    struct pipe_stats ps;
    pipe_get_stats(&ps);
    r->pipes_before = ps.pipes_live;
    r->rings_before = ps.rings_live;
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

int run_socketpair(struct run *r, struct socketpair *sp, uint32_t size)
{
    if (r->npipes + 2 > r->max_pipes)
        return PIPE_ENOMEM;
    if (socketpair_create(sp, size) != 0)
        return PIPE_ENOMEM;
    r->pipes[r->npipes++] = sp->rx[0];
    r->pipes[r->npipes++] = sp->rx[1];
    return 0;
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

void run_start(struct run *r)
{
    r->expected = r->ntasks;
    __sync_synchronize();          /* pairs with the locked add in run_wait_start */
    wait_event(r->main_wq, r->ready == r->expected);
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
    __sync_bool_compare_and_swap(&r->go, 0, -1);
    wake_up(&r->start_wq);
    for (int i = 0; i < r->npipes; i++)
        pipe_shutdown(r->pipes[i]);
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

void run_reap(struct run *r)
{
    for (int i = 0; i < r->ntasks; i++) {
        if (r->tasks[i])
            task_wait(r->tasks[i]);
        r->tasks[i] = NULL;
    }
}

int run_free(struct run *r)
{
    for (int i = 0; i < r->npipes; i++)
        pipe_destroy(r->pipes[i]);
    r->npipes = 0;
    while (r->allocs) {
        struct run_alloc *a = r->allocs;
        r->allocs = a->next;
        kfree(a);
    }
    kfree(r->tasks);
    kfree(r->pipes);
    r->tasks = NULL;
    r->pipes = NULL;
    struct pipe_stats ps;
    pipe_get_stats(&ps);
    int tasks_now = task_count();
    if (tasks_now != r->tasks_before || ps.pipes_live != r->pipes_before || ps.rings_live != r->rings_before) {
        kprintf("%s: leak after the run: tasks %d -> %d, pipes %u -> %u, rings %u -> %u\n", r->bench,
                r->tasks_before, tasks_now, r->pipes_before, ps.pipes_live, r->rings_before, ps.rings_live);
        r->status = RUN_ERROR;
        strlcpy(r->why, "leak", sizeof(r->why));
    }
    return r->status;
}

uint64_t run_elapsed_ns(const struct run *r) { return r->t_end > r->t_start ? r->t_end - r->t_start : 0; }

const char *run_status_name(int status)
{
    return status == RUN_OK ? "ok" : status == RUN_OOM ? "oom" : "error";
}

int run_exit_code(int status)
{
    return status == RUN_OK ? EXIT_OK : status == RUN_OOM ? EXIT_OOM : EXIT_ERROR;
}
