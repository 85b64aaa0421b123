/*
 * What a trace says about the scheduler (see trace_data.h): per-task
 * runtime and wake-up latency as perf sched latency prints them, the
 * switch-by-switch map of perf sched map, per-CPU busy and idle time,
 * run-queue length over time and migrations, and the invariants that every
 * well-formed trace keeps (trace-check).
 */
#include "trace_data.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- dropped records ---- */

uint64_t trace_cpu_first_kept(const struct trace *t, uint32_t cpu)
{
    if (cpu >= t->ncpus || !t->cpu[cpu].dropped)
        return 0;
    for (size_t i = 0; i < t->nev; i++)     /* memstall records have buffers of their own: older ones may be kept */
        if (t->ev[i].cpu == cpu && t->ev[i].type != TRACE_MEMSTALL)
            return t->ev[i].ts;
    return 0;
}

size_t trace_write_drops(const struct trace *t, FILE *out, const char *prefix, const char *suffix)
{
    size_t n = 0;
    for (uint32_t c = 0; c < t->ncpus; c++) {
        if (!t->cpu[c].dropped)
            continue;
        uint64_t first = trace_cpu_first_kept(t, c);
        uint64_t us = first > t->start_ns ? (first - t->start_ns) / 1000 : 0;
        fprintf(out, "%strace: cpu %u dropped %" PRIu64 " of %" PRIu64 " events; the timeline starts at %" PRIu64
                     ".%" PRIu64 " ms there%s\n",
                prefix ? prefix : "", c, t->cpu[c].dropped, t->cpu[c].written, us / 1000, us % 1000 / 100,
                suffix ? suffix : "");
        n++;
    }
    return n;
}

/* ---- the walk ---- */

static size_t hash_pid(int32_t pid, size_t size) { return ((uint32_t)pid * 2654435761u) & (size - 1); }

struct trace_task *trace_find_task(const struct trace_analysis *a, int32_t pid)
{
    if (!a->index_size)
        return NULL;
    for (size_t h = hash_pid(pid, a->index_size);; h = (h + 1) & (a->index_size - 1)) {
        size_t v = a->index[h];
        if (!v)
            return NULL;
        if (a->task[v - 1].pid == pid)
            return &a->task[v - 1];
    }
}

static struct trace_task *task_of(struct trace_analysis *a, int32_t pid, const char *comm, size_t *cap)
{
    struct trace_task *t = trace_find_task(a, pid);
    if (t) {
        if (comm && comm[0])
            snprintf(t->comm, sizeof(t->comm), "%s", comm);
        return t;
    }
    if (2 * (a->ntask + 1) > a->index_size) {
        size_t size = a->index_size ? 2 * a->index_size : 1024;
        free(a->index);
        a->index = xcalloc(size, sizeof(*a->index));
        a->index_size = size;
        for (size_t i = 0; i < a->ntask; i++) {
            size_t h = hash_pid(a->task[i].pid, size);
            while (a->index[h])
                h = (h + 1) & (size - 1);
            a->index[h] = i + 1;
        }
    }
    grow(&a->task, cap, a->ntask, sizeof(*a->task));
    t = &a->task[a->ntask];
    memset(t, 0, sizeof(*t));
    t->pid = pid;
    snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
    t->group = -1;
    t->exit_runtime_ns = -1;
    t->run_cpu = t->rq_cpu = -1;
    size_t h = hash_pid(pid, a->index_size);
    while (a->index[h])
        h = (h + 1) & (a->index_size - 1);
    a->index[h] = ++a->ntask;
    return t;
}

static void rq_change(struct trace_analysis *a, int cpu, int delta, uint64_t ts, size_t *cap)
{
    if (cpu < 0)
        return;
    struct trace_cpu_stat *c = &a->cpu[cpu];
    if (ts < a->valid_from) {
        /* Before every CPU's record is complete the counts are not known:
         * nothing is drawn or averaged there (seed_rq starts them again). */
        if (!(delta < 0 && c->nr == 0))
            c->nr = (uint16_t)(c->nr + delta);
        return;
    }
    c->rq_area += (uint64_t)c->nr * (ts - c->rq_since);
    c->rq_since = ts;
    if (delta < 0 && c->nr == 0)
        return;
    c->nr = (uint16_t)(c->nr + delta);
    if (c->nr > c->rq_max)
        c->rq_max = c->nr;
    grow(&a->rq, cap, a->nrq, sizeof(*a->rq));
    a->rq[a->nrq++] = (struct trace_rq_point){ ts, (uint16_t)cpu, c->nr };
}

/* The task is runnable on cpu (queued or running there), or on none (-1). */
static void set_rq(struct trace_analysis *a, struct trace_task *t, int cpu, uint64_t ts, size_t *cap)
{
    if (t->rq_cpu == cpu)
        return;
    rq_change(a, t->rq_cpu, -1, ts, cap);
    t->rq_cpu = cpu;
    rq_change(a, cpu, +1, ts, cap);
}

/*
 * Some CPU dropped its oldest records, so at valid_from (where every CPU's
 * record is complete) who was runnable where is not known from the events
 * before.  It is read from each task's first event from there on: the prev
 * of a switch or a task that exits was running on that CPU; the next of a
 * switch was queued on that CPU; a task whose first event is a wake-up was
 * asleep; a migration says nothing yet (a waking task moves before its
 * wake-up record), so the task's next event decides.
 */
