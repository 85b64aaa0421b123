/*
 * Progress of the verbs that boot (run, reproduce, seed-table, trace,
 * stress): a plan of the boots to come, a status line with an ETA, and the
 * record of every boot's wall time that the next ETA is made of.
 *
 * A plan is a text file, one boot a line, tab-separated:
 *   DONE  START  SLOTS  KEY
 * DONE is the file whose appearance says the boot ended (run: logs/NAME.rc),
 * START the file that appears when it starts (logs/NAME.log), SLOTS the
 * host cores it takes (1 under vsmp and icount, its vCPUs under TCG), and
 * KEY what decides its length (boot_key()).
 *
 * The record of boot times (build/boot-times.txt, and the committed
 * tools/boot-times.txt a fresh clone starts from, as tests/script-times.txt
 * does for the suite) has one line per finished boot:
 *   boot WALL_S DATE KEY
 * and one line per whole run of a plan whose boots all ended well (what a
 * verb takes besides its boots: builds, bench=list, scoring, plots):
 *   run WALL_S DATE PLAN-HASH LABEL
 * An ETA is the recorded time of each boot still to run (the median of its
 * key's last five), scaled by how this run's finished boots compare with
 * their records, spread over the slots; and never less than what is left
 * of the plan's last recorded whole run.
 */
#ifndef SCHEDLAB_PROGRESS_H
#define SCHEDLAB_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

/* "accel=vsmp mem=256 smp=2 sched=cfs23 " then the kernel's command-line
 * words sorted, runs=1 (the default) left out: the same boot, however its
 * words were ordered or given.  Allocated. */
char *boot_key(const char *accel, long mem, long smp, const char *sched, const char *const *words, size_t nwords);

struct plan_boot {
    char *done, *start, *key;
    long slots;
    bool done_before;       /* its DONE file was there when the watch began: not this run's */
    bool seen_start, finished, recorded;
    double t_start, t_end;  /* seconds since the watch began (observed) */
    double wall;            /* the boot's own wall time (DONE's wall_s=), or observed */
    double est;             /* the recorded estimate, NAN when none */
};

struct plan {
    struct plan_boot *b;
    size_t n, cap;
};

/* Reads a plan file (appends to p); false when it cannot be read. */
bool plan_read(const char *path, struct plan *p);
void plan_free(struct plan *p);
/* The plan's boots of this run (not done_before), as a hash of their sorted keys: the same
 * plan however its rows were ordered.  Allocated. */
char *plan_hash(const struct plan *p);

/* The recorded times: key -> the last few wall times (rc 0). */
struct times {
    char **key;
    char **last_note;       /* the latest record's DATE and, for a run, its LABEL */
    double (*last)[5];
    size_t *count;          /* times recorded for the key (the last 5 kept) */
    size_t n, cap;
};
void times_read(const char *path, struct times *t);   /* a missing file is no record */
void times_free(struct times *t);
/* The median of the key's last five, NAN when the key was never recorded. */
double times_lookup(const struct times *t, const char *key);
/* The latest record's "DATE LABEL" of the key, NULL when none. */
const char *times_note(const struct times *t, const char *key);
/* Appends one line; false when the file cannot be written. */
bool times_append(const char *path, double wall, const char *key);

/* A whole run of a plan: "run WALL_S DATE HASH LABEL", looked up as "run:HASH". */
bool times_append_run(const char *path, double wall, const char *hash, const char *label);

/* m:ss (h:mm:ss from an hour) into buf. */
void fmt_duration(char *buf, size_t n, double seconds);

struct eta {
    size_t total, done, running, unknown;   /* boots of this run; unknown: neither record nor this run's mean */
    double seconds;                          /* NAN when nothing is known */
    double factor;                           /* this host now against the records (1: no evidence) */
    bool from_records, from_run;             /* where the estimates came from */
};
/* The ETA at now (seconds since the watch began) over slots host cores. */
void plan_eta(const struct plan *p, double now, long slots, struct eta *e);

#endif
