/*
 * Seed 001: Rob Hussey, LKML, September 2007: lat_ctx, hackbench 50 and
 * pipe-test on a dual-core machine, 2.6.23-rc1, -rc6 and CFS-devel (rc1,
 * rc6, cfs here), unbound and bound to one CPU: the post's numbers, how its
 * six tables are scored, and how reproduce measures them.
 */
#include "scoring.h"
#include "reproduce.h"
#include "cli.h"
#include "metric.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* seed 001 (Rob Hussey, LKML Sep 2007): 10 runs each, rc1 rc6 cfs-devel */
static const double s001[6][3][10] = {
    { { 4.58, 4.76, 4.74, 4.74, 4.79, 4.80, 4.52, 4.72, 4.87, 4.69 },
      { 4.39, 4.42, 4.52, 4.44, 4.74, 4.65, 4.54, 4.57, 4.67, 4.47 },
      { 4.42, 4.41, 4.67, 4.76, 4.59, 4.76, 4.50, 4.62, 4.80, 4.65 } },
    { { 6.634, 6.342, 6.219, 6.702, 6.287, 6.239, 6.434, 6.229, 6.387, 6.383 },
      { 5.969, 5.974, 5.913, 5.980, 6.007, 6.022, 5.946, 6.007, 5.947, 5.946 },
      { 5.894, 5.903, 5.941, 5.916, 5.943, 5.899, 5.904, 5.941, 5.880, 5.933 } },
    { { 13.39, 13.37, 13.19, 13.17, 13.16, 13.15, 13.18, 13.45, 13.40, 13.39 },
      { 13.16, 13.12, 13.17, 13.16, 13.22, 13.19, 13.42, 13.39, 13.40, 13.44 },
      { 13.20, 13.22, 13.26, 13.18, 13.23, 13.18, 13.21, 13.26, 13.28, 13.24 } },
    { { 3.20, 3.20, 3.21, 3.19, 3.19, 3.22, 3.21, 3.22, 3.23, 3.22 },
      { 2.61, 2.60, 2.67, 2.66, 2.64, 2.67, 3.29, 2.61, 2.68, 2.60 },
      { 2.37, 2.40, 2.38, 2.34, 2.37, 2.36, 2.36, 2.44, 2.36, 2.37 } },
    { { 7.528, 7.649, 7.613, 7.550, 7.563, 7.617, 7.593, 7.602, 7.589, 7.682 },
      { 7.950, 8.026, 8.160, 8.054, 8.373, 8.152, 7.831, 8.311, 8.010, 8.059 },
      { 7.538, 7.548, 7.580, 7.558, 7.559, 7.550, 7.562, 7.588, 7.552, 7.556 } },
    /* bound pipe-test: the post has 7 runs */
    { { 10.29, 10.30, 10.31, 10.29, 10.28, 10.30, 10.30, NAN, NAN, NAN },
      { 9.27, 9.29, 9.28, 9.27, 9.28, 9.28, 9.28, NAN, NAN, NAN },
      { 8.54, 8.54, 8.54, 8.54, 8.53, 8.53, 8.54, NAN, NAN, NAN } },
};
static const char *const s001_tables[6] = { "lat_ctx", "hackbench", "pipe", "lat_ctx-bound", "hackbench-bound",
                                            "pipe-bound" };
static const char *const s001_titles[6] = { "lat_ctx -s 0 2", "hackbench 50", "pipe-test",
                                            "lat_ctx -s 0 2 (bound to single core)",
                                            "hackbench 50 (bound to single core)", "pipe-test (bound to single core)" };
static const char *const s001_bench[3] = { "lat_ctx", "hackbench", "pipe" };
static const char *const s001_metric[3] = { "usec_per_switch", "time_s", "usec_per_op" };


/* ---------------------------------------------------------------- seed 001 */

static const char *const s001_keys[3] = { "rc1", "rc6", "cfs" };

