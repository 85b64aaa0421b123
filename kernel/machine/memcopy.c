/*
 * Copies in inline asm through the memory model (CACHES=1; docs/caches.md).
 *
 * kernel/pipe.c's and kernel/unix_sock.c's copies are `rep movs` in inline
 * asm, which memhook-plugin.cc does not instrument.  Their text is
 * MACHINE_COPY_ASM's (memhooks.h): under CACHES=1 the copy is followed by
 * a call to __memhook_copy (memhook-thunks.S), which charges the source as
 * a read range and the destination as a write range on the current CPU,
 * line by line, through memhook_miss, as kernel/string.c's ranges are.
 *
 * The sequence is not the machine's time.  memhook_miss takes its model's
 * work off the clock and owes back what one plugin site's slow access
 * costs outside it (slow_cost, or null_cost without a model); the copy's
 * sequence (two pushes, the call, the entry point, two memhook_miss calls,
 * the add that drops the pushes) costs a different, fixed number of
 * instructions, and __memhook_copy adds the difference to the clock's
 * base: memhook_copy_owed, signed (the sequence may cost less than two
 * plugin sites' slow calls).  A copy of nothing calls no model and owes
 * memhook_copy_empty_owed, its whole sequence.  Both are measured here at
 * boot by a loop of the same sequence against the loop's own instructions
 * (memhook_copy_calibrate, from memhooks.c calibrate()), with interrupts
 * off as __memhook_copy runs its part (so no irq_restore runs an sti).
 */
#include "memhooks.h"
#include "../cpu.h"
#include "../x86.h"
#include "../percpu.h"

#ifdef CACHES

int32_t memhook_copy_owed, memhook_copy_empty_owed;
extern uint64_t memhook_model_cycles;   /* memhooks.c: inside memhook_miss's two reads */

_Static_assert(PERCPU_TSC_BASE == 36, "kernel/machine/memhook-thunks.S has the per-CPU offset of tsc_base");

/* The loop's instructions besides the site's (add, add, sub, sub, dec, jnz). */
#define COPY_CALIBRATION_LOOPS 1000
#define COPY_LOOP_INSNS 6
static uint8_t copy_area[128] __attribute__((aligned(64)));

/* Cycles of COPY_CALIBRATION_LOOPS copy sites of n bytes (from copy_area
 * to 64 bytes on; nothing is copied: the site charges the pointers' moves). */
static __attribute__((noinline)) uint64_t copy_loop(uint32_t n)
{
    uint32_t loops = COPY_CALIBRATION_LOOPS;
    uint64_t t0 = rdtsc();
    __asm__ volatile("1:\n\t"
                     "pushl %%edi\n\t"
                     "pushl %%esi\n\t"
                     "addl %3, %%esi\n\t"
                     "addl %3, %%edi\n\t"
                     "call __memhook_copy\n\t"
                     "addl $8, %%esp\n\t"
                     "subl %3, %%esi\n\t"
                     "subl %3, %%edi\n\t"
                     "decl %0\n\t"
                     "jnz 1b"
                     : "+r"(loops)
                     : "S"(copy_area), "D"(copy_area + 64), "r"(n)
                     : "memory", "cc");
    return rdtsc() - t0;
}

static int32_t per_site(uint64_t loop, uint64_t inner)
{
    uint64_t outside = loop - inner;
    return (int32_t)((outside + COPY_CALIBRATION_LOOPS / 2) / COPY_CALIBRATION_LOOPS) - COPY_LOOP_INSNS;
}

/* miss_owed: what memhook_miss owes for each of its calls (slow_cost with
 * a model, null_cost without).  Interrupts as at boot; the owed figures are
 * 0 while the loops run (whatever the sequence owes then is the boot's). */
void memhook_copy_calibrate(uint32_t miss_owed)
{
    memhook_copy_owed = memhook_copy_empty_owed = 0;
    copy_loop(4);                       /* the lines in */
    uint64_t inner = *(volatile uint64_t *)&memhook_model_cycles;
    uint64_t loop = copy_loop(4);
    int32_t full = per_site(loop, *(volatile uint64_t *)&memhook_model_cycles - inner);
    int32_t empty = per_site(copy_loop(0), 0);
    memhook_copy_owed = full - 2 * (int32_t)miss_owed;
    memhook_copy_empty_owed = empty;
}

#endif
