/*
 * Scheduler tracing (see trace.h): the per-CPU ring buffers, the recording
 * wrappers and slow paths, the stream the host reads, and (kernel only) the
 * boot-time patching of the static keys and the trace channel.
 *
 * This file also builds on the host (HOST_TEST) over tests/host/simenv.c,
 * so the host tests trace the real scheduler core.
 */
#include "trace.h"
#include "sched_class.h"
#include "sched_env.h"
#include "sched_core.h"
#include "lib.h"

#ifndef HOST_TEST
#include "cmdline.h"
#include "mem.h"
#include "x86.h"
#include "machine/machine.h"
#include "machine/stalltrace.h"
#endif

const char *const trace_type_names[TRACE_NR_TYPES + 2] = {
    [TRACE_SWITCH] = "switch", [TRACE_WAKEUP] = "wakeup", [TRACE_WAKEUP_NEW] = "wakeup_new",
    [TRACE_MIGRATE] = "migrate", [TRACE_FORK] = "fork",   [TRACE_EXIT] = "exit",
    [TRACE_SCHED] = "sched",     [TRACE_MEMSTALL] = "memstall", [TRACE_NR_TYPES] = "all",
    [TRACE_NR_TYPES + 1] = NULL,
};

#ifdef HOST_TEST
uint32_t trace_host_keys;
#endif

struct trace_buf {
    struct trace_record *rec;
    uint32_t next;               /* where the next record goes */
    volatile int busy;           /* 1 while this CPU writes a record (trace_stop waits for 0) */
    uint64_t written;            /* records ever written; written - capacity were overwritten */
} __attribute__((aligned(64)));

static struct trace_buf bufs_[MAX_CPUS];
static uint32_t capacity_;
static uint32_t events_;
static int ncpus_;
static volatile int recording_;          /* set and cleared with xchg: see begin_record */
static bool enabled_;
static uint64_t start_ns_, stop_ns_;

static struct task *(*real_switch)(struct task *prev, struct task *next);
static void (*real_enqueue)(int cpu, struct task *p, int flags);

bool trace_enabled(void) { return enabled_; }
uint32_t trace_events(void) { return events_; }

void trace_cpu_counts(int cpu, uint64_t *written, uint64_t *dropped)
{
    uint64_t w = cpu < ncpus_ ? bufs_[cpu].written : 0;
    *written = w;
    *dropped = w > capacity_ ? w - capacity_ : 0;
}

bool trace_parse_events(const char *list, uint32_t *mask, char *why, size_t size)
{
    uint32_t m = 0;
    const char *s = list;
    if (!*s) {
        snprintf(why, size, "empty event list");
        return false;
    }
    for (;;) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        int found = -1;
        for (int t = 0; t <= TRACE_NR_TYPES; t++)
            if (strlen(trace_type_names[t]) == len && strncmp(trace_type_names[t], s, len) == 0)
                found = t;
        if (len == 0) {
            snprintf(why, size, "empty event name in the list");
            return false;
        }
        if (found < 0) {
            int n = snprintf(why, size, "unknown event '%.*s'; known:", (int)len, s);
            for (int t = 0; t <= TRACE_NR_TYPES && n < (int)size; t++)
                n += snprintf(why + n, size - n, " %s", trace_type_names[t]);
            return false;
        }
        m |= found == TRACE_NR_TYPES ? TRACE_ALL_TYPES : 1u << found;
        if (!end)
            break;
        s = end + 1;
    }
    *mask = m;
    return true;
}

/* ---- recording ---- */

static inline int16_t prio_of(const struct task *p)
{
    if (p->is_idle)
        return 120;
    if (task_is_rt(p))
        return (int16_t)(99 - p->rt_priority);
    return (int16_t)(120 + p->nice);
}

/* A name of any length: the scheduler's event names (string literals). */
static inline void copy_comm(char *dst, const char *src)
{
    size_t i = 0;
    for (; i < TRACE_COMM_LEN - 1 && src[i]; i++)
        dst[i] = src[i];
    for (; i < TRACE_COMM_LEN; i++)
        dst[i] = 0;
}

