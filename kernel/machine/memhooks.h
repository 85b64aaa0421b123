/*
 * The memory model in the kernel (kernel/machine/memhooks.c, docs/caches.md).
 *
 * A CACHES=1 build compiles the kernel, the scheduler and the workloads
 * with GCC's memory-access instrumentation (-fsanitize=kernel-address,
 * every load and store a call); memhooks.c implements the calls as an
 * access of the current logical CPU to the cache model (cache.c) and
 * keeps the instrumentation out of the clock.  machine=PRESET on the boot
 * line chooses the machine; without it a CACHES=1 kernel runs with no
 * memory model and only takes the instrumentation off the clock.
 */
#ifndef KERNEL_MACHINE_MEMHOOKS_H
#define KERNEL_MACHINE_MEMHOOKS_H

#include "../types.h"

#ifdef CACHES
#define MACHINE_CACHES 1
#else
#define MACHINE_CACHES 0
#endif

struct cpu;

/* Boot CPU, before any other CPU or task runs (kernel/main.c): reads the
 * machine= keys (errors end the boot), sets up the model for ncpus and
 * calibrates the instrumentation's cost.  Fills words with what the boot
 * line says (" machine=... machine_lat_pct=... memhook_ns=...", or ""). */
void machine_boot(int ncpus, bool vsmp, char *words, size_t size);
const char *machine_name(void);     /* "none" without a model */
bool machine_on(void);              /* a model runs (machine= given, CACHES=1) */
bool machine_era_layout(void);      /* ... with the era's memory layouts (machine_layout=era, the default) */

/* The instrumentation's debt of cpu c goes into its clock's base: vsmp's
 * dispatcher calls this before it reads the clock (kernel/machine/vsmp.c freeze). */
/* machine_thaw: the dispatcher restarts cpu c's clock; until then (from
 * machine_fold on) accesses are the dispatcher's own (it calls into
 * instrumented code: the LAPIC, the GDT), which the model does not see and
 * whose debt is dropped. */
#ifdef CACHES
void machine_fold_slow(struct cpu *c);
void machine_thaw(struct cpu *c);
#define machine_fold(c) machine_fold_slow(c)
#else
#define machine_fold(c) ((void)(c))
#define machine_thaw(c) ((void)(c))
#endif

/* Accesses the instrumentation cannot see.  machine_access: a range
 * (string.c's copies: one access per line, the call's own instructions
 * are the kernel's).  machine_atomic: a locked read-modify-write of the
 * word at p (a spinlock's acquisition), through the same entry points and
 * at the same exact cost as an instrumented access. */
#define MACHINE_WRITE 1u
#define MACHINE_ATOMIC 2u
#ifdef CACHES
void machine_access(const volatile void *addr, size_t size, uint32_t flags);
/* (with its site's record for the memline object= lines, as
 * memhook-plugin.cc's; inline: GCC's inliner counts it as one instruction) */
#define machine_atomic(p)                                                                                  \
    __asm__ volatile inline("pushl %%eax\n\tleal %0, %%eax\n\tcall __memhook_atomic4\n.Lmhr%=:\n\tpopl %%eax\n" \
                            "\t.pushsection .memhook_sites,\"a\"\n\t.long .Lmhr%=, .Lmhn%=\n\t.popsection\n"  \
                            "\t.pushsection .rodata.memhook_names,\"aMS\",@progbits,1\n"                       \
                            ".Lmhn%=:\t.asciz \"spinlock_t.atomic\"\n\t.popsection"                          \
                            : : "m"(*(const volatile char *)(p)))
#else
static inline void machine_access(const volatile void *addr, size_t size, uint32_t flags)
{
    (void)addr, (void)size, (void)flags;
}
#define machine_atomic(p) ((void)(p))
#endif

/* A copy in inline asm (`rep movs` from %esi to %edi: kernel/pipe.c,
 * kernel/unix_sock.c), of three lines: MACHINE_COPY_ASM(first, middle,
 * last, what) is the asm's text.  Under CACHES=1 the first line also saves
 * both start pointers and the last calls __memhook_copy after the copy
 * (memhook-thunks.S), which charges the source as a read range and the
 * destination as a write range (from the saved starts to where the copy
 * left %esi and %edi; memhook_miss, line by line, named what in the
 * memline object= lines) and owes the whole sequence's instructions back
 * (memcopy.c calibrates them at boot).  Assembler macros, so that the
 * text has the plain build's three lines: GCC sizes an asm by its lines
 * (inlining, block layout), and the plain build's code around the copy
 * must stay instruction for instruction (docs/caches.md, "Exactness").
 * The plain build's text is the three lines alone. */
#ifdef CACHES
__asm__(".macro memhook_copy_begin insn:vararg\n\tpushl %edi\n\tpushl %esi\n\t\\insn\n.endm\n"
        ".macro memhook_copy_end what, insn:vararg\n\t\\insn\n\tcall __memhook_copy\n.Lmhc\\@:\n\taddl $8, %esp\n"
        "\t.pushsection .memhook_sites,\"a\"\n\t.long .Lmhc\\@, .Lmhcn\\@\n\t.popsection\n"
        "\t.pushsection .rodata.memhook_names,\"aMS\",@progbits,1\n.Lmhcn\\@:\t.asciz \"\\what\"\n\t.popsection\n"
        ".endm");
#define MACHINE_COPY_ASM(first, middle, last, what) \
    "memhook_copy_begin " first "\n\t" middle "\n\tmemhook_copy_end " what ", " last
void memhook_copy_calibrate(uint32_t miss_owed);     /* memcopy.c, at boot (memhooks.c calibrate) */
#else
#define MACHINE_COPY_ASM(first, middle, last, what) first "\n\t" middle "\n\t" last
#endif

/* A task in 2.4's layout (an 8 KB block, task.c) comes (live) or goes:
 * the model sees its scan's fields in one line (memhooks.c). */
struct task;
#if defined(CACHES) || defined(HOST_MODEL)     /* (HOST_MODEL: the plugin reads the blocks, memhooks.c) */
void machine_era_task(const struct task *t, bool live);
#else
#define machine_era_task(t, live) ((void)(t), (void)(live))
#endif

/* 2.6.0's layout (task.c, SCHED_LAYOUT_LINUX26): a chunk of the task
 * slab (TASK26_CHUNK_PAGES pages, as aligned) comes into use, whose
 * objects the model then sees with 2.6.0's task_struct lines; and a task
 * whose schedule() ran on a stack whose block's base is its thread_info
 * (sched/o1_common.h; counted once a task: the memstat machine= line's
 * thread_info_at_stack_base=). */
#ifdef CACHES
void machine_task26_chunk(const void *chunk);
void machine_thread_info_checked(void);
#endif

void machine_print_stats(void);     /* the memstat lines (nothing without a model) */

#endif
