/*
 * Multiboot v1 entry point for the boot CPU.
 *
 * QEMU's -kernel and GRUB both load the ELF image at 1 MiB and jump here in
 * 32-bit protected mode with paging off, EAX = 0x2BADB002 and EBX pointing to
 * the multiboot information.  The very first thing we do is turn paging on:
 * under KVM, code that runs with paging off is emulated instruction by
 * instruction (about 150x slower), so nothing real may run before it.
 *
 * The page directory identity-maps 4 GiB with 4 MiB pages (PSE), so
 * physical addresses, the local APIC's MMIO page and the kernel's own
 * addresses are all the same numbers.  The top 4 MiB (APIC, IO-APIC, BIOS) is
 * mapped uncached.
 */
#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_FLAGS 0x00000003   /* page-align modules, give memory info */

.section .multiboot, "a"
.align 4
    .long MULTIBOOT_MAGIC
    .long MULTIBOOT_FLAGS
    .long -(MULTIBOOT_MAGIC + MULTIBOOT_FLAGS)

.section .text
.global _start
_start:
    cli
    /* Identity map 4 GiB: entry i = i*4MiB | PS | RW | P. */
    mov $boot_page_directory, %edi
    xor %ecx, %ecx
1:  mov %ecx, %edx
    shl $22, %edx
    or $0x83, %edx
    mov %edx, (%edi,%ecx,4)
    inc %ecx
    cmp $1024, %ecx
    jne 1b
    orl $0x18, 4092(%edi)            /* PCD|PWT on the last 4 MiB: device memory */
    /* Leave 0xC0000000-0xDFFFFFFF unmapped (no RAM there at MEM <= 3000 MiB), so a
     * stray pointer into it faults instead of scribbling somewhere. */
    mov $768, %ecx
3:  movl $0, (%edi,%ecx,4)
    inc %ecx
    cmp $896, %ecx
    jne 3b
    mov %cr4, %edx
    or $0x10, %edx                   /* CR4.PSE */
    mov %edx, %cr4
    mov %edi, %cr3
    mov %cr0, %edx
    or $0x80010000, %edx             /* CR0.PG | CR0.WP */
    mov %edx, %cr0

    mov $boot_stack_top, %esp
    xor %ebp, %ebp                   /* ends backtraces */
    push %ebx                        /* multiboot info */
    push %eax                        /* multiboot magic */
    call kmain
2:  cli
    hlt
    jmp 2b

.section .bss
.align 4096
.global boot_page_directory
boot_page_directory:
    .skip 4096
.align 16
boot_stack:
    .skip 16384
boot_stack_top:
