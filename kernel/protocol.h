/*
 * The serial protocol: every line the kernel prints on its console for a
 * program to read, declared once.  The kernel prints through these
 * declarations (PROTO_FORMAT builds each fixed line's printf format from
 * its key table) and the host tools' one parser, tools/src/results/proto.c,
 * reads through them; docs/protocol.md describes the protocol
 * for people.  As kernel/trace_format.h is for the trace channel: macros and
 * string literals only, so that one header serves the 32-bit freestanding
 * kernel and the 64-bit host.
 *
 * A line is a kind (its first word) and then words separated by one space.
 * A word key=value is a key; a value holds no space, but a value in double
 * quotes (help="...") may.  Keys are lower case letters, digits and '_';
 * within a line each key appears once.  Kinds that end in ':' (boot:,
 * done:, error:, panic:, ...) are the kernel's own messages; the others
 * are data.  A line that does not start with a declared kind is for people
 * (a workload's own progress, a scheduler's description of itself) and no
 * program depends on it.
 *
 * Each kind below is one of:
 *   fixed  exactly the keys of its table, in that order (PROTO_<KIND>_KEYS)
 *   prefix its table's keys first, in that order, then more key=value words
 *          (each kind's comment says what they are)
 *   text   free text after the kind (error:, panic: ...): for people, and the
 *          tools quote it as a run's reason
 *
 * A key table is PROTO_<KIND>_KEYS(K, W): K(key, conversion) is a key and
 * the printf conversion the kernel prints its value with; W(conversion) is
 * a place where optional words are printed (a string of " key=value" words,
 * or "").  PROTO_FORMAT(KIND) is the line's printf format, PROTO_KEY_NAMES
 * its keys as strings.  Add a key to a table and both the kernel and the
 * tools have it; the kernel's arguments must follow the table's order.
 */
#ifndef KERNEL_PROTOCOL_H
#define KERNEL_PROTOCOL_H

/* ---- the kinds: X(NAME, "first word", shape) ---- */
#define PROTO_KINDS(X)                                                                                               \
    X(BOOT, "boot:", PROTO_PREFIX)             /* once, when the machine is up: what it is */                        \
    X(TUNABLES, "tunables", PROTO_PREFIX)      /* after boot: when the scheduler has tunables, each one's value */   \
    X(RESULT, "result", PROTO_PREFIX)          /* one per run (and per swept value, per task of cpuhog) */           \
    X(CHANSTAT, "chanstat", PROTO_PREFIX)      /* after a run of a message-passing workload: its channels */         \
    X(TBENCHSTAT, "tbenchstat", PROTO_FIXED)   /* after a tbench run: how evenly the clients were served */          \
    X(STACKSTAT, "stackstat", PROTO_FIXED)     /* at the end: stacks and page directories */                         \
    X(SCHEDSTAT, "schedstat", PROTO_FIXED)     /* at the end, per CPU: the scheduler core's counters */              \
    X(VSMPSTAT, "vsmpstat", PROTO_FIXED)       /* at the end under vsmp: the machine line, then one per CPU */       \
    X(COSTSTAT, "coststat", PROTO_PREFIX)      /* at the end under cost=: per CPU, each event charged */             \
    X(PVSPINSTAT, "pvspinstat", PROTO_FIXED)   /* at the end with pvspin=1, per CPU */                               \
    X(TRACESTAT, "tracestat", PROTO_FIXED)     /* at the end with trace=1, per CPU */                                \
    X(MEMSTAT, "memstat", PROTO_PREFIX)        /* at the end of a CACHES=1 kernel: the memory model (see below) */   \
    X(MEMLINE, "memline", PROTO_PREFIX)        /* after memstat with machine=: the lines that moved most */          \
    X(WORKLOAD, "workload", PROTO_FIXED)       /* bench=list: one per workload */                                    \
    X(KEY, "key", PROTO_PREFIX)                /* bench=list: one per command-line key */                            \
    X(TUNABLE, "tunable", PROTO_PREFIX)        /* bench=list: one per scheduler tunable */                           \
    X(PRESET, "preset", PROTO_PREFIX)          /* bench=list: one per scheduler preset, then the values it sets */   \
    X(DONE, "done:", PROTO_FIXED)              /* the last line: the machine's exit status */                        \
    X(ERROR, "error:", PROTO_TEXT)             /* a refused command line or configuration (exit 1) */                \
    X(PANIC, "panic:", PROTO_TEXT)             /* a kernel panic (exit 2) */                                         \
    X(WATCHDOG, "watchdog:", PROTO_TEXT)       /* no progress (exit 3) */                                            \
    X(STALL, "stall:", PROTO_TEXT)             /* a spinlock waited for too long (exit 3) */                         \
    X(TRACE, "trace:", PROTO_TEXT)             /* with trace=1: what went out on the trace channel */                \
    X(TICKS, "ticks:", PROTO_TEXT)             /* a CPU that lost ticks (the boot's timings are unreliable) */

