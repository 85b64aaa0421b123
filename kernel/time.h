/* Time: the TSC, calibrated against the PIT, gives a nanosecond clock. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "types.h"
#include "x86.h"
#include "percpu.h"

extern uint32_t tsc_khz;
extern volatile uint64_t jiffies;          /* timer ticks at HZ since the timer started */

void tsc_calibrate(void);
extern uint64_t tsc_at_boot;
extern uint64_t ns_mult;                   /* ns = cycles * ns_mult >> 22 */

/* Inline: the scheduler reads the clock a few times per context switch. */
static inline uint64_t cycles_to_ns(uint64_t cycles)
{
    /* Split to keep cycles * ns_mult inside 64 bits for long runs. */
    uint64_t hi = cycles >> 22, lo = cycles & ((1u << 22) - 1);
    return hi * ns_mult + ((lo * ns_mult) >> 22);
}

/*
 * This CPU's TSC cycles since boot: RDTSC minus the CPU's own base
 * (struct cpu tsc_base, read through %gs).  Every CPU's base is tsc_at_boot, except under
 * vsmp (kernel/vsmp.c), where a logical CPU's clock runs only while it runs.
 * Valid from gdt_init_cpu(0) on.
 */
static inline uint64_t local_tsc(void)
{
    /* The base is read before RDTSC and looked at again after it: under
     * vsmp an interrupt moves it (the dispatcher's instructions are not the
     * CPU's time), and one that came between RDTSC and the subtraction made
     * the clock step back by the handler's length (bench=clock).  A read
     * that straddles a change is taken again. */
    uint32_t lo, hi, base_lo, base_hi;
#ifdef CACHES
    /* CACHES=1: the memory instrumentation's instructions not yet taken
     * off (machine_debt, kernel/machine/memhooks.c) are not time either;
     * folding them into the base changes it, so the check covers them. */
    uint32_t debt;
    __asm__ volatile("1:\n\t"
                     "movl %%gs:%c5, %2\n\t"
                     "movl %%gs:%c6, %3\n\t"
                     "movl %%gs:%c7, %4\n\t"
                     "rdtsc\n\t"
                     "cmpl %%gs:%c5, %2\n\t"
                     "jne 1b\n\t"
                     "subl %2, %0\n\t"
                     "sbbl %3, %1\n\t"
                     "subl %4, %0\n\t"
                     "sbbl $0, %1"
                     : "=&a"(lo), "=&d"(hi), "=&r"(base_lo), "=&r"(base_hi), "=&r"(debt)
                     : "i"(PERCPU_TSC_BASE), "i"(PERCPU_TSC_BASE + 4), "i"(PERCPU_MACHINE_DEBT)
                     : "cc");
#else
    __asm__ volatile("1:\n\t"
                     "movl %%gs:%c4, %2\n\t"
                     "movl %%gs:%c5, %3\n\t"
                     "rdtsc\n\t"
                     "cmpl %%gs:%c4, %2\n\t"
                     "jne 1b\n\t"
                     "subl %2, %0\n\t"
                     "sbbl %3, %1"
                     : "=&a"(lo), "=&d"(hi), "=&r"(base_lo), "=&r"(base_hi)
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
