/*
 * Address spaces (see mm.h): page directories per mm id, found by id so
 * that the tasks of one process share one.
 *
 * mm_get() runs when a task is created, mm_put() when a task is gone and
 * when a CPU leaves an mm for another (env_switch_mm, with its run-queue
 * lock held and interrupts off: a page directory freed there costs the page
 * and heap locks, never an IPI).  Lock order: run-queue lock, then mm_lock,
 * then the page and heap locks.
 */
#include "mm.h"
#include "cpu.h"
#include "mem.h"
#include "spinlock.h"
#include "x86.h"
#include "lib.h"

#define MM_HASH 256

extern uint32_t boot_page_directory[];   /* boot/boot.S: the kernel's mapping (swapper_pg_dir) */

const char *const mm_mode_names[] = { "per_process", "shared", NULL };
static enum mm_mode mode = MM_PER_PROCESS;
static struct mm *hash[MM_HASH];
static spinlock_t mm_lock = SPINLOCK_INIT("mm");
static volatile int created, freed;

/* cr3=elide (kernel/mm.h): the hardware CR3 stays the kernel's directory. */
uint8_t mm_cr3_elide;
const char *const mm_cr3_names[] = { "load", "elide", NULL };

void mm_set_mode(enum mm_mode m)
{
    mode = m;
    for (int i = 0; i < MAX_CPUS; i++)
        cpus[i].cr3 = (uint32_t)(uintptr_t)boot_page_directory;   /* what boot.S and the trampoline load */
}

void mm_set_cr3_elide(bool elide) { mm_cr3_elide = elide; }
bool mm_get_cr3_elide(void) { return mm_cr3_elide; }
enum mm_mode mm_get_mode(void) { return mode; }

void mm_get_stats(struct mm_stats *s)
{
    s->created = (uint32_t)created;
    s->freed = (uint32_t)freed;
}

/* A reference on a live mm, never on one whose count already reached 0
 * (its last holder is about to unlink and free it). */
static bool get_unless_zero(struct mm *mm)
{
    int r = mm->refs;
    while (r > 0) {
        int seen = __sync_val_compare_and_swap(&mm->refs, r, r + 1);
        if (seen == r)
            return true;
        r = seen;
    }
    return false;
}

static struct mm *lookup(int id)
{
    for (struct mm *mm = hash[(unsigned)id % MM_HASH]; mm; mm = mm->hash_next)
        if (mm->id == id && get_unless_zero(mm))
            return mm;
    return NULL;
}

struct mm *mm_get(int id)
{
    if (mode == MM_SHARED)
        return NULL;
    unsigned long f = spin_lock_irqsave(&mm_lock);
    struct mm *mm = lookup(id);
    spin_unlock_irqrestore(&mm_lock, f);
    if (mm)
        return mm;
    /* A new address space: 2.6.0 pgd_alloc/pgd_ctor, the kernel's entries
     * copied (here all of them: the kernel maps the whole 4 GiB). */
    struct mm *fresh = kzalloc(sizeof(*fresh));
    uint32_t *pgd = fresh ? page_alloc(1) : NULL;
    if (!pgd) {
        kfree(fresh);
        return NULL;
    }
    memcpy(pgd, boot_page_directory, PAGE_SIZE);
    fresh->id = id;
    fresh->pgd = pgd;
    fresh->refs = 1;
    f = spin_lock_irqsave(&mm_lock);
    mm = lookup(id);                     /* another task of this id got there first */
    if (!mm) {
        struct mm **head = &hash[(unsigned)id % MM_HASH];
        fresh->hash_next = *head;
        *head = fresh;
        atomic_add_return(&created, 1);
    }
    spin_unlock_irqrestore(&mm_lock, f);
    if (mm) {
        page_free(pgd, 1);
        kfree(fresh);
        return mm;
    }
    return fresh;
}

/* The last reference is gone: nobody can reach it but through the hash,
 * and lookup() no longer takes references on it. */
void mm_release(struct mm *mm)
{
    unsigned long f = spin_lock_irqsave(&mm_lock);
    struct mm **pp = &hash[(unsigned)mm->id % MM_HASH];
    while (*pp != mm)
        pp = &(*pp)->hash_next;
    *pp = mm->hash_next;
    spin_unlock_irqrestore(&mm_lock, f);
    if (this_cpu()->cr3 == (uint32_t)(uintptr_t)mm->pgd)
        panic("mm %d: its page directory %p is freed while this CPU's CR3 holds it", mm->id, (void *)mm->pgd);
    page_free(mm->pgd, 1);
    kfree(mm);
    atomic_add_return(&freed, 1);
}

