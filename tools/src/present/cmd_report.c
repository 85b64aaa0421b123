/*
 * report DIR [DIR_B] --out FILE [--plots PLOTDIR] [--include FILE]... [--base S] [--allow-diff K]:
 * one self-contained HTML page of a results directory (or a before/after
 * pair) for people: what ran, the tables, the comparison with its
 * significance, the plots (inline SVG), failures, boots, the kernel's
 * scheduler statistics, a scorecard when the directory is a row of a
 * reproduction, and the provenance (meta.txt) at the bottom.  Every table
 * is a <table>; nothing is a <pre>.  tools/schedlab report draws the plots
 * (gnuplot) and calls this; the other verbs' HTML (table, compare,
 * failures, html-table) is theirs, run here.
 */
#define _DEFAULT_SOURCE
#include "cmds.h"
#include "load.h"
#include "run/procs.h"
#include "cli.h"
#include "repro_out.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: schedlab report DIR [DIR_B] [--out FILE] [--base SCHED] [--allow-diff KEY[,KEY]]\n"
    "  one self-contained HTML file (default DIR/report.html; with two directories\n"
    "  DIR_B/report-vs-<DIR>.html): metadata, the tables, the comparison, the plots\n"
    "  (inline SVG, drawn by gnuplot), failures, boots, schedstat, the traces of DIR\n"
    "  (timeline.svg, DIR/traces/*) and DIR/scorecard.csv when there is one.  Two\n"
    "  directories: a before/after report of DIR (before) and DIR_B (after).\n"
    "  --plots PLOTDIR (plots already drawn) and --include FILE (an HTML fragment, as\n"
    "  the traces' section) are for the verbs that draw their own.\n"
    "  Exit: 0, 1 unreadable or not comparable input, 2 usage error.\n";
static const struct verb_spec report_spec = { "report", 0, usage, NULL };

