/*
 * Seed 000: Craig Thomas (OSDL), "Process scheduler improvements in
 * 2.6.0-test9", LKML, November 2003 (/work/shared/reference/seeds/): the
 * post's numbers, how its three tables are scored (hackbench by groups and
 * CPUs, 2.4.18 against 2.6.0-test9; the most hackbench groups before the
 * machine runs out of memory; Nick Piggin's scheduler on the 8-way), and
 * how reproduce measures them.
 */
#include "scoring.h"
#include "reproduce.h"

#include <fcntl.h>
#include <unistd.h>
#include "cli.h"
#include "metric.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* seed 000, test set 1 (hackbench, mean of 5 runs, s) and test set 2 (max groups) */
const double seed000_hackbench_seconds[2][4][4] = {
    { { 15.52, 37.63, 74.34, 110.62 }, { 10.50, 30.42, 64.26, 112.46 }, { 7.07, 22.75, 54.10, 101.45 },
      { 7.02, 24.63, 61.48, 114.93 } },
    { { 9.91, 17.86, 27.55, 39.77 }, { 7.44, 13.45, 19.68, 26.68 }, { 5.16, 9.25, 13.64, 18.65 },
      { 4.08, 7.15, 10.31, 13.84 } },
};
static const double s000_maxg[2][4] = { { 200, 225, 225, 225 }, { 200, 350, 525, 425 } };
const int seed000_cpus[4] = { 1, 2, 4, 8 };
const int seed000_groups[4] = { 50, 100, 150, 200 };
/* Nick Piggin's scheduler patch on the 8-way, groups 20..100 */
static const double s000_nick[5] = { 1.69, 2.54, 3.41, 4.38, 5.44 };
static const int s000_nick_groups[5] = { 20, 40, 60, 80, 100 };


/* ---------------------------------------------------------------- seed 000 */

const char *const seed000_kernels[2] = { "goodness", "o1" };
const char *const seed000_kernel_names[2] = { "2.4.18", "2.6.0-test9" };

