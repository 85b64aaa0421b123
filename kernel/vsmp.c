/*
 * vsmp: N logical CPUs in virtual time on one QEMU vCPU (vsmp=N; the model
 * and its limits are in docs/vsmp.md).
 *
 * QEMU runs one vCPU under -icount shift=0: every instruction advances the
 * TSC by one cycle (tsc_khz=1000000), and QEMU's timers run on that clock,
 * so a run is deterministic.  The kernel runs N logical CPUs on it.  Each has
 * its struct cpu and %gs segment, idle task, run queue, tick and its own
 * clock: local TSC = RDTSC - cpus[i].tsc_base (kernel/time.h), and the
 * dispatcher moves tsc_base so that a logical CPU's clock runs only while it
 * runs.  clock_ns(), the scheduler's clock, the tick and every timing a
 * workload reports are local time.
 *
 * The dispatcher (reschedule) always runs the logical CPU whose time is
 * smallest (its "eff": a runnable CPU's local time, a halted one's next
 * event, a lock waiter's never until the lock is released).  A logical
 * CPU gives up the physical CPU:
 *   - before a spinlock acquisition when another CPU is behind it (more
 *     than vsmp's slack): so acquisitions happen in virtual-time order;
 *   - when the lock it wants is held (it waits, LOCKWAIT, until the release;
 *     its time then becomes at least the release time: lock-wait time);
 *   - when it halts in the idle loop (until its next tick or IPI);
 *   - in a spin-wait (cpu_relax) once it is ahead of another CPU;
 *   - when it has run vsmp_quantum_ns past the slowest other CPU (seen at
 *     its next hook, or by the one hardware timer in one-shot mode).
 *
 * Why acquisitions in time order make lock waiting exact: a CPU X that
 * takes a lock at local time t is the slowest CPU (within the slack), so
 * every other CPU that took this lock before did so at a time <= t; if that
 * holder released it at r > t, X's attempt fell inside the hold and X waits
 * until r.  So on every acquisition X's clock moves to max(t, last release)
 * (Lamport's clock rule, which also keeps every timestamp X reads under the
 * lock in X's past), and the difference is X's lock-wait time.  What is
 * read without a lock (need_resched, a balancer's peek at another queue) is
 * as old as the quantum at most.
 *
 * IPIs: a reschedule IPI sent at local time t reaches CPU b at
 * max(b's time, t + vsmp_ipi_ns); a halted b sleeps until then.  Ticks:
 * every 1/HZ of each CPU's local time, at most one pending (as a LAPIC's
 * interrupt request bit).  Interrupts are taken only where the logical CPU
 * has interrupts on, as on hardware.  A running CPU sees a due tick or IPI
 * at its next spinlock hook (see arm() for why, and what it costs).  The
 * dispatcher's own interrupts (the timer as a backstop, a quantum's end)
 * deliver nothing and are no preemption point (kernel/trap.c).
 *
 * The dispatcher's own work is not charged: every hook freezes the current
 * CPU's clock on entry (freeze) and restarts it on exit (thaw), so a
 * logical CPU's time is the kernel's instructions, not the simulation's.
 * vsmp=1 therefore runs as -icount with one vCPU does (tests/qemu/vsmp.sh).
 *
 * Everything here runs with interrupts off on the one physical CPU, so no
 * lock protects the dispatcher's state: nothing else can run.
 */
#include "vsmp.h"
#include "cpu.h"
#include "smp.h"
#include "time.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "config.h"
#include "spinlock.h"
#include "sched_core.h"
#include "stall.h"
#include "machine/memhooks.h"

#define NEVER UINT64_MAX
#define VSMP_BOOT_STACK_PAGES 2
/* A timer interrupt this close before a deadline counts as at it: the
 * timer is armed a few instructions before the clock restarts. */
#define DUE_SLACK_CYCLES 256
/* A spin-wait iteration (cpu_relax) advances the spinning CPU's clock by
 * this much beyond the loop's own instructions, until it is ahead of
 * another CPU (then it yields): the resolution of a spin-wait.  Chosen,
 * not sourced: docs/vsmp.md measures its effect. */
#define RELAX_STEP_CYCLES 100
/* For a CPU that calls hooks, the hardware timer fires this many quanta
 * after its deadline (the hooks see the deadline first): see arm(). */
#define BACKSTOP_QUANTA 4

enum vcpu_state { VCPU_OFF, VCPU_RUNNING, VCPU_READY, VCPU_HALTED, VCPU_LOCKWAIT };
static const char *const state_names[] = { "off", "running", "ready", "halted", "lockwait" };

