/*
 * Clocks.  The PIT (1.193182 MHz) is the reference: channel 2 counts down
 * once with its gate opened through port 0x61, which needs no interrupt.  We
 * time 50 ms of it with the TSC to get tsc_khz; afterwards every clock read
 * is an RDTSC scaled by a fixed-point multiplier (no division).
 *
 * Under QEMU TCG the TSC follows the host clock; under -icount it follows
 * the instruction count, which is what makes icount runs deterministic.
 */
#include "time.h"
#include "x86.h"
#include "lib.h"

#define PIT_HZ 1193182u
#define CALIBRATION_US 50000u

uint32_t tsc_khz;
volatile uint64_t jiffies;
static uint64_t tsc_at_boot;
static uint64_t ns_mult;   /* ns = cycles * ns_mult >> 22 */

void pit_wait_us(uint32_t us)
{
    uint32_t count = (uint32_t)((uint64_t)PIT_HZ * us / 1000000u);
    while (count) {
        uint32_t chunk = count > 0xffff ? 0xffff : count;
        count -= chunk;
        uint8_t gate = inb(0x61);
        outb(0x61, (uint8_t)((gate & ~0x02) & ~0x01));   /* gate low, speaker off */
        outb(0x43, 0xb0);                               /* channel 2, lo/hi, mode 0 */
        outb(0x42, chunk & 0xff);
        outb(0x42, chunk >> 8);
        outb(0x61, (uint8_t)((gate & ~0x02) | 0x01));    /* gate high: start counting */
        while (!(inb(0x61) & 0x20))                      /* OUT2 goes high at terminal count */
            cpu_relax();
    }
}

void tsc_calibrate(void)
{
    uint64_t best = ~0ull;
    /* Take the shortest of three: a host hiccup can only make a sample longer. */
    for (int i = 0; i < 3; i++) {
        uint64_t t0 = rdtsc();
        pit_wait_us(CALIBRATION_US / 3);
        uint64_t d = rdtsc() - t0;
        if (d < best)
            best = d;
    }
    tsc_khz = (uint32_t)(best * 1000 / (CALIBRATION_US / 3));
    if (tsc_khz == 0)
        tsc_khz = 1;
    ns_mult = ((uint64_t)1000000 << 22) / tsc_khz;
    tsc_at_boot = rdtsc();
}

uint64_t cycles_to_ns(uint64_t cycles)
{
    /* Split to keep cycles * ns_mult inside 64 bits for long runs. */
    uint64_t hi = cycles >> 22, lo = cycles & ((1u << 22) - 1);
    return hi * ns_mult + ((lo * ns_mult) >> 22);
}

uint64_t clock_ns(void)
{
    return cycles_to_ns(rdtsc() - tsc_at_boot);
}

void delay_us(uint32_t us)
{
    uint64_t end = rdtsc() + (uint64_t)tsc_khz * us / 1000;
    while (rdtsc() < end)
        cpu_relax();
}
