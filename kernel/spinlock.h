/*
 * Ticket spinlocks with debug checks.
 *
 * A ticket lock hands the lock out in arrival order, so no CPU starves (Linux
 * i386 has used them since 2.6.25).  The kernel implementation lives in
 * kernel/spinlock.c; the host unit tests link a single-threaded stand-in.
 *
 * spin_lock() disables preemption; the _irqsave variants also disable
 * interrupts and must be used for any lock that an interrupt handler takes
 * (every run-queue lock: the timer tick takes them).
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
void spin_lock(spinlock_t *lock);
bool spin_trylock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
unsigned long spin_lock_irqsave(spinlock_t *lock);
void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);
bool spin_is_locked(const spinlock_t *lock);
/* True when the calling CPU holds the lock (for assertions). */
bool spin_held_by_me(const spinlock_t *lock);

#endif