struct vcpu_stats {
    uint64_t dispatches;        /* times this CPU got the physical CPU */
    uint64_t order_yields;      /* lock acquisitions that waited for a slower CPU first */
    uint64_t relax_yields;      /* spin-wait iterations that let a slower CPU run */
    uint64_t quantum_yields;    /* quantum ends */
    uint64_t lock_blocks;       /* acquisitions that found the lock held */
    uint64_t block_races;       /* ... and found it released when they came to wait (lock_block) */
    uint64_t ipis_sent, ipis_received;
    uint64_t spin_cycles;       /* charged to spin-waits beyond their instructions */
};

struct vcpu {
    uint32_t saved_esp;         /* stack pointer while another CPU runs (vsmp_switch) */
    int state;
    uint64_t local;             /* local TSC: frozen while another runs (and in the hooks) */
    uint64_t next_tick;         /* local time of the next tick; NEVER before the timer starts */
    uint64_t ipi_at;            /* a pending reschedule IPI is due then; NEVER: none */
    struct spinlock *wait_lock; /* LOCKWAIT: the lock */
    uint64_t wait_since;        /* LOCKWAIT: local time it began to wait */
    uint64_t ran_from;          /* local time of its dispatch or of the last timer interrupt */
    bool hooked;                /* it called a hook since then */
    bool hookless;              /* the timer once found it running a quantum without hooks: arm it exactly */
    struct vcpu_stats stats;
};

bool vsmp_on, vsmp_multi;
static struct vcpu vcpus[MAX_CPUS];
static int nvcpus;
static int cur;                  /* the logical CPU the physical CPU runs */
static uint64_t quantum, ipi_latency, tick_period;
static uint32_t quantum_ns_, ipi_ns_, slack_ns_;
static uint64_t min_other;       /* the smallest eff of the CPUs other than cur */
/* Each CPU's eff, kept up to date when its state, clock or events change
 * (the running CPU's reads NEVER): a dispatch compares numbers instead of
 * working out every CPU's eff again. */
static uint64_t queued_eff[MAX_CPUS];
static int lock_waiters;         /* CPUs in LOCKWAIT (the stall check runs only when there are some) */
static uint64_t armed_at;        /* RDTSC at which the hardware timer fires; NEVER: not armed */
static uint64_t slack;           /* lock acquisitions may run this far ahead of the slowest CPU */
static uint64_t hw_timer_irqs, hw_timer_arms;   /* the one hardware timer: interrupts taken, writes */
static uint64_t event_irqs;      /* self-interrupts for an event found due in a hook */
static uint64_t deadline;        /* local time of cur's next event or quantum end (the hooks check it) */
static uint64_t backstop;        /* how late the timer may fire for a CPU that calls hooks */
static bool event_sent;          /* a self-interrupt is pending */

/*
 * The two lock hooks (vsmp_lock_order, vsmp_lock_release) run on every
 * spinlock acquisition and release, and do not turn interrupts off; nor
 * does a switch between logical CPUs.  Under TCG an sti leaves translated
 * code twice (it ends its block, and the instruction in its shadow is a
 * block of its own), and masking in the hooks and around the switches was
 * 11% of a goodness vsmp boot's host time (docs/measurements.md).  Instead
 * an interrupt that comes while a lock hook runs is deferred: trap() hands
 * it to vsmp_defer_irq, which acknowledges it and notes it here, and it is
 * sent again as a self-interrupt when the hook ends or when the physical
 * CPU goes on in a context that is not a lock hook (redeliver); there
 * interrupts are off, so it waits in the LAPIC until that context turns
 * them on, as a held interrupt did before.  Interrupts are on across a
 * switch only between lock hooks; the resumed context sets its own state
 * back (reschedule).
 */
#define DEFER_TIMER 1u
#define DEFER_EVENT 2u
static volatile bool in_lock_hook;
static volatile uint32_t deferred;     /* DEFER_* */
static bool switch_irqs_on;            /* the switching context had interrupts on (reschedule) */
static uint64_t irqs_deferred;

extern void vsmp_switch(uint32_t *save_esp, uint32_t next_esp, uint32_t next_gs);
extern void vsmp_first_entry(void);

/* void vsmp_switch(save_esp, next_esp, next_gs): save the callee-saved
 * registers and the stack pointer, switch %gs to the next logical CPU's
 * struct cpu and resume it where it called vsmp_switch (or, the first
 * time, at vsmp_first_entry).  Interrupts are off on both sides. */
