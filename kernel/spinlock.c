/*
 * Spinlocks: the slow paths (waiting, trylock, reports).  The uncontended
 * lock and unlock are inline in spinlock.h, which explains both kinds.
 */
#include "spinlock.h"
#include "cpu.h"
#include "smp.h"
#include "stall.h"
#include "time.h"
#include "x86.h"
#include "lib.h"

/* Checked every this many spins: reading the clock costs under TCG. */
#define STALL_CHECK_SPINS 4096

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
    lock->holder_cpu = -1;
    lock->name = name;
}

static inline bool lock_free_for(spinlock_t *lock, uint32_t ticket)
{
#if defined(SPINLOCK_TICKET)
    return lock->now_serving == (uint16_t)ticket;
#else
    (void)ticket;
    return lock->slock > 0;
#endif
}

static void check_stall(spinlock_t *lock, uint64_t start)
{
    if (!stall_limit_ns || !tsc_khz)
        return;                         /* off, or the clock is not calibrated yet (boot) */
    uint64_t waited = cycles_to_ns(rdtsc() - start);
    if (waited > stall_limit_ns)
        stall_report_lock(lock->name ? lock->name : "?", lock->holder_cpu, waited);
}

/*
 * Our attempt failed.  Ticket: our ticket is taken, wait until it is served.
 * Test-and-set: spin reading the byte until it is free, then try again
 * (2.4/2.6.0 spin_lock_string: "2: rep;nop; cmpb $0,%0; jle 2b; jmp 1b").
 */
void spin_lock_contended(spinlock_t *lock, uint32_t ticket)
{
    uint64_t start = rdtsc();
    uint32_t spins = 0;
    for (;;) {
        while (!lock_free_for(lock, ticket)) {
            cpu_relax();
            if (unlikely(++spins % STALL_CHECK_SPINS == 0))
                check_stall(lock, start);
        }
#if defined(SPINLOCK_TICKET)
        return;
#else
        if (spin_lock_fast(lock, &ticket))
            return;
#endif
    }
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
