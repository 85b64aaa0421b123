/*
 * vsmp: N logical CPUs in virtual time on one QEMU vCPU (vsmp=N; the model
 * and its limits are in docs/vsmp.md).
 *
 * QEMU runs one vCPU under -icount shift=0: every instruction advances the
 * TSC by one cycle (tsc_khz=1000000), and QEMU's timers run on that clock,
 * so a run is deterministic.  The kernel runs N logical CPUs on it.  Each has
 * its struct cpu and %gs segment, idle task, run queue, tick and its own
 * clock: local TSC = RDTSC - cpus[i].tsc_base (kernel/time.h), and the
 * dispatcher moves tsc_base so that a logical CPU's clock runs only while it
 * runs.  clock_ns(), the scheduler's clock, the tick and every timing a
 * workload reports are local time.
 *
 * The dispatcher (reschedule) always runs the logical CPU whose time is
 * smallest (its "eff": a runnable CPU's local time, a halted one's next
 * event, a lock waiter's never until the lock is released).  A logical
 * CPU gives up the physical CPU:
 *   - before a spinlock acquisition when another CPU is behind it (more
 *     than vsmp's slack): so acquisitions happen in virtual-time order;
 *   - when the lock it wants is held (it waits, LOCKWAIT, until the release;
 *     its time then becomes at least the release time: lock-wait time);
 *   - when it halts in the idle loop (until its next tick or IPI);
 *   - in a spin-wait (cpu_relax) once it is ahead of another CPU;
 *   - when it has run vsmp_quantum_ns past the slowest other CPU (seen at
 *     its next hook, or by the one hardware timer in one-shot mode).
 *
 * Why acquisitions in time order make lock waiting exact: a CPU X that
 * takes a lock at local time t is the slowest CPU (within the slack), so
 * every other CPU that took this lock before did so at a time <= t; if that
 * holder released it at r > t, X's attempt fell inside the hold and X waits
 * until r.  So on every acquisition X's clock moves to max(t, last release)
 * (Lamport's clock rule, which also keeps every timestamp X reads under the
 * lock in X's past), and the difference is X's lock-wait time.  What is
 * read without a lock (need_resched, a balancer's peek at another queue) is
 * as old as the quantum at most.
 *
 * IPIs: a reschedule IPI sent at local time t reaches CPU b at
 * max(b's time, t + vsmp_ipi_ns); a halted b sleeps until then.  Ticks:
 * every 1/HZ of each CPU's local time, at most one pending (as a LAPIC's
 * interrupt request bit).  Interrupts are taken only where the logical CPU
 * has interrupts on, as on hardware.  A running CPU sees a due tick or IPI
 * at its next hook (see arm() for why, and what it costs).
 *
 * The dispatcher's own work is not charged, and nothing it does depends on
 * how long it takes: the figures a boot prints are a function of the
 * kernel's instructions alone, so a faster (or slower) dispatcher prints the
 * same figures, bit for bit (tests/qemu/vsmp.sh checks it with a build whose
 * dispatcher burns extra instructions).  What that takes:
 *   - every hook is entered through an assembly stub (HOOK below) whose
 *     first instruction after marking the clock frozen is the RDTSC that
 *     stops it, and left through an exit (hook_exit_*) that restarts it
 *     with its last RDTSC, counting the fixed number of instructions that
 *     follow it; the spinlock hooks' and the interrupts' remaining fixed
 *     entry instructions are measured at boot and taken off too (their
 *     residue: the spinlock hooks cost a site nothing, a quiet interrupt
 *     costs the interrupted code nothing);
 *   - the hardware timer is written only in those exits, after their
 *     RDTSC, so it fires at an exact local time of the running CPU
 *     (timer_fire_err cycles after the deadline, measured at boot), and an
 *     interrupt that delivers nothing (the timer fired for another CPU, or
 *     early) is quiet: no instruction of it is charged, and it changes no
 *     state the model reads;
 *   - a timer interrupt that comes while a spinlock hook runs (they leave
 *     interrupts on: below) is noted and sent again at the hook's end, on
 *     a path as long as the one that sends nothing.
 *
 * Everything here runs with interrupts off on the one physical CPU, or in a
 * spinlock hook, where an interrupt only takes notes (vsmp_frozen), so no
 * lock protects the dispatcher's state: nothing else can change it.
 */
#include "vsmp.h"
#include "../cpu.h"
#include "../smp.h"
#include "../time.h"
#include "../mem.h"
#include "../lib.h"
#include "../x86.h"
#include "../config.h"
#include "../spinlock.h"
#include "../sched_core.h"
#include "../stall.h"
#include "../trap.h"
#include "memhooks.h"

#define NEVER UINT64_MAX
#define VSMP_BOOT_STACK_PAGES 2
/* A spin-wait iteration (cpu_relax) advances the spinning CPU's clock by
 * this much beyond the loop's own instructions, until it is ahead of
 * another CPU (then it yields): the resolution of a spin-wait.  Chosen,
 * not sourced: docs/vsmp.md measures its effect. */
#define RELAX_STEP_CYCLES 100
/* For a CPU that calls hooks, the hardware timer fires this many quanta
 * after its deadline (the hooks see the deadline first): see arm(). */
#define BACKSTOP_QUANTA 4
/* The shortest count the hardware timer is written with (arm_timer). */
#define MIN_TIMER_COUNT 64
/* The shortest way to a target for which an early timer is written later
 * (arm_timer). */
#define PUSH_MIN 4096

enum vcpu_state { VCPU_OFF, VCPU_RUNNING, VCPU_READY, VCPU_HALTED, VCPU_LOCKWAIT };
static const char *const state_names[] = { "off", "running", "ready", "halted", "lockwait" };

struct vcpu_stats {
    uint64_t dispatches;        /* times this CPU got the physical CPU */
    uint64_t order_yields;      /* lock acquisitions that waited for a slower CPU first */
    uint64_t relax_yields;      /* spin-wait iterations that let a slower CPU run */
    uint64_t quantum_yields;    /* quantum ends */
    uint64_t lock_blocks;       /* acquisitions that found the lock held */
    uint64_t block_races;       /* ... and found it released when they came to wait (lock_block) */
    uint64_t ipis_sent, ipis_received;
    uint64_t spin_cycles;       /* charged to spin-waits beyond their instructions */
};

struct vcpu {
    uint64_t local;             /* local TSC, frozen while another runs and in the hooks (offset 0: the exits read it) */
    uint32_t saved_esp;         /* stack pointer while another CPU runs (vsmp_switch) */
    int state;
    uint64_t next_tick;         /* local time of the next tick; NEVER before the timer starts */
    uint64_t ipi_at;            /* a pending reschedule IPI is due then; NEVER: none */
    struct spinlock *wait_lock; /* LOCKWAIT: the lock */
    uint64_t wait_since;        /* LOCKWAIT: local time it began to wait */
    uint64_t ran_from;          /* local time of its dispatch or of the last timer delivery (plus the memory model's stalls since) */
    bool hooked;                /* it called a hook since then */
    bool hookless;              /* the timer once found it running a quantum without hooks: arm it exactly */
    struct vcpu_stats stats;
};
_Static_assert(offsetof(struct vcpu, local) == 0, "the hook exits read vcpu.local at 0");

bool vsmp_on, vsmp_multi;
struct vcpu vcpus[MAX_CPUS] __asm__("vsmp_vcpus");
static int nvcpus;
/* (Some of the dispatcher's state has an assembler name: the spinlock hooks'
 * fast paths below read it.) */
int cur __asm__("vsmp_cur");     /* the logical CPU the physical CPU runs */
struct vcpu *vsmp_curv;          /* &vcpus[cur] (the exits read it) */
uint16_t gs_selector[MAX_CPUS] __asm__("vsmp_gs_selector");
uint64_t quantum __asm__("vsmp_quantum");
static uint64_t ipi_latency, tick_period;
static uint32_t quantum_ns_, ipi_ns_, slack_ns_;
uint64_t slack __asm__("vsmp_slack");   /* lock acquisitions may run this far ahead of the slowest CPU */
uint64_t min_other __asm__("vsmp_min_other");   /* the smallest eff of the CPUs other than cur */
/* What arm_timer() last worked out still holds unless this is set: every
 * change of the current CPU, of its events, of min_other, and every jump
 * of its clock (a lock wait, a spin-wait step) sets it. */
bool arm_dirty __asm__("vsmp_arm_dirty") = true;
uint64_t order_limit __asm__("vsmp_order_limit");   /* min_other + slack, NEVER when min_other is */
uint64_t quantum_end __asm__("vsmp_quantum_end");   /* min_other + quantum + 1 (end_quantum's first yield), NEVER when min_other is */
uint64_t deadline __asm__("vsmp_deadline");   /* local time of cur's next event or quantum end (the hooks check it) */
uint64_t backstop __asm__("vsmp_backstop");   /* how late the timer may fire for a CPU that calls hooks */
int lock_waiters __asm__("vsmp_lock_waiters");   /* CPUs in LOCKWAIT (the stall check runs only when there are some) */
static bool event_sent;          /* a self-interrupt for a due event is on its way (raise_event) */
static uint64_t hw_timer_irqs, hw_timer_arms, quiet_irqs;  /* the one hardware timer's interrupts and writes */
static uint64_t event_irqs;      /* self-interrupts for an event found due in a hook */
static uint64_t irqs_deferred;   /* interrupts that came while a spinlock hook ran */
static uint64_t irqs_rewound;    /* ... in its exit's window (WINDOW) */
static uint64_t reads_rewound;   /* interrupts that split a clock read, which was repeated */
static uint64_t stale_irqs;      /* timer interrupts an earlier write left pending */

/*
 * The hooks' clock protocol (see the header comment and the stubs below).
 * vsmp_frozen: the current CPU's clock is held in vsmp_curv->local, not in
 * its tsc_base; an interrupt then only takes notes (vsmp_deferred).
 * vsmp_exit_count: what the exit writes to the timer (LAPIC counts; 0:
 * nothing); vsmp_armed_at: the RDTSC at which the timer fires (NEVER: not
 * armed); phys_lb: an RDTSC no later than now (the last hook's entry).
 */
volatile uint8_t vsmp_frozen;
volatile uint8_t vsmp_deferred;
uint32_t vsmp_exit_count;
uint64_t vsmp_armed_at;
volatile uint32_t *vsmp_timer_init_reg, *vsmp_icr_lo_reg;
uint64_t phys_lb __asm__("vsmp_phys_lb");
#define DEFER_TIMER 1u
#define DEFER_EVENT 2u
/* The exits' fixed instruction counts after their RDTSC, taken off when
 * they restart the clock.  What matters is that the two exits differ by
 * exactly their difference in instructions (calibrate() checks it); the
 * rest is the same for every call of a hook, and measured (the residues). */
#define EXIT_PLAIN_AFTER 8
#define EXIT_ARM_AFTER 15             /* EXIT_ARM has 7 instructions more than EXIT_PLAIN */
#define VSMP_EVENT_ICR 0x40023        /* ICR: shorthand self, fixed, VECTOR_VSMP_EVENT */
#define PERCPU_TSC_BASE_HI 40
_Static_assert(PERCPU_TSC_BASE_HI == PERCPU_TSC_BASE + 4, "the stubs read tsc_base's high word");

/* The cycles in LAPIC counts (1 each under -icount shift=0: checked at boot). */
static int64_t timer_fire_err;   /* measured: how many cycles after count the timer fires (may be < 0) */

extern void __attribute__((regparm(3))) vsmp_switch(uint32_t *save_esp, uint32_t next_esp, uint32_t next_gs);
extern void vsmp_first_entry(void);

/* void vsmp_switch(save_esp, next_esp, next_gs) (regparm: in %eax, %edx,
 * %ecx): save the callee-saved registers and the stack pointer, switch %gs
 * to the next logical CPU's
 * struct cpu and resume it where it called vsmp_switch (or, the first
 * time, at vsmp_first_entry). */
__asm__(".text\n\t"
        ".globl vsmp_switch\n"
        "vsmp_switch:\n\t"
        "pushl %ebp\n\t"
        "pushl %ebx\n\t"
        "pushl %esi\n\t"
        "pushl %edi\n\t"
        "movl %esp, (%eax)\n\t"
        "movl %edx, %esp\n\t"
        "movw %cx, %gs\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "popl %ebp\n\t"
        "ret\n\t"
        ".globl vsmp_first_entry\n"
        "vsmp_first_entry:\n\t"
        "cli\n\t"
        "call vsmp_resume_new\n\t"
        "call vsmp_cpu_main\n"
        "1:\thlt\n\t"
        "jmp 1b\n");

/*
 * The hook stubs.  HOOK(name, body): name(arg) marks the clock frozen,
 * reads it (RDTSC minus the CPU's base: its local time) and calls
 * body(local, arg) (regparm: local in %eax:%edx, arg in %ecx), which
 * leaves the local time to go on from in vsmp_curv->local; then an exit.
 * HOOK_CLI: the same with interrupts off (pushf; cli ... popf), for the
 * hooks that may be called with them on and are not spinlock hooks.
 *
 * The exits restart the clock with their last RDTSC, and write the timer
 * after it when vsmp_exit_count asks for it; the instructions after the
 * RDTSC are counted (EXIT_*_AFTER) and taken off, so the clock reads at
 * the caller's next instruction exactly vsmp_curv->local.
 *   hook_exit_ret     for the HOOK_CLI hooks (popf; ret);
 *   hook_exit_lock    for the spinlock hooks: what came in while the hook
 *                     ran is sent again as one self-interrupt, by
 *                     instructions that the path without it matches in
 *                     number (three each), after the clock runs again;
 *   irq_exit_quiet    an interrupt that delivered nothing (pops, iret);
 *   irq_exit_deliver  one that delivers: on into the kernel's own entry
 *                     path for the vector, which is charged as on any CPU.
 */
#define STR_(x) #x
#define STR(x) STR_(x)
/* struct vcpu's size and ran_from's offset, as absolute symbols (no byte
 * of the image): model=host's plugin adds a stall to the running CPU's
 * ran_from, as vsmp_machine_stalled does, and tools/qemu-run.sh reads them
 * with nm.  (vsmp_order_yield_fast below uses both too.) */
#define VCPU_BYTES 128
#define VCPU_RAN_FROM 44
_Static_assert(sizeof(struct vcpu) == VCPU_BYTES, "VCPU_BYTES");
_Static_assert(offsetof(struct vcpu, ran_from) == VCPU_RAN_FROM, "VCPU_RAN_FROM");
__asm__(".globl vsmp_vcpu_bytes\n\t.set vsmp_vcpu_bytes, " STR(VCPU_BYTES) "\n\t"
        ".globl vsmp_vcpu_ran_from\n\t.set vsmp_vcpu_ran_from, " STR(VCPU_RAN_FROM) "\n");
/* A window (start, end, restart): code of the spinlock exits that runs
 * with interrupts on and the clock live though vsmp_frozen is set (from the
 * exit's RDTSC to its clear).  An interrupt there is rewound to `restart`
 * (irq_frozen), the RDTSC, which restarts the clock again after it, so
 * that it costs nothing either. */
#define WINDOW(start, end, restart)                                        \
    ".pushsection vsmp_windows, \"a\"\n\t"                                 \
    ".balign 4\n\t"                                                        \
    ".long " start ", " end ", " restart "\n\t"                            \
    ".popsection\n\t"
#define CLOCK_READ                                                         \
    "7:\trdtsc\n\t"                                                        \
    "subl %gs:" STR(PERCPU_TSC_BASE) ", %eax\n\t"                          \
    "sbbl %gs:" STR(PERCPU_TSC_BASE_HI) ", %edx\n"                         \
    "8:\t"
/* The spinlock hooks run with interrupts as their caller had them: the
 * clock is read as local_tsc() reads it (a clock_reads entry, so that an
 * interrupt inside the read repeats it), and marked frozen only then: an
 * interrupt until the mark is an ordinary one, which costs the CPU
 * nothing, and one after it finds the clock frozen. */
