/*
 * Spinlocks, as Linux i386 had them in the kernels this project models.
 *
 * Two kinds, chosen at build time (make LOCK=tas|ticket; the boot line says
 * lock=<kind>):
 *
 *   tas (the default)  the byte test-and-set lock of Linux 2.4.18, 2.6.0 and
 *       2.6.24 (include/asm-i386/spinlock.h, spin_lock_string): "lock; decb"
 *       on a byte that is 1 when free, and while it is taken, spin on
 *       "cmpb $0" with "rep; nop" before trying again; unlock is
 *       "movb $1".  Unfair: whichever CPU is running when the lock comes
 *       free takes it.
 *   ticket  the ticket lock of Linux 2.6.25 and later (__ticket_spin_lock):
 *       "lock xadd" takes a ticket, spin until now_serving reaches it;
 *       unlock increments now_serving.  Fair: strict arrival order.
 *
 * Why the kind matters here: with more vCPUs than host cores, QEMU's vCPUs
 * are host threads that the host deschedules at will.  A ticket lock hands
 * the lock to the next waiter in line even while the host is not running
 * that vCPU, and every waiter behind it spins until the host runs it again.
 * o1 on 8 vCPUs over 2 host cores, `bench=pingpong bind=3,5 pairs=10
 * migrate=1`, passed the lock on about 500 times a second that way (every
 * CPU's tick and idle balance queued on one run-queue lock) and never
 * finished; with the test-and-set lock it finishes in 0.05-0.11 s
 * (docs/measurements.md).  Real 2.4/2.6.0 SMP machines never descheduled a
 * lock holder or waiter, which is what the era's unfair lock assumed.
 *
 * The uncontended paths are inline: under QEMU's TCG every call and return
 * costs a lookup of the next translated block, and a pipe round trip takes
 * a dozen locks.  The slow paths (waiting, reports) are in kernel/spinlock.c;
 * the host unit tests link a single-threaded stand-in (HOST_TEST).
 *
 * spin_lock() disables preemption (preempt_count); releasing the last lock
 * runs a reschedule that became due meanwhile, if interrupts are on.  The
 * _irqsave variants also disable interrupts and must be used for any lock
 * that an interrupt handler takes (every run-queue lock: the timer tick
 * takes them).
 *
 * preempt_count is per CPU, so it is raised with one %gs-relative
 * instruction *before* the CPU id is read: with "c = this_cpu();
 * c->preempt_count++" an interrupt between the two could move the task to
 * another CPU and the count would be raised on the wrong one (Linux uses
 * incl %gs:__preempt_count for the same reason).  Likewise it is lowered as
 * the very last step of a release.
 *
 * Debug checks (always on, they are cheap): taking a lock this CPU already
 * holds (recursion) and releasing a lock held by another CPU both panic with
 * the lock's name.  A CPU that has waited longer than the stall limit
 * (watchdog=, default 30 s) for one lock stops the machine with a report of
 * the lock, its holder and every CPU's backtrace (exit 3): with every CPU
 * spinning with interrupts off, no tick could report it.
 *
 * Paravirtual spinlocks (pvspin=1; tools/qemu-run.sh passes it when the
 * guest has more vCPUs than the host has cores).  None of the modelled
 * kernels had them; they answer a problem that real 2002-2007 SMP machines
 * did not have: the host deschedules the vCPU that holds a lock, and the
 * waiters spin against it, taking host time from the holder.  As the Xen
 * (Linux 2.6.27 arch/x86/xen/spinlock.c, xen_spin_lock_slow /
 * xen_spin_unlock_slow) and KVM (Linux 3.12 arch/x86/kernel/kvm.c,
 * kvm_lock_spinning / kvm_unlock_kick) guests do, a waiter spins for a
 * bounded time, then registers itself on the lock and halts, which gives
 * its host core back; the unlocker kicks a halted waiter awake (the next
 * ticket's CPU for a ticket lock, one of them for test-and-set).  The kick
 * is an NMI, the only interrupt that wakes a CPU halted with interrupts off,
 * so no tick or IPI handler runs inside a lock wait.  kernel/spinlock.c
 * explains the protocol and why no kick is lost.
 *
 * The unlock stays the era's single store when pvspin=0: each inlined
 * release carries a 5-byte NOP that spin_pvspin_enable() turns into a jump
 * to the paravirtual release at boot, before the other CPUs start (Linux
 * 3.12's static key paravirt_ticketlocks_enabled in arch_spin_unlock does
 * the same).  The NOP costs one instruction per unlock; the paravirtual
 * release is a locked instruction (a full barrier, 3.12's add_smp) and a
 * test of the lock's count of halted waiters.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "types.h"

#if defined(SPINLOCK_TICKET)
#define SPINLOCK_KIND "ticket"
#else
#define SPINLOCK_KIND "tas"
#endif

typedef struct spinlock {
#if defined(SPINLOCK_TICKET)
    volatile uint16_t next_ticket;  /* handed to the next CPU that arrives */
    volatile uint16_t now_serving;  /* ticket that owns the lock */
