/*
 * The local APIC: per-CPU timer, inter-processor interrupts, end-of-interrupt.
 * The timer is calibrated once against the PIT on the boot CPU (all CPUs
 * share one bus clock) and then runs periodically at HZ on every CPU.
 */
#include "smp.h"
#include "config.h"
#include "time.h"
#include "x86.h"
#include "lib.h"
#include "machine/machine.h"
#include "cpu.h"

#define LAPIC_ID 0x020
#define LAPIC_EOI 0x0b0
#define LAPIC_SVR 0x0f0
#define LAPIC_ICR_LO 0x300
#define LAPIC_ICR_HI 0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CURRENT 0x390
#define LAPIC_TIMER_DIVIDE 0x3e0

#define LVT_MASKED 0x10000
#define TIMER_PERIODIC 0x20000
#define ICR_DELIVERY_PENDING 0x1000

uintptr_t lapic_base = 0xfee00000;
static uint32_t timer_count_per_tick;

static uint32_t lapic_read(uint32_t reg) { return mmio_read32(lapic_base + reg); }
static void lapic_write(uint32_t reg, uint32_t v) { mmio_write32(lapic_base + reg, v); }

int lapic_id(void) { return (int)(lapic_read(LAPIC_ID) >> 24); }
void lapic_eoi(void) { lapic_write(LAPIC_EOI, 0); }

/* A register's address, for vsmp's assembly exits (kernel/machine/vsmp.c). */
volatile uint32_t *lapic_register(uint32_t reg) { return (volatile uint32_t *)(lapic_base + reg); }

void lapic_init(void)
{
    lapic_write(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);   /* software enable */
    lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
    lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
    lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
    lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
    lapic_eoi();
}

/* Against the TSC (already calibrated): LAPIC counts over 20 ms of TSC time,
 * each end read between two RDTSCs, the narrowest of five brackets. */
static uint32_t lapic_count_with_tsc(uint64_t *tsc)
{
    uint64_t best_width = ~0ull;
    uint32_t count = 0;
    for (int i = 0; i < 5; i++) {
        uint64_t before = rdtsc();
        uint32_t c = lapic_read(LAPIC_TIMER_CURRENT);
        uint64_t after = rdtsc();
        if (after - before < best_width) {
            best_width = after - before;
            count = c;
            *tsc = before + (after - before) / 2;
        }
    }
    return count;
}

void lapic_timer_calibrate(void)
{
    lapic_write(LAPIC_TIMER_DIVIDE, 0x3);                /* divide by 16 */
    lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
    lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
    uint64_t t0, t1;
    uint32_t c0 = lapic_count_with_tsc(&t0);
    delay_us(20000);
    uint32_t c1 = lapic_count_with_tsc(&t1);
    lapic_write(LAPIC_TIMER_INIT, 0);
    /* counts per tick = counts per cycle * cycles per tick */
    uint64_t cycles_per_tick = (uint64_t)tsc_khz * 1000 / HZ;
    timer_count_per_tick = (uint32_t)((uint64_t)(c0 - c1) * cycles_per_tick / (t1 - t0));
    if (timer_count_per_tick == 0)
        timer_count_per_tick = 1;
}

/* vsmp (kernel/machine/vsmp.c): one timer for every logical CPU, in one-shot mode
 * at the bus clock (divide by 1), armed a number of TSC cycles ahead. */
static uint64_t counts_per_cycle_fp32;   /* LAPIC counts per TSC cycle, 32.32 fixed point */

void lapic_timer_oneshot_init(void)
{
    uint64_t cycles_per_tick = (uint64_t)tsc_khz * 1000 / HZ;
    counts_per_cycle_fp32 = ((uint64_t)timer_count_per_tick * 16 << 32) / cycles_per_tick;
    lapic_write(LAPIC_TIMER_DIVIDE, 0xb);                /* divide by 1 */
    lapic_write(LAPIC_LVT_TIMER, VECTOR_TIMER);          /* one-shot */
    lapic_write(LAPIC_TIMER_INIT, 0);
}

void lapic_timer_oneshot_cycles(uint64_t cycles)
{
    if (cycles > 0xffffffffu)
        cycles = 0xffffffffu;
    uint64_t counts = cycles * (counts_per_cycle_fp32 >> 32) + ((cycles * (uint32_t)counts_per_cycle_fp32) >> 32);
    if (counts == 0)
        counts = 1;
    if (counts > 0xffffffffu)
        counts = 0xffffffffu;
    lapic_write(LAPIC_TIMER_INIT, (uint32_t)counts);
}

void lapic_timer_start(void)
{
    this_cpu()->stats.tick_start_ns = clock_ns();   /* schedstat ticks_expected= counts from here */
    if (machine_timer_start())           /* vsmp: a tick in this logical CPU's own time */
        return;
    lapic_write(LAPIC_TIMER_DIVIDE, 0x3);
    lapic_write(LAPIC_LVT_TIMER, VECTOR_TIMER | TIMER_PERIODIC);
    lapic_write(LAPIC_TIMER_INIT, timer_count_per_tick);
}

static void icr_wait(void)
{
    while (lapic_read(LAPIC_ICR_LO) & ICR_DELIVERY_PENDING)
        cpu_relax();
}

void lapic_send_ipi(int apic_id, int vector)
{
    unsigned long f = irq_save();
    icr_wait();
    lapic_write(LAPIC_ICR_HI, (uint32_t)apic_id << 24);
    lapic_write(LAPIC_ICR_LO, (uint32_t)vector);           /* fixed delivery, physical */
    icr_wait();
    irq_restore(f);
}

/* Interrupts are off (kernel/machine/vsmp.c's hooks): one ICR write, no wait, as
 * a self-IPI is accepted at once. */
void lapic_send_self(int vector)
{
    lapic_write(LAPIC_ICR_LO, 0x40000 | (uint32_t)vector);   /* shorthand self, fixed */
}

/* An NMI to every other CPU (destination shorthand "all excluding self"):
 * it reaches CPUs that spin with interrupts off. */
void lapic_send_nmi_all_but_self(void)
{
    unsigned long f = irq_save();
    icr_wait();
    lapic_write(LAPIC_ICR_LO, 0xc0000 | 0x400);
    icr_wait();
    irq_restore(f);
}

/* An NMI to one CPU: the pvspin kick (kernel/spinlock.c), which must wake a
 * CPU halted with interrupts off.  Delivery mode NMI, level assert. */
void lapic_send_nmi(int apic_id)
{
    unsigned long f = irq_save();
    icr_wait();
    lapic_write(LAPIC_ICR_HI, (uint32_t)apic_id << 24);
    lapic_write(LAPIC_ICR_LO, 0x4000 | 0x400);
    icr_wait();
    irq_restore(f);
}

void lapic_send_init_sipi(int apic_id, uint8_t page)
{
    lapic_write(LAPIC_ICR_HI, (uint32_t)apic_id << 24);
    lapic_write(LAPIC_ICR_LO, 0x4500);                      /* INIT, level assert */
    icr_wait();
    delay_us(10000);
    for (int i = 0; i < 2; i++) {
        lapic_write(LAPIC_ICR_HI, (uint32_t)apic_id << 24);
        lapic_write(LAPIC_ICR_LO, 0x4600 | page);           /* start-up IPI */
        icr_wait();
        delay_us(200);
    }
}
