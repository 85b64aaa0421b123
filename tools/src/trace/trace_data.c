/*
 * The kernel's trace stream into events, and ftrace's text format both ways
 * (see trace_data.h).
 */
#include "trace_data.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const event_names[TRACE_NR_TYPES] = {
    [TRACE_SWITCH] = "sched_switch",           [TRACE_WAKEUP] = "sched_wakeup",
    [TRACE_WAKEUP_NEW] = "sched_wakeup_new",   [TRACE_MIGRATE] = "sched_migrate_task",
    [TRACE_FORK] = "sched_process_fork",       [TRACE_EXIT] = "sched_process_exit",
    [TRACE_SCHED] = "sched_event",             [TRACE_MEMSTALL] = "memstall",
};
static const char *const short_names[TRACE_NR_TYPES] = {
    [TRACE_SWITCH] = "switch", [TRACE_WAKEUP] = "wakeup", [TRACE_WAKEUP_NEW] = "wakeup_new",
    [TRACE_MIGRATE] = "migrate", [TRACE_FORK] = "fork", [TRACE_EXIT] = "exit", [TRACE_SCHED] = "sched",
    [TRACE_MEMSTALL] = "memstall",
};
static const char *const stall_sources[TRACE_STALL_NR] = {
    [TRACE_STALL_L2] = "l2", [TRACE_STALL_MEMORY] = "memory", [TRACE_STALL_C2C] = "c2c",
    [TRACE_STALL_L1_XFER] = "l1_xfer", [TRACE_STALL_UPGRADE] = "upgrade", [TRACE_STALL_BUS] = "bus",
};

