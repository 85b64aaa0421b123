/* A run: flags, checks, the images, the results directory, the boots (see runreq.h). */
#define _GNU_SOURCE
#include "runreq.h"
#include "benchlist.h"
#include "cli.h"
#include "cmds.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- small helpers */

static bool is_uint(const char *s)
{
    if (!s || !*s || strlen(s) > 12)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* "1,2,4" with no empty value */
static bool is_uint_list(const char *s)
{
    if (!s || !*s || *s == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,"))
        return false;
    for (; *s; s++)
        if ((*s < '0' || *s > '9') && *s != ',')
            return false;
    return true;
}

static bool name_chars(const char *s, const char *extra)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || (extra && strchr(extra, *s))))
            return false;
    return true;
}

/* X within lo..hi: a decimal integer, optionally signed */
static bool in_range(const char *x, long long lo, long long hi)
{
    const char *d = x && *x == '-' ? x + 1 : x;
    if (!is_uint(d))
        return false;
    long long v = strtoll(x, NULL, 10);
    return v >= lo && v <= hi;
}

static char **split_list(const char *s, const char *sep, size_t *n)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    char *copy = xstrdup(s ? s : "");
    for (char *save = NULL, *w = strtok_r(copy, sep, &save); w; w = strtok_r(NULL, sep, &save)) {
        grow(&v, &cap, *n + 1, sizeof(*v));
        v[(*n)++] = xstrdup(w);
    }
    grow(&v, &cap, *n + 1, sizeof(*v));
    v[*n] = NULL;
    free(copy);
    return v;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void set_str(char **slot, const char *v)
{
    free(*slot);
    *slot = v ? xstrdup(v) : NULL;
}