static void seed_rq(const struct trace *t, struct trace_analysis *a, size_t from, size_t *task_cap, size_t *rq_cap)
{
    for (size_t i = 0; i < a->ntask; i++)
        a->task[i].rq_cpu = -1;
    unsigned char *seen = NULL;
    size_t seen_n = 0;
    int nr[TRACE_MAX_CPUS] = { 0 };
    for (size_t i = from; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        int32_t pids[2] = { 0, 0 };
        int where[2] = { -1, -1 };
        switch (e->type) {
        case TRACE_SWITCH: pids[0] = e->pid, where[0] = e->cpu, pids[1] = e->pid2, where[1] = e->cpu; break;
        case TRACE_EXIT: pids[0] = e->pid, where[0] = e->cpu; break;
        case TRACE_WAKEUP:
        case TRACE_WAKEUP_NEW: pids[0] = e->pid; break;
        case TRACE_FORK: pids[0] = e->pid2; break;
        default: continue;
        }
        for (int k = 0; k < 2; k++) {
            if (pids[k] <= 0)
                continue;
            struct trace_task *p = task_of(a, pids[k], NULL, task_cap);
            size_t idx = (size_t)(p - a->task);
            if (idx >= seen_n) {
                size_t n = a->ntask + 64;
                seen = xrealloc(seen, n);
                memset(seen + seen_n, 0, n - seen_n);
                seen_n = n;
            }
            if (seen[idx])
                continue;
            seen[idx] = 1;
            p->rq_cpu = where[k];
            if (where[k] >= 0)
                nr[where[k]]++;
        }
    }
    free(seen);
    for (uint32_t c = 0; c < t->ncpus; c++) {
        struct trace_cpu_stat *k = &a->cpu[c];
        k->nr = (uint16_t)nr[c];
        k->rq_since = a->valid_from;
        k->rq_area = 0;
        if (k->nr > k->rq_max)
            k->rq_max = k->nr;
        grow(&a->rq, rq_cap, a->nrq, sizeof(*a->rq));
        a->rq[a->nrq++] = (struct trace_rq_point){ a->valid_from, (uint16_t)c, k->nr };
    }
}

/* hackbench's groups: each group forks its receivers, then its senders
 * (workloads/hackbench.c), so a receiver forked after a sender starts a new
 * group; numbering starts again once every hackbench task has exited. */
static void note_group(struct trace_analysis *a, struct trace_task *child, int *last_kind, int *live, int *group)
{
    bool rx = !strcmp(child->comm, "hb-receiver"), tx = !strcmp(child->comm, "hb-sender");
    if (!rx && !tx)
        return;
    if (*live == 0)
        *group = -1, *last_kind = 0;
    if (rx && *last_kind != 1)
        (*group)++;
    *last_kind = rx ? 1 : 2;
    child->group = *group < 0 ? 0 : *group;
    (*live)++;
    if ((uint64_t)child->group + 1 > a->ngroups)
        a->ngroups = (uint64_t)child->group + 1;
}