/* The index in names[first..n) of name, or -1. */
static int name_index(const char *const names[], int first, int n, const char *name)
{
    for (int i = first; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

const char *tev_stall_source_name(int src) { return src > 0 && src < TRACE_STALL_NR ? stall_sources[src] : "?"; }
int tev_stall_source_of_name(const char *name) { return name_index(stall_sources, 1, TRACE_STALL_NR, name); }

const char *tev_event_name(int type) { return type >= 0 && type < TRACE_NR_TYPES ? event_names[type] : "?"; }
const char *tev_short_name(int type) { return type >= 0 && type < TRACE_NR_TYPES ? short_names[type] : "?"; }

int tev_type_of_name(const char *name) { return name_index(event_names, 0, TRACE_NR_TYPES, name); }

int tev_current_pid(const struct tev *e)
{
    return e->type == TRACE_WAKEUP || e->type == TRACE_WAKEUP_NEW || e->type == TRACE_MIGRATE ? e->pid2 : e->pid;
}

const char *tev_current_comm(const struct tev *e)
{
    if (tev_current_pid(e) == 0)
        return "<idle>";
    return e->type == TRACE_WAKEUP || e->type == TRACE_WAKEUP_NEW || e->type == TRACE_MIGRATE ? e->comm2 : e->comm;
}

const char *tev_state_text(const struct tev *e)
{
    switch (e->flags) {
    case TRACE_STATE_SLEEPING: return "S";
    case TRACE_STATE_DEAD: return "X";
    default: return e->pid == 0 ? "R" : "R+";
    }
}

void trace_free(struct trace *t)
{
    free(t->ev);
    memset(t, 0, sizeof(*t));
}

static int cmp_tev(const void *a, const void *b)
{
    const struct tev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->cpu != y->cpu)
        return x->cpu < y->cpu ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void trace_sort(struct trace *t)
{
    qsort(t->ev, t->nev, sizeof(*t->ev), cmp_tev);
}

static void order_ties(struct trace *t);

/* A memstall record carries the running task's pid only: its name is the
 * one the last switch on that CPU gave (the record's pid says which). */
static void name_stall_tasks(struct trace *t)
{
    char names[TRACE_MAX_CPUS][TRACE_COMM_LEN] = { { 0 } };
    int32_t pids[TRACE_MAX_CPUS];
    for (int c = 0; c < TRACE_MAX_CPUS; c++)
        pids[c] = -1;
    for (size_t i = 0; i < t->nev; i++) {
        struct tev *e = &t->ev[i];
        if (e->type == TRACE_SWITCH && e->cpu < TRACE_MAX_CPUS) {
            pids[e->cpu] = e->pid2;
            memcpy(names[e->cpu], e->comm2, TRACE_COMM_LEN);
        } else if (e->type == TRACE_MEMSTALL && !e->comm[0] && e->cpu < TRACE_MAX_CPUS && pids[e->cpu] == e->pid) {
            memcpy(e->comm, names[e->cpu], TRACE_COMM_LEN);
        }
    }
}

/* ---- the stream ---- */

static bool fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(char **err, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    *err = xstrdup(buf);
    return false;
}

static bool has_nul(const char *s, size_t n) { return memchr(s, 0, n) != NULL; }

bool trace_parse_stream(const unsigned char *buf, size_t len, struct trace *t, char **err)
{
    memset(t, 0, sizeof(*t));
    struct trace_stream_header h;
    if (len == 0)
        return fail(err, "empty: the kernel wrote nothing on the trace channel (was trace=1 on its command line?)");
    if (len < sizeof(h))
        return fail(err, "cut off: %zu bytes, shorter than the %zu-byte header", len, sizeof(h));
    memcpy(&h, buf, sizeof(h));
    if (memcmp(h.magic, TRACE_STREAM_MAGIC, sizeof(h.magic)) != 0)
        return fail(err, "not a schedlab trace stream (bad magic)");
    if (h.version != TRACE_STREAM_VERSION)
        return fail(err, "stream version %u, this tool reads version %d", h.version, TRACE_STREAM_VERSION);
    if (h.header_size != sizeof(h) || h.record_size != sizeof(struct trace_record))
        return fail(err, "header or record size %u/%u, expected %zu/%zu", h.header_size, h.record_size, sizeof(h),
                    sizeof(struct trace_record));
    if (h.ncpus < 1 || h.ncpus > TRACE_MAX_CPUS)
        return fail(err, "%u CPUs in the header (1..%d)", h.ncpus, TRACE_MAX_CPUS);
    if (h.capacity < 1 || (h.events & ~(uint32_t)TRACE_ALL_TYPES) || h.stop_ns < h.start_ns)
        return fail(err, "implausible header (capacity %u, events %#x, start %" PRIu64 " after stop %" PRIu64 ")",
                    h.capacity, h.events, h.start_ns, h.stop_ns);
    if (!has_nul(h.sched, sizeof(h.sched)) || !has_nul(h.cmdline, sizeof(h.cmdline)))
        return fail(err, "header strings not terminated");
    t->ncpus = h.ncpus, t->events = h.events, t->capacity = h.capacity, t->hz = h.hz, t->tsc_khz = h.tsc_khz;
    t->start_ns = h.start_ns, t->stop_ns = h.stop_ns;
    memcpy(t->sched, h.sched, sizeof(t->sched));
    size_t lead = strspn(h.cmdline, " ");        /* the kernel's arguments start after a space */
    memcpy(t->cmdline, h.cmdline + lead, sizeof(t->cmdline) - lead);

    /* Records: count first, so that a huge claim cannot make us allocate. */
    size_t off = sizeof(h), total = 0;
    uint32_t fnv = TRACE_FNV_OFFSET;
    for (uint32_t c = 0; c < h.ncpus; c++) {
        struct trace_cpu_header ch;
        if (len - off < sizeof(ch))
            return fail(err, "cut off in the header of cpu %u", c);
        memcpy(&ch, buf + off, sizeof(ch));
        if (memcmp(ch.magic, "cpu", 4) != 0 || ch.cpu != c)
            return fail(err, "bad header for cpu %u at byte %zu", c, off);
        off += sizeof(ch);
        if ((len - off) / sizeof(struct trace_record) < ch.nrecords)
            return fail(err, "cut off in the records of cpu %u (%u claimed)", c, ch.nrecords);
        /* The memory model's stall records have buffers of their own: not in written and dropped. */
        uint32_t stalls = 0;
        for (uint32_t i = 0; i < ch.nrecords; i++)
            stalls += buf[off + (size_t)i * sizeof(struct trace_record) + offsetof(struct trace_record, type)] ==
                      TRACE_MEMSTALL;
        uint32_t ring = ch.nrecords - stalls;
        if (ring > h.capacity || ch.written < ring || ch.dropped != ch.written - ring)
            return fail(err, "cpu %u: %u records of %u, written %" PRIu64 ", dropped %" PRIu64 " do not add up", c,
                        ring, h.capacity, ch.written, ch.dropped);
        if ((stalls || ch.memstall_dropped) && !(h.events & (1u << TRACE_MEMSTALL)))
            return fail(err, "cpu %u: memstall records in a stream that did not record them", c);
        off += (size_t)ch.nrecords * sizeof(struct trace_record);
        t->cpu[c].written = ch.written, t->cpu[c].dropped = ch.dropped, t->cpu[c].kept = ring;
        t->cpu[c].memstall = stalls, t->cpu[c].memstall_dropped = ch.memstall_dropped;
        total += ch.nrecords;
    }
    struct trace_stream_trailer tr;
    if (len - off < sizeof(tr))
        return fail(err, "cut off before the trailer (%zu of %zu bytes)", len, off + sizeof(tr));
    if (len - off > sizeof(tr))
        return fail(err, "%zu bytes after the trailer", len - off - sizeof(tr));
    memcpy(&tr, buf + off, sizeof(tr));
    for (size_t i = 0; i < off; i++)
        fnv = (fnv ^ buf[i]) * TRACE_FNV_PRIME;
    if (memcmp(tr.magic, "end", 4) != 0 || tr.total_records != total)
        return fail(err, "bad trailer (%" PRIu64 " records claimed, %zu read)", tr.total_records, total);
    if (tr.checksum != fnv)
        return fail(err, "checksum mismatch: the stream is corrupt (%#x, computed %#x)", tr.checksum, fnv);

    t->ev = xcalloc(total ? total : 1, sizeof(*t->ev));
    off = sizeof(h);
    for (uint32_t c = 0; c < h.ncpus; c++) {
        off += sizeof(struct trace_cpu_header);
        for (uint32_t i = 0; i < t->cpu[c].kept + t->cpu[c].memstall; i++, off += sizeof(struct trace_record)) {
            struct trace_record r;
            memcpy(&r, buf + off, sizeof(r));
            if (r.type == TRACE_MEMSTALL) {     /* comm and comm2: one 32-byte name */
                if (!has_nul(r.comm, 2 * TRACE_COMM_LEN) || r.cpu != c || r.value < 0 || r.pid < 0 ||
                    r.flags < 1 || r.flags >= TRACE_STALL_NR)
                    return trace_free(t), fail(err, "cpu %u record %u: malformed memstall", c, i);
                struct tev *e = &t->ev[t->nev++];
                e->ts = r.ts_ns, e->seq = i, e->cpu = (uint8_t)c, e->type = r.type, e->tcpu = r.cpu;
                e->flags = r.flags, e->pid = r.pid, e->pid2 = r.pid2, e->prio = r.prio, e->prio2 = r.prio2;
                e->value = r.value;
                memcpy(e->what, r.comm, sizeof(e->what));
                continue;
            }
            if (r.type >= TRACE_NR_TYPES || !has_nul(r.comm, sizeof(r.comm)) || !has_nul(r.comm2, sizeof(r.comm2)))
                return trace_free(t), fail(err, "cpu %u record %u: unknown type %u or unterminated name", c, i, r.type);
            if (r.cpu >= h.ncpus || r.cpu2 >= h.ncpus)
                return trace_free(t), fail(err, "cpu %u record %u (%s): cpu %u/%u of %u", c, i,
                                            tev_event_name(r.type), r.cpu, r.cpu2, h.ncpus);
            struct tev *e = &t->ev[t->nev++];
            e->ts = r.ts_ns, e->seq = i, e->cpu = (uint8_t)c, e->type = r.type, e->tcpu = r.cpu, e->ocpu = r.cpu2;
            e->flags = r.flags, e->pid = r.pid, e->pid2 = r.pid2, e->prio = r.prio, e->prio2 = r.prio2;
            e->value = r.value;
            memcpy(e->comm, r.comm, sizeof(e->comm));
            memcpy(e->comm2, r.comm2, sizeof(e->comm2));
        }
    }
    trace_sort(t);
    order_ties(t);
    name_stall_tasks(t);
    t->ts_resolution_ns = 1;
    return true;
}

bool trace_read_stream(const char *path, struct trace *t, char **err)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return fail(err, "%s: %s", path, strerror(errno));
    bool ok = trace_parse_stream((const unsigned char *)buf, len, t, err);
    if (!ok) {
        char *e = xasprintf("%s: %s", path, *err);
        free(*err);
        *err = e;
    }
    free(buf);
    return ok;
}

/* ---- ftrace's text format ---- */

/* ftrace prints microseconds, rounded (ns2usecs). */
static void print_ts(FILE *out, uint64_t ns)
{
    uint64_t us = (ns + 500) / 1000;
    fprintf(out, "%5" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

/* A name as one word: the text is split at spaces by every reader. */
static const char *word(const char *s, char *buf)
{
    size_t i = 0;
    for (; s[i] && i < TRACE_COMM_LEN - 1; i++)
        buf[i] = s[i] == ' ' || s[i] == '=' ? '_' : s[i];
    buf[i] = 0;
    if (!i)
        strcpy(buf, "<...>");
    return buf;
}

static void write_events_list(uint32_t events, FILE *out)
{
    bool first = true;
    for (int ty = 0; ty < TRACE_NR_TYPES; ty++)
        if (events & (1u << ty)) {
            fprintf(out, "%s%s", first ? "" : ",", short_names[ty]);
            first = false;
        }
    if (first)
        fputs("none", out);
}

void trace_write_text(const struct trace *t, FILE *out)
{
    uint64_t kept = 0, written = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        kept += t->cpu[c].kept, written += t->cpu[c].written;
    fprintf(out, "# tracer: nop\n#\n");
    fprintf(out, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%u\n#\n", kept, written, t->ncpus);
    fprintf(out, "# schedlab: sched=%s cpus=%u hz=%u tsc_khz=%u events=", t->sched[0] ? t->sched : "?", t->ncpus, t->hz,
            t->tsc_khz);
    write_events_list(t->events, out);
    fprintf(out, " capacity=%u start_ns=%" PRIu64 " stop_ns=%" PRIu64 "\n", t->capacity, t->start_ns, t->stop_ns);
    fprintf(out, "# schedlab: cmdline=%s\n", t->cmdline);
    for (uint32_t c = 0; c < t->ncpus; c++)
        fprintf(out, "# schedlab: cpu=%u written=%" PRIu64 " dropped=%" PRIu64 " kept=%" PRIu64 " memstall=%" PRIu64
                     " memstall_dropped=%" PRIu64 "\n", c,
                t->cpu[c].written, t->cpu[c].dropped, t->cpu[c].kept, t->cpu[c].memstall, t->cpu[c].memstall_dropped);
    fprintf(out, "#\n"
                 "#                              _-----=> irqs-off\n"
                 "#                             / _----=> need-resched\n"
                 "#                            | / _---=> hardirq/softirq\n"
                 "#                            || / _--=> preempt-depth\n"
                 "#                            ||| /     delay\n"
                 "#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
                 "#              | |       |   ||||       |         |\n");
    char a[TRACE_COMM_LEN + 8], b[TRACE_COMM_LEN + 8];
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type == TRACE_WAKEUP) {
            /* Linux 4.3+'s sched_waking (try_to_wake_up) before sched_wakeup: Perfetto's runnable
             * state begins there.  The readers here skip it (the same wake-up). */
            fprintf(out, "%16s-%-5d [%03u] d... ", tev_current_pid(e) == 0 ? "<idle>" : word(tev_current_comm(e), a),
                    tev_current_pid(e), e->cpu);
            print_ts(out, e->ts);
            fprintf(out, ": sched_waking: comm=%s pid=%d prio=%d target_cpu=%03u\n", word(e->comm, a), e->pid, e->prio,
                    e->tcpu);
        }
        fprintf(out, "%16s-%-5d [%03u] d... ", tev_current_pid(e) == 0 ? "<idle>" : word(tev_current_comm(e), a),
                tev_current_pid(e), e->cpu);
        print_ts(out, e->ts);
        fprintf(out, ": %s: ", event_names[e->type]);
        switch (e->type) {
        case TRACE_SWITCH:
            fprintf(out, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
                    word(e->comm, a), e->pid, e->prio, tev_state_text(e), word(e->comm2, b), e->pid2, e->prio2);
            break;
        case TRACE_WAKEUP:
        case TRACE_WAKEUP_NEW:
            fprintf(out, "comm=%s pid=%d prio=%d target_cpu=%03u sync=%d\n", word(e->comm, a), e->pid, e->prio, e->tcpu,
                    e->flags & TRACE_FLAG_SYNC ? 1 : 0);
            break;
        case TRACE_MIGRATE:
            fprintf(out, "comm=%s pid=%d prio=%d orig_cpu=%u dest_cpu=%u\n", word(e->comm, a), e->pid, e->prio, e->ocpu,
                    e->tcpu);
            break;
        case TRACE_FORK:
            fprintf(out, "comm=%s pid=%d child_comm=%s child_pid=%d\n", word(e->comm, a), e->pid, word(e->comm2, b),
                    e->pid2);
            break;
        case TRACE_EXIT:
            fprintf(out, "comm=%s pid=%d prio=%d runtime_ns=%" PRId64 "\n", word(e->comm, a), e->pid, e->prio, e->value);
            break;
        case TRACE_SCHED:
            fprintf(out, "name=%s value=%" PRId64 " cpu=%u\n", word(e->comm2, b), e->value, e->tcpu);
            break;
        case TRACE_MEMSTALL: {
            char w[2 * TRACE_COMM_LEN];
            size_t k = 0;
            for (; e->what[k] && k < sizeof(w) - 1; k++)
                w[k] = e->what[k] == ' ' || e->what[k] == '=' ? '_' : e->what[k];
            w[k] = 0;
            fprintf(out, "what=%s stall_ns=%" PRId64 " from=%s tick_stall_ns=%d site=0x%08x\n", k ? w : "?", e->value,
                    tev_stall_source_name(e->flags), e->pid2, tev_stall_site(e));
            break;
        }
        }
    }
}

/* ---- reading the text back ---- */

struct kv {
    char *key[16], *val[16];
    int n;
};

static const char *kv_get(const struct kv *kv, const char *key)
{
    for (int i = 0; i < kv->n; i++)
        if (!strcmp(kv->key[i], key))
            return kv->val[i];
    return NULL;
}

/* Splits s (modified) into key=value words; other words ("==>") are skipped. */
static void kv_split(char *s, struct kv *kv)
{
    kv->n = 0;
    for (char *tok = strtok(s, " \t"); tok && kv->n < 16; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok)
            continue;
        *eq = 0;
        kv->key[kv->n] = tok;
        kv->val[kv->n++] = eq + 1;
    }
}

static bool get_long(const struct kv *kv, const char *key, long lo, long hi, long *out)
{
    const char *v = kv_get(kv, key);
    return v && parse_long(v, out) && *out >= lo && *out <= hi;
}

static bool get_u64(const char *v, uint64_t *out)
{
    if (!v || !*v)
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || errno || *v == '-')
        return false;
    *out = x;
    return true;
}

