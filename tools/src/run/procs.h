/*
 * Running other programs: make, tools/qemu-run.sh, gnuplot, GNU parallel,
 * sbatch, chromium.  posix_spawn, never a shell: arguments are passed as
 * they are (a path with a space or a quote is one argument).  A boot runs
 * in a process group of its own so that stopping it stops QEMU too.
 */
#ifndef SCHEDLAB_PROCS_H
#define SCHEDLAB_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct spawn_io {
    const char *in;          /* stdin from this file; NULL: /dev/null */
    const char *out, *err;   /* stdout, stderr into these files (created or truncated); NULL: inherited */
    bool err_to_out;         /* stderr where stdout goes */
    bool append;             /* out and err appended to, not truncated */
    bool own_group;          /* a process group of its own (a boot: stop_group stops all of it) */
    const char *dir;         /* the directory it runs in; NULL: this one */
};

/* Starts argv[0] (looked up in PATH) with argv; returns its pid, or -1
 * after an error message. */
pid_t spawn_start(char *const argv[], const struct spawn_io *io);
/* Waits for pid; its exit status, 128 + the signal when a signal ended it, -1 when it cannot be waited for. */
int spawn_wait(pid_t pid);
/* The exit status of a wait status (as spawn_wait returns it). */
int spawn_status(int wstatus);
/* spawn_start and spawn_wait. */
int spawn_run(char *const argv[], const struct spawn_io *io);
/* Runs argv and returns its stdout (allocated, NUL-terminated; NULL when it
 * cannot be started); *rc gets its exit status. */
char *spawn_capture(char *const argv[], int *rc);
/* SIGTERM to a boot's process group (and to pid itself). */
void spawn_stop(pid_t pid);

/* A growable argv. */
struct argv {
    char **v;
    size_t n, cap;
};
void argv_add(struct argv *a, const char *s);
void argv_addf(struct argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void argv_free(struct argv *a);
/* The command as sh would need it typed (each word quoted when it must be): for meta.txt and messages. */
char *argv_shell(char *const argv[]);
char *sh_quote(const char *word);

/* The path of this program (/proc/self/exe), for running its own verbs. */
const char *self_exe(void);
/* The tree this program belongs to (the directory above tools/), or NULL. */
const char *schedlab_root(void);

#endif
