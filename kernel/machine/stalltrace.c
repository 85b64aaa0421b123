/*
 * The memory model's biggest stalls as trace events (stalltrace.h).
 * Not instrumented (kernel/machine/), and called only from the model's step,
 * whose instructions are given back: recording costs no virtual time.
 */
#include "stalltrace.h"
#include "../lib.h"
#include "../mem.h"
#include "../cmdline.h"
#include "../time.h"
#include "../cpu.h"
#include "../task.h"
#include "cache.h"

bool stalltrace_recording;

#ifdef CACHES

/* -DSTALLTRACE_DRY=1: a kernel that differs from the plain one in this word
 * only (in .data either way, so no address moves) and records no stall.
 * tests/qemu/caches_trace.sh boots both with one command line (1 CPU):
 * recording the stalls must leave every figure as it was. */
#ifndef STALLTRACE_DRY
#define STALLTRACE_DRY 0
#endif
volatile int stalltrace_dry __attribute__((section(".data"))) = STALLTRACE_DRY;

/* 1 MiB a CPU: 16,384 ticks, 16 s of a CPU's virtual time at HZ=1000. */
#define STALL_BUF_PAGES 256
#define STALL_WINDOW_NS (1000000000ull / HZ)

struct stall_window {
    uint64_t index;             /* ts / STALL_WINDOW_NS */
    uint64_t ts;                /* the biggest stall's */
    uint32_t ns, total;         /* the biggest, and every stall of the window */
    uint32_t site;
    int32_t pid;
    const char *what;
    uint8_t src;
    bool open;
};

static struct trace_record *bufs[MAX_CPUS];
static uint32_t nrec[MAX_CPUS];
static uint64_t dropped[MAX_CPUS];
static struct stall_window win[MAX_CPUS];
static uint32_t capacity;
static int ncpus_;

void stalltrace_start(int ncpus, bool record)
{
    for (int cpu = 0; cpu < ncpus; cpu++) {
        bufs[cpu] = page_alloc(STALL_BUF_PAGES);
        if (!bufs[cpu])
            cmdline_error("trace", "not enough memory for the memory model's stall records (1 MiB a CPU)");
    }
    capacity = STALL_BUF_PAGES * PAGE_SIZE / sizeof(struct trace_record);
    ncpus_ = ncpus;
    stalltrace_recording = record && !stalltrace_dry;
}

static void commit(int cpu)
{
    struct stall_window *w = &win[cpu];
    w->open = false;
    if (nrec[cpu] == capacity) {
        dropped[cpu]++;
        return;
    }
    struct trace_record *r = &bufs[cpu][nrec[cpu]++];
    __builtin_memset(r, 0, sizeof(*r));     /* inlined: string.c's memset would call the model */
    r->ts_ns = w->ts;
    r->type = TRACE_MEMSTALL;
    r->cpu = (uint8_t)cpu;
    r->flags = w->src;
    r->pid = w->pid;
    r->pid2 = (int32_t)w->total;
    r->prio = (int16_t)(w->site & 0xffff);
    r->prio2 = (int16_t)(w->site >> 16);
    r->value = w->ns;
    /* the name fills comm and comm2: 31 characters and the NUL */
    char *name = r->comm;
    size_t i = 0;
    for (; w->what && w->what[i] && i < 2 * TRACE_COMM_LEN - 1; i++)
        name[i] = w->what[i];
}

void stalltrace_note(int cpu, uint64_t ts_ns, uint32_t stall_ns, enum trace_stall_source src, uint32_t site,
                     const char *what, int32_t pid)
{
    struct stall_window *w = &win[cpu];
    uint64_t index = ts_ns / STALL_WINDOW_NS;
    if (w->open && index != w->index)
        commit(cpu);
    if (!w->open) {
        w->open = true;
        w->index = index;
        w->ns = w->total = 0;
    }
    w->total += stall_ns;
    if (stall_ns > w->ns) {     /* the first of equal stalls stays */
        w->ns = stall_ns;
        w->ts = ts_ns;
        w->site = site;
        w->pid = pid;
        w->what = what;
        w->src = (uint8_t)src;
    }
}

void stalltrace_mark(const struct cache_stats *s, uint64_t mark[5])
{
    mark[0] = s->l2_misses;
    mark[1] = s->c2c;
    mark[2] = s->l1_xfers;
    mark[3] = s->upgrades;
    mark[4] = s->l1_misses;
}

void stalltrace_access(struct cpu *c, const struct cache_stats *s, const uint64_t mark[5], uint64_t now_cycles,
                       uint64_t stall_cycles, uint32_t site, const char *what)
{
    enum trace_stall_source src = s->c2c != mark[1]         ? TRACE_STALL_C2C
                                  : s->l2_misses != mark[0] ? TRACE_STALL_MEMORY
                                  : s->l1_xfers != mark[2]  ? TRACE_STALL_L1_XFER
                                  : s->upgrades != mark[3]  ? TRACE_STALL_UPGRADE
                                  : s->l1_misses != mark[4] ? TRACE_STALL_L2
                                  : TRACE_STALL_BUS;
    uint64_t ns = cycles_to_ns(stall_cycles);
    stalltrace_note(c->id, cycles_to_ns(now_cycles), ns > 0xffffffffu ? 0xffffffffu : (uint32_t)ns, src, site, what,
                    c->curr ? c->curr->pid : 0);
}

void stalltrace_stop(void)
{
    if (!stalltrace_recording)
        return;
    stalltrace_recording = false;
    for (int cpu = 0; cpu < ncpus_; cpu++)
        if (win[cpu].open)
            commit(cpu);
}

const struct trace_record *stalltrace_records(int cpu, uint32_t *n, uint64_t *lost)
{
    *n = cpu < ncpus_ && bufs[cpu] ? nrec[cpu] : 0;
    *lost = cpu < ncpus_ ? dropped[cpu] : 0;
    return *n ? bufs[cpu] : NULL;
}

#else

void stalltrace_start(int ncpus, bool record) { (void)ncpus, (void)record; }
void stalltrace_stop(void) {}
void stalltrace_mark(const struct cache_stats *s, uint64_t mark[5]) { (void)s, (void)mark; }
void stalltrace_access(struct cpu *c, const struct cache_stats *s, const uint64_t mark[5], uint64_t now_cycles,
                       uint64_t stall_cycles, uint32_t site, const char *what)
{
    (void)c, (void)s, (void)mark, (void)now_cycles, (void)stall_cycles, (void)site, (void)what;
}
void stalltrace_note(int cpu, uint64_t ts_ns, uint32_t stall_ns, enum trace_stall_source src, uint32_t site,
                     const char *what, int32_t pid)
{
    (void)cpu, (void)ts_ns, (void)stall_ns, (void)src, (void)site, (void)what, (void)pid;
}
const struct trace_record *stalltrace_records(int cpu, uint32_t *n, uint64_t *lost)
{
    (void)cpu;
    *n = 0;
    *lost = 0;
    return NULL;
}

#endif
