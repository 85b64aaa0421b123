/*
 * The channel cost model (cost=, docs/reproduce.md#the-cost-model): work a
 * real kernel does on every pipe and socket operation that this kernel
 * does not (system-call entry and exit, the file and fd layers, copies to
 * and from user space, skb allocation), charged as a budget of burnt
 * instructions per operation so that the scheduler's share of a message's
 * cost comes closer to Linux's.
 *
 *   cost=none     nothing charged (the default; the numbers of every
 *                 earlier measurement)
 *   cost=linux61  the budgets measured on Debian's Linux 6.1 under the same
 *                 QEMU with -icount (instructions per pipe round trip and
 *                 per hackbench socket message, minus ours): see
 *                 chan_cost.c for the figures and their measurement
 *
 * The budgets are instructions (a two-instruction dec/jnz loop), so they
 * are exact under ACCEL=icount; under TCG and KVM a tight loop runs faster
 * per instruction than the kernel code it stands for.  The channels call
 * these outside their spinlocks, so the charge is work in the caller's
 * time slice, as a system call's is, not lock hold time.
 */
#ifndef KERNEL_CHAN_COST_H
#define KERNEL_CHAN_COST_H

#include "types.h"

enum chan_cost_model { CHAN_COST_NONE = 0, CHAN_COST_LINUX61 = 1 };
extern const char *const chan_cost_names[];   /* "none", "linux61", NULL */

struct chan_cost_budget {
    uint32_t pipe_call;     /* instructions per pipe read or write call */
    uint32_t sock_call;     /* instructions per socket send or receive call */
    uint32_t per_skb;       /* instructions per skb sent (alloc + free) */
    uint32_t per_kib;       /* instructions per KiB copied in or out */
};

void chan_cost_set(int model);          /* once, before any workload runs */
int chan_cost_model(void);
const struct chan_cost_budget *chan_cost_budget(void);

/* Burns the budget of one call that moved `bytes` bytes (and `skbs` skbs). */
void chan_cost_pipe(uint32_t bytes);
void chan_cost_sock(uint32_t bytes, uint32_t skbs);
/* Instructions charged since boot (for tests and the result lines). */
uint64_t chan_cost_charged(void);

#endif
