/* The schedstat lines: what the scheduler core counted per CPU, printed at the end of a run. */
#include "sched_core.h"
#include "sched_env.h"
#include "lib.h"

void sched_print_stats(void)
{
    uint64_t now = clock_ns();
    kprintf("stackstat stack_bytes=%d max_used_bytes=%d\n", TASK_STACK_SIZE, task_stack_high_water());
    for (int i = 0; i < ncpus_online; i++) {
        struct cpu *c = &cpus[i];
        uint64_t idle = c->stats.idle_ns + (c->curr == c->idle ? now - c->idle_since_ns : 0);
        uint64_t pick = c->stats.picks ? c->stats.pick_cycles / c->stats.picks : 0;
        kprintf("schedstat cpu=%d sched=%s schedule_calls=%llu context_switches=%llu migrations=%llu "
                "wakeups=%llu idle_ms=%llu pick_cycles_total=%llu pick_cycles_avg=%llu ticks=%llu "
                "resched_ipis=%llu idle_ticks=%llu\n",
                i, sched_name(), (unsigned long long)c->stats.schedule_calls,
                (unsigned long long)c->stats.context_switches, (unsigned long long)c->stats.migrations,
                (unsigned long long)c->stats.wakeups, (unsigned long long)(idle / NSEC_PER_MSEC),
                (unsigned long long)c->stats.pick_cycles, (unsigned long long)pick,
                (unsigned long long)c->stats.ticks, (unsigned long long)c->stats.resched_ipis,
                (unsigned long long)c->stats.idle_ticks);
    }
}
