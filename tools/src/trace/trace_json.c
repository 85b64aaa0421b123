/*
 * trace.json: the trace in the Chrome trace-event format (the JSON object
 * form, "traceEvents"), which Perfetto's UI and chrome://tracing open as
 * they are.  One process, "CPUs", with a thread (a track) per CPU:
 *
 *   - a complete event ("X") per run slice, named by the task ("hb-receiver
 *     767"), the same slices as the timeline: on a CPU that dropped its
 *     oldest records they start at its first kept one;
 *   - wake-ups: an instant ("i") on the waker's CPU, and a flow ("s" to "f")
 *     from there to where the task then ran;
 *   - migrations, forks and exits: instants with their arguments;
 *   - the scheduler's own events (goodness's recalc, o1's array_swap, CFS's
 *     vruntime): instants on the CPU they concern, with their value;
 *   - the memory model's stalls (memstall): a complete event as long as the
 *     stall, named by what was accessed, with where the line came from;
 *   - per CPU that dropped records, an instant at its first kept record that
 *     says so, and the counts in "otherData".
 *
 * Times are microseconds with three decimals (the format's unit; the stream
 * is in nanoseconds).
 */
#include "trace_data.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void us(FILE *out, uint64_t ns) { fprintf(out, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000); }

/* The start of an event object: its phase, name, category, track and time. */
static void head(FILE *out, bool *first, const char *ph, const char *name, const char *cat, unsigned cpu, uint64_t ts)
{
    fputs(*first ? "\n" : ",\n", out);
    *first = false;
    fprintf(out, "{\"ph\":\"%s\",\"name\":", ph);
    json_str(out, name);
    fprintf(out, ",\"cat\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", cat, cpu);
    us(out, ts);
}

