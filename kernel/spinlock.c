/*
 * Ticket spinlocks: the slow paths.  The uncontended lock and unlock are
 * inline in spinlock.h (which explains the preempt_count rules).
 */
#include "spinlock.h"
#include "cpu.h"
#include "x86.h"
#include "lib.h"

void spin_lock_init(spinlock_t *lock, const char *name)
{
    lock->next_ticket = 0;
    lock->now_serving = 0;
    lock->holder_cpu = -1;
    lock->name = name;
}

/* Our ticket is taken: spin (with pause) until it is served. */
void spin_lock_wait(spinlock_t *lock, uint16_t ticket)
{
    while (lock->now_serving != ticket)
        cpu_relax();
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
    percpu_dec(PERCPU_PREEMPT_COUNT);
    return false;
}

bool spin_is_locked(const spinlock_t *lock) { return lock->next_ticket != lock->now_serving; }

bool spin_held_by_me(const spinlock_t *lock) { return lock->holder_cpu == this_cpu_id(); }