/* A task's name: its whole 16-byte array in four words (tracing is on the
 * path of every switch: a byte loop was half the cost of a record). */
_Static_assert(TASK_NAME_LEN == TRACE_COMM_LEN, "a task's name fills a record's comm");
static inline void copy_name(char *dst, const struct task *p)
{
    uint32_t w[4];
    __builtin_memcpy(w, p->name, sizeof(w));     /* inlined: the kernel builds with -fno-builtin */
    w[3] &= 0x00ffffffu;                         /* always terminated (little-endian: the last byte) */
    __builtin_memcpy(dst, w, sizeof(w));
}

/* This CPU's next record, or NULL when not recording.  Interrupts are off
 * (every caller runs with them off or turns them off), so nothing else
 * writes this CPU's buffer meanwhile; the xchg orders busy before the test
 * of recording_ for trace_stop. */
static inline struct trace_record *begin_record(struct trace_buf **out)
{
    struct trace_buf *b = &bufs_[this_cpu_id()];
    xchg(&b->busy, 1);
    if (!recording_) {
        b->busy = 0;
        return NULL;
    }
    struct trace_record *r = &b->rec[b->next];
    if (++b->next == capacity_)
        b->next = 0;
    b->written++;
    *out = b;
    return r;
}

static inline void end_record(struct trace_buf *b)
{
    __asm__ volatile("" ::: "memory");
    b->busy = 0;
}

/* The common part; every caller fills pid2/prio2/comm2 itself (or leaves them 0). */
static inline void fill_task(struct trace_record *r, uint8_t type, uint64_t ts, const struct task *p)
{
    r->ts_ns = ts;
    r->type = type;
    r->cpu = r->cpu2 = r->flags = 0;
    r->pid = p->pid;
    r->prio = prio_of(p);
    r->pid2 = 0;
    r->prio2 = 0;
    r->value = 0;
    copy_name(r->comm, p);
}

static inline void no_comm2(struct trace_record *r) { __builtin_memset(r->comm2, 0, TRACE_COMM_LEN); }

/*
 * Where each task was last seen, for migrations: the core's own moves
 * (move_to_cpu on a wake-up, a requeue, a shared queue's hand-over) happen
 * inside the wake-up and switch paths, where even a static key would change
 * the code while tracing is off; the wrappers see the task right after it
 * moved, and this table says where it came from.  One 32-bit word per
 * slot, pid << 5 | cpu (MAX_CPUS is 32), written in one store: an entry
 * that names another pid (two live tasks 65536 pids apart) means "not
 * known", so a migration may go unrecorded but is never made up.
 */
static uint32_t *last_cpu_;

static inline int known_cpu(const struct task *p)
{
    uint32_t e = last_cpu_[(uint32_t)p->pid % TRACE_CPU_SLOTS];
    return e && (e >> 5) == (uint32_t)p->pid ? (int)(e & 31) : -1;
}

static inline void note_cpu(const struct task *p, int cpu)
{
    if (p->pid > 0 && p->pid < (1 << 27))
        last_cpu_[(uint32_t)p->pid % TRACE_CPU_SLOTS] = (uint32_t)p->pid << 5 | (uint32_t)cpu;
}

/* ftrace's task column: the task running on the recording CPU (the waker, the balancer). */
static inline void set_current(struct trace_record *r, const struct task *cur)
{
    r->pid2 = cur->pid;
    r->prio2 = prio_of(cur);
    copy_name(r->comm2, cur);
}

static void record_migrate(const struct task *p, int from, int to, uint64_t ts, const struct task *cur)
{
    struct trace_buf *b;
    struct trace_record *r;
    if ((events_ & (1u << TRACE_MIGRATE)) && (r = begin_record(&b))) {
        fill_task(r, TRACE_MIGRATE, ts, p);
        r->cpu = (uint8_t)to;
        r->cpu2 = (uint8_t)from;
        set_current(r, cur);
        end_record(b);
    }
}

