/*
 * Spinlocks: the slow paths (waiting, trylock, reports) and the paravirtual
 * wait (pvspin=1).  The uncontended lock and unlock are inline in
 * spinlock.h, which explains both kinds.
 *
 * pvspin, the protocol.  A waiter spins as 2.4/2.6.0 did for PVSPIN_SPIN_US
 * microseconds; then, with interrupts off, it publishes (lock, ticket) in
 * its struct cpu (pv_lock, pv_want), counts itself in lock->pv_halted with a
 * locked increment, looks at the lock once more and halts unless it came
 * free.  The unlocker releases with a locked instruction and then reads
 * pv_halted; when it is not zero it looks for a registered waiter and sends
 * it an NMI: for a ticket lock the CPU whose ticket is now served (KVM's
 * kvm_unlock_kick) and the one whose ticket is next, so that it wakes while
 * the new owner runs (see pv_kick; the waiters behind stay halted), for
 * the test-and-set lock one waiter, searched from the CPU after the
 * unlocker's (Xen 2.6.27's xen_spin_unlock_slow kicks the first it finds).
 * The kicker claims the waiter (clears its pv_lock with a compare-and-swap),
 * so that each halt gets one kick.  The woken waiter unregisters, spins
 * again, and halts again if it loses the race for the lock.
 *
 * Why no kick is lost:
 *   1. Registration and release are each followed by a full barrier (both
 *      are locked instructions), so of "waiter: count, then read the lock"
 *      and "unlocker: release, then read the count" at least one sees the
 *      other's write: either the waiter sees the lock free and does not
 *      halt, or the unlocker sees the count and kicks.  (x86 lets a load pass
 *      an earlier plain store; a plain "movb $1" release would allow both to
 *      miss.)
 *   2. A kick that lands between the waiter's last look at the lock and its
 *      HLT would otherwise return to the HLT and sleep for good.  The looks
 *      (at its claim, then at the lock) and the HLT are one short assembly
 *      window (pvspin_halt below); the NMI handler (spin_pvspin_nmi) moves a
 *      return address inside the window past the HLT, so the waiter looks
 *      again.  And a waiter whose claim is gone (its kick was sent, maybe
 *      before it even reached the window) never halts again in that wait:
 *      no later release would find it.  KVM gets the same from the
 *      hypervisor, which remembers a kick that came before the halt
 *      (pv_unhalted); Xen from the event channel's pending bit.
 *   3. A spurious kick (the waiter had already woken) returns to wherever
 *      that CPU was; it costs a look at the lock.
 *   4. The last CPU that is not halted in a lock wait never halts: if every
 *      CPU waited, nothing would ever kick, and a lock cycle (bench=deadlock
 *      kind=spin) must still reach the stall check below, which only a
 *      spinning CPU runs (its report wakes the halted ones by NMI).
 * The halt is always taken with interrupts off, so a CPU that halts in a
 * lock wait never runs the tick (which takes run-queue locks) or any other
 * handler nested inside it; pending interrupts run after the wait, when the
 * caller's interrupt state comes back.  A waiter that had interrupts on
 * spins with them on, as in 2.4/2.6.0.
 */
#include "spinlock.h"
#include "cpu.h"
#include "smp.h"
#include "stall.h"
#include "time.h"
#include "trap.h"
#include "x86.h"
#include "machine/vsmp.h"
#include "machine/keys.h"
#include "chan_cost.h"
#include "lib.h"

/* Checked every this many spins: reading the clock costs under TCG. */
#define STALL_CHECK_SPINS 4096

/* pvspin: how long a waiter spins before it halts, and how often it looks
 * at the clock meanwhile.  A short critical section under TCG takes a few
 * microseconds; a vCPU the host has descheduled is gone for a host time
 * slice (milliseconds).  Linux 3.12's pv ticket locks spin SPIN_THRESHOLD
 * (1 << 15) PAUSE iterations first (arch/x86/include/asm/spinlock.h).
 * Measured here with goodness, 8 vCPUs,
 * hackbench groups=50 loops=100: median 16.7 s at 5 us, 10.1 s at 20 us,
 * 16.8 s at 50 us, 19.2 s at 200 us, on a host loaded 17-26 (three runs
 * each, interleaved: docs/measurements.md); build with
 * CFLAGS_EXTRA=-DPVSPIN_SPIN_US=<n> to try another. */
#ifndef PVSPIN_SPIN_US
#define PVSPIN_SPIN_US 20
#endif
#define PVSPIN_CLOCK_SPINS 16