static int seed001_table(const char *table)
{
    int ti = -1;
    for (int i = 0; i < 6; i++)
        if (!strcmp(table, s001_tables[i]))
            ti = i;
    struct row *r[3];
    for (int k = 0; k < 3; k++)
        if (!(r[k] = find_row(s001_keys[k])))
            return usage_error("seed001 needs the row %s=DIR (or =!why)", s001_keys[k]);
    const char *bench = s001_bench[ti % 3], *metric = s001_metric[ti % 3];
    double v[3][16];
    size_t n[3];
    double m[3], sm[3];
    const char *why[3];
    bool over = false;
    size_t seed_n = 0;
    for (int i = 0; i < 10; i++)
        seed_n += isfinite(s001[ti][0][i]);
    for (int k = 0; k < 3; k++) {
        size_t nf = 0;
        n[k] = row_values(r[k], bench, metric, 0, NULL, NULL, v[k], 16, &nf, &over);
        m[k] = mean(v[k], n[k]);
        sm[k] = mean(s001[ti][k], seed_n);
        why[k] = r[k]->missing ? r[k]->missing : !n[k] ? (nf ? "FAILED: every run failed" : "not measured: no run") : NULL;
    }
    printf("%s (%s): here beside the seed, one column per kernel, one line per run\n", s001_titles[ti], metric);
    static const struct size_spec lat_spec[] = { { "procs", "procs", "2" }, { "size", "size", "0 (lat_ctx -s 0 2)" },
                                                 { "loops", "loops", "lmbench's default" }, { "reps", "reps", "lmbench's default" },
                                                 { "bind", "bound to CPU", "0 (bound to a single core)" } };
    static const struct size_spec hb_spec[] = { { "groups", "groups", "50 (hackbench 50)" },
                                                { "loops", "loops", "100 (hackbench's default)" },
                                                { "bind", "bound to CPU", "0 (bound to a single core)" } };
    static const struct size_spec pipe_spec[] = { { "loops", "round trips", "1000000 (pipe-test's)" },
                                                  { "bind", "bound to CPU", "0 (bound to a single core)" } };
    const struct size_spec *spec = ti % 3 == 0 ? lat_spec : ti % 3 == 1 ? hb_spec : pipe_spec;
    size_t nspec = (ti % 3 == 0 ? 5 : ti % 3 == 1 ? 3 : 2) - (ti < 3);   /* bind= only where bound */
    describe(bench, spec, nspec, ti == 5 ? "7 runs a cell" : "10 runs a cell", "2 CPUs", "Rob Hussey's dual core",
             "2.6.23-rc1, 2.6.23-rc6 and CFS-devel (v21 combo-3)");
    title_text = s001_titles[ti];
    compares = ti < 3 ? "ratios between the kernels' means over their runs: rc6/rc1 and cfs/rc1 (2 cells), and which of "
                        "each pair is faster (3 orderings). A machine 20 years newer gives other seconds; what is "
                        "scored is whether the kernels stand to each other as in the post."
                      : "ratios between the kernels' means over their runs: rc6/rc1 and cfs/rc1 (2 cells), each kernel's "
                        "bound mean over its unbound mean (3 cells, a normalisation within one kernel), and which of "
                        "each pair of kernels is faster (3 orderings).";
    print_described();
    print_unavailable();
    printf("# %-4s %9s %9s %9s   | %9s %9s %9s\n", "run", "rc1", "rc6", "cfs", "rc1", "rc6", "cfs-devel");
    size_t lines = seed_n;
    for (int k = 0; k < 3; k++)
        if (n[k] > lines)
            lines = n[k];
    for (size_t i = 0; i < lines; i++) {
        printf("  %-4zu ", i + 1);
        for (int k = 0; k < 3; k++)
            print_val(i < n[k] ? v[k][i] : NAN, 10, 3);
        printf("   |");
        for (int k = 0; k < 3; k++)
            print_val(i < 10 ? s001[ti][k][i] : NAN, 10, 3);
        printf("\n");
    }
    printf("  %-4s ", "mean");
    for (int k = 0; k < 3; k++)
        print_val(m[k], 10, 3);
    printf("   |");
    for (int k = 0; k < 3; k++)
        print_val(sm[k], 10, 3);
    printf("\n");
    /* Which CPUs each kernel's runs used (the boot's cpus_used): the post's
     * unbound rows ran on both cores of its dual core, the bound ones on one. */
    printf("  %-4s ", "cpus");
    for (int k = 0; k < 3; k++) {
        char cu[64];
        printf("%10s", row_cpus_used(r[k], bench, cu, sizeof(cu)));
    }
    printf("   |   (cpus_used; the post: %s)\n", ti >= 3 ? "bound to one core" : "unbound on a dual core");
    if (over)
        printf("  (here oversubscribed: more vCPUs than host cores)\n");
    /* the post's runs and ours, side by side; the unit in the caption */
    const char *unit = ti % 3 == 0 ? "microseconds per context switch" : ti % 3 == 1 ? "seconds" : "microseconds per round trip";
    char *pc = xasprintf("The post: %s, %s", s001_titles[ti], unit), *oc = xasprintf("Here: %s, %s", s001_titles[ti], unit);
    post_t = ht_new("post", pc, 4);
    ours_t = ht_new("ours", oc, 4);
    free(pc);
    free(oc);
    static const char *const post_names[3] = { "rc1", "rc6", "cfs-devel" };
    for (int k = 0; k < 4; k++) {
        ht_head(post_t, (size_t)k, k ? post_names[k - 1] : "run", k ? "num" : NULL);
        ht_head(ours_t, (size_t)k, k ? s001_keys[k - 1] : "run", k ? "num" : NULL);
    }
    size_t ours_lines = 0;
    for (int k = 0; k < 3; k++)
        ours_lines = n[k] > ours_lines ? n[k] : ours_lines;
    for (size_t i = 0; i < seed_n; i++) {
        char rl[32];
        snprintf(rl, sizeof(rl), "%zu", i + 1);
        ht_row(post_t);
        ht_cell(post_t, rl, NULL);
        for (int k = 0; k < 3; k++)
            ht_num(post_t, s001[ti][k][i], 3);
    }
    for (size_t i = 0; i < ours_lines; i++) {
        char rl[32];
        snprintf(rl, sizeof(rl), "%zu", i + 1);
        ht_row(ours_t);
        ht_cell(ours_t, rl, NULL);
        for (int k = 0; k < 3; k++)
            ht_num(ours_t, i < n[k] ? v[k][i] : NAN, 3);
    }
    ht_row(post_t);
    ht_cell(post_t, "mean", "mean");
    ht_row(ours_t);
    ht_cell(ours_t, "mean", "mean");
    for (int k = 0; k < 3; k++) {
        ht_num(post_t, sm[k], 3);
        ht_num(ours_t, m[k], 3);
    }
    ht_row(ours_t);                      /* which CPUs each kernel's runs used */
    ht_cell(ours_t, "cpus_used", NULL);
    for (int k = 0; k < 3; k++) {
        char cu[64];
        ht_cell(ours_t, row_cpus_used(r[k], bench, cu, sizeof(cu)), NULL);
    }
    /* the plots: each kernel's mean over rc1's (the post's convention: the first column), a point per kernel;
     * ours with the spread of its runs when there are several */
    {
        char st[32], ti2[200];
        snprintf(st, sizeof(st), "kernels");
        snprintf(ti2, sizeof(ti2), "seed001 %s: each kernel's mean over rc1's (%s)", s001_tables[ti], s001_titles[ti]);
        struct nplot *pk = add_plot(np_new(st, ti2, "kernel (here | the post)", "ratio to rc1 (mean time)"));
        pk->ratio_line = true;
        pk->connect = true;
        for (int k = 0; k < 3; k++) {
            char xl[32];
            snprintf(xl, sizeof(xl), "%s | %s", s001_keys[k], post_names[k]);
            int x = np_x(pk, xl);
            struct np_series *se = np_series(pk, s001_keys[k], k);
            if (!se || x < 0)
                continue;
            se->ours[x] = sc_ratio(m[k], m[0]);
            se->post[x] = sm[k] / sm[0];
            if (n[k] > 1 && isfinite(m[0]) && m[0] > 0) {
                double lo = v[k][0], hi = v[k][0];
                for (size_t i = 1; i < n[k]; i++) {
                    lo = v[k][i] < lo ? v[k][i] : lo;
                    hi = v[k][i] > hi ? v[k][i] : hi;
                }
                se->lo[x] = lo / m[0];
                se->hi[x] = hi / m[0];
            }
        }
    }
    for (int k = 1; k < 3; k++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "mean %s / mean rc1", s001_keys[k]);
        add_cell(lab, sm[k] / sm[0], sc_ratio(m[k], m[0]), why[k] ? why[k] : why[0]);
    }
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s vs %s", s001_keys[a], s001_keys[b]);
            add_order(lab, sm[a], sm[b], m[a], m[b]);
        }
    /* Bound tables: each kernel's bound mean over its unbound mean (rows KERNEL-unbound=DIR), a
     * normalisation within one kernel, measurable even when the other kernels are not here. */
    for (int k = 0; ti >= 3 && k < 3; k++) {
        char key[32], lab[96];
        snprintf(key, sizeof(key), "%s-unbound", s001_keys[k]);
        struct row *u = find_row(key);
        if (!u)
            continue;
        double uv[16];
        size_t nf = 0, nu = row_values(u, bench, metric, 0, NULL, NULL, uv, 16, &nf, NULL);
        const char *w = why[k] ? why[k] : u->missing ? u->missing : !nu ? "not measured: no unbound run" : NULL;
        snprintf(lab, sizeof(lab), "%s: bound / unbound", s001_keys[k]);
        add_cell(lab, sm[k] / mean(s001[ti - 3][k], 10), sc_ratio(m[k], mean(uv, nu)), w);
        if (nplots < 2) {
            char ti2[200];
            snprintf(ti2, sizeof(ti2), "seed001 %s: each kernel's bound mean over its unbound mean", s001_bench[ti % 3]);
            struct nplot *pb = add_plot(np_new("bound-over-unbound", ti2, "kernel (here | the post)",
                                               "ratio bound / unbound (mean time)"));
            pb->ratio_line = true;
            pb->connect = true;
        }
        static const char *const pn[3] = { "rc1", "rc6", "cfs-devel" };
        char xl[32];
        snprintf(xl, sizeof(xl), "%s | %s", s001_keys[k], pn[k]);
        int x = np_x(plots[1], xl);
        struct np_series *se = np_series(plots[1], s001_keys[k], k);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(m[k], mean(uv, nu));
            se->post[x] = sm[k] / mean(s001[ti - 3][k], 10);
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- how reproduce measures it */

/* Each benchmark unbound, then bound to CPU 0 (the bound table also scores
 * each kernel's bound/unbound ratio); rc1 and rc6 are sched/cfs23.c's presets. */
static void recipe(struct repro *R)
{
    static const char *const quick[3][8] = { { "--procs", "2", "--size", "0", "--loops", "1000", "--reps", "3" },
                                             { "--groups", "10", "--loops", "25" },
                                             { "--loops", "20000" } };
    static const char *const full[3][8] = { { "--procs", "2", "--size", "0" },
                                            { "--groups", "50", "--loops", "100" },
                                            { "--loops", "1000000" } };
    char runs[24];
    snprintf(runs, sizeof(runs), "%ld", repro_runs(R, 10));
    for (int b = 0; b < 3; b++) {
        if (!repro_want(R, s001_bench[b]))
            continue;
        for (int bound = 0; bound < 2; bound++) {
            const char *f[24];
            size_t n = 0;
            f[n++] = "--bench";
            f[n++] = s001_bench[b];
            f[n++] = "--runs";
            f[n++] = runs;
            f[n++] = "--pipe-wake";
            f[n++] = "sync";
            f[n++] = "--sock-model";
            f[n++] = "2.6.24";
            if (bound) {
                f[n++] = "--bind";
                f[n++] = "0";
            }
            for (int i = 0; i < 8 && (R->quick ? quick : full)[b][i]; i++)
                f[n++] = (R->quick ? quick : full)[b][i];
            f[n] = NULL;
            const char *t = s001_tables[b + 3 * bound];
            repro_row(R, t, "rc1", "cfs23", "rc1", "2", f);
            repro_row(R, t, "rc6", "cfs23", "rc6", "2", f);
            repro_row(R, t, "cfs", "cfs", NULL, "2", f);
            repro_score(R, t, bound ? s001_bench[b] : NULL);
        }
    }
}

static const struct seed_table tables001[] = {
    { "lat_ctx", " rc1 rc6 cfs ", seed001_table },
    { "hackbench", " rc1 rc6 cfs ", seed001_table },
    { "pipe", " rc1 rc6 cfs ", seed001_table },
    { "lat_ctx-bound", " rc1 rc6 cfs rc1-unbound rc6-unbound cfs-unbound ", seed001_table },
    { "hackbench-bound", " rc1 rc6 cfs rc1-unbound rc6-unbound cfs-unbound ", seed001_table },
    { "pipe-bound", " rc1 rc6 cfs rc1-unbound rc6-unbound cfs-unbound ", seed001_table },
    { NULL, NULL, NULL },
};
const struct seed seed001 = { "seed001", "lat_ctx,hackbench,pipe", tables001, recipe };