/* CACHES=1: after the body, before the exit's RDTSC (the clock still
 * frozen), what the dispatcher's own accesses owed is dropped
 * (machine_thaw, kernel/machine/memhooks.h). */
#ifdef CACHES
#define MACHINE_THAW "call vsmp_machine_thaw\n\t"
#else
#define MACHINE_THAW ""
#endif
#define HOOK(name, body, exit, fast)                                           \
    ".globl " name "\n" name ":\n"                                         \
    "3:\trdtsc\n"                                                          \
    "4:\tsubl %gs:" STR(PERCPU_TSC_BASE) ", %eax\n"                        \
    "5:\tsbbl %gs:" STR(PERCPU_TSC_BASE_HI) ", %edx\n"                     \
    "6:\tmovb $1, vsmp_frozen\n\t"                                         \
    ".pushsection clock_reads, \"a\"\n\t"                                  \
    ".balign 4\n\t"                                                        \
    ".long 3b, 4b, 5b" CLOCK_READ_PAD ", 6b\n\t"                          \
    ".popsection\n\t"                                                      \
    fast                                                                   \
    "leal 4(%esp), %ecx\n\t"                                               \
    "call " body "\n\t"                                                    \
    MACHINE_THAW                                                           \
    "jmp " exit "\n"
#define HOOK_CLI(name, body)                                               \
    ".globl " name "\n" name ":\n\t"                                       \
    "pushfl\n\t"                                                           \
    "cli\n\t"                                                              \
    "movb $1, vsmp_frozen\n" CLOCK_READ                                    \
    "leal 8(%esp), %ecx\n\t"                                               \
    "call " body "\n\t"                                                    \
    MACHINE_THAW                                                           \
    "jmp hook_exit_ret\n"
/* The exits (%ecx = vsmp_curv): base = RDTSC - local + after, from the
 * RDTSC at 7: to the clear at 8: (which ends at 9:). */
#define EXIT_PLAIN(tail)                                                   \
    "7:\trdtsc\n\t"                                                        \
    "subl (%ecx), %eax\n\t"                                                \
    "sbbl 4(%ecx), %edx\n\t"                                               \
    "addl $" STR(EXIT_PLAIN_AFTER) ", %eax\n\t"                            \
    "adcl $0, %edx\n\t"                                                    \
    "movl %eax, %gs:" STR(PERCPU_TSC_BASE) "\n\t"                          \
    "movl %edx, %gs:" STR(PERCPU_TSC_BASE_HI) "\n"                         \
    "8:\tmovb $0, vsmp_frozen\n"                                           \
    "9:\t" tail
/* The same with the timer write, the 11th instruction after the RDTSC: 7
 * instructions more in all (EXIT_ARM_AFTER), and nothing that a second run
 * from 7: would undo (the body, not the exit, clears vsmp_exit_count). */
#define EXIT_ARM(tail)                                                     \
    "7:\trdtsc\n\t"                                                        \
    "movl %eax, vsmp_armed_at\n\t"                                         \
    "movl %edx, vsmp_armed_at+4\n\t"                                       \
    "subl (%ecx), %eax\n\t"                                                \
    "sbbl 4(%ecx), %edx\n\t"                                               \
    "addl $" STR(EXIT_ARM_AFTER) ", %eax\n\t"                              \
    "adcl $0, %edx\n\t"                                                    \
    "movl %eax, %gs:" STR(PERCPU_TSC_BASE) "\n\t"                          \
    "movl %edx, %gs:" STR(PERCPU_TSC_BASE_HI) "\n\t"                       \
    "movl vsmp_exit_count, %eax\n\t"                                       \
    "movl vsmp_timer_init_reg, %edx\n\t"                                   \
    "movl %eax, (%edx)\n\t"                                                \
    "addl %eax, vsmp_armed_at\n\t"                                         \
    "adcl $0, vsmp_armed_at+4\n"                                           \
    "8:\tmovb $0, vsmp_frozen\n"                                           \
    "9:\t" tail
__asm__(".text\n"
        "hook_exit_ret:\n\t"
        "movl vsmp_curv, %ecx\n\t"
        "cmpl $0, vsmp_exit_count\n\t"
        "jne 1f\n"
        EXIT_PLAIN("popfl\n\t") "ret\n"
        "1:\n" EXIT_ARM("popfl\n\t") "ret\n"
        "hook_exit_lock:\n\t"
        "movl vsmp_curv, %ecx\n\t"
        "cmpl $0, vsmp_exit_count\n\t"
        "jne 1f\n"
        EXIT_PLAIN("cmpb $0, vsmp_deferred\n\t") WINDOW("7b", "9b", "7b") "jne 2f\n\t"
        "nop\n\tnop\n\tnop\n\tret\n"
        "1:\n" EXIT_ARM("cmpb $0, vsmp_deferred\n\t") WINDOW("7b", "9b", "7b") "jne 2f\n\t"
        "nop\n\tnop\n\tnop\n\tret\n"
        "2:\tmovb $0, vsmp_deferred\n\t"
        "movl vsmp_icr_lo_reg, %ecx\n\t"
        "movl $" STR(VSMP_EVENT_ICR) ", (%ecx)\n\t"
        "ret\n");
/* In the spinlock exits the instructions after the clear (cmpb, jne, three
 * nops or the send, ret) are as many on both paths: the residue
 * calibration takes them off with the rest. */


/*
 * The spinlock hooks' fast paths, in the stubs, for the usual hook: what
 * lock_order_body and lock_release_body do when nothing is to be waited
 * for or charged, nothing is due, the order allows the acquisition, no CPU
 * waits for the lock, and the timer needs no write (arm()'s first test).
 * They read what the bodies read and store what the bodies store, between
 * the same entry (the clock frozen) and the same exit, so the clock, every
 * figure and the residues are the same; anything else goes on to the body
 * (10:), with %eax:%edx, the local time, untouched.  They save the body's
 * call, frame and return: most hooks take them (o1, 8 CPUs, hackbench:
 * two thirds of the acquisitions, nearly every release).  Not in a
 * -DVSMP_TEST_BURN build (whose every hook burns, in enter(): the burn
 * test then also shows that the fast and the slow paths print the same
 * figures) or a CACHES=1 one (enter() folds the instrumentation's debt).
 *
 * struct spinlock's fields, as the stubs address them: */
#if defined(SPINLOCK_TICKET)
#define LOCK_WAITERS 5
#define LOCK_RELEASE_CPU 6
#define LOCK_RELEASE 16
#define LOCK_RELEASE_STORE "incw 2(%ecx)\n\t"   /* spin_release_store */
_Static_assert(offsetof(struct spinlock, now_serving) == 2, "the release fast path's store");
#else
#define LOCK_WAITERS 2
#define LOCK_RELEASE_CPU 3
#define LOCK_RELEASE 12
#define LOCK_RELEASE_STORE "movb $1, (%ecx)\n\t"    /* spin_release_store */
_Static_assert(offsetof(struct spinlock, slock) == 0, "the release fast path's store");
#endif
_Static_assert(offsetof(struct spinlock, vsmp_waiters) == LOCK_WAITERS, "LOCK_WAITERS");
_Static_assert(offsetof(struct spinlock, vsmp_release_cpu) == LOCK_RELEASE_CPU, "LOCK_RELEASE_CPU");
_Static_assert(offsetof(struct spinlock, vsmp_release) == LOCK_RELEASE, "LOCK_RELEASE");
#define VCPU_HOOKED 52
_Static_assert(offsetof(struct vcpu, hooked) == VCPU_HOOKED, "VCPU_HOOKED");
#if defined(VSMP_TEST_BURN) || defined(CACHES)
#define FAST_ORDER ""
#define FAST_RELEASE ""
#define FAST_ORDER_SITE ""
#else
/* What arm() and hook_check() find when they do nothing: the timer
 * armed and clean, the deadline ahead of the local time. */
#define FAST_QUIET                                                         \
    "cmpb $0, vsmp_arm_dirty\n\t"                                          \
    "jne 10f\n\t"                                                          \
    "cmpl vsmp_deadline, %eax\n\t"                                         \
    "movl %edx, %ecx\n\t"                                                  \
    "sbbl vsmp_deadline+4, %ecx\n\t"                                       \
    "jae 10f\n\t"                                                          \
    "movl vsmp_armed_at, %ecx\n\t"                                         \
    "andl vsmp_armed_at+4, %ecx\n\t"                                       \
    "incl %ecx\n\t"                                                        \
    "je 10f\n\t"
/* enter(): no timer write, phys_lb the stub's RDTSC (local + base). */
#define FAST_ENTER                                                         \
    "movl $0, vsmp_exit_count\n\t"                                         \
    "movl %gs:" STR(PERCPU_TSC_BASE) ", %ecx\n\t"                          \
    "addl %eax, %ecx\n\t"                                                  \
    "movl %ecx, vsmp_phys_lb\n\t"                                          \
    "movl %gs:" STR(PERCPU_TSC_BASE_HI) ", %ecx\n\t"                       \
    "adcl %edx, %ecx\n\t"                                                  \
    "movl %ecx, vsmp_phys_lb+4\n\t"
/* hook_check()'s mark, and the clock goes on from local less the residue. */
#define FAST_MARK(residue)                                                 \
    "movl vsmp_curv, %ecx\n\t"                                             \
    "movb $1, " STR(VCPU_HOOKED) "(%ecx)\n\t"                                   \
    "subl " residue ", %eax\n\t"                                           \
    "sbbl " residue "+4, %edx\n\t"                                         \
    "movl %eax, (%ecx)\n\t"                                                \
    "movl %edx, 4(%ecx)\n\t"
#define FAST_LEAVE(residue)                                                \
    FAST_MARK(residue)                                                     \
    "jmp hook_exit_lock\n"                                                 \
    "10:\t"
/* The order fast path's test, shared by the hook and its site entry: the
 * last release was ours (to own) or in our past, and no CPU is behind us
 * (local <= order_limit); a lock wait to charge goes to 10, a CPU behind us
 * to the order yield's own path (vsmp_order_yield_fast, below). */
#define FAST_ORDER_TEST(own)                                               \
    "movl 4(%esp), %ecx\n\t"                                               \
    "movsbl " STR(LOCK_RELEASE_CPU) "(%ecx), %ecx\n\t"                          \
    "cmpl vsmp_cur, %ecx\n\t"                                              \
    "je " own "\n\t"                                                           \
    "movl 4(%esp), %ecx\n\t"                                               \
    "cmpl " STR(LOCK_RELEASE) "(%ecx), %eax\n\t"                                \
    "pushl %edx\n\t"                                                       \
    "sbbl " STR(LOCK_RELEASE) "+4(%ecx), %edx\n\t"                              \
    "popl %edx\n\t"                                                        \
    "jb 10f\n"                                                             \
    "11:\tmovl vsmp_order_limit, %ecx\n\t"                                 \
    "cmpl %eax, %ecx\n\t"                                                  \
    "movl vsmp_order_limit+4, %ecx\n\t"                                    \
    "sbbl %edx, %ecx\n\t"                                                  \
    "jb vsmp_order_yield_fast\n\t"
/* lock_order_body: no lock wait to charge (the last release was ours, or
 * in our past), and local <= order_limit: no CPU behind us to yield to. */
#define FAST_ORDER                                                         \
    FAST_ORDER_TEST("11f")                                                 \
    FAST_QUIET                                                             \
    FAST_ENTER                                                             \
    FAST_LEAVE("vsmp_order_residue")
/* lock_release_body: no CPU waits for the lock; stamp and release it. */
#define FAST_RELEASE                                                       \
    "movl 4(%esp), %ecx\n\t"                                               \
    "cmpb $0, " STR(LOCK_WAITERS) "(%ecx)\n\t"                                  \
    "jne 10f\n\t"                                                          \
    FAST_QUIET                                                             \
    FAST_ENTER                                                             \
    "movl 4(%esp), %ecx\n\t"                                               \
    "movl %eax, " STR(LOCK_RELEASE) "(%ecx)\n\t"                                \
    "movl %edx, " STR(LOCK_RELEASE) "+4(%ecx)\n\t"                              \
    "pushl %eax\n\t"                                                       \
    "movl vsmp_cur, %eax\n\t"                                              \
    "movb %al, " STR(LOCK_RELEASE_CPU) "(%ecx)\n\t"                             \
    "popl %eax\n\t"                                                        \
    LOCK_RELEASE_STORE                                                     \
    FAST_LEAVE("vsmp_release_residue")
/*
 * The acquisition's fast path in its site entry (HOOK_SITE): the same
 * loads and stores (the clock the exit would read back included), without
 * the exit.  Past the fence no interrupt can come before the hook returns
 * (the timer is at least FENCE_MARGIN cycles away, and nothing else
 * interrupts a hook), so the clock needs no second RDTSC to restart: the
 * path's length is fixed, and adding a constant to the base
 * (site_order_delta, measured at boot: the path's cycles less the reading
 * ahead plus the residue) leaves the clock where the exit would have.  Its
 * two routes are as long: the own-release route goes through as many nops
 * as the compare it skips.  (The release's fast path in its site entry
 * the same way moved goodness's 4-CPU tbench, though no interrupt came
 * inside it and it stored what the old one stores: not understood, not
 * done; it keeps the exit.)
 */
#define FAST_LEAVE_SITE(residue, delta)                                    \
    FAST_MARK(residue)                                                     \
    "movb $0, vsmp_frozen\n\t"                                             \
    "movl " delta ", %ecx\n\t"                                             \
    "addl %ecx, %gs:" STR(PERCPU_TSC_BASE) "\n\t"                          \
    "adcl $0, %gs:" STR(PERCPU_TSC_BASE_HI) "\n\t"                         \
    "ret\n"
#define FAST_ORDER_SITE                                                    \
    FAST_ORDER_TEST("13f")                                                 \
    FAST_QUIET                                                             \
    FAST_ENTER                                                             \
    FAST_LEAVE_SITE("vsmp_order_residue", "vsmp_site_order_delta")                               \
    "13:\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tjmp 11b\n"                      \
    "10:\t"
#endif

/*
 * The patched spinlock sites call the hooks' site entries (vsmp_site_order,
 * vsmp_site_release: kernel/spinlock.c retargets the sites' calls); they
 * called spin_vsmp_order and spin_release_pv before, which tail-jumped to
 * the hooks after a frame and a test (13 and 15 instructions with gcc 12
 * -O2), one call level more on every acquisition and release.  The clock a
 * hook reads there is the time of the acquisition and of the release (the
 * order, the stamps), so the site entries read it as many cycles later as
 * those calls took (site_order_ahead, site_release_ahead: measured at boot
 * in calibrate_spinlock_hooks), and the residues, measured through the old
 * calls, take the same total off afterwards.
 *
 * One thing the longer path did besides: the hardware timer could fire
 * inside it, with the clock running, where the site entry has its clock
 * frozen already (the interrupt would be deferred to the hook's end).  So
 * a site entry whose RDTSC is past vsmp_site_fence (a timer may fire
 * within the next FENCE_MARGIN cycles: armed_at's lower bound less the
 * margin) takes the old path's length with the clock running: its first
 * instructions, a computed jump into a sled of nops as long as the rest of
 * the old path (calibrate_spinlock_hooks measures that the total is the
 * old path's, exactly), and the hook's plain entry.  The timer fires there
 * at the same local time and instruction count as in the old path.  An
 * interrupt inside the check (only possible on the fenced path: the fence
 * keeps the timer away from the other) may change the fence, so it sends
 * the check on in a copy that takes the fenced path whatever the fence
 * (irq_body, vsmp_site_checks: same instructions, same count).
 */
