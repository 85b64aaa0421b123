/*
 * The timer tick and what hangs off it: sleep timers (task_sleep_ns), the
 * watchdog, and the scheduler core's tick (kernel/sched_core.c).
 *
 * The watchdog counts a task switching in as progress (the core stamps
 * watchdog_progress) and so does a pending sleep timer; when there has been
 * none for watchdog= seconds, the tick stops the machine with exit 3 and a
 * report of every CPU.  Every CPU watches, so one CPU stuck with interrupts
 * off cannot hide a stall; when every CPU is stuck so, the spinlock stall
 * check (kernel/spinlock.c) reports instead.
 */
#include "sched_core.h"
#include "sched_env.h"
#include "stall.h"
#include "wait.h"
#include "lib.h"

static struct list_head timer_list = LIST_HEAD_INIT(timer_list);
static spinlock_t timer_lock = SPINLOCK_INIT("timers");

volatile uint32_t watchdog_progress;
static uint64_t watchdog_ns = (uint64_t)DEFAULT_WATCHDOG_S * NSEC_PER_SEC;

/* ---- sleep timers ---- */

void task_sleep_ns(uint64_t ns)
{
    struct task *self = current_task();
    self->timer_deadline_ns = clock_ns() + ns;
    unsigned long f = spin_lock_irqsave(&timer_lock);
    struct list_head *pos;
    list_for_each(pos, &timer_list)     /* keep the list sorted by deadline */
        if (list_entry(pos, struct task, timer_entry)->timer_deadline_ns > self->timer_deadline_ns)
            break;
    list_add_tail(&self->timer_entry, pos);
    self->state = TASK_SLEEPING;
    spin_release(&timer_lock);          /* keep interrupts off until schedule() */
    schedule();
    irq_restore(f);
}

static void run_timers(uint64_t now)
{
    for (;;) {
        spin_lock(&timer_lock);
        struct task *t = NULL;
        if (!list_empty(&timer_list)) {
            t = list_first_entry(&timer_list, struct task, timer_entry);
            if (t->timer_deadline_ns > now)
                t = NULL;
            else
                list_del(&t->timer_entry);
        }
        bool pending = !list_empty(&timer_list);
        spin_release(&timer_lock);
        if (!t) {
            if (pending)
                env_note_progress(now); /* waiting for a timer is not a stall */
            return;
        }
        wake_up_task(t, WAKE_IRQ);
    }
}

/* ---- the watchdog ---- */

/* The same limit stops a CPU that waits that long for one spinlock (stall.h). */
void watchdog_set_timeout(uint32_t seconds)
{
    watchdog_ns = (uint64_t)seconds * NSEC_PER_SEC;
    spin_set_stall_limit_ns(watchdog_ns);
}

static void watchdog_fire(uint64_t stalled_ns);
static void tick_stall_fire(int cpu, uint64_t since_ns);

/*
 * A long-running loop says it progresses.  It also looks at its CPU's
 * ticks: the watchdog and every tick-driven decision (a timeslice's end,
 * 2.4's counter, balancing) run in the tick, so a CPU whose timer stopped,
 * or whose vCPU the host stopped delivering ticks to, lets a CPU-bound
 * task run on for good while nothing else there can run, and the
 * watchdog, in that same tick, never fires.  A task that keeps the
 * watchdog quiet while no tick has come for the watchdog's limit is
 * reported instead (exit 3), never a silent hang.
 */
void watchdog_touch(void)
{
    uint64_t now = clock_ns();
    env_note_progress(now);
    unsigned long f = irq_save();                /* this CPU's fields, not another's after a move */
    struct cpu *c = this_cpu();
    uint64_t last = c->stats.last_tick_ns ? c->stats.last_tick_ns : c->stats.tick_start_ns;
    int id = c->id;
    irq_restore(f);
    if (watchdog_ns && last && now > last && now - last > watchdog_ns)
        tick_stall_fire(id, now - last);
}

/*
 * Progress, without watchdog_touch's look at this CPU's ticks: for a wait
 * that runs with interrupts off on purpose (its CPU takes no tick meanwhile,
 * which the tick check would report) while other CPUs arrive.  The caller
 * judges, on the guest's own clock, whether the wait still progresses
 * (bench=deadlock kind=spin: the spinlock cycle gathering its CPUs).
 */
