/* A prepared results directory (see matrix.h). */
#define _DEFAULT_SOURCE
#include "matrix.h"
#include "benchlist.h"
#include "pool.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The value of "KEY value" (line prefix key + space) in a text, NULL when none (allocated). */
static char *line_value(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t ll = nl ? (size_t)(nl - p) : strlen(p);
        if (ll > kl && !strncmp(p, key, kl) && p[kl] == ' ')
            return xstrndup(p + kl + 1, ll - kl - 1);
        p = nl ? nl + 1 : NULL;
    }
    return NULL;
}

static bool is_uint(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static char *abs_dir(const char *dir)
{
    char buf[PATH_MAX];
    return realpath(dir, buf) ? xstrdup(buf) : xstrdup(dir);
}

bool run_dir_load(const char *dir, struct run_dir *d)
{
    memset(d, 0, sizeof(*d));
    char *mp = xasprintf("%s/matrix.txt", dir), *jp = xasprintf("%s/jobs.txt", dir), *kd = xasprintf("%s/kernels", dir);
    size_t ml, jl;
    char *mt = read_file(mp, &ml), *jt = read_file(jp, &jl);
    struct stat st;
    bool ok = false;
    if (no_such_dir(dir, "results directory", "schedlab run ... --out DIR"))
        goto out;
    if (!mt || !jt) {
        errorf("%s: no matrix.txt and jobs.txt (not a directory of schedlab run)", dir);
        goto out;
    }
    if (stat(kd, &st) != 0 || !S_ISDIR(st.st_mode)) {
        errorf("%s/kernels: missing (the images to boot)", dir);
        goto out;
    }
    d->dir = abs_dir(dir);
    d->cmdline = line_value(mt, "cmdline");
    d->accel = line_value(mt, "accel");
    char *mem = line_value(mt, "mem"), *timeout = line_value(mt, "timeout");
    char *metap = xasprintf("%s/meta.txt", d->dir);
    size_t metal;
    char *meta = read_file(metap, &metal);
    /* older matrices: the rest from meta.txt */
    if (!mem && meta)
        mem = line_value(meta, "mem_mib:");
    if (!timeout && meta)
        timeout = line_value(meta, "timeout_s:");
    if (!d->cmdline)
        errorf("%s/matrix.txt: no cmdline line", d->dir);
    else if (d->accel && strcmp(d->accel, "tcg") && strcmp(d->accel, "kvm") && strcmp(d->accel, "icount") &&
             strcmp(d->accel, "vsmp"))
        errorf("%s/matrix.txt: accel %s", d->dir, d->accel);
    else if (!is_uint(mem))
        errorf("%s/matrix.txt: no mem line (and none in meta.txt)", d->dir);
    else if (!is_uint(timeout))
        errorf("%s/matrix.txt: no timeout line (and none in meta.txt)", d->dir);
    else
        ok = true;
    if (!d->accel)
        d->accel = xstrdup("tcg");
    if (ok) {
        d->mem = atol(mem);
        d->timeout = atol(timeout);
    }
    free(mem);
    free(timeout);
    /* the jobs */
    for (char *save = NULL, *l = ok ? strtok_r(jt, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        if (!*l || *l == '#')
            continue;
        char name[256], sched[64];
        long smp, boot;
        int used = 0;
        if (sscanf(l, "%255s %63s %ld %ld%n", name, sched, &smp, &boot, &used) < 4) {
            errorf("%s/jobs.txt: malformed line '%.80s'", d->dir, l);
            ok = false;
            break;
        }
        const char *extra = l + used;
        extra += strspn(extra, " ");
        d->jobs = xrealloc(d->jobs, (d->njobs + 1) * sizeof(*d->jobs));
        d->jobs[d->njobs++] = (struct run_job){ xstrdup(name), xstrdup(sched), xstrdup(extra), smp, boot };
        bool seen = false;
        for (size_t s = 0; s < d->nscheds; s++)
            seen |= !strcmp(d->scheds[s], sched);
        if (!seen) {
            d->scheds = xrealloc(d->scheds, (d->nscheds + 1) * sizeof(char *));
            d->scheds[d->nscheds++] = xstrdup(sched);
        }
    }
    /* the images, as meta.txt names them */
    for (size_t s = 0; ok && s < d->nscheds; s++) {
        char *elf = xasprintf("%s/kernels/%s.elf", d->dir, d->scheds[s]);
        char *key = xasprintf("kernel_image_%s:", d->scheds[s]);
        char *want = meta ? line_value(meta, key) : NULL;
        if (stat(elf, &st) != 0) {
            errorf("%s: missing", elf);
            ok = false;
        } else if (want && strstr(want, "sha256=")) {
            char *sum = file_sha256(elf);
            if (!sum || strcmp(sum, strstr(want, "sha256=") + 7)) {
                errorf("%s is not the image meta.txt names (sha256 differs)", elf);
                ok = false;
            }
            free(sum);
        }
        free(want);
        free(key);
        free(elf);
    }
    free(meta);
    free(metap);
out:
    free(mt);
    free(jt);
    free(mp);
    free(jp);
    free(kd);
    return ok;
}

void run_dir_free(struct run_dir *d)
{
    for (size_t i = 0; i < d->njobs; i++) {
        free(d->jobs[i].name);
        free(d->jobs[i].sched);
        free(d->jobs[i].extra);
    }
    for (size_t i = 0; i < d->nscheds; i++)
        free(d->scheds[i]);
    free(d->jobs);
    free(d->scheds);
    free(d->dir);
    free(d->cmdline);
    free(d->accel);
    free(d->trace_boot);
    free(d->trace_words);
    free(d->trace_out);
    memset(d, 0, sizeof(*d));
}

const struct run_job *run_dir_job(const struct run_dir *d, const char *name)
{
    for (size_t i = 0; i < d->njobs; i++)
        if (!strcmp(d->jobs[i].name, name))
            return &d->jobs[i];
    return NULL;
}

long rc_file_status(const char *path)
{
    size_t len;
    char *t = read_file(path, &len);
    long rc = -1;
    if (t && !strncmp(t, "rc=", 3)) {
        char *end;
        rc = strtol(t + 3, &end, 10);
        if (end == t + 3)
            rc = -1;
    }
    free(t);
    return rc;
}

size_t run_dir_todo(const struct run_dir *d, bool retry_failed, const struct run_job ***todo)
{
    size_t n = 0;
    *todo = xcalloc(d->njobs + 1, sizeof(**todo));
    for (size_t i = 0; i < d->njobs; i++) {
        char *rc = boot_file(d, &d->jobs[i], "rc");
        struct stat st;
        if (stat(rc, &st) != 0 || (retry_failed && rc_file_status(rc) != 0))
            (*todo)[n++] = &d->jobs[i];
        free(rc);
    }
    return n;
}

char *boot_file(const struct run_dir *d, const struct run_job *j, const char *ext)
{
    return xasprintf("%s/logs/%s.%s", d->dir, j->name, ext);
}

static bool traced(const struct run_dir *d, const struct run_job *j)
{
    return d->trace_boot && !strcmp(d->trace_boot, j->name);
}

void boot_argv(const struct run_dir *d, const struct run_job *j, struct argv *a)
{
    argv_addf(a, "%s/tools/qemu-run.sh", schedlab_root());
    argv_add(a, "--kernel");
    argv_addf(a, "%s/kernels/%s.elf", d->dir, j->sched);
    argv_add(a, "--smp");
    argv_addf(a, "%ld", j->smp);
    argv_add(a, "--mem");
    argv_addf(a, "%ld", d->mem);
    argv_add(a, "--accel");
    argv_add(a, d->accel);
    argv_add(a, "--timeout");
    argv_addf(a, "%ld", d->timeout);
    argv_add(a, "--cmdline");
    argv_addf(a, "%s%s%s%s%s", d->cmdline, j->extra[0] ? " " : "", j->extra, traced(d, j) ? " trace=1" : "",
              traced(d, j) && d->trace_words ? d->trace_words : "");
    if (traced(d, j)) {
        argv_add(a, "--trace-out");
        argv_add(a, d->trace_out);
    }
}

/* The word after KEY= in a text (the "run:" line of qemu-run.sh's stderr), allocated; NULL when none. */
static char *word_after(const char *text, const char *key)
{
    const char *p = text ? strstr(text, key) : NULL;
    return p ? xstrndup(p + strlen(key), strcspn(p + strlen(key), " \n")) : NULL;
}

bool boot_write_rc(const struct run_dir *d, const struct run_job *j, int rc, double t_start, double t_end)
{
    char *errp = boot_file(d, j, "err");
    size_t len;
    char *err = read_file(errp, &len);
    /* qemu-run.sh's "run: ... oversubscribed=yes|no" line */
    char *over = NULL;
    for (char *l = err; l && !over; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "run: ", 5)) {
            char *nl = strchr(l, '\n');
            char *line = nl ? xstrndup(l, (size_t)(nl - l)) : xstrdup(l);
            over = word_after(line, "oversubscribed=");
            free(line);
        }
    const char *env = getenv("SCHEDLAB_HOST");
    char host[256] = "";
    if (env && *env)
        snprintf(host, sizeof(host), "%s", env);
    else if (gethostname(host, sizeof(host) - 1) != 0)
        host[0] = 0;
    for (char *c = host; *c; c++)   /* as the script kept it: letters, digits, . _ - */
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("._-", *c)))
            memmove(c, c + 1, strlen(c)), c--;
    char *rcp = boot_file(d, j, "rc"), *part = xasprintf("%s.part", rcp);
    FILE *f = fopen(part, "w");
    bool ok = f && fprintf(f, "rc=%d wall_s=%ld oversubscribed=%s host=%s wall_ms=%ld\n", rc,
                           (long)(floor(t_end) - floor(t_start)), over ? over : "unknown", host[0] ? host : "unknown",
                           lround((t_end - t_start) * 1000)) > 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok)
        ok = rename(part, rcp) == 0;
    if (!ok)
        errorf("cannot write %s", rcp);
    free(part);
    free(rcp);
    free(over);
    free(err);
    free(errp);
    return ok;
}

