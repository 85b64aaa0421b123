/* Thin wrappers around the x86 instructions the kernel needs. */
#ifndef KERNEL_X86_H
#define KERNEL_X86_H

#include "types.h"
#include "machine/keys.h"

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}
static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
static inline void cpuid(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
    __asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}
/* One spin-wait iteration: PAUSE, or under vsmp with several logical CPUs
 * the machine layer's hook (the CPU that spins must let the others run, or
 * it would wait for ever). */
static inline void cpu_relax(void) { machine_relax(); }
static inline void barrier(void) { __asm__ volatile("" ::: "memory"); }
static inline void irq_enable(void) { __asm__ volatile("sti" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline unsigned long read_eflags(void)
{
    unsigned long f;
    __asm__ volatile("pushfl; popl %0" : "=r"(f));
    return f;
}
#define EFLAGS_IF 0x200
static inline bool irqs_enabled(void) { return (read_eflags() & EFLAGS_IF) != 0; }
static inline unsigned long irq_save(void)
{
    unsigned long f = read_eflags();
    irq_disable();
    return f;
}
static inline void irq_restore(unsigned long f)
{
    if (f & EFLAGS_IF)
        irq_enable();
}
static inline uint32_t read_cr2(void)
{
    uint32_t v;
    __asm__ volatile("mov %%cr2, %0" : "=r"(v));
    return v;
}
static inline uint32_t read_cr3(void)
{
    uint32_t v;
    __asm__ volatile("mov %%cr3, %0" : "=r"(v));
    return v;
}
static inline void write_cr3(uint32_t v) { __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory"); }
__attribute__((noreturn)) static inline void halt_forever(void)
{
    for (;;)
        __asm__ volatile("cli; hlt");
}
static inline int xchg(volatile int *p, int v)
{
    __asm__ volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
    return v;
}
static inline int atomic_add_return(volatile int *p, int v)
{
    int old = v;
    __asm__ volatile("lock xaddl %0, %1" : "+r"(old), "+m"(*p) : : "memory");
    return old + v;
}
static inline uint32_t mmio_read32(uintptr_t addr) { return *(volatile uint32_t *)addr; }
static inline void mmio_write32(uintptr_t addr, uint32_t v) { *(volatile uint32_t *)addr = v; }

#endif
