/* The verbs of schedlab-tool, one file each (cmd_<verb>.c); main.c dispatches. */
#ifndef SCHEDLAB_CMDS_H
#define SCHEDLAB_CMDS_H

int cmd_collect(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_failures(int argc, char **argv);
int cmd_seed_table(int argc, char **argv);
int cmd_trace(int argc, char **argv);        /* cmd_trace.c */
int cmd_trace_check(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_html_table(int argc, char **argv);
int cmd_scorecard(int argc, char **argv);   /* cmd_scorecard.c: a seed table beside ours, and its scorecard */

int cmd_report(int argc, char **argv);       /* cmd_report.c: report.html of results directories */
int cmd_repro_report(int argc, char **argv); /* cmd_repro_report.c: report.html of a reproduction */
int cmd_plan(int argc, char **argv);        /* cmd_progress.c: the boots a run will make */
int cmd_progress(int argc, char **argv);    /* cmd_progress.c: a status line with an ETA */

#endif