void watchdog_note_progress(void)
{
    env_note_progress(clock_ns());
}

static void tick_stall_fire(int cpu, uint64_t since_ns)
{
    static volatile int fired;
    if (xchg(&fired, 1))
        return;
    console_panic_mode();
    char s[32];
    struct task *t = cpus[cpu].curr;
    kprintf("watchdog: cpu=%d took no timer tick for %s s while %s (pid %d) ran (ticks=%llu): nothing there could "
            "preempt it; the timer stopped, or the emulator stopped delivering its ticks (watchdog=%llu)\n",
            cpu, fmt_fixed(s, since_ns, NSEC_PER_SEC, 1), t ? t->name : "?", t ? t->pid : -1,
            (unsigned long long)cpus[cpu].stats.ticks, (unsigned long long)(watchdog_ns / NSEC_PER_SEC));
    stall_report_cpus("watchdog");
    machine_exit(EXIT_WATCHDOG);
}

static void watchdog_fire(uint64_t stalled_ns)
{
    static volatile int fired;
    if (xchg(&fired, 1))
        return;             /* another CPU is already reporting */
    console_panic_mode();
    char s[32];
    kprintf(PROTO_WORD_WATCHDOG " no progress for %s s (watchdog=%llu)\n", fmt_fixed(s, stalled_ns, NSEC_PER_SEC, 1),
            (unsigned long long)(watchdog_ns / NSEC_PER_SEC));
    for (int i = 0; i < ncpus_online; i++) {
        struct task *t = cpus[i].curr;
        kprintf(PROTO_WORD_WATCHDOG " cpu=%d current=%s pid=%d state=%d runqueue=%d\n", i, t ? t->name : "?", t ? t->pid : -1,
                t ? t->state : -1, cpus[i].nr_queued);
    }
    stall_report_cpus("watchdog");
    machine_exit(EXIT_WATCHDOG);
}

static void watchdog_check(uint64_t now)
{
    uint64_t last = (uint64_t)watchdog_progress << PROGRESS_SHIFT;
    if (watchdog_ns && now > last && now - last > watchdog_ns)
        watchdog_fire(now - last);
}

/* ---- the tick ---- */

#ifndef TICK_TLB_FLUSH_TICKS
#define TICK_TLB_FLUSH_TICKS 16     /* see timer_tick */
#endif

/* The timer interrupt of this CPU (interrupts off). */
void timer_tick(void)
{
    uint64_t now = clock_ns();
    this_cpu()->stats.last_tick_ns = now;
    if (this_cpu_id() == 0) {
        jiffies++;
        run_timers(now);
    }
    watchdog_check(now);
    /* cr3=elide: a CR3 write every TICK_TLB_FLUSH_TICKS ticks of this CPU
     * (of the directory the hardware holds, the kernel's).  QEMU's TCG
     * resizes its software TLB only when it is flushed (at most doubling it
     * each time); with no CR3 write ever it stays at its first 256 entries,
     * and a large working set (goodness's scan over 8,000 tasks) misses in
     * it on every pick; a flush every tick refills it every millisecond.
     * hackbench 200 groups, loops=100, 1 vCPU, TCG (2026-12-05), goodness
     * (sock_model=2.4.18) / o1 seconds: no write 41.5 / 10.5, every tick
     * 37.2 / 11.0, every 16 ticks 30.2 / 10.5, every 128 31.5 / 10.9; the
     * icount ratio o1/goodness is 0.352, TCG's 0.254, 0.297, 0.346, 0.345
     * (docs/cost-model.md).  icount runs load CR3 (cr3=load) and vsmp's
     * elide costs there one instruction per 16 ticks of a logical CPU.
     * CFLAGS_EXTRA=-DMM_MEASURE_NO_TICK_FLUSH leaves it out, and
     * -DTICK_TLB_FLUSH_TICKS=N sets the period, to measure them. */
#ifndef MM_MEASURE_NO_TICK_FLUSH
    if (mm_cr3_elide && this_cpu()->stats.ticks % TICK_TLB_FLUSH_TICKS == 0)
        write_cr3(read_cr3());
#endif
    sched_tick();
}
