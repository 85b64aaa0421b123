/*
 * Every load and store through the machine (CACHES=1; docs/caches.md).
 *
 * GCC's -fsanitize=kernel-address with
 * --param asan-instrumentation-with-call-threshold=0 makes every load and
 * store of instrumented code a call, __asan_load4_noabort(addr) and the
 * like (the Makefile instruments the kernel, the scheduler and the
 * workloads; not kernel/machine/, vsmp.c or string.c).  Here each call is
 * an access of the current logical CPU (%gs) to the cache model, and its
 * stall advances that CPU's clock (tsc_base moves back).
 *
 * The instrumentation is not the machine's time.  Each call costs
 * instructions that the clock (RDTSC under icount) counts: the caller's
 * argument store and call, the callback, and the spills the caller makes
 * around a call that clobbers eax, ecx and edx.  They are owed back:
 *   - a call the fast path answers (the line is the most recent of its L1
 *     set, and for a store owned modified: nothing in the model changes,
 *     cache.h's filters) adds fast_cost to the CPU's machine_debt, one
 *     instruction, which kernel/time.h's clock subtracts and vsmp's
 *     dispatcher folds into the base (machine_fold);
 *   - any other call (memhook_miss) runs the model with interrupts off
 *     between two RDTSC reads and gives back what it measured plus
 *     slow_cost, the instructions outside the two reads;
 *   - without machine= every call is answered as a miss with no model
 *     (null_cost).
 * fast_cost, slow_cost and null_cost are measured at boot (calibrate(): a
 * loop of calls against the same loop's instructions), plus
 * MEMHOOK_SPILL_MILLI, the caller's spills per call, which the boot
 * cannot see (the plain build's code is not in this kernel): measured
 * once from the two builds (docs/caches.md, "Exactness").
 */
#include "memhooks.h"
#include "cache.h"
#include "stalltrace.h"
#include "../cpu.h"
#include "../x86.h"
#include "../mem.h"
#include "../lib.h"
#include "../cmdline.h"
#include "../time.h"
#include "../protocol.h"
#include "../task.h"
#include "../sched_class.h"
#ifdef MEMHOOK_TEST_BURN
#include "../chan_cost.h"
#endif

_Static_assert(PERCPU_MACHINE_DEBT == 44 && PERCPU_MACHINE_RFILTER == 48 && PERCPU_MACHINE_WFILTER == 52,
               "kernel/machine/memhook-thunks.S has the per-CPU offsets");
_Static_assert(CACHE_FILTER == 4096 && CACHE_FILTER_STRIDE == 8192 && CACHE_CHUNK_SHIFT == 5 && CACHE_WRITE == 1 && CACHE_ATOMIC == 2,
               "kernel/machine/memhook-thunks.S has the filter's geometry");

/* The caller's spills and address computations per call, in thousandths of
 * an instruction: what the instrumented build's calls cost beyond the
 * argument store, the call and the callback (docs/caches.md, "Exactness"
 * has the measurement). */
#ifndef MEMHOOK_SPILL_MILLI
#define MEMHOOK_SPILL_MILLI 0
#endif

/* From here up: the LAPIC (0xfee00000) and I/O APIC (0xfec00000), uncached. */
#define MMIO_BASE 0xfe000000u

static const char *machine_choices[8];
static const char *const layout_choices[] = { "era", "flat", NULL };
enum { KEY_MACHINE, KEY_MACHINE_LAT_PCT, KEY_MEMHOOK_SPILL, KEY_MACHINE_LAYOUT };
static struct cmdline_key machine_keys[] = {
    [KEY_MACHINE] = { .name = "machine", .type = CMDLINE_CHOICE, .def_text = "none", .choices = machine_choices,
                      .help = "memory model (a CACHES=1 build, with vsmp=): none, or a named machine's caches, "
                              "coherence and front-side bus (docs/caches.md)" },
    [KEY_MACHINE_LAT_PCT] = CMDLINE_KEY_UINT("machine_lat_pct", 100, 0, 1000,
                                             "with machine=: every latency and bus occupancy in percent of the "
                                             "preset's (0: the model runs and charges nothing)"),
    [KEY_MEMHOOK_SPILL] = CMDLINE_KEY_UINT("memhook_spill_milli", MEMHOOK_SPILL_MILLI, 0, 10000,
                                           "CACHES=1: the instructions an instrumented site costs beyond the call "
                                           "and its entry point, in thousandths per access, owed back to the clock "
                                           "(the default is measured: docs/caches.md, Exactness)"),
    [KEY_MACHINE_LAYOUT] = CMDLINE_KEY_CHOICE("machine_layout", "era", layout_choices,
                                              "with machine=: era (a scheduler's kernel version's task layout, "
                                              "kernel/sched_class.h SCHED_LAYOUT_LINUX24) or flat (every task "
                                              "structure from the kernel's allocator: to measure the layout's effect)"),
};

/* Boot-only code, compiled for size (it runs once, outside any
 * measurement): the image's text must end where it did, so that its data
 * and the heap keep their addresses, which decide what the model computes
 * (docs/caches.md, "Host cost"). */
#define BOOT_CODE __attribute__((optimize("Os")))

static const char *name_ = "none";
const char *machine_name(void) { return name_; }
bool machine_on(void) { return name_[0] != 'n'; }   /* "none" */
static bool era_layout;
bool machine_era_layout(void) { return era_layout; }

/* machine='s choices (none, then kernel/machine/presets.c's presets) and
 * the machine keys, as every build's machine_boot below registers them
 * (inlined: each build's boot code stays as it was). */
static inline __attribute__((always_inline)) void machine_keys_register(void)
{
    machine_choices[0] = "none";
    for (int i = 0; cache_presets[i].name && i + 2 < (int)ARRAY_SIZE(machine_choices); i++)
        machine_choices[i + 1] = cache_presets[i].name;
    cmdline_register("machine", machine_keys, ARRAY_SIZE(machine_keys));
}

/* ---- 2.4's goodness line: the rule (CACHES=1 and CACHES=host) ----
 *
 * Both models that know 2.4's task layout see the fields of goodness()'s
 * scan on one line of the task's 8 KB block (the CACHES=1 part below,
 * "2.4's goodness line", says why and how).  The block's geometry, the
 * map from a task's byte to its offset in the block and the fields mapped
 * are these, written once: CACHES=1's era_setup builds its map with them,
 * and a CACHES=host kernel builds the same map in its memory for the
 * plugin (kernel/machine/host/hostmodel.c) to read. */
#define ERA_BLOCK_SHIFT 13                  /* 8 KB blocks */
#define ERA_BLOCK_BYTES (1u << ERA_BLOCK_SHIFT)
#define ERA_LINE 2048                       /* the line's offset in the block */
#define ERA_LINE2 (ERA_LINE + 64)           /* scan_bytes' line 1: a line of its own at 32 and 64 bytes a line */
#define ERA_TASK_BYTES ((uint32_t)sizeof(struct task))
/* A field that would cross the line's end starts it again (the model sees
 * lines, not bytes: 2.4's SCHED_YIELD was a bit of policy, this kernel's
 * yielded a byte of its own). */
#define ERA_MAP_BYTES_FN(fn, map, chunk_mapped)                                    \
    static void fn(uint32_t off, uint32_t size, uint32_t *next, uint32_t base)     \
    {                                                                              \
        if (*next + size > base + 32)                                              \
            *next = base;                                                          \
        for (uint32_t b = 0; b < size && off + b < ERA_TASK_BYTES; b++) {          \
            map[off + b] = (int16_t)(*next)++;                                     \
            chunk_mapped[(off + b) / 32] = true;                                   \
        }                                                                          \
    }
/* The fields: the kernel's nice, policy, mm, cpus_allowed, on_cpu (2.4's
 * cpus_runnable) and the scheduler's scan_bytes (kernel/sched_class.h). */