static const char css[] =
    "body{font-family:sans-serif;max-width:1180px;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.4}\n"
    "h2{margin-top:1.8em;border-bottom:2px solid #ddd;padding-bottom:.2em}\n"
    "table{border-collapse:collapse;font-size:13px;margin:.6em 0 1.2em}caption{text-align:left;font-weight:bold;"
    "padding:.3em 0}\n"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}thead th{background:#e4e4e4}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:pre}\n"
    "tr.block th{background:#eef2f8}tr.head th{background:#e4e4e4}\n"
    "td.better{color:#060}td.worse{color:#a00}td.signif{font-weight:bold}\n"
    "tr.bad td{background:#fee}th.sub{font-weight:normal;font-style:italic;padding-left:1.5em}\n"
    ".compare-head{white-space:pre-line;font-size:13px}\n"
    "table.kv{width:100%}table.kv th{width:13em;background:#f6f6f6}table.kv td{overflow-wrap:anywhere}\n"
    "table.kv td code,table.cmds td{font-family:monospace;font-size:12px;overflow-wrap:anywhere}\n"
    "figure{margin:1.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #e4e4e4}"
    "figcaption{color:#555;font-size:13px}\n"
    ".wide{max-width:100%;overflow-x:auto}.bad{color:#b00}\n"
    ".cols{display:grid;grid-template-columns:1fr 1fr;gap:1em}.cols>div{min-width:0}\n"
    "textarea{width:100%;height:14em;font-family:monospace;font-size:12px}\n"
    ".dev-near{background:#d9f0d3}.dev-mid{background:#fdf0c2}.dev-far{background:#f8d0cc}\n"
    "table.ran{width:100%}table.ran th{width:9em;background:#f6f6f6}td.missing{color:#999}\n"
    ".side{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.side>div{min-width:0;max-width:100%;overflow-x:auto}\n"
    "div.notes{background:#fafafa;border-left:4px solid #999;padding:.2em .8em}\n";

/* Runs a verb of this program with its stdout into f; its stderr into err: as it is when err is
 * stderr, else as an HTML paragraph.  Its exit status. */
static int run_verb(FILE *f, FILE *err, int (*verb)(int, char **), char **argv)
{
    FILE *tmp = tmpfile(), *etmp = err ? tmpfile() : NULL;
    if (!tmp)
        return 1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(tmp), 1);
        if (etmp)
            dup2(fileno(etmp), 2);
        int argc = 0;
        while (argv[argc])
            argc++;
        int rc = verb(argc, argv);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        st = 1 << 8;
    rewind(tmp);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
        fwrite(buf, 1, n, f);
    fclose(tmp);
    if (etmp) {
        rewind(etmp);
        struct strbuf e = { 0 };
        while ((n = fread(buf, 1, sizeof(buf), etmp)) > 0)
            sb_addn(&e, buf, n);
        if (e.s && err == stderr) {
            fputs(e.s, err);
        } else if (e.s) {
            fputs("<p class=\"bad\">", err);
            html_text(err, e.s);
            fputs("</p>\n", err);
        }
        sb_free(&e);
        fclose(etmp);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* argv for a verb: the verb, its flags, then the directories (NULL-terminated; the array is allocated). */
static char **verb_argv(const char *verb, const char *const *flags, size_t nflags, const char *const *dirs, size_t ndirs)
{
    char **a = xcalloc(nflags + ndirs + 2, sizeof(char *));
    size_t n = 0;
    a[n++] = (char *)verb;
    for (size_t i = 0; i < nflags; i++)
        a[n++] = (char *)flags[i];
    for (size_t i = 0; i < ndirs; i++)
        a[n++] = (char *)dirs[i];
    return a;
}

static char *base_name(const char *dir)
{
    char *abs = realpath(dir, NULL);
    const char *p = abs ? abs : dir, *s = strrchr(p, '/');
    char *b = xstrdup(s && s[1] ? s + 1 : p);
    free(abs);
    return b;
}

/* meta.txt as key/value tables: what ran (first), and every line (provenance). */
static const char *const ran_keys[][2] = {
    { "bench", "workload" }, { "schedulers", "schedulers" }, { "smp", "CPUs" }, { "boots", "boots of each" },
    { "runs_per_boot", "runs in each boot" }, { "accel", "accelerator" }, { "mem_mib", "guest memory (MiB)" },
    { "kernel_cmdline", "kernel command line" }, { "command", "made with" }, { "date", "started" },
    { "wall_s", "wall time (s)" },
};

static void meta_tables(FILE *f, const char *dir, bool provenance)
{
    char *path = xasprintf("%s/meta.txt", dir);
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf) {
        fputs("<p class=\"bad\">No meta.txt in ", f);
        html_text(f, dir);
        fputs(".</p>\n", f);
        free(path);
        return;
    }
    free(path);
    /* lines into key/value pairs */
    char **key = NULL, **val = NULL;
    size_t n = 0, cap = 0, nboot = 0;
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *c = strstr(l, ": ");
        if (!c)
            continue;
        *c = '\0';
        size_t kc = cap;
        grow(&key, &kc, n, sizeof(*key));
        grow(&val, &cap, n, sizeof(*val));
        key[n] = l;
        val[n++] = c + 2;
        nboot += !strncmp(l, "boot ", 5);
    }
    if (!provenance) {
        fputs("<table class=\"kv\"><tbody>\n", f);
        for (size_t k = 0; k < sizeof(ran_keys) / sizeof(ran_keys[0]); k++)
            for (size_t i = 0; i < n; i++)
                if (!strcmp(key[i], ran_keys[k][0])) {
                    fputs("<tr><th>", f);
                    html_text(f, ran_keys[k][1]);
                    fputs("</th><td>", f);
                    bool code = !strcmp(key[i], "command") || !strcmp(key[i], "kernel_cmdline");
                    if (code)
                        fputs("<code>", f);
                    html_text(f, val[i]);
                    fputs(code ? "</code></td></tr>\n" : "</td></tr>\n", f);
                    break;
                }
        fputs("</tbody></table>\n", f);
    } else {
        fputs("<table class=\"kv meta\"><tbody>\n", f);
        for (size_t i = 0; i < n; i++) {
            if (!strncmp(key[i], "boot ", 5))
                continue;
            fputs("<tr><th>", f);
            html_text(f, key[i]);
            fputs("</th><td>", f);
            html_text(f, val[i]);
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody></table>\n", f);
        if (nboot) {
            fprintf(f, "<details><summary>the exact command of each of the %zu boots</summary>\n"
                       "<table class=\"cmds\"><thead><tr><th>boot</th><th>command</th></tr></thead><tbody>\n",
                    nboot);
            for (size_t i = 0; i < n; i++) {
                if (strncmp(key[i], "boot ", 5))
                    continue;
                fputs("<tr><td>", f);
                html_text(f, key[i] + 5);
                fputs("</td><td>", f);
                html_text(f, val[i]);
                fputs("</td></tr>\n", f);
            }
            fputs("</tbody></table></details>\n", f);
        }
    }
    free(key);
    free(val);
    free(buf);
}

/* A file's text into f (false when it cannot be read). */
static bool append_file(FILE *f, const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return false;
    fwrite(buf, 1, len, f);
    free(buf);
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

#include <dirent.h>

/* The SVG plots of PLOTDIR, inline, in name order. */
static size_t inline_plots(FILE *f, const char *pdir)
{
    DIR *d = pdir ? opendir(pdir) : NULL;
    if (!d)
        return 0;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".svg")) {
            grow(&names, &cap, n, sizeof(*names));
            names[n++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_str);
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", pdir, names[i]);
        size_t len;
        char *svg = read_file(path, &len);
        const char *s = svg ? strstr(svg, "<svg") : NULL;
        if (s) {
            fputs("<figure>", f);
            fputs(s, f);
            fputs("<figcaption>", f);
            names[i][strlen(names[i]) - 4] = '\0';
            html_text(f, names[i]);
            fputs("</figcaption></figure>\n", f);
        }
        free(svg);
        free(path);
        free(names[i]);
    }
    free(names);
    return n;
}