static bool pvspin_on;
static volatile int pv_halted_cpus;    /* CPUs inside a pv wait (rule 4 above) */

static uint64_t stall_limit_ns = 30 * NSEC_PER_SEC;

void spin_set_stall_limit_ns(uint64_t ns) { stall_limit_ns = ns; }

void spin_lock_init(spinlock_t *lock, const char *name)
{
#if defined(SPINLOCK_TICKET)
    lock->next_ticket = 0;
    lock->now_serving = 0;
#else
    lock->slock = 1;
#endif
    lock->pv_halted = 0;
    lock->vsmp_waiters = 0;
    lock->vsmp_release_cpu = -1;
    lock->holder_cpu = -1;
    lock->name = name;
    lock->vsmp_release = 0;
}

static void check_stall(spinlock_t *lock, uint64_t start)
{
    if (!stall_limit_ns || !tsc_khz)
        return;                         /* off, or the clock is not calibrated yet (boot) */
    uint64_t waited = cycles_to_ns(rdtsc() - start);
    if (waited > stall_limit_ns)
        stall_report_lock(lock->name ? lock->name : "?", lock->holder_cpu, waited);
}

/* ---- pvspin ---- */

/*
 * void pvspin_halt(spinlock_t *lock, uint32_t ticket, spinlock_t *volatile
 * *registered): halt unless a kicker has already claimed us (*registered is
 * NULL: its NMI may have come before we got here) or the lock is free for
 * us.  Called with interrupts off.  [pvspin_window_start,
 * pvspin_window_end) is the window of rule 2: from the first look to the
 * HLT, which spin_pvspin_nmi() skips when a kick interrupts it.
 */
_Static_assert(offsetof(spinlock_t, pv_halted) < offsetof(spinlock_t, holder_cpu), "spinlock_t layout");
#if defined(SPINLOCK_TICKET)
_Static_assert(offsetof(spinlock_t, now_serving) == 2, "pvspin_halt reads now_serving at 2(%eax)");
#define PVSPIN_FREE_TEST "cmpw %dx, 2(%eax)\n\tje 1f\n\t"        /* our ticket is served */
#else
_Static_assert(offsetof(spinlock_t, slock) == 0, "pvspin_halt reads slock at 0(%eax)");
#define PVSPIN_FREE_TEST "cmpb $0, (%eax)\n\tjg 1f\n\t"          /* the byte is positive: free */
#endif
void pvspin_halt(spinlock_t *lock, uint32_t ticket, spinlock_t *volatile *registered);
extern const char pvspin_window_start[], pvspin_window_end[];
__asm__(".text\n\t"
        ".globl pvspin_halt\n"
        "pvspin_halt:\n\t"
        "movl 4(%esp), %eax\n\t"
        "movl 8(%esp), %edx\n\t"
        "movl 12(%esp), %ecx\n"
        ".globl pvspin_window_start\n"
        "pvspin_window_start:\n\t"
        "cmpl $0, (%ecx)\n\t"           /* claimed: the kick is ours, do not wait for another */
        "je 1f\n\t"
        PVSPIN_FREE_TEST
        "hlt\n"
        ".globl pvspin_window_end\n"
        "pvspin_window_end:\n"
        "1:\tret\n");

static inline void locked_inc_byte(volatile uint8_t *p) { __asm__ volatile("lock incb %0" : "+m"(*p) : : "memory"); }
static inline void locked_dec_byte(volatile uint8_t *p) { __asm__ volatile("lock decb %0" : "+m"(*p) : : "memory"); }

bool spin_pvspin_enabled(void) { return pvspin_on; }

/* Every inlined release site becomes "jmp <its paravirtual release>"
 * (kernel/patch_site.h). */
extern const struct patch_site __start_pvspin_sites[], __stop_pvspin_sites[];
extern const struct patch_site __start_vsmp_sites[], __stop_vsmp_sites[];

void spin_pvspin_enable(void)
{
    patch_sites_enable(__start_pvspin_sites, __stop_pvspin_sites, "spinlock");
    pvspin_on = true;
}

/* vsmp (kernel/machine/vsmp.c): the release sites go to vsmp_lock_release,
 * the acquisition sites to vsmp_lock_order (below: through their site
 * entries). */
/* vsmp's acquisition sites: the order in virtual time (kernel/machine/vsmp.c), and
 * when that made this CPU wait for the lock's release (a contended
 * acquisition: vsmp_lock_order counts it in lock_waits), cost='s transfer
 * of the lock's line from the releasing CPU. */
