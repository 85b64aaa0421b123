/*
 * A run: what `schedlab run` was asked (its flags), checked before
 * anything is built or booted, then prepared (the images built, every
 * workload key checked against the kernel's own bench=list, the results
 * directory written), booted in the job pool or by another engine, and
 * collected.  reproduce, seed-table and trace make their runs the same way
 * (run_prepare for each, one pool for all of their boots).
 */
#ifndef SCHEDLAB_RUNREQ_H
#define SCHEDLAB_RUNREQ_H

#include "build.h"
#include "matrix.h"
#include "pool.h"

#include <stdbool.h>
#include <stddef.h>

enum engine { ENGINE_LOCAL, ENGINE_PARALLEL, ENGINE_SLURM, ENGINE_NONE };

struct run_param {
    char *key, *value;   /* a kernel word key=value, in the order given */
    char *how;           /* how it was given ("--groups 5", "--set fds=2"), for messages */
};

struct run_req {
    /* the matrix */
    char *scheds, *smps, *bench, *accel, *out;
    long runs, boots, mem, timeout;
    struct build_settings build;
    struct run_param *params;
    size_t nparams;
    bool force, quiet;
    /* who boots, how many at once */
    enum engine engine;
    long jobs;                  /* -j: at most this many boots at once; 0: as many as fit */
    char *hosts, *sbatch_args;
    /* resume */
    char *resume;
    char *novalue;       /* a --word with no value that is no flag of run's: a key given no value, or an unknown flag */
    bool retry_failed;
    char *matrix_flags;         /* the flags that describe a matrix (refused with --resume) */
    /* tracing one boot */
    char *trace_boot, *trace_words, *trace_dir, *trace_tool_args;
    char *command;              /* the command as typed, for meta.txt */
    /* prepared */
    char **sched_list;
    size_t nsched_list;
    long *smp_list;
    size_t nsmp_list;
};

void run_req_init(struct run_req *r);
void run_req_free(struct run_req *r);
/* Reads run's flags (argv[0] is the verb); 0, CLI_HELP-like 0 after --help (*help set), or EXIT_USAGE. */
int run_req_parse(struct run_req *r, int argc, char **argv, bool *help);
/* Checks what needs no image, builds the images, checks the keys against
 * bench=list and writes OUT (kernels, jobs.txt, matrix.txt, meta.txt); 0,
 * 1 (an error) or 2 (a usage error), after a message. */
int run_prepare(struct run_req *r, struct run_dir *d);

/* The boots of d (or the todo subset) as pool jobs; the caller owns the argv arrays (run_jobs_free). */
struct job *run_jobs(const struct run_dir *d, const struct run_job *const *todo, size_t n, size_t order_base);
void run_jobs_free(struct job *jobs, size_t n);
/* The pool's callbacks for boots of run_dirs: the .rc file and the start/done lines. */
void run_job_started(struct job *j, void *ctx);
void run_job_finished(struct job *j, void *ctx);
struct run_job_ref {
    const struct run_dir *d;
    const struct run_job *j;
    size_t *done, total;       /* for the done lines: "N/TOTAL done, R running" */
    const struct pool *pool;
};

/* The status line: schedlab progress watching a plan, as a child; stopped by progress_stop. */
void progress_start(const char *plan, const char *label, long slots, bool quiet);
void progress_stop(void);
/* A line on stderr that does not run into the status line. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* meta.txt's first part (at the start) and its last lines (at the end). */
bool write_meta_start(const struct run_req *r, const struct run_dir *d, const char *cmdline, const char *boot_sweep);
void write_meta_end(const char *dir, double t_start, int interrupted);

/* The host's cores (or fewer with -j) the status line spreads the ETA over. */
long run_slots(const struct run_req *r);

/* The whole of run (and resume) once parsed: 0, 1 (some boot failed), 2, 130, 143. */
int run_matrix(struct run_req *r);

/* INC:MAX as INC,2*INC,...,MAX (the STP request's form); other values as they are.  NULL after a usage error. */
char *expand_groups(const char *value);

/* run's flags, without "--" (NULL-terminated): what "did you mean" offers */
extern const char *const run_flags[];

#endif
