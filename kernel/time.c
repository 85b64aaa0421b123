/*
 * Clocks.  The PIT (1.193182 MHz) is the reference.  Its channel 2 counts
 * down from 0xffff with the gate opened through port 0x61, and we read its
 * count with a latch command, each read bracketed by two RDTSCs.  A pair
 * whose bracket is wide (the vCPU was descheduled in the middle, common on a
 * loaded host) is read again, so the only error left is the bracket width.
 * tsc_khz = TSC cycles / PIT counts over about 20 ms.  Afterwards every clock
 * read is an RDTSC scaled by a fixed-point multiplier (no division).
 *
 * The PIT count is 16 bits and wraps every 54.9 ms.  Under QEMU the PIT runs
 * on the host's clock, so when the host does not run this vCPU for longer
 * than that (a loaded host does), whole periods are lost while the TSC keeps
 * the true time, and tsc_khz came out 2x to 200x too high: every time this
 * boot measured was then silently wrong (make stress found 4% of boots so on
 * a loaded host).  So a measurement is two back-to-back halves of about
 * 10 ms that must agree on the TSC cycles per PIT count within 1/64 (a half
 * that lost a wrap is at least 6.5 times off), and OUT2, which rises when
 * the count passes zero, must still be low at the end; otherwise it is
 * measured again.  A calibration that never settles says so on the console
 * (clock: ...), never silently.
 *
 * Under QEMU TCG the TSC follows the host clock; under -icount it follows
 * the instruction count, which is what makes icount runs deterministic.
 */
#include "time.h"
#include "x86.h"
#include "cpu.h"
#include "lib.h"
#include "spinlock.h"

/* cycles_to_ns's sites (kernel/time.h), patched when the TSC runs at 1 GHz. */
extern const struct patch_site __start_clock_sites[] __attribute__((weak)), __stop_clock_sites[] __attribute__((weak));

#define PIT_HZ 1193182u
#define CALIBRATION_COUNTS 23864u      /* 20 ms of PIT counts */

uint32_t tsc_khz;
volatile uint64_t jiffies;
uint64_t tsc_at_boot;
uint32_t ns_mult;

static void pit_channel2_start(uint16_t count, uint8_t mode_bits)
{
    uint8_t gate = inb(0x61);
    outb(0x61, (uint8_t)(gate & ~0x03));             /* gate low, speaker off */
    outb(0x43, (uint8_t)(0xb0 | mode_bits));         /* channel 2, lo/hi byte */
    outb(0x42, count & 0xff);
    outb(0x42, count >> 8);
    outb(0x61, (uint8_t)((gate & ~0x02) | 0x01));    /* gate high: start counting */
}

static uint16_t pit_channel2_read(void)
{
    outb(0x43, 0x80);                                /* latch channel 2 */
    uint8_t lo = inb(0x42);
    uint8_t hi = inb(0x42);
    return (uint16_t)(lo | (hi << 8));
}

/* Wait until the count has gone n below from.  Under -icount the wait is
 * instructions, and each port access makes QEMU end a translated block:
 * reading back to back made an icount boot's calibration cost about a
 * second of host time.  So far from the mark it spins on plain
 * instructions between reads (about 4 us, 5 counts); the last 16 counts it
 * reads back to back, so the caller still reads right after a transition
 * of the count, as before (under icount tsc_khz comes out 1000000 exactly). */
static void pit_channel2_wait_below(uint16_t from, uint16_t n)
{
    uint16_t gone;
    while ((gone = (uint16_t)(from - pit_channel2_read())) < n)
        if (gone + 16 < n)
            for (volatile int i = 0; i < 1000; i++)
                ;
}

/* The PIT count together with the TSC at that moment: the narrowest of 5 brackets. */
static uint16_t pit_read_with_tsc(uint64_t *tsc)
{
    uint64_t best_width = ~0ull;
    uint16_t count = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t before = rdtsc();
        uint16_t c = pit_channel2_read();
        uint64_t after = rdtsc();
        if (after - before < best_width) {
            best_width = after - before;
            count = c;
            *tsc = before + (after - before) / 2;
        }
    }
    return count;
}

void pit_wait_us(uint32_t us)
{
    uint32_t count = (uint32_t)((uint64_t)PIT_HZ * us / 1000000u);
    while (count) {
        uint32_t chunk = count > 0xffff ? 0xffff : count;
        count -= chunk;
        pit_channel2_start((uint16_t)chunk, 0);        /* mode 0: OUT2 rises at terminal count */
        while (!(inb(0x61) & 0x20))
            cpu_relax();
    }
}

#define CALIBRATION_TRIES 50

/* One measurement (see the top comment): false if it may have lost a wrap. */
static bool tsc_measure(uint64_t *cycles, uint32_t *counts)
{
    pit_channel2_start(0xffff, 0);                   /* mode 0: OUT2 rises at zero */
    uint64_t t0, t1, t2;
    uint16_t c0 = pit_read_with_tsc(&t0);
    pit_channel2_wait_below(c0, CALIBRATION_COUNTS / 2);
    uint16_t c1 = pit_read_with_tsc(&t1);
    pit_channel2_wait_below(c1, CALIBRATION_COUNTS / 2);
    uint16_t c2 = pit_read_with_tsc(&t2);
    bool wrapped = (inb(0x61) & 0x20) != 0;
    uint32_t d1 = (uint16_t)(c0 - c1), d2 = (uint16_t)(c1 - c2);
    uint64_t r1 = (t1 - t0) * d2, r2 = (t2 - t1) * d1;   /* the halves' rates, cross-multiplied */
    *cycles = t2 - t0;
    *counts = d1 + d2;
    return !wrapped && r1 <= r2 + r2 / 64 && r2 <= r1 + r1 / 64;
}

void tsc_calibrate(void)
{
    uint64_t cycles = 0;
    uint32_t counts = 1;
    bool settled = false;
    for (int tries = 0; tries < CALIBRATION_TRIES && !settled; tries++)
        settled = tsc_measure(&cycles, &counts);
    if (!settled)
        kprintf("clock: the TSC calibration was disturbed %d times in a row (a very busy host?); "
                "tsc_khz may be wrong\n", CALIBRATION_TRIES);
    tsc_khz = (uint32_t)(cycles * PIT_HZ / counts / 1000);
    if (tsc_khz < 1000) {
        /* ns_mult must fit 32 bits (kernel/time.h); no x86 with a TSC runs it below 1 MHz. */
        kprintf("clock: the TSC measured %u kHz, below 1 MHz: taken as 1000 kHz; times are wrong\n", tsc_khz);
        tsc_khz = 1000;
    }
    ns_mult = (uint32_t)(((uint64_t)1000000 << 22) / tsc_khz);
    /* A 1 GHz TSC (icount, vsmp): cycles are nanoseconds (kernel/time.h). */
    if (ns_mult == 1u << 22)
        patch_sites_enable(__start_clock_sites, __stop_clock_sites, "clock");
    tsc_at_boot = rdtsc();
    for (int i = 0; i < MAX_CPUS; i++)
        cpus[i].tsc_base = tsc_at_boot;     /* one clock for all (vsmp gives each its own) */
}

void delay_us(uint32_t us)
{
    /* No cpu_relax(): TCG's PAUSE leaves the translated code for QEMU's CPU
     * loop, and under -icount, where 20 ms is 20 million instructions, the
     * calibration's delay_us(20000) took 2 s of host time with it (0 with
     * a plain loop).  Nothing else runs on this CPU while it waits. */
    uint64_t end = rdtsc() + (uint64_t)tsc_khz * us / 1000;
    while (rdtsc() < end)
        barrier();
}
