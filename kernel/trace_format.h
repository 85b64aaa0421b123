/*
 * The trace stream: what the kernel writes on its trace channel at the end
 * of a traced run (kernel/trace.c) and what the host tools read
 * (tools/src/trace/trace_data.c).  Plain fixed-width little-endian structures, no
 * pointers, so that one header serves the 32-bit kernel and the 64-bit host
 * (each size is checked at compile time on both).  docs/tracing.md
 * describes it for other readers.
 *
 *   struct trace_stream_header
 *   per CPU 0..ncpus-1: struct trace_cpu_header, then nrecords records, oldest first
 *   struct trace_stream_trailer (FNV-1a of every byte before it)
 */
#ifndef KERNEL_TRACE_FORMAT_H
#define KERNEL_TRACE_FORMAT_H

#include <stdint.h>

#define TRACE_STREAM_MAGIC "schedlab-trace\n"   /* 15 characters and the NUL: 16 bytes */
#define TRACE_STREAM_VERSION 1

/* Event types, also the bits of the event filter (trace_events=). */
enum trace_type {
    TRACE_SWITCH = 0,       /* sched_switch: pid/comm/prio = prev, pid2/comm2/prio2 = next, state = prev's */
    TRACE_WAKEUP = 1,       /* sched_wakeup: pid woken onto cpu; the record's CPU is the waker's; flags: sync;
                               pid2/comm2/prio2: the task current on the recording CPU (the waker) */
    TRACE_WAKEUP_NEW = 2,   /* sched_wakeup_new: the first wake-up of a new task, likewise */
    TRACE_MIGRATE = 3,      /* sched_migrate_task: pid moves from cpu2 (orig) to cpu (dest); pid2: current */
    TRACE_FORK = 4,         /* sched_process_fork: pid (parent) created pid2 (child) */
    TRACE_EXIT = 5,         /* sched_process_exit: pid exits; value = its CPU time in ns (the core's count) */
    TRACE_SCHED = 6,        /* sched_event: a scheduler's own moment; comm2 = its name, value, cpu */
    TRACE_MEMSTALL = 7,     /* memstall (CACHES=1 with machine=): the memory model's biggest stall of a CPU
                               in a tick (kernel/machine/stalltrace.h): cpu = the CPU stalled, value = the
                               stall in ns, flags = where the line came from (enum stall_source), pid = the
                               task running (0: idle), pid2 = every stall of the CPU in that tick, ns;
                               prio, prio2 = the access's code site (low, high 16 bits); comm and comm2 are
                               ONE 32-byte name of what was accessed ("task.cpus_allowed", "copy"), NUL-ended */
    TRACE_NR_TYPES = 8,
};
#define TRACE_ALL_TYPES ((1u << TRACE_NR_TYPES) - 1)

/* The switched-out task's state (flags of a TRACE_SWITCH record). */
enum trace_prev_state {
    TRACE_STATE_RUNNABLE = 0,   /* preempted or yielding: still runnable (ftrace "R+", "R" for idle) */
    TRACE_STATE_SLEEPING = 1,   /* blocked ("S") */
    TRACE_STATE_DEAD = 2,       /* its last switch ("X") */
};
/* Where a memstall record's line came from (its flags). */
enum trace_stall_source {
    TRACE_STALL_L2 = 1,         /* an L1 miss the L2 answered */
    TRACE_STALL_MEMORY = 2,     /* an L2 miss served by memory */
    TRACE_STALL_C2C = 3,        /* an L2 miss served by another CPU's modified copy (cache-to-cache) */
    TRACE_STALL_L1_XFER = 4,    /* a shared L2: the other core's L1 had it modified */
    TRACE_STALL_UPGRADE = 5,    /* a store to a shared line: the invalidation on the bus */
    TRACE_STALL_BUS = 6,        /* none of these: waiting for the bus (a store behind a write-back) */
    TRACE_STALL_NR = 7,
};
#define TRACE_FLAG_SYNC 0x1     /* TRACE_WAKEUP/TRACE_WAKEUP_NEW: a WAKE_SYNC wake-up */

#define TRACE_COMM_LEN 16

struct trace_record {
    uint64_t ts_ns;             /* ns since boot: the core's own clock (TSC) */
    uint8_t type;               /* enum trace_type */
    uint8_t cpu;                /* target (wake-ups), dest (migrate), the CPU concerned (sched) */
    uint8_t cpu2;               /* orig (migrate) */
    uint8_t flags;              /* prev state (switch), TRACE_FLAG_SYNC (wake-ups) */
    int32_t pid;
    int32_t pid2;
    int16_t prio, prio2;        /* Linux's numbering: 120 + nice, 99 - rt_priority for RT tasks */
    int64_t value;
    char comm[TRACE_COMM_LEN];  /* NUL-terminated */
    char comm2[TRACE_COMM_LEN];
};

struct trace_stream_header {
    char magic[16];             /* TRACE_STREAM_MAGIC */
    uint32_t version;           /* TRACE_STREAM_VERSION */
    uint32_t header_size;       /* sizeof(struct trace_stream_header) */
    uint32_t record_size;       /* sizeof(struct trace_record) */
    uint32_t ncpus;
    uint32_t events;            /* the filter: bits of enum trace_type */
    uint32_t capacity;          /* records per CPU buffer */
    uint32_t hz;
    uint32_t tsc_khz;
    uint64_t start_ns, stop_ns; /* recording began and ended (ns since boot) */
    char sched[16];
    char cmdline[256];          /* the kernel command line, cut to fit */
};

struct trace_cpu_header {
    char magic[4];              /* "cpu" */
    uint32_t cpu;
    uint32_t nrecords;          /* records that follow (at most capacity, plus memstall records) */
    uint32_t memstall_dropped;  /* memstall records lost to a full buffer (they are not in written, dropped) */
    uint64_t written;           /* events recorded on this CPU (memstall records not counted) */
    uint64_t dropped;           /* overwritten, oldest first, when the buffer was full */
};

struct trace_stream_trailer {
    char magic[4];              /* "end" */
    uint32_t checksum;          /* FNV-1a (32 bit) of every byte of the stream before this trailer */
    uint64_t total_records;
};

#define TRACE_FNV_OFFSET 2166136261u
#define TRACE_FNV_PRIME 16777619u

_Static_assert(sizeof(struct trace_record) == 64, "trace_record: 64 bytes on kernel and host");
_Static_assert(sizeof(struct trace_stream_header) == 336, "trace_stream_header layout");
_Static_assert(sizeof(struct trace_cpu_header) == 32, "trace_cpu_header layout");
_Static_assert(sizeof(struct trace_stream_trailer) == 16, "trace_stream_trailer layout");

#endif