enum proto_shape { PROTO_FIXED, PROTO_PREFIX, PROTO_TEXT };

#define PROTO_KIND_ENUM_(name, word, shape) PROTO_##name,
enum proto_kind { PROTO_KINDS(PROTO_KIND_ENUM_) PROTO_NKINDS };
#undef PROTO_KIND_ENUM_

/* The first word of a kind: PROTO_WORD_SCHEDSTAT is "schedstat". */
#define PROTO_WORD_BOOT "boot:"
#define PROTO_WORD_TUNABLES "tunables"
#define PROTO_WORD_RESULT "result"
#define PROTO_WORD_CHANSTAT "chanstat"
#define PROTO_WORD_TBENCHSTAT "tbenchstat"
#define PROTO_WORD_STACKSTAT "stackstat"
#define PROTO_WORD_SCHEDSTAT "schedstat"
#define PROTO_WORD_VSMPSTAT "vsmpstat"
#define PROTO_WORD_COSTSTAT "coststat"
#define PROTO_WORD_PVSPINSTAT "pvspinstat"
#define PROTO_WORD_TRACESTAT "tracestat"
#define PROTO_WORD_MEMSTAT "memstat"
#define PROTO_WORD_MEMLINE "memline"
#define PROTO_WORD_WORKLOAD "workload"
#define PROTO_WORD_KEY "key"
#define PROTO_WORD_TUNABLE "tunable"
#define PROTO_WORD_PRESET "preset"
#define PROTO_WORD_DONE "done:"
#define PROTO_WORD_ERROR "error:"
#define PROTO_WORD_PANIC "panic:"
#define PROTO_WORD_WATCHDOG "watchdog:"
#define PROTO_WORD_STALL "stall:"
#define PROTO_WORD_TRACE "trace:"
#define PROTO_WORD_TICKS "ticks:"

/* ---- the key tables ---- */

/* boot: what the machine is.  Then, where they apply: vsmp_quantum_ns=
 * vsmp_ipi_ns= vsmp_slack_ns= (--accel vsmp), machine= memhook_insns= and
 * with a model machine_lat_pct= machine_layout= (a CACHES=1 kernel:
 * docs/caches.md), trace=1 trace_events= trace_buf_kib= (trace=1), checks=1
 * (checks=1), and idle_poll_us= right after idle=poll.
 * The tools keep every word as the run's provenance (results.csv's boot_*). */
#define PROTO_BOOT_KEYS(K, W)                                                                                        \
    K(cpus, "%d") K(sched, "%s") K(hz, "%d") K(tsc_khz, "%u") K(accel, "%s") K(mem_mib, "%u") K(mm, "%s")          \
    K(pvspin, "%d") K(lock, "%s") K(cr3, "%s") K(idle, "%s") W("%s") K(cost, "%s") K(charged, "%s")                \
    K(real, "%s") W("%s") W("%s") W("%s")
#define PROTO_BOOT_OPTIONAL_KEYS(N)                                                                                  \
    N(idle_poll_us) N(vsmp_quantum_ns) N(vsmp_ipi_ns) N(vsmp_slack_ns) N(machine) N(memhook_insns)                \
    N(machine_lat_pct) N(machine_layout) N(trace) N(trace_events) N(trace_buf_kib) N(checks)

