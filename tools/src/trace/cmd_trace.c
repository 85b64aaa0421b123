/*
 * trace: one boot, traced (docs/tracing.md): run with --trace-boot on a
 * matrix of one boot whose files go into DIR itself, then its report.
 * trace-png: a trace's timeline as a PNG, rendered by headless Chromium.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cmds.h"
#include "runreq.h"
#include "util.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct verb_spec trace_spec = {
    "trace", 0,
    "usage: schedlab trace --sched S --smp N --bench W --out DIR [any flag of run] [--events LIST] [--buf-kib N]\n"
    "                      [--arrows] [--color auto|task|group] [--quiet]\n"
    "  one boot, traced: a timeline of which task ran on which CPU and when it was woken\n"
    "  --sched S --smp N --bench W [any flag of run: workload keys, --accel, --mem, --timeout...]\n"
    "  --out DIR           results directory (new or empty)                            [required]\n"
    "  --events LIST       trace_events=: switch,wakeup,wakeup_new,migrate,fork,exit,sched,memstall or all [all]\n"
    "  --buf-kib N         trace_buf_kib=: ring buffer per CPU, KiB (64 bytes an event;\n"
    "                      when full the oldest are dropped and counted)               [the kernel's]\n"
    "  --arrows            draw wake-ups on the timeline (waker's CPU -> where the task ran)\n"
    "  --color MODE        auto (hackbench: by group), task, group                     [auto]\n"
    "  --quiet             no status line while the boot runs (run's)\n"
    "  Writes DIR/trace.txt (ftrace text; the Perfetto UI opens it), DIR/trace.json (Chrome's trace-event\n"
    "  format: Perfetto and chrome://tracing), DIR/trace.dat (trace-cmd report, KernelShark),\n"
    "  DIR/timeline.html and .svg (zoomable, self-contained), DIR/latency.txt (perf sched latency,\n"
    "  perf sched map), DIR/summary.txt/.csv (per CPU: busy, idle, switches, wake-ups, migrations,\n"
    "  run-queue length), DIR/rq.csv, DIR/report.html, and the run's results.csv, logs/.\n"
    "  run ... --trace-boot NAME [--trace-events LIST] [--trace-buf-kib N] traces one boot of a matrix\n"
    "  (NAME as in DIR/jobs.txt, or first) into DIR/traces/NAME/.  docs/tracing.md explains it all.\n"
    "  Exit: 0, 1 the boot failed or its trace breaks an invariant, 2 usage error.\n",
    NULL,
};

int cmd_trace(int argc, char **argv)
{
    cli_set_verb("trace", &trace_spec);
    const char *sched = NULL, *smp = "1", *out = NULL;
    char *tool_args = NULL;
    struct argv run = { 0 };
    argv_add(&run, "run");
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(trace_spec.usage, stdout);
            argv_free(&run);
            return 0;
        }
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        char *opt = xstrndup(argv[i], strcspn(argv[i], "="));
        const char *val = strncmp(argv[i], "--", 2) == 0 && strchr(argv[i], '=') ? strchr(argv[i], '=') + 1 : NULL;
        if (!strcmp(opt, "--arrows") || !strcmp(opt, "--force") || !strcmp(opt, "--quiet")) {
            if (!strcmp(opt, "--arrows")) {
                char *n = xasprintf("%s%s--arrows", tool_args ? tool_args : "", tool_args ? " " : "");
                free(tool_args);
                tool_args = n;
            } else {
                argv_add(&run, opt);
            }
            free(opt);
            continue;
        }
        static const char *const own[] = { "sched", "smp", "out", "events", "buf-kib", "color", "arrows", NULL };
        const char *near = NULL;
        bool known = false;
        for (size_t k = 0; own[k] && !known; k++)
            known = !strncmp(opt, "--", 2) && !strcmp(opt + 2, own[k]);
        for (size_t k = 0; run_flags[k] && !known; k++)
            known = !strncmp(opt, "--", 2) && !strcmp(opt + 2, run_flags[k]);
        if (!known && !strncmp(opt, "--", 2)) {   /* trace's flag mistyped, or a workload key */
            near = suggest(opt + 2, own);
            if (!near && !val && (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)))
                near = suggest(opt + 2, run_flags);
            if (near && edit_distance(opt + 2, near) > 1)
                near = NULL;
        }
        if (near || (!val && (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2)))) {
            rc = known ? verb_usage_error("%s needs a value", opt)
                 : near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", opt, near)
                        : verb_usage_error("unknown flag '%s' (a key of the workload takes a value: %s VALUE)", opt, opt);
            free(opt);
            break;
        }
        if (!val)
            val = argv[++i];
        if (!strcmp(opt, "--sched"))
            sched = val;
        else if (!strcmp(opt, "--smp"))
            smp = val;
        else if (!strcmp(opt, "--out"))
            out = val;
        else if (!strcmp(opt, "--events")) {
            argv_add(&run, "--trace-events");
            argv_add(&run, val);
        } else if (!strcmp(opt, "--buf-kib")) {
            argv_add(&run, "--trace-buf-kib");
            argv_add(&run, val);
        } else if (!strcmp(opt, "--color")) {
            if (strcmp(val, "auto") && strcmp(val, "task") && strcmp(val, "group"))
                rc = verb_usage_error("--color %s: expected auto, task or group", val);
            else {
                char *n = xasprintf("%s%s--color %s", tool_args ? tool_args : "", tool_args ? " " : "", val);
                free(tool_args);
                tool_args = n;
            }
        } else if (!strcmp(opt, "--runs") || !strcmp(opt, "--boots")) {
            if (strcmp(val, "1"))
                rc = verb_usage_error("%s %s: a trace is of one run in one boot", opt, val);
        } else {
            argv_add(&run, opt);
            argv_add(&run, val);
        }
        free(opt);
    }
    if (!rc && (!sched || strchr(sched, ',')))
        rc = verb_usage_error("trace needs one scheduler: --sched S");
    if (!rc && (strchr(smp, ',') || !*smp || strspn(smp, "0123456789") != strlen(smp)))
        rc = verb_usage_error("trace needs one vCPU count: --smp N");
    if (!rc && !out)
        rc = verb_usage_error("trace needs --out DIR");
    if (rc) {
        argv_free(&run);
        free(tool_args);
        return rc;
    }
    argv_add(&run, "--sched");
    argv_add(&run, sched);
    argv_add(&run, "--smp");
    argv_add(&run, smp);
    argv_add(&run, "--out");
    argv_add(&run, out);
    argv_add(&run, "--trace-boot");
    argv_add(&run, "first");
    struct run_req r;
    run_req_init(&r);
    bool help;
    rc = run_req_parse(&r, (int)run.n, run.v, &help);
    time_t started = time(NULL);
    if (!rc) {
        r.trace_dir = xstrdup(out);
        r.trace_tool_args = tool_args ? xstrdup(tool_args) : NULL;
        rc = run_matrix(&r);
    }
    run_req_free(&r);
    argv_free(&run);
    free(tool_args);
    if (rc > 1)
        return rc;
    char *txt = xasprintf("%s/trace.txt", out);
    struct stat st;
    /* A trace.txt older than this run is not this run's: the run refused
     * the directory (not empty, no --force) or stopped before its trace, and
     * the report must not be remade over another run's files. */
    if (stat(txt, &st) != 0 || st.st_mtime < started) {
        free(txt);
        return rc ? rc : 1;
    }
    free(txt);
    /* the report with the timeline, quietly */
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    char *av[] = { "report", (char *)out, NULL };
    int rrc = cmd_report(2, av);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so), close(se), close(null);
    cli_set_verb("trace", &trace_spec);
    if (!rrc)
        fprintf(stderr, "schedlab: report with the timeline: %s/report.html\n", out);
    return rc;
}