/* A trace's SVG inline, with ids of its own in this page (its script looks them up). */
static void inline_timeline(FILE *f, const char *path, int i)
{
    size_t len;
    char *svg = read_file(path, &len);
    if (!svg)
        return;
    char *p = svg;
    if (!strncmp(p, "<?xml", 5) && strchr(p, '\n'))
        p = strchr(p, '\n') + 1;
    char *id = xasprintf("\"timeline%d\"", i), *clip = xasprintf("timeline%d-clip", i),
         *nodata = xasprintf("timeline%d-nodata", i), *get = xasprintf("getElementById('timeline%d')", i);
    bool first_id = true;   /* the first "timeline" only: the SVG's own id */
    while (*p) {
        if (first_id && !strncmp(p, "\"timeline\"", 10)) {
            fputs(id, f);
            p += 10;
            first_id = false;
        } else if (!strncmp(p, "timeline-clip", 13)) {
            fputs(clip, f);
            p += 13;
        } else if (!strncmp(p, "timeline-nodata", 15)) {   /* the hatched no-data pattern */
            fputs(nodata, f);
            p += 15;
        } else if (!strncmp(p, "getElementById('timeline')", 26)) {
            fputs(get, f);
            p += 26;
        } else {
            fputc(*p++, f);
        }
    }
    free(id), free(clip), free(nodata), free(get);
    free(svg);
}

