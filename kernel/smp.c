/*
 * Bringing up the other CPUs (xv6-style).  For each application processor the
 * boot CPU copies the real-mode trampoline (boot/trampoline.S) to 0x8000,
 * leaves it a page directory, a stack and an entry point, sends
 * INIT-SIPI-SIPI and waits for the AP to mark itself online.  APs are started
 * one at a time, so they can share the trampoline page.
 */
#include "smp.h"
#include "cpu.h"
#include "mem.h"
#include "lib.h"
#include "x86.h"
#include "time.h"
#include "sched_core.h"
#include "machine/machine.h"

#define TRAMPOLINE_ADDR 0x8000
#define AP_BOOT_STACK_PAGES 2

extern const char ap_trampoline_start[], ap_trampoline_end[], ap_trampoline_params[];
extern uint32_t boot_page_directory[];
extern uintptr_t lapic_base;

struct cpu cpus[MAX_CPUS];
int ncpus_online;
int ncpus_found;
static bool percpu_ready;
static volatile int ap_starting;

bool cpus_ready(void) { return percpu_ready; }
void smp_mark_percpu_ready(void) { percpu_ready = true; }

/* A started CPU's first C: its %gs, IDT, LAPIC, run queue and tick, then
 * online and idle. */
void smp_cpu_start(int id)
{
    gdt_init_cpu(id);
    idt_load();
    machine_cpu_init();                  /* its LAPIC (vsmp's logical CPUs share the one there is) */
    sched_init_cpu(id);
    lapic_timer_start();                 /* vsmp: a tick in this logical CPU's own time */
    cpus[id].online = true;
    __atomic_add_fetch(&ncpus_online, 1, __ATOMIC_SEQ_CST);
    irq_enable();
    idle_loop();
}

static void ap_boot_entry(void) { smp_cpu_start(ap_starting); }

static int apic_ids[MAX_CPUS];

int smp_discover_cpus(void)
{
    uintptr_t base = 0;
    int n = acpi_find_cpus(apic_ids, MAX_CPUS, &base);
    if (n == 0)
        n = mptable_find_cpus(apic_ids, MAX_CPUS, &base);
    if (base)
        lapic_base = base;
    cpus[0].apic_id = lapic_id();
    cpus[0].online = true;
    ncpus_online = 1;
    ncpus_found = n ? n : 1;
    return ncpus_found;
}

void smp_start_aps(void)
{
    if (machine_start_cpus())            /* vsmp: logical CPUs on this one (kernel/machine/vsmp.c) */
        return;
    size_t len = (size_t)(ap_trampoline_end - ap_trampoline_start);
    memcpy((void *)TRAMPOLINE_ADDR, ap_trampoline_start, len);
    uint32_t *params = (uint32_t *)(TRAMPOLINE_ADDR + (ap_trampoline_params - ap_trampoline_start));
    int next = 1;
    for (int i = 0; i < ncpus_found; i++) {
        if (apic_ids[i] == cpus[0].apic_id)
            continue;
        void *stack = page_alloc(AP_BOOT_STACK_PAGES);
        if (!stack)
            panic("no memory for the boot stack of cpu %d", next);
        cpus[next].apic_id = apic_ids[i];
        ap_starting = next;
        params[0] = (uint32_t)(uintptr_t)boot_page_directory;
        params[1] = (uint32_t)(uintptr_t)stack + AP_BOOT_STACK_PAGES * PAGE_SIZE;
        params[2] = (uint32_t)(uintptr_t)ap_boot_entry;
        lapic_send_init_sipi(apic_ids[i], TRAMPOLINE_ADDR >> 12);
        uint64_t deadline = clock_ns() + 2 * NSEC_PER_SEC;
        while (!cpus[next].online && clock_ns() < deadline)
            cpu_relax();
        if (!cpus[next].online) {
            kprintf("error: cpu with APIC id %d did not start\n", apic_ids[i]);
            machine_exit(EXIT_ERROR);
        }
        next++;
    }
}

void smp_stop_other_cpus(void)
{
    if (!percpu_ready || machine_vsmp()) /* vsmp: the others run only when dispatched */
        return;
    int me = this_cpu_id();
    for (int i = 0; i < ncpus_online; i++)
        if (i != me && cpus[i].online)
            lapic_send_ipi(cpus[i].apic_id, VECTOR_STOP);
}

void smp_send_reschedule(int cpu)
{
    machine_send_reschedule(cpu);
}