size_t trace_write_json(const struct trace *t, FILE *out)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    bool first = true;
    char name[64];
    size_t slices = 0;
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"sched\":");
    json_str(out, t->sched);
    fprintf(out, ",\"cpus\":%u,\"cmdline\":", t->ncpus);
    json_str(out, t->cmdline);
    fprintf(out, ",\"start_ns\":%" PRIu64 ",\"stop_ns\":%" PRIu64 ",\"dropped\":[", t->start_ns, t->stop_ns);
    for (uint32_t c = 0; c < t->ncpus; c++)
        fprintf(out, "%s%" PRIu64, c ? "," : "", t->cpu[c].dropped);
    fprintf(out, "]},\n\"traceEvents\":[");
    /* The tracks. */
    fputs("\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"CPUs\"}}", out);
    first = false;
    for (uint32_t c = 0; c < t->ncpus; c++) {
        fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"cpu %u\"}}", c, c);
        fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                c, c);
    }
    /* Run slices: as the timeline draws them (trace_svg.c). */
    int32_t curr[TRACE_MAX_CPUS];
    uint64_t since[TRACE_MAX_CPUS];
    for (uint32_t c = 0; c < TRACE_MAX_CPUS; c++)
        curr[c] = -1, since[c] = t->start_ns;
    for (uint32_t c = 0; c < t->ncpus; c++)
        if (t->cpu[c].dropped) {
            uint64_t f = trace_cpu_first_kept(t, c);
            since[c] = f ? f : t->stop_ns;
            snprintf(name, sizeof(name), "no data before: cpu %u dropped %" PRIu64 " of %" PRIu64 " events", c,
                     t->cpu[c].dropped, t->cpu[c].written);
            head(out, &first, "i", name, "trace", c, since[c]);
            fputs(",\"s\":\"t\"}", out);
        }
    for (size_t i = 0; i <= t->nev; i++) {
        const struct tev *e = i < t->nev ? &t->ev[i] : NULL;
        if (e && e->type != TRACE_SWITCH)
            continue;
        for (uint32_t c = 0; c < t->ncpus; c++) {
            if (e && e->cpu != c)
                continue;
            int32_t pid = curr[c] >= 0 ? curr[c] : e ? e->pid : -1;
            uint64_t end = e ? e->ts : t->stop_ns;
            if (pid > 0 && end > since[c]) {
                const struct trace_task *p = trace_find_task(&a, pid);
                snprintf(name, sizeof(name), "%s %d", p ? p->comm : "?", pid);
                head(out, &first, "X", name, "run", c, since[c]);
                fputs(",\"dur\":", out);
                us(out, end - since[c]);
                fprintf(out, ",\"args\":{\"pid\":%d", pid);
                if (p && p->group >= 0)
                    fprintf(out, ",\"group\":%d", p->group);
                fputs("}}", out);
                slices++;
            }
            if (e)
                curr[c] = e->pid2, since[c] = e->ts;
        }
    }
    /* Wake-ups (instant and flow), migrations, forks, exits, the scheduler's events. */
    uint64_t flow = 0;
    struct pending {
        uint64_t id;
    } *pend = xcalloc(a.ntask + 1, sizeof(*pend));
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        switch (e->type) {
        case TRACE_WAKEUP:
        case TRACE_WAKEUP_NEW: {
            snprintf(name, sizeof(name), "%s %s %d", e->type == TRACE_WAKEUP ? "wakeup" : "wakeup_new", e->comm, e->pid);
            head(out, &first, "i", name, "wakeup", e->cpu, e->ts);
            fprintf(out, ",\"s\":\"t\",\"args\":{\"pid\":%d,\"target_cpu\":%u,\"sync\":%d}}", e->pid, e->tcpu,
                    e->flags & TRACE_FLAG_SYNC ? 1 : 0);
            const struct trace_task *p = trace_find_task(&a, e->pid);
            if (p) {
                pend[p - a.task].id = ++flow;
                head(out, &first, "s", "wakeup", "wakeup", e->cpu, e->ts);
                fprintf(out, ",\"id\":%" PRIu64 "}", flow);
            }
            break;
        }
        case TRACE_SWITCH: {
            const struct trace_task *p = e->pid2 > 0 ? trace_find_task(&a, e->pid2) : NULL;
            if (p && pend[p - a.task].id) {
                head(out, &first, "f", "wakeup", "wakeup", e->cpu, e->ts);
                fprintf(out, ",\"bp\":\"e\",\"id\":%" PRIu64 "}", pend[p - a.task].id);
                pend[p - a.task].id = 0;
            }
            break;
        }
        case TRACE_MIGRATE:
            snprintf(name, sizeof(name), "migrate %s %d", e->comm, e->pid);
            head(out, &first, "i", name, "migrate", e->tcpu, e->ts);
            fprintf(out, ",\"s\":\"t\",\"args\":{\"pid\":%d,\"orig_cpu\":%u,\"dest_cpu\":%u}}", e->pid, e->ocpu, e->tcpu);
            break;
        case TRACE_FORK:
            snprintf(name, sizeof(name), "fork %s %d", e->comm2, e->pid2);
            head(out, &first, "i", name, "fork", e->cpu, e->ts);
            fprintf(out, ",\"s\":\"t\",\"args\":{\"parent_pid\":%d,\"child_pid\":%d}}", e->pid, e->pid2);
            break;
        case TRACE_EXIT:
            snprintf(name, sizeof(name), "exit %s %d", e->comm, e->pid);
            head(out, &first, "i", name, "exit", e->cpu, e->ts);
            fprintf(out, ",\"s\":\"t\",\"args\":{\"pid\":%d,\"runtime_ns\":%" PRId64 "}}", e->pid, e->value);
            break;
        case TRACE_SCHED:
            head(out, &first, "i", e->comm2, "sched_event", e->tcpu < t->ncpus ? e->tcpu : e->cpu, e->ts);
            fprintf(out, ",\"s\":\"t\",\"args\":{\"value\":%" PRId64 ",\"cpu\":%u}}", e->value, e->tcpu);
            break;
        case TRACE_MEMSTALL:       /* the memory model's biggest stall of the tick: as long as it lasted */
            snprintf(name, sizeof(name), "memstall %s", e->what[0] ? e->what : "?");
            head(out, &first, "X", name, "memstall", e->cpu, e->ts);
            fputs(",\"dur\":", out);
            us(out, (uint64_t)e->value);
            fprintf(out, ",\"args\":{\"stall_ns\":%" PRId64 ",\"from\":\"%s\",\"tick_stall_ns\":%d,\"site\":\"0x%08x\"}}",
                    e->value, tev_stall_source_name(e->flags), e->pid2, tev_stall_site(e));
            break;
        }
    }
    free(pend);
    fputs("\n]}\n", out);
    trace_analysis_free(&a);
    return slices;
}

size_t trace_count_slices(const struct trace *t, size_t per_cpu[TRACE_MAX_CPUS])
{
    size_t n = 0;
    int32_t curr[TRACE_MAX_CPUS];
    uint64_t since[TRACE_MAX_CPUS];
    for (uint32_t c = 0; c < TRACE_MAX_CPUS; c++)
        curr[c] = -1, since[c] = t->start_ns, per_cpu[c] = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        if (t->cpu[c].dropped) {
            uint64_t f = trace_cpu_first_kept(t, c);
            since[c] = f ? f : t->stop_ns;
        }
    for (size_t i = 0; i <= t->nev; i++) {
        const struct tev *e = i < t->nev ? &t->ev[i] : NULL;
        if (e && e->type != TRACE_SWITCH)
            continue;
        for (uint32_t c = 0; c < t->ncpus; c++) {
            if (e && e->cpu != c)
                continue;
            int32_t pid = curr[c] >= 0 ? curr[c] : e ? e->pid : -1;
            uint64_t end = e ? e->ts : t->stop_ns;
            if (pid > 0 && end > since[c])
                per_cpu[c]++, n++;
            if (e)
                curr[c] = e->pid2, since[c] = e->ts;
        }
    }
    return n;
}