static int seed000_hackbench(const char *table)
{
    (void)table;
    struct row *r[2] = { find_row("goodness"), find_row("o1") };
    for (int k = 0; k < 2; k++)
        if (!r[k])
            return usage_error("seed000 hackbench needs the row %s=DIR (or =!why)", seed000_kernels[k]);
    printf("Test set 1: Performance of hackbench (seconds, lower is better): here beside the seed.\n"
           "Columns are matched by position (here the groups of the run, seed groups 50 100 150 200).\n");
    static const struct size_spec spec[] = { { "groups", "groups", "50,100,150,200" }, { "loops", "loops", "100" } };
    describe("hackbench", spec, 2, "the mean of 5 runs a cell", "1/2/4/8 CPUs", "OSDL's Scalable Test Platform",
             "2.4.18 and 2.6.0-test9");
    title_text = "Test set 1: hackbench, seconds (lower is better)";
    compares = "shapes, not seconds: o1/goodness in each cell (16 cells), each kernel's growth along its row, every "
               "column over the row's first (24), and which kernel is faster in each cell (16 orderings). Columns are "
               "matched by position, so a smaller run's groups stand for the post's 50..200 in order.";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: hackbench, seconds (mean of 5 runs)", 5);
    ours_t = ht_new("ours", "Here: hackbench, seconds (mean of the ok runs)", 5);
    ht_head(post_t, 0, "groups", NULL);
    ht_head(ours_t, 0, "groups", NULL);
    for (int a = 0; a < 4; a++) {
        char g[16];
        snprintf(g, sizeof(g), "%d", seed000_groups[a]);
        ht_head(post_t, (size_t)a + 1, g, "num");
        snprintf(g, sizeof(g), "col %d", a + 1);   /* ours: the groups of the run, in a row of each block */
        ht_head(ours_t, (size_t)a + 1, g, "num");
    }
    struct nplot *pr = add_plot(np_new("ratio", "seed000 hackbench: o1 / goodness time in each cell, by CPU count",
                                       "groups column (here | the post)", "ratio o1 / goodness (time)"));
    pr->ratio_line = true;
    struct nplot *pg[2];
    for (int k = 0; k < 2; k++) {
        char st[32], ti[160];
        snprintf(st, sizeof(st), "growth-%s", seed000_kernels[k]);
        snprintf(ti, sizeof(ti), "seed000 hackbench: %s (%s) time over its first column, by CPU count", seed000_kernels[k],
                 seed000_kernel_names[k]);
        pg[k] = add_plot(np_new(st, ti, "groups column (here | the post)", "ratio to the first column (time)"));
        pg[k]->ratio_line = true;
    }
    for (int ci = 0; ci < 4; ci++) {
        int cpu = seed000_cpus[ci];
        long gv[8] = { 0 };
        size_t ng = 0;
        for (int k = 0; k < 2 && !ng; k++)
            ng = row_across(r[k], "hackbench", cpu, "groups", gv, 8);
        double here[2][4];
        bool over = false;
        const char *why[2][4];
        for (int k = 0; k < 2; k++)
            for (int a = 0; a < 4; a++) {
                why[k][a] = NULL;
                here[k][a] = a < (int)ng ? cell_here(r[k], "hackbench", "time_s", cpu, "groups", gv[a], &over, &why[k][a])
                                         : NAN;
                if (a >= (int)ng)
                    why[k][a] = r[k]->missing ? r[k]->missing : "not measured: no such column here";
            }
        printf("%d CPU%s%s\n", cpu, cpu > 1 ? "s" : "", over ? "  (here oversubscribed: more vCPUs than host cores)" : "");
        printf("   %-24s", "groups (here | seed)");
        for (int a = 0; a < 4; a++)
            if (a < (int)ng)
                printf("%8ld", gv[a]);
            else
                printf("%8s", "-");
        printf("   |");
        for (int a = 0; a < 4; a++)
            printf("%8d", seed000_groups[a]);
        printf("\n");
        for (int k = 0; k < 2; k++) {
            printf("   %-24s", seed000_kernels[k]);
            for (int a = 0; a < 4; a++)
                print_val(here[k][a], 8, 3);
            printf("   |");
            for (int a = 0; a < 4; a++)
                print_val(seed000_hackbench_seconds[k][ci][a], 8, 2);
            printf("   %s\n", seed000_kernel_names[k]);
        }
        printf("   %-24s", "o1/goodness");
        for (int a = 0; a < 4; a++)
            print_val(sc_ratio(here[1][a], here[0][a]), 8, 2);
        printf("   |");
        for (int a = 0; a < 4; a++)
            print_val(seed000_hackbench_seconds[1][ci][a] / seed000_hackbench_seconds[0][ci][a], 8, 2);
        printf("   2.6/2.4\n");
        char blk[48];
        snprintf(blk, sizeof(blk), "%d CPU%s%s", cpu, cpu > 1 ? "s" : "", over ? " (here oversubscribed)" : "");
        ht_group(post_t, blk);
        ht_group(ours_t, blk);
        ht_row(ours_t);
        ht_cell(ours_t, "groups here", "sub");
        for (int a = 0; a < 4; a++) {
            char g[16];
            snprintf(g, sizeof(g), "%ld", a < (int)ng ? gv[a] : 0L);
            ht_cell(ours_t, a < (int)ng ? g : "-", "num sub");
        }
        for (int k = 0; k < 2; k++) {
            ht_row(post_t);
            ht_cell(post_t, seed000_kernel_names[k], NULL);
            ht_row(ours_t);
            ht_cell(ours_t, seed000_kernels[k], NULL);
            for (int a = 0; a < 4; a++) {
                ht_num(post_t, seed000_hackbench_seconds[k][ci][a], 2);
                ht_num(ours_t, here[k][a], 3);
            }
        }
        ht_row(post_t);
        ht_cell(post_t, "2.6 / 2.4", "ratio");
        ht_row(ours_t);
        ht_cell(ours_t, "o1 / goodness", "ratio");
        for (int a = 0; a < 4; a++) {
            ht_num(post_t, seed000_hackbench_seconds[1][ci][a] / seed000_hackbench_seconds[0][ci][a], 2);
            ht_num(ours_t, sc_ratio(here[1][a], here[0][a]), 2);
        }
        /* the plots: a colour per CPU count, the columns across */
        char sname[16];
        snprintf(sname, sizeof(sname), "%d CPU%s", cpu, cpu > 1 ? "s" : "");
        for (int a = 0; a < 4; a++) {
            char xl[32];
            if (a < (int)ng)
                snprintf(xl, sizeof(xl), "%ld | %d", gv[a], seed000_groups[a]);
            else
                snprintf(xl, sizeof(xl), "- | %d", seed000_groups[a]);
            int x = np_x(pr, xl);
            struct np_series *se = np_series(pr, sname, ci);
            if (se && x >= 0) {
                se->ours[x] = sc_ratio(here[1][a], here[0][a]);
                se->post[x] = seed000_hackbench_seconds[1][ci][a] / seed000_hackbench_seconds[0][ci][a];
            }
            for (int k = 0; k < 2; k++) {
                int xg = np_x(pg[k], xl);
                struct np_series *sg = np_series(pg[k], sname, ci);
                if (sg && xg >= 0) {
                    sg->ours[xg] = sc_ratio(here[k][a], here[k][0]);
                    sg->post[xg] = seed000_hackbench_seconds[k][ci][a] / seed000_hackbench_seconds[k][ci][0];
                }
            }
        }
        for (int a = 0; a < 4; a++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d CPU col %d: o1/goodness", cpu, a + 1);
            const char *w = why[0][a] ? why[0][a] : why[1][a];
            add_cell(lab, seed000_hackbench_seconds[1][ci][a] / seed000_hackbench_seconds[0][ci][a], sc_ratio(here[1][a], here[0][a]), w);
        }
        for (int k = 0; k < 2; k++)
            for (int a = 1; a < 4; a++) {
                char lab[96];
                snprintf(lab, sizeof(lab), "%d CPU col %d/col 1: %s growth", cpu, a + 1, seed000_kernels[k]);
                const char *w = why[k][a] ? why[k][a] : why[k][0];
                add_cell(lab, seed000_hackbench_seconds[k][ci][a] / seed000_hackbench_seconds[k][ci][0], sc_ratio(here[k][a], here[k][0]), w);
            }
        for (int a = 0; a < 4; a++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%d CPU col %d: goodness vs o1", cpu, a + 1);
            add_order(lab, seed000_hackbench_seconds[0][ci][a], seed000_hackbench_seconds[1][ci][a], here[0][a], here[1][a]);
        }
    }
    return 0;
}

static int seed000_maxgroups(const char *table)
{
    (void)table;
    struct row *r[2] = { find_row("goodness"), find_row("o1") };
    for (int k = 0; k < 2; k++)
        if (!r[k])
            return usage_error("seed000 maxgroups needs the row %s=DIR (or =!why)", seed000_kernels[k]);
    printf("Test set 2: Max Groups Before Out of Resource (larger is better): here beside the seed.\n");
    static const struct size_spec spec[] = { { "step", "groups step", "25 (the STP request's increment)" },
                                             { "loops", "loops", "not given" },
                                             { "mem_mib", "memory MiB", "not given (untuned defaults)" } };
    describe("maxgroups", spec, 3, "one count a cell", "1/2/4/8 CPUs", "OSDL's Scalable Test Platform",
             "2.4.18 and 2.6.0-test9");
    title_text = "Test set 2: max groups before out of resource (larger is better)";
    compares = "o1/goodness max groups per CPU count (4 cells), each kernel's count at 2, 4 and 8 CPUs over its "
               "1-CPU count (6), and the orderings between the kernels and along the CPU counts (10).";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: max groups (groups)", 3);
    ours_t = ht_new("ours", "Here: max groups (groups)", 3);
    ht_head(post_t, 0, "CPUs", NULL);
    ht_head(post_t, 1, "2.4.18", "num");
    ht_head(post_t, 2, "2.6.0-test9", "num");
    ht_head(ours_t, 0, "CPUs", NULL);
    ht_head(ours_t, 1, "goodness", "num");
    ht_head(ours_t, 2, "o1", "num");
    struct nplot *pr = add_plot(np_new("ratio", "seed000 maxgroups: o1 / goodness max groups by CPU count", "CPUs",
                                       "ratio o1 / goodness (groups)"));
    pr->ratio_line = true;
    struct nplot *pgr = add_plot(np_new("growth", "seed000 maxgroups: each kernel's max groups over its 1-CPU count",
                                        "CPUs", "ratio to 1 CPU (groups)"));
    pgr->ratio_line = true;
    double here[2][4];
    const char *why[2][4];
    printf("------------------------------------------------\n");
    for (int ci = 0; ci < 4; ci++) {
        bool over = false;
        for (int k = 0; k < 2; k++) {
            why[k][ci] = NULL;
            here[k][ci] = cell_here(r[k], "maxgroups", "max_groups", seed000_cpus[ci], NULL, 0, &over, &why[k][ci]);
        }
        printf("%d CPU%s%s\n", seed000_cpus[ci], ci ? "s" : "", over ? "  (here oversubscribed)" : "");
        for (int k = 0; k < 2; k++) {
            printf("   %-12s", seed000_kernels[k]);
            print_val(here[k][ci], 8, 0);
            printf("   | %-12s %6.0f\n", seed000_kernel_names[k], s000_maxg[k][ci]);
        }
        char cl[32];
        snprintf(cl, sizeof(cl), "%d%s", seed000_cpus[ci], over ? " (oversubscribed)" : "");
        ht_row(post_t);
        ht_cell(post_t, cl, NULL);
        ht_row(ours_t);
        ht_cell(ours_t, cl, NULL);
        for (int k = 0; k < 2; k++) {
            ht_num(post_t, s000_maxg[k][ci], 0);
            ht_num(ours_t, here[k][ci], 0);
        }
        printf("------------------------------------------------\n");
    }
    for (int ci = 0; ci < 4; ci++) {
        char xl[16];
        snprintf(xl, sizeof(xl), "%d", seed000_cpus[ci]);
        int x = np_x(pr, xl);
        struct np_series *se = np_series(pr, "o1 / goodness", 1);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(here[1][ci], here[0][ci]);
            se->post[x] = s000_maxg[1][ci] / s000_maxg[0][ci];
        }
        for (int k = 0; k < 2; k++) {
            struct np_series *sg = np_series(pgr, seed000_kernels[k], k);
            int xg = np_x(pgr, xl);
            if (sg && xg >= 0) {
                sg->ours[xg] = sc_ratio(here[k][ci], here[k][0]);
                sg->post[xg] = s000_maxg[k][ci] / s000_maxg[k][0];
            }
        }
    }
    for (int ci = 0; ci < 4; ci++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "%d CPU: o1/goodness", seed000_cpus[ci]);
        add_cell(lab, s000_maxg[1][ci] / s000_maxg[0][ci], sc_ratio(here[1][ci], here[0][ci]),
                 why[0][ci] ? why[0][ci] : why[1][ci]);
    }
    for (int k = 0; k < 2; k++)
        for (int ci = 1; ci < 4; ci++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s %d CPUs / 1 CPU", seed000_kernels[k], seed000_cpus[ci]);
            add_cell(lab, s000_maxg[k][ci] / s000_maxg[k][0], sc_ratio(here[k][ci], here[k][0]),
                     why[k][ci] ? why[k][ci] : why[k][0]);
        }
    for (int ci = 0; ci < 4; ci++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "%d CPU: goodness vs o1", seed000_cpus[ci]);
        add_order(lab, s000_maxg[0][ci], s000_maxg[1][ci], here[0][ci], here[1][ci]);
    }
    for (int k = 0; k < 2; k++)
        for (int ci = 1; ci < 4; ci++) {
            char lab[96];
            snprintf(lab, sizeof(lab), "%s %d CPUs vs %d", seed000_kernels[k], seed000_cpus[ci], seed000_cpus[ci - 1]);
            add_order(lab, s000_maxg[k][ci], s000_maxg[k][ci - 1], here[k][ci], here[k][ci - 1]);
        }
    return 0;
}

