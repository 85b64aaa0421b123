/*
 * schedlab: runs benchmark matrices of the schedlab kernel under QEMU and
 * turns their console logs into tables, comparisons, plots, JSON, HTML
 * reports and the seed posts' scorecards.  One program, a verb per file
 * (cmd_<verb>.c), in the manner of git and perf: `schedlab VERB --help`
 * says what a verb takes; `schedlab --help` lists them.  tools/schedlab is
 * a wrapper that builds this program when its sources changed and runs it.
 *
 * Every input may be truncated or malformed: nothing here trusts a file.
 * Errors are one line, "schedlab VERB: error: ..."; a usage error adds the
 * verb's usage line and exits 2, other errors exit 1.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "cmds.h"
#include "run/benchlist.h"
#include "run/build.h"
#include "run/procs.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The verbs: those people type, then the plumbing the others and scripts use. */
static const struct verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    bool plumbing;
} verbs[] = {
    { "run", cmd_run, "boot every combination of schedulers x vCPUs x boots and collect the results", false },
    { "resume", cmd_resume, "finish an interrupted matrix: boot what never finished, then collect", false },
    { "boot", cmd_boot, "boot named boots of a prepared matrix in the foreground (what GNU parallel and Slurm run)", false },
    { "collect", cmd_collect, "re-read a results directory's logs into results.csv, boots.csv, schedstat.csv", false },
    { "merge", cmd_merge, "combine partial results directories of one matrix", false },
    { "table", cmd_table, "the seed posts' table layout: a block per CPU count, means, a ratio line", false },
    { "compare", cmd_compare, "mmtests-style statistics and Welch's t-test between schedulers or directories", false },
    { "plot", cmd_plot, "PNG and SVG plots (gnuplot): per CPU count, scaling, ratio, per run", false },
    { "report", cmd_report, "one self-contained HTML page of a results directory, or of a before/after pair", false },
    { "json", cmd_json, "a JSON export (hyperfine's --export-json shape)", false },
    { "failures", cmd_failures, "every run that did not end with status=ok, and every failed boot", false },
    { "seed-table", cmd_seed_table, "seed 000's hackbench table measured here, beside the seed's numbers", false },
    { "reproduce", cmd_reproduce, "a seed post's experiment end to end, with its fidelity scorecard", false },
    { "trace", cmd_trace, "one boot, traced: timeline, trace.txt/trace.dat, latency, summaries", false },
    { "trace-png", cmd_trace_png, "a trace's timeline as a PNG (headless Chromium)", false },
    { "bench-vsmp", cmd_bench_vsmp, "host seconds per virtual CPU-second of vsmp boots, against a baseline revision", false },
    { "parse", cmd_parse, "the serial protocol's lines of console logs, as TSV or JSON", true },
    { "field", cmd_field, "the values of one key of the serial protocol's lines", true },
    { "trace-convert", cmd_trace_convert, "a kernel trace stream into trace.txt, trace.dat, timeline, summaries", true },
    { "trace-check", cmd_trace_check, "a trace's invariants, its text round trip, its counts against the console", true },
    { "scorecard", cmd_scorecard, "a seed post's table beside ours, and its fidelity scorecard", true },
    { "repro-report", cmd_repro_report, "a reproduction's report.html", true },
    { "html-table", cmd_html_table, "a CSV file as an HTML table", true },
    { "plan", cmd_plan, "the boots a run will make (for progress)", true },
    { "progress", cmd_progress, "a status line with the ETA from recorded boot times", true },
    { "complete", cmd_complete, "what bash completes after the words typed so far (tools/schedlab-completion.bash)", true },
};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

/* A verb's --help text (allocated): its usage, as the verb prints it. */
static char *help_text(const struct verb *v)
{
    int fd[2];
    if (pipe(fd) != 0)
        return xstrdup("");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        char *av[] = { (char *)v->name, "--help", NULL };
        int rc = v->run(2, av);
        fflush(stdout);
        _exit(rc);
    }
    close(fd[1]);
    struct strbuf b = { 0 };
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof(buf))) > 0)
        sb_addn(&b, buf, (size_t)n);
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return b.s ? b.s : xstrdup("");
}

/* roff text: a backslash doubled, a line that starts with . or ' guarded */
static void roff_line(const char *l, size_t n)
{
    if (n && (l[0] == '.' || l[0] == '\''))
        fputs("\\&", stdout);
    for (size_t i = 0; i < n; i++) {
        if (l[i] == '\\')
            fputs("\\e", stdout);
        else if (l[i] == '-')
            fputs("\\-", stdout);
        else
            putchar(l[i]);
    }
    putchar('\n');
}

