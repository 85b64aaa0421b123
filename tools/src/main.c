/*
 * schedlab-tool: the C half of tools/schedlab.  The shell script runs
 * QEMU and gnuplot; this program does everything that reads data, one verb
 * per file (cmd_<verb>.c):
 *
 *   collect DIR           serial logs of a run matrix -> DIR/results.csv, DIR/boots.csv
 *   parse LOG ...         one serial log -> CSV on stdout (debugging, tests)
 *   table DIR...          the seed's table layout (means; --stddev, --cv)
 *   compare DIR...        mmtests-style statistics with Welch's t-test
 *   plot --out D DIR...   gnuplot scripts (PNG + SVG) into D
 *   failures DIR...       every run that did not end with status=ok, and every failed boot
 *   seed-table DIR        the hackbench table beside the seed's (LKML, Nov 2003) numbers
 *   trace IN --out DIR    a kernel trace (trace=1) -> ftrace text, trace.dat, timeline, latency, summary
 *   trace-check IN        a trace's invariants, its text round trip, its counts against the console
 *   json DIR              a JSON export (hyperfine's --export-json shape)
 *   html-table CSV        a CSV file as an HTML table (for the report)
 *   scorecard SEED TABLE  a seed post's table beside ours, and its fidelity scorecard
 *   plan run|row|stress   the boots a run will make (for progress)
 *   progress PLAN         a status line with the ETA from recorded boot times
 *   repro-report DIR      a reproduction's report.html, for people
 *   report DIR [DIR_B]    a results directory's report.html (tools/schedlab report)
 *
 * Every input may be truncated or malformed: nothing here trusts a file.
 * Usage errors exit 2, unreadable input exits 1; every verb answers --help.
 */
#include "cli.h"
#include "cmds.h"

#include <stdio.h>
#include <string.h>

static const struct verb {
    const char *name;
    int (*run)(int argc, char **argv);
} verbs[] = {
    { "collect", cmd_collect }, { "parse", cmd_parse },       { "table", cmd_table },           { "compare", cmd_compare },
    { "plot", cmd_plot },       { "failures", cmd_failures }, { "seed-table", cmd_seed_table },
    { "trace", cmd_trace },     { "trace-check", cmd_trace_check },   /* cmd_trace.c: scheduler traces */
    { "json", cmd_json },       { "html-table", cmd_html_table }, { "scorecard", cmd_scorecard },
    { "plan", cmd_plan },       { "progress", cmd_progress },     /* cmd_progress.c: status lines, ETA */
    { "repro-report", cmd_repro_report }, { "report", cmd_report },
};

static const char usage[] =
    "usage: schedlab-tool collect|parse|table|compare|plot|failures|seed-table|json|html-table|scorecard|report|repro-report|plan|progress|trace|trace-check ... (see tools/schedlab help)\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "%s", usage);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        printf("%s  schedlab-tool VERB --help: that verb's usage\n", usage);
        return 0;
    }
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        if (!strcmp(argv[1], verbs[i].name))
            return verbs[i].run(argc - 1, argv + 1);   /* argv[0] is now the verb, as getopt expects */
    return usage_error("unknown verb '%s'", argv[1]);
}