/* tunables: sched=, preset= (when it has presets), then <tunable>=<value> each. */
#define PROTO_TUNABLES_KEYS(K, W) K(sched, "%s")

/* result: which run, then the workload's parameters (the keys of bench=list
 * it reads, with the values in force), its measurements (PROTO_METRICS and
 * PROTO_COUNTERS), and last status= (PROTO_STATUS_*) with reason= when not ok. */
#define PROTO_RESULT_KEYS(K, W) K(bench, "%s") K(sched, "%s") K(cpus, "%d") K(run, "%d")
#define PROTO_STATUS_KEY "status"
#define PROTO_REASON_KEY "reason"
#define PROTO_STATUS_OK "ok"
#define PROTO_STATUS_ERROR "error"   /* the workload caught an error: a corrupt message, a lost token */
#define PROTO_STATUS_OOM "oom"       /* out of memory (exit 4) */

/* chanstat: which run (and swept value), then the channels' counts. */
#define PROTO_CHANSTAT_KEYS(K, W)                                                                                    \
    K(bench, "%s") K(run, "%d") W("%s") K(pipe_woken_sync, "%llu") K(pipe_woken_plain, "%llu")                     \
    K(pipe_reader_sleeps, "%llu") K(pipe_writer_sleeps, "%llu") K(sock_woken_sync, "%llu")                          \
    K(sock_woken_plain, "%llu") K(sock_reader_sleeps, "%llu") K(sock_writer_sleeps, "%llu") K(sock_skbs, "%llu")   \
    K(sock_max_queued, "%u")

#define PROTO_TBENCHSTAT_KEYS(K, W)                                                                                  \
    K(run, "%d") K(clients, "%u") K(load_ops, "%u") K(done_first_s, "%s") K(done_mean_s, "%s") K(done_last_s, "%s") \
    K(slowest_ops_at_first_done, "%u") K(ops_at_first_done, "%llu")

#define PROTO_STACKSTAT_KEYS(K, W)                                                                                   \
    K(stack_bytes, "%d") K(max_used_bytes, "%d") K(page_dirs_created, "%u") K(page_dirs_freed, "%u")               \
    K(page_dirs_live, "%u")

#define PROTO_SCHEDSTAT_KEYS(K, W)                                                                                   \
    K(cpu, "%d") K(sched, "%s") K(schedule_calls, "%llu") K(context_switches, "%llu") K(migrations, "%llu")        \
    K(wakeups, "%llu") K(idle_ms, "%llu") K(pick_cycles_total, "%llu") K(pick_cycles_avg, "%llu") K(ticks, "%llu") \
    K(resched_ipis, "%llu") K(poll_wakes, "%llu") K(cr3_loads, "%llu") K(idle_ticks, "%llu") K(busy_ms, "%llu")    \
    K(lock_wait_us, "%llu") K(lock_waits, "%llu") K(busy_us, "%llu") K(idle_us, "%llu") K(ticks_expected, "%llu")

/* vsmpstat: first the machine's line, then one per logical CPU (cpu= first). */
#define PROTO_VSMPSTAT_KEYS(K, W)                                                                                    \
    K(physical_us, "%llu") K(timer_irqs, "%llu") K(timer_arms, "%llu") K(event_irqs, "%llu")                       \
    K(irqs_deferred, "%llu") K(events, "%llu") K(event_late_ns_avg, "%llu") K(event_late_ns_max, "%llu")          \
    K(quiet_irqs, "%llu") K(stale_irqs, "%llu") K(irqs_rewound, "%llu") K(reads_rewound, "%llu")                   \
    K(order_residue, "%llu") K(release_residue, "%llu") K(irq_residue, "%llu") K(timer_fire_err, "%d")
#define PROTO_VSMPSTAT_CPU_KEYS(K, W)                                                                                \
    K(cpu, "%d") K(dispatches, "%llu") K(order_yields, "%llu") K(relax_yields, "%llu") K(quantum_yields, "%llu")   \
    K(lock_blocks, "%llu") K(block_races, "%llu") K(ipis_sent, "%llu") K(ipis_received, "%llu") K(spin_us, "%llu")