#define ERA_MAP_FIELDS(map_bytes)                                                                  \
    uint32_t next = ERA_LINE, next2 = ERA_LINE2;                                                   \
    map_bytes(offsetof(struct task, nice), sizeof(int), &next, ERA_LINE);                          \
    map_bytes(offsetof(struct task, policy), sizeof(int), &next, ERA_LINE);                        \
    map_bytes(offsetof(struct task, mm), sizeof(int), &next, ERA_LINE);                            \
    map_bytes(offsetof(struct task, cpus_allowed), sizeof(cpumask_t), &next, ERA_LINE);            \
    map_bytes(offsetof(struct task, on_cpu), sizeof(int), &next, ERA_LINE);                        \
    for (const struct sched_scan_bytes *b = scheduler.scan_bytes; b->size; b++)                    \
        map_bytes((uint32_t)offsetof(struct task, sched_private) + b->offset, b->size,             \
                  b->line ? &next2 : &next, b->line ? ERA_LINE2 : ERA_LINE)

#ifndef CACHES

#ifdef HOST_MODEL
/* make CACHES=host: model=host (docs/caches.md, "The host model"): the
 * memory model runs in QEMU, a TCG plugin that tools/qemu-run.sh loads for
 * this boot line (kernel/machine/host/hostmodel.c), and this kernel runs
 * no instruction of it.  The kernel only takes the machine's keys for the
 * boot line, and machine_layout= for 2.4's task layout (task.c), which is
 * memory layout, not instrumentation.  (Not in the plain build, whose
 * figures stay as they are: one more key moved them; nor in CACHES=1's,
 * whose figures depend on its addresses.)  The symbol tells qemu-run.sh
 * that this kernel takes the keys. */
const char machine_host_model_build[] = "model=host";
static const char *const model_choices[] = { "guest", "host", NULL };
static struct cmdline_key model_keys[] = {
    CMDLINE_KEY_CHOICE("model", "guest", model_choices,
                       "host: machine='s memory model runs in QEMU as a TCG plugin on this plain kernel "
                       "(tools/qemu-run.sh, ACCEL=vsmp; docs/caches.md, The host model); guest: a CACHES=1 kernel's"),
};

/* 2.4's goodness line for the plugin (the rule above, "2.4's goodness
 * line: the rule"; CACHES=1's model_step applies it the same way): the
 * map from a task's byte to its offset in its 8 KB block (-1: where it is),
 * which 32-byte chunks of the task hold a mapped byte, and a bit per 8 KB
 * block that holds a live task in 2.4's layout (task.c calls
 * machine_era_task, as it does under CACHES=1).  The plugin reads them from
 * the guest's RAM at their symbols (tools/qemu-run.sh: nm), and the
 * geometry from the absolute symbols hostmodel_era_block_shift and
 * hostmodel_era_task_bytes (machine_boot).  All of it is this file's
 * (kernel/machine/: the plugin models none of these accesses). */
int16_t hostmodel_era_map[sizeof(struct task) + 1];
bool hostmodel_era_chunk_mapped[(sizeof(struct task) + 31) / 32];
uint32_t hostmodel_era_blocks[(1u << (32 - ERA_BLOCK_SHIFT)) / 32];
_Static_assert(ERA_LINE >= sizeof(struct task) && ERA_LINE2 + 64 <= 4096, "the goodness line lies in the task's page, past the struct");

ERA_MAP_BYTES_FN(host_era_map_bytes, hostmodel_era_map, hostmodel_era_chunk_mapped)

/* As CACHES=1's era_setup: with model=host, 2.4's layout and a scheduler
 * that names its scan's bytes. */
static void host_era_setup(bool host)
{
    for (uint32_t i = 0; i <= ERA_TASK_BYTES; i++)
        hostmodel_era_map[i] = -1;
    if (!(host && machine_era_layout() && (scheduler.flags & SCHED_LAYOUT_LINUX24) && scheduler.scan_bytes))
        return;
    ERA_MAP_FIELDS(host_era_map_bytes);
}

void machine_era_task(const struct task *t, bool live)
{
    uint32_t blk = (uint32_t)(uintptr_t)t >> ERA_BLOCK_SHIFT;
    if (live)
        hostmodel_era_blocks[blk / 32] |= 1u << (blk % 32);
    else
        hostmodel_era_blocks[blk / 32] &= ~(1u << (blk % 32));
}

void machine_boot(int ncpus, bool vsmp, char *words, size_t size)
{
    (void)ncpus;
    /* (no instruction: the geometry for the plugin, as absolute symbols) */
    __asm__(".globl hostmodel_era_block_shift\n\t.set hostmodel_era_block_shift, %c0\n\t"
            ".globl hostmodel_era_task_bytes\n\t.set hostmodel_era_task_bytes, %c1"
            : : "i"(ERA_BLOCK_SHIFT), "i"(ERA_TASK_BYTES));
    machine_keys_register();
    cmdline_register("model", model_keys, ARRAY_SIZE(model_keys));
    bool host = cmdline_key_choice(&model_keys[0]) == 1;
    for (int k = 0; k < (int)ARRAY_SIZE(machine_keys); k++)
        if (cmdline_given(&machine_keys[k]) && (!host || k == KEY_MEMHOOK_SPILL))
            cmdline_error(machine_keys[k].name, "needs a kernel built with the memory model (make CACHES=1), "
                                                "or model=host (the model in QEMU)");
    if (cmdline_given(&model_keys[0]) && !host)
        cmdline_error("model", "guest: needs a kernel built with the memory model (make CACHES=1)");
    if (size)
        words[0] = 0;
    if (!host)
        return;
    int choice = cmdline_key_choice(&machine_keys[KEY_MACHINE]);
    if (!choice)
        cmdline_error("model", "host needs machine=PRESET (make list-machines)");
    if (!vsmp)
        cmdline_error("model", "host needs vsmp= (ACCEL=vsmp): the plugin moves the icount clock vsmp runs on");
    era_layout = cmdline_key_choice(&machine_keys[KEY_MACHINE_LAYOUT]) == 0;
    host_era_setup(host);
    snprintf(words, size, " machine=%s model=host machine_lat_pct=%u machine_layout=%s", machine_choices[choice],
             cmdline_key_uint(&machine_keys[KEY_MACHINE_LAT_PCT]), era_layout ? "era" : "flat");
}
#else
void machine_boot(int ncpus, bool vsmp, char *words, size_t size)
{
    (void)ncpus, (void)vsmp;
    machine_keys_register();
    for (int k = 0; k < (int)ARRAY_SIZE(machine_keys); k++)
        if (cmdline_given(&machine_keys[k]))
            cmdline_error(machine_keys[k].name, "needs a kernel built with the memory model (make CACHES=1)");
    if (size)
        words[0] = 0;
}
#endif

void machine_print_stats(void) {}

#else

static struct cache_model *model;
static uint32_t lat_pct;
static uint32_t fast_cost, slow_cost, null_cost;    /* cycles owed back per call */
static uint32_t spill_milli = MEMHOOK_SPILL_MILLI;
static uint32_t spill_acc[MAX_CPUS];                /* thousandths carried */
static uint32_t empty_filter[CACHE_FILTER_STRIDE];
/* Fast calls' debt taken off the clock (memhook-thunks.S's goodness-line
 * path folds too). */
uint64_t memhook_debt_folded[MAX_CPUS];
#define debt_folded memhook_debt_folded
static uint64_t slow_calls[MAX_CPUS], null_calls[MAX_CPUS];
/* Inside memhook_miss's two reads, all CPUs.  Not static: calibrate()
 * reads it around an asm that calls memhook_miss, which GCC's IPA does not
 * see (a static only this file writes would be taken as unchanged). */
uint64_t memhook_model_cycles;
#define model_cycles memhook_model_cycles

/* ---- the clock ---- */

/* Interrupts off.  The debt is whole calls of one kind (fast hits with a
 * model, null misses without), so it also says how many calls owe the
 * caller's spills, which are fractions of an instruction per call. */