/* p is on cpu now: a migration if it was last seen elsewhere. */
static inline void note_move(const struct task *p, int cpu, uint64_t ts, const struct task *cur)
{
    int old = known_cpu(p);
    if (old >= 0 && old != cpu)
        record_migrate(p, old, cpu, ts, cur);
    note_cpu(p, cpu);
}

/* In place of the context switch: the core has accounted the switch
 * already, so the timestamp is the one its runtime and idle counts used. */
static struct task *trace_switch(struct task *prev, struct task *next)
{
    struct trace_buf *b;
    struct trace_record *r;
    if (recording_) {
        struct cpu *c = this_cpu();
        uint64_t ts = next->is_idle ? c->idle_since_ns : next->last_switch_in_ns;
        if (!next->is_idle)
            note_move(next, c->id, ts, prev);    /* a shared queue hands over another CPU's task */
        if (prev->state == TASK_DEAD && (events_ & (1u << TRACE_EXIT)) && (r = begin_record(&b))) {
            fill_task(r, TRACE_EXIT, ts, prev);
            no_comm2(r);
            r->value = (int64_t)prev->runtime_ns;       /* final: its last slice is counted */
            end_record(b);
        }
        if ((events_ & (1u << TRACE_SWITCH)) && (r = begin_record(&b))) {
            fill_task(r, TRACE_SWITCH, ts, prev);
            r->flags = prev->is_idle || prev->state == TASK_RUNNING || prev->state == TASK_WAKING ? TRACE_STATE_RUNNABLE
                       : prev->state == TASK_DEAD                                                 ? TRACE_STATE_DEAD
                                                                                                  : TRACE_STATE_SLEEPING;
            r->pid2 = next->pid;
            r->prio2 = prio_of(next);
            copy_name(r->comm2, next);
            end_record(b);
        }
    }
    return real_switch(prev, next);
}

/* In place of the scheduler's enqueue: a wake-up is recorded on the waker's
 * CPU, with the target's run-queue lock still held, so it always precedes
 * the woken task's switch-in (which needs that lock). */
static void trace_enqueue(int cpu, struct task *p, int flags)
{
    real_enqueue(cpu, p, flags);
    if (!recording_)
        return;
    struct trace_buf *b;
    struct trace_record *r;
    uint64_t ts = sched_clock_ns();
    if (flags & ENQUEUE_NEW) {
        /* Placed, not moved: Linux's wake_up_new_task records no migration either. */
        note_cpu(p, cpu);
        if ((events_ & (1u << TRACE_FORK)) && (r = begin_record(&b))) {
            const struct task *parent = p->parent ? p->parent : current_task();
            fill_task(r, TRACE_FORK, ts, parent);
            r->pid2 = p->pid;
            r->prio2 = prio_of(p);
            copy_name(r->comm2, p);
            end_record(b);
        }
    } else {
        note_move(p, cpu, ts, current_task());   /* a wake-up on another CPU, a requeue after an affinity change */
    }
    if (!(flags & (ENQUEUE_WAKEUP | ENQUEUE_NEW)))
        return;
    int type = flags & ENQUEUE_NEW ? TRACE_WAKEUP_NEW : TRACE_WAKEUP;
    if ((events_ & (1u << type)) && (r = begin_record(&b))) {
        fill_task(r, (uint8_t)type, ts, p);
        r->cpu = (uint8_t)cpu;
        r->flags = flags & ENQUEUE_SYNC ? TRACE_FLAG_SYNC : 0;
        set_current(r, current_task());
        end_record(b);
    }
}

/* A scheduler's balancing moved p (sched_set_task_cpu). */
void trace_migrate_slow(struct task *p, int from, int to)
{
    if (from == to || !recording_)
        return;
    unsigned long f = irq_save();
    record_migrate(p, from, to, sched_clock_ns(), current_task());
    note_cpu(p, to);
    irq_restore(f);
}

