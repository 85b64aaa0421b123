/*
 * The schedstat lines: what the scheduler core counted per CPU, printed at
 * the end of a run.  cr3_loads (last, so that every earlier field keeps its
 * place) counts page-directory switches (kernel/sched_env.h, env_switch_mm).
 * The stackstat line before them also counts page directories; with
 * pvspin=1 a pvspinstat line per CPU follows.  busy_ms, lock_wait_us and
 * lock_waits come last: time not idle, and time spent waiting for
 * spinlocks held by other CPUs (under vsmp all in each logical CPU's own
 * time, followed by a vsmpstat line per CPU: kernel/machine/vsmp.c).
 */
#include "sched_core.h"
#include "sched_env.h"
#include "lib.h"
#include "mm.h"
#include "spinlock.h"
#include "protocol.h"
#include "machine/machine.h"
#include "machine/memhooks.h"

/* The ticks this CPU's clock says it should have taken since its tick
 * started: one per 1/HZ.  Under TCG on a loaded host the vCPU takes fewer
 * (QEMU's timer runs late and the LAPIC holds one pending interrupt, not a
 * queue of them), while its TSC, and every time it measures, runs on:
 * measured 60-90% lost at a host load of 13 on 2 cores; under icount and
 * vsmp the two agree. */
static uint64_t ticks_expected(const struct cpu *c, uint64_t now)
{
    uint64_t since = c->stats.tick_start_ns;
    return since && now > since ? (now - since) * HZ / NSEC_PER_SEC : 0;
}

/* Said aloud where more than a tenth of a CPU's ticks are missing: every
 * timing of the boot is then unreliable (tick-driven policy ran less often
 * than the clock says; docs/usage.md "Lost ticks"). */
static void print_lost_ticks(void)
{
    uint64_t now_here = clock_ns();
    for (int i = 0; i < ncpus_online; i++) {
        struct cpu *c = &cpus[i];
        uint64_t now = machine_cpu_clock_ns(i, now_here);
        uint64_t want = ticks_expected(c, now), got = c->stats.ticks;
        if (want < 20 || got * 10 >= want * 9)
            continue;
        kprintf("ticks: cpu %d took %llu of the %llu ticks its clock expected (%llu%% lost): the emulator's timer "
                "fell behind (TCG on a loaded host), so the timings of this boot are unreliable (ACCEL=vsmp and "
                "icount are not affected)\n",
                i, (unsigned long long)got, (unsigned long long)want,
                (unsigned long long)((want - (got < want ? got : want)) * 100 / want));
    }
}

void sched_print_stats(void)
{
    /* Every CPU's clock first (vsmp: each logical CPU's own time), then the
     * lines: printing moves the printing CPU's own clock, so a clock read
     * after the stackstat line made its busy time depend on how many digits
     * that line had (max_used_bytes gaining a digit moved busy_us by 1). */
    static uint64_t at[MAX_CPUS];
    uint64_t now = clock_ns();
    for (int i = 0; i < ncpus_online; i++)
        at[i] = machine_cpu_clock_ns(i, now);
    /* Per-task memory: stacks, and the page directories of kernel/mm.h made
     * and freed so far (live: the running tasks' and those a CPU's CR3
     * still holds, 2.6.0's lazy active_mm). */
    struct mm_stats ms;
    mm_get_stats(&ms);
    kprintf(PROTO_FORMAT(STACKSTAT), TASK_STACK_SIZE, task_stack_high_water(), ms.created, ms.freed, ms.created - ms.freed);
    for (int i = 0; i < ncpus_online; i++) {
        struct cpu *c = &cpus[i];
        now = at[i];
        uint64_t idle = c->stats.idle_ns + (c->curr == c->idle ? now - c->idle_since_ns : 0);
        uint64_t busy = now > idle ? now - idle : 0;
        uint64_t pick = c->stats.picks ? c->stats.pick_cycles / c->stats.picks : 0;
        kprintf(PROTO_FORMAT(SCHEDSTAT), i, sched_name(), (unsigned long long)c->stats.schedule_calls,
                (unsigned long long)c->stats.context_switches, (unsigned long long)c->stats.migrations,
                (unsigned long long)c->stats.wakeups, (unsigned long long)(idle / NSEC_PER_MSEC),
                (unsigned long long)c->stats.pick_cycles, (unsigned long long)pick,
                (unsigned long long)c->stats.ticks, (unsigned long long)c->stats.resched_ipis,
                (unsigned long long)c->stats.poll_wakes,
                (unsigned long long)c->stats.cr3_loads, (unsigned long long)c->stats.idle_ticks,
                (unsigned long long)(busy / NSEC_PER_MSEC),
                (unsigned long long)(cycles_to_ns(c->stats.lock_wait_cycles) / NSEC_PER_USEC),
                (unsigned long long)c->stats.lock_waits, (unsigned long long)(busy / NSEC_PER_USEC),
                (unsigned long long)(idle / NSEC_PER_USEC), (unsigned long long)ticks_expected(c, now));
    }
    print_lost_ticks();
    machine_print_cpu_stats();                   /* vsmpstat lines: vsmp only (kernel/machine/vsmp.c) */
    chan_cost_print_stats();                     /* coststat lines: cost= only (kernel/chan_cost.c) */
    machine_print_stats();                       /* memstat lines: CACHES=1 only (kernel/machine/memhooks.c) */
    /* pvspin (kernel/spinlock.c): lock waits that halted, kicks sent and received. */
    if (spin_pvspin_enabled())
        for (int i = 0; i < ncpus_online; i++)
            kprintf(PROTO_FORMAT(PVSPINSTAT), i,
                    (unsigned long long)cpus[i].stats.pv_halts, (unsigned long long)cpus[i].stats.pv_kicks,
                    (unsigned long long)cpus[i].stats.pv_nmis);
}
