/* Single-threaded spinlocks for host tests of kernel code that locks (the debug checks still apply). */
#include "../../kernel/spinlock.h"
#include <stdio.h>
#include <stdlib.h>

void spin_lock_init(spinlock_t *l, const char *name)
{
    l->holder_cpu = -1;
    l->name = name;
}
void spin_lock(spinlock_t *l)
{
    if (l->holder_cpu != -1) {
        fprintf(stderr, "spinlock '%s' taken recursively\n", l->name);
        abort();
    }
    l->holder_cpu = 0;
}
bool spin_trylock(spinlock_t *l)
{
    if (l->holder_cpu != -1)
        return false;
    l->holder_cpu = 0;
    return true;
}
void spin_unlock(spinlock_t *l)
{
    if (l->holder_cpu != 0) {
        fprintf(stderr, "spinlock '%s' released but not held\n", l->name);
        abort();
    }
    l->holder_cpu = -1;
}
unsigned long spin_lock_irqsave(spinlock_t *l) { spin_lock(l); return 0; }
void spin_unlock_irqrestore(spinlock_t *l, unsigned long f) { (void)f; spin_unlock(l); }
bool spin_is_locked(const spinlock_t *l) { return l->holder_cpu != -1; }
bool spin_held_by_me(const spinlock_t *l) { return l->holder_cpu == 0; }