static inline void fold(struct cpu *c)
{
    uint32_t d = c->machine_debt;
    if (!d)
        return;
    c->machine_debt = 0;
    c->tsc_base += d;
    debt_folded[c->id] += d;
    if (spill_milli) {              /* off by default: no divisions on this path */
        uint32_t unit = model ? fast_cost : null_cost;
        uint64_t milli = spill_acc[c->id] + (uint64_t)(unit ? d / unit : 0) * spill_milli;
        spill_acc[c->id] = (uint32_t)(milli % 1000);
        c->tsc_base += milli / 1000;
    }
}

/* Between vsmp's freeze and thaw (one physical CPU: one flag). */
static bool frozen;
#define MEMHOOK_FROM_ENTRY 0x80     /* memhook_miss flags: called from memhook-thunks.S */
#define MEMHOOK_FROM_COPY 0x40      /* ... by its __memhook_copy */
extern uint32_t memhook_lru_clock, *memhook_l1_stamp;     /* the fast path's (below) */
/* The goodness line's fast path (era_hit, below) */
static uint32_t era_fast_on;                /* ~0: on (era layout, no spills) */
static uint32_t era_cost;                   /* cycles a hit owes: its whole call's */
/* ... less slow_cost: what vsmp's K leaves out (a byte: this file's bss
 * keeps its size, so every later object keeps its address) */
static uint8_t era_k;

void machine_fold_slow(struct cpu *c)
{
    unsigned long f = irq_save();
    fold(c);
    frozen = true;
    irq_restore(f);
}

void machine_thaw(struct cpu *c)
{
    c->machine_debt = 0;
    frozen = false;
}

/* The debt wrapped past 2^32 (one instruction added it; an interrupt
 * between that add and here may have folded the wrapped value, which is
 * then 2^32 short either way). */
void memhook_debt_wrapped(void);
__attribute__((noinline, used)) void memhook_debt_wrapped(void)
{
    unsigned long f = irq_save();
    struct cpu *c = this_cpu();
    c->tsc_base += 1ull << 32;
    debt_folded[c->id] += 1ull << 32;
    irq_restore(f);
}

/* One instruction, so an interrupt cannot split it; the carry says it wrapped. */
static inline __attribute__((always_inline)) void owe(uint32_t cycles)
{
    __asm__ goto("addl %0, %%gs:%c1\n\t"
                 "jc %l2"
                 : : "r"(cycles), "i"(PERCPU_MACHINE_DEBT) : "cc", "memory" : wrapped);
    return;
wrapped:
    memhook_debt_wrapped();
}

/* ---- the calls ---- */

/* ---- 2.4's goodness line (machine_layout=era, SCHED_LAYOUT_LINUX24) ----
 *
 * 2.4 kept every field its goodness() loop reads in one 32-byte line of
 * the task_struct (counter, nice, policy, mm, processor, cpus_runnable,
 * cpus_allowed, run_list.next: 2.4.18 include/linux/sched.h).  This
 * kernel's struct task and the scheduler's private state put the same
 * fields on three lines (docs/caches.md, "Layouts").  So for a task in
 * 2.4's layout the model sees those bytes (the kernel's nice, policy, mm,
 * cpus_allowed, on_cpu (2.4's cpus_runnable) and the scheduler's
 * scan_bytes) in one line of the block,
 * at ERA_LINE (bytes of the task's page that nothing else uses), and every
 * other byte where it is.  A real line that holds some of them is never
 * answered by the fast path (its filter entries are dropped after each
 * access), so every access to it reaches the model and goes to the right
 * line.  Copies (string.c's ranges) see the real layout. */
static bool era_on;
/* byte of a task -> its offset in the model; -1: its own (era_hit reads
 * the entry past the task's bytes, -1, for every byte past them) */
static int16_t era_map[sizeof(struct task) + 1];
static bool era_chunk_mapped[(sizeof(struct task) + 31) / 32];  /* a 32-byte chunk holds a mapped byte */
/* a bit per 8 KB block: a task in 2.4's layout */
static uint32_t era_blocks[(1u << (32 - ERA_BLOCK_SHIFT)) / 32];
_Static_assert(ERA_LINE >= sizeof(struct task) && ERA_LINE2 + 64 <= 4096, "the goodness line lies in the task's page, past the struct");

ERA_MAP_BYTES_FN(era_map_bytes, era_map, era_chunk_mapped)

BOOT_CODE static void era_setup(void)
{
    for (uint32_t i = 0; i <= ERA_TASK_BYTES; i++)
        era_map[i] = -1;
    era_on = model && machine_era_layout() && (scheduler.flags & SCHED_LAYOUT_LINUX24) && scheduler.scan_bytes;
    if (!era_on)
        return;
    ERA_MAP_FIELDS(era_map_bytes);
    /* (era_hit folds without the spills: off with them; -DMEMHOOK_NO_ERA_FAST:
     * off, to compare) */
#ifndef MEMHOOK_NO_ERA_FAST
    era_fast_on = cmdline_key_uint(&machine_keys[KEY_MEMHOOK_SPILL]) ? 0 : ~0u;
#endif
}

void machine_era_task(const struct task *t, bool live)
{
    uint32_t blk = (uint32_t)(uintptr_t)t >> ERA_BLOCK_SHIFT;
    if (live)
        era_blocks[blk / 32] |= 1u << (blk % 32);
    else
        era_blocks[blk / 32] &= ~(1u << (blk % 32));
}

static inline bool era_block(uint32_t a)
{
    uint32_t blk = a >> ERA_BLOCK_SHIFT;
    return era_blocks[blk / 32] & (1u << (blk % 32));
}

/* ---- 2.6.0's task_struct (machine_layout=era, SCHED_LAYOUT_LINUX26) ----
 *
 * A task in 2.6.0's layout is an object of the task slab (task.c,
 * kernel/task.h TASK26_*): TASK26_HEAD bytes, then struct task.  The model
 * sees the fields 2.6.0's i386 task_struct kept in its first four lines
 * (include/linux/sched.h) at their 2.6.0 offsets in the head: the
 * kernel's state (0), policy (64), cpus_allowed (68), mm and mm_struct (mm
 * 104, active_mm 108), the scheduler's task26_bytes (2.6.0's prio 24,
 * static_prio 28, run_list 32, array 40, sleep_avg 44, interactive_credit
 * 48, timestamp 52, activated 60, time_slice 72, first_time_slice 76);
 * this kernel's own bookkeeping whose 2.6.0 equivalent was read from lines
 * the same paths read anyway (on_cpu: rq->curr == p; on_rq: p->array;
 * is_idle: rq->idle == p) in line 0's bytes those paths do not use (ptrace
 * 16, lock_depth 20, usage 8); the layout and stack fields that
 * task_thread_info() reads in 2.6.0's thread_info pointer (4); and the task's CPU in its thread_info
 * (TI_CPU 0x10: 2.6.0's task_cpu(p) is p->thread_info->cpu).  Every other
 * byte stays where it is.  As for 2.4's line, the real lines that hold
 * mapped bytes stay off the fast path, and copies see the real layout. */
#define T26_TI (-2)                          /* t26_map: the thread_info's cpu */
static bool t26_on;
static int16_t t26_map[sizeof(struct task)];                    /* byte -> its offset in the head; -1: its own; T26_TI */
static bool t26_chunk_mapped[(sizeof(struct task) + 31) / 32];
static uint32_t t26_chunks[(1u << (32 - TASK26_CHUNK_SHIFT)) / 32];   /* a bit per 64 KB chunk of the task slab */
static uint32_t t26_checked;                                  /* thread_info_at_stack_base= */
_Static_assert(TASK26_HEAD % 32 == 0, "struct task starts a line of its object");

void machine_task26_chunk(const void *chunk)
{
    uint32_t n = (uint32_t)(uintptr_t)chunk >> TASK26_CHUNK_SHIFT;
    t26_chunks[n / 32] |= 1u << (n % 32);
}

void machine_thread_info_checked(void) { atomic_add_return((volatile int *)&t26_checked, 1); }

static void t26_map_bytes(uint32_t off, uint32_t size, int at)
{
    for (uint32_t b = 0; b < size && off + b < sizeof(struct task); b++) {
        t26_map[off + b] = (int16_t)(at == T26_TI ? T26_TI : at + (int)b);
        t26_chunk_mapped[(off + b) / 32] = true;
    }
}