__asm__(".text\n\t"
        ".globl vsmp_switch\n"
        "vsmp_switch:\n\t"
        "movl 4(%esp), %eax\n\t"
        "movl 8(%esp), %edx\n\t"
        "movl 12(%esp), %ecx\n\t"
        "pushl %ebp\n\t"
        "pushl %ebx\n\t"
        "pushl %esi\n\t"
        "pushl %edi\n\t"
        "movl %esp, (%eax)\n\t"
        "movl %edx, %esp\n\t"
        "movw %cx, %gs\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "popl %ebp\n\t"
        "ret\n\t"
        ".globl vsmp_first_entry\n"
        "vsmp_first_entry:\n\t"
        "call vsmp_cpu_main\n"
        "1:\thlt\n\t"
        "jmp 1b\n");

uint32_t vsmp_quantum_ns(void) { return quantum_ns_; }
uint32_t vsmp_ipi_ns(void) { return ipi_ns_; }
uint32_t vsmp_slack_ns(void) { return slack_ns_; }

/* ---- the clock of the current logical CPU ---- */

/* Stop the current CPU's clock: its local time is vcpus[cur].local from here on. */
static inline struct vcpu *freeze(void)
{
    struct vcpu *v = &vcpus[cur];
    machine_fold(&cpus[cur]);       /* CACHES=1: the instrumentation's debt (kernel/machine/memhooks.h) */
    v->local = rdtsc() - cpus[cur].tsc_base;
    return v;
}

/* Restart it at vcpus[cur].local. */
static inline void thaw(void)
{
    machine_thaw(&cpus[cur]);       /* CACHES=1: what the dispatcher's own accesses owed is not the CPU's */
    cpus[cur].tsc_base = rdtsc() - vcpus[cur].local;
}

/*
 * The spinlock hooks run on every acquisition and release, and what they
 * execute outside freeze()..thaw() (the jump from the patched site, the
 * call, the prologue and epilogue) would be charged as the kernel's time:
 * about 30 instructions a lock, a quarter more time per pipe round trip.
 * vsmp_setup measures that residue (lock and release pairs before and
 * after each patch, under icount exact) and the hooks restart the clock
 * that much earlier, so that when the hook returns the clock reads what it
 * read at the site.  (Restarting it earlier never shows: only the hook's
 * own epilogue runs before it is back at the site's time.)
 */
static uint64_t order_residue, release_residue;
static inline void thaw_less(uint64_t residue)
{
    machine_thaw(&cpus[cur]);
    cpus[cur].tsc_base = rdtsc() - (vcpus[cur].local - residue);
}

/* ---- choosing who runs ---- */

static inline uint64_t eff(const struct vcpu *v)
{
    switch (v->state) {
    case VCPU_READY:
        return v->local;
    case VCPU_HALTED: {
        uint64_t e = MIN(v->next_tick, v->ipi_at);
        return e == NEVER ? NEVER : MAX(e, v->local);
    }
    default:
        return NEVER;
    }
}

/* After vcpus[i]'s state, clock or events changed (i not running). */
static inline void requeue(int i)
{
    queued_eff[i] = eff(&vcpus[i]);
    if (queued_eff[i] < min_other) {
        min_other = queued_eff[i];
        deadline = MIN(deadline, min_other + quantum);
    }
}

static uint64_t scan_min_other(int self)
{
    uint64_t m = NEVER;
    for (int i = 0; i < nvcpus; i++)
        if (i != self)
            m = MIN(m, queued_eff[i]);
    return m;
}

static void lock_report(int waiter, const char *why) __attribute__((noreturn));

/* The stall limit (watchdog=) in cycles, converted when it changes, not at
 * every dispatch (two 64-bit divisions on this 32-bit kernel). */
static uint64_t stall_limit_cycles(void)
{
    static uint64_t ns_seen, cycles;
    uint64_t ns = spin_stall_limit_ns();
    if (ns != ns_seen) {
        ns_seen = ns;
        cycles = ns / 1000 * tsc_khz / 1000;
    }
    return cycles;
}

/* A lock waiter that has waited past the stall limit (watchdog=) while the
 * rest ran on to `now`: the same report as spinlock.c's stall check. */
static void check_lock_waiters(uint64_t now)
{
    uint64_t limit = stall_limit_cycles();
    if (!limit || now == NEVER)
        return;
    for (int i = 0; i < nvcpus; i++)
        if (vcpus[i].state == VCPU_LOCKWAIT && now > vcpus[i].wait_since + limit)
            lock_report(i, "limit: watchdog= seconds");
}

/*
 * The CPU with the smallest eff; on a tie the first after x (x last), so
 * that a yield goes to the others and no CPU number is favoured.  *second
 * gets the smallest eff of the CPUs other than the one picked: its
 * min_other.  One pass over the CPUs, since this runs at every dispatch
 * (docs/vsmp.md, "What the dispatcher costs").
 */