static int seed000_nick(const char *table)
{
    (void)table;
    struct row *r = find_row("nick");
    if (!r)
        return usage_error("seed000 nick needs the row %s=DIR (or =!why)", "nick");
    printf("Nick Piggin's scheduler patch on the 8-way, hackbench groups 20..100 (seconds): here beside the seed.\n");
    static const struct size_spec spec[] = { { "groups", "groups", "20,40,60,80,100" },
                                             { "loops", "loops", "100 (hackbench's default)" } };
    describe("hackbench", spec, 2, "runs a cell not given", "8 CPUs", "OSDL's 8-way", "Nick Piggin's patch on 2.6.0-test");
    title_text = "Nick Piggin's scheduler on the 8-way: hackbench, seconds (lower is better)";
    compares = "the growth of the time along the row: groups 40..100 over groups 20 (4 cells); the 8-way's seconds "
               "themselves are not compared.";
    print_described();
    print_unavailable();
    post_t = ht_new("post", "The post: hackbench on 8 CPUs, seconds", 2);
    ours_t = ht_new("ours", "Here: hackbench on 8 CPUs, seconds", 2);
    ht_head(post_t, 0, "groups", NULL);
    ht_head(post_t, 1, "nick", "num");
    ht_head(ours_t, 0, "groups", NULL);
    ht_head(ours_t, 1, "nick", "num");
    struct nplot *pgr = add_plot(np_new("growth", "seed000 nick: hackbench time over groups 20, 8 CPUs", "groups",
                                        "ratio to groups 20 (time)"));
    pgr->ratio_line = true;
    double here[5];
    const char *why[5];
    bool over = false;
    printf("   %-8s %10s   | %8s\n", "groups", "nick", "seed");
    for (int a = 0; a < 5; a++) {
        why[a] = NULL;
        here[a] = cell_here(r, "hackbench", "time_s", 8, "groups", s000_nick_groups[a], &over, &why[a]);
        printf("   %-8d", s000_nick_groups[a]);
        print_val(here[a], 10, 3);
        printf("   | %8.2f\n", s000_nick[a]);
        char gl[16];
        snprintf(gl, sizeof(gl), "%d", s000_nick_groups[a]);
        ht_row(post_t);
        ht_cell(post_t, gl, NULL);
        ht_num(post_t, s000_nick[a], 2);
        ht_row(ours_t);
        ht_cell(ours_t, gl, NULL);
        ht_num(ours_t, here[a], 3);
    }
    for (int a = 0; a < 5; a++) {
        char gl[16];
        snprintf(gl, sizeof(gl), "%d", s000_nick_groups[a]);
        int x = np_x(pgr, gl);
        struct np_series *se = np_series(pgr, "nick", 2);
        if (se && x >= 0) {
            se->ours[x] = sc_ratio(here[a], here[0]);
            se->post[x] = s000_nick[a] / s000_nick[0];
        }
    }
    if (over)
        printf("   (here oversubscribed: more vCPUs than host cores)\n");
    for (int a = 1; a < 5; a++) {
        char lab[96];
        snprintf(lab, sizeof(lab), "groups %d / groups 20", s000_nick_groups[a]);
        add_cell(lab, s000_nick[a] / s000_nick[0], sc_ratio(here[a], here[0]), why[a] ? why[a] : why[0]);
    }
    return 0;
}

/* ---------------------------------------------------------------- how reproduce measures it */

/* Every row before any table is scored, all in one pool; the tables scored in the post's order. */
static void recipe(struct repro *R)
{
    const char *smps = R->smp ? R->smp : "1,2,4,8";
    char runs[24];
    if (repro_want(R, "maxgroups")) {
        /* Guest memory is what the cells count, and the post does not say its machines' memory:
         * 128 MiB puts the 1-CPU cell where the post's is (200 groups for both kernels); the
         * other cells are compared.  quick: 48 MiB, fewer loops.  Counts of groups, not times:
         * in the default configuration they run under TCG, whose vCPUs are host threads. */
        const char *mem = R->quick ? "48" : "128", *loops = R->quick ? "5" : "10";
        R->row_accel = R->accel_default ? "tcg" : NULL;
        const char *g[] = { "--bench", "maxgroups", "--mem", mem, "--step", "25", "--loops", loops, "--sock-model", "2.4.18", NULL };
        const char *o[] = { "--bench", "maxgroups", "--mem", mem, "--step", "25", "--loops", loops, "--sock-model", "2.6.0", NULL };
        repro_row(R, "maxgroups", "goodness", "goodness", NULL, smps, g);
        repro_row(R, "maxgroups", "o1", "o1", NULL, smps, o);
        R->row_accel = NULL;
    }
    if (repro_want(R, "nick")) {   /* Nick Piggin's patch on the 8-way: groups 20..100 */
        char *groups = repro_groups("20:100");
        snprintf(runs, sizeof(runs), "%ld", repro_runs(R, R->quick ? 2 : 5));
        const char *f[] = { "--bench", "hackbench", "--groups", groups, "--loops", R->quick ? "25" : "100", "--runs", runs,
                            "--sock-model", "2.6.0", NULL };
        repro_row(R, "nick", "nick", "nick", NULL, "8", f);
        free(groups);
    }
    if (repro_want(R, "hackbench")) {
        char *groups = repro_groups(R->groups ? R->groups : R->quick ? "10:40" : "50:200");
        const char *loops = R->quick ? "25" : "100";
        snprintf(runs, sizeof(runs), "%ld", repro_runs(R, R->quick ? 2 : 5));
        const char *g[] = { "--bench", "hackbench", "--groups", groups, "--loops", loops, "--runs", runs,
                            "--sock-model", "2.4.18", NULL };
        const char *o[] = { "--bench", "hackbench", "--groups", groups, "--loops", loops, "--runs", runs,
                            "--sock-model", "2.6.0", NULL };
        repro_row(R, "hackbench", "goodness", "goodness", NULL, smps, g);
        repro_row(R, "hackbench", "o1", "o1", NULL, smps, o);
        free(groups);
    }
    static const char *const order[] = { "hackbench", "maxgroups", "nick", NULL };
    for (int i = 0; order[i]; i++)
        if (repro_want(R, order[i]))
            repro_score(R, order[i], NULL);
}