/* coststat: then <event>=<count> <event>_insns=<instructions> for each
 * event of the cost model (kernel/chan_cost.h). */
#define PROTO_COSTSTAT_KEYS(K, W) K(cpu, "%d") K(cost, "%s")

#define PROTO_PVSPINSTAT_KEYS(K, W) K(cpu, "%d") K(halts, "%llu") K(kicks_sent, "%llu") K(kicks_received, "%llu")

#define PROTO_TRACESTAT_KEYS(K, W) K(cpu, "%d") K(events, "%llu") K(kept, "%llu") K(dropped, "%llu")

/* memstat (a CACHES=1 kernel, kernel/machine/memhooks.c, docs/caches.md):
 * the machine's line first, then one per CPU (cpu= first).  With a model
 * (machine=PRESET) the preset's geometry and latencies; without one
 * (machine=none) the instrumentation's cost per access. */
#define PROTO_MEMSTAT_KEYS(K, W)                                                                                     \
    K(machine, "%s") K(lat_pct, "%u") K(line, "%u") K(l1_kib, "%u") K(l1_ways, "%u") K(l2_kib, "%u")                \
    K(l2_ways, "%u") K(l2_cores, "%u") K(l2_ns, "%u") K(mem_ns, "%u") K(c2c_ns, "%u") K(l1_xfer_ns, "%u")          \
    K(bus_ns, "%u") K(bus_inval_ns, "%u") K(bus_busy_us, "%llu") K(bus_stale, "%llu") K(model_ms, "%llu")      \
    K(thread_info_at_stack_base, "%u")
#define PROTO_MEMSTAT_NONE_KEYS(K, W) K(machine, "%s") K(memhook_null_insns, "%u") K(memhook_spill_milli, "%u")
#define PROTO_MEMSTAT_CPU_KEYS(K, W)                                                                                 \
    K(cpu, "%d") K(accesses, "%llu") K(fast, "%llu") K(l1_misses, "%llu") K(l2_misses, "%llu") K(c2c, "%llu")      \
    K(l1_xfers, "%llu") K(upgrades, "%llu") K(invalidations, "%llu") K(writebacks, "%llu") K(bus_wait_us, "%llu")  \
    K(stall_us, "%llu")
#define PROTO_MEMSTAT_CPU_NONE_KEYS(K, W) K(cpu, "%d") K(calls, "%llu")

/* memline (after memstat with machine=): the lines that moved most between
 * caches (rank= first: the line, its moves, the invalidations a store made,
 * the site that moved it last, where it is), then the kinds of objects and
 * their fields whose accesses moved lines most (object= first; field=*: the
 * object's total; memhook-plugin.cc names them; by=moves), the same ranked
 * by the L2 misses the accesses made (by=misses), and dropped= when a
 * table was full. */
#define PROTO_MEMLINE_KEYS(K, W)                                                                                     \
    K(rank, "%d") K(addr, "0x%08x") K(moves, "%u") K(invals, "%u") K(site, "0x%08x") K(where, "%s")
#define PROTO_MEMLINE_OBJECT_KEYS(K, W)                                                                              \
    K(object, "%s") K(field, "%s") K(by, "%s") K(moves, "%llu") K(invals, "%llu") K(misses, "%llu")
#define PROTO_MEMLINE_DROPPED_KEYS(K, W) K(dropped, "%llu")

#define PROTO_WORKLOAD_KEYS(K, W) K(name, "%s") K(summary, "\"%s\"")

/* key: then default= min= max= [choices=a|b] [suite_default=] [max_values=]
 * help="..." (docs/workloads.md: the types and what each means). */
#define PROTO_KEY_KEYS(K, W) K(workload, "%s") K(name, "%s") K(type, "%s")
/* tunable: then default= min= max= help="..." */
#define PROTO_TUNABLE_KEYS(K, W) K(sched, "%s") K(name, "%s") K(unit, "%s")
/* preset: then <tunable>=<value> for each tunable it sets. */
#define PROTO_PRESET_KEYS(K, W) K(sched, "%s") K(name, "%s")

