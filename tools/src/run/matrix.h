/*
 * A prepared results directory: what run writes before the first boot and
 * what resume, boot, merge and reproduce read (docs/tools.md).
 *   matrix.txt   cmdline, sweep, sweep_boots, bench, runs, boots, accel, mem, timeout
 *   jobs.txt     a boot a line: NAME SCHED SMP BOOT [KEY=VALUE...] (the boot-swept words)
 *   kernels/     SCHED.elf, SCHED.flags, bench-list.txt
 *   meta.txt     provenance (write_meta)
 *   logs/NAME.log, .err, .rc  a boot's console, QEMU's stderr, and last its
 *                exit status (its presence means the boot ended; a log
 *                without one is a boot that was stopped)
 */
#ifndef SCHEDLAB_MATRIX_H
#define SCHEDLAB_MATRIX_H

#include "procs.h"

#include <stdbool.h>
#include <stddef.h>

struct run_job {
    char *name, *sched, *extra;   /* extra: the boot-swept words ("" when none) */
    long smp, boot;
};

struct run_dir {
    char *dir;                    /* absolute */
    char *cmdline, *accel;
    long mem, timeout;
    struct run_job *jobs;
    size_t njobs;
    char **scheds;                /* distinct, in the order of jobs.txt */
    size_t nscheds;
    /* the traced boot, when there is one (run --trace-boot, trace) */
    char *trace_boot, *trace_words, *trace_out;
};

/* Reads DIR's matrix.txt, jobs.txt and kernels (their sha256 against
 * meta.txt's); false after an error message. */
bool run_dir_load(const char *dir, struct run_dir *d);
void run_dir_free(struct run_dir *d);
const struct run_job *run_dir_job(const struct run_dir *d, const char *name);
/* The boots still to do: no logs/NAME.rc, and with retry_failed those whose rc is not 0. */
size_t run_dir_todo(const struct run_dir *d, bool retry_failed, const struct run_job ***todo);

/* The boot's command: tools/qemu-run.sh with DIR's kernel and settings. */
void boot_argv(const struct run_dir *d, const struct run_job *j, struct argv *a);
/* Its files: logs/NAME.log, .err (allocated). */
char *boot_file(const struct run_dir *d, const struct run_job *j, const char *ext);
/* After the boot ended by itself with rc: logs/NAME.rc (rc= wall_s= oversubscribed= host= wall_ms=). */
bool boot_write_rc(const struct run_dir *d, const struct run_job *j, int rc, double t_start, double t_end);
/* "ok in 3 s on HOST", "FAILED (exit 124: ...) in 60 s", "stopped before it finished" (allocated). */
char *boot_outcome(const struct run_dir *d, const char *name);
/* Runs one boot in the foreground (boot, parallel's and Slurm's jobs): logs and .rc; its rc (130/143: stopped). */
int boot_run(const struct run_dir *d, const struct run_job *j);

/* "rc=0 ..." of a .rc file: the rc, or -1 when there is none. */
long rc_file_status(const char *path);

#endif