void trace_sched_event_slow(int cpu, const char *what, int64_t value)
{
    unsigned long f = irq_save();
    struct trace_buf *b;
    struct trace_record *r = begin_record(&b);
    if (r) {
        fill_task(r, TRACE_SCHED, sched_clock_ns(), current_task());
        r->cpu = (uint8_t)cpu;
        r->value = value;
        copy_comm(r->comm2, what);
        end_record(b);
    }
    irq_restore(f);
}

/* ---- control ---- */

void trace_start(uint32_t events, struct trace_record *const *bufs, uint32_t capacity, int ncpus,
                 uint32_t *cpu_table)
{
    if (enabled_ || capacity == 0 || ncpus < 1 || ncpus > MAX_CPUS)
        sched_bug("trace_start: called twice or with %u records on %d cpus", capacity, ncpus);
    for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
        bufs_[cpu].rec = cpu < ncpus ? bufs[cpu] : NULL;
        bufs_[cpu].next = 0;
        bufs_[cpu].busy = 0;
        bufs_[cpu].written = 0;
    }
    capacity_ = capacity;
    events_ = events & TRACE_ALL_TYPES;
    ncpus_ = ncpus;
    last_cpu_ = cpu_table;
    for (uint32_t i = 0; i < TRACE_CPU_SLOTS; i++)
        last_cpu_[i] = 0;
    /* Migrations need both wrappers: a task is seen where it is woken and where it runs. */
    if (events_ & (1u << TRACE_SWITCH | 1u << TRACE_EXIT | 1u << TRACE_MIGRATE)) {
        real_switch = sched_switch_call;
        sched_switch_call = trace_switch;
    }
    if (events_ & (1u << TRACE_WAKEUP | 1u << TRACE_WAKEUP_NEW | 1u << TRACE_FORK | 1u << TRACE_MIGRATE)) {
        real_enqueue = sched_enqueue_call;
        sched_enqueue_call = trace_enqueue;
    }
#ifdef HOST_TEST
    trace_host_keys = events_;
#endif
    start_ns_ = sched_clock_ns();
    enabled_ = true;
    xchg(&recording_, 1);
}

#ifdef HOST_TEST
/* Between host tests: forget the last trace (sched_init puts the core's calls back). */
void trace_host_reset(void)
{
    recording_ = 0;
    enabled_ = false;
    trace_host_keys = 0;
}
#endif

void trace_stop(void)
{
    if (!recording_)
        return;
    xchg(&recording_, 0);                /* a full barrier, as begin_record's xchg of busy */
    stop_ns_ = sched_clock_ns();
#ifndef HOST_TEST
    stalltrace_stop();
#endif
    for (int cpu = 0; cpu < ncpus_; cpu++)
        while (bufs_[cpu].busy)
            cpu_relax();
}

/* The output with a running FNV-1a checksum of what went out. */
struct stream {
    trace_out_fn out;
    void *arg;
    uint32_t fnv;
    uint64_t bytes;
};

static void emit(struct stream *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++)
        s->fnv = (s->fnv ^ p[i]) * TRACE_FNV_PRIME;
    s->out(data, n, s->arg);
    s->bytes += n;
}

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i < size - 1; i++)
        dst[i] = src[i];
    for (; i < size; i++)
        dst[i] = 0;
}

