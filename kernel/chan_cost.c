/*
 * The cost model (see chan_cost.h, docs/cost-model.md, docs/reproduce.md).
 *
 * linux61: measured 2026-12-01 with tools/linux-peer.sh --accel icount
 * (Debian 12's Linux 6.1.0 cloud kernel, QEMU 7.2, -icount shift=0,
 * sleep=off: the guest clock advances one nanosecond per instruction, so a
 * time the guest prints is its instruction count), one vCPU, against this
 * kernel under ACCEL=icount on one vCPU with cost=none:
 *
 *   pipe:   perf bench sched pipe -l 20000 (a round trip is two writes and
 *           two reads of 4 bytes plus two context switches):
 *           Linux 13,105 instructions per round trip, ours (SCHED=cfs, the
 *           nearest to 6.1's CFS) 3,099 (bench=pipe loops=20000):
 *           (13,105 - 3,099) / 4 = 2,501 per pipe call.
 *   socket: rt-tests hackbench -g 5 -l 100 over socket pairs (one message
 *           = one 100-byte write and one read): Linux 8,160 instructions per
 *           message (the whole run over its 200,000 messages, fork included),
 *           ours 679 (SCHED=cfs bench=hackbench groups=5 loops=100):
 *           (8,160 - 679) / 2 = 3,740 per socket call.
 *
 * Each difference holds everything Linux 6.1 does per operation that this
 * kernel does not (entry/exit, fd lookup, VFS, copies, skb and its
 * accounting, and the difference in context-switch cost), not the 2002-2007
 * kernels' figures.  per_skb and per_kib are 0: the two measurements give
 * two numbers, not four.  No seed-table cell was used to choose them.
 *
 * era2003 and era2007: the figures below, each from a published measurement
 * of that hardware (docs/cost-model.md has the table, the sources and the
 * measured effect of each on the scorecards).  Two figures are chosen by hand and named there:
 * the working set that a migrated task refills (ERA_WORKING_SET, 4 KiB) and
 * the user pages whose TLB entries a CR3 reload costs (ERA_TLB_PAGES, 6);
 * era2007's idle IPI latency has no native measurement and is the vsmp
 * default (1,000 ns).
 */
#include "chan_cost.h"
#include "lib.h"
#ifndef HOST_TEST
#include "cpu.h"
#include "x86.h"
#endif

/* Instructions (guest nanoseconds under -icount shift=0), each the mean of 2 runs in one boot. */
#define LINUX_PIPE_RT 13105u    /* perf bench sched pipe -l 20000: 13.1197 and 13.0899 usec/op */
#define OURS_PIPE_RT 3099u      /* SCHED=cfs bench=pipe loops=20000: 3.099 usec_per_op (both runs) */
#define LINUX_MSG 8160u         /* hackbench -s 100 -g 5 -l 100: 1.690 and 1.574 s / 200,000 messages */
#define OURS_MSG 679u           /* SCHED=cfs bench=hackbench groups=5 loops=100: 0.136018, 0.135758 s / 200,000 */

/* Hand-chosen (docs/cost-model.md, "Hand-chosen figures"). */
#define ERA_WORKING_SET 4096u   /* bytes a hackbench-sized task refills on a new CPU: its kernel stack top and
                                 * task struct, its socket and the skbs in flight, its user stack and buffer */
#define ERA_TLB_PAGES 6u        /* user pages a hackbench process touches per run: text, libc text and data,
                                 * stack, message buffer, heap (kernel mappings are global: not flushed) */