static void set_comm(char *dst, const char *src)
{
    snprintf(dst, TRACE_COMM_LEN, "%s", src && strcmp(src, "<idle>") ? src : "");
}

/* "# schedlab: ..." lines: the stream's header, so the text reads back whole. */
static bool parse_meta(char *line, struct trace *t, bool *have_header, char **err, size_t lineno)
{
    if (!strncmp(line, "cmdline=", 8)) {
        snprintf(t->cmdline, sizeof(t->cmdline), "%s", line + 8);
        return true;
    }
    struct kv kv;
    kv_split(line, &kv);
    long v;
    if (kv_get(&kv, "written")) {
        long c;
        uint64_t w, d, k;
        if (!get_long(&kv, "cpu", 0, TRACE_MAX_CPUS - 1, &c) || !get_u64(kv_get(&kv, "written"), &w) ||
            !get_u64(kv_get(&kv, "dropped"), &d) || !get_u64(kv_get(&kv, "kept"), &k) || d > w || k > w)
            return fail(err, "line %zu: bad '# schedlab: cpu=' line", lineno);
        t->cpu[c] = (struct trace_cpu_count){ w, d, k, 0, 0 };
        uint64_t ms;
        if (get_u64(kv_get(&kv, "memstall"), &ms))
            t->cpu[c].memstall = ms;
        if (get_u64(kv_get(&kv, "memstall_dropped"), &ms))
            t->cpu[c].memstall_dropped = ms;
        return true;
    }
    if (!kv_get(&kv, "sched"))
        return true;
    uint64_t start, stop;
    if (!get_long(&kv, "cpus", 1, TRACE_MAX_CPUS, &v) || !get_u64(kv_get(&kv, "start_ns"), &start) ||
        !get_u64(kv_get(&kv, "stop_ns"), &stop))
        return fail(err, "line %zu: bad '# schedlab:' header line", lineno);
    t->ncpus = (uint32_t)v;
    t->start_ns = start, t->stop_ns = stop;
    snprintf(t->sched, sizeof(t->sched), "%s", kv_get(&kv, "sched"));
    if (get_long(&kv, "hz", 0, 1000000, &v))
        t->hz = (uint32_t)v;
    if (get_long(&kv, "tsc_khz", 0, 100000000, &v))
        t->tsc_khz = (uint32_t)v;
    if (get_long(&kv, "capacity", 0, 1L << 30, &v))
        t->capacity = (uint32_t)v;
    const char *ev = kv_get(&kv, "events");
    t->events = 0;
    if (ev && strcmp(ev, "none")) {
        char *copy = xstrdup(ev);
        for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
            for (int ty = 0; ty < TRACE_NR_TYPES; ty++)
                if (!strcmp(tok, short_names[ty]))
                    t->events |= 1u << ty;
        free(copy);
    }
    *have_header = true;
    return true;
}