struct vsmp_site_check {
    uint32_t start, end, fenced;
};
extern const struct vsmp_site_check __start_vsmp_site_checks[], __stop_vsmp_site_checks[];
uint32_t site_order_ahead __asm__("vsmp_site_order_ahead");
uint32_t site_release_ahead __asm__("vsmp_site_release_ahead");
uint64_t site_fence __asm__("vsmp_site_fence") = NEVER;
uint32_t site_order_delta __asm__("vsmp_site_order_delta");
uint32_t site_order_sled __asm__("vsmp_site_order_sled"), site_release_sled __asm__("vsmp_site_release_sled");
extern const uint8_t vsmp_site_order_sled_end[], vsmp_site_release_sled_end[];
#define FENCE_MARGIN 256
#define SLED_MAX 48
#define SITE_CHECK_INSNS 7      /* before the sled: rdtsc, movl, cmpl, sbbl, jae, jmp *; after it: jmp */
#define HOOK_SITE(name, body, exit, fast, ahead, sled, plain)                 \
    ".globl " name "\n" name ":\n\t"                                       \
    "rdtsc\n"                                                              \
    "20:\tmovl %edx, %ecx\n\t"                                              \
    "cmpl vsmp_site_fence, %eax\n\t"                                       \
    "sbbl vsmp_site_fence+4, %ecx\n\t"                                     \
    "jae 12f\n"                                                            \
    "21:\tsubl %gs:" STR(PERCPU_TSC_BASE) ", %eax\n\t"                          \
    "sbbl %gs:" STR(PERCPU_TSC_BASE_HI) ", %edx\n\t"                       \
    "movb $1, vsmp_frozen\n\t"                                             \
    "addl " ahead ", %eax\n\t"                                             \
    "adcl $0, %edx\n\t"                                                    \
    fast                                                                   \
    "leal 4(%esp), %ecx\n\t"                                               \
    "call " body "\n\t"                                                    \
    MACHINE_THAW                                                           \
    "jmp " exit "\n"                                                       \
    "12:\tjmp *" sled "\n\t"                                               \
    ".fill " STR(SLED_MAX) ", 1, 0x90\n"                                   \
    sled "_end:\n\t"                                                       \
    "jmp " plain "\n"                                                      \
    "22:\tmovl %edx, %ecx\n\t"                                              \
    "cmpl vsmp_site_fence, %eax\n\t"                                       \
    "sbbl vsmp_site_fence+4, %ecx\n\t"                                     \
    "jmp 12b\n\t"                                                          \
    ".pushsection vsmp_site_checks, \"a\"\n\t"                              \
    ".balign 4\n\t"                                                        \
    ".long 20b, 21b, 22b\n\t"                                              \
    ".popsection\n"

/* Each hook: its stub and its body (below). */
__asm__(".text\n"
        HOOK("vsmp_lock_order", "lock_order_body", "hook_exit_lock", FAST_ORDER)
        HOOK("vsmp_lock_release", "lock_release_body", "hook_exit_lock", FAST_RELEASE)
        HOOK_SITE("vsmp_site_order", "lock_order_body", "hook_exit_lock", FAST_ORDER_SITE,
                  "vsmp_site_order_ahead", "vsmp_site_order_sled", "vsmp_lock_order")
        HOOK_SITE("vsmp_site_release", "lock_release_body", "hook_exit_lock", FAST_RELEASE,
                  "vsmp_site_release_ahead", "vsmp_site_release_sled", "vsmp_lock_release")
        HOOK_CLI("vsmp_lock_block", "lock_block_body")
        HOOK_CLI("vsmp_relax", "relax_body")
        HOOK_CLI("vsmp_halt", "halt_body")
        HOOK_CLI("vsmp_send_reschedule", "send_reschedule_body")
        HOOK_CLI("vsmp_timer_start", "timer_start_body")
        HOOK_CLI("vsmp_deliver_hook", "deliver_body")
        HOOK_CLI("vsmp_start_cpu_hook", "start_cpu_body")
        HOOK_CLI("vsmp_resume_new", "resume_new_body")
        HOOK_CLI("vsmp_null_hook", "null_body"));

/*
 * The interrupt stubs: the IDT's gates for VECTOR_TIMER and
 * VECTOR_VSMP_EVENT under vsmp (interrupt gates: interrupts off).  While
 * the clock is frozen (a spinlock hook, which runs with interrupts on) an
 * interrupt only takes notes (irq_frozen).  Otherwise irq_body decides: an
 * interrupt that delivers nothing is quiet (irq_residue, measured at boot,
 * takes its entry off the clock: it costs the interrupted code nothing);
 * one that delivers a tick or an IPI goes on into the kernel's own entry
 * for the vector (vectors.S), charged as on any CPU.
 */
#define IRQ_STUB(vec)                                                      \
    ".globl vsmp_irq_" #vec "\n"                                           \
    "vsmp_irq_" #vec ":\n\t"                                               \
    "pushl %eax\n\t"                                                       \
    "pushl %ecx\n\t"                                                       \
    "pushl %edx\n\t"                                                       \
    "cmpb $0, vsmp_frozen\n\t"                                             \
    "jne 6f\n\t"                                                           \
    "movb $1, vsmp_frozen\n" CLOCK_READ                                  \
    "leal 12(%esp), %ecx\n\t"                                              \
    "movl %ecx, irq_eip\n\t"                                               \
    "movl $" #vec ", %ecx\n\t"                                             \
    "call irq_body\n\t"                                                    \
    "pushl %eax\n\t" MACHINE_THAW "popl %eax\n\t"                          \
    "movl vsmp_curv, %ecx\n\t"                                             \
    "testl %eax, %eax\n\t"                                                 \
    "jne 5f\n\t"                                                           \
    "cmpl $0, vsmp_exit_count\n\t"                                         \
    "jne 1f\n\t"                                                           \
    EXIT_PLAIN("popl %edx\n\t") "popl %ecx\n\tpopl %eax\n\tiret\n"         \
    "1:\n" EXIT_ARM("popl %edx\n\t") "popl %ecx\n\tpopl %eax\n\tiret\n"    \
    "5:\n" EXIT_PLAIN("popl %edx\n\t") "popl %ecx\n\tpopl %eax\n\t"        \
    "jmp vector" #vec "\n"                                                 \
    "6:\tleal 12(%esp), %eax\n\t"                                           \
    "pushl %eax\n\t"                                                        \
    "pushl $" #vec "\n\t"                                                   \
    "call irq_frozen\n\t"                                                  \
    "addl $8, %esp\n\t"                                                    \
    "popl %edx\n\t"                                                        \
    "popl %ecx\n\t"                                                        \
    "popl %eax\n\t"                                                        \
    "iret\n"
__asm__(".text\n" IRQ_STUB(32) IRQ_STUB(35));
_Static_assert(VECTOR_TIMER == 32 && VECTOR_VSMP_EVENT == 35, "the interrupt stubs' vectors");

/*
 * The copies (docs/vsmp.md, "The copies").  kernel/pipe.c's and
 * kernel/unix_sock.c's copies are `rep movsl; movl %reg, %ecx; rep movsb`
 * (MACHINE_COPY_ASM, kernel/machine/memhooks.h, which records each in
 * vsmp_copy_sites).  Under icount QEMU runs every iteration of a `rep movs`
 * as a translation-block execution of its own and counts w + 1 and b + 1
 * instructions for w words and b bytes (the last execution finds %ecx 0:
 * QEMU turns repz_opt off under icount), so the three cost the clock
 * w + b + 3 (calibrate_copies checks it at 21 sizes).  The clock must see
 * exactly that, but QEMU need not execute it so: vsmp turns the six bytes
 * into `call vsmp_copy_<reg>; nop`, which copies the same words and bytes
 * in the same order with straight `movsl` (blocks of 64 words, then of 8),
 * the last 0-7 words and the bytes with `rep movsl` and `rep movsb`: about
 * w / 64 + w / 8 % 8 + w % 8 + b + 5 block executions a copy instead of
 * w + b + 2, and one look-up of the next block (the return).  It executes
 * X = w + b + 2 * (w / 64 + w / 8 % 8) + COPY_SHIFT + 3 instructions with
 * the call and the nop (nops fill the fixed part to COPY_SHIFT + 3: QEMU
 * generates no code for a nop), and moves the CPU's clock base on by
 * COPY_SHIFT at its first instruction and by 2 * (w / 64 + w / 8 % 8)
 * eleven instructions later, before it moves a word: the clock advances by
 * w + b + 3 across it.
 *
 * Why so early: from there on the clock reads no later than the `rep movs`
 * would have read, and at the end what they read, so an interrupt inside
 * the copy comes at a local time at which it could have come inside the
 * `rep movs` or before it, never after them.  The timer, armed on the
 * physical clock, fires early by the shift (as after any hook: the
 * dispatcher's own instructions move the base too), finds nothing due and
 * is written again (irq_body); the shift is at least COPY_SHIFT (128), so
 * that write never needs MIN_TIMER_COUNT's floor and the timer fires at
 * the local time it was armed for.  (Where the `rep movs` build's own
 * timer would have fired past its target, after a write floored at
 * MIN_TIMER_COUNT, a copy in between brings the fire to the target: a
 * difference no measured boot shows.)  An interrupt between an add to the
 * base and its adc, when the add carried, would read a base 2^32 short:
 * irq_body completes the carry (copy_carry_fix).  Not under CACHES=1 or
 * CACHES=host, whose models see the copies' accesses: their text stays
 * the plain three lines, and their images are the build's before these
 * copies.  (Tried and not kept: 16-byte SSE moves instead of movsl, the
 * same block executions and no less host time in o1's 4-CPU tbench; the
 * last words and bytes through computed jumps into rows of movsl and
 * movsb, three look-ups a copy, no less host time either: the lab
 * notebook of 2026-12-08, "vsmp's copies".)
 */
#if !defined(CACHES) && !defined(HOST_MODEL)
#define VSMP_COPIES 1
#ifndef VSMP_COPY_SHIFT
#define VSMP_COPY_SHIFT 128
#endif
#define COPY_SHIFT VSMP_COPY_SHIFT
#define COPY_PAD (COPY_SHIFT - 27)     /* X's fixed part is COPY_SHIFT + 3: 30 instructions and the pad */
#define COPY_THUNK(reg)                                                    \
    ".globl vsmp_copy_" reg "\n"                                           \
    "vsmp_copy_" reg ":\n\t"                                               \
    "addl $" STR(COPY_SHIFT) ", %gs:" STR(PERCPU_TSC_BASE) "\n"            \
    "vsmp_copy_" reg "_c1:\n\t"                                            \
    "adcl $0, %gs:" STR(PERCPU_TSC_BASE_HI) "\n\t"                         \
    "pushl %eax\n\t"                                                       \
    "pushl %edx\n\t"                                                       \
    "movl %ecx, %eax\n\t"            /* 2 * (w / 64 + w / 8 % 8) */        \
    "shrl $3, %eax\n\t"                                                    \
    "movl %eax, %edx\n\t"                                                  \
    "shrl $3, %edx\n\t"                                                    \
    "andl $7, %eax\n\t"                                                    \
    "addl %edx, %eax\n\t"                                                  \
    "addl %eax, %eax\n\t"                                                  \
    "addl %eax, %gs:" STR(PERCPU_TSC_BASE) "\n"                            \
    "vsmp_copy_" reg "_c2:\n\t"                                            \
    "adcl $0, %gs:" STR(PERCPU_TSC_BASE_HI) "\n\t"                         \
    ".fill " STR(COPY_PAD) ", 1, 0x90\n\t"                                 \
    "movl %ecx, %eax\n\t"                                                  \
    "shrl $6, %ecx\n\t"                                                    \
    "jz 2f\n"                                                              \
    "1:\t.fill 64, 1, 0xa5\n\t"      /* movsl: blocks of 64 words */       \
    "decl %ecx\n\t"                                                        \
    "jnz 1b\n"                                                             \
    "2:\tmovl %eax, %ecx\n\t"                                              \
    "shrl $3, %ecx\n\t"                                                    \
    "andl $7, %ecx\n\t"                                                    \
    "jz 4f\n"                                                              \
    "3:\t.fill 8, 1, 0xa5\n\t"       /* ... of 8 */                        \
    "decl %ecx\n\t"                                                        \
    "jnz 3b\n"                                                             \
    "4:\tandl $7, %eax\n\t"                                                \
    "movl %eax, %ecx\n\t"                                                  \
    "rep movsl\n\t"                  /* the last 0-7 words */              \
    "popl %edx\n\t"                                                        \
    "popl %eax\n\t"                                                        \
    "movl %" reg ", %ecx\n\t"                                              \
    "rep movsb\n\t"                                                        \
    "ret\n"
__asm__(".text\n" COPY_THUNK("eax") COPY_THUNK("edx") COPY_THUNK("ebx") COPY_THUNK("ebp"));
extern const uint8_t vsmp_copy_eax[], vsmp_copy_edx[], vsmp_copy_ebx[], vsmp_copy_ebp[];
extern const uint8_t vsmp_copy_eax_c1[], vsmp_copy_edx_c1[], vsmp_copy_ebx_c1[], vsmp_copy_ebp_c1[];
extern const uint8_t vsmp_copy_eax_c2[], vsmp_copy_edx_c2[], vsmp_copy_ebx_c2[], vsmp_copy_ebp_c2[];
static const uint8_t *const copy_carries[] = {
    vsmp_copy_eax_c1, vsmp_copy_edx_c1, vsmp_copy_ebx_c1, vsmp_copy_ebp_c1,
    vsmp_copy_eax_c2, vsmp_copy_edx_c2, vsmp_copy_ebx_c2, vsmp_copy_ebp_c2,
};
static uint64_t copy_carries_fixed;    /* (never seen yet: 2^-32 of the interrupts that come there) */

#endif

/* The stubs' entry points (the rest are declared in vsmp.h). */
void vsmp_null_hook(void);
void vsmp_deliver_hook(void);
void vsmp_start_cpu_hook(int cpu);
void vsmp_resume_new(void);
extern void vsmp_irq_32(void), vsmp_irq_35(void);

uint32_t vsmp_quantum_ns(void) { return quantum_ns_; }
uint32_t vsmp_ipi_ns(void) { return ipi_ns_; }
uint32_t vsmp_slack_ns(void) { return slack_ns_; }

#define BODY static __attribute__((regparm(3), used, noinline))

/*
 * The spinlock hooks' residue: what a site executes for its hook beyond the
 * unpatched site and outside the stub's frozen window (the jump to the
 * site's cold path, the call, the stub's first instructions and the exit's
 * last), measured at boot (lock and release pairs before and after each
 * patch, under icount exact) and taken off the clock, so that after the hook
 * the clock reads what it read at the site: a spinlock costs under vsmp
 * what it costs on one CPU.  irq_residue: likewise for a quiet interrupt
 * (an `int` to the stub, which delivers nothing, against a nop).
 */
uint64_t order_residue __asm__("vsmp_order_residue"), release_residue __asm__("vsmp_release_residue");
static uint64_t irq_residue;

/* -DVSMP_TEST_BURN=N: every hook and dispatch burns N more instructions,
 * a dispatcher that much slower; tests/qemu/vsmp.sh checks that the
 * figures do not move (the dispatcher's work is not the CPUs' time). */
#ifdef VSMP_TEST_BURN
#include "../chan_cost.h"
#define TEST_BURN() cost_burn(VSMP_TEST_BURN)
#else
#define TEST_BURN() ((void)0)
#endif


#ifdef CACHES
void vsmp_machine_thaw(void);
void __attribute__((used)) vsmp_machine_thaw(void) { machine_thaw(&cpus[cur]); }
#endif

/* A hook's entry: the current CPU's clock, frozen at `local`. */
static inline struct vcpu *enter(uint64_t local)
{
    TEST_BURN();
    struct vcpu *v = vsmp_curv;
#ifdef CACHES
    /* The instrumentation's debt (kernel/machine/memhooks.h) goes into the
     * base: the stub read RDTSC - base, the clock is that less the debt. */
    uint64_t base = cpus[cur].tsc_base;
    machine_fold(&cpus[cur]);
    local -= cpus[cur].tsc_base - base;
#endif
    v->local = local;
    vsmp_exit_count = 0;
    uint32_t lo, hi;
    __asm__ volatile("movl %%gs:%c2, %0\n\tmovl %%gs:%c3, %1"
                     : "=r"(lo), "=r"(hi)
                     : "i"(PERCPU_TSC_BASE), "i"(PERCPU_TSC_BASE + 4));
    phys_lb = local + (((uint64_t)hi << 32) | lo);   /* the stub's RDTSC: now or earlier */
    return v;
}