/*
 * era2003: Pentium III (Xeon) class, 2.4.18 and 2.6.0-test9.
 *   PIII 797 MHz, 2.4.18, lmbench 2.0 (Paolo Ciarrocchi, LKML 8 Sep 2002,
 *   "2.5.33-mm5", <20020908140944.347.qmail@linuxmail.org>):
 *     main memory 158.9 ns, L2 8.789 ns (lat_mem_rd); null call 0.40 us;
 *     lat_ctx 2p/0K 0.990 us, 8p/64K 309.8 us: 8 x 64 KiB miss L2 (256 KiB),
 *     so a switch refills 64 KiB = 2,048 lines of 32 bytes from memory:
 *     (309.8 - 0.99) us / 2,048 = 150.8 ns per line.
 *   TCP over loopback against AF_UNIX, lmbench 2.0 on the same PIII and
 *     2.4.18 (Paolo Ciarrocchi, LKML 22 Sep 2002, "LMbench2.0 results",
 *     <20020922124203.32475.qmail@linuxmail.org>): lat_tcp 23.4 us and
 *     lat_unix 8.64 us a one-byte round trip (two messages, each a send,
 *     a receive and a switch), so 7.38 us more a message; bw_tcp 132 and
 *     bw_unix 295 MB/s (taken as 10^6 bytes), 7.576 and 3.390 ns a byte, so
 *     4.186 ns more a byte: 4,286 a KiB.  A message here is an skb (at most
 *     16 KB, as loopback's 16,436-byte MTU made TCP's segments).
 *   APIC bus (Intel SDM vol. 3, appendix "APIC Bus Message Formats": a
 *     fixed IPI is a short message of 21 APIC bus cycles; Jonathan Lundell,
 *     LKML 8 Oct 2001, "A note on APIC bus latency": P6's serial APIC bus
 *     runs at 16.7 MHz): 21 / 16.67 MHz = 1,260 ns.
 */
#define P3_MEM_NS 1589u             /* tenths of ns: 158.9 */
#define P3_L2_NS 88u                /* tenths: 8.789 rounded */
#define P3_LINE_REFILL_NS 1508u     /* tenths: (309.8 - 0.99) us / 2,048 lines */
#define P3_LINE 32u
#define P3_NULL_CALL_NS 400u        /* lmbench null call: int 0x80, getppid, iret */
#define P3_APIC_IPI_NS 1260u        /* 21 APIC bus cycles at 16.67 MHz */
#define ERA2003_CR3 (ERA_TLB_PAGES * (P3_MEM_NS + P3_L2_NS) / 10)            /* 6 x (PTE 158.9 + PDE 8.8) = 1,006 */
#define ERA2003_MIGRATE (ERA_WORKING_SET / P3_LINE * P3_LINE_REFILL_NS / 10) /* 128 x 150.8 = 19,302 */
#define ERA2003_LOCK ((P3_MEM_NS + 5) / 10)                                  /* a HITM bus transaction: 159 */
#define ERA2003_IPI_IDLE (P3_APIC_IPI_NS + P3_NULL_CALL_NS)                  /* wire + entry/exit: 1,660 */
#define ERA2003_IPI_BUSY P3_NULL_CALL_NS                                     /* entry/exit only: 400 */
#define P3_LAT_TCP_NS 23400u        /* lat_tcp, one-byte round trip */
#define P3_LAT_UNIX_NS 8640u        /* lat_unix */
#define P3_BW_TCP_MBS 132u          /* bw_tcp */
#define P3_BW_UNIX_MBS 295u         /* bw_unix */
#define ERA2003_TCP_SKB ((P3_LAT_TCP_NS - P3_LAT_UNIX_NS) / 2)                /* 7,380 */
#define ERA2003_TCP_KIB (1024u * 1000u * (P3_BW_UNIX_MBS - P3_BW_TCP_MBS) / (P3_BW_TCP_MBS * P3_BW_UNIX_MBS)) /* 4,286 */

