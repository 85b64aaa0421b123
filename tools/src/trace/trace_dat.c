/*
 * trace-cmd's trace.dat, version 6 (trace-cmd.dat.v6(5)), for trace-cmd
 * report and KernelShark.
 *
 * Written here because the libraries cannot: libtracecmd's public header
 * (trace-cmd/trace-cmd.h, 3.1) only reads files, its writer is private to
 * trace-cmd, and libtraceevent only parses.  What the file holds is what a
 * Linux kernel would have handed trace-cmd: the ring buffer's page and event
 * headers, one format file per event (the fields and print fmt of Linux 6.1's
 * sched events, with schedlab's few extra fields at their ends), the
 * pid -> comm table, and per CPU the events in ring-buffer pages.  The tests
 * read it back with trace-cmd report and compare it with trace.txt.
 */
#include "trace_data.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DAT_PAGE 4096
#define DAT_PAGE_HEADER 16                       /* u64 timestamp, u64 (local_t) commit */
#define DAT_PAGE_DATA (DAT_PAGE - DAT_PAGE_HEADER)
#define RB_TIME_EXTEND 30
#define RB_DELTA_BITS 27
#define EVENT_ID_BASE 300                        /* event ids: EVENT_ID_BASE + enum trace_type */

struct bytes {
    unsigned char *p;
    size_t len, cap;
};

static void put(struct bytes *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 4096;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}
static void put_u8(struct bytes *b, uint8_t v) { put(b, &v, 1); }
static void put_u32(struct bytes *b, uint32_t v) { put(b, &v, 4); }     /* the file is little-endian, as x86 */
static void put_u64(struct bytes *b, uint64_t v) { put(b, &v, 8); }
static void put_str(struct bytes *b, const char *s) { put(b, s, strlen(s) + 1); }
static void put_sized8(struct bytes *b, const char *text) { put_u64(b, strlen(text)), put(b, text, strlen(text)); }

static const char header_page[] =
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static const char header_event[] = "# compressed entry header\n"
                                   "\ttype_len    :    5 bits\n"
                                   "\ttime_delta  :   27 bits\n"
                                   "\tarray       :   32 bits\n"
                                   "\n"
                                   "\tpadding     : type == 29\n"
                                   "\ttime_extend : type == 30\n"
                                   "\ttime_stamp : type == 31\n"
                                   "\tdata max type_len  == 28\n";

static const char common_fields[] = "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                                    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                                    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                                    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

/* Linux 6.1's prev_state print (TASK_REPORT_MAX 0x100 is "+": preempted). */
#define STATE_MASK "((((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1) - 1)"
#define STATE_MAX "(((0x0000 | 0x0001 | 0x0002 | 0x0004 | 0x0008 | 0x0010 | 0x0020 | 0x0040) + 1) << 1)"

/* Each event: its fields after the common ones, print fmt, and payload size. */
#define DAT_WAKING TRACE_NR_TYPES   /* sched_waking: written before every sched_wakeup */

