/*
 * The memory model's stalls as trace events (trace=1 with machine=, a
 * CACHES=1 kernel; docs/caches.md "See it", docs/tracing.md).
 *
 * "The biggest stalls": per logical CPU and per tick of its own clock
 * (1/HZ of virtual time), the one access that stalled the CPU longest, with
 * what it accessed (memhook-plugin.cc's name: "task.cpus_allowed",
 * "spinlock_t.atomic", "pipe.ring", "copy"), where the line came from, and
 * the window's total stall.  One record a CPU and tick, so a trace of
 * seconds stays a few thousand records, and the scheduler's records are
 * never pushed out of their ring: the stall records have buffers of their
 * own, merged into each CPU's records by time when the stream is written
 * (kernel/trace.c).
 *
 * Free in virtual time: the model's step (memhooks.c model_step) runs
 * between two TSC reads whose difference is given back, and this file is
 * not instrumented; its buffers are allocated whenever trace=1 runs with a
 * model, whatever trace_events= says, so a boot with memstall traced and
 * one without have the same memory layout (tests/qemu/caches_trace.sh
 * compares their result lines, on 1 CPU).
 */
#ifndef KERNEL_MACHINE_STALLTRACE_H
#define KERNEL_MACHINE_STALLTRACE_H

#include "../types.h"
#include "../trace_format.h"

/* Set by stalltrace_start: model_step tests it before anything else. */
extern bool stalltrace_recording;

/* trace_boot (kernel/trace.c), with the memory model on: buffers for ncpus
 * CPUs; record is whether memstall is in trace_events=. */
void stalltrace_start(int ncpus, bool record);
/* Stop; the pending windows become records. */
void stalltrace_stop(void);

/* One access of cpu that stalled it stall_ns, at ts_ns of its clock. */
void stalltrace_note(int cpu, uint64_t ts_ns, uint32_t stall_ns, enum trace_stall_source src, uint32_t site,
                     const char *what, int32_t pid);

/* model_step's two calls (kernel/machine/memhooks.c): the CPU's counters
 * before the access, then the access, which the counters' change classifies. */
struct cache_stats;
struct cpu;
void stalltrace_mark(const struct cache_stats *s, uint64_t mark[5]);
void stalltrace_access(struct cpu *c, const struct cache_stats *s, const uint64_t mark[5], uint64_t now_cycles,
                       uint64_t stall_cycles, uint32_t site, const char *what);

/* cpu's records in time order; dropped: windows lost to a full buffer. */
const struct trace_record *stalltrace_records(int cpu, uint32_t *n, uint64_t *dropped);

#endif