static int pick(int x, uint64_t *second)
{
    int best = -1;
    uint64_t best_eff = NEVER, next_eff = NEVER;
    for (int k = 0, i = x + 1; k < nvcpus; k++, i++) {
        if (i == nvcpus)
            i = 0;
        uint64_t e = queued_eff[i];
        if (e < best_eff) {
            next_eff = best_eff;
            best = i;
            best_eff = e;
        } else if (e < next_eff) {
            next_eff = e;
        }
    }
    if (lock_waiters)
        check_lock_waiters(best_eff);
    if (best < 0) {
        for (int i = 0; i < nvcpus; i++)
            if (vcpus[i].state == VCPU_LOCKWAIT)
                lock_report(i, "every logical cpu waits for a spinlock: nothing can release one");
        panic("vsmp: no logical cpu can run");
    }
    *second = next_eff;
    return best;
}

/* An event of the current CPU is due: interrupt it (a self-IPI, taken
 * when it has interrupts on; vsmp_event_irq delivers what is due). */
static void raise_event(void)
{
    if (event_sent)
        return;
    event_sent = true;
    event_irqs++;
    if (in_lock_hook)
        deferred |= DEFER_EVENT;    /* sent when the hook ends (redeliver) */
    else
        lapic_send_self(VECTOR_VSMP_EVENT);
}

/* What was deferred during a lock hook, as self-interrupts (the LAPIC
 * delivers the higher vector first, as it did two held ones). */
static void redeliver(void)
{
    uint32_t d = deferred;
    deferred = 0;
    if (d & DEFER_TIMER)
        lapic_send_self(VECTOR_TIMER);
    if (d & DEFER_EVENT)
        lapic_send_self(VECTOR_VSMP_EVENT);
}

/* A context the physical CPU goes on in after a switch: its interrupts as
 * they were (the switcher's lock hook defers any until here), and what was
 * deferred held in the LAPIC until it turns them on, unless it is a lock
 * hook, which sends it at its end.  Interrupts are turned back on by the
 * caller, after its last dispatcher work (reschedule). */
static void after_switch(bool irqs_on, bool hook)
{
    if (!irqs_on)
        irq_disable();
    in_lock_hook = hook;
    if (deferred && !hook)
        redeliver();
}

bool vsmp_defer_irq(int vector)
{
    if (!in_lock_hook)
        return false;
    uint32_t bit = vector == VECTOR_TIMER ? DEFER_TIMER : vector == VECTOR_VSMP_EVENT ? DEFER_EVENT : 0;
    if (!bit)
        return false;
    lapic_eoi();
    deferred |= bit;
    irqs_deferred++;
    return true;
}

/*
 * The current CPU's next deadline: its tick, a pending IPI, or the end of
 * its quantum, whichever comes first.  Every hook compares the CPU's clock
 * with it (hook_check): a CPU that calls hooks (takes locks) sees a due
 * event at its next hook and takes it as a self-interrupt.  The one
 * hardware timer is then only the backstop, BACKSTOP_QUANTA quanta late,
 * for a CPU that stops calling hooks; one the timer caught running a
 * quantum without a hook is armed exactly from then on (vsmp_timer_irq).
 * A timer already armed earlier is left alone (it fires early; the handler
 * finds nothing due and arms again).
 *
 * Why not the timer for every deadline: a CPU yields at its next lock long
 * before its deadline, so nearly every timer armed for it fires while
 * another runs, for nothing; each fire and each write of the timer is a
 * QEMU timer update (a vCPU kick, an event-loop wake-up).  docs/vsmp.md,
 * "What the dispatcher costs", has the counts: 8 logical CPUs, hackbench
 * 10 groups, 123,061 interrupts and 271,508 writes against 14,100 and
 * 19,280, half the host time.  The price is lateness: a due event waits
 * for the next hook (vsmpstat event_late_ns_avg: 363 ns against 84 ns with
 * the exact timer, which also waits for interrupts to be on).
 */
static void arm(void)
{
    struct vcpu *v = &vcpus[cur];
    uint64_t dl = MIN(v->next_tick, v->ipi_at);
    if (min_other != NEVER)
        dl = MIN(dl, min_other + quantum);
    deadline = dl;
    if (dl == NEVER)
        return;
    if (dl <= v->local) {
        raise_event();              /* due already (a halted CPU woken for it) */
        return;
    }
    uint64_t cycles = dl - v->local;
    if (!v->hookless)
        cycles += backstop;         /* the hooks see the deadline; the timer is the backstop */
    uint64_t now = rdtsc();
    uint64_t at = now + cycles;
    if (armed_at != NEVER && armed_at <= at)
        return;                     /* it fires first (or has fired: the interrupt is pending) */
    armed_at = at;
    hw_timer_arms++;
    lapic_timer_oneshot_cycles(cycles);
}