/* The section of every trace of a results directory (DIR itself, DIR/traces/ *): into f; how many. */
static int trace_sections(FILE *f, const char *dir, int *n)
{
    char **tdirs = NULL;
    size_t nt = 0;
    struct stat st;
    char *own = xasprintf("%s/timeline.svg", dir);
    if (stat(own, &st) == 0) {
        tdirs = xrealloc(tdirs, (nt + 1) * sizeof(char *));
        tdirs[nt++] = xstrdup(dir);
    }
    free(own);
    char *td = xasprintf("%s/traces", dir);
    DIR *dh = opendir(td);
    struct dirent *e;
    char **names = NULL;
    size_t nn = 0;
    while (dh && (e = readdir(dh)))
        if (e->d_name[0] != '.') {
            names = xrealloc(names, (nn + 1) * sizeof(char *));
            names[nn++] = xstrdup(e->d_name);
        }
    if (dh)
        closedir(dh);
    qsort(names, nn, sizeof(char *), cmp_str);
    for (size_t i = 0; i < nn; i++) {
        char *d = xasprintf("%s/%s", td, names[i]), *svg = xasprintf("%s/timeline.svg", d);
        if (stat(svg, &st) == 0) {
            tdirs = xrealloc(tdirs, (nt + 1) * sizeof(char *));
            tdirs[nt++] = d;
        } else {
            free(d);
        }
        free(svg);
        free(names[i]);
    }
    free(names);
    free(td);
    if (nt && *n == 0)
        fputs("<h2 id=\"traces\">Scheduler traces</h2><p>What ran on each CPU of a traced boot (wheel: zoom, drag: pan,\n"
              "double-click: whole trace); trace.txt and trace.dat beside it open in the Perfetto UI and KernelShark.</p>\n",
              f);
    for (size_t i = 0; i < nt; i++) {
        (*n)++;
        char real[4096];
        const char *rp = realpath(tdirs[i], real) ? real : tdirs[i];
        const char *base = strrchr(rp, '/') ? strrchr(rp, '/') + 1 : rp;
        fputs("<h3>", f);
        html_text(f, base);
        fputs("</h3>\n", f);
        char *svg = xasprintf("%s/timeline.svg", tdirs[i]), *heat = xasprintf("%s/heatmap.svg", tdirs[i]);
        char *csv = xasprintf("%s/summary.csv", tdirs[i]), *lat = xasprintf("%s/latency.txt", tdirs[i]);
        inline_timeline(f, svg, *n);
        if (stat(heat, &st) == 0) {   /* per-CPU utilisation over time (trace_heatmap.c) */
            fputs("<figure class=\"heatmap\">", f);
            append_file(f, heat);
            fputs("</figure>\n", f);
        }
        if (stat(csv, &st) == 0) {   /* a table as a table; perf sched latency's text stays in its file */
            fputs("<p>Per CPU (summary.csv):</p>\n", f);
            char *av[] = { "html-table", csv, NULL };
            run_verb(f, stderr, cmd_html_table, av);
        }
        if (stat(lat, &st) == 0) {
            fputs("<p>Per task wake-up latency as perf sched latency prints it: <code>", f);
            html_text(f, tdirs[i]);
            fputs("/latency.txt</code>.</p>\n", f);
        }
        free(svg), free(heat), free(csv), free(lat);
        free(tdirs[i]);
    }
    free(tdirs);
    return 0;
}

