/* Stall reports (see stall.h). */
#include "stall.h"
#include "cpu.h"
#include "smp.h"
#include "trap.h"
#include "time.h"
#include "x86.h"
#include "lib.h"
#include "machine/machine.h"
#include "task.h"
#include "protocol.h"

#define NMI_WAIT_US 200000         /* how long the reporter waits for the other CPUs' lines */

static volatile int reporting;     /* a report is being written: NMIs are ours */
static volatile int nmi_answered;  /* CPUs that printed their part */
static volatile int print_turn;    /* the CPU whose lines come next: the report reads in CPU order */
static volatile int reporter = -1; /* the CPU writing the report (it printed its own lines first) */

static int turn_after(int cpu) { return cpu + 1 == reporter ? cpu + 2 : cpu + 1; }
static const char *report_tag = "stall";

static void print_cpu(int cpu, uint32_t eip, uint32_t ebp)
{
    struct task *t = cpus[cpu].curr;
    kprintf("%s: cpu=%d task=%s pid=%d eip=%08x preempt_count=%d in_irq=%d\n", report_tag, cpu, t ? t->name : "?",
            t ? t->pid : -1, eip, cpus[cpu].preempt_count, cpus[cpu].in_irq);
    print_backtrace(ebp);
}

bool stall_nmi(const struct trapframe *tf)
{
    if (!reporting)
        return false;
    int me = this_cpu_id();
    /* Wait for our turn, but not forever: a CPU that never answers must not silence the rest. */
    for (uint32_t waited = 0; print_turn < me && waited < NMI_WAIT_US; waited += 10)
        delay_us(10);
    print_cpu(me, tf->eip, tf->ebp);
    __atomic_add_fetch(&nmi_answered, 1, __ATOMIC_SEQ_CST);
    print_turn = turn_after(me);
    halt_forever();
}

/*
 * Every CPU idle while the core counts runnable tasks on their queues: a
 * wake-up that queued a task and told no CPU that may run it (a lost
 * reschedule IPI, a need_resched cleared too early, a scheduler that
 * strands a task).  Ticks keep coming and nothing switches in, since an
 * idle CPU never looks at its queue by itself, so the watchdog's "no
 * progress" comes at its limit; this says why, with what each CPU knows.
 * Here, in the report, and not in the tick: the tick's code, which vsmp's
 * and icount's figures count instruction by instruction, stays as it was.
 * Read racily: idle CPUs change nothing, and one that just took a task is
 * not idle.
 */
static void report_lost_wakeup(const char *who)
{
    int runnable = 0;
    for (int i = 0; i < ncpus_online; i++) {
        if (cpus[i].curr != cpus[i].idle)
            return;
        runnable += cpus[i].nr_queued;
    }
    if (runnable <= 0)
        return;
    kprintf("%s: every cpu idle while %d task(s) runnable: a lost wake-up (queued, and no cpu that may run it was told "
            "to reschedule)\n", who, runnable);
    uint64_t now = clock_ns();
    for (int i = 0; i < ncpus_online; i++)
        kprintf("%s: cpu=%d idle need_resched=%d runqueue=%d idle_for_ns=%lld last_tick_ns_ago=%lld resched_ipis=%llu\n",
                who, i, cpus[i].need_resched, cpus[i].nr_queued, (long long)(now - cpus[i].idle_since_ns),
                (long long)(now - cpus[i].stats.last_tick_ns), (unsigned long long)cpus[i].stats.resched_ipis);
}

void stall_report_cpus(const char *who)
{
    report_lost_wakeup(who);
    report_tag = who;
    nmi_answered = 0;
    int me = this_cpu_id();
    print_cpu(me, (uint32_t)(uintptr_t)__builtin_return_address(0), (uint32_t)(uintptr_t)__builtin_frame_address(0));
    reporter = me;
    print_turn = turn_after(-1);
    if (machine_report_cpus(who, print_cpu))   /* vsmp: the others are not running: their saved frames */
        return;
    reporting = 1;
    if (ncpus_online > 1) {
        lapic_send_nmi_all_but_self();
        for (uint32_t waited = 0; nmi_answered < ncpus_online - 1 && waited < NMI_WAIT_US; waited += 1000)
            delay_us(1000);
        if (nmi_answered < ncpus_online - 1)
            kprintf("%s: %d of %d other cpus answered the NMI\n", who, nmi_answered, ncpus_online - 1);
    }
}

void stall_report_lock_why(const char *lock_name, int waiter_cpu, int holder_cpu, uint64_t waited_ns, const char *why)
{
    static volatile int claimed;
    irq_disable();
    if (xchg(&claimed, 1))
        halt_forever();            /* another CPU reports; our NMI line shows where we waited */
    console_panic_mode();
    char s[32];
    kprintf(PROTO_WORD_STALL " cpu=%d waited %s s for spinlock '%s' held by cpu=%d (%s)\n", waiter_cpu,
            fmt_fixed(s, waited_ns, NSEC_PER_SEC, 1), lock_name, holder_cpu, why);
    stall_report_cpus("stall");
    machine_exit(EXIT_WATCHDOG);
}

void stall_report_lock(const char *lock_name, int holder_cpu, uint64_t waited_ns)
{
    stall_report_lock_why(lock_name, this_cpu_id(), holder_cpu, waited_ns, "limit: watchdog= seconds");
}