static const struct dat_format {
    int type;
    const char *system, *name, *fields, *print;
    size_t size;
} formats[] = {
    { TRACE_SWITCH, "sched", "sched_switch",
      "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
      "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
      "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n",
      "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
      "REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & " STATE_MASK ") ? "
      "__print_flags(REC->prev_state & " STATE_MASK ", \"|\", { 0x0001, \"S\" }, { 0x0002, \"D\" }, { 0x0004, \"T\" }, "
      "{ 0x0008, \"t\" }, { 0x0010, \"X\" }, { 0x0020, \"Z\" }, { 0x0040, \"P\" }, { 0x0080, \"I\" }) : \"R\", "
      "REC->prev_state & " STATE_MAX " ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio",
      64 },
    { TRACE_WAKEUP, "sched", "sched_wakeup",
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
      "\tfield:int sync;\toffset:36;\tsize:4;\tsigned:1;\n",
      "\"comm=%s pid=%d prio=%d target_cpu=%03d sync=%d\", REC->comm, REC->pid, REC->prio, REC->target_cpu, REC->sync",
      40 },
    /* Linux 4.3+ emits sched_waking where the wake-up starts (try_to_wake_up)
     * and sched_wakeup once the task is queued; here both at the same moment,
     * the wake-up's (Perfetto's runnable state begins at sched_waking). */
    { DAT_WAKING, "sched", "sched_waking",
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
      "\tfield:int sync;\toffset:36;\tsize:4;\tsigned:1;\n",
      "\"comm=%s pid=%d prio=%d target_cpu=%03d sync=%d\", REC->comm, REC->pid, REC->prio, REC->target_cpu, REC->sync",
      40 },
    { TRACE_WAKEUP_NEW, "sched", "sched_wakeup_new",
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
      "\tfield:int sync;\toffset:36;\tsize:4;\tsigned:1;\n",
      "\"comm=%s pid=%d prio=%d target_cpu=%03d sync=%d\", REC->comm, REC->pid, REC->prio, REC->target_cpu, REC->sync",
      40 },
    { TRACE_MIGRATE, "sched", "sched_migrate_task",
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
      "\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n",
      "\"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu",
      40 },
    { TRACE_FORK, "sched", "sched_process_fork",
      "\tfield:char parent_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t parent_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:char child_comm[16];\toffset:28;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t child_pid;\toffset:44;\tsize:4;\tsigned:1;\n",
      "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, "
      "REC->child_pid",
      48 },
    { TRACE_EXIT, "sched", "sched_process_exit",
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
      "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
      "\tfield:u64 runtime_ns;\toffset:32;\tsize:8;\tsigned:0;\n",
      "\"comm=%s pid=%d prio=%d runtime_ns=%llu\", REC->comm, REC->pid, REC->prio, REC->runtime_ns", 40 },
    { TRACE_SCHED, "schedlab", "sched_event",
      "\tfield:char name[16];\toffset:8;\tsize:16;\tsigned:0;\n"
      "\tfield:s64 value;\toffset:24;\tsize:8;\tsigned:1;\n"
      "\tfield:int cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
      "\tfield:int pad;\toffset:36;\tsize:4;\tsigned:1;\n",
      "\"name=%s value=%lld cpu=%d\", REC->name, REC->value, REC->cpu", 40 },
    /* The memory model's biggest stall of a CPU in a tick (kernel/machine/stalltrace.h). */
    { TRACE_MEMSTALL, "schedlab", "memstall",
      "\tfield:char what[32];\toffset:8;\tsize:32;\tsigned:0;\n"
      "\tfield:u32 stall_ns;\toffset:40;\tsize:4;\tsigned:0;\n"
      "\tfield:u32 tick_stall_ns;\toffset:44;\tsize:4;\tsigned:0;\n"
      "\tfield:u32 site;\toffset:48;\tsize:4;\tsigned:0;\n"
      "\tfield:int cpu;\toffset:52;\tsize:4;\tsigned:1;\n"
      "\tfield:int from;\toffset:56;\tsize:4;\tsigned:1;\n",
      "\"what=%s stall_ns=%u from=%s tick_stall_ns=%u site=0x%08x\", REC->what, REC->stall_ns, "
      "__print_symbolic(REC->from, { 1, \"l2\" }, { 2, \"memory\" }, { 3, \"c2c\" }, { 4, \"l1_xfer\" }, "
      "{ 5, \"upgrade\" }, { 6, \"bus\" }), REC->tick_stall_ns, REC->site",
      60 },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static char *format_text(const struct dat_format *f)
{
    return xasprintf("name: %s\nID: %d\nformat:\n%s%s\nprint fmt: %s\n", f->name, EVENT_ID_BASE + f->type, common_fields,
                     f->fields, f->print);
}

/* One event's payload (common header and fields), as the kernel lays it out. */
static size_t payload(const struct tev *e, unsigned char *p)
{
    memset(p, 0, 64);
    uint16_t id = (uint16_t)(EVENT_ID_BASE + e->type);
    int32_t cur = tev_current_pid(e);
    memcpy(p, &id, 2);
    p[2] = 0x01;                                 /* irqs off, as every trace point runs */
    p[3] = 1;
    memcpy(p + 4, &cur, 4);
    int32_t i32;
    int64_t i64;
#define PUT32(off, v) (i32 = (int32_t)(v), memcpy(p + (off), &i32, 4))
#define PUT64(off, v) (i64 = (int64_t)(v), memcpy(p + (off), &i64, 8))
    switch (e->type) {
    case TRACE_SWITCH:
        memcpy(p + 8, e->comm, 16);
        PUT32(24, e->pid), PUT32(28, e->prio);
        PUT64(32, e->flags == TRACE_STATE_SLEEPING ? 0x1 : e->flags == TRACE_STATE_DEAD ? 0x10 : e->pid ? 0x100 : 0);
        memcpy(p + 40, e->comm2, 16);
        PUT32(56, e->pid2), PUT32(60, e->prio2);
        return 64;
    case TRACE_WAKEUP:
    case TRACE_WAKEUP_NEW:
    case DAT_WAKING:
    case TRACE_MIGRATE:
        memcpy(p + 8, e->comm, 16);
        PUT32(24, e->pid), PUT32(28, e->prio);
        if (e->type == TRACE_MIGRATE)
            PUT32(32, e->ocpu), PUT32(36, e->tcpu);
        else
            PUT32(32, e->tcpu), PUT32(36, e->flags & TRACE_FLAG_SYNC ? 1 : 0);
        return 40;
    case TRACE_FORK:
        memcpy(p + 8, e->comm, 16);
        PUT32(24, e->pid);
        memcpy(p + 28, e->comm2, 16);
        PUT32(44, e->pid2);
        return 48;
    case TRACE_EXIT:
        memcpy(p + 8, e->comm, 16);
        PUT32(24, e->pid), PUT32(28, e->prio);
        PUT64(32, e->value);
        return 40;
    case TRACE_MEMSTALL:
        memcpy(p + 8, e->what, 32);
        p[8 + 31] = 0;
        PUT32(40, e->value), PUT32(44, e->pid2), PUT32(48, tev_stall_site(e)), PUT32(52, e->cpu), PUT32(56, e->flags);
        return 60;
    default:
        memcpy(p + 8, e->comm2, 16);
        PUT64(24, e->value);
        PUT32(32, e->tcpu);
        return 40;
    }
#undef PUT32
#undef PUT64
}

/* One CPU's events as ring-buffer pages: per page the timestamp of its first
 * event and the bytes used, then 32-bit event headers (type_len = payload
 * words, time_delta = ns since the previous event), with a time_extend
 * before an event more than 2^27 ns after the previous one. */
static void cpu_pages(const struct trace *t, uint32_t cpu, struct bytes *out)
{
    unsigned char page[DAT_PAGE];
    size_t used = 0;
    uint64_t last = 0;
    bool open = false;
    for (size_t i = 0; i < t->nev; i++) {
        if (t->ev[i].cpu != cpu)
            continue;
        struct tev waking = t->ev[i];
        waking.type = DAT_WAKING;
      again:;
        const struct tev *e = t->ev[i].type == TRACE_WAKEUP && waking.type == DAT_WAKING ? &waking : &t->ev[i];
        unsigned char data[64];
        size_t n = payload(e, data);
        uint64_t delta = open && e->ts > last ? e->ts - last : 0;
        size_t need = 4 + n + (delta >> RB_DELTA_BITS ? 8 : 0);
        if (open && used + need > DAT_PAGE_DATA) {
            uint64_t commit = used;
            memcpy(page + 8, &commit, 8);
            memset(page + DAT_PAGE_HEADER + used, 0, DAT_PAGE_DATA - used);
            put(out, page, DAT_PAGE);
            open = false;
        }
        if (!open) {
            memcpy(page, &e->ts, 8);             /* the page's timestamp: its first event's */
            used = 0, delta = 0, open = true;
        }
        unsigned char *q = page + DAT_PAGE_HEADER + used;
        if (delta >> RB_DELTA_BITS) {
            uint32_t ext = RB_TIME_EXTEND | (uint32_t)(delta & ((1u << RB_DELTA_BITS) - 1)) << 5;
            uint32_t hi = (uint32_t)(delta >> RB_DELTA_BITS);
            memcpy(q, &ext, 4), memcpy(q + 4, &hi, 4);
            q += 8, used += 8, delta = 0;
        }
        uint32_t hdr = (uint32_t)(n / 4) | (uint32_t)delta << 5;
        memcpy(q, &hdr, 4);
        memcpy(q + 4, data, n);
        used += 4 + n;
        last = e->ts > last || !last ? e->ts : last;
        if (e == &waking) {
            waking.type = TRACE_WAKEUP;      /* and now the sched_wakeup itself */
            goto again;
        }
    }
    if (open) {
        uint64_t commit = used;
        memcpy(page + 8, &commit, 8);
        memset(page + DAT_PAGE_HEADER + used, 0, DAT_PAGE_DATA - used);
        put(out, page, DAT_PAGE);
    }
}

/* saved_cmdlines: every pid's last name. */
struct name_use {
    int32_t pid;
    size_t order;
    const char *comm;
};

static int cmp_use(const void *a, const void *b)
{
    const struct name_use *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static char *cmdlines(const struct trace *t)
{
    struct name_use *u = xcalloc(2 * t->nev + 1, sizeof(*u));
    size_t n = 0;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->pid > 0 && e->comm[0])
            u[n++] = (struct name_use){ e->pid, 2 * i, e->comm };
        if (e->type != TRACE_SCHED && e->type != TRACE_MEMSTALL && e->pid2 > 0 && e->comm2[0])
            u[n++] = (struct name_use){ e->pid2, 2 * i + 1, e->comm2 };
    }
    qsort(u, n, sizeof(*u), cmp_use);
    struct strbuf sb = { 0 };
    for (size_t j = 0; j < n; j++)
        if (j + 1 == n || u[j + 1].pid != u[j].pid)
            sb_printf(&sb, "%d %s\n", u[j].pid, u[j].comm);
    free(u);
    return sb.s ? sb.s : xstrdup("");
}

