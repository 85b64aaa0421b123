/*
 * Building the kernel images a run boots, through the tree's Makefile:
 * each configuration (HZ, LOCK, CFLAGS_EXTRA) in its own build directory
 * (make print-build), serialised with every other builder of the tree
 * (build/.lock, as tests/lib.sh and tools/stress.sh take it), and copied
 * with its flags so that a rebuild by someone else cannot change an image
 * in the middle of a matrix.
 */
#ifndef SCHEDLAB_BUILD_H
#define SCHEDLAB_BUILD_H

#include <stdbool.h>
#include <stddef.h>

struct build_settings {
    long hz;                 /* make HZ= (the Makefile's default 1000) */
    char *lock;              /* make LOCK= (tas) */
    char *cflags_extra;      /* make CFLAGS_EXTRA= ("") */
    int caches;              /* make CACHES= (0; 1: the memory model's instrumented build, docs/caches.md;
                                BUILD_CACHES_HOST: CACHES=host, the kernel that takes model=host, "The host model") */
};
#define BUILD_CACHES_HOST 2
#define BUILD_HZ_DEFAULT 1000
#define BUILD_LOCK_DEFAULT "tas"

/* The environment's HZ, LOCK, CFLAGS_EXTRA and CACHES, else the Makefile's defaults (HZ not a number, CACHES
 * not 0, 1 or host: -1). */
void build_settings_init(struct build_settings *b);
void build_settings_free(struct build_settings *b);
bool build_is_default(const struct build_settings *b);
/* "HZ=1000 LOCK=tas", " CACHES=1" or " CACHES=host" when it is, " CFLAGS_EXTRA=..." when there are any (allocated). */
char *build_settings_text(const struct build_settings *b);

/* The tree's schedulers (make list-scheds), NULL-terminated, allocated; NULL after an error. */
char **list_scheds(void);
/* The memory model's machine presets (make list-machines: kernel/machine/presets.c), as list_scheds. */
char **list_machines(void);
/* make -s -C ROOT SCHED=s HZ= LOCK= CFLAGS_EXTRA= CACHES= TARGET, its output into log
 * (NULL: captured and returned in *out when out is given); its exit status. */
int make_config(const struct build_settings *b, const char *sched, const char *target, const char *log);
/* ROOT/<make print-build> for sched (allocated), NULL after an error. */
char *build_dir(const struct build_settings *b, const char *sched);
/* Builds sched under build/.lock and copies its image to dest (an .elf) and
 * its flags beside it (.flags for .elf; CACHES=host: its link map too, .map);
 * make's output into log.  false after an error message (the log's tail). */
bool build_image(const struct build_settings *b, const char *sched, const char *dest, const char *log);

/* Takes build/.lock of the tree (blocking); returns its fd (-1 when it cannot be had). */
int tree_lock(void);
void tree_unlock(int fd);

#endif