void trace_analyze(const struct trace *t, struct trace_analysis *a)
{
    memset(a, 0, sizeof(*a));
    size_t task_cap = 0, rq_cap = 0;
    a->window_ns = t->stop_ns - t->start_ns;
    for (uint32_t c = 0; c < t->ncpus; c++) {
        a->cpu[c].curr = -1;
        a->cpu[c].idle_since = a->cpu[c].rq_since = t->start_ns;
    }
    /* Where every CPU's buffer is complete: after the first kept event of each CPU that dropped some. */
    bool seen[TRACE_MAX_CPUS] = { false };
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type == TRACE_MEMSTALL)      /* the memory model's: not the scheduler's record */
            continue;
        if (!seen[e->cpu] && t->cpu[e->cpu].dropped && e->ts > a->valid_from)
            a->valid_from = e->ts;
        /* A CPU's idle time counts from its first record: the others come
         * online well after recording starts (on a loaded TCG host, 100 ms). */
        if (!seen[e->cpu])
            a->cpu[e->cpu].idle_since = a->cpu[e->cpu].slice_since = e->ts;
        seen[e->cpu] = true;
    }
    int hb_kind = 0, hb_live = 0, hb_group = -1;
    bool seeded = !a->valid_from;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        struct trace_cpu_stat *c = &a->cpu[e->cpu];
        if (!seeded && e->ts >= a->valid_from) {
            seed_rq(t, a, i, &task_cap, &rq_cap);
            seeded = true;
        }
        switch (e->type) {
        case TRACE_SWITCH: {
            c->switches++;
            if (e->pid != 0)
                c->busy_ns += e->ts - (c->slice_since < e->ts ? c->slice_since : e->ts);
            c->slice_since = e->ts;
            if (e->pid == 0)
                c->idle_ns += e->ts - (c->idle_since < e->ts ? c->idle_since : e->ts);
            else {
                struct trace_task *p = task_of(a, e->pid, e->comm, &task_cap);
                if (p->run_cpu == e->cpu) {
                    p->runtime_ns += e->ts - p->in_ts;
                    p->run_cpu = -1;
                }
                if (e->flags == TRACE_STATE_RUNNABLE) {
                    p->waiting = true, p->wait_ts = e->ts;
                    set_rq(a, p, e->cpu, e->ts, &rq_cap);
                } else {
                    p->waiting = false, p->slept = true;
                    set_rq(a, p, -1, e->ts, &rq_cap);
                }
            }
            if (e->pid2 == 0)
                c->idle_since = e->ts;
            else {
                struct trace_task *n = task_of(a, e->pid2, e->comm2, &task_cap);
                if (n->waiting) {
                    uint64_t d = e->ts - n->wait_ts;
                    n->ndelays++;
                    n->delay_sum_ns += d;
                    if (d >= n->delay_max_ns && (d > n->delay_max_ns || !n->delay_max_at))
                        n->delay_max_ns = d, n->delay_max_at = e->ts;
                    n->waiting = false;
                }
                n->slices++;
                n->run_cpu = e->cpu;
                n->in_ts = e->ts;
                set_rq(a, n, e->cpu, e->ts, &rq_cap);
            }
            c->curr = e->pid2;
            break;
        }
        case TRACE_WAKEUP:
        case TRACE_WAKEUP_NEW: {
            a->cpu[e->tcpu].wakeups++;
            struct trace_task *p = task_of(a, e->pid, e->comm, &task_cap);
            if (e->type == TRACE_WAKEUP_NEW && e->ts >= a->valid_from)
                p->whole_life = true;
            if (p->run_cpu < 0 && !p->waiting)
                p->waiting = true, p->wait_ts = e->ts;
            set_rq(a, p, e->tcpu, e->ts, &rq_cap);
            break;
        }
        case TRACE_MIGRATE: {
            a->cpu[e->tcpu].migrations_in++;
            a->migrations++;
            struct trace_task *p = task_of(a, e->pid, e->comm, &task_cap);
            if (p->rq_cpu >= 0)
                set_rq(a, p, e->tcpu, e->ts, &rq_cap);
            break;
        }
        case TRACE_FORK: {
            struct trace_task *ch = task_of(a, e->pid2, e->comm2, &task_cap);
            note_group(a, ch, &hb_kind, &hb_live, &hb_group);
            break;
        }
        case TRACE_EXIT: {
            struct trace_task *p = task_of(a, e->pid, e->comm, &task_cap);
            p->exited = true;
            p->exit_runtime_ns = e->value;
            if (p->group >= 0 && hb_live > 0)
                hb_live--;
            break;
        }
        case TRACE_SCHED:
            c->sched_events++;
            break;
        }
    }
    /* Forks that were dropped (the oldest records of a full buffer): tell
     * hackbench's groups apart by pid order instead, which is the order of
     * the forks (receivers, then senders, group by group). */
    bool unknown = false;
    for (size_t i = 0; i < a->ntask && !unknown; i++)
        unknown = a->task[i].group < 0 &&
                  (!strcmp(a->task[i].comm, "hb-receiver") || !strcmp(a->task[i].comm, "hb-sender"));
    if (unknown) {
        size_t *order = xcalloc(a->ntask + 1, sizeof(*order)), n = 0;
        for (size_t i = 0; i < a->ntask; i++)
            if (!strcmp(a->task[i].comm, "hb-receiver") || !strcmp(a->task[i].comm, "hb-sender"))
                order[n++] = i;
        for (size_t i = 1; i < n; i++)          /* insertion sort by pid: nearly sorted already */
            for (size_t j = i; j > 0 && a->task[order[j - 1]].pid > a->task[order[j]].pid; j--) {
                size_t x = order[j];
                order[j] = order[j - 1], order[j - 1] = x;
            }
        int group = -1, last = 0;
        a->ngroups = 0;
        a->groups_by_pid = true;
        for (size_t i = 0; i < n; i++) {
            struct trace_task *p = &a->task[order[i]];
            bool rx = !strcmp(p->comm, "hb-receiver");
            if (rx && last != 1)
                group++;
            last = rx ? 1 : 2;
            p->group = group < 0 ? 0 : group;
            if ((uint64_t)p->group + 1 > a->ngroups)
                a->ngroups = (uint64_t)p->group + 1;
        }
        free(order);
    }
    /* Close what is still open at the end of the window. */
    for (uint32_t cpu = 0; cpu < t->ncpus; cpu++) {
        struct trace_cpu_stat *c = &a->cpu[cpu];
        if (c->curr == 0 || (c->curr == -1 && !c->switches))
            c->idle_ns += t->stop_ns > c->idle_since ? t->stop_ns - c->idle_since : 0;
        else if (c->curr > 0)
            c->busy_ns += t->stop_ns > c->slice_since ? t->stop_ns - c->slice_since : 0;
        c->rq_area += (uint64_t)c->nr * (t->stop_ns > c->rq_since ? t->stop_ns - c->rq_since : 0);
        c->rq_since = t->stop_ns;
    }
    for (size_t i = 0; i < a->ntask; i++) {
        struct trace_task *p = &a->task[i];
        if (p->run_cpu >= 0 && t->stop_ns > p->in_ts)
            p->runtime_ns += t->stop_ns - p->in_ts;
    }
}

void trace_analysis_free(struct trace_analysis *a)
{
    free(a->task);
    free(a->index);
    free(a->rq);
    memset(a, 0, sizeof(*a));
}

/* ---- perf sched latency, perf sched map ---- */

static double ms(uint64_t ns) { return (double)ns / 1e6; }

/* perf's default order: average delay, then maximum, switches, runtime (largest first). */
static int cmp_latency(const void *pa, const void *pb)
{
    const struct trace_task *a = *(const struct trace_task *const *)pa, *b = *(const struct trace_task *const *)pb;
    uint64_t aa = a->ndelays ? a->delay_sum_ns / a->ndelays : 0, ba = b->ndelays ? b->delay_sum_ns / b->ndelays : 0;
    if (aa != ba)
        return aa > ba ? -1 : 1;
    if (a->delay_max_ns != b->delay_max_ns)
        return a->delay_max_ns > b->delay_max_ns ? -1 : 1;
    if (a->slices != b->slices)
        return a->slices > b->slices ? -1 : 1;
    if (a->runtime_ns != b->runtime_ns)
        return a->runtime_ns > b->runtime_ns ? -1 : 1;
    return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static const char rule[] =
    " -----------------------------------------------------------------------------------------------------------------\n";

static void latency_row(FILE *out, const char *name, uint64_t runtime, uint64_t slices, uint64_t ndelays,
                        uint64_t delay_sum, uint64_t delay_max, uint64_t max_at)
{
    int n = fprintf(out, "  %s ", name);
    for (int i = n; i < 24; i++)
        fputc(' ', out);
    fprintf(out, "|%11.3f ms |%9" PRIu64 " | avg:%9.3f ms | max:%9.3f ms | max at: %13.6f s\n", ms(runtime), slices,
            ndelays ? ms(delay_sum / ndelays) : 0.0, ms(delay_max), (double)max_at / 1e9);
}

static void write_map(const struct trace *t, FILE *out)
{
    /* perf's short names: A0..Z0, A1..Z9, then again; "." is idle. */
    struct trace_analysis names = { 0 };
    size_t cap = 0;
    char (*shortname)[3] = NULL;
    size_t nshort = 0, scap = 0;
    char next1 = 'A', next2 = '0';
    int32_t curr[TRACE_MAX_CPUS];
    for (int c = 0; c < TRACE_MAX_CPUS; c++)
        curr[c] = -1;
    fprintf(out, "\n# perf sched map: one line per context switch; a column per CPU, '*' where it switched, '.' idle\n\n");
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_SWITCH)
            continue;
        bool is_new = false;
        struct trace_task *tk = NULL;
        if (e->pid2) {
            tk = trace_find_task(&names, e->pid2);
            if (!tk) {
                tk = task_of(&names, e->pid2, e->comm2, &cap);
                tk->group = (int)nshort;            /* index of its short name */
                grow(&shortname, &scap, nshort, sizeof(*shortname));
                shortname[nshort][0] = next1, shortname[nshort][1] = next2, shortname[nshort][2] = 0;
                nshort++;
                if (next1 < 'Z')
                    next1++;
                else {
                    next1 = 'A';
                    next2 = next2 < '9' ? (char)(next2 + 1) : '0';
                }
                is_new = true;
            }
        }
        curr[e->cpu] = e->pid2;
        for (uint32_t c = 0; c < t->ncpus; c++) {
            fputc(c == e->cpu ? '*' : ' ', out);
            if (curr[c] < 0)
                fputs("   ", out);
            else if (curr[c] == 0)
                fputs(".  ", out);
            else
                fprintf(out, "%2s ", shortname[trace_find_task(&names, curr[c])->group]);
        }
        uint64_t us = (e->ts + 500) / 1000;
        fprintf(out, "  %6" PRIu64 ".%06" PRIu64 " secs ", us / 1000000, us % 1000000);
        if (is_new)
            fprintf(out, "%s => %s:%d", shortname[tk->group], e->comm2, e->pid2);
        fputc('\n', out);
    }
    free(shortname);
    trace_analysis_free(&names);
}

void trace_write_latency(const struct trace *t, FILE *out)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    const struct trace_task **order = xcalloc(a.ntask + 1, sizeof(*order));
    size_t n = 0;
    uint64_t all_runtime = 0, all_count = 0;
    for (size_t i = 0; i < a.ntask; i++)
        if (a.task[i].slices)
            order[n++] = &a.task[i];
    qsort(order, n, sizeof(*order), cmp_latency);
    fprintf(out, "# perf sched latency -p (one line per task); delay: from its wake-up, or from being preempted,\n"
                 "# to running; sched=%s, %u CPUs, %.3f ms traced%s\n",
            t->sched, t->ncpus, ms(a.window_ns),
            a.valid_from ? " (some CPU dropped its oldest events: early delays may be missing)" : "");
    fprintf(out, "\n%s", rule);
    fprintf(out, "  Task                  |   Runtime ms  | Switches | Average delay ms | Maximum delay ms | Maximum delay at       |\n");
    fprintf(out, "%s", rule);
    char name[64];
    for (size_t i = 0; i < n; i++) {
        const struct trace_task *p = order[i];
        snprintf(name, sizeof(name), "%s:%d", p->comm, p->pid);
        latency_row(out, name, p->runtime_ns, p->slices, p->ndelays, p->delay_sum_ns, p->delay_max_ns, p->delay_max_at);
        all_runtime += p->runtime_ns, all_count += p->slices;
    }
    fprintf(out, "%s", rule);
    fprintf(out, "  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", ms(all_runtime), all_count);
    fprintf(out, " ---------------------------------------------------\n");

    /* perf's default view: tasks of one name merged, "name:(count)". */
    fprintf(out, "\n# perf sched latency (tasks of the same name merged)\n\n%s", rule);
    fprintf(out, "  Task                  |   Runtime ms  | Switches | Average delay ms | Maximum delay ms | Maximum delay at       |\n");
    fprintf(out, "%s", rule);
    bool *done = xcalloc(n + 1, sizeof(*done));
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        uint64_t rt = 0, sl = 0, nd = 0, ds = 0, mx = 0, mat = 0, count = 0;
        for (size_t j = i; j < n; j++) {
            const struct trace_task *p = order[j];
            if (done[j] || strcmp(p->comm, order[i]->comm))
                continue;
            done[j] = true;
            count++;
            rt += p->runtime_ns, sl += p->slices, nd += p->ndelays, ds += p->delay_sum_ns;
            if (p->delay_max_ns > mx)
                mx = p->delay_max_ns, mat = p->delay_max_at;
        }
        if (count > 1)
            snprintf(name, sizeof(name), "%s:(%" PRIu64 ")", order[i]->comm, count);
        else
            snprintf(name, sizeof(name), "%s:%d", order[i]->comm, order[i]->pid);
        latency_row(out, name, rt, sl, nd, ds, mx, mat);
    }
    fprintf(out, "%s", rule);
    free(done);
    free(order);
    trace_analysis_free(&a);
    write_map(t, out);
}

