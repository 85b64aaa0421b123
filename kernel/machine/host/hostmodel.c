/*
 * The host model: the memory model of kernel/machine/cache.c run inside
 * QEMU as a TCG plugin (docs/caches.md, "The host model"), instead of in
 * the guest through compiler instrumentation (CACHES=1).  The guest is the
 * plain kernel, bit for bit; the model costs it no instruction.
 *
 * What it does, for a vsmp boot (QEMU runs one vCPU under -icount shift=0,
 * the kernel runs N logical CPUs on it, kernel/machine/vsmp.c):
 *   - every load and store of a translated instruction calls access_cb()
 *     (QEMU_PLUGIN_MEM_RW), except the instructions the in-guest model
 *     does not instrument either, decided once per translation (decode()):
 *     the stack frame (push, pop, call, ret, and operands based on %esp or
 *     %ebp), %gs-relative per-CPU accesses, jumps through memory (jump
 *     tables), and every instruction inside the address ranges given with
 *     skip= (the dispatcher and the rest of kernel/machine/, kernel/time.c,
 *     the assembly files: tools/qemu-run.sh takes them from the link map);
 *   - the access belongs to the logical CPU vsmp runs, read from guest
 *     memory (vsmp_cur) through the guest's RAM, which QEMU keeps in a
 *     shared file (-object memory-backend-file,share=on) that this plugin
 *     maps;
 *   - cache_fast() or cache_access() of that CPU, with MESI coherence
 *     between the CPUs' caches and the front-side bus in their local time
 *     (RDTSC - cpus[cur].tsc_base, as the guest's clock: kernel/time.h);
 *   - a stall is time that passes with no instruction: it is given to
 *     QEMU's icount clock as instructions that did not run (the current
 *     budget is shortened by it; what is beyond the budget goes into the
 *     clock's bias).  RDTSC, and so the running logical CPU's clock, moves
 *     on by the stall at once, and the one hardware timer, which counts
 *     that clock, fires when instructions and stalls reach its deadline:
 *     vsmp's time and timers see every stall, and the guest runs no
 *     instruction for it (nothing the dispatcher does depends on it);
 *     as the in-guest model does, the stall is added to the CPU's
 *     vcpus[].ran_from (vsmp's hookless quantum counts instructions only),
 *     the one word of guest memory the plugin writes.
 *
 * QEMU's plugin API (version 1, QEMU 7.2) can neither read guest memory nor
 * move the clock: the RAM comes from the shared file, and the clock is
 * moved through QEMU 7.2's own exported state (timers_state, the vCPU's
 * icount budget), whose layout is checked against this build of QEMU at
 * install and at the first access (check_qemu()).  Any other QEMU: a clear
 * error, no run.
 *
 * Arguments (-plugin hostmodel.so,arg=value,...; all but the optional ones
 * are given by tools/qemu-run.sh): preset=NAME ncpus=N lat_pct=P
 * ram=FILE ram_mb=M cur=ADDR cpus=ADDR cpu_stride=BYTES vcpus=ADDR
 * vcpu_stride=BYTES ran_from=OFFSET start=ADDR out=FILE, skip=LO-HI
 * (repeated); for a make CACHES=host kernel era_map=ADDR era_chunks=ADDR
 * era_blocks=ADDR era_shift=N era_task_bytes=N (2.4's goodness line) and
 * t26_map=ADDR t26_chunks=ADDR t26_slab=ADDR t26_checked=ADDR
 * t26_geom=H:O:P:C:A:S t26_task=L:S:C:T:N (2.6.0's task_struct);
 * optional burn=N, profile=1.
 *
 * Built with -fvisibility=hidden -Wl,-Bsymbolic: QEMU exports a cache_init
 * of its own, which the plugin's calls would otherwise bind to.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../cache.h"

/* ---- QEMU 7.2's plugin API (include/qemu/qemu-plugin.h is not installed) ---- */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
typedef uint32_t qemu_plugin_meminfo_t;
typedef void (*mem_cb_t)(unsigned int, qemu_plugin_meminfo_t, uint64_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *, mem_cb_t, int flags, int rw, void *);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *, void (*)(unsigned int, void *), int flags,
                                            void *);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, void *), void *);
#define QEMU_PLUGIN_CB_NO_REGS 0

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* ---- QEMU 7.2's clock (softmmu/timers-state.h, include/hw/core/cpu.h) ----
 * Offsets read off this QEMU's own code (icount_update, icount_get,
 * icount_get_raw_locked, cpu_exit: objdump -d of /usr/libexec/qemu-system-i386),
 * verified on two builds: Debian 1:7.2+dfsg-7+deb12u18 and its binNMU
 * 1:7.2+dfsg-7+deb12u18+b3 ("QEMU emulator version 7.2.22"; 2026-12-08:
 * the same offsets, and the meminfo bits of qemu_plugin_mem_is_store and
 * qemu_plugin_mem_size_shift the same):
 * timers_state.icount_time_shift at 26, .qemu_icount_bias at 40,
 * .qemu_icount at 64; CPUState.icount_budget at 0xe0, .icount_extra at
 * 0xe8, .icount_decr_ptr at 0x228 (its u16.low at offset 0, x86 being
 * little-endian; it points into the X86CPU, at CPUState + 0x1360 in both
 * builds, which bind_vcpu checks loosely).  Executed instructions of the current budget:
 * budget - (low + extra); the TSC under icount shift=0 is
 * bias + qemu_icount + that. */