BOOT_CODE static void t26_setup(void)
{
    for (uint32_t i = 0; i < sizeof(struct task); i++)
        t26_map[i] = -1;
    t26_on = model && machine_era_layout() && (scheduler.flags & SCHED_LAYOUT_LINUX26);
#ifdef LAYOUT26_PLACEMENT_ONLY      /* (an experiment's build: 2.6.0's allocations, this kernel's lines) */
    t26_on = false;
#endif
    if (!t26_on)
        return;
    t26_map_bytes(offsetof(struct task, state), sizeof(int), 0);
    t26_map_bytes(offsetof(struct task, is_idle), sizeof(bool), 8);        /* usage */
    t26_map_bytes(offsetof(struct task, on_cpu), sizeof(int), 16);         /* ptrace */
    t26_map_bytes(offsetof(struct task, on_rq), sizeof(int), 20);          /* lock_depth */
    t26_map_bytes(offsetof(struct task, policy), sizeof(int), 64);
    t26_map_bytes(offsetof(struct task, cpus_allowed), sizeof(cpumask_t), 68);
    t26_map_bytes(offsetof(struct task, mm), sizeof(int), 104);
    t26_map_bytes(offsetof(struct task, mm_struct), sizeof(void *), 108);  /* active_mm */
    t26_map_bytes(offsetof(struct task, cpu), sizeof(int), T26_TI);
    /* task_thread_info()'s reads (sched/o1_common.h): 2.6.0's p->thread_info */
    t26_map_bytes(offsetof(struct task, layout), sizeof(uint8_t), 4);
    t26_map_bytes(offsetof(struct task, stack), sizeof(void *), 4);
    for (const struct sched_task26_bytes *b = scheduler.task26_bytes; b && b->size; b++)
        t26_map_bytes((uint32_t)offsetof(struct task, sched_private) + b->offset, b->size, b->at);
}

/* The struct task of the task slab's object that holds a, or 0. */
static inline uint32_t t26_task_of(uint32_t a)
{
    uint32_t n = a >> TASK26_CHUNK_SHIFT;
    if (!(t26_chunks[n / 32] & (1u << (n % 32))))
        return 0;
    uint32_t pg = (a >> 12) & (TASK26_CHUNK_PAGES - 1), in = a & (PAGE_SIZE - 1), colour = task26_colour(pg);
    if (in < colour)
        return 0;
    uint32_t i = (in - colour) / TASK26_OBJ;
    if (i >= TASK26_PER_PAGE)
        return 0;
    uint32_t t = (a & ~(uint32_t)(PAGE_SIZE - 1)) + colour + i * TASK26_OBJ + TASK26_HEAD;
    return a >= t && a - t < sizeof(struct task) ? t : 0;
}

/* ---- which lines move between CPUs (the memline lines) ----
 *
 * The model calls line_moved for every line that comes from another CPU's
 * cache (a cache-to-cache or L1-to-L1 transfer) or that a store takes
 * away from one (an invalidation).  An open-addressed table counts them
 * per line, with the code site of the access that moved it last (the
 * instrumented instruction's return address: addr2line names it). */
#define HOT_LINES 16384
#define HOT_PROBES 8            /* then the move is dropped (counted): a full table costs a few probes, not 32 */
struct hot_line {
    uint32_t line;              /* line number + 1; 0: empty */
    uint32_t moves, invals;
    uint32_t site;
};
static struct hot_line hot[HOT_LINES];
static uint64_t hot_dropped;
static uint32_t access_site;    /* the access being modelled */

/* ---- what each site accesses (the memline object= lines) ----
 *
 * memhook-plugin.cc gives every instrumented access a record in
 * .memhook_sites: its return address (what memhook_miss sees as the site)
 * and a name, "task.on_cpu", "@runqueues[].lock.locked", "int", "?".
 * Identical names are one string (the linker merges them), so a name's
 * pointer is the key of its counts.  Sorted by address at boot. */
struct memhook_site {
    uint32_t ret;
    const char *what;
};
extern struct memhook_site __start_memhook_sites[], __stop_memhook_sites[];
static uint32_t nsites;

BOOT_CODE static void sort_sites(void)
{
    struct memhook_site *a = __start_memhook_sites;
    nsites = (uint32_t)(__stop_memhook_sites - __start_memhook_sites);
    /* heapsort: no allocation, n log n at boot */
    for (uint32_t n = nsites, i = n / 2; n > 1;) {
        struct memhook_site t;
        if (i > 0) {
            t = a[--i];
        } else {
            t = a[--n];
            a[n] = a[0];
        }
        uint32_t parent = i, child = 2 * i + 1;
        while (child < n) {
            if (child + 1 < n && a[child + 1].ret > a[child].ret)
                child++;
            if (a[child].ret <= t.ret)
                break;
            a[parent] = a[child];
            parent = child;
            child = 2 * parent + 1;
        }
        a[parent] = t;
    }
}

/* 0: no counts by name (to measure what they cost the host) */
#ifndef MEMHOOK_NAMES
#define MEMHOOK_NAMES 1
#endif
#define HOT_NAMES 4096
struct hot_name {
    const char *what;           /* NULL: empty */
    uint32_t moves, invals;     /* lines these accesses moved between CPUs, copies their stores invalidated */
    uint32_t misses;            /* L2 misses these accesses made (memory or another cache) */
};
static struct hot_name hot_names[HOT_NAMES];
static uint64_t names_dropped;

static struct hot_name *name_entry(const char *what)
{
    uint32_t h = ((uint32_t)(uintptr_t)what * 2654435761u) >> 20;
    for (uint32_t i = 0; i < 64; i++) {
        struct hot_name *e = &hot_names[(h + i) & (HOT_NAMES - 1)];
        if (e->what == what || !e->what) {
            e->what = what;
            return e;
        }
    }
    names_dropped++;
    return NULL;
}

/* A direct-mapped cache of the sites' names and their count entries: a
 * few sites make most misses and moves, and the binary search is a dozen
 * steps, the name's hash a few more. */
#define SITE_CACHE 1024
static struct site_cached {
    uint32_t ret;
    struct hot_name *e;         /* NULL: the table had no room for the name (counted where used) */
} site_cache[SITE_CACHE];

static const char *site_what(uint32_t site)
{
    if (!site)
        return "copy";          /* string.c's ranges (machine_access) */
    uint32_t lo = 0, hi = nsites;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (__start_memhook_sites[mid].ret < site)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nsites && __start_memhook_sites[lo].ret == site ? __start_memhook_sites[lo].what : "?";
}

/* The count entry of the name of the access at site (NULL, counted as
 * dropped, when the table has no room for it). */
static struct hot_name *site_entry(uint32_t site)
{
    struct site_cached *c = &site_cache[(site >> 2) & (SITE_CACHE - 1)];
    if (c->ret != site || !c->e) {
        struct hot_name *e = name_entry(site_what(site));
        if (!e)
            return NULL;        /* (name_entry counted it) */
        c->ret = site;
        c->e = e;
    }
    return c->e;
}

static void name_moved(uint32_t site, bool inval)
{
    struct hot_name *e = site_entry(site);
    if (e && inval)
        e->invals++;
    else if (e)
        e->moves++;
}

static void line_moved(struct cache_model *m, int to, int from, uint32_t line, bool inval)
{
    (void)m, (void)to, (void)from;
    if (MEMHOOK_NAMES)
        name_moved(access_site, inval);
    uint32_t h = (line * 2654435761u) >> 18;
    for (uint32_t i = 0; i < HOT_PROBES; i++) {
        struct hot_line *e = &hot[(h + i) & (HOT_LINES - 1)];
        if (e->line == line + 1 || !e->line) {
            e->line = line + 1;
            if (inval)
                e->invals++;
            else
                e->moves++;
            e->site = access_site;
            return;
        }
    }
    hot_dropped++;
}

/* The TSC, read so that the compiler moves no work across it: what
 * memhook_miss measures must be exactly the model's work, and what it does
 * not measure the same instructions on every path (slow_cost). */
