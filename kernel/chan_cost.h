/*
 * The cost model (cost=, docs/cost-model.md, docs/reproduce.md#the-cost-model):
 * work that a real kernel on real hardware pays and that this kernel, or the
 * emulator it runs on, does not, charged as instructions of busy time on the
 * CPU where it happens (a two-instruction dec/jnz loop: exact under
 * ACCEL=icount and vsmp, where one instruction is one nanosecond).
 *
 *   cost=none     nothing charged (the default; the numbers of every
 *                 earlier measurement)
 *   cost=linux61  the system-call work of Debian's Linux 6.1 per pipe and
 *                 socket call, measured under the same QEMU with -icount
 *                 (chan_cost.c has the figures and their measurement)
 *   cost=era2003  the machine events of the seed000/003 machines (Pentium
 *                 III Xeon class, 2.4.18 / 2.6.0-test9): a CR3 reload and
 *                 the TLB refills after it, a task's first run on a CPU
 *                 other than its last (the refill of its working set), a
 *                 contended lock's cache-line transfer, a reschedule IPI's
 *                 delivery (to an idle CPU: the APIC bus latency; to a busy
 *                 one: the interrupt entry and exit), each a cited
 *                 measurement of that hardware (chan_cost.c, docs/cost-model.md)
 *                 and, on the socket pairs of workloads that ran over TCP
 *                 loopback (tbench, volano: unix_pair_model_tcp), the work
 *                 2.4.18's TCP did per segment and per byte beyond AF_UNIX's
 *   cost=era2007  the same events on seed001's machine (Core 2 class, 2.6.23),
 *                 without the TCP figure (seed001 has no TCP workload)
 *
 * The era models charge no system-call entry/exit per pipe or socket call
 * (the figure is recorded, COST_CALL's budget is 0): charged alone it would
 * weigh 4-5x more in a message here than on the era's machine and break the
 * seed000 1-CPU block (docs/cost-model.md has the measurement).
 *
 * Under vsmp= the era's IPI figure is the delivery latency (the default of
 * vsmp_ipi_ns, chan_cost_ipi_ns) instead of busy time.  The channels call
 * chan_cost_pipe/sock outside their spinlocks; the CR3 and migration
 * charges are paid after the switch, by the task that switched in, with
 * the run-queue lock released (chan_cost_switch_in).
 */
#ifndef KERNEL_CHAN_COST_H
#define KERNEL_CHAN_COST_H

#include "types.h"
#include "machine/keys.h"

enum chan_cost_model { CHAN_COST_NONE = 0, CHAN_COST_LINUX61 = 1, CHAN_COST_ERA2003 = 2, CHAN_COST_ERA2007 = 3 };
extern const char *const chan_cost_names[];   /* "none", "linux61", "era2003", "era2007", NULL */

/* The events the model charges, counted per CPU (struct cpu_stats cost_*). */
enum cost_event {
    COST_CR3,           /* a CR3 reload (env_load_mm), charged once the next task runs */
    COST_MIGRATE,       /* a task's first run on a CPU other than the one it last ran on */
    COST_LOCK,          /* a spinlock acquisition that had to wait (kernel/spinlock.c) */
    COST_IPI_IDLE,      /* a reschedule IPI that found its CPU idle (kernel/trap.c) */
    COST_IPI_BUSY,      /* ... that found it running a task */
    COST_CALL,          /* a pipe or socket call (kernel/pipe.c, kernel/unix_sock.c) */
    COST_TCP,           /* a send on a pair that stands for a TCP loopback connection (unix_pair_model_tcp),
                         * charged per skb and per KiB */
    COST_EVENTS
};
extern const char *const cost_event_names[];  /* "cr3", "migrate", "lock", "ipi_idle", "ipi_busy", "call", "tcp" */

struct chan_cost_budget {
    uint32_t pipe_call;     /* instructions per pipe read or write call */
    uint32_t sock_call;     /* instructions per socket send or receive call */
    uint32_t per_skb;       /* instructions per skb sent (alloc + free) */
    uint32_t per_kib;       /* instructions per KiB copied in or out */
    uint32_t event[COST_EVENTS];   /* instructions per event ([COST_CALL]: see pipe_call, sock_call;
                                    * [COST_TCP]: per skb, and tcp_per_kib per KiB it carries) */
    uint32_t tcp_per_kib;   /* instructions per KiB sent on a TCP-modelled pair, beyond AF_UNIX's */
    uint32_t syscall_ns;    /* the era's measured system-call entry/exit (recorded, not charged) */
    uint32_t ipi_ns;        /* the era's IPI delivery latency: vsmp_ipi_ns's default (0: none) */
};

void chan_cost_set(int model);          /* once, at boot, before any task runs */
int chan_cost_model(void);
const struct chan_cost_budget *chan_cost_budget(void);
const struct chan_cost_budget *chan_cost_budget_of(int model);
/* The model's IPI latency for vsmp_ipi_ns's default; 0 when it has none. */
uint32_t chan_cost_ipi_ns(void);
/* "cr3:1006,migrate:19302,..." of the charged events (ns), or "none". */
int chan_cost_describe(char *buf, size_t size);

/* Busy time of exactly insns instructions (a dec/jnz loop, and one nop for
 * an odd count): how every charge is paid, and what an experiment flag
 * (-DTBENCH_OP_NS) burns. */
static inline void cost_burn(uint32_t insns)
{
    uint32_t n = insns / 2;
    if (insns & 1)
        __asm__ volatile("nop");
    if (n)
        __asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

/* Burns the budget of one call that moved `bytes` bytes (and `skbs` skbs);
 * off, a test of one byte, inline (they are on every pipe and socket call). */
extern uint8_t cost_calls_on;
void chan_cost_pipe_charge(uint32_t bytes);
void chan_cost_sock_charge(uint32_t bytes, uint32_t skbs);
static inline void chan_cost_pipe(uint32_t bytes)
{
    if (machine_cost_model() && __builtin_expect(cost_calls_on, 0))
        chan_cost_pipe_charge(bytes);
}
static inline void chan_cost_sock(uint32_t bytes, uint32_t skbs)
{
    if (machine_cost_model() && __builtin_expect(cost_calls_on, 0))
        chan_cost_sock_charge(bytes, skbs);
}

/* A send of `bytes` in `skbs` skbs on a socket pair that stands for a TCP
 * connection over loopback: the TCP/IP work the era's kernel did per segment and per
 * byte beyond AF_UNIX's (era2003 only: chan_cost.c has the measurement). */
extern uint8_t cost_tcp_on;
void chan_cost_tcp_charge(uint32_t bytes, uint32_t skbs);
static inline void chan_cost_tcp(uint32_t bytes, uint32_t skbs)
{
    if (machine_cost_model() && __builtin_expect(cost_tcp_on, 0))
        chan_cost_tcp_charge(bytes, skbs);
}

/* The machine events (kernel only). */
extern uint8_t cost_switch_on;          /* a CR3 or migration charge is due after switches */
extern uint8_t cost_lock_on;
extern uint8_t cost_ipi_on;             /* busy-time IPI charges (not under vsmp) */
struct cpu;
void chan_cost_switch_in(void);        /* after a switch, the run-queue lock released */
void chan_cost_lock(void);                      /* a contended acquisition, the lock now held */
void chan_cost_ipi(bool idle);                  /* a reschedule IPI's handler */
/* Instructions charged since boot on every CPU (for tests and the result lines). */
uint64_t chan_cost_charged(void);
void chan_cost_print_stats(void);       /* the coststat lines (nothing with cost=none) */

#endif
