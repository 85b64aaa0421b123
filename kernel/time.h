/* Time: the TSC, calibrated against the PIT, gives a nanosecond clock. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "types.h"
#include "x86.h"

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

/* Monotonic ns since boot. */
static inline uint64_t clock_ns(void) { return cycles_to_ns(rdtsc() - tsc_at_boot); }
void pit_wait_us(uint32_t us);             /* busy wait using PIT channel 2 (boot only) */
void delay_us(uint32_t us);                /* busy wait on the TSC (after calibration) */

#endif
