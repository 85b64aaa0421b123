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
#include "cli.h"
#include "cmds.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

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
    { "parse", cmd_parse, "the serial protocol's lines of console logs, as TSV or JSON", true },
    { "field", cmd_field, "the values of one key of the serial protocol's lines", true },
    { "trace-convert", cmd_trace_convert, "a kernel trace stream into trace.txt, trace.dat, timeline, summaries", true },
    { "trace-check", cmd_trace_check, "a trace's invariants, its text round trip, its counts against the console", true },
    { "scorecard", cmd_scorecard, "a seed post's table beside ours, and its fidelity scorecard", true },
    { "repro-report", cmd_repro_report, "a reproduction's report.html", true },
    { "html-table", cmd_html_table, "a CSV file as an HTML table", true },
    { "plan", cmd_plan, "the boots a run will make (for progress)", true },
    { "progress", cmd_progress, "a status line with the ETA from recorded boot times", true },
};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

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
    if (argc < 2) {
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
