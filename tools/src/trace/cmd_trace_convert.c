/*
 * trace IN --out DIR: a kernel trace (the stream of trace=1, or ftrace text)
 *   into trace.txt, trace.dat, timeline.svg, timeline.html, latency.txt,
 *   summary.txt, summary.csv and rq.csv.
 * trace-check IN [--text FILE] [--log LOG]: the invariants of the trace, the
 *   text round trip, and the trace against the kernel's own counters.
 * Both read the input whole first: a stream that is cut off or corrupt is
 * an error line and exit 1, never a partial picture.
 */
#include "cmds.h"
#include "trace_heatmap.h"
#include "cli.h"
#include "trace_data.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char trace_usage[] =
    "usage: schedlab trace-convert IN --out DIR [--arrows] [--color auto|task|group] [--title TEXT]\n"
    "  IN: the kernel's trace stream (tools/qemu-run.sh --trace-out FILE with trace=1), or ftrace text.\n"
    "  Writes DIR/trace.txt (ftrace's text: the Perfetto UI opens it), DIR/trace.dat (trace-cmd report,\n"
    "  KernelShark), DIR/trace.json (Chrome's trace-event format: Perfetto and chrome://tracing open it),\n"
    "  DIR/timeline.svg and DIR/timeline.html (zoomable; --arrows draws wake-ups),\n"
    "  DIR/latency.txt (perf sched latency and perf sched map), DIR/summary.txt, DIR/summary.csv and\n"
    "  DIR/rq.csv (run-queue length over time), DIR/heatmap.svg (each CPU's busy share over time).\n"
    "  Exit: 0, 1 unreadable input, 2 usage error.\n";

static const char check_usage[] =
    "usage: schedlab trace-check IN [--text TRACE.TXT] [--log CONSOLE.LOG]\n"
    "  The invariants of a trace: on each CPU every switch's prev is the previous switch's next and\n"
    "  records are in time order; no task runs on two CPUs; a task that blocked runs again only after a\n"
    "  wake-up, which comes first; each exited task's slices add up to the kernel's own count.\n"
    "  IN as a stream is also written as text and read back (the round trip); --text compares a\n"
    "  trace.txt with it; --log compares it with the kernel's schedstat and tracestat lines.\n"
    "  Prints the events per type.  Exit: 0 all hold, 3 some do not, 1 unreadable input, 2 usage error.\n";

/* The stream or the text, by its first bytes. */
static bool load(const char *path, struct trace *t)
{
    char *err = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        errorf("%s: %s", path, strerror(errno));
        return false;
    }
    char magic[16] = { 0 };
    size_t n = fread(magic, 1, sizeof(magic), f);
    fclose(f);
    bool stream = n == sizeof(magic) && !memcmp(magic, TRACE_STREAM_MAGIC, sizeof(magic));
    bool text = n > 0 && magic[0] == '#';
    bool ok = stream || !text ? trace_read_stream(path, t, &err) : trace_read_text(path, t, &err);
    if (!ok) {
        errorf("%s", err);
        free(err);
    }
    return ok;
}

static FILE *create(const char *dir, const char *name, char **path)
{
    *path = xasprintf("%s/%s", dir, name);
    FILE *f = fopen(*path, "w");
    if (!f)
        errorf("%s: %s", *path, strerror(errno));
    return f;
}

static bool finish(FILE *f, const char *path)
{
    bool ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok)
        errorf("%s: write failed", path);
    return ok;
}

int cmd_trace_convert(int argc, char **argv)
{
    static const struct option lo[] = {
        { "out", required_argument, NULL, 'o' },   { "arrows", no_argument, NULL, 'a' },
        { "color", required_argument, NULL, 'c' }, { "title", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },        { NULL, 0, NULL, 0 },
    };
    const char *out = NULL, *title = NULL;
    struct timeline_opts o = { false, TIMELINE_COLOR_AUTO, "timeline", NULL };
    static const char *const names[] = { "out", "arrows", "color", "title", "help", NULL };
    int c;
    cli_set_usage(trace_usage);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long_only(argc, argv, ":", lo, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'a': o.arrows = true; break;
        case 't': title = optarg; break;
        case 'c':
            if (!strcmp(optarg, "auto"))
                o.color = TIMELINE_COLOR_AUTO;
            else if (!strcmp(optarg, "task"))
                o.color = TIMELINE_COLOR_TASK;
            else if (!strcmp(optarg, "group"))
                o.color = TIMELINE_COLOR_GROUP;
            else
                return usage_error("--color %s: expected auto, task or group", optarg);
            break;
        case 'h': fputs(trace_usage, stdout); return 0;
        case ':': return usage_error("%s needs a value", argv[optind - 1]);
        default: return unknown_flag_error(argv[optind - 1], names);
        }
    }
    if (optind == argc)
        return verb_usage_error("trace-convert needs IN, a trace stream or ftrace text");
    if (optind < argc - 1)
        return verb_usage_error("trace-convert takes one IN (got '%s' too)", argv[optind + 1]);
    if (!out)
        return verb_usage_error("trace-convert needs --out DIR");
    struct trace t;
    if (!load(argv[optind], &t))
        return 1;
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        errorf("%s: %s", out, strerror(errno));
        trace_free(&t);
        return 1;
    }
    char deftitle[128];
    snprintf(deftitle, sizeof(deftitle), "%s on %u CPU%s", t.sched[0] ? t.sched : "trace", t.ncpus, t.ncpus == 1 ? "" : "s");
    o.title = title ? title : deftitle;
    bool ok = true;
    char *path, *err = NULL;
    struct {
        const char *name;
        int what;
    } files[] = { { "trace.txt", 0 }, { "timeline.svg", 1 }, { "timeline.html", 2 }, { "latency.txt", 3 },
                  { "summary.txt", 4 }, { "summary.csv", 5 }, { "rq.csv", 6 }, { "heatmap.svg", 7 },
                  { "trace.json", 8 } };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]) && ok; i++) {
        FILE *f = create(out, files[i].name, &path);
        if (!f) {
            ok = false;
        } else {
            switch (files[i].what) {
            case 0: trace_write_text(&t, f); break;
            case 1: trace_write_svg(&t, &o, f, true); break;
            case 2: trace_write_html(&t, &o, f); break;
            case 3: trace_write_latency(&t, f); break;
            case 4: trace_write_summary(&t, f); break;
            case 5: trace_write_summary_csv(&t, f); break;
            case 6: trace_write_rq_csv(&t, f); break;
            case 7: trace_write_heatmap(&t, f); break;   /* trace_heatmap.c */
            case 8: trace_write_json(&t, f); break;      /* trace_json.c */
            }
            ok = finish(f, path);
            if (ok)
                printf("%s\n", path);
        }
        free(path);
    }
    if (ok) {
        path = xasprintf("%s/trace.dat", out);
        ok = trace_write_dat(&t, path, &err);
        if (ok)
            printf("%s\n", path);
        else
            errorf("%s", err);
        free(path);
        free(err);
    }
    trace_free(&t);
    return ok ? 0 : 1;
}

/* Two events are the same, up to the text's microseconds and names it cannot carry. */
static bool same_event(const struct tev *a, const struct tev *b, uint64_t res)
{
    uint64_t ra = (a->ts + res / 2) / res * res, rb = (b->ts + res / 2) / res * res;
    bool cur = a->type == TRACE_WAKEUP || a->type == TRACE_WAKEUP_NEW || a->type == TRACE_MIGRATE || a->type == TRACE_SCHED;
    bool comm_ok = !strcmp(a->comm, b->comm) || ((a->type == TRACE_SCHED || a->type == TRACE_MEMSTALL) && a->pid == 0) ||
                   (a->type == TRACE_MEMSTALL && !a->comm[0]);   /* before its CPU's first switch: no name known */
    bool comm2_ok = !strcmp(a->comm2, b->comm2) || (cur && a->pid2 == 0);
    return ra == rb && a->cpu == b->cpu && a->type == b->type && a->pid == b->pid && a->pid2 == b->pid2 &&
           a->tcpu == b->tcpu && a->ocpu == b->ocpu && a->flags == b->flags && comm_ok && comm2_ok &&
           (a->type == TRACE_FORK || a->type == TRACE_SCHED || a->prio == b->prio) &&
           (a->type != TRACE_SWITCH || a->prio2 == b->prio2) &&
           (a->type != TRACE_EXIT && a->type != TRACE_SCHED && a->type != TRACE_MEMSTALL ? true : a->value == b->value) &&
           (a->type != TRACE_MEMSTALL || (a->prio2 == b->prio2 && !strcmp(a->what, b->what)));
}

static size_t compare_traces(const struct trace *a, const struct trace *b, const char *what)
{
    size_t bad = 0;
    if (a->nev != b->nev)
        printf("violation: %s has %zu events, the stream %zu\n", what, b->nev, a->nev), bad++;
    if (a->ncpus != b->ncpus || a->events != b->events || strcmp(a->sched, b->sched) || a->start_ns != b->start_ns ||
        a->stop_ns != b->stop_ns || strcmp(a->cmdline, b->cmdline))
        printf("violation: %s: its header differs from the stream's\n", what), bad++;
    for (uint32_t c = 0; c < a->ncpus && c < TRACE_MAX_CPUS; c++)
        if (memcmp(&a->cpu[c], &b->cpu[c], sizeof(a->cpu[c])))
            printf("violation: %s: cpu %u counts differ\n", what, c), bad++;
    /* Events with equal microseconds may be ordered differently: compare in the stream's order per CPU. */
    struct trace sa = *a, sb = *b;
    sa.ev = xcalloc(a->nev + 1, sizeof(*a->ev));
    sb.ev = xcalloc(b->nev + 1, sizeof(*b->ev));
    size_t na = 0, nb = 0;
    for (uint32_t c = 0; c < TRACE_MAX_CPUS; c++) {
        for (size_t i = 0; i < a->nev; i++)
            if (a->ev[i].cpu == c)
                sa.ev[na++] = a->ev[i];
        for (size_t i = 0; i < b->nev; i++)
            if (b->ev[i].cpu == c)
                sb.ev[nb++] = b->ev[i];
    }
    size_t reported = 0;
    for (size_t i = 0; i < na && i < nb; i++)
        if (!same_event(&sa.ev[i], &sb.ev[i], 1000)) {
            if (reported++ < 10)
                printf("violation: %s: event %zu of cpu %u (%s at %.6f s) reads back differently\n", what, i,
                       sa.ev[i].cpu, tev_event_name(sa.ev[i].type), (double)sa.ev[i].ts / 1e9);
            bad++;
        }
    free(sa.ev);
    free(sb.ev);
    return bad;
}

