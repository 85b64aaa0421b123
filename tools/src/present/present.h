/*
 * Pieces of output that table, compare and seed-table share: headings in
 * words, the lists of failed runs and failed boots, and how many decimals
 * a view's numbers get.
 */
#ifndef SCHEDLAB_PRESENT_H
#define SCHEDLAB_PRESENT_H

#include "table.h"
#include "view.h"

#include <stdbool.h>
#include <stdio.h>

const char *direction_words(const char *metric);   /* "lower is better"... */
/* s with <, >, & and " escaped for HTML text and attribute values. */
void html_escape(FILE *f, const char *s);
const char *across_heading(const char *name);      /* "number of groups"... */

/* "failed boots (see logs/<name>.log):" and one line per failed boot. */
void print_failed_boots(FILE *f, const struct table *boots, bool multi);
/* "runs not counted ...:" and one line per cell with failed runs. */
void print_cell_failures(FILE *f, const struct view *v, const struct table *t);

/* The mean of a cell's ok runs (NAN when none). */
double cell_mean(const struct cell *c);
/* x with that many decimals, or in %g form from 1e9 on (never hundreds of digits). */
char *fmt_number(double x, int decimals);
/* A cell as the table shows it: the mean, "0.227*" with failed runs, "FAILED", "-". */
char *cell_text(const struct cell *c, double value, int decimals);
/* Decimals of a view's means and standard deviations: three significant
 * digits for the smallest (at least 2, as in the seed's table). */
void view_decimals(const struct view *v, int *dec_mean, int *dec_sd);

#endif