static void append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(char **s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *add = NULL;
    if (vasprintf(&add, fmt, ap) < 0)
        add = NULL;
    va_end(ap);
    char *n = xasprintf("%s%s", *s ? *s : "", add ? add : "");
    free(*s);
    free(add);
    *s = n;
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool dir_empty(const char *p)
{
    DIR *d = opendir(p);
    if (!d)
        return true;
    struct dirent *e;
    bool empty = true;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            empty = false;
    closedir(d);
    return empty;
}

static int rm_rf(const char *path)
{
    char *argv[] = { "rm", "-rf", (char *)path, NULL };
    return spawn_run(argv, NULL);
}

static bool move_file(const char *from, const char *to)
{
    if (rename(from, to) == 0)
        return true;
    if (errno == EXDEV && copy_file(from, to)) {
        unlink(from);
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------- the request */

void run_req_init(struct run_req *r)
{
    memset(r, 0, sizeof(*r));
    r->smps = xstrdup("1");
    r->accel = xstrdup("tcg");
    r->runs = 1;
    r->boots = 1;
    r->mem = 256;
    r->timeout = 600;
    r->engine = ENGINE_LOCAL;
    build_settings_init(&r->build);
}

void run_req_free(struct run_req *r)
{
    free(r->scheds), free(r->smps), free(r->bench), free(r->accel), free(r->out);
    for (size_t i = 0; i < r->nparams; i++)
        free(r->params[i].key), free(r->params[i].value), free(r->params[i].how);
    free(r->params);
    free(r->hosts), free(r->sbatch_args), free(r->resume), free(r->matrix_flags), free(r->novalue);
    free(r->trace_boot), free(r->trace_words), free(r->trace_dir), free(r->trace_tool_args), free(r->command);
    free_list(r->sched_list, r->nsched_list);
    free(r->smp_list);
    build_settings_free(&r->build);
    memset(r, 0, sizeof(*r));
}

char *expand_groups(const char *value)
{
    const char *colon = strchr(value, ':');
    if (!colon)
        return xstrdup(value);
    char *inc_s = xstrndup(value, (size_t)(colon - value));
    const char *max_s = colon + 1;
    long inc = 0, max = 0;
    bool ok = is_uint(inc_s) && is_uint(max_s) && (inc = atol(inc_s)) >= 1 && (max = atol(max_s)) >= inc;
    free(inc_s);
    if (!ok) {
        verb_usage_error("groups %s: expected INCREMENT:MAXIMUM (e.g. 25:200), both numbers, 1 <= INCREMENT <= MAXIMUM",
                         value);
        return NULL;
    }
    if (max / inc > 64) {
        verb_usage_error("groups %s: %ld values, at most 64", value, max / inc);
        return NULL;
    }
    char *out = NULL;
    for (long v = inc; v <= max; v += inc)
        append(&out, "%s%ld", out ? "," : "", v);
    return out;
}

/* A trace key of run (trace_events=, trace_buf_kib=): for the traced boot only.  1 when it was one, -1 after an error. */
static int trace_param(struct run_req *r, const char *key, const char *val, const char *how)
{
    if (!strcmp(key, "trace")) {
        verb_usage_error("%s: tracing is turned on for one boot with --trace-boot NAME (schedlab trace for a single boot)",
                         how);
        return -1;
    }
    if (strcmp(key, "trace_events") && strcmp(key, "trace_buf_kib"))
        return 0;
    char *word = xasprintf(" %s=", key);
    if (r->trace_words && strstr(r->trace_words, word)) {
        free(word);
        char *flag = xstrdup(key);
        for (char *c = flag; *c; c++)
            if (*c == '_')
                *c = '-';
        verb_usage_error("--%s given twice", flag);
        free(flag);
        return -1;
    }
    free(word);
    if (!name_chars(val, ",ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
        verb_usage_error("%s: expected letters, digits, '_' and ','", how);
        return -1;
    }
    append(&r->trace_words, " %s=%s", key, val);
    return 1;
}

/* One kernel word; a key given twice is an error.  0 or EXIT_USAGE. */
static int add_param(struct run_req *r, const char *key, const char *val, const char *how)
{
    int t = trace_param(r, key, val, how);
    if (t)
        return t < 0 ? EXIT_USAGE : 0;
    for (size_t i = 0; i < r->nparams; i++)
        if (!strcmp(r->params[i].key, key))
            return verb_usage_error("--%s given twice", key);
    if (!strcmp(key, "bench") || !strcmp(key, "runs"))
        return verb_usage_error("%s: use --%s", how, key);
    if (!*val || !name_chars(val, "ABCDEFGHIJKLMNOPQRSTUVWXYZ.,:-"))
        return verb_usage_error("%s: the value must be letters, digits and _.,:-", how);
    char *v = !strcmp(key, "groups") && strchr(val, ':') ? expand_groups(val) : xstrdup(val);
    if (!v)
        return EXIT_USAGE;
    r->params = xrealloc(r->params, (r->nparams + 1) * sizeof(*r->params));
    r->params[r->nparams++] = (struct run_param){ xstrdup(key), v, xstrdup(how) };
    return 0;
}

const char *const run_flags[] = {
    "sched", "smp", "bench", "runs", "boots", "jobs", "accel", "mem", "timeout", "hz", "lock", "cflags-extra",
    "caches", "engine", "hosts", "sbatch-args", "force", "out", "quiet", "groups", "set", "trace-boot", "trace-events",
    "trace-buf-kib", "resume", "retry-failed", "help", NULL,
};

int run_req_parse(struct run_req *r, int argc, char **argv, bool *help)
{
    *help = false;
    const char *me = getenv("SCHEDLAB_ARGV0");
    r->command = xasprintf("%s %s", me && *me ? me : "schedlab", argv[0]);
    for (int i = 1; i < argc; i++) {
        char *q = sh_quote(argv[i]);
        append(&r->command, " %s", q);
        free(q);
    }
    for (int i = 1; i < argc; i++) {
        char *opt, *val = NULL;
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        if (!strncmp(a, "--", 2) && eq) {
            opt = xstrndup(a, (size_t)(eq - a));
            val = xstrdup(eq + 1);
        } else {
            opt = xstrdup(a);
        }
        int rc = 0;
        if (!strcmp(opt, "--force") || !strcmp(opt, "--retry-failed") || !strcmp(opt, "--quiet") ||
            !strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            if (val)
                rc = verb_usage_error("%s takes no value", opt);
            else if (!strcmp(opt, "--force")) {
                r->force = true;
                append(&r->matrix_flags, " %s", opt);
            } else if (!strcmp(opt, "--retry-failed"))
                r->retry_failed = true;
            else if (!strcmp(opt, "--quiet"))
                r->quiet = true;
            else
                *help = true;
            free(opt);
            free(val);
            if (rc || *help)
                return rc;
            continue;
        }
        if (strncmp(opt, "--", 2) && strcmp(opt, "-j")) {
            rc = verb_usage_error("'%s' is not a flag of %s (flags start with --)", opt, argv[0]);
            free(opt);
            return rc;
        }
        if (!val && (i + 1 >= argc || !strncmp(argv[i + 1], "--", 2))) {
            /* no value: a flag of run's that needs one, or a word that is no flag of run's
             * (--dry-run), said as such, with the flag it is near */
            bool known = !strcmp(opt, "-j");
            for (size_t k = 0; run_flags[k] && !known; k++)
                known = !strncmp(opt, "--", 2) && !strcmp(opt + 2, run_flags[k]);
            const char *near = known ? NULL : suggest(opt + 2, run_flags);
            if (near && edit_distance(opt + 2, near) > 1)   /* --loops is a key, not --boots mistyped */
                near = NULL;
            if (known)
                rc = i + 1 >= argc ? verb_usage_error("%s needs a value", opt)
                                   : verb_usage_error("%s needs a value (got the flag %s)", opt, argv[i + 1]);
            else if (near)
                rc = verb_usage_error("unknown flag '%s' (did you mean --%s?)", opt, near);
            else if (!r->novalue && !strncmp(opt, "--", 2)) {   /* a key given no value, or no key: the list says */
                r->novalue = opt;
                continue;
            } else
                rc = verb_usage_error("unknown flag '%s'", opt);
            free(opt);
            return rc;
        }
        if (!val)
            val = xstrdup(argv[++i]);
        if (!strcmp(opt, "-j") || !strcmp(opt, "--jobs")) {
            if (!is_uint(val) || atol(val) < 1)
                rc = verb_usage_error("-j %s: expected a number >= 1", val);
            else
                r->jobs = atol(val);
        } else if (!strcmp(opt, "--engine")) {
            if (!strcmp(val, "local"))
                r->engine = ENGINE_LOCAL;
            else if (!strcmp(val, "parallel"))
                r->engine = ENGINE_PARALLEL;
            else if (!strcmp(val, "slurm"))
                r->engine = ENGINE_SLURM;
            else if (!strcmp(val, "none"))
                r->engine = ENGINE_NONE;
            else
                rc = verb_usage_error("--engine %s: expected local, parallel, slurm or none", val);
        } else if (!strcmp(opt, "--hosts")) {
            set_str(&r->hosts, val);
        } else if (!strcmp(opt, "--sbatch-args")) {
            set_str(&r->sbatch_args, val);
        } else if (!strcmp(opt, "--resume")) {
            set_str(&r->resume, val);
        } else {
            append(&r->matrix_flags, " %s", opt);
            if (!strcmp(opt, "--sched"))
                set_str(&r->scheds, val);
            else if (!strcmp(opt, "--smp"))
                set_str(&r->smps, val);
            else if (!strcmp(opt, "--bench"))
                set_str(&r->bench, val);
            else if (!strcmp(opt, "--accel"))
                set_str(&r->accel, val);
            else if (!strcmp(opt, "--out"))
                set_str(&r->out, val);
            else if (!strcmp(opt, "--trace-boot"))
                set_str(&r->trace_boot, val);
            else if (!strcmp(opt, "--lock"))
                set_str(&r->build.lock, val);
            else if (!strcmp(opt, "--cflags-extra"))
                set_str(&r->build.cflags_extra, val);
            else if (!strcmp(opt, "--caches")) {
                if (strcmp(val, "0") && strcmp(val, "1") && strcmp(val, "host"))
                    rc = verb_usage_error("--caches %s: expected 0, 1 or host (1: the memory model's build; host: the "
                                          "kernel that takes model=host, the model in QEMU; docs/caches.md)", val);
                else
                    r->build.caches = !strcmp(val, "host") ? BUILD_CACHES_HOST : val[0] - '0';
            }
            else if (!strcmp(opt, "--runs") || !strcmp(opt, "--boots") || !strcmp(opt, "--mem") ||
                     !strcmp(opt, "--timeout") || !strcmp(opt, "--hz")) {
                long *slot = !strcmp(opt, "--runs") ? &r->runs : !strcmp(opt, "--boots") ? &r->boots
                             : !strcmp(opt, "--mem")                                     ? &r->mem
                             : !strcmp(opt, "--timeout")                                 ? &r->timeout
                                                                                         : &r->build.hz;
                *slot = is_uint(val) ? atol(val) : -1;
                if (*slot < 0) {   /* said with its range below, as the others are */
                    const char *want = !strcmp(opt, "--runs") || !strcmp(opt, "--boots") ? "a number >= 1"
                                       : !strcmp(opt, "--mem")                           ? "MiB >= 16"
                                       : !strcmp(opt, "--timeout")                       ? "seconds >= 1"
                                                                                         : "100..10000";
                    rc = verb_usage_error("%s %s: expected %s", opt, val, want);
                }
            } else if (!strcmp(opt, "--set")) {
                const char *e = strchr(val, '=');
                char *key = e ? xstrndup(val, (size_t)(e - val)) : NULL;
                char *how = xasprintf("--set %s", val);
                if (!e)
                    rc = verb_usage_error("--set needs KEY=VALUE, not '%s'", val);
                else if (!strncmp(key, "sched.", 6) ? !name_chars(key + 6, NULL) : !name_chars(key, NULL))
                    rc = verb_usage_error("--set %s: bad key '%s'", val, key);
                else
                    rc = add_param(r, key, e + 1, how);
                free(key);
                free(how);
            } else {
                /* a workload or kernel key: checked against bench=list once the image is built */
                char *key = xstrdup(opt + 2);
                for (char *c = key; *c; c++)
                    if (*c == '-')
                        *c = '_';
                if (!name_chars(key, NULL)) {
                    const char *near = suggest(opt + 2, run_flags);
                    rc = near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", opt, near)
                              : verb_usage_error("unknown flag '%s'", opt);
                } else {
                    char *how = xasprintf("%s %s", opt, val);
                    rc = add_param(r, key, val, how);
                    free(how);
                }
                free(key);
            }
        }
        free(opt);
        free(val);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------- checks that need no image */

static int check_engine_flags(const struct run_req *r)
{
    if (r->hosts && r->engine != ENGINE_PARALLEL)
        return verb_usage_error("--hosts goes with --engine parallel");
    if (r->hosts && access(r->hosts, R_OK) != 0) {
        errorf("--hosts %s: cannot read it", r->hosts);
        return 1;
    }
    if (r->sbatch_args && r->engine != ENGINE_SLURM)
        return verb_usage_error("--sbatch-args goes with --engine slurm");
    char *probe = NULL;
    if (r->engine == ENGINE_PARALLEL)
        probe = "parallel";
    else if (r->engine == ENGINE_SLURM)
        probe = "sbatch";
    if (probe) {
        char *argv[] = { "sh", "-c", "command -v \"$0\" >/dev/null 2>&1", probe, NULL };
        if (spawn_run(argv, NULL) != 0) {
            if (r->engine == ENGINE_PARALLEL)
                errorf("--engine parallel: GNU parallel is not installed (make deps)");
            else
                errorf("--engine slurm: sbatch is not installed (make deps; or --engine none and write your own job)");
            return 1;
        }
    }
    return 0;
}

/* The checks of run's own flags: before anything is built.  0, 1 or 2. */
static int check_request(struct run_req *r)
{
    /* a key that is a near miss of a flag of run's (--shced o1) is that flag mistyped when
     * the flag is missing */
    for (size_t i = 0; i < r->nparams; i++) {
        const char *near = strncmp(r->params[i].key, "sched.", 6) ? suggest(r->params[i].key, run_flags) : NULL;
        if (near && ((!strcmp(near, "sched") && !r->scheds) || (!strcmp(near, "bench") && !r->bench) ||
                     (!strcmp(near, "out") && !r->out) || (!strcmp(near, "smp") && !strcmp(r->smps, "1"))))
            return verb_usage_error("unknown flag '%.*s' (did you mean --%s?)", (int)strcspn(r->params[i].how, " "),
                                    r->params[i].how, near);
    }
    if (r->novalue && (!r->scheds || !r->bench))   /* no list to tell a key from a flag: the likelier */
        return verb_usage_error("unknown flag '%s'", r->novalue);
    if (!r->scheds)
        return verb_usage_error("run needs --sched");
    if (!r->bench)
        return verb_usage_error("run needs --bench");
    if (!r->out)
        return verb_usage_error("run needs --out DIR");
    if (!name_chars(r->bench, NULL))
        return verb_usage_error("--bench %s: one workload name (no lists)", r->bench);
    if (!name_chars(r->scheds, ",-") || r->scheds[0] == ',' || r->scheds[strlen(r->scheds) - 1] == ',' ||
        strstr(r->scheds, ",,"))
        return verb_usage_error("--sched %s: expected a comma list of names", r->scheds);
    if (!is_uint_list(r->smps))
        return verb_usage_error("--smp %s: expected a comma list of vCPU counts", r->smps);
    r->sched_list = split_list(r->scheds, ",", &r->nsched_list);
    size_t ns;
    char **smps = split_list(r->smps, ",", &ns);
    r->smp_list = xcalloc(ns, sizeof(long));
    r->nsmp_list = ns;
    int rc = 0;
    for (size_t i = 0; i < ns && !rc; i++) {
        r->smp_list[i] = atol(smps[i]);
        for (size_t k = 0; k < i; k++)
            if (r->smp_list[k] == r->smp_list[i])
                rc = verb_usage_error("%s is listed twice in %s", smps[i], r->smps);
        if (!rc && (r->smp_list[i] < 1 || r->smp_list[i] > 32))
            rc = verb_usage_error("--smp %s: expected 1..32", smps[i]);
    }
    free_list(smps, ns);
    for (size_t i = 0; i < r->nsched_list && !rc; i++)
        for (size_t k = 0; k < i; k++)
            if (!strcmp(r->sched_list[k], r->sched_list[i]))
                rc = verb_usage_error("%s is listed twice in %s", r->sched_list[i], r->scheds);
    if (rc)
        return rc;
    if (r->runs < 1)
        return verb_usage_error("--runs %ld: expected a number >= 1", r->runs);
    if (r->boots < 1)
        return verb_usage_error("--boots %ld: expected a number >= 1", r->boots);
    if (r->mem < 16)
        return verb_usage_error("--mem %ld: expected MiB >= 16", r->mem);
    if (r->timeout < 1)
        return verb_usage_error("--timeout %ld: expected seconds >= 1", r->timeout);
    if (strcmp(r->accel, "tcg") && strcmp(r->accel, "kvm") && strcmp(r->accel, "icount") && strcmp(r->accel, "vsmp")) {
        static const char *const accels[] = { "tcg", "kvm", "icount", "vsmp", NULL };
        const char *near = suggest(r->accel, accels);
        return verb_usage_error("--accel %s: expected tcg, kvm, icount or vsmp%s%s%s", r->accel,
                                near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
    }
    if (r->build.hz < 100 || r->build.hz > 10000) {
        if (r->build.hz < 0)
            return verb_usage_error("--hz %s: expected 100..10000", getenv("HZ") ? getenv("HZ") : "?");
        return verb_usage_error("--hz %ld: expected 100..10000", r->build.hz);
    }
    if (strcmp(r->build.lock, "tas") && strcmp(r->build.lock, "ticket"))
        return verb_usage_error("--lock %s: expected tas or ticket", r->build.lock);
    if (r->build.caches < 0)
        return verb_usage_error("CACHES=%s in the environment: expected 0, 1 or host", getenv("CACHES"));
    if (!strcmp(r->accel, "kvm")) {
        const char *dev = getenv("SCHEDLAB_KVM_DEV") ? getenv("SCHEDLAB_KVM_DEV") : "/dev/kvm";
        if (access(dev, R_OK | W_OK) != 0) {
            errorf("--accel kvm: %s is not usable here (use --accel tcg)", dev);
            return 1;
        }
    }
    struct stat st;
    if (stat(r->out, &st) == 0 && !S_ISDIR(st.st_mode)) {
        errorf("--out %s exists and is not a directory", r->out);
        return 1;
    }
    if (r->trace_words && !r->trace_boot)
        return verb_usage_error("--trace-events and --trace-buf-kib need --trace-boot NAME");
    char **known = list_scheds();
    if (!known) {
        errorf("make list-scheds failed (is %s a schedlab tree?)", schedlab_root() ? schedlab_root() : "?");
        return 1;
    }
    size_t nk = 0;
    while (known[nk])
        nk++;
    for (size_t i = 0; i < r->nsched_list && !rc; i++) {
        bool found = false;
        for (size_t k = 0; k < nk; k++)
            found |= !strcmp(known[k], r->sched_list[i]);
        if (!found) {
            char *have = NULL;
            for (size_t k = 0; k < nk; k++)
                append(&have, "%s%s", k ? " " : "", known[k]);
            const char *near = suggest(r->sched_list[i], (const char *const *)known);
            /* a usage error as an unknown key or seed is: exit 2, the verb's usage line */
            rc = verb_usage_error("--sched %s: no such scheduler%s%s%s (have: %s)", r->sched_list[i],
                                  near ? "; did you mean " : "", near ? near : "", near ? "?" : "", have);
            free(have);
        }
    }
    free_list(known, nk);
    return rc;
}

/* ---------------------------------------------------------------- keys against bench=list */

struct lists {
    struct bench_list kernel;          /* the first scheduler's image: workloads and keys */
    struct bench_list *sched;          /* each scheduler's (tunables, presets), when sched.* keys are given */
    size_t nsched;
};

static const struct bl_key *param_key(const struct lists *L, const char *bench, const char *key, const char **owner)
{
    const struct bl_key *k = bench_list_key(&L->kernel, bench, key);
    *owner = bench;
    if (!k) {
        k = bench_list_key(&L->kernel, "kernel", key);
        *owner = "kernel";
    }
    if (!k) {   /* the memory model's keys (kernel/machine/memhooks.c registers them as "machine") */
        k = bench_list_key(&L->kernel, "machine", key);
        *owner = "machine";
    }
    if (!k) {   /* model= (a kernel of make CACHES=host registers it as "model": docs/caches.md, "The host model") */
        k = bench_list_key(&L->kernel, "model", key);
        *owner = "model";
    }
    return k;
}

/* sched.NAME=a,b,c against every scheduler of the run. */
static int check_tunable(const struct run_req *r, const struct lists *L, const struct run_param *p)
{
    const char *name = p->key + 6;
    const char *v = p->value;
    if (*v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
        return verb_usage_error("%s: an empty value in the list", p->how);
    size_t nv;
    char **vals = split_list(v, ",", &nv);
    int rc = 0;
    for (size_t s = 0; s < r->nsched_list && !rc; s++) {
        const struct bench_list *bl = &L->sched[s];
        const char *sched = r->sched_list[s];
        if (!strcmp(name, "preset")) {
            char *presets = bench_list_names(bl, "preset", sched);
            for (size_t i = 0; i < nv && !rc; i++) {
                char *pad = xasprintf(" %s ", presets), *w = xasprintf(" %s ", vals[i]);
                if (!strstr(pad, w))
                    rc = verb_usage_error("%s: %s is no preset of sched=%s (its presets: %s)", p->how, vals[i], sched,
                                          *presets ? presets : "none");
                free(pad);
                free(w);
            }
            free(presets);
            continue;
        }
        const struct bl_tunable *t = NULL;
        for (size_t i = 0; i < bl->ntunables; i++)
            if (!strcmp(bl->tunables[i].sched, sched) && !strcmp(bl->tunables[i].name, name))
                t = &bl->tunables[i];
        if (!t) {
            char *names = bench_list_names(bl, "tunable", sched);
            rc = verb_usage_error("%s: sched=%s has no tunable %s (its tunables: %s)", p->how, sched, name, names);
            free(names);
            break;
        }
        long long lo = t->min ? atoll(t->min) : 0, hi = t->max ? atoll(t->max) : 0;
        for (size_t i = 0; i < nv && !rc; i++) {
            if (!is_uint(vals[i]))
                rc = verb_usage_error("%s: expected a number or a comma list of numbers (tunable %s of sched=%s, %s..%s)",
                                      p->how, name, sched, t->min, t->max);
            else if (!in_range(vals[i], lo, hi))
                rc = verb_usage_error("%s: %s is out of range %s..%s (tunable %s of sched=%s)", p->how, vals[i], t->min,
                                      t->max, name, sched);
        }
    }
    free_list(vals, nv);
    return rc;
}

static long least_smp(const struct run_req *r)
{
    long least = 32;
    for (size_t i = 0; i < r->nsmp_list; i++)
        if (r->smp_list[i] < least)
            least = r->smp_list[i];
    return least;
}

/* A CPU list (0,2-3): every CPU must exist on the smallest --smp. */
static int check_cpu_list(const struct run_req *r, const char *how, const char *value, long long max, const char *what)
{
    size_t n;
    char **ranges = split_list(value, ",", &n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char *dash = strchr(ranges[i], '-');
        char *a = dash ? xstrndup(ranges[i], (size_t)(dash - ranges[i])) : xstrdup(ranges[i]);
        const char *b = dash ? dash + 1 : ranges[i];
        if (!in_range(a, 0, max) || !in_range(b, atoll(a), max))
            rc = verb_usage_error("%s: expected a CPU list like 0 or 0,2-3 with CPUs 0..%lld (%s)", how, max, what);
        else if (atol(b) >= least_smp(r))
            rc = verb_usage_error("%s: cpu %s does not exist with --smp %ld", how, b, least_smp(r));
        free(a);
    }
    free_list(ranges, n);
    return rc;
}

static int check_value(const struct run_req *r, const struct run_param *p, const char *owner, const struct bl_key *k)
{
    char *what = xasprintf("%s: %s key of %s", k->name, k->type ? k->type : "?", owner);
    const char *v = p->value;
    int rc = 0;
    if (*v == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) {
        rc = verb_usage_error("%s: an empty value in the list (%s)", p->how, what);
        free(what);
        return rc;
    }
    size_t nv;
    char **vals = split_list(v, ",", &nv);
    long long lo = k->min ? atoll(k->min) : 0, hi = k->max ? atoll(k->max) : 0;
    const char *type = k->type ? k->type : "";
    if (!strcmp(type, "uint") || !strcmp(type, "uint_list")) {
        for (size_t i = 0; i < nv && !rc; i++) {
            bool digits = true;
            for (const char *c = vals[i]; *c; c++)
                digits &= *c >= '0' && *c <= '9';
            if (!digits)
                rc = verb_usage_error("%s: expected a number or a comma list of numbers (%s, %s..%s)", p->how, what,
                                      k->min, k->max);
            else if (!in_range(vals[i], lo, hi))
                rc = verb_usage_error("%s: %s is out of range %s..%s (%s)", p->how, vals[i], k->min, k->max, what);
        }
    } else if (!strcmp(type, "int_list")) {
        for (size_t i = 0; i < nv && !rc; i++)
            if (!in_range(vals[i], lo, hi))
                rc = verb_usage_error("%s: expected integers in %s..%s (%s)", p->how, k->min, k->max, what);
    } else if (!strcmp(type, "choice")) {
        for (size_t i = 0; i < nv && !rc; i++) {
            char *pad = xasprintf("|%s|", k->choices ? k->choices : ""), *w = xasprintf("|%s|", vals[i]);
            if (!strstr(pad, w))
                rc = verb_usage_error("%s: expected one of %s, or a comma list of them (%s)", p->how, k->choices, what);
            free(pad);
            free(w);
        }
    } else if (!strcmp(type, "cpu_list")) {
        rc = check_cpu_list(r, p->how, v, hi, what);
    } else {
        rc = verb_usage_error("%s: schedlab cannot pass a %s key (%s)", p->how, type, what);
    }
    if (!rc && k->max_values && nv > (size_t)atol(k->max_values))
        rc = verb_usage_error("%s: %zu values, at most %s (%s)", p->how, nv, k->max_values, what);
    free_list(vals, nv);
    free(what);
    return rc;
}

/* Every key=value against its line of bench=list: a key the workload (or the kernel) reads, every value of its type and range. */
static int check_params(const struct run_req *r, const struct lists *L)
{
    if (r->novalue) {   /* a key of the workload's or the kernel's given no value, or an unknown flag */
        char *key = xstrdup(r->novalue + 2);
        for (char *c = key; *c; c++)
            if (*c == '-')
                *c = '_';
        const char *owner;
        int rc;
        if (param_key(L, r->bench, key, &owner))
            rc = verb_usage_error("%s needs a value", r->novalue);
        else {
            char *theirs = bench_list_names(&L->kernel, "key", r->bench);
            size_t nn;
            char **names = split_list(theirs, " ", &nn);
            const char *near = suggest(key, (const char *const *)names);
            rc = near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", r->novalue, near)
                      : verb_usage_error("unknown flag '%s'", r->novalue);
            free_list(names, nn);
            free(theirs);
        }
        free(key);
        return rc;
    }
    for (size_t i = 0; i < r->nparams; i++) {
        const struct run_param *p = &r->params[i];
        if (!strncmp(p->key, "sched.", 6)) {
            int rc = check_tunable(r, L, p);
            if (rc)
                return rc;
            continue;
        }
        const char *owner;
        const struct bl_key *k = param_key(L, r->bench, p->key, &owner);
        if (!k) {
            char *theirs = bench_list_names(&L->kernel, "key", r->bench);
            char *kernel = NULL;
            /* the kernel's keys a run may give (bench, runs and the trace keys have flags of their own) */
            for (size_t j = 0; j < L->kernel.nkeys; j++) {
                const char *n = L->kernel.keys[j].name;
                if ((!strcmp(L->kernel.keys[j].owner, "kernel") || !strcmp(L->kernel.keys[j].owner, "machine") ||
                     !strcmp(L->kernel.keys[j].owner, "model")) &&
                    strcmp(n, "bench") && strcmp(n, "runs") &&
                    strcmp(n, "trace") && strcmp(n, "trace_events") && strcmp(n, "trace_buf_kib"))
                    append(&kernel, "%s%s", kernel ? " " : "", n);
            }
            /* did you mean: the workload's keys and the kernel's */
            size_t nn;
            char *all = xasprintf("%s %s", theirs, kernel ? kernel : "");
            char **names = split_list(all, " ", &nn);
            const char *near = suggest(p->key, (const char *const *)names);
            const char *flag = suggest(p->key, run_flags);   /* or a flag of run's, when nearer */
            if (near && flag && edit_distance(p->key, flag) < edit_distance(p->key, near))
                near = NULL;
            else if (near)
                flag = NULL;
            int rc = verb_usage_error("%s: %s is not a key of bench=%s%s%s%s%s (its keys: %s; the kernel's: %s)", p->how,
                                      p->key, r->bench, near || flag ? "; did you mean " : "", flag ? "--" : "",
                                      near ? near : flag ? flag : "", near || flag ? "?" : "", *theirs ? theirs : "none",
                                      kernel ? kernel : "");
            free_list(names, nn);
            free(all);
            free(theirs);
            free(kernel);
            return rc;
        }
        int rc = check_value(r, p, owner, k);
        if (rc)
            return rc;
    }
    return 0;
}

/* The trace keys against the kernel's own table, the boot's name against the matrix. */
static int check_trace(const struct run_req *r, const struct lists *L)
{
    if (!r->trace_boot)
        return 0;
    if (!bench_list_key(&L->kernel, "kernel", "trace")) {
        errorf("this kernel has no trace= key (built before tracing existed?)");
        return 1;
    }
    size_t nw;
    char **words = split_list(r->trace_words, " ", &nw);
    int rc = 0;
    for (size_t i = 0; i < nw && !rc; i++) {
        char *eq = strchr(words[i], '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *key = words[i], *val = eq + 1;
        char *flag = xstrdup(key);
        for (char *c = flag; *c; c++)
            if (*c == '_')
                *c = '-';
        char *how = xasprintf("--%s %s", flag, val);
        const struct bl_key *k = bench_list_key(&L->kernel, "kernel", key);
        if (!strcmp(key, "trace_buf_kib") && k) {
            struct run_param p = { (char *)key, (char *)val, how };
            rc = check_value(r, &p, "kernel", k);
            if (!rc && atol(val) % 4)
                rc = verb_usage_error("%s: a multiple of 4 (whole pages)", how);
        } else if (!strcmp(key, "trace_events") && k) {
            size_t nv;
            char **vals = split_list(val, ",", &nv);
            for (size_t j = 0; j < nv && !rc; j++) {
                char *pad = xasprintf("|%s|", k->choices ? k->choices : ""), *w = xasprintf("|%s|", vals[j]);
                if (!strstr(pad, w))
                    rc = verb_usage_error("%s: expected a comma list of %s", how, k->choices);
                free(pad);
                free(w);
            }
            free_list(vals, nv);
        }
        free(how);
        free(flag);
    }
    free_list(words, nw);
    if (rc || !strcmp(r->trace_boot, "first"))
        return rc;
    /* SCHED-smpN[-...]-bootB */
    const char *tb = r->trace_boot;
    bool ok = name_chars(tb, "ABCDEFGHIJKLMNOPQRSTUVWXYZ.=,-");
    const char *bp = strstr(tb, "-boot"), *sp = strstr(tb, "-smp");
    if (ok && bp && sp) {
        while (strstr(bp + 1, "-boot"))
            bp = strstr(bp + 1, "-boot");
        char *sched = xstrndup(tb, (size_t)(sp - tb));
        long smp = atol(sp + 4), boot = is_uint(bp + 5) ? atol(bp + 5) : -1;
        bool sched_ok = false, smp_ok = false;
        for (size_t i = 0; i < r->nsched_list; i++)
            sched_ok |= !strcmp(r->sched_list[i], sched);
        for (size_t i = 0; i < r->nsmp_list; i++)
            smp_ok |= r->smp_list[i] == smp;
        ok = sched_ok && smp_ok && boot >= 1 && boot <= r->boots;
        free(sched);
    } else {
        ok = false;
    }
    if (!ok)
        return verb_usage_error("--trace-boot %s: not a boot of this matrix (names are SCHED-smpN-bootB, e.g. "
                                "%s-smp%ld-boot1, or first)",
                                tb, r->sched_list[0], r->smp_list[0]);
    return 0;
}

/* ---------------------------------------------------------------- preparing the directory */

/* The newest change of the sources a kernel image is built from. */
static time_t newest_source(const char *root)
{
    static const char *const dirs[] = { "kernel", "workloads", "sched", "boot", NULL };
    time_t newest = 0;
    struct stat st;
    for (int d = 0; dirs[d]; d++) {
        char *path = xasprintf("%s/%s", root, dirs[d]);
        DIR *dh = opendir(path);
        struct dirent *e;
        while (dh && (e = readdir(dh))) {
            char *f = xasprintf("%s/%s", path, e->d_name);
            if (stat(f, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime > newest)
                newest = st.st_mtime;
            free(f);
        }
        if (dh)
            closedir(dh);
        free(path);
    }
    static const char *const files[] = { "Makefile", "linker.ld", NULL };
    for (int i = 0; files[i]; i++) {
        char *f = xasprintf("%s/%s", root, files[i]);
        if (stat(f, &st) == 0 && st.st_mtime > newest)
            newest = st.st_mtime;
        free(f);
    }
    return newest;
}

/* Before anything is built: when the first scheduler's image is newer than
 * every source and its bench=list is cached, the keys are checked against
 * that list (what the build would give).  0, or the usage error. */
static int precheck_keys(struct run_req *r, const struct lists *L_unused)
{
    (void)L_unused;
    bool sched_keys = false;
    for (size_t i = 0; i < r->nparams; i++)
        sched_keys |= !strncmp(r->params[i].key, "sched.", 6);
    char *dir = build_dir(&r->build, r->sched_list[0]);
    if (!dir)
        return 0;
    char *elf = xasprintf("%s/kernel.elf", dir), *cache = xasprintf("%s/kernel.elf.list", dir);
    struct stat st;
    int rc = 0;
    if (!sched_keys && stat(elf, &st) == 0 && st.st_mtime > newest_source(schedlab_root())) {
        char *sum = file_sha256(elf);
        size_t len;
        char *text = read_file(cache, &len);
        char *want = sum ? xasprintf("# sha256=%s\n", sum) : NULL;
        if (text && want && !strncmp(text, want, strlen(want))) {
            struct lists L = { 0 };
            if (bench_list_load(cache, &L.kernel)) {
                if (!bench_list_has_workload(&L.kernel, r->bench))
                    rc = 0;   /* said after the build, with the list of workloads */
                else
                    rc = check_params(r, &L);
                if (!rc)
                    rc = check_trace(r, &L);
            }
            bench_list_free(&L.kernel);
        }
        free(want);
        free(text);
        free(sum);
    }
    free(elf);
    free(cache);
    free(dir);
    return rc;
}

struct variant {
    char *extra;     /* " key=value" words of the boot-swept keys */
    char *suffix;    /* "-key=value" for the name */
};

int run_prepare(struct run_req *r, struct run_dir *d)
{
    memset(d, 0, sizeof(*d));
    int rc = check_engine_flags(r);
    if (rc)
        return rc;
    if (r->retry_failed)
        return verb_usage_error("--retry-failed goes with --resume DIR");
    if ((rc = check_request(r)) || (rc = precheck_keys(r, NULL)))
        return rc;

    /* Build every image first: the first one says which workloads and keys there are. */
    char stage[] = "/tmp/schedlab-run.XXXXXX";
    if (!mkdtemp(stage)) {
        errorf("mktemp failed: %s", strerror(errno));
        return 1;
    }
    struct lists L = { 0 };
    L.sched = xcalloc(r->nsched_list, sizeof(*L.sched));
    L.nsched = r->nsched_list;
    bool sched_keys = false;
    for (size_t i = 0; i < r->nparams; i++)
        sched_keys |= !strncmp(r->params[i].key, "sched.", 6);
    for (size_t s = 0; s < r->nsched_list && !rc; s++) {
        char *elf = xasprintf("%s/%s.elf", stage, r->sched_list[s]), *log = xasprintf("%s/build-%s.log", stage, r->sched_list[s]);
        if (!build_image(&r->build, r->sched_list[s], elf, log))
            rc = 1;
        free(elf);
        free(log);
    }
    char *list = NULL;
    for (size_t s = 0; s < r->nsched_list && !rc && (s == 0 || sched_keys); s++) {
        char *elf = xasprintf("%s/%s.elf", stage, r->sched_list[s]);
        char *dir = build_dir(&r->build, r->sched_list[s]);
        char *cache = dir ? xasprintf("%s/kernel.elf.list", dir) : NULL;
        char *path = cache ? bench_list_file(elf, cache) : NULL;
        if (!path)
            rc = 1;
        else if (!bench_list_load(path, s == 0 ? &L.kernel : &L.sched[s]) ||
                 (s == 0 && sched_keys && !bench_list_load(path, &L.sched[0]))) {
            errorf("cannot read %s", path);
            rc = 1;
        }
        if (!rc && s == 0) {
            list = xasprintf("%s/bench-list.txt", stage);
            if (!copy_file(path, list)) {
                errorf("cannot copy %s", path);
                rc = 1;
            }
        }
        free(path);
        free(cache);
        free(dir);
        free(elf);
    }
    if (!rc && !bench_list_has_workload(&L.kernel, r->bench)) {
        char *have = bench_list_names(&L.kernel, "workload", NULL);
        size_t n;
        char **names = split_list(have, " ", &n);
        const char *near = suggest(r->bench, (const char *const *)names);
        rc = verb_usage_error("--bench %s: no such workload in this kernel%s%s%s (have: %s)", r->bench,
                              near ? "; did you mean " : "", near ? near : "", near ? "?" : "", have);
        free_list(names, n);
        free(have);
    }
    if (!rc)
        rc = check_params(r, &L);
    if (!rc)
        rc = check_trace(r, &L);
    if (!rc && !strcmp(r->accel, "kvm")) {   /* one short boot: a KVM that cannot run guests fails every boot alike */
        char *qemu = xasprintf("%s/tools/qemu-run.sh", schedlab_root()), *elf = xasprintf("%s/%s.elf", stage, r->sched_list[0]);
        char *out = xasprintf("%s/kvm.out", stage), *err = xasprintf("%s/kvm.err", stage);
        char *argv[] = { qemu, "--kernel", elf, "--smp", "1", "--mem", "64", "--accel", "kvm", "--timeout", "60",
                         "--cmdline", "bench=boot", NULL };
        struct spawn_io io = { .out = out, .err = err };
        int krc = spawn_run(argv, &io);
        if (krc != 0) {
            size_t len;
            char *text = read_file(err, &len);
            for (char *l = text; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
                if (!strncmp(l, "error:", 6))
                    fprintf(stderr, "%.*s\n", (int)strcspn(l, "\n"), l);
            free(text);
            errorf("--accel kvm: a test boot under KVM failed (exit %d); nothing was booted", krc);
            rc = 1;
        }
        free(qemu), free(elf), free(out), free(err);
    }
    for (size_t s = 0; s < L.nsched; s++)
        bench_list_free(&L.sched[s]);
    free(L.sched);
    if (rc) {
        bench_list_free(&L.kernel);
        free(list);
        rm_rf(stage);
        return rc;
    }

    /* OUT: new, empty, or --force */
    if (is_dir(r->out) && !dir_empty(r->out)) {
        if (!r->force) {
            errorf("%s is not empty (choose a new --out, or --force to replace its results)", r->out);
            bench_list_free(&L.kernel);
            free(list);
            rm_rf(stage);
            return 1;
        }
        static const char *const old[] = { "logs", "kernels", "results.csv", "boots.csv", "schedstat.csv", "meta.txt",
                                           "matrix.txt", "jobs.txt", "report.html", "results.json", "parallel.joblog",
                                           "slurm.sbatch", "slurm-boots.txt", NULL };
        for (int i = 0; old[i]; i++) {
            char *p = xasprintf("%s/%s", r->out, old[i]);
            rm_rf(p);
            free(p);
        }
        DIR *dh = opendir(r->out);
        struct dirent *e;
        while (dh && (e = readdir(dh)))
            if (!strncmp(e->d_name, "build-", 6) && strstr(e->d_name, ".log")) {
                char *p = xasprintf("%s/%s", r->out, e->d_name);
                unlink(p);
                free(p);
            }
        if (dh)
            closedir(dh);
    }
    char *mk = xasprintf("mkdir -p -- \"$0/logs\" \"$0/kernels\"");
    char *argv_mk[] = { "sh", "-c", mk, r->out, NULL };
    if (spawn_run(argv_mk, NULL) != 0) {
        errorf("cannot create %s", r->out);
        free(mk);
        bench_list_free(&L.kernel);
        free(list);
        rm_rf(stage);
        return 1;
    }
    free(mk);
    char real[PATH_MAX];
    d->dir = xstrdup(realpath(r->out, real) ? real : r->out);   /* absolute: parallel and Slurm run the boots from elsewhere */
    for (size_t s = 0; s < r->nsched_list; s++) {
        const char *sc = r->sched_list[s];
        char *a = xasprintf("%s/%s.elf", stage, sc), *b = xasprintf("%s/kernels/%s.elf", d->dir, sc);
        char *fa = xasprintf("%s/%s.flags", stage, sc), *fb = xasprintf("%s/kernels/%s.flags", d->dir, sc);
        char *la = xasprintf("%s/build-%s.log", stage, sc), *lb = xasprintf("%s/build-%s.log", d->dir, sc);
        if (r->build.caches == BUILD_CACHES_HOST) {
            /* model=host: tools/qemu-run.sh reads kernel.map beside the kernel it boots (its realpath), so the image
             * is kernels/SCHED/kernel.elf with its kernel.map, and kernels/SCHED.elf a link to it */
            char *kd = xasprintf("%s/kernels/%s", d->dir, sc), *ke = xasprintf("%s/kernel.elf", kd),
                 *ma = xasprintf("%s/%s.map", stage, sc), *mb = xasprintf("%s/kernel.map", kd),
                 *to = xasprintf("%s/kernel.elf", sc);
            if (mkdir(kd, 0755) != 0 || !move_file(a, ke) || !move_file(ma, mb) || symlink(to, b) != 0) {
                errorf("cannot move the %s kernel and its link map into %s", sc, kd);
                rc = 1;
            }
            free(kd), free(ke), free(ma), free(mb), free(to);
        } else if (!move_file(a, b)) {
            errorf("cannot move the %s kernel into %s/kernels", sc, d->dir);
            rc = 1;
        }
        if (!move_file(fa, fb) || !move_file(la, lb)) {
            errorf("cannot move the %s kernel into %s/kernels", sc, d->dir);
            rc = 1;
        }
        free(a), free(b), free(fa), free(fb), free(la), free(lb);
    }
    char *klist = xasprintf("%s/kernels/bench-list.txt", d->dir);
    if (!rc && !move_file(list, klist)) {
        errorf("cannot write %s", klist);
        rc = 1;
    }
    free(klist);
    free(list);
    rm_rf(stage);
    if (rc) {
        bench_list_free(&L.kernel);
        return rc;
    }

    /* Comma lists, by the key's type: a uint_list the kernel sweeps in one
     * boot; a uint or choice list gives one boot per value; int_list and
     * cpu_list values are passed as they are. */
    char *cmdline = xasprintf("bench=%s", r->bench);
    if (r->runs != 1)
        append(&cmdline, " runs=%ld", r->runs);
    char *sweep = NULL, *boot_sweep = NULL;
    struct variant *vars = xcalloc(1, sizeof(*vars));
    size_t nvars = 1;
    vars[0] = (struct variant){ xstrdup(""), xstrdup("") };
    for (size_t i = 0; i < r->nparams; i++) {
        const struct run_param *p = &r->params[i];
        const char *type = NULL, *owner;
        if (!strcmp(p->key, "sched.preset"))
            type = "choice";
        else if (!strncmp(p->key, "sched.", 6))
            type = "uint";
        else {
            const struct bl_key *k = param_key(&L, r->bench, p->key, &owner);
            type = k ? k->type : NULL;
        }
        if (strchr(p->value, ',') && type && !strcmp(type, "uint_list")) {
            append(&sweep, " %s", p->key);
        } else if (strchr(p->value, ',') && type && (!strcmp(type, "uint") || !strcmp(type, "choice"))) {
            append(&boot_sweep, " %s=%s", p->key, p->value);
            size_t nv;
            char **vals = split_list(p->value, ",", &nv);
            struct variant *nvs = xcalloc(nvars * nv, sizeof(*nvs));
            size_t k = 0;
            for (size_t a = 0; a < nvars; a++)
                for (size_t b = 0; b < nv; b++) {
                    nvs[k].extra = xasprintf("%s%s%s=%s", vars[a].extra, vars[a].extra[0] ? " " : "", p->key, vals[b]);
                    nvs[k].suffix = xasprintf("%s-%s=%s", vars[a].suffix, p->key, vals[b]);
                    k++;
                }
            for (size_t a = 0; a < nvars; a++)
                free(vars[a].extra), free(vars[a].suffix);
            free(vars);
            vars = nvs;
            nvars = k;
            free_list(vals, nv);
            continue;
        }
        append(&cmdline, " %s=%s", p->key, p->value);
    }
    bench_list_free(&L.kernel);

    /* The matrix, boot-major so that slow drift of the host hits every scheduler and SMP alike. */
    d->cmdline = xstrdup(cmdline);
    d->accel = xstrdup(r->accel);
    d->mem = r->mem;
    d->timeout = r->timeout;
    char *jp = xasprintf("%s/jobs.txt", d->dir);
    FILE *jf = fopen(jp, "w");
    for (long b = 1; jf && b <= r->boots; b++)
        for (size_t v = 0; v < nvars; v++)
            for (size_t p = 0; p < r->nsmp_list; p++)
                for (size_t s = 0; s < r->nsched_list; s++) {
                    char *name = xasprintf("%s-smp%ld%s-boot%ld", r->sched_list[s], r->smp_list[p], vars[v].suffix, b);
                    fprintf(jf, "%s %s %ld %ld%s%s\n", name, r->sched_list[s], r->smp_list[p], b,
                            vars[v].extra[0] ? " " : "", vars[v].extra);
                    d->jobs = xrealloc(d->jobs, (d->njobs + 1) * sizeof(*d->jobs));
                    d->jobs[d->njobs++] = (struct run_job){ name, xstrdup(r->sched_list[s]), xstrdup(vars[v].extra),
                                                            r->smp_list[p], b };
                }
    if (!jf || fclose(jf) != 0) {
        errorf("cannot write %s", jp);
        rc = 1;
    }
    free(jp);
    for (size_t s = 0; s < r->nsched_list; s++) {
        d->scheds = xrealloc(d->scheds, (d->nscheds + 1) * sizeof(char *));
        d->scheds[d->nscheds++] = xstrdup(r->sched_list[s]);
    }
    char *mp = xasprintf("%s/matrix.txt", d->dir);
    FILE *mf = fopen(mp, "w");
    if (mf) {
        fprintf(mf, "# what schedlab run was asked (read by schedlab collect and by run --resume)\n");
        fprintf(mf, "cmdline %s\nsweep%s\nsweep_boots%s\nbench %s\nruns %ld\nboots %ld\naccel %s\nmem %ld\ntimeout %ld\n",
                cmdline, sweep ? sweep : "", boot_sweep ? boot_sweep : "", r->bench, r->runs, r->boots, r->accel,
                r->mem, r->timeout);
    }
    if (!mf || fclose(mf) != 0) {
        errorf("cannot write %s", mp);
        rc = 1;
    }
    free(mp);
    if (!rc && !write_meta_start(r, d, cmdline, boot_sweep))
        rc = 1;
    /* the traced boot */
    if (!rc && r->trace_boot) {
        const char *tb = !strcmp(r->trace_boot, "first") ? d->jobs[0].name : r->trace_boot;
        if (!run_dir_job(d, tb)) {
            rc = verb_usage_error("--trace-boot %s: no such boot (see %s/jobs.txt)", tb, d->dir);
        } else {
            d->trace_boot = xstrdup(tb);
            d->trace_words = xstrdup(r->trace_words ? r->trace_words : "");
            char *tdir = r->trace_dir ? xstrdup(r->trace_dir) : xasprintf("%s/traces/%s", d->dir, tb);
            char *mkt[] = { "mkdir", "-p", "--", tdir, NULL };
            if (spawn_run(mkt, NULL) != 0) {
                errorf("cannot create %s", tdir);
                rc = 1;
            }
            char realt[PATH_MAX];
            free(r->trace_dir);
            r->trace_dir = xstrdup(realpath(tdir, realt) ? realt : tdir);
            d->trace_out = xasprintf("%s/trace.bin", r->trace_dir);
            char *metap = xasprintf("%s/meta.txt", d->dir);
            FILE *f = fopen(metap, "a");
            if (f) {
                fprintf(f, "trace: boot %s with trace=1%s, files in %s\n", tb, d->trace_words, r->trace_dir);
                fclose(f);
            }
            free(metap);
            free(tdir);
        }
    }
    if (!rc) {
        char *scheds = NULL;
        for (size_t s = 0; s < r->nsched_list; s++)
            append(&scheds, "%s%s", s ? " " : "", r->sched_list[s]);
        const char *engines[] = { "local", "parallel", "slurm", "none" };
        long jobs = r->jobs ? r->jobs : host_cores();
        fprintf(stderr, "schedlab: %zu boots (%s x smp %s%s%s x %ld boot(s)), %ld run(s) each; engine %s; at most %ld at "
                        "once and %ld vCPUs at once; kernel command line: %s\n",
                d->njobs, scheds, r->smps, boot_sweep ? " x" : "", boot_sweep ? boot_sweep : "", r->boots, r->runs,
                engines[r->engine], jobs, host_cores(), cmdline);
        free(scheds);
    }
    for (size_t v = 0; v < nvars; v++)
        free(vars[v].extra), free(vars[v].suffix);
    free(vars);
    free(sweep);
    free(boot_sweep);
    free(cmdline);
    return rc;
}

/* ---------------------------------------------------------------- meta.txt */

static char *first_line_of(char *const argv[])
{
    int rc;
    char *out = spawn_capture(argv, &rc);
    if (!out)
        return xstrdup("");
    out[strcspn(out, "\n")] = 0;
    return out;
}

static char *file_line(const char *path, const char *prefix)
{
    size_t len;
    char *t = read_file(path, &len);
    char *out = NULL;
    for (char *l = t; l && !out; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, prefix, strlen(prefix)))
            out = xstrndup(l + strlen(prefix), strcspn(l + strlen(prefix), "\n"));
    free(t);
    return out ? out : xstrdup("");
}

static char *loadavg(void)
{
    size_t len;
    char *t = read_file("/proc/loadavg", &len);
    if (!t)
        return xstrdup("");
    char a[32], b[32], c[32];
    char *out = sscanf(t, "%31s %31s %31s", a, b, c) == 3 ? xasprintf("%s %s %s", a, b, c) : xstrdup("");
    free(t);
    return out;
}

bool write_meta_start(const struct run_req *r, const struct run_dir *d, const char *cmdline, const char *boot_sweep)
{
    char *path = xasprintf("%s/meta.txt", d->dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        errorf("cannot write %s", path);
        free(path);
        return false;
    }
    const char *root = schedlab_root();
    char *rev_argv[] = { "git", "-C", (char *)root, "rev-parse", "HEAD", NULL };
    char *rev = first_line_of(rev_argv);
    if (!*rev) {
        free(rev);
        rev = xstrdup("unknown");
    }
    char *st_argv[] = { "git", "-C", (char *)root, "status", "--porcelain", "--untracked-files=no", NULL };
    int src;
    char *st = spawn_capture(st_argv, &src);
    if (st && *st && src == 0) {
        char *dirty = xasprintf("%s+dirty", rev);
        free(rev);
        rev = dirty;
    }
    free(st);
    char *q_argv[] = { "qemu-system-i386", "--version", NULL };
    char *qemu = first_line_of(q_argv);
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    char *model = file_line("/proc/cpuinfo", "model name\t: ");
    char *u_argv[] = { "uname", "-srm", NULL };
    char *uname = first_line_of(u_argv);
    char *la = loadavg();
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    const char *engines[] = { "local", "parallel", "slurm", "none" };
    long jobs = r->jobs ? r->jobs : host_cores();
    fprintf(f, "date: %s\ncommand: %s\ngit_revision: %s\nqemu: %s\naccel: %s\n", date, r->command, rev, qemu, r->accel);
    fprintf(f, "build: HZ=%ld LOCK=%s CFLAGS_EXTRA=%s%s\n", r->build.hz, r->build.lock, r->build.cflags_extra,
            r->build.caches == 1 ? " CACHES=1" : r->build.caches == BUILD_CACHES_HOST ? " CACHES=host" : "");
    fprintf(f, "host: %s\nhost_cpu_model: %s\nhost_cpus: %ld\nhost_kernel: %s\nhost_loadavg_start: %s\n", host, model,
            host_cores(), uname, la);
    fprintf(f, "engine: %s%s%s%s\n", engines[r->engine], r->hosts ? " (hosts: " : "", r->hosts ? r->hosts : "",
            r->hosts ? ")" : "");
    fprintf(f, "schedulers:");
    for (size_t s = 0; s < r->nsched_list; s++)
        fprintf(f, " %s", r->sched_list[s]);
    fprintf(f, "\nsmp:");
    for (size_t p = 0; p < r->nsmp_list; p++)
        fprintf(f, " %ld", r->smp_list[p]);
    fprintf(f, "\nboots: %ld\nruns_per_boot: %ld\nbench: %s\nmem_mib: %ld\ntimeout_s: %ld\n", r->boots, r->runs, r->bench,
            r->mem, r->timeout);
    fprintf(f, "parallel: at most %ld boots and %ld vCPUs at once (a bigger boot runs alone, oversubscribed)\n", jobs,
            host_cores());
    fprintf(f, "kernel_cmdline: %s\n", cmdline);
    if (boot_sweep)
        fprintf(f, "boot_sweep:%s (one boot per value, appended to the command line)\n", boot_sweep);
    bool ok = true;
    for (size_t s = 0; s < r->nsched_list; s++) {
        char *elf = xasprintf("%s/kernels/%s.elf", d->dir, r->sched_list[s]);
        char *fl = xasprintf("%s/kernels/%s.flags", d->dir, r->sched_list[s]);
        char *sum = file_sha256(elf);
        size_t len;
        char *flags = read_file(fl, &len);
        if (flags)
            flags[strcspn(flags, "\n")] = 0;
        fprintf(f, "kernel_image_%s: kernels/%s.elf sha256=%s\n", r->sched_list[s], r->sched_list[s], sum ? sum : "");
        fprintf(f, "kernel_flags_%s: %s\n", r->sched_list[s], flags ? flags : "");
        free(elf), free(fl), free(sum), free(flags);
    }
    for (size_t i = 0; i < d->njobs; i++) {
        const struct run_job *j = &d->jobs[i];
        char *words = xasprintf("%s%s%s", cmdline, j->extra[0] ? " " : "", j->extra);
        char *q = sh_quote(words);
        fprintf(f, "boot %s: tools/qemu-run.sh --kernel kernels/%s.elf --smp %ld --mem %ld --accel %s --timeout %ld "
                   "--cmdline %s\n",
                j->name, j->sched, j->smp, r->mem, r->accel, r->timeout, q);
        free(q);
        free(words);
    }
    if (fclose(f) != 0) {
        errorf("cannot write %s", path);
        ok = false;
    }
    free(path), free(rev), free(qemu), free(model), free(uname), free(la);
    return ok;
}

void write_meta_end(const char *dir, double t_start, int interrupted)
{
    char *path = xasprintf("%s/meta.txt", dir);
    FILE *f = fopen(path, "a");
    if (f) {
        char *la = loadavg();
        fprintf(f, "host_loadavg_end: %s\nwall_s: %ld\n", la, (long)(floor(pool_now()) - floor(t_start)));
        if (interrupted)
            fprintf(f, "interrupted: yes\n");
        fclose(f);
        free(la);
    }
    free(path);
}

/* ---------------------------------------------------------------- progress and messages */

static pid_t progress_pid = -1;
static bool progress_tty;

void progress_start(const char *plan, const char *label, long slots, bool quiet)
{
    progress_pid = -1;
    progress_tty = false;
    const char *env = getenv("SCHEDLAB_PROGRESS");
    if (env && !strcmp(env, "off"))
        return;
    const char *root = schedlab_root();
    char *times = xasprintf("%s/build/boot-times.txt", root ? root : "."),
         *ref = xasprintf("%s/tools/boot-times.txt", root ? root : ".");
    char pid[32], sl[32];
    snprintf(pid, sizeof(pid), "%ld", (long)getpid());
    snprintf(sl, sizeof(sl), "%ld", slots);
    char *argv[] = { (char *)self_exe(), "progress", (char *)plan, "--label", (char *)label, "--slots", sl, "--pid", pid,
                     "--times", times, "--reference", ref, quiet ? "--quiet" : NULL, NULL };
    progress_pid = spawn_start(argv, NULL);
    progress_tty = !quiet && isatty(2);
    free(times);
    free(ref);
}

void progress_stop(void)
{
    if (progress_pid <= 0)
        return;
    kill(progress_pid, SIGTERM);
    spawn_wait(progress_pid);
    progress_pid = -1;
    progress_tty = false;
}

void say(const char *fmt, ...)
{
    va_list ap;
    if (progress_tty)
        fputs("\r\033[K", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

long run_slots(const struct run_req *r)
{
    long slots = host_cores();
    if (r->engine == ENGINE_LOCAL && r->jobs && r->jobs < slots)
        slots = r->jobs;
    return slots;
}

/* ---------------------------------------------------------------- the boots as jobs */

struct job *run_jobs(const struct run_dir *d, const struct run_job *const *todo, size_t n, size_t order_base)
{
    struct job *jobs = xcalloc(n ? n : 1, sizeof(*jobs));
    for (size_t i = 0; i < n; i++) {
        struct argv a = { 0 };
        boot_argv(d, todo[i], &a);
        struct run_job_ref *ref = xcalloc(1, sizeof(*ref));
        ref->d = d;
        ref->j = todo[i];
        jobs[i].argv = a.v;   /* owned by the job now */
        jobs[i].out = boot_file(d, todo[i], "log");
        jobs[i].err = boot_file(d, todo[i], "err");
        jobs[i].vcpus = !strcmp(d->accel, "icount") || !strcmp(d->accel, "vsmp") ? 1 : todo[i]->smp;
        jobs[i].est = NAN;
        jobs[i].arg = ref;
        jobs[i].order = order_base + i;
        /* a new .rc means a new end: the old one goes before the boot starts */
        char *rc = boot_file(d, todo[i], "rc");
        unlink(rc);
        free(rc);
    }
    return jobs;
}

void run_jobs_free(struct job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; jobs[i].argv && jobs[i].argv[k]; k++)
            free(jobs[i].argv[k]);
        free(jobs[i].argv);
        free((char *)jobs[i].out);
        free((char *)jobs[i].err);
        free(jobs[i].arg);
    }
    free(jobs);
}

void run_job_started(struct job *j, void *ctx)
{
    (void)ctx;
    struct run_job_ref *ref = j->arg;
    say("schedlab: start  %s%s", ref->j->name,
        j->vcpus > host_cores() ? " (alone: more vCPUs than host cores, oversubscribed)" : "");
}

struct finish_ctx {
    size_t done, total;
    const struct pool *pool;
};

void run_job_finished(struct job *j, void *ctx)
{
    struct finish_ctx *c = ctx;
    struct run_job_ref *ref = j->arg;
    if (j->status != 130 && j->status != 143)
        boot_write_rc(ref->d, ref->j, j->status, j->t_start, j->t_end);
    c->done++;
    char *outcome = boot_outcome(ref->d, ref->j->name);
    say("schedlab: done   %s: %s | %zu/%zu done, %zu running", ref->j->name, outcome, c->done, c->total,
        c->pool->running);
    free(outcome);
}

/* ---------------------------------------------------------------- engines */

static int engine_local(const struct run_req *r, const struct run_dir *d, const struct run_job *const *todo, size_t n)
{
    struct job *jobs = run_jobs(d, todo, n, 0);
    struct finish_ctx c = { 0, n, NULL };
    struct pool p = { .budget = host_cores(), .max_jobs = r->jobs ? r->jobs : host_cores(),
                      .started = run_job_started, .finished = run_job_finished, .ctx = &c };
    c.pool = &p;
    int sig = pool_run(&p, jobs, n);
    run_jobs_free(jobs, n);
    return sig;
}

/* GNU parallel: one job per boot, each "schedlab boot OUT NAME"; its job log is OUT/parallel.joblog. */
static int engine_parallel(const struct run_req *r, const struct run_dir *d, const char *todo_file, size_t n)
{
    long maxsmp = 1;
    for (size_t i = 0; i < d->njobs; i++)
        if (d->jobs[i].smp > maxsmp)
            maxsmp = d->jobs[i].smp;
    if (!strcmp(d->accel, "icount") || !strcmp(d->accel, "vsmp"))
        maxsmp = 1;
    long slots = host_cores() / maxsmp;
    if (slots < 1)
        slots = 1;
    long jobs = r->jobs ? r->jobs : host_cores();
    if (slots > jobs)
        slots = jobs;
    char *joblog = xasprintf("%s/parallel.joblog", d->dir);
    fprintf(stderr, "schedlab: GNU parallel: %zu boot(s), %s%s%s%ld at once per host; job log %s\n", n,
            r->hosts ? "hosts from " : "", r->hosts ? r->hosts : "", r->hosts ? ", " : "", slots, joblog);
    struct argv a = { 0 };
    argv_add(&a, "parallel");
    argv_add(&a, "--will-cite");
    argv_add(&a, "-q");
    argv_add(&a, "--jobs");
    argv_addf(&a, "%ld", slots);
    argv_add(&a, "--joblog");
    argv_add(&a, joblog);
    argv_add(&a, "--halt");
    argv_add(&a, "never");
    argv_add(&a, "--line-buffer");
    if (r->hosts) {
        argv_add(&a, "--sshloginfile");
        argv_add(&a, r->hosts);
    }
    argv_add(&a, self_exe());
    argv_add(&a, "boot");
    argv_add(&a, d->dir);
    argv_add(&a, "::::");
    argv_add(&a, todo_file);
    /* GNU parallel runs a remote job through $SHELL; with SHELL unset (a CI job, cron) it runs nothing there */
    if (!getenv("SHELL"))
        setenv("SHELL", "/bin/sh", 1);
    pid_t pid = spawn_start(a.v, NULL);
    argv_free(&a);
    int rc = pid < 0 ? 127 : -1;
    while (pid >= 0) {
        int ws;
        pid_t w = waitpid(pid, &ws, 0);
        if (w == pid) {
            rc = spawn_status(ws);
            break;
        }
        if (pool_stop_signal())
            kill(pid, SIGTERM);   /* parallel stops its jobs */
    }
    if (!pool_stop_signal() && rc != 0)
        fprintf(stderr, "schedlab: GNU parallel exited %d: %d boot(s) could not be run (see %s)\n", rc, rc, joblog);
    free(joblog);
    return pool_stop_signal();
}

/* Slurm: a job array, one boot per task, submitted with sbatch --wait. */
static int engine_slurm(const struct run_req *r, const struct run_dir *d, const char *todo_file, size_t n)
{
    char *boots = xasprintf("%s/slurm-boots.txt", d->dir), *script = xasprintf("%s/slurm.sbatch", d->dir);
    char *submit = xasprintf("%s/slurm.submit", d->dir);
    size_t len;
    char *todo = read_file(todo_file, &len);
    FILE *bf = fopen(boots, "w");
    if (bf && todo)
        fputs(todo, bf);
    if (bf)
        fclose(bf);
    free(todo);
    long maxsmp = 1;
    for (size_t i = 0; i < d->njobs; i++)
        if (d->jobs[i].smp > maxsmp)
            maxsmp = d->jobs[i].smp;
    long minutes = (d->timeout + 60 + 59) / 60;
    FILE *f = fopen(script, "w");
    if (!f) {
        errorf("cannot write %s", script);
        return 0;
    }
    char *qb = sh_quote(boots), *qs = sh_quote(self_exe()), *qd = sh_quote(d->dir);
    fprintf(f, "#!/bin/sh\n# written by schedlab run --engine slurm: one boot of %s per array task\n", d->dir);
    fprintf(f, "#SBATCH --job-name=schedlab\n#SBATCH --array=1-%zu\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%ld\n"
               "#SBATCH --time=%ld\n#SBATCH --output=%s/logs/slurm-%%A_%%a.out\n",
            n, maxsmp, minutes, d->dir);
    fprintf(f, "name=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" %s)\n", qb);
    fprintf(f, "[ -n \"$name\" ] || { echo \"no boot number $SLURM_ARRAY_TASK_ID\" >&2; exit 1; }\n");
    fprintf(f, "exec %s boot %s \"$name\"\n", qs, qd);
    fclose(f);
    free(qb), free(qs), free(qd);
    fprintf(stderr, "schedlab: Slurm: %s, an array of %zu task(s); sbatch --wait %s\n", script, n,
            r->sbatch_args ? r->sbatch_args : "");
    struct argv a = { 0 };
    argv_add(&a, "sbatch");
    argv_add(&a, "--wait");
    size_t na;
    char **extra = split_list(r->sbatch_args, " ", &na);   /* the user's list of sbatch options, split at spaces */
    for (size_t i = 0; i < na; i++)
        argv_add(&a, extra[i]);
    free_list(extra, na);
    argv_add(&a, script);
    struct spawn_io io = { .out = submit, .err_to_out = true };
    pid_t pid = spawn_start(a.v, &io);
    argv_free(&a);
    int rc = 127;
    while (pid >= 0) {
        int ws;
        if (waitpid(pid, &ws, 0) == pid) {
            rc = spawn_status(ws);
            break;
        }
        if (pool_stop_signal())
            kill(pid, SIGTERM);
    }
    char *text = read_file(submit, &len);
    for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        fprintf(stderr, "schedlab: sbatch: %.*s\n", (int)strcspn(l, "\n"), l);
    if (pool_stop_signal()) {
        const char *sub = text ? strstr(text, "Submitted batch job ") : NULL;
        if (sub) {
            char *job = xstrndup(sub + 20, strspn(sub + 20, "0123456789"));
            char *argv[] = { "scancel", job, NULL };
            struct spawn_io q = { .out = "/dev/null", .err_to_out = true };
            spawn_run(argv, &q);
            free(job);
        }
    } else if (rc != 0) {
        fprintf(stderr, "schedlab: sbatch exited %d (some array task could not run; see %s/logs/slurm-*.out)\n", rc, d->dir);
    }
    free(text);
    free(boots), free(script), free(submit);
    return pool_stop_signal();
}

/* ---------------------------------------------------------------- after the boots */

static int run_verb(int (*verb)(int, char **), const char *name, const char *a1, const char *a2)
{
    char *argv[] = { (char *)name, (char *)a1, (char *)a2, NULL };
    int argc = a2 ? 3 : a1 ? 2 : 1;
    return verb(argc, argv);
}

/* Boots not ok in boots.csv (the verdict column), and the total. */
static void count_failed(const char *dir, long *failed, long *total)
{
    *failed = *total = 0;
    char *p = xasprintf("%s/boots.csv", dir);
    size_t len;
    char *t = read_file(p, &len);
    free(p);
    if (!t)
        return;
    int col = -1;
    size_t lineno = 0;
    for (char *save = NULL, *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save), lineno++) {
        int c = 0;
        const char *cell = l;
        for (const char *q = l;; q++) {
            if (*q == ',' || !*q) {
                size_t cl = (size_t)(q - cell);
                if (lineno == 0 && cl == 7 && !strncmp(cell, "verdict", 7))
                    col = c;
                else if (lineno > 0 && c == col && !(cl == 2 && !strncmp(cell, "ok", 2)))
                    (*failed)++;
                if (!*q)
                    break;
                c++;
                cell = q + 1;
            }
        }
        if (lineno > 0)
            (*total)++;
    }
    free(t);
}

/* The traced boot's stream into its files, checked against its console. */
static int trace_after_run(const struct run_req *r, const struct run_dir *d)
{
    if (!d->trace_boot)
        return 0;
    char *log = xasprintf("%s/logs/%s.log", d->dir, d->trace_boot);
    struct stat st;
    int rc = 0;
    if (stat(d->trace_out, &st) != 0 || st.st_size == 0) {
        fprintf(stderr, "schedlab: trace: boot %s wrote no trace (see %s)\n", d->trace_boot, log);
        free(log);
        return 1;
    }
    char *title = xasprintf("%s: %s", d->trace_boot, d->cmdline);
    char *files = xasprintf("%s/files.txt", r->trace_dir), *check = xasprintf("%s/check.txt", r->trace_dir);
    char *text = xasprintf("%s/trace.txt", r->trace_dir);
    struct argv a = { 0 };
    argv_add(&a, self_exe());
    argv_add(&a, "trace-convert");
    argv_add(&a, d->trace_out);
    argv_add(&a, "--out");
    argv_add(&a, r->trace_dir);
    argv_add(&a, "--title");
    argv_add(&a, title);
    size_t nx;
    char **extra = split_list(r->trace_tool_args, " ", &nx);
    for (size_t i = 0; i < nx; i++)
        argv_add(&a, extra[i]);
    free_list(extra, nx);
    struct spawn_io io = { .out = files };
    if (spawn_run(a.v, &io) != 0)
        rc = 1;
    argv_free(&a);
    if (!rc) {
        char *argv[] = { (char *)self_exe(), "trace-check", d->trace_out, "--text", text, "--log", log, NULL };
        struct spawn_io io2 = { .out = check };
        rc = spawn_run(argv, &io2) != 0;
        size_t len;
        char *c = read_file(check, &len);
        for (char *l = c; c && l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {   /* each CPU's drops */
            int cpu;
            if (sscanf(l, "trace: cpu %d dropped ", &cpu) == 1 && !strncmp(l, "trace: cpu ", 11) && strstr(l, " dropped "))
                fprintf(stderr, "schedlab: %.*s\n", (int)strcspn(l, "\n"), l);
        }
        if (c && len) {   /* its last line */
            size_t e = len;
            while (e && c[e - 1] == '\n')
                e--;
            size_t b = e;
            while (b && c[b - 1] != '\n')
                b--;
            fprintf(stderr, "schedlab: %.*s\n", (int)(e - b), c + b);
        }
        free(c);
        if (rc)
            fprintf(stderr, "schedlab: trace: the trace breaks an invariant (see %s)\n", check);
        fprintf(stderr, "schedlab: trace of %s in %s: trace.txt and trace.json (Perfetto UI), trace.dat (trace-cmd report, KernelShark), "
                        "timeline.html, latency.txt, summary.txt\n",
                d->trace_boot, r->trace_dir);
    }
    free(title), free(files), free(check), free(text), free(log);
    return rc;
}

/* Boots TODO (of d) with the chosen engine, then collects, prints the table and says how it went. */
static int run_boots(struct run_req *r, struct run_dir *d, const struct run_job *const *todo, size_t n)
{
    double t0 = pool_now();
    pool_catch_signals();
    if (n) {
        char *todo_file = xasprintf("%s/.todo", d->dir), *plan = xasprintf("%s/.plan", d->dir);
        FILE *f = fopen(todo_file, "w");
        for (size_t i = 0; f && i < n; i++)
            fprintf(f, "%s\n", todo[i]->name);
        if (f)
            fclose(f);
        if (r->engine != ENGINE_NONE) {
            char *argv[] = { (char *)self_exe(), "plan", "run", d->dir, NULL };
            struct spawn_io io = { .out = plan, .err = "/dev/null" };
            if (spawn_run(argv, &io) != 0) {
                FILE *e = fopen(plan, "w");
                if (e)
                    fclose(e);
            }
            progress_start(plan, "schedlab run", run_slots(r), r->quiet);
        }
        switch (r->engine) {
        case ENGINE_LOCAL: engine_local(r, d, todo, n); break;
        case ENGINE_PARALLEL: engine_parallel(r, d, todo_file, n); break;
        case ENGINE_SLURM: engine_slurm(r, d, todo_file, n); break;
        case ENGINE_NONE:
            fprintf(stderr, "schedlab: --engine none: %zu boot(s) prepared, none booted (schedlab boot %s, or run "
                            "--resume %s)\n",
                    n, d->dir, d->dir);
            break;
        }
        unlink(todo_file);
        free(todo_file);
        free(plan);
    }
    int sig = pool_stop_signal();
    int interrupted = sig == SIGINT ? 130 : sig ? 143 : 0;
    if (interrupted)
        say("schedlab: interrupted; stopping the running boots");
    write_meta_end(d->dir, t0, interrupted);
    cli_set_verb("run", NULL);
    int crc = run_verb(cmd_collect, "collect", d->dir, NULL);
    progress_stop();
    char *plan = xasprintf("%s/.plan", d->dir);
    unlink(plan);
    free(plan);
    if (crc) {
        errorf("collecting the results failed");
        return 1;
    }
    if (interrupted) {
        fprintf(stderr, "schedlab: interrupted: boots that never started are 'not run' (schedlab run --resume %s "
                        "finishes them)\n",
                d->dir);
        return interrupted;
    }
    fputc('\n', stderr);
    fflush(stderr);
    run_verb(cmd_table, "table", d->dir, NULL);
    fflush(stdout);
    fprintf(stderr, "schedlab: results in %s/results.csv (%s/meta.txt, %s/boots.csv, %s/logs/)\n", d->dir, d->dir, d->dir,
            d->dir);
    if (trace_after_run(r, d))
        return 1;
    if (r->engine == ENGINE_NONE)
        return 0;
    long failed, total;
    count_failed(d->dir, &failed, &total);
    if (failed) {
        fprintf(stderr, "schedlab: %ld of %ld boots failed or did not run (see schedlab failures %s)\n", failed, total,
                d->dir);
        return 1;
    }
    return 0;
}

int run_matrix(struct run_req *r)
{
    struct run_dir d;
    int rc;
    if (r->resume) {
        if (r->novalue)
            return verb_usage_error("unknown flag '%s'", r->novalue);
        if ((rc = check_engine_flags(r)))
            return rc;
        if (r->matrix_flags)
            return verb_usage_error("--resume DIR takes its matrix from DIR: no%s", r->matrix_flags);
        if (!run_dir_load(r->resume, &d)) {
            run_dir_free(&d);
            return 1;
        }
        const struct run_job **todo;
        size_t n = run_dir_todo(&d, r->retry_failed, &todo);
        time_t now = time(NULL);
        char date[32];
        strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        const char *engines[] = { "local", "parallel", "slurm", "none" };
        char *metap = xasprintf("%s/meta.txt", d.dir);
        FILE *f = fopen(metap, "a");
        if (f) {
            fprintf(f, "resumed: %s %zu of %zu boots (engine %s%s)\n", date, n, d.njobs, engines[r->engine],
                    r->retry_failed ? ", failed ones again" : "");
            fclose(f);
        }
        free(metap);
        fprintf(stderr, "schedlab: resuming %s: %zu of %zu boots to run (%s); engine %s\n", d.dir, n, d.njobs,
                r->retry_failed ? "unfinished and failed" : "unfinished", engines[r->engine]);
        rc = run_boots(r, &d, todo, n);
        free(todo);
        run_dir_free(&d);
        return rc;
    }
    if ((rc = run_prepare(r, &d))) {
        run_dir_free(&d);
        return rc;
    }
    const struct run_job **all = xcalloc(d.njobs + 1, sizeof(*all));
    for (size_t i = 0; i < d.njobs; i++)
        all[i] = &d.jobs[i];
    rc = run_boots(r, &d, all, d.njobs);
    free(all);
    run_dir_free(&d);
    return rc;
}