/* ---- choosing who runs: the smallest eff ---- */

static inline uint64_t eff(const struct vcpu *v)
{
    switch (v->state) {
    case VCPU_READY:
        return v->local;
    case VCPU_HALTED: {
        uint64_t e = MIN(v->next_tick, v->ipi_at);
        return e == NEVER ? NEVER : MAX(e, v->local);
    }
    default:
        return NEVER;
    }
}

/*
 * queued_eff[i]: each CPU's eff, kept when its state, clock or events
 * change (the running CPU's is NEVER).  The CPUs whose eff is not NEVER
 * are also on a list sorted by it (queue_next, queue_prev; equal effs in
 * the order they came), so that the smallest is its head and min_other is
 * the head's eff.  A dispatch puts the yielding CPU on it and takes the
 * picked one off (a tournament tree took 216 instructions a dispatch at 8
 * CPUs, and a scan of all the CPUs 170: the lab notebook of 2026-12-07).  Between dispatches an eff only comes down (requeue: a
 * waiter released, an IPI to a halted CPU, a CPU started).
 */
uint64_t queued_eff[MAX_CPUS] __asm__("vsmp_queued_eff");
int8_t queue_next[MAX_CPUS] __asm__("vsmp_queue_next"), queue_prev[MAX_CPUS] __asm__("vsmp_queue_prev");
int queue_head __asm__("vsmp_queue_head") = -1, queue_tail __asm__("vsmp_queue_tail") = -1;

/* CPU i, not on the list, goes on it at eff e (not NEVER), after its
 * equals.  Its place is looked for from the tail: a CPU that yields has
 * usually run past most of the others (o1, 8 CPUs, hackbench: 4.8 steps a
 * dispatch from the head). */
static inline void queue_insert(int i, uint64_t e)
{
    int p = queue_tail, n = -1;
    while (p >= 0 && queued_eff[p] > e) {
        n = p;
        p = queue_prev[p];
    }
    queue_prev[i] = (int8_t)p;
    queue_next[i] = (int8_t)n;
    if (p >= 0)
        queue_next[p] = (int8_t)i;
    else
        queue_head = i;
    if (n >= 0)
        queue_prev[n] = (int8_t)i;
    else
        queue_tail = i;
}

static inline void queue_remove(int i)
{
    int p = queue_prev[i], n = queue_next[i];
    if (p >= 0)
        queue_next[p] = (int8_t)n;
    else
        queue_head = n;
    if (n >= 0)
        queue_prev[n] = (int8_t)p;
    else
        queue_tail = p;
}

/* CPU i's eff is now e. */
static inline void queue_set(int i, uint64_t e)
{
    if (queued_eff[i] != NEVER)
        queue_remove(i);
    queued_eff[i] = e;
    if (e != NEVER)
        queue_insert(i, e);
}

static uint64_t stall_limit_cycles(void);
static void lock_report(int waiter, const char *why) __attribute__((noreturn));

/* A lock waiter that has waited past the stall limit (watchdog=) while the
 * rest ran on to `now`: the same report as spinlock.c's stall check.
 * Looked at on every dispatch while some CPU waits (goodness's one run-queue
 * lock has waiters nearly all the time), so the CPUs are gone through only
 * when `now` has passed waiters_ok_until: the earliest time at which a
 * waiter of the last look would pass the limit (0 after a new waiter came,
 * NEVER when there was none).  Waiting CPUs keep their wait_since, so until
 * then none of them has passed it: the same reports, at the same times. */
static uint64_t waiters_ok_until, waiters_ok_limit;
static void check_lock_waiters(uint64_t now)
{
    uint64_t limit = stall_limit_cycles();
    if (!limit || now == NEVER)
        return;
    if (now <= waiters_ok_until && limit == waiters_ok_limit)
        return;
    uint64_t ok = NEVER;
    for (int i = 0; i < nvcpus; i++)
        if (vcpus[i].state == VCPU_LOCKWAIT) {
            if (now > vcpus[i].wait_since + limit)
                lock_report(i, "limit: watchdog= seconds");
            ok = MIN(ok, vcpus[i].wait_since + limit);
        }
    waiters_ok_until = ok;
    waiters_ok_limit = limit;
}

/* The stall limit (watchdog=) in cycles, converted when it changes, not at
 * every dispatch (two 64-bit divisions on this 32-bit kernel). */
static uint64_t stall_limit_cycles(void)
{
    static uint64_t ns_seen, cycles;
    uint64_t ns = spin_stall_limit_ns();
    if (ns != ns_seen) {
        ns_seen = ns;
        cycles = ns / 1000 * tsc_khz / 1000;
    }
    return cycles;
}

/*
 * The CPU with the smallest eff (x's own included: it is on the list), on
 * a tie the first after x (x last), so that a yield goes to the others and
 * no CPU number is favoured; *rest: the smallest eff of the CPUs other
 * than the one picked (with a tie, the same eff).
 */
/* A tie at the head h: of the equals (together at the head), the first
 * after x. */
static __attribute__((noinline)) int pick_tie(int x, int h, uint64_t best)
{
    int y = h, dy = (h - x - 1 + nvcpus) % nvcpus;
    for (int n = queue_next[h]; n >= 0 && queued_eff[n] == best; n = queue_next[n]) {
        int d = (n - x - 1 + nvcpus) % nvcpus;
        if (d < dy)
            y = n, dy = d;
    }
    return y;
}

static inline int pick(int x, uint64_t *rest)
{
    int h = queue_head;
    uint64_t best = h >= 0 ? queued_eff[h] : NEVER;
    if (lock_waiters)
        check_lock_waiters(best);
    if (h < 0) {
        for (int i = 0; i < nvcpus; i++)
            if (vcpus[i].state == VCPU_LOCKWAIT)
                lock_report(i, "every logical cpu waits for a spinlock: nothing can release one");
        panic("vsmp: no logical cpu can run");
    }
    int n = queue_next[h];
    if (n < 0 || queued_eff[n] != best) {
        *rest = n < 0 ? NEVER : queued_eff[n];
        return h;
    }
    *rest = best;
    return pick_tie(x, h, best);
}

static inline void set_min_other(uint64_t m)
{
    min_other = m;
    order_limit = m + slack < m ? NEVER : m + slack;   /* (NEVER + 0 is NEVER) */
    quantum_end = m == NEVER ? NEVER : m + quantum + 1;
}

static inline void refresh_deadline(const struct vcpu *v);

/* After vcpus[i]'s state, clock or events changed (i not running). */
static inline void requeue(int i)
{
    uint64_t e = eff(&vcpus[i]);
    if (e == queued_eff[i])
        return;
    if (e > queued_eff[i])
        panic("vsmp: cpu %d's time went up while it did not run", i);   /* min_other would have to be found again */
    queue_set(i, e);
    if (e < min_other) {
        set_min_other(e);
        refresh_deadline(vsmp_curv);
    }
}

/* ---- events and the timer ---- */

bool in_lock_hook __asm__("vsmp_in_lock_hook");   /* the current context is a spinlock hook (interrupts may be on) */
bool switch_irqs_on __asm__("vsmp_switch_irqs_on");   /* the switching context had interrupts on (reschedule) */

static void lapic_self(int vector) { *vsmp_icr_lo_reg = 0x40000u | (uint32_t)vector; }

/* An event of the current CPU is due: interrupt it (a self-IPI, taken
 * when it has interrupts on; the event's interrupt delivers what is due).
 * In a spinlock hook it is sent when the hook ends (hook_exit_lock). */
static void raise_event(void)
{
    if (event_sent)
        return;
    event_sent = true;
    event_irqs++;
    if (in_lock_hook)
        vsmp_deferred |= DEFER_EVENT;
    else
        lapic_self(VECTOR_VSMP_EVENT);
}

/* What came in while a spinlock hook ran, as one self-interrupt: its
 * handler delivers a raised event, or finds nothing and arms the timer. */
static void redeliver(void)
{
    if (vsmp_deferred) {
        vsmp_deferred = 0;
        lapic_self(VECTOR_VSMP_EVENT);
    }
}

/*
 * The current CPU's next deadline: its tick, a pending IPI, or the end of
 * its quantum, whichever comes first.  Every hook compares the CPU's clock
 * with it (hook_check): a CPU that calls hooks (takes locks) sees a due
 * event at its next hook and takes it as a self-interrupt.  The one
 * hardware timer is then only the backstop, BACKSTOP_QUANTA quanta late,
 * for a CPU that stops calling hooks; one the timer caught running a
 * quantum without a hook is armed exactly from then on (irq_body).
 *
 * Why not the timer for every deadline: a CPU yields at its next lock long
 * before its deadline, so nearly every timer armed for it fires while
 * another runs, for nothing; each fire and each write of the timer is a
 * QEMU timer update (a vCPU kick, an event-loop wake-up).  docs/vsmp.md,
 * "What the dispatcher costs", has the counts.  The price is lateness: a
 * due event waits for the next hook (vsmpstat event_late_ns_avg).
 *
 * hw_due(): the local time at which the timer delivers to this CPU (the
 * backstop, or the exact deadline); the timer is written by the hook's exit
 * when the one armed would fire later than that (an earlier one fires, finds
 * nothing due, and arms again), so it never fires late.  Called at the end
 * of every hook, with the clock the CPU goes on from.  What hw_due() needs
 * is kept (hw_local, hw_cycles) and it is worked out only when a timer
 * interrupt asks: most dispatches arm nothing, and the interrupts are few.
 */
uint64_t hw_local __asm__("vsmp_hw_local");   /* the clock arm_timer() worked from */
uint32_t hw_cycles __asm__("vsmp_hw_cycles");   /* ... and the cycles from it to the timer's target; 0: none (NEVER) */

/* The count that makes the timer fire `cycles` on, and at least
 * MIN_TIMER_COUNT: QEMU takes the interrupt at a translation block's
 * boundary, so a count shorter than the exit's own tail fired before the
 * interrupted code ran an instruction, found nothing due (the clock had
 * not moved) and armed the same count again, for ever (cfs, vsmp=2
 * bench=wakeup seconds=1: a quiet-interrupt loop at a hook's popf).  With
 * the floor the code runs on at least that far first; a deadline that
 * close is delivered up to that many cycles late. */
static inline int64_t timer_count(uint32_t cycles)
{
    int64_t count = (int64_t)cycles - timer_fire_err;
    return count < MIN_TIMER_COUNT ? MIN_TIMER_COUNT : count;
}

/* The due time is the target itself, not where a floored count makes the
 * timer fire: with the memory model (CACHES=1) the physical clock runs ahead
 * of the local one by the model's own work, the timer fires before the local
 * clock reaches local + count, and a due time past the target made each
 * quiet re-arm push it on again (o1, vsmp=1, hackbench: ticks up to 94 us
 * late, 230,672 timer interrupts; docs/caches.md "Exactness").  Without the
 * model the same happens only where the dispatcher's frozen time ran on the
 * physical clock since the write, and moves a tick by less than
 * MIN_TIMER_COUNT cycles (o1 vsmp=2 bench=wakeup seconds=1: the same result
 * line, a CPU's busy_us 9 us of 1.14 s off).  (timer_count(c) + the error is
 * never below c, so the due time is never later than the fire either.) */
static inline uint64_t hw_due(void)
{
    return hw_cycles ? hw_local + hw_cycles : NEVER;
}

#ifdef CACHES
/*
 * The timer in the time of a machine whose memory model costs nothing.
 * The model's own work (memhooks.c, memhook_model_cycles) runs on the
 * physical clock, on which the timer counts, so the timer fires early, at
 * a point of the kernel's code that depends on how long the model took;
 * the quiet re-arms from there chase the deadline, and where the chase
 * ends moved boots' figures with the model's speed (the burn control,
 * docs/caches.md "Exactness").  So the time the timer should count is K:
 * physical cycles less the model's work and less the interrupts that only
 * that work brought (fq_total).  arm_timer's writes aim at a point of K
 * (k_target, from the exit's vsmp_armed_at less what K had not counted at
 * the write); a fire before it is written again for what is left of K
 * (model_early), with no other change, so that the fire that counts comes
 * where it would without the model's work, whatever that costs.
 * Constants: the fire that arrives on time reads k_target - k_now() =
 * k_on_time, measured at boot (the calibration fire, no model work); an
 * early interrupt's own span outside K is its exit's RDTSC less phys_lb,
 * plus what phys_lb leaves out (irq_residue: the entry before the stub's
 * RDTSC and the iret's tail) and the EXIT_ARM_AFTER instructions after
 * its RDTSC, less the entry again: EXIT_ARM_AFTER.  Checked with a
 * model that burns 300 more instructions a call (-DMEMHOOK_TEST_BURN):
 * o1's 1-CPU hackbench delivers its first tick at the same local time
 * after 35 early interrupts and after 30, and every one-CPU boot of the
 * control takes the same trajectory (docs/caches.md, "Exactness").
 */
extern uint64_t memhook_model_cycles;
static uint64_t fq_total;           /* the physical cycles of the interrupts the model's work brought early */
static uint64_t k_target;           /* where the armed timer fires, in K (when k_valid) */
static bool k_valid, k_open;        /* k_open: arm_timer wrote: k_target from the exit's vsmp_armed_at less k_mark */
static uint64_t k_mark;
static bool fq_open;                /* an early fire's re-arm: its span from its exit's vsmp_armed_at */
static uint64_t fq_from, fq_count;
static int64_t k_on_time;           /* k_target - k_now() of a fire on time (measured at boot) */
static uint64_t model_early_irqs, stall_fires;

static inline void k_resolve(void)
{
    if (k_open) {
        k_target = vsmp_armed_at - k_mark;
        k_valid = vsmp_armed_at != NEVER;
        k_open = false;
    }
    if (fq_open) {
        fq_total += (vsmp_armed_at - fq_count) - fq_from + EXIT_ARM_AFTER;
        fq_open = false;
    }
}

static inline uint64_t k_now(void) { return phys_lb - memhook_model_cycles - fq_total; }

/* The memory model stalled the current CPU by `cycles`; its clock is now
 * `local` (memhooks.c, inside the model's TSC reads, interrupts off).
 * The stall is not code that ran without hooks, so it does not count
 * towards the quantum that makes a CPU hookless (irq_body, deliver_body):
 * without that, a copy's misses (tbench: tens of microseconds in one call)
 * made CPUs hookless that call hooks as often as without the model.  And
 * where the stall carries the clock past the timer's target, the timer
 * fires now (its interrupt is taken when interrupts are on again): K
 * leaves stalls out, so it would reach the target later, and the model's
 * slow calls are points of the kernel's code that its cost does not move. */
void vsmp_machine_stalled(uint32_t cycles, uint64_t local)
{
    vsmp_curv->ran_from += cycles;
    if (hw_cycles && vsmp_armed_at != NEVER && local >= hw_due()) {
        k_resolve();
        *vsmp_timer_init_reg = 1;
        vsmp_armed_at = 0;          /* not NEVER (armed, and firing) and not ahead of phys_lb (not stale) */
        k_valid = false;
        stall_fires++;
    }
}
#endif

/* The current CPU's deadline, kept whenever its events or min_other change
 * (the hooks compare its clock with it, and arm() works from it). */
static inline void refresh_deadline(const struct vcpu *v)
{
    uint64_t ev = MIN(v->next_tick, v->ipi_at);
    deadline = MIN(ev, quantum_end);
    arm_dirty = true;
}

/* The exit arms the timer for `count` cycles after its RDTSC, which is
 * after phys_lb: no site entry may freeze its clock from FENCE_MARGIN
 * cycles before that on (HOOK_SITE). */
static __attribute__((noinline)) void set_site_fence(uint32_t count)
{
    uint64_t at = phys_lb + count;
    site_fence = at > FENCE_MARGIN ? at - FENCE_MARGIN : 0;
}

