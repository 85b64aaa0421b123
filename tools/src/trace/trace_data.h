/*
 * Scheduler traces on the host: the kernel's trace stream (kernel/trace_format.h)
 * read into one list of events, and everything made from it:
 *
 *   trace_data.c   the stream reader, ftrace's text format (writer and the reader of the round trip)
 *   trace_dat.c    trace-cmd's trace.dat (version 6), for trace-cmd report and KernelShark
 *   trace_stats.c  per-task latency (perf sched latency), perf sched map, the per-CPU summary, the checks
 *   trace_svg.c    the timeline: SVG, and a self-contained zoomable HTML page
 *   cmd_trace.c    the verbs: trace, trace-check
 *
 * Every input may be cut off or corrupt; a reader that fails says why in one
 * line (no partial result is used).
 */
#ifndef SCHEDLAB_TRACE_DATA_H
#define SCHEDLAB_TRACE_DATA_H

#include "kernel/trace_format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TRACE_MAX_CPUS 32

/* One event.  cpu is where it was recorded (the waker's CPU for a wake-up);
 * the other fields are as in struct trace_record, plus for a wake-up and a
 * migration the task current on cpu (cur_pid, cur_comm) that ftrace shows in
 * its task column. */
struct tev {
    uint64_t ts;                 /* ns since boot */
    uint32_t seq;                /* position in its CPU's buffer: a stable order for equal times */
    uint8_t cpu;
    uint8_t type;                /* enum trace_type */
    uint8_t tcpu;                /* target (wake-ups), dest (migrate), the CPU concerned (sched) */
    uint8_t ocpu;                /* orig (migrate) */
    uint8_t flags;               /* prev state (switch), TRACE_FLAG_SYNC */
    int32_t pid, pid2;           /* switch: prev, next; fork: parent, child; wake-up, migrate: cur_pid in pid2 */
    int16_t prio, prio2;
    int64_t value;               /* exit: CPU time ns; sched: its value */
    char comm[TRACE_COMM_LEN];
    char comm2[TRACE_COMM_LEN];  /* next, child, current (wake-up, migrate), the sched event's name */
    char what[2 * TRACE_COMM_LEN]; /* memstall: what the access named ("task.cpus_allowed"); comm: the task running */
};

/* memstall (kernel/machine/stalltrace.h): value = the stall ns, pid2 = every
 * stall of that CPU in that tick (ns), flags = enum trace_stall_source,
 * tev_stall_site() the code address of the access. */
const char *tev_stall_source_name(int src);   /* "memory", "c2c", ...; "?" */
int tev_stall_source_of_name(const char *name); /* -1 if unknown */
static inline uint32_t tev_stall_site(const struct tev *e) { return (uint16_t)e->prio | (uint32_t)(uint16_t)e->prio2 << 16; }

struct trace_cpu_count {
    uint64_t written, dropped, kept;    /* the scheduler's records (memstall not counted) */
    uint64_t memstall, memstall_dropped; /* the memory model's stall records, and those lost to a full buffer */
};

struct trace {
    uint32_t ncpus, events, capacity, hz, tsc_khz;
    uint64_t start_ns, stop_ns;
    char sched[16];
    char cmdline[256];
    struct trace_cpu_count cpu[TRACE_MAX_CPUS];
    struct tev *ev;              /* every CPU's events merged by (ts, cpu, seq) */
    size_t nev;
    uint64_t ts_resolution_ns;   /* 1 from the stream, 1000 from ftrace's text (microseconds) */
};

/* The ftrace event name of a type ("sched_switch"); the short filter name is trace_type_names in the kernel. */
const char *tev_event_name(int type);
int tev_type_of_name(const char *name);       /* -1 if unknown */
const char *tev_short_name(int type);         /* "switch", "wakeup"...: trace_events= */
/* The task column of ftrace: the task current on the event's CPU. */
int tev_current_pid(const struct tev *e);
const char *tev_current_comm(const struct tev *e);
/* prev_state as ftrace prints it: "R+", "R" (idle), "S", "X". */
const char *tev_state_text(const struct tev *e);

/* The kernel's stream.  false with *err set (malloc'd) when it is not a
 * complete, intact stream: wrong magic or version, sizes that disagree, a
 * record of an unknown type, a cut-off file, a checksum mismatch. */
bool trace_read_stream(const char *path, struct trace *t, char **err);
bool trace_parse_stream(const unsigned char *buf, size_t len, struct trace *t, char **err);
void trace_free(struct trace *t);
/* Sorts ev by (ts, cpu, seq) (the readers do). */
void trace_sort(struct trace *t);

/* ftrace's text format, as /sys/kernel/tracing/trace prints it, with the
 * stream's header in "# schedlab:" comment lines so that the text reads back
 * into the same trace (timestamps in microseconds, as ftrace prints them). */
