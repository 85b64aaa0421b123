#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include "types.h"

/* What kernel/vectors.S leaves on the stack: pusha, vector, error code, then the CPU's frame. */
struct trapframe {
    uint32_t edi, esi, ebp, esp_at_pusha, ebx, edx, ecx, eax;
    uint32_t vector, error_code;
    uint32_t eip, cs, eflags;
};

void trap(struct trapframe *tf);

#endif
