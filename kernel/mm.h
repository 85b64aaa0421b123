/*
 * Address spaces: one page directory per process (per mm id), over the
 * kernel's one mapping, and the lazy CR3 switch of Linux 2.4/2.6 i386.
 *
 * Everything runs in ring 0 on one identity mapping (boot/boot.S), so a
 * process has no user half to map; what it gets is what a 2.4/2.6 process
 * costs the context switch: its own page directory, a copy of the kernel's
 * entries (2.6.0 arch/i386/mm/pgtable.c pgd_ctor copies swapper_pg_dir's
 * kernel part into every new pgd), loaded into CR3 when a CPU switches to
 * it, which flushes the TLB.  Tasks that share an mm id (mode=thread)
 * share one page directory, as CLONE_VM threads share one mm_struct.
 *
 * The switch (env_switch_mm, kernel/sched_env.h, called by the scheduler
 * core right before switch_context) follows 2.6.0 kernel/sched.c
 * context_switch() and include/asm-i386/mmu_context.h switch_mm():
 *   - to a kernel thread (no mm: the idle task) CR3 is kept and the CPU's
 *     active mm is borrowed (enter_lazy_tlb, active_mm);
 *   - to a task of the CPU's active mm CR3 is kept (switch_mm's prev == next);
 *   - otherwise CR3 is loaded with the next mm's page directory (load_cr3)
 *     and counted (schedstat cr3_loads=).
 * 2.4.18 kernel/sched.c schedule() does the same (its inline switch_mm,
 * active_mm and the lazy TLB mode for kernel threads).
 *
 * Lifetime, as mm_users and mm_count together: a struct mm holds one
 * reference per task that uses it and one per CPU whose CR3 holds it (its
 * active mm).  The last task's reference goes when the task is gone (after
 * its last switch-out); a CPU's when it loads another mm.  Whichever is
 * last frees the page directory: a CPU that went idle after running a
 * process keeps that process's directory, as 2.6.0 keeps the active_mm of a
 * lazy CPU until its next switch to a user mm.
 *
 * mm=shared (the kernel key) keeps every task on the kernel's directory, as
 * this kernel was before address spaces: no CR3 ever changes.  Mm ids and
 * the schedulers' same-mm rules do not depend on the mode.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include "types.h"

struct mm {
    volatile int refs;          /* tasks using it + CPUs whose CR3 holds it */
    int id;                     /* the tasks' mm id (struct task mm) */
    uint32_t *pgd;              /* its page directory (physical = virtual) */
    struct mm *hash_next;       /* kernel/mm.c: by id, so that threads find it */
};

enum mm_mode { MM_PER_PROCESS, MM_SHARED };
extern const char *const mm_mode_names[];    /* "per_process", "shared", NULL */

void mm_set_mode(enum mm_mode mode);          /* at boot, before the first task */
/* cr3=load|elide: with elide the page directories, references and CR3 counts
 * are as with load, but the hardware CR3 keeps the kernel's directory (every
 * directory maps the same kernel, so nothing else changes): an emulator's
 * price for a CR3 write (QEMU's TLB flush) is not paid.  vsmp needs it: its
 * logical CPUs share one hardware CR3. */
extern const char *const mm_cr3_names[];      /* "load", "elide", NULL */
void mm_set_cr3_elide(bool elide);
extern uint8_t mm_cr3_elide;                  /* kernel/timer.c: one CR3 write per tick with elide */
bool mm_get_cr3_elide(void);
enum mm_mode mm_get_mode(void);

/* A reference on the address space of mm id `id`, created (page directory
 * and all) if no task has it yet.  NULL when memory runs out, and always
 * NULL with mm=shared (the task then runs on the kernel's directory). */
struct mm *mm_get(int id);
/* Drop a reference; the last one frees the page directory (mm_release). */
void mm_release(struct mm *mm);
static inline void mm_put(struct mm *mm)
{
    bool zero;
    __asm__ volatile("lock decl %0" : "+m"(mm->refs), "=@ccz"(zero) : : "memory");
    if (zero)
        mm_release(mm);
}
/* A CPU takes a reference on the mm its CR3 is about to hold. */
static inline void mm_get_for_cpu(struct mm *mm) { __asm__ volatile("lock incl %0" : "+m"(mm->refs) : : "memory"); }
/* A task is exiting: the CPU's CR3 must be its own directory (a check). */
void mm_check_current(const struct mm *mm, const char *task_name, int pid);

struct mm_stats {
    uint32_t created, freed;    /* page directories */
};
void mm_get_stats(struct mm_stats *s);

#endif
