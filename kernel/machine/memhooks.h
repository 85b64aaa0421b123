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

/* The instrumentation's debt of cpu c goes into its clock's base: vsmp's
 * dispatcher calls this before it reads the clock (kernel/vsmp.c freeze). */
#ifdef CACHES
void machine_fold_slow(struct cpu *c);
#define machine_fold(c) machine_fold_slow(c)
#else
#define machine_fold(c) ((void)(c))
#endif

/* An access the instrumentation cannot see (a lock's atomic instruction,
 * an assembly copy): addr..addr+size of the current CPU. */
#define MACHINE_WRITE 1u
#define MACHINE_ATOMIC 2u
#ifdef CACHES
void machine_access(const volatile void *addr, size_t size, uint32_t flags);
#else
static inline void machine_access(const volatile void *addr, size_t size, uint32_t flags)
{
    (void)addr, (void)size, (void)flags;
}
#endif

void machine_print_stats(void);     /* the memstat lines (nothing without a model) */

#endif