static inline uint64_t rdtsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

/* The model's part of a miss (between memhook_miss's two reads). */
#ifdef MEMHOOK_CHECK_ERA
/* make CACHES=1 CFLAGS_EXTRA=-DMEMHOOK_CHECK_ERA: every access era_hit
 * answers still runs the model, which must have done only what the path
 * does (the memstat line "era_check" counts the disagreements). */
static uint32_t era_check_expect;
static uint64_t era_check_hits, era_check_bad;
#endif

static __attribute__((noinline)) uint64_t model_step(struct cpu *c, uint32_t a, uint32_t size, uint32_t flags,
                                                     uint64_t t0, const uint32_t *args)
{
    int id = c->id;
    fold(c);
#ifdef MEMHOOK_CHECK_ERA
    struct cache_stats before = model->stats[id];
#endif
    /* From an entry point (memhook-thunks.S): its caller's return address
     * is six words above memhook_miss's first argument (the three
     * arguments, the site's saved flags, edx and ecx); from machine_access: none. */
    access_site = (flags & MEMHOOK_FROM_ENTRY) ? args[6] : 0;
    flags &= ~(MEMHOOK_FROM_ENTRY | MEMHOOK_FROM_COPY);
    uint64_t misses = model->stats[id].l2_misses;
    uint32_t real = a, off = a & ((1u << ERA_BLOCK_SHIFT) - 1);
    bool era = era_on && off < ERA_TASK_BYTES && era_block(a);
    if (era && size <= 8 && era_map[off] >= 0)
        a = (a & ~((1u << ERA_BLOCK_SHIFT) - 1)) + (uint32_t)era_map[off];   /* in 2.4's goodness line */
    uint32_t t26 = t26_on && !era ? t26_task_of(a) : 0;
    if (t26 && size <= 8) {
        int m = t26_map[a - t26];
        if (m >= 0) {
            a = t26 - TASK26_HEAD + (uint32_t)m;                            /* in 2.6.0's task_struct lines */
        } else if (m == T26_TI) {
            const struct thread_info *ti = task_thread_info((const struct task *)(uintptr_t)t26);
            if (ti)                                                          /* (after exit: where it is) */
                a = (uint32_t)(uintptr_t)&ti->cpu + (a - t26 - (uint32_t)offsetof(struct task, cpu));
        }
    }
    uint64_t mark[5];
    if (stalltrace_recording)       /* trace=1: the biggest stalls (stalltrace.h) */
        stalltrace_mark(&model->stats[id], mark);
    uint64_t stall = cache_access(model, id, a, size, flags, t0 - c->tsc_base);
    if (stalltrace_recording && stall)
        stalltrace_access(c, &model->stats[id], mark, t0 - c->tsc_base, stall, access_site, site_what(access_site));
    if (t26)
        for (uint32_t o = real - t26, ch = o / 32; ch * 32 < o + size && ch * 32 < sizeof(struct task); ch++)
            if (t26_chunk_mapped[ch])
                cache_filter_forget(model, id, t26 + ch * 32);
    if (era)    /* the real lines that hold mapped bytes stay off the fast path */
        for (uint32_t ch = off / 32; ch * 32 < off + size && ch * 32 < ERA_TASK_BYTES; ch++)
            if (era_chunk_mapped[ch])
                cache_filter_forget(model, id, (real & ~((1u << ERA_BLOCK_SHIFT) - 1)) + ch * 32);
    if (MEMHOOK_NAMES && model->stats[id].l2_misses != misses) {
        struct hot_name *e = site_entry(access_site);
        if (e)
            e->misses += (uint32_t)(model->stats[id].l2_misses - misses);
    }
    slow_calls[id]++;
#ifdef MEMHOOK_CHECK_ERA
    if (era_check_expect) {
        const struct cache_stats *s = &model->stats[id];
        era_check_hits++;
        if (stall || s->accesses != before.accesses + 1 || s->l1_misses != before.l1_misses ||
            s->upgrades != before.upgrades || s->invalidations != before.invalidations ||
            memhook_l1_stamp[era_check_expect - 1] != memhook_lru_clock)
            era_check_bad++;
    }
#endif
    return stall;
}

/* ---- the goodness line's fast path ----
 *
 * In 2.4's layout a task's goodness fields are seen by the model at their
 * line (era_map), and the real chunks that hold them never enter the
 * filters, so every access to them (most of goodness()'s scan: 25 M of 26 M
 * slow calls in a 1,600-task hackbench) reached the whole model to find,
 * mostly, an L1 hit.  era_hit moves the address where model_step would
 * and asks the filter again: a hit is all model_step would have done with
 * it (cache.h's filters are exact: the line becomes the most recent of its
 * set, one access is counted, the debt folded; nothing else), in a few
 * dozen instructions.  Only for an entry point's access (not a copy's or
 * string.c's) of at most 8 bytes, neither it nor its goodness-line bytes
 * across a 32-byte chunk (model_step would see two lines, or forget a
 * second chunk), a mapped byte of a live task's block, era layout on.
 * Branch-free, so that memhook_miss's other path has one instruction
 * count whatever stopped this one (calibrate() measures both). */

/* The stamp's index + 1 of the line the access is seen at, when the
 * filter answers for it; else 0. */
static inline __attribute__((always_inline)) uint32_t era_hit(uint32_t a, uint32_t size, uint32_t flags)
{
    uint32_t ok, x, y, t;
    __asm__ volatile(
        "movl %[on], %[ok]\n\t"
        "movl %[a], %[x]\n\t"
        "andl $%c[bmask], %[x]\n\t"               /* the offset in the block */
        "movl $%c[tbytes], %[y]\n\t"
        "cmpl %[y], %[x]\n\t"
        "cmovae %[y], %[x]\n\t"                   /* past the task: the map's last entry, -1 */
        "movswl %c[map](,%[x],2), %[x]\n\t"        /* its offset in the goodness line */
        "movl %[a], %[t]\n\t"
        "andl $-%c[bbytes], %[t]\n\t"
        "addl %[x], %[t]\n\t"                     /* where model_step would move it */
        "notl %[x]\n\t"
        "sarl $31, %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* a mapped byte */
        "movl %[a], %[x]\n\t"
        "shrl $%c[bshift], %[x]\n\t"
        "btl %[x], %c[blocks]\n\t"
        "sbbl %[x], %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* of a live task's block */
        "movl %[flags], %[x]\n\t"
        "andl $%c[kinds], %[x]\n\t"
        "subl $%c[entry], %[x]\n\t"
        "negl %[x]\n\t"
        "sbbl %[x], %[x]\n\t"
        "notl %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* an entry point's access, not a copy's */
        "movl %[size], %[x]\n\t"
        "cmpl $9, %[x]\n\t"
        "sbbl %[x], %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* of at most 8 bytes */
        "movl %[size], %[y]\n\t"
        "leal -1(%[a],%[y]), %[x]\n\t"
        "xorl %[a], %[x]\n\t"
        "andl $-32, %[x]\n\t"
        "negl %[x]\n\t"
        "sbbl %[x], %[x]\n\t"
        "notl %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* in one chunk */
        "leal -1(%[t],%[y]), %[x]\n\t"
        "xorl %[t], %[x]\n\t"
        "andl $-32, %[x]\n\t"
        "negl %[x]\n\t"
        "sbbl %[x], %[x]\n\t"
        "notl %[x]\n\t"
        "andl %[x], %[ok]\n\t"                    /* ... and so in the goodness line */
        "movl %%gs:%c[rfilter], %[x]\n\t"
        "testl $%c[writes], %[flags]\n\t"
        "cmovnzl %%gs:%c[wfilter], %[x]\n\t"      /* the filter */
        "movl %[t], %[y]\n\t"
        "shrl $%c[cshift] - 2, %[y]\n\t"
        "andl $%c[fmask], %[y]\n\t"
        "addl %[y], %[x]\n\t"                     /* the entry */
        "shrl $%c[cshift], %[t]\n\t"
        "subl (%[x]), %[t]\n\t"
        "negl %[t]\n\t"
        "sbbl %[t], %[t]\n\t"
        "notl %[t]\n\t"
        "andl %[t], %[ok]\n\t"                    /* it answers */
        "movl %c[stamps](%[x]), %[x]\n\t"
        "incl %[x]\n\t"
        "andl %[x], %[ok]"
        : [ok] "=&r"(ok), [x] "=&r"(x), [y] "=&r"(y), [t] "=&r"(t)
        : [a] "r"(a), [size] "m"(size), [flags] "m"(flags), [on] "m"(era_fast_on), [map] "i"(era_map),
          [blocks] "i"(era_blocks), [bmask] "i"(ERA_BLOCK_BYTES - 1), [bbytes] "i"(ERA_BLOCK_BYTES),
          [bshift] "i"(ERA_BLOCK_SHIFT), [tbytes] "i"(ERA_TASK_BYTES), [kinds] "i"(MEMHOOK_FROM_ENTRY | MEMHOOK_FROM_COPY),
          [entry] "i"(MEMHOOK_FROM_ENTRY), [writes] "i"(CACHE_WRITE | CACHE_ATOMIC), [rfilter] "i"(PERCPU_MACHINE_RFILTER),
          [wfilter] "i"(PERCPU_MACHINE_WFILTER), [cshift] "i"(CACHE_CHUNK_SHIFT), [fmask] "i"((CACHE_FILTER - 1) * 4),
          [stamps] "i"(CACHE_FILTER * 4)
        : "cc", "memory");
    (void)y, (void)t;
    return ok;
}