/*
 * era2007: Core 2 (Conroe/Merom) class at 2.4 GHz, shared 4 MB L2, 2.6.23.
 *   L2 latency 14 cycles (CPU-Z, Core 2 Extreme QX6850, xbitlabs
 *     "core2extreme-qx9650" review, page 4) = 5.8 ns at 2.4 GHz.
 *   Core-to-core line transfer: 73 ns per lock cmpxchg round trip between
 *     the two cores of a Core 2 Duo T7700 (jcurl/code.research,
 *     qnx/tools/core_latency.md 3.6: 67-78 ns), one way 73 / 2 = 36.5 ns.
 *   CR3 write itself: ~50 ns (a null syscall +92 TSC ticks at 1.8 GHz with
 *     one CR3 reload, tscStopwatch.h comment; a later CPU: Low).
 *   Entry/exit: Linus Torvalds, LKML 16 Dec 2002 (<Pine.LNX.4.44.0212162140500
 *     .1644-100000@home.transmeta.com>): getppid() 641 cycles with sysenter
 *     on a P4: 267 ns at 2.4 GHz, an upper bound for Core 2.
 */
#define C2_L2_NS 58u                /* tenths: 14 cycles / 2.4 GHz */
#define C2_LINE_XFER_NS 365u        /* tenths: 73 / 2 */
#define C2_LINE 64u
#define C2_CR3_WRITE_NS 50u
#define C2_SYSENTER_NS 267u
#define C2_IPI_NS 1000u             /* no native figure: the vsmp default, hand-chosen */
#define ERA2007_CR3 (C2_CR3_WRITE_NS + ERA_TLB_PAGES * 2 * C2_L2_NS / 10)      /* 50 + 6 x 2 x 5.8 = 119 */
#define ERA2007_MIGRATE (ERA_WORKING_SET / C2_LINE * C2_LINE_XFER_NS / 10)     /* 64 x 36.5 = 2,336 */
#define ERA2007_LOCK ((C2_LINE_XFER_NS + 5) / 10)                            /* 37 */
#define ERA2007_IPI_IDLE C2_IPI_NS
#define ERA2007_IPI_BUSY C2_SYSENTER_NS

/* -DCHAN_COST_ERA_SYSCALL: the era models also charge their entry/exit per
 * pipe and socket call (to measure what it does: docs/cost-model.md). */
#ifdef CHAN_COST_ERA_SYSCALL
#define ERA2003_CALL P3_NULL_CALL_NS
#define ERA2007_CALL C2_SYSENTER_NS
#else
#define ERA2003_CALL 0u
#define ERA2007_CALL 0u
#endif

const char *const chan_cost_names[] = { "none", "linux61", "era2003", "era2007", NULL };
const char *const cost_event_names[] = { "cr3", "migrate", "lock", "ipi_idle", "ipi_busy", "call", "tcp", NULL };

static const struct chan_cost_budget budgets[] = {
    [CHAN_COST_NONE] = { 0 },
    [CHAN_COST_LINUX61] = { .pipe_call = (LINUX_PIPE_RT - OURS_PIPE_RT) / 4,
                            .sock_call = (LINUX_MSG - OURS_MSG) / 2 },
    [CHAN_COST_ERA2003] = { .pipe_call = ERA2003_CALL, .sock_call = ERA2003_CALL,
                            .event = { [COST_CR3] = ERA2003_CR3, [COST_MIGRATE] = ERA2003_MIGRATE,
                                       [COST_LOCK] = ERA2003_LOCK, [COST_IPI_IDLE] = ERA2003_IPI_IDLE,
                                       [COST_IPI_BUSY] = ERA2003_IPI_BUSY, [COST_TCP] = ERA2003_TCP_SKB },
                            .tcp_per_kib = ERA2003_TCP_KIB,
                            .syscall_ns = P3_NULL_CALL_NS, .ipi_ns = ERA2003_IPI_IDLE },
    [CHAN_COST_ERA2007] = { .pipe_call = ERA2007_CALL, .sock_call = ERA2007_CALL,
                            .event = { [COST_CR3] = ERA2007_CR3, [COST_MIGRATE] = ERA2007_MIGRATE,
                                       [COST_LOCK] = ERA2007_LOCK, [COST_IPI_IDLE] = ERA2007_IPI_IDLE,
                                       [COST_IPI_BUSY] = ERA2007_IPI_BUSY },
                            .syscall_ns = C2_SYSENTER_NS, .ipi_ns = ERA2007_IPI_IDLE },
};
_Static_assert(ERA2003_CR3 == 1006 && ERA2003_MIGRATE == 19302 && ERA2003_LOCK == 159, "era2003 figures");
_Static_assert(ERA2003_TCP_SKB == 7380 && ERA2003_TCP_KIB == 4286, "era2003 TCP figures");
_Static_assert(ERA2007_CR3 == 119 && ERA2007_MIGRATE == 2336 && ERA2007_LOCK == 37, "era2007 figures");

