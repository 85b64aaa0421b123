/*
 * Application-processor start-up code.
 *
 * The boot CPU copies the bytes between ap_trampoline_start and
 * ap_trampoline_end to physical address 0x8000 and sends INIT-SIPI-SIPI with
 * vector 0x08, so each AP starts here in 16-bit real mode at 0000:8000.  It
 * loads a flat GDT, enters protected mode, turns paging on with the boot
 * page directory (first, for the same reason as boot.S), takes the stack the
 * boot CPU left in ap_boot_stack and calls ap_boot_entry (kernel/smp.c).
 * Everything is addressed relative to 0x8000 because it runs at a different
 * address than it was linked at.
 */
#define TRAMPOLINE_BASE 0x8000
#define REL(x) ((x) - ap_trampoline_start + TRAMPOLINE_BASE)

.section .rodata
.code16
.global ap_trampoline_start
ap_trampoline_start:
    cli
    xor %ax, %ax
    mov %ax, %ds
    lgdtl REL(tramp_gdt_desc)
    mov %cr0, %eax
    or $1, %eax
    mov %eax, %cr0
    ljmpl $0x08, $REL(ap_protected)

.code32
ap_protected:
    mov $0x10, %ax
    mov %ax, %ds
    mov %ax, %es
    mov %ax, %ss
    mov %cr4, %eax
    or $0x10, %eax
    mov %eax, %cr4
    mov REL(ap_boot_cr3), %eax
    mov %eax, %cr3
    mov %cr0, %eax
    or $0x80010000, %eax
    mov %eax, %cr0
    mov REL(ap_boot_stack), %esp
    xor %ebp, %ebp
    mov REL(ap_boot_entry), %eax
    call *%eax
1:  hlt
    jmp 1b

.align 8
tramp_gdt:
    .quad 0
    .quad 0x00cf9a000000ffff         /* flat 32-bit code */
    .quad 0x00cf92000000ffff         /* flat 32-bit data */
tramp_gdt_desc:
    .word tramp_gdt_desc - tramp_gdt - 1
    .long REL(tramp_gdt)

/* Filled in by the boot CPU before each start-up IPI (offsets used by smp.c). */
.align 4
.global ap_trampoline_params
ap_trampoline_params:
ap_boot_cr3:   .long 0
ap_boot_stack: .long 0
ap_boot_entry: .long 0
.global ap_trampoline_end
ap_trampoline_end:
