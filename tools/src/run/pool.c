/* The job pool (see pool.h). */
#define _DEFAULT_SOURCE
#include "pool.h"
#include "procs.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig)
{
    if (!stop_sig)
        stop_sig = sig;
}

void pool_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;   /* no SA_RESTART: a wait or sleep returns early */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int pool_stop_signal(void)
{
    return stop_sig;
}

double pool_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

long host_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

long pool_charge(long vcpus, long budget, bool *niced)
{
    *niced = false;
    if (vcpus <= budget)
        return vcpus < 1 ? 1 : vcpus;
    if (budget > 1) {
        *niced = true;
        return budget - 1;
    }
    return budget;
}

/* The budget of the pool being sorted (by_length's). */
static long sort_budget;

/* Longest first; unknown lengths before known ones (a new boot may be long); but of the known
 * ones, those charged the whole budget first: they run alone, and started later they would
 * wait for every running job to end, a core idle meanwhile (seed000 --full's 2-vCPU TCG
 * maxgroups boots: 465 -> 459 s of boots, simulated from their recorded times); then the
 * caller's order. */
static int by_length(const void *a, const void *b)
{
    const struct job *x = *(const struct job *const *)a, *y = *(const struct job *const *)b;
    bool ux = isnan(x->est), uy = isnan(y->est);
    if (ux != uy)
        return ux ? -1 : 1;
    bool wx = x->charged >= sort_budget, wy = y->charged >= sort_budget;
    if (!ux && wx != wy)
        return wx ? -1 : 1;
    if (!ux && x->est != y->est)
        return x->est > y->est ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static bool start_job(struct pool *p, struct job *j)
{
    struct argv a = { 0 };
    if (j->niced) {
        argv_add(&a, "nice");
        argv_add(&a, "-n");
        argv_add(&a, "10");
    }
    for (size_t i = 0; j->argv[i]; i++)
        argv_add(&a, j->argv[i]);
    struct spawn_io io = { .out = j->out, .err = j->err, .own_group = true };
    j->t_start = pool_now();
    j->pid = spawn_start(a.v, &io);
    argv_free(&a);
    if (j->pid < 0) {
        j->state = JOB_NOT_STARTED;
        j->status = 127;
        return false;
    }
    j->state = JOB_RUNNING;
    p->running++;
    if (p->started)
        p->started(j, p->ctx);
    return true;
}

int pool_run(struct pool *p, struct job *jobs, size_t n)
{
    struct job **order = xcalloc(n ? n : 1, sizeof(*order));
    for (size_t i = 0; i < n; i++) {
        order[i] = &jobs[i];
        jobs[i].state = JOB_WAITING;
        jobs[i].charged = pool_charge(jobs[i].vcpus, p->budget, &jobs[i].niced);
    }
    sort_budget = p->budget;
    qsort(order, n, sizeof(*order), by_length);
    size_t next = 0;
    long used = 0;
    p->running = p->done = 0;
    while (!stop_sig && (next < n || p->running)) {
        /* start, in order, while the next one fits (a job bigger than the budget runs when nothing else does) */
        while (!stop_sig && next < n && (!p->max_jobs || (long)p->running < p->max_jobs) &&
               (p->running == 0 || used + order[next]->charged <= p->budget)) {
            struct job *j = order[next++];
            if (start_job(p, j))
                used += j->charged;
            else
                p->done++;
        }
        /* reap what ended */
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            struct job *j = order[i];
            if (j->state != JOB_RUNNING)
                continue;
            int ws;
            pid_t r = waitpid(j->pid, &ws, WNOHANG);
            if (r != j->pid)
                continue;
            j->t_end = pool_now();
            j->status = spawn_status(ws);
            j->state = JOB_DONE;
            used -= j->charged;
            p->running--;
            p->done++;
            any = true;
            if (p->finished)
                p->finished(j, p->ctx);
        }
        if (!any && !stop_sig && (next < n || p->running)) {
            struct timespec ts = { 0, 100 * 1000 * 1000 };
            nanosleep(&ts, NULL);   /* a signal ends it early */
        }
    }
    if (stop_sig) {
        for (size_t i = 0; i < n; i++)
            if (order[i]->state == JOB_RUNNING)
                spawn_stop(order[i]->pid);
        for (size_t i = 0; i < n; i++)
            if (order[i]->state == JOB_RUNNING) {
                order[i]->status = spawn_wait(order[i]->pid);
                order[i]->t_end = pool_now();
                order[i]->state = JOB_STOPPED;
                p->running--;
            }
    }
    free(order);
    return stop_sig;
}