/* ---- the summary ---- */

/* The run-queue lengths are known from valid_from on (all of the window without drops). */
static uint64_t rq_window(const struct trace *t, const struct trace_analysis *a)
{
    return a->valid_from > t->start_ns ? t->stop_ns - a->valid_from : a->window_ns;
}

static double pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

/* The memory model's stalls (memstall records: the biggest stall of each
 * CPU and tick), or a line saying they were not recorded. */
static void write_stalls(const struct trace *t, FILE *out)
{
    if (!(t->events & (1u << TRACE_MEMSTALL))) {
        fprintf(out, "memory stalls: not recorded (memstall needs the memory model: a CACHES=1 kernel with machine=)\n");
        return;
    }
    struct obj {
        char what[2 * TRACE_COMM_LEN];
        uint64_t ticks, ns, tick_ns, from[TRACE_STALL_NR];
    } *o = xcalloc(t->nev + 1, sizeof(*o));
    size_t no = 0;
    uint64_t n = 0, lost = 0, tick_ns = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        lost += t->cpu[c].memstall_dropped;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_MEMSTALL)
            continue;
        n++;
        tick_ns += (uint64_t)e->pid2;
        size_t j = 0;
        while (j < no && strcmp(o[j].what, e->what))
            j++;
        if (j == no)
            snprintf(o[no++].what, sizeof(o->what), "%s", e->what);
        o[j].ticks++, o[j].ns += (uint64_t)e->value, o[j].tick_ns += (uint64_t)e->pid2;
        if (e->flags < TRACE_STALL_NR)
            o[j].from[e->flags]++;
    }
    fprintf(out, "memory stalls: %" PRIu64 " ticks with a stall recorded (the biggest of each CPU and tick)%s; "
                 "every stall of those ticks: %.3f ms\n",
            n, lost ? " and some lost to full buffers" : "", tick_ns / 1e6);
    if (lost)
        fprintf(out, "memory stalls: %" PRIu64 " ticks lost: the stall buffers (1 MiB a CPU) were full\n", lost);
    for (size_t a = 0; a < no; a++)         /* most ticks first (selection: few objects) */
        for (size_t b = a + 1; b < no; b++)
            if (o[b].ticks > o[a].ticks || (o[b].ticks == o[a].ticks && o[b].ns > o[a].ns)) {
                struct obj x = o[a];
                o[a] = o[b], o[b] = x;
            }
    if (no)
        fprintf(out, "%-32s %7s %11s %13s  %s\n", "biggest stall's object", "ticks", "its_ns_mean", "ticks_stall_ms",
                "from (ticks)");
    for (size_t a = 0; a < no && a < 20; a++) {
        fprintf(out, "%-32s %7" PRIu64 " %11.0f %13.3f  ", o[a].what[0] ? o[a].what : "?", o[a].ticks,
                (double)o[a].ns / (double)o[a].ticks, o[a].tick_ns / 1e6);
        bool first = true;
        for (int f = 1; f < TRACE_STALL_NR; f++)
            if (o[a].from[f]) {
                fprintf(out, "%s%s=%" PRIu64, first ? "" : ",", tev_stall_source_name(f), o[a].from[f]);
                first = false;
            }
        fputc('\n', out);
    }
    if (no > 20)
        fprintf(out, "(%zu more objects)\n", no - 20);
    free(o);
}