int cmd_report(int argc, char **argv)
{
    cli_set_verb("report", &report_spec);
    const char *dirs[2] = { NULL, NULL }, *out = NULL, *pdir = NULL, *base = NULL;
    const char **incl = NULL;
    size_t ndirs = 0, nincl = 0, icap = 0;
    struct strbuf allow = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            return 0;
        }
        if (!strcmp(a, "--out") || !strcmp(a, "--plots") || !strcmp(a, "--base") || !strcmp(a, "--allow-diff") ||
            !strcmp(a, "--include")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--out"))
                out = v;
            else if (!strcmp(a, "--plots"))
                pdir = v;
            else if (!strcmp(a, "--base"))
                base = v;
            else if (!strcmp(a, "--include")) {
                grow(&incl, &icap, nincl, sizeof(*incl));
                incl[nincl++] = v;
            } else
                sb_printf(&allow, "%s%s", allow.len ? "," : "", v);
            continue;
        }
        if (a[0] == '-') {
            static const char *const flags[] = { "out", "base", "allow-diff", "plots", "include", "help", NULL };
            const char *near = suggest(a + strspn(a, "-"), flags);
            return near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", a, near)
                        : verb_usage_error("unknown flag '%s'", a);
        }
        if (ndirs == 2)
            return usage_error("report takes one or two results directories (got '%s' too)", a);
        dirs[ndirs++] = a;
    }
    if (!ndirs)
        return usage_error("%s", "report needs a results directory");
    if (ndirs == 2 && base)
        return usage_error("%s", "--base chooses a scheduler within one directory; with two directories the first is the baseline");
    for (size_t d = 0; d < ndirs; d++)
        if (!results_dir_ok(dirs[d]))
            return 1;
    char *out_owned = NULL;
    if (!out) {
        char real[4096];
        const char *ra = realpath(dirs[0], real) ? real : dirs[0];
        const char *an = strrchr(ra, '/') ? strrchr(ra, '/') + 1 : ra;
        out = out_owned = ndirs > 1 ? xasprintf("%s/report-vs-%s.html", dirs[1], an) : xasprintf("%s/report.html", dirs[0]);
    }
    {   /* the file can be written: a directory that exists, no directory of that name */
        struct stat st;
        char *parent = xstrdup(out), *slash = strrchr(parent, '/');
        if (slash)
            *slash = 0;
        if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
            errorf("%s is a directory (--out needs a file name)", out);
            free(parent);
            free(out_owned);
            return 1;
        }
        if (slash && stat(parent, &st) != 0) {
            errorf("cannot write %s: no directory %s", out, parent);
            free(parent);
            free(out_owned);
            return 1;
        }
        free(parent);
    }
    /* the plots and the traces' section, when the caller did not make them */
    char *tmp = NULL, *plots_err = NULL;
    if (!pdir || !nincl) {
        char tmpl[] = "/tmp/schedlab-report.XXXXXX";
        tmp = mkdtemp(tmpl) ? xstrdup(tmpl) : NULL;
    }
    if (tmp && !pdir) {
        char *pd = xasprintf("%s/plots", tmp);
        plots_err = xasprintf("%s/plots.err", tmp);
        struct opts po;
        char *av[6] = { "plot", NULL };
        int an = 1;
        if (allow.s) {
            av[an++] = "--allow-diff";
            av[an++] = allow.s;
        }
        av[an++] = (char *)dirs[0];
        if (ndirs > 1)
            av[an++] = (char *)dirs[1];
        /* plot's errors (a plot gnuplot could not draw) do not stop the report: said after it */
        fflush(stderr);
        int saved = dup(2), fd = open(plots_err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0)
            dup2(fd, 2);
        if (cli_parse(an, av, &po, plot_spec()) == 0)
            plot_into(&po, pd, NULL);
        cli_free(&po);
        fflush(stderr);
        if (saved >= 0) {
            dup2(saved, 2);
            close(saved);
        }
        if (fd >= 0)
            close(fd);
        cli_set_verb("report", &report_spec);
        pdir = pd;   /* (freed with tmp) */
    }
    if (tmp && !nincl) {
        char *tp = xasprintf("%s/traces.html", tmp);
        FILE *tf = fopen(tp, "w");
        int n = 0;
        for (size_t d = 0; tf && d < ndirs; d++)
            trace_sections(tf, dirs[d], &n);
        if (tf)
            fclose(tf);
        grow(&incl, &icap, nincl, sizeof(*incl));
        incl[nincl++] = tp;
    }
    /* the flags the data verbs share */
    const char *common[4] = { NULL, NULL, NULL, NULL };
    size_t nc = 0;
    if (allow.s) {
        common[nc++] = "--allow-diff";
        common[nc++] = allow.s;
    }
    /* the tables first: data that cannot be read or compared is an error before anything is written */
    FILE *tbl = tmpfile();
    char **av = verb_argv("table", (const char *[]){ "--format", "html", common[0], common[1] }, 2 + nc, dirs, ndirs);
    int rc = tbl ? run_verb(tbl, stderr, cmd_table, av) : 1;
    free(av);
    if (rc) {
        if (tbl)
            fclose(tbl);
        free(incl);
        sb_free(&allow);
        return rc;
    }
    char *part = xasprintf("%s.part", out);
    FILE *f = fopen(part, "w");
    if (!f) {
        errorf("cannot write %s", part);
        fclose(tbl);
        free(part);
        free(incl);
        sb_free(&allow);
        return 1;
    }
    char *na = base_name(dirs[0]), *nb = ndirs > 1 ? base_name(dirs[1]) : NULL;
    char *title = nb ? xasprintf("schedlab report: %s (before) and %s (after)", na, nb) : xasprintf("schedlab report: %s", na);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>", css);
    html_text(f, title);
    fputs("</h1>\n", f);
    time_t now = time(NULL);
    struct tm tm;
    char date[40];
    strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tm));
    fprintf(f, "<p>Written by <code>tools/schedlab report</code> on %s. Everything is inline: this file needs nothing "
               "else.</p>\n",
            date);
    fputs("<p><a href=\"#ran\">What ran</a> &middot; <a href=\"#table\">Tables</a> &middot; <a href=\"#compare\">"
          "Comparison</a> &middot; <a href=\"#plots\">Plots</a> &middot; <a href=\"#failures\">Failures</a> &middot; "
          "<a href=\"#boots\">Boots</a> &middot; <a href=\"#schedstat\">Scheduler statistics</a> &middot; "
          "<a href=\"#scorecard\">Scorecard</a> &middot; <a href=\"#provenance\">Provenance</a></p>\n",
          f);
    fputs("<h2 id=\"ran\">What ran</h2>\n", f);
    if (nb)
        fputs("<div class=\"cols\">", f);
    for (size_t d = 0; d < ndirs; d++) {
        if (nb) {
            fputs("<div><h3>", f);
            html_text(f, d ? nb : na);
            fputs(d ? " (after)</h3>" : " (before)</h3>", f);
        }
        meta_tables(f, dirs[d], false);
        if (nb)
            fputs("</div>", f);
    }
    if (nb)
        fputs("</div>\n", f);
    fputs("<h2 id=\"table\">Tables</h2>\n<p>Means of the runs that ended with status=ok; * marks cells where some runs "
          "failed (never averaged in).</p>\n<div class=\"wide\">\n",
          f);
    rewind(tbl);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), tbl)) > 0)
        fwrite(buf, 1, n, f);
    fclose(tbl);
    fputs("</div>\n<h3>With standard deviation and coefficient of variation</h3>\n<div class=\"wide\">\n", f);
    av = verb_argv("table", (const char *[]){ "--format", "html", "--stddev", "--cv", common[0], common[1] }, 4 + nc, dirs,
                   ndirs);
    run_verb(f, f, cmd_table, av);
    free(av);
    fputs("</div>\n<h2 id=\"compare\">Comparison</h2>\n<div class=\"wide\">\n", f);
    const char *cflags[6];
    size_t ncf = 0;
    cflags[ncf++] = "--format";
    cflags[ncf++] = "html";
    if (base) {
        cflags[ncf++] = "--base";
        cflags[ncf++] = base;
    }
    for (size_t i = 0; i < nc; i++)
        cflags[ncf++] = common[i];
    av = verb_argv("compare", cflags, ncf, dirs, ndirs);
    run_verb(f, f, cmd_compare, av);
    free(av);
    fputs("</div>\n<details><summary>The same for a mailing list (LKP style: plain text to copy)</summary>\n"
          "<textarea readonly>",
          f);
    cflags[1] = "lkml";
    av = verb_argv("compare", cflags, ncf, dirs, ndirs);
    FILE *lk = tmpfile();
    if (lk) {
        run_verb(lk, lk, cmd_compare, av);
        rewind(lk);
        struct strbuf t = { 0 };
        while ((n = fread(buf, 1, sizeof(buf) - 1, lk)) > 0)
            sb_addn(&t, buf, n);
        html_text(f, t.s ? t.s : "");
        sb_free(&t);
        fclose(lk);
    }
    free(av);
    fputs("</textarea></details>\n<h2 id=\"plots\">Plots</h2>\n", f);
    if (!inline_plots(f, pdir))
        fputs("<p>No plots (no successful runs with a metric, or gnuplot is missing).</p>\n", f);
    for (size_t i = 0; i < nincl; i++)
        if (!append_file(f, incl[i])) {
            fputs("<p class=\"bad\">missing section: ", f);
            html_text(f, incl[i]);
            fputs("</p>\n", f);
        }
    fputs("<h2 id=\"failures\">Failures</h2>\n<div class=\"wide\">\n", f);
    av = verb_argv("failures", (const char *[]){ "--html" }, 1, dirs, ndirs);
    run_verb(f, f, cmd_failures, av);
    free(av);
    fputs("</div>\n<h2 id=\"boots\">Boots</h2>\n<p>Every boot of the matrix (boots.csv): exit status, verdict, results, "
          "wall time.</p>\n",
          f);
    for (size_t d = 0; d < ndirs; d++) {
        if (nb) {
            fputs("<h3>", f);
            html_text(f, d ? nb : na);
            fputs("</h3>\n", f);
        }
        char *csv = xasprintf("%s/boots.csv", dirs[d]);
        if (access(csv, R_OK) == 0) {
            fputs("<div class=\"wide\">", f);
            av = verb_argv("html-table",
                           (const char *[]){ "--columns", "name,sched,smp,boot,rc,verdict,reason,ok_results,failed_results,"
                                                          "expected,wall_s,oversubscribed,host" },
                           2, (const char *const *)&csv, 1);
            run_verb(f, f, cmd_html_table, av);
            free(av);
            fputs("</div>\n", f);
        }
        free(csv);
    }
    fputs("<h2 id=\"schedstat\">Scheduler statistics</h2>\n<p>The kernel's schedstat lines (schedstat.csv): per boot "
          "and CPU, rates per second of the CPU's recorded busy and idle time over the whole boot (not of its ticks, "
          "which a loaded TCG host takes away: ticks_lost_pct); a trace's summary counts its recorded window "
          "only.</p>\n",
          f);
    for (size_t d = 0; d < ndirs; d++) {
        if (nb) {
            fputs("<h3>", f);
            html_text(f, d ? nb : na);
            fputs("</h3>\n", f);
        }
        char *csv = xasprintf("%s/schedstat.csv", dirs[d]);
        if (access(csv, R_OK) == 0) {
            fputs("<div class=\"wide\">", f);
            av = verb_argv("html-table",
                           (const char *[]){ "--columns", "sched,smp,boot,cpu,context_switches,migrations,wakeups,"
                                                          "switches_per_s,migrations_per_s,wakeups_per_s,idle_share,"
                                                          "ticks_lost_pct,pick_cycles" },
                           2, (const char *const *)&csv, 1);
            run_verb(f, f, cmd_html_table, av);
            free(av);
            fputs("</div>\n", f);
        } else {
            fputs("<p>No schedstat.csv.</p>\n", f);
        }
        free(csv);
    }
    fputs("<h2 id=\"scorecard\">Scorecard</h2>\n", f);
    bool sc = false;
    for (size_t d = 0; d < ndirs; d++) {
        char *h = xasprintf("%s/scorecard.html", dirs[d]), *csv = xasprintf("%s/scorecard.csv", dirs[d]);
        if (append_file(f, h)) {   /* a row of a reproduction: its table's section */
            sc = true;
        } else if (access(csv, R_OK) == 0) {
            av = verb_argv("html-table", NULL, 0, (const char *const *)&csv, 1);
            run_verb(f, f, cmd_html_table, av);
            free(av);
            sc = true;
        }
        free(h);
        free(csv);
    }
    if (!sc)
        fputs("<p>No scorecard in this directory (DIR/scorecard.html or DIR/scorecard.csv: a row of tools/schedlab "
              "reproduce has one).</p>\n",
              f);
    fputs("<h2 id=\"provenance\">Provenance</h2>\n<p>Where the numbers come from: meta.txt (every row of results.csv "
          "carries these as columns, and the kernel's boot line as boot_* columns).</p>\n",
          f);
    for (size_t d = 0; d < ndirs; d++) {
        if (nb) {
            fputs("<h3>", f);
            html_text(f, d ? nb : na);
            fputs("</h3>\n", f);
        }
        meta_tables(f, dirs[d], true);
    }
    fputs("</body></html>\n", f);
    rc = fclose(f) ? 1 : 0;
    if (!rc && rename(part, out) != 0)
        rc = 1;
    if (rc) {
        errorf("cannot write %s", out);
        remove(part);
    }
    free(part);
    free(na);
    free(nb);
    free(title);
    if (plots_err) {   /* plot's messages, as plot said them */
        size_t len;
        char *e = read_file(plots_err, &len);
        for (char *l = e; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
            fprintf(stderr, "schedlab: plot: %.*s\n", (int)strcspn(l, "\n"), l);
        free(e);
    }
    if (!rc) {
        struct stat st;
        fprintf(stderr, "schedlab: report written to %s (%lld bytes)\n", out, stat(out, &st) == 0 ? (long long)st.st_size : 0LL);
    }
    if (tmp) {
        if (!strncmp(pdir ? pdir : "", tmp, strlen(tmp)))
            free((char *)pdir);
        for (size_t i = 0; i < nincl; i++)
            if (!strncmp(incl[i], tmp, strlen(tmp)))
                free((char *)incl[i]);
        char *rm[] = { "rm", "-rf", tmp, NULL };
        spawn_run(rm, NULL);
        free(tmp);
    }
    free(plots_err);
    free(out_owned);
    free(incl);
    sb_free(&allow);
    return rc;
}