void spin_vsmp_order(spinlock_t *lock)
{
    if (!machine_cost_model() || !cost_lock_on) {
        vsmp_lock_order(lock);
        return;
    }
    uint64_t waits = this_cpu()->stats.lock_waits;   /* this logical CPU's: interrupts are not needed off */
    vsmp_lock_order(lock);
    if (this_cpu()->stats.lock_waits != waits)
        chan_cost_lock();
}

void spin_vsmp_enable_acquire(void) { patch_sites_enable(__start_vsmp_sites, __stop_vsmp_sites, "spinlock"); }
void spin_vsmp_enable_release(void) { patch_sites_enable(__start_pvspin_sites, __stop_pvspin_sites, "spinlock"); }

/*
 * Each patched site jumps to its cold block, which calls spin_vsmp_order or
 * spin_release_pv, which tail-jump to vsmp's hook: a frame built and torn
 * down, and a test, on every acquisition and release.  vsmp retargets those
 * calls to the hooks' site entries (vsmp_site_order, vsmp_site_release,
 * kernel/machine/vsmp.c, which measures what that saves and reads the
 * clock that much later, so that no figure moves).  The call is the first
 * `call rel32` to `from` within RETARGET_SCAN bytes of the cold block's
 * start (gcc puts the argument's store and the call there); a site without
 * one keeps its call, which costs what it cost and prints the same figures.
 * The acquisitions not under a cost model: its lock transfer charge is in
 * spin_vsmp_order.  Boot CPU, before the other CPUs start.
 */
#define RETARGET_SCAN 32
static void retarget_site_calls(const struct patch_site *start, const struct patch_site *stop,
                                void (*from)(spinlock_t *), void (*to)(spinlock_t *))
{
    uint32_t f = (uint32_t)(uintptr_t)from, t = (uint32_t)(uintptr_t)to;
    if (ncpus_online > 1)
        panic("spinlock sites: the code is patched before the other CPUs start");
    for (const struct patch_site *s = start; s < stop; s++) {
        uint8_t *p = (uint8_t *)(uintptr_t)s->target;
        for (int i = 0; i < RETARGET_SCAN; i++) {
            if (p[i] != 0xe8)
                continue;
            uint32_t next = s->target + (uint32_t)i + 5, rel;
            memcpy(&rel, &p[i + 1], 4);
            if (next + rel == t)
                break;                  /* a block two sites share: done already */
            if (next + rel != f)
                continue;
            rel = t - next;
            memcpy(&p[i + 1], &rel, 4);
            break;
        }
    }
    uint32_t a, b, c, d;
    cpuid(0, &a, &b, &c, &d);            /* serialising, as in patch_sites_enable */
}

void spin_vsmp_retarget_acquire(void)
{
    if (!machine_cost_model())
        retarget_site_calls(__start_vsmp_sites, __stop_vsmp_sites, spin_vsmp_order, vsmp_site_order);
}

void spin_vsmp_retarget_release(void)
{
    retarget_site_calls(__start_pvspin_sites, __stop_pvspin_sites, spin_release_pv, vsmp_site_release);
}

/* checks=1 (kernel/sched_env.h, env_checks_on): the core's invariant checks. */
extern const struct patch_site __start_check_sites[] __attribute__((weak)), __stop_check_sites[] __attribute__((weak));
static bool checks_on;
void checks_enable(void)
{
    patch_sites_enable(__start_check_sites, __stop_check_sites, "checks");
    checks_on = true;
}
bool checks_enabled(void) { return checks_on; }

uint64_t spin_stall_limit_ns(void) { return stall_limit_ns; }

/* This CPU waits for lock (and ticket) with interrupts in any state: halt
 * once, until kicked (or not at all if the lock came free meanwhile). */
static void pv_wait(spinlock_t *lock, uint32_t ticket)
{
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    /* Rule 4: not the last CPU that could kick or report. */
    if (atomic_add_return(&pv_halted_cpus, 1) >= ncpus_online) {
        atomic_add_return(&pv_halted_cpus, -1);
        irq_restore(f);
        return;
    }
    c->pv_want = ticket;
    barrier();
    c->pv_lock = lock;                   /* after pv_want: a kicker that sees the lock sees our ticket */
    locked_inc_byte(&lock->pv_halted);   /* rule 1: a full barrier before the look at the lock */
    c->stats.pv_halts++;
    pvspin_halt(lock, ticket, &c->pv_lock);
    locked_dec_byte(&lock->pv_halted);
    c->pv_lock = NULL;
    atomic_add_return(&pv_halted_cpus, -1);
    irq_restore(f);
}