static inline __attribute__((always_inline)) void arm_timer(struct vcpu *v, bool may_raise)
{
    arm_dirty = false;
    uint64_t local = v->local;
    if (deadline == NEVER) {
        hw_cycles = 0;
        return;
    }
    if (deadline <= local && may_raise) {
        raise_event();              /* due already (a halted CPU woken for it) */
        hw_cycles = 0;              /* its interrupt delivers it and arms again */
        return;
    }
    /* (A quiet interrupt raises nothing: where it comes is the host's
     * doing.  What is due waits for the next hook, or the timer.) */
    uint64_t target = deadline + (v->hookless ? 0 : backstop);   /* the hooks see the deadline first */
    uint32_t cycles = target <= local ? 1 : target - local > 0xfffffff0u ? 0xfffffff0u : (uint32_t)(target - local);
    hw_local = local;
    hw_cycles = cycles;
    /* (vsmp_armed_at is the exit's RDTSC plus the count; the write comes
     * a few instructions later, so the timer fires a little after it.)
     * Armed early enough, it stays: it fires first (or has fired: the
     * interrupt is pending), finds nothing due and is written again.
     * Unless it would fire before half of this CPU's way: then it is
     * written later now, a timer write instead of an interrupt that
     * delivers nothing (each timer expiry costs QEMU a wake-up of its main
     * loop; a write is cheaper).  A timer armed for one CPU's backstop
     * mostly fires while another runs: o1, 8 CPUs, hackbench, 10,610 timer
     * interrupts a boot without this.  Only for a far target (PUSH_MIN):
     * the write then never needs the floor of timer_count, and the timer
     * fires exactly at the target, as the early one's rewrite would.
     * Under CACHES the test is in K (the model's work left out) and the
     * push is not applied. */
#ifdef CACHES
    k_resolve();
    if (vsmp_armed_at != NEVER &&
        (k_valid ? k_target + 32 <= k_now() + cycles : vsmp_armed_at + 32 <= phys_lb + cycles))
        return;                     /* it fires first, in K (the model's work left out) */
#else
    if (vsmp_armed_at != NEVER && vsmp_armed_at + 32 <= phys_lb + cycles &&
        (cycles < PUSH_MIN || vsmp_armed_at + 32 + cycles / 2 >= phys_lb + cycles))
        return;
#endif
    hw_timer_arms++;
    vsmp_exit_count = (uint32_t)timer_count(cycles);
    set_site_fence(vsmp_exit_count);
#ifdef CACHES
    k_mark = memhook_model_cycles + fq_total;
    k_open = true;
#endif
}

/* The end of every hook: usually nothing changed since the last time, the
 * deadline is still ahead and the timer is armed for it. */
static inline __attribute__((always_inline)) void arm(struct vcpu *v)
{
    if (likely(!arm_dirty && vsmp_armed_at != NEVER && v->local < deadline)) {
        return;
    }
    arm_timer(v, true);
}

/* Every hook, clock frozen: an event or quantum end that is due is seen
 * here, in the CPU's own time; the timer, for a CPU that calls hooks, is
 * only the backstop. */
static void reschedule(struct vcpu *v);
static bool end_quantum(struct vcpu *v)
{
    if (min_other == NEVER || v->local <= min_other + quantum)
        return false;
    v->stats.quantum_yields++;
    v->state = VCPU_READY;
    reschedule(v);
    return true;
}

static inline void hook_check(struct vcpu *v)
{
    v->hooked = true;
    if (v->local >= deadline && !end_quantum(v) && v->local >= MIN(v->next_tick, v->ipi_at))
        raise_event();
}

/* ---- the switch ---- */

/* A context the physical CPU goes on in after a switch: its interrupts as
 * they were (a spinlock hook's, the only context that has them on here,
 * defers any until its end), and what was deferred held in the LAPIC until
 * it turns them on, unless it is a spinlock hook, whose exit sends it.
 * Interrupts are turned back on by the caller, after its last dispatcher
 * work (reschedule). */
static void after_switch(bool irqs_on, bool hook)
{
    if (!irqs_on)
        irq_disable();
    in_lock_hook = hook;
    if (!hook)
        redeliver();
}

/*
 * The switch from the current CPU x (clock frozen, not on the list) to y
 * (y != x, just taken off the list at eff e; rest: the smallest eff of
 * the others now).  Returns when x runs again, its local time moved on to
 * when it could run (its event, or a release).
 */
/* y, just taken off the list at eff e, runs (rest: the smallest eff of
 * the others now). */
static inline __attribute__((always_inline)) struct vcpu *dispatch(int y, uint64_t e, uint64_t rest)
{
    struct vcpu *w = &vcpus[y];
    if (e > w->local)
        w->local = e;               /* a halted CPU sleeps until its event */
    w->state = VCPU_RUNNING;
    w->ran_from = w->local;
    w->hooked = false;
    w->stats.dispatches++;
    set_min_other(rest);
    return w;
}

static inline __attribute__((always_inline)) void switch_to(struct vcpu *v, int y, uint64_t e, uint64_t rest)
{
    struct vcpu *w = dispatch(y, e, rest);
    /* Interrupts stay as they are across the switch (on only in a spinlock
     * hook, where an interrupt only takes notes), and x gets back its own
     * state of them and of in_lock_hook afterwards: an sti is paid only
     * where the context that switched to x had them off. */
    bool on = (read_eflags() & EFLAGS_IF) != 0, hook = in_lock_hook;
    switch_irqs_on = on;
    cur = y;
    vsmp_curv = w;
    vsmp_switch(&v->saved_esp, w->saved_esp, gs_selector[y]);
    /* x again: whoever dispatched us set cur, state, local and min_other. */
    refresh_deadline(v);
    after_switch(on, hook);
    if (on && !switch_irqs_on)
        irq_enable();
}

/*
 * The current CPU x (clock frozen, its state set by the caller: ready,
 * halted or waiting for a lock) gives the physical CPU to the CPU with the
 * smallest time, which may be x itself.  Returns when x runs again, its
 * local time moved on to when it could run (its event, or a release).
 */
static void reschedule(struct vcpu *v)
{
    int x = cur;
    TEST_BURN();
    uint64_t ex = eff(v);
    queued_eff[x] = ex;             /* x ran: it is not on the list */
    if (ex != NEVER)
        queue_insert(x, ex);
    uint64_t rest;
    int y = pick(x, &rest);
    uint64_t e = queued_eff[y];
    queue_remove(y);                /* it was on the list: its eff was the smallest */
    queued_eff[y] = NEVER;
    if (y == x) {
        dispatch(y, e, rest);
        refresh_deadline(v);
        return;
    }
    switch_to(v, y, e, rest);
}

/*
 * reschedule() for the usual dispatch, an acquisition's order yield: x is
 * ready at its local time, past order_limit, so the head of the list (some
 * CPU behind it, min_other) is not x and x goes on the list behind it; the
 * same pick, the same switch, fewer steps (o1, 8 CPUs, hackbench: 3.0 M of
 * the 3.1 M dispatches).
 */
static inline __attribute__((always_inline)) void order_yield(struct vcpu *v)
{
    int x = cur;
    TEST_BURN();
    v->stats.order_yields++;
    v->state = VCPU_READY;
    uint64_t ex = v->local;
    queued_eff[x] = ex;
    queue_insert(x, ex);
    int y = queue_head;
    uint64_t e = queued_eff[y];
    if (unlikely(lock_waiters))
        check_lock_waiters(e);
    int n = queue_next[y];          /* (x is behind y: n >= 0) */
    uint64_t rest = queued_eff[n];
    if (unlikely(rest == e)) {
        y = pick_tie(x, y, e);
        queue_remove(y);
    } else {
        queue_head = n;             /* queue_remove(y), y the head */
        queue_prev[n] = -1;
    }
    queued_eff[y] = NEVER;
    switch_to(v, y, e, rest);
}

/* ---- the hook bodies ---- */

/* How late ticks and IPIs reach their CPU: the hooks see a due event at
 * the CPU's next hook, the backstop timer later still, and a CPU with
 * interrupts off takes it when it turns them on (as a machine would). */
static uint64_t events_delivered, lateness_sum, lateness_max;
static void count_lateness(uint64_t now, uint64_t due)
{
    uint64_t late = now > due ? now - due : 0;
    events_delivered++;
    lateness_sum += late;
    lateness_max = MAX(lateness_max, late);
}

/* The current CPU waited for a lock from its local time until `until`. */
static inline void charge_lock_wait(int cpu, struct vcpu *v, uint64_t until)
{
    if (until > v->local) {
        cpus[cpu].stats.lock_wait_cycles += until - v->local;
        cpus[cpu].stats.lock_waits++;
        v->local = until;
        arm_dirty = true;           /* (for a waiter other than cur, its dispatch sets it anyway) */
    }
}

/* Before an acquisition attempt: wait until no other CPU is behind us (so
 * that acquisitions happen in time order), and if the lock was released
 * after our time, our attempt came while it was held: wait until then. */
static inline __attribute__((always_inline)) void lock_order_finish(struct vcpu *v, struct spinlock *lock)
{
    for (;;) {
        if (lock->vsmp_release_cpu != cur)   /* our own release is in our past */
            charge_lock_wait(cur, v, lock->vsmp_release);
        if (v->local <= order_limit)
            break;
        order_yield(v);
    }
    hook_check(v);
    v->local -= order_residue;
    arm(v);
    in_lock_hook = false;
}

BODY void lock_order_body(uint64_t local, const uint32_t *args)
{
    struct spinlock *lock = (struct spinlock *)(uintptr_t)args[0];
    in_lock_hook = true;
    struct vcpu *v = enter(local);
    lock_order_finish(v, lock);
}

#if !defined(VSMP_TEST_BURN) && !defined(CACHES)
/* lock_order_body after vsmp_order_yield_fast's switch: the current CPU
 * runs again (its deadline refreshed, its interrupts as they were), and
 * goes on from the loop's top as lock_order_body does after order_yield. */
BODY void lock_order_resume(uint64_t unused, const uint32_t *args)
{
    (void)unused;
    lock_order_finish(vsmp_curv, (struct spinlock *)(uintptr_t)args[0]);
}

/* lock_order_finish after its loop, for vsmp_order_yield_fast: an event
 * or a quantum's end is due. */
BODY void lock_order_tail(void)
{
    struct vcpu *v = vsmp_curv;
    hook_check(v);
    v->local -= order_residue;
    arm(v);
    in_lock_hook = false;
}

/* order_yield's tie at the head, for vsmp_order_yield_fast (x is on the
 * list, ready, the waiters checked): pick_tie's pick, the switch, and
 * lock_order_finish. */
BODY void lock_order_tie(uint64_t unused, const uint32_t *args)
{
    (void)unused;
    struct vcpu *v = vsmp_curv;
    int h = queue_head;
    uint64_t e = queued_eff[h];
    int y = pick_tie(cur, h, e);
    queue_remove(y);
    queued_eff[y] = NEVER;
    switch_to(v, y, e, e);
    lock_order_finish(v, (struct spinlock *)(uintptr_t)args[0]);
}

/* arm_timer's write, for vsmp_order_yield_fast (cycles in %eax). */
BODY void arm_timer_write(uint32_t cycles)
{
    hw_timer_arms++;
    vsmp_exit_count = (uint32_t)timer_count(cycles);
    set_site_fence(vsmp_exit_count);
}

/* check_lock_waiters for vsmp_order_yield_fast (now in %eax:%edx). */
BODY void lock_waiters_check(uint64_t now)
{
    check_lock_waiters(now);
}

/*
 * The order yield in assembly, from the stubs' fast order test (the last
 * release in our past, local > order_limit): what lock_order_body does
 * up to and including order_yield's switch, and after it what switch_to
 * does for the CPU that runs again (refresh_deadline, its interrupts);
 * the rest is lock_order_resume's.  The same loads and stores in the same
 * order where an interrupt could see them (none can: the clock is frozen,
 * an interrupt only takes notes), so every figure is the C path's; only
 * the dispatcher's own instructions are fewer (o1, 8 CPUs, hackbench: 3.0
 * M of the 3.1 M dispatches come this way).  A tie at the head goes on
 * in lock_order_tie (pick_tie).
 * In: %eax:%edx the local time, 4(%esp) the lock, the clock frozen.
 */
