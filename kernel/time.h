/* Time: the TSC, calibrated against the PIT, gives a nanosecond clock. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "types.h"

extern uint32_t tsc_khz;
extern volatile uint64_t jiffies;          /* timer ticks at HZ since the timer started */

void tsc_calibrate(void);
uint64_t clock_ns(void);                   /* monotonic ns since boot */
uint64_t cycles_to_ns(uint64_t cycles);
void pit_wait_us(uint32_t us);             /* busy wait using PIT channel 2 (boot only) */
void delay_us(uint32_t us);                /* busy wait on the TSC (after calibration) */

#endif