/*
 * lock was just released (with a full barrier) and has halted waiters:
 * test-and-set, kick one; ticket, kick the new owner and the new next in
 * line (at most two).  The next one wakes while the owner runs its critical
 * section and spins PVSPIN_SPIN_US for its turn before it halts again, so
 * that a quick hand-off waits for no host wake-up (Linux 4.2's paravirt
 * queued spinlock, kernel/locking/qspinlock_paravirt.h, likewise kicks the
 * next queued waiter ahead of its turn, pv_kick_node).  With only the owner
 * kicked, every hand-off of goodness's one run-queue lock waited for a host
 * wake-up: hackbench groups=50 at 4 vCPUs took 82 s, and at 8 vCPUs did not
 * finish in 300 s.  (Letting the next one spin without halting at all was
 * worse: spinners starved descheduled owners, and the ticket convoy at 8
 * vCPUs hung again.)
 */
static void pv_kick(spinlock_t *lock, uint32_t served)
{
    struct cpu *me = this_cpu();
    int n = ncpus_online, kicks = 0;
    for (int i = 1; i < n; i++) {
        struct cpu *c = &cpus[(me->id + i) % n];
        if (c->pv_lock != lock)
            continue;
#if defined(SPINLOCK_TICKET)
        if ((uint16_t)(c->pv_want - served) >= 2)
            continue;                    /* neither its turn nor the next */
#else
        (void)served;
#endif
        /* Claim it: one kick per halt.  Until it wakes and unregisters the
         * next releases still see it counted in pv_halted; without the
         * claim each of them kicked it again (1,235 kicks for 51 halts in a
         * test-and-set hackbench at 4 vCPUs, most NMIs merging into one).
         * A claimed waiter never halts again in this wait (pvspin_halt looks
         * at the claim first): its one kick may come before its HLT, and no
         * later release would find it. */
        if (__sync_val_compare_and_swap(&c->pv_lock, lock, NULL) != lock)
            continue;
        me->stats.pv_kicks++;
        lapic_send_nmi(c->apic_id);
#if defined(SPINLOCK_TICKET)
        if (++kicks < 2)
            continue;
#endif
        return;
    }
    (void)kicks;
}

/* The paravirtual release: the jump target of every patched release site.
 * The caller has cleared holder_cpu; it lowers preempt_count afterwards. */
__switch_path void spin_release_pv(spinlock_t *lock)
{
    if (machine_vsmp_multi()) {
        vsmp_lock_release(lock);         /* stamps the release, releases, lets its waiters run */
        return;
    }
    uint32_t served = 0;
#if defined(SPINLOCK_TICKET)
    served = (uint16_t)(lock->now_serving + 1);       /* only the holder writes now_serving */
    __asm__ volatile("lock incw %0" : "+m"(lock->now_serving) : : "memory");
#else
    int8_t one = 1;
    __asm__ volatile("xchgb %0, %1" : "+q"(one), "+m"(lock->slock) : : "memory");
#endif
    /* Rule 1: the locked instruction is a full barrier; only now read the count. */
    if (unlikely(lock->pv_halted))
        pv_kick(lock, served);
}

/* An NMI: a kick (or a stray one) when pvspin is on.  Rule 2: a kick inside
 * the look-then-halt window skips the HLT. */
bool spin_pvspin_nmi(struct trapframe *tf)
{
    if (!pvspin_on)
        return false;
    this_cpu()->stats.pv_nmis++;
    if (tf->eip >= (uint32_t)(uintptr_t)pvspin_window_start && tf->eip < (uint32_t)(uintptr_t)pvspin_window_end)
        tf->eip = (uint32_t)(uintptr_t)pvspin_window_end;
    return true;
}

/* ---- waiting ---- */

/*
 * Our attempt failed.  Ticket: our ticket is taken, wait until it is served.
 * Test-and-set: spin reading the byte until it is free, then try again
 * (2.4/2.6.0 spin_lock_string: "2: rep;nop; cmpb $0,%0; jle 2b; jmp 1b").
 * With pvspin, after PVSPIN_SPIN_US of spinning, halt until kicked.
 */
