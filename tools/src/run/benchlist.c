/* A kernel image's bench=list, cached (see benchlist.h). */
#define _DEFAULT_SOURCE
#include "benchlist.h"
#include "proto.h"
#include "procs.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *file_sha256(const char *path)
{
    char *argv[] = { "sha256sum", (char *)path, NULL };
    int rc;
    char *out = spawn_capture(argv, &rc);
    if (!out || rc != 0 || strlen(out) < 64) {
        free(out);
        return NULL;
    }
    out[64] = 0;
    return out;
}

/* The cache is up to date when its first line names the image's checksum. */
static bool cache_fresh(const char *cache, const char *sum)
{
    size_t len;
    char *buf = read_file(cache, &len);
    if (!buf)
        return false;
    char *want = xasprintf("# sha256=%s\n", sum);
    bool ok = !strncmp(buf, want, strlen(want));
    free(want);
    free(buf);
    return ok;
}

/* The first "error:" or "panic:" line of a file, from after its first colon, at most 160 characters. */
static char *first_complaint(const char *path)
{
    size_t len;
    char *buf = read_file(path, &len);
    char *why = NULL;
    for (char *save = NULL, *l = buf ? strtok_r(buf, "\n", &save) : NULL; l && !why; l = strtok_r(NULL, "\n", &save))
        if (!strncmp(l, "error:", 6) || !strncmp(l, "panic:", 6))
            why = xasprintf("%.160s", strchr(l, ':') + 1);
    free(buf);
    return why;
}

struct list_check {
    bool done0, workload, bench_key;
    struct strbuf kept;
};
static void list_line(const char *line, size_t len, size_t no, bool cut, void *arg)
{
    (void)no;
    struct list_check *c = arg;
    if (cut)
        return;
    struct proto_line l;
    proto_parse(line, len, &l);
    if (l.kind == PROTO_DONE && streq(proto_get(&l, "exit"), "0"))
        c->done0 = true;
    if (l.kind == PROTO_WORKLOAD)
        c->workload = true;
    if (l.kind == PROTO_KEY && streq(proto_get(&l, "workload"), "kernel") && streq(proto_get(&l, "name"), "bench"))
        c->bench_key = true;
    if (l.kind == PROTO_WORKLOAD || l.kind == PROTO_KEY || l.kind == PROTO_TUNABLE || l.kind == PROTO_PRESET) {
        sb_addn(&c->kept, line, len);
        sb_add(&c->kept, "\n");
    }
    proto_line_free(&l);
}

