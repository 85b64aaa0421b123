/*
 * Scheduler tracing: per-CPU ring buffers of the core's scheduling events
 * (sched_switch, sched_wakeup, sched_wakeup_new, sched_migrate_task, fork,
 * exit) and of the moments a scheduler names itself (sched_trace_event in
 * kernel/sched_class.h), written out on a channel of their own once the
 * workload's clock has stopped.  trace=1 on the kernel command line turns
 * it on; docs/tracing.md says what comes out and how the host reads it.
 *
 * Off, it must cost nothing: bench=pipe under icount counts instructions
 * exactly, and a flag test per trace point would show there.  So
 *   - the two calls on every switch and wake-up go through pointers that
 *     the core calls anyway (sched_switch_call, sched_enqueue_call: a
 *     memory-indirect call is one instruction, like the direct call and the
 *     call through struct sched_class it replaces); tracing points them at
 *     wrappers that record and then call the real function;
 *   - every other trace point is a static key, as Linux's jump labels: a
 *     5-byte nop listed in the section trace_sites and patched into a jmp
 *     to the recording code at boot when its event is traced.  A nop is one
 *     instruction, so these sit only where they are rare (a migration, a
 *     scheduler's epoch) or where a scheduler asked for one.
 * On the host (HOST_TEST) a static key is a test of trace_host_keys, which
 * only a test that links kernel/trace.c defines; elsewhere the keys are off.
 *
 * The buffers are lock-free: each CPU writes only its own, with interrupts
 * off, and when it is full the oldest records are overwritten and counted
 * as dropped, never waited for.
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

/* trace_buf_kib= when not given, at most (kernel/main.c: an eighth of the memory at most). */
#define TRACE_BUF_KIB_DEFAULT 8192

#include "types.h"
#include "trace_format.h"

struct task;

#ifdef HOST_TEST
extern uint32_t trace_host_keys __attribute__((weak));
static inline bool trace_key(int type) { return &trace_host_keys && ((trace_host_keys >> type) & 1); }
#define TRACE_WEAK __attribute__((weak))
#else
/* One patchable site: the nop's address, where the jmp goes, the event type. */
struct trace_site {
    uint32_t code, target, type;
};

/* true only when type is traced: the nop falls through, the patched jmp
 * lands on "on".  type must be a constant. */
static inline __attribute__((always_inline)) bool trace_key(int type)
{
    __asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"    /* nopl 0(%%eax,%%eax,1) */
                 ".pushsection trace_sites, \"a\"\n\t"
                 ".balign 4\n\t"
                 ".long 1b, %l[on], %c0\n\t"
                 ".popsection"
                 : : "i"(type) : : on);
    return false;
on:
    return true;
}
#define TRACE_WEAK
#endif

/* The recording halves of the static-key trace points. */
void trace_migrate_slow(struct task *p, int from, int to) TRACE_WEAK;
void trace_sched_event_slow(int cpu, const char *what, int64_t value) TRACE_WEAK;

/* p moves from CPU from to CPU to (the core, in move_to_cpu). */
#define trace_migrate(p, from, to)                   \
    do {                                             \
        if (unlikely(trace_key(TRACE_MIGRATE)))      \
            trace_migrate_slow((p), (from), (to));   \
    } while (0)

/* What sched_trace_event (kernel/sched_class.h) expands to. */
#define trace_sched_event(cpu, what, value)                                  \
    do {                                                                     \
        if (unlikely(trace_key(TRACE_SCHED)))                                \
            trace_sched_event_slow((cpu), (what), (int64_t)(value));         \
    } while (0)

/* The core's context switch and the scheduler's enqueue, as the core calls
 * them (kernel/sched_core.c): switch_context and scheduler.enqueue unless
 * tracing put its wrappers there. */
extern struct task *(*sched_switch_call)(struct task *prev, struct task *next);
extern void (*sched_enqueue_call)(int cpu, struct task *p, int flags);

/* ---- control (kernel/trace.c) ---- */

/* The names trace_events= takes, by enum trace_type ("switch", "wakeup", ...). */
extern const char *const trace_type_names[TRACE_NR_TYPES + 2];   /* ... "all", NULL */
/* A comma list of names (or "all") into a mask; false with the reason in why. */
bool trace_parse_events(const char *list, uint32_t *mask, char *why, size_t size);

/* Start recording the events in mask into ncpus buffers of capacity records
 * each (bufs[cpu]), with cpu_table (TRACE_CPU_SLOTS words) to follow where
 * tasks are; installs the wrappers.  Once, before any task runs. */
#define TRACE_CPU_SLOTS 65536
void trace_start(uint32_t events, struct trace_record *const *bufs, uint32_t capacity, int ncpus,
                 uint32_t *cpu_table);
/* Stop recording; returns once no CPU is in the middle of a record. */
void trace_stop(void);
bool trace_enabled(void);            /* trace_start was called */
uint32_t trace_events(void);
void trace_cpu_counts(int cpu, uint64_t *written, uint64_t *dropped);

/* The stream (kernel/trace_format.h) through out(); returns its size in bytes. */
typedef void (*trace_out_fn)(const void *data, size_t n, void *arg);
uint64_t trace_write_stream(trace_out_fn out, void *arg, const char *sched, const char *cmdline, uint32_t hz,
                            uint32_t tsc_khz);

#ifdef HOST_TEST
void trace_host_reset(void);         /* between host tests */
#else
/* kmain: the trace keys' values (after sched_init).  Allocates the buffers,
 * patches the sites of the traced events and starts; an error line and exit
 * 1 when there is no trace channel or not enough memory. */
void trace_boot(uint32_t events, uint32_t buf_kib, int ncpus);
/* kernel_finish: stop, write the buffers on the trace channel, print the counts. */
void trace_finish(void);
#endif

#endif