#define VCPU_SAVED_ESP 8
#define VCPU_STATE 12
#define VCPU_NEXT_TICK 16
#define VCPU_IPI_AT 24
#define VCPU_DISPATCHES 56
#define VCPU_ORDER_YIELDS 64
#define VCPU_HOOKLESS 53
_Static_assert(offsetof(struct vcpu, hookless) == VCPU_HOOKLESS, "VCPU_HOOKLESS");
_Static_assert(offsetof(struct vcpu, saved_esp) == VCPU_SAVED_ESP, "VCPU_SAVED_ESP");
_Static_assert(offsetof(struct vcpu, state) == VCPU_STATE, "VCPU_STATE");
_Static_assert(offsetof(struct vcpu, next_tick) == VCPU_NEXT_TICK, "VCPU_NEXT_TICK");
_Static_assert(offsetof(struct vcpu, ipi_at) == VCPU_IPI_AT, "VCPU_IPI_AT");
_Static_assert(offsetof(struct vcpu, stats.dispatches) == VCPU_DISPATCHES, "VCPU_DISPATCHES");
_Static_assert(offsetof(struct vcpu, stats.order_yields) == VCPU_ORDER_YIELDS, "VCPU_ORDER_YIELDS");
_Static_assert(VCPU_BYTES == 128, "vsmp_order_yield_fast: vcpus[i] at i << 7");
_Static_assert(VCPU_READY == 2 && VCPU_RUNNING == 1, "vsmp_order_yield_fast's states");
_Static_assert(sizeof(bool) == 1 && sizeof(queue_next[0]) == 1, "vsmp_order_yield_fast's byte stores");
__asm__(".text\n"
        "vsmp_order_yield_fast:\n\t"
        "pushl %ebx\n\t"
        "pushl %esi\n\t"
        "pushl %edi\n\t"
        "pushl %ebp\n\t"
        /* enter(): v->local, no timer write, phys_lb; in_lock_hook. */
        "movl vsmp_curv, %ebp\n\t"
        "movl %eax, (%ebp)\n\t"
        "movl %edx, 4(%ebp)\n\t"
        "movl $0, vsmp_exit_count\n\t"
        "movl %gs:" STR(PERCPU_TSC_BASE) ", %ecx\n\t"
        "addl %eax, %ecx\n\t"
        "movl %ecx, vsmp_phys_lb\n\t"
        "movl %gs:" STR(PERCPU_TSC_BASE_HI) ", %ecx\n\t"
        "adcl %edx, %ecx\n\t"
        "movl %ecx, vsmp_phys_lb+4\n\t"
        "movb $1, vsmp_in_lock_hook\n\t"
        /* order_yield: x ready at local, on the list from the tail. */
        "addl $1, " STR(VCPU_ORDER_YIELDS) "(%ebp)\n\t"
        "adcl $0, " STR(VCPU_ORDER_YIELDS) "+4(%ebp)\n\t"
        "movl $2, " STR(VCPU_STATE) "(%ebp)\n\t"
        "movl vsmp_cur, %ebx\n\t"
        "movl %eax, vsmp_queued_eff(,%ebx,8)\n\t"
        "movl %edx, vsmp_queued_eff+4(,%ebx,8)\n\t"
        "movl vsmp_queue_tail, %ecx\n\t"          /* p */
        "movl $-1, %edi\n"                          /* n */
        "2:\ttestl %ecx, %ecx\n\t"
        "js 3f\n\t"
        "cmpl vsmp_queued_eff(,%ecx,8), %eax\n\t"
        "movl %edx, %esi\n\t"
        "sbbl vsmp_queued_eff+4(,%ecx,8), %esi\n\t"
        "jae 3f\n\t"                               /* eff[p] <= local: after it */
        "movl %ecx, %edi\n\t"
        "movsbl vsmp_queue_prev(%ecx), %ecx\n\t"
        "jmp 2b\n"
        "3:\tmovb %cl, vsmp_queue_prev(%ebx)\n\t"
        "movl %edi, %eax\n\t"
        "movb %al, vsmp_queue_next(%ebx)\n\t"
        "testl %ecx, %ecx\n\t"
        "js 4f\n\t"
        "movb %bl, vsmp_queue_next(%ecx)\n\t"
        "jmp 5f\n"
        "4:\tmovl %ebx, vsmp_queue_head\n"
        "5:\ttestl %edi, %edi\n\t"
        "js 6f\n\t"
        "movb %bl, vsmp_queue_prev(%edi)\n\t"
        "jmp 7f\n"
        "6:\tmovl %ebx, vsmp_queue_tail\n"
        /* y, the head: its eff e; the waiters' stall check at e. */
        "7:\tcmpl $0, vsmp_lock_waiters\n\t"
        "je 8f\n\t"
        "movl vsmp_queue_head, %ecx\n\t"
        "movl vsmp_queued_eff(,%ecx,8), %eax\n\t"
        "movl vsmp_queued_eff+4(,%ecx,8), %edx\n\t"
        "call lock_waiters_check\n"
        "8:\tmovl vsmp_queue_head, %edi\n\t"       /* y */
        "movsbl vsmp_queue_next(%edi), %ecx\n\t"   /* n (x is behind y) */
        "movl vsmp_queued_eff(,%ecx,8), %eax\n\t"  /* a tie (rest == e): lock_order_tie */
        "cmpl vsmp_queued_eff(,%edi,8), %eax\n\t"
        "jne 24f\n\t"
        "movl vsmp_queued_eff+4(,%ecx,8), %eax\n\t"
        "cmpl vsmp_queued_eff+4(,%edi,8), %eax\n\t"
        "je 86f\n"
        "24:\tmovl %ecx, vsmp_queue_head\n\t"
        "movb $-1, vsmp_queue_prev(%ecx)\n\t"
        /* dispatch(y, e, rest): w's clock, state, stats; set_min_other(rest). */
        "movl %edi, %esi\n\t"
        "shll $7, %esi\n\t"
        "addl $vsmp_vcpus, %esi\n\t"               /* w */
        "movl vsmp_queued_eff(,%edi,8), %eax\n\t"
        "movl vsmp_queued_eff+4(,%edi,8), %edx\n\t"
        "movl $-1, vsmp_queued_eff(,%edi,8)\n\t"
        "movl $-1, vsmp_queued_eff+4(,%edi,8)\n\t"
        "cmpl (%esi), %eax\n\t"
        "movl %edx, %ebx\n\t"
        "sbbl 4(%esi), %ebx\n\t"
        "cmovbl (%esi), %eax\n\t"                  /* e < w->local: it goes on from its own */
        "cmovbl 4(%esi), %edx\n\t"
        "movl %eax, (%esi)\n\t"
        "movl %edx, 4(%esi)\n\t"
        "movl $1, " STR(VCPU_STATE) "(%esi)\n\t"
        "movl %eax, " STR(VCPU_RAN_FROM) "(%esi)\n\t"
        "movl %edx, " STR(VCPU_RAN_FROM) "+4(%esi)\n\t"
        "movb $0, " STR(VCPU_HOOKED) "(%esi)\n\t"
        "addl $1, " STR(VCPU_DISPATCHES) "(%esi)\n\t"
        "adcl $0, " STR(VCPU_DISPATCHES) "+4(%esi)\n\t"
        "movl vsmp_queued_eff(,%ecx,8), %eax\n\t"  /* rest = eff[n], not NEVER */
        "movl vsmp_queued_eff+4(,%ecx,8), %edx\n\t"
        "movl %eax, vsmp_min_other\n\t"
        "movl %edx, vsmp_min_other+4\n\t"
        "movl %eax, %ebx\n\t"
        "movl %edx, %ecx\n\t"
        "addl vsmp_slack, %ebx\n\t"
        "adcl vsmp_slack+4, %ecx\n\t"
        "jnc 11f\n\t"
        "movl $-1, %ebx\n\t"
        "movl $-1, %ecx\n"
        "11:\tmovl %ebx, vsmp_order_limit\n\t"
        "movl %ecx, vsmp_order_limit+4\n\t"
        "addl vsmp_quantum, %eax\n\t"
        "adcl vsmp_quantum+4, %edx\n\t"
        "addl $1, %eax\n\t"
        "adcl $0, %edx\n\t"
        "movl %eax, vsmp_quantum_end\n\t"
        "movl %edx, vsmp_quantum_end+4\n\t"
        /* switch_to: x's interrupts kept for afterwards, y runs. */
        "pushfl\n\t"
        "popl %ecx\n\t"
        "shrl $9, %ecx\n\t"
        "andl $1, %ecx\n\t"
        "movb %cl, vsmp_switch_irqs_on\n\t"
        "pushl %ecx\n\t"
        "movl %edi, vsmp_cur\n\t"
        "movl %esi, vsmp_curv\n\t"
        "leal " STR(VCPU_SAVED_ESP) "(%ebp), %eax\n\t"
        "movl " STR(VCPU_SAVED_ESP) "(%esi), %edx\n\t"
        "movzwl vsmp_gs_selector(%edi,%edi), %ecx\n\t"
        "call vsmp_switch\n\t"
        /* x again (%ebp): refresh_deadline, after_switch(on, hook). */
        "movl " STR(VCPU_NEXT_TICK) "(%ebp), %eax\n\t"
        "movl " STR(VCPU_NEXT_TICK) "+4(%ebp), %edx\n\t"
        "movl " STR(VCPU_IPI_AT) "(%ebp), %esi\n\t"
        "movl " STR(VCPU_IPI_AT) "+4(%ebp), %edi\n\t"
        "cmpl %esi, %eax\n\t"
        "movl %edx, %ecx\n\t"
        "sbbl %edi, %ecx\n\t"
        "cmovael %esi, %eax\n\t"
        "cmovael %edi, %edx\n\t"
        "movl vsmp_quantum_end, %esi\n\t"
        "movl vsmp_quantum_end+4, %edi\n\t"
        "cmpl %esi, %eax\n\t"
        "movl %edx, %ecx\n\t"
        "sbbl %edi, %ecx\n\t"
        "cmovael %esi, %eax\n\t"
        "cmovael %edi, %edx\n\t"
        "movl %eax, vsmp_deadline\n\t"
        "movl %edx, vsmp_deadline+4\n\t"
        "movb $1, vsmp_arm_dirty\n\t"
        "popl %ecx\n\t"
        "testl %ecx, %ecx\n\t"
        "jne 14f\n\t"
        "cli\n\t"
        "movb $1, vsmp_in_lock_hook\n\t"
        "jmp 15f\n"
        "14:\tmovb $1, vsmp_in_lock_hook\n\t"
        "cmpb $0, vsmp_switch_irqs_on\n\t"
        "jne 15f\n\t"
        "sti\n"
        /* lock_order_finish's loop again: a lock wait to charge, or a
         * CPU behind us still, goes on in lock_order_resume. */
        "15:\tmovl 20(%esp), %ecx\n\t"
        "movl (%ebp), %eax\n\t"
        "movl 4(%ebp), %edx\n\t"
        "movsbl " STR(LOCK_RELEASE_CPU) "(%ecx), %ebx\n\t"
        "cmpl vsmp_cur, %ebx\n\t"
        "je 16f\n\t"
        "cmpl " STR(LOCK_RELEASE) "(%ecx), %eax\n\t"
        "movl %edx, %ebx\n\t"
        "sbbl " STR(LOCK_RELEASE) "+4(%ecx), %ebx\n\t"
        "jb 88f\n"
        "16:\tmovl vsmp_order_limit, %ecx\n\t"
        "cmpl %eax, %ecx\n\t"
        "movl vsmp_order_limit+4, %ecx\n\t"
        "sbbl %edx, %ecx\n\t"
        "jb 88f\n\t"
        /* hook_check: something due goes on in lock_order_tail. */
        "cmpl vsmp_deadline, %eax\n\t"
        "movl %edx, %ecx\n\t"
        "sbbl vsmp_deadline+4, %ecx\n\t"
        "jae 87f\n\t"
        "movb $1, " STR(VCPU_HOOKED) "(%ebp)\n\t"
        "subl vsmp_order_residue, %eax\n\t"
        "sbbl vsmp_order_residue+4, %edx\n\t"
        "movl %eax, (%ebp)\n\t"
        "movl %edx, 4(%ebp)\n\t"
        /* arm() (arm_dirty is set): arm_timer(v, true), local < deadline;
         * a write goes to arm_timer_write. */
        "movb $0, vsmp_arm_dirty\n\t"
        "movl vsmp_deadline, %esi\n\t"
        "movl vsmp_deadline+4, %edi\n\t"
        "movl %esi, %ecx\n\t"
        "andl %edi, %ecx\n\t"
        "incl %ecx\n\t"
        "je 17f\n\t"                               /* deadline NEVER: hw_cycles 0 */
        "cmpb $0, " STR(VCPU_HOOKLESS) "(%ebp)\n\t"
        "jne 18f\n\t"
        "addl vsmp_backstop, %esi\n\t"
        "adcl vsmp_backstop+4, %edi\n"
        "18:\tsubl %eax, %esi\n\t"                /* target - local */
        "sbbl %edx, %edi\n\t"
        "jb 19f\n\t"                               /* target < local: 1 */
        "movl $0xfffffff0, %ecx\n\t"
        "testl %edi, %edi\n\t"
        "cmovnel %ecx, %esi\n\t"
        "cmpl %ecx, %esi\n\t"
        "cmoval %ecx, %esi\n\t"
        "movl $1, %ecx\n\t"
        "testl %esi, %esi\n\t"
        "cmovel %ecx, %esi\n"                       /* target == local: 1 */
        "21:\tmovl %eax, vsmp_hw_local\n\t"       /* cycles in %esi */
        "movl %edx, vsmp_hw_local+4\n\t"
        "movl %esi, vsmp_hw_cycles\n\t"
        "movl vsmp_armed_at, %eax\n\t"
        "movl vsmp_armed_at+4, %edx\n\t"
        "movl %eax, %ecx\n\t"
        "andl %edx, %ecx\n\t"
        "incl %ecx\n\t"
        "je 22f\n\t"                               /* not armed: write */
        "addl $32, %eax\n\t"                       /* armed_at + 32 */
        "adcl $0, %edx\n\t"
        "movl vsmp_phys_lb, %ebx\n\t"              /* phys_lb + cycles */
        "movl vsmp_phys_lb+4, %ecx\n\t"
        "addl %esi, %ebx\n\t"
        "adcl $0, %ecx\n\t"
        "cmpl %eax, %ebx\n\t"
        "movl %ecx, %edi\n\t"
        "sbbl %edx, %edi\n\t"
        "jb 22f\n\t"                               /* it would fire after the target */
        "cmpl $" STR(PUSH_MIN) ", %esi\n\t"
        "jb 23f\n\t"
        "movl %esi, %edi\n\t"
        "shrl $1, %edi\n\t"
        "addl %edi, %eax\n\t"
        "adcl $0, %edx\n\t"
        "cmpl %ebx, %eax\n\t"
        "sbbl %ecx, %edx\n\t"
        "jae 23f\n"                                 /* not before half the way: it stays */
        "22:\tmovl %esi, %eax\n\t"
        "call arm_timer_write\n\t"
        "jmp 23f\n"
        "17:\tmovl $0, vsmp_hw_cycles\n"
        "23:\tmovb $0, vsmp_in_lock_hook\n\t"
        "popl %ebp\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "jmp hook_exit_lock\n"
        "87:\tpopl %ebp\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "call lock_order_tail\n\t"
        "jmp hook_exit_lock\n"
        "19:\tmovl $1, %esi\n\t"
        "jmp 21b\n"
        "86:\tpopl %ebp\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "leal 4(%esp), %ecx\n\t"
        "call lock_order_tie\n\t"
        "jmp hook_exit_lock\n"
        "88:\tpopl %ebp\n\t"
        "popl %edi\n\t"
        "popl %esi\n\t"
        "popl %ebx\n\t"
        "leal 4(%esp), %ecx\n\t"
        "call lock_order_resume\n\t"
        "jmp hook_exit_lock\n"
        );
#endif

/* After a release (the patched release sites): stamp it, and the CPUs that
 * wait for this lock may run again from the release on. */
BODY void lock_release_body(uint64_t local, const uint32_t *args)
{
    struct spinlock *lock = (struct spinlock *)(uintptr_t)args[0];
    in_lock_hook = true;
    struct vcpu *v = enter(local);
    lock->vsmp_release = v->local;
    lock->vsmp_release_cpu = (int8_t)cur;
    spin_release_store(lock);
    if (lock->vsmp_waiters)
        for (int i = 0; i < nvcpus; i++) {
            struct vcpu *w = &vcpus[i];
            if (w->state != VCPU_LOCKWAIT || w->wait_lock != lock)
                continue;
            charge_lock_wait(i, w, v->local);
            w->state = VCPU_READY;
            requeue(i);
        }
    hook_check(v);
    v->local -= release_residue;
    arm(v);
    in_lock_hook = false;
}

/*
 * The lock is held by another logical CPU: wait until it is released.
 *
 * The caller (spin_lock's contended path) saw it held with interrupts on,
 * and an interrupt since then (a due event) may have run other logical
 * CPUs, the holder among them, which released it while this CPU was READY,
 * not yet a waiter that vsmp_lock_release wakes.  So look again here, with
 * interrupts off: a lock free by now is not waited for (block_races=
 * counts these).  Without that look the CPU waited for a release that had
 * happened, for good if no other CPU took the lock again: the stall report
 * of mq, 4 CPUs, tbench 192 clients at the whole load file, "waited 30.0 s
 * for spinlock 'unix sock' held by cpu=-1" (2026-12-06).
 */
BODY void lock_block_body(uint64_t local, const uint32_t *args)
{
    struct spinlock *lock = (struct spinlock *)(uintptr_t)args[0];
    uint32_t ticket = args[1];
    struct vcpu *v = enter(local);
    if (spin_lock_free_for(lock, ticket)) {
        v->stats.block_races++;
        if (lock->vsmp_release_cpu != cur)   /* it spun until the release, as in vsmp_lock_order */
            charge_lock_wait(cur, v, lock->vsmp_release);
        arm(v);
        return;
    }
    v->wait_lock = lock;            /* before the check: its report names the lock */
    v->wait_since = v->local;
    waiters_ok_until = 0;           /* check_lock_waiters looks at it too */
    /* A cycle of waiters, each holding what the next wants: a deadlock,
     * seen at once (hardware would spin until the stall limit). */
    struct spinlock *l = lock;
    for (int n = 0; n <= nvcpus; n++) {
        int h = l->holder_cpu;
        if (h == cur)
            lock_report(cur, "a cycle of logical cpus, each waiting for a lock the next holds: a deadlock");
        if (h < 0 || h >= nvcpus || vcpus[h].state != VCPU_LOCKWAIT)
            break;
        l = vcpus[h].wait_lock;
    }
    v->stats.lock_blocks++;
    v->state = VCPU_LOCKWAIT;
    lock->vsmp_waiters++;
    lock_waiters++;
    reschedule(v);
    lock_waiters--;
    lock->vsmp_waiters--;
    v->wait_lock = NULL;
    arm(v);
}

BODY void relax_body(uint64_t local, const uint32_t *args)
{
    (void)args;
    struct vcpu *v = enter(local);
    if (v->local >= min_other) {
        v->stats.relax_yields++;
        v->state = VCPU_READY;
        reschedule(v);
    } else {
        uint64_t step = MIN((uint64_t)RELAX_STEP_CYCLES, min_other - v->local);
        v->local += step;
        v->stats.spin_cycles += step;
        arm_dirty = true;
        hook_check(v);
    }
    arm(v);
}

BODY void halt_body(uint64_t local, const uint32_t *args)
{
    (void)args;
    struct vcpu *v = enter(local);
    v->state = VCPU_HALTED;
    reschedule(v);
    arm(v);
}