/* ---------------------------------------------------------------- seed-table: the hackbench table alone */

void seed000_table_defaults(struct seed_table_sizes *z)
{
    memset(z, 0, sizeof(*z));
    z->runs = "3";
    z->boots = "1";
    z->smp = "1,2,4,8";
    z->timeout = "150";
    z->groups = getenv("SEED_GROUPS") && *getenv("SEED_GROUPS") ? getenv("SEED_GROUPS") : NULL;
    z->loops = getenv("SEED_LOOPS") && *getenv("SEED_LOOPS") ? getenv("SEED_LOOPS") : NULL;
}

/* Scaled down from the seed (5 runs of groups 50..200, loops=100, on real SMP
 * machines) so that the boots fit in about 10 minutes on a 2-core host under
 * TCG: groups /5, loops /4, 3 runs in one boot (so every cell has a spread; a
 * boot per cell more would double the time spent in the goodness boots that
 * hit the limit on 4 and 8 vCPUs), each boot killed (and its missing runs
 * marked FAILED) after --timeout seconds. */
int seed000_table_measure(struct seed_table_sizes *z, const char *out, char **scaled)
{
    char *groups = expand_groups(z->groups ? z->groups : "10,20,30,40");
    if (!groups)
        return EXIT_USAGE;
    const char *loops = z->loops ? z->loops : "25";
    /* what it needs, said plainly when it is missing */
    char **known = list_scheds();
    char *missing = NULL;
    for (int k = 0; k < 2; k++) {
        bool found = false;
        for (size_t i = 0; known && known[i]; i++)
            found |= !strcmp(known[i], seed000_kernels[k]);
        if (!found) {
            char *m = xasprintf("%s scheduler %s (sched/%s.c);", missing ? missing : "", seed000_kernels[k], seed000_kernels[k]);
            free(missing);
            missing = m;
        }
    }
    for (size_t i = 0; known && known[i]; i++)
        free(known[i]);
    free(known);
    if (missing) {
        errorf("make seed-table needs pieces that are not there yet:%s", missing);
        free(missing);
        free(groups);
        return 1;
    }
    struct strbuf b = { 0 };
    if (strcmp(groups, "50,100,150,200"))
        sb_printf(&b, " groups=%s (seed: 50,100,150,200);", groups);
    if (strcmp(loops, "100"))
        sb_printf(&b, " loops=%s (seed: 100);", loops);
    if (strcmp(z->runs, "5") || strcmp(z->boots, "1"))
        sb_printf(&b, " %s run(s) x %s boot(s) per cell (seed: mean of 5 runs);", z->runs, z->boots);
    sb_printf(&b, " each boot stopped after %s s;", z->timeout);
    *scaled = b.s;
    fprintf(stderr, "seed-table: scaled to fit this machine:%s\n", b.s);
    char *av[32];
    int n = 0;
    const char *fixed[] = { "run", "--sched", "goodness,o1", "--smp", z->smp, "--bench", "hackbench", "--groups", groups,
                            "--loops", loops, "--runs", z->runs, "--boots", z->boots, "--timeout", z->timeout, "--out", out,
                            "--force", NULL };
    for (int i = 0; fixed[i]; i++)
        av[n++] = (char *)fixed[i];
    if (z->jobs) {
        av[n++] = "-j";
        av[n++] = (char *)z->jobs;
    }
    if (z->quiet)
        av[n++] = "--quiet";
    av[n] = NULL;
    /* run's table goes nowhere: the seed's layout follows */
    fflush(stdout);
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, 1);
    struct run_req r;
    run_req_init(&r);
    bool help;
    cli_set_verb("seed-table", NULL);
    int rc = run_req_parse(&r, n, av, &help);
    if (!rc)
        rc = run_matrix(&r);
    run_req_free(&r);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, 1);
        close(saved);
    }
    if (null >= 0)
        close(null);
    free(groups);
    return rc;
}

static const struct seed_table tables000[] = {
    { "hackbench", " goodness o1 ", seed000_hackbench },
    { "maxgroups", " goodness o1 ", seed000_maxgroups },
    { "nick", " nick ", seed000_nick },
    { NULL, NULL, NULL },
};
const struct seed seed000 = { "seed000", "hackbench,maxgroups,nick", tables000, recipe };
