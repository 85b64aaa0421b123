/*
 * Reading results directories: DIR/results.csv (or a CSV file given
 * directly), DIR/boots.csv and DIR/matrix.txt, for every verb that reads
 * data.  Nothing here trusts a file: a malformed one gives "error: ...".
 */
#ifndef SCHEDLAB_LOAD_H
#define SCHEDLAB_LOAD_H

#include "cli.h"
#include "table.h"
#include "view.h"

#include <stdbool.h>
#include <stddef.h>

/* DIR/matrix.txt, written by tools/schedlab run: "cmdline <kernel words>",
 * "sweep <keys the kernel sweeps in one boot>", "sweep_boots <key=list...>". */
struct matrix {
    char *cmdline;
    bool sweep_known;        /* a "sweep" line was there */
    char **sweep;            /* in-boot sweep keys, then the boot-swept keys */
    size_t nsweep, nkernel;  /* nkernel: how many of them the kernel sweeps */
};

bool read_matrix(const char *dir, struct matrix *m);   /* false when DIR/matrix.txt cannot be read */
void matrix_free(struct matrix *m);
/* Appends key[0..len) to *list unless it is there. */
void add_key(char ***list, size_t *n, const char *key, size_t len);

/* DIR is a results directory (has results.csv) or a file; false after the one error every verb gives. */
bool results_dir_ok(const char *dir);

/* Reads every directory of o into t (with a "source" column: the
 * directory's label) and, when boots is not NULL, their boots.csv into
 * boots; learns the swept keys from their matrix.txt.  Returns 0 or an exit
 * status (after an "error: ..." line). */
int load(struct opts *o, struct table *t, struct table *boots);

/* The workloads to show: --bench, or all of them (free the array). */
const char **selected_benches(const struct opts *o, const struct table *t, size_t *n);
/* The view options that follow from the command line and the matrices. */
struct view_options view_opts(const struct opts *o);

#endif