void trace_write_summary(const struct trace *t, FILE *out)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    uint64_t kept = 0, dropped = 0;
    for (uint32_t c = 0; c < t->ncpus; c++)
        kept += t->cpu[c].kept, dropped += t->cpu[c].dropped;
    fprintf(out, "trace summary: sched=%s cpus=%u window=%.3f ms (%.6f-%.6f s) events=%" PRIu64 " dropped=%" PRIu64 "\n",
            t->sched, t->ncpus, ms(a.window_ns), (double)t->start_ns / 1e9, (double)t->stop_ns / 1e9, kept, dropped);
    if (t->cmdline[0])
        fprintf(out, "kernel command line: %s\n", t->cmdline);
    if (trace_write_drops(t, out, NULL, NULL))
        fprintf(out, "(a CPU that dropped its oldest events is counted from its first kept one; the run-queue "
                     "lengths from %.3f ms, where every CPU's record is complete)\n",
                ms(a.valid_from - t->start_ns));
    fprintf(out, "\n(busy and idle count from each CPU's first record; rq: runnable tasks there, the running one too)\n");
    fprintf(out, "\n cpu    busy_ms    idle_ms  idle%%  switches  wakeups  migr_in  rq_mean  rq_max  sched_events\n");
    uint64_t tb = 0, ti = 0, ts = 0, tw = 0, tm = 0, te = 0, tarea = 0;
    for (uint32_t c = 0; c < t->ncpus; c++) {
        struct trace_cpu_stat *k = &a.cpu[c];
        fprintf(out, " %3u %10.3f %10.3f %6.1f %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8.2f %7u %13" PRIu64 "\n", c,
                ms(k->busy_ns), ms(k->idle_ns), pct(k->idle_ns, k->idle_ns + k->busy_ns), k->switches, k->wakeups,
                k->migrations_in, rq_window(t, &a) ? (double)k->rq_area / (double)rq_window(t, &a) : 0.0, k->rq_max,
                k->sched_events);
        tb += k->busy_ns, ti += k->idle_ns, ts += k->switches, tw += k->wakeups, tm += k->migrations_in;
        te += k->sched_events, tarea += k->rq_area;
    }
    fprintf(out, " all %10.3f %10.3f %6.1f %9" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8.2f %7s %13" PRIu64 "\n", ms(tb),
            ms(ti), pct(ti, ti + tb), ts, tw, tm,
            rq_window(t, &a) ? (double)tarea / (double)rq_window(t, &a) : 0.0, "", te);
    /* Rates per second of each CPU's recorded time (busy and idle, from its
     * first record), never of its ticks, which a loaded TCG host takes away. */
    fprintf(out, "\nper second of recorded time:");
    for (uint32_t c = 0; c < t->ncpus; c++) {
        struct trace_cpu_stat *k = &a.cpu[c];
        double s = (double)(k->busy_ns + k->idle_ns) / 1e9;
        fprintf(out, "%s cpu %u %.0f switches, %.0f wake-ups", c ? ";" : "", c, s > 0 ? (double)k->switches / s : 0.0,
                s > 0 ? (double)k->wakeups / s : 0.0);
    }
    fprintf(out, "\nmigrations: %" PRIu64 " (%.1f per second)\n", a.migrations,
            a.window_ns ? (double)a.migrations * 1e9 / (double)a.window_ns : 0.0);
    /* The scheduler's own events, by name. */
    struct {
        char name[TRACE_COMM_LEN];
        uint64_t n;
        int64_t last;
    } names[32];
    size_t nn = 0;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type != TRACE_SCHED)
            continue;
        size_t j = 0;
        for (; j < nn && strcmp(names[j].name, e->comm2); j++)
            ;
        if (j == nn && nn < 32)
            snprintf(names[nn++].name, TRACE_COMM_LEN, "%s", e->comm2), names[j].n = 0;
        if (j < nn)
            names[j].n++, names[j].last = e->value;
    }
    for (size_t j = 0; j < nn; j++)
        fprintf(out, "sched_event %s: %" PRIu64 " (last value %" PRId64 ")\n", names[j].name, names[j].n, names[j].last);
    uint64_t tasks = 0;
    for (size_t i = 0; i < a.ntask; i++)
        tasks += a.task[i].slices > 0;
    fprintf(out, "tasks that ran: %" PRIu64 "\n", tasks);
    if (a.ngroups)
        fprintf(out, "hackbench groups: %" PRIu64 " (told apart by the order of their %s)\n", a.ngroups,
                a.groups_by_pid ? "pids: their forks were dropped" : "forks");
    write_stalls(t, out);
    trace_analysis_free(&a);
}

void trace_write_summary_csv(const struct trace *t, FILE *out)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    fprintf(out, "sched,cpu,window_ms,busy_ms,idle_ms,idle_pct,switches,wakeups,migrations_in,migrations_per_s,rq_mean,"
                 "rq_max,sched_events,events,dropped,switches_per_s,wakeups_per_s\n");
    for (uint32_t c = 0; c < t->ncpus; c++) {
        struct trace_cpu_stat *k = &a.cpu[c];
        uint64_t idle = k->idle_ns;
        fprintf(out, "%s,%u,%.3f,%.3f,%.3f,%.2f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%.3f,%u,%" PRIu64 ",%" PRIu64
                     ",%" PRIu64 ",%.2f,%.2f\n",
                t->sched, c, ms(a.window_ns), ms(k->busy_ns), ms(idle), pct(idle, idle + k->busy_ns), k->switches,
                k->wakeups, k->migrations_in,
                a.window_ns ? (double)k->migrations_in * 1e9 / (double)a.window_ns : 0.0,
                rq_window(t, &a) ? (double)k->rq_area / (double)rq_window(t, &a) : 0.0, k->rq_max, k->sched_events,
                t->cpu[c].kept, t->cpu[c].dropped,
                k->busy_ns + k->idle_ns ? (double)k->switches * 1e9 / (double)(k->busy_ns + k->idle_ns) : 0.0,
                k->busy_ns + k->idle_ns ? (double)k->wakeups * 1e9 / (double)(k->busy_ns + k->idle_ns) : 0.0);
    }
    trace_analysis_free(&a);
}

