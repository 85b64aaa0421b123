/*
 * Turning one boot's serial log into result rows.
 *
 * The kernel prints (workloads/bench.h, kernel/main.c):
 *   boot: cpus=<n> sched=<s> hz=<HZ> tsc_khz=<k> accel=<a> mem_mib=<m>
 *   result bench=<b> sched=<s> cpus=<n> run=<i> <param>=<v>... <metric>=<v> status=<ok|error|oom>
 *   schedstat cpu=<i> ...
 *   done: exit=<code>
 * and "error: ", "panic: " or "watchdog: " lines when things go wrong.
 *
 * collect_boot() checks every result line, matches the lines against the
 * runs the command line asked for (runs x every swept list value) and adds
 * one row per expected run to the output table: the kernel's row when it
 * arrived intact, otherwise a row with status=failed and the reason (the
 * boot's panic, timeout, garbage, a malformed or missing line).  Nothing is
 * dropped, and a failed row never carries a metric.  A line the log ends
 * inside (cut off) stands for its run only when what is left of it names
 * exactly one run that did not report; otherwise it is dropped and that run
 * is missing, so a cut-off line is never counted as a run of its own.  A
 * time or rate that is not positive fails its run ("non-positive time_s=...").
 */
#ifndef SCHEDLAB_LOGPARSE_H
#define SCHEDLAB_LOGPARSE_H

#include "expect.h"
#include "metric.h"
#include "table.h"

#include <stdbool.h>
#include <stddef.h>

/* One boot of the matrix. */
struct boot_desc {
    const char *name;       /* file stem of the log, e.g. o1-smp2-boot1 */
    const char *sched;
    long smp, boot;
    int rc;                 /* tools/qemu-run.sh exit status; -1: never finished */
    const char *oversub;    /* "yes", "no" or NULL */
    const char *err_tail;   /* last line of QEMU's stderr (for rc 6), or NULL */
};

struct boot_verdict {
    bool ok;
    char *reason;           /* NULL when ok */
    char *boot_line;        /* NULL when missing */
    size_t expected, ok_rows, failed_rows;
};

/* Parses log[0..len) of boot b against e and appends rows to out.  The
 * verdict's strings are owned by the caller (boot_verdict_free). */
void collect_boot(const struct boot_desc *b, const char *log, size_t len, const struct expectation *e,
                  struct table *out, struct boot_verdict *v);
void boot_verdict_free(struct boot_verdict *v);

#endif