/* One event line: "<comm>-<pid> [cpu] flags secs.usecs: name: key=value ...". */
static bool parse_event_line(char *line, struct tev *e, uint32_t *seq, char **err, size_t lineno, bool *skip)
{
    *skip = false;
    char *br = NULL;
    for (char *p = strstr(line, " ["); p; p = strstr(p + 1, " ["))
        if (p[2] >= '0' && p[2] <= '9' && strchr(p, ']'))
            br = p;                                  /* the last " [N]": a comm may contain " [" itself */
    if (!br)
        return fail(err, "line %zu: not an ftrace event line (no [cpu])", lineno);
    *br = 0;
    for (char *q = br; q > line && q[-1] == ' '; q--)
        q[-1] = 0;                               /* "%-5d" pads the pid */
    size_t tl = strlen(line);
    char *open = tl && line[tl - 1] == ')' ? strrchr(line, '(') : NULL;
    if (open) {                                  /* the tgid column, "(  123)" or "(-----)" */
        *open = 0;
        for (char *q = open; q > line && q[-1] == ' '; q--)
            q[-1] = 0;
    }
    char *dash = strrchr(line, '-');
    long pid, cpu;
    if (!dash || !parse_long(dash + 1, &pid) || pid < 0)
        return fail(err, "line %zu: no <comm>-<pid> before [cpu]", lineno);
    *dash = 0;
    char *task = line;
    while (*task == ' ')
        task++;
    char *close = strchr(br + 2, ']');
    *close = 0;
    if (!parse_long(br + 2, &cpu) || cpu < 0 || cpu >= TRACE_MAX_CPUS)
        return fail(err, "line %zu: bad cpu '%s'", lineno, br + 2);
    /* Optional flags, then the timestamp and its colon. */
    char *p = close + 1;
    char *colon = strstr(p, ": ");
    if (!colon)
        return fail(err, "line %zu: no timestamp", lineno);
    *colon = 0;
    char *ts = strrchr(p, ' ');
    ts = ts ? ts + 1 : p;
    char *dot = strchr(ts, '.');
    uint64_t secs, usecs;
    if (!dot)
        return fail(err, "line %zu: bad timestamp '%s'", lineno, ts);
    *dot = 0;
    if (!get_u64(ts, &secs) || strlen(dot + 1) != 6 || !get_u64(dot + 1, &usecs))
        return fail(err, "line %zu: bad timestamp", lineno);
    char *name = colon + 2;
    char *ncolon = strchr(name, ':');
    if (!ncolon)
        return fail(err, "line %zu: no event name", lineno);
    *ncolon = 0;
    int type = tev_type_of_name(name);
    if (type < 0) {
        *skip = true;                                /* another event (a Linux trace may have many) */
        return true;
    }
    struct kv kv;
    kv_split(ncolon + 1, &kv);
    memset(e, 0, sizeof(*e));
    e->ts = secs * 1000000000ull + usecs * 1000;
    e->cpu = (uint8_t)cpu;
    e->seq = seq[cpu]++;
    e->type = (uint8_t)type;
    long a, b, c, d;
    bool ok = true;
    switch (type) {
    case TRACE_SWITCH: {
        const char *st = kv_get(&kv, "prev_state");
        ok = get_long(&kv, "prev_pid", 0, INT32_MAX, &a) && get_long(&kv, "prev_prio", -1000, 1000, &b) &&
             get_long(&kv, "next_pid", 0, INT32_MAX, &c) && get_long(&kv, "next_prio", -1000, 1000, &d) && st &&
             kv_get(&kv, "prev_comm") && kv_get(&kv, "next_comm");
        if (!ok)
            break;
        e->pid = (int32_t)a, e->prio = (int16_t)b, e->pid2 = (int32_t)c, e->prio2 = (int16_t)d;
        set_comm(e->comm, kv_get(&kv, "prev_comm"));
        set_comm(e->comm2, kv_get(&kv, "next_comm"));
        /* Linux's letters too: R, R+ runnable; S, D, I (and T, t, P) blocked; X, Z dead. */
        e->flags = st[0] == 'R' ? TRACE_STATE_RUNNABLE : st[0] == 'X' || st[0] == 'Z' ? TRACE_STATE_DEAD
                                                                                    : TRACE_STATE_SLEEPING;
        break;
    }
    case TRACE_WAKEUP:
    case TRACE_WAKEUP_NEW:
    case TRACE_MIGRATE:
        ok = get_long(&kv, "pid", 0, INT32_MAX, &a) && get_long(&kv, "prio", -1000, 1000, &b) && kv_get(&kv, "comm");
        if (!ok)
            break;
        e->pid = (int32_t)a, e->prio = (int16_t)b;
        set_comm(e->comm, kv_get(&kv, "comm"));
        e->pid2 = (int32_t)pid;
        set_comm(e->comm2, task);
        if (type == TRACE_MIGRATE) {
            ok = get_long(&kv, "orig_cpu", 0, TRACE_MAX_CPUS - 1, &c) && get_long(&kv, "dest_cpu", 0, TRACE_MAX_CPUS - 1, &d);
            e->ocpu = (uint8_t)c, e->tcpu = (uint8_t)d;
        } else {
            ok = get_long(&kv, "target_cpu", 0, TRACE_MAX_CPUS - 1, &c);
            e->tcpu = (uint8_t)c;
            if (ok && get_long(&kv, "sync", 0, 1, &d) && d)
                e->flags = TRACE_FLAG_SYNC;
        }
        break;
    case TRACE_FORK:
        ok = get_long(&kv, "pid", 0, INT32_MAX, &a) && get_long(&kv, "child_pid", 0, INT32_MAX, &c) &&
             kv_get(&kv, "comm") && kv_get(&kv, "child_comm");
        if (!ok)
            break;
        e->pid = (int32_t)a, e->pid2 = (int32_t)c;
        set_comm(e->comm, kv_get(&kv, "comm"));
        set_comm(e->comm2, kv_get(&kv, "child_comm"));
        break;
    case TRACE_EXIT: {
        ok = get_long(&kv, "pid", 0, INT32_MAX, &a) && get_long(&kv, "prio", -1000, 1000, &b) && kv_get(&kv, "comm");
        if (!ok)
            break;
        e->pid = (int32_t)a, e->prio = (int16_t)b;
        set_comm(e->comm, kv_get(&kv, "comm"));
        uint64_t rt;
        e->value = kv_get(&kv, "runtime_ns") && get_u64(kv_get(&kv, "runtime_ns"), &rt) ? (int64_t)rt : -1;
        break;
    }
    case TRACE_SCHED: {
        const char *v = kv_get(&kv, "value");
        ok = kv_get(&kv, "name") && v && get_long(&kv, "cpu", 0, TRACE_MAX_CPUS - 1, &c);
        long long val = 0;
        char *end = NULL;
        if (ok) {
            errno = 0;
            val = strtoll(v, &end, 10);
            ok = *v && !*end && !errno;
        }
        if (!ok)
            break;
        e->value = val, e->tcpu = (uint8_t)c, e->pid = (int32_t)pid;
        set_comm(e->comm, task);
        set_comm(e->comm2, kv_get(&kv, "name"));
        break;
    }
    case TRACE_MEMSTALL: {
        uint64_t ns, tick, site;
        const char *w = kv_get(&kv, "what"), *from = kv_get(&kv, "from"), *st = kv_get(&kv, "site");
        int src = from ? tev_stall_source_of_name(from) : -1;
        char *end = NULL;
        ok = w && src > 0 && get_u64(kv_get(&kv, "stall_ns"), &ns) && get_u64(kv_get(&kv, "tick_stall_ns"), &tick) &&
             tick <= INT32_MAX && st && !strncmp(st, "0x", 2);
        if (ok) {
            errno = 0;
            site = strtoull(st + 2, &end, 16);
            ok = st[2] && !*end && !errno && site <= 0xffffffffu;
        }
        if (!ok)
            break;
        e->value = (int64_t)ns, e->pid2 = (int32_t)tick, e->flags = (uint8_t)src, e->tcpu = (uint8_t)cpu;
        e->prio = (int16_t)(uint16_t)(site & 0xffff), e->prio2 = (int16_t)(uint16_t)(site >> 16);
        e->pid = (int32_t)pid;
        set_comm(e->comm, task);
        snprintf(e->what, sizeof(e->what), "%s", w);
        break;
    }
    }
    if (!ok)
        return fail(err, "line %zu: malformed %s", lineno, name);
    return true;
}