/* irq_save() whose cli comes third wherever the flags are kept (a
 * register or the stack): an interrupt that lands before it sees the same
 * instructions in flight on every path and in every build of this file
 * (memhook_miss's first 15, as when irq_save kept them in a register). */
static inline __attribute__((always_inline)) unsigned long irq_save_at_cli(void)
{
    unsigned long f;
    __asm__ volatile("pushfl\n\tpopl %0\n\tcli" : "=rm"(f) : : "memory");
    return f;
}

void vsmp_machine_stalled(uint32_t cycles, uint64_t local);     /* vsmp.c */
/* Not the fast path's: the model with interrupts off between two reads of
 * the TSC; what it measured, slow_cost and the stall go into the base. */
void memhook_miss(uint32_t a, uint32_t size, uint32_t flags);
__attribute__((noinline, used)) void memhook_miss(uint32_t a, uint32_t size, uint32_t flags)
{
    if (!model) {
        owe(null_cost);
        return;
    }
    /* The dispatcher's own accesses (not charged: thaw sets the clock),
     * and the LAPIC's and I/O APIC's registers (uncached memory-mapped I/O:
     * the EOI after every interrupt), are not the machine's.  The latter's
     * instrumentation (one call an interrupt) is charged as the kernel's
     * time: owing it here made the vsmp=1 timer fire early and often (rr
     * pipe, 20,612 timer interrupts instead of 146; not understood, left). */
    if (frozen || a >= MMIO_BASE)
        return;
    unsigned long f = irq_save_at_cli();
    struct cpu *c = this_cpu();
#ifdef MEMHOOK_TEST_PAD
    /* -DMEMHOOK_TEST_PAD=20: a slower call outside the model's reads
     * (given back as slow_cost, calibrated), to measure how far the model's
     * fixed costs move a boot's figures (vsmp's K leaves out only the reads'
     * insides: docs/notebook/2026-12-07-caches-host-cost-cut.md). */
    __asm__ volatile(".rept %c0\n\tnop\n\t.endr" : : "i"(MEMHOOK_TEST_PAD) : "memory");
#endif
    uint64_t t0 = rdtsc_fenced();
    /* Inside the reads: a miss's check is the model's work, left out of
     * vsmp's K with the rest of it, so slow_cost and K are what they were
     * without the path. */
    uint32_t hit = era_fast_on ? era_hit(a, size, flags) : 0;
#ifdef MEMHOOK_CHECK_ERA
    era_check_expect = hit;     /* model_step checks what the path would have done */
    hit = 0;
#endif
    if (hit) {
        /* model_step's whole work for it (fold() without the spills: there are none) */
        memhook_l1_stamp[hit - 1] = ++memhook_lru_clock;
        model->stats[c->id].accesses++;
        uint32_t d = c->machine_debt;
        c->machine_debt = 0;
        debt_folded[c->id] += d;
        c->tsc_base += (uint64_t)d + era_cost;  /* and the call's own cycles */
        /* vsmp's K counts what a slow call's fixed cost would have been
         * (slow_cost), no more: the rest of this call is left out like a
         * slow call's model work, so the timer fires where it did. */
        model_cycles += era_k;
        irq_restore(f);
        return;
    }
    uint64_t stall = model_step(c, a, size, flags, t0, &a);
    if (stall)                      /* (the clock at t0, model_step having folded the debt, plus the stall) */
        vsmp_machine_stalled((uint32_t)stall, t0 - c->tsc_base + stall);
#ifdef MEMHOOK_TEST_BURN
    cost_burn(MEMHOOK_TEST_BURN);   /* a slower model: the figures must not move (tests/qemu/caches.sh) */
#endif
    uint64_t t1 = rdtsc_fenced();
    uint64_t owed = slow_cost;
    if (spill_milli) {              /* off by default */
        uint32_t spill = spill_acc[c->id] + spill_milli;
        spill_acc[c->id] = spill % 1000;
        owed += spill / 1000;
    }
    c->tsc_base += (t1 - t0) + owed - stall;
    model_cycles += t1 - t0;
    irq_restore(f);
}

/* The fast path and the entry points are kernel/machine/memhook-thunks.S
 * (memhook-plugin.cc calls them); it reads these: the cost it owes, and
 * the model's L1 LRU clock and stamps (cache.h, cache_fast). */
uint32_t memhook_fast_cost;
uint32_t memhook_lru_clock;
uint32_t *memhook_l1_stamp;

void __asan_loadN_noabort(uint32_t a, uint32_t size);
void __asan_loadN_noabort(uint32_t a, uint32_t size) { memhook_miss(a, size, 0); }
void __asan_storeN_noabort(uint32_t a, uint32_t size);
void __asan_storeN_noabort(uint32_t a, uint32_t size) { memhook_miss(a, size, CACHE_WRITE); }
void __asan_handle_no_return(void);
void __asan_handle_no_return(void) {}

void machine_access(const volatile void *addr, size_t size, uint32_t flags)
{
    if (model && size)
        memhook_miss((uint32_t)(uintptr_t)addr, (uint32_t)size,
                     (flags & MACHINE_WRITE ? CACHE_WRITE : 0) | (flags & MACHINE_ATOMIC ? CACHE_ATOMIC : 0));
}

/* ---- boot ---- */

/* Cycles of n iterations of two accesses as memhook-plugin.cc makes them
 * (push eax, lea, call, pop eax), of a then of b, and the loop's own 2
 * instructions (dec, jnz): 1 per access. */
#define CALIBRATION_LOOPS 1000
#define LOOP_INSNS_PER_CALL 1
#define SITE_INSNS_PER_CALL 0
static __attribute__((noinline)) uint64_t calibration_loop(uint32_t a, uint32_t b)
{
    uint32_t n = CALIBRATION_LOOPS;
    uint64_t t0 = rdtsc();
    __asm__ volatile("1:\n\t"
                     "pushl %%eax\n\t"
                     "leal (%1), %%eax\n\t"
                     "call __memhook_load4\n\t"
                     "popl %%eax\n\t"
                     "pushl %%eax\n\t"
                     "leal (%2), %%eax\n\t"
                     "call __memhook_load4\n\t"
                     "popl %%eax\n\t"
                     "decl %0\n\t"
                     "jnz 1b"
                     : "+r"(n)
                     : "S"(a), "D"(b)
                     : "memory", "cc");
    return rdtsc() - t0;
}

/* What one call costs a site, from the loop's cycles (and those the model
 * gave back itself, inside its reads). */
