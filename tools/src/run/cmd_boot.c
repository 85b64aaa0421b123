/*
 * boot DIR [NAME...] [--shard K/N] [--retry-failed]: boots of a prepared
 * matrix in the foreground, one after another (what GNU parallel and
 * Slurm run for run --engine parallel|slurm).
 * merge OUT DIR...: partial results directories of one matrix into one.
 */
#define _DEFAULT_SOURCE
#include "cli.h"
#include "cmds.h"
#include "matrix.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct verb_spec boot_spec = {
    "boot", 0,
    "usage: schedlab boot DIR [NAME...] [--shard K/N] [--retry-failed]\n"
    "  boot named boots of a prepared matrix (run --engine none, or any results\n"
    "  directory) in the foreground, with DIR's kernels and settings, and write\n"
    "  their logs/NAME.{log,err,rc}; no NAME: every boot that has not finished.\n"
    "  --shard K/N: only the K-th of every N of those (split a matrix over\n"
    "  machines, then schedlab merge).  What GNU parallel and Slurm run.\n"
    "  A failed boot is data (exit 0); exit 1 only when a boot could not be started.\n",
    NULL,
};

int cmd_boot(int argc, char **argv)
{
    cli_set_verb("boot", &boot_spec);
    const char *dir = NULL, *shard = NULL;
    const char **names = xcalloc((size_t)argc + 1, sizeof(char *));
    size_t nnames = 0;
    bool retry = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(boot_spec.usage, stdout);
            free(names);
            return 0;
        } else if (!strcmp(a, "--shard") || !strncmp(a, "--shard=", 8)) {
            if (a[7] == '=')
                shard = a + 8;
            else if (i + 1 < argc)
                shard = argv[++i];
            else {
                free(names);
                return verb_usage_error("--shard needs a value (K/N)");
            }
        } else if (!strcmp(a, "--retry-failed")) {
            retry = true;
        } else if (a[0] == '-') {
            static const char *const flags[] = { "shard", "retry-failed", "help", NULL };
            const char *near = suggest(a + strspn(a, "-"), flags);
            free(names);
            return near ? verb_usage_error("unknown flag '%s' (did you mean --%s?)", a, near)
                        : verb_usage_error("unknown flag '%s'", a);
        } else if (!dir) {
            dir = a;
        } else {
            names[nnames++] = a;
        }
    }
    if (!dir) {
        free(names);
        return verb_usage_error("boot needs a results directory");
    }
    long k = 0, n = 0;
    if (shard) {
        char *slash;
        k = strtol(shard, &slash, 10);
        if (slash == shard || *slash != '/' || (n = strtol(slash + 1, &slash, 10)) < 1 || *slash || k < 1 || k > n) {
            free(names);
            return verb_usage_error("--shard %s: expected K/N with 1 <= K <= N", shard);
        }
    }
    struct run_dir d;
    if (!run_dir_load(dir, &d)) {
        run_dir_free(&d);
        free(names);
        return 1;
    }
    const struct run_job **list;
    size_t nl = 0;
    if (nnames) {
        list = xcalloc(nnames, sizeof(*list));
        for (size_t i = 0; i < nnames; i++) {
            list[nl] = run_dir_job(&d, names[i]);
            if (!list[nl]) {
                errorf("%s/jobs.txt: no boot named %s", d.dir, names[i]);
                free(list);
                run_dir_free(&d);
                free(names);
                return 1;
            }
            nl++;
        }
    } else {
        nl = run_dir_todo(&d, retry, &list);
    }
    int status = 0;
    size_t idx = 0;
    for (size_t i = 0; i < nl; i++) {
        if (shard && (long)(idx++ % (size_t)n) != k - 1)
            continue;
        boot_run(&d, list[i]);
        char *rc = boot_file(&d, list[i], "rc");
        struct stat st;
        if (stat(rc, &st) != 0)
            status = 1;
        free(rc);
        char *outcome = boot_outcome(&d, list[i]->name);
        fprintf(stderr, "schedlab: done   %s: %s\n", list[i]->name, outcome);
        free(outcome);
    }
    free(list);
    run_dir_free(&d);
    free(names);
    return status;
}