int cmd_trace_check(int argc, char **argv)
{
    static const struct option lo[] = {
        { "text", required_argument, NULL, 'x' },
        { "log", required_argument, NULL, 'l' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *text = NULL, *log = NULL;
    static const char *const names[] = { "text", "log", "help", NULL };
    int c;
    cli_set_usage(check_usage);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long_only(argc, argv, ":", lo, NULL)) != -1) {
        switch (c) {
        case 'x': text = optarg; break;
        case 'l': log = optarg; break;
        case 'h': fputs(check_usage, stdout); return 0;
        case ':': return usage_error("%s needs a value", argv[optind - 1]);
        default: return unknown_flag_error(argv[optind - 1], names);
        }
    }
    if (optind == argc)
        return verb_usage_error("trace-check needs IN, a trace stream or ftrace text");
    if (optind < argc - 1)
        return verb_usage_error("trace-check takes one IN (got '%s' too)", argv[optind + 1]);
    struct trace t;
    if (!load(argv[optind], &t))
        return 1;
    size_t bad = trace_check_invariants(&t, stdout, 20);
    uint64_t per[TRACE_NR_TYPES] = { 0 };
    for (size_t i = 0; i < t.nev; i++)
        per[t.ev[i].type]++;
    printf("events:");
    for (int ty = 0; ty < TRACE_NR_TYPES; ty++)
        printf(" %s=%" PRIu64, tev_event_name(ty), per[ty]);
    uint64_t dropped = 0;
    for (uint32_t k = 0; k < t.ncpus; k++)
        dropped += t.cpu[k].dropped;
    printf(" dropped=%" PRIu64 "\n", dropped);
    size_t per_cpu[TRACE_MAX_CPUS];
    size_t slices = trace_count_slices(&t, per_cpu);
    printf("slices: %zu (the timeline's and trace.json's run slices; per CPU:", slices);
    for (uint32_t k = 0; k < t.ncpus; k++)
        printf(" cpu%u=%zu", k, per_cpu[k]);
    printf(")\n");
    if (t.ts_resolution_ns == 1) {
        /* The round trip: our own text, read back by our own reader. */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        trace_write_text(&t, m);
        fclose(m);
        struct trace back;
        char *err = NULL;
        if (!trace_parse_text(buf, len, &back, &err)) {
            printf("violation: the text of this trace does not read back: %s\n", err);
            free(err);
            bad++;
        } else {
            size_t b = compare_traces(&t, &back, "its text");
            if (!b)
                printf("round trip: the text reads back as the same %zu events\n", back.nev);
            bad += b;
            trace_free(&back);
        }
        free(buf);
    }
    if (text) {
        struct trace other;
        char *err = NULL;
        if (!trace_read_text(text, &other, &err)) {
            errorf("%s", err);
            free(err);
            trace_free(&t);
            return 1;
        }
        size_t b = compare_traces(&t, &other, text);
        if (!b)
            printf("%s: the same %zu events\n", text, other.nev);
        bad += b;
        trace_free(&other);
    }
    if (log) {
        size_t len;
        char *l = read_file(log, &len);
        if (!l) {
            errorf("%s: %s", log, strerror(errno));
            trace_free(&t);
            return 1;
        }
        bad += trace_check_against_log(&t, l, stdout);
        free(l);
    }
    trace_write_drops(&t, stdout, NULL, NULL);
    if (dropped)
        printf("trace-check: %zu events on %u CPUs, %" PRIu64 " dropped (the oldest: the checks start where every CPU's "
               "record is complete), %zu violation%s\n",
               t.nev, t.ncpus, dropped, bad, bad == 1 ? "" : "s");
    else
        printf("trace-check: %zu events on %u CPUs, none dropped, %zu violation%s\n", t.nev, t.ncpus, bad,
               bad == 1 ? "" : "s");
    trace_free(&t);
    return bad ? 3 : 0;
}
