/*
 * Segments and interrupt gates.  The GDT has flat ring-0 code and data
 * segments and then one data segment per CPU whose base is that CPU's struct
 * cpu: loading it into %gs is what makes this_cpu() work.
 */
#include "cpu.h"
#include "lib.h"

#define GDT_CODE 0x08
#define GDT_DATA 0x10
#define GDT_PERCPU_FIRST 3

struct gdt_ptr {
    uint16_t limit;
    uint32_t base;
} __attribute__((packed));

struct idt_gate {
    uint16_t offset_lo, selector;
    uint8_t zero, type;
    uint16_t offset_hi;
} __attribute__((packed));

static uint64_t gdt[GDT_PERCPU_FIRST + MAX_CPUS];
static struct idt_gate idt[256];
extern const uint32_t vector_table[256];

static uint64_t segment(uint32_t base, uint32_t limit, uint8_t access)
{
    return (uint64_t)(limit & 0xffff) | ((uint64_t)(base & 0xffffff) << 16) | ((uint64_t)access << 40) |
           ((uint64_t)((limit >> 16) & 0xf) << 48) | ((uint64_t)0xc << 52) | ((uint64_t)(base >> 24) << 56);
}

void gdt_init_cpu(int cpu)
{
    if (cpu == 0) {
        gdt[1] = segment(0, 0xfffff, 0x9a);
        gdt[2] = segment(0, 0xfffff, 0x92);
        for (int i = 0; i < MAX_CPUS; i++)
            gdt[GDT_PERCPU_FIRST + i] = segment((uint32_t)(uintptr_t)&cpus[i], sizeof(struct cpu) - 1, 0x92) &
                                        ~((uint64_t)0x8 << 52); /* byte granularity */
    }
    cpus[cpu].self = &cpus[cpu];
    cpus[cpu].id = cpu;
    struct gdt_ptr p = { sizeof(gdt) - 1, (uint32_t)(uintptr_t)gdt };
    uint16_t gs = (uint16_t)((GDT_PERCPU_FIRST + cpu) * 8);
    __asm__ volatile("lgdt %0\n\t"
                     "ljmp %1, $1f\n"
                     "1:\n\t"
                     "mov %2, %%ds\n\t"
                     "mov %2, %%es\n\t"
                     "mov %2, %%ss\n\t"
                     "mov %2, %%fs\n\t"
                     "mov %3, %%gs"
                     :
                     : "m"(p), "i"(GDT_CODE), "r"((uint16_t)GDT_DATA), "r"(gs)
                     : "memory");
}

uint16_t gdt_percpu_selector(int cpu) { return (uint16_t)((GDT_PERCPU_FIRST + cpu) * 8); }

void idt_init(void)
{
    for (int v = 0; v < 256; v++) {
        uint32_t off = vector_table[v];
        if (!off)
            continue;
        idt[v] = (struct idt_gate){ off & 0xffff, GDT_CODE, 0, 0x8e /* present, ring 0, 32-bit interrupt gate */,
                                    off >> 16 };
    }
    idt_load();
}

/* vsmp (kernel/machine/vsmp.c) takes its timer and event vectors through stubs of its own. */
void idt_set_gate(int vector, void (*handler)(void))
{
    uint32_t off = (uint32_t)(uintptr_t)handler;
    idt[vector] = (struct idt_gate){ off & 0xffff, GDT_CODE, 0, 0x8e, off >> 16 };
}

void idt_load(void)
{
    struct gdt_ptr p = { sizeof(idt) - 1, (uint32_t)(uintptr_t)idt };
    __asm__ volatile("lidt %0" : : "m"(p));
}
