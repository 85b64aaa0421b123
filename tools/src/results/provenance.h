/*
 * Provenance: where and how each run was made, and whether two sets of
 * runs may be compared at all.
 *
 * collect puts into every row of results.csv, boots.csv and schedstat.csv
 * what DIR/meta.txt says of the matrix (git_revision, accel, mem_mib, qemu,
 * date, host, every KEY=VALUE of its "build:" line as build_<key>, and the
 * hash of the scheduler's exact compiler flags as kernel_flags) and every
 * key=value of the boot's own "boot:" line as boot_<key> (hz, lock,
 * mem_mib, accel... and whatever fields the kernel adds later).
 *
 * comparability_check() is what table, compare, plot and json run before
 * they put two series side by side: every provenance column and every
 * workload parameter that is not a dimension of the view (the compared
 * axis, the column across, the blocks) must have the same values in every
 * series, or the verb refuses with the list of differences.
 */
#ifndef SCHEDLAB_PROVENANCE_H
#define SCHEDLAB_PROVENANCE_H

#include "table.h"
#include "util.h"
#include "view.h"

#include <stdbool.h>
#include <stddef.h>

struct kvlist {
    size_t n;
    char **key, **value;
};
void kvl_set(struct kvlist *l, const char *key, const char *value);   /* replaces an existing key */
const char *kvl_get(const struct kvlist *l, const char *key);
void kvl_free(struct kvlist *l);

/* DIR/meta.txt (written by tools/schedlab run). */
struct meta {
    struct kvlist common;    /* provenance of every row */
    struct kvlist flags;     /* scheduler -> kernel_flags hash */
};
/* Reads DIR/meta.txt; false (and an empty meta) when there is none. */
bool meta_read(const char *dir, struct meta *m);
void meta_free(struct meta *m);
/* The provenance columns of a row of scheduler sched (common + kernel_flags). */
void meta_row_provenance(const struct meta *m, const char *sched, struct kvlist *out);

/* Every key=value of a "boot: ..." line except cpus and sched, as boot_<key>. */
void boot_line_provenance(const char *boot_line, struct kvlist *out);

/* Sets every pair of l in row r of t. */
void table_set_kvlist(struct table *t, size_t r, const struct kvlist *l);

/* The comparability check of one view.  series_col: the compared axis
 * ("sched" or "source"); allow: a comma list of keys that may differ
 * (--allow-diff), or NULL.  Returns NULL when the series are comparable
 * (then *note, if not NULL, is an allocated line naming the allowed
 * differences, or NULL), otherwise an allocated message that lists every
 * difference. */
char *comparability_check(const struct view *v, const struct table *t, const char *series_col, const char *allow,
                          char **note);

/* What table, compare and plot do first for each workload: view_build, then,
 * when the view found a metric, comparability_check of its series ("source"
 * across several results directories, "sched" within one).  Returns NULL or
 * the first message of the two; *note as comparability_check's. */
char *view_build_comparable(struct view *v, const struct table *t, const char *bench, const struct view_options *o,
                            bool several_dirs, const char *allow, char **note);

#endif