char *boot_outcome(const struct run_dir *d, const char *name)
{
    char *rcp = xasprintf("%s/logs/%s.rc", d->dir, name);
    size_t len;
    char *t = read_file(rcp, &len);
    free(rcp);
    if (!t)
        return xstrdup("stopped before it finished");
    char *rcs = word_after(t, "rc="), *wall = word_after(t, "wall_s="), *host = word_after(t, "host=");
    char *what;
    if (rcs && !strcmp(rcs, "0")) {
        what = xstrdup("ok");
    } else {
        char *logp = xasprintf("%s/logs/%s.log", d->dir, name);
        size_t ll;
        char *log = read_file(logp, &ll);
        char *why = NULL;
        for (char *l = log; l && !why; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
            if (!strncmp(l, "panic:", 6) || !strncmp(l, "watchdog:", 9) || !strncmp(l, "error:", 6))
                why = xstrndup(l, strcspn(l, "\n") < 120 ? strcspn(l, "\n") : 120);
        what = xasprintf("FAILED (exit %s%s%s)", rcs && *rcs ? rcs : "none", why ? ": " : "", why ? why : "");
        free(why);
        free(log);
        free(logp);
    }
    char *out = xasprintf("%s in %s s%s%s", what, wall ? wall : "?", host ? " on " : "", host ? host : "");
    free(what);
    free(rcs);
    free(wall);
    free(host);
    free(t);
    return out;
}

int boot_run(const struct run_dir *d, const struct run_job *j)
{
    char *rcp = boot_file(d, j, "rc"), *part = xasprintf("%s.part", rcp);
    unlink(rcp);
    unlink(part);
    free(part);
    free(rcp);
    struct argv a = { 0 };
    boot_argv(d, j, &a);
    char *log = boot_file(d, j, "log"), *err = boot_file(d, j, "err");
    struct spawn_io io = { .out = log, .err = err, .own_group = true };
    double t0 = pool_now();
    pid_t pid = spawn_start(a.v, &io);
    argv_free(&a);
    int rc = pid < 0 ? 127 : spawn_wait(pid);
    double t1 = pool_now();
    if (pid >= 0 && rc != 130 && rc != 143)   /* stopped: no .rc, the boot is done again by resume */
        boot_write_rc(d, j, rc, t0, t1);
    free(log);
    free(err);
    return rc;
}
