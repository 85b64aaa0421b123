/*
 * What a kernel image can run: its answer to bench=list (docs/workloads.md,
 * the workload, key, tunable and preset lines of docs/protocol.md), asked
 * once per image and cached beside it keyed by the image's sha256, so that
 * a rebuilt image is asked again.  An image that cannot say is an error,
 * never a silent skip.  run checks every flag against it before anything
 * boots.
 */
#ifndef SCHEDLAB_BENCHLIST_H
#define SCHEDLAB_BENCHLIST_H

#include <stdbool.h>
#include <stddef.h>

struct bl_key {
    char *owner, *name, *type, *def, *min, *max, *choices, *max_values;
};
struct bl_tunable {
    char *sched, *name, *min, *max;
};
struct bl_preset {
    char *sched, *name;
};
struct bench_list {
    char **workloads;
    size_t nworkloads;
    struct bl_key *keys;
    size_t nkeys;
    struct bl_tunable *tunables;
    size_t ntunables;
    struct bl_preset *presets;
    size_t npresets;
};

/* The sha256 of a file (64 hex digits, allocated), NULL when it cannot be read. */
char *file_sha256(const char *path);
/* The file that holds image's bench=list: cache when it is up to date, else
 * the image is booted once and cache rewritten.  Allocated; NULL after an
 * error message. */
char *bench_list_file(const char *image, const char *cache);
bool bench_list_load(const char *path, struct bench_list *bl);
void bench_list_free(struct bench_list *bl);
const struct bl_key *bench_list_key(const struct bench_list *bl, const char *owner, const char *name);
bool bench_list_has_workload(const struct bench_list *bl, const char *name);
/* The workloads, or owner's keys, or sched's tunables or presets, as "a b c" (allocated). */
char *bench_list_names(const struct bench_list *bl, const char *what, const char *owner);

#endif
