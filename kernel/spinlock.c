/*
 * Ticket spinlocks.  lock xadd takes a ticket; the CPU spins (with pause)
 * until now_serving reaches it.  Holding any spinlock disables preemption
 * (preempt_count); releasing the last one runs a reschedule that became due
 * meanwhile, if interrupts are on.
 *
 * preempt_count is per CPU, so it is raised with one %gs-relative
 * instruction *before* this_cpu() is read: with "c = this_cpu();
 * c->preempt_count++" an interrupt between the two could move the task to
 * another CPU and the count would be raised on the wrong one (Linux uses
 * incl %gs:__preempt_count for the same reason).  Likewise it is lowered as
 * the very last step of a release.
 */
#include "spinlock.h"
#include "cpu.h"
#include "x86.h"
#include "lib.h"
#include "sched_core.h"

#define PREEMPT_COUNT_OFFSET offsetof(struct cpu, preempt_count)

static inline struct cpu *preempt_disable(void)
{
    __asm__ volatile("incl %%gs:%c0" : : "i"(PREEMPT_COUNT_OFFSET) : "memory");
    return this_cpu();             /* stable now: this task cannot move */
}

static inline void preempt_enable_no_resched(void)
{
    __asm__ volatile("decl %%gs:%c0" : : "i"(PREEMPT_COUNT_OFFSET) : "memory");
}

void spin_lock_init(spinlock_t *lock, const char *name)
{
    lock->next_ticket = 0;
    lock->now_serving = 0;
    lock->holder_cpu = -1;
    lock->name = name;
}

static void check_not_mine(spinlock_t *lock, struct cpu *c)
{
    if (unlikely(lock->holder_cpu == c->id))
        panic("spinlock '%s': recursive lock on cpu %d", lock->name ? lock->name : "?", c->id);
}

void spin_lock(spinlock_t *lock)
{
    struct cpu *c = preempt_disable();
    check_not_mine(lock, c);
    uint16_t ticket;
    __asm__ volatile("lock xaddw %0, %1" : "=r"(ticket), "+m"(lock->next_ticket) : "0"((uint16_t)1) : "memory");
    while (lock->now_serving != ticket)
        cpu_relax();
    lock->holder_cpu = c->id;
    barrier();
}

bool spin_trylock(spinlock_t *lock)
{
    struct cpu *c = preempt_disable();
    check_not_mine(lock, c);
    uint32_t old = *(volatile uint32_t *)lock;           /* next_ticket | now_serving << 16 */
    uint16_t next = (uint16_t)old, serving = (uint16_t)(old >> 16);
    if (next == serving) {
        uint32_t want = (old & 0xffff0000u) | ((old + 1) & 0xffffu); /* take ticket `next` */
        uint32_t prev;
        __asm__ volatile("lock cmpxchgl %2, %1" : "=a"(prev), "+m"(*(volatile uint32_t *)lock) : "r"(want), "0"(old)
                         : "memory");
        if (prev == old) {
            lock->holder_cpu = c->id;
            return true;
        }
    }
    preempt_enable_no_resched();
    return false;
}

static void release(spinlock_t *lock, struct cpu *c)
{
    if (unlikely(lock->holder_cpu != c->id))
        panic("spinlock '%s': unlocked on cpu %d but held by %d", lock->name ? lock->name : "?", c->id,
              lock->holder_cpu);
    lock->holder_cpu = -1;
    barrier();
    __asm__ volatile("lock incw %0" : "+m"(lock->now_serving) : : "memory");
    preempt_enable_no_resched();
}

void spin_unlock(spinlock_t *lock)
{
    release(lock, this_cpu());
    /* Preemptible again: per-CPU fields only through single %gs reads. */
    if (this_cpu_preempt_count() == 0 && this_cpu_need_resched() && irqs_enabled())
        preempt_schedule();
}

unsigned long spin_lock_irqsave(spinlock_t *lock)
{
    unsigned long f = irq_save();
    spin_lock(lock);
    return f;
}

void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
    release(lock, this_cpu());
    irq_restore(flags);
    if (this_cpu_preempt_count() == 0 && this_cpu_need_resched() && (flags & EFLAGS_IF))
        preempt_schedule();
}

bool spin_is_locked(const spinlock_t *lock) { return lock->next_ticket != lock->now_serving; }

bool spin_held_by_me(const spinlock_t *lock) { return lock->holder_cpu == this_cpu()->id; }
