/*
 * kmain: the boot CPU's C entry.  Order matters: per-CPU data and the console
 * first (so everything after can print and panic), then memory, the command
 * line, clocks, the scheduler, the other CPUs, and finally the first task
 * (whatever registered itself with KERNEL_INIT_TASK: the workload runner)
 * while this CPU becomes its idle task.
 */
#include "types.h"
#include "cpu.h"
#include "smp.h"
#include "mem.h"
#include "time.h"
#include "lib.h"
#include "x86.h"
#include "cmdline.h"
#include "config.h"
#include "init.h"
#include "sched_core.h"
#include "trace.h"
#include "sched_tunables.h"
#include "spinlock.h"
#include "mm.h"
#include "machine/vsmp.h"
#include "machine/keys.h"
#include "chan_cost.h"
#include "machine/memhooks.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2badb002
#define MB_FLAG_MEM 0x001
#define MB_FLAG_CMDLINE 0x004
#define MB_FLAG_MMAP 0x040

struct multiboot_info {
    uint32_t flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
    uint32_t syms[4];
    uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct multiboot_mmap_entry {
    uint32_t size;
    uint64_t base, length;
    uint32_t type;
} __attribute__((packed));

/* The kernel's own keys; the first task registers and reads the rest. */
enum { KEY_WATCHDOG, KEY_PVSPIN, KEY_MM, KEY_CR3, KEY_IDLE, KEY_IDLE_POLL_US, KEY_COST,
       KEY_VSMP, KEY_VSMP_QUANTUM, KEY_VSMP_IPI, KEY_VSMP_SLACK,
       KEY_TRACE, KEY_TRACE_EVENTS, KEY_TRACE_BUF_KIB, KEY_CHECKS };
static const struct cmdline_key kernel_keys[] = {
    [KEY_WATCHDOG] = CMDLINE_KEY_UINT("watchdog", DEFAULT_WATCHDOG_S, 0, 86400,
                                      "exit 3 when nothing progresses for this many seconds (0: off)"),
    [KEY_PVSPIN] = CMDLINE_KEY_UINT("pvspin", 0, 0, 1,
                                    "paravirtual spinlocks: a waiter spins a while, then halts until the unlocker "
                                    "kicks it (tools/qemu-run.sh gives 1 when vCPUs outnumber host cores)"),
    [KEY_MM] = CMDLINE_KEY_CHOICE("mm", "per_process", mm_mode_names,
                                  "address spaces: per_process (a page directory per mm id, CR3 reloaded lazily "
                                  "on switches between them) or shared (every task on the kernel's, no CR3 load)"),
    [KEY_CR3] = CMDLINE_KEY_CHOICE("cr3", "load", mm_cr3_names,
                                   "load: a switch between address spaces writes CR3 (QEMU's TCG then flushes its "
                                   "whole TLB); elide: the same page directories and counts, the hardware CR3 "
                                   "stays the kernel's (vsmp always elides)"),
    [KEY_IDLE] = CMDLINE_KEY_CHOICE("idle", "halt", idle_mode_names,
                                    "halt: an idle CPU halts until an interrupt, and a wake-up from another "
                                    "CPU sends it an IPI (2.6.0's default_idle); poll: it first watches for "
                                    "work with interrupts on for idle_poll_us, and a wake-up then sends no IPI "
                                    "(Linux's cpuidle-haltpoll; tools/qemu-run.sh gives it under TCG when vCPUs "
                                    "do not outnumber host cores: docs/cost-model.md)"),
    [KEY_IDLE_POLL_US] = CMDLINE_KEY_UINT("idle_poll_us", 200, 1, 1000000,
                                          "with idle=poll: how long (us) an idle CPU polls before it halts "
                                          "(haltpoll's guest_halt_poll_ns default: 200 us)"),
    /* The cost model (kernel/chan_cost.h, docs/cost-model.md): a machine, so read at boot. */
    [KEY_COST] = CMDLINE_KEY_CHOICE("cost", "none", chan_cost_names,
                                    "cost model: none; linux61 (instructions burnt per pipe and socket call, "
                                    "measured on Linux 6.1 under QEMU -icount); era2003 or era2007 (a CR3 reload, "
                                    "a migration, a contended lock, an IPI priced as on the seed machines; "
                                    "docs/cost-model.md)"),
    /* vsmp: logical CPUs in virtual time on one vCPU (kernel/machine/vsmp.h, docs/vsmp.md). */
    [KEY_VSMP] = CMDLINE_KEY_UINT("vsmp", 0, 0, MAX_CPUS,
                                  "run this many logical CPUs in virtual time on the one vCPU (QEMU -smp 1 "
                                  "-icount shift=0: tools/qemu-run.sh --accel vsmp); 0: off"),
    [KEY_VSMP_QUANTUM] = CMDLINE_KEY_UINT("vsmp_quantum_ns", VSMP_DEFAULT_QUANTUM_NS, 100, 10000000,
                                          "with vsmp: how far (ns of virtual time) a logical CPU may run ahead "
                                          "of the slowest other one between spinlock acquisitions"),
    [KEY_VSMP_IPI] = CMDLINE_KEY_UINT("vsmp_ipi_ns", VSMP_DEFAULT_IPI_NS, 0, 1000000,
                                      "with vsmp: a reschedule IPI's delivery latency (ns)"),
    [KEY_VSMP_SLACK] = CMDLINE_KEY_UINT("vsmp_slack_ns", VSMP_DEFAULT_SLACK_NS, 0, 1000000,
                                        "with vsmp: how far (ns) a logical CPU may be ahead of the slowest "
                                        "and still take a spinlock without yielding first"),
    /* Scheduler tracing (kernel/trace.h, docs/tracing.md). */
    [KEY_TRACE] = CMDLINE_KEY_UINT("trace", 0, 0, 1,
                                   "1: record scheduling events per CPU and write them on the trace channel at the end"),
    [KEY_TRACE_EVENTS] = { .name = "trace_events", .type = CMDLINE_CHOICE_LIST, .def_text = "all",
                           .choices = trace_type_names, .help = "with trace=1: the events to record, comma separated" },
    [KEY_TRACE_BUF_KIB] = CMDLINE_KEY_UINT("trace_buf_kib", TRACE_BUF_KIB_DEFAULT, 4, 65536,
                                           "with trace=1: KiB of ring buffer per CPU (64 bytes an event; "
                                           "the oldest are dropped when full); not given: 8192, or an "
                                           "eighth of the memory shared by the CPUs when that is less"),
    /* The scheduler core's invariant checks (kernel/sched_env.h, env_checks_on). */
    [KEY_CHECKS] = CMDLINE_KEY_UINT("checks", 0, 0, 1,
                                    "1: check the scheduler core's invariants at every switch and wake-up (the lock "
                                    "each hook gets, what pick_next and select_cpu return, the stack and its canary) "
                                    "and stop with a report when one breaks; the tests boot with it (0: the path "
                                    "as measured, a NOP per check)"),
};

/* The trace keys, checked before anything else starts (a bad one ends the
 * boot with its error line); returns the event mask, 0 when not tracing. */
static uint32_t read_trace_keys(uint32_t *buf_kib)
{
    bool on = cmdline_key_uint(&kernel_keys[KEY_TRACE]) == 1;
    *buf_kib = cmdline_key_uint(&kernel_keys[KEY_TRACE_BUF_KIB]);
    uint32_t mask = 0;
    char why[160];
    if (!trace_parse_events(cmdline_key_text(&kernel_keys[KEY_TRACE_EVENTS]), &mask, why, sizeof(why)))
        cmdline_error("trace_events", why);
    if (!on && cmdline_given(&kernel_keys[KEY_TRACE_EVENTS]))
        cmdline_error("trace_events", "needs trace=1");
    if (!on && cmdline_given(&kernel_keys[KEY_TRACE_BUF_KIB]))
        cmdline_error("trace_buf_kib", "needs trace=1");
    if (*buf_kib % (PAGE_SIZE / 1024))
        cmdline_error("trace_buf_kib", "must be a multiple of 4 (whole pages)");
    return on ? mask : 0;
}

/* The default buffer holds the lessons' runs whole (docs/lesson-*.md: up to
 * 40,000 events on one CPU), and takes at most an eighth of the memory. */
static uint32_t trace_default_buf_kib(int ncpus)
{
    uint32_t share = (uint32_t)((uint64_t)mem_free_pages() * (PAGE_SIZE / 1024) / 8 / (uint32_t)ncpus);
    share -= share % (PAGE_SIZE / 1024);
    return share < TRACE_BUF_KIB_DEFAULT ? (share < 64 ? 64 : share) : TRACE_BUF_KIB_DEFAULT;
}

extern char _end[];
void console_percpu_ready(void);
void smp_mark_percpu_ready(void);

static int read_memory_map(const struct multiboot_info *mb, struct mem_region *regions, int max)
{
    int n = 0;
    if (mb->flags & MB_FLAG_MMAP) {
        uintptr_t p = mb->mmap_addr, end = mb->mmap_addr + mb->mmap_length;
        while (p < end && n < max) {
            const struct multiboot_mmap_entry *e = (const void *)p;
            if (e->type == 1)
                regions[n++] = (struct mem_region){ e->base, e->length };
            p += e->size + 4;
        }
    } else if (mb->flags & MB_FLAG_MEM) {
        regions[n++] = (struct mem_region){ 0x100000, (uint64_t)mb->mem_upper * 1024 };
    }
    return n;
}

/* QEMU's -kernel starts the multiboot command line with the kernel's file
 * name, GRUB 2 does not: skip a first word that is a path, not key=value. */
static const char *kernel_arguments(const struct multiboot_info *mb)
{
    if (!(mb->flags & MB_FLAG_CMDLINE))
        return "";
    const char *s = (const char *)(uintptr_t)mb->cmdline;
    while (*s == ' ')
        s++;
    const char *end = s;
    bool has_slash = false, has_equals = false;
    for (; *end && *end != ' '; end++) {
        has_slash |= *end == '/';
        has_equals |= *end == '=';
    }
    return has_slash && !has_equals ? end : s;
}

static const char *detect_accel(void)
{
    uint32_t a, b, c, d;
    cpuid(1, &a, &b, &c, &d);
    if (!(c & (1u << 31)))
        return "unknown";                       /* no hypervisor bit */
    char sig[13];
    cpuid(0x40000000, &a, &b, &c, &d);
    memcpy(sig, &b, 4);
    memcpy(sig + 4, &c, 4);
    memcpy(sig + 8, &d, 4);
    sig[12] = 0;
    if (memcmp(sig, "KVMKVMKVM", 9) == 0)
        return "kvm";
    if (memcmp(sig, "TCGTCGTCGTCG", 12) == 0)
        return "tcg";
    return "unknown";
}

/* The BIOS leaves the 8259 PIC routing the PIT's 18.2 Hz tick to LINT0.
 * Mask it before lapic_init masks LINT0, so that QEMU drops any request it
 * already raised (else the CPU later takes a phantom interrupt, vector -1). */
static void mask_legacy_pic(void)
{
    outb(0x21, 0xff);
    outb(0xa1, 0xff);
}

void kmain(uint32_t magic, uint32_t mbi)
{
    mask_legacy_pic();
    gdt_init_cpu(0);
    smp_mark_percpu_ready();
    console_percpu_ready();
    console_init();
    idt_init();
    if (magic != MULTIBOOT_BOOTLOADER_MAGIC) {
        kprintf("error: not started by a multiboot loader (magic 0x%x)\n", magic);
        machine_exit(EXIT_ERROR);
    }
    const struct multiboot_info *mb = (const void *)(uintptr_t)mbi;
    struct mem_region regions[32];
    int nregions = read_memory_map(mb, regions, 32);
    /* Copy what we need out of the multiboot data first: QEMU puts it right
     * after the kernel image, where mem_init places the page bitmap. */
    cmdline_parse(kernel_arguments(mb));
    mem_init(regions, nregions, (uintptr_t)_end);
    cmdline_register("kernel", kernel_keys, ARRAY_SIZE(kernel_keys));
    watchdog_set_timeout(cmdline_key_uint(&kernel_keys[KEY_WATCHDOG]));
    uint32_t trace_buf_kib, trace_mask = read_trace_keys(&trace_buf_kib);
    uint32_t nvsmp = cmdline_key_uint(&kernel_keys[KEY_VSMP]);
    bool pvspin = cmdline_key_uint(&kernel_keys[KEY_PVSPIN]) != 0;
    if (nvsmp && pvspin)
        cmdline_error("pvspin", "vsmp has its own lock waits: pvspin=1 does not go with vsmp=");
    for (int k = KEY_VSMP_QUANTUM; k <= KEY_VSMP_SLACK; k++)
        if (!nvsmp && cmdline_given(&kernel_keys[k]))
            cmdline_error(kernel_keys[k].name, "needs vsmp=");
    chan_cost_set(cmdline_key_choice(&kernel_keys[KEY_COST]));   /* before any task or other CPU runs */
    bool elide = cmdline_key_choice(&kernel_keys[KEY_CR3]) == 1;
    if (nvsmp && cmdline_given(&kernel_keys[KEY_CR3]) && !elide)
        cmdline_error("cr3", "vsmp's logical CPUs share one hardware CR3: cr3=load does not go with vsmp=");
    /* Patches the spinlock release sites: only this CPU runs yet. */
    if (pvspin)
        spin_pvspin_enable();
    if (cmdline_key_uint(&kernel_keys[KEY_CHECKS]))
        checks_enable();
    mm_set_mode((enum mm_mode)cmdline_key_choice(&kernel_keys[KEY_MM]));
    mm_set_cr3_elide(elide || nvsmp);
    enum idle_mode idle = (enum idle_mode)cmdline_key_choice(&kernel_keys[KEY_IDLE]);
    if (nvsmp && idle == IDLE_POLL)
        cmdline_error("idle", "vsmp's logical CPUs halt in virtual time: idle=poll does not go with vsmp=");
    if (idle != IDLE_POLL && cmdline_given(&kernel_keys[KEY_IDLE_POLL_US]))
        cmdline_error("idle_poll_us", "needs idle=poll");

    tsc_calibrate();
    idle_set_mode(idle, cmdline_key_uint(&kernel_keys[KEY_IDLE_POLL_US]));   /* a window in TSC cycles */
    lapic_init();
    lapic_timer_calibrate();
    int ncpus = smp_discover_cpus();
    if (nvsmp) {
        if (ncpus != 1) {
            kprintf("error: vsmp=%u: the machine has %d CPUs; vsmp runs on one (QEMU -smp 1, "
                    "tools/qemu-run.sh --accel vsmp)\n", nvsmp, ncpus);
            machine_exit(EXIT_ERROR);
        }
        /* An era model gives the IPI latency (instead of busy time): the
         * default of vsmp_ipi_ns, which the command line may still set. */
        uint32_t ipi_ns = cmdline_key_uint(&kernel_keys[KEY_VSMP_IPI]);
        if (!cmdline_given(&kernel_keys[KEY_VSMP_IPI]) && chan_cost_ipi_ns())
            ipi_ns = chan_cost_ipi_ns();
        cost_ipi_on = 0;
        ncpus = vsmp_setup((int)nvsmp, cmdline_key_uint(&kernel_keys[KEY_VSMP_QUANTUM]), ipi_ns,
                           cmdline_key_uint(&kernel_keys[KEY_VSMP_SLACK]));
    }
    /* The memory model (machine=, a CACHES=1 build): before any other CPU
     * or task runs, after vsmp's CPUs are known. */
    char machine_words[96];
    machine_boot(ncpus, nvsmp != 0, machine_words, sizeof(machine_words));
    sched_tunables_setup(&scheduler);   /* sched.<name>= words, before the scheduler's init() */
    sched_init(ncpus);
    if (trace_mask && !cmdline_given(&kernel_keys[KEY_TRACE_BUF_KIB]))
        trace_buf_kib = trace_default_buf_kib(ncpus);
    if (trace_mask)
        trace_boot(trace_mask, trace_buf_kib, ncpus);   /* before any task or other CPU runs */
    sched_init_cpu(0);

    /* With trace=1 the boot line says so, and how: a traced run is not a plain one. */
    char trace_words[176] = "";
    if (trace_mask)
        snprintf(trace_words, sizeof(trace_words), " trace=1 trace_events=%s trace_buf_kib=%u",
                 cmdline_key_text(&kernel_keys[KEY_TRACE_EVENTS]), trace_buf_kib);
    /* With checks=1 too: its instructions are on the measured paths. */
    if (checks_enabled())
        snprintf(trace_words + strlen(trace_words), sizeof(trace_words) - strlen(trace_words), " checks=1");
    /* What produced this run's numbers, so that tables can refuse to mix them. */
    char vsmp_words[96] = "";
    if (machine_vsmp())
        snprintf(vsmp_words, sizeof(vsmp_words), " vsmp_quantum_ns=%u vsmp_ipi_ns=%u vsmp_slack_ns=%u",
                 vsmp_quantum_ns(), vsmp_ipi_ns(), vsmp_slack_ns());
    /* What is real and what is charged: charged= the cost model's events and
     * their instructions (ns under icount); real= the mechanisms the
     * (virtual) machine executes at its own price (under TCG the
     * emulator's: docs/cost-model.md#tcg-and-icount). */
    char idle_words[32] = "";
    if (idle_get_mode() == IDLE_POLL)
        snprintf(idle_words, sizeof(idle_words), " idle_poll_us=%u", cmdline_key_uint(&kernel_keys[KEY_IDLE_POLL_US]));
    char charged[160];
    chan_cost_describe(charged, sizeof(charged));
    char real[48];
    snprintf(real, sizeof(real), "%satomic,timer%s", mm_get_cr3_elide() ? "" : "cr3,", machine_vsmp() ? "" : ",hlt,ipi");
    /* Printed before the other CPUs and the ticks start (cpus= the CPUs
     * about to start: smp_start_aps ends the boot when one does not), so
     * that what it costs (mem_mib='s digits) only shifts every clock alike
     * under vsmp, and does not move the ticks against the workload
     * (docs/vsmp.md, "What else moves a figure"). */
    kprintf(PROTO_FORMAT(BOOT), ncpus, sched_name(), HZ, tsc_khz, machine_vsmp() ? "vsmp" : detect_accel(), mem_usable_mib(),
            mm_mode_names[mm_get_mode()], spin_pvspin_enabled() ? 1 : 0, SPINLOCK_KIND,
            mm_cr3_names[mm_get_cr3_elide()], idle_mode_names[idle_get_mode()], idle_words,
            chan_cost_names[chan_cost_model()], charged, real, vsmp_words, machine_words,
            trace_words);
    sched_tunables_print(&scheduler);
    smp_start_aps();
    lapic_timer_start();
    init_task_start();
    irq_enable();
    idle_loop();
}