void mm_check_current(const struct mm *mm, const char *task_name, int pid)
{
    /* A kernel thread (with mm=shared, every task) runs on whatever CR3 holds.
     * Interrupts off: a task preempted and moved between this_cpu() and the
     * read would read the CR3 of the CPU it left: a false panic, seen once in
     * bench=maxgroups on goodness with 2 vCPUs (thousands of tasks exiting,
     * preempted and moved at the tick). */
    unsigned long f = irq_save();
    uint32_t cr3 = this_cpu()->cr3;
    irq_restore(f);
    if (mm && cr3 != (uint32_t)(uintptr_t)mm->pgd)
        panic("task %s (pid %d) of mm %d runs on page directory 0x%x, not its own %p", task_name, pid, mm->id,
              cr3, (void *)mm->pgd);
}

/*
 * env_load_mm: this CPU switches to a task of another mm (kernel/sched_env.h,
 * env_switch_mm; its run-queue lock held, interrupts off).  In: %eax the
 * struct cpu, %edx the next mm; every register is kept.  Take a reference on
 * the next mm, load its page directory (2.6.0 switch_mm's load_cr3, which
 * flushes the TLB), count it, and drop the reference on the mm CR3 held
 * (mm_release when it was the last), and mark the load for cost= (an era
 * model charges the reload and its TLB refills once the next task runs:
 * chan_cost_switch_in).  Assembly, so that the call costs the
 * switch path no registers (sched_env.h says what C cost).
 * CFLAGS_EXTRA=-DMM_MEASURE_NO_CR3_LOAD does everything but the CR3 load
 * itself, to measure what the load costs (docs/measurements.md).
 */
#ifdef MM_MEASURE_NO_CR3_LOAD
#define LOAD_CR3 ""
#else
#define LOAD_CR3 "cmpb $0, mm_cr3_elide\n\t" \
                 "jne 3f\n\t"             \
                 "movl %%ecx, %%cr3\n"     \
                 "3:\t"
#endif
_Static_assert(offsetof(struct mm, refs) == 0, "env_load_mm: refs at 0(mm)");
static void __attribute__((used)) env_load_mm_code(void)
{
    __asm__ volatile(".pushsection .text.switch_path, \"ax\"\n\t"
                     ".globl env_load_mm\n"
                     "env_load_mm:\n\t"
                     "pushl %%ecx\n\t"
                     "lock incl (%%edx)\n\t"              /* the CPU's reference on the next mm */
                     "movl %c[pgd](%%edx), %%ecx\n\t"
                     "movl %%ecx, %c[cr3](%%eax)\n\t"   /* the CPU's page directory, loaded or not */
                     LOAD_CR3
                     "movb $1, %c[pending](%%eax)\n\t"   /* cost=: charged once the next task runs */
                     "movl %c[active](%%eax), %%ecx\n\t"  /* the mm CR3 held */
                     "movl %%edx, %c[active](%%eax)\n\t"
                     "addl $1, %c[loads](%%eax)\n\t"
                     "adcl $0, 4+%c[loads](%%eax)\n\t"
                     "testl %%ecx, %%ecx\n\t"
                     "jz 1f\n\t"
                     "lock decl (%%ecx)\n\t"              /* mm_put */
                     "jz 2f\n"
                     "1:\tpopl %%ecx\n\t"
                     "ret\n"
                     "2:\tpushl %%eax\n\t"                /* the last reference: free it */
                     "pushl %%edx\n\t"
                     "pushl %%ecx\n\t"
                     "call mm_release\n\t"
                     "addl $4, %%esp\n\t"
                     "popl %%edx\n\t"
                     "popl %%eax\n\t"
                     "popl %%ecx\n\t"
                     "ret\n\t"
                     ".popsection"
                     :
                     : [pgd] "i"(offsetof(struct mm, pgd)), [active] "i"(offsetof(struct cpu, active_mm)),
                       [loads] "i"(offsetof(struct cpu, stats.cr3_loads)), [cr3] "i"(offsetof(struct cpu, cr3)),
                       [pending] "i"(offsetof(struct cpu, cost_cr3_pending)));
}