bool trace_write_dat(const struct trace *t, const char *path, char **err)
{
    struct bytes b = { 0 };
    put(&b, "\027\010\104tracing", 10);
    put_str(&b, "6");
    put_u8(&b, 0);                               /* little-endian */
    put_u8(&b, 8);                               /* long: 8 bytes (prev_state, local_t commit) */
    put_u32(&b, DAT_PAGE);
    put(&b, "header_page", 12);
    put_sized8(&b, header_page);
    put(&b, "header_event", 13);
    put_sized8(&b, header_event);
    put_u32(&b, 0);                              /* no ftrace-internal event formats */
    put_u32(&b, 2);                              /* systems: sched, schedlab */
    const char *systems[2] = { "sched", "schedlab" };
    for (int s = 0; s < 2; s++) {
        put_str(&b, systems[s]);
        uint32_t count = 0;
        for (size_t f = 0; f < NFORMATS; f++)
            count += !strcmp(formats[f].system, systems[s]);
        put_u32(&b, count);
        for (size_t f = 0; f < NFORMATS; f++)
            if (!strcmp(formats[f].system, systems[s])) {
                char *text = format_text(&formats[f]);
                put_sized8(&b, text);
                free(text);
            }
    }
    put_u32(&b, 0);                              /* kallsyms */
    put_u32(&b, 0);                              /* trace_printk formats */
    char *cl = cmdlines(t);
    put_sized8(&b, cl);
    free(cl);
    put_u32(&b, t->ncpus);
    put(&b, "flyrecord", 10);
    size_t offsets_at = b.len;
    for (uint32_t c = 0; c < t->ncpus; c++)
        put_u64(&b, 0), put_u64(&b, 0);          /* filled in below */
    static const unsigned char zeros[DAT_PAGE];
    put(&b, zeros, (DAT_PAGE - b.len % DAT_PAGE) % DAT_PAGE);
    for (uint32_t c = 0; c < t->ncpus; c++) {
        uint64_t off = b.len;
        cpu_pages(t, c, &b);
        uint64_t size = b.len - off;
        memcpy(b.p + offsets_at + c * 16, &off, 8);
        memcpy(b.p + offsets_at + c * 16 + 8, &size, 8);
    }
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(b.p, 1, b.len, f) == b.len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        *err = xasprintf("%s: %s", path, strerror(errno));
    free(b.p);
    return ok;
}