/* ---------------------------------------------------------------- trace-png */

static const struct verb_spec png_spec = {
    "trace-png", 0,
    "usage: schedlab trace-png DIR [--from MS --to MS] [--out FILE] [--width PX]\n"
    "  DIR/timeline.html as a PNG (default DIR/timeline.png), rendered by headless Chromium; --from/--to\n"
    "  pick the window (ms since the start of the trace), as timeline.html#from=MS&to=MS does in a browser.\n",
    NULL,
};

static bool is_ms(const char *v)
{
    if (!v || !*v || strspn(v, "0123456789.") != strlen(v))
        return false;
    const char *dot = strchr(v, '.');
    return !dot || !strchr(dot + 1, '.');
}

int cmd_trace_png(int argc, char **argv)
{
    cli_set_verb("trace-png", &png_spec);
    const char *dir = NULL, *from = NULL, *to = NULL, *png = NULL, *width = "1240";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(png_spec.usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--from") || !strcmp(a, "--to") || !strcmp(a, "--out") || !strcmp(a, "--width")) {
            if (i + 1 >= argc)
                return verb_usage_error("%s needs a value", a);
            const char **slot = !strcmp(a, "--from") ? &from : !strcmp(a, "--to") ? &to : !strcmp(a, "--out") ? &png : &width;
            *slot = argv[++i];
        } else if (a[0] == '-') {
            static const char *const flags[] = { "from", "to", "out", "width", "help", NULL };
            const char *near = suggest(a + strspn(a, "-"), flags);
            return near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", a, near)
                        : verb_usage_error("unknown flag '%s'", a);
        } else if (dir) {
            return verb_usage_error("trace-png takes one trace directory");
        } else {
            dir = a;
        }
    }
    if (!dir)
        return verb_usage_error("trace-png needs a trace directory (schedlab trace --out DIR)");
    char *html = xasprintf("%s/timeline.html", dir);
    struct stat st;
    if (no_such_dir(dir, "trace directory", "schedlab trace ... --out DIR")) {
        free(html);
        return 1;
    }
    if (stat(html, &st) != 0) {
        errorf("%s: not found (run schedlab trace ... --out %s first)", html, dir);
        free(html);
        return 1;
    }
    if ((from && !is_ms(from)) || (to && !is_ms(to)))
        return verb_usage_error("--from/--to %s: expected milliseconds", from && !is_ms(from) ? from : to);
    if ((from != NULL) != (to != NULL))
        return verb_usage_error("--from and --to go together");
    if (strspn(width, "0123456789") != strlen(width) || !*width || atol(width) < 400)
        return verb_usage_error("--width %s: expected pixels >= 400", width);
    char *which[] = { "sh", "-c", "command -v chromium >/dev/null 2>&1", NULL };
    if (spawn_run(which, NULL) != 0) {
        errorf("chromium not found (make deps)");
        free(html);
        return 1;
    }
    char *out = png ? xstrdup(png) : xasprintf("%s/timeline.png", dir);
    /* the page's height: the SVG's, plus its one line of text */
    size_t len;
    char *text = read_file(html, &len);
    long height = 400;
    const char *svg = text ? strstr(text, "<svg ") : NULL;
    const char *h = svg ? strstr(svg, " height=\"") : NULL;
    if (h && h < strchr(svg, '>'))
        height = atol(h + 9);
    free(text);
    char tmpl[] = "/tmp/schedlab-chromium.XXXXXX";
    char *profile = mkdtemp(tmpl);
    char real[PATH_MAX];
    char *url = xasprintf("file://%s/timeline.html%s%s%s%s", realpath(dir, real) ? real : dir, from ? "#from=" : "",
                          from ? from : "", from ? "&to=" : "", to ? to : "");
    char *size = xasprintf("--window-size=%s,%ld", width, height + 4), *shot = xasprintf("--screenshot=%s", out);
    char *udd = xasprintf("--user-data-dir=%s", profile ? profile : "/tmp");
    char *log = xasprintf("%s/log", profile ? profile : "/tmp");
    /* nothing from the network: the page is self-contained */
    char *av[] = { "timeout", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                   udd, "--hide-scrollbars", "--force-device-scale-factor=1", size, shot, url, NULL };
    struct spawn_io io = { .out = log, .err_to_out = true };
    int rc = spawn_run(av, &io);
    if (rc != 0 || stat(out, &st) != 0 || st.st_size == 0) {
        char *l = read_file(log, &len);
        if (l)
            fputs(l, stderr);
        free(l);
        errorf("chromium could not render %s", url);
        rc = 1;
    } else {
        printf("%s\n", out);
        rc = 0;
    }
    if (profile) {
        char *rm[] = { "rm", "-rf", profile, NULL };
        spawn_run(rm, NULL);
    }
    free(html), free(out), free(url), free(size), free(shot), free(udd), free(log);
    return rc;
}
