/*
 * plan and progress: what the verbs that boot show while they run
 * (progress.h).
 *
 *   plan run DIR                 the boots of a prepared matrix (jobs.txt, matrix.txt)
 *   plan row DIR RUN-FLAGS...    the boots that "tools/schedlab run RUN-FLAGS --out DIR"
 *                                will make (reproduce plans every row before it starts one)
 *   plan stress DIR              the boots of DIR/plan.txt (tools/stress.sh)
 *   progress PLAN [--label T] [--slots N] [--pid P] [--times F] [--reference F] [--quiet]
 *                                one status line on stderr until process P ends (or a
 *                                signal): in place on a terminal, a plain line every 10 s
 *                                otherwise; records each finished boot's time in F
 *   progress PLAN --estimate     the ETA of the whole plan from the records, and exit
 */
#include "cmds.h"
#include "cli.h"
#include "pool.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char plan_usage[] =
    "usage: schedlab plan run DIR | plan row DIR RUN-FLAGS... | plan stress DIR\n"
    "  The boots a run will make, one a line: DONE-FILE START-FILE SLOTS KEY (tab-separated),\n"
    "  for schedlab progress.  row: from the flags of tools/schedlab run (comma lists are\n"
    "  swept inside one boot, as reproduce's are).  Exit: 0, 1 unreadable input, 2 usage error.\n";

static const char progress_usage[] =
    "usage: schedlab progress PLAN [--label TEXT] [--slots N] [--pid PID] [--times FILE]\n"
    "                              [--reference FILE] [--interval S] [--quiet] [--estimate]\n"
    "  The progress of the boots of PLAN (schedlab plan) on stderr: boots done / total,\n"
    "  running, elapsed and the ETA from the recorded times of earlier boots (--times, then\n"
    "  --reference), one line updated in place on a terminal, a plain line every --interval\n"
    "  seconds (10) otherwise; until process PID ends or a signal comes, then a last line.\n"
    "  Each boot that ends (DONE-FILE appears; rc=0 when it says) is appended to --times.\n"
    "  --quiet: print nothing, only record.  --estimate: print the plan's ETA and exit.\n"
    "  --slots: host cores the boots share (default: this host's).\n";

static void emit(const char *done, const char *start, long slots, const char *key)
{
    printf("%s\t%s\t%ld\t%s\n", done, start, slots, key);
}

/* The host cores the pool charges the boot (pool_charge): one under vsmp and icount, one per
 * vCPU under TCG, but one fewer than the cores when its vCPUs outnumber them (it runs niced
 * beside a one-core boot).  Charged as min(vCPUs, cores), seed000 --full's 4- and 8-CPU maxgroups
 * boots counted two cores each where they take one, and --estimate said 8:50 for a 7:46 run. */
static long boot_slots(const char *accel, long smp)
{
    if (streq(accel, "vsmp") || streq(accel, "icount"))
        return 1;
    bool niced;
    return pool_charge(smp, host_cores(), &niced);
}

/* The words of a line, split at spaces (the array and its strings allocated). */
static size_t split_words(const char *s, char ***out)
{
    char **w = NULL;
    size_t n = 0, cap = 0;
    while (s && *s) {
        s += strspn(s, " \t");
        size_t l = strcspn(s, " \t");
        if (!l)
            break;
        grow(&w, &cap, n, sizeof(*w));
        w[n++] = xstrndup(s, l);
        s += l;
    }
    *out = w;
    return n;
}

static void free_words(char **w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(w[i]);
    free(w);
}