void trace_write_text(const struct trace *t, FILE *out);
bool trace_read_text(const char *path, struct trace *t, char **err);
bool trace_parse_text(const char *text, size_t len, struct trace *t, char **err);

/* trace-cmd's trace.dat, version 6 (trace-cmd.dat.v6(5)). */
bool trace_write_dat(const struct trace *t, const char *path, char **err);

/* One pass over the events (trace_stats.c): per task and per CPU. */
struct trace_task {
    int32_t pid;
    char comm[TRACE_COMM_LEN];
    int group;                   /* hackbench: its group (from the order of forks), else -1 */
    uint64_t runtime_ns, slices; /* slices: times it was switched in */
    uint64_t ndelays, delay_sum_ns, delay_max_ns, delay_max_at; /* wake-up (or preemption) to running */
    bool exited;
    int64_t exit_runtime_ns;     /* the kernel's own count at exit (-1: not in the trace) */
    bool whole_life;             /* its creation is in the trace: every slice is */
    /* while walking */
    int run_cpu, rq_cpu;         /* -1: not running, not runnable */
    bool waiting, slept;
    uint64_t in_ts, wait_ts;
};
struct trace_rq_point {
    uint64_t ts;
    uint16_t cpu, nr;
};
struct trace_analysis {
    struct trace_task *task;     /* by first appearance */
    size_t ntask;
    size_t *index;               /* open-addressed pid -> task index + 1 */
    size_t index_size;
    uint64_t window_ns;
    uint64_t valid_from;         /* before this some CPU dropped events: causes may be missing */
    struct trace_cpu_stat {
        uint64_t idle_ns, busy_ns, switches, wakeups, migrations_in, rq_area, sched_events;
        uint16_t rq_max, nr;     /* nr: tasks runnable there now (the running one too) */
        uint64_t idle_since, rq_since, slice_since;   /* idle and busy count from the CPU's first record */
        int32_t curr;            /* -1 unknown */
    } cpu[TRACE_MAX_CPUS];
    struct trace_rq_point *rq;   /* run-queue length changes, in time order */
    size_t nrq;
    uint64_t migrations, ngroups;
    bool groups_by_pid;          /* hackbench's forks were dropped: groups from pid order */
};
void trace_analyze(const struct trace *t, struct trace_analysis *a);
void trace_analysis_free(struct trace_analysis *a);
struct trace_task *trace_find_task(const struct trace_analysis *a, int32_t pid);

/* Where a CPU that dropped its oldest records starts: its first kept
 * record (0 when it kept none or dropped none). */
uint64_t trace_cpu_first_kept(const struct trace *t, uint32_t cpu);
/* One line per CPU that dropped records, in words: "trace: cpu 0 dropped
 * 12661 of 29045 events; the timeline starts at 61.2 ms there" (the time
 * since recording began, truncated to 0.1 ms as the kernel prints it).
 * Returns how many CPUs dropped. */
size_t trace_write_drops(const struct trace *t, FILE *out, const char *prefix, const char *suffix);

/* Analyses (trace_stats.c). */
void trace_write_latency(const struct trace *t, FILE *out);   /* perf sched latency, then perf sched map */
void trace_write_summary(const struct trace *t, FILE *out);   /* per CPU: busy, idle, switches, wake-ups, rq length */
void trace_write_summary_csv(const struct trace *t, FILE *out);
void trace_write_rq_csv(const struct trace *t, FILE *out);    /* run-queue length over time, per CPU */

/* The checks of trace-check: the invariants of a well-formed trace.  Returns
 * the number of violations; each is one line on out (at most max_report). */
size_t trace_check_invariants(const struct trace *t, FILE *out, size_t max_report);
/* The trace against the kernel's own counters in its console log (schedstat,
 * tracestat lines): switches, wake-ups and migrations per CPU, dropped counts. */
size_t trace_check_against_log(const struct trace *t, const char *log, FILE *out);

/* trace.json, the Chrome trace-event format (trace_json.c): a track per
 * CPU, a complete event per run slice; returns the slices written. */
size_t trace_write_json(const struct trace *t, FILE *out);
/* The run slices the timeline and trace.json draw, per CPU and in all. */
size_t trace_count_slices(const struct trace *t, size_t per_cpu[TRACE_MAX_CPUS]);

/* The timeline (trace_svg.c). */
struct timeline_opts {
    bool arrows;                 /* wake-up arrows: from the waker's CPU to where the task ran */
    int color;                   /* TIMELINE_COLOR_* */
    const char *id;              /* unique within a page: element ids and the script's state */
    const char *title;
};
enum { TIMELINE_COLOR_AUTO, TIMELINE_COLOR_TASK, TIMELINE_COLOR_GROUP };
void trace_write_svg(const struct trace *t, const struct timeline_opts *o, FILE *out, bool standalone);
void trace_write_html(const struct trace *t, const struct timeline_opts *o, FILE *out);

#endif
