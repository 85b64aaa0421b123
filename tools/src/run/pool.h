/*
 * The one job pool of the verbs that boot (run, reproduce, seed-table,
 * trace): the boots of a whole run, however many matrices they belong
 * to, share the host's cores.  A job costs the cores it keeps busy (a TCG
 * boot one per vCPU, an icount or vsmp boot one); jobs start longest
 * first (their recorded times; those that cost the whole budget before
 * the others) while their costs fit the budget, one after another in that
 * order.  A boot with more vCPUs than the budget
 * halts its idle vCPUs and lock waiters (tools/qemu-run.sh gives it
 * pvspin=1 and idle=halt) and kept fewer cores busy than it held
 * (goodness maxgroups, 128 MiB, 4 and 8 vCPUs on 2 cores: 1.21 and 1.27
 * cores, user+sys over wall): it is charged one core fewer than the
 * budget, and runs at nice 10 so that the one-core boot beside it gets its
 * core (o1, vsmp, 8 CPUs: 4.7-5.3 s alone, 7.3-7.4 s beside that boot,
 * 4.8-5.0 s beside it at nice 10).
 *
 * SIGINT and SIGTERM stop every running job (its process group) and start
 * no other; what finished stays finished.  Processes run through
 * posix_spawn and are waited for by pid (never a shell, never a $$).
 */
#ifndef SCHEDLAB_POOL_H
#define SCHEDLAB_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum job_state { JOB_WAITING, JOB_RUNNING, JOB_DONE, JOB_STOPPED, JOB_NOT_STARTED };

struct job {
    char **argv;             /* the command (the caller's) */
    const char *out, *err;   /* its stdout and stderr files */
    long vcpus;              /* cores it keeps busy: its vCPUs under TCG, 1 under icount and vsmp */
    double est;              /* seconds it is expected to take; NAN: unknown (started first: it may be long) */
    void *arg;               /* the caller's */
    size_t order;            /* ties: the caller's order */
    /* the pool's */
    enum job_state state;
    pid_t pid;
    long charged;            /* cores charged */
    bool niced;
    int status;              /* exit status (128 + signal) */
    double t_start, t_end;   /* seconds since the epoch */
};

struct pool {
    long budget;             /* host cores */
    long max_jobs;           /* at most this many at once; 0: as many as fit */
    void (*started)(struct job *j, void *ctx);
    void (*finished)(struct job *j, void *ctx);   /* a job that ended by itself */
    void *ctx;
    size_t running, done;    /* now */
};

/* Runs the jobs; returns 0, or the signal (SIGINT, SIGTERM) that stopped it. */
int pool_run(struct pool *p, struct job *jobs, size_t n);
/* The cores a job of vcpus is charged with budget cores, and whether it runs niced. */
long pool_charge(long vcpus, long budget, bool *niced);
/* Seconds since the epoch, with fractions. */
double pool_now(void);
/* This host's cores. */
long host_cores(void);

/* SIGINT and SIGTERM noted (not acted on) from now on; pool_stop_signal() says which came. */
void pool_catch_signals(void);
int pool_stop_signal(void);

#endif