void trace_write_rq_csv(const struct trace *t, FILE *out)
{
    struct trace_analysis a;
    trace_analyze(t, &a);
    fprintf(out, "cpu,t_ms,nr_running\n");
    for (size_t i = 0; i < a.nrq; i++)
        fprintf(out, "%u,%.6f,%u\n", a.rq[i].cpu, ms(a.rq[i].ts - t->start_ns), a.rq[i].nr);
    trace_analysis_free(&a);
}

/* ---- the checks ---- */

#define REPORT(...)                                  \
    do {                                             \
        if (bad++ < max_report)                      \
            fprintf(out, "violation: " __VA_ARGS__); \
    } while (0)

size_t trace_check_invariants(const struct trace *t, FILE *out, size_t max_report)
{
    size_t bad = 0;
    struct trace_analysis a;
    trace_analyze(t, &a);
    /* Per task: running where, and what the last event said. */
    struct state {
        int32_t pid;
        int run_cpu;                  /* -1 */
        bool asleep;                  /* switched out blocked, no wake-up since */
        uint64_t last_out, wake_ts;
        bool woken;
    };
    struct state *st = xcalloc(a.ntask + 1, sizeof(*st));
    for (size_t i = 0; i < a.ntask; i++)
        st[i].run_cpu = -1;
    int32_t cpu_next[TRACE_MAX_CPUS];
    uint64_t cpu_last_ts[TRACE_MAX_CPUS];
    uint32_t cpu_last_seq[TRACE_MAX_CPUS];
    bool cpu_any[TRACE_MAX_CPUS] = { false };
    for (int c = 0; c < TRACE_MAX_CPUS; c++)
        cpu_next[c] = -1, cpu_last_ts[c] = 0, cpu_last_seq[c] = 0;
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        /* Each CPU's records in its own order are in time order. */
        if (cpu_any[e->cpu] && e->seq <= cpu_last_seq[e->cpu])
            REPORT("cpu %u: record %u is out of time order (%.6f s)\n", e->cpu, e->seq, (double)e->ts / 1e9);
        cpu_any[e->cpu] = true, cpu_last_seq[e->cpu] = e->seq, cpu_last_ts[e->cpu] = e->ts;
        bool valid = e->ts >= a.valid_from;
        if (e->type == TRACE_SWITCH) {
            if (cpu_next[e->cpu] >= 0 && cpu_next[e->cpu] != e->pid)
                REPORT("cpu %u at %.6f s: sched_switch prev_pid=%d, but the previous switch there ran pid %d\n", e->cpu,
                       (double)e->ts / 1e9, e->pid, cpu_next[e->cpu]);
            cpu_next[e->cpu] = e->pid2;
            if (e->pid) {
                struct trace_task *tp = trace_find_task(&a, e->pid);
                struct state *s = &st[tp - a.task];
                s->run_cpu = -1;
                s->asleep = e->flags != TRACE_STATE_RUNNABLE;
                s->woken = false;
                s->last_out = e->ts;
            }
            if (e->pid2) {
                struct trace_task *tn = trace_find_task(&a, e->pid2);
                struct state *s = &st[tn - a.task];
                if (s->run_cpu >= 0 && s->run_cpu != e->cpu)
                    REPORT("pid %d switched in on cpu %u at %.6f s while running on cpu %d\n", e->pid2, e->cpu,
                           (double)e->ts / 1e9, s->run_cpu);
                /* Only when the block is in the complete part: the wake-up between may have been dropped. */
                if (valid && s->asleep && !s->woken && s->last_out >= a.valid_from)
                    REPORT("pid %d (%s) switched in on cpu %u at %.6f s after blocking at %.6f s, with no wake-up "
                           "between\n",
                           e->pid2, e->comm2, e->cpu, (double)e->ts / 1e9, (double)s->last_out / 1e9);
                if (s->woken && s->wake_ts > e->ts)
                    REPORT("pid %d switched in at %.6f s before its wake-up at %.6f s\n", e->pid2, (double)e->ts / 1e9,
                           (double)s->wake_ts / 1e9);
                s->run_cpu = e->cpu;
                s->asleep = false, s->woken = false;
            }
        } else if (e->type == TRACE_WAKEUP || e->type == TRACE_WAKEUP_NEW) {
            struct trace_task *tp = trace_find_task(&a, e->pid);
            struct state *s = &st[tp - a.task];
            if (s->run_cpu >= 0)
                REPORT("pid %d woken at %.6f s while it runs on cpu %d\n", e->pid, (double)e->ts / 1e9, s->run_cpu);
            if (e->type == TRACE_WAKEUP && s->last_out > e->ts)
                REPORT("pid %d woken at %.6f s before it blocked at %.6f s\n", e->pid, (double)e->ts / 1e9,
                       (double)s->last_out / 1e9);
            s->woken = true, s->wake_ts = e->ts;
        }
    }
    (void)cpu_last_ts;
    /* The kernel's CPU time of each task at its exit is the sum of its slices. */
    for (size_t i = 0; i < a.ntask; i++) {
        const struct trace_task *p = &a.task[i];
        if (!p->exited || !p->whole_life || p->exit_runtime_ns < 0)
            continue;
        uint64_t tol = t->ts_resolution_ns > 1 ? t->ts_resolution_ns * p->slices : 0;
        uint64_t want = (uint64_t)p->exit_runtime_ns;
        uint64_t diff = p->runtime_ns > want ? p->runtime_ns - want : want - p->runtime_ns;
        if (diff > tol)
            REPORT("pid %d (%s): its slices add up to %" PRIu64 " ns, the kernel counted %" PRIu64 " ns at exit\n",
                   p->pid, p->comm, p->runtime_ns, want);
    }
    free(st);
    trace_analysis_free(&a);
    if (bad > max_report)
        fprintf(out, "violation: ... and %zu more\n", bad - max_report);
    return bad;
}