/* plan run DIR */
static int plan_run(const char *dir)
{
    char *mpath = xasprintf("%s/matrix.txt", dir), *jpath = xasprintf("%s/jobs.txt", dir);
    size_t ml, jl;
    char *mbuf = read_file(mpath, &ml), *jbuf = read_file(jpath, &jl);
    int rc = 0;
    if (!mbuf || !jbuf) {
        errorf("%s: no matrix.txt and jobs.txt (not a directory of tools/schedlab run)", dir);
        rc = 1;
    }
    char *cmdline = NULL, *accel = NULL;
    long mem = 256;
    char *save = NULL;
    for (char *l = mbuf ? strtok_r(mbuf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(l, "cmdline ", 8) && !cmdline)
            cmdline = xstrdup(l + 8);
        else if (!strncmp(l, "accel ", 6) && !accel)
            accel = xstrdup(l + 6);
        else if (!strncmp(l, "mem ", 4))
            parse_long(l + 4, &mem);
    }
    char **cw = NULL;
    size_t ncw = split_words(cmdline, &cw);
    save = NULL;
    for (char *l = jbuf && !rc ? strtok_r(jbuf, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        char **jw;
        size_t nj = split_words(l, &jw);
        long smp;
        if (nj >= 4 && jw[0][0] != '#' && parse_long(jw[2], &smp)) {
            const char **all = xcalloc(ncw + nj, sizeof(*all));
            size_t n = 0;
            for (size_t i = 0; i < ncw; i++)
                all[n++] = cw[i];
            for (size_t i = 4; i < nj; i++)
                all[n++] = jw[i];
            char *key = boot_key(accel, mem, smp, jw[1], all, n);
            char *done = xasprintf("%s/logs/%s.rc", dir, jw[0]), *start = xasprintf("%s/logs/%s.log", dir, jw[0]);
            emit(done, start, boot_slots(accel, smp), key);
            free(done);
            free(start);
            free(key);
            free(all);
        }
        free_words(jw, nj);
    }
    free_words(cw, ncw);
    free(cmdline);
    free(accel);
    free(mbuf);
    free(jbuf);
    free(mpath);
    free(jpath);
    return rc;
}

/* The values of a comma list (allocated). */
static size_t split_commas(const char *s, char ***out)
{
    char **w = NULL;
    size_t n = 0, cap = 0;
    for (const char *p = s; p && *p;) {
        size_t l = strcspn(p, ",");
        grow(&w, &cap, n, sizeof(*w));
        w[n++] = xstrndup(p, l);
        p += l + (p[l] == ',');
    }
    *out = w;
    return n;
}

/* plan row DIR FLAGS...: the flags of run, as reproduce gives them (--key value). */
static int plan_row(const char *dir, int argc, char **argv)
{
    const char *scheds = NULL, *smps = "1", *accel = "tcg";
    long mem = 256, boots = 1;
    char **words = NULL;
    size_t nw = 0, cap = 0;
    for (int i = 0; i < argc; i++) {
        char *a = argv[i], *val = NULL, *opt = NULL;
        if (strncmp(a, "--", 2) && strcmp(a, "-j"))
            return usage_error("plan row: '%s' is not a flag of run", a);
        char *eq = strchr(a, '=');
        if (eq && !strncmp(a, "--", 2)) {
            opt = xstrndup(a, eq - a);
            val = eq + 1;
        } else {
            opt = xstrdup(a);
            if (!strcmp(a, "--force") || !strcmp(a, "--quiet") || !strcmp(a, "--retry-failed")) {
                free(opt);
                continue;
            }
            if (i + 1 >= argc) {
                free(opt);
                return usage_error("plan row: %s needs a value", a);
            }
            val = argv[++i];
        }
        if (!strcmp(opt, "--sched"))
            scheds = val;
        else if (!strcmp(opt, "--smp"))
            smps = val;
        else if (!strcmp(opt, "--accel"))
            accel = val;
        else if (!strcmp(opt, "--mem"))
            parse_long(val, &mem);
        else if (!strcmp(opt, "--boots"))
            parse_long(val, &boots);
        else if (!strcmp(opt, "--set")) {
            grow(&words, &cap, nw, sizeof(*words));
            words[nw++] = xstrdup(val);
        } else if (!strcmp(opt, "--out") || !strcmp(opt, "--timeout") || !strcmp(opt, "-j") || !strcmp(opt, "--jobs") ||
                   !strcmp(opt, "--engine") || !strcmp(opt, "--hosts") || !strcmp(opt, "--sbatch-args") ||
                   !strcmp(opt, "--hz") || !strcmp(opt, "--lock") || !strcmp(opt, "--cflags-extra") || !strcmp(opt, "--caches") ||
                   !strncmp(opt, "--trace", 7)) {
            /* not words of the kernel's command line */
        } else {
            char *key = xstrdup(opt + 2);
            for (char *c = key; *c; c++)
                if (*c == '-')
                    *c = '_';
            grow(&words, &cap, nw, sizeof(*words));
            words[nw++] = xasprintf("%s=%s", key, val);
            free(key);
        }
        free(opt);
    }
    if (!scheds) {
        free_words(words, nw);
        return usage_error("%s", "plan row: no --sched");
    }
    char **sl, **pl;
    size_t ns = split_commas(scheds, &sl), np = split_commas(smps, &pl);
    for (long b = 1; b <= boots; b++)
        for (size_t p = 0; p < np; p++)
            for (size_t s = 0; s < ns; s++) {
                long smp = atol(pl[p]);
                char *key = boot_key(accel, mem, smp, sl[s], (const char *const *)words, nw);
                char *done = xasprintf("%s/logs/%s-smp%ld-boot%ld.rc", dir, sl[s], smp, b);
                char *start = xasprintf("%s/logs/%s-smp%ld-boot%ld.log", dir, sl[s], smp, b);
                emit(done, start, boot_slots(accel, smp), key);
                free(key);
                free(done);
                free(start);
            }
    free_words(sl, ns);
    free_words(pl, np);
    free_words(words, nw);
    return 0;
}

/* plan stress DIR: DIR/plan.txt lines "IDX SCHED SMP MEM INTENT CMDLINE" (tab-separated), all under TCG. */
static int plan_stress(const char *dir)
{
    char *path = xasprintf("%s/plan.txt", dir);
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf) {
        errorf("%s: cannot be read", path);
        free(path);
        return 1;
    }
    char *save = NULL;
    for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *f[6];
        size_t nf = 0;
        for (char *q = l; q && nf < 6;) {
            f[nf++] = q;
            char *tab = nf < 6 ? strchr(q, '\t') : NULL;
            if (tab)
                *tab++ = '\0';
            q = tab;
        }
        long smp, mem;
        if (nf < 6 || !parse_long(f[2], &smp) || !parse_long(f[3], &mem))
            continue;
        char **cw;
        size_t nc = split_words(f[5], &cw);
        char *key = boot_key("tcg", mem, smp, f[1], (const char *const *)cw, nc);
        char *done = xasprintf("%s/res/%s", dir, f[0]), *start = xasprintf("%s/logs/%s.log", dir, f[0]);
        emit(done, start, boot_slots("tcg", smp), key);
        free(key);
        free(done);
        free(start);
        free_words(cw, nc);
    }
    free(buf);
    free(path);
    return 0;
}