static int model = CHAN_COST_NONE;
uint8_t cost_switch_on, cost_lock_on, cost_ipi_on, cost_calls_on, cost_tcp_on;
#ifdef HOST_TEST
static uint64_t host_charged;
#endif

const struct chan_cost_budget *chan_cost_budget_of(int m)
{
    return &budgets[m >= 0 && m <= CHAN_COST_ERA2007 ? m : CHAN_COST_NONE];
}

/*
 * The instructions the current model charges for event e.  Built with
 * -DCHAN_COST_ONLY=<enum cost_event> (e.g. COST_MIGRATE) every other event
 * charges nothing, here and on the boot line: the effect of one event on a
 * scorecard is measured that way (docs/cost-model.md).
 */
static uint32_t figure(int e)
{
#ifdef CHAN_COST_ONLY
    if (e != CHAN_COST_ONLY)
        return 0;
#endif
    return budgets[model].event[e];
}

/* The TCP charge per KiB goes with the event's figure (-DCHAN_COST_ONLY). */
static uint32_t tcp_per_kib(void) { return figure(COST_TCP) ? budgets[model].tcp_per_kib : 0; }

void chan_cost_set(int m)
{
    model = m >= 0 && m <= CHAN_COST_ERA2007 ? m : CHAN_COST_NONE;
    const struct chan_cost_budget *b = &budgets[model];
    cost_switch_on = figure(COST_CR3) || figure(COST_MIGRATE);
    cost_lock_on = figure(COST_LOCK) != 0;
    cost_ipi_on = figure(COST_IPI_IDLE) || figure(COST_IPI_BUSY);
    cost_calls_on = b->pipe_call || b->sock_call || b->per_skb || b->per_kib;
    cost_tcp_on = figure(COST_TCP) || tcp_per_kib();
#ifndef HOST_TEST
    if (model != CHAN_COST_NONE)
        machine_keys_enable_cost();      /* the flags' tests, behind the machine layer's key */
#endif
}

int chan_cost_model(void) { return model; }
const struct chan_cost_budget *chan_cost_budget(void) { return &budgets[model]; }
uint32_t chan_cost_ipi_ns(void) { return budgets[model].ipi_ns; }

int chan_cost_describe(char *buf, size_t size)
{
    const struct chan_cost_budget *b = &budgets[model];
    int n = 0;
    for (int e = 0; e < COST_EVENTS && n < (int)size; e++) {
        uint32_t v = e == COST_CALL ? b->pipe_call : figure(e);
        if (e == COST_CALL && b->sock_call != b->pipe_call) {
            n += snprintf(buf + n, size - n, "%spipe_call:%u,sock_call:%u", n ? "," : "", b->pipe_call, b->sock_call);
            continue;
        }
        if (e == COST_TCP && v) {
            n += snprintf(buf + n, size - n, "%stcp_skb:%u,tcp_kib:%u", n ? "," : "", v, tcp_per_kib());
            continue;
        }
        if ((e == COST_IPI_IDLE || e == COST_IPI_BUSY) && !cost_ipi_on)
            continue;                   /* vsmp: a latency (vsmp_ipi_ns), not busy time */
        if (v)
            n += snprintf(buf + n, size - n, "%s%s:%u", n ? "," : "", cost_event_names[e], v);
    }
    if (n == 0)
        n = snprintf(buf, size, "none");
    return n;
}