/* "key=value" of a console line into *v; false if absent or not a number. */
static bool log_field(const char *line, const char *key, uint64_t *v)
{
    size_t kl = strlen(key);
    for (const char *p = line; (p = strstr(p, key)); p += kl) {
        if ((p == line || p[-1] == ' ') && p[kl] == '=') {
            char *end;
            unsigned long long x = strtoull(p + kl + 1, &end, 10);
            if (end == p + kl + 1)
                return false;
            *v = x;
            return true;
        }
    }
    return false;
}

size_t trace_check_against_log(const struct trace *t, const char *log, FILE *out)
{
    size_t bad = 0, max_report = 50;
    uint64_t sw[TRACE_MAX_CPUS] = { 0 }, wk[TRACE_MAX_CPUS] = { 0 }, mg[TRACE_MAX_CPUS] = { 0 };
    for (size_t i = 0; i < t->nev; i++) {
        const struct tev *e = &t->ev[i];
        if (e->type == TRACE_SWITCH)
            sw[e->cpu]++;
        else if (e->type == TRACE_WAKEUP || e->type == TRACE_WAKEUP_NEW) {
            wk[e->tcpu]++;
            if (e->type == TRACE_WAKEUP_NEW && e->tcpu != e->cpu)
                mg[e->tcpu]++;                   /* the core counts a new task placed on another CPU as arrived */
        } else if (e->type == TRACE_MIGRATE)
            mg[e->tcpu]++;
    }
    bool complete = true;
    for (uint32_t c = 0; c < t->ncpus; c++)
        complete &= t->cpu[c].dropped == 0;
    size_t seen_stat = 0, seen_trace = 0;
    const char *p = log;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        char *line = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
        p = nl ? nl + 1 : NULL;
        uint64_t cpu, v;
        if (!strncmp(line, "tracestat ", 10) && log_field(line, "cpu", &cpu) && cpu < t->ncpus) {
            seen_trace++;
            if (log_field(line, "events", &v) && v != t->cpu[cpu].written)
                REPORT("cpu %" PRIu64 ": the console says %" PRIu64 " events written, the trace %" PRIu64 "\n", cpu, v,
                       t->cpu[cpu].written);
            if (log_field(line, "dropped", &v) && v != t->cpu[cpu].dropped)
                REPORT("cpu %" PRIu64 ": the console says %" PRIu64 " dropped, the trace %" PRIu64 "\n", cpu, v,
                       t->cpu[cpu].dropped);
        }
        if (!strncmp(line, "schedstat ", 10) && log_field(line, "cpu", &cpu) && cpu < t->ncpus && complete) {
            seen_stat++;
            if ((t->events & 1u << TRACE_SWITCH) && log_field(line, "context_switches", &v) && v != sw[cpu])
                REPORT("cpu %" PRIu64 ": schedstat context_switches=%" PRIu64 ", the trace has %" PRIu64 " sched_switch\n",
                       cpu, v, sw[cpu]);
            if ((t->events & 1u << TRACE_WAKEUP) && (t->events & 1u << TRACE_WAKEUP_NEW) &&
                log_field(line, "wakeups", &v) && v != wk[cpu])
                REPORT("cpu %" PRIu64 ": schedstat wakeups=%" PRIu64 ", the trace has %" PRIu64 " wake-ups onto it\n", cpu,
                       v, wk[cpu]);
            if ((t->events & 1u << TRACE_MIGRATE) && (t->events & 1u << TRACE_WAKEUP_NEW) &&
                log_field(line, "migrations", &v) && v != mg[cpu])
                REPORT("cpu %" PRIu64 ": schedstat migrations=%" PRIu64 ", the trace has %" PRIu64 " arrivals\n", cpu, v,
                       mg[cpu]);
        }
        free(line);
    }
    if (seen_trace != t->ncpus)
        REPORT("the console log has %zu tracestat lines for %u CPUs\n", seen_trace, t->ncpus);
    if (complete && seen_stat != t->ncpus)
        REPORT("the console log has %zu schedstat lines for %u CPUs\n", seen_stat, t->ncpus);
    fprintf(out, "against the console: %s%s\n", complete ? "switches, wake-ups and migrations per CPU compared"
                                                        : "events were dropped: only the counts of written and dropped "
                                                          "events compared",
            bad ? "" : ", all equal");
    return bad;
}