BODY void send_reschedule_body(uint64_t local, const uint32_t *args)
{
    int cpu = (int)args[0];
    struct vcpu *v = enter(local);
    struct vcpu *t = &vcpus[cpu];
    uint64_t at = v->local + ipi_latency;
    if (at < t->ipi_at) {
        t->ipi_at = at;
        if (cpu == cur)
            refresh_deadline(v);
    }
    v->stats.ipis_sent++;
    if (cpu != cur)
        requeue(cpu);
    hook_check(v);
    arm(v);
}

BODY void timer_start_body(uint64_t local, const uint32_t *args)
{
    (void)args;
    struct vcpu *v = enter(local);
    v->next_tick = v->local + tick_period;
    refresh_deadline(v);
    arm(v);
}

/*
 * An interrupt for a due event (irq_body sent it on): the IPI's and the
 * tick's bookkeeping; vsmp_irq_deliver's caller (trap) then runs the tick
 * with the clock running.  A CPU that ran a quantum or more since its
 * dispatch (or the last delivery) without calling a hook, caught by the
 * timer, is armed exactly for the rest of the boot.  Not undone when it
 * takes locks again: a CPU that mixes CPU-bound stretches with locking
 * ones would run ahead of the others by up to the backstop at the start of
 * every stretch, and an IPI to it would wait as long (o1, vsmp=2,
 * bench=wakeup seconds=1 workers=4: wake-up latency p50 120.5 us that way,
 * 40.6 us so, 41.7 us with the timer exact for every CPU).
 */
static bool tick_due;
static bool timer_caught;
BODY void deliver_body(uint64_t local, const uint32_t *args)
{
    (void)args;
    struct vcpu *v = enter(local);
    arm_dirty = true;
    if (timer_caught) {
        timer_caught = false;
        if (!v->hooked && v->local - v->ran_from >= quantum)
            v->hookless = true;
        v->hooked = false;
        v->ran_from = v->local;
    }
    tick_due = v->local >= v->next_tick;
    if (tick_due) {
        count_lateness(v->local, v->next_tick);
        /* One pending tick at most, as a LAPIC's request bit: a CPU that
         * had interrupts off for longer than a period loses the rest. */
        v->next_tick += tick_period;
        if (v->next_tick <= v->local)
            v->next_tick = v->local + tick_period - (v->local - v->next_tick) % tick_period;
    }
    if (v->local >= v->ipi_at) {
        count_lateness(v->local, v->ipi_at);
        v->ipi_at = NEVER;
        v->stats.ipis_received++;
        cpus[cur].stats.resched_ipis++;  /* what trap() counts for VECTOR_RESCHEDULE */
    }
    refresh_deadline(v);
    if (!tick_due)
        hook_check(v);              /* a quantum's end with the IPI; a tick's handler takes locks */
    arm(v);
}

bool vsmp_irq_deliver(void)
{
    vsmp_deliver_hook();
    return tick_due;
}

/* A timer or event interrupt while the clock is frozen (a spinlock hook,
 * or the switch between two): noted, and sent again when it ends; one that
 * came in a window where the clock is live is rewound (WINDOW). */
struct vsmp_window {
    uint32_t start, end, restart;
};
extern const struct vsmp_window __start_vsmp_windows[], __stop_vsmp_windows[];
void __attribute__((used)) irq_frozen(int vector, uint32_t *eip)
{
    for (const struct vsmp_window *w = __start_vsmp_windows; w < __stop_vsmp_windows; w++)
        if (*eip >= w->start && *eip < w->end) {
            *eip = w->restart;
            irqs_rewound++;
            break;
        }
    if (vector == VECTOR_TIMER) {
        vsmp_armed_at = NEVER;
        site_fence = NEVER;         /* (it has fired: nothing is armed) */
    }
    vsmp_deferred |= vector == VECTOR_TIMER ? DEFER_TIMER : DEFER_EVENT;
    irqs_deferred++;
    lapic_eoi();
}

/*
 * A timer or event interrupt with the clock running: 1 when it delivers a
 * tick or an IPI (the stub goes on into the kernel's entry for the vector),
 * 0 when it is quiet.  The timer delivers once the CPU's clock has reached
 * hw_due (it may fire earlier: armed for another CPU, or before a hook
 * moved this one's deadline); a quantum's end it finds is a yield, which
 * interrupts nothing.  The event interrupt delivers what raise_event sent
 * it for.
 */
static volatile bool calibrating_timer;
static uint64_t calibration_fire_local;

/*
 * An interrupt that split a read of the clock (kernel/time.h): the read
 * goes back to its RDTSC, after the interrupt, which has moved the base;
 * returns the instructions of it that run again, which the caller takes
 * off the clock.
 */
extern const struct clock_read __start_clock_reads[], __stop_clock_reads[];
/* The instructions inside the reads (those after each read's RDTSC), sorted at
 * boot: an interrupt's EIP is looked up in log2 of them. */
#define MAX_CLOCK_READS 2048
static struct read_pos {
    uint32_t eip, rdtsc, repeat;
} read_pos[CLOCK_READ_AFTER * MAX_CLOCK_READS];
static int nread_pos;

static void sort_clock_reads(void)
{
    int n = (int)(__stop_clock_reads - __start_clock_reads);
    if (n > MAX_CLOCK_READS)
        panic("vsmp: %d clock reads, room for %d (MAX_CLOCK_READS)", n, MAX_CLOCK_READS);
    nread_pos = 0;
    for (const struct clock_read *r = __start_clock_reads; r < __stop_clock_reads; r++) {
        for (uint32_t k = 0; k < CLOCK_READ_AFTER && r->after[k]; k++)
            read_pos[nread_pos++] = (struct read_pos){ r->after[k], r->rdtsc, k + 1 };
    }
    for (int i = 1; i < nread_pos; i++) {          /* insertion sort, once */
        struct read_pos x = read_pos[i];
        int j = i;
        for (; j > 0 && read_pos[j - 1].eip > x.eip; j--)
            read_pos[j] = read_pos[j - 1];
        read_pos[j] = x;
    }
}

static uint32_t clock_read_rewind(uint32_t *eip)
{
    uint32_t at = *eip;
    int lo = 0, hi = nread_pos;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (read_pos[mid].eip < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < nread_pos && read_pos[lo].eip == at) {
        *eip = read_pos[lo].rdtsc;
        reads_rewound++;
        return read_pos[lo].repeat;
    }
    return 0;
}

uint32_t *irq_eip;               /* the interrupted EIP's slot (the stubs set it) */
#ifdef VSMP_COPIES
/* An interrupt at one of the copies' adc: the add before it carried (CF in
 * the interrupted flags) and the base's high word is one short, so the
 * stub read a clock 2^32 ahead.  The carry goes into the base now (the
 * exit writes all of it from the corrected clock) and out of the flags,
 * so that the adc adds nothing. */
static inline uint64_t copy_carry_fix(uint64_t local)
{
    uint32_t eip = *irq_eip;
    for (unsigned i = 0; i < sizeof(copy_carries) / sizeof(copy_carries[0]); i++)
        if (eip == (uint32_t)(uintptr_t)copy_carries[i]) {
            uint32_t *eflags = irq_eip + 2;
            if (*eflags & 1u) {          /* CF */
                *eflags &= ~1u;
                copy_carries_fixed++;
                return local - (1ull << 32);
            }
            break;
        }
    return local;
}
#else
#define copy_carry_fix(local) (local)
#endif

BODY int irq_body(uint64_t local, uint32_t vector)
{
    local = copy_carry_fix(local);
    /* Judged by how far the interrupted code got; its clock goes on from
     * before a read the interrupt split (which runs again). */
    uint32_t repeat = clock_read_rewind(irq_eip);
    for (const struct vsmp_site_check *c = __start_vsmp_site_checks; c < __stop_vsmp_site_checks; c++)
        if (*irq_eip >= c->start && *irq_eip < c->end)
            *irq_eip = c->fenced + (*irq_eip - c->start);
    struct vcpu *v = enter(local - irq_residue);
    lapic_eoi();                    /* before any switch: an interrupt in service holds back the next */
    int deliver = 0;
    if (vector == VECTOR_TIMER && vsmp_armed_at != NEVER && phys_lb < vsmp_armed_at) {
        /* The timer has not reached its count: this interrupt is one an
         * earlier write left pending (it fired while interrupts were off
         * or the clock frozen, and was written again since).  Nothing to
         * do; above all no new write, or this CPU could be interrupted
         * again before it runs an instruction (a write for a few cycles
         * that fire while the next such handler runs), for ever. */
        stale_irqs++;
        v->local -= repeat;
        return 0;
    } else if (vector == VECTOR_TIMER) {
#ifdef CACHES
        k_resolve();
        if (calibrating_timer && vsmp_armed_at != NEVER)
            k_on_time = (int64_t)(vsmp_armed_at - phys_lb);
        if (k_valid && vsmp_armed_at != NEVER && (int64_t)(k_target - k_now()) > k_on_time && v->local < hw_due()) {
            /* Early: the model's work ran on the physical clock since the
             * write.  Written again for what is left of K, and nothing
             * else: this interrupt is not the machine's either. */
            uint64_t left = (uint64_t)((int64_t)(k_target - k_now()) - k_on_time);
            *vsmp_timer_init_reg = 0;
            fq_from = phys_lb;
            fq_count = left + (uint64_t)k_on_time + EXIT_ARM_AFTER;
            fq_open = true;
            vsmp_exit_count = (uint32_t)fq_count;
            model_early_irqs++;
            hw_timer_irqs++;        /* (vsmpstat counts every interrupt of the timer) */
            quiet_irqs++;
            v->local -= repeat;
            return 0;
        }
        k_valid = false;
#endif
        /* Stopped until this interrupt's exit writes it again (it may have
         * fired already: then this stops nothing). */
        *vsmp_timer_init_reg = 0;
        vsmp_armed_at = NEVER;
        site_fence = NEVER;
        hw_timer_irqs++;
        if (calibrating_timer) {
            calibrating_timer = false;
            calibration_fire_local = v->local;
        }
        if (v->local >= hw_due()) {
            if (v->local >= MIN(v->next_tick, v->ipi_at)) {
                timer_caught = true;
                deliver = 1;
            } else {
                if (!v->hooked && v->local - v->ran_from >= quantum)
                    v->hookless = true;
                v->hooked = false;
                v->ran_from = v->local;
                arm_dirty = true;
                end_quantum(v);
            }
        }
    } else if (event_sent) {
        event_sent = false;
        deliver = 1;
    }
    v->local -= repeat;
    if (deliver) {
        vsmp_exit_count = 0;
        return 1;
    }
    quiet_irqs++;
    arm_timer(v, false);
    return 0;
}

BODY void null_body(uint64_t local, const uint32_t *args)
{
    (void)args;
    uint32_t count = vsmp_exit_count;   /* the caller's (calibrate) */
    enter(local);
    vsmp_exit_count = count;
}

/* ---- boot ---- */

#define CALIBRATION_PAIRS 1000
static spinlock_t calibration_lock = SPINLOCK_INIT("vsmp-calibration");

/* Cycles of CALIBRATION_PAIRS uncontended lock and release pairs (boot,
 * interrupts off, no other CPU started: no hook waits). */
static __attribute__((noinline)) uint64_t lock_pairs_cycles(void)
{
    uint64_t t0 = local_tsc();
    for (int i = 0; i < CALIBRATION_PAIRS; i++) {
        spin_lock(&calibration_lock);
        spin_release(&calibration_lock);
    }
    return local_tsc() - t0;
}

/* Cycles of CALIBRATION_PAIRS `int $vector` (or nop): a quiet interrupt each. */
#define INT_CYCLES(name, insn)                                             \
    static __attribute__((noinline)) uint64_t name(void)                   \
    {                                                                      \
        uint64_t t0 = local_tsc();                                         \
        for (int i = 0; i < CALIBRATION_PAIRS; i++)                        \
            __asm__ volatile(insn ::: "memory");                           \
        return local_tsc() - t0;                                           \
    }
INT_CYCLES(nop_cycles, "nop")
INT_CYCLES(int_timer_cycles, "int $32")
INT_CYCLES(int_event_cycles, "int $35")

/* Cycles of CALIBRATION_PAIRS null hooks, the exit writing the timer or not. */
static __attribute__((noinline)) uint64_t null_hook_cycles(bool write)
{
    uint64_t t0 = local_tsc();
    uint32_t count = write ? 0xfffffff0u : 0;
    for (int i = 0; i < CALIBRATION_PAIRS; i++) {
        vsmp_exit_count = count;
        vsmp_null_hook();
    }
    return local_tsc() - t0;
}


/*
 * The boot-time measurements the exactness rests on (interrupts off, one
 * logical CPU, nothing armed): the spinlock hooks' and a quiet interrupt's
 * residue, that an exit costs the same with and without its timer write,
 * and how many cycles after its target the timer fires.  A machine where
 * they do not hold exactly (a QEMU whose timer or TSC is not one count per
 * instruction) stops the boot here, rather than print figures that depend
 * on the dispatcher.
 */
static void calibrate_spinlock_hooks(void)
{
    uint64_t plain = lock_pairs_cycles();
    spin_vsmp_enable_acquire();
    uint64_t with_order = lock_pairs_cycles();
    spin_vsmp_retarget_acquire();
    uint64_t with_order_site = lock_pairs_cycles();
    spin_vsmp_enable_release();
    uint64_t with_both = lock_pairs_cycles();
    spin_vsmp_retarget_release();
    uint64_t with_both_site = lock_pairs_cycles();
    order_residue = with_order > plain ? (with_order - plain) / CALIBRATION_PAIRS : 0;
    release_residue = with_both > with_order_site ? (with_both - with_order_site) / CALIBRATION_PAIRS : 0;
    if ((with_order - plain) % CALIBRATION_PAIRS || (with_both - with_order_site) % CALIBRATION_PAIRS)
        panic("vsmp: the spinlock hooks' residue is not the same at every call (%llu, %llu cycles for %d)",
              (unsigned long long)(with_order - plain), (unsigned long long)(with_both - with_order_site),
              CALIBRATION_PAIRS);
    /* What the retargeted calls save: the site entries read the clock
     * that much later (HOOK_SITE). */
    if (with_order_site > with_order || with_both_site > with_both ||
        (with_order - with_order_site) % CALIBRATION_PAIRS || (with_both - with_both_site) % CALIBRATION_PAIRS)
        panic("vsmp: the spinlock sites' direct calls do not save the same at every call (%llu, %llu cycles for %d)",
              (unsigned long long)(with_order - with_order_site), (unsigned long long)(with_both - with_both_site),
              CALIBRATION_PAIRS);
    site_order_ahead = (uint32_t)((with_order - with_order_site) / CALIBRATION_PAIRS);
    site_release_ahead = (uint32_t)((with_both - with_both_site) / CALIBRATION_PAIRS);
    /* The fenced path (a timer due soon): as long as the old one, exactly.
     * A site whose call was not retargeted saves nothing (ahead 0) and
     * never reaches a site entry. */
    for (int i = 0; i < 2; i++) {
        uint32_t ahead = i == 0 ? site_order_ahead : site_release_ahead;
        uint32_t nops = ahead > SITE_CHECK_INSNS ? ahead - SITE_CHECK_INSNS : 0;
        if (ahead && (ahead < SITE_CHECK_INSNS || nops > SLED_MAX))
            panic("vsmp: the spinlock sites' old path is %u instructions, the fenced one %u to %u", ahead,
                  SITE_CHECK_INSNS, SITE_CHECK_INSNS + SLED_MAX);
        *(i == 0 ? &site_order_sled : &site_release_sled) =
            (uint32_t)(uintptr_t)((i == 0 ? vsmp_site_order_sled_end : vsmp_site_release_sled_end) - nops);
    }
#if !defined(VSMP_TEST_BURN) && !defined(CACHES)
    /* The acquisition site's fast path (FAST_ORDER_SITE), taken with the
     * timer seemingly armed and clean and nothing due (nothing is armed: no
     * timer fires): its constant is what it costs the clock with 0 (the
     * release costs nothing, on its fast path as on the slow one). */
    vsmp_armed_at = NEVER - 1;
    arm_dirty = false;
    deadline = NEVER;
    uint64_t fast_order = lock_pairs_cycles();
    if (fast_order < plain || (fast_order - plain) % CALIBRATION_PAIRS)
        panic("vsmp: the spinlock sites' fast acquisition costs %lld cycles for %d pairs", (long long)(fast_order - plain),
              CALIBRATION_PAIRS);
    site_order_delta = (uint32_t)((fast_order - plain) / CALIBRATION_PAIRS);
    uint64_t fast_sites = lock_pairs_cycles();
    vsmp_armed_at = NEVER;
    arm_dirty = true;
    if (fast_sites != plain)
        panic("vsmp: the spinlock sites' fast paths cost %lld cycles for %d pairs (0: none)", (long long)(fast_sites - plain),
              CALIBRATION_PAIRS);
#endif
    /* With the residues and the readings ahead, a hook costs a site
     * nothing, fenced or not. */
    uint64_t with_sites = lock_pairs_cycles();
    site_fence = 0;                  /* every site entry fenced */
    uint64_t with_sites_fenced = lock_pairs_cycles();
    site_fence = NEVER;
    if (with_sites != plain || with_sites_fenced != plain)
        panic("vsmp: the spinlock sites cost %lld cycles, %lld fenced, for %d pairs (0: the old path's length exactly)",
              (long long)(with_sites - plain), (long long)(with_sites_fenced - plain),
              CALIBRATION_PAIRS);
}