#define PROTO_DONE_KEYS(K, W) K(exit, "%d")

/* ---- what a result line measures ----
 * PROTO_METRICS: X(key, better, sign): better +1 higher is better, -1 lower,
 * 0 neither (a share); sign PROTO_POSITIVE (a time, a cost, a rate: zero
 * or less is a broken measurement) or PROTO_NONNEGATIVE (a share, a count).
 * PROTO_COUNTERS: what a run counts beside its metric (never a parameter). */
#define PROTO_POSITIVE 1
#define PROTO_NONNEGATIVE 0
#define PROTO_METRICS(X)                                                                                             \
    X(time_s, -1, PROTO_POSITIVE) X(usec_per_op, -1, PROTO_POSITIVE) X(usec_per_switch, -1, PROTO_POSITIVE)       \
    X(mb_per_s, +1, PROTO_POSITIVE) X(ops_per_s, +1, PROTO_POSITIVE) X(messages_per_s, +1, PROTO_POSITIVE)         \
    X(jobs_per_min, +1, PROTO_POSITIVE) X(cycles_per_pick, -1, PROTO_POSITIVE) X(share, 0, PROTO_NONNEGATIVE)      \
    X(p50_us, -1, PROTO_POSITIVE) X(p90_us, -1, PROTO_POSITIVE) X(p99_us, -1, PROTO_POSITIVE)                      \
    X(p999_us, -1, PROTO_POSITIVE) X(max_groups, +1, PROTO_NONNEGATIVE)
#define PROTO_COUNTERS(N)                                                                                            \
    N(tasks_started) N(messages) N(sent) N(received) N(jobs) N(cpus_used) N(attempts) N(first_failure) N(created)  \
    N(runtime_ms) N(bytes) N(ops) N(max_latency_ms) N(overhead_us) N(picks) N(cycles_per_pick_mean) N(samples)     \
    N(max_us) N(dropped)
/* The metric a workload's result line is judged by. */
#define PROTO_WORKLOAD_METRICS(X)                                                                                    \
    X(hackbench, time_s) X(pipe, usec_per_op) X(lat_ctx, usec_per_switch) X(tbench, mb_per_s)                      \
    X(schedcost, cycles_per_pick) X(cpuhog, share) X(wakeup, p99_us) X(maxgroups, max_groups)                      \
    X(volano, messages_per_s) X(aim7, jobs_per_min)

/* ---- building formats and names from the tables ---- */
#define PROTO_FMT_K_(key, conv) " " #key "=" conv
#define PROTO_FMT_W_(conv) conv
/* The printf format of a line: PROTO_FORMAT(SCHEDSTAT) is "schedstat cpu=%d sched=%s ...\n". */
#define PROTO_FORMAT(KIND) PROTO_WORD_##KIND PROTO_##KIND##_KEYS(PROTO_FMT_K_, PROTO_FMT_W_) "\n"
/* The same for a kind whose table is named otherwise (PROTO_FORMAT_OF(VSMPSTAT, VSMPSTAT_CPU)). */
#define PROTO_FORMAT_OF(KIND, TABLE) PROTO_WORD_##KIND PROTO_##TABLE##_KEYS(PROTO_FMT_K_, PROTO_FMT_W_) "\n"
/* The beginning of a line, its table's keys and no newline (a line the caller goes on writing). */
#define PROTO_FORMAT_BEGIN(KIND) PROTO_WORD_##KIND PROTO_##KIND##_KEYS(PROTO_FMT_K_, PROTO_FMT_W_)
/* The keys of a table as a list of strings: { PROTO_KEY_NAMES(SCHEDSTAT) NULL } */
#define PROTO_NAME_K_(key, conv) #key,
#define PROTO_NAME_W_(conv)
#define PROTO_KEY_NAMES(TABLE) PROTO_##TABLE##_KEYS(PROTO_NAME_K_, PROTO_NAME_W_)
#define PROTO_NAME_N_(key) #key,

#endif
