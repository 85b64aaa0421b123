/*
 * scorecard SEED TABLE ROW=DIR...: one table of a seed post beside ours in
 * the post's layout, then its fidelity scorecard (scorecard.c): the
 * normalised cells (ratios between kernels in one cell, growth along a row)
 * with the seed's value, ours and the deviation, the orderings, and the
 * machine-readable "scorecard seed=... table=..." line.  Each ROW names a
 * kernel of the table (goodness, o1, rc1, ...) and the results directory of
 * its run (tools/schedlab run), or "!why" when that kernel cannot be
 * measured here: its cells are listed as missing with that reason, never
 * dropped or filled from another kernel.  docs/reproduce.md.
 */
#include "cmds.h"
#include "lost_ticks.h"
#include "cli.h"
#include "metric.h"
#include "scoring.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: schedlab scorecard SEED TABLE [--cost MODEL] [--machine PRESET] [--model guest|host] [--csv FILE] [--html FILE]\n"
    "                               [--plots DIR] [--notes FILE]\n"
    "                               ROW=DIR[#SCHED]|ROW=!WHY ...\n"
    "  SEED TABLE: seed000 hackbench|maxgroups|nick, seed001 lat_ctx|hackbench|pipe|lat_ctx-bound|hackbench-bound|\n"
    "  pipe-bound, seed003 tbench|aim7|volano.  ROW: a kernel of that table (seed000: goodness o1 [nick]; seed001: rc1 rc6 cfs;\n"
    "  seed003: goodness dyn-sched o1-rml mq; a seed001 -bound table also takes KERNEL-unbound=DIR for\n"
    "  the bound/unbound ratios) and the results directory of its run (#SCHED: only that\n"
    "  scheduler's rows, when DIR holds several), or !WHY when it cannot be\n"
    "  measured (its cells are counted as missing, with WHY).  --cost: the cost model the runs used (cost=,\n"
    "  checked against the cost= of the runs' result lines).  --machine: the memory model's preset the runs\n"
    "  booted with (machine= of their boot lines, checked; none: no model) [none]; named in the scorecard's\n"
    "  title and at the end of its scorecard line.  --model: where that model ran: guest (a CACHES=1 kernel)\n"
    "  or host (the QEMU plugin: boot lines with model=host, a kernel of make CACHES=host; checked) [guest];\n"
    "  host is named after the preset (machine=PRESET model=host, also in the CSV's machine column).\n"
    "  --csv FILE: append the cells as CSV rows.\n"
    "  --html FILE: the table as an HTML section (what ran, the scorecard with its cells coloured by\n"
    "  deviation, the notes, the post's table beside ours, the plots inline) for report.html.\n"
    "  --plots DIR: one plot per normalised quantity, ours (solid) and the post's (dashed) on one axis,\n"
    "  DIR/SEED-COST-TABLE-QUANTITY.png, .svg and .gp (gnuplot).  --notes FILE: the table's lines of\n"
    "  FILE (tools/reproduce-notes.txt) under its scorecard.\n"
    "  Exit: 0, 1 unreadable input, 2 usage error.\n";

/* ---------------------------------------------------------------- the verb */