uint64_t trace_write_stream(trace_out_fn out, void *arg, const char *sched, const char *cmdline, uint32_t hz,
                            uint32_t tsc_khz)
{
    struct stream s = { out, arg, TRACE_FNV_OFFSET, 0 };
    struct trace_stream_header h;
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, TRACE_STREAM_MAGIC, sizeof(h.magic));
    h.version = TRACE_STREAM_VERSION;
    h.header_size = sizeof(h);
    h.record_size = sizeof(struct trace_record);
    h.ncpus = (uint32_t)ncpus_;
    h.events = events_;
    h.capacity = capacity_;
    h.hz = hz;
    h.tsc_khz = tsc_khz;
    h.start_ns = start_ns_;
    h.stop_ns = stop_ns_;
    copy_text(h.sched, sizeof(h.sched), sched);
    copy_text(h.cmdline, sizeof(h.cmdline), cmdline);
    emit(&s, &h, sizeof(h));
    uint64_t total = 0;
    for (int cpu = 0; cpu < ncpus_; cpu++) {
        struct trace_buf *b = &bufs_[cpu];
        struct trace_cpu_header ch;
        memset(&ch, 0, sizeof(ch));
        memcpy(ch.magic, "cpu", 4);
        ch.cpu = (uint32_t)cpu;
        ch.written = b->written;
        ch.nrecords = b->written < capacity_ ? (uint32_t)b->written : capacity_;
        ch.dropped = b->written - ch.nrecords;
        uint32_t kept = ch.nrecords, nstall = 0;
        uint64_t stall_lost = 0;
        const struct trace_record *stall = NULL;
#ifndef HOST_TEST
        stall = stalltrace_records(cpu, &nstall, &stall_lost);
#endif
        ch.nrecords += nstall;
        ch.memstall_dropped = stall_lost > 0xffffffffu ? 0xffffffffu : (uint32_t)stall_lost;
        emit(&s, &ch, sizeof(ch));
        /* Oldest first: after a wrap the oldest kept record is the next to
         * be overwritten.  The memory model's stall records (kept apart:
         * kernel/machine/stalltrace.h) go in by time. */
        uint32_t first = b->written > capacity_ ? b->next : 0, j = 0;
        for (uint32_t i = 0; i < kept; i++) {
            const struct trace_record *r = &b->rec[(first + i) % capacity_];
            for (; j < nstall && stall[j].ts_ns <= r->ts_ns; j++)
                emit(&s, &stall[j], sizeof(stall[j]));
            emit(&s, r, sizeof(*r));
        }
        for (; j < nstall; j++)
            emit(&s, &stall[j], sizeof(stall[j]));
        total += ch.nrecords;
    }
    struct trace_stream_trailer t;
    memcpy(t.magic, "end", 4);
    t.checksum = s.fnv;
    t.total_records = total;
    s.out(&t, sizeof(t), s.arg);
    return s.bytes + sizeof(t);
}

#ifndef HOST_TEST
/* ---- the kernel: static keys, the buffers' memory, the trace channel ---- */

/* QEMU's isa-debugcon (tools/qemu-run.sh --trace-out): a byte port that
 * reads back as its own number when the device is there (Bochs's 0xe9
 * hack), 0xff when nothing answers. */
#define TRACE_PORT 0xe9

/* Defined by the linker when some code has a site (weak: a kernel may have none). */
extern const struct trace_site __start_trace_sites[] __attribute__((weak)), __stop_trace_sites[] __attribute__((weak));

/* Each site of a traced event: its nop becomes "jmp target". */
static int patch_sites(uint32_t events)
{
    static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
    int patched = 0;
    for (const struct trace_site *s = __start_trace_sites; s < __stop_trace_sites; s++) {
        uint8_t *code = (uint8_t *)(uintptr_t)s->code;
        if (memcmp(code, nop5, sizeof(nop5)) != 0)
            panic("trace: the site at %p is not the 5-byte nop (patched twice?)", (void *)code);
        if (!(events & (1u << s->type)))
            continue;
        int32_t rel = (int32_t)(s->target - (s->code + 5));
        code[0] = 0xe9;                          /* jmp rel32 */
        memcpy(code + 1, &rel, 4);
        patched++;
    }
    return patched;
}

static int sites_patched;