#define TS_SHIFT 26
#define TS_BIAS 40
#define TS_ICOUNT 64
#define CPU_BUDGET 0xe0
#define CPU_EXTRA 0xe8
#define CPU_DECR_PTR 0x228
static char *ts;                    /* &timers_state */
static char *vcpu;                  /* the one vCPU's CPUState */
static uint16_t *decr_low;
static void *(*get_cpu)(int);

/* ---- configuration ---- */
#define MAX_SKIPS 64
static struct { uint32_t lo, hi; } skips[MAX_SKIPS];
static int nskips;
static uint32_t cur_addr, cpus_addr, cpu_stride, start_addr;
static uint32_t vcpus_addr, vcpu_stride, ran_from_off;
static int ncpus;
static unsigned char *ram;
static size_t ram_bytes;
static const char *out_path;
static struct cache_model *m;
static const struct cache_preset *preset;
static uint32_t lat_pct = 100;
static bool active;

/* ---- what happened ---- */
static uint64_t callbacks, mmio, beyond_ram, bad_cpu, slow, stall_total, bias_added, insns_seen, insns_modelled;
static uint64_t skipped_range, skipped_stack, skipped_gs, skipped_jump;
static uint64_t era_accesses, era_moved, era_fast;
static uint64_t fast[CACHE_MAX_CPUS];
/* burn=N (a control, tests/qemu/caches_host.sh): N more rounds of busy
 * work in every slow access, a model that much slower; the guest's
 * figures must not move (the model's cost is the host's, not the guest's). */
static uint32_t burn;
static volatile uint32_t burn_sink;

#define PERCPU_TSC_BASE 36          /* kernel/percpu.h */
#define MMIO_BASE 0xfe000000u       /* the LAPIC and I/O APIC: uncached (kernel/machine/memhooks.c) */

/* Per instruction (the callback's userdata): which of its accesses go
 * through the model. */
#define M_LOADS 1u
#define M_STORES 2u
#define M_ATOMIC 4u
#define M_STRING 8u                 /* a string instruction's access (a copy's word: rep movs, stos, ...) */

/* ---- 2.4's goodness line (machine_layout=era on a make CACHES=host kernel) ----
 * The rule of kernel/machine/memhooks.c ("2.4's goodness line: the rule"),
 * as CACHES=1's model_step applies it: an access of at most 8 bytes, not a
 * copy's, to a byte of a live 2.4-layout task's block that the map moves,
 * is seen at its offset on the goodness line of that block; the real
 * chunks that hold moved bytes are forgotten by the filters after every
 * access (so the fast path never answers for them).  The kernel builds the
 * map and keeps the blocks' bits in its memory (hostmodel_era_map,
 * hostmodel_era_chunk_mapped, hostmodel_era_blocks); tools/qemu-run.sh
 * gives their addresses and the geometry (era_map= era_chunks=
 * era_blocks= era_shift= era_task_bytes=).  Copies (string instructions)
 * see the real layout, as CACHES=1's ranges do. */
static uint32_t era_map_addr, era_chunks_addr, era_blocks_addr, era_shift, era_task_bytes;

/* ---- 2.6.0's task_struct (machine_layout=era on a make CACHES=host kernel, o1 and nick) ----
 * The rule of kernel/machine/memhooks.c ("2.6.0's task_struct: the rule"),
 * as CACHES=1's model_step applies it: an access of at most 8 bytes, not a
 * copy's, to a byte of a struct task in the task slab (kernel/task.c) that
 * the map moves is seen at its offset in the object's head, or, for the
 * task's cpu (T26_TI), in its thread_info at the base of its stack block;
 * the real chunks that hold mapped bytes are forgotten after every access.
 * The kernel keeps the map, the mapped chunks and the slab's chunks' bits
 * in its memory (hostmodel_t26_map, _chunk_mapped, _chunks); the geometry
 * (kernel/task.h TASK26_*) and struct task's offsets come as t26_geom= and
 * t26_task= (tools/qemu-run.sh, from the kernel's absolute symbols).  The
 * thread_infos found at their stack block's base (sched/o1_common.h):
 * hostmodel_t26_checked, read at the end (t26_checked=). */
#define T26_TI (-2)
static uint32_t t26_map_addr, t26_chunks_addr, t26_slab_addr, t26_checked_addr;
static uint32_t t26_head, t26_obj, t26_per_page, t26_colours, t26_align, t26_shift;      /* t26_geom= */
static uint32_t t26_layout_off, t26_stack_off, t26_cpu_off, t26_ti_cpu_off, t26_layout26; /* t26_task= */
static uint64_t t26_accesses, t26_moved, t26_ti_moved;

