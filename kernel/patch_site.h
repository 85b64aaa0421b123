/*
 * Code patched once at boot: a 5-byte NOP that becomes "jmp rel32" to a
 * label when the mode that needs the label's path is on (Linux's static
 * keys and paravirt patching do the same: arch/x86/include/asm/jump_label.h,
 * arch_static_branch).  Off, a site costs one NOP; on, one jump.
 *
 * Users: spinlock.h (pvspin's and vsmp's lock sites), the machine layer
 * (kernel/machine/machine.h, its static keys), time.h (cycles_to_ns's sites,
 * skipped at a 1 GHz TSC) and sched_env.h (the core's checks=1 sites).  trace.c patches its event
 * sites with its own table (a site per event type).
 *
 * Patching happens on the boot CPU before any other CPU runs (patch_sites_enable
 * panics otherwise): nothing executes the bytes while they change, and a
 * CPUID afterwards serialises, so no stale NOP stays in the pipeline.
 */
#ifndef KERNEL_PATCH_SITE_H
#define KERNEL_PATCH_SITE_H

#include "types.h"

/* One site: the NOP's address and the label to jump to. */
struct patch_site {
    uint32_t site, target;
};

/*
 * A patchable site: 5 bytes of NOP ("nopl 0(%eax,%eax,1)"), recorded with
 * the address of `label` in `section`; patch_sites_enable() rewrites it into
 * "jmp rel32" to the label.  linker.ld keeps each section and names its
 * bounds __start_<section> and __stop_<section>.
 */
#define PATCH_SITE(section, label)                                            \
    __asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"                 \
                 ".pushsection " section ", \"a\"\n\t"                       \
                 ".balign 4\n\t"                                              \
                 ".long 1b, %l[" #label "]\n\t"                               \
                 ".popsection"                                                \
                 : : : "memory" : label)

/* The same for a static key (kernel/machine/keys.h): no "memory" clobber,
 * as Linux's arch_static_branch has none.  A key orders nothing, so the
 * compiler keeps values in registers across it as it did across the flag
 * test a key replaces; spinlock.h's sites need the clobber (the jump leads
 * to a release). */
#define PATCH_KEY(section, label)                                             \
    __asm__ goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"                 \
                 ".pushsection " section ", \"a\"\n\t"                       \
                 ".balign 4\n\t"                                              \
                 ".long 1b, %l[" #label "]\n\t"                               \
                 ".popsection"                                                \
                 : : : : label)

/* Turn every site in [start, stop) into its jump; `what` names them in the
 * panics (a site that is not the NOP, or other CPUs already running). */
void patch_sites_enable(const struct patch_site *start, const struct patch_site *stop, const char *what);

#endif