/* After the current CPU got the physical CPU: what it must watch for. */
static void after_dispatch(void)
{
    vcpus[cur].ran_from = vcpus[cur].local;
    min_other = scan_min_other(cur);
    arm();
}

/*
 * The current CPU x (clock frozen, its state set by the caller: ready,
 * halted or waiting for a lock) gives the physical CPU to the CPU with the
 * smallest time, which may be x itself.  Returns when x runs again, its
 * local time moved on to when it could run (its event, or a release).
 */
static void reschedule(void)
{
    int x = cur;
    queued_eff[x] = eff(&vcpus[x]);
    uint64_t second;
    int y = pick(x, &second);
    struct vcpu *v = &vcpus[y];
    uint64_t e = queued_eff[y];
    if (e > v->local)
        v->local = e;               /* a halted CPU sleeps until its event */
    v->state = VCPU_RUNNING;
    v->ran_from = v->local;
    v->hooked = false;
    queued_eff[y] = NEVER;
    v->stats.dispatches++;
    min_other = second;
    if (y != x) {
        /* Interrupts stay as they are across the switch (on only in a lock
         * hook, which defers them), and x gets back its own state of them
         * and of in_lock_hook afterwards: an sti is paid only where the
         * context that switched to x had them off (see in_lock_hook). */
        bool on = (read_eflags() & EFLAGS_IF) != 0, hook = in_lock_hook;
        switch_irqs_on = on;
        cur = y;
        vsmp_switch(&vcpus[x].saved_esp, v->saved_esp, gdt_percpu_selector(y));
        /* x again: whoever dispatched us set cur, state, local and min_other. */
        after_switch(on, hook);
        arm();
        if (on && !switch_irqs_on)
            irq_enable();
        return;
    }
    arm();
}

/* ---- boot ---- */

#define CALIBRATION_PAIRS 1000
static spinlock_t calibration_lock = SPINLOCK_INIT("vsmp-calibration");

/* Cycles of CALIBRATION_PAIRS uncontended lock and release pairs (boot,
 * interrupts off, no other CPU started: no hook waits). */
static __attribute__((noinline)) uint64_t lock_pairs_cycles(void)
{
    uint64_t t0 = local_tsc();
    for (int i = 0; i < CALIBRATION_PAIRS; i++) {
        spin_lock(&calibration_lock);
        spin_release(&calibration_lock);
    }
    return local_tsc() - t0;
}

int vsmp_setup(int ncpus, uint32_t quantum_ns, uint32_t ipi_ns, uint32_t slack_ns)
{
    nvcpus = ncpus;
    vsmp_on = true;
    vsmp_multi = ncpus > 1;
    quantum_ns_ = quantum_ns;
    ipi_ns_ = ipi_ns;
    /* ns to TSC cycles (under icount shift=0 one each). */
    quantum = (uint64_t)quantum_ns * tsc_khz / 1000000;
    backstop = BACKSTOP_QUANTA * quantum;
    ipi_latency = (uint64_t)ipi_ns * tsc_khz / 1000000;
    tick_period = (uint64_t)tsc_khz * 1000 / HZ;
    slack_ns_ = slack_ns;
    slack = (uint64_t)slack_ns * tsc_khz / 1000000;
    armed_at = NEVER;
    for (int i = 0; i < MAX_CPUS; i++) {
        vcpus[i].state = VCPU_OFF;
        vcpus[i].next_tick = NEVER;
        vcpus[i].ipi_at = NEVER;
        queued_eff[i] = NEVER;
    }
    lock_waiters = 0;
    cur = 0;
    vcpus[0].state = VCPU_RUNNING;
    lapic_timer_oneshot_init();
    if (vsmp_multi) {
        /* Every acquisition and release site calls the hooks; measure what
         * each costs beyond what the hooks exclude (see thaw_less). */
        uint64_t plain = lock_pairs_cycles();
        spin_vsmp_enable_acquire();
        uint64_t with_order = lock_pairs_cycles();
        spin_vsmp_enable_release();
        uint64_t with_both = lock_pairs_cycles();
        order_residue = with_order > plain ? (with_order - plain) / CALIBRATION_PAIRS : 0;
        release_residue = with_both > with_order ? (with_both - with_order) / CALIBRATION_PAIRS : 0;
    }
    return ncpus;
}

uint32_t vsmp_hook_residue(int which) { return (uint32_t)(which ? release_residue : order_residue); }

/* A logical CPU's first code (from vsmp_first_entry): the AP boot of
 * kernel/smp.c without the trampoline. */
void __attribute__((used, noreturn)) vsmp_cpu_main(void)
{
    after_switch(false, false);     /* a new CPU's context: interrupts off, no lock hook */
    after_dispatch();
    thaw();
    smp_cpu_start(this_cpu_id());
}

/* The boot CPU starts the others, one at a time, at its own local time. */
void vsmp_start_cpus(void)
{
    for (int id = 1; id < nvcpus; id++) {
        uint8_t *stack = page_alloc(VSMP_BOOT_STACK_PAGES);
        if (!stack)
            panic("no memory for the boot stack of logical cpu %d", id);
        uint32_t *sp = (uint32_t *)(stack + VSMP_BOOT_STACK_PAGES * PAGE_SIZE);
        *--sp = (uint32_t)(uintptr_t)vsmp_first_entry;   /* vsmp_switch's ret */
        for (int r = 0; r < 4; r++)
            *--sp = 0;                                   /* ebp, ebx, esi, edi */
        cpus[id].self = &cpus[id];
        cpus[id].id = id;
        cpus[id].apic_id = cpus[0].apic_id;
        cpus[id].cr3 = cpus[0].cr3;
        struct vcpu *v = &vcpus[id];
        v->saved_esp = (uint32_t)(uintptr_t)sp;
        unsigned long f = irq_save();
        struct vcpu *me = freeze();
        v->local = me->local;       /* it starts at the boot CPU's time */
        v->state = VCPU_READY;
        requeue(id);
        thaw();
        irq_restore(f);
        while (!cpus[id].online)
            cpu_relax();            /* a spin-wait: the new CPU runs (kernel/smp.c waits so too) */
    }
}

/* ---- the tick and the hardware timer ---- */

void vsmp_timer_start(void)
{
    unsigned long f = irq_save();
    struct vcpu *v = freeze();
    v->next_tick = v->local + tick_period;
    arm();
    thaw();
    irq_restore(f);
}

/* How late ticks and IPIs reach their CPU: the hooks see a due event at
 * the CPU's next hook, the backstop timer later still, and a CPU with
 * interrupts off takes it when it turns them on (as a machine would). */
static uint64_t events_delivered, lateness_sum, lateness_max;
static void count_lateness(uint64_t now, uint64_t due)
{
    uint64_t late = now > due ? now - due : 0;
    events_delivered++;
    lateness_sum += late;
    lateness_max = MAX(lateness_max, late);
}

/* The current CPU (clock frozen) has run a quantum past the slowest other
 * one: it yields (reschedule arms, or raises, what is due when it runs
 * again).  Returns whether it did. */
static bool end_quantum(struct vcpu *v)
{
    if (min_other == NEVER || v->local <= min_other + quantum)
        return false;
    v->stats.quantum_yields++;
    v->state = VCPU_READY;
    reschedule();
    return true;
}

/* Deliver what is due to the current CPU (clock frozen), then end its
 * quantum if it is over; restarts its clock.  Returns whether a tick or an
 * IPI was delivered. */
static bool deliver(struct vcpu *v)
{
    bool tick = v->local + DUE_SLACK_CYCLES >= v->next_tick;
    if (tick) {
        count_lateness(v->local, v->next_tick);
        /* One pending tick at most, as a LAPIC's request bit: a CPU that
         * had interrupts off for longer than a period loses the rest. */
        v->next_tick += tick_period;
        if (v->next_tick <= v->local)
            v->next_tick = v->local + tick_period - (v->local - v->next_tick) % tick_period;
    }
    bool ipi = v->local + DUE_SLACK_CYCLES >= v->ipi_at;
    if (ipi) {
        count_lateness(v->local, v->ipi_at);
        v->ipi_at = NEVER;
        v->stats.ipis_received++;
        cpus[cur].stats.resched_ipis++;  /* what trap() counts for VECTOR_RESCHEDULE */
    }
    if (tick) {
        thaw();
        timer_tick();
        v = freeze();
    }
    if (!end_quantum(v))
        arm();
    thaw();
    return tick || ipi;
}

/* The hardware timer fired (interrupts off, inside trap()).  A CPU that
 * ran a quantum or more since its dispatch (or the last interrupt) without
 * calling a hook is armed exactly for the rest of the boot.  Not undone
 * when it takes locks again: a CPU that mixes CPU-bound stretches with
 * locking ones would run ahead of the others by up to the backstop at the
 * start of every stretch, and an IPI to it would wait as long (o1,
 * vsmp=2, bench=wakeup seconds=1 workers=4: wake-up latency p50 120.5 us
 * that way, 40.6 us so, 41.7 us with the timer exact for every CPU). */
bool vsmp_timer_irq(void)
{
    struct vcpu *v = freeze();
    armed_at = NEVER;
    hw_timer_irqs++;
    if (!v->hooked && v->local - v->ran_from >= quantum)
        v->hookless = true;
    v->hooked = false;
    v->ran_from = v->local;
    return deliver(v);
}