#else
    volatile int8_t slock;          /* 1 free; 0 or below taken (Linux i386 spinlock_t.lock) */
#endif
    volatile uint8_t pv_halted;     /* pvspin: CPUs registered as halted on this lock (Xen's spinners) */
    volatile uint8_t vsmp_waiters;  /* vsmp: logical CPUs waiting for it (kernel/machine/vsmp.c) */
    volatile int8_t vsmp_release_cpu;  /* vsmp: the CPU that released it last (-1: none) */
    volatile int holder_cpu;        /* -1 when free; for the debug checks and stall reports */
    const char *name;
    uint64_t vsmp_release;          /* vsmp: the releasing CPU's local time at the last release */
} spinlock_t;

/* Whether the lock is free for a CPU that holds `ticket` (ticket locks) or
 * may take it with its next attempt (the byte lock: ticket unused).  Also
 * kernel/machine/vsmp.c's last look before a logical CPU waits for a release. */
static inline bool spin_lock_free_for(const spinlock_t *lock, uint32_t ticket)
{
#if defined(SPINLOCK_TICKET)
    return lock->now_serving == (uint16_t)ticket;
#else
    (void)ticket;
    return lock->slock > 0;
#endif
}

#if defined(SPINLOCK_TICKET)
#define SPINLOCK_INIT(lockname) { .next_ticket = 0, .now_serving = 0, .pv_halted = 0, .vsmp_waiters = 0, .vsmp_release_cpu = -1, .holder_cpu = -1, .name = lockname, .vsmp_release = 0 }
#else
#define SPINLOCK_INIT(lockname) { .slock = 1, .pv_halted = 0, .vsmp_waiters = 0, .vsmp_release_cpu = -1, .holder_cpu = -1, .name = lockname, .vsmp_release = 0 }
#endif

void spin_lock_init(spinlock_t *lock, const char *name);
bool spin_trylock(spinlock_t *lock);
bool spin_is_locked(const spinlock_t *lock);
/* True when the calling CPU holds the lock (for assertions). */
bool spin_held_by_me(const spinlock_t *lock);
/* Stop the machine when one CPU waits longer than this for one lock (0: never). */
void spin_set_stall_limit_ns(uint64_t ns);
/* pvspin=1: patch every release site, before the other CPUs start (kernel/main.c). */
void spin_pvspin_enable(void);
bool spin_pvspin_enabled(void);
/* vsmp=N, N >= 2 (kernel/machine/vsmp.c): patch every acquisition site to call
 * vsmp_lock_order() and every release site to stamp the release. */
void spin_vsmp_enable_acquire(void);
void spin_vsmp_enable_release(void);
/* ... and then their cold blocks' calls straight to vsmp's hooks. */
void spin_vsmp_retarget_acquire(void);
void spin_vsmp_retarget_release(void);
uint64_t spin_stall_limit_ns(void);
struct trapframe;
/* The NMI handler: true if the NMI was a pvspin kick (kernel/trap.c). */
bool spin_pvspin_nmi(struct trapframe *tf);

#ifdef HOST_TEST
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
void spin_release(spinlock_t *lock);
unsigned long spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
#else
#include "percpu.h"
#include "patch_site.h"
#include "x86.h"
#include "machine/memhooks.h"

/* Out of line (kernel/spinlock.c). */
void spin_lock_contended(spinlock_t *lock, uint32_t ticket);
void spin_lock_recursive(spinlock_t *lock) __attribute__((noreturn));
void spin_unlock_not_held(spinlock_t *lock) __attribute__((noreturn));
void preempt_schedule(void);
void spin_release_pv(spinlock_t *lock);