int cmd_scorecard(int argc, char **argv)
{
    const char *cost = "none", *machine = "none", *model = "guest", *csv = NULL, *seed = NULL, *tname = NULL, *html = NULL,
               *plotdir = NULL, *notes_file = NULL;
    nrows = ncells = nords = nplots = 0;
    static const char *const names[] = { "cost", "machine", "model", "csv", "html", "plots", "notes", "help", NULL };
    cli_set_usage(usage);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            return 0;
        }
        if (!strcmp(a, "--cost") || !strcmp(a, "--machine") || !strcmp(a, "--model") || !strcmp(a, "--csv") ||
            !strcmp(a, "--html") || !strcmp(a, "--plots") || !strcmp(a, "--notes")) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char **dst = !strcmp(a, "--cost") ? &cost : !strcmp(a, "--machine") ? &machine : !strcmp(a, "--model") ? &model
                               : !strcmp(a, "--csv") ? &csv : !strcmp(a, "--html") ? &html
                               : !strcmp(a, "--plots") ? &plotdir : &notes_file;
            *dst = argv[++i];
            continue;
        }
        if (a[0] == '-')
            return unknown_flag_error(a, names);
        if (!seed) {
            seed = a;
            continue;
        }
        if (!tname) {
            tname = a;
            continue;
        }
        const char *eq = strchr(a, '=');
        if (!eq || eq == a || !eq[1])
            return usage_error("'%s': expected ROW=DIR or ROW=!WHY", a);
        if (nrows >= MAXROWS)
            return usage_error("too many rows at '%s'", a);
        struct row *r = &rows[nrows++];
        memset(r, 0, sizeof(*r));
        r->key = xstrndup(a, eq - a);
        if (eq[1] == '!')
            r->missing = eq + 2;
        else {
            char *d = xstrdup(eq + 1), *h = strchr(d, '#');
            if (h) {
                *h = 0;
                r->sched = h + 1;
            }
            r->dir = d;
        }
    }
    if (!seed || !tname)
        return verb_usage_error("scorecard needs SEED and TABLE");
    if (strcmp(model, "guest") && strcmp(model, "host"))
        return verb_usage_error("--model %s: expected guest or host", model);
    if (!strcmp(model, "host") && !strcmp(machine, "none"))
        return verb_usage_error("--model host goes with --machine PRESET (the preset the model ran)");
    for (size_t i = 0; i < nrows; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(rows[i].key, rows[j].key))
                return usage_error("row %s given twice", rows[i].key);
    const struct seed *sd = seed_find(seed);
    if (!sd) {
        static const char *const names[] = { "seed000", "seed001", "seed003", NULL };
        const char *near = suggest(seed, names);
        return near ? verb_usage_error("no seed '%s' (did you mean %s?)", seed, near)
                    : verb_usage_error("no seed '%s' (seed000, seed001 and seed003)", seed);
    }
    const struct seed_table *st = NULL;
    for (const struct seed_table *t = sd->scored; t->name; t++)
        if (!strcmp(t->name, tname))
            st = t;
    if (!st) {
        char *list = NULL;
        for (const struct seed_table *t = sd->scored; t->name; t++) {
            char *n = xasprintf("%s%s%s", list ? list : "", list ? " " : "", t->name);
            free(list);
            list = n;
        }
        const char *names[16];
        size_t nn = 0;
        for (const struct seed_table *t = sd->scored; t->name && nn < 15; t++)
            names[nn++] = t->name;
        names[nn] = NULL;
        const char *near = suggest(tname, names);
        int e = verb_usage_error("%s has no table '%s'%s%s%s (its tables: %s)", sd->name, tname,
                                 near ? "; did you mean " : "", near ? near : "", near ? "?" : "", list);
        free(list);
        return e;
    }
    for (size_t i = 0; i < nrows; i++) {
        char *w = xasprintf(" %s ", rows[i].key);
        bool ok = strstr(st->rows, w) != NULL;
        free(w);
        if (!ok) {
            errorf("%s %s has no row '%s' (its rows:%s)", sd->name, tname, rows[i].key, st->rows);
            return EXIT_USAGE;
        }
    }
    int rc = st->score(tname);
    if (rc)
        return rc;
    const char *rcost = runs_cost(cost);
    if (!rcost) {
        errorf("the runs of %s %s used different cost models (the cost column differs)", seed, tname);
        return 1;
    }
    if (strcmp(rcost, cost)) {
        errorf("--cost %s, but the runs recorded cost=%s", cost, rcost);
        return 1;
    }
    const char *rmachine = runs_machine(machine);
    if (!rmachine) {
        errorf("the runs of %s %s booted different machines (their boot lines' machine= differ)", seed, tname);
        return 1;
    }
    if (strcmp(rmachine, machine)) {
        errorf("--machine %s, but the runs booted machine=%s", machine, rmachine);
        return 1;
    }
    /* where the model ran (only with one: a plain boot has no model= either) */
    const char *rmodel = strcmp(machine, "none") ? runs_model(model) : model;
    if (!rmodel) {
        errorf("the runs of %s %s ran the memory model in different places (model=host on some boot lines only)", seed,
               tname);
        return 1;
    }
    if (strcmp(rmodel, model)) {
        errorf("--model %s, but the runs' boot lines say %s", model,
               !strcmp(rmodel, "host") ? "model=host (the QEMU plugin)" : "no model=host (the model in the guest)");
        return 1;
    }
    /* the preset as the scorecard names it: machine=PRESET, and model=host after it when the plugin ran it */
    char *mlabel = !strcmp(model, "host") ? xasprintf("%s model=host", machine) : xstrdup(machine);
    machine = mlabel;
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].t.ncols)
            lost_ticks_warn(stdout, &rows[i].t, NULL, false);
    printf("\n");
    sc_print(stdout, seed, tname, cost, machine, cells, ncells, ords, nords);
    char **notes;
    size_t nnotes = read_notes(notes_file, seed, tname, &notes);
    const char *nf = notes_file ? strrchr(notes_file, '/') : NULL;
    char *notes_name = notes_file ? xasprintf("tools/%s", nf ? nf + 1 : notes_file) : NULL;
    print_notes(notes_name, notes, nnotes);
    /* the plots, named SEED-COST-TABLE-QUANTITY */
    for (size_t i = 0; plotdir && i < nplots; i++) {
        char *stem = xasprintf("%s-%s-%s-%s", seed, cost, tname, plots[i]->stem);
        snprintf(plots[i]->stem, sizeof(plots[i]->stem), "%s", stem);
        free(stem);
        if (np_render(plots[i], plotdir))
            rc = 1;
    }
    if (html && write_html(html, seed, tname, cost, plotdir, notes_name, notes, nnotes))
        rc = 1;
    for (size_t i = 0; i < nnotes; i++)
        free(notes[i]);
    free(notes);
    free(notes_name);
    for (size_t i = 0; i < nplots; i++)
        free(plots[i]);
    ht_free(post_t);
    ht_free(ours_t);
    post_t = ours_t = NULL;
    if (rc)
        return rc;
    if (csv) {
        FILE *f = fopen(csv, "a");
        if (!f) {
            errorf("cannot write %s", csv);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        bool header = ftell(f) == 0;
        sc_write_csv(f, header, seed, tname, cost, machine, cells, ncells, ords, nords);
        fclose(f);
    }
    return 0;
}