/* schedlab --man [VERB]: the man page schedlab(1) or schedlab-VERB(1), from the usage texts. */
static int man_page(const char *name)
{
    char date[16];
    time_t now = time(NULL);
    strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
    const struct verb *v = NULL;
    for (size_t i = 0; name && i < NVERBS; i++)
        if (!strcmp(verbs[i].name, name))
            v = &verbs[i];
    if (name && !v) {
        fprintf(stderr, "schedlab: error: --man %s: no such verb\n", name);
        return EXIT_USAGE;
    }
    if (!v) {
        printf(".TH SCHEDLAB 1 %s \"schedlab %s\" \"schedlab\"\n.SH NAME\nschedlab \\- run and read schedlab kernel "
               "benchmark matrices\n.SH SYNOPSIS\n.B schedlab\n.I VERB\n[flags]\n.SH DESCRIPTION\n", date, SCHEDLAB_VERSION);
        printf("schedlab boots the schedlab kernel under QEMU with schedulers, vCPU counts and workloads, and "
               "turns its console logs into tables, comparisons, plots, JSON, HTML reports and the seed posts' "
               "scorecards.  Each verb has its own page, schedlab\\-VERB(1), and answers --help.\n.SH VERBS\n");
        for (int plumbing = 0; plumbing < 2; plumbing++) {
            if (plumbing)
                printf(".SH PLUMBING\nUsed by the verbs above, by scripts and by the tests.\n");
            for (size_t i = 0; i < NVERBS; i++)
                if (verbs[i].plumbing == plumbing)
                    printf(".TP\n.B %s\n%s (schedlab\\-%s(1))\n", verbs[i].name, verbs[i].summary, verbs[i].name);
        }
        printf(".SH ENVIRONMENT\n.TP\n.B SCHEDLAB_ROOT\nthe schedlab tree the verbs that build and boot use "
               "(default: the tree the program was built from)\n.TP\n.B HZ, LOCK, CFLAGS_EXTRA\nbuild settings "
               "of the kernels run builds (run \\-\\-hz, \\-\\-lock, \\-\\-cflags\\-extra)\n");
        printf(".SH SEE ALSO\ndocs/tools.md, docs/reproduce.md, docs/tracing.md, docs/protocol.md, "
               "docs/ARCHITECTURE.md in the schedlab tree\n");
        return 0;
    }
    char *text = help_text(v);
    char *up = xstrdup(v->name);
    for (char *c = up; *c; c++)
        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
    printf(".TH SCHEDLAB\\-%s 1 %s \"schedlab %s\" \"schedlab\"\n.SH NAME\nschedlab\\-%s \\- %s\n", up, date,
           SCHEDLAB_VERSION, v->name, v->summary);
    /* the usage lines (those that start with "usage:" and their continuations) */
    printf(".SH SYNOPSIS\n.nf\n");
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        bool usage = !strncmp(p, "usage: ", 7) || (n > 7 && !strncmp(p, "       ", 7) && strstr(p, "schedlab"));
        bool cont = n > 20 && p[0] == ' ' && p[strspn(p, " ")] == '[';
        if (!usage && !cont)
            break;
        roff_line(!strncmp(p, "usage: ", 7) ? p + 7 : p + strspn(p, " "), !strncmp(p, "usage: ", 7) ? n - 7 : n - strspn(p, " "));
        p += n + (p[n] == '\n');
    }
    printf(".fi\n.SH DESCRIPTION\n.nf\n");
    while (*p) {
        size_t n = strcspn(p, "\n");
        roff_line(p, n);
        p += n + (p[n] == '\n');
    }
    printf(".fi\n.SH SEE ALSO\nschedlab(1); docs/tools.md, docs/reproduce.md, docs/tracing.md, docs/protocol.md in "
           "the schedlab tree\n");
    free(up);
    free(text);
    return 0;
}

/* ---------------------------------------------------------------- complete */

static void print_matching(const char *cur, const char *word)
{
    if (!strncmp(word, cur, strlen(cur)))
        printf("%s\n", word);
}