/*
 * Patchable sites (kernel/patch_site.h): a 5-byte NOP that kernel/spinlock.c
 * turns into "jmp rel32" to the label when the mode that needs it is on,
 * before the other CPUs start.  Otherwise it costs one NOP.
 *   pvspin_sites: the release sites, to the paravirtual release (pvspin=1;
 *                 vsmp=N with N >= 2 stamps its releases there too);
 *   vsmp_sites:   the acquisition sites, to vsmp_lock_order (vsmp=N, N >= 2).
 */
#define PVSPIN_SITE(label) PATCH_SITE("pvspin_sites", label)
/* checks=1: patch the core's check sites (kernel/sched_env.h, env_checks_on). */
void checks_enable(void);
bool checks_enabled(void);
#define VSMP_SITE(label) PATCH_SITE("vsmp_sites", label)

void vsmp_lock_order(spinlock_t *lock);
void spin_vsmp_order(spinlock_t *lock);   /* vsmp_lock_order, and cost='s line transfer after a wait */

/* One attempt to take the lock; for ticket locks the ticket is taken for good. */
static inline bool spin_lock_fast(spinlock_t *lock, uint32_t *ticket)
{
#if defined(SPINLOCK_TICKET)
    uint16_t t;
    __asm__ volatile("lock xaddw %0, %1" : "=r"(t), "+m"(lock->next_ticket) : "0"((uint16_t)1) : "memory");
    *ticket = t;
    return lock->now_serving == t;
#else
    bool negative;
    *ticket = 0;
    __asm__ volatile("lock decb %0" : "+m"(lock->slock), "=@ccs"(negative) : : "memory");
    return !negative;
#endif
}

static inline void spin_lock(spinlock_t *lock)
{
    percpu_inc(PERCPU_PREEMPT_COUNT);
    int me = (int)percpu_read(PERCPU_ID);   /* stable now: this task cannot move */
    if (unlikely(lock->holder_cpu == me))
        spin_lock_recursive(lock);
    VSMP_SITE(vsmp_order);
take:;
    uint32_t ticket;
    if (unlikely(!spin_lock_fast(lock, &ticket)))
        spin_lock_contended(lock, ticket);
    machine_atomic(lock);            /* CACHES=1: the locked instruction's line (kernel/machine/memhooks.h) */
    lock->holder_cpu = me;
    barrier();
    return;
vsmp_order: __attribute__((cold));
    spin_vsmp_order(lock);      /* acquisitions in virtual-time order (kernel/machine/vsmp.c) */
    goto take;
}

/* The release itself.  Only the holder writes it, and x86 stores are not
 * reordered with earlier loads and stores: a plain store releases the lock,
 * as Linux i386 does ("movb $1" for the byte lock, an unlocked increment
 * for the ticket lock).  Under TCG a lock prefix costs a helper call. */
static inline void spin_release_store(spinlock_t *lock)
{
#if defined(SPINLOCK_TICKET)
    __asm__ volatile("incw %0" : "+m"(lock->now_serving) : : "memory");
#else
    __asm__ volatile("movb $1, %0" : "=m"(lock->slock) : : "memory");
#endif
}

/* Release without the preemption check: the caller decides. */
static inline void spin_release(spinlock_t *lock)
{
    if (unlikely(lock->holder_cpu != (int)percpu_read(PERCPU_ID)))
        spin_unlock_not_held(lock);
    lock->holder_cpu = -1;
    barrier();
    PVSPIN_SITE(paravirt);
    spin_release_store(lock);
    percpu_dec(PERCPU_PREEMPT_COUNT);
    return;
paravirt:
    spin_release_pv(lock);           /* the release, then a kick if a waiter halted */
    percpu_dec(PERCPU_PREEMPT_COUNT);
}

/* Preemptible again: each per-CPU field with a single %gs read (a preemption
 * between the two at worst costs a spurious or a delayed preempt_schedule). */
static inline bool preempt_due(void)
{
    return unlikely(percpu_read(PERCPU_NEED_RESCHED) != 0) && percpu_read(PERCPU_PREEMPT_COUNT) == 0;
}

static inline void spin_unlock(spinlock_t *lock)
{
    spin_release(lock);
    if (preempt_due() && irqs_enabled())
        preempt_schedule();
}

static inline unsigned long spin_lock_irqsave(spinlock_t *lock)
{
    unsigned long f = irq_save();
    spin_lock(lock);
    return f;
}

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
    spin_release(lock);
    irq_restore(flags);
    if ((flags & EFLAGS_IF) && preempt_due())
        preempt_schedule();
}
#endif

#endif