void trace_boot(uint32_t events, uint32_t buf_kib, int ncpus)
{
    if (inb(TRACE_PORT) != TRACE_PORT)
        cmdline_error("trace", "no trace channel: QEMU's isa-debugcon at port 0xe9 is missing "
                               "(boot with tools/qemu-run.sh --trace-out FILE, or tools/schedlab trace)");
    uint32_t pages = buf_kib / (PAGE_SIZE / 1024);
    static struct trace_record *bufs[MAX_CPUS];
    uint32_t *cpu_table = page_alloc(TRACE_CPU_SLOTS * sizeof(uint32_t) / PAGE_SIZE);
    for (int cpu = 0; cpu < ncpus; cpu++) {
        bufs[cpu] = page_alloc((int)pages);
        if (!bufs[cpu] || !cpu_table) {
            char why[120];
            snprintf(why, sizeof(why), "not enough memory for %u KiB of trace buffer on each of %d CPUs", buf_kib,
                     ncpus);
            cmdline_error("trace_buf_kib", why);
        }
    }
    /* The memory model's stall records: buffers whenever there is a model,
     * so that tracing them or not leaves the memory layout alone. */
    if (machine_on())
        stalltrace_start(ncpus, events & (1u << TRACE_MEMSTALL));
    else if ((events & (1u << TRACE_MEMSTALL)) && events != TRACE_ALL_TYPES)
        cmdline_error("trace_events", "memstall needs the memory model (a CACHES=1 kernel with machine=)");
    else
        events &= ~(1u << TRACE_MEMSTALL);      /* "all": the header says none were recorded */
    /* Before any other CPU runs: nothing executes the code being patched. */
    sites_patched = patch_sites(events);
    trace_start(events, bufs, pages * (PAGE_SIZE / sizeof(struct trace_record)), ncpus, cpu_table);
}

static void debugcon_out(const void *data, size_t n, void *arg)
{
    (void)arg;
    const uint8_t *p = data;
    __asm__ volatile("rep outsb" : "+S"(p), "+c"(n) : "d"(TRACE_PORT) : "memory");
}

void trace_finish(void)
{
    if (!enabled_)
        return;
    trace_stop();
    uint64_t total = 0, dropped = 0;
    for (int cpu = 0; cpu < ncpus_; cpu++) {
        uint64_t w, d;
        trace_cpu_counts(cpu, &w, &d);
        kprintf(PROTO_FORMAT(TRACESTAT), cpu, (unsigned long long)w,
                (unsigned long long)(w - d), (unsigned long long)d);
        total += w - d;
        dropped += d;
    }
    /* In words, per CPU that lost its oldest records: what a timeline of
     * this trace cannot show (the oldest kept record is the next to be
     * overwritten, at bufs_[cpu].next). */
    for (int cpu = 0; cpu < ncpus_; cpu++) {
        uint64_t w, d;
        trace_cpu_counts(cpu, &w, &d);
        if (!d)
            continue;
        uint64_t first = bufs_[cpu].rec[bufs_[cpu].next].ts_ns;
        uint64_t us = first > start_ns_ ? (first - start_ns_) / NSEC_PER_USEC : 0;
        kprintf("trace: cpu %d dropped %llu of %llu events; the timeline starts at %llu.%llu ms there "
                "(the buffer of %u KiB was full: trace_buf_kib= sets it)\n",
                cpu, (unsigned long long)d, (unsigned long long)w, (unsigned long long)(us / 1000),
                (unsigned long long)(us % 1000 / 100), capacity_ * (uint32_t)sizeof(struct trace_record) / 1024);
    }
    if (events_ & (1u << TRACE_MEMSTALL)) {
        uint64_t n = 0, lost = 0;
        for (int cpu = 0; cpu < ncpus_; cpu++) {
            uint32_t k;
            uint64_t l;
            stalltrace_records(cpu, &k, &l);
            n += k;
            lost += l;
        }
        kprintf("trace: %llu memstall records (the biggest stall of each CPU and tick; %llu lost to full buffers)\n",
                (unsigned long long)n, (unsigned long long)lost);
    }
    uint64_t bytes = trace_write_stream(debugcon_out, NULL, sched_name(), cmdline_raw(), HZ, tsc_khz);
    kprintf(PROTO_WORD_TRACE " %llu records (%llu dropped), %llu bytes on the trace channel, %d static-key sites patched, "
            "%llu ms recorded\n",
            (unsigned long long)total, (unsigned long long)dropped, (unsigned long long)bytes, sites_patched,
            (unsigned long long)((stop_ns_ - start_ns_) / NSEC_PER_MSEC));
}
#endif