/* The self-interrupt raise_event sent (interrupts off, inside trap()). */
bool vsmp_event_irq(void)
{
    struct vcpu *v = freeze();
    event_sent = false;
    return deliver(v);
}

/* Every hook, clock frozen: an event or quantum end that is due is seen
 * here, in the CPU's own time; the timer, for a CPU that calls hooks, is
 * only the backstop. */
static void hook_due(struct vcpu *v)
{
    if (!end_quantum(v) && v->local >= MIN(v->next_tick, v->ipi_at))
        raise_event();
}

static inline void hook_check(struct vcpu *v)
{
    v->hooked = true;
    if (v->local >= deadline)
        hook_due(v);
}

/* ---- IPIs, HLT, spin-waits ---- */

void vsmp_send_reschedule(int cpu)
{
    unsigned long f = irq_save();
    struct vcpu *v = freeze();
    struct vcpu *t = &vcpus[cpu];
    uint64_t at = v->local + ipi_latency;
    if (at < t->ipi_at)
        t->ipi_at = at;
    v->stats.ipis_sent++;
    if (cpu != cur)
        requeue(cpu);
    else
        arm();
    hook_check(v);
    thaw();
    irq_restore(f);
}

void vsmp_halt(void)
{
    struct vcpu *v = freeze();
    v->state = VCPU_HALTED;
    reschedule();
    thaw();
}

void vsmp_relax(void)
{
    unsigned long f = irq_save();
    struct vcpu *v = freeze();
    if (v->local >= min_other) {
        v->stats.relax_yields++;
        v->state = VCPU_READY;
        reschedule();
    } else {
        uint64_t step = MIN((uint64_t)RELAX_STEP_CYCLES, min_other - v->local);
        v->local += step;
        v->stats.spin_cycles += step;
        hook_check(v);
    }
    thaw();
    irq_restore(f);
}

/* ---- spinlocks ---- */

/* The current CPU waited for a lock from its local time until `until`. */
static inline void charge_lock_wait(int cpu, struct vcpu *v, uint64_t until)
{
    if (until > v->local) {
        cpus[cpu].stats.lock_wait_cycles += until - v->local;
        cpus[cpu].stats.lock_waits++;
        v->local = until;
    }
}

/* The lock hooks' entry and exit: interrupts stay as the caller had them
 * (see in_lock_hook). */
static inline void lock_hook_enter(void)
{
    in_lock_hook = true;
    barrier();
}

static inline void lock_hook_exit(void)
{
    barrier();
    in_lock_hook = false;
    barrier();
    if (deferred)
        redeliver();
}

/* Before an acquisition attempt: wait until no other CPU is behind us (so
 * that acquisitions happen in time order), and if the lock was released
 * after our time, our attempt came while it was held: wait until then. */
void vsmp_lock_order(struct spinlock *lock)
{
    lock_hook_enter();
    struct vcpu *v = freeze();
    for (;;) {
        if (lock->vsmp_release_cpu != cur)   /* our own release is in our past */
            charge_lock_wait(cur, v, lock->vsmp_release);
        if (min_other == NEVER || v->local <= min_other + slack)   /* NEVER + slack would wrap */
            break;
        v->stats.order_yields++;
        v->state = VCPU_READY;
        reschedule();
    }
    if (v->hookless)
        arm();                      /* a lock wait moved its clock: the exact timer is late */
    hook_check(v);
    thaw_less(order_residue);
    lock_hook_exit();
}

/*
 * The lock is held by another logical CPU: wait until it is released.
 *
 * The caller (spin_lock's contended path) saw it held with interrupts on,
 * and an interrupt since then (the hardware timer, a due event) may have
 * run other logical CPUs, the holder among them, which released it while
 * this CPU was READY, not yet a waiter that vsmp_lock_release wakes.  So
 * look again here, with interrupts off: a lock free by now is not waited
 * for (block_races= counts these).  Without that look the CPU waited for a
 * release that had happened, for good if no other CPU took the lock again:
 * the stall report of mq, 4 CPUs, tbench 192 clients at the whole load file,
 * "waited 30.0 s for spinlock 'unix sock' held by cpu=-1" (2026-12-06).
 */