/* ---------------------------------------------------------------- merge */

static const struct verb_spec merge_spec = {
    "merge", 0,
    "usage: schedlab merge OUT DIR...\n"
    "  combine partial results directories of one matrix (the same matrix.txt, jobs.txt and\n"
    "  kernels) into OUT: each boot's logs from the directory where it finished (ok before\n"
    "  failed), then collect.  OUT must be new or empty.\n",
    NULL,
};

static bool same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = read_file(a, &la), *y = read_file(b, &lb);
    bool same = x && y && la == lb && !memcmp(x, y, la);
    free(x);
    free(y);
    return same;
}

int cmd_merge(int argc, char **argv)
{
    cli_set_verb("merge", &merge_spec);
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(merge_spec.usage, stdout);
            return 0;
        }
    static const char *const flags[] = { "help", NULL };
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-')
            return unknown_flag_error(argv[i], flags);
    if (argc < 3)
        return verb_usage_error("merge needs OUT and at least one results directory");
    const char *out = argv[1];
    const char *first = argv[2];
    char *outreal = realpath(out, NULL);
    for (int i = 2; i < argc; i++) {
        const char *d = argv[i];
        char *mt = xasprintf("%s/matrix.txt", d), *jt = xasprintf("%s/jobs.txt", d);
        struct stat st;
        bool ok = stat(mt, &st) == 0 && stat(jt, &st) == 0;
        char *dreal = realpath(d, NULL);
        int rc = 0;
        if (!ok && no_such_dir(d, "results directory", "schedlab run ... --out DIR"))
            rc = 1;
        else if (!ok) {
            errorf("%s: no matrix.txt and jobs.txt (not a directory of schedlab run)", d);
            rc = 1;
        } else if (outreal && dreal && !strcmp(outreal, dreal)) {
            errorf("merge OUT must not be one of the directories merged");
            rc = 1;
        } else {
            static const char *const files[] = { "matrix.txt", "jobs.txt", NULL };
            for (int f = 0; files[f] && !rc; f++) {
                char *a = xasprintf("%s/%s", first, files[f]), *b = xasprintf("%s/%s", d, files[f]);
                if (!same_file(a, b)) {
                    errorf("%s differs from %s: not parts of one matrix", b, a);
                    rc = 1;
                }
                free(a);
                free(b);
            }
            char *kd = xasprintf("%s/kernels", first);
            DIR *dh = opendir(kd);
            struct dirent *e;
            while (!rc && dh && (e = readdir(dh))) {
                size_t l = strlen(e->d_name);
                if (l < 5 || strcmp(e->d_name + l - 4, ".elf"))
                    continue;
                char *a = xasprintf("%s/%s", kd, e->d_name), *b = xasprintf("%s/kernels/%s", d, e->d_name);
                if (!same_file(a, b)) {
                    errorf("%s differs from %s: not parts of one matrix", b, a);
                    rc = 1;
                }
                free(a);
                free(b);
            }
            if (dh)
                closedir(dh);
            free(kd);
        }
        free(dreal);
        free(mt);
        free(jt);
        if (rc) {
            free(outreal);
            return rc;
        }
    }
    free(outreal);
    struct stat st;
    if (stat(out, &st) == 0) {
        DIR *dh = opendir(out);
        struct dirent *e;
        bool empty = true;
        while (dh && (e = readdir(dh)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                empty = false;
        if (dh)
            closedir(dh);
        if (!S_ISDIR(st.st_mode)) {
            errorf("%s exists and is not a directory", out);
            return 1;
        }
        if (!empty) {
            errorf("%s is not empty (merge writes a new directory)", out);
            return 1;
        }
    }
    char *logs = xasprintf("%s/logs", out);
    char *mk[] = { "mkdir", "-p", "--", logs, NULL };
    if (spawn_run(mk, NULL) != 0) {
        errorf("cannot create %s", logs);
        free(logs);
        return 1;
    }
    char *ms = xasprintf("%s/matrix.txt", first), *js = xasprintf("%s/jobs.txt", first);
    char *md = xasprintf("%s/matrix.txt", out), *jd = xasprintf("%s/jobs.txt", out);
    char *ks = xasprintf("%s/kernels", first);
    int rc = 0;
    if (!copy_file(ms, md) || !copy_file(js, jd)) {
        errorf("cannot copy into %s", out);
        rc = 1;
    }
    if (!rc && stat(ks, &st) == 0) {
        char *cp[] = { "cp", "-r", "--", ks, (char *)out, NULL };
        if (spawn_run(cp, NULL) != 0) {
            errorf("cannot copy the kernels into %s", out);
            rc = 1;
        }
    }
    /* meta.txt without the lines of a run's end */
    char *meta_s = xasprintf("%s/meta.txt", first), *meta_d = xasprintf("%s/meta.txt", out);
    size_t len;
    char *meta = read_file(meta_s, &len);
    FILE *mf = !rc ? fopen(meta_d, "w") : NULL;
    for (char *save = NULL, *l = meta && mf ? strtok_r(meta, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
        if (strncmp(l, "host_loadavg_end: ", 18) && strncmp(l, "wall_s: ", 8) && strncmp(l, "interrupted: ", 13))
            fprintf(mf, "%s\n", l);
    if (mf) {
        fprintf(mf, "merged_from:");
        for (int i = 2; i < argc; i++)
            fprintf(mf, " %s", argv[i]);
        fprintf(mf, "\n");
        fclose(mf);
    }
    free(meta);
    free(meta_s);
    free(meta_d);
    size_t taken = 0, missing = 0;
    char *jobs = rc ? NULL : read_file(js, &len);
    for (char *save = NULL, *l = jobs ? strtok_r(jobs, "\n", &save) : NULL; l && !rc; l = strtok_r(NULL, "\n", &save)) {
        if (!*l || *l == '#')
            continue;
        char *name = xstrndup(l, strcspn(l, " "));
        const char *pick = NULL, *okpick = NULL;
        int found = 0;
        for (int i = 2; i < argc; i++) {
            char *rcf = xasprintf("%s/logs/%s.rc", argv[i], name);
            if (stat(rcf, &st) == 0) {
                found++;
                if (!pick)
                    pick = argv[i];
                if (!okpick && rc_file_status(rcf) == 0)
                    okpick = argv[i];
            }
            free(rcf);
        }
        if (okpick)
            pick = okpick;
        if (!pick) {
            missing++;
        } else {
            if (found > 1)
                fprintf(stderr, "merge: %s finished in %d directories: taking %s's\n", name, found, pick);
            static const char *const exts[] = { "log", "err", "rc", NULL };
            for (int e = 0; exts[e] && !rc; e++) {
                char *a = xasprintf("%s/logs/%s.%s", pick, name, exts[e]), *b = xasprintf("%s/logs/%s.%s", out, name, exts[e]);
                if (stat(a, &st) == 0 && !copy_file(a, b)) {
                    errorf("cannot copy %s", a);
                    rc = 1;
                }
                free(a);
                free(b);
            }
            taken++;
        }
        free(name);
    }
    free(jobs);
    if (!rc) {
        if (missing)
            fprintf(stderr, "merge: %zu boot(s) from %d directories into %s, %zu not run anywhere\n", taken, argc - 2, out,
                    missing);
        else
            fprintf(stderr, "merge: %zu boot(s) from %d directories into %s\n", taken, argc - 2, out);
        char *av[] = { "collect", (char *)out, NULL };
        rc = cmd_collect(2, av);
    }
    free(logs), free(ms), free(js), free(md), free(jd), free(ks);
    return rc;
}