/* The struct task of the task slab's object that holds a, or 0 (CACHES=1's t26_task_of). */
static inline uint32_t t26_task_of(uint32_t a)
{
    uint32_t n = a >> t26_shift;
    if (!((ram[t26_slab_addr + n / 8] >> (n % 8)) & 1))
        return 0;
    uint32_t pg = (a >> 12) & ((1u << (t26_shift - 12)) - 1), in = a & 4095, colour = (pg % t26_colours) * t26_align;
    if (in < colour)
        return 0;
    uint32_t i = (in - colour) / t26_obj;
    if (i >= t26_per_page)
        return 0;
    uint32_t t = (a & ~4095u) + colour + i * t26_obj + t26_head;
    return a >= t && a - t < era_task_bytes ? t : 0;
}

static void fail(const char *fmt, const char *a)
{
    fprintf(stderr, "hostmodel: error: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
}

/* ---- the clock ---- */

static inline uint64_t tsc_now(void)
{
    int64_t budget = *(int64_t *)(vcpu + CPU_BUDGET), extra = *(int64_t *)(vcpu + CPU_EXTRA);
    return (uint64_t)(*(int64_t *)(ts + TS_BIAS) + *(int64_t *)(ts + TS_ICOUNT) + budget - ((int64_t)*decr_low + extra));
}

/* `ns` passes with no instruction: taken from the instructions this budget
 * has left (they count as executed when QEMU next accounts them), and what
 * goes past the budget's end into the bias; the vCPU then leaves its
 * execution loop at the next block, where QEMU runs the timers now due. */
static inline void stall_clock(uint64_t ns)
{
    uint64_t low = *decr_low;
    int64_t *extra = (int64_t *)(vcpu + CPU_EXTRA);
    stall_total += ns;
    if (ns <= low) {
        *decr_low = (uint16_t)(low - ns);
        return;
    }
    ns -= low;
    *decr_low = 0;
    if ((int64_t)ns <= *extra) {
        *extra -= (int64_t)ns;
        return;
    }
    ns -= (uint64_t)*extra;
    *extra = 0;
    __atomic_add_fetch((int64_t *)(ts + TS_BIAS), (int64_t)ns, __ATOMIC_SEQ_CST);
    bias_added += ns;
}

static inline uint32_t ram32(uint32_t a) { uint32_t v; memcpy(&v, ram + a, 4); return v; }
static inline uint64_t ram64(uint32_t a) { uint64_t v; memcpy(&v, ram + a, 8); return v; }

static bool checked;
static bool check_qemu(void)
{
    /* Under -icount shift=0 the shift is 0 and the budget's parts are
     * consistent; an other QEMU's layout would show other values. */
    int16_t shift = *(int16_t *)(ts + TS_SHIFT);
    int64_t budget = *(int64_t *)(vcpu + CPU_BUDGET), extra = *(int64_t *)(vcpu + CPU_EXTRA);
    if (shift != 0 || budget < 0 || extra < 0 || extra > budget || *decr_low > budget) {
        fprintf(stderr, "hostmodel: error: QEMU's clock state is not where QEMU 7.2 (Debian 1:7.2+dfsg-7+deb12u18, +b3) "
                        "keeps it (shift %d, budget %lld, "
                        "extra %lld): this plugin reads QEMU 7.2's internals; no model run\n",
                shift, (long long)budget, (long long)extra);
        exit(3);
    }
    return checked = true;
}

/* profile=1: the stall by instruction address (a "hostprof pc=... stall_ns=...
 * misses=..." line each, after the memstat lines): where the model's time
 * goes, for comparing with the in-guest model's sites. */
#define PROF_SLOTS 65536
static bool profile;
static struct { uint32_t pc; uint64_t stall, n; } *prof;
static void profile_add(uint32_t pc, uint64_t stall)
{
    uint32_t h = (pc * 2654435761u) >> 16;
    for (uint32_t k = 0; k < PROF_SLOTS; k++, h = (h + 1) & (PROF_SLOTS - 1))
        if (prof[h].pc == pc || !prof[h].pc) {
            prof[h].pc = pc, prof[h].stall += stall, prof[h].n++;
            return;
        }
}

/* What qemu_plugin_mem_is_store() and qemu_plugin_mem_size_shift() return,
 * without a call each access: QEMU 7.2's meminfo is the MemOpIdx (MemOp << 4
 * | mmu index) | the access's kind << 16 (W = 2).  Checked against the two
 * functions at install (meminfo_checked). */
#define MEM_IS_STORE(info) (((info) >> 17) & 1u)
#define MEM_SIZE_SHIFT(info) (((info) >> 4) & 7u)
static bool meminfo_checked(void)
{
    for (uint32_t info = 0; info < (1u << 19); info += 7)
        if (MEM_IS_STORE(info) != (uint32_t)qemu_plugin_mem_is_store(info) ||
            MEM_SIZE_SHIFT(info) != qemu_plugin_mem_size_shift(info))
            return false;
    return true;
}

static void access_cb(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t va, void *ud)
{
    (void)vcpu_index;
    if (!active)
        return;
    uint32_t mode = (uint32_t)((uintptr_t)ud & 0xff);
    bool store = MEM_IS_STORE(info);
    callbacks++;
    if (va >= MMIO_BASE) {
        mmio++;
        return;
    }
    uint32_t a = (uint32_t)va, size = 1u << MEM_SIZE_SHIFT(info);
    if (a + size > ram_bytes) {
        beyond_ram++;
        return;
    }
    int cpu = (int)ram32(cur_addr);
    if (cpu < 0 || cpu >= ncpus) {
        bad_cpu++;
        return;
    }
    uint32_t fl = (mode & M_ATOMIC) ? CACHE_ATOMIC : store ? CACHE_WRITE : 0;
    if (((a ^ (a + size - 1)) >> CACHE_CHUNK_SHIFT) == 0 && cache_fast(m, cpu, a, fl)) {
        fast[cpu]++;
        return;
    }
    /* 2.4's goodness line (above): where CACHES=1's memhook_miss goes
     * after its filter missed (era_hit, then model_step) */
    uint32_t real = a, off = 0, t26 = 0;
    bool era = false;
    if (era_blocks_addr) {
        off = a & ((1u << era_shift) - 1);
        uint32_t blk = a >> era_shift;
        era = off < era_task_bytes && (ram[era_blocks_addr + blk / 8] >> (blk % 8)) & 1;
        if (era) {
            era_accesses++;
            int16_t to;
            memcpy(&to, ram + era_map_addr + 2 * off, 2);
            if (size <= 8 && to >= 0 && !(mode & M_STRING)) {
                a = (a & ~((1u << era_shift) - 1)) + (uint32_t)to;
                era_moved++;
                if (((a ^ (a + size - 1)) >> CACHE_CHUNK_SHIFT) == 0 && cache_fast(m, cpu, a, fl)) {
                    fast[cpu]++;
                    era_fast++;
                    return;
                }
            }
        }
    }
    /* 2.6.0's task_struct (above), as model_step (no fast path of its own
     * there: the moved access goes to the model) */
    if (t26_map_addr && !era && (t26 = t26_task_of(a))) {
        t26_accesses++;
        int16_t to;
        memcpy(&to, ram + t26_map_addr + 2 * (a - t26), 2);
        if (size <= 8 && !(mode & M_STRING)) {
            if (to >= 0) {
                a = t26 - t26_head + (uint32_t)to;
                t26_moved++;
            } else if (to == T26_TI) {
                uint32_t stack = ram32(t26 + t26_stack_off);
                if (ram[t26 + t26_layout_off] == t26_layout26 && stack >= 4096 && stack <= ram_bytes) {
                    a = stack - 4096 + t26_ti_cpu_off + (a - t26 - t26_cpu_off);   /* (after exit: where it is) */
                    t26_ti_moved++;
                }
            }
        }
    }
    if (!checked)
        check_qemu();
    slow++;
    for (uint32_t i = 0; i < burn; i++)
        burn_sink += i;
    uint64_t local = tsc_now() - ram64(cpus_addr + (uint32_t)cpu * cpu_stride + PERCPU_TSC_BASE);
    uint64_t stall = cache_access(m, cpu, a, size, fl, local);
    if (t26)
        for (uint32_t o = real - t26, ch = o / 32; ch * 32 < o + size && ch * 32 < era_task_bytes; ch++)
            if (ram[t26_chunks_addr + ch])
                cache_filter_forget(m, cpu, t26 + ch * 32);
    if (era)    /* the real chunks that hold moved bytes stay off the fast path */
        for (uint32_t ch = off / 32; ch * 32 < off + size && ch * 32 < era_task_bytes; ch++)
            if (ram[era_chunks_addr + ch])
                cache_filter_forget(m, cpu, (real & ~((1u << era_shift) - 1)) + ch * 32);
    if (stall) {
        stall_clock(stall);
        /* As the in-guest model's vsmp_machine_stalled(): a stall is not
         * code that ran without hooks, so it does not count towards the
         * quantum after which vsmp's timer finds the CPU hookless (a
         * copy's misses made CPUs hookless that call hooks as often as
         * without the model: docs/notebook/2026-12-07-caches-host-cost-3x.md).
         * The dispatcher reads ran_from only in its own code, where no
         * access is modelled, so nothing is half-read here. */
        unsigned char *rf = ram + vcpus_addr + (uint32_t)cpu * vcpu_stride + ran_from_off;
        uint64_t v;
        memcpy(&v, rf, 8);
        v += stall;
        memcpy(rf, &v, 8);
        if (profile)
            profile_add((uint32_t)((uintptr_t)ud >> 8), stall);
    }
}

static void start_cb(unsigned int vcpu_index, void *ud)
{
    (void)vcpu_index, (void)ud;
    active = true;
}

/* ---- which instructions' accesses the model sees ---- */

static bool in_skip(uint32_t pc)
{
    for (int i = 0; i < nskips; i++)
        if (pc >= skips[i].lo && pc < skips[i].hi)
            return true;
    return false;
}

/* Does a ModR/M operand address memory through %esp or %ebp (the stack
 * frame; the kernel keeps its frame pointer)? */
static bool modrm_stack(const uint8_t *b, size_t n, size_t i)
{
    if (i >= n)
        return false;
    uint8_t mod = b[i] >> 6, rm = b[i] & 7;
    if (mod == 3)
        return false;
    if (rm == 4) {
        if (i + 1 >= n)
            return false;
        uint8_t base = b[i + 1] & 7;
        return base == 4 || (base == 5 && mod != 0);
    }
    return rm == 5 && mod != 0;
}

static bool modrm_memory(const uint8_t *b, size_t n, size_t i) { return i < n && (b[i] >> 6) != 3; }

/* One-byte opcodes with a ModR/M byte. */
static bool has_modrm1(uint8_t op)
{
    if (op < 0x40)
        return (op & 7) < 4;
    return op == 0x62 || op == 0x63 || op == 0x69 || op == 0x6b || (op >= 0x80 && op <= 0x8f) || op == 0xc0 ||
           op == 0xc1 || (op >= 0xc4 && op <= 0xc7) || (op >= 0xd0 && op <= 0xd3) || (op >= 0xd8 && op <= 0xdf) ||
           op == 0xf6 || op == 0xf7 || op == 0xfe || op == 0xff;
}

/* The mode for an instruction's accesses (0: none). */
static uint32_t decode(const uint8_t *b, size_t n)
{
    size_t i = 0;
    bool lock = false, gs = false;
    for (; i < n; i++) {
        uint8_t p = b[i];
        if (p == 0xf0)
            lock = true;
        else if (p == 0x65)
            gs = true;
        else if (!(p == 0x66 || p == 0x67 || p == 0xf2 || p == 0xf3 || p == 0x2e || p == 0x36 || p == 0x3e ||
                   p == 0x26 || p == 0x64))
            break;
    }
    if (i >= n)
        return 0;
    if (gs) {
        skipped_gs++;
        return 0;
    }
    uint8_t op = b[i++];
    /* a locked read-modify-write: one access, at its load */
    uint32_t all = lock ? (M_LOADS | M_ATOMIC) : (M_LOADS | M_STORES);
    if (op == 0x0f) {
        if (i >= n)
            return 0;
        uint8_t op2 = b[i++];
        if (op2 == 0xa0 || op2 == 0xa1 || op2 == 0xa8 || op2 == 0xa9) {   /* push/pop %fs, %gs */
            skipped_stack++;
            return 0;
        }
        if ((op2 >= 0x80 && op2 <= 0x8f) || op2 == 0x31 || op2 == 0xa2 || (op2 >= 0xc8 && op2 <= 0xcf))
            return 0;       /* no memory operand */
        if (modrm_stack(b, n, i)) {
            skipped_stack++;
            return 0;
        }
        if (op2 == 0xb0 || op2 == 0xb1 || op2 == 0xc0 || op2 == 0xc1)   /* cmpxchg, xadd */
            return lock ? (M_LOADS | M_ATOMIC) : all;
        return modrm_memory(b, n, i) ? all : 0;
    }
    /* The stack's own instructions: push, pop, call, ret, enter, leave,
     * pushf/popf, pusha/popa, int, iret. */
    if ((op >= 0x50 && op <= 0x61) || op == 0x06 || op == 0x07 || op == 0x0e || op == 0x16 || op == 0x17 ||
        op == 0x1e || op == 0x1f || op == 0x68 || op == 0x6a || op == 0x9c || op == 0x9d || op == 0xc2 ||
        op == 0xc3 || op == 0xc8 || op == 0xc9 || op == 0xca || op == 0xcb || op == 0xcc || op == 0xcd ||
        op == 0xcf || op == 0xe8) {
        skipped_stack++;
        return 0;
    }
    if (op == 0x8f) {               /* pop r/m: the load is the stack's */
        if (!modrm_memory(b, n, i) || modrm_stack(b, n, i)) {
            skipped_stack++;
            return 0;
        }
        return M_STORES;
    }
    if (op == 0xff && i < n) {
        uint8_t reg = (b[i] >> 3) & 7;
        if (reg == 4 || reg == 5) { /* jmp through memory: jump tables */
            skipped_jump++;
            return 0;
        }
        if (reg == 2 || reg == 3 || reg == 6) {   /* call, lcall, push: the store is the stack's */
            if (!modrm_memory(b, n, i) || modrm_stack(b, n, i)) {
                skipped_stack++;
                return 0;
            }
            return M_LOADS;
        }
    }
    if (has_modrm1(op)) {
        if (modrm_stack(b, n, i)) {
            skipped_stack++;
            return 0;
        }
        if (!modrm_memory(b, n, i))
            return 0;
        if (op == 0x86 || op == 0x87)   /* xchg with memory: locked */
            return M_LOADS | M_ATOMIC;
        if (lock)
            return M_LOADS | M_ATOMIC;  /* one access for the read-modify-write */
        return all;
    }
    /* moffs moves, string instructions, xlat: memory through no stack register */
    if ((op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf))
        return all | M_STRING;
    if ((op >= 0xa0 && op <= 0xa3) || op == 0xd7)
        return all;
    return 0;
}

/* QEMU creates its CPU after the plugins are installed: the first
 * translation finds it (the one there is: vsmp runs one vCPU). */
static void bind_vcpu(void)
{
    vcpu = get_cpu(0);
    if (!vcpu) {
        fprintf(stderr, "hostmodel: error: no vCPU 0\n");
        exit(3);
    }
    decr_low = *(uint16_t **)(vcpu + CPU_DECR_PTR);
    /* &X86CPU.neg.icount_decr: just past the CPUState in the same object
     * (at CPUState + 0x1360 in the builds named above) */
    if ((char *)decr_low <= vcpu || (char *)decr_low - vcpu >= 0x10000) {
        fprintf(stderr, "hostmodel: error: QEMU's icount_decr_ptr is not where QEMU 7.2 (Debian 1:7.2+dfsg-7+deb12u18, "
                        "+b3) keeps it: this plugin reads QEMU 7.2's internals; no model run\n");
        exit(3);
    }
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    if (!vcpu)
        bind_vcpu();
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t k = 0; k < n; k++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
        uint32_t pc = (uint32_t)qemu_plugin_insn_vaddr(insn);
        insns_seen++;
        if (!active && pc == start_addr)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, start_cb, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (in_skip(pc)) {
            skipped_range++;
            continue;
        }
        uint32_t mode = decode(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
        if (!mode)
            continue;
        insns_modelled++;
        /* only the side the model sees: a callback costs QEMU a helper call */
        int rw = (mode & M_LOADS ? 1 : 0) | (mode & M_STORES ? 2 : 0);
        qemu_plugin_register_vcpu_mem_cb(insn, access_cb, QEMU_PLUGIN_CB_NO_REGS, rw,
                                         (void *)(((uintptr_t)pc << 8) | mode));
    }
}

/* ---- the report: memstat lines as the in-guest model's (memhooks.c) ---- */

static void finished(qemu_plugin_id_t id, void *u)
{
    (void)id, (void)u;
    FILE *f = out_path ? fopen(out_path, "w") : stderr;
    if (!f) {
        fprintf(stderr, "hostmodel: error: cannot write %s: %s\n", out_path, strerror(errno));
        f = stderr;
    }
    fprintf(f, "memstat model=host machine=%s lat_pct=%u line=%u l1_kib=%u l1_ways=%u l2_kib=%u l2_ways=%u "
               "l2_cores=%u l2_ns=%u mem_ns=%u c2c_ns=%u l1_xfer_ns=%u bus_ns=%u bus_inval_ns=%u bus_busy_us=%llu "
               "bus_stale=%llu\n",
            preset->name, lat_pct, m->p.line_bytes, m->p.l1_bytes / 1024, m->p.l1_ways, m->p.l2_bytes / 1024,
            m->p.l2_ways, m->p.l2_cores, m->p.l2_ns, m->p.mem_ns, m->p.c2c_ns, m->p.l1_xfer_ns, m->p.bus_ns,
            m->p.bus_inval_ns, (unsigned long long)(m->bus.busy_ns / 1000), (unsigned long long)m->bus.stale);
    for (int c = 0; c < ncpus; c++) {
        const struct cache_stats *s = &m->stats[c];
        fprintf(f, "memstat model=host cpu=%d accesses=%llu fast=%llu l1_misses=%llu l2_misses=%llu c2c=%llu "
                   "l1_xfers=%llu upgrades=%llu invalidations=%llu writebacks=%llu bus_wait_us=%llu stall_us=%llu\n",
                c, (unsigned long long)(s->accesses + fast[c]), (unsigned long long)fast[c],
                (unsigned long long)s->l1_misses, (unsigned long long)s->l2_misses, (unsigned long long)s->c2c,
                (unsigned long long)s->l1_xfers, (unsigned long long)s->upgrades,
                (unsigned long long)s->invalidations, (unsigned long long)s->writebacks,
                (unsigned long long)(s->bus_wait_ns / 1000), (unsigned long long)(s->stall_ns / 1000));
    }
    fprintf(f, "hoststat callbacks=%llu slow=%llu stall_ns=%llu past_budget_ns=%llu mmio=%llu beyond_ram=%llu "
               "bad_cpu=%llu translated_insns=%llu modelled_insns=%llu skipped_range=%llu skipped_stack=%llu "
               "skipped_gs=%llu skipped_jump=%llu started=%d burn=%u era_line=%s era_accesses=%llu era_moved=%llu "
               "era_fast=%llu t26=%s t26_accesses=%llu t26_moved=%llu t26_ti_moved=%llu thread_info_at_stack_base=%u\n",
            (unsigned long long)callbacks, (unsigned long long)slow, (unsigned long long)stall_total,
            (unsigned long long)bias_added, (unsigned long long)mmio, (unsigned long long)beyond_ram,
            (unsigned long long)bad_cpu, (unsigned long long)insns_seen, (unsigned long long)insns_modelled,
            (unsigned long long)skipped_range, (unsigned long long)skipped_stack, (unsigned long long)skipped_gs,
            (unsigned long long)skipped_jump, active, burn, era_blocks_addr ? "on" : "off",
            (unsigned long long)era_accesses, (unsigned long long)era_moved, (unsigned long long)era_fast,
            t26_map_addr ? "on" : "off", (unsigned long long)t26_accesses, (unsigned long long)t26_moved,
            (unsigned long long)t26_ti_moved, t26_checked_addr ? ram32(t26_checked_addr) : 0);
    for (uint32_t k = 0; profile && k < PROF_SLOTS; k++)
        if (prof[k].pc)
            fprintf(f, "hostprof pc=0x%x stall_ns=%llu stalls=%llu\n", prof[k].pc, (unsigned long long)prof[k].stall,
                    (unsigned long long)prof[k].n);
    if (f != stderr)
        fclose(f);
}

/* ---- install ---- */

static bool parse_u32(const char *v, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(v, &end, 0);
    if (errno || end == v || *end || x > 0xffffffffUL)
        return false;
    *out = (uint32_t)x;
    return true;
}


__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    const char *ram_path = NULL, *preset_name = NULL;
    /* The arguments that are one whole number, with their bounds (ran_from
     * is checked against vcpu_stride after the loop, in any order). */
    static uint32_t ram_mb, ncpu;
    static const struct {
        const char *key;
        uint32_t *out, min, max;
    } u32_args[] = {
        { "ram_mb", &ram_mb, 0, UINT32_MAX },
        { "ncpus", &ncpu, 1, CACHE_MAX_CPUS },
        { "burn", &burn, 0, UINT32_MAX },
        { "lat_pct", &lat_pct, 0, 1000 },
        { "cur", &cur_addr, 0, UINT32_MAX },
        { "cpus", &cpus_addr, 0, UINT32_MAX },
        { "cpu_stride", &cpu_stride, 1, UINT32_MAX },
        { "vcpus", &vcpus_addr, 0, UINT32_MAX },
        { "vcpu_stride", &vcpu_stride, 8, UINT32_MAX },
        { "ran_from", &ran_from_off, 0, UINT32_MAX },
        { "start", &start_addr, 0, UINT32_MAX },
        { "era_map", &era_map_addr, 0, UINT32_MAX },
        { "era_chunks", &era_chunks_addr, 0, UINT32_MAX },
        { "era_blocks", &era_blocks_addr, 0, UINT32_MAX },
        { "era_shift", &era_shift, 12, 20 },
        { "era_task_bytes", &era_task_bytes, 1, UINT32_MAX },
        { "t26_map", &t26_map_addr, 0, UINT32_MAX },
        { "t26_chunks", &t26_chunks_addr, 0, UINT32_MAX },
        { "t26_slab", &t26_slab_addr, 0, UINT32_MAX },
        { "t26_checked", &t26_checked_addr, 0, UINT32_MAX },
    };
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            fail("argument %s: expected key=value", argv[i]);
            return -1;
        }
        *eq = 0;
        const char *k = argv[i], *v = eq + 1;
        bool ok = true;
        size_t n = 0;
        while (n < sizeof u32_args / sizeof u32_args[0] && strcmp(k, u32_args[n].key))
            n++;
        if (n < sizeof u32_args / sizeof u32_args[0])
            ok = parse_u32(v, u32_args[n].out) && *u32_args[n].out >= u32_args[n].min &&
                 *u32_args[n].out <= u32_args[n].max;
        else if (!strcmp(k, "preset"))
            preset_name = v;
        else if (!strcmp(k, "ram"))
            ram_path = v;
        else if (!strcmp(k, "out"))
            out_path = v;
        else if (!strcmp(k, "profile")) {
            uint32_t on = 0;
            ok = parse_u32(v, &on);
            profile = on;
        } else if (!strcmp(k, "t26_geom"))     /* head:obj:per_page:colours:align:chunk_shift */
            ok = sscanf(v, "%u:%u:%u:%u:%u:%u", &t26_head, &t26_obj, &t26_per_page, &t26_colours, &t26_align,
                        &t26_shift) == 6 && t26_obj && t26_per_page && t26_colours && t26_shift > 12 && t26_shift <= 24;
        else if (!strcmp(k, "t26_task"))     /* layout:stack:cpu offsets in struct task, thread_info's cpu, TASK_LAYOUT_LINUX26 */
            ok = sscanf(v, "%u:%u:%u:%u:%u", &t26_layout_off, &t26_stack_off, &t26_cpu_off, &t26_ti_cpu_off,
                        &t26_layout26) == 5;
        else if (!strcmp(k, "skip")) {
            char *dash = strchr(v, '-');
            ok = dash && nskips < MAX_SKIPS;
            if (ok) {
                *dash = 0;
                ok = parse_u32(v, &skips[nskips].lo) && parse_u32(dash + 1, &skips[nskips].hi);
                nskips += ok;
            }
        } else {
            fail("unknown argument %s", k);
            return -1;
        }
        if (!ok) {
            fprintf(stderr, "hostmodel: error: %s=%s: bad value\n", k, v);
            return -1;
        }
    }
    if (vcpu_stride && ran_from_off + 8 > vcpu_stride) {
        fprintf(stderr, "hostmodel: error: ran_from=%u: bad value (past vcpu_stride=%u)\n", ran_from_off, vcpu_stride);
        return -1;
    }
    if (!preset_name || !ram_path || !ram_mb || !ncpu || !cur_addr || !cpus_addr || !cpu_stride || !start_addr || !vcpus_addr ||
        !vcpu_stride || !ran_from_off) {
        fail("%s", "needs preset= ram= ram_mb= ncpus= cur= cpus= cpu_stride= vcpus= vcpu_stride= ran_from= start= "
                   "(tools/qemu-run.sh gives them)");
        return -1;
    }
    ncpus = (int)ncpu;
    preset = cache_preset_find(preset_name);
    if (!preset) {
        fail("preset=%s: no such machine (make list-machines)", preset_name);
        return -1;
    }
    if (!meminfo_checked()) {
        fail("%s", "this QEMU's memory-access info is not QEMU 7.2's (the host model needs QEMU 7.2)");
        return -1;
    }
    ts = dlsym(RTLD_DEFAULT, "timers_state");
    get_cpu = (void *(*)(int))dlsym(RTLD_DEFAULT, "qemu_get_cpu");
    if (!ts || !get_cpu) {
        fail("%s", "this QEMU does not export timers_state and qemu_get_cpu (the host model needs QEMU 7.2's)");
        return -1;
    }
    int fd = open(ram_path, O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "hostmodel: error: ram=%s: %s\n", ram_path, strerror(errno));
        return -1;
    }
    ram_bytes = (size_t)ram_mb << 20;
    ram = mmap(NULL, ram_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (ram == MAP_FAILED) {
        fprintf(stderr, "hostmodel: error: cannot map %s: %s\n", ram_path, strerror(errno));
        return -1;
    }
    if (cur_addr + 4 > ram_bytes || cpus_addr + (uint64_t)cpu_stride * ncpu > ram_bytes ||
        vcpus_addr + (uint64_t)vcpu_stride * ncpu > ram_bytes) {
        fail("%s", "cur=, cpus= or vcpus= lies outside the guest's RAM");
        return -1;
    }
    if ((era_map_addr || era_chunks_addr || era_blocks_addr || era_shift || era_task_bytes) &&
        !(era_map_addr && era_chunks_addr && era_blocks_addr && era_shift && era_task_bytes &&
          era_task_bytes < (1u << era_shift) && era_map_addr + 2ull * (era_task_bytes + 1) <= ram_bytes &&
          era_chunks_addr + (era_task_bytes + 31) / 32 <= ram_bytes &&
          era_blocks_addr + (((uint64_t)ram_bytes >> era_shift) + 7) / 8 <= ram_bytes)) {
        fail("%s", "era_map=, era_chunks=, era_blocks=, era_shift= and era_task_bytes= go together, inside the "
                   "guest's RAM (tools/qemu-run.sh gives them for a make CACHES=host kernel)");
        return -1;
    }
    if ((t26_map_addr || t26_chunks_addr || t26_slab_addr || t26_checked_addr || t26_shift) &&
        !(t26_map_addr && t26_chunks_addr && t26_slab_addr && t26_checked_addr && t26_shift && era_task_bytes &&
          t26_head % 32 == 0 && t26_obj >= t26_head + era_task_bytes &&
          t26_map_addr + 2ull * era_task_bytes <= ram_bytes && t26_chunks_addr + (era_task_bytes + 31) / 32 <= ram_bytes &&
          t26_slab_addr + (((uint64_t)ram_bytes >> t26_shift) + 7) / 8 <= ram_bytes && t26_checked_addr + 4 <= ram_bytes &&
          t26_layout_off < era_task_bytes && t26_stack_off + 4 <= era_task_bytes && t26_cpu_off + 4 <= era_task_bytes)) {
        fail("%s", "t26_map=, t26_chunks=, t26_slab=, t26_checked=, t26_geom= and t26_task= go together, with "
                   "era_task_bytes=, inside the guest's RAM (tools/qemu-run.sh gives them for a make CACHES=host kernel)");
        return -1;
    }
    const char *why = NULL;
    size_t bytes = cache_model_bytes(preset, ncpus, true);
    void *mem = calloc(1, bytes);
    m = mem ? cache_init(mem, preset, ncpus, lat_pct, true, &why) : NULL;
    if (!m) {
        fail("the model: %s", why ? why : "out of memory");
        return -1;
    }
    if (profile && !(prof = calloc(PROF_SLOTS, sizeof *prof))) {
        fail("%s", "profile=1: out of memory");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