/* Must b come before a, when both have the same timestamp?  Causes first:
 * a task blocks (its switch-out) before it is woken, is woken or moved
 * before it is switched in, and leaves one CPU before it runs on another. */
static bool must_precede(const struct tev *b, const struct tev *a)
{
    if (a->type == TRACE_SWITCH && a->pid2 > 0) {
        int32_t p = a->pid2;
        if ((b->type == TRACE_WAKEUP || b->type == TRACE_WAKEUP_NEW || b->type == TRACE_MIGRATE) && b->pid == p)
            return true;
        if (b->type == TRACE_SWITCH && b->pid == p && b->cpu != a->cpu)
            return true;
    }
    if ((a->type == TRACE_WAKEUP || a->type == TRACE_WAKEUP_NEW) && b->type == TRACE_SWITCH && b->pid == a->pid)
        return true;
    return false;
}

/* ftrace's microseconds (and a clock that two CPUs read in the same
 * nanosecond) give causally related events on two CPUs the same timestamp
 * (a wake-up and the switch-in it causes, 0.4 us apart): within
 * each run of equal timestamps, put causes before effects, keeping each
 * CPU's own order; a cycle (which no kernel makes) keeps the sorted order. */
static void order_ties(struct trace *t)
{
    struct tev *tmp = NULL;
    bool *done = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < t->nev;) {
        size_t j = i + 1;
        while (j < t->nev && t->ev[j].ts == t->ev[i].ts)
            j++;
        size_t n = j - i;
        if (n > 1 && n <= 256) {
            if (n > cap) {
                cap = n;
                tmp = xrealloc(tmp, cap * sizeof(*tmp));
                done = xrealloc(done, cap * sizeof(*done));
            }
            memset(done, 0, n * sizeof(*done));
            for (size_t out = 0; out < n; out++) {
                size_t pick = n;
                for (size_t k = 0; k < n && pick == n; k++) {
                    if (done[k])
                        continue;
                    bool ready = true;
                    for (size_t m = 0; m < n && ready; m++)
                        if (!done[m] && m != k &&
                            ((m < k && t->ev[i + m].cpu == t->ev[i + k].cpu) || must_precede(&t->ev[i + m], &t->ev[i + k])))
                            ready = false;
                    if (ready)
                        pick = k;
                }
                if (pick == n)
                    for (pick = 0; done[pick]; pick++)
                        ;
                done[pick] = true;
                tmp[out] = t->ev[i + pick];
            }
            memcpy(&t->ev[i], tmp, n * sizeof(*tmp));
        }
        i = j;
    }
    free(tmp);
    free(done);
}