/* vsmp: the holder is another logical CPU that is not running; wait in the
 * dispatcher until a release, then try again (a test-and-set lock goes to
 * whichever waiter runs first, as on hardware). */
static void vsmp_lock_contended(spinlock_t *lock, uint32_t ticket)
{
    for (;;) {
        if (spin_lock_free_for(lock, ticket)) {
#if defined(SPINLOCK_TICKET)
            return;
#else
            if (spin_lock_fast(lock, &ticket))
                return;
            continue;
#endif
        }
        /* Interrupts are on here: one can run another logical CPU, which
         * may release the lock before this one waits for it (vsmp_lock_block
         * looks again). */
        vsmp_lock_block(lock, ticket);
    }
}

void spin_lock_contended(spinlock_t *lock, uint32_t ticket)
{
    if (machine_vsmp_multi()) {
        vsmp_lock_contended(lock, ticket);
        if (machine_cost_model() && cost_lock_on)
            chan_cost_lock();            /* cost=: the line's transfer, in this CPU's local time */
        return;
    }
    uint64_t start = rdtsc(), spin_start = start;
    uint32_t spins = 0;
    for (;;) {
        while (!spin_lock_free_for(lock, ticket)) {
            cpu_relax();
            ++spins;
            if (unlikely(spins % STALL_CHECK_SPINS == 0))
                check_stall(lock, start);
            if (pvspin_on && spins % PVSPIN_CLOCK_SPINS == 0 && tsc_khz &&
                rdtsc() - spin_start > (uint64_t)tsc_khz * PVSPIN_SPIN_US / 1000) {
                pv_wait(lock, ticket);
                spin_start = rdtsc();
            }
        }
#if defined(SPINLOCK_TICKET)
        break;
#else
        if (spin_lock_fast(lock, &ticket))
            break;
#endif
    }
    /* The schedstat line's lock-wait time (this CPU cannot change: preemption is off). */
    struct cpu *c = this_cpu();
    c->stats.lock_wait_cycles += rdtsc() - start;
    c->stats.lock_waits++;
    /* cost=: the lock's cache line comes from the holder's cache (its
     * modified copy) before this CPU's acquisition completes. */
    if (machine_cost_model() && cost_lock_on)
        chan_cost_lock();
}

void spin_lock_recursive(spinlock_t *lock)
{
    panic("spinlock '%s': recursive lock on cpu %d", lock->name ? lock->name : "?", this_cpu_id());
}

void spin_unlock_not_held(spinlock_t *lock)
{
    panic("spinlock '%s': unlocked on cpu %d but held by %d", lock->name ? lock->name : "?", this_cpu_id(),
          lock->holder_cpu);
}

bool spin_trylock(spinlock_t *lock)
{
    percpu_inc(PERCPU_PREEMPT_COUNT);
    int me = this_cpu_id();
    if (unlikely(lock->holder_cpu == me))
        spin_lock_recursive(lock);
    if (machine_vsmp_multi())
        vsmp_lock_order(lock);           /* the attempt, too, in virtual-time order */
#if defined(SPINLOCK_TICKET)
    uint32_t old = *(volatile uint32_t *)lock;           /* next_ticket | now_serving << 16 */
    uint16_t next = (uint16_t)old, serving = (uint16_t)(old >> 16);
    if (next == serving) {
        uint32_t want = (old & 0xffff0000u) | ((old + 1) & 0xffffu); /* take ticket `next` */
        uint32_t prev;
        __asm__ volatile("lock cmpxchgl %2, %1" : "=a"(prev), "+m"(*(volatile uint32_t *)lock) : "r"(want), "0"(old)
                         : "memory");
        if (prev == old) {
            lock->holder_cpu = me;
            return true;
        }
    }
#else
    /* 2.4/2.6.0 spin_trylock: "xchgb" a 0 in; it was ours if the old value was positive. */
    int8_t old = 0;
    __asm__ volatile("xchgb %0, %1" : "+q"(old), "+m"(lock->slock) : : "memory");
    if (old > 0) {
        lock->holder_cpu = me;
        return true;
    }
#endif
    percpu_dec(PERCPU_PREEMPT_COUNT);
    return false;
}

bool spin_is_locked(const spinlock_t *lock)
{
#if defined(SPINLOCK_TICKET)
    return lock->next_ticket != lock->now_serving;
#else
    return lock->slock <= 0;
#endif
}

bool spin_held_by_me(const spinlock_t *lock) { return lock->holder_cpu == this_cpu_id(); }