/* A bench=list the tree has cached (build/SCHED/kernel.elf.list), for workload names and keys. */
static bool cached_list(struct bench_list *bl)
{
    const char *root = schedlab_root();
    if (!root)
        return false;
    char *bdir = xasprintf("%s/build", root);
    DIR *d = opendir(bdir);
    struct dirent *e;
    bool ok = false;
    while (!ok && d && (e = readdir(d))) {
        char *p = xasprintf("%s/%s/kernel.elf.list", bdir, e->d_name);
        ok = access(p, R_OK) == 0 && bench_list_load(p, bl) && bl->nworkloads;
        if (!ok && access(p, R_OK) == 0)
            bench_list_free(bl);
        free(p);
    }
    if (d)
        closedir(d);
    free(bdir);
    return ok;
}

/* schedlab complete CWORD WORDS...: the completions of word CWORD of WORDS (WORDS[0] is schedlab) */
int cmd_complete(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: schedlab complete CWORD WORD...\n"
               "  The completions of word CWORD (counted from 0) of the command line WORD... (WORD 0 is\n"
               "  schedlab), one a line: verbs; a verb's flags (every --flag of its --help); schedulers after\n"
               "  --sched and --base; workloads after --bench, and for run and trace the chosen workload's\n"
               "  keys as flags, from a bench=list cached beside a built image; accelerators, engines, seeds,\n"
               "  the memory model's presets after --machine (make list-machines), guest and host after --model,\n"
               "  0, 1 and host after --caches.\n"
               "  What tools/schedlab-completion.bash asks; nothing for a file or a directory (bash's own).\n");
        return 0;
    }
    if (argc < 2)
        return 0;
    long cw = atol(argv[1]);
    char **words = argv + 2;
    long nw = argc - 2;
    const char *cur = cw < nw ? words[cw] : "";
    const char *prev = cw >= 1 && cw - 1 < nw ? words[cw - 1] : "";
    if (cw <= 1) {
        for (size_t i = 0; i < NVERBS; i++)
            if (strcmp(verbs[i].name, "complete"))
                print_matching(cur, verbs[i].name);
        return 0;
    }
    const struct verb *v = NULL;
    for (size_t i = 0; i < NVERBS; i++)
        if (!strcmp(verbs[i].name, words[1]))
            v = &verbs[i];
    if (!v)
        return 0;
    /* the value of a flag */
    if (!strcmp(prev, "--sched") || !strcmp(prev, "--base")) {
        char **s = list_scheds();
        for (size_t i = 0; s && s[i]; i++)
            print_matching(cur, s[i]);
        return 0;
    }
    static const char *const accels[] = { "tcg", "kvm", "icount", "vsmp", NULL };
    static const char *const engines[] = { "local", "parallel", "slurm", "none", NULL };
    static const char *const seeds[] = { "seed000", "seed001", "seed003", NULL };
    static const char *const models[] = { "guest", "host", NULL };   /* reproduce, scorecard --model */
    static const char *const caches[] = { "0", "1", "host", NULL };   /* run --caches */
    const char *const *fixed = !strcmp(prev, "--accel")    ? accels
                               : !strcmp(prev, "--engine") ? engines
                               : !strcmp(prev, "--model")  ? models
                               : !strcmp(prev, "--caches") ? caches
                                                           : NULL;
    if (fixed) {
        for (size_t i = 0; fixed[i]; i++)
            print_matching(cur, fixed[i]);
        return 0;
    }
    if (!strcmp(prev, "--machine")) {   /* reproduce, scorecard: none and the kernel's presets (make list-machines) */
        print_matching(cur, "none");
        char **m = list_machines();
        for (size_t i = 0; m && m[i]; i++)
            print_matching(cur, m[i]);
        return 0;
    }
    struct bench_list bl;
    if (!strcmp(prev, "--bench")) {
        if (cached_list(&bl)) {
            for (size_t i = 0; i < bl.nworkloads; i++)
                print_matching(cur, bl.workloads[i]);
            bench_list_free(&bl);
        }
        return 0;
    }
    if (!strcmp(v->name, "reproduce") && cw == 2 && cur[0] != '-') {
        for (size_t i = 0; seeds[i]; i++)
            print_matching(cur, seeds[i]);
        return 0;
    }
    if (cur[0] != '-')
        return 0;   /* a file or directory: bash's default */
    /* the verb's flags (every --flag its usage names), and for run and trace the chosen workload's keys */
    char *text = help_text(v);
    char **seen = NULL;
    size_t ns = 0;
    for (const char *p = text; (p = strstr(p, "--"));) {
        size_t n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (n > 3 && (p == text || p[-1] == ' ' || p[-1] == '[' || p[-1] == '(' || p[-1] == ',')) {
            char *f = xstrndup(p, n);
            bool dup = false;
            for (size_t i = 0; i < ns; i++)
                dup |= !strcmp(seen[i], f);
            if (!dup) {
                seen = xrealloc(seen, (ns + 1) * sizeof(char *));
                seen[ns++] = f;
                print_matching(cur, f);
            } else {
                free(f);
            }
        }
        p += n;
    }
    if ((!strcmp(v->name, "run") || !strcmp(v->name, "trace")) && cached_list(&bl)) {
        const char *bench = NULL;
        for (long i = 2; i + 1 < nw; i++)
            if (!strcmp(words[i], "--bench"))
                bench = words[i + 1];
        for (size_t i = 0; i < bl.nkeys; i++) {
            const struct bl_key *k = &bl.keys[i];
            if (strcmp(k->owner, "kernel") && (!bench || strcmp(k->owner, bench)))
                continue;
            if (!strcmp(k->name, "bench") || !strcmp(k->name, "runs"))
                continue;
            char *f = xasprintf("--%s", k->name);
            for (char *c = f; *c; c++)
                if (*c == '_')
                    *c = '-';
            bool dup = false;
            for (size_t j = 0; j < ns; j++)
                dup |= !strcmp(seen[j], f);
            if (!dup)
                print_matching(cur, f);
            free(f);
        }
        bench_list_free(&bl);
    }
    for (size_t i = 0; i < ns; i++)
        free(seen[i]);
    free(seen);
    free(text);
    return 0;
}