char *bench_list_file(const char *image, const char *cache)
{
    char *sum = file_sha256(image);
    if (!sum) {
        errorf("cannot read %s", image);
        return NULL;
    }
    if (cache_fresh(cache, sum)) {
        free(sum);
        return xstrdup(cache);
    }
    /* a name of its own: two runs may ask about the same image at once; the last rename wins */
    char *raw = xasprintf("%s.boot.XXXXXX", cache);
    int fd = mkstemp(raw);
    if (fd < 0) {
        errorf("cannot create a file beside %s", cache);
        free(raw);
        free(sum);
        return NULL;
    }
    close(fd);
    char *rawerr = xasprintf("%s.err", raw), *qemu = xasprintf("%s/tools/qemu-run.sh", schedlab_root());
    char *argv[] = { qemu, "--kernel", (char *)image, "--smp", "1", "--mem", "64", "--timeout", "60",
                     "--cmdline", "bench=list", NULL };
    struct spawn_io io = { .out = raw, .err = rawerr };
    int rc = spawn_run(argv, &io);
    size_t len = 0;
    char *text = read_file(raw, &len);
    struct list_check c = { 0 };
    if (text)
        proto_each_line(text, len, list_line, &c);
    char *result = NULL;
    if (rc != 0 || !c.done0 || !c.workload || !c.bench_key) {
        char *why = first_complaint(raw);
        if (!why)
            why = first_complaint(rawerr);
        errorf("cannot read the workloads and keys of %s: bench=list exited %d%s%s (tools/qemu-run.sh --kernel %s "
               "--smp 1 --cmdline bench=list)", image, rc, why ? ":" : "", why ? why : "", image);
        free(why);
    } else {
        char *part = xasprintf("%s.part", raw);
        FILE *f = fopen(part, "w");
        bool ok = f && fprintf(f, "# sha256=%s\n%s", sum, c.kept.s ? c.kept.s : "") >= 0;
        if (f && fclose(f) != 0)
            ok = false;
        if (ok && rename(part, cache) == 0)
            result = xstrdup(cache);
        else {
            unlink(part);
            errorf("cannot write %s", cache);
        }
        free(part);
    }
    unlink(raw);
    unlink(rawerr);
    sb_free(&c.kept);
    free(text);
    free(qemu);
    free(rawerr);
    free(raw);
    free(sum);
    return result;
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static void load_line(const char *line, size_t len, size_t no, bool cut, void *arg)
{
    (void)no;
    (void)cut;
    struct bench_list *bl = arg;
    struct proto_line l;
    proto_parse(line, len, &l);
    if (l.kind == PROTO_WORKLOAD && proto_get(&l, "name")) {
        bl->workloads = xrealloc(bl->workloads, (bl->nworkloads + 1) * sizeof(char *));
        bl->workloads[bl->nworkloads++] = xstrdup(proto_get(&l, "name"));
    } else if (l.kind == PROTO_KEY && proto_get(&l, "workload") && proto_get(&l, "name")) {
        bl->keys = xrealloc(bl->keys, (bl->nkeys + 1) * sizeof(*bl->keys));
        bl->keys[bl->nkeys++] = (struct bl_key){
            xstrdup(proto_get(&l, "workload")), xstrdup(proto_get(&l, "name")), dup_or_null(proto_get(&l, "type")),
            dup_or_null(proto_get(&l, "default")), dup_or_null(proto_get(&l, "min")), dup_or_null(proto_get(&l, "max")),
            dup_or_null(proto_get(&l, "choices")), dup_or_null(proto_get(&l, "max_values")),
        };
    } else if (l.kind == PROTO_TUNABLE && proto_get(&l, "sched") && proto_get(&l, "name")) {
        bl->tunables = xrealloc(bl->tunables, (bl->ntunables + 1) * sizeof(*bl->tunables));
        bl->tunables[bl->ntunables++] = (struct bl_tunable){ xstrdup(proto_get(&l, "sched")), xstrdup(proto_get(&l, "name")),
                                                             dup_or_null(proto_get(&l, "min")),
                                                             dup_or_null(proto_get(&l, "max")) };
    } else if (l.kind == PROTO_PRESET && proto_get(&l, "sched") && proto_get(&l, "name")) {
        bl->presets = xrealloc(bl->presets, (bl->npresets + 1) * sizeof(*bl->presets));
        bl->presets[bl->npresets++] = (struct bl_preset){ xstrdup(proto_get(&l, "sched")), xstrdup(proto_get(&l, "name")) };
    }
    proto_line_free(&l);
}

bool bench_list_load(const char *path, struct bench_list *bl)
{
    memset(bl, 0, sizeof(*bl));
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return false;
    proto_each_line(text, len, load_line, bl);
    free(text);
    return true;
}

void bench_list_free(struct bench_list *bl)
{
    for (size_t i = 0; i < bl->nworkloads; i++)
        free(bl->workloads[i]);
    for (size_t i = 0; i < bl->nkeys; i++) {
        struct bl_key *k = &bl->keys[i];
        free(k->owner), free(k->name), free(k->type), free(k->def), free(k->min), free(k->max), free(k->choices),
            free(k->max_values);
    }
    for (size_t i = 0; i < bl->ntunables; i++)
        free(bl->tunables[i].sched), free(bl->tunables[i].name), free(bl->tunables[i].min), free(bl->tunables[i].max);
    for (size_t i = 0; i < bl->npresets; i++)
        free(bl->presets[i].sched), free(bl->presets[i].name);
    free(bl->workloads);
    free(bl->keys);
    free(bl->tunables);
    free(bl->presets);
    memset(bl, 0, sizeof(*bl));
}

const struct bl_key *bench_list_key(const struct bench_list *bl, const char *owner, const char *name)
{
    for (size_t i = 0; i < bl->nkeys; i++)
        if (!strcmp(bl->keys[i].owner, owner) && !strcmp(bl->keys[i].name, name))
            return &bl->keys[i];
    return NULL;
}

bool bench_list_has_workload(const struct bench_list *bl, const char *name)
{
    for (size_t i = 0; i < bl->nworkloads; i++)
        if (!strcmp(bl->workloads[i], name))
            return true;
    return false;
}

char *bench_list_names(const struct bench_list *bl, const char *what, const char *owner)
{
    struct strbuf b = { 0 };
#define ADD(s)                        \
    do {                              \
        if (b.len)                    \
            sb_add(&b, " ");          \
        sb_add(&b, s);                \
    } while (0)
    if (!strcmp(what, "workload"))
        for (size_t i = 0; i < bl->nworkloads; i++)
            ADD(bl->workloads[i]);
    else if (!strcmp(what, "key"))
        for (size_t i = 0; i < bl->nkeys; i++) {
            if (!strcmp(bl->keys[i].owner, owner))
                ADD(bl->keys[i].name);
        }
    else if (!strcmp(what, "tunable"))
        for (size_t i = 0; i < bl->ntunables; i++) {
            if (!strcmp(bl->tunables[i].sched, owner))
                ADD(bl->tunables[i].name);
        }
    else if (!strcmp(what, "preset"))
        for (size_t i = 0; i < bl->npresets; i++) {
            if (!strcmp(bl->presets[i].sched, owner))
                ADD(bl->presets[i].name);
        }
#undef ADD
    return b.s ? b.s : xstrdup("");
}
