/*
 * The machine layer's static keys: which machine the kernel runs on, read
 * at no cost on the plain one.  kernel/machine/machine.h is the layer's
 * interface; this part is separate because kernel/x86.h (cpu_relax) needs
 * it and must not pull in the rest.
 *
 * Two machines sit behind the layer (docs/ARCHITECTURE.md, "the machine
 * layer"):
 *   plain hardware  the CPUs QEMU (TCG, KVM, icount) or a PC gives: LAPIC
 *                   timers and IPIs, INIT-SIPI-SIPI, HLT, PAUSE;
 *   vsmp            vsmp=N logical CPUs in virtual time on one vCPU
 *                   (kernel/machine/vsmp.c, docs/vsmp.md).
 *
 * Each key is a boot-patched site (kernel/patch_site.h): a 5-byte NOP on
 * plain hardware, a jump once vsmp_setup() has turned the key on, on the
 * boot CPU before any other CPU runs.  A third key, machine_cost_model(),
 * stands in front of the cost model's event flags (kernel/chan_cost.h);
 * chan_cost_set() turns it on for a model other than cost=none.  So an `if (machine_vsmp())` costs a
 * plain machine one NOP and no memory access; it replaced a load and a
 * conditional branch of the flags vsmp_on and vsmp_multi, which only the
 * machine layer reads now (kernel/machine/, kernel/machine/vsmp.c; tests/qemu/
 * boot.sh's layering-vsmp-flags check holds every other file to that).
 *
 * CFLAGS_EXTRA=-DMACHINE_KEYS_FLAGS builds the keys as the flag tests they
 * replaced: the layer's code otherwise, the instructions of the kernel
 * before it, so that its boots' figures under vsmp and icount can be
 * compared bit for bit with that kernel's (docs/notebook/2026-12-07-
 * machine-layer.md has the comparison).
 */
#ifndef KERNEL_MACHINE_KEYS_H
#define KERNEL_MACHINE_KEYS_H

#include "../types.h"
#ifndef HOST_TEST
#include "../patch_site.h"
#endif

#if defined(HOST_TEST)
/* The host tests (tests/host/) link kernel files on a plain machine with
 * no patching: no vsmp, and the cost model's own flags decide. */
static inline bool machine_vsmp(void) { return false; }
static inline bool machine_vsmp_multi(void) { return false; }
static inline bool machine_cost_model(void) { return true; }
#elif defined(MACHINE_KEYS_FLAGS)
/* The keys as the flag tests they replaced (a load and a branch); the
 * cost model's key as none (its flags are tested as before). */
extern bool vsmp_on, vsmp_multi;
static inline __attribute__((always_inline)) bool machine_vsmp(void) { return vsmp_on; }
static inline __attribute__((always_inline)) bool machine_vsmp_multi(void) { return vsmp_multi; }
static inline __attribute__((always_inline)) bool machine_cost_model(void) { return true; }
#else
/* vsmp=N given, N >= 1: the CPUs are vsmp's logical CPUs. */
static inline __attribute__((always_inline)) bool machine_vsmp(void)
{
    PATCH_KEY("machine_vsmp_sites", on);
    return false;
on:
    return true;
}

/* vsmp=N, N >= 2: spinlock waits and spin-waits go through vsmp's
 * dispatcher (another logical CPU must run for them to end). */
static inline __attribute__((always_inline)) bool machine_vsmp_multi(void)
{
    PATCH_KEY("machine_vsmp_multi_sites", on);
    return false;
on:
    return true;
}

/* cost= other than none: a cost model charges events (kernel/chan_cost.h;
 * its cost_*_on flags then say which).  In front of each flag test, so
 * that cost=none, the default, costs one NOP and no load there. */
static inline __attribute__((always_inline)) bool machine_cost_model(void)
{
    PATCH_KEY("machine_cost_sites", on);
    return false;
on:
    return true;
}
#endif

/* cpu_relax (kernel/x86.h): one spin-wait iteration.  Caller: any spin
 * loop, any context.  Plain: PAUSE.  vsmp with 2+ CPUs: the spinning CPU
 * must let the others run or it would wait for ever: vsmp_relax advances
 * its clock and yields once it is ahead (kernel/machine/vsmp.c). */
void vsmp_relax(void);
static inline __attribute__((always_inline)) void machine_relax(void)
{
    if (unlikely(machine_vsmp_multi()))
        vsmp_relax();
    else
        __asm__ volatile("pause" ::: "memory");
}

/* vsmp_setup (kernel/machine/vsmp.c), boot CPU, other CPUs not started: turn the
 * keys on (machine_vsmp; machine_vsmp_multi too when multi). */
void machine_keys_enable_vsmp(bool multi);
/* chan_cost_set (kernel/chan_cost.c), boot CPU, before any task or other
 * CPU runs, for a model other than none: machine_cost_model's sites. */
void machine_keys_enable_cost(void);

#endif