static void calibrate(bool multi)
{
    if (multi)
        calibrate_spinlock_hooks();
    uint64_t nops = nop_cycles(), events = int_event_cycles();
    if ((events - nops) % CALIBRATION_PAIRS)
        panic("vsmp: a quiet interrupt's residue is not the same at every call");
    irq_residue = (events - nops) / CALIBRATION_PAIRS;
    uint64_t timers = int_timer_cycles();
    if (timers != nops)
        panic("vsmp: a quiet timer interrupt costs %lld cycles (%d calls), the event's 0",
              (long long)(timers - nops), CALIBRATION_PAIRS);
    uint64_t exit_plain = null_hook_cycles(false), exit_write = null_hook_cycles(true);
    if (exit_plain != exit_write)
        panic("vsmp: a hook exit that writes the timer costs %lld cycles more (%d calls)",
              (long long)(exit_write - exit_plain), CALIBRATION_PAIRS);
    *vsmp_timer_init_reg = 0;
    vsmp_armed_at = NEVER;

    /* The timer's lateness: armed by an exit for 5,000 cycles on, taken in
     * a loop with interrupts on. */
    hw_cycles = 0;
    calibrating_timer = true;
    vsmp_exit_count = 5000;
    vsmp_null_hook();
    uint64_t target = vsmp_curv->local + 5000;   /* the clock as the hook left it, plus the count */
    irq_enable();
    while (calibrating_timer)
        barrier();
    irq_disable();
    int64_t err = (int64_t)(calibration_fire_local - target);
    if (err < -64 || err > 64)
        panic("vsmp: the timer fired %lld cycles from its target (the machine's timer is not exact)", (long long)err);
    timer_fire_err = err;
    hw_timer_irqs = hw_timer_arms = quiet_irqs = irqs_deferred = irqs_rewound = reads_rewound = stale_irqs = 0;
}

#ifdef VSMP_COPIES
/* The copies' sites, patched to call vsmp's copies (see "The copies"). */
extern const uint32_t __start_vsmp_copy_sites[], __stop_vsmp_copy_sites[];

static void copy_sites_patch(void)
{
    for (const uint32_t *s = __start_vsmp_copy_sites; s < __stop_vsmp_copy_sites; s++) {
        uint8_t *p = (uint8_t *)(uintptr_t)*s;
        int reg = -1;
        if (p[0] == 0xf3 && p[1] == 0xa5 && p[4] == 0xf3 && p[5] == 0xa4) {
            if (p[2] == 0x89 && (p[3] & 0xc7) == 0xc1)        /* movl %reg, %ecx (89 /r) */
                reg = (p[3] >> 3) & 7;
            else if (p[2] == 0x8b && (p[3] & 0xf8) == 0xc8)   /* ... (8b /r) */
                reg = p[3] & 7;
        }
        const uint8_t *to = reg == 0 ? vsmp_copy_eax : reg == 2 ? vsmp_copy_edx : reg == 3 ? vsmp_copy_ebx
                          : reg == 5 ? vsmp_copy_ebp : NULL;
        if (!to)
            panic("vsmp: copy site %p is not rep movsl; movl %%reg, %%ecx; rep movsb", (void *)p);
        int32_t rel = (int32_t)((uint32_t)(uintptr_t)to - (*s + 5));
        p[1] = (uint8_t)rel;
        p[2] = (uint8_t)(rel >> 8);
        p[3] = (uint8_t)(rel >> 16);
        p[4] = (uint8_t)(rel >> 24);
        p[5] = 0x90;
        barrier();
        p[0] = 0xe8;                     /* call rel32 */
    }
    uint32_t a, b, c, d;
    cpuid(0, &a, &b, &c, &d);            /* serialising (as patch_sites_enable) */
}

/* Cycles of COPY_CAL_LOOPS copies of n bytes of `area` onto itself
 * (nothing changes), through a site of each register vsmp has a copy
 * for (%ebp aside: the frame pointer), and one the compiler chose. */
#define COPY_CAL_LOOPS 4
#define COPY_CAL_SITE(reg_constraint)                                      \
    do {                                                                   \
        void *d_ = area;                                                   \
        const void *s_ = area;                                             \
        uint32_t w_ = n >> 2, b_ = n & 3;                                  \
        __asm__ volatile(MACHINE_COPY_ASM("rep movsl", "movl %3, %%ecx", "rep movsb", "vsmp.calibration") \
                         : "+D"(d_), "+S"(s_), "+c"(w_)                    \
                         : reg_constraint(b_)                              \
                         : "memory");                                      \
    } while (0)
static __attribute__((noinline)) uint64_t copy_cycles(void *area, uint32_t n)
{
    uint64_t t0 = local_tsc();
    for (int i = 0; i < COPY_CAL_LOOPS; i++) {
        COPY_CAL_SITE("a");
        COPY_CAL_SITE("d");
        COPY_CAL_SITE("b");
        COPY_CAL_SITE("r");
    }
    return local_tsc() - t0;
}

/* The copies cost the clock what the `rep movs` cost it, to the cycle, at
 * every size tried (whole blocks, rows, bytes), or the boot stops: the
 * figures must not depend on which of the two ran. */
static void calibrate_copies(void)
{
    static const uint16_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 100, 252, 255, 256, 257, 259, 260, 511, 512, 1000, 1027, 2048, 4095 };
    uint64_t plain[sizeof(sizes) / sizeof(sizes[0])];
    void *area = vcpus;                  /* copied onto itself */
    _Static_assert(sizeof(vcpus) >= 4096, "the copies' calibration area");
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        plain[i] = copy_cycles(area, sizes[i]);
#ifdef VSMP_COPY_DEBUG
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        kprintf("vsmp-copy-debug: n=%u rep form %llu cycles for %d sites (%llu a site with the loop)\n", sizes[i],
                (unsigned long long)plain[i], 4 * COPY_CAL_LOOPS, (unsigned long long)(plain[i] / (4 * COPY_CAL_LOOPS)));
#endif
    copy_sites_patch();
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint64_t fast = copy_cycles(area, sizes[i]);
        if (fast != plain[i])
            panic("vsmp: a copy of %u bytes costs the clock %llu cycles through vsmp's copy, %llu as rep movs (%d sites)",
                  sizes[i], (unsigned long long)fast, (unsigned long long)plain[i], 4 * COPY_CAL_LOOPS);
    }
}
#endif

/* A new logical CPU's first code (from vsmp_first_entry): what reschedule
 * does after a switch, for a context that has none yet. */
BODY void resume_new_body(uint64_t local, const uint32_t *args)
{
    (void)local, (void)args;
    vsmp_exit_count = 0;
    after_switch(false, false);
    refresh_deadline(vsmp_curv);
    arm(vsmp_curv);
}

void __attribute__((used, noreturn)) vsmp_cpu_main(void) { smp_cpu_start(this_cpu_id()); }

/* The boot CPU starts logical CPU `cpu` at its own local time. */
BODY void start_cpu_body(uint64_t local, const uint32_t *args)
{
    int id = (int)args[0];
    struct vcpu *me = enter(local);
    struct vcpu *v = &vcpus[id];
    v->local = me->local;
    v->state = VCPU_READY;
    requeue(id);
    arm(me);
}

int vsmp_setup(int ncpus, uint32_t quantum_ns, uint32_t ipi_ns, uint32_t slack_ns)
{
    /* Nothing of the setup and its measurements is the boot CPU's time. */
    uint64_t t_entry = local_tsc();
    nvcpus = ncpus;
    vsmp_on = true;
    vsmp_multi = ncpus > 1;
    machine_keys_enable_vsmp(vsmp_multi);   /* the machine layer's static keys (kernel/machine/keys.h) */
    quantum_ns_ = quantum_ns;
    ipi_ns_ = ipi_ns;
    /* ns to TSC cycles (under icount shift=0 one each). */
    quantum = (uint64_t)quantum_ns * tsc_khz / 1000000;
    backstop = BACKSTOP_QUANTA * quantum;
    ipi_latency = (uint64_t)ipi_ns * tsc_khz / 1000000;
    tick_period = (uint64_t)tsc_khz * 1000 / HZ;
    slack_ns_ = slack_ns;
    slack = (uint64_t)slack_ns * tsc_khz / 1000000;
    vsmp_armed_at = NEVER;
    hw_cycles = 0;
    for (int i = 0; i < MAX_CPUS; i++) {
        vcpus[i].state = VCPU_OFF;
        vcpus[i].next_tick = NEVER;
        vcpus[i].ipi_at = NEVER;
        queued_eff[i] = NEVER;
        gs_selector[i] = gdt_percpu_selector(i);
    }
    queue_head = queue_tail = -1;
    sort_clock_reads();
    set_min_other(NEVER);
    deadline = NEVER;
    lock_waiters = 0;
    cur = 0;
    vsmp_curv = &vcpus[0];
    vcpus[0].state = VCPU_RUNNING;
    vsmp_timer_init_reg = lapic_register(LAPIC_REG_TIMER_INIT);
    vsmp_icr_lo_reg = lapic_register(LAPIC_REG_ICR_LO);
    lapic_timer_oneshot_init();
    idt_set_gate(VECTOR_TIMER, vsmp_irq_32);
    idt_set_gate(VECTOR_VSMP_EVENT, vsmp_irq_35);
    unsigned long f = irq_save();
    calibrate(vsmp_multi);
#ifdef VSMP_COPIES
    calibrate_copies();
#endif
    irq_restore(f);
    cpus[0].tsc_base = rdtsc() - t_entry;
    return ncpus;
}

uint32_t vsmp_hook_residue(int which)
{
    return (uint32_t)(which == 0 ? order_residue : which == 1 ? release_residue : irq_residue);
}
int32_t vsmp_timer_fire_err(void) { return (int32_t)timer_fire_err; }

/* The boot CPU starts the others, one at a time, at its own local time. */
void vsmp_start_cpus(void)
{
    for (int id = 1; id < nvcpus; id++) {
        uint8_t *stack = page_alloc(VSMP_BOOT_STACK_PAGES);
        if (!stack)
            panic("no memory for the boot stack of logical cpu %d", id);
        uint32_t *sp = (uint32_t *)(stack + VSMP_BOOT_STACK_PAGES * PAGE_SIZE);
        *--sp = (uint32_t)(uintptr_t)vsmp_first_entry;   /* vsmp_switch's ret */
        for (int r = 0; r < 4; r++)
            *--sp = 0;                                   /* ebp, ebx, esi, edi */
        cpus[id].self = &cpus[id];
        cpus[id].id = id;
        cpus[id].apic_id = cpus[0].apic_id;
        cpus[id].cr3 = cpus[0].cr3;
        vcpus[id].saved_esp = (uint32_t)(uintptr_t)sp;
        vsmp_start_cpu_hook(id);
        while (!cpus[id].online)
            cpu_relax();            /* a spin-wait: the new CPU runs (kernel/smp.c waits so too) */
    }
}

/* ---- reports and statistics ---- */

static void lock_report(int waiter, const char *why)
{
    struct vcpu *w = &vcpus[waiter];
    struct spinlock *l = w->wait_lock;
    uint64_t now = vcpus[cur].local;
    uint64_t waited = now > w->wait_since ? now - w->wait_since : 0;
    stall_report_lock_why(l && l->name ? l->name : "?", waiter, l ? l->holder_cpu : -1, cycles_to_ns(waited), why);
}

void vsmp_report_cpus(const char *who, void (*print_cpu)(int cpu, uint32_t eip, uint32_t ebp))
{
    for (int i = 0; i < nvcpus; i++) {
        struct vcpu *v = &vcpus[i];
        char t[32];
        kprintf("%s: vsmp cpu=%d state=%s local_s=%s%s%s\n", who, i, state_names[v->state],
                fmt_fixed(t, vsmp_cpu_clock_ns(i), NSEC_PER_SEC, 6),
                v->state == VCPU_LOCKWAIT ? " lock=" : "",
                v->state == VCPU_LOCKWAIT && v->wait_lock->name ? v->wait_lock->name : "");
        if (i == cur || v->state == VCPU_OFF)
            continue;
        const uint32_t *frame = (const uint32_t *)(uintptr_t)v->saved_esp;   /* edi esi ebx ebp ret */
        print_cpu(i, frame[4], frame[3]);
    }
}

uint64_t vsmp_cpu_clock_ns(int cpu)
{
    return cycles_to_ns(cpu == cur ? local_tsc() : vcpus[cpu].local);
}

void vsmp_print_stats(void)
{
    /* Everything first: printing moves the printing CPU's clock, and with
     * it the dispatches and events that follow.  The machine line (what
     * the simulation cost: physical_us, the timer's interrupts and writes,
     * the interrupts that came inside a hook, the boot's calibration)
     * moves with the dispatcher's code; the per-CPU lines do not. */
    static struct vcpu_stats snap[MAX_CPUS];
    for (int i = 0; i < nvcpus; i++)
        snap[i] = vcpus[i].stats;
    uint64_t phys = rdtsc(), timer_irqs = hw_timer_irqs, arms = hw_timer_arms, quiet = quiet_irqs,
             raised = event_irqs, deferred_n = irqs_deferred, rewound = irqs_rewound, reads = reads_rewound,
             events = events_delivered, late_sum = lateness_sum, late_max = lateness_max, stale = stale_irqs;
    kprintf(PROTO_FORMAT(VSMPSTAT), (unsigned long long)(cycles_to_ns(phys) / NSEC_PER_USEC),
            (unsigned long long)timer_irqs, (unsigned long long)arms, (unsigned long long)raised,
            (unsigned long long)deferred_n, (unsigned long long)events,
            (unsigned long long)(events ? cycles_to_ns(late_sum / events) : 0), (unsigned long long)cycles_to_ns(late_max),
            (unsigned long long)quiet, (unsigned long long)stale, (unsigned long long)rewound, (unsigned long long)reads,
            (unsigned long long)order_residue, (unsigned long long)release_residue, (unsigned long long)irq_residue,
            (int)timer_fire_err);
    for (int i = 0; i < nvcpus; i++) {
        const struct vcpu_stats *s = &snap[i];
        kprintf(PROTO_FORMAT_OF(VSMPSTAT, VSMPSTAT_CPU), i, (unsigned long long)s->dispatches, (unsigned long long)s->order_yields,
                (unsigned long long)s->relax_yields, (unsigned long long)s->quantum_yields,
                (unsigned long long)s->lock_blocks, (unsigned long long)s->block_races, (unsigned long long)s->ipis_sent,
                (unsigned long long)s->ipis_received, (unsigned long long)(cycles_to_ns(s->spin_cycles) / NSEC_PER_USEC));
    }
}
