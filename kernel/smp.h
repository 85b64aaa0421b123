/* Multiprocessor support: CPU discovery (ACPI MADT, MP tables), the local APIC, IPIs, AP start-up. */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "types.h"

/* Interrupt vectors. */
#define VECTOR_TIMER 32
#define VECTOR_RESCHEDULE 33
#define VECTOR_STOP 34
#define VECTOR_VSMP_EVENT 35   /* vsmp: an event found due in a hook (kernel/machine/vsmp.c raise_event) */
#define VECTOR_SPURIOUS 255

/* Firmware tables: fills apic_ids[], returns how many enabled CPUs were found (0 if no table). */
int acpi_find_cpus(int *apic_ids, int max, uintptr_t *lapic_base);
int mptable_find_cpus(int *apic_ids, int max, uintptr_t *lapic_base);
const char *cpu_table_source(void);

void lapic_init(void);                  /* this CPU: enable, mask LINT, spurious vector */
void lapic_timer_calibrate(void);       /* boot CPU, against the PIT */
void lapic_timer_start(void);           /* this CPU: periodic at HZ (vsmp: its own virtual tick) */
void lapic_timer_oneshot_init(void);    /* vsmp: the one timer, one-shot, divide by 1 */
void lapic_timer_oneshot_cycles(uint64_t cycles);   /* vsmp: fire this many TSC cycles from now */
#define LAPIC_REG_ICR_LO 0x300
#define LAPIC_REG_TIMER_INIT 0x380
#define LAPIC_REG_TIMER_CURRENT 0x390
volatile uint32_t *lapic_register(uint32_t reg);  /* a LAPIC register's address */
void lapic_eoi(void);
int lapic_id(void);
void lapic_send_ipi(int apic_id, int vector);
void lapic_send_self(int vector);      /* a fixed interrupt to this CPU (shorthand "self") */
void lapic_send_nmi_all_but_self(void);
void lapic_send_nmi(int apic_id);        /* one CPU: the pvspin kick */
void lapic_send_init_sipi(int apic_id, uint8_t page);

int smp_discover_cpus(void);            /* firmware tables; sets ncpus_found */
void smp_start_aps(void);               /* start the APs; ncpus_online counts them */
void smp_cpu_start(int id) __attribute__((noreturn));   /* a started CPU (hardware AP or vsmp's logical one): online, then idle */
void smp_stop_other_cpus(void);
void smp_send_reschedule(int cpu);
bool cpus_ready(void);                  /* per-CPU data usable (this_cpu works) */

#endif