#ifdef HOST_TEST
static __attribute__((noinline)) void charge(int event, uint32_t insns)
{
    (void)event;
    host_charged += insns;
}
uint64_t chan_cost_charged(void) { return host_charged; }
void chan_cost_print_stats(void) {}
void chan_cost_switch_in(void) {}
void chan_cost_lock(void) {}
void chan_cost_ipi(bool idle) { (void)idle; }
#else
/* Counted on this CPU (interrupts off for the two counters: a preemption
 * between them could split them across CPUs), then burnt where we are. */
static __attribute__((noinline)) void charge(int event, uint32_t insns)
{
    if (!insns)
        return;
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    c->stats.cost_events[event]++;
    c->stats.cost_insns[event] += insns;
    irq_restore(f);
    cost_burn(insns);
}

uint64_t chan_cost_charged(void)
{
    uint64_t sum = 0;
    for (int i = 0; i < ncpus_online; i++)
        for (int e = 0; e < COST_EVENTS; e++)
            sum += cpus[i].stats.cost_insns[e];
    return sum;
}

/*
 * Right after a switch, on the new task's stack, its run-queue lock
 * released, interrupts off: the CR3 reload's refills (env_load_mm set
 * cost_cr3_pending) and, for a task that last ran elsewhere, the refill
 * of its working set.  A task's first run anywhere is not a migration.
 */
void chan_cost_switch_in(void)
{
    struct cpu *c = this_cpu();
    if (c->cost_cr3_pending) {
        c->cost_cr3_pending = 0;
        charge(COST_CR3, figure(COST_CR3));
    }
    struct task *t = c->curr;
    if (t->is_idle)
        return;
    int here = c->id + 1;
    if (t->last_ran_cpu && t->last_ran_cpu != here)
        charge(COST_MIGRATE, figure(COST_MIGRATE));
    t->last_ran_cpu = here;
}

void chan_cost_lock(void) { charge(COST_LOCK, figure(COST_LOCK)); }

void chan_cost_ipi(bool idle)
{
    charge(idle ? COST_IPI_IDLE : COST_IPI_BUSY, figure(idle ? COST_IPI_IDLE : COST_IPI_BUSY));
}

/* One line per CPU: count and instructions of each event. */
void chan_cost_print_stats(void)
{
    if (model == CHAN_COST_NONE)
        return;
    for (int i = 0; i < ncpus_online; i++) {
        const struct cpu_stats *s = &cpus[i].stats;
        char line[400];
        int n = snprintf(line, sizeof(line), PROTO_FORMAT_BEGIN(COSTSTAT), i, chan_cost_names[model]);
        for (int e = 0; e < COST_EVENTS; e++)
            n += snprintf(line + n, sizeof(line) - n, " %s=%llu %s_insns=%llu", cost_event_names[e],
                          (unsigned long long)s->cost_events[e], cost_event_names[e],
                          (unsigned long long)s->cost_insns[e]);
        kprintf("%s\n", line);
    }
}
#endif

/* The calls' charge (chan_cost.h's inline test found a model on). */
void chan_cost_pipe_charge(uint32_t bytes)
{
    const struct chan_cost_budget *b = &budgets[model];
    charge(COST_CALL, b->pipe_call + (uint32_t)(((uint64_t)bytes * b->per_kib) >> 10));
}

void chan_cost_sock_charge(uint32_t bytes, uint32_t skbs)
{
    const struct chan_cost_budget *b = &budgets[model];
    charge(COST_CALL, b->sock_call + skbs * b->per_skb + (uint32_t)(((uint64_t)bytes * b->per_kib) >> 10));
}

void chan_cost_tcp_charge(uint32_t bytes, uint32_t skbs)
{
    charge(COST_TCP, skbs * figure(COST_TCP) + (uint32_t)(((uint64_t)bytes * tcp_per_kib()) >> 10));
}
