/* Building kernel images (see build.h). */
#define _DEFAULT_SOURCE
#include "build.h"
#include "procs.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void build_settings_init(struct build_settings *b)
{
    const char *hz = getenv("HZ"), *lock = getenv("LOCK"), *cx = getenv("CFLAGS_EXTRA"), *caches = getenv("CACHES");
    b->hz = BUILD_HZ_DEFAULT;
    if (hz && *hz && !parse_long(hz, &b->hz))
        b->hz = -1;
    b->caches = !caches || !*caches || !strcmp(caches, "0") ? 0
                : !strcmp(caches, "1")                       ? 1
                : !strcmp(caches, "host")                    ? BUILD_CACHES_HOST
                                                             : -1;
    b->lock = xstrdup(lock && *lock ? lock : BUILD_LOCK_DEFAULT);
    b->cflags_extra = xstrdup(cx ? cx : "");
}

void build_settings_free(struct build_settings *b)
{
    free(b->lock);
    free(b->cflags_extra);
    b->lock = b->cflags_extra = NULL;
}

bool build_is_default(const struct build_settings *b)
{
    return b->hz == BUILD_HZ_DEFAULT && !strcmp(b->lock, BUILD_LOCK_DEFAULT) && !b->cflags_extra[0] && !b->caches;
}

char *build_settings_text(const struct build_settings *b)
{
    const char *caches = b->caches == 1 ? " CACHES=1" : b->caches == BUILD_CACHES_HOST ? " CACHES=host" : "";
    return b->cflags_extra[0] ? xasprintf("HZ=%ld LOCK=%s%s CFLAGS_EXTRA=%s", b->hz, b->lock, caches, b->cflags_extra)
                              : xasprintf("HZ=%ld LOCK=%s%s", b->hz, b->lock, caches);
}

int tree_lock(void)
{
    const char *root = schedlab_root();
    if (!root)
        return -1;
    char *dir = xasprintf("%s/build", root), *path = xasprintf("%s/build/.lock", root);
    mkdir(dir, 0755);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
    free(dir);
    free(path);
    return fd;
}

void tree_unlock(int fd)
{
    if (fd >= 0)
        close(fd);
}

static void make_argv(struct argv *a, const struct build_settings *b, const char *sched, const char *target)
{
    argv_add(a, "make");
    argv_add(a, "-s");
    argv_add(a, "--no-print-directory");
    argv_add(a, "-C");
    argv_add(a, schedlab_root());
    if (sched)
        argv_addf(a, "SCHED=%s", sched);
    if (b) {
        argv_addf(a, "HZ=%ld", b->hz);
        argv_addf(a, "LOCK=%s", b->lock);
        argv_addf(a, "CFLAGS_EXTRA=%s", b->cflags_extra);
        argv_add(a, b->caches == 1 ? "CACHES=1" : b->caches == BUILD_CACHES_HOST ? "CACHES=host" : "CACHES=0");
    }
    argv_add(a, target);
}

int make_config(const struct build_settings *b, const char *sched, const char *target, const char *log)
{
    struct argv a = { 0 };
    make_argv(&a, b, sched, target);
    struct spawn_io io = { .out = log, .err_to_out = log != NULL };
    int rc = spawn_run(a.v, &io);
    argv_free(&a);
    return rc;
}

/* The first line of what make printed, trailing blanks off (allocated), NULL after an error. */
static char *make_line(const struct build_settings *b, const char *sched, const char *target)
{
    struct argv a = { 0 };
    make_argv(&a, b, sched, target);
    int rc;
    char *out = spawn_capture(a.v, &rc);
    argv_free(&a);
    if (!out || rc != 0) {
        free(out);
        return NULL;
    }
    out[strcspn(out, "\n")] = 0;
    size_t n = strlen(out);
    while (n && (out[n - 1] == ' ' || out[n - 1] == '\t'))
        out[--n] = 0;
    return out;
}

static char **list_words(const char *target)
{
    char *line = make_line(NULL, NULL, target);
    if (!line)
        return NULL;
    char **v = NULL;
    size_t n = 0, cap = 0;
    for (char *save = NULL, *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        grow(&v, &cap, n + 1, sizeof(*v));
        v[n++] = xstrdup(w);
    }
    grow(&v, &cap, n + 1, sizeof(*v));
    v[n] = NULL;
    free(line);
    return v;
}

char **list_scheds(void)
{
    return list_words("list-scheds");
}

char **list_machines(void)
{
    return list_words("list-machines");
}

char *build_dir(const struct build_settings *b, const char *sched)
{
    char *rel = make_line(b, sched, "print-build");
    if (!rel)
        return NULL;
    char *dir = xasprintf("%s/%s", schedlab_root(), rel);
    free(rel);
    return dir;
}

bool build_image(const struct build_settings *b, const char *sched, const char *dest, const char *log)
{
    char *settings = build_settings_text(b);
    fprintf(stderr, "schedlab: building SCHED=%s %s\n", sched, settings);
    free(settings);
    char *dir = build_dir(b, sched);
    if (!dir) {
        errorf("make print-build failed for SCHED=%s", sched);
        return false;
    }
    int fd = tree_lock();
    int rc = make_config(b, sched, "kernel", log);
    bool ok = rc == 0;
    char *elf = xasprintf("%s/kernel.elf", dir), *flags = xasprintf("%s/kernel.flags", dir);
    size_t dl = strlen(dest);
    char *dflags = dl > 4 && !strcmp(dest + dl - 4, ".elf") ? xasprintf("%.*s.flags", (int)(dl - 4), dest)
                                                            : xasprintf("%s.flags", dest);
    if (ok && (!copy_file(elf, dest) || !copy_file(flags, dflags)))
        ok = false;
    /* CACHES=host: the link map too (model=host's plugin takes its address ranges from it: tools/qemu-run.sh reads
     * kernel.map beside the kernel it boots) */
    if (ok && b->caches == BUILD_CACHES_HOST) {
        char *map = xasprintf("%s/kernel.map", dir);
        char *dmap = dl > 4 && !strcmp(dest + dl - 4, ".elf") ? xasprintf("%.*s.map", (int)(dl - 4), dest)
                                                              : xasprintf("%s.map", dest);
        if (!copy_file(map, dmap)) {
            errorf("cannot copy %s (make writes the link map beside kernel.elf)", map);
            ok = false;
        }
        free(map), free(dmap);
    }
    tree_unlock(fd);
    if (!ok) {
        size_t len;
        char *text = read_file(log, &len);
        if (text) {   /* the last 20 lines */
            const char *p = text + len;
            for (int lines = 0; p > text && lines <= 20; p--)
                if (p[-1] == '\n')
                    lines++;
            fputs(p, stderr);
            free(text);
        }
        errorf("make SCHED=%s kernel failed (log: %s)", sched, log);
    }
    free(elf);
    free(flags);
    free(dflags);
    free(dir);
    return ok;
}