static uint32_t per_call(uint64_t loop, uint64_t inner)
{
    uint64_t calls = 2 * CALIBRATION_LOOPS;
    uint64_t outside = loop - inner;
    uint64_t per = (outside + calls / 2) / calls;
    return (uint32_t)(per - LOOP_INSNS_PER_CALL + SITE_INSNS_PER_CALL);
}

/* Two addresses 128 KB apart (CACHE_FILTER chunks) share a filter entry and an L1 set (every
 * preset's L1 way is at most 4 KB): alternating them, every call misses
 * the filter and hits the L1. */
static uint8_t calibration_area[CACHE_FILTER * 32 + 64] __attribute__((aligned(64)));
_Static_assert(CACHE_FILTER * 32 >= 2 * ERA_BLOCK_BYTES, "the calibration area holds an 8 KB block");

BOOT_CODE static void calibrate(struct cpu *c)
{
    uint32_t a = (uint32_t)(uintptr_t)calibration_area, b = a + CACHE_FILTER * 32;
    fast_cost = slow_cost = null_cost = memhook_fast_cost = 0;
    spill_milli = 0;
    struct cache_model *m = model;
    /* no model: every call is a null miss */
    model = NULL;
    c->machine_rfilter = c->machine_wfilter = empty_filter;
    null_cost = per_call(calibration_loop(a, a), 0);
    model = m;
    if (model) {
        c->machine_rfilter = model->rfilter + (size_t)c->id * CACHE_FILTER_STRIDE;
        c->machine_wfilter = model->wfilter + (size_t)c->id * CACHE_FILTER_STRIDE;
        calibration_loop(a, b);             /* both lines in */
        uint64_t inner = *(volatile uint64_t *)&model_cycles;
        uint64_t loop = calibration_loop(a, b);
        slow_cost = per_call(loop, *(volatile uint64_t *)&model_cycles - inner);
        fast_cost = per_call(calibration_loop(a, a), 0);
        memhook_fast_cost = fast_cost;
        /* The goodness line's path: an 8 KB block in the area past a's
         * line taken for a task's, its byte 0 seen at byte 64, whose line
         * is in (byte 0's chunk is not: every call misses the filter). */
        uint32_t blk = (a + 64 + ERA_BLOCK_BYTES - 1) & ~(ERA_BLOCK_BYTES - 1);
        calibration_loop(blk + 64, blk + 64);
        era_blocks[blk >> ERA_BLOCK_SHIFT >> 5] |= 1u << ((blk >> ERA_BLOCK_SHIFT) & 31);
        uint32_t on = era_fast_on;
        int16_t map0 = era_map[0];
        era_map[0] = 64;
        era_fast_on = ~0u;
        era_cost = per_call(calibration_loop(blk, blk), 0);
        /* (it always is: the path's call is a slow call's and some dozens more) */
#ifdef MEMHOOK_CHECK_ERA
        era_fast_on = on;       /* (the check's hits take the slow path: era_cost is a slow call's) */
#else
        era_fast_on = era_cost >= slow_cost && era_cost - slow_cost <= 255 ? on : 0;
#endif
        era_k = (uint8_t)(era_cost - slow_cost);
        era_map[0] = map0;
        era_blocks[blk >> ERA_BLOCK_SHIFT >> 5] &= ~(1u << ((blk >> ERA_BLOCK_SHIFT) & 31));
    }
    memhook_copy_calibrate(model ? slow_cost : null_cost);     /* memcopy.c: the inline-asm copies' sequence */
    fold(c);
    spill_milli = cmdline_key_uint(&machine_keys[KEY_MEMHOOK_SPILL]);
}

BOOT_CODE void machine_boot(int ncpus, bool vsmp, char *words, size_t size)
{
    machine_keys_register();
    int choice = cmdline_key_choice(&machine_keys[KEY_MACHINE]);
    lat_pct = cmdline_key_uint(&machine_keys[KEY_MACHINE_LAT_PCT]);
    if (choice && !vsmp)
        cmdline_error("machine", "needs vsmp= (ACCEL=vsmp): the model's stalls are the logical CPUs' virtual time");
    if (!choice && cmdline_given(&machine_keys[KEY_MACHINE_LAT_PCT]))
        cmdline_error("machine_lat_pct", "needs machine=");
    if (!choice && cmdline_given(&machine_keys[KEY_MACHINE_LAYOUT]))
        cmdline_error("machine_layout", "needs machine=");
    era_layout = choice && cmdline_key_choice(&machine_keys[KEY_MACHINE_LAYOUT]) == 0;
    memset(empty_filter, 0xff, sizeof(empty_filter));
    for (int i = 0; i < MAX_CPUS; i++) {
        cpus[i].machine_rfilter = cpus[i].machine_wfilter = empty_filter;
        cpus[i].machine_debt = 0;
    }
    const struct cache_preset *p = choice ? &cache_presets[choice - 1] : NULL;
    size_t bytes = 0;
    void *mem = NULL;
    if (p) {
        bytes = cache_model_bytes(p, ncpus, true);
        mem = page_alloc((int)((bytes + PAGE_SIZE - 1) / PAGE_SIZE));
        if (!mem)
            cmdline_error("machine", "no memory for the model's caches (give the guest more: MEM=)");
        const char *why = "?";
        model = cache_init(mem, p, ncpus, lat_pct, true, &why);
        if (!model)
            cmdline_error("machine", why);
        model->lru_clock = &memhook_lru_clock;
        memhook_l1_stamp = model->l1_stamp;
        name_ = p->name;
    }
    era_setup();                            /* (before calibrate: era_hit's path is on a slow call's) */
    calibrate(&cpus[0]);
    sort_sites();
    t26_setup();
    if (model) {
        /* The calibration's accesses are not the run's.  The model is
         * detached while cache_init rebuilds it: cache_init's memsets are
         * kernel/string.c's, which charge their ranges to `model`, and
         * charging the filters' memsets to the struct being rebuilt (its
         * presence table already zeroed to NULL) wrote a byte per line at
         * low physical addresses, into the kernel's text from 7 CPUs of
         * piii-xeon-1m and 6 of piii-xeon-2m (those boots crashed or hung),
         * and left the filters' lines in CPU 0's caches at the start. */
        const char *why;
        model = NULL;
        model = cache_init(mem, p, ncpus, lat_pct, true, &why);
        model->lru_clock = &memhook_lru_clock;
        memhook_lru_clock = 0;
        model->moved = line_moved;
        model_cycles = 0;
        slow_calls[0] = 0;
        debt_folded[0] = 0;
        for (int i = 0; i < ncpus; i++) {
            cpus[i].machine_rfilter = model->rfilter + (size_t)i * CACHE_FILTER_STRIDE;
            cpus[i].machine_wfilter = model->wfilter + (size_t)i * CACHE_FILTER_STRIDE;
        }
    }
    null_calls[0] = 0;
    /* memhook_insns=: what an access costs the instrumentation and is owed
     * back: fast/slow path with a model, every access without one; then the
     * memhook_spill_milli correction per access. */
    if (model)
        snprintf(words, size, " machine=%s memhook_insns=%u/%u/%u.%03u", name_, fast_cost, slow_cost,
                 spill_milli / 1000, spill_milli % 1000);
    else
        snprintf(words, size, " machine=none memhook_insns=%u/%u.%03u", null_cost, spill_milli / 1000,
                 spill_milli % 1000);
    if (model) {
        size_t n = strlen(words);
        snprintf(words + n, size - n, " machine_lat_pct=%u machine_layout=%s", lat_pct, era_layout ? "era" : "flat");
    }
}

extern char _end[];

/* The object of a name: up to its first '.' or '[' ("task.on_cpu": task). */
static size_t object_len(const char *what)
{
    size_t n = 0;
    while (what[n] && what[n] != '.' && what[n] != '[')
        n++;
    return n;
}

/* The kinds of objects whose accesses moved lines between CPUs most
 * (field=*: all of the object's fields), then the fields; then the same
 * by L2 misses (by=misses: where a CPU's own misses went). */