void vsmp_lock_block(struct spinlock *lock, uint32_t ticket)
{
    unsigned long f = irq_save();
    struct vcpu *v = freeze();
    if (spin_lock_free_for(lock, ticket)) {
        v->stats.block_races++;
        if (lock->vsmp_release_cpu != cur)   /* it spun until the release, as in vsmp_lock_order */
            charge_lock_wait(cur, v, lock->vsmp_release);
        thaw();
        irq_restore(f);
        return;
    }
    v->wait_lock = lock;            /* before the check: its report names the lock */
    v->wait_since = v->local;
    /* A cycle of waiters, each holding what the next wants: a deadlock,
     * seen at once (hardware would spin until the stall limit). */
    struct spinlock *l = lock;
    for (int n = 0; n <= nvcpus; n++) {
        int h = l->holder_cpu;
        if (h == cur)
            lock_report(cur, "a cycle of logical cpus, each waiting for a lock the next holds: a deadlock");
        if (h < 0 || h >= nvcpus || vcpus[h].state != VCPU_LOCKWAIT)
            break;
        l = vcpus[h].wait_lock;
    }
    v->stats.lock_blocks++;
    v->state = VCPU_LOCKWAIT;
    lock->vsmp_waiters++;
    lock_waiters++;
    reschedule();
    lock_waiters--;
    lock->vsmp_waiters--;
    v->wait_lock = NULL;
    thaw();
    irq_restore(f);
}

/* After a release (spin_release_pv): stamp it, and the CPUs that wait for
 * this lock may run again from the release on. */
void vsmp_lock_release(struct spinlock *lock)
{
    lock_hook_enter();
    struct vcpu *v = freeze();
    lock->vsmp_release = v->local;
    lock->vsmp_release_cpu = (int8_t)cur;
    spin_release_store(lock);
    if (lock->vsmp_waiters)
        for (int i = 0; i < nvcpus; i++) {
            struct vcpu *w = &vcpus[i];
            if (w->state != VCPU_LOCKWAIT || w->wait_lock != lock)
                continue;
            charge_lock_wait(i, w, v->local);
            w->state = VCPU_READY;
            requeue(i);
        }
    hook_check(v);
    thaw_less(release_residue);
    lock_hook_exit();
}

/* ---- reports and statistics ---- */

static void lock_report(int waiter, const char *why)
{
    struct vcpu *w = &vcpus[waiter];
    struct spinlock *l = w->wait_lock;
    uint64_t now = vcpus[cur].local;
    uint64_t waited = now > w->wait_since ? now - w->wait_since : 0;
    stall_report_lock_why(l && l->name ? l->name : "?", waiter, l ? l->holder_cpu : -1, cycles_to_ns(waited), why);
}

void vsmp_report_cpus(const char *who, void (*print_cpu)(int cpu, uint32_t eip, uint32_t ebp))
{
    for (int i = 0; i < nvcpus; i++) {
        struct vcpu *v = &vcpus[i];
        char t[32];
        kprintf("%s: vsmp cpu=%d state=%s local_s=%s%s%s\n", who, i, state_names[v->state],
                fmt_fixed(t, vsmp_cpu_clock_ns(i), NSEC_PER_SEC, 6),
                v->state == VCPU_LOCKWAIT ? " lock=" : "",
                v->state == VCPU_LOCKWAIT && v->wait_lock->name ? v->wait_lock->name : "");
        if (i == cur || v->state == VCPU_OFF)
            continue;
        const uint32_t *frame = (const uint32_t *)(uintptr_t)v->saved_esp;   /* edi esi ebx ebp ret */
        print_cpu(i, frame[4], frame[3]);
    }
}

uint64_t vsmp_cpu_clock_ns(int cpu)
{
    return cycles_to_ns(cpu == cur ? rdtsc() - cpus[cpu].tsc_base : vcpus[cpu].local);
}

void vsmp_print_stats(void)
{
    kprintf(PROTO_FORMAT(VSMPSTAT), (unsigned long long)(cycles_to_ns(rdtsc()) / NSEC_PER_USEC),
            (unsigned long long)hw_timer_irqs, (unsigned long long)hw_timer_arms,
            (unsigned long long)event_irqs, (unsigned long long)irqs_deferred, (unsigned long long)events_delivered,
            (unsigned long long)(events_delivered ? cycles_to_ns(lateness_sum / events_delivered) : 0),
            (unsigned long long)cycles_to_ns(lateness_max));
    for (int i = 0; i < nvcpus; i++) {
        const struct vcpu_stats *s = &vcpus[i].stats;
        kprintf(PROTO_FORMAT_OF(VSMPSTAT, VSMPSTAT_CPU), i, (unsigned long long)s->dispatches, (unsigned long long)s->order_yields,
                (unsigned long long)s->relax_yields, (unsigned long long)s->quantum_yields,
                (unsigned long long)s->lock_blocks, (unsigned long long)s->block_races, (unsigned long long)s->ipis_sent,
                (unsigned long long)s->ipis_received, (unsigned long long)(cycles_to_ns(s->spin_cycles) / NSEC_PER_USEC));
    }
}
