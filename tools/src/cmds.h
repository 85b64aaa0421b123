/* The verbs of schedlab, one file each (cmd_<verb>.c); main.c dispatches. */
#ifndef SCHEDLAB_CMDS_H
#define SCHEDLAB_CMDS_H

#include <stdio.h>

int cmd_run(int argc, char **argv);         /* run/cmd_run.c: a matrix of boots */
int cmd_resume(int argc, char **argv);
int cmd_boot(int argc, char **argv);        /* run/cmd_boot.c: boots of a prepared matrix; merge */
int cmd_merge(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_complete(int argc, char **argv);    /* main.c: bash completion */
int cmd_parse(int argc, char **argv);       /* cmd_parse.c: the serial protocol's lines of a log */
int cmd_field(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
struct opts;
struct verb_spec;
/* plot's work: PNG and SVG of o's directories into pdir (created), their PNG paths into pngs (may be NULL). */
int plot_into(struct opts *o, const char *pdir, FILE *pngs);
const struct verb_spec *plot_spec(void);
int cmd_failures(int argc, char **argv);
int cmd_seed_table(int argc, char **argv);
int cmd_trace(int argc, char **argv);        /* run/cmd_trace.c: one boot, traced; trace-png */
int cmd_trace_png(int argc, char **argv);
int cmd_trace_convert(int argc, char **argv); /* cmd_trace.c: a trace stream into its files */
int cmd_trace_check(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_html_table(int argc, char **argv);
int cmd_scorecard(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);  /* seeds/reproduce.c: a seed post end to end */   /* cmd_scorecard.c: a seed table beside ours, and its scorecard */

int cmd_report(int argc, char **argv);       /* cmd_report.c: report.html of results directories */
int cmd_repro_report(int argc, char **argv); /* cmd_repro_report.c: report.html of a reproduction */
int cmd_plan(int argc, char **argv);        /* cmd_progress.c: the boots a run will make */
int cmd_progress(int argc, char **argv);    /* cmd_progress.c: a status line with an ETA */
int cmd_bench_vsmp(int argc, char **argv);  /* run/cmd_bench_vsmp.c: a vsmp boot's host cost against a baseline */

#endif