static void list_verbs(FILE *f)
{
    fprintf(f, "usage: schedlab VERB [flags]     (schedlab VERB --help: one verb; man schedlab-VERB)\n\n");
    for (int plumbing = 0; plumbing < 2; plumbing++) {
        fprintf(f, "%s\n", plumbing ? "\nplumbing (used by the verbs above, by scripts and the tests):" : "verbs:");
        for (size_t i = 0; i < NVERBS; i++)
            if (verbs[i].plumbing == plumbing)
                fprintf(f, "  %-14s %s\n", verbs[i].name, verbs[i].summary);
    }
    fprintf(f, "\nDocumentation: docs/tools.md, docs/reproduce.md, docs/tracing.md, docs/protocol.md.\n");
}

int main(int argc, char **argv)
{
    cli_set_verb(NULL, NULL);
    if (argc < 2) {   /* git's way: say what is missing, then what there is */
        fprintf(stderr, "schedlab: error: no verb given\n");
        list_verbs(stderr);
        return EXIT_USAGE;
    }
    const char *v = argv[1];
    if (!strcmp(v, "--help") || !strcmp(v, "-h") || !strcmp(v, "help")) {
        if (argc >= 3 && strcmp(v, "help") == 0) {   /* help VERB: that verb's --help */
            for (size_t i = 0; i < NVERBS; i++)
                if (!strcmp(argv[2], verbs[i].name)) {
                    char *av[] = { argv[2], "--help", NULL };
                    return verbs[i].run(2, av);
                }
        }
        list_verbs(stdout);
        return 0;
    }
    if (!strcmp(v, "--list-verbs")) {   /* one a line, for make install and scripts */
        for (size_t i = 0; i < NVERBS; i++)
            printf("%s\n", verbs[i].name);
        return 0;
    }
    if (!strcmp(v, "--man"))
        return man_page(argc >= 3 ? argv[2] : NULL);
    if (!strcmp(v, "--version")) {
        printf("schedlab %s\n", SCHEDLAB_VERSION);
        return 0;
    }
    for (size_t i = 0; i < NVERBS; i++)
        if (!strcmp(v, verbs[i].name)) {
            cli_set_verb(verbs[i].name, NULL);
            return verbs[i].run(argc - 1, argv + 1);   /* argv[0] is now the verb, as getopt expects */
        }
    const char *names[NVERBS + 1];
    for (size_t i = 0; i < NVERBS; i++)
        names[i] = verbs[i].name;
    names[NVERBS] = NULL;
    const char *near = suggest(v, names);
    fprintf(stderr, "schedlab: error: unknown verb '%s'%s%s%s\n", v, near ? " (did you mean " : "", near ? near : "",
            near ? "?)" : "");
    fprintf(stderr, "usage: schedlab VERB [flags]     (schedlab --help lists the verbs)\n");
    return EXIT_USAGE;
}