bool trace_parse_text(const char *text, size_t len, struct trace *t, char **err)
{
    memset(t, 0, sizeof(*t));
    size_t cap = 0;
    uint32_t seq[TRACE_MAX_CPUS] = { 0 };
    bool have_header = false;
    uint32_t max_cpu = 0;
    size_t lineno = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line = xstrndup(p, n);
        lineno++;
        p += n + (nl ? 1 : 0);
        bool ok = true;
        if (!strncmp(line, "# schedlab: ", 12)) {
            ok = parse_meta(line + 12, t, &have_header, err, lineno);
        } else if (line[0] != '#' && line[strspn(line, " \t\r")] != 0) {
            struct tev e;
            bool skip;
            ok = parse_event_line(line, &e, seq, err, lineno, &skip);
            if (ok && !skip) {
                grow(&t->ev, &cap, t->nev, sizeof(*t->ev));
                t->ev[t->nev++] = e;
                if (e.cpu > max_cpu)
                    max_cpu = e.cpu;
            }
        }
        free(line);
        if (!ok) {
            trace_free(t);
            return false;
        }
    }
    if (!have_header) {
        /* A Linux trace: what the lines say. */
        t->ncpus = t->nev ? max_cpu + 1 : 1;
        for (size_t i = 0; i < t->nev; i++)
            t->events |= 1u << t->ev[i].type;
        if (t->nev) {
            t->start_ns = t->ev[0].ts, t->stop_ns = t->ev[t->nev - 1].ts;
            for (size_t i = 0; i < t->nev; i++) {
                t->start_ns = t->ev[i].ts < t->start_ns ? t->ev[i].ts : t->start_ns;
                t->stop_ns = t->ev[i].ts > t->stop_ns ? t->ev[i].ts : t->stop_ns;
            }
        }
        for (uint32_t c = 0; c < t->ncpus; c++)
            t->cpu[c].written = t->cpu[c].kept = seq[c];
    } else if (max_cpu >= t->ncpus && t->nev) {
        trace_free(t);
        return fail(err, "an event on cpu %u of %u", max_cpu, t->ncpus);
    }
    trace_sort(t);
    order_ties(t);
    t->ts_resolution_ns = 1000;
    return true;
}

bool trace_read_text(const char *path, struct trace *t, char **err)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return fail(err, "%s: %s", path, strerror(errno));
    bool ok = trace_parse_text(buf, len, t, err);
    if (!ok) {
        char *e = xasprintf("%s: %s", path, *err);
        free(*err);
        *err = e;
    }
    free(buf);
    return ok;
}
