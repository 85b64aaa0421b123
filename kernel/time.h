/* Time: the TSC, calibrated against the PIT, gives a nanosecond clock. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "types.h"
#include "x86.h"
#include "percpu.h"
#include "patch_site.h"

extern uint32_t tsc_khz;
extern volatile uint64_t jiffies;          /* timer ticks at HZ since the timer started */

void tsc_calibrate(void);
extern uint64_t tsc_at_boot;
extern uint32_t ns_mult;                   /* ns = cycles * ns_mult >> 22 (tsc_khz >= 1000: 32 bits) */

/* Inline: the scheduler reads the clock a few times per context switch, and
 * under icount and vsmp its instructions are time.  cycles * ns_mult >> 22,
 * exactly (the floor), as two 32x32->64 multiplies: the high word's product
 * is a multiple of 2^32, so its part of the quotient is that product << 10.
 * (A 64x64 product split at bit 22 took 31 instructions; this takes 12.) */
/*
 * Under icount and vsmp (QEMU -icount shift=0) the TSC counts one cycle a
 * nanosecond: tsc_khz is 1000000 exactly and ns_mult 1 << 22, so the
 * conversion is the identity.  Its site is then patched (tsc_calibrate, as
 * kernel/patch_site.h's PATCH_KEY: a 5-byte NOP listed in clock_sites that
 * becomes a jmp) to return the cycles as they are: the same value without
 * the multiplies, on every clock read of the switch and wake-up paths where
 * instructions are time.  No "memory" clobber: it reads no memory.
 */
static inline __attribute__((always_inline)) uint64_t cycles_to_ns(uint64_t cycles)
{
    PATCH_KEY("clock_sites", identity);
    uint32_t lo = (uint32_t)cycles, hi = (uint32_t)(cycles >> 32);
    return (((uint64_t)hi * ns_mult) << 10) + (((uint64_t)lo * ns_mult) >> 22);
identity:
    return cycles;
}

/*
 * This CPU's TSC cycles since boot: RDTSC minus the CPU's own base
 * (struct cpu tsc_base, read through %gs).  Every CPU's base is tsc_at_boot, except under
 * vsmp (kernel/machine/vsmp.c), where a logical CPU's clock runs only while it runs.
 * Valid from gdt_init_cpu(0) on.
 *
 * Under vsmp an interrupt moves the base (the dispatcher's instructions are
 * not the CPU's time), and one that came between the RDTSC and the
 * subtractions would make the clock step back by the handler's length
 * (bench=clock).  So every read is listed in the section clock_reads (its
 * RDTSC and the instructions after it), and vsmp's interrupt entry
 * (kernel/machine/vsmp.c, clock_read_rewind) sends an interrupted read back to its
 * RDTSC and takes the instructions it repeats off the clock: a read costs
 * three instructions (five with CACHES=1), interrupted or not.
 */
#ifdef CACHES
#define CLOCK_READ_AFTER 4         /* the instructions after a read's RDTSC */
#define CLOCK_READ_PAD ", 0, 0"    /* a read of two (vsmp's stubs) pads its entry */
#else
#define CLOCK_READ_AFTER 2
#define CLOCK_READ_PAD ""
#endif
struct clock_read {
    uint32_t rdtsc, after[CLOCK_READ_AFTER], end;   /* after[k]: 0 where a read has fewer */
};
static inline uint64_t local_tsc(void)
{
    uint32_t lo, hi;
#ifdef CACHES
    /* CACHES=1: the memory instrumentation's instructions not yet taken
     * off (machine_debt, kernel/machine/memhooks.c) are not time either.
     * vsmp's interrupt entry folds the debt into the base, so a read split
     * after its RDTSC is repeated as a whole here too (five instructions).
     * The four instructions this read has beyond the plain build's (the
     * debt's sub and sbb, and the add and adc after the read) are owed
     * like the memory sites' (docs/caches.md, "Exactness"); the adc
     * carries a wrapped debt into the base (2^32 cycles, as
     * memhook_debt_wrapped does). */
    __asm__ volatile("1:\trdtsc\n"
                     "2:\tsubl %%gs:%c2, %0\n"
                     "3:\tsbbl %%gs:%c3, %1\n"
                     "4:\tsubl %%gs:%c4, %0\n"
                     "5:\tsbbl $0, %1\n"
                     "6:\n\t"
                     "addl $4, %%gs:%c4\n\t"
                     "adcl $0, %%gs:%c3\n\t"
                     ".pushsection clock_reads, \"a\"\n\t"
                     ".balign 4\n\t"
                     ".long 1b, 2b, 3b, 4b, 5b, 6b\n\t"
                     ".popsection"
                     : "=a"(lo), "=d"(hi)
                     : "i"(PERCPU_TSC_BASE), "i"(PERCPU_TSC_BASE + 4), "i"(PERCPU_MACHINE_DEBT)
                     : "cc");
#else
    __asm__ volatile("1:\trdtsc\n"
                     "2:\tsubl %%gs:%c2, %0\n"
                     "3:\tsbbl %%gs:%c3, %1\n"
                     "4:\n\t"
                     ".pushsection clock_reads, \"a\"\n\t"
                     ".balign 4\n\t"
                     ".long 1b, 2b, 3b, 4b\n\t"
                     ".popsection"
                     : "=a"(lo), "=d"(hi)
                     : "i"(PERCPU_TSC_BASE), "i"(PERCPU_TSC_BASE + 4)
                     : "cc");
#endif
    return ((uint64_t)hi << 32) | lo;
}

/* Monotonic ns since boot, on this CPU's clock. */
static inline uint64_t clock_ns(void) { return cycles_to_ns(local_tsc()); }
void pit_wait_us(uint32_t us);             /* busy wait using PIT channel 2 (boot only) */
void delay_us(uint32_t us);                /* busy wait on the TSC (after calibration) */

#endif