enum { BY_MOVES, BY_MISSES };
static uint64_t weight_of(uint64_t moves, uint64_t invals, uint64_t misses, int by)
{
    return by == BY_MOVES ? moves + invals : misses;
}

static void print_object_line(const char *what, size_t len, const char *field, int by, uint64_t moves, uint64_t invals,
                              uint64_t misses)
{
    char name[88];
    size_t n = len < sizeof(name) - 1 ? len : sizeof(name) - 1;
    memcpy(name, what, n);
    name[n] = 0;
    kprintf(PROTO_FORMAT_OF(MEMLINE, MEMLINE_OBJECT), name, field, by == BY_MOVES ? "moves" : "misses",
            (unsigned long long)moves, (unsigned long long)invals, (unsigned long long)misses);
}

static void print_hot_objects_by(int by)
{
#ifndef MEMLINE_TOP_OBJECTS         /* (more in an experiment's build: CFLAGS_EXTRA=-DMEMLINE_TOP_OBJECTS=64) */
#define MEMLINE_TOP_OBJECTS 8
#endif
#ifndef MEMLINE_TOP_FIELDS
#define MEMLINE_TOP_FIELDS 12
#endif
    enum { TOP_OBJECTS = MEMLINE_TOP_OBJECTS, TOP_FIELDS = MEMLINE_TOP_FIELDS, MAX_OBJECTS = 256 };
    static struct { const char *what; size_t len; uint64_t moves, invals, misses; } obj[MAX_OBJECTS];
    int nobj = 0;
    for (int i = 0; i < HOT_NAMES; i++) {
        const struct hot_name *e = &hot_names[i];
        if (!e->what)
            continue;
        size_t len = object_len(e->what);
        int k = 0;
        while (k < nobj && !(obj[k].len == len && !memcmp(obj[k].what, e->what, len)))
            k++;
        if (k == nobj) {
            if (nobj == MAX_OBJECTS)
                continue;
            obj[nobj].what = e->what;
            obj[nobj].len = len;
            obj[nobj].moves = obj[nobj].invals = obj[nobj].misses = 0;
            nobj++;
        }
        obj[k].moves += e->moves;
        obj[k].invals += e->invals;
        obj[k].misses += e->misses;
    }
    for (int r = 0; r < TOP_OBJECTS && r < nobj; r++) {
        int best = r;
        for (int k = r + 1; k < nobj; k++)
            if (weight_of(obj[k].moves, obj[k].invals, obj[k].misses, by) >
                weight_of(obj[best].moves, obj[best].invals, obj[best].misses, by))
                best = k;
        if (!weight_of(obj[best].moves, obj[best].invals, obj[best].misses, by))
            break;
        print_object_line(obj[best].what, obj[best].len, "*", by, obj[best].moves, obj[best].invals, obj[best].misses);
        if (best != r) {
            __typeof__(obj[0]) t = obj[r];
            obj[r] = obj[best];
            obj[best] = t;
        }
    }
    static bool shown[HOT_NAMES];
    memset(shown, 0, sizeof(shown));
    for (int r = 0; r < TOP_FIELDS; r++) {
        int best = -1;
        uint64_t bw = 0;
        for (int i = 0; i < HOT_NAMES; i++) {
            const struct hot_name *e = &hot_names[i];
            uint64_t w = e->what ? weight_of(e->moves, e->invals, e->misses, by) : 0;
            if (w && !shown[i] && w > bw) {
                best = i;
                bw = w;
            }
        }
        if (best < 0)
            break;
        shown[best] = true;
        const struct hot_name *e = &hot_names[best];
        size_t len = object_len(e->what);
        const char *field = e->what[len] == '.' ? e->what + len + 1 : e->what[len] ? e->what + len : "-";
        print_object_line(e->what, len, field, by, e->moves, e->invals, e->misses);
    }
}

static void print_hot_objects(void)
{
    print_hot_objects_by(BY_MOVES);
    print_hot_objects_by(BY_MISSES);
    if (names_dropped)
        kprintf(PROTO_FORMAT_OF(MEMLINE, MEMLINE_DROPPED), (unsigned long long)names_dropped);
}

/* The lines that moved between CPUs most (memline lines), most first. */
static void print_hot_lines(void)
{
    enum { TOP = 12 };
    int best[TOP], n = 0;
    for (int i = 0; i < HOT_LINES; i++) {
        if (!hot[i].line)
            continue;
        uint64_t w = (uint64_t)hot[i].moves + hot[i].invals;
        int k = n < TOP ? n++ : TOP;
        while (k > 0 && (uint64_t)hot[best[k - 1]].moves + hot[best[k - 1]].invals < w) {
            if (k < TOP)
                best[k] = best[k - 1];
            k--;
        }
        if (k < TOP)
            best[k] = i;
    }
    uint32_t cpu_lo = (uint32_t)(uintptr_t)&cpus[0], cpu_hi = (uint32_t)(uintptr_t)&cpus[MAX_CPUS];
    for (int r = 0; r < n; r++) {
        const struct hot_line *e = &hot[best[r]];
        uint32_t addr = (e->line - 1) << model->line_shift;
        char where[40];
        if (addr >= cpu_lo && addr < cpu_hi)
            snprintf(where, sizeof(where), "cpu%u+%u", (addr - cpu_lo) / (uint32_t)sizeof(struct cpu),
                     (addr - cpu_lo) % (uint32_t)sizeof(struct cpu));
        else
            snprintf(where, sizeof(where), "%s", addr < (uint32_t)(uintptr_t)_end ? "image" : "heap");
        kprintf(PROTO_FORMAT(MEMLINE), r + 1, addr, e->moves, e->invals, e->site, where);
    }
    if (hot_dropped)
        kprintf(PROTO_FORMAT_OF(MEMLINE, MEMLINE_DROPPED), (unsigned long long)hot_dropped);
    print_hot_objects();
}

void machine_print_stats(void)
{
    if (!model) {
        kprintf(PROTO_FORMAT_OF(MEMSTAT, MEMSTAT_NONE), "none", null_cost, spill_milli);
        for (int i = 0; i < ncpus_online; i++) {
            unsigned long f = irq_save();
            fold(&cpus[i]);
            irq_restore(f);
            kprintf(PROTO_FORMAT_OF(MEMSTAT, MEMSTAT_CPU_NONE), i,
                    (unsigned long long)(null_cost ? debt_folded[i] / null_cost : 0));
        }
        return;
    }
    kprintf(PROTO_FORMAT(MEMSTAT),
            model->p.name, lat_pct, model->p.line_bytes, model->p.l1_bytes / 1024, model->p.l1_ways,
            model->p.l2_bytes / 1024, model->p.l2_ways, model->p.l2_cores, model->p.l2_ns, model->p.mem_ns,
            model->p.c2c_ns, model->p.l1_xfer_ns, model->p.bus_ns, model->p.bus_inval_ns,
            (unsigned long long)(model->bus.busy_ns / 1000), (unsigned long long)model->bus.stale,
            (unsigned long long)(cycles_to_ns(model_cycles) / NSEC_PER_MSEC), t26_checked);
    for (int i = 0; i < model->ncpus; i++) {
        const struct cache_stats *s = &model->stats[i];
        uint64_t fast = fast_cost ? debt_folded[i] / fast_cost : 0;
        kprintf(PROTO_FORMAT_OF(MEMSTAT, MEMSTAT_CPU),
                i, (unsigned long long)(s->accesses + fast), (unsigned long long)fast,
                (unsigned long long)s->l1_misses, (unsigned long long)s->l2_misses, (unsigned long long)s->c2c,
                (unsigned long long)s->l1_xfers, (unsigned long long)s->upgrades,
                (unsigned long long)s->invalidations, (unsigned long long)s->writebacks,
                (unsigned long long)(s->bus_wait_ns / 1000), (unsigned long long)(s->stall_ns / 1000));
    }
    print_hot_lines();
#ifdef MEMHOOK_CHECK_ERA
    kprintf("era_check hits=%llu bad=%llu\n", (unsigned long long)era_check_hits, (unsigned long long)era_check_bad);
#endif
}

#endif