int cmd_plan(int argc, char **argv)
{
    cli_set_usage(plan_usage);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("%s", plan_usage);
        return 0;
    }
    if (argc >= 2 && argv[1][0] == '-') {
        static const char *const flags[] = { "help", NULL };
        return unknown_flag_error(argv[1], flags);
    }
    if (argc < 3)
        return usage_error("%s", "plan needs run DIR, row DIR FLAGS... or stress DIR");
    if (!strcmp(argv[1], "run") && argc == 3)
        return plan_run(argv[2]);
    if (!strcmp(argv[1], "stress") && argc == 3)
        return plan_stress(argv[2]);
    if (!strcmp(argv[1], "row"))
        return plan_row(argv[2], argc - 3, argv + 3);
    return usage_error("plan: '%s': expected run DIR, row DIR FLAGS... or stress DIR", argv[1]);
}

/* ---------------------------------------------------------------- progress */

static volatile sig_atomic_t stop_signal;
static void on_stop(int sig)
{
    stop_signal = sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The wall_ms= (or wall_s=) of a DONE file, and whether it says rc=0 (a file without rc= counts as ok). */
static bool done_file(const char *path, double *wall, bool *ok)
{
    size_t len;
    char *buf = read_file(path, &len);
    if (!buf)
        return false;
    *wall = NAN;
    *ok = true;
    const char *p = strstr(buf, "wall_ms="), *q = strstr(buf, "wall_s=");
    char *end;
    if (p) {   /* run's .rc: milliseconds, and whole seconds for the tables */
        double w = strtod(p + 8, &end);
        if (end > p + 8 && w >= 0)
            *wall = w / 1000.0;
    } else if (q) {
        double w = strtod(q + 7, &end);
        if (end > q + 7 && w >= 0)
            *wall = w;
    }
    p = strstr(buf, "rc=");
    if (p && (p == buf || p[-1] == ' ' || p[-1] == '\n'))
        *ok = p[3] == '0' && (p[4] == ' ' || p[4] == '\n' || p[4] == '\0');
    free(buf);
    return true;
}

/* The host's load average over the last minute (NAN when unknown). */
static double host_load(void)
{
    size_t len;
    char *buf = read_file("/proc/loadavg", &len);
    double x = NAN;
    if (buf && sscanf(buf, "%lf", &x) != 1)
        x = NAN;
    free(buf);
    return x;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The status line: "LABEL: 3/18 boots done, 2 running, elapsed 0:12, ETA 0:30" */
static char *status_line(const char *label, const struct eta *e, double elapsed, bool final)
{
    char el[32], eta[32];
    fmt_duration(el, sizeof(el), elapsed);
    struct strbuf b = { 0 };
    sb_printf(&b, "%s: %zu/%zu boots done", label, e->done, e->total);
    if (final) {
        sb_printf(&b, " in %s", el);
        return b.s;
    }
    if (e->running)
        sb_printf(&b, ", %zu running", e->running);
    sb_printf(&b, ", elapsed %s", el);
    if (e->done == e->total) {
        sb_add(&b, ", finishing");
    } else if (!isfinite(e->seconds)) {
        sb_add(&b, ", ETA unknown (no recorded time of these boots yet)");
    } else {
        fmt_duration(eta, sizeof(eta), e->seconds);
        sb_printf(&b, ", ETA %s%s", e->unknown ? "more than " : "", eta);
        if (e->unknown)
            sb_printf(&b, " (%zu boot%s never recorded)", e->unknown, e->unknown == 1 ? "" : "s");
        else if (!e->from_records)
            sb_printf(&b, " (from this run's %zu boot%s)", e->done, e->done == 1 ? "" : "s");
    }
    return b.s;
}

/* Looks each boot up in the records (local first, then the reference). */
static void estimate_boots(struct plan *p, const struct times *local, const struct times *ref)
{
    for (size_t i = 0; i < p->n; i++) {
        double t = times_lookup(local, p->b[i].key);
        if (!isfinite(t))
            t = times_lookup(ref, p->b[i].key);
        p->b[i].est = t;
    }
}

int cmd_progress(int argc, char **argv)
{
    const char *plan_path = NULL, *label = "progress", *times_path = NULL, *ref_path = NULL;
    long slots = host_cores(), pid = 0, interval = 10;
    bool quiet = false, estimate = false;
    static const char *const names[] = { "quiet", "estimate", "label", "times", "reference", "slots", "pid", "interval",
                                         "help", NULL };
    cli_set_usage(progress_usage);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", progress_usage);
            return 0;
        }
        if (!strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (!strcmp(a, "--estimate")) {
            estimate = true;
            continue;
        }
        if (a[0] == '-') {
            bool known = false;
            for (size_t k = 0; names[k]; k++)
                known = known || (!strncmp(a, "--", 2) && !strcmp(a + 2, names[k]));
            if (!known)
                return unknown_flag_error(a, names);
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--label"))
                label = v;
            else if (!strcmp(a, "--times"))
                times_path = v;
            else if (!strcmp(a, "--reference"))
                ref_path = v;
            else if (!strcmp(a, "--slots") || !strcmp(a, "--pid") || !strcmp(a, "--interval")) {
                long x;
                if (!parse_long(v, &x) || x < 1)
                    return usage_error("%s: expected a number >= 1", a);
                *(!strcmp(a, "--slots") ? &slots : !strcmp(a, "--pid") ? &pid : &interval) = x;
            } else
                return unknown_flag_error(a, names);
            continue;
        }
        if (plan_path)
            return usage_error("progress takes one plan (got '%s' too)", a);
        plan_path = a;
    }
    if (!plan_path)
        return usage_error("%s", "progress needs a plan file (schedlab plan)");
    struct plan p = { 0 };
    if (!plan_read(plan_path, &p)) {
        errorf("%s: cannot be read", plan_path);
        return 1;
    }
    struct times local = { 0 }, ref = { 0 };
    times_read(times_path, &local);
    times_read(ref_path, &ref);
    estimate_boots(&p, &local, &ref);
    if (estimate) {
        struct eta e;
        plan_eta(&p, 0, slots, &e);
        char *hash = plan_hash(&p), *rk = xasprintf("run:%s", hash);
        double whole = times_lookup(&local, rk);
        const char *note = times_note(&local, rk), *where = times_path;
        if (!isfinite(whole)) {
            whole = times_lookup(&ref, rk);
            note = times_note(&ref, rk);
            where = ref_path;
        }
        char eta[32], all[32];
        fmt_duration(eta, sizeof(eta), e.seconds);
        /* never less than its boots alone (the records are medians of other runs) */
        fmt_duration(all, sizeof(all), isfinite(e.seconds) && !e.unknown && e.seconds > whole ? e.seconds : whole);
        size_t known = e.total - e.unknown;
        if (isfinite(whole)) {   /* the median of the last five; the latest's date and the host's load then */
            const char *ld = note ? strstr(note, " [load ") : NULL;
            const char *w = where ? where : "?", *rel = strstr(w, "/build/") ? strstr(w, "/build/") + 1
                                                       : strstr(w, "/tools/") ? strstr(w, "/tools/") + 1 : w;
            printf("%s: %zu boots; about %s, as whole runs of these boots took here (the latest %.10s%s%.*s; %s)", label,
                   e.total, all, note ? note : "?", ld ? ", load " : "", ld ? (int)strcspn(ld + 7, "]") : 0,
                   ld ? ld + 7 : "", rel);
        }
        else if (isfinite(e.seconds))
            printf("%s: %zu boots; the boots alone %s%s on %ld host core%s (recorded times of %zu of the %zu boots%s), "
                   "building and scoring come on top", label, e.total, e.unknown ? "more than " : "about ", eta, slots,
                   slots == 1 ? "" : "s", known, e.total, e.unknown ? ": the others are not counted" : "");
        else
            printf("%s: %zu boots; no recorded time of any of them yet", label, e.total);
        if (isfinite(whole) && isfinite(e.seconds) && !e.unknown)
            printf(" (the boots alone: %s on %ld host core%s)", eta, slots, slots == 1 ? "" : "s");
        printf("\n");
        free(hash);
        free(rk);
        plan_free(&p);
        times_free(&local);
        times_free(&ref);
        return 0;
    }
    struct sigaction sa = { 0 };
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    bool tty = !quiet && isatty(2);
    double load0 = host_load();
    double t0 = now_s(), last_print = t0;
    for (size_t i = 0; i < p.n; i++)
        p.b[i].done_before = exists(p.b[i].done);
    /* the plan as planned: its whole runs are recorded and looked up by this */
    char *hash = plan_hash(&p), *rk = xasprintf("run:%s", hash);
    double whole = times_lookup(&local, rk);
    if (!isfinite(whole))
        whole = times_lookup(&ref, rk);
    struct stat pst;
    struct timespec pmtime = { 0, 0 };
    off_t psize = -1;
    if (stat(plan_path, &pst) == 0) {
        pmtime = pst.st_mtim;
        psize = pst.st_size;
    }
    for (;;) {
        bool last = stop_signal || (pid && kill((pid_t)pid, 0) != 0 && errno == ESRCH);
        double now = now_s() - t0;
        /* A plan that changed (reproduce drops the boots of a row that is not
         * available): read again, each boot keeping what was seen of it. */
        if (stat(plan_path, &pst) == 0 && (pst.st_size != psize || pst.st_mtim.tv_sec != pmtime.tv_sec ||
                                           pst.st_mtim.tv_nsec != pmtime.tv_nsec)) {
            struct plan np = { 0 };
            if (plan_read(plan_path, &np)) {
                estimate_boots(&np, &local, &ref);
                for (size_t i = 0; i < np.n; i++) {
                    np.b[i].done_before = exists(np.b[i].done);
                    for (size_t j = 0; j < p.n; j++)
                        if (!strcmp(np.b[i].done, p.b[j].done)) {
                            struct plan_boot keep = p.b[j];
                            keep.done = np.b[i].done;
                            keep.start = np.b[i].start;
                            keep.key = np.b[i].key;
                            keep.est = np.b[i].est;
                            np.b[i] = keep;
                            break;
                        }
                }
                plan_free(&p);   /* its strings: np has its own */
                p = np;
            }
            pmtime = pst.st_mtim;
            psize = pst.st_size;
        }
        for (size_t i = 0; i < p.n; i++) {
            struct plan_boot *b = &p.b[i];
            if (b->done_before || b->finished)
                continue;
            if (!b->seen_start && exists(b->start)) {
                b->seen_start = true;
                b->t_start = now;
            }
            double wall;
            bool ok;
            if (done_file(b->done, &wall, &ok)) {
                b->finished = true;
                b->t_end = now;
                b->wall = isfinite(wall) ? wall : b->seen_start ? now - b->t_start : NAN;
                if (ok && isfinite(b->wall) && times_path && !times_append(times_path, b->wall, b->key) && !quiet)
                    fprintf(stderr, "%s%s: cannot record boot times in %s\n", tty ? "\r\033[K" : "", label, times_path);
                if (!ok)
                    b->wall = NAN;   /* a failed boot's time says nothing of the next */
            }
        }
        struct eta e;
        plan_eta(&p, now, slots, &e);
        if (isfinite(whole) && e.done < e.total) {   /* what the boots leave out: builds, scoring, plots */
            double left = whole * e.factor - now;
            if (!isfinite(e.seconds) || left > e.seconds) {
                e.seconds = left > 0 ? left : 0;
                e.from_records = true;
                e.unknown = 0;
            }
        }
        if (last && times_path) {   /* a whole run, every boot ended well: its time for the next ETA */
            bool all_ok = e.total > 0;
            for (size_t i = 0; i < p.n && all_ok; i++)
                all_ok = p.b[i].done_before || (p.b[i].finished && isfinite(p.b[i].wall));
            /* the host's load beside it: a time measured on a busy host says so */
            double load1 = host_load();
            char *lab = isfinite(load0) && isfinite(load1) ? xasprintf("%s [load %.1f-%.1f]", label, load0, load1)
                                                            : xstrdup(label);
            bool ok = !all_ok || times_append_run(times_path, now, hash, lab);
            free(lab);
            if (!ok && !quiet)
                fprintf(stderr, "%s%s: cannot record the run's time in %s\n", tty ? "\r\033[K" : "", label, times_path);
        }
        if (!quiet && (last || tty || now_s() - last_print >= (double)interval)) {
            char *s = status_line(label, &e, now, last);
            if (tty)
                fprintf(stderr, "\r\033[K%s%s", s, last ? "\n" : "");
            else if (!last || e.done || e.total)
                fprintf(stderr, "%s\n", s);
            last_print = now_s();
            free(s);
        }
        if (last)
            break;
        /* sleep a second, or until a signal */
        struct timespec ts = { 1, 0 };
        nanosleep(&ts, NULL);
    }
    free(hash);
    free(rk);
    plan_free(&p);
    times_free(&local);
    times_free(&ref);
    return 0;
}
