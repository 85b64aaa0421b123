/*
 * Ticket spinlocks with debug checks.
 *
 * A ticket lock hands the lock out in arrival order, so no CPU starves (Linux
 * i386 has used them since 2.6.25).  The uncontended paths are inline here:
 * under QEMU's TCG every call and return costs a lookup of the next
 * translated block, and a pipe round trip takes a dozen locks.  The slow
 * paths (waiting, reports) are in kernel/spinlock.c; the host unit tests
 * link a single-threaded stand-in instead (HOST_TEST).
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
 * the lock's name.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "types.h"

typedef struct spinlock {
    volatile uint16_t next_ticket;  /* handed to the next CPU that arrives */
    volatile uint16_t now_serving;  /* ticket that owns the lock */
    volatile int holder_cpu;        /* -1 when free; for the debug checks */
    const char *name;
} spinlock_t;

#define SPINLOCK_INIT(lockname) { 0, 0, -1, lockname }

void spin_lock_init(spinlock_t *lock, const char *name);
bool spin_trylock(spinlock_t *lock);
bool spin_is_locked(const spinlock_t *lock);
/* True when the calling CPU holds the lock (for assertions). */
bool spin_held_by_me(const spinlock_t *lock);

#ifdef HOST_TEST
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
unsigned long spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
#else
#include "percpu.h"
#include "x86.h"

/* Out of line (kernel/spinlock.c). */
void spin_lock_wait(spinlock_t *lock, uint16_t ticket);
void spin_lock_recursive(spinlock_t *lock) __attribute__((noreturn));
void spin_unlock_not_held(spinlock_t *lock) __attribute__((noreturn));
void preempt_schedule(void);

static inline void spin_lock(spinlock_t *lock)
{
    percpu_inc(PERCPU_PREEMPT_COUNT);
    int me = (int)percpu_read(PERCPU_ID);   /* stable now: this task cannot move */
    if (unlikely(lock->holder_cpu == me))
        spin_lock_recursive(lock);
    uint16_t ticket;
    __asm__ volatile("lock xaddw %0, %1" : "=r"(ticket), "+m"(lock->next_ticket) : "0"((uint16_t)1) : "memory");
    if (unlikely(lock->now_serving != ticket))
        spin_lock_wait(lock, ticket);
    lock->holder_cpu = me;
    barrier();
}

/* Release without the preemption check: the caller decides. */
static inline void spin_release(spinlock_t *lock)
{
    if (unlikely(lock->holder_cpu != (int)percpu_read(PERCPU_ID)))
        spin_unlock_not_held(lock);
    lock->holder_cpu = -1;
    barrier();
    /* Only the holder writes now_serving, and x86 stores are not reordered
     * with earlier loads and stores: a plain increment releases the lock, as
     * Linux's i386 ticket unlock does (UNLOCK_LOCK_PREFIX is empty).  Under
     * TCG a lock prefix costs a helper call. */
    __asm__ volatile("incw %0" : "+m"(lock->now_serving) : : "memory");
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
